"""The vocabulary games are declared in: pile rules as data, plus a game definition.

A game module fills in a `GameDef`; its `configure` hook turns the variant flags into a
`Rules` value (pure data), and its `deal` hook lays out a deal order.  The engine reads only
these values, so a variant is a flag that changes data, never a subclass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import CARDS, Card, same_rank_ids
from .checks import shown

ALL = None
"""Marker for "any card" in an accept table (an empty pile anything may fill)."""


@dataclass(frozen=True)
class TableauRule:
    """How tableau piles build.

    build: "down" (one rank lower) or "updown" (one rank higher or lower).
    suits: "any", "same", "alt" (other colour) or "different" (another suit).
    wrap: a King goes on an Ace and an Ace on a King (updown only).
    runs: a run that follows the build rule moves as a unit (else one card at a time).
    empty: what fills an empty pile: "any", "king", "none", or "reserve" (refilled from the
        reserve at once; any card once the reserve is empty).
    """

    build: str = "down"
    suits: str = "any"
    wrap: bool = False
    runs: bool = False
    empty: str = "any"

    def accepts_table(self) -> tuple[tuple[int, ...], ...]:
        """For each top card id, the ids of the cards this rule lets go on it."""
        return tuple(self._accepted_on(top) for top in CARDS)

    def _accepted_on(self, top: Card) -> tuple[int, ...]:
        ranks = [top.rank - 1]
        if self.build == "updown":
            ranks.append(top.rank + 1)
        if self.wrap:
            ranks = [13 if r == 0 else 1 if r == 14 else r for r in ranks]
        out = []
        for r in ranks:
            if not 1 <= r <= 13:
                continue
            for cid in same_rank_ids(r):
                if _suit_fits(self.suits, top, CARDS[cid]):
                    out.append(cid)
        return tuple(out)

    def fits_run(self, lower: Card, upper: Card) -> bool:
        """Whether `upper` may lie on `lower` inside a movable run."""
        return upper.id in self._accepted_on(lower)


@dataclass(frozen=True)
class FoundationRule:
    """How one foundation builds.

    direction: "up" (Ace to King) or "down" (King to Ace).
    suits: "same" (by suit) or "alt" (alternating colours, any suit of the other colour).
    start: which card an empty foundation takes: "any" (any Ace, or any King going down),
        "new_suit" (one of a suit that has no foundation of this direction yet), or a suit
        code ("S", "H", …) for a foundation tied to that suit's Ace.
    """

    direction: str = "up"
    suits: str = "same"
    start: str = "any"

    @property
    def base_rank(self) -> int:
        return 1 if self.direction == "up" else 13

    def accepts_table(self) -> tuple[tuple[int, ...], ...]:
        """For each top card id, the ids of the cards that may follow it on this foundation."""
        step = 1 if self.direction == "up" else -1
        table: list[tuple[int, ...]] = []
        for top in CARDS:
            r = top.rank + step
            if not 1 <= r <= 13:
                table.append(())
                continue
            if self.suits == "same":
                table.append((Card(r, top.suit).id,))
            else:
                table.append(tuple(cid for cid in same_rank_ids(r) if CARDS[cid].color != top.color))
        return tuple(table)


def _suit_fits(rule: str, lower: Card, upper: Card) -> bool:
    if rule == "any":
        return True
    if rule == "same":
        return lower.suit == upper.suit
    if rule == "alt":
        return lower.color != upper.color
    if rule == "different":
        return lower.suit != upper.suit
    raise ValueError(f"unknown suit rule {rule!r}")


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to play one game under one set of variant flags."""

    tableau_count: int
    tableau: TableauRule
    foundations: tuple[FoundationRule, ...]
    reserve: bool = False
    stock: bool = False
    waste: bool = False
    takeback: bool = True
    reserve_playable: bool = True
    # Automatic actions that follow every move, in order.  "turn_up" always runs.
    refill_from_reserve: bool = False
    shift_left: bool = False
    autoplay: bool = False
    deal_to_foundations: bool = False
    # Tableau piles may hold face-down cards (dealt face down, turned up when uncovered).
    face_down_tableau: bool = False
    # The layout of a one-deck open game's deal (solitaire_nb/study/family.py), in this order: the
    # Aces go out (`aces_out`), the other cards are dealt round after round (`deal_rows`, with
    # `deal_to_foundations`), each pile's Kings go to its bottom (`kings_to_bottom`), then the
    # autoplay.  deal_rows: how many piles each round reaches, from T0 rightwards (Scotch:
    # 17, 17, 18); None, or rounds past the last listed, reach all `tableau_count` piles;
    # the deal stops when the cards run out.
    deal_rows: tuple[int, ...] | None = None
    # The four Aces start on the foundations before the deal, one per foundation in foundation
    # order (a foundation tied to a suit gets that suit's Ace; the others ♠ ♥ ♦ ♣ in turn).
    aces_out: bool = False
    # After the deal each pile's Kings move to its bottom, keeping their order and the others'.
    kings_to_bottom: bool = False

    @property
    def hides_cards(self) -> bool:
        """Whether some cards lie face down (tableau, reserve or stock): a player does not
        see them, and a solver that reads the whole position does."""
        return self.face_down_tableau or self.reserve or self.stock


