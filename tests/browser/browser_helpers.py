"""Reusable pieces for real-browser tests: a throw-away JupyterLab or Voila server serving a COPY
of a notebook, Debian's Chromium through Playwright, and `play_board_in_browser`, which plays
one legal and one illegal move on a board by clicking its cards.

Other test files (the notebooks' own checks) import this module (pytest puts tests/browser/
on sys.path for the test files there): ``from browser_helpers import jupyterlab, voila,
run_all_in_jupyterlab, play_board_in_browser``; the ``chromium`` and ``page`` fixtures come
from tests/conftest.py.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat

import solitaire_nb as sn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the benchmarks that import this
from parallel import free_port  # noqa: E402,F401  (tests/parallel.py; other test files import it from here)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
TOKEN = "solitaire-nb-test"
SERVER_START_TIMEOUT = 90.0
BOARD_TIMEOUT_MS = 120_000  # kernel start + widget load on a busy 2-core machine


def _isolated_env(tmp: Path) -> dict[str, str]:
    """Jupyter's config, settings, workspaces and runtime files in `tmp`, never the user's."""
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)  # the server's kernels must pick the inline backend
    for var, sub in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTERLAB_SETTINGS_DIR", "settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ):
        (tmp / sub).mkdir(parents=True, exist_ok=True)
        env[var] = str(tmp / sub)
    # No news pop-up asking for network access (it would cover the notebook in screenshots).
    news = tmp / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True, exist_ok=True)
    (news / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    # English menus whatever the machine's locale: the Spanish language pack is installed, and
    # JupyterLab's "default" locale follows the server's (these helpers click "Run" and read "Idle").
    language = tmp / "settings" / "@jupyterlab" / "translation-extension"
    language.mkdir(parents=True, exist_ok=True)
    (language / "plugin.jupyterlab-settings").write_text(json.dumps({"locale": "en"}))
    return env


def _wait_http(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            if url.startswith("tcp:"):  # just the port accepting connections
                host, port = url[4:].rsplit(":", 1)
                socket.create_connection((host, int(port)), timeout=2).close()
                return
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"no answer from {url}:\n{log.read_text(errors='replace')[-3000:]}")


@contextlib.contextmanager
def _server(cmd: list[str], tmp: Path, probe: str) -> Iterator[subprocess.Popen]:
    log = tmp / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=tmp / "nb", env=_isolated_env(tmp), stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_http(probe, proc, log)
            yield proc
        finally:
            proc.terminate()  # only the server this helper started, by its own handle
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


def _copy_notebook(notebook: Path, tmp: Path) -> Path:
    """A throw-away copy: autosave and the kernel's checkpoints never touch the repository.
    The copy keeps its outputs but not its execution counts, so that every prompt reading
    "[n]:" proves the cell ran in this session (see `run_all_in_jupyterlab`)."""
    (tmp / "nb").mkdir(parents=True, exist_ok=True)
    target = tmp / "nb" / notebook.name
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.execution_count = None
    nbformat.write(nb, target)
    return target


@contextlib.contextmanager
def jupyterlab(notebook: Path) -> Iterator[str]:
    """Serve a copy of `notebook` with JupyterLab on 127.0.0.1; yield the URL that opens it."""
    with tempfile.TemporaryDirectory(prefix="snb-lab-") as tmp_name:
        tmp = Path(tmp_name)
        copy = _copy_notebook(notebook, tmp)
        port = free_port()
        cmd = [
            sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={tmp / 'nb'}",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        with _server(cmd, tmp, f"{base}/api/status?token={TOKEN}"):
            yield f"{base}/lab/tree/{copy.name}?token={TOKEN}&reset"


@contextlib.contextmanager
def voila(notebook: Path) -> Iterator[str]:
    """Serve a copy of `notebook` with Voila on 127.0.0.1; yield its URL."""
    with tempfile.TemporaryDirectory(prefix="snb-voila-") as tmp_name:
        tmp = Path(tmp_name)
        copy = _copy_notebook(notebook, tmp)
        port = free_port()
        cmd = [
            sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0", str(copy),
        ]  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        # Probing a page would execute the notebook once more; an open port is enough here.
        with _server(cmd, tmp, f"tcp:127.0.0.1:{port}"):
            yield f"{base}/"


def legal_then_refused(game: str, seed: int, onto_a_card: bool = False) -> tuple[str, str]:
    """A legal move on the fresh deal (onto a card, if asked), and a tableau move refused right
    after it, both in the API notation of docs/reglas.md: what a browser test clicks."""
    import solitaire_nb as sn

    g = sn.new_game(game, seed=seed)
    legal = next(m for m in g.legal_moves() if not onto_a_card or (m.dst.startswith("T") and g.piles[m.dst]))
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


def launch_chromium(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


def run_all_in_jupyterlab(page, url: str) -> None:
    """Open the notebook, wait for the kernel to be idle (status bar), run every cell and wait
    until the last has run."""
    page.goto(url)
    # The status bar's kernel status, not the toolbar's idle marker, says when the kernel is
    # really ready to run cells.
    page.locator("#jp-main-statusbar").get_by_text("Idle").first.wait_for(timeout=BOARD_TIMEOUT_MS)
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
    # The built notebooks hide their code; expanded, each code cell has the prompt waited on below.
    page.locator(".lm-MenuBar-item", has_text="View").first.click()
    page.locator('.lm-Menu-item[data-command="notebook:show-all-cell-code"]').first.click()
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()
    # A board answers clicks from the kernel, which reads a click only after every cell queued
    # before it; so wait until each code cell shows its execution count ("[12]:", not "[*]:"
    # or "[ ]:"). JupyterLab 4.1+ keeps every cell in the page, so all prompts can be read.
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll(".jp-CodeCell .jp-InputPrompt")];
            return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
        }""",
        timeout=BOARD_TIMEOUT_MS,
    )


