"""The class launcher (``python -m solitaire_nb.classroom``) in Chromium, with two student pages.

A small lesson with a board, a link to another lesson, a link to a place in the page and a link
to the teacher's guide is served for two students on a free port, every request to another
machine aborted.  The tests, in order:

* every link a student can click opens what it names (here, a place in the page); links to
  lessons and files the launcher does not serve are plain text;
* a student's kernel killed with ``kill -9``: that page says, in Spanish, that the board must be
  reloaded; the other page plays on; after the reload the student's game is back;
* a closed tab shuts its kernel down (no ``_xsrf`` refusal), nothing is fetched from outside;
* Ctrl+C (SIGINT to the launcher's process group, as a terminal sends it) right after a tab
  closes ends every kernel and prints «Clase terminada», with no traceback and no English
  warning on the terminal;
* every lesson served for one student: its links to other lessons (05's to 06 and 07, the
  index's to every lesson) are text, and every link left is followed; once its live widgets are
  drawn, the page fits a phone at 360, 390 and 420 px (phone_fit.py; screenshots
  artifacts/screenshots/clase-NN-390.png).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

pytest.importorskip("playwright")  # the test extra: drives Chromium
pytest.importorskip("voila")  # the clase extra: serves the pages
psutil = pytest.importorskip("psutil")  # the clase extra: finds a page's kernel

from browser_helpers import BOARD_TIMEOUT_MS, REPO, free_port  # noqa: E402
from phone_fit import misfits, wait_for_widgets, widget_outputs  # noqa: E402
from test_clase import _nb  # noqa: E402  (the same small notebook maker as the launcher tests)

import solitaire_nb as sn  # noqa: E402
from solitaire_nb.games.notation import format_move  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "01_prueba.ipynb"


def _md(source: str) -> dict:
    return {"cell_type": "markdown", "id": f"md{abs(hash(source)) % 10**8}", "metadata": {}, "source": source}


def _code(source: str) -> dict:
    return {"cell_type": "code", "id": f"code{abs(hash(source)) % 10**8}", "metadata": {}, "outputs": [],
            "execution_count": None, "source": source}  # fmt: skip


class Launcher:
    """The launcher this module started, its log, and the way to stop it as a terminal does."""

    def __init__(self, folder: Path, lesson: str = "01", students: int = 2, lessons: Path | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / "clase.log"
        cmd = [sys.executable, "-m", "solitaire_nb.classroom", lesson, "--alumnos", str(students), "--puerto",
               str(self.port), "--ip", "127.0.0.1", "--carpeta", str(lessons or folder)]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
        with open(self.log, "w") as out:
            # Its own process group: SIGINT reaches it (and only it) as a terminal's Ctrl+C does.
            self.proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, env=env,
                                         start_new_session=True)  # fmt: skip

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, word: str, seconds: float = 300) -> None:
        deadline = time.monotonic() + seconds
        while word not in self.text():
            assert self.proc.poll() is None, self.text()
            assert time.monotonic() < deadline, self.text()
            time.sleep(0.5)

    def kernel_process(self, kernel_id: str):
        for child in psutil.Process(self.proc.pid).children(recursive=True):
            try:
                if any(kernel_id in part for part in child.cmdline()):
                    return child
            except psutil.Error:
                pass
        return None

    def ctrl_c(self) -> int:
        os.killpg(self.proc.pid, signal.SIGINT)  # the launcher's own group, started above
        return self.proc.wait(timeout=120)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def launcher(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clase")
    nb = _nb([
        _md("# Lección de prueba\n\nSigue en [02 · Otra lección](02_otra.ipynb), lee la "
            "[guía](guia_docente.md) o ve a [la partida](#La-partida)."),
        _md('## La partida\n\nO <a href="02_otra.ipynb">la otra</a>.'),
        _code("import solitaire_nb as sn\nsn.play('citadel', seed=1234)"),
        _code("sn.new_game('bakers_dozen', seed=3)"),  # a static picture, as lessons show positions
    ])  # fmt: skip
    (folder / LESSON).write_text(json.dumps(nb))
    (folder / "02_otra.ipynb").write_text(json.dumps(_nb([_md("# Otra")])))
    (folder / "guia_docente.md").write_text("# Guía\n")
    launched = Launcher(folder)
    try:
        launched.wait_for("Listo")
        yield launched
    finally:
        launched.stop()


@pytest.fixture(scope="module")
def outside():
    """Every request to another machine made by the pages of this module (each is aborted)."""
    return []


def _student(chromium, outside: list[str]):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")

    def only_local(route) -> None:
        if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    return context, context.new_page()


def _open(page, url: str) -> None:
    page.goto(url, timeout=BOARD_TIMEOUT_MS)
    page.locator(".snb-board [data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)


def _kernel_id(page) -> str:
    return page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def _play_typed(page) -> str:
    """Type the first legal move of the deal on the page's board; return it as typed."""
    from playwright.sync_api import expect

    board = page.locator(".snb-board").first
    game = sn.new_game(board.get_attribute("data-game"), seed=int(board.get_attribute("data-seed")))
    typed = format_move(game, game.legal_moves()[0])
    box = board.locator(".snb-text")
    box.fill(typed)
    box.press("Enter")
    expect(board).to_have_attribute("data-moves", "1", timeout=60_000)
    return typed


