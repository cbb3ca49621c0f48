"""A class at once: N students opening the same student page together, served by the class
launcher (``python -m solitaire_nb.classroom``) and, in the same run, by the plain command
(``voila notebooks/05_….ipynb``).  Prints tables for benchmarks/RESULTS.md («Clase de 30»).

Usage::

    python benchmarks/bench_clase.py [--alumnos 1 10 30] [--navegador 5] [--cuaderno 05]
                                     [--modos clase plano] [--estatica]

Light clients (threads, no browser), each from its own loopback address (127.0.0.k), each
fetch the page and check it is complete:

* every cell output Voila sends (``application/vnd.voila.cell-output+json`` scripts) is there:
  as many as on a page loaded alone from the same server;
* every widget the page shows exists in its kernel: the client opens the kernel's websocket
  (as the page does) and asks for ``comm_info`` of ``jupyter.widget``; each ``model_id`` the
  page references must be among the kernel's comms (otherwise a browser shows "model not found");
* then it "closes the tab" as a browser does (the page's shutdown request, with the ``_xsrf``
  cookie when the server set one), and the bench checks whether that kernel's process is gone
  (or is culled later).

Server cost: processor seconds of the server and all its kernels (preparing the pool included)
and their resident memory, per student.  With ``--navegador K`` (K ≤ 10) K Chromium pages open
the page together: time to the first board and the latency of a typed move («T4 B1»-style).
``--estatica`` opens the static student app (student/_output, built by student/build.py) in
Chromium with every non-local request aborted: time to the first board and a typed move.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import http.cookiejar
import itertools
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
OUTPUT = re.compile(r'<script type="application/vnd\.voila\.cell-output\+json">')
MODEL = re.compile(r'\\?"model_id\\?":\s*\\?"([0-9a-f]{32})')
CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def notebook_path(which: str) -> Path:
    return next(p for p in sorted((REPO / "notebooks").glob(f"{which}*.ipynb")))


# ---------------------------------------------------------------------- servers
@contextlib.contextmanager
def server(mode: str, notebook: Path, students: int):
    """Start the launcher (mode "clase"; "progresivo" with --progresivo) or plain Voila
    (mode "plano") on a free port; yield
    (base url, process, seconds until ready, processor seconds spent getting ready)."""
    port = free_port()
    tmp = Path(tempfile.mkdtemp(prefix="bench-clase-"))
    env = {**os.environ, "PYTHONPATH": str(REPO), "JUPYTER_RUNTIME_DIR": str(tmp / "runtime")}
    env.pop("MPLBACKEND", None)
    if mode in ("clase", "progresivo"):
        cmd = [sys.executable, "-m", "solitaire_nb.classroom", notebook.name[:2], "--alumnos", str(students),
               "--puerto", str(port), "--ip", "127.0.0.1", "--cierre", "1"]  # fmt: skip
        ready_text = "Listo"
        if mode == "progresivo":
            cmd.append("--progresivo")
            ready_text = "Ctrl+C"
    else:
        cmd = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
               "--Voila.port_retries=0", str(notebook)]  # fmt: skip
        ready_text = None
    log = tmp / "server.log"
    start = time.perf_counter()
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            if ready_text is None:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            elif ready_text in log.read_text():
                break
            time.sleep(0.5)
        ready = time.perf_counter() - start
        yield f"http://127.0.0.1:{port}", proc, ready, cpu_seconds(proc), log
    finally:
        children = psutil.Process(proc.pid).children(recursive=True)
        proc.terminate()  # the server this bench started, by its own handle
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        for child in children:  # its kernels, if it could not shut them down itself
            with contextlib.suppress(psutil.Error):
                child.kill()


def kernels(proc: subprocess.Popen) -> dict[str, psutil.Process]:
    """The server's kernel processes by kernel id (read from their connection-file argument)."""
    out = {}
    for child in psutil.Process(proc.pid).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            m = re.search(r"kernel-([0-9a-f-]{36})\.json", " ".join(child.cmdline()))
            if m:
                out[m.group(1)] = child
    return out