def board_locator(page, game_name: str, seed: int):
    return page.locator(f'.snb-board[data-game="{game_name}"][data-seed="{seed}"]').first


def _card(board, pile: str, index: int):
    return board.locator(f'[data-pile="{pile}"][data-index="{index}"]').first


# Records, page-wide, which pile each click reached (None: no pile), so that a click lost to a
# moving page can be told from a board that does not answer.
_CLICK_LOG_JS = """() => {
  if (!window.__snbClicks) {
    window.__snbClicks = [];
    document.addEventListener("click", (e) => {
      const t = e.target instanceof Element ? e.target.closest("[data-pile]") : null;
      window.__snbClicks.push(t ? t.getAttribute("data-pile") : null);
    }, true);
  }
  return window.__snbClicks.length;
}"""

# Resolves once the element has kept its place for `frames` animation frames (or after `ms`).
_STILL_JS = """([el, frames, ms]) => new Promise((resolve) => {
  let last = "", still = 0;
  const give_up = setTimeout(() => resolve(false), ms);
  const tick = () => {
    const r = el.getBoundingClientRect();
    const key = `${r.x},${r.y}`;
    still = key === last ? still + 1 : 0;
    last = key;
    if (still >= frames) { clearTimeout(give_up); resolve(true); } else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


def _click_pile(board, game: sn.Game, pile: str, index: int | None = None, attempts: int = 3) -> None:
    """Click a card near its top-left corner (always visible when cards overlap), or the pile's
    outline when it is empty, the way a reader would.

    A long notebook may still be settling after "Run all" (cells laid out as they come into
    view, JupyterLab scrolling to the active cell). If the page moves between the press and the
    release, the browser gives the click to a common ancestor and the board, rightly, ignores
    it; a reader would click again, and so does this helper, after waiting for the card to
    keep still. A click that reached another pile is a failure, never retried."""
    n = len(game.piles[pile])
    if n:
        target = _card(board, pile, n - 1 if index is None else index)
    else:
        target = board.locator(f'rect.snb-hole[data-pile="{pile}"]').first
    from playwright.sync_api import Error as PlaywrightError

    page = board.page
    reached: list[str | None] = []
    for _ in range(attempts):
        try:
            target.scroll_into_view_if_needed()
            page.evaluate(_STILL_JS, [target.element_handle(), 10, 5_000])
        except PlaywrightError:
            pass  # the board redrew its cards meanwhile; the click below finds the new ones
        before = page.evaluate(_CLICK_LOG_JS)
        target.click(position={"x": 6, "y": 6})
        landed = page.evaluate(f"() => window.__snbClicks.slice({before})")
        reached += landed
        if pile in landed:
            return
        assert not any(landed), f"the click meant for {pile} reached {landed}"
        page.wait_for_timeout(300)
    raise AssertionError(f"{attempts} clicks on {pile} reached no pile ({reached}): the page kept moving")


def _board_diagnosis(board) -> str:
    """What the page shows when a board does not answer: its attributes, the clicks it saw and
    JupyterLab's kernel status (empty outside JupyterLab)."""
    page = board.page
    attrs = board.evaluate("(b) => ({game: b.dataset.game, seed: b.dataset.seed, moves: b.dataset.moves})")
    clicks = page.evaluate("() => window.__snbClicks || []")
    status = page.evaluate("() => (document.querySelector('#jp-main-statusbar') || {}).textContent || ''")
    boards = page.locator(".snb-board").count()
    return f"board {attrs}; clicks reached {clicks}; {boards} boards on the page; status bar: {status!r}"


