"""The saved lessons, opened in JupyterLab before any cell runs, as a teacher first sees them:
the environment the README's first command builds with the system's Python (shared with
tests/test_install.py and tests/browser/test_lab_spanish.py), JupyterLab started the README's
way with fresh user folders (a fresh JUPYTER_DATA_DIR, where Jupyter keeps its own trust
database), and Chromium opening 00 and 05 without running anything.

Every output the saved notebook holds as a picture (a fixed drawing, image/svg+xml, or a live
board, a widget view) must show a picture of cards: the drawing as an image of cards, the board
drawn from the widget state saved in the notebook. Not the text a notebook shows when it cannot
show the picture (the Python repr «<Citadel: partida n.º 1234, 0 movimientos>», the plain-text
line «Tablero de …», a sanitised copy of the HTML whose drawing is gone), and the notebook's tab
never gets JupyterLab's modified mark. Every code cell is collapsed, and its collapsed input
shows no Python: JupyterLab's placeholder would preview the first line of code, which the custom
CSS binder/postBuild installs hides."""

from __future__ import annotations

import contextlib
import json
import re

import pytest

pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium

from browser_helpers import BOARD_TIMEOUT_MS, SCREENSHOTS  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from playwright.sync_api import expect  # noqa: E402
from readme_command import SAME_VENV, lab_server, readme_install  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow, SAME_VENV]

TOKEN = "lab-first-open"
NOTEBOOKS = ["00_indice.ipynb", "05_citadel_y_beleaguered_castle.ipynb"]
WIDGET = "application/vnd.jupyter.widget-view+json"
SVG = "image/svg+xml"
# What a notebook shows instead of a picture: a Python repr, the widget's plain-text fallback.
NOT_A_PICTURE = re.compile(r"<[^<>]*(partida n.º|posición preparada|reparto elegido|object)[^<>]*>|Tablero de \w|VBox\(")
# The modified mark JupyterLab puts on a document's tab (and on its entry in «Pestañas abiertas»).
DIRTY = ".lm-TabBar-tab.jp-mod-dirty"

# One output, in the page: what it shows. A fixed drawing is an <img> (JupyterLab draws an SVG
# output as an image); a board is the widget's <svg>, whose cards carry data-card.
_OUTPUT_JS = """async (el) => {
    const out = {text: el.innerText, mime: el.getAttribute("data-mime-type"), cards: 0, image: false};
    for (const img of el.querySelectorAll("img")) {
        await img.decode().catch(() => null);
        if (!img.complete || img.naturalWidth < 100 || img.getBoundingClientRect().width < 100) continue;
        const src = img.getAttribute("src") || "";
        const body = await fetch(src).then(r => r.text()).catch(() => "");
        out.image = true;
        out.cards += (body.match(/data-card=/g) || []).length;
    }
    for (const card of el.querySelectorAll("svg [data-card]")) {
        const box = card.getBoundingClientRect();
        if (box.width > 10 && box.height > 10) out.cards += 1;
    }
    return out;
}"""


# Each collapsed code input of the page: the preview text JupyterLab puts in its placeholder,
# empty unless that text is shown (computed style, whether or not the cell is scrolled to).
_PLACEHOLDERS_JS = """(notebook) => [...notebook.querySelectorAll(".jp-CodeCell .jp-InputPlaceholder")].map(p => {
    const text = p.querySelector(".jp-PlaceholderText");
    const shown = text && text.checkVisibility({visibilityProperty: true, opacityProperty: true});
    return shown ? text.textContent.trim() : "";
})"""


def collapsed_code_shown(page, nb: dict, name: str) -> list[str]:
    """What is wrong with the collapsed code cells (empty: each is collapsed and shows no code)."""
    code = sum(cell["cell_type"] == "code" for cell in nb["cells"])
    previews = page.locator(".jp-Notebook").first.evaluate(_PLACEHOLDERS_JS)
    wrong = [f"{name}: {len(previews)} celdas de código plegadas de {code}"] if len(previews) != code else []
    return wrong + [f"{name}: una celda plegada muestra código: {text[:80]!r}" for text in previews if text]


