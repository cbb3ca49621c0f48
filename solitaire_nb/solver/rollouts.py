"""Rollouts: the no-peek player plays the position out again and again, its preferences varied.

A probe, not a proof: it answers "won" (with the moves played, replayed through the engine)
or "unknown", never "lost".  `api._solve` runs it first, with the share of the budget
`budget` gives, where the rules hide cards in the tableau (`Rules.face_down_tableau`: Moving
Left and its variants); why there, and figures: docs/solver.md, «Cómo busca», and RESULTS.md.

Two stages, in a fixed order, so a capped run always gives the same answer: from the position
itself for the first `fresh` states (rollout 0 is the plain `players.Heuristic`,
rollout ``k`` is ``players.Varied(seed=k)`` with the deviations of `SIGMAS` in turn); then
restarts, each replaying the best line so far (most cards home; the first on ties) up to a cut
drawn with the package's SplitMix64 generator and playing on from there.

Each move a rollout makes counts as one state (replaying a line up to its cut is not counted);
`max_states` stays a hard cap: the last rollout stops when the budget is spent.
"""

from __future__ import annotations

import time

from ..core.moves import Move
from ..core.shuffle import splitmix64
from ..engine import Game
from ..players.player import MAX_MOVES, Varied
from .lines import _check_line

ROLLOUT_SHARE = (3, 4)
"""Where the rollouts run, they get this fraction of the state and time budget (the complete
searches the rest): on a whole Moving Left deal the complete search decides nothing at the
atlas's budget (docs/solver.md, «Moving Left: por qué no se demuestra…»)."""

SIGMAS: tuple[float, ...] = (100.0, 300.0, 30.0, 1000.0)
"""The noise deviations of rollouts 1, 2, 3… in turn (the player's move scores run from
about -1 to 1,800: 30 reorders near ties, 100 and 300 close and distant choices, 1,000 plays
almost at random among the moves it would consider).  Each deviation wins deals the
others miss."""

FRESH_SHARE = 3
"""Called alone, the fresh rollouts (stage 1) get 1/FRESH_SHARE of the rollouts' budget; the
restarts the rest."""

FRESH_OF_BUDGET = 6
"""From `solve`, the fresh stage is 1/FRESH_OF_BUDGET of the whole budget: a third of the half
the rollouts had before they got `ROLLOUT_SHARE`, so every rollout of those budgets is played
again in the same order and each deal they won is won with the same line and states."""


def budget(cap: int, time_limit: float | None) -> tuple[int, int, float | None]:
    """The rollouts' part of `solve`'s budget: (states, fresh stage's states, seconds); a cap
    of -1 (none) stays -1, and so does the fresh stage (then `UNCAPPED_ROLLOUTS` decides)."""
    num, den = ROLLOUT_SHARE
    seconds = None if time_limit is None else time_limit * num / den
    if cap < 0:
        return -1, -1, seconds
    return cap * num // den, cap // FRESH_OF_BUDGET, seconds

RESTART_SEED = 25
"""Seeds the SplitMix64 draws that choose where each restart cuts the best line."""

UNCAPPED_ROLLOUTS = 300
"""Rollouts played when `solve` is given neither a state nor a time limit (a third fresh)."""


def rollouts(
    game: Game, deadline: float | None, cap: int, fresh: int | None = None
) -> tuple[str, list[Move], int]:
    """Play `game` out with rollouts 0, 1, 2… (the two stages above) until one wins, `cap`
    states are spent (-1: no cap, then `UNCAPPED_ROLLOUTS` rollouts) or `deadline` passes:
    ("won", its moves, states) or ("unknown", [], states).  `fresh`: the fresh stage's
    states (by default 1/`FRESH_SHARE` of `cap`)."""
    states = 0
    k = 0
    if fresh is None or cap < 0:
        fresh = cap // FRESH_SHARE if cap >= 0 else -1
    best_home = -1
    best_line: list[Move] = []
    cuts = splitmix64(RESTART_SEED)
    while True:
        if cap >= 0 and states >= cap:
            break
        if cap < 0 and k >= UNCAPPED_ROLLOUTS:
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
        restart = states >= fresh if cap >= 0 else k >= UNCAPPED_ROLLOUTS // FRESH_SHARE
        prefix = best_line[: next(cuts) % (len(best_line) + 1)] if restart else []
        limit = MAX_MOVES if cap < 0 else min(MAX_MOVES, cap - states)
        won, line, home = _rollout(game, prefix, k, limit, deadline)
        states += max(len(line), 1)  # a player who gives up at once still looked at the position
        if won:
            _check_line(game, prefix + line)
            return "won", prefix + line, states
        if home > best_home:
            best_home, best_line = home, prefix + line
        k += 1
    return "unknown", [], states


def _rollout(game: Game, prefix: list[Move], k: int, limit: int, deadline: float | None) -> tuple[bool, list[Move], int]:
    """Rollout `k` on a copy of `game` after the moves `prefix`, at most `limit` moves:
    (won, the moves made after the prefix, cards home at the end)."""
    player = Varied(seed=k, sigma=SIGMAS[(k - 1) % len(SIGMAS)] if k else 0.0)
    g = game.copy()
    for m in prefix:
        g.move(m)
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
    return g.is_won(), line, sum(len(g.pile(f)) for f in g.foundation_ids)
