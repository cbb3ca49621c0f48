"""Every board a student meets, on a phone: Voila serves a throw-away notebook holding a live
board of each of the six games and of a 13-column composed game, two exercise boards, an
exercise box, the lab (two boards) and the study's dealing widget; Chromium, at 360, 390 and
420 px, checks that every pile's label lies inside the window, that cards stay at least 40 px
wide and that the page never scrolls sideways.  Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium

from browser_helpers import (  # noqa: E402
    BOARD_TIMEOUT_MS,
    SCREENSHOTS,
    launch_chromium,
    require_chromium,
    screenshot,
    voila,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).with_name("boards_phone.ipynb")
GAMES = ["citadel", "beleaguered_castle", "bakers_dozen", "scotch", "moving_left", "chequers", "citadel+columns=13"]
# Live boards: the seven above, two exercise boards and the lab's two; then the deal pair's two
# pictures (static drawings inside a widget).
LIVE_BOARDS = len(GAMES) + 2 + 2
PICTURES = 2
MIN_CARD_PX = 40

# For each drawing on the page: the piles whose label leaves the window sideways, and its
# narrowest card's width on screen (an empty pile's outline has a card's size).
MEASURE_JS = """(width) => [...document.querySelectorAll("svg.snb-svg")].map((svg) => {
  const board = svg.closest(".snb-board");
  const out = [];
  let card = Infinity;
  for (const pile of svg.querySelectorAll("g.snb-pile")) {
    const label = pile.querySelector(":scope > text:not(.snb-count)");
    const r = label.getBoundingClientRect();
    if (r.left < -0.5 || r.right > width + 0.5) out.push(`${label.textContent} ${Math.round(r.left)}–${Math.round(r.right)}`);
    const hole = pile.querySelector("rect.snb-hole").getBoundingClientRect();
    card = Math.min(card, hole.width);
  }
  return {game: svg.getAttribute("data-game"), live: !!board, out, card: Math.round(card * 10) / 10,
          piles: svg.querySelectorAll("g.snb-pile").length};
})"""


@pytest.fixture(scope="module")
def phone_page(playwright_session):
    """One Voila page with every board (a page load runs the notebook in a new kernel)."""
    require_chromium()
    browser = launch_chromium(playwright_session)
    try:
        with voila(NOTEBOOK) as url:
            context = browser.new_context(viewport={"width": 420, "height": 900}, locale="es-ES", has_touch=True)
            page = context.new_page()
            page.goto(url, timeout=BOARD_TIMEOUT_MS)
            page.wait_for_function(
                f"""() => document.querySelectorAll(".snb-board svg.snb-svg").length >= {LIVE_BOARDS}
                    && document.querySelectorAll("svg.snb-svg").length >= {LIVE_BOARDS + PICTURES}""",
                timeout=BOARD_TIMEOUT_MS,
            )
            yield page
            context.close()
    finally:
        browser.close()


def _fits(drawing: dict) -> bool:
    return not drawing["out"] and drawing["card"] >= MIN_CARD_PX - 0.5


@pytest.mark.parametrize("width", [360, 390, 420])
def test_every_pile_is_in_view_on_a_phone(phone_page, width):
    page = phone_page
    page.set_viewport_size({"width": width, "height": 900})
    # Each board measures its new width and the kernel draws it again to fit: wait for that.
    try:
        page.wait_for_function(
            f"() => ({MEASURE_JS})({width}).every((d) => !d.out.length && d.card >= {MIN_CARD_PX - 0.5})",
            timeout=BOARD_TIMEOUT_MS,
        )
    except Exception:  # noqa: BLE001 - the assertions below say what does not fit
        pass
    drawings = page.evaluate(MEASURE_JS, width)
    games = {d["game"] for d in drawings if d["live"]}
    assert set(GAMES) <= games, games
    assert sum(d["live"] for d in drawings) >= LIVE_BOARDS, drawings
    assert sum(not d["live"] for d in drawings) >= PICTURES, drawings
    bad = [d for d in drawings if not _fits(d)]
    rooms = page.evaluate("() => [...document.querySelectorAll('.snb-board .snb-main')].map((m) => m.clientWidth)")
    assert not bad, f"widths {rooms}\n" + json.dumps(bad, ensure_ascii=False, indent=1)
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    # Nothing to say about overflow when everything fits.
    assert page.locator(".snb-more:visible").count() == 0
    page.locator(".snb-board").nth(2).scroll_into_view_if_needed()  # Baker's Dozen
    screenshot(page, f"phone-boards-{width}px.png")
    if width == 360:  # each drawing on its own, for a reader of the report
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        svgs = page.locator("svg.snb-svg")
        for i in range(svgs.count()):
            name = re.sub(r"[^a-z0-9]+", "-", (svgs.nth(i).get_attribute("data-game") or "").lower())
            svgs.nth(i).screenshot(path=str(SCREENSHOTS / f"phone-360-{i:02d}-{name}.png"))


def test_a_drawing_wider_than_its_board_says_so(phone_page):
    """Where no layout fits (here a board 90 px wide), the table fades at its right edge
    and a Spanish line says the board goes on; scrolled to its end, the fade goes."""
    page = phone_page
    page.set_viewport_size({"width": 420, "height": 900})
    board = page.locator(".snb-board").first
    board.evaluate("(b) => { b.style.width = '90px'; b.style.maxWidth = '90px'; }")
    try:
        more = board.locator(".snb-more")
        more.wait_for(state="visible", timeout=60_000)
        assert "desliza" in more.inner_text()
        table = board.locator(".snb-table")
        assert "snb-overflow" in (table.get_attribute("class") or "")
        table.evaluate("(t) => { t.scrollLeft = t.scrollWidth; t.dispatchEvent(new Event('scroll')); }")
        page.wait_for_function(
            "(t) => !t.classList.contains('snb-overflow')", arg=table.element_handle(), timeout=10_000
        )
    finally:
        board.evaluate("(b) => { b.style.width = ''; b.style.maxWidth = ''; }")
