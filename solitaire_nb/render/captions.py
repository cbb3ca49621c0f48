"""The Spanish texts a board shows beside its drawing: the status line, the numbered move list
(automatic actions indented under their move), what the deal did, and how a screen reader
names a pile."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..core.moves import Move
from ..games.notation import format_move, pile_name

if TYPE_CHECKING:  # the texts only read a Game; no import cycle at run time
    from ..engine import Game, Step


def plural(n: int, word: str) -> str:
    """«1 carta», «5 cartas»."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def pile_summary(game: Game, pid: str) -> str:
    """How a screen reader names a pile: «Tablero 1: 5 cartas, 2 boca abajo», «Base 1: hueco»."""
    n = len(game.pile(pid))
    return summary_text(game.label(pid), n, min(game.face_down(pid), n))


def summary_text(label: str, n: int, fd: int) -> str:
    """`pile_summary` from a pile's label, its number of cards and of face-down ones."""
    if not n:
        return f"{label}: hueco"
    text = f"{label}: {plural(n, 'carta')}"
    if fd == n and n > 1:
        text += ", todas boca abajo"
    elif fd == n:
        text += " boca abajo"
    elif fd:
        text += f", {fd} boca abajo"
    return text


def origin_text(game: Game) -> str:
    """Where the position comes from, as a reader would say it."""
    if game.seed is not None:
        return f"Partida n.º {game.seed}"
    return "Posición de práctica" if game.is_practice else "Posición preparada"


def status_text(game: Game) -> str:
    """The status line: deal, moves played, cards on the foundations, and the outcome."""
    origin = origin_text(game)
    moves = game.moves_played
    total = game.total_cards
    parts = [
        f"{game.definition.display_name} · {origin}",
        f"{moves} movimiento{'s' if moves != 1 else ''}",
        f"{game.foundation_cards()} de {total} cartas en las bases",
    ]
    if game.is_won():
        parts.append("¡Ganada!")
    elif not game.legal_moves():
        parts.append("Sin movimientos")
    return " · ".join(parts)


def _cards_text(cards: Iterable) -> str:
    cards = list(cards)
    if len(cards) <= 3:
        return ", ".join(c.nombre for c in cards)
    return f"{len(cards)} cartas, de {cards[0].nombre} a {cards[-1].nombre}"


def move_text(game: Game, move: Move, cards: Iterable) -> str:
    """A move as the board writes it: "T4 B1 (Tablero 4 → Base 1): 7 de picas" (the typed
    form from `notation`, then the piles' names and the cards)."""
    return f"{format_move(game, move)} ({_route(game, move.src, move.dst)}): {_cards_text(cards)}"


def _route(game: Game, src: str, dst: str) -> str:
    return f"{pile_name(game, src)} → {pile_name(game, dst)}"


def step_lines(game: Game, step: Step, number: int) -> list[str]:
    """One numbered line for a player's move, then one indented line per automatic action."""
    lines = [f"{number}. {move_text(game, step.move, step.cards)}"]
    for action in step.automatic:
        if action.dst is None:
            lines.append(f"    ↳ se pone boca arriba {action.cards[0].nombre} ({pile_name(game, action.src)})")
        else:
            lines.append(f"    ↳ automático: {_route(game, action.src, action.dst)}: {_cards_text(action.cards)}")
    return lines


def move_lines(game: Game) -> list[str]:
    """The numbered move list in Spanish ("1. T4 B1 (Tablero 4 → Base 1): 7 de picas"), automatic
    actions included as indented lines under the move that caused them."""
    out: list[str] = []
    for k, step in enumerate(game.steps(), 1):
        out.extend(step_lines(game, step, k))
    return out


def deal_lines(game: Game) -> list[str]:
    """What happened before the first move (Citadel's deal-time plays and autoplay)."""
    report = game.deal_report
    if report is None:
        return []
    out = []
    for card, meant in zip(report.to_foundations, report.meant_for, strict=True):
        out.append(f"Reparto: {card.nombre} va a la base (iba a {pile_name(game, meant)})")
    for card, src in zip(report.autoplay, report.autoplay_from, strict=True):
        out.append(f"Tras el reparto, automático: {pile_name(game, src)} → su base: {card.nombre}")
    return out
