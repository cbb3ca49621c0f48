"""The two-deck fast path: Moving Left's family searched on a compact, immutable position.

Selected from the rules (`applies`): two decks; tableau piles that build down with runs that
move as units; same-suit foundations that build up from any Ace (two per suit); a stock
turned one card at a time onto a waste, passed once; no reserve, no automatic action but
turning a card face up, piles kept in place (no `shift_left`).  The solver sees the
face-down cards and the stock (it plays thoughtfully), so the position is fully known.

A position is four immutable values, so a child shares all but one or two with its parent and
nothing is undone: ``tab`` (per pile, ``bytes((face_down,)) + card ids``, bottom to top), ``h``
(8 bytes: per suit the heights of its two foundations, the higher first), ``s`` (cards left in
the stock, whose order the deal fixes) and ``w`` (the waste's card ids, bottom to top).  The key
sorts the piles and merges equivalent holes (pruning rules 1 and 2); without take-backs a top
goes home at once when both copies of every card that could lie on it are home (rule 3, which
holds with runs: docs/solver.md#poda-dos-barajas).
"""

from __future__ import annotations

import heapq

from ..core.moves import Move
from ..engine import rule_table
from .best_first import best_first

MOVE_T, MOVE_F, MOVE_WF, MOVE_WT, MOVE_B, MOVE_S = range(6)


def applies(rules, decks: int) -> bool:
    """Whether the rules are ones this path plays exactly (see the module docstring)."""
    f = rules.foundations
    return (
        decks == 2
        and len(f) == 8
        and all(x.direction == "up" and x.suits == "same" and x.start == "any" for x in f)
        and rules.tableau.build == "down"
        and rules.tableau.empty in ("king", "any", "none")
        and rules.stock
        and rules.waste
        and not rules.reserve
        and not rules.refill_from_reserve
        and not rules.shift_left
        and not rules.autoplay
        and not rules.deal_to_foundations
    )


