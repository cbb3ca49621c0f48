"""The best-first loop the generic search (`generic`) and the two-deck paths (`twodeck`,
`twodeck_reserve`) share: a heap of positions ordered by score, ties by arrival, and a table
mapping each key to its parent and the moves from it.  What a position's children are, and
which of them are queued, is the caller's `expand`."""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from typing import Any

Expand = Callable[[bytes, Any, dict, list], "bytes | None"]


def best_first(
    root_key: bytes, root: Any, root_score: Any, expand: Expand, cap: int, max_table: int, deadline, every: int
) -> tuple[str, list, int]:
    """Run the loop from `root` until a win, an empty heap ("lost") or a cap ("unknown"):
    ``cap`` states examined (taken from the heap; < 0: no cap), ``max_table`` keys, or
    ``deadline`` (checked every ``every + 1`` states; ``every`` is a power of two less one).
    Returns (status, the moves from the root to the win or [], states examined).

    ``expand(key, pos, parent, heap)`` enters each child of `pos` whose key is not in
    `parent` as ``parent[k] = (key, moves)``, returns the first winning child's key (else None)
    and pushes the children to examine as ``(score, len(parent), k, stored position)``: the
    table's size grows with every entry, so it breaks ties by arrival."""
    parent: dict[bytes, tuple | None] = {root_key: None}
    heap = [(root_score, 0, root_key, root)]
    pop = heapq.heappop
    states = 0
    while heap:
        _, _, key, pos = pop(heap)
        if (cap >= 0 and states >= cap) or len(parent) >= max_table:
            return "unknown", [], states
        states += 1
        if deadline is not None and not states & every and time.perf_counter() > deadline:
            return "unknown", [], states
        won = expand(key, pos, parent, heap)
        if won is not None:
            return "won", _unwind(parent, won), states
    return "lost", [], states


def _unwind(parent: dict, key: bytes) -> list:
    """The moves from the root to `key` in a best-first table."""
    out: list = []
    while parent[key] is not None:
        key, desc = parent[key]
        out[:0] = desc
    return out