def _expect_message(board, text: str, exact: bool = False) -> None:
    from playwright.sync_api import expect

    message = expect(board.locator(".snb-message"))
    check = message.to_have_text if exact else message.to_contain_text
    try:
        check(text, timeout=20_000)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{_board_diagnosis(board)}") from None


def play_board_in_browser(page, game_name: str, seed: int, legal_move: str, illegal_move: str) -> None:
    """On the board showing `game_name` deal `seed` (fresh, no move played), click
    `legal_move` (API notation, docs/reglas.md) and check the card reached its pile; then click
    `illegal_move` and check the board shows the engine's Spanish reason and changed nothing."""
    from playwright.sync_api import expect

    game = sn.new_game(game_name, seed=seed)
    board = board_locator(page, game_name, seed)
    board.locator("[data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
    expect(board).to_have_attribute("data-moves", "0")

    move = sn.Move.parse(legal_move)
    assert game.can_move(move), game.why_not(move)
    src_index = len(game.piles[move.src]) - move.n_cards
    card = game.piles[move.src][src_index]
    _click_pile(board, game, move.src, src_index)
    _expect_message(board, "Elegida")
    _click_pile(board, game, move.dst)
    game.move(move)
    expect(board).to_have_attribute("data-moves", "1", timeout=20_000)
    landed = len(game.piles[move.dst]) - move.n_cards
    if move.dst.startswith("T") or landed == len(game.piles[move.dst]) - 1:
        expect(_card(board, move.dst, landed)).to_have_attribute("data-card", card.code)
    expect(board.locator(".snb-status")).to_contain_text("1 movimiento")

    page.wait_for_timeout(500)  # so the next click is not read as a double click
    bad = sn.Move.parse(illegal_move)
    reason = game.why_not(bad)
    assert reason is not None, f"{illegal_move} is legal after {legal_move}"
    _click_pile(board, game, bad.src, len(game.piles[bad.src]) - bad.n_cards)
    _click_pile(board, game, bad.dst)
    _expect_message(board, reason, exact=True)
    expect(board).to_have_attribute("data-moves", "1")


def keyboard_play_in_browser(page, game_name: str, seed: int, legal_move: str) -> None:
    """After `play_board_in_browser`: Deshacer takes the move back; then the same move is
    played with the keyboard (focus a card, Enter; focus the target, Enter), taken back again,
    typed in the move box in the reader's notation ("T4 B1", numbered from 1), taken back,
    and played by two taps (the page needs a context with has_touch=True)."""
    from playwright.sync_api import expect

    game = sn.new_game(game_name, seed=seed)
    board = board_locator(page, game_name, seed)
    move = sn.Move.parse(legal_move)
    board.locator('[data-button="undo"]').click()
    expect(board).to_have_attribute("data-moves", "0", timeout=20_000)

    src = _card(board, move.src, len(game.piles[move.src]) - move.n_cards)
    src.focus()
    page.keyboard.press("ArrowRight")  # arrows walk between piles…
    focused = page.evaluate("document.activeElement.getAttribute('data-pile')")
    assert focused != move.src, focused
    page.keyboard.press("ArrowLeft")  # …and back to the same pile's top card
    assert page.evaluate("document.activeElement.getAttribute('data-pile')") == move.src
    src.focus()
    page.keyboard.press("Enter")
    expect(board.locator(".snb-message")).to_contain_text("Elegida")
    n = len(game.piles[move.dst])
    dst = _card(board, move.dst, n - 1) if n else board.locator(f'rect.snb-hole[data-pile="{move.dst}"]').first
    dst.focus()
    page.keyboard.press("Enter")
    expect(board).to_have_attribute("data-moves", "1", timeout=20_000)

    board.locator('[data-button="undo"]').click()
    expect(board).to_have_attribute("data-moves", "0", timeout=20_000)
    letters = {"T": game.definition.tableau_label[0], "F": "B", "R": "R", "S": "M", "W": "D"}

    def reader(pid: str) -> str:
        return letters[pid[0]] + (str(int(pid[1:]) + 1) if pid[1:] else "")

    text = f"{reader(move.src)} {reader(move.dst)}" + (f" {move.n_cards}" if move.n_cards > 1 else "")
    board.locator(".snb-text").fill(text)
    board.locator(".snb-text").press("Enter")
    expect(board).to_have_attribute("data-moves", "1", timeout=20_000)

    # Taps work like clicks (the page's context has touch enabled).
    board.locator('[data-button="undo"]').click()
    expect(board).to_have_attribute("data-moves", "0", timeout=20_000)
    src.tap(position={"x": 6, "y": 6})
    expect(board.locator(".snb-message")).to_contain_text("Elegida")
    page.wait_for_timeout(500)
    dst.tap(position={"x": 6, "y": 6})
    expect(board).to_have_attribute("data-moves", "1", timeout=20_000)


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.screenshot(path=str(path), full_page=True)
    return path


# ---------------------------------------------------------------------- pytest support
# The fixtures themselves (`playwright_session`, `chromium`, `page`) live in tests/conftest.py:
# Playwright's sync API allows one instance per thread, so every browser test must share it.


def require_chromium() -> None:
    """Skip (with a reason) when Debian's Chromium is absent, but fail in CI (CI=true)."""
    import pytest

    if Path(CHROMIUM).exists():
        return
    message = f"{CHROMIUM} no existe: instala Chromium de Debian (apt-get install -y chromium)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message}; en CI las pruebas en el navegador son obligatorias", pytrace=False)
    pytest.skip(message)


def _vendored_axe() -> Path:
    """axe-core's script as the test extra's `axe-playwright-python` ships it (MIT; axe-core
    itself is MPL-2.0), or a path that does not exist when that package is missing."""
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or spec.origin is None:
        return REPO / "build" / "axe-playwright-python-missing" / "axe.min.js"
    return Path(spec.origin).with_name("axe.min.js")


# axe-core for the accessibility audit: the README's test command installs it with the test extra.
AXE = _vendored_axe()


def require_axe() -> Path:
    """axe-core's script, or a skip with the command that installs it (a failure in CI)."""
    import pytest

    if AXE.exists():
        return AXE
    message = f'{AXE} no existe: instala el extra de pruebas con «.venv/bin/pip install -e ".[test]"» (trae axe-core)'
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message}; en CI la auditoría de accesibilidad es obligatoria", pytrace=False)
    pytest.skip(message)


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """A quiet static file handler with the types a JupyterLite site needs (Pyodide compiles
    .wasm while downloading only when it is served as application/wasm)."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
    }

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextlib.contextmanager
def serve_static(directory: Path) -> Iterator[str]:
    """Serve `directory` on 127.0.0.1 (a free port), like any static web host; yield its URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(StaticHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
