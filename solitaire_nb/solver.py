"""A solver for the six games: proven verdicts, hints and winning lines.

`solve(game)` answers "can this position still be won?" with ``"won"`` (and a winning line of
engine `Move` objects, replayed through the public ``game.copy().move`` and checked to reach
``is_won()`` before it is returned), ``"lost"`` (only after a complete search) or
``"unknown"`` (a cap stopped the search first).  Pure Python, no NumPy: it also runs under
Pyodide.  The caller's game is never touched: the solver copies the position into its own
compact state (card ids 0..51 in lists; the two copies of a card in two-deck games share an
id, as the rules document (docs/reglas.md) says they are equal for every rule).

Moving Left is solved *thoughtfully*: the solver sees the face-down tableau cards and the
stock, which a player does not.  Its verdicts say so (`verdict_text`).

Search
------
A complete best-first search: a priority queue of positions ordered by a heuristic (cards
not yet home count most; then, in Beleaguered Castle, Citadel and Scotch, the cards lying
above a card the foundations take now or next, and in Baker's Dozen above the cards of the
next few ranks of each suit, weighted by how soon they are needed; in the other games and in
Scotch, cards lying on a card the tableau rule would not let them go on, and face-down cards),
ties broken by arrival order so the run is deterministic, and a transposition table mapping
each canonical state key to its parent (to rebuild the winning line).  A state is expanded
once; its successors are generated with cheap do/undo on the compact state (in the one-deck
games without automatic actions or take-backs, as slices of the parent key's pile bytes, with
nothing to undo) and only new keys are queued.  The search is exhaustive: it answers "lost"
only when the queue is empty, i.e. every state reachable from the start (up to the
symmetries of rule 1 below, after the safe moves of rule 3) has been expanded, or dropped by
a dead-end rule (6, 7 or 8), and none is won.  On games with take-backs the state graph has
cycles; the table makes the search terminate and, since the question is reachability ("is a
won state reachable?"), skipping an already seen state loses nothing.  The heuristic only
decides the order, never what is explored, so a capped run may say "unknown" but never a
wrong "lost".

Baker's Dozen runs several such searches one after another (`BAKERS_PORTFOLIO`), each with
its own weights for the cards needed soon and a share of the budget: the first has half, and
eight short ones a sixteenth each.  A deal that leads one order astray for hundreds of
thousands of states is often won by another in a few thousand.  With 50,000 states in all,
the nine orders win 181 and 194 of deals 1–200, with the page rules and with ``any_suit``;
the order (3, 3, 2, 2, 1, 1) alone won 148 and 177, and the first five orders, with an eighth
each after the first, 170 and 193.  The orders and shares were chosen on deals 101–200 (there
the nine win 93 and 99; on deals 1–100, 88 and 95).  Each search is complete on its own, so
any of them may answer "lost", but a proof must fit in one search's share (an exhausted
search examines the same states whatever its order; the first search has half the budget).

Beleaguered Castle and Citadel run four complete searches that take turns
(`_castle_portfolio`): the usual order (cards above the card each foundation takes now or
next) searches alone for its first 100,000 states (`CASTLE_ALONE`); then three join it,
with turns of 20,000 states for it and 5,000 for each of them (`CASTLE_TURNS`): the
best-first order that counts only the card each foundation takes now, and two depth-first
searches (`_fast_dfs`) that try moves in the order of Freecell Solver's proof mode (home,
into a hole, onto another card), with the piles sorted by their cards: one as the key sorts
them (card ids), one as Freecell Solver numbers cards (rank first, then suit).  Each keeps
its queue or path and its table while it waits.  Every complete search must examine the
same states to prove a deal lost (all the canonical states reachable from it), and the
first order starts 100,000 ahead, so it keeps the longest turns; the others win in a few
thousand states many deals that lead it astray, each different ones (the depth-first
orders are as much luck as design).  Chosen on the Beleaguered Castle deals 1–200 without
take-backs that the usual order leaves undecided after 100,000 states (17 and 15 of them):
run alone up to 300,000 states, the usual order won 10 of the 32, the second 16, the
depth-first search in key order 10, and all four searches then tried proved the same 3
lost after exactly the same number of states.  The fourth search first took the piles in
the deal's order (7 of the 32, each also won by another search); Freecell Solver's order
wins 11, among them deal 200, which no other search wins within 300,000 states (Freecell
Solver's proof mode wins it after 6,232).

Without automatic actions or take-backs, one more search takes a single turn between the
usual order's first 100,000 states and the others' first turns: a quick, *incomplete*
probe for a win (`_fast_probe`, at most `CASTLE_PROBE` states).  It plays coarser moves
(`_jumps`): a card sent home, a buried card its foundation takes dug out (each card above
it onto a top it may lie on, or into a hole) and sent home, a whole natural run carried
onto a top it may lie on or into a hole through the other holes.  It never splits a run,
so it sees far fewer positions than the game has, which is what makes it quick; eight
depth-first walks in random orders of their own (the package's SplitMix64 draws, so the
same on every machine) take turns and share one table.  Since its moves are not all the
game's, it may answer "won" (its line, as every line, is replayed through the engine) but
never "lost": it simply stops after its turn, or when every walk has nothing left to try.
Freecell Solver's own fast presets (``-l cookie-monster``) win these deals the same way,
with many randomised depth-first scans over multi-card moves.  On the 47 Beleaguered
Castle deals of 1–300 that the usual order leaves undecided after 100,000 states, the
portfolio decided 30 before the probe, with 450,000 states each (about 10 s); with the
present constants it decides 38, with 400,000 states as with 450,000 (a first version, with
turns of 10,000 for the usual order and a probe of 30,000 states with four walks, decided
36 with 400,000).  The probe wins 17, 22, 41, 66, 68 and 249, which no complete search of
ours decides within 450,000 states, and the longer turns let the usual order prove deal 34
lost (379,921 states in all).  Every budget of at most 100,000 states (the
castles' atlas entries) is spent by the usual order alone, exactly as before the others
were added.

Where the rules allow take-backs (every game but Baker's Dozen, and the castles unless
``takeback=False``), `solve` first searches the same position with take-backs forbidden,
with a quarter of the budget (`PHASE1_SHARE`).  That game is a restriction of the real one:
each of its moves is legal in the real game with the same result, so a win found there is a
win here (and the line is replayed through the engine as usual).  It is smaller, and the
rules that need "no take-backs" (3 and 3b below, Scotch's foundations keyed by height) apply
to it.  Its "lost" proves nothing about the real game, so the complete search follows with
the rest of the budget, and only that one may answer "lost".

Caps: ``max_states`` counts the states taken from the queue, expanded or dropped by rule 8
(deterministic: same verdict on every machine); it is a hard cap on the sum over every search
of a call (the first phase, Baker's Dozen's searches, the castles' turns and probe): a
"unknown" under it has used it exactly, and a root's dead-end test counts as its one state, so
``max_states=0`` examines nothing.  ``time_limit`` is checked every few hundred
states; a search's table never holds more than ``max_table`` keys (a few hundred bytes
each; the castles' two orders have one table each, and a search whose table is full stops
while the other goes on); reaching any cap gives "unknown".

Beleaguered Castle, Citadel and Baker's Dozen use a specialised state (`_Fast`: one deck,
single-card moves, same-suit foundations kept as four heights), whose key is also a full
description of the position up to pile order, so the queue holds only keys.  The other games
use `_State`, which mirrors the engine's general rules (runs, face-down cards, reserve, stock
and waste, Chequers' refill, `shift_left`) and queues whole positions.

Moves and forced actions are exactly the engine's: turning up a face-down card, Chequers'
refill from the reserve, Moving Left's `shift_left`, Citadel's autoplay (CB-7) are part of
the move that causes them.  `_State`'s move generator is tested to equal
``Game.legal_moves()`` on random positions of every game and variant, with every successor
position equal to the engine's; `_Fast`'s successors are tested to be the engine's up to
pile symmetry.  Every winning line is replayed through the public ``Game.move`` on a copy
before it is returned.

Pruning rules, each proven safe for the games it is applied to
----------------------------------------------------------------
"Safe" means: whenever a won state is reachable from a state, it is still reachable after
the pruning.  Only such rules are used, so a finished search without a win proves "lost".

1. **Canonical keys (symmetry).**  Where the rules treat all tableau piles alike, two states
   that differ by a permutation of the tableau piles are equivalent (a permutation maps
   legal moves to legal moves and won states to won states), so the key sorts the piles.
   This holds for Beleaguered Castle, Citadel (its autoplay sends home the closure of
   acceptable tops: moving a card home only makes more cards acceptable and each card has
   one foundation, so the result does not depend on the left-to-right order the engine
   uses), Baker's Dozen, Scotch, Chequers (the emptied pile is refilled, whichever it is)
   and Moving Left without `shift_left`.  It does *not* hold for Moving Left with
   `shift_left=True` (pile order decides what shifts), so there the key keeps pile order.
   Foundations that the rules treat alike (same start rule: Baker's Dozen's, Scotch's and
   Moving Left's "any Ace", each of Chequers' up and down groups) are sorted too; Beleaguered
   Castle's and Citadel's foundations are tied to a suit, so their heights are kept in order.
   A same-suit foundation is keyed by its top card (its content follows from it); Scotch's
   alternate-colour foundations are keyed by their full content (a take-back shows which
   card lies below).
2. **Equivalent destinations.**  Moving a card to one empty tableau pile or to another gives
   equivalent states under rule 1, and so does moving it to one or another empty foundation
   of the same interchangeable group; only the first is tried.  (Not with `shift_left`.)
3. **Safe moves to the foundations without take-backs** (Beleaguered Castle and Citadel with
   ``takeback=False, autoplay=False``; Baker's Dozen, both rule sets).  One deck, one card
   moves at a time, no automatic action follows a move.  A tableau top `c` that its
   foundation accepts is moved there at once if every card the tableau rule lets lie on `c`
   is already on a foundation (for Beleaguered Castle: every card one rank lower; for Baker's
   Dozen: every card one rank lower of another suit, or of any suit with ``any_suit``).
   Argument (a deletion argument in the style of Blake & Gent's safe-move proofs, checked
   for these rules): take a winning line from the state; delete from it every move of `c`
   (its move home included) and let `c` go home first.  No card is ever placed on `c` in the
   original line (its possible children are on the foundations, and without take-backs they
   never come back), so `c` is always the top of its pile, and at every step the shortened
   line's position is the original's minus `c` plus `c` home: each remaining move has the
   same source top, the same destination top (a destination top is never `c`), the same
   empty piles or one more (Baker's Dozen's holes only ever refuse cards, or take Kings,
   which is no loss), and the foundations accept the same cards (`c`'s successor needed `c`
   home in the original too).  So the shortened line is legal and wins.  The search applies
   the rule after every move; since each forced move makes the witness line strictly shorter
   (it loses `c`'s move home), induction on that length shows a win stays reachable.
   This is *not* used with take-backs (a lower card may come back from a foundation onto
   `c`, and see rule 4), nor with Citadel's autoplay (moving `c` early changes what the
   autoplay does), nor in the two-deck games (not needed there to be sound, and not proven).
3b. **Safe moves to Scotch's foundations without take-backs** (the first phase only).  A
   fan top `c` of rank r goes home at once when every card of rank r-1 is home (nothing can
   ever be placed on `c` again) and either `c` is an Ace, or its twin (the other card of the
   same rank and colour: the only other card its foundations could take at that height) is
   home, or two foundations accept `c`.  Without take-backs a foundation matters only by
   what it accepts (its height and top colour), so two foundations that accept the same
   cards are interchangeable.  The deletion argument of rule 3 carries over: drop `c`'s move
   home from a winning line and play it first; the foundation `c` went to in the line is
   matched, from now on, by the one it goes to now.  Another card that the line plays onto
   a foundation at `c`'s height can only be the twin; when it is home already, no other
   card competes for that height, and when two foundations accept `c` the twin still finds
   one.  A fan emptied early changes nothing, since an empty fan never takes a card (SC-4).
   Scotch's foundations are then keyed by height and top colour, which also merges the
   choice between two foundations that accept the same cards.
4. **No safe moves with take-backs.**  A tempting rule for Beleaguered Castle with
   take-backs and Scotch ("send a card home when it lies on a card that accepts it: it can
   always be taken back there") is *not* used: the one-step argument holds, but applied
   after every move it is unsound, because the card would be sent home again each time it is
   taken back, so no card could ever be placed on it.  Example: ♠ home up to 4, 5♠ on 6♥,
   and 4♥ must go onto 5♠ to free a 2 below it; forcing 5♠ home makes that position lost.
   Rule 3 has no such loop: without take-backs a card sent home never returns, and each
   forced move shortens the witness line, so the argument carries over by induction.
6. **Dead ends in Baker's Dozen** (both rule sets, no take-backs ever).  A position is
   dropped when some card `x` lies above a lower card `y` of its own suit in the same pile
   and every card `x` could be placed on (one rank higher, of another suit, or of any suit
   with ``any_suit``) is either on a foundation or below `x` in that same pile (and `x` is
   not a King that a hole could take, with ``kings_to_bottom=False``).  `x` can leave its
   pile only to its foundation (which needs `y` first, and `y` cannot leave before `x`),
   onto a tableau top that accepts it (those cards never come back from the foundations, and
   the ones below `x` cannot be tops before `x` leaves), or into a hole (never refilled, or
   only by a King).  So `x` never moves, `y` never goes home, and no win is reachable.
7. **Dead ends in Scotch** (with or without take-backs).  A foundation started by a black
   Ace takes black odd and red even ranks, one started by a red Ace the others: two
   *classes* of 26 cards, two foundations each, every rank twice per class, so at the win
   each foundation of a class holds one of the two cards of each rank and ends with one of
   the class's two Kings.  A King never leaves a fan except to its foundation (nothing ranks
   above it, and an empty fan is never refilled); once home it never comes back (a
   take-back needs a fan top one rank higher), nor does anything below it; and nothing is
   ever put under a King.  So a card lying under a King `x` in a fan goes home after `x`;
   if it ends on the foundation that the King `k` closes, `x` goes home before `k`
   (impossible when `x` is `k`); and a King under another King in a fan goes home after it.
   The position is dropped when no split of each class's covered cards between its two
   Kings (a King already home fixes its own foundation) gives an order of the Kings in the
   fans that satisfies all these "before" pairs, i.e. every split puts a card under its
   own King or makes the pairs cyclic.  The cards under the Kings do not change while they
   stay in their fans, so the test depends only on the foundations and is cached on them.
8. **Cards that could never all go home** (Baker's Dozen, every variant; no take-backs
   ever).  A least fixpoint over what a play from the position could contain, in three
   kinds of marks: a card *could leave* its place, *could be a top*, *could go home*.
   Cards on the foundations are marked "home".  A tableau card could be a top when every
   card above it in its pile could leave; it could go home when it could be a top and the
   card below it in its suit could go home (or it is an Ace); it could leave when it could
   be a top and either it could go home, or some card it may lie on is in the tableau and
   could be a top, or it is a King and holes take Kings (``kings_to_bottom=False``).  The
   marks are added until nothing changes.  Claim: every event of every play from the
   position is marked.  By induction on the moves of the play: a move takes a top `x`, so
   each card above `x`'s place at the start has left before (marked); it sends `x` home,
   after the card below it in its suit (marked), or puts `x` on a top `p`, a card still in
   the tableau (marked "could be a top"), or a King into a hole; a card that has moved is
   a top where it lands (it could leave, so it could be a top), and a card uncovered in its
   starting place has had every card above that place leave (marked).  So a card in the
   tableau with no "could go home" mark never goes home, and the position is dropped.  Rule
   6 is the special case where a card above a lower card of its suit has every parent home
   or below it; it stays as a cheap test on each new position before it is queued, while
   this one runs once per position taken from the queue (a dropped one counts as
   examined).  It is not used with take-backs (a card could come back from a foundation)
   nor in the castles, whose holes take any card, so that a position passes as soon as some
   pile could empty: on Beleaguered Castle deals 1–40 without take-backs (100,000 states) it
   decided one deal more (19 won, 14 lost, 7 unknown against 18, 14, 8) in about the same
   time, too little to change the castles' search and their 20,000-deal atlas entry.
5. **Moves that merely undo the last one** and other moves back to an already expanded
   state cost nothing extra: the transposition table skips them (rule-free, so safe).

No other pruning is used (no other "dead end" cut-offs); where rules 3, 3b, 6, 7 and 8 do not
apply (Chequers, Moving Left, the castles with take-backs or with Citadel's autoplay), the
search is a plain exhaustive one over the canonical states.

`hint` falls back, when no solution is found in time, on a heuristic move (not proven): moves
to a foundation first, then moves that empty a pile or uncover a face-down card, then moves
onto a card, then moves into a hole, turning the stock, and take-backs last.
"""

