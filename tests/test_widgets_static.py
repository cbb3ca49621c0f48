"""Static fallbacks of the boxes the notebooks display, and the board exercise's verdicts."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from solitaire_nb import new_game  # noqa: E402
from solitaire_nb.board import answer_box, exercise_board, static_box  # noqa: E402

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def _bundle(widget) -> dict:
    bundle = widget._repr_mimebundle_()
    return bundle[0] if isinstance(bundle, tuple) else bundle


def test_answer_box_falls_back_to_its_question():
    box = answer_box("¿Qué carta va sobre el 9 de diamantes?", lambda text: (True, "¡Correcto!"))
    data = _bundle(box)
    assert WIDGET_MIME in data
    assert "¿Qué carta va sobre el 9 de diamantes?" in data["text/html"]
    assert "VBox" not in data["text/plain"] and "object at" not in data["text/plain"]
    assert "9 de diamantes" in data["text/plain"]


def test_answer_box_shows_the_checkers_verdict_and_never_a_traceback():
    def check(text: str):
        if text == "boom":
            raise RuntimeError("internal")
        return text == "8S", "¡Correcto!" if text == "8S" else "No: prueba otra vez."

    box = answer_box("¿Cuál?", check)
    entry, button = box.children[1].children
    verdict = box.children[2]
    entry.value = "8S"
    button.click()
    assert "¡Correcto!" in verdict.value
    entry.value = "boom"
    button.click()
    assert "No he entendido la respuesta" in verdict.value and "internal" not in verdict.value


def test_typing_then_clicking_checks_the_answer_once():
    """In a browser the text reaches the kernel on blur, then the click: one answer is one try
    (a wrong word is not told «ya la has probado», a number's «más / menos» is not used up)."""
    from solitaire_nb.board import caja
    from solitaire_nb.lessons.exercises import olvidar_intentos

    olvidar_intentos()
    try:
        box = caja("lab-3")
        entry, button = box.children[1].children
        entry.value = "menos, porque los Reyes ya no bajan al fondo"  # the change event: checked
        button.click()  # the click right after it: the same answer, not checked again
        assert "No." in box.children[2].value and "probado" not in box.children[2].value
        box = caja("estudio-4")
        entry, button = box.children[1].children
        entry.value = "4"
        button.click()
        assert "más" in box.children[2].value
        button.click()  # clicked again on purpose: the verdict stays
        assert "más" in box.children[2].value
        entry.value = "5"
        assert "más" not in box.children[2].value  # the direction was told once
    finally:
        olvidar_intentos()


def test_static_box_carries_the_given_picture():
    box = static_box([], "<p>Controles del estudio</p>", horizontal=True)
    data = _bundle(box)
    assert data["text/html"] == "<p>Controles del estudio</p>"
    assert data["text/plain"] == "Controles del estudio"


def test_exercise_board_judges_each_move_played_and_clears_after_undo():
    game = new_game("beleaguered_castle", seed=3)
    singles = [m for m in game.legal_moves() if m.n_cards == 1]
    wanted, other = singles[0], singles[1]

    def check(_game, move):
        ok = move == wanted
        return ok, "¡Eso es!" if ok else "Ese no es el movimiento que se pide."

    box = exercise_board("Juega la carta que se pide.", game, check)
    data = _bundle(box)
    assert "Juega la carta que se pide." in data["text/html"] and "<svg" in data["text/html"]
    board, verdict = box.children[1], box.children[2]
    assert verdict.value == ""
    board.click(wanted.src)
    board.click(wanted.src)  # selection cancelled: nothing played, nothing judged
    assert verdict.value == ""
    board.click(wanted.src)
    board.click(wanted.dst)
    assert "¡Eso es!" in verdict.value
    board.press("undo")
    assert verdict.value == ""
    board.click(other.src)
    board.click(other.dst)
    assert "no es el movimiento" in verdict.value
    board.click(wanted.src)  # a second move, then an undo: the verdict of two moves is gone
    board.click(wanted.dst)
    board.press("undo")
    assert verdict.value == ""
    board.press("undo")
    board.click(other.src)
    board.click(other.dst)
    assert "no es el movimiento" in verdict.value


def test_an_exercise_board_keeps_its_position_no_other_deal_nor_loaded_game():
    """A fresh reader pressed «Nueva partida» on an exercise board: a random deal, judged against
    the exercise's question («no está permitido» for a legal move). The board hides the deal
    controls and the kernel refuses them; «Deshacer» goes back to the start."""
    from solitaire_nb.board.boxes import EXERCISE_ONLY

    game = new_game("beleaguered_castle", seed=3)
    start = [list(map(str, game.pile(p))) for p in game.pile_ids]
    box = exercise_board("Juega la carta que se pide.", game, lambda _g, _m: (False, "No."))
    board = box.children[1]
    assert board.view["fixed"] is True
    for action in ("new", "load"):
        board.press(action)
        assert board.view["message"] == EXERCISE_ONLY
    assert [list(map(str, board.game.pile(p))) for p in board.game.pile_ids] == start
