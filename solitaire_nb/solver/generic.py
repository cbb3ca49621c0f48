"""The complete best-first search on the generic state (every game without a faster path):
the heap holds whole positions as bytes, the table maps each canonical key to its parent and
the moves that led to it, the line is rebuilt from it (`lines._unwind`)."""

from __future__ import annotations

import heapq
import time

from .heuristics import _generic_score
from .lines import _unwind
from .pruning import _enter
from .state import _State


def _snapshot(st: _State) -> bytes:
    """The whole position in pile order (face-down count first in each pile)."""
    return b"\xff".join([bytes((f,)) + bytes(q) for q, f in zip(st.p, st.fd, strict=True)])


def _restore(st: _State, snap: bytes) -> None:
    parts = snap.split(b"\xff")
    st.p = [list(x[1:]) for x in parts]
    st.fd = [x[0] for x in parts]


def _generic_best_first(st: _State, deadline, cap: int, max_table: int) -> tuple[str, list, int]:
    """Best-first search on the generic state, complete like `_fast_best_first`; the heap
    holds whole positions (bytes) and the table maps each canonical key to its parent."""
    total = st.sp.total
    root_line: list = []
    _enter(st, root_line)
    if st.foundation_count() == total:
        return "won", root_line, 0
    root = st.key()
    if cap == 0:  # the root's dead-end test below examines it: one state
        return "unknown", [], 0
    if st.dead():
        return "lost", [], 1
    parent: dict[bytes, tuple | None] = {root: None}
    heap = [(_generic_score(st), 0, root, _snapshot(st))]
    count = 0
    states = 0
    while heap:
        _, _, key, snap = heapq.heappop(heap)
        if (cap >= 0 and states >= cap) or len(parent) >= max_table:
            return "unknown", [], states
        states += 1
        if deadline is not None and not states & 127 and time.perf_counter() > deadline:
            return "unknown", [], states
        _restore(st, snap)
        for m in st.moves(True):
            ops = st.play(*m)
            line = [m]
            played = [(m, ops)] + _enter(st, line)
            k = st.key()
            if k not in parent:
                parent[k] = (key, tuple(line))
                if st.foundation_count() == total:
                    return "won", root_line + _unwind(parent, k), states
                if not st.dead():
                    count += 1
                    heapq.heappush(heap, (_generic_score(st), count, k, _snapshot(st)))
            for _m, o in reversed(played):
                st.undo(o)
    return "lost", [], states

