"""How the exercises read the cards a reader types: as the board shows them («5♠», «10♥», «Q♠»),
by their Spanish name («5 de picas», «el cinco de picas», «la reina de corazones», «As de
tréboles»), or by their code («5S»), several in one answer («5♠ y el 2 de corazones»).  What is
not a card is refused in one plain Spanish sentence naming it, never with a code word.
"""

from __future__ import annotations

import re
import unicodedata

from ..core.cards import SUIT_SYMBOLS, Card
from ..core.checks import shown

_RANKS = {
    "as": 1, "a": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
    "ocho": 8, "nueve": 9, "diez": 10, "t": 10, "j": 11, "jota": 11, "sota": 11, "q": 12, "reina": 12,
    "dama": 12, "k": 13, "rey": 13, **{str(n): n for n in range(2, 11)},
}
_SUITS = {"pica": "S", "corazon": "H", "diamante": "D", "trebol": "C"}
_SUIT_OF_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_SUIT_OF_LETTER = {"s": "S", "h": "H", "d": "D", "c": "C"}
_RANK = "|".join(sorted(_RANKS, key=len, reverse=True))
_CARD = re.compile(
    rf"(?P<rank>{_RANK})\s*(?:de\s+(?:las?\s+|los\s+)?)?(?P<name>pica|corazon|diamante|trebol)(?:e?s)?\b"
    rf"|(?P<srank>{_RANK})\s*(?P<symbol>[♠♥♦♣])"
    rf"|(?P<crank>10|[2-9atjqk])(?P<letter>[shdc])\b"  # a code: «reinas» is no «reina» of picas
)
_FILLER = re.compile(r"(?:el|la|los|las|un|una|y|e|o|u|carta|cartas)\b|[\s,;:.\[\]\"'()«»/+-]+")
_RANK_ALONE = re.compile(rf"(?:{_RANK})\b")


CARDS_EXAMPLE = ("Escribe cada carta como en el tablero, con su valor y su palo (♠, ♥, ♦ o ♣), o con su "
                 "nombre, por ejemplo «8 de diamantes».")
"""How a card is written, in a refusal: the example is no exercise's answer (tests/test_ejercicios.py)."""


def _plain(text: str) -> str:
    """Lower case, accents off, one character for each of `text` (so a position in it is one in
    `text`); variation selectors («♠️») become spaces."""
    out = []
    for ch in text:
        kept = [c for c in unicodedata.normalize("NFD", ch.lower()) if not unicodedata.combining(c)]
        out.append(" " if not kept or ch in "\ufe0e\ufe0f" else kept[0])
    return "".join(out)


def read_cards(text: str) -> list[Card]:
    """The cards named in `text`, in the order named; a Spanish ValueError naming the first part
    that is not a card («5» without its suit, «pica» without a rank, a word)."""
    plain, cards, at = _plain(text), [], _past_filler(_plain(text), 0)
    while at < len(plain):
        found = _CARD.match(plain, at)
        if found is None:
            word = re.match(r"[^\s,;]+", plain[at:])
            part = text[at: at + (word.end() if word else 1)]
            suit = _suit_after(plain, at + len(part)) if _RANK_ALONE.fullmatch(_plain(part)) else None
            if suit is not None:  # «7 y 6 de corazones»: the suit named once, for both
                cards.append(Card.parse(f"{'A23456789TJQK'[_RANKS[_plain(part)] - 1]}{suit}"))
                at = _past_filler(plain, at + len(part))
                continue
            if _RANK_ALONE.fullmatch(_plain(part)):
                # no example card here: any one could be the answer of the exercise being asked
                raise ValueError(f"a «{shown(part, raw=True)}» le falta el palo: añade su nombre (de picas, "
                                 "de corazones, de diamantes o de tréboles) o su símbolo (♠, ♥, ♦ o ♣).")
            raise ValueError(f"«{shown(part, raw=True)}» no es una carta. {CARDS_EXAMPLE}")
        rank = _RANKS[found["rank"] or found["srank"] or found["crank"]]
        cards.append(Card.parse(f"{'A23456789TJQK'[rank - 1]}{_suit_of(found)}"))
        at = _past_filler(plain, found.end())
    return cards


def _past_filler(plain: str, at: int) -> int:
    """`at` moved past the words and signs between cards («y», «el», commas)."""
    while (filler := _FILLER.match(plain, at)) and filler.end() > at:
        at = filler.end()
    return at


def _suit_of(found: re.Match) -> str:
    """The suit letter of a card `_CARD` matched, named, drawn or coded."""
    if found["name"]:
        return _SUITS[found["name"]]
    return _SUIT_OF_SYMBOL[found["symbol"]] if found["symbol"] else _SUIT_OF_LETTER[found["letter"]]


def _suit_after(plain: str, at: int) -> str | None:
    """The suit of the next card named with one after `at`, past other ranks alone («7 y 6 de
    corazones», «5, 6 y 7 de picas»); None when the next card named has none."""
    at = _past_filler(plain, at)
    while at < len(plain):
        found = _CARD.match(plain, at)
        if found is not None:
            return _suit_of(found)
        alone = _RANK_ALONE.match(plain, at)
        if alone is None:
            return None
        at = _past_filler(plain, alone.end())
    return None


_NONE = re.compile(r"(?:no\s+(?:puede\s+ir\s+|va\s+|vale\s+)?)?(?:ninguna|ninguno|ningun|nada)\b.*")
_ALL = re.compile(r"(?:todas|todos|todas\s+las\s+cartas|cualquiera|cualquier\s+carta)\s*[.!]?")
_COLOUR = r"\s+(?:roj|negr)[oa]s?"
_WORD_RANK = "|".join(sorted((w for w in _RANKS if len(w) > 1 and not w.isdigit()), key=len, reverse=True))
_GROUP = re.compile(
    rf"(?:(?:cualquier|cualquiera|todos\s+los|todas\s+las|los|las|dos|cuatro|ocho)\s+(?:(?:dos|cuatro|ocho)\s+)?"
    rf"(?:{_RANK})(?:e?s)?(?:{_COLOUR})?"
    rf"|(?:{_RANK})(?:e?s)?{_COLOUR}"
    rf"|(?:{_WORD_RANK})e?s)\b"  # «reinas», «jotas», «ases»: a plural names every suit
)


def read_group(text: str) -> tuple[str, str] | None:
    """What an answer that names no single card says instead: ("none", …) for «ninguna» («no
    puede ir ninguna»), ("all", …) for «todas», ("group", part) for cards named as a group
    («cualquier 9», «los 9», «Q roja»), `part` as typed; None otherwise."""
    plain = _plain(text).strip()
    if _NONE.fullmatch(plain):
        return "none", text.strip()
    if _ALL.fullmatch(plain):
        return "all", text.strip()
    found = _GROUP.search(plain)
    if found:
        return "group", text[found.start(): found.end()]
    return None