@dataclass(frozen=True)
class Variant:
    """A variant flag: its default and a Spanish sentence saying what True/False changes."""

    default: bool
    descripcion: str


@dataclass
class Layout:
    """What a deal hook returns: cards per pile (bottom to top) and face-down counts."""

    piles: dict[str, list[Card]]
    face_down: dict[str, int] = field(default_factory=dict)
    to_foundations: list[Card] = field(default_factory=list)
    meant_for: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RuleIds:
    """The ids (in docs/reglas.md) of the rules a game's refused moves cite, one per kind of
    refusal.  A game fills in those its refusals can reach; the defaults are the ones an
    unlisted game has always cited."""

    foundation: str = "CB-3"
    """A foundation refuses a card (its build rule), or a run sent to a foundation."""
    tableau: str = "CB-4"
    """A tableau pile refuses a card (its build rule)."""
    one_card: str = "CB-4"
    """More than one card where only one card moves at a time."""
    takeback: str = "CB-6"
    """A card taken off a foundation where take-backs are not allowed."""
    empty_none: str = "BD-5"
    """A card sent to a hole that stays empty."""
    empty_king: str = "BD-5"
    """A card other than a King (or a run headed by one) sent to a hole."""
    empty_reserve: str = "CH-5"
    """A card sent to a hole the reserve refills."""
    stock: str = "ML-7"
    """The stock only turns one card onto the waste; nothing goes onto the stock or waste."""
    reserve: str = "CH-1"
    """Nothing goes onto the reserve."""
    reserve_play: str = "CH-7"
    """The reserve's top played by hand where the reserve only refills holes."""
    runs: str = "ML-4"
    """A group of cards that is not a movable run."""
    face_down: str = "ML-6"
    """A face-down card moved."""


@dataclass(frozen=True)
class GameDef:
    """A game as data: names, sizes, flags, Spanish texts, and two hooks."""

    name: str
    display_name: str
    decks: int
    variants: Mapping[str, Variant]
    configure: Callable[[Mapping[str, bool]], Rules]
    deal: Callable[[list[Card], Rules], Layout]
    rules: Mapping[str, str]
    tableau_builds: str
    empty_pile: str
    automatic: str
    tableau_label: str = "Tablero"
    summary: str = ""
    rule_ids: RuleIds = RuleIds()
    """The rule ids the engine's refusals cite for this game."""
    reports_deal: bool = False
    """Whether the deal may do more than lay out cards (send cards home, autoplay), so that
    `Game.deal_report` says what it did; the engine also reports whenever the variant's
    rules send cards home during the deal or autoplay."""
    spec: Mapping[str, Any] | None = None
    """A game composed with `custom`: {"like": base game, "changes": {change: value}}, plain
    JSON data that rebuilds it (`custom.from_spec`); None for a built-in game."""

    @property
    def defaults(self) -> dict[str, bool]:
        return {k: v.default for k, v in self.variants.items()}

    def rules_for(self, variant: Mapping[str, bool] | None = None) -> Rules:
        return self.configure(self.resolve_variant(variant or {}))

    def resolve_variant(self, given: Mapping[str, object]) -> dict[str, bool]:
        unknown = sorted(set(given) - set(self.variants))
        if unknown:
            known = ", ".join(self.variants) or "ninguna"
            raise ValueError(
                f"{self.display_name} no tiene la variante {', '.join(map(repr, unknown))} "
                f"(variantes: {known})"
            )
        flags = self.defaults
        for key, value in given.items():
            if not isinstance(value, bool):
                raise ValueError(f"La variante {shown(key)} debe ser True o False, no {shown(value)}")
            flags[key] = value
        return flags

    @property
    def pile_counts(self) -> dict[str, int]:
        r = self.rules_for()
        return {
            "tablero": r.tableau_count,
            "base": len(r.foundations),
            "reserva": int(r.reserve),
            "mazo": int(r.stock),
            "descarte": int(r.waste),
        }

    @property
    def cards(self) -> int:
        return 52 * self.decks
