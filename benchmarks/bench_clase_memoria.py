"""The memory of a class served by the launcher: what «Listo» says against what the kernels and
the server use once every student's page is open in Chromium.  Prints a table for
benchmarks/RESULTS.md («Memoria de una clase») and the figures behind the launcher's constants
(solitaire_nb/classroom/machine.py: MB_PER_STUDENT_ESTIMATE, SERVER_MB_PER_PAGE, SERVER_BASE_MB).

Usage::

    python benchmarks/bench_clase_memoria.py [--alumnos 3] [--cuaderno 05]

Memory is PSS (each process's share of the pages it shares with others: the kernels share
Python's libraries), read from /proc through psutil.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import sys
import time

import psutil
from bench_clase import REPO, kernels, notebook_path, server

sys.path.insert(0, str(REPO / "tests" / "browser"))


def pss_mb(process: psutil.Process) -> float:
    with contextlib.suppress(psutil.Error):
        info = process.memory_full_info()
        return getattr(info, "pss", info.rss) / 2**20
    return 0.0


def snapshot(proc) -> tuple[float, list[float]]:
    """(server MB, [MB of each kernel])."""
    return pss_mb(psutil.Process(proc.pid)), [pss_mb(k) for k in kernels(proc).values()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--alumnos", type=int, default=3, help="students (pages opened in Chromium)")
    parser.add_argument("--cuaderno", default="05")
    args = parser.parse_args(argv)
    notebook = notebook_path(args.cuaderno)
    from browser_helpers import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    print(f"# bench_clase_memoria  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  notebook {notebook.name}")
    print(f"# load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}  ({os.cpu_count()} cores)\n")
    with server("clase", notebook, args.alumnos) as (base, proc, ready, _cpu, log):
        said = re.search(r"Listo: .*", log.read_text())
        time.sleep(2)
        server_before, kernels_before = snapshot(proc)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            pages = [browser.new_context().new_page() for _ in range(args.alumnos)]
            for page in pages:
                page.goto(base + "/", timeout=600_000)
            for page in pages:
                page.locator(".snb-board [data-card]").first.wait_for(timeout=600_000)
            time.sleep(3)
            server_after, kernels_after = snapshot(proc)
            browser.close()
    n = args.alumnos
    page_cost = (server_after - server_before) / n
    total = server_after + sum(kernels_after)
    print("| alumnos | núcleos | núcleo tras ejecutar la lección (MB, mediana) | núcleo con su página abierta (MB, mediana) | "
          "servidor sin páginas (MB) | servidor por página abierta (MB) | total con las páginas abiertas (GB) | "
          "MB por núcleo del grupo | «Listo» dijo |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {n} | {len(kernels_after)} | {statistics.median(kernels_before):.0f} | "
          f"{statistics.median(kernels_after):.0f} | {server_before:.0f} | {page_cost:.1f} | {total / 1024:.2f} | "
          f"{(total - server_before) / len(kernels_after):.0f} | {said[0] if said else '—'} |")  # fmt: skip
    print(f"\n# load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