def cpu_seconds(proc: subprocess.Popen) -> float:
    """Processor seconds of the server and its kernels, living and ended."""
    root = psutil.Process(proc.pid)
    t = root.cpu_times()
    total = t.user + t.system + t.children_user + t.children_system
    for child in root.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            c = child.cpu_times()
            total += c.user + c.system
    return total


def memory_mb(proc: subprocess.Popen) -> float:
    total = 0
    for p in [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]:
        with contextlib.suppress(psutil.Error):
            total += p.memory_info().rss
    return total / 2**20


# ---------------------------------------------------------------------- a light client
def comm_ids(base: str, kernel_id: str, cookies: str, timeout: float = 120, address: str = "") -> set[str] | None:
    """The kernel's widget comms, asked over its websocket as a page does (None: no answer)."""
    import websocket

    url = base.replace("http", "ws", 1) + f"/api/kernels/{kernel_id}/channels"
    parts = urllib.parse.urlsplit(base)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout,
                                    source_address=(address, 0) if address else None)  # fmt: skip
    ws = websocket.create_connection(url, timeout=timeout, header=[f"Cookie: {cookies}"] if cookies else [], socket=sock)
    try:
        msg_id = uuid.uuid4().hex
        ws.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "comm_info_request", "username": "bench", "session": uuid.uuid4().hex,
                       "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": {"target_name": "jupyter.widget"}, "channel": "shell",
        }))  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = json.loads(ws.recv())
            if reply.get("parent_header", {}).get("msg_id") == msg_id and reply.get("msg_type") == "comm_info_reply":
                return set(reply["content"].get("comms", {}))
        return None
    finally:
        ws.close()


# Each light client comes from its own loopback address (127.0.0.k; loopback is a /8), as each
# student's computer does: the launcher refuses a 4th unjoined seat from one address.
_ADDRESSES = itertools.count(2)


def next_address() -> str:
    k = next(_ADDRESSES)
    return f"127.{k // 65536 % 256}.{k // 256 % 256}.{k % 256 or 1}"


