"""The static student app (student/build.py, a Voici site): no teacher material in it; in Debian's
Chromium with every non-local request aborted, lesson 05 shows its text at once under a Spanish
«Cargando Python…» line, runs by itself, its first board plays a typed move with no menu clicked,
and after a reload the board has its game back; lesson 06 (the study, without NumPy or
matplotlib) deals both ways, counts, draws its plots, checks an exercise and simulates; 07 and
08 (their plots drawn as SVG) play a board and check an exercise, and 08's «¿Cuántas se pueden
ganar?» counts deal by deal and stops; every page fits a phone at 360, 390 and 420 px
(phone_fit.py: live for 05 to 08, 08 after its count, the text and pictures of every page
before Python); every link opens a page of the site, and the Spanish 404.html leads back to the
lessons.

The build makes its own environment (student/.cache/venv) from lite/requirements.txt.
``SNB_STUDENT_SITE=student/_output`` reuses an already built site (built from the current code).
"""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from parallel import run_lock

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "browser"))
pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium

from browser_helpers import (  # noqa: E402
    SCREENSHOTS,
    legal_then_refused,
    require_chromium,
    serve_static,
)
from offline import COUNT_BUTTON, check_exercise, count_wins, offline_context  # noqa: E402
from phone_fit import misfits  # noqa: E402

LESSON = "05_citadel_y_beleaguered_castle"
LESSON_TITLE = "Citadel y Beleaguered Castle"
GAME, SEED = "beleaguered_castle", 1234  # the lesson's first board
STUDY = "06_citadel_vs_beleaguered_castle"
STUDY_TITLE = "Citadel frente a Beleaguered Castle: ¿cuánto acorta las columnas el reparto?"
ATLAS_TITLE = "¿Cuántas partidas tienen solución? El atlas de probabilidades"
LAB_TITLE = "Laboratorio de reglas: inventa una variante y mide lo que cambia"
RUN_TIMEOUT_MS = 420_000  # Pyodide + IPython start, then the cells, on a busy 2-core machine


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


build = _load("student_build", REPO / "student" / "build.py")
snapshot = build.snapshot


def _nb(cells: list[dict]) -> dict:
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


# ---------------------------------------------------------------------- what goes in (fast)
def test_student_notebook_has_no_teacher_cells_hides_code_and_keeps_outputs() -> None:
    saved = [{"output_type": "execute_result", "data": {"text/html": "<p>tablero</p>"}, "metadata": {}}]
    nb = _nb(
        [
            {"cell_type": "markdown", "source": ["# Lección\n", "texto"], "metadata": {}},
            {"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": saved},
            {"cell_type": "code", "source": "respuesta = 8", "metadata": {"tags": ["docente"]}, "outputs": []},
        ]
    )
    out = build.student_notebook(nb)
    sources = [c["source"] for c in out["cells"]]
    assert sources == ["# Lección\ntexto", "x = 1"]
    code = out["cells"][1]
    assert code["metadata"]["jupyter"]["source_hidden"] is True and code["outputs"] == saved  # the snapshot


def test_only_offline_lessons_and_only_notebooks(tmp_path: Path) -> None:
    src = tmp_path / "nb"
    src.mkdir()
    (src / "01_a.ipynb").write_text(json.dumps(_nb([{"cell_type": "code", "source": "import solitaire_nb"}])))
    (src / "06_b.ipynb").write_text(json.dumps(_nb([{"cell_type": "code", "source": "import numpy as np"}])))
    (src / "_construir.py").write_text("")
    (src / "guia_docente.md").write_text("# Guía")
    (src / "01_a.md").write_text("MyST")
    written, left_out = build.select_notebooks([src], tmp_path / "files")
    assert written == ["01_a.ipynb"] and left_out == ["06_b.ipynb"]
    assert sorted(p.name for p in (tmp_path / "files").iterdir()) == ["01_a.ipynb"]


def test_teacher_material_is_found(tmp_path: Path) -> None:
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "guia_docente.md").write_text("")
    (tmp_path / "files" / "01.ipynb").write_text(
        json.dumps(_nb([{"cell_type": "code", "source": "", "metadata": {"tags": ["docente"]}}]))
    )
    assert sorted(build.teacher_material(tmp_path)) == ["files/01.ipynb", "files/guia_docente.md"]


