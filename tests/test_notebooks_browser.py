"""A reader in a real browser: JupyterLab serves a copy of the Citadel notebook (05), Chromium
opens it, runs all cells, and plays a legal and an illegal move on the board of partida n.º 1234.
A student in Voila (no code): the Scotch notebook (03) as an app, a move on its board and an
exercise answered in its box.

Reuses the board's browser helpers (tests/browser/browser_helpers.py): the server, Chromium and
the clicking are theirs; this file only chooses the notebook and the moves.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")  # the test extra
pytest.importorskip("playwright")  # the test extra: drives Chromium

sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))

from browser_helpers import (  # noqa: E402
    jupyterlab,
    legal_then_refused,
    play_board_in_browser,
    run_all_in_jupyterlab,
    screenshot,
    voila,
)

import solitaire_nb as sn  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "05_citadel_y_beleaguered_castle.ipynb"
GAME, SEED = "citadel", 1234  # the notebook's «Prueba tú» board: sn.play("citadel", seed=1234, solution=False)


def moves_for_test() -> tuple[str, str]:
    return legal_then_refused(GAME, SEED, onto_a_card=True)


def test_notebook_05_as_a_reader(page):
    sources = "\n".join(c.source for c in nbformat.read(NOTEBOOK, as_version=4).cells)
    assert f'sn.play("{GAME}", seed={SEED}, solution=False)' in sources
    legal, illegal = moves_for_test()
    with jupyterlab(NOTEBOOK) as url:
        run_all_in_jupyterlab(page, url)
        play_board_in_browser(page, GAME, SEED, legal, illegal)
        screenshot(page, "notebook-05-jupyterlab.png")


def test_notebook_03_in_voila_as_a_student(page):
    from playwright.sync_api import expect

    game, seed = "scotch", 1233  # the lesson's whole deal (won)
    g = sn.new_game(game, seed=seed)
    legal = next(m for m in g.legal_moves() if m.dst.startswith("T"))
    g.move(legal)
    ok = set(g.legal_moves())
    illegal = next(
        sn.Move(s, d) for s in g.pile_ids if s.startswith("T") and g.piles[s]
        for d in g.pile_ids if d.startswith("T") and d != s and g.piles[d] and sn.Move(s, d) not in ok
    )  # fmt: skip
    with voila(NOTEBOOK.with_name("03_scotch.ipynb")) as url:
        page.goto(url)
        play_board_in_browser(page, game, seed, str(legal), str(illegal))
        box = page.locator(".widget-vbox", has_text="abanico puede ir el 8 de corazones").last
        box.locator("textarea").fill("9S 9H 9D 9C")
        box.get_by_role("button", name="Comprobar").click()
        expect(box).to_contain_text("¡Correcto!", timeout=20_000)
        screenshot(page, "notebook-03-voila.png")