def _follow_links(page) -> list[str]:
    """Click every link the page's cells show; each must lead to one place in the page (the
    only links the launcher leaves).  Links the page does not show (the "¶" beside each
    heading) are not followed.  Returns the links followed."""
    links = page.evaluate(
        """() => [...document.querySelectorAll("#rendered_cells a[href]")]
             .map((a, i) => [i, a.getAttribute("href"), getComputedStyle(a).display !== "none"
                             && a.getClientRects().length > 0])
             .filter(([, , shown]) => shown)"""
    )
    hrefs = [href for _, href, _ in links]
    assert all(h.startswith("#") for h in hrefs), [h for h in hrefs if not h.startswith("#")]
    for i, href, _ in links:
        place = unquote(href[1:])
        targets = page.evaluate(
            "(place) => [...document.querySelectorAll('[id]')].filter((e) => e.id === place"
            " || decodeURIComponent(e.id) === place).length",
            place,
        )
        assert targets == 1, f"{href} lleva a {targets} sitios de la página"
        page.locator("#rendered_cells a[href]").nth(i).click()
        assert unquote(page.evaluate("() => location.hash")) == unquote(href)
    return hrefs


def test_every_link_opens_what_it_names(chromium, launcher, outside):
    context, page = _student(chromium, outside)
    try:
        _open(page, launcher.base + "/")
        cells = page.locator("#rendered_cells")
        assert "02 · Otra lección" in cells.inner_text() and "guía" in cells.inner_text()
        # Only the link to a place in the page is left (the headings' own ¶ links are hidden).
        assert _follow_links(page) == ["#La-partida"]
        assert page.locator("#rendered_cells .jp-InternalAnchorLink, #rendered_cells .anchor-link").count() > 0
        page.get_by_role("link", name="la partida").click()
        assert page.evaluate("() => location.hash") == "#La-partida"
    finally:
        context.close()


def test_a_phone_sees_every_pile_of_boards_and_pictures(chromium, launcher, outside):
    """At 360 px the board is drawn for the phone's width, and a static picture shrinks to it:
    every pile's label inside the window, nothing cut, the page not scrolling sideways."""
    context = chromium.new_context(viewport={"width": 360, "height": 800}, locale="es-ES")
    context.route("**/*", lambda route: route.continue_() if urlsplit(route.request.url).hostname
                  in ("127.0.0.1", "localhost") else (outside.append(route.request.url), route.abort()))  # fmt: skip
    page = context.new_page()
    try:
        _open(page, launcher.base + "/")
        page.wait_for_function(
            """() => { const svg = document.querySelector(".snb-board svg");
                       return svg && Number(svg.getAttribute("width")) <= window.innerWidth; }""",
            timeout=BOARD_TIMEOUT_MS,
        )
        labels = page.evaluate(
            """() => [...document.querySelectorAll(".snb-board g.snb-pile > text:not(.snb-count)")]
                 .map((t) => t.getBoundingClientRect()).filter((r) => r.left < 0 || r.right > window.innerWidth).length"""
        )
        assert labels == 0
        pictures = page.locator("#rendered_cells .jp-RenderedSVG img")
        assert pictures.count() == 1
        box = pictures.first.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert page.evaluate("document.documentElement.scrollWidth") <= 361
        page.screenshot(path=str(REPO / "artifacts" / "screenshots" / "clase-360.png"), full_page=True)
    finally:
        context.close()


