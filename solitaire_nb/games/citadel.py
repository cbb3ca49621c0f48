"""Citadel (docs/reglas.md, "Citadel and Beleaguered Castle"): Beleaguered Castle whose deal sends
cards that fit a foundation home at once (CB-2), followed by autoplay (CB-7).  Both are flags
(`deal_to_foundations`, `autoplay`) of the same definition, switched on here, so the two
games differ in named rules only."""

from __future__ import annotations

from .beleaguered_castle import make_definition

DEFINITION = make_definition(
    "citadel",
    "Citadel",
    citadel=True,
    summary="Beleaguered Castle con ventaja: las cartas que encajan en una base van a ella "
    "durante el reparto, y las columnas salen más cortas.",
)
