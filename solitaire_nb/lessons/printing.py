"""Small printing helpers for the notebooks' code cells: the legal moves of a position, why a
move is refused, and what a move did, in Spanish and in the board's notation."""

from __future__ import annotations

from ..core.moves import Move
from ..engine import Game, Step
from ..games.notation import format_move, parse_move
from ..render import move_text
from .narration import describe_automatic


def narrar(game: Game, paso: Step) -> None:
    """Print, in Spanish, what a move did: the cards the player moved, then a sentence for each
    automatic action, or one saying the game did nothing by itself."""
    move, cards, _automatic = paso
    print(move_text(game, move, cards))
    for sentence in describe_automatic(game, paso) or [NOTHING_AUTOMATIC]:
        print(f"    {sentence}")


NOTHING_AUTOMATIC = "El juego no hace nada por sí solo."


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
