"""The boards for a keyboard, a screen reader and a small screen, in a real browser: Voila serves
a throw-away copy of a notebook with a board of each of the six games (and one without hints
or solver); Chromium (Debian's, through Playwright) plays a move with the keyboard alone and
reads its announcement, measures the cards at a phone's and a laptop's width, and runs an
axe-core audit over the boards.  Screenshots and the audit's report go to artifacts/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium

from browser_helpers import (  # noqa: E402
    BOARD_TIMEOUT_MS,
    REPO,
    board_locator,
    launch_chromium,
    require_axe,
    require_chromium,
    screenshot,
    voila,
)

import solitaire_nb as sn  # noqa: E402

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).with_name("boards_all_games.ipynb")
BOARDS = [
    ("citadel", 1234),
    ("beleaguered_castle", 3),
    ("bakers_dozen", 3),
    ("scotch", 3),
    ("moving_left", 3),
    ("chequers", 3),
]
LOCKED = ("citadel", 77)  # hints=False, solution=False
SOLVER_BUTTONS = ["hint", "solvable", "solution", "next", "auto"]
MIN_CARD_PX = 40  # a card narrower than this on screen is a thumbnail, not a card


@pytest.fixture(scope="module")
def boards_page(playwright_session):
    """One Voila page holding every board, shared by this module's tests (a page load runs
    the notebook in a new kernel: slow on a busy machine)."""
    require_chromium()
    browser = launch_chromium(playwright_session)
    try:
        with voila(NOTEBOOK) as url:
            context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="es-ES")
            page = context.new_page()
            page.goto(url)
            for name, seed in [*BOARDS, LOCKED]:
                board_locator(page, name, seed).locator("svg [data-pile]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
            yield page
            context.close()
    finally:
        browser.close()


def test_axe_finds_no_serious_problem_in_the_boards(boards_page):
    page = boards_page
    page.add_script_tag(path=str(require_axe()))
    report = page.evaluate(
        """async () => axe.run({include: [[".snb-board"]]}, {resultTypes: ["violations", "passes"]})"""
    )
    out = REPO / "artifacts" / "axe-boards.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    checked = {node["target"][0] for rule in report["passes"] for node in rule["nodes"]}
    assert checked, "axe checked nothing inside the boards"
    bad = [
        (v["id"], v["impact"], len(v["nodes"]), v["nodes"][0]["html"][:160], v["nodes"][0]["failureSummary"][:200])
        for v in report["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)


def test_switched_off_board_shows_no_hint_or_solver_button(boards_page):
    locked = board_locator(boards_page, *LOCKED)
    usual = board_locator(boards_page, *BOARDS[0])
    for name in SOLVER_BUTTONS:
        assert not locked.locator(f'[data-button="{name}"]').is_visible(), name
        assert usual.locator(f'[data-button="{name}"]').is_visible(), name
    assert locked.locator('[data-button="undo"]').is_visible()
    # Saved there, its game could be loaded and solved on another board (issue 44).
    assert not locked.locator("details.snb-save").is_visible()
    assert usual.locator("details.snb-save").is_visible()


# 320 px is also a 1280-px window at 400 % zoom: the page reflows and the cards stay cards.
@pytest.mark.parametrize("width", [320, 420, 1280])
def test_cards_keep_a_readable_size(boards_page, width):
    page = boards_page
    page.set_viewport_size({"width": width, "height": 1000})
    try:
        # Each board measures its new width and the kernel draws it again to fit: wait for that.
        page.wait_for_function(
            """() => [...document.querySelectorAll(".snb-board")].every((b) => {
                 const svg = b.querySelector(".snb-table svg");
                 return svg && svg.getBoundingClientRect().width <= b.querySelector(".snb-main").clientWidth + 1; })""",
            timeout=BOARD_TIMEOUT_MS,
        )
        page.wait_for_timeout(500)  # the last redraw settles
        for name, seed in BOARDS:
            board = board_locator(page, name, seed)
            card = board.locator("[data-card]").first
            box = card.bounding_box()
            assert box is not None and box["width"] >= MIN_CARD_PX, (name, width, box)
        # The page itself never scrolls sideways: a wide board scrolls inside its frame.
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
        board_locator(page, *BOARDS[0]).scroll_into_view_if_needed()
        screenshot(page, f"boards-{width}px.png")
    finally:
        page.set_viewport_size({"width": 1280, "height": 1000})


def _active(page) -> dict:
    return page.evaluate(
        """() => { const a = document.activeElement;
            return {pile: a.getAttribute("data-pile"), index: a.getAttribute("data-index"),
                    inTable: !!a.closest(".snb-table"), button: a.getAttribute("data-button"),
                    tabindex: a.getAttribute("tabindex"), name: a.getAttribute("aria-label")}; }"""
    )


def _walk_to(page, pile: str, index: int | None) -> None:
    """Arrow keys only: Home, then → pile by pile, then ↑ to the card asked for."""
    page.keyboard.press("Home")
    for _ in range(40):
        if _active(page)["pile"] == pile:
            break
        page.keyboard.press("ArrowRight")
    assert _active(page)["pile"] == pile, _active(page)
    for _ in range(30):
        if index is None or _active(page)["index"] == str(index):
            return
        page.keyboard.press("ArrowUp")
    raise AssertionError(f"no card {index} on {pile}: {_active(page)}")


def test_a_move_with_the_keyboard_alone_is_announced(boards_page):
    from playwright.sync_api import expect

    page = boards_page
    name, seed = BOARDS[0]
    board = board_locator(page, name, seed)
    live = board.locator('[aria-live="polite"]')
    assert board.get_attribute("lang") == "es"
    game = sn.new_game(name, seed=seed)
    move = next(m for m in game.legal_moves() if m.dst.startswith("T"))
    expected = sn.Board(sn.new_game(name, seed=seed))
    expected.type_move(f"{move.src[0]}{int(move.src[1:]) + 1} {move.dst[0]}{int(move.dst[1:]) + 1}")
    assert expected.game.moves_played == 1

    # Tab from the toolbar's last button enters the drawing: one stop, whatever its cards.
    board.locator('[data-button="auto"]').focus()
    page.keyboard.press("Tab")
    first = _active(page)
    assert first["inTable"] and first["tabindex"] == "0", first
    page.keyboard.press("Tab")
    assert not _active(page)["inTable"], "a second Tab must leave the board"
    page.keyboard.press("Shift+Tab")
    assert _active(page)["inTable"]
    assert board.locator('.snb-table [tabindex="0"]').count() == 1

    page.keyboard.press("Escape")
    expect(live).to_have_text("No había ninguna carta elegida.", timeout=20_000)

    _walk_to(page, move.src, len(game.piles[move.src]) - 1)
    card = game.piles[move.src][-1]
    assert _active(page)["name"].startswith(f"{card.nombre}, {game.label(move.src)}, carta")
    page.keyboard.press("Enter")
    expect(live).to_contain_text("Elegida", timeout=20_000)
    expect(board.locator(f'[data-pile="{move.src}"][aria-pressed="true"]')).to_have_count(1)
    _walk_to(page, move.dst, None)
    page.keyboard.press("Enter")
    expect(board).to_have_attribute("data-moves", "1", timeout=20_000)
    expect(live).to_have_text(expected.view["message"], timeout=20_000)
    after = _active(page)
    assert after["inTable"] and after["pile"] == move.dst, after  # focus follows the card

    # Deshacer by keyboard disables itself: focus goes back to the board, not to the page.
    board.locator('[data-button="undo"]').focus()
    page.keyboard.press("Enter")
    expect(board).to_have_attribute("data-moves", "0", timeout=20_000)
    expect(live).to_have_text("Movimiento deshecho.", timeout=20_000)
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('.snb-table')")
    screenshot(page, "board-keyboard.png")