class _SourceHandler(urllib.request.HTTPHandler):
    """HTTP from one given source address."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def http_open(self, req):
        def connect(host, **kw):
            return http.client.HTTPConnection(host, source_address=(self.address, 0), **kw)

        return self.do_open(connect, req)


PAGE_TIMEOUT = 240.0  # seconds a light client waits for its page (--espera): after that it "never loads"


def student(base: str, results: list, index: int, barrier: threading.Barrier, all_open: threading.Barrier) -> None:
    """Fetch the page, check its outputs and widgets against its kernel, wait until every
    student's page is open (the server's memory is read then), close it."""
    jar = http.cookiejar.CookieJar()
    address = next_address()
    opener = urllib.request.build_opener(_SourceHandler(address), urllib.request.HTTPCookieProcessor(jar))
    row: dict = {"i": index, "address": address}
    barrier.wait()
    start = time.perf_counter()
    try:
        with opener.open(base + "/", timeout=PAGE_TIMEOUT) as r:
            html = r.read().decode("utf-8", "replace")
        row["seconds"] = time.perf_counter() - start
        row["outputs"] = len(OUTPUT.findall(html))
        models = set(MODEL.findall(html))
        row["models"] = len(models)
        config = json.loads(CONFIG.search(html).group(1)) if CONFIG.search(html) else {}
        kid = config.get("kernelId", "")
        row["kernel"] = kid
        cookies = "; ".join(f"{c.name}={c.value}" for c in jar)
        comms = comm_ids(base, kid, cookies, address=address) if kid else None
        row["missing_models"] = len(models - comms) if comms is not None else len(models)
        with contextlib.suppress(threading.BrokenBarrierError):
            all_open.wait(timeout=PAGE_TIMEOUT + 300)
        xsrf = next((c.value for c in jar if c.name == "_xsrf"), "")
        data = urllib.parse.urlencode({"_xsrf": xsrf}).encode()
        req = urllib.request.Request(base + f"/voila/api/shutdown/{kid}", data=data, method="POST")
        try:
            with opener.open(req, timeout=60) as r:
                row["shutdown"] = r.status
        except urllib.error.HTTPError as e:
            row["shutdown"] = e.code
    except Exception as exc:  # a page that never loads is a result, not a crash
        row["error"] = f"{type(exc).__name__}: {exc}"[:200]
        row.setdefault("seconds", time.perf_counter() - start)
        with contextlib.suppress(threading.BrokenBarrierError):
            all_open.wait(timeout=PAGE_TIMEOUT + 300)
    results.append(row)


def load(base: str, proc: subprocess.Popen, n: int, reference: int | None) -> dict:
    """N light clients at once; the figures of one row."""
    results: list = []
    barrier = threading.Barrier(n)
    all_open = threading.Barrier(n + 1)
    cpu0 = cpu_seconds(proc)
    start = time.perf_counter()
    threads = [threading.Thread(target=student, args=(base, results, i, barrier, all_open)) for i in range(n)]
    for t in threads:
        t.start()
    with contextlib.suppress(threading.BrokenBarrierError):
        all_open.wait(timeout=PAGE_TIMEOUT + 300)
    mem = memory_mb(proc)  # every page open: the server and all the kernels in use
    cpu = cpu_seconds(proc) - cpu0
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    ok = [r for r in results if "error" not in r]
    expected = reference if reference is not None else max((r["outputs"] for r in ok), default=0)
    time.sleep(3)
    alive = kernels(proc)
    left = sum(1 for r in ok if r.get("kernel") in alive)
    seconds = sorted(r["seconds"] for r in ok)
    return {
        "n": n,
        "never": n - len(ok),
        "missing_outputs": sum(1 for r in ok if r["outputs"] < expected),
        "missing_models": sum(1 for r in ok if r["missing_models"]),
        "median": statistics.median(seconds) if seconds else float("nan"),
        "max": seconds[-1] if seconds else float("nan"),
        "wall": wall,
        "cpu": cpu,
        "mem": mem,
        "left": left,
        "shutdown": sorted({r.get("shutdown") for r in ok}),
        "expected": expected,
        "errors": [r["error"] for r in results if "error" in r][:3],
    }


# ---------------------------------------------------------------------- browsers
def reader_move(game_name: str, seed: int) -> str:
    """A legal first move of the deal in the reader's notation (numbered from 1)."""
    from browser_helpers import legal_then_refused

    import solitaire_nb as sn

    move = sn.Move.parse(legal_then_refused(game_name, seed)[0])
    g = sn.new_game(game_name, seed=seed)
    letters = {"T": g.definition.tableau_label[0], "F": "B", "R": "R", "S": "M", "W": "D"}

    def pile(pid: str) -> str:
        return letters[pid[0]] + (str(int(pid[1:]) + 1) if pid[1:] else "")

    return f"{pile(move.src)} {pile(move.dst)}" + (f" {move.n_cards}" if move.n_cards > 1 else "")


def run_all(page) -> None:
    """In the static app (JupyterLite's Notebook view): Ejecutar → Ejecutar todas las celdas."""
    page.locator(".jp-Notebook").first.wait_for(timeout=600_000)
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.locator(".lm-MenuBar-item", has_text=re.compile(r"^\s*(Run|Ejecutar)\s*$")).first.click()
    page.locator(
        '.lm-Menu-item[data-command="runmenu:run-all"], .lm-Menu-item[data-command="notebook:run-all-cells"]'
    ).first.click()


