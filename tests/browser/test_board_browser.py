"""The board in a real browser: JupyterLab 4 and Voila serve a throw-away copy of a notebook
holding Citadel deal 1234; Chromium (Debian's, through Playwright) clicks a legal move and an
illegal one, and a screenshot of each goes to artifacts/screenshots/."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import (
    jupyterlab,
    keyboard_play_in_browser,
    play_board_in_browser,
    run_all_in_jupyterlab,
    screenshot,
    voila,
)

import solitaire_nb as sn

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).with_name("board_demo.ipynb")
GAME, SEED = "citadel", 1234


def moves_for_test() -> tuple[str, str]:
    """A legal move on the fresh deal, and a move refused right after it."""
    g = sn.new_game(GAME, seed=SEED)
    legal = g.legal_moves()[0]
    g.move(legal)
    ok = set(g.legal_moves())
    illegal = next(
        sn.Move(s, d)
        for s in g.pile_ids
        if s.startswith("T") and g.piles[s]
        for d in g.pile_ids
        if d.startswith("T") and d != s and g.piles[d] and sn.Move(s, d) not in ok
    )
    return str(legal), str(illegal)


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
