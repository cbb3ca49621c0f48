"""Small printing helpers for the notebooks' code cells: the legal moves of a position, why a
move is refused, and what a move did, in Spanish and in the board's notation."""

from __future__ import annotations

from ..core.moves import Move
from ..engine import Game, Step
from ..games.notation import format_move, parse_move, pile_name
from ..render import move_text


def narrar(game: Game, paso: Step) -> None:
    """Print, in Spanish, what a move did: the cards the player moved and each automatic action."""
    move, cards, automatic = paso
    print(move_text(game, move, cards))
    if not automatic:
        print("    (nada automático)")
    for action in automatic:
        if action.dst is None:
            where = _the(pile_name(game, action.src))
            print(f"    y automáticamente se pone boca arriba {action.cards[0].articulo} en {where}")
        else:
            what = ", ".join(c.nombre for c in action.cards)
            print(f"    y automáticamente: {pile_name(game, action.src)} → {pile_name(game, action.dst)}: {what}")


def _the(label: str) -> str:
    """A pile's label with its article: "el Tablero 1", "la Reserva"."""
    return ("la " if label.startswith(("Base", "Reserva")) else "el ") + label


def movimientos(game: Game) -> None:
    """Print the legal moves of a position, one line each, as the board writes them."""
    moves = game.legal_moves()
    if not moves:
        print("Sin movimientos")
    for m in moves:
        print(move_text(game, m, game.piles[m.src][-m.n_cards :]))


def por_que_no(game: Game, *jugadas: str | Move) -> None:
    """For each move, print it in the learner notation and "válido" or the engine's Spanish
    reason for refusing it.  Moves are written as on the board ("T1 B1"); the Python API's
    0-based form with ">" ("T0>F0") is read too, since notebook code may use it."""
    for jugada in jugadas:
        try:
            if isinstance(jugada, Move) or ">" in str(jugada):
                move = Move.parse(jugada)
                if move.src not in game.pile_ids or move.dst not in game.pile_ids:
                    raise ValueError(f"{game.display_name} no tiene esa pila")
            else:
                move = parse_move(game, str(jugada))
        except ValueError as exc:
            print(f"{jugada}: {exc}")
            continue
        reason = game.why_not(move)
        print(f"{format_move(game, move)}: {'válido' if reason is None else reason}")