def browser_pages(
    url: str, k: int, block_outside: bool = False, timeout_ms: int = 600_000, static: bool = False
) -> list[dict]:
    """K Chromium pages open `url` together: time to the first board with a deal, and the
    latency of a typed move on it (until the board counts one move).  In the static app the
    page is run as its first line asks (the time includes that click)."""
    from browser_helpers import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        outside: list[str] = []
        pages = []
        for _ in range(k):
            ctx = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="es-ES")
            if block_outside:

                def route(r, outside=outside):
                    host = urllib.parse.urlsplit(r.request.url).hostname
                    if urllib.parse.urlsplit(r.request.url).scheme in ("http", "https") and host not in ("127.0.0.1", "localhost"):
                        outside.append(r.request.url)
                        return r.abort()
                    return r.continue_()

                ctx.route("**/*", route)
            pages.append(ctx.new_page())
        start = time.perf_counter()
        for page in pages:
            page.goto(url, wait_until="commit", timeout=timeout_ms)
        if static:
            for page in pages:
                run_all(page)
        first: list[float | None] = [None] * k
        deadline = time.monotonic() + timeout_ms / 1000
        while None in first and time.monotonic() < deadline:
            for i, page in enumerate(pages):
                if first[i] is None and page.locator(".snb-board[data-seed]:not([data-seed=\"\"]) [data-card]").count():
                    first[i] = time.perf_counter() - start
            time.sleep(0.2)
        for i, page in enumerate(pages):
            row = {"first_board": first[i], "move": None}
            if first[i] is not None:
                board = page.locator(".snb-board[data-seed]:not([data-seed=\"\"])").first
                game, seed = board.get_attribute("data-game"), int(board.get_attribute("data-seed"))
                box = board.locator(".snb-text")
                box.fill(reader_move(game, seed))
                t = time.perf_counter()
                box.press("Enter")
                with contextlib.suppress(Exception):
                    page.wait_for_function(
                        "(b) => b.getAttribute('data-moves') === '1'", arg=board.element_handle(), timeout=120_000
                    )
                    row["move"] = time.perf_counter() - t
            rows.append(row)
        rows.append({"outside": outside})
        browser.close()
    return rows


def summarize_browser(rows: list[dict]) -> str:
    pages = [r for r in rows if "first_board" in r]
    firsts = [r["first_board"] for r in pages if r["first_board"] is not None]
    moves = [r["move"] for r in pages if r["move"] is not None]
    outside = rows[-1].get("outside", [])
    med = statistics.median
    return (
        f"{len(pages)} | {len(firsts)} | {med(firsts):.1f} | {max(firsts):.1f} | "
        f"{med(moves):.2f} | {max(moves):.2f} | {len(outside)}"
        if firsts and moves
        else f"{len(pages)} | {len(firsts)} | – | – | – | – | {len(outside)}"
    )


@contextlib.contextmanager
def static_site(folder: Path):
    from browser_helpers import serve_static

    with serve_static(folder) as url:
        yield url


# ---------------------------------------------------------------------- the solver, many at once
def _press_solvable(args: tuple) -> tuple[str, float, float, bool, str]:
    """One student's «¿Tiene solución?»: the board's solve and sentence, in its own process."""
    name, seed, seconds, start_at = args
    import solitaire_nb as sn
    from solitaire_nb.solver import solve, verdict_text

    while time.time() < start_at:  # everyone presses at the same moment
        time.sleep(0.005)
    g = sn.new_game(name, seed=seed)
    r = solve(g, time_limit=seconds)
    return r.status, r.seconds, r.cpu_seconds or 0.0, r.busy, verdict_text(r, g)


