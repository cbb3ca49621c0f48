"""Scotch (docs/reglas.md, "Scotch"): one deck in 18 fans, all face up; foundations in alternating
colours; a fan that empties stays empty."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.cards import Card
from ..core.rules import FoundationRule, GameDef, Layout, RuleIds, Rules, TableauRule
from .common import GEN_RULES
from .layout import deal_layout

RULES = {
    **GEN_RULES,
    "SC-1": "Reparto: tres vueltas de izquierda a derecha dan diecisiete abanicos de tres cartas y "
    "un último abanico con una sola, todas boca arriba.",
    "SC-2": "Una base vacía admite cualquier As; después sube hasta el Rey en colores alternos, con "
    "cualquier palo del otro color.",
    "SC-3": "En los abanicos se mueve una carta cada vez, sobre otra una unidad mayor, sin importar "
    "el palo.",
    "SC-4": "Un abanico vacío no se vuelve a llenar nunca, ni siquiera con una carta que vuelve de "
    "la base.",
    "SC-5": "Se puede devolver una carta de la base al juego, sobre un abanico no vacío que la acepte.",
}


def configure(flags: Mapping[str, bool]) -> Rules:
    return Rules(
        tableau_count=18,
        tableau=TableauRule(build="down", suits="any", empty="none"),
        foundations=(FoundationRule(direction="up", suits="alt", start="any"),) * 4,
        takeback=True,
        deal_rows=(17, 17, 18),
    )


def deal(order: list[Card], rules: Rules) -> Layout:
    """SC-1, from the rules data (`deal_rows`: the third round reaches the 18th fan)."""
    return deal_layout(order, rules)


DEFINITION = GameDef(
    name="scotch",
    display_name="Scotch",
    decks=1,
    variants={},
    configure=configure,
    deal=deal,
    rules=RULES,
    tableau_builds="Hacia abajo sin importar el palo; una carta cada vez.",
    empty_pile="Nada: un abanico vacío queda vacío.",
    automatic="Nada.",
    tableau_label="Abanico",
    rule_ids=RuleIds(
        foundation="SC-2", tableau="SC-3", one_card="SC-3", takeback="SC-5", empty_none="SC-4",
        empty_king="SC-4", runs="SC-3",
    ),
    summary="Una baraja boca arriba en dieciocho abanicos; las bases suben en colores alternos.",
)
