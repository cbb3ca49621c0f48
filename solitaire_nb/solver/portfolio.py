"""Portfolios: which searches run on a game, in what order and with what share of the budget.

- Take-backs allowed: `api._solve` first searches smaller games whose wins are wins here and
  whose "lost" proves nothing: on the generic state two streamliners' (`STREAMLINERS`), then
  the position without take-backs (1/`PHASE1_SHARE` of the budget); the complete search follows.
- Fast-state games run a portfolio chosen by the rules data: where holes take any card, the
  castles' (`_castle_portfolio`: the streamliners' opening turn where the game forbids
  take-backs, the usual best-first order alone for `CASTLE_ALONE` states, the probe once, the
  streamliners again, then `CASTLE_SECOND` and two `CASTLE_DEPTH_FIRST` searches in turns);
  otherwise Baker's Dozen's (`BAKERS_PORTFOLIO`: best-first orders one after another).  Either
  is sound for any rules the fast state fits; the choice only decides speed.
- Two-deck games a compact path fits run its best-first search (`twodeck`, `twodeck_reserve`);
  other games, one best-first search on the generic state (`generic._generic_best_first`).
- The searches of a call share one ledger (`search._Ledger`; work capped at `CASTLE_WORK` budgets,
  or one per search if more).  Why it is sound: docs/solver.md, «Cómo busca»; tuning: RESULTS.md."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from ..core.moves import Move
from ..engine import Game
from . import compiled, twodeck, twodeck_reserve
from .depth import _fast_dfs
from .fast import _Fast
from .generic import _generic_best_first
from .lines import _check_line, _described_moves, _shortcut
from .probe import CASTLE_PROBE, _fast_probe
from .search import _UNLIMITED, _advance, _fast_best_first, _fast_search, _Ledger
from .state import _Spec, _State
from .streamline import _fast_streamliner, blind_table

PHASE1_SHARE = 4
"""Where take-backs are allowed, a first search without them gets 1/PHASE1_SHARE of the
state and time budget (see `api._solve`)."""

STREAMLINERS: tuple[tuple[str, int], ...] = (("all", 6), ("twin", 6))
"""Where take-backs are allowed on the generic state (`_Spec.streamline`), two streamliners'
games (take-backs forbidden, cards sent home at once: `_Spec.streamlined`) search first, one
after the other: which cards each sends home, and the share of what is left of the state and
time budget it gets (1/6 each; see `api._solve`)."""

BAKERS_PORTFOLIO: tuple[tuple[tuple[int, ...], int, float], ...] = (
    ((6, 5, 4, 3, 2, 1), 0, 0.47),
    ((1, 1), 0, 0.0575),
    ((6, 5, 4, 3, 2, 1), 8, 0.04),
    ((1, 1), 8, 0.07),
    ((3, 3, 2, 2, 1, 1), 8, 0.02),
    ((1,), 4, 0.15),
    ((2, 2, 1, 1), 0, 0.03),
    ((1, 1, 1, 1, 1, 1), 0, 0.04),
    ((3, 3, 2, 2, 1, 1), 0, 0.01),
    ((1,), 0, 0.035),
    ((1, 1, 1), 0, 0.02),
    ((1,) * 10, 0, 0.04),
    ((1,) * 13, 0, 0.0175),
)
"""Baker's Dozen's searches, one after another: the "needed soon" weights of each (for the
next ranks of each suit, see `heuristics._urgent`), the weight of a card lying above a
lower one (`heuristics._disorder`) and its share of the state and time budget (the last
gets what is left): a graded first order with almost half, a flat window of 2 ranks, four
orders that also weigh the disorder (three graded, one of a single rank), then the older
orders: graded ones and flat windows of 6, 1, 3, 10 and 13 ranks."""

CASTLE_ALONE = 25_000
CASTLE_SECOND: tuple[int, ...] = (1,)
CASTLE_DEPTH_FIRST: tuple[str, ...] = ("key", "fc")
CASTLE_TURNS: tuple[int, ...] = (20_000, 5_000, 5_000, 5_000)
CASTLE_ALONE_SHARE = 4
CASTLE_JOIN = 0
CASTLE_JOIN_SHARE = 2
CASTLE_WORK = 4
"""The castles' portfolio (`_castle_portfolio`): the usual order (`_Fast.urgency`, now or
next) searches alone for its first CASTLE_ALONE states, or 1/CASTLE_ALONE_SHARE of a
smaller budget (the first phase of a game with take-backs gets a quarter of the budget) and,
where the streamliners play and CASTLE_JOIN is more than that (off: 0, see CASTLE_STREAM_FIRST),
after their turns and the probe's, on to CASTLE_JOIN states (or 1/CASTLE_JOIN_SHARE of a
smaller budget);
then a second best-first order,
CASTLE_SECOND, and two depth-first searches (`depth._fast_dfs`, with the piles sorted as
CASTLE_DEPTH_FIRST says, see `heuristics._dfs_moves`) join it.  CASTLE_TURNS gives each
search's turn, in states, in that order (states new to the ledger); CASTLE_WORK caps the
work of every search of a portfolio, repeated states included, at that many times the
budget."""

CASTLE_MACRO: frozenset[str] = frozenset()
"""The castles' searches that also move runs as one step (rule 10, where `_Spec.macro`), by
name: "usual" and "second" (the best-first orders), "key" and "fc" (the depth-first ones),
"stream" (the streamliners).  None by default: measured, they decide no more deals and each
state costs more (benchmarks/RESULTS.md, «Runs as one step»)."""

CASTLE_STREAM = 100_000
CASTLE_STREAM_FIRST = 0
CASTLE_STREAM_SHARE = 4
"""Where the game forbids take-backs (`_Spec.castle_streamline`), the streamliners
(`streamline._fast_streamliner`) take a turn right after the probe's (or, without a probe,
after the usual order's first CASTLE_ALONE states) and, when CASTLE_STREAM_FIRST is not 0,
open the portfolio with a turn of that many states: at most CASTLE_STREAM states in all,
1/CASTLE_STREAM_SHARE of the state budget and of the time left when they start.  The opening
turn (with CASTLE_JOIN) is off: on the compiled core it saves little and doubles the lines'
length, and off, every atlas record keeps its verdict and states (docs/solver.md)."""


def _castle_portfolio(spec: _Spec, game: Game, deadline, cap: int, max_table: int) -> tuple[str, list, int]:
    """Beleaguered Castle and Citadel: where the game forbids take-backs and its tableau rule
    cannot tell some cards apart, the streamliners (`_fast_streamliner`) open with a turn of
    `CASTLE_STREAM_FIRST` states; then the usual order searches alone for its first
    `CASTLE_ALONE` states; then (without automatic actions or take-backs) the probe takes one
    turn (`_fast_probe`, at most `CASTLE_PROBE` states) and the streamliners the rest of their
    part (at most `CASTLE_STREAM` states in all), and the usual order goes on alone to
    `CASTLE_JOIN` states (where the streamliners play); then `CASTLE_SECOND` and the two depth-first
    searches (`CASTLE_DEPTH_FIRST`) join the usual order, the four taking turns of
    `CASTLE_TURNS` states (the last turn cut to what the budget leaves).  The four are
    complete; the streamliners and the probe only ever answer "won" or give up.  The first
    verdict wins.  The searches named in `CASTLE_MACRO` also move runs as one step (rule 10)."""
    budget = _UNLIMITED if cap < 0 else cap
    kit = _kit(spec, runs=spec.macro and bool(CASTLE_MACRO))
    ledger = kit.ledger(_UNLIMITED if cap < 0 else CASTLE_WORK * budget)

    def best_first(urgency: tuple[int, ...] | None):
        st = _Fast(spec, game)
        st.macro = spec.macro and ("second" if urgency else "usual") in CASTLE_MACRO
        if urgency:
            st.urgency = urgency
        return kit.best_first(st, deadline, max_table, ledger)

    def depth_first(order: str):
        st = _Fast(spec, game)
        st.macro = spec.macro and order in CASTLE_MACRO
        return kit.depth_first(st, deadline, max_table, order, ledger)

    # each search is set up when its first turn comes (most deals end in the first one)
    starts: list[Callable[[], Any]] = [lambda: best_first(None), lambda: best_first(CASTLE_SECOND)]
    starts += [functools.partial(depth_first, o) for o in CASTLE_DEPTH_FIRST]
    turns = list(CASTLE_TURNS)
    probe = bool(CASTLE_PROBE and spec.probe)
    if probe:
        # the probe's one turn comes right after the usual order's first CASTLE_ALONE states
        starts.insert(1, lambda: kit.probe(spec, game, deadline, max_table, ledger))
        turns.insert(1, CASTLE_PROBE)
    table = blind_table(spec) if CASTLE_STREAM and spec.castle_streamline else None
    lead = -1
    if table is not None:
        # the streamliners open the portfolio with a short turn (most won deals end there)
        # and take the rest of their part after the probe's turn (or, without a probe, after
        # the usual order's first states); their time is a share of what was left at the start
        limit = min(CASTLE_STREAM, max(1, budget // CASTLE_STREAM_SHARE))
        lead = 2 if probe else 1
        runs = {"macro": True} if spec.macro and "stream" in CASTLE_MACRO else {}
        starts.insert(lead, lambda: kit.streamliner(
            spec, game, table, _share(deadline), limit, max_table, ledger, **runs))
        turns.insert(lead, limit)
    searches: list = [None] * len(starts)
    used = [0] * len(starts)
    running = list(range(len(starts)))

    def turn(i: int, allowance: int) -> tuple[str, list, int] | None:
        """Search i's next turn: its verdict if it decided; it leaves the turns when it ends
        undecided (out of time, table or moves)."""
        if searches[i] is None:
            searches[i] = starts[i]()
            next(searches[i])
        used[i], verdict = _advance(searches[i], used[i] + min(allowance, budget - sum(used)))
        if verdict is None:
            return None
        running.remove(i)
        return verdict if verdict[0] != "unknown" else None

    verdict = turn(lead, CASTLE_STREAM_FIRST) if lead >= 0 and CASTLE_STREAM_FIRST else None
    k = 0
    alone = min(CASTLE_ALONE, max(1, budget // CASTLE_ALONE_SHARE))
    allowance = alone  # the usual order, alone
    join = min(CASTLE_JOIN, max(1, budget // CASTLE_JOIN_SHARE))
    if lead >= 0 and join > alone:
        # with the streamliners, the usual order searches alone up to `join` states (after
        # the probe's and the streamliners' turns) before the others join: a lost deal costs
        # about what one complete search needs
        for i, allowance in [(0, alone)] + [(j, turns[j]) for j in range(1, lead + 1)] + [(0, join - alone)]:
            if verdict is None and i in running and sum(used) < budget:
                verdict = turn(i, allowance)
        k = 1 if 0 in running else 0
        allowance = turns[running[k % len(running)]] if running else 0
    while verdict is None and running and sum(used) < budget:
        before = len(running)
        verdict = turn(running[k % len(running)], allowance)
        k += len(running) == before  # when a search leaves, the next one takes its place
        if running:
            allowance = turns[running[k % len(running)]]
    _close(searches)
    if verdict is not None:
        return verdict[0], verdict[1], sum(used)
    return "unknown", [], sum(used)


def _share(deadline):
    """A deadline 1/CASTLE_STREAM_SHARE of the time left from now (None without one)."""
    if deadline is None:
        return None
    now = time.perf_counter()
    return now + max(deadline - now, 0.0) / CASTLE_STREAM_SHARE


def _close(searches: list) -> None:
    for search in searches:
        if search is not None:
            search.close()


def _fast_portfolio(spec: _Spec, game: Game, deadline, cap: int, max_table: int) -> tuple[str, list, int]:
    """The fast searches: where holes take any card, four searches taking turns
    (`_castle_portfolio`); otherwise several one after another, each with its own "needed
    soon" weights, disorder weight and share of the budget (`BAKERS_PORTFOLIO`).  Each is complete, so
    each may answer "won" or "lost"."""
    if spec.castle_portfolio:
        return _castle_portfolio(spec, game, deadline, cap, max_table)
    phases = BAKERS_PORTFOLIO
    start = time.perf_counter()
    used = 0
    # one budget of repeated examinations per search at least: each search starts again from the
    # root, so with many short searches a smaller cap would stop them before the budget is used
    kit = _kit(spec)
    ledger = kit.ledger(_UNLIMITED if cap < 0 else max(CASTLE_WORK, len(phases)) * cap)
    for k, (urgency, disorder, share) in enumerate(phases):
        last = k == len(phases) - 1
        # each search's share, never more than what the earlier ones left (so that
        # max_states is a hard cap even when a share rounds up to one state)
        cap_k = cap if cap < 0 else cap - used if last else min(max(1, int(cap * share)), cap - used)
        if cap_k == 0 and k:
            break
        deadline_k = deadline
        if deadline is not None and not last:
            deadline_k = min(deadline, time.perf_counter() + (deadline - start) * share)
        st = _Fast(spec, game)
        if urgency:
            st.urgency = urgency
        st.disorder = disorder
        status, fline, states = kit.run_best_first(st, deadline_k, cap_k, max_table, ledger)
        used += states
        if status != "unknown":
            return status, fline, used
    return "unknown", [], used


class _Kit(NamedTuple):
    """The ledger and the fast searches a portfolio runs (`_kit`)."""

    ledger: Callable[[int], Any]
    best_first: Callable[..., Any]
    depth_first: Callable[..., Any]
    run_best_first: Callable[..., tuple[str, list, int]]
    probe: Callable[..., Any]
    streamliner: Callable[..., Any]


def _kit(spec: _Spec, runs: bool = False) -> _Kit:
    """The hook of the optional compiled core (`compiled`): its ledger and its ports of the fast
    searches where it is installed and fits the game, else the Python reference's.  Both examine
    the same states in the same order, so only the speed changes.  With `runs` (some search
    moves runs as one step, rule 10, which the core does not have) the Python ones run."""
    if compiled.fits(spec, runs):
        return _Kit(compiled.ledger, compiled.fast_search, compiled.fast_dfs, compiled.fast_best_first,
                    compiled.fast_probe, compiled.fast_streamliner)
    return _Kit(_Ledger, _fast_search, _fast_dfs, _fast_best_first, _fast_probe, _fast_streamliner)


def _search(game: Game, spec: _Spec, deadline, cap: int, max_table: int) -> tuple[str, list[Move], int]:
    """Complete best-first search of `game` under `spec`'s rules (in Baker's Dozen, several
    in turn): verdict, engine moves of the winning line (already replayed to a win through
    the public engine), states examined."""
    moves: list[Move] = []
    if spec.two_deck:
        return twodeck.search(game, spec.takeback, deadline, cap, max_table)
    if spec.two_deck_reserve:
        return twodeck_reserve.search(game, spec.takeback, deadline, cap, max_table)
    if spec.fast:
        status, fline, states = _fast_portfolio(spec, game, deadline, cap, max_table)
        if status == "won":
            moves = _described_moves(game, spec, _shortcut(game, spec, fline))
    else:
        st, back = _canonical_state(spec, game)
        status, line, states = _generic_best_first(st, deadline, cap, max_table)
        if status == "won":
            ids = spec.pile_ids
            moves = [Move(ids[back[si]], ids[back[di]], n) for si, di, n in line]
            _check_line(game, moves)
    return status, moves, states



def _canonical_state(spec: _Spec, game: Game) -> tuple[_State, list[int]]:
    """The compact state with interchangeable piles put in a canonical order (so the search,
    and a capped verdict, do not depend on how the piles happen to be numbered), and the map
    from the state's pile indices back to the game's."""
    st = _State(spec, game)
    back = list(range(len(st.p)))
    if spec.autoplay:
        # the engine's autoplay visits the piles in their order (which Ace goes to which free
        # foundation, say): the line replays move for move only on the game's own order
        return st, back
    groups = ([spec.tab] if spec.symmetric else []) + [g for g in spec.fnd_groups if len(g) > 1]
    for grp in groups:
        enc = sorted(grp, key=lambda i: (bytes((st.fd[i],)) + bytes(st.p[i]), i))
        piles = [st.p[i] for i in enc]
        fds = [st.fd[i] for i in enc]
        for k, i in enumerate(grp):
            st.p[i] = piles[k]
            st.fd[i] = fds[k]
            back[i] = enc[k]
    return st, back

