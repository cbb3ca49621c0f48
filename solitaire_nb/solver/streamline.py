"""The castles' streamliners (`_fast_streamliner`): quick, *incomplete* searches for a win on the
fast state where the game forbids take-backs (Beleaguered Castle and Citadel without them),
after the idea of Blake and Gent's Solvitaire (the code is this package's own).

Each searches a restricted game that leaves out states the real game may need, so it may answer
"won" (a line of real moves, replayed through the engine like every line) but never "lost":

- **suit symmetry**: its table knows a state only by its cards' classes (`blind_table`: a card's
  rank where the tableau rule never looks at suits) pile by pile, piles sorted, and its sorted
  foundation heights, so a state that differs from a seen one only in its suits is skipped;
- **auto-foundations** (`STREAMLINER_GAMES`): after every move, every top card its foundation
  takes goes home at once, without branching.

The portfolio gives them one turn (`portfolio._castle_portfolio`); docs/solver.md, «Cómo busca».
"""

from __future__ import annotations

import time

from ..engine import Game
from .fast import _Fast, _replay_described
from .heuristics import _dfs_moves
from .search import _leave, _Ledger
from .state import _Spec

STREAMLINER_GAMES: tuple[bool, ...] = (False, True)
"""The streamliners' games, one after the other in their one turn: suit symmetry alone, then
suit symmetry with auto-foundations (True)."""


def blind_table(spec: _Spec) -> bytes | None:
    """The suit-symmetry streamliner's classes, as a `bytes.translate` table over card ids:
    each card goes to the lowest id of the cards of its rank that the tableau rule cannot tell
    from it (the same cards may lie on them, and they may lie on the same cards); None when
    the rule tells every card apart (building by suit), where there is nothing to forget."""
    acc = [frozenset(spec.tab_acc[c]) for c in range(52)]
    on = [frozenset(y for y in range(52) if c in acc[y]) for c in range(52)]
    table = list(range(256))
    for c in range(52):
        table[c] = next(x for x in range(c % 13, 52, 13) if acc[x] == acc[c] and on[x] == on[c])
    if table[:52] == list(range(52)):
        return None
    return bytes(table)


def _blind_key(t: list, h: list[int], table: bytes) -> bytes:
    """A state up to suits: each pile's card classes (piles sorted) and the sorted heights."""
    tabs = sorted([bytes(q).translate(table) for q in t])
    tabs.append(bytes(sorted(h)))
    return b"\xff".join(tabs)


def _send_home(st: _Fast, undo: list) -> None:
    """Auto-foundations: play every move home available, again and again, appending each
    with its undo record to `undo`."""
    t, h, T = st.t, st.h, st.T
    moved = True
    while moved:
        moved = False
        for i in range(T):
            q = t[i]
            if q and h[q[-1] // 13] == q[-1] % 13:
                m = (i, T + q[-1] // 13)
                undo.append((m, st.play(*m)))
                moved = True


def _fast_streamliner(
    spec: _Spec,
    game: Game,
    table: bytes,
    deadline,
    limit: int,
    max_table: int,
    ledger: _Ledger | None = None,
    macro: bool = False,
):
    """The streamliners (`STREAMLINER_GAMES`, one after the other), with the protocol of
    `search._fast_search` (a generator started with ``next()``, sent how many states it may
    have examined in all, returning (status, line, states)), so that they can take their turns
    in the castles' portfolio.  It answers "won" or "unknown", never "lost", after at most
    `limit` states examined in all, or when every game has nothing left to try, or past
    `deadline` (its own: the portfolio gives it a share of the time).  With a
    `ledger`, a state counts only if no search of the portfolio had examined it (its exact
    key, `_Fast.key`).  `table` is `blind_table`'s; with `macro`, runs move as one step
    (rule 10)."""
    allowed = yield 0
    states = examined = 0
    for home in STREAMLINER_GAMES:
        walk = _walk(spec, game, table, home, max_table, macro)
        try:
            while True:
                key = next(walk)
                if examined >= limit or (ledger is not None and ledger.over()):
                    walk.close()
                    return "unknown", [], states
                while states >= allowed:
                    allowed = yield states
                if deadline is not None and not examined & 255 and time.perf_counter() > deadline:
                    walk.close()
                    return "unknown", [], states
                examined += 1
                states += 1 if ledger is None else ledger.count(key)
        except StopIteration as end:
            if end.value is not None:
                return "won", end.value, states
    return "unknown", [], states


def _walk(spec: _Spec, game: Game, table: bytes, home: bool, max_table: int, macro: bool = False):
    """One streamliner's depth-first walk: moves in `_dfs_moves`'s order (Freecell Solver's,
    ``"fc"``), after each the moves home when `home` (`_send_home`), and a state skipped when
    its class key (`_blind_key`) was seen.  It yields the exact key of each state it enters,
    and returns the winning line (described, `fast._describe`) or None when it has nothing
    left to try or its table is full.  Rule 8b drops states as in the complete searches."""
    st = _Fast(spec, game)
    st.macro = macro
    st.t.sort()  # the walk must not depend on how the game numbers its piles
    root_undo: list = []
    if home:
        _send_home(st, root_undo)
    if st.won():
        return _replay_described(st, root_undo)
    seen = {_blind_key(st.t, st.h, table)}
    yield st.key()
    path: list[list] = [[_dfs_moves(st, "fc", [bytes(q) for q in st.t]), 0, None]]
    while path:
        level = path[-1]
        moves, i, undo = level
        if i == len(moves):
            path.pop()
            if undo:
                _leave(st, undo, None)
            continue
        level[1] = i + 1
        m = moves[i]
        if len(m) == 2:
            entered = [(m, st.play(*m))]
        else:
            played = st.enter(m)
            if played is None:  # an autoplay broke the run's way through the holes
                continue
            entered = played
        if home:
            _send_home(st, entered)
        key = _blind_key(st.t, st.h, table)
        if key in seen:
            _leave(st, entered, None)
            continue
        if st.won():
            return _replay_described(st, root_undo + [r for lv in path[1:] for r in lv[2]] + entered)
        if len(seen) >= max_table:
            return None
        seen.add(key)
        if st.hole_dead_ends and st.stuck():  # rule 8b: nothing from here wins
            _leave(st, entered, None)
            continue
        yield st.key()
        path.append([_dfs_moves(st, "fc", [bytes(q) for q in st.t]), 0, entered])
    return None
