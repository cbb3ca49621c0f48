"""The memory of one student's kernel for each lesson: what the launcher announces per student
(solitaire_nb/classroom/machine.py, KERNEL_MB) before it can measure anything.

Each lesson runs as a student's page runs it (the cells a student sees: those tagged
"docente" left out, as voila.json does) in a fresh kernel of this Python; then the kernel's
memory is read, as PSS (its share of what it shares with other processes: a class's kernels
share Python's libraries), the figure the launcher's «Listo» line adds up
(`machine.kernels_memory_mb`).

Usage::

    python benchmarks/bench_lesson_memory.py [00 05 06 …]

Prints a table for benchmarks/RESULTS.md («Memoria de una clase») and the dict for KERNEL_MB.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

import nbformat
import psutil
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]


def pss_mb(pid: int) -> float:
    with contextlib.suppress(psutil.Error):
        info = psutil.Process(pid).memory_full_info()
        return getattr(info, "pss", info.rss) / 2**20
    return 0.0


def student_view(path: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    nb.cells = [c for c in nb.cells if "docente" not in c.get("metadata", {}).get("tags", [])]
    return nb


def measure(path: Path) -> float:
    """The kernel's PSS in MB after running the lesson's student cells."""
    nb = student_view(path)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": "0"}
    env.pop("MPLBACKEND", None)
    client = NotebookClient(nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    with client.setup_kernel(env=env):
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        time.sleep(1)
        return pss_mb(client.km.provisioner.pid)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers (all of notebooks/NN_*.ipynb if none)")
    args = parser.parse_args(argv)
    paths = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if args.lessons:
        paths = [p for p in paths if p.name[:2] in args.lessons]
    print(f"# bench_lesson_memory  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"# load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}  ({os.cpu_count()} cores)\n")
    print("| lección | núcleo tras ejecutar la lección (MB, PSS) |\n|---|---|")
    found = {}
    for path in paths:
        found[path.name[:2]] = mb = measure(path)
        print(f"| {path.stem} | {mb:.0f} |", flush=True)
    print("\nKERNEL_MB = {" + ", ".join(f'"{k}": {round(v)}' for k, v in found.items()) + "}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
