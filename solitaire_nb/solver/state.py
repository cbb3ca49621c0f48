"""What the searches know about a game (`_Spec`) and the generic position they search (`_State`).

`_Spec` flattens one game + variant into the data the searches read, from the game's public
surface (`Game.rules`, pile ids and kinds) and the rules' acceptance tables, and records
which pruning rules apply (the predicates of `pruning`, on the `Rules` data).

`_State` is a position as card-id lists plus face-down counts, with the engine's moves and
automatic actions (part of the move that causes them); every game can be searched on it.
Its move generator is tested to equal ``Game.legal_moves()`` on random positions of every
game and variant, successors included.  It also holds the generic state's pruning tests
(rules 3, 3b and 7; proofs in docs/solver.md, «Reglas de poda y sus demostraciones»).
"""

from __future__ import annotations

import copy
import dataclasses
from itertools import product

from ..engine import Game, Position, rule_table
from . import pruning, twodeck, twodeck_reserve
from .tables import _CLASS_KINGS, _CLASS_RANK, _RANK, _RED, _SUIT, _TWIN

# card id -> the lower id of it and its twin, as a `bytes.translate` table (rule 9)
_TWIN_BYTES = bytes(min(c, _TWIN[c]) for c in range(52)) + bytes(range(52, 256))

_RANK_CARDS = [[c for c in range(52) if _RANK[c] == r] for r in range(14)]


class _Spec:
    """Everything about one game + variant the search needs, as flat data."""

    def __init__(self, game: Game):
        self.rules = r = game.rules
        self.decks = game.definition.decks
        # a practice position is won when its cards are home: the search counts those, and
        # leaves out the fast searches and rule 7, which reason about the whole deck
        self.practice = game.is_practice
        self.total = game.total_cards if self.practice else 52 * self.decks
        # the engine's compiled rule data: pile layout and acceptance tables (one source)
        table = rule_table(r)
        self.pile_ids = table.pile_ids
        self.kind = list(table.kind)
        self.tab = list(table.tab)
        self.fnd = list(table.fnd)
        self.dests = self.tab + self.fnd
        self.r, self.s, self.w = table.r, table.s, table.w
        self.runs = r.tableau.runs
        self.takeback = r.takeback
        self.reserve_playable = r.reserve_playable
        self.refill = r.refill_from_reserve
        self.shift_left = r.shift_left
        self.autoplay = r.autoplay
        self.empty = r.tableau.empty  # "any", "king", "none", "reserve"
        self.tab_acc = table.tab_acc
        self.tab_ok = table.tab_ok
        self.fnd_rules = r.foundations
        self.fnd_tab = list(table.fnd_acc)
        self.fnd_dir = [f.direction for f in r.foundations]
        self.fnd_start = [f.start for f in r.foundations]
        self.fnd_base = [f.base_rank for f in r.foundations]
        self.fnd_same = [f.suits == "same" for f in r.foundations]
        # an autoplay that settles by pile order which card goes where makes every pile count
        order_free = pruning.autoplay_order_free(r, self.decks)
        # groups of interchangeable foundations (same rule, start not tied to a suit)
        groups: dict[tuple, list[int]] = {}
        for k, f in enumerate(r.foundations):
            tied = f.start not in ("any", "new_suit") or not order_free
            groups.setdefault((f, k if tied else -1), []).append(self.fnd[k])
        self.fnd_groups = list(groups.values())
        self.fnd_group_of = {fi: gi for gi, grp in enumerate(self.fnd_groups) for fi in grp}
        self.symmetric = not self.shift_left and order_free  # rule 1
        self.twins = pruning.twin_symmetric(r, self.decks)  # rule 9: keys name twins alike
        # the key keeps face-down counts where the tableau or a reserve hides cards
        self.has_fd = r.face_down_tableau or r.reserve
        self.fast = pruning.fast(r, self.decks, self.practice)
        self.two_deck = twodeck.applies(r, self.decks)  # Moving Left's family (`twodeck`)
        self.two_deck_reserve = twodeck_reserve.applies(r, self.decks)  # Chequers' (`twodeck_reserve`)
        self.rollouts = r.face_down_tableau  # the player's rollouts first (`rollouts`)
        self.alt_fnd = pruning.alt_foundations(r)
        self.king_dead_ends = pruning.king_dead_ends(r, self.decks, self.practice)  # rule 7
        # holes that take any card: the castles' portfolio, else Baker's Dozen's (`portfolio`)
        self.castle_portfolio = self.fast and self.empty == "any"
        self.macro = pruning.macro_runs(r, self.decks, self.practice)  # rule 10: runs as one step
        self.auto_home = ""  # a streamliner's game: which cards go home at once (`streamlined`)
        self._set_takeback(self.takeback)

    def _set_takeback(self, takeback: bool) -> None:
        self.takeback = takeback
        r, decks = self.rules, self.decks
        # the streamliner first where take-backs are allowed on the generic state (`api._solve`)
        self.streamline = takeback and not (self.fast or self.two_deck or self.two_deck_reserve or self.rollouts)
        self.rule3 = pruning.rule3(r, decks, takeback)
        self.rule3b = pruning.rule3b(r, decks, takeback)
        self.dead_ends = pruning.dead_ends(r, decks, self.practice, takeback)  # rules 6 and 8
        self.hole_dead_ends = pruning.hole_dead_ends(r, decks, self.practice, takeback)  # rule 8b
        # the castles' probe plays coarser moves: only where nothing is automatic or comes back
        self.probe = self.castle_portfolio and not self.autoplay and not takeback
        # the castles' streamliners: only where the game itself forbids take-backs (`portfolio`)
        self.castle_streamline = self.castle_portfolio and not takeback and not r.takeback
        # alternate-colour foundations without take-backs are keyed by what they accept
        # (height and top colour), since no card below a top can ever matter again
        self.fnd_by_height = self.alt_fnd and not takeback

    def without_takebacks(self) -> _Spec:
        """The same game with take-backs forbidden: a restriction, so its wins are wins of
        this game too (the first phase of `solve`)."""
        other = copy.copy(self)
        other._set_takeback(False)
        return other

    def streamlined(self, home: str = "all") -> _Spec:
        """A streamliner's game: take-backs forbidden and, after every move, cards sent home at
        once (`_State.safe_move`): with `home` "all" every card that can go home; with "twin"
        the Aces, the twos and every card whose twin (same rank and colour) is home.  A
        restriction of this game (every forced move is a legal move), so its wins are wins
        here; its "lost" proves nothing."""
        other = self.without_takebacks()
        other.auto_home = home
        return other


