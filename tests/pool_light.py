"""Light clients of a lesson's class pool (06, 07, 08): a student's page without a browser nor a kernel.

A light client gets its seat as a page does (``GET /`` is sent to ``/?asiento=SECRET``) and then
speaks the pool's routes as the widget's kernel does (board/deal_pool.py).  Used by
tests/test_pool.py, tests/test_pool_lessons.py, benchmarks/bench_pool.py and
benchmarks/bench_pool_play.py (`run_class`: a class at work, shared by both benchmarks).
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


def run_class(clients: list[PoolClient], plans: list[list[int]], act, token: str, counted) -> tuple[float, float, dict]:
    """A class at work: every client polls the pool as its widget does, a teacher's page polls
    the class every 2 s, and each client runs `act(client, plan)` on its own thread.  Returns
    the wall seconds until the last client is done, when the teacher first saw `counted(view)`
    reach its final value at or after that moment (inf if never), and the teacher's last view."""
    import threading
    import time

    from solitaire_nb.board.deal_pool import POLL_SECONDS

    done = threading.Event()
    polls: list[tuple[float, int]] = []
    last: list[float] = []

    def poller(c: PoolClient) -> None:
        while not done.is_set():
            c.state()
            time.sleep(POLL_SECONDS)

    def teacher() -> None:
        while not done.is_set():
            status, view = clients[0].page.call("/docente/api/clase", query={"token": token})
            if status == 200:
                polls.append((time.monotonic(), counted(view)))
            time.sleep(2.0)

    def student(c: PoolClient, plan: list[int]) -> None:
        act(c, plan)
        last.append(time.monotonic())

    threads = [threading.Thread(target=poller, args=(c,)) for c in clients] + [threading.Thread(target=teacher)]
    players = [threading.Thread(target=student, args=(c, p)) for c, p in zip(clients, plans, strict=True)]
    begin = time.monotonic()
    for t in threads + players:
        t.start()
    for t in players:
        t.join()
    wall = time.monotonic() - begin
    time.sleep(2.5)  # one more teacher poll after the last event
    done.set()
    for t in threads:
        t.join()
    _, view = clients[0].page.call("/docente/api/clase", query={"token": token})
    final = counted(view)
    seen = next((t for t, n in polls if t >= max(last) and n == final), float("inf"))
    return wall, seen - max(last), view