from __future__ import annotations

import copy
import gc
import heapq
import os
import time
from itertools import product
from typing import NamedTuple

from .cards import CARDS
from .checks import STATES_MAX, check_int, check_seconds, check_states, shown
from .engine import Game, _tables_for
from .moves import Move
from .shuffle import splitmix64

__all__ = ["Hint", "SolveResult", "busy_text", "hint", "solve", "verdict_text"]

PHASE1_SHARE = 4
"""Where take-backs are allowed, a first search without them gets 1/PHASE1_SHARE of the
state and time budget (see `solve`)."""

BAKERS_PORTFOLIO: tuple[tuple[tuple[int, ...], float], ...] = (
    ((6, 5, 4, 3, 2, 1), 1 / 2),
    ((1, 1), 1 / 16),
    ((2, 2, 1, 1), 1 / 16),
    ((1, 1, 1, 1, 1, 1), 1 / 16),
    ((3, 3, 2, 2, 1, 1), 1 / 16),
    ((1,), 1 / 16),
    ((1, 1, 1), 1 / 16),
    ((1,) * 10, 1 / 16),
    ((1,) * 13, 1 / 16),
)
"""Baker's Dozen's searches, one after another: the "needed soon" weights of each (for the
next ranks of each suit, see `_urgent`) and its share of the state and time budget (the last
gets what is left).  A best-first order that a deal leads astray is often put right by
another order in a few thousand states, so the first order's half is followed by many short
searches: flat windows of 1, 2, 3, 6, 10 and 13 ranks and two graded ones."""

CASTLE_ALONE = 100_000
CASTLE_SECOND: tuple[int, ...] = (1,)
CASTLE_DEPTH_FIRST: tuple[str, ...] = ("key", "fc")
CASTLE_TURNS: tuple[int, ...] = (20_000, 5_000, 5_000, 5_000)
"""Beleaguered Castle and Citadel: their usual order (`_Fast.urgency`, now or next) searches
alone for its first CASTLE_ALONE states; then three more searches join it, taking turns
(`_castle_portfolio`): a second best-first order, CASTLE_SECOND (only the card each
foundation takes now counts), and two depth-first searches (`_fast_dfs`), with the piles
sorted as the key sorts them and as Freecell Solver orders cards (CASTLE_DEPTH_FIRST, see
`_dfs_moves`).  CASTLE_TURNS gives each search's turn, in states, in that order.  The
others win in a few thousand states many deals that lead the first astray; the first
keeps the longest turns, so its long proofs of "lost" (every complete search must examine
the same states to prove one; it starts ahead) still fit.  Its turns were 10,000 states
until the probe (`CASTLE_PROBE`) came to win many of the deals the others won."""

CASTLE_PROBE = 40_000
CASTLE_PROBE_WALKS = 8
CASTLE_PROBE_QUOTA = 500
"""Beleaguered Castle and Citadel without automatic actions or take-backs: once the usual
order has searched alone for `CASTLE_ALONE` states, a quick incomplete search for a win
(`_fast_probe`) takes one turn of at most CASTLE_PROBE states before the others join:
CASTLE_PROBE_WALKS depth-first walks over whole runs and dug-out cards (`_jumps`), in random
orders of their own, taking turns of CASTLE_PROBE_QUOTA states.  Alone, on the 47 Beleaguered
Castle deals of 1–300 that the usual order leaves undecided after 100,000 states, four walks
won 28 within 30,000 states (most within a few thousand), among them deals that the four
complete searches leave undecided after 450,000 (17, 22, 41, 68, 249); most of the others
it exhausts within 25,000 (deal 158: 74,026).  Deal 66 needs 27,000–38,000 whatever the
number of walks, hence 40,000."""

DEFAULT_MAX_TABLE = 1_000_000
"""Most canonical keys the transposition table holds (a few hundred bytes each)."""

_RANK = [c.rank for c in CARDS]
_SUIT = ["SHDC".index(c.suit) for c in CARDS]
_RED = [int(c.is_red) for c in CARDS]
# the other card of the same rank and colour (♠↔♣, ♥↔♦)
# Scotch's foundation classes: a foundation started by a black Ace takes black odd ranks and
# red even ranks (class 1), the others the rest (class 0).  Per class and rank, its two
# cards; per class, its two Kings.
_CLASS_RANK = [[tuple(c.id for c in CARDS if c.rank == r and (int(c.is_red) + r) % 2 == k) for r in range(14)]
               for k in (0, 1)]
