"""Rollouts: the no-peek player plays the position out again and again, its preferences varied.

A probe, not a proof: it answers "won" (with the moves played, replayed through the engine)
or "unknown", never "lost".  `api._solve` runs it first, with 1/`ROLLOUT_SHARE` of the
budget, where the rules hide cards in the tableau (`Rules.face_down_tableau`: Moving Left
and its variants).  Why there: on 104 cards with a face-down tableau and a stock, the
complete searches spend their states on shuffles of long sequences, while the player's
rules of thumb (uncover, play the waste, go home when it is safe) win many deals in a few
hundred moves; blurring them finds lines the plain rules miss (figures: benchmarks/
RESULTS.md, «Moving Left «con ventaja»»).

Rollout ``k`` plays as ``players.Varied(seed=k, sigma=...)``: rollout 0 with no noise (the
plain `players.Heuristic`, so every position that player wins, the solver wins too), then
the deviations in `SIGMAS` in turn.  The order is fixed, so a capped run always gives the
same answer.  Each move a rollout makes counts as one state: a position expanded (the
player scores every legal move from it).  `max_states` stays a hard cap: the last rollout
stops when the budget is spent.
"""

from __future__ import annotations

import time

from ..engine import Game
from ..moves import Move
from ..players import MAX_MOVES, Varied
from .lines import _check_line

ROLLOUT_SHARE = 2
"""Where the rollouts run, they get 1/ROLLOUT_SHARE of the state and time budget."""

SIGMAS: tuple[float, ...] = (100.0, 300.0, 30.0, 1000.0)
"""The noise deviations of rollouts 1, 2, 3… in turn (the player's move scores run from
about -1 to 1,800: 30 reorders near ties, 100 and 300 close and distant choices, 1,000 plays
almost at random among the moves it would consider).  Each deviation wins deals the
others miss."""

UNCAPPED_ROLLOUTS = 200
"""Rollouts played when `solve` is given neither a state nor a time limit."""


def rollouts(game: Game, deadline: float | None, cap: int) -> tuple[str, list[Move], int]:
    """Play `game` out with rollouts 0, 1, 2… until one wins, `cap` states are spent (-1:
    no cap, then `UNCAPPED_ROLLOUTS` rollouts) or `deadline` passes: ("won", its moves,
    states) or ("unknown", [], states)."""
    states = 0
    k = 0
    while True:
        if cap >= 0 and states >= cap:
            break
        if cap < 0 and k >= UNCAPPED_ROLLOUTS:
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
        limit = MAX_MOVES if cap < 0 else min(MAX_MOVES, cap - states)
        won, line = _rollout(game, k, limit, deadline)
        states += max(len(line), 1)  # a player who gives up at once still looked at the position
        if won:
            _check_line(game, line)
            return "won", line, states
        k += 1
    return "unknown", [], states


def _rollout(game: Game, k: int, limit: int, deadline: float | None) -> tuple[bool, list[Move]]:
    """Rollout `k` on a copy of `game`, at most `limit` moves: (won, the moves made)."""
    player = Varied(seed=k, sigma=SIGMAS[(k - 1) % len(SIGMAS)] if k else 0.0)
    g = game.copy()
    player.reset(g)
    line: list[Move] = []
    while len(line) < limit and not g.is_won():
        if deadline is not None and not len(line) & 63 and time.perf_counter() > deadline:
            break
        move = player(g)
        if move is None:
            break
        g.move(move)
        line.append(move)
    return g.is_won(), line
