"""The JupyterLite site (issue 8): build it from lite/build.py, serve it on 127.0.0.1, and in
Debian's Chromium (every host but 127.0.0.1 unresolvable, every other request aborted) open a
game notebook, run it, play a legal and an illegal move on its board, and check that no request
left 127.0.0.1; open lesson 07 (the atlas, with no NumPy or matplotlib, as in the static app),
run it, see its SVG plots and get «¡Correcto!» from an exercise.  One built site and one
Chromium for the module.

Slow (a clean build downloads ~20 MB and takes about a minute; Pyodide then starts in the
browser): marked ``browser`` and ``slow``.  Figures (build time, size, kernel start) are printed
and written to artifacts/lite-metrics.json.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from parallel import run_lock

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium

from browser_helpers import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREENSHOTS,
    legal_then_refused,
    play_board_in_browser,
    require_chromium,
    serve_static,
)
from offline import check_exercise, offline_context  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# 02 ends with a whole deal whose board keeps the solver (practice boards have none since a
# fourth review: 03 has no board left with «¿Tiene solución?»).
NOTEBOOK = "02_moving_left.ipynb"
GAME, SEED = "moving_left", 1236  # the notebook's `sn.play("moving_left", seed=1236)`
BLOCK_ALL_BUT_LOOPBACK = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
KERNEL_TIMEOUT_MS = 180_000  # Pyodide + IPython start on a busy 2-core machine
RUN_TIMEOUT_MS = 240_000
IDLE = re.compile(r"\b(Idle|Inactivo)\b")
RUN_MENU = re.compile(r"^\s*(Run|Ejecutar)\s*$")
VIEW_MENU = re.compile(r"^\s*(View|Ver)\s*$")
METRICS = REPO / "artifacts" / "lite-metrics.json"
IN_CI = os.environ.get("CI", "").lower() == "true"


def _require(condition: bool, message: str) -> None:
    """Skip with a reason, except in CI where a missing tool is a failure."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{message} (required in CI)", pytrace=False)
    pytest.skip(message)


def _record(**figures: float | int | str) -> None:
    METRICS.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(METRICS.read_text()) if METRICS.exists() else {}
    data.update(figures)
    METRICS.write_text(json.dumps(data, indent=2, ensure_ascii=False))
    print(" · ".join(f"{k}={v}" for k, v in figures.items()))


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once per session into a temporary folder (lite/.cache is reused), or the
    already built folder named by SNB_LITE_SITE (to iterate on the test without rebuilding)."""
    require_chromium()
    if os.environ.get("SNB_LITE_SITE"):
        return Path(os.environ["SNB_LITE_SITE"]).resolve()
    _require(shutil.which("npm") is not None, "npm not found: the build fetches the npm package `pyodide`")
    output = tmp_path_factory.mktemp("lite") / "site"
    with run_lock(tmp_path_factory, "lite-cache"):  # lite/.cache is shared with the other site's build
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, str(REPO / "lite" / "build.py"), "--output", str(output)],
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert proc.returncode == 0, f"lite/build.py failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    _record(build_seconds=round(time.perf_counter() - start, 1), site_mib=round(_size(output) / 2**20, 1))
    return output




@pytest.fixture(scope="session")
def lite_url(lite_site: Path) -> Iterator[str]:
    """The site served by a static HTTP server on 127.0.0.1 (a free port), like any web host."""
    with serve_static(lite_site) as url:
        yield url


@pytest.fixture(scope="module")
def lite_browser(playwright_session):
    """The module's one Chromium, which can resolve no host but 127.0.0.1 (the site's service
    worker and Pyodide's web worker fetch outside the page's own requests)."""
    browser = playwright_session.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, BLOCK_ALL_BUT_LOOPBACK])
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def offline_page(lite_url: str, lite_browser):
    """A page whose requests outside 127.0.0.1 are aborted (`offline.offline_context`), recording
    every request the context sees (the page's and its web workers', where Pyodide runs).  A
    request to another host is recorded before it fails, so an attempt is caught too."""
    context, aborted = offline_context(lite_browser, 1280, 1000)
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    page.requests = requests  # type: ignore[attr-defined]
    page.aborted = aborted  # type: ignore[attr-defined]
    try:
        yield page
    finally:
        context.close()


def _outside(urls: list[str]) -> list[str]:
    """Requests to anything but 127.0.0.1 (data: and blob: URLs never leave the browser)."""
    return [u for u in urls if urlsplit(u).scheme not in ("data", "blob") and urlsplit(u).hostname != "127.0.0.1"]


def _moves_for_test() -> tuple[str, str]:
    return legal_then_refused(GAME, SEED)


def _run_all(page, url: str) -> float:
    """Open the notebook in JupyterLab (lite), wait for the kernel, run every cell; return the
    seconds from opening the page to the kernel being idle."""
    start = time.perf_counter()
    page.goto(url)
    # The status bar's kernel status (English or Spanish UI) says when the kernel is ready.
    page.locator("#jp-main-statusbar").get_by_text(IDLE).first.wait_for(timeout=KERNEL_TIMEOUT_MS)
    kernel_seconds = time.perf_counter() - start
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
    # The built notebooks hide their code (a student sees outputs only); expand it, so that each
    # code cell has its editor and prompt to wait on below.
    page.locator(".lm-MenuBar-item", has_text=VIEW_MENU).first.click()
    page.locator('.lm-Menu-item[data-command="notebook:show-all-cell-code"]').first.click()
    page.locator(".lm-MenuBar-item", has_text=RUN_MENU).first.click()
    # JupyterLab says notebook:run-all-cells, JupyterLite's menu runmenu:run-all.
    page.locator(
        '.lm-Menu-item[data-command="runmenu:run-all"], .lm-Menu-item[data-command="notebook:run-all-cells"]'
    ).first.click()
    # Every code cell with source gets an execution number once run.
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].every(c =>
              c.querySelector('.jp-InputArea-editor').textContent.trim() === ''
              || /\\[\\d+\\]/.test(c.querySelector('.jp-InputArea-prompt').textContent))""",
        timeout=RUN_TIMEOUT_MS,
    )
    return kernel_seconds


