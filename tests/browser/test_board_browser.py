"""The board in a real browser: JupyterLab 4 and Voila serve a throw-away copy of a notebook
holding Citadel deal 1234; Chromium (Debian's, through Playwright) clicks a legal move and an
illegal one, and a screenshot of each goes to artifacts/screenshots/."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium

from browser_helpers import (  # noqa: E402
    jupyterlab,
    keyboard_play_in_browser,
    legal_then_refused,
    play_board_in_browser,
    run_all_in_jupyterlab,
    screenshot,
    voila,
)

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).with_name("board_demo.ipynb")
GAME, SEED = "citadel", 1234


def moves_for_test() -> tuple[str, str]:
    return legal_then_refused(GAME, SEED, onto_a_card=False)


def test_board_in_jupyterlab(page):
    legal, illegal = moves_for_test()
    with jupyterlab(NOTEBOOK) as url:
        run_all_in_jupyterlab(page, url)
        play_board_in_browser(page, GAME, SEED, legal, illegal)
        screenshot(page, "board-jupyterlab.png")


def test_board_in_voila(page):
    legal, illegal = moves_for_test()
    with voila(NOTEBOOK) as url:
        page.goto(url)
        play_board_in_browser(page, GAME, SEED, legal, illegal)
        screenshot(page, "board-voila.png")
        keyboard_play_in_browser(page, GAME, SEED, legal)