def pictures(nb: dict) -> list[tuple[int, int, str]]:
    """(cell index, output index, what it is) of every saved board or drawing."""
    found = []
    for i, cell in enumerate(nb["cells"]):
        for k, output in enumerate(cell.get("outputs", [])):
            data = output.get("data", {})
            if WIDGET in data and "snb-static" in "".join(data.get("text/html", "")):
                found.append((i, k, "tablero"))
            elif SVG in data:
                found.append((i, k, "dibujo"))
    return found


def open_saved(page, base: str, name: str) -> None:
    """Open `name` and wait until its kernel is idle (the kernel's own description of itself has
    reached the page: what used to mark a notebook modified) and its saved widgets are drawn."""
    page.goto(f"{base}/lab/tree/{name}?token={TOKEN}&reset")
    page.locator(".jp-Notebook").first.wait_for(timeout=BOARD_TIMEOUT_MS)
    status = page.locator("#jp-main-statusbar")
    expect(status).to_contain_text(re.compile(r"Idle|Inactivo"), timeout=BOARD_TIMEOUT_MS)


def check_pictures(page, nb: dict, name: str) -> list[str]:
    """What is wrong with the saved pictures as the page shows them (empty: nothing)."""
    wrong = []
    waited = False  # the saved widgets are drawn all at once: wait for the first board only
    cells = page.locator(".jp-Notebook .jp-Cell")
    expect(cells).to_have_count(len(nb["cells"]), timeout=BOARD_TIMEOUT_MS)
    for i, k, kind in pictures(nb):
        output = cells.nth(i).locator(".jp-OutputArea-output").nth(k)
        output.scroll_into_view_if_needed(timeout=BOARD_TIMEOUT_MS)
        if kind == "tablero" and not waited:  # the board, drawn from the notebook's saved widget state
            waited = True
            with contextlib.suppress(PlaywrightTimeout):  # then the check below says what is there
                output.locator(".snb-board svg [data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
        seen = output.evaluate(_OUTPUT_JS)
        where = f"{name}, celda {i + 1} ({kind})"
        if seen["cards"] == 0:
            wrong.append(f"{where}: no se ven cartas, sino {seen['mime']!r}: {seen['text'][:100]!r}")
        elif NOT_A_PICTURE.search(seen["text"]):
            wrong.append(f"{where}: muestra texto en vez del dibujo: {seen['text'][:100]!r}")
    return wrong


def test_saved_lessons_open_as_saved(page, tmp_path_factory):
    done = readme_install(tmp_path_factory)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    wrong: list[str] = []
    with lab_server(done, TOKEN) as base:
        for name in NOTEBOOKS:
            nb = json.loads((done.root / "notebooks" / name).read_text(encoding="utf-8"))
            assert pictures(nb), f"{name} has no saved board or drawing to check"
            tab = page.context.new_page()  # a page of its own: leaving a modified notebook asks
            open_saved(tab, base, name)
            wrong += check_pictures(tab, nb, name)
            wrong += collapsed_code_shown(tab, nb, name)
            first = tab.locator(".jp-Notebook .jp-Cell").nth(pictures(nb)[0][0])
            first.scroll_into_view_if_needed()
            # Opened, drawn, the kernel described itself: still as saved, nothing to save. (The
            # wait also lets the cells scrolled to be painted before the screenshot.)
            tab.wait_for_timeout(3000)
            tab.screenshot(path=str(SCREENSHOTS / f"lab-first-open-{name[:2]}.png"))
            if tab.locator(DIRTY).count():
                wrong.append(f"{name}: JupyterLab lo marca como modificado nada más abrirlo")
            tab.close()
    assert not wrong, "\n".join(wrong)
