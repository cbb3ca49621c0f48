"""The fast path for two decks with up and down foundations and a reserve that refills holes
(Chequers' family), on compact, immutable positions: `TwoDeckReserve` subclasses
`twodeck.TwoDeck`, and `search` is `twodeck.search` on it, with the same score.

Selected from the rules (`applies`): two decks; eight same-suit foundations, four up from the
Ace and four down from the King, each suit starting at most one of each direction (CH-2); one
card at a time on the tableau, as the engine's compiled tables accept; a reserve whose top
refills an emptied pile at once (CH-5), holes taking any card once it is out (CH-6), its top
playable by hand or not (CH-7, `reserve_playable`); no stock, waste, autoplay or shifting piles.

A position is ``tab`` (per pile, ``bytes((face_down,)) + card ids``, bottom to top), ``h`` (8
bytes: per suit its up- and down-height), ``r`` (cards left in the reserve, whose order the deal
fixes) and its best-first score (not in the key).  The key sorts the piles, root included
(pruning rules 1 and 2); moving a pile's only card into a hole is left out; no safe moves home
(no rule 3).  Why each is sound: docs/solver.md#poda-dos-barajas-reserva.
"""

from __future__ import annotations

from ..core.moves import Move
from ..core.rules import Rules
from ..engine import Game
from . import twodeck

MOVE_T, MOVE_F, MOVE_RT, MOVE_RF, MOVE_B = range(5)
UP, DOWN = 0, 1


def applies(rules: Rules, decks: int) -> bool:
    """Whether the rules are ones this path plays exactly (see the module docstring)."""
    f = rules.foundations
    return (
        decks == 2
        and len(f) == 8
        and all(x.suits == "same" and x.start == "new_suit" for x in f)
        and sum(x.direction == "up" for x in f) == 4
        and sum(x.direction == "down" for x in f) == 4
        and not rules.tableau.runs
        and rules.tableau.empty == "reserve"
        and rules.reserve
        and rules.refill_from_reserve
        and not rules.stock
        and not rules.waste
        and not rules.shift_left
        and not rules.autoplay
        and not rules.deal_to_foundations
    )


