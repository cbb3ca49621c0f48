"""The complete depth-first search on the fast state (`_fast_dfs`), which takes turns with the
best-first ones in the castles' portfolio (`portfolio._castle_portfolio`).

It tries moves in Freecell Solver's proof-mode order (`heuristics._dfs_moves`) and never
enters a state whose canonical key it has seen, so it answers "lost" only once every state
reachable from the root (after rule 3's safe moves, less the dead ends of rule 8b) has been
entered.  Proofs: docs/solver.md, «Reglas de poda y sus demostraciones».
"""

from __future__ import annotations

import time

from .fast import _enter_fast, _Fast, _play_safe_moves, _replay_described
from .heuristics import _dfs_moves
from .search import _leave, _Ledger


def _fast_dfs(st: _Fast, deadline, max_table: int, order: str, ledger: _Ledger | None = None):
    """Depth-first search on the fast state, with the same protocol as `_fast_search` (a
    generator started with ``next()``, sent how many states it may have examined in all,
    returning (status, line, states)), so that it can take turns with the best-first ones.
    Moves are tried in `_dfs_moves`'s order (with `_Fast.macro`, runs as one step too: rule
    10) and the safe moves of rule 3 follow each one, as in the best-first search.  It is complete: a state already seen (its canonical key, rule
    1) is not entered again, and "lost" comes only once every state reachable from the root
    has been entered.  A state counts as examined when it is entered (its moves listed)."""
    allowed = yield 0
    rules = st.sp.rule3
    root_undo = _play_safe_moves(st) if rules else []
    if st.won():
        return "won", _replay_described(st, root_undo), 0
    seen = {st.key()}
    states = 1 if ledger is None else ledger.count(st.key())
    examined = 1
    T, h = st.T, st.h
    plain = not st.autoplay and not st.takeback
    piles = [bytes(q) for q in st.t]
    if plain:  # as in `_fast_search`: worked out on the piles' bytes, lists only for safe moves
        st.t = piles
    # one level per state on the current path: its moves, the next one to try, the undo
    # records of the moves that led into it (None for the root) and its piles' bytes
    path: list[list] = [[_dfs_moves(st, order, piles), 0, None, piles]]
    while path:
        level = path[-1]
        moves, i, undo, piles = level
        if i == len(moves):
            path.pop()
            if undo:
                _leave(st, undo, path[-1][3] if plain else None)
            continue
        level[1] = i + 1
        m = moves[i]
        a, b = m[0], m[1]
        if plain:
            n = m[2] if len(m) == 3 else 1  # a run (rule 10) moves its n cards at once
            src = piles[a]
            tabs = piles.copy()
            tabs[a] = src[:-n]
            if b < T:
                tabs[b] = piles[b] + src[-n:]
            else:
                h[b - T] += 1
            entered: list = [(m, None)]
            st.t = tabs
            # as in the best-first search, only a move home or a top that can go home now
            # may start safe moves (`_enter_fast`)
            q = tabs[a]
            if rules and (b >= T or (q and h[q[-1] // 13] == q[-1] % 13)) and st.safe_move():
                st.t = [list(q) for q in tabs]
                entered += _play_safe_moves(st)
                tabs = st.t = [bytes(q) for q in st.t]
        else:
            played = st.enter(m)
            if played is None:  # an autoplay broke the run's way through the holes
                continue
            entered = played
            if rules:
                _enter_fast(st, a, entered)
            t = st.t
            if len(entered) == 1 and not entered[0][1]:  # only this move: rebuild its two piles' bytes
                tabs = piles.copy()
                if a < T:
                    tabs[a] = bytes(t[a])
                if b < T:
                    tabs[b] = bytes(t[b])
            else:
                tabs = [bytes(q) for q in t]
        key = sorted(tabs)
        key.append(bytes(h))
        k = b"\xff".join(key)  # `_Fast.key`
        if k in seen:
            _leave(st, entered, piles if plain else None)
            continue
        if st.won():
            played = root_undo + [r for lv in path[1:] for r in lv[2]] + entered
            if plain:
                st.t = [list(q) for q in tabs]
            return "won", _replay_described(st, played), states
        if st.hole_dead_ends and st.stuck():  # rule 8b: dropped, never entered
            seen.add(k)
            _leave(st, entered, piles if plain else None)
            continue
        new = ledger is None or k not in ledger.seen
        if new:
            while states >= allowed:
                allowed = yield states
        if len(seen) >= max_table or (ledger is not None and ledger.over()):
            return "unknown", [], states
        examined += 1
        if deadline is not None and not examined & 255 and time.perf_counter() > deadline:
            return "unknown", [], states
        seen.add(k)
        if ledger is not None:
            ledger.count(k)
        states += new
        path.append([_dfs_moves(st, order, tabs), 0, entered, tabs])
    return "lost", [], states