def solver_at_once(k: int, name: str = "citadel", seed: int = 2026, seconds: float = 5.0) -> str:
    """K processes (K kernels) ask the solver about the same deal at once: verdicts, and how many
    say the computer was busy."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(k) as pool:
        start_at = time.time() + 3.0
        rows = pool.map(_press_solvable, [(name, seed, seconds, start_at)] * k)
    statuses = {s: sum(1 for r in rows if r[0] == s) for s in ("won", "lost", "unknown")}
    busy = sum(1 for r in rows if r[3])
    cpu = statistics.median(r[2] for r in rows)
    wall = statistics.median(r[1] for r in rows)
    sentence = next((r[4] for r in rows if r[3]), rows[0][4])
    return (
        f"| {k} | {statuses['won']} | {statuses['lost']} | {statuses['unknown']} | {busy} | {wall:.1f} | {cpu:.1f} |"
        f"\n\nFrase mostrada: «{sentence}»"
    )


# ---------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    global PAGE_TIMEOUT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--alumnos", type=int, nargs="*", default=[1, 10, 30])
    parser.add_argument("--navegador", type=int, default=0, help="Chromium pages at once (≤ 10; 0: none)")
    parser.add_argument("--cuaderno", default="05")
    parser.add_argument("--espera", type=float, default=PAGE_TIMEOUT, help="seconds a page may take (240)")
    parser.add_argument("--modos", nargs="*", default=["clase", "plano"], help="light clients: clase, plano")
    parser.add_argument(
        "--modos-navegador", nargs="*", default=["clase", "progresivo", "plano"], help="Chromium: also progresivo"
    )
    parser.add_argument("--estatica", action="store_true", help="also the static student app (student/_output)")
    parser.add_argument("--resolvedor", type=int, nargs="*", default=[], help="K solvers at once (e.g. 1 10)")
    args = parser.parse_args(argv)
    notebook = notebook_path(args.cuaderno)
    PAGE_TIMEOUT = args.espera
    print(f"# bench_clase  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  notebook {notebook.name}")
    print(f"# load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}  ({os.cpu_count()} cores)\n")
    print("| servidor | alumnos | listo (s) | CPU preparar (s) | páginas sin cargar | con salidas de menos | "
          "con widgets sin modelo | mediana hasta completa (s) | máx. (s) | CPU-s por alumno | MB por alumno | "
          "núcleos que quedan al cerrar | respuesta al cierre |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for mode in args.modos:
        for n in args.alumnos:
            with server(mode, notebook, n) as (base, proc, ready, prep_cpu, log):
                reference = None
                if n > 1:  # a page alone on this server: how many outputs a complete page has
                    reference = load(base, proc, 1, None)["expected"]
                row = load(base, proc, n, reference)
                per_cpu = (row["cpu"] + (prep_cpu if mode == "clase" else 0)) / n
                print(
                    f"| {mode} | {n} | {ready:.0f} | {prep_cpu:.1f} | {row['never']} | {row['missing_outputs']} | "
                    f"{row['missing_models']} | {row['median']:.1f} | {row['max']:.1f} | {per_cpu:.2f} | "
                    f"{row['mem'] / n:.0f} | {row['left']} | {row['shutdown']} |",
                    flush=True,
                )
                if row["errors"]:
                    print(f"<!-- errors: {row['errors']} -->")
                warnings = [ln for ln in log.read_text().splitlines() if "Timeout waiting for IOPub" in ln]
                if warnings:
                    print(f"<!-- {len(warnings)} × Timeout waiting for IOPub -->")
    if args.navegador:
        print("\n| servidor | páginas | con tablero | mediana hasta el primer tablero (s) | máx. (s) | "
              "mediana de un movimiento (s) | máx. (s) | peticiones fuera |")  # fmt: skip
        print("|---|---|---|---|---|---|---|---|")
        for mode in args.modos_navegador:
            with server(mode, notebook, args.navegador) as (base, _proc, _ready, _cpu, _log):
                print(f"| {mode} | {summarize_browser(browser_pages(base + '/', args.navegador))} |", flush=True)
    if args.estatica:
        site = REPO / "student" / "_output"
        page = f"notebooks/index.html?path={notebook.name}"
        with static_site(site) as base:
            rows = browser_pages(f"{base}/{page}", 1, block_outside=True, static=True)
        print(f"\n| app estática (1 página, sin red) | {summarize_browser(rows)} |")
    if args.resolvedor:
        print("\n«¿Tiene solución?» de la partida n.º 2026 de Citadel, 5 s, pulsado a la vez en K núcleos:\n")
        print("| a la vez | con solución | sin solución | sin decidir | «el ordenador estaba ocupado» | "
              "mediana de espera (s) | mediana de CPU del resolvedor (s) |")  # fmt: skip
        print("|---|---|---|---|---|---|---|")
        for k in args.resolvedor:
            print(solver_at_once(k), flush=True)
    print(f"\n# load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