_CLASS_KINGS = [_CLASS_RANK[k][13] for k in (0, 1)]
# alternate-colour foundations (Scotch): the cards a foundation topped by card c takes now or
# next (index 52: an empty foundation, which takes any Ace)
_ALT_NEXT = [
    tuple(d.id for d in CARDS if (d.rank == c.rank + 1 and d.color != c.color) or (d.rank == c.rank + 2 and d.color == c.color))
    for c in CARDS
] + [tuple(d.id for d in CARDS if d.rank == 1)]
_FC_VALUE = [c.rank * 4 + "HCDS".index(c.suit) for c in CARDS]  # how Freecell Solver orders cards
_FC_BYTES = bytes(_FC_VALUE) + bytes(256 - 52)  # the same, as a table for `bytes.translate`
_TWIN = [next(d.id for d in CARDS if d.rank == c.rank and d.color == c.color and d.suit != c.suit) for c in CARDS]


class SolveResult(NamedTuple):
    """What `solve` found: ``status`` "won", "lost" or "unknown"; ``moves`` a winning line
    (engine `Move` objects) when won; ``states`` distinct states examined (taken from the
    search queue); ``seconds`` (wall clock); ``cpu_seconds``, the processor time the search
    itself got in those seconds (less when other programs share the processor: see `busy`)."""

    status: str
    moves: list[Move]
    states: int
    seconds: float
    cpu_seconds: float | None = None

    @property
    def busy(self) -> bool:
        """True when the search ran out of time because the computer was busy: undecided, and
        it got less than half the processor time it waited for (a class of thirty sharing one
        server, say), so asking again later may well decide it."""
        return (
            self.status == "unknown"
            and self.cpu_seconds is not None
            and self.seconds >= BUSY_MIN_SECONDS
            and self.cpu_seconds < BUSY_SHARE * self.seconds
        )


class Hint(NamedTuple):
    """A move to suggest: ``proven`` when it is the first move of a winning line found by the
    solver; otherwise a heuristic move (or None if there is no move).  ``status`` is the
    solver's verdict for the position ("won", "lost" or "unknown"); ``busy`` as in
    `SolveResult.busy`."""

    move: Move | None
    proven: bool
    status: str
    busy: bool = False


#: an undecided search that got less than this share of the time it waited for "was busy".
BUSY_SHARE = 0.5
#: below this wall time the measure says nothing (timer resolution, start-up).
BUSY_MIN_SECONDS = 0.2
#: environment variable with a class's budget (seconds): the class launcher sets it, and every
#: timed search in that kernel thinks at most that long (`solitaire_nb.clase --segundos`).
CLASS_BUDGET_ENV = "SNB_SOLVER_SECONDS"


def _class_budget(time_limit: float | None) -> float | None:
    """`time_limit`, lowered to the class's budget when one is set (untimed searches stay so)."""
    raw = os.environ.get(CLASS_BUDGET_ENV)
    if time_limit is None or not raw:
        return time_limit
    try:
        cap = float(raw)
    except ValueError:
        return time_limit
    return min(time_limit, cap) if cap > 0 else time_limit


# ---------------------------------------------------------------------- static description
class _Spec:
    """Everything about one game + variant the search needs, as flat data."""

    def __init__(self, game: Game):
        r = game.rules
        self.name = game.name
        self.decks = game.definition.decks
        # a practice position is won when the cards it has are home (Game.is_won): the
        # search counts those, and leaves out the fast searches and pruning rule 7, which
        # reason about the whole deck
        self.practice = game.is_practice
        self.total = game.total_cards if self.practice else 52 * self.decks
        self.pile_ids = game.pile_ids
        self.kind = list(game._kind)
        self.tab = list(game._tab)
        self.fnd = list(game._fnd)
        self.dests = self.tab + self.fnd
        self.r, self.s, self.w = game._r, game._s, game._w
        self.runs = r.tableau.runs
        self.takeback = r.takeback
        self.reserve_playable = r.reserve_playable
        self.refill = r.refill_from_reserve
        self.shift_left = r.shift_left
        self.autoplay = r.autoplay
        self.empty = r.tableau.empty  # "any", "king", "none", "reserve"
        tab_table = _tables_for(r.tableau)  # the engine's tables, built once per rule
        self.tab_acc = tab_table
        ok = [False] * (52 * 52)
        for y in range(52):
            for x in tab_table[y]:
                ok[y * 52 + x] = True
        self.tab_ok = ok
        self.fnd_rules = r.foundations
        self.fnd_tab = [_tables_for(f) for f in r.foundations]
        self.fnd_dir = [f.direction for f in r.foundations]
        self.fnd_start = [f.start for f in r.foundations]
        self.fnd_base = [f.base_rank for f in r.foundations]
        self.fnd_same = [f.suits == "same" for f in r.foundations]
        # groups of interchangeable foundations (same rule, start not tied to a suit)
        groups: dict[tuple, list[int]] = {}
        for k, f in enumerate(r.foundations):
            tied = f.start not in ("any", "new_suit")
            groups.setdefault((f, k if tied else -1), []).append(self.fnd[k])
        self.fnd_groups = list(groups.values())
        self.fnd_group_of = {}
        for gi, grp in enumerate(self.fnd_groups):
            for fi in grp:
                self.fnd_group_of[fi] = gi
        self.symmetric = not self.shift_left
        self.has_fd = self.name == "moving_left" or self.r >= 0
        self.simple = (
            not self.runs and self.r < 0 and self.s < 0 and self.decks == 1 and not self.shift_left
        )
        self.fast = self.simple and all(self.fnd_same) and not self.practice
        self._set_takeback(self.takeback)

    def _set_takeback(self, takeback: bool) -> None:
        self.takeback = takeback
        one_card_one_deck = self.simple and not self.autoplay
        self.rule3 = one_card_one_deck and not takeback
        # Scotch without take-backs: pruning rule 3b, and its foundations keyed by what they
        # accept (height and top colour), since no card below a top can ever matter again
        self.alt_fnd = not any(self.fnd_same)
        self.rule3b = self.alt_fnd and self.decks == 1 and not self.runs and not takeback
        self.fnd_by_height = self.alt_fnd and not takeback
        self.king_dead_ends = self.alt_fnd and self.empty == "none" and self.decks == 1 and not self.practice

    def without_takebacks(self) -> _Spec:
        """The same game with take-backs forbidden: a restriction, so its wins are wins of
        this game too (the first phase of `solve`)."""
        other = copy.copy(self)
        other._set_takeback(False)
        return other


