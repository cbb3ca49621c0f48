"""Winning lines: from a search's description of a line to the engine's moves, replayed.

The fast searches describe a move by its cards (card, destination top), which does not
depend on pile order (`fast._describe`); the generic search by pile indices of its canonical
state.  Either way the line is replayed through the public ``Game.move`` on a copy of the
caller's game and must end in a win before it is returned: a failure is a solver bug.
`_shortcut` first cuts a fast search's detours (a position that one move reaches further on).
"""

from __future__ import annotations

from ..core.moves import Move
from ..engine import Game
from .fast import _describe, _Fast
from .state import _Spec


def _shortcut(game: Game, spec: _Spec, line: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A fast search's described line with its detours cut: from each position on the line,
    if one legal move reaches a position the line only reaches later (the same up to the
    order of the piles), that move replaces the stretch in between.  Every move kept is
    legal where it is played, and the line still ends where it ended (in a win)."""
    st = _Fast(spec, game)
    where: dict[bytes, int] = {st.key(): 0}
    # the last position with each set of top cards and heights: a move is played and its
    # position looked up only if that is further on (equal keys have equal tops and heights)
    last: dict[tuple[int, bytes], int] = {_tops(st): 0}
    for k, (c, d) in enumerate(line):
        st.play(*_locate(st, c, d))
        where[st.key()] = last[_tops(st)] = k + 1
    st = _Fast(spec, game)
    t, h, T = st.t, st.h, st.T
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(line):
        far, step = i + 1, None
        tops, heights = _tops(st)
        for m in st.moves():
            a, b = m
            if not st.autoplay:  # the tops and heights after the move, without playing it
                after, hb = tops, heights
                if a < T:
                    c = t[a][-1]
                    after ^= 1 << c
                    if len(t[a]) > 1:
                        after |= 1 << t[a][-2]
                else:  # a take-back: the suit's top card leaves its foundation
                    c = (a - T) * 13 + h[a - T] - 1
                    hb = bytes(x - (s == a - T) for s, x in enumerate(h))
                if b < T:
                    if t[b]:
                        after ^= 1 << t[b][-1]
                    after |= 1 << c
                else:
                    hb = bytes(x + (s == b - T) for s, x in enumerate(h))
                if last.get((after, hb), -1) <= far:
                    continue
            auto = st.play(a, b)
            j = where.get(st.key(), -1)
            st.undo(a, b, auto)
            if j > far:
                far, step = j, m
        if step is None:
            step = _locate(st, *line[i])
        out.append(_describe(st, *step))
        st.play(*step)
        i = far
    return out


def _tops(st: _Fast) -> tuple[int, bytes]:
    """The fast state's top cards (a bit set) and foundation heights."""
    tops = 0
    for q in st.t:
        if q:
            tops |= 1 << q[-1]
    return tops, bytes(st.h)


def _locate(st: _Fast, c: int, d: int) -> tuple[int, int]:
    """The (source, destination) of the described move (card `c`, destination top `d`: -1 a
    foundation, -2 a hole) on the fast state `st` (`fast._describe`'s inverse)."""
    T, t = st.T, st.t
    a = next((i for i in range(T) if t[i] and t[i][-1] == c), T + c // 13)
    if d == -1:
        return a, T + c // 13
    if d == -2:
        return a, next(i for i in range(T) if not t[i])
    return a, next(i for i in range(T) if t[i] and t[i][-1] == d)


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

