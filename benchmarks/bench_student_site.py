"""Time for a lesson of the static student app (student/build.py, Voici) to become usable: the site
served as a static folder on 127.0.0.1, opened in Debian's Chromium through Playwright with every
non-local request aborted.  ``cold``: a fresh browser context (an empty cache, a student's first
visit); ``warm``: the same page opened again in that context (Pyodide and the wheels from the
browser's cache, as on a second lesson).

For each run it prints the seconds from ``page.goto`` until the lesson's title shows (the text and
the boards' static pictures), until the first live board shows its cards (06: the pair of deals),
and until the «Cargando Python…» line goes (every cell has run), then the site's size: in all,
the runtime every lesson shares, and each lesson's own page and notebook.  The load average is
printed with the figures: the machine is shared.

``--lab-count`` times 08's «¿Cuántas se pueden ganar?» instead, in the first lab of the page (no
threads in the browser: the count runs deal by deal on the page's event loop): the stored sample
of Beleaguered Castle; a composition solved on the spot (7 columns: the seconds to its first
deals on screen and to all 100 deals of both games, the original's read from the stored file);
then another (9 columns) stopped with «Detener» after 3 deals (the seconds the stop took).

    python benchmarks/bench_student_site.py [--runs 3] [--site student/_output] [--lesson 05 06]
    python benchmarks/bench_student_site.py --lab-count [--runs 1] [--site student/_output]

Without ``--site`` it builds the site first (student/build.py into a temporary folder).
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

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "browser")]

from browser_helpers import launch_chromium, serve_static  # noqa: E402
from offline import count_wins, offline_context  # noqa: E402

TIMEOUT_MS = 900_000
#: a live board: the game board's cards, or 06's pair of deals (only live widgets carry these classes)
LIVE_BOARD = ".snb-board [data-card], .snb-pair svg[data-game]"


def folder_mib(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def build(output: Path) -> None:
    start = time.perf_counter()
    subprocess.run([sys.executable, str(REPO / "student" / "build.py"), "--output", str(output)], check=True)
    print(f"build: {time.perf_counter() - start:.1f} s, {folder_mib(output):.1f} MiB (load {os.getloadavg()[0]:.1f})")


def one_run(context, url: str) -> tuple[float, float, float]:
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.locator("h1").first.wait_for(timeout=TIMEOUT_MS)
        text = time.perf_counter() - start
        page.locator(LIVE_BOARD).first.wait_for(timeout=TIMEOUT_MS)
        board = time.perf_counter() - start
        page.locator("#snb-loading").wait_for(state="detached", timeout=TIMEOUT_MS)
        done = time.perf_counter() - start
        return text, board, done
    finally:
        page.close()


def lab_count_run(context, url: str) -> None:
    """One run of ``--lab-count`` in a fresh context: open 08, then time the three counts."""
    from playwright.sync_api import expect

    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.locator("#snb-loading").wait_for(state="detached", timeout=TIMEOUT_MS)
        print(f"08 lista: {time.perf_counter() - start:6.1f} s   (carga {os.getloadavg()[0]:.1f})", flush=True)
        lab = page.locator(".snb-lab").first
        stored = count_wins(lab)
        print(f"  guardada (Beleaguered Castle): {stored['done']:6.1f} s   (carga {os.getloadavg()[0]:.1f})", flush=True)
        slider = lab.locator(".noUi-handle").first
        for presses, columns, stop_after in ((["ArrowLeft"], 7, None), (["ArrowRight"] * 2, 9, 3)):
            for key in presses:
                slider.press(key)
            expect(lab.locator("h3").first).to_contain_text(f"con {columns} columnas", timeout=TIMEOUT_MS)
            got = count_wins(lab, timeout_s=TIMEOUT_MS / 1000, stop_after=stop_after)
            first = got.get("first", float("nan"))
            if stop_after is None:
                print(f"  compuesta ({columns} columnas), resuelta aquí: primeras partidas en pantalla {first:6.1f} s, "
                      f"las {got['deals']:.0f} partidas de cada juego {got['done']:6.1f} s   (carga {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
            else:
                print(f"  compuesta ({columns} columnas), «Detener» tras {got['deals']:.0f} partidas: se detuvo en "
                      f"{got['stopped']:4.1f} s   (carga {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
    finally:
        page.close()


def sizes(site: Path) -> None:
    """The site's size in all, the runtime the lessons share, and each lesson's own files."""
    runtime = folder_mib(site / "static" / "pyodide") + folder_mib(site / "pypi")
    print(f"tamaño: {folder_mib(site):.1f} MiB en total; Pyodide y las ruedas (compartidos) {runtime:.1f} MiB")
    for page in sorted((site / "voici" / "render").glob("*.html")):
        notebook = site / "files" / f"{page.stem}.ipynb"
        own = (page.stat().st_size + (notebook.stat().st_size if notebook.exists() else 0)) / 2**10
        print(f"  {page.stem}: {own:.0f} KiB (página y cuaderno)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, default=None, help="an already built site (default: build one)")
    parser.add_argument("--lesson", nargs="+", default=["05"], help="the lessons' numbers")
    parser.add_argument("--lab-count", action="store_true", help="time 08's «¿Cuántas se pueden ganar?» instead")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="snb-bench-student-") as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            build(site)
        with serve_static(site) as base, sync_playwright() as p:
            browser = launch_chromium(p)
            try:
                for _run in range(args.runs if args.lab_count else 0):
                    context, _aborted = offline_context(browser, 1280)
                    try:
                        lab_count_run(context, f"{base}/voici/render/08_laboratorio.html")
                    finally:
                        context.close()
                for lesson in [] if args.lab_count else args.lesson:
                    page = next((site / "voici" / "render").glob(f"{lesson}*.html"), None)
                    if page is None:
                        raise SystemExit(f"No hay ninguna lección «{lesson}» en {site}")
                    rows: dict[str, list[tuple[float, float, float]]] = {"en frío": [], "en caliente": []}
                    for i in range(args.runs):
                        context, _aborted = offline_context(browser, 1280)
                        try:
                            for kind in rows:  # a fresh context, then the same page again in it
                                row = one_run(context, f"{base}/voici/render/{page.name}")
                                rows[kind].append(row)
                                print(f"{lesson} vez {i + 1} {kind}: texto {row[0]:6.1f} s   primer tablero vivo "
                                      f"{row[1]:6.1f} s   todo {row[2]:6.1f} s   (carga {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
                        finally:
                            context.close()
                    for kind, got in rows.items():
                        med = [statistics.median(r[k] for r in got) for k in range(3)]
                        print(f"{lesson} mediana {kind}: texto {med[0]:6.1f} s   primer tablero vivo {med[1]:6.1f} s   "
                              f"todo {med[2]:6.1f} s   (de {len(got)})")  # fmt: skip
            finally:
                browser.close()
        sizes(site)
    return 0


if __name__ == "__main__":
    sys.exit(main())
