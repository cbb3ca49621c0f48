"""Shared by the fast paths' tests: a path's successors against the engine's."""

from __future__ import annotations


def successor_keys(space, g, takeback: bool) -> tuple[set[bytes], set[bytes], list]:
    """The successor keys of `space` (a fast path's position class) built from `g`, the keys
    of the engine's successors (each legal move played on a copy, read back by `space`), and
    the path's children themselves."""
    sp = space(g, takeback)
    root = sp.key(sp.root)
    children = [child for _, child in sp.children(sp.root)]
    mine = {sp.key(child) for child in children} - {root}
    engine = set()
    for m in g.legal_moves():
        if not takeback and g.pile_kind(m.src) == "F":
            continue
        h = g.copy()
        h.move(m)
        engine.add(sp.key(space(h, takeback).root))
    return mine, engine - {root}, children
