"""Lesson 06's class pool under load: N light clients each dealing M deals at once against the
launcher (``python -m solitaire_nb.classroom 06 --registro …``), the teacher's page polled as it
polls itself (every 2 s), every client polling the class's figure as the try widget does.
Prints a table for benchmarks/RESULTS.md («La clase en común del 06»).

Usage::

    python benchmarks/bench_pool.py [--alumnos 30] [--repartos 5] [--pausa 1.0] [--comunes 4]

A light client (tests/pool_light.py) gets its seat as a page does, then sends one request per
«Repartir» with the deal's number only (the launcher deals it and counts it); the first
`--comunes` clients all deal partidas 1…M (as a class that starts at deal 1), the others deal
from their seat's own number.  No browser and no kernel: what is measured is the launcher, its
counting and its record; the kernels' side is tests/browser/test_pool_browser.py.

Measured: deals acknowledged, rows in the record and distinct deals (they must be what was
sent), whether the pool's mean and interval equal the notebook's own functions on those deals,
the time to acknowledge a deal (its counting and the record's commit included), how long after
the last acknowledged deal the teacher's page shows the whole class, and the launcher's
processor time.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from pool_light import PoolClient, run_class, start_pool_launcher  # noqa: E402
from reto_light import free_port  # noqa: E402

from solitaire_nb import study  # noqa: E402
from solitaire_nb.classroom.record import Record  # noqa: E402
from solitaire_nb.study.tally import count_deal  # noqa: E402


def run(students: int, deals: int, think: float, shared: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        record, port = Path(tmp) / "clase.sqlite", free_port()
        proc, token = start_pool_launcher(record, port, Path(tmp) / "log", students=students)
        server = psutil.Process(proc.pid)
        cpu0 = sum(server.cpu_times()[:2])
        try:
            out = _load(port, token, students, deals, think, shared)
            out["server_cpu_s"] = sum(server.cpu_times()[:2]) - cpu0
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)
        rec = Record(record, None, readonly=True)
        out["recorded"] = len([e for e in rec.events() if e["kind"] == "deal"])
        rec.close()
        return out


def _load(port: int, token: str, students: int, deals: int, think: float, shared: int) -> dict:
    clients = [PoolClient(port) for _ in range(students)]
    plans = [list(range(1, deals + 1)) if k < shared else [c.start + j for j in range(deals)] for k, c in enumerate(clients)]
    acks: list[float] = []

    def dealer(c: PoolClient, plan: list[int]) -> None:
        for n in plan:
            t0 = time.monotonic()
            c.deal(n)
            acks.append(time.monotonic() - t0)
            time.sleep(think)

    everyone = {n for plan in plans for n in plan}
    wall, behind, view = run_class(clients, plans, dealer, token, lambda v: v["clase"]["n"])
    values = [float(count_deal(n).home_in_deal) for n in sorted(everyone)]
    notebook = tuple(float(x) for x in study.mean_ci(values))
    pool = (view["clase"]["media"], view["clase"]["bajo"], view["clase"]["alto"])
    q = statistics.quantiles(acks, n=100)
    return {
        "students": students, "deals": deals, "acked": sum(len(c.acked) for c in clients),
        "expected_rows": sum(len(p) for p in plans), "distinct": view["clase"]["n"], "expected_distinct": len(everyone),
        "same_figure": pool == notebook, "ack_median_ms": statistics.median(acks) * 1000, "ack_p95_ms": q[94] * 1000,
        "ack_max_ms": max(acks) * 1000, "teacher_behind_s": behind, "wall_s": wall,
    }  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--alumnos", type=int, default=30)
    p.add_argument("--repartos", type=int, default=5)
    p.add_argument("--pausa", type=float, default=1.0, help="seconds a student waits between deals")
    p.add_argument("--comunes", type=int, default=4, help="students who all deal partidas 1…M")
    a = p.parse_args()
    r = run(a.alumnos, a.repartos, a.pausa, a.comunes)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average {load}")
    print("| run (UTC) | students × deals | acknowledged | rows in the record | distinct deals | pool = notebook's "
          "mean_ci | ack median / p95 / max (ms) | teacher's page behind (s) | wall (s) | launcher CPU (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {time.strftime('%H:%M', time.gmtime())} | {r['students']} × {r['deals']} | {r['acked']} | "
          f"{r['recorded']} (of {r['expected_rows']}) | {r['distinct']} (of {r['expected_distinct']}) | "
          f"{'yes' if r['same_figure'] else 'NO'} | {r['ack_median_ms']:.1f} / {r['ack_p95_ms']:.1f} / {r['ack_max_ms']:.1f} | "
          f"{r['teacher_behind_s']:.2f} | {r['wall_s']:.1f} | {r['server_cpu_s']:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()
