"""How long a student waits for a study page to open in Voila: from the click on the link to the
page rendered, every cell run and its widgets drawn (Chromium through Playwright, Debian's).

The page is served as the README says (``voila notebooks/NN_xxx.ipynb`` from the root of a copy
of the repository's layout, with its voila.json; saved outputs removed, so the page runs every
cell as it opens).  The clock starts before ``page.goto`` and stops when Voila has replaced its
spinner by the rendered cells (``#rendered_cells`` visible) and, when the notebook is known, the
element that shows its last widget drawn (06: the try widget's tally).  Each page load starts a
new kernel, so every run pays the kernel's start, the imports and the cells' work.

    python benchmarks/bench_voila_open.py [06 07 08 | path/to/NN_xxx.ipynb] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "browser")]

import browser_helpers as bh  # noqa: E402
from student_view import NOTEBOOKS, student_voila  # noqa: E402

# The element that shows a page is usable, per notebook (beyond Voila's rendered cells).
READY = {"06": ".snb-tally"}
TIMEOUT_MS = 180_000


def open_once(page, url: str, ready: str | None) -> float:
    t0 = time.perf_counter()
    page.goto(url, timeout=TIMEOUT_MS)
    page.locator("#rendered_cells").wait_for(state="visible", timeout=TIMEOUT_MS)
    if ready:
        page.locator(ready).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("notebooks", nargs="*", default=["06"], help="números de cuaderno (06, 07, 08) o rutas a un .ipynb")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    bh.require_chromium()
    from playwright.sync_api import sync_playwright

    rows = []
    for number in args.notebooks:
        notebook = Path(number) if number.endswith(".ipynb") else next(NOTEBOOKS.glob(f"{number}_*.ipynb"))
        with student_voila(notebook) as base, sync_playwright() as p:
            browser = bh.launch_chromium(p)
            times = []
            for _ in range(args.runs):
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                times.append(open_once(page, base, READY.get(number)))
                page.close()
            browser.close()
        rows.append((notebook.stem, times))
    print("| cuaderno | veces | mediana (s) | mínimo (s) | máximo (s) |")
    print("|---|---:|---:|---:|---:|")
    for stem, times in rows:
        print(f"| {stem} | {len(times)} | {statistics.median(times):.1f} | {min(times):.1f} | {max(times):.1f} |")


if __name__ == "__main__":
    main()
