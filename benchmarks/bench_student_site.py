"""Time for a lesson of the static student app (student/build.py, Voici) to become usable: the site
served as a static folder on 127.0.0.1, opened in Debian's Chromium through Playwright with every
non-local request aborted, each run in a fresh browser context (an empty cache, as a student's
first visit).

For each run it prints the seconds from ``page.goto`` until the lesson's title shows (the text and
the boards' static pictures), until the first live board shows its cards, and until the
«Cargando Python…» line goes (every cell has run).  Target (issue 33): the first live board
≤ 20 s on an idle machine, the text from the first second.  The load average is printed with the
figures: the machine is shared.

    python benchmarks/bench_student_site.py [--runs 3] [--site student/_output] [--lesson 05]

Without ``--site`` it builds the site first (student/build.py into a temporary folder) and prints
the build's time and size.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "browser")]

from browser_helpers import launch_chromium, serve_static  # noqa: E402

TIMEOUT_MS = 900_000


def folder_mib(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def build(output: Path) -> None:
    start = time.perf_counter()
    subprocess.run([sys.executable, str(REPO / "student" / "build.py"), "--output", str(output)], check=True)
    print(f"build: {time.perf_counter() - start:.1f} s, {folder_mib(output):.1f} MiB (load {os.getloadavg()[0]:.1f})")


def one_run(browser, url: str) -> tuple[float, float, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")

    def only_local(route) -> None:
        host = urlsplit(route.request.url).hostname
        if urlsplit(route.request.url).scheme in ("http", "https", "ws", "wss") and host not in ("127.0.0.1", "localhost"):
            route.abort()
        else:
            route.continue_()

    context.route("**/*", only_local)
    try:
        page = context.new_page()
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.locator("h1").first.wait_for(timeout=TIMEOUT_MS)
        text = time.perf_counter() - start
        page.locator(".snb-board [data-card]").first.wait_for(timeout=TIMEOUT_MS)
        board = time.perf_counter() - start
        page.locator("#snb-loading").wait_for(state="detached", timeout=TIMEOUT_MS)
        done = time.perf_counter() - start
        return text, board, done
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, default=None, help="an already built site (default: build one)")
    parser.add_argument("--lesson", default="05", help="the lesson's number")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="snb-bench-student-") as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            build(site)
        page = next((site / "voici" / "render").glob(f"{args.lesson}*.html"), None)
        if page is None:
            raise SystemExit(f"No hay ninguna lección «{args.lesson}» en {site}")
        rows = []
        with serve_static(site) as base, sync_playwright() as p:
            browser = launch_chromium(p)
            try:
                for i in range(args.runs):
                    text, board, done = one_run(browser, f"{base}/voici/render/{page.name}")
                    load = os.getloadavg()[0]
                    rows.append((text, board, done))
                    print(f"vez {i + 1}: texto {text:6.1f} s   primer tablero vivo {board:6.1f} s   "
                          f"todo {done:6.1f} s   (carga {load:.1f})", flush=True)  # fmt: skip
            finally:
                browser.close()
        if len(rows) > 1:
            med = [statistics.median(r[k] for r in rows) for k in range(3)]
            print(f"mediana: texto {med[0]:6.1f} s   primer tablero vivo {med[1]:6.1f} s   todo {med[2]:6.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
