"""Pruning: which positions the searches may skip, each rule with its proof and the rule data
under which the proof holds.

"Safe" means: whenever a won state is reachable from a state, it is still reachable after
the pruning.  Only such rules are used, so a finished search without a win proves "lost".
Each rule is switched on by a predicate on the `Rules` data below (never by a game's name),
written to match exactly the assumptions its proof uses; `tests/test_solver.py` records what
each built-in game and variant selects.

1. **Canonical keys (symmetry)** (`symmetric`).  Where the rules treat all tableau piles
   alike, two states that differ by a permutation of the tableau piles are equivalent (a
   permutation maps legal moves to legal moves and won states to won states), so the key
   sorts the piles.  This holds unless what happens depends on pile order, which only
   ``shift_left`` does (pile order decides what shifts), so there the key keeps pile order.
   An autoplay that sends home the closure of acceptable tops does not depend on order
   when each card has one foundation (`autoplay_order_free`: one deck, same-suit foundations
   building up); with alternate-colour foundations the engine settles by pile order which
   of two competing cards goes, and where, so there nothing is sorted (nor, with any
   autoplay, does the generic search permute the piles: its line must replay move for
   move).  A refill from the reserve does not depend on order either (the emptied pile is
   refilled, whichever it is).  Foundations that the rules treat alike (same rule, start
   not tied to a suit: "any" or "new_suit") are sorted too; a foundation tied to a suit
   keeps its place, keyed by its height only when it builds by suit.  A same-suit
   foundation is keyed by its top card (its content follows from it); alternate-colour
   foundations by their full content (a take-back shows which card lies below), or, without
   take-backs, by height and top colour (nothing below a top can matter again).
2. **Equivalent destinations.**  Moving a card to one empty tableau pile or to another gives
   equivalent states under rule 1, and so does moving it to one or another empty foundation
   of the same interchangeable group; only the first is tried.  (Not with ``shift_left``.)
3. **Safe moves to the foundations without take-backs** (`rule3`: one deck, one card at a
   time, no reserve, stock or waste, four same-suit foundations building up from the Ace,
   no automatic action after a move, no take-backs).  A tableau top `c` that its foundation
   accepts is moved there at once if every card the tableau rule lets lie on `c` is already
   on a foundation.  Argument (a deletion argument in the style of Blake & Gent's safe-move
   proofs): take a winning line from the state; delete from it every move of `c` (its move
   home included) and let `c` go home first.  No card is ever placed on `c` in the original
   line (its possible children are on the foundations, and without take-backs they never
   come back), so `c` is always the top of its pile, and at every step the shortened line's
   position is the original's minus `c` plus `c` home: each remaining move has the same
   source top, the same destination top (a destination top is never `c`), the same empty
   piles or one more (a hole takes any card, only Kings or nothing: one more is no loss; a
   hole refilled from a reserve would be, hence no reserve), and the foundations accept the
   same cards (`c`'s successor needed `c` home in the original too).  So the shortened line
   is legal and wins.  The search applies the rule after every move; since each forced move
   makes the witness line strictly shorter (it loses `c`'s move home), induction on that
   length shows a win stays reachable.  Not used with take-backs (a lower card may come back
   from a foundation onto `c`, and see rule 4), nor with an autoplay (moving `c` early
   changes what the autoplay does), nor with two decks (not proven there).
3b. **Safe moves to alternate-colour foundations without take-backs** (`rule3b`: one deck,
   one card at a time, no reserve, stock or waste, only alternate-colour foundations building
   up, holes that take nothing, no autoplay, no take-backs; in Scotch, the first phase).  A
   tableau top `c` of rank r goes home at once when every card of rank r-1 is home, and
   so is every card the tableau rule lets lie on `c` (in Scotch the same cards; with a
   tableau that also builds up, the cards of rank r+1 too), so that nothing can ever be
   placed on `c` again, and either `c` is an Ace, or its twin (the other card of
   the same rank and colour: the only other card its foundations could take at that height)
   is home, or two foundations accept `c`.  Without take-backs a foundation matters only by
   what it accepts (its height and top colour), so two foundations that accept the same
   cards are interchangeable.  The deletion argument of rule 3 carries over: drop `c`'s move
   home from a winning line and play it first; the foundation `c` went to in the line is
   matched, from now on, by the one it goes to now.  Another card that the line plays onto
   a foundation at `c`'s height can only be the twin; when it is home already, no other
   card competes for that height, and when two foundations accept `c` the twin still finds
   one.  A pile emptied early changes nothing, since an empty pile never takes a card.
3c. **Safe moves home, one step further** (the fast state, under rule 3's assumptions): a
   top card that is next on its foundation also goes home when every card that may lie on
   it is home or is itself next on its foundation with every card that may lie on *it*
   home (`FastPruning.harmless_children`).  Its proof is in docs/solver.md ("Regla 3c").
4. **No safe moves with take-backs.**  A tempting rule ("send a card home when it lies on a
   card that accepts it: it can always be taken back there") is *not* used: the one-step
   argument holds, but applied after every move it is unsound, because the card would be
   sent home again each time it is taken back, so no card could ever be placed on it.
   Example: ♠ home up to 4, 5♠ on 6♥, and 4♥ must go onto 5♠ to free a 2 below it; forcing
   5♠ home makes that position lost.  Rule 3 has no such loop: without take-backs a card
   sent home never returns, and each forced move shortens the witness line.
5. **Moves that merely undo the last one** and other moves back to an already expanded
   state cost nothing extra: the transposition table skips them (rule-free, so safe).
6. **Dead ends: a card that can never leave, above a lower card of its suit** (`dead_ends`:
   the one-deck state of `fast`, no take-backs, no autoplay, holes that take nothing or only
   Kings; Baker's Dozen).  A position is dropped when some card `x` lies above a lower card
   `y` of its own suit in the same pile and every card `x` could be placed on is either on a
   foundation or below `x` in that same pile (and `x` is not a King that a hole could take).
   `x` can leave its pile only to its foundation (which needs `y` first, and `y` cannot
   leave before `x`), onto a tableau top that accepts it (those cards never come back from
   the foundations, and the ones below `x` cannot be tops before `x` leaves), or into a hole
   (which takes nothing, or only a King).  So `x` never moves, `y` never goes home, and no
   win is reachable.
7. **Dead ends: Kings that block each other in alternate-colour foundations**
   (`king_dead_ends`: one deck, four alternate-colour foundations building up from any Ace,
   tableau building down without wrap, holes that take nothing, not a practice position;
   with or without take-backs; Scotch).  A foundation started by a black Ace takes black odd
   and red even ranks, one started by a red Ace the others: two *classes* of 26 cards, two
   foundations each, every rank twice per class, so at the win each foundation of a class
   holds one of the two cards of each rank and ends with one of the class's two Kings.  A
   King never leaves a pile except to its foundation (nothing ranks above it, and an empty
   pile takes nothing); once home it never comes back (a take-back needs a tableau top one
   rank higher), nor does anything below it; and nothing is ever put under a King.  So a
   card lying under a King `x` goes home after `x`; if it ends on the foundation that the
   King `k` closes, `x` goes home before `k` (impossible when `x` is `k`); and a King under
   another King goes home after it.  The position is dropped when no split of each class's
   covered cards between its two Kings (a King already home fixes its own foundation) gives
   an order of the Kings in the tableau that satisfies all these "before" pairs.  The cards
   under the Kings do not change while they stay there, so the test depends only on the
   foundations and is cached on them (`_State.dead`, `state._class_orders`).
8. **Cards that could never all go home** (`dead_ends`, as rule 6).  A least fixpoint over
   what a play from the position could contain, in three kinds of marks: a card *could
   leave* its place, *could be a top*, *could go home*.  Cards on the foundations are marked
   "home".  A tableau card could be a top when every card above it in its pile could leave;
   it could go home when it could be a top and the card below it in its suit could go home
   (or it is an Ace); it could leave when it could be a top and either it could go home, or
   some card it may lie on is in the tableau and could be a top, or it is a King and holes
   take Kings.  The marks are added until nothing changes.  Claim: every event of every
   play from the position is marked.  By induction on the moves of the play: a move takes a
   top `x`, so each card above `x`'s place at the start has left before (marked); it sends
   `x` home, after the card below it in its suit (marked), or puts `x` on a top `p`, a card
   still in the tableau (marked "could be a top"), or a King into a hole; a card that has
   moved is a top where it lands (it could leave, so it could be a top), and a card
   uncovered in its starting place has had every card above that place leave (marked).  So
   a card in the tableau with no "could go home" mark never goes home, and the position is
   dropped.  Rule 6 is the special case where a card above a lower card of its suit has
   every parent home or below it; it stays as a cheap test on each new position before it
   is queued, while this one runs once per position taken from the queue (a dropped one
   counts as examined).  Not used with take-backs (a card could come back from a
   foundation), nor where holes take any card (a position passes as soon as some pile could
   empty, so the test would rarely drop anything; rule 8b is the version that holds there).
8b. **Cards that could never all go home, holes that take any card** (`hole_dead_ends`: the
   fast state, no take-backs, holes that take any card; with or without autoplay).  With no hole now, the
   fixpoint of rule 8 is computed as if holes took nothing; if no pile's bottom card could
   leave (no pile could empty) and some card could never go home, the position is dropped.
   Its proof is in docs/solver.md ("Regla 8b").

No other pruning is used; where none of rules 3, 3b, 3c, 6, 7, 8 and 8b applies (Chequers, Moving
Left, the castles with take-backs or with Citadel's autoplay), the search is a plain
exhaustive one over the canonical states.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.rules import Rules

if TYPE_CHECKING:
    from .fast import _Fast
    from .state import _Spec, _State


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


# ---------------------------------------------------------------------- the fast state's rules
class FastPruning:
    """Rules 3, 6 and 8 on the one-deck fast state (`fast._Fast` inherits them): its tableau
    `t` (lists or bytes of card ids), its heights `h` per suit, `children`/`parents`/
    `parent_bits` (who may lie on whom) and the flags `dead_ends`/`empty_king`."""

    t: list
    h: list[int]
    T: int
    sp: _Spec
    empty_any: bool
    empty_king: bool
    dead_ends: bool
    children: list[list[tuple[int, int]]]
    parents: list[list[int]]
    parent_bits: list[int]

    def stuck(self) -> bool:
        """Pruning rule 8: some card in the tableau could never go home, by
        a fixpoint over what any play from here could do (see this module's docstring).
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



def _enter(st: _State, line: list) -> list:
    """Play the safe moves (rule 3 or 3b) available now on the generic state; return them with
    their undo records (and append them to `line`)."""
    out: list = []
    if not (st.sp.rule3 or st.sp.rule3b):
        return out
    while True:
        m = st.safe_move()
        if m is None:
            return out
        out.append((m, st.play(*m)))
        line.append(m)