class _State(Position):
    """The engine's `Position` (its one implementation of legality and play) with what the
    search adds: equivalent destinations merged (rule 2), the canonical key (rule 1), safe
    moves (rules 3 and 3b) and Scotch's dead ends (rule 7)."""

    def __init__(self, spec: _Spec, game: Game):
        c = game.compact()
        rules = game.rules
        if spec.takeback != rules.takeback:  # the first phase: take-backs forbidden
            rules = dataclasses.replace(rules, takeback=spec.takeback)
        super().__init__(rule_table(rules), c.p, c.fd)
        self.sp = spec
        self._dead_cache: dict[bytes, bool] = {}  # rule 7, by foundations (see `dead`)

    def fnd_accepts(self, fi: int, cid: int) -> bool:
        return self.accepts(fi, cid)

    def _foundation_for(self, cid: int) -> int:
        return self.foundation_for(cid)

    def moves(self, dedup: bool = False) -> list[tuple[int, int, int]]:
        """Every legal move as (src index, dst index, count), in the engine's order.  With
        `dedup`, only the first of several equivalent empty destinations (pruning rule 2):
        one empty tableau pile where piles are interchangeable, one empty foundation of each
        group of interchangeable foundations."""
        out = Position.moves(self)
        if not dedup:
            return out
        sp = self.sp
        p = self.p
        kind = sp.kind
        kept = []
        seen = set()
        for m in out:
            s, d, n = m
            if not p[d]:
                if kind[d] == "T":
                    if sp.symmetric:
                        k = (s, n, -1)
                        if k in seen:
                            continue
                        seen.add(k)
                elif kind[d] == "F":
                    k = (s, n, sp.fnd_group_of[d])
                    if k in seen:
                        continue
                    seen.add(k)
            kept.append(m)
        return kept

    # ---------------------------------------------------------------- queries
    def foundation_count(self) -> int:
        return sum(len(self.p[fi]) for fi in self.sp.fnd)

    def key(self) -> bytes:
        """The canonical key (pruning rules 1 and 9)."""
        sp = self.sp
        p, fd = self.p, self.fd
        tr = _TWIN_BYTES if sp.twins else None
        if sp.has_fd:
            tabs = [bytes((fd[t],)) + bytes(p[t]).translate(tr) for t in sp.tab]
        else:
            tabs = [bytes(p[t]).translate(tr) for t in sp.tab]
        if sp.symmetric:
            tabs.sort()
        parts = [b"\xff".join(tabs)]
        for grp in sp.fnd_groups:
            j = grp[0] - sp.fnd[0]
            if len(grp) == 1 and sp.fnd_same[j] and sp.fnd_start[j] not in ("any", "new_suit"):
                # tied to a suit and building by suit: its height says which cards it holds
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
                    enc.append(bytes(q).translate(tr))
            enc.sort()
            parts.append(b"\xfe".join(enc))
        if sp.r >= 0:
            parts.append(bytes((len(p[sp.r]),)))
        if sp.s >= 0:
            parts.append(bytes((len(p[sp.s]),)))
            parts.append(bytes(p[sp.w]))
        return b"\xfd".join(parts)

    def safe_move(self) -> tuple[int, int, int] | None:
        """A move to a foundation that pruning rule 3 (or 3b) proves safe, or None; in the
        streamliner's game (`_Spec.streamlined`), the first legal move home of a card it sends."""
        sp = self.sp
        p = self.p
        if sp.auto_home:
            kind = sp.kind
            every = sp.auto_home == "all"
            home = set() if every else {x for fi in sp.fnd for x in p[fi]}
            for s, d, n in Position.moves(self):
                if kind[d] == "F" and kind[s] != "F":
                    c = p[s][-1]
                    if every or _RANK[c] <= 2 or _TWIN[c] in home:
                        return (s, d, n)
            return None
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
        the fans leave them in some order (proof: docs/solver.md#poda-7).  The cards under a King
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
        card of rank r-1 and every card the tableau rule lets lie on c are home (in Scotch,
        the same cards) and either c is an Ace, its twin (same rank and colour) is home, or
        two foundations accept it."""
        sp = self.sp
        p = self.p
        on_fnd = {x for fi in sp.fnd for x in p[fi]}
        for ti in sp.tab:
            q = p[ti]
            if not q:
                continue
            c = q[-1]
            r = _RANK[c]
            if r > 1 and any(x not in on_fnd for x in _RANK_CARDS[r - 1]):
                continue  # a foundation may still be below c's predecessor's height
            if any(x not in on_fnd for x in sp.tab_acc[c]):
                continue  # a card that may lie on c is still in play
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


