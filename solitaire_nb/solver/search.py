"""The complete best-first search on the fast state (the depth-first one is `depth`'s, the
generic state's best-first search `generic`'s), and the ledger the portfolio's searches share.
A best-first search keeps a priority queue ordered by a heuristic score (`heuristics`; ties by
arrival order, so runs are deterministic) and a transposition table mapping each canonical key
to its parent (to rebuild the winning line).  A state is expanded once; only new keys are
queued.  It answers "lost" only when the queue is empty: every state reachable from the start
(up to rule 1's symmetries, after rule 3's safe moves) has been expanded or dropped by a
dead-end rule (6, 7, 8, 8b), and none is won.  The score decides only the order, so a capped run
may say "unknown" but never a wrong "lost".  `depth._fast_dfs` is complete the same way.  With
`_Fast.macro`, runs also move as one step (rule 10): more edges between the same states.
Proofs: docs/solver.md, «Reglas de poda y sus demostraciones».

The fast searches are generators, so that several can take turns (`portfolio`): start one with
``next()``, then send it how many states it may have examined in all (`_advance`).  States count
when taken from the queue (best-first) or entered (depth-first).
"""

from __future__ import annotations

import heapq
import time

from .fast import _enter_fast, _Fast, _play_safe_moves, _replay_described, _restore_fast
from .heuristics import _disorder, _disorder_change, _score, _urgent

_UNLIMITED = 1 << 62  # a budget no search reaches


class _Ledger:
    """The states a portfolio's searches have examined, shared by them all, so that each
    state counts once towards the budget however many searches examine it (`portfolio`).
    Each search stays complete on its own (its own table decides what it explores; the
    ledger only counts), and the complete searches examine the same reachable states, so a
    deal whose reachable states fit in the budget is decided (up to the probe's one turn,
    whose coarser moves may reach other states, and `work_cap`).  ``work`` counts every
    examination, repeated ones too, and ``work_cap`` bounds it (the time a budget costs)."""

    __slots__ = ("seen", "work", "work_cap", "rule8")

    def __init__(self, work_cap: int = _UNLIMITED):
        self.seen: set[bytes] = set()
        self.work = 0
        self.work_cap = work_cap
        # rule 8's verdict per key, a function of the key alone: worked out once however many
        # of the portfolio's searches examine the state
        self.rule8: dict[bytes, bool] = {}

    def stuck(self, key: bytes, st: _Fast) -> bool:
        """Pruning rule 8 (`st.stuck()`) on the state `st` holds, whose key is `key`, tested
        once per ledger."""
        verdict = self.rule8.get(key)
        if verdict is None:
            verdict = self.rule8[key] = st.stuck()
        return verdict

    def count(self, key: bytes) -> int:
        """Record one examination of `key`: 1 if no search had examined it before, else 0."""
        self.work += 1
        if key in self.seen:
            return 0
        self.seen.add(key)
        return 1

    def over(self) -> bool:
        """True once the searches have examined ``work_cap`` states, repeats included."""
        return self.work >= self.work_cap


def _fast_best_first(
    st: _Fast, deadline, cap: int, max_table: int, ledger: _Ledger | None = None
) -> tuple[str, list, int]:
    """One best-first search on the fast state (`_fast_search`) with its whole budget (in
    states new to `ledger`, when one is given)."""
    search = _fast_search(st, deadline, max_table, ledger)
    next(search)
    paused, verdict = _advance(search, cap if cap >= 0 else _UNLIMITED)
    if verdict is None:
        search.close()
        return "unknown", [], paused
    return verdict


def _advance(search, allowance: int) -> tuple[int, tuple[str, list, int] | None]:
    """Let a started `_fast_search` run until it has examined `allowance` states in all:
    (states, None) if it paused there, (states, verdict) if it ended first."""
    try:
        return search.send(allowance), None
    except StopIteration as end:
        return end.value[2], end.value


