"""The one-deck fast state: `_Fast`, for games whose moves are single cards between tableau
piles and four same-suit foundations (`pruning.fast`: Beleaguered Castle, Citadel, Baker's
Dozen).

Its key is a full description of the position up to pile order (the tableau piles' bytes,
sorted, then the four heights), so a search's queue holds only keys.  Its successors are
tested to be the engine's up to pile symmetry for every game and variant it is selected for.
The pruning rules it applies (3, 6, 8) come from `pruning.FastPruning`; `_play_safe_moves`
and `_enter_fast` play rule 3's safe moves on it.  Where holes take any card, a search may
also move a run as one step (`_Fast.run_moves`, rule 10), expanded into single moves through
the holes (`_run_steps`) when the line is described.
"""

from __future__ import annotations

import functools

from ..engine import Game
from .pruning import FastPruning
from .state import _Spec
from .tables import _RANK, _SUIT


class _Fast(FastPruning):
    """One deck, one card at a time, same-suit foundations.  Piles 0..T-1 are the tableau;
    pile T+s is the foundation of suit s, kept as a height (its content follows from it).
    Moves are (src, dst) pairs of these indices."""

    def __init__(self, spec: _Spec, game: Game):
        self.sp = spec
        self.T = len(spec.tab)
        # lists of card ids; the searches also put the piles' bytes here (`FastPruning.t`)
        self.t: list = [[c.id for c in game.pile(spec.pile_ids[i])] for i in spec.tab]
        self.h = [0, 0, 0, 0]
        for fi in spec.fnd:
            q = game.pile(spec.pile_ids[fi])
            if q:
                self.h[_SUIT[q[-1].id]] = q[-1].rank
        self.ok = spec.tab_ok
        self.empty_any = spec.empty == "any"
        self.empty_king = spec.empty == "king"
        self.takeback = spec.takeback
        self.autoplay = spec.autoplay
        # rule 3: the cards that may lie on c, as (suit, rank) pairs
        self.children = [[(_SUIT[x], _RANK[x]) for x in spec.tab_acc[c]] for c in range(52)]
        self.dead_ends = spec.dead_ends  # rules 6 and 8
        self.hole_dead_ends = spec.hole_dead_ends  # rule 8b (`stuck`)
        # heuristic only (`heuristics._score`): how much the cards the foundations need soon
        # weigh, by how soon (now or next; each of Baker's Dozen's searches sets its own)
        self.urgency: tuple[int, ...] = (1, 1)
        # and how much a card lying above a lower card weighs (`heuristics._disorder`)
        self.disorder = 0
        # rule 10: a search that sets it also moves runs through the holes as one step
        self.macro = False
        # the cards c may lie on
        self.parents: list[list[int]] = [[] for _ in range(52)]
        for y in range(52):  # ascending, so each list is in card-id order
            for x in spec.tab_acc[y]:
                self.parents[x].append(y)
        self.parent_bits = [sum(1 << y for y in ps) for ps in self.parents]

    def won(self) -> bool:
        return sum(self.h) == 52

    def _raw(self, a: int, b: int) -> int:
        T = self.T
        if a < T:
            c = self.t[a].pop()
        else:
            s = a - T
            self.h[s] -= 1
            c = s * 13 + self.h[s]
        if b < T:
            self.t[b].append(c)
        else:
            self.h[b - T] += 1
        return c

    def play(self, a: int, b: int) -> list | None:
        """Play a move (with Citadel's autoplay); return what the autoplay moved, for undo.

        The autoplay sends home, again and again, every top that could go home because of
        this move: a card newly uncovered, or the next card of a suit whose foundation just
        grew (never the moved card itself).  A top that could already go home before the
        move stays (the player chose not to send it), and since foundations only grow, the
        set of cards sent is the same whatever order they are found in."""
        c = self._raw(a, b)
        if not self.autoplay:
            return None
        t, h, T = self.t, self.h, self.T
        auto: list[tuple[int, int]] = []
        if b < T:  # the usual case, settled at once: nothing new unless a's new top goes home
            q = t[a] if a < T else None
            if not q or h[q[-1] // 13] != q[-1] % 13:
                return auto
        look = [a] if a < T else []  # piles whose top may now go home
        grown = [b - T] if b >= T else []  # suits whose next card may now go home
        while look or grown:
            if grown:
                s = grown.pop()
                if h[s] < 13:
                    y = s * 13 + h[s]
                    for i, q in enumerate(t):
                        if q and q[-1] == y:
                            look.append(i)
                            break
                continue
            i = look.pop()
            q = t[i]
            if q:
                x = q[-1]
                if h[x // 13] == x % 13 and x != c:
                    q.pop()
                    h[x // 13] += 1
                    auto.append((i, x))
                    look.append(i)
                    grown.append(x // 13)
        return auto

    def undo(self, a: int, b: int, auto: list | None) -> None:
        if auto:
            t, h = self.t, self.h
            for i, x in reversed(auto):
                h[x // 13] -= 1
                t[i].append(x)
        self._raw(b, a)

    def enter(self, m: tuple) -> list | None:
        """Play a move, a single one (a, b) or a run (a, b, n) (`run_moves`), on the lists;
        return the records `leave` and `_replay_described` take it back with: without autoplay
        one record, the run moved at once; with it, the run's single moves (`_run_steps`),
        each played with its autoplay and checked legal first (None, the state as it was,
        when an autoplay on the way made a later step illegal)."""
        if len(m) == 2:
            return [(m, self.play(*m))]
        a, b, n = m
        t = self.t
        if not self.autoplay:
            t[b] += t[a][-n:]
            del t[a][-n:]
            return [(m, None)]
        bits = self.parent_bits
        out: list = []
        for x, y in _run_steps(t, a, b, n):
            if not t[x] or (t[y] and not bits[t[x][-1]] >> t[y][-1] & 1):
                self.leave(out)
                return None
            out.append(((x, y), self.play(x, y)))
        return out

    def leave(self, entered: list) -> None:
        """Take back moves played by `enter` (their records, in order)."""
        t = self.t
        for m, auto in reversed(entered):
            if len(m) == 2:
                if auto:
                    self.undo(m[0], m[1], auto)
                else:
                    self._raw(m[1], m[0])
            else:
                a, b, n = m
                t[a] += t[b][-n:]
                del t[b][-n:]

    def key(self) -> bytes:
        tabs = sorted(map(bytes, self.t))
        tabs.append(bytes(self.h))
        return b"\xff".join(tabs)

    def moves(self) -> list[tuple[int, int]]:
        """Legal moves (home first, take-backs last), with equivalent holes merged (rule 2)
        and moves that only carry a lone card into a hole (the same canonical state) left out."""
        t, h, T = self.t, self.h, self.T
        where = {}  # top card -> its pile (one deck: cards are unique)
        tops = 0  # the same cards as a bit set
        hole = -1
        for j in range(T):
            q = t[j]
            if q:
                where[q[-1]] = j
                tops |= 1 << q[-1]
            elif hole < 0:
                hole = j
        parent_bits = self.parent_bits
        out: list[tuple[int, int]] = []
        later: list[tuple[int, int]] = []
        for c, i in where.items():
            if h[c // 13] == c % 13:
                out.append((i, T + c // 13))
            fits = parent_bits[c] & tops
            while fits:  # the tops c may lie on, lowest card id first
                low = fits & -fits
                later.append((i, where[low.bit_length() - 1]))
                fits ^= low
            if hole >= 0 and len(t[i]) > 1 and (self.empty_any or (self.empty_king and c % 13 == 12)):
                later.append((i, hole))
        out += later
        if self.takeback:
            for s in range(4):
                if h[s]:
                    c = s * 13 + h[s] - 1
                    for d in self.parents[c]:
                        on = where.get(d)
                        if on is not None:
                            out.append((T + s, on))
                    if hole >= 0 and (self.empty_any or (self.empty_king and c % 13 == 12)):
                        out.append((T + s, hole))
        return out

    def run_moves(self) -> list[tuple[int, int, int]]:
        """Rule 10's macro moves, where holes take any card: (src, dst, n), the top n >= 2
        cards of pile src (a natural run: each on a card it may lie on) onto a top that takes
        its bottom card, or into the first hole (not a whole pile: the same canonical state),
        carried one card at a time through the holes (`_run_steps`): at most 2**h cards with
        h holes besides the destination.  Sub-runs count too (the top n cards of a longer
        run).  The single moves (`moves`) are not repeated here."""
        t, T = self.t, self.T
        holes = [j for j in range(T) if not t[j]]
        if not holes or not self.empty_any:
            return []
        cap = 1 << len(holes)
        bits = self.parent_bits
        where = {}
        tops = 0
        for j in range(T):
            q = t[j]
            if q:
                where[q[-1]] = j
                tops |= 1 << q[-1]
        hole = holes[0]
        out: list[tuple[int, int, int]] = []
        for i in range(T):
            q = t[i]
            size = len(q)
            others = tops ^ (1 << q[-1]) if q else 0
            k = 1
            longest = min(size, cap)
            while k < longest and bits[q[-k]] >> q[-k - 1] & 1:
                k += 1  # the top k cards are a natural run: its bottom card q[-k] moves first
                fits = bits[q[-k]] & others
                while fits:
                    low = fits & -fits
                    out.append((i, where[low.bit_length() - 1], k))
                    fits ^= low
                if k < size and k + k <= cap:  # into a hole, through the other holes
                    out.append((i, hole, k))
        return out


@functools.cache
def _fewest(k: int, holes: int) -> tuple[int, int]:
    """Carrying a natural run of `k` cards onto a place that takes its bottom card, one card at
    a time, with `holes` holes to park in: (the fewest single moves, how many top cards to
    park first), by parking the top s cards in one hole (through the others), carrying the
    other k - s cards through the others, then the s parked ones onto them.  No way exists
    (the moves 1 << 30) past 2**holes cards."""
    if k == 1:
        return 1, 0
    best = (1 << 30, 0)
    if holes and k <= 1 << holes:
        for s in range(1, k):
            cost = 2 * _fewest(s, holes - 1)[0] + _fewest(k - s, holes - 1)[0]
            if cost < best[0]:
                best = (cost, s)
    return best


def _run_steps(t: list, a: int, b: int, n: int) -> list[tuple[int, int]]:
    """The single moves that carry the top `n` cards of tableau pile `a` (a natural run) onto
    pile `b` through the holes of `t` (`_fewest`: 2n - 1 moves when there are n - 1 holes
    besides `b`)."""
    holes = [j for j in range(len(t)) if not t[j] and j != b]

    def steps(k: int, a: int, b: int, free: list[int]) -> list[tuple[int, int]]:
        if k == 1:
            return [(a, b)]
        s = _fewest(k, len(free))[1]
        park, rest = free[0], free[1:]
        return steps(s, a, park, rest) + steps(k - s, a, b, rest) + steps(s, park, b, rest)

    return steps(n, a, b, holes)


def _describe(st: _Fast, a: int, b: int) -> tuple[int, int]:
    """A move by its cards, which does not depend on pile order: (card, destination top),
    the destination being -1 for a foundation and -2 for a hole."""
    T = st.T
    c = st.t[a][-1] if a < T else (a - T) * 13 + st.h[a - T] - 1
    if b >= T:
        return (c, -1)
    q = st.t[b]
    return (c, q[-1] if q else -2)


def _restore_fast(st: _Fast, key: bytes) -> None:
    """Set `st` to the position `key` describes (`_Fast.key`), as lists it can play on."""
    piles = key.split(b"\xff")
    st.h = list(piles.pop())
    st.t = [list(x) for x in piles]


def _replay_described(st: _Fast, played: list) -> list:
    """Describe (`_describe`) moves already played on `st` (`_Fast.enter`'s records), by
    undoing and replaying them, a run as its single moves (`_run_steps`)."""
    st.leave(played)
    out = []
    for m, _ in played:
        for a, b in _run_steps(st.t, *m) if len(m) == 3 else (m,):
            out.append(_describe(st, a, b))
            st.play(a, b)
    return out


def _play_safe_moves(st: _Fast) -> list:
    """Play every move home that rule 3 proves safe; return them with their undo records."""
    played: list = []
    while (m := st.safe_move()) is not None:
        played.append((m, st.play(*m)))
    return played


def _enter_fast(st: _Fast, moved_from: int, undo: list) -> None:
    """Play the safe moves of rule 3 after the move (`moved_from`, …) just played, appending
    them with their undo records to `undo`.  The position before that move had none, and a
    move between tableau piles changes neither the heights nor any top but its source pile's,
    so until something goes home only the source pile needs a look; the result is the same as
    scanning every pile."""
    T = st.T
    if moved_from < T and len(undo) == 1 and undo[0][0][1] < T:
        q = st.t[moved_from]
        if not q:
            return
        c = q[-1]
        if st.h[c // 13] != c % 13 or not st.harmless_children(c):
            return
        home = (moved_from, T + c // 13)
        undo.append((home, st.play(*home)))
    while True:
        m = st.safe_move()
        if m is None:
            return
        undo.append((m, st.play(*m)))
