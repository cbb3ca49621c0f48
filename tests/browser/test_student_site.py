"""The static student app (student/build.py): no teacher material in it, and in Debian's Chromium
with every non-local request aborted a lesson runs in the browser and its board plays a typed move.

The build reuses lite/build.py (and its cache lite/.cache).  ``SNB_STUDENT_SITE=student/_output``
reuses an already built site (built from the current code).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from parallel import run_lock

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "browser"))
pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium

from browser_helpers import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREENSHOTS,
    legal_then_refused,
    require_chromium,
    serve_static,
)

NOTEBOOK = "00_indice.ipynb"
GAME, SEED = "citadel", 1234  # the lesson's `sn.play("citadel", seed=1234)`
RUN_TIMEOUT_MS = 300_000  # Pyodide + IPython start, then the cells, on a busy 2-core machine
IN_CI = os.environ.get("CI", "").lower() == "true"


def _load_build():
    spec = importlib.util.spec_from_file_location("student_build", REPO / "student" / "build.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


build = _load_build()


def _nb(cells: list[dict]) -> dict:
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


# ---------------------------------------------------------------------- what goes in (fast)
def test_student_notebook_has_no_teacher_cells_and_hides_code() -> None:
    nb = _nb(
        [
            {"cell_type": "markdown", "source": "# Lección", "metadata": {}},
            {"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": [{"output_type": "stream"}]},
            {"cell_type": "code", "source": "respuesta = 8", "metadata": {"tags": ["docente"]}, "outputs": []},
        ]
    )
    out = build.student_notebook(nb)
    sources = [c["source"] for c in out["cells"]]
    assert "respuesta = 8" not in sources and "x = 1" in sources
    code = next(c for c in out["cells"] if c["cell_type"] == "code")
    assert code["metadata"]["jupyter"]["source_hidden"] is True and code["outputs"] == []
    assert "Ejecutar" in out["cells"][0]["source"]  # the page says how to start


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


# ---------------------------------------------------------------------- the built site
@pytest.fixture(scope="module")
def student_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_chromium()
    if os.environ.get("SNB_STUDENT_SITE"):
        return Path(os.environ["SNB_STUDENT_SITE"]).resolve()
    output = tmp_path_factory.mktemp("student") / "site"
    with run_lock(tmp_path_factory, "lite-cache"):  # lite/.cache is shared with the other site's build
        proc = subprocess.run(
            [sys.executable, str(REPO / "student" / "build.py"), "--output", str(output)],
            capture_output=True,
            text=True,
            timeout=900,
        )
    assert proc.returncode == 0, f"student/build.py failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return output


@pytest.mark.slow
def test_site_has_no_teacher_material(student_site: Path) -> None:
    assert build.teacher_material(student_site) == []
    names = {p.name for p in (student_site / "files").iterdir()}
    assert NOTEBOOK in names and "guia_docente.md" not in names
    assert all(n.endswith(".ipynb") for n in names), names
    for nb_path in (student_site / "files").glob("*.ipynb"):
        nb = json.loads(nb_path.read_text())
        assert not any("docente" in c.get("metadata", {}).get("tags", []) for c in nb["cells"]), nb_path.name
    start = (student_site / "alumnos.html").read_text()
    assert f"notebooks/index.html?path={NOTEBOOK}" in start




@pytest.fixture(scope="module")
def site_url(student_site: Path) -> Iterator[str]:
    with serve_static(student_site) as url:
        yield url


def _reader(move: str) -> str:
    """A move in the reader's notation, as a student types it (piles numbered from 1)."""
    import solitaire_nb as sn
    from solitaire_nb.notation import format_move

    return format_move(sn.new_game(GAME, seed=SEED), sn.Move.parse(move))


@pytest.mark.browser
@pytest.mark.slow
def test_student_page_plays_offline(site_url: str, playwright_session) -> None:
    from playwright.sync_api import expect

    browser = playwright_session.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="es-ES")
    aborted: list[str] = []
    seen: list[str] = []

    def only_local(route) -> None:
        url = urlsplit(route.request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in ("127.0.0.1", "localhost"):
            aborted.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", only_local)  # the page's and its workers' requests (Pyodide runs in one)
    context.on("request", lambda r: seen.append(r.url))
    try:
        page = context.new_page()
        page.goto(f"{site_url}/alumnos.html")
        page.get_by_role("link", name=re.compile("00 indice")).click()
        page.locator(".jp-Notebook").first.wait_for(timeout=RUN_TIMEOUT_MS)
        # the student's first step, as the page asks: Ejecutar → Ejecutar todas las celdas
        page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
        page.locator(".lm-MenuBar-item", has_text=re.compile(r"^\s*(Run|Ejecutar)\s*$")).first.click()
        page.locator(
            '.lm-Menu-item[data-command="runmenu:run-all"], .lm-Menu-item[data-command="notebook:run-all-cells"]'
        ).first.click()
        board = page.locator(f'.snb-board[data-game="{GAME}"][data-seed="{SEED}"]').first
        board.locator("[data-card]").first.wait_for(timeout=RUN_TIMEOUT_MS)
        assert page.locator(".jp-CodeCell .jp-Cell-inputWrapper:visible").count() == 0  # no code shown
        legal, _ = legal_then_refused(GAME, SEED)
        board.locator(".snb-text").fill(_reader(legal))
        start = time.perf_counter()
        board.locator(".snb-text").press("Enter")
        expect(board).to_have_attribute("data-moves", "1", timeout=60_000)
        print(f"typed move answered in {time.perf_counter() - start:.2f} s")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        board.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "student-site.png"))
        assert any(u.endswith("/pyodide.asm.wasm") for u in seen), "the worker's requests were not seen"
        assert aborted == []
    finally:
        context.close()
        browser.close()