class TwoDeckReserve(twodeck.TwoDeck):
    """The rules compiled for the search, and the start position read from a game.

    Shares with `TwoDeck` its `won` (every card in play home: the heights add up to it),
    `_take` and the search (`twodeck.search`, with ``space=TwoDeckReserve``)."""

    def __init__(self, game, takeback: bool):
        r = game.rules
        self._compile(r, takeback)
        ok = self.ok
        self.playable = r.reserve_playable
        # foundation pile ids per direction, in pile order (`to_moves` picks the first that takes)
        dirs = [f.direction for f in r.foundations]
        fids = game.foundation_ids
        self.fnds = tuple(tuple(p for p, d in zip(fids, dirs, strict=True) if d == want) for want in ("up", "down"))
        heights = [0] * 8
        for p, d in zip(fids, dirs, strict=True):
            q = game.pile(p)
            if q:
                heights[2 * (q[0].id // 13) + (d == "down")] = len(q)
        reserve = game.pile("R")
        self.reserve = bytes(c.id for c in reserve)  # bottom to top: the top refills first
        n = len(reserve)
        tab = [bytes((game.face_down(p),)) + bytes(c.id for c in game.pile(p)) for p in game.tableau_ids]
        order = sorted(range(len(tab)), key=lambda j: (tab[j], j))
        self.tab_ids = tuple(game.tableau_ids[j] for j in order)
        self.cards = game.total_cards
        self._bad = _PileBad(ok)
        self.root = self.scored(tuple(tab[j] for j in order), bytes(heights), n)

    def scored(self, tab: tuple, h: bytes, r: int) -> tuple:
        """The position with its score worked out from scratch (the root's; tests)."""
        return (tab, h, r, 8 * (self.cards - sum(h)) + sum(map(self._bad.__getitem__, tab)))

    @staticmethod
    def score(pos) -> int:
        """`TwoDeck.score`'s priority (cards not home weigh 8, face-down cards 2, and each
        face-up card lying on a card it could not be put on 1), carried by the position:
        `children` works it out from the parent's and the piles that change (`_PileBad`)."""
        return pos[3]

    @staticmethod
    def key(pos) -> bytes:
        return b"\xff".join(sorted(pos[0])) + b"\xfe" + pos[1] + bytes((pos[2],))

    def settle(self, pos, line: list):
        """No safe moves (why: docs/solver.md#poda-dos-barajas-reserva)."""
        return pos

    @staticmethod
    def _homes(h: bytes, c: int) -> list[tuple[int, bytes]]:
        """(direction, heights after `c` goes there) for each foundation that takes `c`: up
        when its suit's up-height is c's rank - 1, down when its down-height is 13 - rank."""
        u, k = c // 13, c % 13
        out = []
        if h[2 * u] == k:
            out.append((UP, h[: 2 * u] + bytes((k + 1,)) + h[2 * u + 1 :]))
        if h[2 * u + 1] == 12 - k:
            out.append((DOWN, h[: 2 * u + 1] + bytes((13 - k,)) + h[2 * u + 2 :]))
        return out

    def children(self, pos) -> list:
        """Every (move, child) pair the engine's rules give, the refill included, with
        equivalent holes merged and a lone card's moves into a hole left out."""
        tab, h, r, sc = pos
        parents = self.parents
        bad = self._bad
        # (move, child): a move is (kind, its piles or card...); a child (tableau, heights, reserve left, score)
        out: list[tuple[tuple[int, ...], tuple[tuple[bytes, ...], bytes, int, int]]] = []
        T = len(tab)
        tops: dict[int, list[int]] = {}  # top card -> piles with that top (two decks: up to two)
        hole = -1  # the first hole, when holes take cards (the reserve is out)
        for j in range(T):
            q = tab[j]
            if len(q) > 1:
                lst = tops.get(q[-1])
                if lst is None:
                    tops[q[-1]] = [j]
                else:
                    lst.append(j)
            elif hole < 0 and not r:
                hole = j
        for i in range(T):
            q = tab[i]
            if len(q) - 1 <= q[0]:
                continue  # empty, or its top face down
            c = q[-1]
            rest = q[:-1] if not q[0] else self._take(q, 1)
            r2 = r
            if len(rest) == 1 and r:  # CH-5: the reserve's top fills the hole at once
                r2 = r - 1
                rest = b"\x00" + self.reserve[r2 : r2 + 1]
            si = sc - bad[q] + bad[rest]  # the score without c, before it lands
            u, k = divmod(c, 13)
            if h[2 * u] == k or h[2 * u + 1] == 12 - k:
                for d, nh in self._homes(h, c):
                    t2 = list(tab)
                    t2[i] = rest
                    out.append(((MOVE_F, i, d), (tuple(t2), nh, r2, si - 8)))
            for y in parents[c]:
                for j in tops.get(y, ()):
                    if j != i:
                        t2 = list(tab)
                        t2[i] = rest
                        t2[j] = dst = tab[j] + bytes((c,))
                        out.append(((MOVE_T, i, j), (tuple(t2), h, r2, si - bad[tab[j]] + bad[dst])))
            if hole >= 0 and len(q) > 2:
                t2 = list(tab)
                t2[i] = rest
                t2[hole] = b"\x00" + bytes((c,))
                out.append(((MOVE_T, i, hole), (tuple(t2), h, r2, si)))
        if r and self.playable:  # CH-7 (no holes take cards now)
            c = self.reserve[r - 1]
            for d, nh in self._homes(h, c):
                out.append(((MOVE_RF, d), (tab, nh, r - 1, sc - 8)))
            for y in parents[c]:
                for j in tops.get(y, ()):
                    t2 = list(tab)
                    t2[j] = dst = tab[j] + bytes((c,))
                    out.append(((MOVE_RT, j), (tuple(t2), h, r - 1, sc - bad[tab[j]] + bad[dst])))
        if self.takeback:
            for u in range(4):
                for d in (UP, DOWN):
                    height = h[2 * u + d]
                    if not height:
                        continue
                    c = u * 13 + (height - 1 if d == UP else 13 - height)
                    nh = h[: 2 * u + d] + bytes((height - 1,)) + h[2 * u + d + 1 :]
                    dests = [j for y in parents[c] for j in tops.get(y, ())]
                    if hole >= 0:
                        dests.append(hole)
                    for j in dests:
                        t2 = list(tab)
                        t2[j] = dst = tab[j] + bytes((c,))
                        out.append(((MOVE_B, c, d, j), (tuple(t2), nh, r, sc + 8 - bad[tab[j]] + bad[dst])))
        return out

    def to_moves(self, game, line: list) -> list[Move]:
        """The line as engine moves, replayed through the public `Game.move` on a copy (which
        checks every move); the replay must end in a win, else it is a solver bug."""
        g = game.copy()
        out = []
        for m in line:
            move = self.engine_move(g, m)
            g.move(move)
            out.append(move)
        if not g.is_won():
            raise AssertionError(f"solver bug: the line found for {game.name} does not win")
        return out

    def engine_move(self, g, m: tuple) -> Move:
        """The engine `Move` of the search's move `m` in game `g` (at the position `m` is
        played from): the foundation of the move's direction that takes the card, or whose top
        is the card taken back."""
        ids = self.tab_ids
        kind = m[0]
        if kind == MOVE_T:
            return Move(ids[m[1]], ids[m[2]], 1)
        if kind == MOVE_RT:
            return Move("R", ids[m[1]], 1)
        if kind == MOVE_B:
            src = next(f for f in self.fnds[m[2]] if g.pile(f) and g.pile(f)[-1].id == m[1])
            return Move(src, ids[m[3]], 1)
        src, d = (ids[m[1]], m[2]) if kind == MOVE_F else ("R", m[1])
        return next(Move(src, f, 1) for f in self.fnds[d] if g.can_move(src, f))


class _PileBad(dict):
    """Pile bytes -> its share of the score, worked out the first time a pile is seen (most
    piles recur in many positions); at most a million are kept."""

    def __init__(self, ok):
        super().__init__()
        self.ok = ok

    def __missing__(self, q: bytes) -> int:
        ok = self.ok
        f = q[0]
        b = 2 * f + sum(1 for d in range(f + 1, len(q) - 1) if not ok[q[d] * 52 + q[d + 1]])
        if len(self) < 1_000_000:
            self[q] = b
        return b


def search(
    game: Game, takeback: bool, deadline: float | None, cap: int, max_table: int
) -> tuple[str, list[Move], int]:
    """`twodeck.search` (complete best-first) on this path's positions."""
    return twodeck.search(game, takeback, deadline, cap, max_table, space=TwoDeckReserve)
