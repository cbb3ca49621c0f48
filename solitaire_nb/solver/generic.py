"""The complete best-first search on the generic state (every game without a faster path):
`best_first`'s loop, with whole positions as bytes on the heap; each is restored, its moves
played and undone on the one state."""

from __future__ import annotations

import heapq

from .best_first import best_first
from .heuristics import _generic_score
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
    heappush = heapq.heappush

    def expand(key: bytes, snap: bytes, parent: dict, heap: list) -> bytes | None:
        _restore(st, snap)
        for m in st.moves(True):
            ops = st.play(*m)
            line = [m]
            played = [(m, ops)] + _enter(st, line)
            k = st.key()
            if k not in parent:
                parent[k] = (key, tuple(line))
                if st.foundation_count() == total:
                    return k
                if not st.dead():
                    heappush(heap, (_generic_score(st), len(parent), k, _snapshot(st)))
            for _m, o in reversed(played):
                st.undo(o)
        return None

    status, line, states = best_first(root, _snapshot(st), _generic_score(st), expand, cap, max_table, deadline, 127)
    return status, root_line + line if status == "won" else line, states


def _enter(st: _State, line: list) -> list:
    """Play the safe moves (rule 3 or 3b; in the streamliner's game every move home) available
    now on the generic state; return them with their undo records (and append them to `line`)."""
    out: list = []
    if not (st.sp.rule3 or st.sp.rule3b or st.sp.auto_home):
        return out
    while True:
        m = st.safe_move()
        if m is None:
            return out
        out.append((m, st.play(*m)))
        line.append(m)