def _no_error(page) -> None:
    """No cell of the open notebook raised or said it could not compute something."""
    text = page.locator(".jp-Notebook").first.inner_text()
    problem = re.search(r"Traceback|\w+Error\b|No se ha(?:n)? podido", text)
    assert problem is None, text[max(0, problem.start() - 1500) : problem.end() + 500]


def _ask_solver(page) -> None:
    """A board's "¿Tiene solución?" runs the pure-Python solver in the browser, offline."""
    from playwright.sync_api import expect

    # The whole deal to play has no solver (an exercise); the last, narrated deal's board has one.
    solvable = 'button[data-button="solvable"]:visible'
    board = page.locator(f'.snb-board[data-game="{GAME}"]').filter(has=page.locator(solvable)).first
    board.locator(solvable).click()
    verdict = re.compile(r"tiene solución|sin decidir", re.I)
    expect(board.locator(".snb-message")).to_have_text(verdict, timeout=60_000)
    assert "no está disponible" not in board.locator(".snb-message").inner_text()


def _board_screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(f'.snb-board[data-game="{GAME}"][data-seed="{SEED}"]').first.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / name))


def test_lite_notebook_plays_offline(offline_page, lite_url: str) -> None:
    page = offline_page
    legal, illegal = _moves_for_test()
    start = time.perf_counter()
    kernel_seconds = _run_all(page, f"{lite_url}/lab/index.html?path={NOTEBOOK}")
    run_seconds = time.perf_counter() - start
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    _no_error(page)
    play_board_in_browser(page, GAME, SEED, legal, illegal)
    _board_screenshot(page, "lite.png")  # the refused move's Spanish sentence is on screen
    _ask_solver(page)
    _board_screenshot(page, "lite-solver.png")
    _record(kernel_start_seconds=round(kernel_seconds, 1), notebook_run_seconds=round(run_seconds, 1))
    assert errors.count() == 0, errors.first.inner_text()
    assert any(u.endswith("/pyodide.asm.wasm") for u in page.requests), "worker requests were not recorded"
    assert page.aborted == [] and _outside(page.requests) == []


def test_lite_atlas_runs_offline(offline_page, lite_url: str) -> None:
    """Lesson 07 in JupyterLite with no NumPy, matplotlib or network, as in the static app: every
    cell runs, its plots are SVG pictures drawn by the package, and an exercise answers."""
    page = offline_page
    _run_all(page, f"{lite_url}/lab/index.html?path=07_probabilidades.ipynb")
    _no_error(page)
    assert page.locator('.jp-Notebook img[src^="data:image/svg+xml"]').count() >= 1
    assert page.locator('.jp-Notebook img[src^="data:image/png"]').count() == 0  # no matplotlib picture
    check_exercise(page, "atlas-3", "nunca menos: las subo yo")  # short: a phone-wide box
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lite-07.png"))
    assert page.aborted == [] and _outside(page.requests) == []


OFFLINE_NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.skipif(
    os.environ.get("SNB_LITE_ALL") != "1", reason="about a minute per notebook: run with SNB_LITE_ALL=1"
)
@pytest.mark.parametrize("notebook", OFFLINE_NOTEBOOKS)
def test_lite_notebook_runs_offline(offline_page, lite_url: str, notebook: str) -> None:
    """Every notebook runs in the site without a traceback or a request leaving 127.0.0.1
    (opt-in: too slow for every CI run)."""
    page = offline_page
    _run_all(page, f"{lite_url}/lab/index.html?path={notebook}")
    _no_error(page)
    assert _outside(page.requests) == []
