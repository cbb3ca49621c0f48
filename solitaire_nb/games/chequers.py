"""Chequers (docs/reglas.md, "Chequers"): two decks, 25 piles of four, a reserve of four, and eight
foundations, four going up from the Aces and four going down from the Kings."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.cards import Card
from ..core.rules import FoundationRule, GameDef, Layout, RuleIds, Rules, TableauRule, Variant
from .common import GEN_RULES, row_by_row

RULES = {
    **GEN_RULES,
    "CH-1": "Reparto: las cartas 1 a 100 van fila a fila, cuatro vueltas, a las 25 pilas del "
    "tablero, todas boca arriba; las cartas 101 a 104 forman la reserva y solo la última, la de "
    "arriba, se ve.",
    "CH-2": "Las Bases 1 a 4 suben por palo del As al Rey y las Bases 5 a 8 bajan por palo del Rey "
    "al As; cada palo empieza una sola base en cada grupo.",
    "CH-3": "En el tablero se mueve una carta cada vez, y va sobre otra del mismo palo que sea una "
    "unidad mayor o menor.",
    "CH-4": "La secuencia da la vuelta: un Rey puede ir sobre un As y un As sobre un Rey.",
    "CH-5": "Cuando una pila del tablero se vacía, por cualquier movimiento, la carta de arriba de "
    "la reserva pasa a ocupar el hueco al instante.",
    "CH-6": "Cuando la reserva se ha agotado, cualquier carta puede ocupar un hueco del tablero.",
    "CH-7": "La carta visible de la reserva también se puede jugar a mano, a una base o al tablero.",
    "CH-8": "Se puede devolver una carta de la base al juego, sobre una pila del tablero que la acepte.",
}

VARIANTS = {
    "wrap": Variant(
        True, "Sin dar la vuelta: en el tablero un Rey ya no va sobre un As, ni un As sobre un Rey."
    ),
    "reserve_playable": Variant(
        True, "La reserva solo rellena huecos: su carta de arriba no se juega a mano."
    ),
}


def configure(flags: Mapping[str, bool]) -> Rules:
    up = FoundationRule(direction="up", suits="same", start="new_suit")
    down = FoundationRule(direction="down", suits="same", start="new_suit")
    return Rules(
        tableau_count=25,
        tableau=TableauRule(build="updown", suits="same", wrap=flags["wrap"], empty="reserve"),
        foundations=(up,) * 4 + (down,) * 4,
        reserve=True,
        takeback=True,
        reserve_playable=flags["reserve_playable"],
        refill_from_reserve=True,
    )


def deal(order: list[Card], rules: Rules) -> Layout:
    piles = row_by_row(order[:100], 25)
    piles["R"] = order[100:104]  # dealt one by one: card 104 ends on top
    return Layout(piles, {"R": 3})


DEFINITION = GameDef(
    name="chequers",
    display_name="Chequers",
    decks=2,
    variants=VARIANTS,
    configure=configure,
    deal=deal,
    rules=RULES,
    tableau_builds="Hacia arriba o hacia abajo, del mismo palo, dando la vuelta entre Rey y As; una carta cada vez.",
    empty_pile="La carta de arriba de la reserva, al instante; agotada la reserva, cualquier carta.",
    automatic="Rellenar huecos desde la reserva y poner boca arriba su siguiente carta.",
    rule_ids=RuleIds(
        foundation="CH-2", tableau="CH-3", one_card="CH-3", takeback="CH-8", empty_none="CH-6",
        empty_king="CH-6", empty_reserve="CH-5", reserve="CH-1", reserve_play="CH-7", runs="CH-3",
    ),
    summary="Dos barajas casi a la vista: 25 pilas de cuatro cartas, una reserva y ocho bases que "
    "trabajan desde los dos extremos.",
)