def test_lessons_in_the_guides_teaching_order_with_their_titles(tmp_path: Path) -> None:
    guide = tmp_path / "guia.md"
    guide.write_text(
        "## Orden que proponemos\n\n1. [00 · Índice](00_a.ipynb)\n2. [05 · C](05_c.ipynb)\n3. [04 · B](04_b.ipynb)\n"
        "\n## Otra sección\n\n[01](01_z.ipynb)\n",
        encoding="utf-8",
    )
    names = ["00_a.ipynb", "01_z.ipynb", "04_b.ipynb", "05_c.ipynb"]
    assert snapshot.teaching_order(names, guide) == ["00_a.ipynb", "05_c.ipynb", "04_b.ipynb", "01_z.ipynb"]
    nb = _nb([{"cell_type": "code", "source": "import sys"}, {"cell_type": "markdown", "source": "# Scotch\n\nTexto"}])
    assert snapshot.title(nb, "03_scotch.ipynb") == "Scotch"
    assert snapshot.title(_nb([]), "03_scotch.ipynb") == "03_scotch"


def test_links_to_missing_lessons_become_text() -> None:
    html = '<p><a href="05_a.html">05 · A</a> y <a href="06_b.html#x">06 · B</a> <a href="#ancla">¶</a></p>'
    out = snapshot.unlink_missing(html, {"05_a.html"})
    assert '<a href="05_a.html">05 · A</a>' in out
    assert "06_b.html" not in out and '<span class="snb-sin-enlace">06 · B</span>' in out
    assert '<a href="#ancla">' in out


def test_snapshot_of_saved_outputs() -> None:
    nb = _nb(
        [
            {
                "cell_type": "code",
                "id": "a1",
                "source": "",
                "outputs": [
                    {"output_type": "stream", "name": "stderr", "text": "aviso"},
                    {"output_type": "stream", "name": "stdout", "text": ["1 < 2\n"]},
                    {"output_type": "display_data", "data": {"text/html": "<b>T</b>", "text/plain": "x"}},
                    {"output_type": "error", "ename": "E", "evalue": "", "traceback": []},
                ],
            },
            {"cell_type": "code", "id": "a2", "source": "", "outputs": []},
        ]
    )
    assert snapshot.snapshots(nb) == {"a1": "<pre>1 &lt; 2\n</pre><b>T</b>"}


# ---------------------------------------------------------------------- the built site
@pytest.fixture(scope="module")
def student_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_chromium()
    if os.environ.get("SNB_STUDENT_SITE"):
        return Path(os.environ["SNB_STUDENT_SITE"]).resolve()
    if importlib.util.find_spec("ensurepip") is None:
        pytest.skip("python3 -m venv cannot make the build environment here (Debian: apt install python3-venv)")
    output = tmp_path_factory.mktemp("student") / "site"
    with run_lock(tmp_path_factory, "lite-cache"):  # lite/.cache is shared with the other site's build
        proc = subprocess.run(
            [sys.executable, str(REPO / "student" / "build.py"), "--output", str(output)],
            capture_output=True,
            text=True,
            timeout=1800,
        )
    assert proc.returncode == 0, f"student/build.py failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return output


@pytest.fixture(scope="module")
def site_url(student_site: Path) -> Iterator[str]:
    with serve_static(student_site) as url:
        yield url


