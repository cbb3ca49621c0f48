"""Pruning: which positions the searches may skip, and the rule data under which each is safe.

"Safe": a won state reachable from a state stays reachable after the pruning, so a finished
search without a win proves "lost".  Each rule is switched on by a predicate on the `Rules`
data below (never by a game's name) matching its proof's assumptions exactly.
The rules: 1. canonical keys (`state._Spec.symmetric`, `autoplay_order_free`); 2. equivalent
destinations; 3. safe moves home without take-backs (`rule3`); 3b. the same on alternate-colour
foundations (`rule3b`); 3c. one step further (`FastPruning.harmless_children`); 4. no safe moves
with take-backs (deliberately not used); 5. the transposition table; 6. a card that can never
leave (`dead_ends`); 7. Kings that block each other (`king_dead_ends`); 8. cards that could never
all go home (`dead_ends`, `FastPruning.stuck`); 8b. the same where holes take any card
(`hole_dead_ends`); 9. twin cards interchangeable (`twin_symmetric`); 10. runs as one step, not
a pruning but shortcuts between the same states (`macro_runs`).  No other pruning is used.
Each rule's statement and proof: docs/solver.md, «Reglas de poda y sus demostraciones»
(anchors ``#poda-1`` to ``#poda-10``).
"""

from __future__ import annotations

from typing import Protocol

from ..core.rules import FoundationRule, Rules, TableauRule
from .tables import _TWIN, accepts_table


class _Flags(Protocol):
    """What `FastPruning` reads of the rules' switches (`state._Spec` has them)."""

    rule3: bool


# ---------------------------------------------------------------------- which rules apply
def one_card_one_deck(rules: Rules, decks: int) -> bool:
    """One deck, one card at a time, every card in the tableau or on the foundations (no
    reserve, stock or waste, so no hole is refilled from a reserve), and tableau piles in no
    particular order (no ``shift_left``)."""
    return (
        decks == 1
        and not rules.tableau.runs
        and not (rules.reserve or rules.stock or rules.waste)
        and rules.tableau.empty != "reserve"
        and not rules.shift_left
    )


def suit_foundations(rules: Rules) -> bool:
    """Four foundations, each building up by suit from an Ace: with one deck, each suit
    ends on one of them, so each is described by its suit's height."""
    return len(rules.foundations) == 4 and all(f.suits == "same" and f.direction == "up" for f in rules.foundations)


def autoplay_order_free(rules: Rules, decks: int) -> bool:
    """What the automatic play to the foundations does never depends on the order of the
    piles, up to the order of interchangeable foundations: there is none, or one deck goes
    to foundations that each build up by suit (a card other than an Ace fits only the
    foundation topped by its predecessor, and there are as many foundations free for an Ace
    as Aces away from home).  Foundations in colours let two cards compete for one
    foundation, or one card choose between two: the engine settles both by pile order (the
    leftmost top goes first, to the first foundation that takes it), so neither the
    tableau piles nor those foundations may then be treated as interchangeable."""
    return not rules.autoplay or (
        decks == 1 and all(f.suits == "same" and f.direction == "up" for f in rules.foundations)
    )


def alt_foundations(rules: Rules) -> bool:
    """Every foundation builds by alternating colours."""
    return not any(f.suits == "same" for f in rules.foundations)


def fast(rules: Rules, decks: int, practice: bool) -> bool:
    """The one-deck fast state (`fast._Fast`) fits: one card at a time, four same-suit
    foundations from the Ace, the whole deck in play."""
    return one_card_one_deck(rules, decks) and suit_foundations(rules) and not practice


def rule3(rules: Rules, decks: int, takeback: bool) -> bool:
    """Rule 3's assumptions: `one_card_one_deck`, `suit_foundations`, no autoplay, no take-backs."""
    return one_card_one_deck(rules, decks) and suit_foundations(rules) and not rules.autoplay and not takeback


def rule3b(rules: Rules, decks: int, takeback: bool) -> bool:
    """Rule 3b's assumptions: `one_card_one_deck`, alternate-colour foundations building up,
    holes that take nothing, no autoplay, no take-backs."""
    return (
        one_card_one_deck(rules, decks)
        and alt_foundations(rules)
        and all(f.direction == "up" for f in rules.foundations)
        and rules.tableau.empty == "none"
        and not rules.autoplay
        and not takeback
    )


def dead_ends(rules: Rules, decks: int, practice: bool, takeback: bool) -> bool:
    """Rules 6 and 8's assumptions: the fast state (`fast`), no take-backs, no autoplay, and
    holes that take nothing or only Kings."""
    return fast(rules, decks, practice) and not takeback and not rules.autoplay and rules.tableau.empty in ("none", "king")


def hole_dead_ends(rules: Rules, decks: int, practice: bool, takeback: bool) -> bool:
    """Rule 8b's assumptions: the fast state (`fast`), no take-backs, and holes that take any
    card (an autoplay only sends tops home, moves the proof already covers)."""
    return fast(rules, decks, practice) and not takeback and rules.tableau.empty == "any"


def macro_runs(rules: Rules, decks: int, practice: bool) -> bool:
    """Rule 10's data: the fast state (`fast`) and holes that take any card, so that a natural
    run can travel through them one card at a time (`fast._Fast.run_moves`)."""
    return fast(rules, decks, practice) and rules.tableau.empty == "any"


def king_dead_ends(rules: Rules, decks: int, practice: bool) -> bool:
    """Rule 7's assumptions: one deck, four alternate-colour foundations building up from any
    Ace, a tableau building down without wrap (nothing goes on a King, a King on nothing),
    holes that take nothing, the whole deck in play."""
    t = rules.tableau
    return (
        decks == 1
        and not practice
        and len(rules.foundations) == 4
        and all(f.suits == "alt" and f.direction == "up" and f.start == "any" for f in rules.foundations)
        and t.build == "down"
        and not t.wrap
        and t.empty == "none"
    )


