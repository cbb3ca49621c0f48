"""A class challenge under load: N light clients each playing M events at once against the
launcher (``python -m solitaire_nb.classroom --reto …``), the teacher's page polled as it polls
itself (every second), and «Pausar» pressed in the middle.  Prints a table for
benchmarks/RESULTS.md («Reto de clase»).

Usage::

    python benchmarks/bench_reto.py [--alumnos 30] [--movimientos 60] [--pausa 0.2] [--paginas K]

A light client (tests/reto_light.py) gets its seat as a page does and then speaks the launcher's
challenge routes as a page's kernel does: one request per event, and a poll of the challenge's
state every 0.5 s (board.challenge.POLL_SECONDS).  No browser and no kernel: what is measured is the
launcher and its record; the kernels' side is tested in tests/browser/test_reto_browser.py.

Measured: events acknowledged and events in the record (they must agree); the time to
acknowledge an event (the record's commit included); how far behind the teacher's view is (for
every acknowledged move or undo, the time until a teacher's poll shows it; the page polls every
second, so up to one second of this is the poll interval); how long «Pausar» takes to reach
every client's poll; and the launcher's processor time.

With ``--paginas K``, a second run with real pages: the launcher with its preheated pool for K
students, K Chromium pages (each its own browser context, so its own seat) typing moves on their
challenge boards; measured: a typed move until the board shows it, whether every move shown is in
the record, and «Pausar» (pressed on the teacher's page) until every board says so.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from reto_light import LightClient, free_port, start_launcher  # noqa: E402

from solitaire_nb.board.challenge import POLL_SECONDS  # noqa: E402
from solitaire_nb.classroom.record import Record  # noqa: E402
from solitaire_nb.games.notation import format_move  # noqa: E402

DEAL = "citadel/2000"  # won: the launcher refuses a lost deal


def run(students: int, events: int, think: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "clase.sqlite"
        port = free_port()
        proc, token = start_launcher(DEAL, record, port, Path(tmp) / "log", students=students)
        server = psutil.Process(proc.pid)
        cpu0 = sum(server.cpu_times()[:2])
        try:
            return _load(port, token, students, events, think, record, server, cpu0)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)


def _load(port, token, students, events, think, record, server, cpu0) -> dict:
    clients = [LightClient(port, seed=k) for k in range(students)]
    for cl in clients:
        cl.join(DEAL)
    seat = {cl.secret: cl.state()["asiento"] for cl in clients}
    done = threading.Event()
    acks: list[float] = []
    shown_at: dict[int, list[tuple[int, float]]] = {seat[cl.secret]: [] for cl in clients}  # (count, acked at)
    paused_seen: dict[str, float] = {}
    pause_at: list[float] = []
    teacher_polls: list[tuple[float, dict[int, int]]] = []

    def poller(cl: LightClient) -> None:
        while not done.is_set():
            st = cl.state()
            if st.get("paused") and cl.secret not in paused_seen:
                paused_seen[cl.secret] = time.monotonic()
            time.sleep(POLL_SECONDS)

    def player(cl: LightClient) -> None:
        g = cl.game
        count = 0
        for _ in range(events):
            roll = cl.rng.random()
            legal = g.legal_moves()
            if roll < 0.1 and g.moves_played:
                kind, move = "undo", ""
            elif roll < 0.2 or not legal:
                kind, move = "refusal", "T1-T1"
            else:
                m = cl.rng.choice(legal)
                kind, move = "move", format_move(g, m, sep="-")
            while True:
                t0 = time.monotonic()
                status = cl.send(kind, move, "XX-0" if kind == "refusal" else "", "prueba" if kind == "refusal" else "")
                if status != 409:  # paused: wait as a page's board does, then try again
                    break
                time.sleep(0.2)
            acks.append(time.monotonic() - t0)
            if status == 200 and kind == "move":
                g.move(m)
            elif status == 200 and kind == "undo":
                g.undo()
            if status == 200 and kind in ("move", "undo"):
                count += 1
                shown_at[seat[cl.secret]].append((count, time.monotonic()))
            time.sleep(think)

    def teacher() -> None:
        while not done.is_set():
            status, view = clients[0].call("/docente/api/clase", query={"token": token})
            if status == 200:
                teacher_polls.append((time.monotonic(), {r["asiento"]: r["movimientos"] + r["deshechos"] for r in view["filas"]}))
            time.sleep(1.0)

    threads = [threading.Thread(target=poller, args=(cl,)) for cl in clients]
    threads += [threading.Thread(target=teacher)]
    players = [threading.Thread(target=player, args=(cl,)) for cl in clients]
    start = time.monotonic()
    for t in threads + players:
        t.start()
    time.sleep(max(1.0, events * think / 2))  # «Pausar» in the middle of the class
    pause_at.append(time.monotonic())
    clients[0].call("/docente/api/orden", {"orden": "pausar"}, query={"token": token})
    time.sleep(3.0)
    clients[0].call("/docente/api/orden", {"orden": "seguir"}, query={"token": token})
    for t in players:
        t.join()
    wall = time.monotonic() - start
    time.sleep(1.5)  # one more teacher poll after the last event
    done.set()
    for t in threads:
        t.join()
    cpu = sum(server.cpu_times()[:2]) - cpu0
    recorded = Record(record, DEAL).events()
    acked = sum(len(cl.acked) for cl in clients)
    lags = []
    for s, marks in shown_at.items():
        for count, t_ack in marks:
            seen = next((t for t, counts in teacher_polls if t >= t_ack and counts.get(s, 0) >= count), None)
            lags.append(float("inf") if seen is None else seen - t_ack)
    reach = [paused_seen.get(cl.secret, float("inf")) - pause_at[0] for cl in clients]
    q = statistics.quantiles(acks, n=100)
    return {
        "students": students, "events": events, "acked": acked,
        "recorded": len([e for e in recorded if e["kind"] != "win"]), "wins": len(recorded) - len([e for e in recorded if e["kind"] != "win"]),
        "ack_median_ms": statistics.median(acks) * 1000, "ack_p95_ms": q[94] * 1000, "ack_max_ms": max(acks) * 1000,
        "lag_median_s": statistics.median(lags), "lag_max_s": max(lags), "pause_max_s": max(reach),
        "pause_reached": sum(r < float("inf") for r in reach), "wall_s": wall, "server_cpu_s": cpu,
    }  # fmt: skip


def run_pages(k: int, moves: int) -> dict:
    """K real student pages in Chromium and the teacher's page (see the module's docstring)."""
    from browser_helpers import BOARD_TIMEOUT_MS, launch_chromium
    from playwright.sync_api import sync_playwright

    import solitaire_nb as sn

    deal = "citadel/1234"
    with tempfile.TemporaryDirectory() as tmp:
        record, port, log = Path(tmp) / "clase.sqlite", free_port(), Path(tmp) / "log"
        proc, token = start_launcher(deal, record, port, log, students=k, extra=("--sin-progresivo",))
        try:
            deadline = time.monotonic() + 600
            while "Listo" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(1)
            with sync_playwright() as pw:
                browser = launch_chromium(pw)
                pages = []
                for _ in range(k):
                    page = browser.new_context().new_page()
                    page.goto(f"http://127.0.0.1:{port}/", timeout=BOARD_TIMEOUT_MS)
                    page.get_by_text("Tu asiento:").wait_for(timeout=BOARD_TIMEOUT_MS)
                    pages.append(page)
                teacher = browser.new_context().new_page()
                teacher.goto(f"http://127.0.0.1:{port}/docente?token={token}")
                latencies = []
                game = sn.new_game("citadel", seed=1234)
                line = []
                for _ in range(moves):  # every page plays the same line, move by move, together
                    legal = game.legal_moves()
                    if not legal:
                        break
                    line.append(format_move(game, legal[0]))
                    game.move(legal[0])
                for n, typed in enumerate(line, 1):
                    starts = []
                    for page in pages:
                        box = page.locator(".snb-board .snb-text").first
                        box.fill(typed)
                        starts.append(time.monotonic())
                        box.press("Enter")
                    for page, t0 in zip(pages, starts, strict=True):
                        page.locator(f".snb-board[data-moves='{n}']").first.wait_for(timeout=60_000)
                        latencies.append(time.monotonic() - t0)
                t0 = time.monotonic()
                teacher.click("#pausar")
                reach = []
                for page in pages:
                    page.locator(".snb-message", has_text="El reto está en pausa").first.wait_for(timeout=30_000)
                    reach.append(time.monotonic() - t0)
                browser.close()
            events = Record(record, deal).events()
            return {"pages": k, "moves": len(line), "shown": k * len(line),
                    "recorded": len([e for e in events if e["kind"] == "move"]),
                    "move_median_ms": statistics.median(latencies) * 1000, "move_max_ms": max(latencies) * 1000,
                    "pause_max_s": max(reach)}  # fmt: skip
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--alumnos", type=int, default=30)
    p.add_argument("--movimientos", type=int, default=60)
    p.add_argument("--pausa", type=float, default=0.2, help="seconds a client thinks between events")
    p.add_argument("--paginas", type=int, default=0, help="also K real pages in Chromium (0: none)")
    a = p.parse_args()
    if a.paginas:
        sys.path.insert(0, str(REPO / "tests" / "browser"))
        r = run_pages(a.paginas, min(a.movimientos, 20))
        print("| pages × moves | moves shown | moves in the record | typed move → board, median / max (ms) | «Pausar» → every board (s) |")
        print("|---|---|---|---|---|")
        print(f"| {r['pages']} × {r['moves']} | {r['shown']} | {r['recorded']} | {r['move_median_ms']:.0f} / "
              f"{r['move_max_ms']:.0f} | {r['pause_max_s']:.2f} |\n")  # fmt: skip
    r = run(a.alumnos, a.movimientos, a.pausa)
    print("| students × events | acknowledged | in the record | ack median / p95 / max (ms) | teacher's view behind, median / max (s) | «Pausar» reached | «Pausar» slowest (s) | wall (s) | launcher CPU (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {r['students']} × {r['events']} | {r['acked']} | {r['recorded']} (+{r['wins']} won) | "
          f"{r['ack_median_ms']:.1f} / {r['ack_p95_ms']:.1f} / {r['ack_max_ms']:.1f} | {r['lag_median_s']:.2f} / {r['lag_max_s']:.2f} | "
          f"{r['pause_reached']}/{r['students']} | {r['pause_max_s']:.2f} | {r['wall_s']:.1f} | {r['server_cpu_s']:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()
