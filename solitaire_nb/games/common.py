"""Pieces every game module shares: the GEN rules as sentences and the row-by-row deal."""

from __future__ import annotations

from ..core.cards import Card

GEN_RULES = {
    "GEN-1": "Devolver una carta de la base al juego: donde el juego lo permite, la carta de arriba "
    "de una base puede volver a una pila del tablero que la acepte según su propia regla, nunca a "
    "otra base, a la reserva, al mazo ni al descarte.",
    "GEN-2": "Lo automático (poner boca arriba una carta descubierta, rellenar desde la reserva, el "
    "juego automático a la base) forma parte del movimiento que lo provocó: un solo Deshacer lo "
    "anula todo.",
    "GEN-3": "La partida está ganada cuando todas las cartas están en las bases.",
    "GEN-4": "Una base tiene como máximo 13 cartas.",
}


def row_by_row(cards: list[Card], piles: int, first: int = 0) -> dict[str, list[Card]]:
    """Deal `cards` one per pile from left to right, round after round, like a person."""
    out: dict[str, list[Card]] = {f"T{i}": [] for i in range(first, first + piles)}
    for i, card in enumerate(cards):
        out[f"T{first + i % piles}"].append(card)
    return out
