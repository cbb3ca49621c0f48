"""A lost game after some moves: the board says whether the moves lost it («ya no tiene
solución… prueba a deshacer») or it never had a solution (undoing would not help). Both
«¿Tiene solución?» and the warning after a «Pista» say it, from the solver's verdict on the
game before its first move."""

from __future__ import annotations

import importlib
import sys
import types
from unittest import mock

from conftest import pos

import solitaire_nb as sn
from solitaire_nb.board import Board

# Lost from the start (tests/test_solver.py proves it): the only move is 6♥ onto 7♠, then
# nothing moves.
STUCK_CASTLE = {
    "T0": "2S 3S 4S KS", "T1": "2H 3H 4H KH", "T2": "2D 3D 4D 5S JS", "T3": "2C 3C 5H 5D JH",
    "T4": "5C 6S 6D 6C 9S", "T5": "7H 7D 7C 8S 9H",
    "T6": "8H 8D 8C 9D 9C TS TH TD TC JD JC QS QH QD QC KD KC 7S", "T7": "4C 6H",
    "F0": "AS", "F1": "AH", "F2": "AD", "F3": "AC",
}  # fmt: skip


def send(board: Board, **msg) -> str:
    board._handle_custom_msg(msg, [])
    return board.view["message"]


def solver_where(start: str):
    """A solver whose verdict is `start` before the first move and «lost» after it."""
    module = types.ModuleType("solitaire_nb.solver")

    def solve(game, time_limit=None, max_states=None):
        status = start if game.moves_played == 0 else "lost"
        return types.SimpleNamespace(status=status, moves=[], states=10, seconds=0.01)

    def hint(game, time_limit=1.0):
        return types.SimpleNamespace(move=None, proven=False, status="lost" if game.moves_played else start)

    module.solve, module.hint = solve, hint
    importlib.import_module("solitaire_nb.solver.verdict_cache")  # the buttons' door, loaded for real
    return mock.patch.dict(sys.modules, {"solitaire_nb.solver": module})


def after_one_move() -> Board:
    board = sn.play("citadel", seed=1234)
    board.game.move(board.game.legal_moves()[0])
    return board


def test_lost_by_the_moves_says_undo():
    board = after_one_move()
    with solver_where(start="won"):
        said = send(board, event="button", name="solvable")
        hinted = send(board, event="button", name="hint")
    assert "ya no tiene solución" in said and "prueba a deshacer" in said
    assert "Ojo: esta partida ya no tiene solución" in hinted


def test_lost_from_the_start_says_it_never_had_one():
    board = after_one_move()
    with solver_where(start="lost"):
        said = send(board, event="button", name="solvable")
        hinted = send(board, event="button", name="hint")
    for text in (said, hinted):
        assert "ya no" not in text.lower() and "prueba a deshacer" not in text, text
        assert "ni la tenía al empezar" in text, text


def test_an_undecided_start_does_not_claim_either():
    board = after_one_move()
    with solver_where(start="unknown"):
        said = send(board, event="button", name="solvable")
    assert "ya no" not in said.lower() and "si la tenía al empezar" in said, said


def test_the_real_solver_on_a_position_lost_from_the_start():
    """The solver's own verdict (with the cards a practice position has) after the only move."""
    game = pos("beleaguered_castle", STUCK_CASTLE)
    board = sn.Board(game)
    assert send(board, event="button", name="solvable").startswith("No tiene solución")
    board.game.move("T7>T6")
    said = send(board, event="button", name="solvable")
    assert said.startswith("No tiene solución") and ", ni la tenía al empezar: el resolvedor" in said, said
    assert "ya no" not in said.lower()


def test_following_the_hint_on_lesson_01s_first_practice_board():
    """The issue's case: 01's first practice position (lost with the few cards it has, as its
    lesson says nothing of winning it), a «Pista» followed, then «¿Tiene solución?»."""
    game = pos("chequers", {
        "F0": "AS 2S 3S 4S 5S", "F4": "KS QS", "T0": "9H 6S", "T1": "4C JS", "T2": "7D AS", "T3": "KD", "R": "4H 9D",
    })  # fmt: skip
    board = sn.Board(game)
    send(board, event="button", name="hint")
    assert board.play_move(board.buttons.highlight)
    hinted = send(board, event="button", name="hint")
    said = send(board, event="button", name="solvable")
    # A practice position's hint gives the move, never a verdict (issue 44): that is the
    # solver's button's job.
    assert "solución" not in hinted and hinted.startswith("Pista:") and hinted.endswith("."), hinted
    assert "ya no" not in said.lower() and "prueba a deshacer" not in said, said
    assert "ni la tenía al empezar" in said, said
