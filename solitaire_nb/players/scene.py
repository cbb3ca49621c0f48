"""What a player sees at one moment, as the heuristic player reads it (`solitaire_nb.players.heuristic`).

`Scene` is built from `Game.player_view` (face-up cards, None for each face-down one) and the
game's rules as data, never from the piles themselves: the face-up cards, the face-down
counts, what the foundations take now, and the visible position a move leads to.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence
from typing import Any

from ..core.cards import CARDS, Card, same_rank_ids
from ..core.moves import Move

ViewKey = tuple
"""A visible position: each pile's cards, None for a face-down one, in pile order."""


class Table:
    """What does not change during a game: the piles' kinds and the rules' tables."""

    def __init__(self, game: Any):
        self.rules = game.rules
        self.order = tuple(game.pile_ids)
        self.decks = game.definition.decks
        self.kind = {p: game.pile_kind(p) for p in self.order}
        self.tab = game.tableau_ids
        self.fnd = game.foundation_ids
        self.tab_table = _tableau_table(self.rules)
        self.fnd_tables = {f: _foundation_table(r) for f, r in zip(self.fnd, self.rules.foundations, strict=True)}
        self.bases = {r.base_rank for r in self.rules.foundations}  # these go home at once


class Scene:
    """One decision's view of the table: face-up cards, face-down counts and what the
    foundations take, all built from `Game.player_view` and the rules (no hidden card)."""

    def __init__(self, game: Any, table: Table | None = None):
        view = game.player_view()
        self.piles: dict[str, tuple[Card | None, ...]] = view.piles
        t = self.table = table if table is not None and table.rules is game.rules else Table(game)
        self.order, self.rules, self.decks, self.kind = t.order, t.rules, t.decks, t.kind
        self.tab, self.fnd, self.tab_table, self.bases = t.tab, t.fnd, t.tab_table, t.bases
        self.fnd_tables = t.fnd_tables
        self.fd = {p: _hidden(c) for p, c in self.piles.items()}
        self.home = Counter(c for f in self.fnd for c in self.piles[f])
        self.wants = self._foundation_wants()
        self._free: list[Card] | None = None

    def _foundation_wants(self) -> set[int]:
        """Card ids some foundation takes now (from the foundation rules as data)."""
        out: set[int] = set()
        started: dict[str, set[str]] = {}
        for f, rule in zip(self.fnd, self.rules.foundations, strict=True):
            base = self.piles[f][0] if self.piles[f] else None  # a foundation shows all its cards
            if base is not None:
                started.setdefault(rule.direction, set()).add(base.suit)
        for f, rule in zip(self.fnd, self.rules.foundations, strict=True):
            p = self.piles[f]
            top = p[-1] if p else None
            if top is not None:
                out.update(self.fnd_tables[f][top.id])
            elif rule.start == "any":
                out.update(same_rank_ids(rule.base_rank))
            elif rule.start == "new_suit":
                taken = started.get(rule.direction, set())
                out.update(i for i in same_rank_ids(rule.base_rank) if CARDS[i].suit not in taken)
            else:
                out.add(Card(rule.base_rank, rule.start).id)
        return out

    def top(self, pid: str) -> Card | None:
        p = self.piles.get(pid, ())
        return p[-1] if p else None

    def safe_home(self, card: Card) -> bool:
        """Whether no card that could be built on `card` in the tableau is still in play."""
        return all(self.home[CARDS[i]] >= self.decks or CARDS[i].rank in self.bases for i in self.tab_table[card.id])

    def wanted_depth(self, pid: str) -> int | None:
        """How many cards lie on the highest face-up card of `pid` a foundation takes now."""
        p = self.piles[pid]
        for k in range(1, len(p) - self.fd[pid] + 1):
            c = p[-k]  # face up: never None
            if c is not None and c.id in self.wants:
                return k - 1
        return None

    def uncovers_next(self, card: Card, *skip: str) -> bool:
        """Whether `card`, once on top, takes the whole face-up part of another pile that
        lies on face-down cards (so the next move turns one up)."""
        takes = self.tab_table[card.id]
        for t in self.tab:
            if t in skip:
                continue
            p = self.piles[t]
            fd = self.fd[t]
            c = p[fd] if fd and len(p) > fd else None  # the lowest face-up card above face-down ones
            if c is not None and c.id in takes and is_run(p[fd:], self.tab_table):
                return True
        return False

    def free_cards(self) -> list[Card]:
        """The waste's and the (playable) reserve's top cards."""
        if self._free is not None:
            return self._free
        out = self._free = []
        for pid in ("W", "R"):
            c = self.top(pid)
            if c is not None and (pid != "R" or self.rules.reserve_playable):
                out.append(c)
        return out

    def king_waiting(self) -> bool:
        """A card that only a hole takes waits for one (Moving Left: a King heading a
        sequence above other cards, or on the waste)."""
        tops = {self.top("W")} if "W" in self.piles else set()
        for t in self.tab:
            p = self.piles[t]
            up = len(p) - self.fd[t]
            for k in range(1, up + 1):
                c = p[-k]
                if k < len(p) and c is not None and c.rank == 13 and is_run(p[-k:], self.tab_table):
                    return True
        return any(c is not None and c.rank == 13 for c in tops)

    def key_after(self, move: Move) -> ViewKey | None:
        """The visible position after `move`, or None when it turns a face-down card up or
        takes one from the stock or the reserve (a position with fewer hidden cards is new)."""
        src, dst, n = move
        if self.kind[src] == "S":
            return None
        piles = dict(self.piles)
        moved = piles[src][-n:]
        piles[src] = piles[src][:-n]
        piles[dst] = piles[dst] + moved
        if piles[src] and piles[src][-1] is None:
            return None  # turns up a face-down card
        if self.kind[src] == "T" and not piles[src]:
            if self.rules.refill_from_reserve and piles.get("R"):
                return None  # the reserve refills the hole and shows its next card
            if self.rules.shift_left:
                tab = list(self.tab)
                pos = tab.index(src)
                while pos + 1 < len(tab):
                    right = piles[tab[pos + 1]]
                    up = len(right) - _hidden(right)
                    if up <= 0:
                        break
                    piles[tab[pos]] = right[-up:]
                    piles[tab[pos + 1]] = right[:-up]
                    if piles[tab[pos + 1]]:
                        return None  # the pile on the right shows a face-down card
                    pos += 1
        return tuple(piles[p] for p in self.order)

    def progress(self) -> tuple[int, ...]:
        """Cards home, cards still hidden, cards in the waste and the reserve."""
        hidden = sum(self.fd.values())
        home = sum(len(self.piles[f]) for f in self.fnd)
        return home, hidden, len(self.piles.get("W", ())), len(self.piles.get("R", ()))

    @property
    def key(self) -> ViewKey:
        return tuple(self.piles[p] for p in self.order)


def _hidden(cards: tuple[Card | None, ...]) -> int:
    n = 0
    for c in cards:
        if c is not None:
            break
        n += 1
    return n


def is_run(cards: tuple[Card | None, ...], table: Sequence[Container[int]]) -> bool:
    return all(b is not None and a is not None and b.id in table[a.id] for a, b in zip(cards, cards[1:], strict=False))


_TABLES: dict[Any, Any] = {}


def _tableau_table(rules: Any) -> tuple[frozenset[int], ...]:
    key = ("T", rules.tableau)
    if key not in _TABLES:
        _TABLES[key] = tuple(frozenset(t) for t in rules.tableau.accepts_table())
    return _TABLES[key]


def _foundation_table(rule: Any) -> tuple[tuple[int, ...], ...]:
    key = ("F", rule)
    if key not in _TABLES:
        _TABLES[key] = rule.accepts_table()
    return _TABLES[key]
