"""Baker's Dozen (docs/reglas.md, "Baker's Dozen"): one deck in 13 piles of four, Kings moved to the
bottom of their piles, building down in a different suit, no take-backs."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.cards import Card
from ..core.rules import FoundationRule, GameDef, Layout, RuleIds, Rules, TableauRule, Variant
from .common import GEN_RULES
from .layout import deal_layout

RULES = {
    **GEN_RULES,
    "BD-1": "Reparto: cuatro vueltas de izquierda a derecha sobre las 13 pilas del tablero, todas "
    "las cartas boca arriba.",
    "BD-2": "Después, en cada pila, los Reyes pasan al fondo, sin cambiar el orden entre ellos ni "
    "el de las demás cartas.",
    "BD-3": "Las bases suben por palo desde el As hasta el Rey.",
    "BD-4": "En el tablero se mueve una carta cada vez, sobre otra una unidad mayor y de otro palo.",
    "BD-5": "Una pila del tablero que se vacía queda vacía el resto de la partida.",
    "BD-6": "No se devuelven cartas: lo que llega a la base se queda en la base.",
}

VARIANTS = {
    "any_suit": Variant(
        False,
        "Sin importar el palo (la regla clásica de PySolFC y Aisleriot): en el tablero se construye "
        "hacia abajo con cualquier palo, así que el 9 de corazones también va sobre el 10 de corazones.",
    ),
    "kings_to_bottom": Variant(
        True,
        "Los Reyes donde caen (la variante más común según la página original): al repartir, los "
        "Reyes no bajan al fondo de su pila, y un hueco solo admite un Rey.",
    ),
}


def configure(flags: Mapping[str, bool]) -> Rules:
    return Rules(
        tableau_count=13,
        tableau=TableauRule(
            build="down",
            suits="any" if flags["any_suit"] else "different",
            empty="none" if flags["kings_to_bottom"] else "king",
        ),
        foundations=(FoundationRule(direction="up", suits="same", start="any"),) * 4,
        takeback=False,
        kings_to_bottom=flags["kings_to_bottom"],
    )


def deal(order: list[Card], rules: Rules) -> Layout:
    """BD-1 and, with `kings_to_bottom`, BD-2, from the rules data."""
    return deal_layout(order, rules)


DEFINITION = GameDef(
    name="bakers_dozen",
    display_name="Baker's Dozen",
    decks=1,
    variants=VARIANTS,
    configure=configure,
    deal=deal,
    rules=RULES,
    tableau_builds="Hacia abajo, con una carta de otro palo; una carta cada vez.",
    empty_pile="Nada: un hueco queda vacío (en la variante con los Reyes donde caen, solo un Rey).",
    automatic="Nada (los Reyes van al fondo de su pila al repartir).",
    rule_ids=RuleIds(
        foundation="BD-3", tableau="BD-4", one_card="BD-4", takeback="BD-6", empty_none="BD-5",
        empty_king="BD-5", runs="BD-4",
    ),
    summary="Una baraja en 13 pilas de cuatro cartas a la vista, con los Reyes al fondo.",
)
