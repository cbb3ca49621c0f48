"""A composed game on the board in a real browser (Voila): the games list shows it by its Spanish
name, «Nueva partida» deals it again, a move is played on it, and a board of another game that
loads its share code lists it too."""

from __future__ import annotations

import pytest

nbformat = pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium

from browser_helpers import (  # noqa: E402
    BOARD_TIMEOUT_MS,
    board_locator,
    legal_then_refused,
    play_board_in_browser,
    screenshot,
    voila,
)

import solitaire_nb as sn  # noqa: E402
from solitaire_nb.engine.share import share_code  # noqa: E402

pytestmark = pytest.mark.browser

MINE = sn.custom("beleaguered_castle", columns=10, empty="king")


def test_a_composed_game_on_the_board_in_voila(page, tmp_path):
    from playwright.sync_api import expect

    code = share_code(sn.new_game(MINE, seed=5))
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import solitaire_nb as sn\n"
            "sn.play(sn.custom('beleaguered_castle', columns=10, empty='king'), seed=7)"
        ),
        nbformat.v4.new_code_cell("sn.play('citadel', seed=3)"),
    ]
    notebook = tmp_path / "composed_board.ipynb"
    nbformat.write(nb, notebook)
    with voila(notebook) as url:
        page.goto(url)
        board = board_locator(page, MINE.name, 7)
        board.locator("[data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
        select = board.locator("select.snb-game")
        expect(select).to_have_value(MINE.name)
        expect(select.locator("option")).to_have_count(len(sn.GAMES) + 1)
        expect(select.locator("option:checked")).to_have_text(MINE.display_name)

        board.locator("input.snb-seed").fill("8")
        board.locator('[data-button="new"]').click()
        board = board_locator(page, MINE.name, 8)
        board.locator("[data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
        expect(board.locator(".snb-message")).to_contain_text(f"Nueva partida: {MINE.display_name}, partida n.º 8")
        legal, illegal = legal_then_refused(MINE.name, 8)
        play_board_in_browser(page, MINE.name, 8, legal, illegal)
        screenshot(page, "board-composed-voila.png")

        other = board_locator(page, "citadel", 3)
        other.locator("[data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
        expect(other.locator("select.snb-game option")).to_have_count(len(sn.GAMES))
        other.locator("details.snb-save summary").click()
        other.locator("textarea.snb-save-text").fill(code)
        other.locator('[data-button="load"]').click()
        loaded = board_locator(page, MINE.name, 5)
        expect(loaded.locator(".snb-message")).to_contain_text("Partida cargada", timeout=20_000)
        expect(loaded.locator("select.snb-game")).to_have_value(MINE.name)
        expect(loaded.locator("select.snb-game option")).to_have_count(len(sn.GAMES) + 1)
