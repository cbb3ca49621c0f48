"""Helpers for lesson pages opened in Chromium with the network cut (the static student app, the
JupyterLite site, the benchmark of the static app), where the lessons run in the browser's own
Python (Pyodide):

- `offline_context(browser, width)`: a browser context whose requests outside 127.0.0.1 are
  aborted, and the list they are recorded in;
- `check_exercise(page, name, answer)`: answer an exercise box and expect «¡Correcto!»;
- `count_wins(lab, ...)`: press a rules lab's «¿Cuántas se pueden ganar?» and wait for the
  count to end (or, with ``stop_after``, press «Detener» once that many deals are shown).
"""

from __future__ import annotations

import re
import time
from urllib.parse import urlsplit

CHECK_TIMEOUT_MS = 60_000
COUNT_BUTTON = "¿Cuántas se pueden ganar?"
#: what the lab shows while a count is on its way: the deals solved so far, of how many
_SO_FAR = re.compile(r"Partidas n.º 1 a (\d+) de cada juego \(de (\d+)")
_ALL = re.compile(r"Partidas n.º 1 a (\d+) de cada juego,")


def offline_context(browser, width: int, height: int = 900):
    """(context, aborted): requests outside 127.0.0.1 are aborted and listed in `aborted` (the
    page's and its workers', where Pyodide runs)."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="es-ES")
    aborted: list[str] = []

    def only_local(route) -> None:
        url = urlsplit(route.request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in ("127.0.0.1", "localhost"):
            aborted.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", only_local)
    return context, aborted


def check_exercise(page, name: str, answer: str) -> None:
    """Answer exercise `name` in its box (a text field, or a choice by its label) and expect
    «¡Correcto!» (or, for a word with its reason, «La respuesta es correcta»)."""
    from playwright.sync_api import expect

    from solitaire_nb.lessons.exercises import enunciado

    box = page.locator("div.widget-vbox", has=page.get_by_text(enunciado(name), exact=True)).last
    field = box.locator("input[type=text], textarea").first
    if field.count():
        field.fill(answer)
    else:  # a choice
        box.get_by_text(answer, exact=True).first.click()
    box.get_by_role("button", name="Comprobar").click()
    from solitaire_nb.lessons.reasoned import RIGHT_WORD

    expect(box).to_contain_text(re.compile(f"¡Correcto!|{re.escape(RIGHT_WORD)}"), timeout=CHECK_TIMEOUT_MS)


_WATCH_JS = """(button) => {
  const seen = {off: null, on: null};  // when the button was disabled, and enabled again after
  new MutationObserver(() => {
    if (button.disabled && seen.off === null) seen.off = performance.now();
    else if (!button.disabled && seen.off !== null && seen.on === null) seen.on = performance.now();
  }).observe(button, {attributes: true, attributeFilter: ['disabled']});
  return seen;
}"""


def count_wins(lab, timeout_s: float = 900, stop_after: int | None = None) -> dict[str, float]:
    """Press the lab's «¿Cuántas se pueden ganar?» and wait until the button is back (the count
    ended, watched as the button's disabled state, so a stored sample's instant count is seen
    too).  Returns the seconds from the click until the first deals were shown («first», absent
    when the sample was shown whole: a stored one), until the count ended («done»), and how many
    deals of each game were counted («deals»: the most seen while it went on, or all of them).  With `stop_after`, «Detener» is pressed once that
    many deals are on screen, and «stopped» is the seconds from that click to the end."""
    button = lab.get_by_role("button", name=COUNT_BUTTON, exact=True)
    handle = button.element_handle()
    seen = handle.evaluate_handle(_WATCH_JS)
    start = time.perf_counter()
    button.click()
    figures: dict[str, float] = {"deals": 0}
    pressed = None
    while time.perf_counter() - start < timeout_s:
        so_far = _SO_FAR.search(lab.inner_text())
        if so_far and int(so_far[1]) > figures["deals"]:
            figures.setdefault("first", time.perf_counter() - start)
            figures["deals"] = int(so_far[1])
        if seen.evaluate("s => s.on !== null"):
            figures["done"] = time.perf_counter() - start
            if figures.get("first") is not None and (whole := _ALL.search(lab.inner_text())):
                figures["deals"] = int(whole[1])  # the last deals may come between two looks
            if pressed is not None:
                figures["stopped"] = figures["done"] - pressed
            return figures
        if stop_after is not None and pressed is None and figures["deals"] >= stop_after:
            lab.get_by_role("button", name="Detener", exact=True).click()
            pressed = time.perf_counter() - start
        lab.page.wait_for_timeout(100)
    raise AssertionError(f"«{COUNT_BUTTON}» did not end in {timeout_s:.0f} s: {lab.inner_text()[-500:]}")