# ---------------------------------------------------------------------- the compact state
class _State:
    """A position as card-id lists plus face-down counts, with engine-equal move rules."""

    def __init__(self, spec: _Spec, game: Game):
        self.sp = spec
        self.p: list[list[int]] = [[c.id for c in pile] for pile in game._piles]
        self.fd: list[int] = list(game._fd)
        self._dead_cache: dict[bytes, bool] = {}  # rule 7, by foundations (see `dead`)

    # ---------------------------------------------------------------- acceptance
    def fnd_accepts(self, fi: int, cid: int) -> bool:
        sp = self.sp
        k = fi - sp.fnd[0]
        p = self.p[fi]
        if p:
            return cid in sp.fnd_tab[k][p[-1]]
        if _RANK[cid] != sp.fnd_base[k]:
            return False
        start = sp.fnd_start[k]
        if start == "any":
            return True
        if start == "new_suit":
            d = sp.fnd_dir[k]
            suit = _SUIT[cid]
            for j, f2 in enumerate(sp.fnd):
                q = self.p[f2]
                if q and sp.fnd_dir[j] == d and _SUIT[q[0]] == suit:
                    return False
            return True
        return "SHDC"[_SUIT[cid]] == start

    def empty_tab_accepts(self, cid: int) -> bool:
        e = self.sp.empty
        if e == "any":
            return True
        if e == "king":
            return _RANK[cid] == 13
        if e == "none":
            return False
        return not self.p[self.sp.r]  # "reserve": any card once the reserve is empty

    def tab_accepts(self, ti: int, cid: int) -> bool:
        p = self.p[ti]
        if p:
            return self.sp.tab_ok[p[-1] * 52 + cid]
        return self.empty_tab_accepts(cid)

    def accepts(self, di: int, cid: int) -> bool:
        if self.sp.kind[di] == "T":
            return self.tab_accepts(di, cid)
        return self.fnd_accepts(di, cid)

    def run_length(self, si: int) -> int:
        p = self.p[si]
        up = len(p) - self.fd[si]
        if up <= 0:
            return 0
        if not self.sp.runs:
            return 1
        ok = self.sp.tab_ok
        k = 1
        while k < up and ok[p[-k - 1] * 52 + p[-k]]:
            k += 1
        return k

    # ---------------------------------------------------------------- move generation
    def moves(self, dedup: bool = False) -> list[tuple[int, int, int]]:
        """Every legal move as (src index, dst index, count).  With `dedup`, only the first
        of several equivalent empty destinations (pruning rule 2)."""
        sp = self.sp
        p = self.p
        fd = self.fd
        out: list[tuple[int, int, int]] = []
        sym = dedup and sp.symmetric
        dests = sp.dests

        def targets(cid: int, src: int, tab_only: bool) -> None:
            seen_empty_tab = False
            seen_groups: set[int] = set()
            for di in dests:
                if di == src:
                    continue
                if sp.kind[di] == "T":
                    q = p[di]
                    if q:
                        if sp.tab_ok[q[-1] * 52 + cid]:
                            out.append((src, di, 1))
                    elif self.empty_tab_accepts(cid):
                        if sym:
                            if seen_empty_tab:
                                continue
                            seen_empty_tab = True
                        out.append((src, di, 1))
                elif not tab_only:
                    if self.fnd_accepts(di, cid):
                        if dedup and not p[di]:
                            g = sp.fnd_group_of[di]
                            if g in seen_groups:
                                continue
                            seen_groups.add(g)
                        out.append((src, di, 1))

        for si in sp.tab:
            q = p[si]
            if not q or fd[si] >= len(q):
                continue
            targets(q[-1], si, False)
            if sp.runs:
                for n in range(2, self.run_length(si) + 1):
                    cid = q[-n]
                    seen_empty = False
                    for di in sp.tab:
                        if di == si:
                            continue
                        t = p[di]
                        if t:
                            if sp.tab_ok[t[-1] * 52 + cid]:
                                out.append((si, di, n))
                        elif self.empty_tab_accepts(cid):
                            if sym:
                                if seen_empty:
                                    continue
                                seen_empty = True
                            out.append((si, di, n))
        if sp.takeback:
            for fi in sp.fnd:
                q = p[fi]
                if q:
                    targets(q[-1], fi, True)
        if sp.r >= 0 and p[sp.r] and sp.reserve_playable:
            targets(p[sp.r][-1], sp.r, False)
        if sp.s >= 0 and p[sp.s]:
            out.append((sp.s, sp.w, 1))
        if sp.w >= 0 and p[sp.w]:
            targets(p[sp.w][-1], sp.w, False)
        return out

    # ---------------------------------------------------------------- playing
    def play(self, si: int, di: int, n: int) -> list:
        """Play a move with its automatic actions; return the undo record."""
        sp = self.sp
        ops: list = []
        excluded = self._autoplay_candidates() if sp.autoplay else None
        self._transfer(si, di, n, ops)
        self._after_move(si, ops)
        if excluded is not None:
            excluded.add(self.p[di][-n])
            self._autoplay(ops, excluded)
        return ops

    def undo(self, ops: list) -> None:
        p, fd = self.p, self.fd
        for op in reversed(ops):
            if len(op) == 4:
                si, di, n, fd_before = op
                dst = p[di]
                p[si].extend(dst[-n:])
                del dst[-n:]
                fd[si] = fd_before
            else:
                fd[op[0]] = op[1]

    def _transfer(self, si: int, di: int, n: int, ops: list) -> None:
        src = self.p[si]
        self.p[di].extend(src[-n:])
        del src[-n:]
        fd_before = self.fd[si]
        if fd_before > len(src):
            self.fd[si] = len(src)
        ops.append((si, di, n, fd_before))

    def _turn_up(self, pi: int, ops: list) -> None:
        q = self.p[pi]
        if q and self.fd[pi] >= len(q) and self.sp.kind[pi] in ("T", "R"):
            ops.append((pi, self.fd[pi]))
            self.fd[pi] = len(q) - 1

    def _after_move(self, si: int, ops: list) -> None:
        self._turn_up(si, ops)
        sp = self.sp
        if sp.kind[si] != "T" or self.p[si]:
            return
        if sp.refill and self.p[sp.r]:
            self._transfer(sp.r, si, 1, ops)
            self._turn_up(sp.r, ops)
        elif sp.shift_left:
            tab = sp.tab
            pos = tab.index(si)
            while pos + 1 < len(tab):
                right = tab[pos + 1]
                up = len(self.p[right]) - self.fd[right]
                if up <= 0:
                    return
                self._transfer(right, tab[pos], up, ops)
                self._turn_up(right, ops)
                if self.p[right]:
                    return
                pos += 1

    def _foundation_for(self, cid: int) -> int:
        for fi in self.sp.fnd:
            if self.fnd_accepts(fi, cid):
                return fi
        return -1

    def _autoplay_candidates(self) -> set[int]:
        out = set()
        for ti in self.sp.tab:
            q = self.p[ti]
            if q and self._foundation_for(q[-1]) >= 0:
                out.add(q[-1])
        return out

    def _autoplay(self, ops: list, excluded: set[int]) -> None:
        moved = True
        while moved:
            moved = False
            for ti in self.sp.tab:
                q = self.p[ti]
                if q and q[-1] not in excluded:
                    fi = self._foundation_for(q[-1])
                    if fi >= 0:
                        self._transfer(ti, fi, 1, ops)
                        moved = True

    # ---------------------------------------------------------------- queries
    def foundation_count(self) -> int:
        return sum(len(self.p[fi]) for fi in self.sp.fnd)

    def key(self) -> bytes:
        """The canonical key (pruning rule 1)."""
        sp = self.sp
        p, fd = self.p, self.fd
        if sp.has_fd:
            tabs = [bytes((fd[t],)) + bytes(p[t]) for t in sp.tab]
        else:
            tabs = [bytes(p[t]) for t in sp.tab]
        if sp.symmetric:
            tabs.sort()
        parts = [b"\xff".join(tabs)]
        for grp in sp.fnd_groups:
            if len(grp) == 1 and sp.fnd_start[grp[0] - sp.fnd[0]] not in ("any", "new_suit"):
                parts.append(bytes((len(p[grp[0]]),)))
                continue
            enc = []
            for fi in grp:
                q = p[fi]
                if sp.fnd_by_height:
                    enc.append(bytes((len(q), _RED[q[-1]])) if q else b"")
                elif sp.fnd_same[fi - sp.fnd[0]]:
                    enc.append(bytes((q[-1],)) if q else b"")
                else:
                    enc.append(bytes(q))
            enc.sort()
            parts.append(b"\xfe".join(enc))
        if sp.r >= 0:
            parts.append(bytes((len(p[sp.r]),)))
        if sp.s >= 0:
            parts.append(bytes((len(p[sp.s]),)))
            parts.append(bytes(p[sp.w]))
        return b"\xfd".join(parts)

    def safe_move(self) -> tuple[int, int, int] | None:
        """A move to a foundation that pruning rule 3 (or 3b) proves safe, or None."""
        sp = self.sp
        p = self.p
        if sp.rule3b:
            return self._safe_move_alt()
        if sp.rule3:
            height = self._suit_heights()
            for ti in sp.tab:
                q = p[ti]
                if not q:
                    continue
                c = q[-1]
                if height[_SUIT[c]] != _RANK[c] - 1:
                    continue
                if all(height[_SUIT[x]] >= _RANK[x] for x in sp.tab_acc[c]):
                    fi = self._foundation_for(c)
                    if fi >= 0:
                        return (ti, fi, 1)
        return None

    def dead(self) -> bool:
        """Pruning rule 7 (Scotch): no way to finish the four foundations lets the Kings in
        the fans leave them in some order (see the module docstring).  The cards under a King
        in a fan never change while it stays there, so the answer depends only on the
        foundations; it is cached on them for this search."""
        sp = self.sp
        if not sp.king_dead_ends:
            return False
        p = self.p
        key = b"\xff".join([bytes(p[f]) for f in sp.fnd])
        cache = self._dead_cache
        if key not in cache:
            cache[key] = self._kings_blocked()
        return cache[key]

    def _kings_blocked(self) -> bool:
        sp = self.sp
        p = self.p
        under: dict[int, list[int]] = {}  # card in a fan -> the Kings above it in that fan
        for ti in sp.tab:
            kings: list[int] = []
            for x in reversed(p[ti]):
                if kings:
                    under[x] = list(kings)
                if _RANK[x] == 13:
                    kings.append(x)
        if not under:
            return False
        pile_of = {x: fi for fi in sp.fnd for x in p[fi]}
        # a King under another King leaves its fan after it
        stacked = frozenset((x, k) for k in _CLASS_KINGS[0] + _CLASS_KINGS[1] for x in under.get(k, ()))
        options = [_class_orders(cls, under, pile_of, p) for cls in (0, 1)]
        return not any(_acyclic(a | b | stacked) for a in options[0] for b in options[1])

    def _safe_move_alt(self) -> tuple[int, int, int] | None:
        """Rule 3b (Scotch without take-backs): a top card c of rank r goes home when every
        card of rank r-1 is home and either c is an Ace, its twin (same rank and colour) is
        home, or two foundations accept it."""
        sp = self.sp
        p = self.p
        home = [0] * 14  # cards home per rank
        on_fnd = set()
        for fi in sp.fnd:
            for x in p[fi]:
                home[_RANK[x]] += 1
                on_fnd.add(x)
        for ti in sp.tab:
            q = p[ti]
            if not q:
                continue
            c = q[-1]
            r = _RANK[c]
            if r > 1 and home[r - 1] < 4:
                continue
            accepting = [fi for fi in sp.fnd if self.fnd_accepts(fi, c)]
            if not accepting:
                continue
            if r == 1 or _TWIN[c] in on_fnd or len(accepting) >= 2:
                return (ti, accepting[0], 1)
        return None

    def _suit_heights(self) -> list[int]:
        """Per suit, the highest rank on its (same-suit, one-deck) foundation."""
        h = [0, 0, 0, 0]
        for fi in self.sp.fnd:
            q = self.p[fi]
            if q:
                h[_SUIT[q[-1]]] = _RANK[q[-1]]
        return h


def _class_orders(cls: int, under: dict, pile_of: dict, p: list) -> set[frozenset]:
    """Rule 7 for one Scotch foundation class: every way its cards may end on its two
    foundations (one card of each rank per foundation, each closed by one of the class's
    two Kings), as the set of "King x must go home before King k" pairs each way forces: a
    card under x in a fan that ends below k.  Ways that put a card under its own King are
    impossible.  A King already home fixes its foundation (nothing leaves it again)."""
    kings = _CLASS_KINGS[cls]
    fixed: dict[int, int] = {}  # card -> the King its foundation ends with
    for k in kings:
        if k in pile_of:
            other = kings[1] if k == kings[0] else kings[0]
            chain = set(p[pile_of[k]])
            for r in range(1, 13):
                for c in _CLASS_RANK[cls][r]:
                    fixed[c] = k if c in chain else other
    choices = []
    for r in range(1, 13):
        a, b = _CLASS_RANK[cls][r]
        if a not in under and b not in under:
            continue  # no King covers either card: no order follows from this rank
        if a in fixed:
            choices.append([((a, fixed[a]), (b, fixed[b]))])
        else:
            choices.append([((a, kings[0]), (b, kings[1])), ((a, kings[1]), (b, kings[0]))])
    out: set[frozenset] = set()
    for combo in product(*choices):
        edges = set()
        for pair in combo:
            for card, k in pair:
                for x in under.get(card, ()):
                    edges.add((x, k))
        if all(x != k for x, k in edges):  # no card ends under its own King
            out.add(frozenset(edges))
    return out


def _acyclic(edges: frozenset) -> bool:
    """Can a few Kings go home in an order that puts x before k for every pair (x, k)?"""
    left = set(edges)
    while left:
        sources = {x for x, _ in left} - {k for _, k in left}
        if not sources:
            return False
        left = {e for e in left if e[0] not in sources}
    return True