def twin_symmetric(rules: Rules, decks: int) -> bool:
    """Rule 9's assumptions: one deck, no reserve, stock or waste, no autoplay, every empty
    foundation takes any card of its base rank, and the tableau's and every foundation's
    acceptance tables never tell twins apart (the two cards of one rank and colour): what
    goes on a card goes on its twin too, and what goes on a card comes with its twin."""
    if decks != 1 or rules.reserve or rules.stock or rules.waste or rules.autoplay:
        return False
    if any(f.start != "any" for f in rules.foundations):
        return False
    piles: list[TableauRule | FoundationRule] = [rules.tableau, *rules.foundations]
    for rule in piles:
        table = accepts_table(rule)
        for c in range(52):
            acc = set(table[c])
            if acc != set(table[_TWIN[c]]) or acc != {_TWIN[x] for x in acc}:
                return False
    return True


# ---------------------------------------------------------------------- the fast state's rules
class FastPruning:
    """Rules 3, 6 and 8 on the one-deck fast state (`fast._Fast` inherits them): its tableau
    `t` (lists or bytes of card ids), its heights `h` per suit, `children`/`parents`/
    `parent_bits` (who may lie on whom) and the flags `dead_ends`/`empty_king`."""

    t: list
    h: list[int]
    T: int
    sp: _Flags
    empty_any: bool
    empty_king: bool
    dead_ends: bool
    children: list[list[tuple[int, int]]]
    parents: list[list[int]]
    parent_bits: list[int]

    def stuck(self) -> bool:
        """Pruning rule 8: some card in the tableau could never go home, by a fixpoint over
        what any play from here could do (proof: docs/solver.md#poda-8).
        Where holes take any card (rule 8b), only while no pile is or could become empty."""
        t = self.t
        any_hole = self.empty_any  # rule 8b: only while no pile is or could become empty
        if any_hole and not all(t):
            return False
        # free[i]: the lowest index of pile i whose card could ever be a top (every card above
        # it could leave); `tops` holds those cards as a bit set; reach[s]: every card of suit
        # s below that rank could go home
        free = [len(q) - 1 for q in t]
        tops = 0
        for q in t:
            if q:
                tops |= 1 << q[-1]
        reach = list(self.h)
        for u in range(4):
            r = reach[u]
            while r < 13 and tops >> (u * 13 + r) & 1:
                r += 1
            reach[u] = r
        parent_bits = self.parent_bits
        king_hole = self.empty_king
        pending = [i for i in range(len(t)) if t[i]]
        while pending:
            blocked = []
            progress = False
            for i in pending:
                q = t[i]
                j = free[i]
                while j >= 0:
                    x = q[j]
                    # x could leave: home, onto a parent that could be a top, or into a hole
                    if not (x % 13 < reach[x // 13] or parent_bits[x] & tops or (king_hole and x % 13 == 12)):
                        break
                    j -= 1
                    if j >= 0:
                        y = q[j]
                        tops |= 1 << y
                        u = y // 13
                        if y % 13 == reach[u]:  # the next card its suit needs: go on
                            r = reach[u] + 1
                            while r < 13 and tops >> (u * 13 + r) & 1:
                                r += 1
                            reach[u] = r
                if j != free[i]:
                    if j < 0 and any_hole:
                        return False  # pile i could empty: a hole would take any card
                    free[i] = j
                    progress = True
                if j >= 0:
                    blocked.append(i)
            if not progress or reach == [13, 13, 13, 13]:
                break
            pending = blocked
        # every card that could be a top was added to `tops` with the suit's reach pushed on
        return reach != [13, 13, 13, 13]

    def dead(self, piles: tuple[int, ...] | None = None) -> bool:
        """Pruning rule 6: some card can never leave its pile but
        covers a lower card of its own suit.  With `piles`, only those piles are looked at:
        enough after a move between two tableau piles of a position that was not dead, since
        the test of any other pile depends only on that pile and the heights."""
        if not self.dead_ends:
            return False
        h, parents, king_holes = self.h, self.parents, self.empty_king
        for q in self.t if piles is None else [self.t[i] for i in piles]:
            low = [99, 99, 99, 99]  # per suit, the lowest rank seen so far from the bottom
            for j, x in enumerate(q):
                s, r = x // 13, x % 13
                if low[s] < r and not (king_holes and r == 12):
                    for p in parents[x]:
                        if h[p // 13] <= p % 13 and p not in q[:j]:
                            break  # that parent is in play and not under x: x may move
                    else:
                        return True
                if r < low[s]:
                    low[s] = r
        return False

    def safe_move(self) -> tuple[int, int] | None:
        """A move home that pruning rule 3 (or 3c) proves safe, or None."""
        t, h, T = self.t, self.h, self.T
        if self.sp.rule3:
            for i in range(T):
                q = t[i]
                if q:
                    c = q[-1]
                    if h[c // 13] == c % 13 and self.harmless_children(c):
                        return (i, T + c // 13)
        return None

    def harmless_children(self, c: int) -> bool:
        """Rules 3 and 3c: every card that may lie on `c` is home, or (rule 3c) is the next
        card of its foundation with every card that may lie on it home."""
        h, ch = self.h, self.children
        for s, r in ch[c]:
            if h[s] < r:
                if h[s] != r - 1:
                    return False
                for s2, r2 in ch[s * 13 + r - 1]:
                    if h[s2] < r2:
                        return False
        return True
