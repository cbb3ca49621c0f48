"""Memory and processor time per student under a JupyterHub, per page: N students (each a hub
user with their own single-user server) open the same page at once in Voila (the challenge's page,
lessons 05, 06 and 08, as students land on them), use it, and leave it open.  Prints a table for
benchmarks/RESULTS.md («El reto en un JupyterHub»).

Usage::

    python benchmarks/bench_hub_memory.py [--paginas reto.ipynb 05 06 08] [--alumnos 10] [--segundos 60]

The hub is tests/hub_server.py's (a real JupyterHub on loopback, the project's configuration).
For each page: the N servers are started through the hub's API, then N Chromium contexts (Debian's
Chromium) log in through the hub's page and open the page at once; each waits for its first board
or, for a lesson, for Voila to finish running it.  Then each student uses it (05 and the
challenge: 10 clicks on cards of the first board; 06: «Otro reparto» 5 times; 08: the first
lab's columns changed 4 times; a page whose controls are not drawn 2 minutes after it is ready
is counted and said, not used) and leaves it open `--segundos`.  Per student, the user's server and its
kernels are measured (processor time, user + system, summed over the processes: to open the page,
including the server's start; to use it; per minute left open) and their resident memory at the end.
The servers of a page are stopped before the next page.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from hub_server import ADMIN_TOKEN, Hub  # noqa: E402

DEAL = "citadel/2000"


def tree(home: Path) -> list[psutil.Process]:
    """The user's server (its working folder is the user's) and its kernels."""
    out = []
    for proc in psutil.process_iter(["cwd"]):
        if proc.info["cwd"] == str(home):
            out.append(proc)
    kids = [k for p in out for k in p.children(recursive=True)]
    return list({p.pid: p for p in out + kids}.values())


def cpu_of(home: Path) -> float:
    total = 0.0
    for proc in tree(home):
        try:
            total += sum(proc.cpu_times()[:2])
        except psutil.Error:
            pass
    return total


def rss_of(home: Path) -> float:
    total = 0
    for proc in tree(home):
        try:
            total += proc.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


def use(page, which: str) -> None:
    """What a student does on the page (see the module's docstring)."""
    page.bring_to_front()  # the page a student looks at (Chromium slows pages in the background)
    if which.startswith("06"):
        picture = page.locator(".snb-pair-picture").first
        before = picture.inner_text()
        for _ in range(5):
            page.get_by_role("button", name="Otro reparto").first.click()
            time.sleep(0.5)
        if picture.inner_text() == before:
            print("aviso: «Otro reparto» no ha cambiado el reparto", file=sys.stderr)
    elif which.startswith("08"):
        readout = page.locator(".widget-slider", has_text="Columnas").first.locator(".widget-readout")
        readout.wait_for(timeout=120_000)  # a busy machine draws the lab's controls late; a page still without them is counted
        for columns in (9, 10, 9, 8):
            readout.click()
            readout.fill(str(columns))
            readout.press("Enter")
            time.sleep(1)
    else:
        cards = page.locator(".snb-board").first.locator("[data-card]")
        for k in range(10):
            cards.nth((k * 7) % max(1, cards.count())).click(force=True)  # a covered card: the card on it takes the click
            time.sleep(0.3)


def run_page(hub: Hub, browser, which: str, students: int, seconds: float) -> dict:
    users = [f"m{which.split('.')[0].replace('_', '')}n{k}" for k in range(students)]
    homes = {u: hub.home(u) for u in users}
    name = next(f.name for f in sorted(homes[users[0]].glob("*.ipynb")) if f.name.startswith(which))
    start = time.monotonic()
    for u in users:  # the class arrives: every server asked for at once
        hub.user(u)
        hub.api("POST", f"/users/{u}/server")
    for u in users:
        hub.server(u, seconds=900)
    pages = []
    for u in users:
        page = browser.new_context(locale="es-ES", viewport={"width": 1280, "height": 900}).new_page()
        page.goto(f"{hub.url}/hub/login?next=/user/{u}/voila/render/{name}", timeout=300_000)
        page.fill("#username_input", u)
        page.fill("#password_input", "x")
        page.click("#login_submit", no_wait_after=True)
        pages.append(page)
    ready = []
    for page in pages:
        page.locator(".snb-board, .jp-OutputArea-output").first.wait_for(timeout=900_000)
        page.wait_for_function("() => !document.querySelector('.voila-spinner, #loading')", timeout=900_000)
        ready.append(time.monotonic() - start)
    time.sleep(3)
    opened = {u: cpu_of(homes[u]) for u in users}
    failed = 0
    for page in pages:
        try:
            use(page, which)
        except Exception as exc:  # noqa: BLE001 - a page that never drew its controls: counted, said
            failed += 1
            stuck = page.get_by_text("Loading widget...").count()
            print(f"aviso: {page.url}: {str(exc).splitlines()[0]} ({stuck} «Loading widget...»)", file=sys.stderr)
    time.sleep(10)
    used = {u: cpu_of(homes[u]) for u in users}
    time.sleep(seconds)
    left = {u: cpu_of(homes[u]) for u in users}
    rss = [rss_of(homes[u]) for u in users]
    procs = statistics.median(len(tree(homes[u])) for u in users)
    for page in pages:
        page.context.close()
    for u in users:
        hub.request("DELETE", f"/hub/api/users/{u}/server", token=ADMIN_TOKEN)
    return {"name": name, "procs": procs, "rss": rss, "ready": ready, "open": list(opened.values()),
            "use": [used[u] - opened[u] for u in users], "idle": [(left[u] - used[u]) * 60 / seconds for u in users],
            "load": os.getloadavg()[0], "failed": failed}  # fmt: skip


def spread(values: list[float], digits: int = 1) -> str:
    """Median (smallest–largest) of the students."""
    if len(values) == 1:
        return f"{values[0]:.{digits}f}"
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def main() -> None:
    from playwright.sync_api import sync_playwright

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--paginas", nargs="+", default=["reto.ipynb", "05", "06", "08"])
    p.add_argument("--alumnos", type=int, default=1, help="students per page, at once (≤ 30)")
    p.add_argument("--segundos", type=float, default=60, help="seconds each page is left open after its use")
    a = p.parse_args()
    print(f"{a.alumnos} alumnos a la vez por página; {a.segundos:.0f} s abierta tras usarla; mediana (mínimo–máximo) por alumno")
    print("| página | procesos por alumno | memoria por alumno (MB) | CPU al abrir (s) | CPU al usarla (s) "
          "| CPU por minuto abierta (s) | entrar → página lista (s) | carga |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        hub = Hub(Path(tmp), DEAL)
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            for which in a.paginas:  # each row as soon as it is measured
                r = run_page(hub, browser, which, a.alumnos, a.segundos)
                print(f"| {r['name']} | {r['procs']:.0f} | {spread(r['rss'], 0)} | {spread(r['open'])} | {spread(r['use'], 2)} "
                      f"| {spread(r['idle'], 2)} | {spread(r['ready'], 0)} | {r['load']:.1f} |", flush=True)
                if r["failed"]:
                    print(f"({r['failed']} de {a.alumnos} páginas no llegaron a usarse)", flush=True)
        finally:
            browser.close()
            hub.close()


if __name__ == "__main__":
    main()
