"""Light clients of a class challenge: a student's page without a browser nor a kernel.

A light client gets its seat as a page does (``GET /`` is sent to ``/?asiento=SECRET``) and then
speaks the launcher's challenge routes as a page's kernel does (board/challenge.py's Launcher): it plays legal
moves of the deal, now and then an undo or a refused move, and polls the challenge's state.
Used by tests/test_reto.py and benchmarks/bench_reto.py.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_launcher(deal: str, record: Path, port: int, log: Path, students: int = 5, extra: tuple = (),
                   env: dict | None = None, prefix: tuple = ()):  # fmt: skip
    """The launcher in challenge mode without preheated pages (light clients open none), in a
    process group of its own (with `env`, if given; its command after `prefix`, such as
    ``unshare …``); returns the process once the teacher's line is printed, and the token."""
    preheat = "--sin-progresivo" in extra  # the preheated pool (real pages), not the light default
    extra = tuple(x for x in extra if x != "--sin-progresivo") + (() if preheat else ("--progresivo",))
    cmd = [*prefix, sys.executable, "-m", "solitaire_nb.classroom", "--reto", deal, "--registro", str(record), "--alumnos",
           str(students), "--puerto", str(port), "--ip", "127.0.0.1", *extra]  # fmt: skip
    return launch(cmd, log, port, env)


def launch(cmd: list[str], log: Path, port: int, env: dict | None = None):
    """Start a launcher's command in a process group of its own, its output in `log`; return
    the process and the teacher's token once the token is printed and the port answers."""
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        text = log.read_text()
        if "token=" in text and _answers(port):
            return proc, text.split("token=", 1)[1].split()[0]
        if proc.poll() is not None:
            raise RuntimeError(text)
        time.sleep(0.3)
    proc.kill()
    raise RuntimeError("the launcher did not start: " + log.read_text())


def stop_cleanly(proc, log: Path) -> None:
    """End a launcher as the teacher's Ctrl+C does (SIGTERM to its group) and check its output:
    no traceback, and the end of the class said."""
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and "Clase terminada" in text, text[-2000:]


def _answers(port: int) -> bool:
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        c.request("GET", "/reto/api/estado")
        c.getresponse().read()
        return True
    except OSError:
        return False


class LightClient:
    """One student's page, light."""

    def __init__(self, port: int, secret: str | None = None, seed: int = 0) -> None:
        self.port = port
        self.rng = random.Random(seed)
        self.acked: list[tuple[str, str]] = []  # (kind, move) the launcher acknowledged
        self.game = None
        self.secret = secret or self._new_seat()
        if secret is None:
            self.state()  # a page's board joins its seat at once (an address holds few unjoined seats)

    def _conn(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def _new_seat(self) -> str:
        c = self._conn()
        c.request("GET", "/")
        r = c.getresponse()
        r.read()
        location = r.getheader("Location") or ""
        assert r.status == 302 and "asiento=" in location, (r.status, location)
        return urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["asiento"][0]

    def call(self, path: str, data: dict | None = None, query: dict | None = None) -> tuple[int, dict]:
        c = self._conn()
        url = path + (f"?{urllib.parse.urlencode(query)}" if query else "")
        if data is None:
            c.request("GET", url)
        else:
            c.request("POST", url, body=json.dumps(data), headers={"Content-Type": "application/json"})
        r = c.getresponse()
        body = r.read()
        return r.status, json.loads(body or b"{}")

    def state(self) -> dict:
        return self.call("/reto/api/estado", query={"asiento": self.secret})[1]

    def send(self, kind: str, move: str = "") -> int:
        data = {"asiento": self.secret, "suceso": kind, "movimiento": move}
        status, _ = self.call("/reto/api/evento", data)
        if status == 200:
            self.acked.append((kind, move))
        return status

    def join(self, deal: str) -> dict:
        """Seat and line from the launcher, as a page's board does; the game rebuilt from them."""
        st = self.state()
        self.game = load_share(deal)
        from solitaire_nb.games.notation import parse_move

        for text in st["linea"]:
            self.game.move(parse_move(self.game, text))
        return st

    def play(self, deal: str, moves: int, pause: float = 0.0) -> None:
        """`moves` events: mostly legal moves, an undo or a refused move now and then."""
        if self.game is None:
            self.join(deal)
        g = self.game
        for _ in range(moves):
            roll = self.rng.random()
            legal = g.legal_moves()
            if roll < 0.1 and g.moves_played:
                if self.send("undo") == 200:
                    g.undo()
            elif roll < 0.2 or not legal:
                self.send("refusal", "T1-T1")  # the launcher finds the rule: «la misma pila»
            else:
                m = self.rng.choice(legal)
                if self.send("move", format_move(g, m, sep="-")) == 200:
                    g.move(m)
            if pause:
                time.sleep(pause)


def recorded_line(path: Path, seat: int, deal: str) -> list[str]:
    """A seat's line as its record replays it (moves and undos, in order; read-only, so it can
    be read beside a running launcher)."""
    from solitaire_nb.classroom.record import Record
    from solitaire_nb.games.notation import parse_move

    rec = Record(path, None, readonly=True)
    try:
        game = load_share(deal)
        for e in rec.events(seat):
            if e["kind"] == "move":
                game.move(parse_move(game, e["move"]))
            elif e["kind"] == "undo":
                game.undo()
        return [format_move(game, m, sep="-") for m in game.history]
    finally:
        rec.close()
