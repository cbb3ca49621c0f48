"""Winning lines: from a search's description of a line to the engine's moves, replayed.

The fast searches describe a move by its cards (card, destination top), which does not
depend on pile order (`fast._describe`); the generic search by pile indices of its canonical
state.  Either way the line is replayed through the public ``Game.move`` on a copy of the
caller's game and must end in a win before it is returned: a failure is a solver bug.
"""

from __future__ import annotations

from ..core.moves import Move
from ..engine import Game
from .state import _Spec


def _described_moves(game: Game, spec: _Spec, line: list[tuple[int, int]]) -> list[Move]:
    """Turn a line of (card, destination top) into engine moves by replaying it through the
    public `Game.move` on a copy; the replay must end in a win (else a solver bug is
    raised), so it is also the line's check (`_check_line`)."""
    g = game.copy()
    ids = spec.pile_ids
    out = []
    tops = [q[-1].id if q else -1 for q in (g.pile(pid) for pid in ids)]
    for c, d in line:
        where = {x: i for i, x in enumerate(tops) if x >= 0}  # one deck: each top is unique
        src = ids[where[c]]
        if d == -1 and c % 13:  # same-suit foundations: the one whose top is c's predecessor
            dst = ids[where[c - 1]]
        elif d == -1:
            dst = next(ids[f] for f in spec.fnd if g.can_move(src, ids[f]))
        elif d == -2:
            dst = next(ids[i] for i in spec.tab if tops[i] < 0)
        else:
            dst = ids[where[d]]
        move = Move(src, dst, 1)
        g.move(move)
        out.append(move)
        # only the two piles changed, unless the rules play cards by themselves after a move
        for i in range(len(ids)) if spec.autoplay else (where[c], ids.index(dst)):
            q = g.pile(ids[i])
            tops[i] = q[-1].id if q else -1
    if not g.is_won():
        raise AssertionError(f"solver bug: the line found for {game.name} does not win")
    return out


def _check_line(game: Game, moves: list[Move]) -> None:
    """Replay a winning line through the public engine; a failure is a solver bug."""
    g = game.copy()
    for m in moves:
        g.move(m)
    if not g.is_won():
        raise AssertionError(f"solver bug: the line found for {game.name} does not win")