@pytest.mark.slow
def test_site_has_no_teacher_material_and_lists_lessons_by_title(student_site: Path) -> None:
    assert build.teacher_material(student_site) == []
    assert snapshot.external_links(student_site) == []
    names = {p.name for p in (student_site / "files").iterdir()}
    assert f"{LESSON}.ipynb" in names and "guia_docente.md" not in names
    assert all(n.endswith(".ipynb") for n in names), names
    start = (student_site / "alumnos.html").read_text(encoding="utf-8")
    titles = re.findall(r'<a href="voici/render/[^"]+">([^<]+)</a>', start)
    # the guide's order: 00, 05, 04, 03, 01, 02, 06, 07, 08 (every lesson runs offline)
    assert titles == [
        "Solitarios para aprender: índice",
        LESSON_TITLE,
        "Baker's Dozen",
        "Scotch",
        "Chequers",
        "Moving Left",
        STUDY_TITLE,
        ATLAS_TITLE,
        LAB_TITLE,
    ]
    page = (student_site / "voici" / "render" / f"{LESSON}.html").read_text(encoding="utf-8")
    assert "Cargando Python…" in page and "snb-snapshot" in page
    # The browser's tab: the lesson's Spanish title (the notebook's metadata), not its file name.
    tab = re.search(r"<title>(.*?)</title>", page, re.S)
    assert tab and html.unescape(tab[1].strip()) == f"{LESSON_TITLE} · Solitarios para aprender", tab
    assert '<a href="06_citadel_vs_beleaguered_castle.html' in page  # in the site: a link
    missing = (student_site / "404.html").read_text(encoding="utf-8")
    assert '<html lang="es">' in missing and "Esta página no existe" in missing


def _reader(move: str) -> str:
    """A move in the reader's notation, as a student types it (piles numbered from 1)."""
    import solitaire_nb as sn
    from solitaire_nb.games.notation import format_move

    return format_move(sn.new_game(GAME, seed=SEED), sn.Move.parse(move))


@pytest.mark.browser
@pytest.mark.slow
def test_lesson_runs_by_itself_plays_a_typed_move_and_keeps_it(site_url: str, chromium) -> None:
    from playwright.sync_api import expect

    context, aborted = offline_context(chromium, 1280)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{site_url}/alumnos.html")
        page.get_by_role("link", name=LESSON_TITLE).click()
        # at once: the lesson's text, the static pictures of its boards, the Spanish loading line
        expect(page.get_by_role("heading", name=LESSON_TITLE, level=1)).to_be_visible(timeout=15_000)
        expect(page.locator("#snb-loading")).to_contain_text("Cargando Python")
        expect(page.locator(".snb-snapshot .snb-static svg").first).to_be_visible()
        board = page.locator(f'.snb-board[data-game="{GAME}"][data-seed="{SEED}"]').first
        board.locator("[data-card]").first.wait_for(timeout=RUN_TIMEOUT_MS)
        body = page.locator("body").inner_text()
        assert "import " not in body and "sn.play" not in body  # no code on the page
        assert not re.search(r"\b(Not Trusted|Running|Executing|Starting up kernel)\b", body)
        legal, _ = legal_then_refused(GAME, SEED)
        board.locator(".snb-text").fill(_reader(legal))
        board.locator(".snb-text").press("Enter")
        expect(board).to_have_attribute("data-moves", "1", timeout=120_000)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        board.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "student-site.png"))
        # a reload: the page runs again and the board finds its game in this browser
        page.reload()
        board = page.locator(f'.snb-board[data-game="{GAME}"][data-seed="{SEED}"]').first
        board.locator("[data-card]").first.wait_for(timeout=RUN_TIMEOUT_MS)
        expect(board).to_have_attribute("data-moves", "1", timeout=120_000)
        page.locator("#snb-loading").wait_for(state="detached", timeout=RUN_TIMEOUT_MS)
        assert misfits(page) == {}
        assert aborted == [] and errors == []
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.slow
def test_the_study_runs_offline_on_a_phone(site_url: str, chromium) -> None:
    """Lesson 06 in the browser's Python, no NumPy, matplotlib or network: the pair of deals, the
    tally, the plots, an exercise and «Otra tanda» all work, and the page fits a phone."""
    from playwright.sync_api import expect

    from solitaire_nb.study.pure import BROWSER_DEALS

    context, aborted = offline_context(chromium, 390)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{site_url}/alumnos.html")
        page.get_by_role("link", name=STUDY_TITLE).click()
        expect(page.get_by_role("heading", name=STUDY_TITLE, level=1)).to_be_visible(timeout=15_000)
        page.locator("#snb-loading").wait_for(state="detached", timeout=RUN_TIMEOUT_MS)
        body = page.locator("body").inner_text()
        assert "Traceback" not in body and not re.search(r"\b[A-Z]\w+Error\b", body) and "import " not in body
        assert f"esta cuenta reparte {BROWSER_DEALS:,} barajas".replace(",", ".") in body  # says its sample
        # the two deals, then «Otro reparto»: the next number both ways, counted in the tally
        for game in ("citadel", "beleaguered_castle"):
            expect(page.locator(f'svg[data-game="{game}"][data-seed="1"]')).to_be_attached()
        page.get_by_role("button", name="Otro reparto").click()
        expect(page.locator(".snb-tally")).to_contain_text("Llevas 1 reparto.", timeout=60_000)
        expect(page.locator('svg[data-game="citadel"][data-seed="2"]')).to_be_attached()
        # the plots, drawn by the package as SVG pictures
        plots = page.locator(".jp-RenderedSVG img")
        assert plots.count() >= 3
        # an exercise box checks an answer
        check_exercise(page, "estudio-3", "1/16")
        page.get_by_role("button", name="Otra tanda").click()
        expect(page.locator("#rendered_cells")).to_contain_text("cartas menos en la mesa, tras el juego", timeout=120_000)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "student-site-06-390.png"))
        assert misfits(page) == {}
        assert aborted == [] and errors == []
    finally:
        context.close()


