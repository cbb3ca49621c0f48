"""Light clients of a lesson's class pool (06, 07, 08): a student's page without a browser nor a kernel.

A light client gets its seat as a page does (``GET /`` is sent to ``/?asiento=SECRET``) and then
speaks the pool's routes as the widget's kernel does (board/deal_pool.py).  Used by
tests/test_pool.py, tests/test_pool_lessons.py and benchmarks/bench_pool.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

from reto_light import LightClient, launch


def start_pool_launcher(record: Path, port: int, log: Path, students: int = 10, lesson: str = "06"):
    """The launcher serving `lesson` with its pool, without preheated pages (light clients open
    none), in a process group of its own; returns the process once the teacher's line is
    printed, and the token."""
    cmd = [sys.executable, "-m", "solitaire_nb.classroom", lesson, "--registro", str(record), "--alumnos", str(students),
           "--puerto", str(port), "--ip", "127.0.0.1", "--progresivo"]  # fmt: skip
    return launch(cmd, log, port)


class PoolClient:
    """One student's page (a pair's in 08), light: its seat from ``GET /``, then the pool's
    routes as the lesson's widget's kernel speaks them."""

    def __init__(self, port: int, secret: str | None = None) -> None:
        self.page = LightClient.__new__(LightClient)
        self.page.port = port
        self.secret = secret or self.page._new_seat()
        self.acked: list = []
        self.start = self.state().get("inicio")

    def state(self) -> dict:
        return self.page.call("/clase/api/estado", query={"asiento": self.secret})[1]

    def deal(self, number: int) -> int:
        status, _ = self.page.call("/clase/api/reparto", {"asiento": self.secret, "partida": number})
        if status == 200:
            self.acked.append(number)
        return status

    def add(self, route: str, data: dict) -> int:
        """What 07's or 08's widget sends on ``/clase/api/<route>``; kept in `acked` when taken."""
        status, _ = self.page.call(f"/clase/api/{route}", {"asiento": self.secret, **data})
        if status == 200:
            self.acked.append(data)
        return status
