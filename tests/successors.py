"""Shared by the tests: a fast path's successors against the engine's, a plain search over the
engine's own moves to check verdicts against, and positions reached by random legal moves."""

from __future__ import annotations

import random

import solitaire_nb as sn


def walk(g: sn.Game, rng: random.Random, steps: int) -> sn.Game:
    """`g` itself after up to `steps` random legal moves drawn from `rng` (fewer if it is stuck)."""
    for _ in range(steps):
        legal = g.legal_moves()
        if not legal:
            break
        g.move(rng.choice(legal))
    return g


def played(name, seed: int, moves: int, **variant) -> sn.Game:
    """A numbered deal of `name` (a game's name or definition) after `moves` random legal moves
    (so foundations, holes and turned cards show up), reproducible from the seed."""
    return walk(sn.new_game(name, seed=seed, **variant), random.Random(seed), moves)


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


def won_reachable(g, limit: int) -> bool | None:
    """Whether a won position is reachable, by a plain search over the engine's own
    `legal_moves` that merges only positions equal pile by pile (the tableau piles' order
    too when an autoplay could depend on it); None past `limit` positions."""

    def key(x) -> tuple:
        piles = [(pid[0], tuple(c.id for c in x.pile(pid))) for pid in x.pile_ids]
        if not x.rules.autoplay:  # nothing then depends on where a tableau pile stands
            piles = sorted(p for p in piles if p[0] == "T") + [p for p in piles if p[0] != "T"]
        return tuple(piles)

    seen = {key(g)}
    stack = [g]
    while stack:
        x = stack.pop()
        if x.is_won():
            return True
        for m in x.legal_moves():
            y = x.copy()
            y.move(m)
            k = key(y)
            if k not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(k)
                stack.append(y)
    return False
