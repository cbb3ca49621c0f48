"""Playing cards as small interned value types.

Every card of a deck exists once as a `Card` object (two-deck games use the same object for
both copies: the rules document (docs/reglas.md) says the copies are equal for every rule), so cards compare by identity
and hash cheaply.  A card's text forms round-trip: ``Card.parse(card.code) is card``.
"""

from __future__ import annotations

from .checks import shown

RANK_CODES = "A23456789TJQK"
SUIT_CODES = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "picas", "H": "corazones", "D": "diamantes", "C": "tréboles"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
RED_SUITS = frozenset("HD")


def rank_name(rank: int) -> str:
    """Spanish name of a rank as it appears in a card's name ("As", "7", "10", "Q")."""
    if rank == 1:
        return "As"
    if rank <= 10:
        return str(rank)
    return "JQK"[rank - 11]


class Card:
    """One card.  Build it with `Card.parse` or `Card(rank, suit)`; both return the shared object."""

    __slots__ = ("rank", "suit", "id", "code", "is_red", "color", "_text", "nombre")

    rank: int
    suit: str
    id: int
    code: str
    is_red: bool
    color: int
    _text: str
    nombre: str

    def __new__(cls, rank: int, suit: str) -> Card:
        try:
            return _BY_RANK_SUIT[(rank, suit)]
        except (KeyError, TypeError):
            raise ValueError(f"No existe la carta de rango {shown(rank)} y palo {shown(suit)}") from None

    @classmethod
    def _make(cls, rank: int, suit: str) -> Card:
        card = object.__new__(cls)
        card.rank = rank
        card.suit = suit
        card.id = SUIT_CODES.index(suit) * 13 + rank - 1
        card.code = RANK_CODES[rank - 1] + suit
        card.is_red = suit in RED_SUITS
        card.color = 1 if card.is_red else 0
        card._text = ("10" if rank == 10 else RANK_CODES[rank - 1]) + SUIT_SYMBOLS[suit]
        card.nombre = f"{rank_name(rank)} de {SUIT_NAMES[suit]}"
        return card

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read ``"QS"``, ``"10H"``, ``"TH"``, ``"10♥"`` or ``"q♠"``; raise ValueError otherwise."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ValueError(f"Código de carta no válido: {shown(text)} (se espera un texto como 'QS' o '10♥')")
        card = _PARSE_CACHE.get(text)
        if card is None:
            card = _parse_uncached(text)
            if len(text) <= 3 and text == text.strip():
                # only tight spellings ("QS", "10♥", "q♠"): a finite set, so the cache is
                # bounded however much padded or refused text goes through here
                _PARSE_CACHE[text] = card
        return card

    @property
    def articulo(self) -> str:
        """The card's name with its article, as a sentence uses it: "el 7 de picas", "la Q de picas"."""
        return ("la " if self.rank > 10 else "el ") + self.nombre

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card('{self.code}')"

    def __reduce__(self):
        return (Card.parse, (self.code,))

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo) -> Card:
        return self


def _parse_uncached(text: str) -> Card:
    raw = text.strip()
    # only ASCII codes and the four symbols: str.upper() would turn "ſ" into "S"
    if not 2 <= len(raw) <= 3 or not all(ch.isascii() or ch in _SYMBOL_TO_SUIT for ch in raw):
        raise ValueError(f"Código de carta no válido: {shown(text)} (se espera un texto como 'QS' o '10♥')")
    raw = raw.upper()
    if not 2 <= len(raw) <= 3:
        raise ValueError(f"Código de carta no válido: {shown(text)} (se espera un texto como 'QS' o '10♥')")
    rank_part, suit_part = raw[:-1], raw[-1]
    suit = _SYMBOL_TO_SUIT.get(suit_part, suit_part)
    if rank_part == "10":
        rank_part = "T"
    if suit not in SUIT_CODES or len(rank_part) != 1 or rank_part not in RANK_CODES:
        raise ValueError(f"Código de carta no válido: {shown(text)} (se espera un texto como 'QS' o '10♥')")
    return _BY_RANK_SUIT[(RANK_CODES.index(rank_part) + 1, suit)]


CARDS: tuple[Card, ...] = tuple(Card._make(r, s) for s in SUIT_CODES for r in range(1, 14))
"""The 52 cards in new-deck order (♠ A…K, ♥ A…K, ♦ A…K, ♣ A…K); ``CARDS[card.id] is card``."""

_BY_RANK_SUIT = {(c.rank, c.suit): c for c in CARDS}
_PARSE_CACHE: dict[str, Card] = {}


def new_deck(decks: int = 1) -> list[Card]:
    """The cards of `decks` decks in new-deck order, deck after deck."""
    return list(CARDS) * decks


def same_rank_ids(rank: int) -> tuple[int, ...]:
    """Ids of the four cards of a rank, in suit order."""
    return tuple(s * 13 + rank - 1 for s in range(4))
