"""Time for a student page to open in Voila: notebooks served as the README says
(``voila notebooks/NN_xxx.ipynb`` from a copy of the repository's layout, with its voila.json),
opened in Debian's Chromium through Playwright.

For each notebook and each run (a fresh page, so a fresh kernel that executes the notebook), it
prints the seconds from ``page.goto`` until Voila shows the rendered cells (every cell has run:
the page is open: in 06, until the try widget's tally is drawn too) and until the first board
shows its cards (the first lab board in 08); «—» where the page has no board.  Target (issue 30): open ≤ 15 s for 06–08; first lab board of 08
≤ 10 s.  The load average is printed with the figures: the machine is shared.  With `--peer`,
the same run first opens a one-cell page (``import solitaire_nb``): what Voila, the kernel and
the browser cost on this machine at this load, whatever the notebook.  A notebook may also be
given by path (e.g. another checkout's, run with that checkout first on PYTHONPATH).

    python benchmarks/bench_voila_open.py [--runs 3] [--peer] [06 07 08 | path.ipynb …]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "browser")]

from browser_helpers import launch_chromium  # noqa: E402
from student_view import NOTEBOOKS, student_voila  # noqa: E402

TIMEOUT_MS = 600_000
# The element that shows a page is usable, per notebook (beyond Voila's rendered cells).
READY = {"06": ".snb-tally"}


def peer_notebook(folder: Path) -> Path:
    """A one-cell page that only imports the package."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import solitaire_nb as sn")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / "00_par.ipynb"
    nbformat.write(nb, path)
    return path


def notebook(key: str) -> Path:
    found = sorted(NOTEBOOKS.glob(f"{key}*.ipynb")) if len(key) == 2 else [NOTEBOOKS / key]
    if not found or not found[0].is_file():
        raise SystemExit(f"No hay ningún cuaderno «{key}» en {NOTEBOOKS}")
    return found[0]


def has_board(path: Path) -> bool:
    """Whether the notebook displays a board (a lab or a game board) when it runs."""
    text = path.read_text(encoding="utf-8")
    return "sn.lab(" in text or "sn.play(" in text or "tablero(" in text


def measure(page, url: str, board: bool, ready: str | None = None) -> tuple[float, float | None]:
    """(seconds until the cells are shown, seconds until the first board shows its cards)."""
    start = time.perf_counter()
    page.goto(url, timeout=TIMEOUT_MS)
    page.locator("#rendered_cells").wait_for(state="visible", timeout=TIMEOUT_MS)
    if ready:
        page.locator(ready).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    opened = time.perf_counter() - start
    if not board:
        return opened, None
    page.locator(".snb-board [data-card]").first.wait_for(state="attached", timeout=TIMEOUT_MS)
    return opened, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", default=["06", "07", "08"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--peer", action="store_true", help="first, a one-cell page as a peer")
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory(prefix="snb-bench-voila-")
    paths = ([peer_notebook(Path(tmp.name))] if args.peer else []) + [notebook(k) for k in args.notebooks]
    from playwright.sync_api import sync_playwright

    print(f"{'cuaderno':<34} {'vez':>3} {'abierta (s)':>12} {'primer tablero (s)':>19} {'carga':>6}")
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for path in paths:
                opened, boards = [], []
                with student_voila(path) as url:
                    for run in range(1, args.runs + 1):
                        page = browser.new_page(viewport={"width": 1280, "height": 900})
                        try:
                            t_open, t_board = measure(page, url, has_board(path), READY.get(path.name[:2]))
                        finally:
                            page.close()
                        opened.append(t_open)
                        if t_board is not None:
                            boards.append(t_board)
                        board_text = "—" if t_board is None else f"{t_board:.1f}"
                        print(f"{path.name:<34} {run:>3} {t_open:>12.1f} {board_text:>19} {os.getloadavg()[0]:>6.2f}",
                              flush=True)
                board_median = f"{statistics.median(boards):.1f}" if boards else "—"
                print(f"{path.name:<34} {'med':>3} {statistics.median(opened):>12.1f} {board_median:>19}")
        finally:
            browser.close()
            tmp.cleanup()


if __name__ == "__main__":
    main()
