"""Spanish texts a reader sees: pile labels, lists of cards, and the sentences of refused moves.

Kept apart from the engine's logic so the wording lives in one place; nothing here decides
whether a move is legal.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARDS, SUIT_NAMES, Card, rank_name
from .rules import FoundationRule, TableauRule

FIXED_LABELS = {"R": "Reserva", "S": "Mazo", "W": "Descarte"}


def pile_label(pile_id: str, tableau_label: str = "Tablero") -> str:
    """ "T3" -> "Tablero 4", "F0" -> "Base 1", "R" -> "Reserva" (numbered from 1 for readers)."""
    if pile_id in FIXED_LABELS:
        return FIXED_LABELS[pile_id]
    kind, num = pile_id[0], int(pile_id[1:])
    return f"{tableau_label if kind == 'T' else 'Base'} {num + 1}"


def joined(items: Sequence[str], word: str = "y") -> str:
    """Items for a sentence: «a», «a y b», «a, b y c» (with `word` «o»: «a, b o c»)."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def card_list(ids: Sequence[int]) -> str:
    """Names a set of cards for a sentence: "el 7 de picas o el 9 de picas", "un 8 de cualquier palo"."""
    ids = list(ids)
    if not ids:
        return "ninguna carta"
    ranks = {CARDS[i].rank for i in ids}
    if len(ranks) == 1 and len(ids) == 4:
        r = ranks.pop()
        article = "una" if r > 10 else "un"
        return f"{article} {rank_name(r)} de cualquier palo"
    if len(ranks) == 1 and len(ids) == 2 and CARDS[ids[0]].color == CARDS[ids[1]].color:
        r = ranks.pop()
        colour = ("roj" if CARDS[ids[0]].is_red else "negr") + ("a" if r > 10 else "o")  # "una J roja"
        article = "una" if r > 10 else "un"
        return f"{article} {rank_name(r)} {colour}"
    names = [CARDS[i].articulo for i in ids]
    return joined(names, "o")


def tableau_rule_phrase(rule: TableauRule, where: str = "en el tablero", cards: Sequence[Card] | None = None) -> str:
    """How the tableau builds; a wrapping rule says so only when `cards` (the cards a sentence is
    about; None: the rule in general) hold a King or an Ace, the only cards the wrap concerns."""
    suits = {
        "any": "sin importar el palo",
        "same": "del mismo palo",
        "alt": "en colores alternos",
        "different": "con una carta de otro palo",
    }[rule.suits]
    if rule.build == "updown":
        text = f"{where} se construye hacia arriba o hacia abajo {suits}"
        if rule.wrap and (cards is None or any(c.rank in (1, 13) for c in cards)):
            text += ", y la secuencia da la vuelta (Rey sobre As y As sobre Rey)"
        return text
    return f"{where} se construye hacia abajo {suits}, una unidad menos"


def run_refusal(count: int, of_label: str, rule: TableauRule, where: str = "en el tablero",
                cards: Sequence[Card] | None = None) -> str:
    """Why the top `count` cards of a pile (`of_label`: "del Tablero 3"; `cards`, if given)
    cannot move together, citing the game's own tableau rule (a composed game's too)."""
    return (
        f"Las {count} cartas de arriba {of_label} no forman una secuencia que se pueda mover en "
        f"grupo: {tableau_rule_phrase(rule, where, cards)}."
    )


def foundation_rule_phrase(rule: FoundationRule) -> str:
    way = "hacia arriba" if rule.direction == "up" else "hacia abajo"
    suits = "por palo" if rule.suits == "same" else "en colores alternos"
    return f"la base se construye {way} {suits}"


def empty_foundation_phrase(rule: FoundationRule) -> str:
    first = "un As" if rule.direction == "up" else "un Rey"
    if rule.start == "any":
        return f"una base vacía solo admite {first}"
    if rule.start == "new_suit":
        goes, may_go = ("suben", "suba") if rule.direction == "up" else ("bajan", "baje")
        return f"una base vacía de las que {goes} solo admite {first} de un palo que aún no tenga una base que {may_go}"
    return f"esta base es la de {SUIT_NAMES[rule.start]}: vacía, solo admite el As de {SUIT_NAMES[rule.start]}"


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def of(phrase: str) -> str:
    """«de» before a noun phrase with its article, contracted as Spanish requires: «del 5 de
    corazones», «de la Q de picas», «del Tablero 4», «de la Base 1»."""
    return "del " + phrase[3:] if phrase.startswith("el ") else "de " + phrase


def to(phrase: str) -> str:
    """«a» before a noun phrase with its article, contracted: «al Tablero 4», «a la Base 1»."""
    return "al " + phrase[3:] if phrase.startswith("el ") else "a " + phrase


# The words a sentence of the package may start with that are not names: after a colon they take
# lower case («no está permitido: el 8 de tréboles…»), while a game's name or a pile's label
# («Chequers no tiene…», «Tablero 3 solo tiene…») keeps its capital.
_COMMON_OPENERS = frozenset(
    "el la los las lo un una del al a en de con sin solo no ni ya se esta este esa ese hay "
    "mientras del escribe falta faltan".split()
)


def after_colon(sentence: str) -> str:
    """`sentence` joined after a colon: its first word in lower case unless it is a name."""
    first = sentence.split(" ", 1)[0]
    return sentence[:1].lower() + sentence[1:] if first.lower() in _COMMON_OPENERS else sentence


def card_on(card: Card) -> str:
    return card.articulo


def scroll_box(what: str = "Tabla", max_height: str | None = None) -> str:
    """The opening tag of a box that slides sideways when a table is wider than the page (a
    phone), labelled for the reader; the student pages keep the words and numbers of a table in
    such a box whole, where an unboxed table may break them mid-word to fit.  With `max_height`
    («28em») a long table also scrolls down inside the box.  Close it with ``</div>``."""
    if max_height is None:
        label = f"{what}: en una pantalla estrecha, desliza para ver todas las columnas"
        return f'<div role="region" tabindex="0" aria-label="{label}" style="overflow-x:auto;max-width:100%">'
    label = f"{what}: desliza para ver todas las filas y columnas"
    return (f'<div role="region" tabindex="0" aria-label="{label}" '
            f'style="overflow-x:auto;overflow-y:auto;max-width:100%;max-height:{max_height}">')


def table_box(table: str, what: str = "Tabla") -> str:
    """A Markdown table in its `scroll_box`; the blank lines keep the table Markdown inside the
    HTML box."""
    return f"{scroll_box(what)}\n\n{table.strip()}\n\n</div>"
