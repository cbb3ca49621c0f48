"""The rules lab in a real browser: Voila serves a throw-away notebook holding
``sn.lab("beleaguered_castle", seed=1234)``; in Chromium (Debian's, through Playwright) the reader
moves the «Columnas» slider to 10 and chooses «Un hueco admite: Solo un Rey», then types a move
on the composed board; then starts «¿Cuántas se pueden ganar?», plays another move while the
solver runs (the kernel stays responsive) and stops it with «Detener».  The composed board must show the new game (ten columns, its Spanish
name), the statistics must follow, and the move must be played.  Screenshot:
artifacts/screenshots/laboratorio-voila.png."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium
pytest.importorskip("voila")  # the notebook extra
pytest.importorskip("ipywidgets")

from browser_helpers import BOARD_TIMEOUT_MS, screenshot, voila  # noqa: E402

from solitaire_nb.atlas import lab_measures as lab_work  # noqa: E402
from solitaire_nb.games.custom import custom  # noqa: E402
from solitaire_nb.games.notation import format_move  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEED = 1234
CODE = f'import solitaire_nb as sn\nsn.lab("beleaguered_castle", seed={SEED})'


def _notebook(folder: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(CODE)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / "laboratorio.ipynb"
    nbformat.write(nb, path)
    return path


def test_lab_in_voila_changes_two_rules_and_plays_the_composed_game(page):
    from playwright.sync_api import expect

    composed = custom("beleaguered_castle", columns=10, empty="king")
    game = lab_work.new_game(composed, SEED)
    move = next(m for m in game.legal_moves() if m.dst.startswith("T"))
    typed = format_move(game, move)
    with tempfile.TemporaryDirectory(prefix="snb-lab-nb-") as tmp, voila(_notebook(Path(tmp))) as url:
        page.goto(url)
        boards = page.locator(".snb-board")
        boards.nth(1).locator("[data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
        expect(page.locator(".snb-board[data-game='beleaguered_castle']")).to_have_count(2)
        expect(boards.first.locator(".snb-game")).to_be_hidden()  # the lab chooses the game

        # two controls, as a reader moves them
        readout = page.locator(".widget-slider", has_text="Columnas").locator(".widget-readout")
        readout.click()
        readout.fill("10")
        readout.press("Enter")
        board = page.locator('.snb-board[data-game="beleaguered_castle+columns=10"]')
        board.locator("[data-card]").first.wait_for(timeout=60_000)
        page.locator(".widget-dropdown", has_text="Un hueco admite").locator("select").select_option(
            label="Solo un Rey"
        )
        board = page.locator(f'.snb-board[data-game="{composed.name}"]')
        board.locator("[data-card]").first.wait_for(timeout=60_000)
        expect(board).to_have_attribute("data-seed", str(SEED))
        expect(page.locator(f'.snb-board[data-game="beleaguered_castle"][data-seed="{SEED}"]')).to_have_count(1)
        expect(page.get_by_text("Beleaguered Castle con 10 columnas y huecos solo para Reyes").first).to_be_visible()
        assert board.locator('rect.snb-hole[data-pile="T9"], [data-pile="T9"]').count() > 0  # a tenth column
        expect(page.locator(".snb-lab-table").first).to_contain_text("Columnas del tablero")
        expect(page.locator(".snb-lab-table").first).to_contain_text("10")
        expect(page.get_by_text("Solo un Rey puede ocupar un hueco.").first).to_be_visible()

        # a move typed on the composed board, in the reader's notation
        before = board.locator(".snb-message").text_content()
        board.locator(".snb-text").fill(typed)
        board.locator(".snb-text").press("Enter")
        expect(board).to_have_attribute("data-moves", "1", timeout=20_000)
        expect(board.locator(".snb-message")).not_to_have_text(before or "", timeout=20_000)
        game.move(move)
        top = game.piles[move.dst][-1]
        expect(board.locator(f'[data-pile="{move.dst}"][data-card="{top.code}"]')).to_have_count(1)
        screenshot(page, "laboratorio-voila.png")

        # «¿Cuántas se pueden ganar?» runs in a thread: the board still answers meanwhile, and
        # «Detener» is heard
        second = next(m for m in game.legal_moves() if m.dst.startswith("T"))
        page.get_by_role("button", name="¿Cuántas se pueden ganar?").click()
        # the first deals may be shown at once, replacing «Resolviendo…» with the running counts
        expect(page.get_by_text(re.compile(r"Resolviendo…|el resolvedor sigue")).first).to_be_visible(timeout=20_000)
        board.locator(".snb-text").fill(format_move(game, second))
        board.locator(".snb-text").press("Enter")
        expect(board).to_have_attribute("data-moves", "2", timeout=20_000)
        page.get_by_role("button", name="Detener").click()
        expect(page.get_by_text(re.compile(r"Cálculo detenido|De las mismas")).first).to_be_visible(timeout=60_000)