def _fast_search(st: _Fast, deadline, max_table: int, ledger: _Ledger | None = None):
    """Best-first search on the fast state, as a generator that can be paused, so that two
    orders can take turns (`_castle_portfolio`).  Start it with ``next()``, then send it how
    many states it may have examined in all; it yields its count when it gets there and
    returns (status, line, states) when it ends.  It is complete: every reachable state (up
    to the symmetry of rule 1) is expanded before it answers "lost".

    The table maps each key to its parent key and the move, as (source, destination) indices
    of the parent's own pile order (the order its key restores); the winning line is described
    by replaying those moves only at the end.

    Without automatic actions or take-backs, a child is worked out on the parent key's
    parts (each pile's bytes): its two changed piles are slices of the parent's, so nothing is
    played and undone on lists, which are built only when safe moves (rule 3) follow the
    move.  `_Fast`'s move generator, safe-move test and score read bytes as they read lists."""
    allowed = yield 0
    T = st.T
    rules = st.sp.rule3
    dead_ends = st.dead_ends
    holes8b = st.hole_dead_ends
    disorder = st.disorder
    plain = not st.autoplay and not st.takeback
    macro = st.macro
    root_undo = _play_safe_moves(st) if rules else []
    root_line = _replay_described(st, root_undo)
    if st.won():
        return "won", root_line, 0
    root = st.key()
    while allowed < 1:  # the root's dead-end test below examines it: one state
        allowed = yield 0
    if st.dead() or (holes8b and st.stuck()):
        return "lost", [], 1
    parent: dict[bytes, tuple | None] = {root: None}
    urgent_at: dict[bytes, list[int]] = {}  # `_urgent` by foundation heights
    heap = [(_score(st), 0, root)]
    push, pop = heapq.heappush, heapq.heappop
    count = 0
    states = 0
    examined = 0  # with a ledger, states examined again (already counted by another search) too
    while heap:
        while states >= allowed:
            allowed = yield states
        if len(parent) >= max_table:
            return "unknown", [], states
        score0, _, key = pop(heap)
        piles, heights = key.split(b"\xff")[:-1], key[-4:]  # `_Fast.key`: the piles, then 4 heights
        h = st.h = list(heights)
        # plain moves are worked out on the piles' bytes; the lists are built only for the
        # moves that need them (automatic actions, take-backs, safe moves to play)
        st.t = piles if plain else [list(q) for q in piles]
        # rule 8b drops a dead child here, before it counts: tested when taken from the queue
        # rather than when queued, so children never taken are never tested (same states,
        # same order: the queue's other entries keep their relative order)
        if holes8b and st.stuck():
            continue
        examined += 1
        if ledger is None:
            states += 1
        else:
            if ledger.over():
                return "unknown", [], states
            states += ledger.count(key)
        if deadline is not None and not examined & 255 and time.perf_counter() > deadline:
            return "unknown", [], states
        if dead_ends and (st.stuck() if ledger is None else ledger.stuck(key, st)):  # rule 8, where rule 6 applies
            continue
        # A move between tableau piles with nothing after it changes the score (`_score`,
        # here score0) by its two piles' terms only, which follow from the piles' summed
        # urgencies (see `_column_bad`); those are computed when first needed.
        urgent = urgent_at.get(heights)
        if urgent is None:  # few distinct heights: most positions reuse an earlier list
            urgent = urgent_at[heights] = _urgent(h, st.urgency)
        weight = [-1] * T  # per pile, the sum of its cards' urgencies
        moves: list = st.moves()
        if macro and not all(st.t):  # rule 10: runs through the holes, as one step
            moves += st.run_moves()
        for m in moves:
            if len(m) == 2:
                a, b = m
                n = 1
            else:
                a, b, n = m
            between = a < T and b < T
            if between:
                if weight[a] < 0:
                    weight[a] = sum(map(urgent.__getitem__, piles[a]))
                if weight[b] < 0:
                    weight[b] = sum(map(urgent.__getitem__, piles[b]))
            entered: list = [(m, None)]  # the moves into the child, with undo records
            if plain:
                child = piles.copy()
                src = piles[a]
                child[a] = src[:-n]
                if b < T:
                    child[b] = piles[b] + src[-n:]
                else:
                    h[b - T] += 1
                st.t = child
                # after a move between piles only the source's new top can be safe
                # (`_enter_fast`), so the scan is skipped when that top cannot go home
                q = child[a]
                if rules and (b >= T or (q and h[q[-1] // 13] == q[-1] % 13)) and st.safe_move():
                    st.t = [list(q) for q in child]
                    entered += _play_safe_moves(st)
                    between = False
                    tabs = sorted(map(bytes, st.t))
                    tabs.append(bytes(h))
                else:
                    tabs = sorted(child)
                    tabs.append(heights if b < T else bytes(h))
            else:
                played = st.enter(m)
                if played is None:  # an autoplay broke the run's way through the holes
                    continue
                entered = played
                if any(auto for _, auto in entered):  # Citadel's autoplay moved cards too
                    between = False
                    tabs = sorted(map(bytes, st.t))
                    tabs.append(bytes(h))
                else:  # only this move: rebuild its piles' bytes
                    tabs = piles.copy()
                    if a < T:
                        tabs[a] = bytes(st.t[a])
                    if b < T:
                        tabs[b] = bytes(st.t[b])
                    tabs.sort()
                    tabs.append(heights if between else bytes(h))
            k = b"\xff".join(tabs)
            if k not in parent:
                parent[k] = (key, m)
                if sum(h) == 52:
                    return "won", root_line + _fast_line(st, parent, k), states
                # rule 6 drops a dead child before it is queued: it is never examined
                if not (dead_ends and st.dead((a, b) if between else None)):
                    count += 1
                    if between:
                        # every card left in a has n cards fewer above it, every card
                        # that was in b n more (the moved ones keep theirs)
                        moved = sum(map(urgent.__getitem__, piles[a][-n:])) if n > 1 else urgent[piles[a][-1]]
                        score = score0 + n * (weight[b] - weight[a] + moved)
                        if disorder:
                            score += disorder * (
                                _disorder_change(piles[a], piles[b]) if n == 1 else
                                sum(map(_disorder, st.t)) - sum(map(_disorder, piles)))
                    else:
                        score = _score(st)
                    push(heap, (score, count, k))
            _leave(st, entered, piles if plain else None)
    return "lost", [], states



def _leave(st: _Fast, entered: list, piles: list[bytes] | None) -> None:
    """Take back the moves that led a fast search (best-first, depth-first or the probe) into a state
    (`entered`, with their undo records).  With `piles` (the state it goes back to, as bytes:
    no automatic actions or take-backs), only the heights need undoing; else the moves are
    undone on the lists."""
    if piles is None:
        st.leave(entered)
        return
    T, h = st.T, st.h
    for m, _ in entered:
        if m[1] >= T:
            h[m[1] - T] -= 1
    st.t = piles


def _fast_line(st: _Fast, parent: dict, key: bytes) -> list:
    """The described line from the root to `key`: each step replays the stored move on its
    parent position, followed by the safe moves that `_fast_best_first` played after it."""
    steps = []
    while parent[key] is not None:
        key, m = parent[key]
        steps.append((key, m))
    out: list = []
    for pkey, m in reversed(steps):
        _restore_fast(st, pkey)
        undo = st.enter(m)
        assert undo is not None  # played on this same position when the search met it
        if st.sp.rule3:
            _enter_fast(st, m[0], undo)
        out += _replay_described(st, undo)
    return out
