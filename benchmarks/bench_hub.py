"""The class challenge as a JupyterHub service under load: N hub users, each with a token of
their own, playing M events at once through the hub's proxy (``python -m solitaire_nb.classroom
--hub``, started by a real JupyterHub on loopback as tests/test_hub.py starts it).  Prints a table
for benchmarks/RESULTS.md («El reto en un JupyterHub»).

Usage::

    python benchmarks/bench_hub.py [--alumnos 30] [--movimientos 40]

A light client (tests/hub_server.py's HubClient) speaks the service's routes as a board in a
student's kernel does, with the user's token; no single-user servers are started, so what is
measured is the service, the hub's token check and the proxy.  Measured: events acknowledged and
events in the record (they must agree), the time to acknowledge an event, and the service's
processor time and memory, and the hub's and the proxy's processor time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from hub_server import Hub, load  # noqa: E402

DEAL = "citadel/2000"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--alumnos", type=int, default=30)
    p.add_argument("--movimientos", type=int, default=40)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub(Path(tmp), DEAL)
        try:
            procs = [psutil.Process(pid) for pid in (hub.service_pid(), hub.proc.pid, int(hub.pid_file.read_text()))]
            cpu0 = [sum(pr.cpu_times()[:2]) for pr in procs]
            run = load(hub, a.alumnos, a.movimientos)
            cpu = [sum(pr.cpu_times()[:2]) - c for pr, c in zip(procs, cpu0, strict=True)]
            rss = procs[0].memory_info().rss / 2**20
        finally:
            hub.close()
    took = sorted(t for ts in run["took"].values() for t in ts)
    acked, recorded = sum(run["acked"].values()), sum(run["recorded"].values())
    q = statistics.quantiles(took, n=20)
    print("| alumnos | sucesos por alumno | confirmados | en el registro | iguales por alumno | mediana (ms) "
          "| p95 (ms) | máx (ms) | duración (s) | CPU servicio / hub / proxy (s) | memoria del servicio (MB) | carga |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {a.alumnos} | {a.movimientos} | {acked} | {recorded} | {'sí' if run['acked'] == run['recorded'] else 'NO'} "
          f"| {statistics.median(took) * 1000:.0f} | {q[18] * 1000:.0f} | {took[-1] * 1000:.0f} | {run['seconds']:.1f} "
          f"| {cpu[0]:.1f} / {cpu[1]:.1f} / {cpu[2]:.1f} | {rss:.0f} | {os.getloadavg()[0]:.1f} |")


if __name__ == "__main__":
    main()