# ---------------------------------------------------------------------- fast one-deck state
class _Fast:
    """Beleaguered Castle, Citadel and Baker's Dozen: one deck, one card at a time, same-suit
    foundations.  Piles 0..T-1 are the tableau; pile T+s is the foundation of suit s, kept as
    a height (its content follows from it).  Moves are (src, dst) pairs of these indices."""

    def __init__(self, spec: _Spec, game: Game):
        self.sp = spec
        self.T = len(spec.tab)
        self.t: list[list[int]] = [[c.id for c in game._piles[i]] for i in spec.tab]
        self.h = [0, 0, 0, 0]
        for fi in spec.fnd:
            q = game._piles[fi]
            if q:
                self.h[_SUIT[q[-1].id]] = q[-1].rank
        self.ok = spec.tab_ok
        self.empty_any = spec.empty == "any"
        self.empty_king = spec.empty == "king"
        self.takeback = spec.takeback
        self.autoplay = spec.autoplay
        # rule 3: the cards that may lie on c, as (suit, rank) pairs
        self.children = [[(_SUIT[x], _RANK[x]) for x in spec.tab_acc[c]] for c in range(52)]
        self.dead_ends = spec.name == "bakers_dozen"  # rules 6 and 8: Baker's Dozen, no take-backs
        # heuristic only (`_score`): how much the cards the foundations need soon weigh, by
        # how soon (now or next in the castles; Baker's Dozen's searches set their own,
        # `BAKERS_PORTFOLIO`)
        self.urgency: tuple[int, ...] = (1, 1)
        # the cards c may lie on
        self.parents: list[list[int]] = [[] for _ in range(52)]
        for y in range(52):  # ascending, so each list is in card-id order
            for x in spec.tab_acc[y]:
                self.parents[x].append(y)
        self.parent_bits = [sum(1 << y for y in ps) for ps in self.parents]

    def stuck(self) -> bool:
        """Pruning rule 8 (Baker's Dozen): some card in the tableau could never go home, by
        a fixpoint over what any play from here could do (see the module docstring)."""
        t = self.t
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
                    free[i] = j
                    progress = True
                if j >= 0:
                    blocked.append(i)
            if not progress or reach == [13, 13, 13, 13]:
                break
            pending = blocked
        # every card that could be a top was added to `tops` with the suit's reach pushed on
        return reach != [13, 13, 13, 13]

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
        """Play a move (with Citadel's autoplay); return what the autoplay moved, for undo."""
        if not self.autoplay:
            self._raw(a, b)
            return None
        t, h = self.t, self.h
        excluded = {q[-1] for q in t if q and h[q[-1] // 13] == q[-1] % 13}
        excluded.add(self._raw(a, b))
        auto = []
        moved = True
        while moved:
            moved = False
            for i, q in enumerate(t):
                if q:
                    x = q[-1]
                    if h[x // 13] == x % 13 and x not in excluded:
                        q.pop()
                        h[x // 13] += 1
                        auto.append((i, x))
                        moved = True
        return auto

    def undo(self, a: int, b: int, auto: list | None) -> None:
        if auto:
            t, h = self.t, self.h
            for i, x in reversed(auto):
                h[x // 13] -= 1
                t[i].append(x)
        self._raw(b, a)

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
                        j = where.get(d)
                        if j is not None:
                            out.append((T + s, j))
                    if hole >= 0 and self.empty_any:
                        out.append((T + s, hole))
        return out

    def dead(self, piles: tuple[int, ...] | None = None) -> bool:
        """Pruning rule 6 (Baker's Dozen only): some card can never leave its pile but
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
        """A move home that pruning rule 3 proves safe, or None."""
        t, h, T = self.t, self.h, self.T
        if self.sp.rule3:
            ch = self.children
            for i in range(T):
                q = t[i]
                if q:
                    c = q[-1]
                    if h[c // 13] == c % 13:
                        for s, r in ch[c]:
                            if h[s] < r:
                                break
                        else:
                            return (i, T + c // 13)
        return None


def _urgent(h: list[int], weights: tuple[int, ...]) -> list[int]:
    """Per card id, how urgently the foundations need it, given the heights `h`:
    ``weights[i]`` for the card i ranks above its foundation's top, else 0."""
    out = [0] * 52
    for s in range(4):
        for i, w in enumerate(weights):
            r = h[s] + i
            if r < 13:
                out[s * 13 + r] = w
    return out


def _column_bad(q: list[int], urgent: list[int]) -> int:
    """For one tableau pile: the cards lying above each urgent card it holds, weighted by
    that card's urgency."""
    bad = 0
    above = len(q)
    for x in q:
        above -= 1  # the cards lying above x
        u = urgent[x]
        if u:
            bad += u * above
    return bad


def _score(st: _Fast) -> int:
    """Best-first priority (lower first): cards not yet home (weight 8), plus, for each card
    the foundations need soon, the number of cards lying above it, times its urgency
    (`_Fast.urgency`: now or next with weight 1 in the castles; in Baker's Dozen, each
    search's weights for the next ranks of each suit, `BAKERS_PORTFOLIO`)."""
    h = st.h
    urgent = _urgent(h, st.urgency)
    return 8 * (52 - sum(h)) + sum([_column_bad(q, urgent) for q in st.t])


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
        h = st.h
        if h[c // 13] != c % 13:
            return
        for s, r in st.children[c]:
            if h[s] < r:
                return
        m = (moved_from, T + c // 13)
        undo.append((m, st.play(*m)))
    while True:
        m = st.safe_move()
        if m is None:
            return
        undo.append((m, st.play(*m)))


_UNLIMITED = 1 << 62  # a budget no search reaches


def _fast_best_first(st: _Fast, deadline, cap: int, max_table: int) -> tuple[str, list, int]:
    """One best-first search on the fast state (`_fast_search`) with its whole budget."""
    search = _fast_search(st, deadline, max_table)
    next(search)
    paused, verdict = _advance(search, cap if cap >= 0 else _UNLIMITED)
    if verdict is None:
        search.close()
        return "unknown", [], paused
    return verdict


def _advance(search, allowance: int) -> tuple[int, tuple[str, list, int] | None]:
    """Let a started `_fast_search` run until it has examined `allowance` states in all:
    (states, None) if it paused there, (states, verdict) if it ended first."""
    try:
        return search.send(allowance), None
    except StopIteration as end:
        return end.value[2], end.value


def _fast_search(st: _Fast, deadline, max_table: int):
    """Best-first search on the fast state, as a generator that can be paused, so that two
    orders can take turns (`_castle_portfolio`).  Start it with ``next()``, then send it how
    many states it may have examined in all; it yields its count when it gets there and
    returns (status, line, states) when it ends.  It is complete: every reachable state (up
    to the symmetry of rule 1) is expanded before it answers "lost".

    The table maps each key to its parent key and the move, as (source, destination) indices
    of the parent's own pile order (the order its key restores); the winning line is described
    by replaying those moves only at the end.

    Without automatic actions or take-backs, a child is worked out on the parent key's
    parts (each pile's bytes): its two changed piles are slices of the parent's, so nothing is
    played and undone on lists, which are built only when safe moves (rule 3) follow the
    move.  `_Fast`'s move generator, safe-move test and score read bytes as they read lists."""
    allowed = yield 0
    T = st.T
    rules = st.sp.rule3
    dead_ends = st.dead_ends
    plain = not st.autoplay and not st.takeback
    root_undo = _play_safe_moves(st) if rules else []
    root_line = _replay_described(st, root_undo)
    if st.won():
        return "won", root_line, 0
    root = st.key()
    while allowed < 1:  # the root's dead-end test below examines it: one state
        allowed = yield 0
    if st.dead():
        return "lost", [], 1
    parent: dict[bytes, tuple | None] = {root: None}
    urgent_at: dict[bytes, list[int]] = {}  # `_urgent` by foundation heights
    heap = [(_score(st), 0, root)]
    push, pop = heapq.heappush, heapq.heappop
    count = 0
    states = 0
    while heap:
        while states >= allowed:
            allowed = yield states
        if len(parent) >= max_table:
            return "unknown", [], states
        score0, _, key = pop(heap)
        states += 1
        if deadline is not None and not states & 255 and time.perf_counter() > deadline:
            return "unknown", [], states
        piles, heights = key.split(b"\xff")[:-1], key[-4:]  # `_Fast.key`: the piles, then 4 heights
        h = st.h = list(heights)
        # plain moves are worked out on the piles' bytes; the lists are built only for the
        # moves that need them (automatic actions, take-backs, safe moves to play)
        st.t = piles if plain else [list(q) for q in piles]
        if dead_ends and st.stuck():  # rule 8, where rule 6 applies
            continue
        # A move between tableau piles with nothing after it changes the score (`_score`,
        # here score0) by its two piles' terms only, which follow from the piles' summed
        # urgencies (see `_column_bad`); those are computed when first needed.
        urgent = urgent_at.get(heights)
        if urgent is None:  # few distinct heights: most positions reuse an earlier list
            urgent = urgent_at[heights] = _urgent(h, st.urgency)
        weight = [-1] * T  # per pile, the sum of its cards' urgencies
        for m in st.moves():
            a, b = m
            between = a < T and b < T
            if between:
                if weight[a] < 0:
                    weight[a] = sum(map(urgent.__getitem__, piles[a]))
                if weight[b] < 0:
                    weight[b] = sum(map(urgent.__getitem__, piles[b]))
            entered = [(m, None)]  # the moves that lead into the child, with undo records
            if plain:
                child = piles.copy()
                src = piles[a]
                child[a] = src[:-1]
                if b < T:
                    child[b] = piles[b] + src[-1:]
                else:
                    h[b - T] += 1
                st.t = child
                # after a move between piles only the source's new top can be safe
                # (`_enter_fast`), so the scan is skipped when that top cannot go home
                q = child[a]
                if rules and (b >= T or (q and h[q[-1] // 13] == q[-1] % 13)) and st.safe_move():
                    st.t = [list(q) for q in child]
                    entered += _play_safe_moves(st)
                    between = False
                    tabs = sorted(map(bytes, st.t))
                    tabs.append(bytes(h))
                else:
                    tabs = sorted(child)
                    tabs.append(heights if b < T else bytes(h))
            else:
                entered = [(m, st.play(a, b))]
                if entered[0][1]:  # Citadel's autoplay moved cards too
                    between = False
                    tabs = sorted(map(bytes, st.t))
                    tabs.append(bytes(h))
                else:  # only this move: rebuild its piles' bytes
                    tabs = piles.copy()
                    if a < T:
                        tabs[a] = bytes(st.t[a])
                    if b < T:
                        tabs[b] = bytes(st.t[b])
                    tabs.sort()
                    tabs.append(heights if between else bytes(h))
            k = b"\xff".join(tabs)
            if k not in parent:
                parent[k] = (key, m)
                if sum(h) == 52:
                    return "won", root_line + _fast_line(st, parent, k), states
                if not (dead_ends and st.dead((a, b) if between else None)):
                    count += 1
                    if between:
                        # every card left in a has one card fewer above it, every card
                        # that was in b one more (the moved card, now b's top, has none)
                        score = score0 - weight[a] + urgent[piles[a][-1]] + weight[b]
                    else:
                        score = _score(st)
                    push(heap, (score, count, k))
            _leave(st, entered, piles if plain else None)
    return "lost", [], states


def _dfs_moves(st: _Fast, order: str, piles: list[bytes]) -> list[tuple[int, int]]:
    """`_Fast.moves` in a depth-first search's order (the one Freecell Solver's proof mode,
    ``-to 0AB``, tries): moves home, then into a hole, then onto another card, take-backs
    last; within each kind by source pile, then destination pile.  The piles are taken
    sorted by their cards from the bottom up: with `order` ``"key"`` as the state's key
    sorts them (card ids), with ``"fc"`` as Freecell Solver numbers cards (rank first, then
    the suit, ♥ ♣ ♦ ♠: `_FC_VALUE`).  `piles` holds each tableau pile's bytes.  Only the
    order changes: the set of moves is `moves()`'s."""
    t, T = st.t, st.T
    if order == "key":
        ranked = sorted(range(T), key=piles.__getitem__)
    else:
        fc = [q.translate(_FC_BYTES) for q in piles]
        ranked = sorted(range(T), key=fc.__getitem__)
    pos = [0] * T
    for k, i in enumerate(ranked):
        pos[i] = k
    pos += range(T, T + 4)
    # one integer per move sorts as (kind, source rank, destination rank, source, destination)
    codes = [
        ((((3 if a >= T else 0 if b >= T else 1 if not t[b] else 2) << 6 | pos[a]) << 6 | pos[b]) << 12)
        | a << 6
        | b
        for a, b in st.moves()
    ]
    codes.sort()
    return [(x >> 6 & 63, x & 63) for x in codes]


def _fast_dfs(st: _Fast, deadline, max_table: int, order: str):
    """Depth-first search on the fast state, with the same protocol as `_fast_search` (a
    generator started with ``next()``, sent how many states it may have examined in all,
    returning (status, line, states)), so that it can take turns with the best-first ones.
    Moves are tried in `_dfs_moves`'s order and the safe moves of rule 3 follow each one, as
    in the best-first search.  It is complete: a state already seen (its canonical key, rule
    1) is not entered again, and "lost" comes only once every state reachable from the root
    has been entered.  A state counts as examined when it is entered (its moves listed)."""
    allowed = yield 0
    rules = st.sp.rule3
    root_undo = _play_safe_moves(st) if rules else []
    if st.won():
        return "won", _replay_described(st, root_undo), 0
    seen = {st.key()}
    states = 1
    T, h = st.T, st.h
    plain = not st.autoplay and not st.takeback
    piles = [bytes(q) for q in st.t]
    if plain:  # as in `_fast_search`: worked out on the piles' bytes, lists only for safe moves
        st.t = piles
    # one level per state on the current path: its moves, the next one to try, the undo
    # records of the moves that led into it (None for the root) and its piles' bytes
    path: list[list] = [[_dfs_moves(st, order, piles), 0, None, piles]]
    while path:
        level = path[-1]
        moves, i, undo, piles = level
        if i == len(moves):
            path.pop()
            if undo:
                _leave(st, undo, path[-1][3] if plain else None)
            continue
        level[1] = i + 1
        m = moves[i]
        a, b = m
        if plain:
            src = piles[a]
            tabs = piles.copy()
            tabs[a] = src[:-1]
            if b < T:
                tabs[b] = piles[b] + src[-1:]
            else:
                h[b - T] += 1
            entered = [(m, None)]
            st.t = tabs
            # as in the best-first search, only a move home or a top that can go home now
            # may start safe moves (`_enter_fast`)
            q = tabs[a]
            if rules and (b >= T or (q and h[q[-1] // 13] == q[-1] % 13)) and st.safe_move():
                st.t = [list(q) for q in tabs]
                entered += _play_safe_moves(st)
                tabs = st.t = [bytes(q) for q in st.t]
        else:
            entered = [(m, st.play(a, b))]
            if rules:
                _enter_fast(st, a, entered)
            t = st.t
            if len(entered) == 1 and not entered[0][1]:  # only this move: rebuild its piles' bytes
                tabs = piles.copy()
                if a < T:
                    tabs[a] = bytes(t[a])
                if b < T:
                    tabs[b] = bytes(t[b])
            else:
                tabs = [bytes(q) for q in t]
        key = sorted(tabs)
        key.append(bytes(h))
        k = b"\xff".join(key)  # `_Fast.key`
        if k in seen:
            _leave(st, entered, piles if plain else None)
            continue
        if st.won():
            played = root_undo + [r for lv in path[1:] for r in lv[2]] + entered
            if plain:
                st.t = [list(q) for q in tabs]
            return "won", _replay_described(st, played), states
        while states >= allowed:
            allowed = yield states
        if len(seen) >= max_table:
            return "unknown", [], states
        if deadline is not None and not states & 255 and time.perf_counter() > deadline:
            return "unknown", [], states
        seen.add(k)
        states += 1
        path.append([_dfs_moves(st, order, tabs), 0, entered, tabs])
    return "lost", [], states


def _leave(st: _Fast, entered: list, piles: list[bytes] | None) -> None:
    """Take back the moves that led a fast search (best-first, depth-first or the probe) into a state
    (`entered`, with their undo records).  With `piles` (the state it goes back to, as bytes:
    no automatic actions or take-backs), only the heights need undoing; else the moves are
    undone on the lists."""
    if piles is None:
        for (x, y), auto in reversed(entered):
            st.undo(x, y, auto)
        return
    T, h = st.T, st.h
    for (_, y), _ in entered:
        if y >= T:
            h[y - T] -= 1
    st.t = piles


def _run_length(q: list[int], parent_bits: list[int]) -> int:
    """How many cards at the top of pile `q` form a natural run (each on a card it may lie on)."""
    n = 1
    while n < len(q) and parent_bits[q[-n]] >> q[-n - 1] & 1:
        n += 1
    return n


def _through_holes(k: int, a: int, b: int, holes: list[int]) -> list[tuple[int, int]]:
    """Single moves that carry the top `k` cards of pile `a` (a natural run) onto pile `b`,
    parking half of them in the first hole on the way and the rest recursively, so that
    ``k <= 2 ** len(holes)`` cards can travel (`b` may be a hole itself)."""
    if k == 1:
        return [(a, b)]
    park, rest = holes[0], holes[1:]
    half = k // 2
    return (
        _through_holes(half, a, park, rest)
        + _through_holes(k - half, a, b, rest)
        + _through_holes(half, park, b, rest)
    )


def _dig_out(st: _Fast, a: int, depth: int) -> list[tuple[int, int]] | None:
    """Single moves that clear the `depth` cards lying above a buried card of pile `a`, each
    onto a top it may lie on in another pile (the first such pile), or else into the first
    hole; None when some card finds no place.  `st` is left as it was."""
    t, T, parent_bits = st.t, st.T, st.parent_bits
    played: list[tuple[int, int]] = []
    for _ in range(depth):
        y = t[a][-1]
        dest = hole = -1
        for j in range(T):
            if j != a:
                if t[j]:
                    if parent_bits[y] >> t[j][-1] & 1:
                        dest = j
                        break
                elif hole < 0:
                    hole = j
        if dest < 0:
            dest = hole
        if dest < 0:
            break
        st._raw(a, dest)
        played.append((a, dest))
    for x, y in reversed(played):
        st._raw(y, x)
    return played if len(played) == depth else None


def _jumps(st: _Fast) -> tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]]:
    """The probe's moves (`_fast_probe`), each a list of single moves, in two groups: those
    that send a card home (a top, or a buried card its foundation takes, dug out with
    `_dig_out`), and the others: a whole natural run onto a top it may lie on, or, when it
    is not the whole pile, into a hole (`_through_holes`).  A run is never split, nor a
    card taken off a card it may lie on except with its whole run: far fewer moves than the
    game allows, which is what makes the probe quick, and incomplete."""
    t, h, T, parent_bits = st.t, st.h, st.T, st.parent_bits
    holes = [j for j in range(T) if not t[j]]
    room = 1 << len(holes)  # the longest run that can travel through the holes
    home: list[list[tuple[int, int]]] = []
    other: list[list[tuple[int, int]]] = []
    for i in range(T):
        q = t[i]
        for depth in range(len(q)):
            c = q[-1 - depth]
            if h[c // 13] == c % 13:
                cleared = _dig_out(st, i, depth) if depth else []
                if cleared is not None:
                    home.append(cleared + [(i, T + c // 13)])
    for i in range(T):
        q = t[i]
        if not q:
            continue
        n = _run_length(q, parent_bits)
        if n <= room:
            head = q[-n]
            for j in range(T):
                if j != i and t[j] and parent_bits[head] >> t[j][-1] & 1:
                    other.append(_through_holes(n, i, j, holes))
        if holes and n < len(q) and n <= room >> 1:
            other.append(_through_holes(n, i, holes[0], holes[1:]))
    return home, other


def _permute(items: list, draws) -> None:
    """Shuffle `items` in place with the package's SplitMix64 draws (the same on every
    platform and Python version, see `shuffle`)."""
    for i in range(len(items) - 1, 0, -1):
        j = next(draws) % (i + 1)
        items[i], items[j] = items[j], items[i]


def _probe_thread(st: _Fast, seen: set[bytes], draws):
    """One depth-first walk of the probe (`_fast_probe`) over `_jumps`, each group in a
    random order of its own (`draws`), skipping every state that any walk has entered
    (`seen`, shared).  It yields once per state it enters and returns the winning line
    (described, `_describe`) or None when it has nothing left to try.  Rule 3's safe moves
    follow each jump, as in the complete searches."""
    rules = st.sp.rule3
    root_undo = _play_safe_moves(st) if rules else []
    if st.won():
        return _replay_described(st, root_undo)
    seen.add(st.key())

    def options() -> list[list[tuple[int, int]]]:
        home, other = _jumps(st)
        _permute(home, draws)
        _permute(other, draws)
        return home + other

    # one level per state on the current path: its jumps, the next one to try, and the
    # undo records of the single moves that led into it
    path: list[list] = [[options(), 0, []]]
    while path:
        level = path[-1]
        jumps, i, undo = level
        if i == len(jumps):
            path.pop()
            _leave(st, undo, None)
            continue
        level[1] = i + 1
        entered = [((a, b), st.play(a, b)) for a, b in jumps[i]]
        if rules:
            entered += _play_safe_moves(st)
        key = st.key()
        if key in seen:
            _leave(st, entered, None)
            continue
        if st.won():
            return _replay_described(st, root_undo + [r for lv in path[1:] for r in lv[2]] + entered)
        seen.add(key)
        yield
        path.append([options(), 0, entered])
    return None


def _fast_probe(spec: _Spec, game: Game, deadline, max_table: int):
    """A quick, incomplete search for a win (Beleaguered Castle and Citadel without automatic
    actions or take-backs), with the protocol of `_fast_search` so that it can take its turn
    in `_castle_portfolio`: `CASTLE_PROBE_WALKS` depth-first walks over `_jumps` (whole runs
    carried through the holes, buried cards dug out for their foundation), each in its own
    random order, take turns of `CASTLE_PROBE_QUOTA` states and share one table, so that
    each explores where the others have not been.  It answers "won" or "unknown", never
    "lost" (its moves are not all the game's): "unknown" when every walk has nothing left
    to try, or after `CASTLE_PROBE` states."""
    allowed = yield 0
    seen: set[bytes] = set()
    walks = [_probe_thread(_Fast(spec, game), seen, splitmix64(k)) for k in range(CASTLE_PROBE_WALKS)]
    states = 0
    while walks:
        for walk in list(walks):
            for _ in range(CASTLE_PROBE_QUOTA):
                while states >= allowed:
                    allowed = yield states
                if states >= CASTLE_PROBE or len(seen) >= max_table:
                    return "unknown", [], states
                if deadline is not None and not states & 255 and time.perf_counter() > deadline:
                    return "unknown", [], states
                try:
                    next(walk)
                except StopIteration as end:
                    if end.value is not None:
                        return "won", end.value, states
                    walks.remove(walk)
                    break
                states += 1
    return "unknown", [], states


def _replay_described(st: _Fast, played: list) -> list:
    """Describe (`_describe`) moves already played on `st`, by undoing and replaying them."""
    for (a, b), auto in reversed(played):
        st.undo(a, b, auto)
    out = []
    for (a, b), _ in played:
        out.append(_describe(st, a, b))
        st.play(a, b)
    return out


def _fast_line(st: _Fast, parent: dict, key: bytes) -> list:
    """The described line from the root to `key`: each step replays the stored move on its
    parent position, followed by the safe moves that `_fast_best_first` played after it."""
    steps = []
    while parent[key] is not None:
        key, m = parent[key]
        steps.append((key, m))
    out: list = []
    for pkey, m in reversed(steps):
        _restore_fast(st, pkey)
        undo = [(m, st.play(*m))]
        if st.sp.rule3:
            _enter_fast(st, m[0], undo)
        out += _replay_described(st, undo)
    return out


def _unwind(parent: dict, key: bytes) -> list:
    out: list = []
    while parent[key] is not None:
        key, desc = parent[key]
        out[:0] = desc
    return out


def _described_moves(game: Game, spec: _Spec, line: list[tuple[int, int]]) -> list[Move]:
    """Turn a line of (card, destination top) into engine moves by replaying it through the
    public `Game.move` on a copy; the replay must end in a win (else a solver bug is
    raised), so it is also the line's check (`_check_line`)."""
    g = game.copy()
    ids = spec.pile_ids
    piles = g._piles
    out = []
    for c, d in line:
        where = {q[-1].id: i for i, q in enumerate(piles) if q}  # one deck: each top is unique
        src = ids[where[c]]
        if d == -1 and c % 13:  # same-suit foundations: the one whose top is c's predecessor
            dst = ids[where[c - 1]]
        elif d == -1:
            dst = next(ids[f] for f in spec.fnd if g.can_move(src, ids[f]))
        elif d == -2:
            dst = next(ids[i] for i in spec.tab if not piles[i])
        else:
            dst = ids[where[d]]
        move = Move(src, dst, 1)
        g.move(move)
        out.append(move)
    if not g.is_won():
        raise AssertionError(f"solver bug: the line found for {game.name} does not win")
    return out


def _snapshot(st: _State) -> bytes:
    """The whole position in pile order (face-down count first in each pile)."""
    return b"\xff".join([bytes((f,)) + bytes(q) for q, f in zip(st.p, st.fd, strict=True)])


def _restore(st: _State, snap: bytes) -> None:
    parts = snap.split(b"\xff")
    st.p = [list(x[1:]) for x in parts]
    st.fd = [x[0] for x in parts]


def _generic_score(st: _State) -> int:
    """Best-first priority (lower first): cards not yet home (weight 8), face-down cards
    (weight 2), and cards lying on a card the tableau rule would not let them go on.  Scotch
    weighs cards home 4 and adds, as the castles do, the cards lying above each card its
    alternate-colour foundations take now or next (`_alt_urgent`)."""
    sp = st.sp
    ok = sp.tab_ok
    p, fd = st.p, st.fd
    urgent = _alt_urgent(st) if sp.alt_fnd else None
    bad = 0
    for t in sp.tab:
        q = p[t]
        f = fd[t]
        bad += 2 * f
        top = len(q) - 1
        for d in range(f, top):
            if not ok[q[d] * 52 + q[d + 1]]:
                bad += 1
            if urgent and q[d] in urgent:
                bad += top - d
    return (4 if urgent is not None else 8) * (sp.total - st.foundation_count()) + bad


def _alt_urgent(st: _State) -> set[int]:
    """The cards alternate-colour foundations take now or next: on an empty one the Aces;
    on a top of rank r, the two cards of rank r+1 in the other colour and the two of rank
    r+2 in the top's colour."""
    out: set[int] = set()
    for fi in st.sp.fnd:
        q = st.p[fi]
        out.update(_ALT_NEXT[q[-1]] if q else _ALT_NEXT[52])
    return out


def _generic_best_first(st: _State, deadline, cap: int, max_table: int) -> tuple[str, list, int]:
    """Best-first search on the generic state, complete like `_fast_best_first`; the heap
    holds whole positions (bytes) and the table maps each canonical key to its parent."""
    total = st.sp.total
    root_line: list = []
    _enter(st, root_line)
    if st.foundation_count() == total:
        return "won", root_line, 0
    root = st.key()
    if cap == 0:  # the root's dead-end test below examines it: one state
        return "unknown", [], 0
    if st.dead():
        return "lost", [], 1
    parent: dict[bytes, tuple | None] = {root: None}
    heap = [(_generic_score(st), 0, root, _snapshot(st))]
    count = 0
    states = 0
    while heap:
        _, _, key, snap = heapq.heappop(heap)
        if (cap >= 0 and states >= cap) or len(parent) >= max_table:
            return "unknown", [], states
        states += 1
        if deadline is not None and not states & 127 and time.perf_counter() > deadline:
            return "unknown", [], states
        _restore(st, snap)
        for m in st.moves(True):
            ops = st.play(*m)
            line = [m]
            played = [(m, ops)] + _enter(st, line)
            k = st.key()
            if k not in parent:
                parent[k] = (key, tuple(line))
                if st.foundation_count() == total:
                    return "won", root_line + _unwind(parent, k), states
                if not st.dead():
                    count += 1
                    heapq.heappush(heap, (_generic_score(st), count, k, _snapshot(st)))
            for _m, o in reversed(played):
                st.undo(o)
    return "lost", [], states


# ---------------------------------------------------------------------- ordering
def _order(state: _State, moves: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Sort moves so the likely useful ones come first (speed only)."""
    sp = state.sp
    p, fd = state.p, state.fd
    kind = sp.kind

    def score(m: tuple[int, int, int]) -> int:
        si, di, n = m
        ks, kd = kind[si], kind[di]
        if ks == "F":
            return 90
        if kd == "F":
            return 0
        if ks == "S":
            return 60
        src = p[si]
        s = 30
        if ks == "T":
            left = len(src) - n
            if left == 0:
                s = 10
            elif fd[si] >= left:
                s = 12  # uncovers a face-down card
            else:
                s = 20 + min(left, 9)
        if kd == "T" and not p[di]:
            s += 30
        return s

    return sorted(moves, key=score)


# ---------------------------------------------------------------------- the search

def _cpu_time() -> float:
    """Processor seconds of this thread; where the platform has no thread clock (Pyodide in
    JupyterLite) the process clock, and failing that wall time (never "busy" then)."""
    for clock in ("thread_time", "process_time"):
        try:
            return getattr(time, clock)()
        except (AttributeError, OSError):
            continue
    return time.perf_counter()


def solve(
    game: Game,
    time_limit: float | None = None,
    max_states: int | None = None,
    max_table: int = DEFAULT_MAX_TABLE,
) -> SolveResult:
    """Decide whether `game`'s current position can still be won.

    ``max_states`` caps the distinct states expanded, so a capped run gives the same answer
    on every machine; ``time_limit`` (seconds) is a convenience on top; ``max_table`` bounds
    each search's transposition table (memory: the castles run up to four searches, each
    with its own table).  With none of them given the search runs until it decides or the
    table is full.  A ``"won"`` result carries a winning line checked through the engine; ``"lost"`` comes only from a complete
    search (see the module docstring for the pruning rules and why they are safe).

    The cyclic garbage collector is paused while the search runs: the search allocates
    millions of small tuples and lists that hold no cycles (its queue and table), and the
    collector would otherwise walk them over and over, for nothing.
    It is switched back on before `solve` returns or raises, if it was on.

    The result's ``cpu_seconds`` is the processor time this thread got: far less than
    ``seconds`` means other programs had the processor (see `SolveResult.busy`).  A class
    budget in the environment (``SNB_SOLVER_SECONDS``) lowers ``time_limit``.

    Bad limits (negative, NaN, infinite, not numbers, a float for ``max_states``…) and a
    position no play could reach are refused with a Spanish `ValueError` before any work."""
    _check_request(game)
    time_limit = check_seconds(time_limit, "time_limit")
    max_states = check_states(max_states, "max_states")
    max_table = check_int(max_table, "max_table", 1, STATES_MAX)
    collecting = gc.isenabled()
    gc.disable()
    cpu0 = _cpu_time()
    try:
        result = _solve(game, _class_budget(time_limit), max_states, max_table)
        return result._replace(cpu_seconds=_cpu_time() - cpu0)
    finally:
        if collecting:
            gc.enable()


def _check_request(game: Game) -> None:
    """Refuse (Spanish ValueError) what is not a game, or a position no deal could reach and
    that the searches would misread: a card more often than the decks hold it, foundations
    that are not legal sequences, face-down counts outside their piles."""
    if not isinstance(game, Game):
        raise ValueError(f"El resolvedor necesita una partida (Game), no {shown(game)}")
    decks = game.definition.decks
    counts = [0] * 52
    for pile in game._piles:
        for c in pile:
            counts[c.id] += 1
    extra = [CARDS[i].code for i, n in enumerate(counts) if n > decks]
    if extra:
        raise ValueError(f"Posición imposible: {' '.join(extra)} aparece más veces de las que tiene la baraja")
    if any(not 0 <= f <= len(p) for f, p in zip(game._fd, game._piles, strict=True)):
        raise ValueError("Posición imposible: hay más cartas boca abajo que cartas en alguna pila")
    if sum(counts) == 52 * decks:
        game._validate_position()  # a whole deck: face-down cards only where play puts them
    else:
        game._validate_foundations()


def _solve(game: Game, time_limit: float | None, max_states: int | None, max_table: int) -> SolveResult:
    t0 = time.perf_counter()
    spec = _Spec(game)
    cap = -1 if max_states is None else max_states
    deadline = None if time_limit is None else t0 + time_limit
    states = 0
    if spec.takeback:
        # Phase 1: the same position with take-backs forbidden, a smaller game whose wins are
        # wins here too; its "lost" proves nothing here, so the complete search follows.
        cap1 = -1 if cap < 0 else cap // PHASE1_SHARE
        deadline1 = None if time_limit is None else t0 + time_limit / PHASE1_SHARE
        status, moves, states = _search(game, spec.without_takebacks(), deadline1, cap1, max_table)
        if status == "won":
            return SolveResult(status, moves, states, time.perf_counter() - t0)
        if cap >= 0:
            cap = max(cap - states, 0)
    status, moves, more = _search(game, spec, deadline, cap, max_table)
    return SolveResult(status, moves, states + more, time.perf_counter() - t0)


def _castle_portfolio(spec: _Spec, game: Game, deadline, cap: int, max_table: int) -> tuple[str, list, int]:
    """Beleaguered Castle and Citadel: the usual order alone for its first `CASTLE_ALONE`
    states, then (without automatic actions or take-backs) one turn of the probe
    (`_fast_probe`, at most `CASTLE_PROBE` states), then `CASTLE_SECOND` and the two
    depth-first searches (`CASTLE_DEPTH_FIRST`) join the usual order, the four taking turns
    of `CASTLE_TURNS` states (the last turn cut to what the budget leaves).  The four are
    complete; the probe only ever answers "won" or gives up.  The first verdict wins."""
    budget = _UNLIMITED if cap < 0 else cap

    def best_first(urgency: tuple[int, ...] | None):
        st = _Fast(spec, game)
        if urgency:
            st.urgency = urgency
        return _fast_search(st, deadline, max_table)

    # each search is set up when its first turn comes (most deals end in the first one)
    starts = [lambda: best_first(None), lambda: best_first(CASTLE_SECOND)]
    starts += [lambda o=o: _fast_dfs(_Fast(spec, game), deadline, max_table, o) for o in CASTLE_DEPTH_FIRST]
    turns = list(CASTLE_TURNS)
    if CASTLE_PROBE and not spec.autoplay and not spec.takeback:
        # the probe's one turn comes right after the usual order's first CASTLE_ALONE states
        starts.insert(1, lambda: _fast_probe(spec, game, deadline, max_table))
        turns.insert(1, CASTLE_PROBE)
    searches: list = [None] * len(starts)
    used = [0] * len(starts)
    running = list(range(len(starts)))
    turn = 0
    allowance = min(budget, CASTLE_ALONE)
    while running and sum(used) < budget:
        i = running[turn % len(running)]
        if searches[i] is None:
            searches[i] = starts[i]()
            next(searches[i])
        used[i], verdict = _advance(searches[i], used[i] + allowance)
        if verdict is not None:
            if verdict[0] != "unknown":
                _close(searches)
                return verdict[0], verdict[1], sum(used)
            running.remove(i)  # out of time or table; the others go on
        else:
            turn += 1
        if running:
            allowance = min(turns[running[turn % len(running)]], budget - sum(used))
    _close(searches)
    return "unknown", [], sum(used)


def _close(searches: list) -> None:
    for search in searches:
        if search is not None:
            search.close()


def _fast_portfolio(spec: _Spec, game: Game, deadline, cap: int, max_table: int) -> tuple[str, list, int]:
    """The fast searches: in the castles four searches taking turns (`_castle_portfolio`); in
    Baker's Dozen several one after another, each with its own "needed soon" weights and its
    share of the budget (`BAKERS_PORTFOLIO`).  Each is complete, so each may answer "won" or
    "lost"."""
    if spec.name != "bakers_dozen":
        return _castle_portfolio(spec, game, deadline, cap, max_table)
    phases = BAKERS_PORTFOLIO
    start = time.perf_counter()
    used = 0
    for k, (urgency, share) in enumerate(phases):
        last = k == len(phases) - 1
        # each search's share, never more than what the earlier ones left (so that
        # max_states is a hard cap even when a share rounds up to one state)
        cap_k = cap if cap < 0 else cap - used if last else min(max(1, int(cap * share)), cap - used)
        if cap_k == 0 and k:
            break
        deadline_k = deadline
        if deadline is not None and not last:
            deadline_k = min(deadline, time.perf_counter() + (deadline - start) * share)
        st = _Fast(spec, game)
        if urgency:
            st.urgency = urgency
        status, fline, states = _fast_best_first(st, deadline_k, cap_k, max_table)
        used += states
        if status != "unknown":
            return status, fline, used
    return "unknown", [], used


def _search(game: Game, spec: _Spec, deadline, cap: int, max_table: int) -> tuple[str, list[Move], int]:
    """Complete best-first search of `game` under `spec`'s rules (in Baker's Dozen, several
    in turn): verdict, engine moves of the winning line (already replayed to a win through
    the public engine), states examined."""
    moves: list[Move] = []
    if spec.fast:
        status, fline, states = _fast_portfolio(spec, game, deadline, cap, max_table)
        if status == "won":
            moves = _described_moves(game, spec, fline)
    else:
        st, back = _canonical_state(spec, game)
        status, line, states = _generic_best_first(st, deadline, cap, max_table)
        if status == "won":
            ids = spec.pile_ids
            moves = [Move(ids[back[si]], ids[back[di]], n) for si, di, n in line]
            _check_line(game, moves)
    return status, moves, states


def _canonical_state(spec: _Spec, game: Game) -> tuple[_State, list[int]]:
    """The compact state with interchangeable piles put in a canonical order (so the search,
    and a capped verdict, do not depend on how the piles happen to be numbered), and the map
    from the state's pile indices back to the game's."""
    st = _State(spec, game)
    back = list(range(len(st.p)))
    groups = ([spec.tab] if spec.symmetric else []) + [g for g in spec.fnd_groups if len(g) > 1]
    for grp in groups:
        enc = sorted(grp, key=lambda i: (bytes((st.fd[i],)) + bytes(st.p[i]), i))
        piles = [st.p[i] for i in enc]
        fds = [st.fd[i] for i in enc]
        for k, i in enumerate(grp):
            st.p[i] = piles[k]
            st.fd[i] = fds[k]
            back[i] = enc[k]
    return st, back


def _check_line(game: Game, moves: list[Move]) -> None:
    """Replay a winning line through the public engine; a failure is a solver bug."""
    g = game.copy()
    for m in moves:
        g.move(m)
    if not g.is_won():
        raise AssertionError(f"solver bug: the line found for {game.name} does not win")


def _enter(st: _State, line: list) -> list:
    """Play the safe moves (rule 3) available now; return them with their undo records."""
    out = []
    if not (st.sp.rule3 or st.sp.rule3b):
        return out
    while True:
        m = st.safe_move()
        if m is None:
            return out
        out.append((m, st.play(*m)))
        line.append(m)


# ---------------------------------------------------------------------- hints and texts
def hint(game: Game, time_limit: float | None = 1.0, max_states: int | None = None) -> Hint:
    """The first move of a winning line found within `time_limit` seconds and `max_states`
    states (proven), else a heuristic move: the solver's preferred legal move (not proven).
    The limits are checked as `solve` checks them."""
    result = solve(game, time_limit=time_limit, max_states=max_states)
    if result.status == "won" and result.moves:
        return Hint(result.moves[0], True, "won")
    spec = _Spec(game)
    st = _State(spec, game)
    ordered = _order(st, st.moves(True))
    if not ordered:
        return Hint(None, False, result.status, result.busy)
    si, di, n = ordered[0]
    return Hint(Move(spec.pile_ids[si], spec.pile_ids[di], n), False, result.status, result.busy)


def _stranded(game: Game) -> list:
    """Cards of a practice position outside the foundations that can never go home: no chain
    of the position's own cards leads from a foundation's top (or an empty foundation's first
    card) to them.  Reachability ignores every other rule, so the claim is safe."""
    present = {c.id for pid, pile in game.piles.items() if pid[0] != "F" for c in pile}
    reached: set[int] = set()
    for k, rule in enumerate(game.rules.foundations):
        follows = _tables_for(rule)
        pile = game.pile(f"F{k}")
        if pile:
            frontier = [i for i in follows[pile[-1].id] if i in present]
        else:
            frontier = [i for i in present if CARDS[i].rank == rule.base_rank and rule.start in ("any", "new_suit", CARDS[i].suit)]
        while frontier:
            i = frontier.pop()
            if i not in reached:
                reached.add(i)
                frontier += [j for j in follows[i] if j in present]
    return [CARDS[i] for i in sorted(present - reached)]


THOUGHTFUL = (
    " En Moving Left el resolvedor juega «con ventaja»: ve las cartas boca abajo y las del mazo, "
    "que el jugador no ve."
)


def _decimal(x: float) -> str:
    return f"{x:.1f}".replace(".", ",")


def busy_text(cpu_seconds: float, seconds: float) -> str:
    """The undecided verdict when the computer was busy (`SolveResult.busy`)."""
    return (
        f"Sin decidir: el ordenador estaba muy ocupado y el resolvedor solo ha podido pensar "
        f"{_decimal(cpu_seconds)} de los {_decimal(seconds)} segundos que ha esperado. "
        "Prueba otra vez dentro de un momento."
    )


BUSY_HINT = " El ordenador estaba muy ocupado: prueba otra vez dentro de un momento para una pista comprobada."


def verdict_text(result: SolveResult, game: Game) -> str:
    """The verdict as a Spanish sentence for a reader."""
    if result.status == "won":
        n = len(result.moves)
        if n == 0:
            text = "¡Ganada! Todas las cartas están ya en las bases."
        else:
            word = "movimiento" if n == 1 else "movimientos"
            text = f"Tiene solución: el resolvedor ha encontrado una forma de ganar en {n} {word}."
    elif result.status == "lost":
        head = "Ya no tiene solución" if game.moves_played else "No tiene solución"
        if game.is_practice:  # proved with the cards it has, not lost for the missing ones
            head += " con las cartas que tiene esta posición de práctica"
            stranded = _stranded(game)
            if stranded:
                names = [c.articulo for c in stranded[:3]] + (["otras"] if len(stranded) > 3 else [])
                who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " y " + names[-1]
                verb = "no llega" if len(names) == 1 else "no llegan"
                head += f" ({who} {verb} nunca a la base: falta una carta que va antes)"
        text = (
            f"{head}: el resolvedor ha recorrido todas las posiciones a las que se puede llegar "
            "y en ninguna se gana."
        )
    elif result.busy:
        text = busy_text(result.cpu_seconds or 0.0, result.seconds)
    else:
        text = (
            "Sin decidir: el resolvedor se ha detenido (por tiempo o por número de posiciones) "
            "antes de encontrar una solución o de demostrar que no la hay."
        )
    if game.name == "moving_left":
        text += THOUGHTFUL
    return text
