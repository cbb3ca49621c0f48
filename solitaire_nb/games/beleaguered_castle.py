"""Beleaguered Castle (docs/reglas.md, "Citadel and Beleaguered Castle"): the Aces start on the
foundations, the other 48 cards go row by row to eight piles of six; no deal-time plays and
no autoplay (CB-8).  Citadel is the same game with two flags switched on.

Decision where the rule pages are silent (docs/reglas.md): an Ace is a foundation's top card too, so with take-backs
on it may go back into play (onto any 2, or a hole); the emptied foundation keeps its suit
and takes only that suit's Ace again."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.cards import Card
from ..core.rules import FoundationRule, GameDef, Layout, RuleIds, Rules, TableauRule, Variant
from .common import GEN_RULES
from .layout import deal_layout

FOUNDATION_SUITS = "SHDC"  # CB-1: F0…F3 hold ♠ ♥ ♦ ♣

RULES = {
    **GEN_RULES,
    "CB-1": "Los cuatro Ases empiezan en las Bases 1 a 4 (picas, corazones, diamantes, tréboles); "
    "las otras 48 cartas, en su orden, se reparten fila a fila en ocho pilas, seis vueltas, boca "
    "arriba.",
    "CB-2": "Solo en Citadel: durante el reparto, una carta que su base admita en ese momento va "
    "a la base, y la pila a la que iba se queda esa vuelta sin carta.",
    "CB-3": "Las bases suben por palo hasta el Rey.",
    "CB-4": "En el tablero se mueve una carta cada vez, sobre otra una unidad mayor, sin importar "
    "el palo.",
    "CB-5": "Cualquier carta puede ocupar un hueco del tablero.",
    "CB-6": "Se puede devolver una carta de la base al juego, sobre una pila del tablero que la "
    "acepte o a un hueco.",
    "CB-7": "Juego automático a la base de Citadel: tras el reparto y tras cada movimiento, las "
    "cartas de arriba que admite su base van a ella, salvo la que el jugador acaba de mover y las "
    "que ya podían ir antes de ese movimiento.",
    "CB-8": "Beleaguered Castle no tiene ni jugadas a la base durante el reparto ni juego "
    "automático a la base.",
}


def variants(citadel: bool) -> dict[str, Variant]:
    """The flags, each described by what changes from the game's own default (Citadel has the
    first two on, Beleaguered Castle off)."""
    if citadel:
        deal_text = (
            "Sin cartas a la base durante el reparto, como en Beleaguered Castle: cada carta va a su "
            "pila del tablero."
        )
        auto_text = (
            "Sin juego automático a la base, como en Beleaguered Castle: una carta solo va a la base "
            "si la lleva el jugador."
        )
    else:
        deal_text = (
            "Cartas a la base durante el reparto, como en Citadel: la carta que su base admita en ese "
            "momento va a ella, y su pila se queda esa vuelta sin carta."
        )
        auto_text = (
            "Juego automático a la base, como en Citadel: tras el reparto y tras cada movimiento, las "
            "cartas de arriba que admite su base van a ella."
        )
    return {
        "deal_to_foundations": Variant(citadel, deal_text),
        "autoplay": Variant(citadel, auto_text),
        "takeback": Variant(
            True,
            "Sin devolver cartas (como juegan PySolFC y la mayoría de los programas que resuelven "
            "partidas): ninguna carta vuelve de la base al juego.",
        ),
    }


def configure(flags: Mapping[str, bool]) -> Rules:
    return Rules(
        tableau_count=8,
        tableau=TableauRule(build="down", suits="any", empty="any"),
        foundations=tuple(FoundationRule(direction="up", suits="same", start=s) for s in FOUNDATION_SUITS),
        takeback=flags["takeback"],
        autoplay=flags["autoplay"],
        deal_to_foundations=flags["deal_to_foundations"],
        aces_out=True,
    )


def deal(order: list[Card], rules: Rules) -> Layout:
    """CB-1 and, with `deal_to_foundations`, CB-2, from the rules data (`aces_out`)."""
    return deal_layout(order, rules)


def make_definition(name: str, display_name: str, citadel: bool, summary: str) -> GameDef:
    return GameDef(
        name=name,
        display_name=display_name,
        decks=1,
        variants=variants(citadel),
        configure=configure,
        deal=deal,
        rules=RULES,
        tableau_builds="Hacia abajo sin importar el palo; una carta cada vez.",
        empty_pile="Cualquier carta.",
        automatic=(
            "Cartas a la base durante el reparto, y juego automático a la base tras el reparto y "
            "tras cada movimiento." if citadel else "Nada."
        ),
        rule_ids=RuleIds(
            foundation="CB-3", tableau="CB-4", one_card="CB-4", takeback="CB-6", empty_none="CB-5",
            empty_king="CB-5", runs="CB-4",
        ),
        reports_deal=True,  # CB-2 and CB-7 as variants: the deal report is always there
        summary=summary,
    )


DEFINITION = make_definition(
    "beleaguered_castle",
    "Beleaguered Castle",
    citadel=False,
    summary="Una baraja en ocho pilas de seis cartas, con los Ases ya en las bases.",
)