class TwoDeck:
    """The rules compiled for the search, and the start position read from a game."""

    def __init__(self, game, takeback: bool):
        r = game.rules
        table = self._compile(r, takeback)
        # rule 3: the cards that may lie on c, as suits and 0-based ranks
        self.lie_on = [[(x // 13, x % 13) for x in table.tab_acc[c]] for c in range(52)]
        self.runs = r.tableau.runs
        self.empty = r.tableau.empty
        self.tab_ids = game.tableau_ids
        self.stock = tuple(c.id for c in game.pile("S"))  # bottom to top: the top is turned first
        tab = tuple(bytes((game.face_down(p),)) + bytes(c.id for c in game.pile(p)) for p in self.tab_ids)
        heights = [[0, 0] for _ in range(4)]
        for p in game.foundation_ids:
            q = game.pile(p)
            if q:
                pair = heights[q[-1].id // 13]
                pair[pair.index(0) if 0 in pair else 1] = len(q)
        h = bytes(x for pair in heights for x in sorted(pair, reverse=True))
        self.root = (tab, h, len(game.pile("S")), bytes(c.id for c in game.pile("W")))
        self.cards = game.total_cards
        self._pile_bad: dict[bytes, int] = {}

    def _compile(self, rules, takeback: bool):
        """Set what every two-deck path reads from the rules (`takeback`, `ok`, `parents`)
        and return the engine's compiled tables, the one source of the rules."""
        self.takeback = takeback
        table = rule_table(rules)
        ok = self.ok = table.tab_ok  # ok[y * 52 + x]: x may lie on y
        self.parents = [[y for y in range(52) if ok[y * 52 + x]] for x in range(52)]
        return table

    # ---------------------------------------------------------------- positions
    @staticmethod
    def key(pos) -> bytes:
        tab, h, s, w = pos
        return b"\xff".join(sorted(tab)) + b"\xfe" + h + bytes((s,)) + w

    def won(self, pos) -> bool:
        """Every card in play is home (a practice position has fewer than 104)."""
        return sum(pos[1]) == self.cards

    def score(self, pos) -> int:
        """Best-first priority (lower first), as the generic search's: cards not yet home (8
        each), face-down cards (2 each), and face-up cards lying on a card they could not
        be put on.  A pile's share is cached by its bytes: most piles recur in many states."""
        memo = self._pile_bad
        bad = 0
        for q in pos[0]:
            b = memo.get(q)
            if b is None:
                ok = self.ok
                f = q[0]
                b = 2 * f
                for d in range(f + 1, len(q) - 1):
                    if not ok[q[d] * 52 + q[d + 1]]:
                        b += 1
                if len(memo) < 1_000_000:
                    memo[q] = b
            bad += b
        return 8 * (self.cards - sum(pos[1])) + bad

    def _hole_takes(self, c: int) -> bool:
        e = self.empty
        return e == "any" or (e == "king" and c % 13 == 12)

    @staticmethod
    def _home(h: bytes, c: int) -> bytes | None:
        """The heights after `c` goes home, or None if no foundation takes it."""
        u, r = c // 13, c % 13
        a, b = h[2 * u], h[2 * u + 1]
        if a == r:
            a += 1
        elif b == r:
            b += 1
        else:
            return None
        if b > a:
            a, b = b, a
        return h[: 2 * u] + bytes((a, b)) + h[2 * u + 2 :]

    @staticmethod
    def _take(q: bytes, n: int) -> bytes:
        """Pile `q` without its top `n` cards, its new top turned face up."""
        rest = q[1:-n]
        f = q[0]
        if f >= len(rest):
            f = max(len(rest) - 1, 0)
        return bytes((f,)) + rest

    # ---------------------------------------------------------------- moves
    def children(self, pos) -> list:
        """Every (move, child) pair, with equivalent holes merged and pointless moves of a
        whole pile into a hole left out."""
        tab, h, s, w = pos
        ok = self.ok
        # (move, child): a move is (kind, its piles, cards or card...); a child (tableau, heights, stock left, waste)
        out: list[tuple[tuple[int, ...], tuple[tuple[bytes, ...], bytes, int, bytes]]] = []
        T = len(tab)
        holes = [j for j in range(T) if len(tab[j]) == 1]
        hole = holes[0] if holes else -1
        tops: dict[int, list[int]] = {}  # top card -> piles with that top (two decks: up to two)
        for j in range(T):
            q = tab[j]
            if len(q) > 1:
                tops.setdefault(q[-1], []).append(j)
        for i in range(T):
            q = tab[i]
            up = len(q) - 1 - q[0]
            if up <= 0:
                continue
            c = q[-1]
            nh = self._home(h, c)
            if nh is not None:
                t2 = list(tab)
                t2[i] = self._take(q, 1)
                out.append(((MOVE_F, i), (tuple(t2), nh, s, w)))
            n = 1
            while True:
                b = q[-n]
                for y in self.parents[b]:
                    for j in tops.get(y, ()):
                        if j != i:
                            t2 = list(tab)
                            t2[i] = self._take(q, n)
                            t2[j] = tab[j] + q[-n:]
                            out.append(((MOVE_T, i, j, n), (tuple(t2), h, s, w)))
                if hole >= 0 and self._hole_takes(b) and not (q[0] == 0 and n == len(q) - 1):
                    t2 = list(tab)
                    t2[i] = self._take(q, n)
                    t2[hole] = b"\x00" + q[-n:]
                    out.append(((MOVE_T, i, hole, n), (tuple(t2), h, s, w)))
                if not self.runs or n >= up or not ok[q[-n - 1] * 52 + b]:
                    break
                n += 1
        if w:
            c = w[-1]
            nh = self._home(h, c)
            if nh is not None:
                out.append(((MOVE_WF,), (tab, nh, s, w[:-1])))
            for j in self._tableau_dests(tab, tops, hole, c):
                t2 = list(tab)
                t2[j] = tab[j] + bytes((c,))
                out.append(((MOVE_WT, j), (tuple(t2), h, s, w[:-1])))
        if self.takeback:
            for u in range(4):
                for k in (0, 1):
                    hh = h[2 * u + k]
                    if not hh or (k and hh == h[2 * u]):
                        continue
                    c = u * 13 + hh - 1
                    lowered = list(h)
                    lowered[2 * u + k] -= 1
                    if lowered[2 * u + 1] > lowered[2 * u]:
                        lowered[2 * u], lowered[2 * u + 1] = lowered[2 * u + 1], lowered[2 * u]
                    for j in self._tableau_dests(tab, tops, hole, c):
                        t2 = list(tab)
                        t2[j] = tab[j] + bytes((c,))
                        out.append(((MOVE_B, c, j), (tuple(t2), bytes(lowered), s, w)))
        if s:
            out.append(((MOVE_S,), (tab, h, s - 1, w + bytes((self.stock[s - 1],)))))
        return out

    def _tableau_dests(self, tab, tops, hole, c) -> list[int]:
        out = [j for y in self.parents[c] for j in tops.get(y, ())]
        if hole >= 0 and self._hole_takes(c):
            out.append(hole)
        return out

    def to_moves(self, game, line: list) -> list[Move]:
        return to_moves(game, self, line)

    def safe(self, pos):
        """Rule 3 (no take-backs only): a tableau move home proven safe, or None."""
        tab, h, s, w = pos
        for i, q in enumerate(tab):
            if len(q) - 1 > q[0]:
                c = q[-1]
                nh = self._home(h, c)
                if nh is None:
                    continue
                if all(h[2 * u + 1] > r for u, r in self.lie_on[c]):
                    t2 = list(tab)
                    t2[i] = self._take(q, 1)
                    return (MOVE_F, i), (tuple(t2), nh, s, w)
        return None

    def settle(self, pos, line: list):
        """Play the safe moves of rule 3 (without take-backs), appending them to `line`."""
        if self.takeback:
            return pos
        while (m := self.safe(pos)) is not None:
            line.append(m[0])
            pos = m[1]
        return pos


def search(game, takeback: bool, deadline, cap: int, max_table: int, space=TwoDeck) -> tuple[str, list[Move], int]:
    """Complete best-first search (as the generic one): "won" with engine moves replayed to a
    win, "lost" after every reachable state, "unknown" at a cap.  `space`: the class of the
    compact positions searched (`TwoDeck`, or another path's with the same methods)."""
    sp = space(game, takeback)
    root_line: list = []
    root = sp.settle(sp.root, root_line)
    if sp.won(root):
        return "won", sp.to_moves(game, root_line), 0
    if cap == 0:
        return "unknown", [], 0
    children, settle, key_of, won, score = sp.children, sp.settle, sp.key, sp.won, sp.score
    heappush = heapq.heappush

    def expand(key: bytes, pos, parent: dict, heap: list) -> bytes | None:
        for move, child in children(pos):
            seg = [move]
            child = settle(child, seg)
            k = key_of(child)
            if k in parent:
                continue
            parent[k] = (key, seg)
            if won(child):
                return k
            heappush(heap, (score(child), len(parent), k, child))
        return None

    status, line, states = best_first(key_of(root), root, score(root), expand, cap, max_table, deadline, 255)
    return status, sp.to_moves(game, root_line + line) if status == "won" else line, states


def to_moves(game, sp: TwoDeck, line: list) -> list[Move]:
    """The line as engine moves, replayed through the public `Game.move` on a copy (which
    checks every move); the replay must end in a win, else it is a solver bug."""
    g = game.copy()
    ids = sp.tab_ids
    out = []
    for m in line:
        kind = m[0]
        if kind == MOVE_T:
            move = Move(ids[m[1]], ids[m[2]], m[3])
        elif kind == MOVE_WT:
            move = Move("W", ids[m[1]], 1)
        elif kind == MOVE_S:
            move = Move("S", "W", 1)
        elif kind == MOVE_B:
            src = next(f for f in g.foundation_ids if g.pile(f) and g.pile(f)[-1].id == m[1])
            move = Move(src, ids[m[2]], 1)
        else:
            src = ids[m[1]] if kind == MOVE_F else "W"
            move = next(Move(src, f, 1) for f in g.foundation_ids if g.can_move(src, f))
        g.move(move)
        out.append(move)
    if not g.is_won():
        raise AssertionError(f"solver bug: the line found for {game.name} does not win")
    return out

