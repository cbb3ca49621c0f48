"""Moving Left (docs/reglas.md, "Moving Left"): two decks, a triangular Klondike-style deal over ten
piles, one pass through the stock, eight foundations by suit.

Decision where the rule pages are silent (docs/reglas.md): with `shift_left=True`, if the pile to the right of an
emptied pile is itself empty, nothing moves and the chain stops there."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.cards import Card
from ..core.rules import FoundationRule, GameDef, Layout, RuleIds, Rules, TableauRule, Variant
from .common import GEN_RULES

RULES = {
    **GEN_RULES,
    "ML-1": "Reparto en triángulo: la primera pila del tablero recibe una carta, la segunda dos, y así "
    "hasta la décima, que recibe diez (55 en total); en cada pila solo la de arriba queda boca arriba, "
    "y las 49 cartas restantes forman el mazo, boca abajo.",
    "ML-2": "Las ocho bases suben por palo desde cualquier As hasta el Rey; cada palo tiene dos.",
    "ML-3": "En el tablero se construye hacia abajo en colores alternos: una unidad menos y del "
    "color contrario.",
    "ML-4": "Una secuencia boca arriba, descendente y de colores alternos, se mueve entera o en "
    "parte, desde cualquiera de sus cartas hasta la de arriba.",
    "ML-5": "Un hueco del tablero solo admite un Rey o una secuencia encabezada por un Rey, y nada "
    "lo rellena por sí solo.",
    "ML-6": "Si una carta boca abajo queda arriba de una pila, se pone boca arriba en el mismo "
    "movimiento.",
    "ML-7": "Cada clic en el mazo pasa una carta al descarte; hay una sola pasada y no se vuelve a "
    "repartir.",
    "ML-8": "La carta de arriba del descarte puede ir a una base o al tablero.",
    "ML-9": "Se puede devolver una carta de la base al juego, sobre una pila del tablero que la "
    "acepte (a un hueco, solo un Rey).",
}

VARIANTS = {
    "shift_left": Variant(
        False,
        "Desplazar a la izquierda (la regla de PySolFC): al vaciarse una pila del tablero, la parte "
        "boca arriba de la pila de su derecha pasa a ocuparla, y así sucesivamente hacia la derecha.",
    ),
}


def configure(flags: Mapping[str, bool]) -> Rules:
    return Rules(
        tableau_count=10,
        tableau=TableauRule(build="down", suits="alt", runs=True, empty="king"),
        foundations=(FoundationRule(direction="up", suits="same", start="any"),) * 8,
        stock=True,
        waste=True,
        takeback=True,
        shift_left=flags["shift_left"],
        face_down_tableau=True,
    )


def deal(order: list[Card], rules: Rules) -> Layout:
    piles: dict[str, list[Card]] = {f"T{k}": [] for k in range(10)}
    it = iter(order)
    for r in range(10):  # round r deals to T r … T9; the card to T r is its face-up top
        for k in range(r, 10):
            piles[f"T{k}"].append(next(it))
    rest = list(it)
    piles["S"] = rest[::-1]  # card 56 is the stock's top
    face_down = {f"T{k}": k for k in range(10)}
    face_down["S"] = len(rest)
    return Layout(piles, face_down)


DEFINITION = GameDef(
    name="moving_left",
    display_name="Moving Left",
    decks=2,
    variants=VARIANTS,
    configure=configure,
    deal=deal,
    rules=RULES,
    tableau_builds="Hacia abajo en colores alternos; las secuencias se mueven en grupo.",
    empty_pile="Solo un Rey o una secuencia encabezada por un Rey; nada lo rellena solo.",
    automatic="Poner boca arriba la carta que queda descubierta.",
    rule_ids=RuleIds(
        foundation="ML-2", tableau="ML-3", one_card="ML-4", takeback="ML-9", empty_none="ML-5",
        empty_king="ML-5", stock="ML-7", runs="ML-4", face_down="ML-6",
    ),
    summary="Dos barajas en un reparto en triángulo de diez pilas, con mazo y una sola pasada.",
)
