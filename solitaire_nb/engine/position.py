"""`Position`: the engine's compact position and the one implementation of the rules' mechanics.

A position is a list of piles of card ids (0..51, bottom to top; both copies of a card in a
two-deck game share an id, as they share a `Card`) and a face-down count per pile.  Piles are
numbered as `Game.pile_ids`: tableau, foundations, then reserve, stock and waste when present.

What a pile accepts comes from one `RuleTable`, compiled once per `Rules` value from the
rules' acceptance tables; `Position.accepts`/`accepted` are the only legality test, and
`moves`, `play` and `undo` (with every automatic action: turning a card up, Chequers' refill,
Moving Left's shift to the left, Citadel's autoplay) are the only implementation of play.
`Game` runs on a `Position`, and a solver may subclass it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.checks import shown
from ..core.rules import ALL, Rules
from .table import RuleTable, rule_table

Op = tuple
"""One operation of an undo record: ``(src, dst, card_ids, face_down_before)`` when cards
moved from pile `src` to pile `dst` (`card_ids` bottom to top), ``(pile, face_down_before,
card_id)`` when the card `card_id` turned face up on `pile`."""


def _run_tuple(si: int, di: int, n: int) -> tuple[int, int, int]:
    return (si, di, n)


class Position:
    """A position as card ids per pile plus face-down counts, played by its rule table.

    `p[i]`: pile i's card ids, bottom to top; `fd[i]`: how many of them lie face down.  Both
    are plain lists a reader may inspect; change them only through `play` and `undo` (or on a
    `copy`), so that every undo record stays valid."""

    __slots__ = ("table", "p", "fd")

    def __init__(self, table: RuleTable, piles: Sequence[Sequence[int]], face_down: Sequence[int]):
        if len(piles) != len(table.kind) or len(face_down) != len(table.kind):
            raise ValueError(f"Una posición de este juego tiene {len(table.kind)} pilas, no {len(piles)}")
        self.table = table
        self.p: list[list[int]] = [list(q) for q in piles]
        self.fd: list[int] = list(face_down)

    @classmethod
    def empty(cls, rules: Rules) -> Position:
        """A position of `rules` with every pile empty."""
        table = rule_table(rules)
        n = len(table.kind)
        return cls(table, [[] for _ in range(n)], [0] * n)

    def copy(self) -> Position:
        """An independent position with the same cards (and the same rule table)."""
        other = object.__new__(type(self))
        if hasattr(self, "__dict__"):  # a subclass's own fields
            other.__dict__.update(self.__dict__)
        other.table = self.table
        other.p = [list(q) for q in self.p]
        other.fd = list(self.fd)
        return other

    # ---------------------------------------------------------------- acceptance
    def accepted(self, di: int) -> tuple[int, ...] | None:
        """The card ids pile `di` takes now (ALL, i.e. None, for any card; () for none):
        the single source of legality."""
        t = self.table
        q = self.p[di]
        kind = t.kind[di]
        if kind == "T":
            if q:
                return t.tab_acc[q[-1]]
            if t.empty != "reserve":
                return t.empty_acc
            return ALL if not self.p[t.r] else ()  # CH-5/CH-6: holes refill while the reserve lasts
        if kind == "F":
            j = di - t.fnd[0]
            if q:
                return t.fnd_acc[j][q[-1]]
            start = t.fnd_start[j]
            return start if start is not None else self._new_suit_starts(j)
        return ()

    def accepts(self, di: int, cid: int) -> bool:
        """Whether pile `di` takes card `cid` now (as `accepted`); a pile or a card id out of
        range is a Spanish ValueError (two comparisons: the check stays cheap)."""
        try:
            if di < 0 or not 0 <= cid < 52:
                raise IndexError
            q = self.p[di]
            if q and self.table.kind[di] == "T":
                return self.table.tab_ok[q[-1] * 52 + cid]
        except (IndexError, TypeError):
            raise ValueError(
                f"accepts pide una pila de 0 a {len(self.p) - 1} y una carta de 0 a 51, no {shown(di)} y {shown(cid)}"
            ) from None
        acc = self.accepted(di)
        return acc is ALL or cid in acc

    def _new_suit_starts(self, j: int) -> tuple[int, ...]:
        """What empty "new_suit" foundation j takes: a base card of a suit none of its peers
        (same direction) has started."""
        p = self.p
        taken = 0
        for k in self.table.fnd_peers[j]:
            q = p[k]
            if q:
                taken |= 1 << (q[0] // 13)
        return self.table.fnd_new_suit[j][taken]

    def run_length(self, si: int) -> int:
        """How many cards from the top of pile `si` may move together now: 0 for an empty pile
        or a face-down top, 1 where the rules move one card at a time or off the tableau."""
        p = self.p[si]
        up = len(p) - self.fd[si]
        if up <= 0:
            return 0
        t = self.table
        if not t.runs or t.kind[si] != "T":
            return 1
        ok = t.tab_ok
        k = 1
        while k < up and ok[p[-k - 1] * 52 + p[-k]]:
            k += 1
        return k

    # ---------------------------------------------------------------- moves
    def moves(self) -> list[tuple[int, int, int]]:
        """Every legal move as (src, dst, count), pointless ones included, and nothing else.

        Canonical order, i.e. sorted by (src, count, dst): sources in pile-index order; for
        each source its single-card moves with destinations in pile-index order, then its runs
        of 2, 3, … cards, each with destinations in index order.

        The accept sets are inverted once (key -> piles taking such a card), so the work grows
        with the number of legal moves rather than with sources x destinations."""
        return self._moves(self.table.single, _run_tuple)

    def _moves(self, single: Sequence[Sequence[Any]], run: Callable[[int, int, int], Any]) -> list:
        """`moves`, with each move made as ``single[src][dst]`` (one card) or ``run(src, dst,
        count)``, so that `Game` gets its `Move` objects without a second pass."""
        t = self.table
        p, fd = self.p, self.fd
        wanted, key = t.tab_wanted, t.tab_key
        # key -> tableau piles taking such a card (None: none); lists indexed by a small int
        # are cheaper to fill and read than dicts
        want_t: list[list[int] | None] = [None] * t.key_count
        used: list[int] = []  # the keys filled in `want_t`
        want_f: dict[int, list[int]] = {}  # card id -> foundations taking it
        holes: list[int] = []  # empty tableau piles taking any card
        reserve_fills = t.empty == "reserve"
        for di in t.tab:
            q = p[di]
            acc = wanted[q[-1]] if q else self.accepted(di) if reserve_fills else t.empty_acc
            if acc is ALL:
                holes.append(di)
                continue
            for k in acc:
                lst = want_t[k]
                if lst is None:
                    want_t[k] = [di]
                    used.append(k)
                else:
                    lst.append(di)
        fnd_acc = t.fnd_acc
        for j, di in enumerate(t.fnd):
            q = p[di]
            for cid in fnd_acc[j][q[-1]] if q else self.accepted(di):  # type: ignore[union-attr]
                lst = want_f.get(cid)
                if lst is None:
                    want_f[cid] = [di]
                else:
                    lst.append(di)
        if holes:  # a hole takes every card: merge it into each list once, in pile order
            for k in used:
                want_t[k] = sorted(want_t[k] + holes)  # type: ignore[operator]
        take_f = want_f.get
        out: list[tuple[int, int, int]] = []
        append = out.append
        runs = t.runs
        hidden = any(fd)  # without face-down cards a pile with cards has a top to move
        for si in t.tab:
            q = p[si]
            if not q or hidden and len(q) <= fd[si]:
                continue
            cid = q[-1]
            row = single[si]
            for di in want_t[key[cid]] or holes:
                append(row[di])
            for di in take_f(cid, ()):
                append(row[di])
            if runs:
                for n in range(2, self.run_length(si) + 1):
                    for di in want_t[key[q[-n]]] or holes:
                        if di != si:  # an up-and-down build could take its own run
                            append(run(si, di, n))
        if t.takeback:
            for si in t.fnd:
                q = p[si]
                if q and (not hidden or len(q) > fd[si]):
                    row = single[si]
                    for di in want_t[key[q[-1]]] or holes:
                        append(row[di])
        for si in (t.r, t.s, t.w):
            if si < 0 or not p[si]:
                continue
            row = single[si]
            if si == t.s:
                append(row[t.w])  # ML-7: turn one card of the stock onto the waste
                continue
            q = p[si]
            if (si == t.r and not t.reserve_playable) or len(q) <= fd[si]:
                continue
            cid = q[-1]
            for di in want_t[key[cid]] or holes:
                append(row[di])
            for di in take_f(cid, ()):
                append(row[di])
        return out

    # ---------------------------------------------------------------- playing
    def play(self, si: int, di: int, n: int) -> list[Op]:
        """Play `n` cards from pile `si` to pile `di` with every automatic action that follows;
        return the undo record (see `Op`), whose first operation is the player's move.

        The solver's hot path: it trusts its caller and checks nothing, so an illegal move or
        a count larger than the pile is played as asked.  The checked way is `Game.move`
        (or ask `moves()` first)."""
        if self.table.plain and not self.fd[si]:
            # the common case, as `_transfer` then `_after_move` would play it: nothing turns
            # up (no face-down card under the moved ones) and nothing plays by itself
            src = self.p[si]
            moved = src[-n:]
            del src[-n:]
            self.p[di] += moved
            return [(si, di, moved, 0)]
        ops: list[Op] = []
        excluded = self._autoplay_candidates() if self.table.autoplay else None
        self._transfer(si, di, n, ops)
        self._after_move(si, ops)
        if excluded is not None:
            excluded.add(ops[0][2][0])  # CB-7 leaves the card the player just moved alone
            self._autoplay(ops, excluded)
        return ops

    def autoplay(self) -> list[Op]:
        """Run the rules' autoplay now, with nothing excluded (Citadel's, right after the
        deal); return its undo record (empty without autoplay or when nothing goes home)."""
        ops: list[Op] = []
        if self.table.autoplay:
            self._autoplay(ops, set())
        return ops

    def undo(self, ops: list[Op]) -> None:
        """Take back the operations of an undo record `play` (or `autoplay`) returned; the
        record must be the last one not yet undone."""
        p, fd = self.p, self.fd
        for op in reversed(ops):
            if len(op) == 4:
                si, di, cards, fd_before = op
                del p[di][-len(cards) :]
                p[si] += cards
                fd[si] = fd_before
            else:
                fd[op[0]] = op[1]

    def _transfer(self, si: int, di: int, n: int, ops: list[Op]) -> None:
        src = self.p[si]
        moved = src[-n:]
        del src[-n:]
        self.p[di] += moved
        fd_before = self.fd[si]
        if fd_before > len(src):
            self.fd[si] = len(src)
        ops.append((si, di, moved, fd_before))

    def _turn_up(self, pi: int, ops: list[Op]) -> None:
        """ML-6 and the reserve's face-up top: an exposed face-down card turns face up."""
        q = self.p[pi]
        if q and self.fd[pi] >= len(q) and self.table.kind[pi] in ("T", "R"):
            ops.append((pi, self.fd[pi], q[-1]))
            self.fd[pi] = len(q) - 1

    def _after_move(self, si: int, ops: list[Op]) -> None:
        """What follows cards leaving pile `si`: turn up, then refill (CH-5) or shift left."""
        self._turn_up(si, ops)
        t = self.table
        if t.kind[si] != "T" or self.p[si]:
            return
        if t.refill and self.p[t.r]:
            self._transfer(t.r, si, 1, ops)  # CH-5
            self._turn_up(t.r, ops)
        elif t.shift_left:
            self._shift_left(si, ops)

    def _shift_left(self, si: int, ops: list[Op]) -> None:
        """Moving Left's `shift_left` variant: the face-up part of each pile to the right of an
        emptied pile moves into it, on to the right while piles keep emptying."""
        tab = self.table.tab
        pos = tab.index(si)
        while pos + 1 < len(tab):
            right = tab[pos + 1]
            up = len(self.p[right]) - self.fd[right]
            if up <= 0:
                return  # nothing to shift: the chain stops at an empty neighbour
            self._transfer(right, tab[pos], up, ops)
            self._turn_up(right, ops)
            if self.p[right]:
                return
            pos += 1

    def foundation_for(self, cid: int) -> int:
        """The first foundation (in pile order) that takes card `cid` now, or -1."""
        for fi in self.table.fnd:
            if self.accepts(fi, cid):
                return fi
        return -1

    def _foundation_wants(self) -> dict[int, int]:
        """Card id -> the first foundation that takes it now (as `accepts` says)."""
        t = self.table
        p = self.p
        wants: dict[int, int] = {}
        for j, fi in enumerate(t.fnd):
            q = p[fi]
            for cid in t.fnd_acc[j][q[-1]] if q else self.accepted(fi):  # type: ignore[union-attr]
                if cid not in wants:
                    wants[cid] = fi
        return wants

    def _autoplay_candidates(self) -> set[int]:
        """Face-up tableau tops a foundation takes right now (CB-7 leaves these alone)."""
        wants = self._foundation_wants()
        p, fd = self.p, self.fd
        return {p[ti][-1] for ti in self.table.tab if len(p[ti]) > fd[ti] and p[ti][-1] in wants}

    def _autoplay(self, ops: list[Op], excluded: set[int]) -> None:
        """Citadel's autoplay (CB-7): tableau tops go home, left to right, until none can."""
        p, fd = self.p, self.fd
        wants = self._foundation_wants()
        moved = True
        while moved:
            moved = False
            for ti in self.table.tab:
                q = p[ti]
                if len(q) > fd[ti] and q[-1] in wants and q[-1] not in excluded:
                    self._transfer(ti, wants[q[-1]], 1, ops)
                    self._after_move(ti, ops)
                    wants = self._foundation_wants()
                    moved = True

    # ---------------------------------------------------------------- queries
    def is_won(self) -> bool:
        """Every card in the position is on a foundation."""
        kind = self.table.kind
        return all(not q for i, q in enumerate(self.p) if kind[i] != "F")

    def __repr__(self) -> str:
        return f"Position({self.p!r}, fd={self.fd!r})"
