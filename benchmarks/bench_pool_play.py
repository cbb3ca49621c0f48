"""Lesson 07's class pool under load: N light clients each playing M deals of Citadel against the
launcher (``python -m solitaire_nb.classroom 07 --registro …``): each deal is started, then won
(its whole line sent, which the launcher replays with the engine) or given up, every client
polling the class as the widget does and the teacher's page polled every 2 s.  Prints a table
for benchmarks/RESULTS.md («La clase en común del 07»).

Usage::

    python benchmarks/bench_pool_play.py [--alumnos 30] [--partidas 3] [--pausa 1.0]

Of each client's deals, those the atlas says have a solution are won with the solver's line
(solved before the load starts; a line longer than a share code reads is given up), the others
given up.  Measured: results acknowledged and rows
in the record (they must match), whether the class's counts are what was sent, the time to
acknowledge a start and a win, how long after the last result the teacher's page shows the whole
class, and the launcher's processor time.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from pool_light import PoolClient, run_class, start_pool_launcher  # noqa: E402
from reto_light import free_port  # noqa: E402

from solitaire_nb.classroom.pool_play import solver_verdicts  # noqa: E402
from solitaire_nb.classroom.record import Record  # noqa: E402
from solitaire_nb.core.checks import MAX_MOVES  # noqa: E402
from solitaire_nb.engine import new_game  # noqa: E402
from solitaire_nb.engine.share import share_code  # noqa: E402
from solitaire_nb.solver import solve  # noqa: E402


def won_line(number: int) -> str | None:
    g = new_game("citadel", seed=number)
    result = solve(g, max_states=50_000)
    if result.status != "won" or len(result.moves) > MAX_MOVES:  # a code reads at most MAX_MOVES moves
        return None
    for move in result.moves:
        g.move(move)
    return share_code(g)


def run(students: int, deals: int, think: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        record, port = Path(tmp) / "clase.sqlite", free_port()
        proc, token = start_pool_launcher(record, port, Path(tmp) / "log", students=students, lesson="07")
        server = psutil.Process(proc.pid)
        try:
            clients = [PoolClient(port) for _ in range(students)]
            plans = [[c.start + j for j in range(deals)] for c in clients]
            verdicts = solver_verdicts()
            lines = {n: won_line(n) if verdicts.get(n) == "won" else None for plan in plans for n in plan}
            cpu0 = sum(server.cpu_times()[:2])
            out = _load(clients, plans, lines, token, think)
            out["server_cpu_s"] = sum(server.cpu_times()[:2]) - cpu0
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)
        rec = Record(record, None, readonly=True)
        out["recorded"] = len([e for e in rec.events() if e["kind"] == "play"])
        rec.close()
        return {**out, "students": students, "deals": deals}


def _load(clients: list[PoolClient], plans: list[list[int]], lines: dict, token: str, think: float) -> dict:
    starts: list[float] = []
    wins: list[float] = []
    refused: list[tuple[int, int, str]] = []

    def player(c: PoolClient, plan: list[int]) -> None:
        for n in plan:
            t0 = time.monotonic()
            if (status := c.add("partida", {"partida": n, "resultado": "empezada"})) != 200:
                refused.append((n, status, "empezada"))
            starts.append(time.monotonic() - t0)
            time.sleep(think)
            t0 = time.monotonic()
            if lines[n] is not None:
                if (status := c.add("partida", {"partida": n, "resultado": "ganada", "jugada": lines[n]})) != 200:
                    refused.append((n, status, "ganada"))
                wins.append(time.monotonic() - t0)
            else:
                if (status := c.add("partida", {"partida": n, "resultado": "perdida"})) != 200:
                    refused.append((n, status, "perdida"))
            time.sleep(think)

    wall, behind, view = run_class(clients, plans, player, token, lambda v: v["clase"]["ganadas"] + v["clase"]["perdidas"])
    total = sum(len(p) for p in plans)
    won = sum(1 for p in plans for n in p if lines[n] is not None)
    q = statistics.quantiles(starts + wins, n=100)
    if refused:
        print("refused:", refused)
    return {"acked": sum(len(c.acked) for c in clients), "expected_rows": 2 * total, "won": won,
            "same_counts": (view["clase"]["ganadas"], view["clase"]["perdidas"], view["clase"]["sin_terminar"]) == (won, total - won, 0),
            "start_median_ms": statistics.median(starts) * 1000, "win_median_ms": statistics.median(wins or [0]) * 1000,
            "p95_ms": q[94] * 1000, "max_ms": max(starts + wins) * 1000, "teacher_behind_s": behind, "wall_s": wall}  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--alumnos", type=int, default=30)
    p.add_argument("--partidas", type=int, default=3)
    p.add_argument("--pausa", type=float, default=1.0, help="seconds between a student's requests")
    a = p.parse_args()
    r = run(a.alumnos, a.partidas, a.pausa)
    print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| run (UTC) | students × deals | acknowledged | rows in the record | won / given up | counts = sent | "
          "start median / win median / p95 / max (ms) | teacher's page behind (s) | wall (s) | launcher CPU (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {time.strftime('%H:%M', time.gmtime())} | {r['students']} × {r['deals']} | {r['acked']} | "
          f"{r['recorded']} (of {r['expected_rows']}) | {r['won']} / {r['expected_rows'] // 2 - r['won']} | "
          f"{'yes' if r['same_counts'] else 'NO'} | {r['start_median_ms']:.1f} / {r['win_median_ms']:.1f} / "
          f"{r['p95_ms']:.1f} / {r['max_ms']:.1f} | {r['teacher_behind_s']:.2f} | {r['wall_s']:.1f} | {r['server_cpu_s']:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()