def test_killed_kernel_is_told_and_the_game_comes_back(chromium, launcher, outside):
    from playwright.sync_api import expect

    one, page = _student(chromium, outside)
    two, other = _student(chromium, outside)
    try:
        _open(page, launcher.base + "/")
        _open(other, launcher.base + "/")
        typed = _play_typed(page)
        kernel = launcher.kernel_process(_kernel_id(page))
        assert kernel is not None, "no encuentro el núcleo de la página"
        kernel.send_signal(signal.SIGKILL)  # kill -9 of the kernel this launcher started
        note = page.locator(".snb-lost-note")
        expect(note).to_be_visible(timeout=90_000)
        assert "Recarga la página" in note.inner_text() and "partida" in note.inner_text()
        # The other student plays on.
        _play_typed(other)
        # The reloaded page gets the game back, from the browser's storage.
        page.get_by_role("button", name="Recargar la página").click()
        page.locator(".snb-board [data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
        board = page.locator(".snb-board").first
        expect(board).to_have_attribute("data-moves", "1", timeout=60_000)
        expect(board.locator(".snb-message")).to_contain_text("Tu partida ha vuelto")
        assert typed.split()[0] in board.locator(".snb-moves-list").inner_text().replace("Tablero ", "T")
        assert page.locator(".snb-lost-note").count() == 0
    finally:
        one.close()
        two.close()


def test_closed_tab_ends_its_kernel_and_nothing_comes_from_outside(chromium, launcher, outside):
    context, page = _student(chromium, outside)
    _open(page, launcher.base + "/")
    kernel = launcher.kernel_process(_kernel_id(page))
    assert kernel is not None
    # Playwright's routing would hold the page's last request (its shutdown, sent as it unloads).
    context.unroute("**/*")
    page.goto("about:blank")  # the student leaves: the page's beforeunload asks for its shutdown
    page.wait_for_timeout(1000)
    context.close()
    try:
        kernel.wait(timeout=60)
    except psutil.TimeoutExpired:
        pytest.fail("el núcleo de una pestaña cerrada sigue en marcha\n" + launcher.text()[-2000:])
    # a refused request (403 for a missing _xsrf) would be logged; the port may contain «403»
    assert "_xsrf" not in launcher.text() and not re.search(r"\b403\b", launcher.text())
    assert outside == [], f"las páginas piden fuera de este ordenador: {outside[:5]}"


def test_ctrl_c_ends_the_class_quietly(launcher):
    kernels = psutil.Process(launcher.proc.pid).children(recursive=True)
    assert kernels
    assert launcher.ctrl_c() == 0
    text = launcher.text()
    assert "Clase terminada" in text
    for english in ("Traceback", "KeyboardInterrupt", "ZMQError", "Task exception", "websocket_ping",
                    "WARNING", "Error", "warn"):  # fmt: skip
        assert english not in text, f"«{english}» en la terminal:\n{text[-3000:]}"
    gone, alive = psutil.wait_procs(kernels, timeout=30)
    assert not alive, f"núcleos sin cerrar: {[p.pid for p in alive]}"


LESSON_FILES = sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# What each lesson names in a link to another lesson: on its student page, text, not a link.
NAMED = {
    "00_indice.ipynb": ["05 · Citadel y Beleaguered Castle", "08 · Laboratorio de reglas"],
    "05_citadel_y_beleaguered_castle.ipynb": ["06 · Citadel frente a Beleaguered Castle", "07 · Probabilidades"],
}


@pytest.mark.parametrize("name", LESSON_FILES)
def test_every_link_of_every_lesson_opens_what_it_names(chromium, tmp_path, outside, name):
    """Each lesson served by the launcher for one student: its links to the lessons it does not
    serve are text, and every link left (a place in the page) is followed."""
    lesson = Launcher(tmp_path, name[:2], students=1, lessons=REPO / "notebooks")
    try:
        lesson.wait_for("Listo", seconds=600)
        context, page = _student(chromium, outside)
        try:
            page.goto(lesson.base + "/", timeout=BOARD_TIMEOUT_MS * 3)
            page.locator("#rendered_cells").wait_for(state="visible", timeout=BOARD_TIMEOUT_MS * 3)
            text = page.locator("#rendered_cells").inner_text()
            for named in NAMED.get(name, []):
                assert named in text, f"{name}: falta «{named}»"
            followed = _follow_links(page)
            print(f"\n{name}: {len(followed)} enlaces seguidos")
            # the page on a phone, its live widgets drawn: nothing cut, no sideways scroll
            wait_for_widgets(page, widget_outputs(REPO / "notebooks" / name), BOARD_TIMEOUT_MS)
            assert misfits(page) == {}, name
            page.set_viewport_size({"width": 390, "height": 900})
            page.screenshot(path=str(REPO / "artifacts" / "screenshots" / f"clase-{name[:2]}-390.png"))
        finally:
            context.close()
        assert lesson.ctrl_c() == 0
    finally:
        lesson.stop()
    assert outside == [], f"las páginas piden fuera de este ordenador: {outside[:5]}"