def _open_offline(page, site_url: str, title: str) -> str:
    """Open a lesson from the start page, wait until its Python has run, and return its text
    (checked for errors and code)."""
    from playwright.sync_api import expect

    page.goto(f"{site_url}/alumnos.html")
    page.get_by_role("link", name=title).click()
    expect(page.get_by_role("heading", name=title, level=1)).to_be_visible(timeout=15_000)
    page.locator("#snb-loading").wait_for(state="detached", timeout=RUN_TIMEOUT_MS)
    body = page.locator("body").inner_text()
    assert "Traceback" not in body and not re.search(r"\b[A-Z]\w+Error\b", body) and "import " not in body
    assert "No se han podido" not in body and "No se ha podido" not in body
    return body


@pytest.mark.browser
@pytest.mark.slow
def test_the_atlas_and_the_lab_run_offline_on_a_phone(site_url: str, chromium) -> None:
    """Lessons 07 and 08 in the browser's Python, without NumPy, matplotlib or network: their
    plots are SVG pictures, a board plays a typed move, an exercise is checked, 08's «¿Cuántas se
    pueden ganar?» counts a composed game deal by deal until «Detener» and a stored one at once,
    and each page fits a phone (08 after its count)."""
    from playwright.sync_api import expect

    from solitaire_nb.games.notation import format_move
    from solitaire_nb.lessons.positions import citadel_needed

    context, aborted = offline_context(chromium, 390)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        _open_offline(page, site_url, ATLAS_TITLE)
        # the atlas's plots: SVG pictures inside the folded parts
        assert page.locator('img[src^="data:image/svg+xml"]').count() >= 1
        # 07's Citadel board plays a typed move (the lesson's position, its first legal move)
        game = citadel_needed("citadel")
        board = page.locator('.snb-board[data-game="citadel"]').first
        board.locator("[data-card]").first.wait_for(timeout=RUN_TIMEOUT_MS)
        move = format_move(game, game.legal_moves()[0])
        board.locator(".snb-text").fill(move)
        board.locator(".snb-text").press("Enter")
        expect(board).to_have_attribute("data-moves", "1", timeout=120_000)
        check_exercise(page, "atlas-3", "nunca menos: las subo yo")  # short: a phone-wide box
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "student-site-07-390.png"))
        assert misfits(page) == {}
        # 08: its plots drawn by the package, its board, an exercise
        page.set_viewport_size({"width": 390, "height": 900})
        _open_offline(page, site_url, LAB_TITLE)
        assert page.locator(".jp-RenderedSVG img, .jp-RenderedSVG svg").count() >= 2
        board = page.locator('.snb-board[data-game^="beleaguered_castle"]').first
        board.locator("[data-card]").first.wait_for(timeout=RUN_TIMEOUT_MS)
        check_exercise(page, "lab-3", "más, porque un Rey tapa las cartas que tiene debajo")
        # «¿Cuántas se pueden ganar?» with no threads: a game composed here is solved deal by deal
        # (the counts grow on screen) and «Detener» ends it between two deals; the stored one
        # (back to eight columns) is shown whole at once, and its table fits the phone
        lab = page.locator(".snb-lab").first
        slider = lab.locator(".noUi-handle").first  # the columns, 8 in Beleaguered Castle
        slider.press("ArrowLeft")
        expect(lab.locator("h3").first).to_contain_text("con 7 columnas", timeout=60_000)
        counted = count_wins(lab, stop_after=2)
        assert counted["deals"] >= 2 and "stopped" in counted, counted
        expect(lab).to_contain_text("Cálculo detenido", timeout=60_000)
        slider.press("ArrowRight")
        expect(lab.locator("h3").first).not_to_contain_text("columnas", timeout=60_000)
        stored = count_wins(lab)
        assert "first" not in stored, stored  # the whole sample at once
        expect(lab).to_contain_text("Partidas n.º 1 a 100 de cada juego,")
        expect(lab.locator(".snb-table-box .snb-lab-table", has_text="Sin decidir")).to_be_visible()
        lab.get_by_role("button", name=COUNT_BUTTON, exact=True).scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "student-site-08-390.png"))
        assert misfits(page) == {}
        assert aborted == [] and errors == []
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.slow
def test_every_link_opens_a_page_of_the_site(student_site: Path, site_url: str, chromium) -> None:
    """Each link a student can click on the start page (at phone width) and on every lesson page
    opens a page that exists; no page has a link to a lesson outside the site."""
    context, aborted = offline_context(chromium, 390)
    context.route(re.compile(r".*/(static/pyodide|pypi)/.*"), lambda route: route.abort())  # no Python needed
    try:
        page = context.new_page()
        page.goto(f"{site_url}/")  # the site's root leads to the start page
        page.wait_for_url(re.compile(r"/alumnos\.html$"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
        first = page.locator("ol a").first.bounding_box()
        assert first is not None and first["x"] >= 12  # a left margin at phone width
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "student-start-390.png"), full_page=True)
        pages = [f"{site_url}/alumnos.html"] + [
            f"{site_url}/voici/render/{p.name}" for p in sorted((student_site / "voici" / "render").glob("*.html"))
        ]
        followed = 0
        for url in pages:
            page.goto(url, wait_until="domcontentloaded")
            assert misfits(page) == {}, url  # the text and pictures shown before Python runs
            page.set_viewport_size({"width": 390, "height": 900})
            hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
            for href in hrefs:
                if href.startswith("#"):
                    continue
                target = urljoin(url, href)
                assert urlsplit(target).hostname == "127.0.0.1", f"{url}: {href} leaves the site"
                with urllib.request.urlopen(target.split("#")[0], timeout=30) as r:
                    assert r.status == 200, (url, href)
                followed += 1
        assert followed >= 6
        # the start page's links, clicked as a student does, open the lesson they name
        page.goto(f"{site_url}/alumnos.html")
        for link in page.locator("ol a").all():
            name = link.inner_text()
            with page.expect_navigation(wait_until="domcontentloaded"):
                link.click()
            assert page.locator("h1").first.inner_text().replace("¶", "").strip() == name
            page.go_back(wait_until="domcontentloaded")
        assert aborted == []
        # a host that honours 404.html (GitHub Pages, Netlify) sends it for a missing lesson (a
        # context without the site's service worker, which would fetch past the route)
        missing = chromium.new_context(service_workers="block", locale="es-ES")
        lost = missing.new_page()
        lost.route("**/voici/render/09_no_existe.html", lambda route: route.fulfill(
            status=404, content_type="text/html", body=(student_site / "404.html").read_bytes()))  # fmt: skip
        lost.goto(f"{site_url}/voici/render/09_no_existe.html")
        assert lost.locator("h1").inner_text() == "Esta página no existe"
        with lost.expect_navigation():
            lost.get_by_role("link", name="Ver la lista de lecciones").click()
        assert lost.url == f"{site_url}/alumnos.html"
        missing.close()
    finally:
        context.close()
