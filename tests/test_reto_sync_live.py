"""Issue 45, items 14 and 15 against a running launcher: three seats whose boards run in real
kernels, undoing and redoing before they see «Pausar»; and a record on a small tmpfs (mounted
without privileges, ``unshare -rm``) that fills up and is freed during the class.

The tmpfs test does not skip: where ``unshare`` or user namespaces are missing it fails and says so.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from reto_light import recorded_line

from solitaire_nb.classroom.record import Record
from solitaire_nb.games.notation import format_move

pytestmark = pytest.mark.slow
DEAL = "citadel/2000"  # won: the launcher refuses a lost deal


def _teacher(client, token: str, order: str) -> None:
    status, _ = client.call(f"/docente/api/orden?token={token}", {"orden": order})
    assert status == 200


class Kernel:
    """A real IPython kernel holding one challenge board on the launcher at `url`."""

    def __init__(self, url: str, secret: str) -> None:
        from jupyter_client.manager import start_new_kernel

        repo = str(Path(__file__).resolve().parents[1])
        env = {**os.environ, "SNB_RETO_URL": url, "PYTHONPATH": os.pathsep.join(filter(None, [repo, os.environ.get("PYTHONPATH")]))}
        self.km, self.kc = start_new_kernel(env=env, cwd=repo)
        # No polling thread: the board sees the teacher's switches only when the test says (poll_once),
        # so every step below meets the launcher before the board knows of «Pausar».
        self.run("import json\nimport solitaire_nb.board.challenge as ch\nch.POLL_SECONDS = 0\n"
                 f"board = ch.ChallengeBoard({DEAL!r}, ch.Launcher({url!r}))\n"
                 f"board.handle({{'event': 'seat', 'secret': {secret!r}}})")  # fmt: skip
        self.seat = self.state()["seat"]

    def run(self, code: str) -> str:
        out: list[str] = []

        def hook(msg: dict) -> None:
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                out.append("\n".join(msg["content"]["traceback"]))

        reply = self.kc.execute_interactive(code, timeout=120, output_hook=hook)
        assert reply["content"]["status"] == "ok", "".join(out)
        return "".join(out)

    def state(self) -> dict:
        return json.loads(self.run(
            "print(json.dumps({'seat': board.seat, 'message': board.view['message'], 'line': "
            "[ch.format_move(board.game, m, sep='-') for m in board.game.history]}))"))  # fmt: skip

    def play(self) -> None:
        self.run("board.type_move(ch.format_move(board.game, board.game.legal_moves()[0]))")

    def press(self, button: str) -> None:
        self.run(f"board.press({button!r})")

    def stop(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def test_three_kernels_undo_and_redo_before_they_see_pausar(tmp_path: Path) -> None:
    pytest.importorskip("voila")
    from reto_light import LightClient, free_port, start_launcher

    port, record = free_port(), tmp_path / "clase.sqlite"
    proc, token = start_launcher(DEAL, record, port, tmp_path / "log", students=3)
    kernels: list[Kernel] = []
    try:
        teacher = LightClient(port)
        secrets = [teacher._new_seat() for _ in range(3)]  # what three pages' addresses hold
        kernels = [Kernel(f"http://127.0.0.1:{port}", s) for s in secrets]

        def agree() -> list[dict]:
            states = [k.state() for k in kernels]
            for k, st in zip(kernels, states, strict=True):
                assert st["line"] == recorded_line(record, k.seat, DEAL), (k.seat, st)
            return states

        for k in kernels:
            k.play()
            k.play()
        kernels[1].press("undo")
        agree()
        _teacher(teacher, token, "pausar")
        kernels[0].press("undo")  # the repro: «Movimiento deshecho» shown, never recorded
        kernels[1].press("redo")
        kernels[2].play()
        for st in agree():
            assert "no se ha guardado" in st["message"] and "pausa" in st["message"]
        _teacher(teacher, token, "seguir")
        for k in kernels:
            k.run("board.poll_once()")
            k.play()  # recorded on the position the student sees
        assert [len(st["line"]) for st in agree()] == [3, 2, 3]
        _teacher(teacher, token, "terminar")
        kernels[0].press("undo")
        assert "terminado" in agree()[0]["message"]
        assert "Traceback" not in (tmp_path / "log").read_text()
    finally:
        for k in kernels:
            k.stop()
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)


def _fill(folder: Path) -> Path:
    """Fill the file system of `folder` to the last byte; the filler's path."""
    filler = folder / "relleno"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        for size in (65536, 4096, 512, 1):
            while True:
                try:
                    os.write(fd, b"\0" * size)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc  # the tmpfs is full
                    break
    finally:
        os.close(fd)
    return filler


def test_a_record_on_a_full_tmpfs_says_so_and_resumes_when_space_returns(tmp_path: Path) -> None:
    pytest.importorskip("voila")
    pytest.importorskip("anywidget")
    from reto_light import LightClient, free_port, start_launcher

    from solitaire_nb.board import challenge as board_challenge

    assert shutil.which("unshare"), "this test needs unshare (util-linux) to mount a small tmpfs without privileges"
    mount = tmp_path / "disco"
    mount.mkdir()
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs '{mount}'"],
                           capture_output=True, text=True)  # fmt: skip
    assert probe.returncode == 0, f"unshare -rm cannot mount a tmpfs here (user namespaces off?): {probe.stderr}"
    port, log = free_port(), tmp_path / "log"
    wrap = ("unshare", "-rm", "sh", "-c", 'mount -t tmpfs -o size=2m tmpfs "$0" && exec "$@"', str(mount))
    proc, token = start_launcher(DEAL, mount / "clase.sqlite", port, log, students=3, prefix=wrap)
    inside = Path(f"/proc/{proc.pid}/root") / str(mount).lstrip("/")  # the launcher's tmpfs, seen from here
    record = inside / "clase.sqlite"
    try:
        client = LightClient(port, seed=1)
        board = board_challenge.ChallengeBoard(DEAL, board_challenge.Launcher(f"http://127.0.0.1:{port}"))
        board.handle({"event": "seat", "secret": LightClient(port)._new_seat()})

        def play() -> str:
            board.type_move(format_move(board.game, board.game.legal_moves()[0]))
            return board.view["message"]

        for _ in range(3):
            assert "sin guardar" not in play()
        client.play(DEAL, 4)
        filler = _fill(inside)
        said = play()
        assert "Aún sin guardar" in said and "se guardará automáticamente" in said
        status, answer = client.call("/reto/api/evento", {"asiento": client.secret, "suceso": "refusal", "movimiento": "T1-T1"})
        assert status == 200 and answer["registrado"] is False
        client.acked.append(("refusal", "T1-T1"))
        client.play(DEAL, 3)
        status, view = client.call("/docente/api/clase", query={"token": token})
        assert view["registro"] and view["registro_texto"].startswith("sin guardar")
        text = log.read_text()
        assert "no queda espacio en el disco para el registro" in text and "PosixPath" not in text
        filler.unlink()  # space is back: the next write takes what waited, in order
        assert "sin guardar" not in play()
        status, view = client.call("/docente/api/clase", query={"token": token})
        assert view["registro_texto"] == "se está registrando" and view["sin_guardar"] == 0
        text = log.read_text()
        assert "vuelve a guardarse" in text and "Traceback" not in text
        # SQLite resolves /proc/PID/root to this namespace's «/»: the record is read from a copy.
        copy = tmp_path / "copia"
        copy.mkdir()
        for side in ("", "-wal"):
            shutil.copyfile(f"{record}{side}", copy / f"clase.sqlite{side}")
        record = copy / "clase.sqlite"
        rec = Record(record, None, readonly=True)
        seats = {secret: seat for seat, secret, _ in rec.seats()}
        events = [e["kind"] for e in rec.events(seats[client.secret]) if e["kind"] != "win"]
        rec.close()
        assert events == [kind for kind, _ in client.acked]  # every event answered, «sin guardar» or not
        assert recorded_line(record, seats[board._secret], DEAL) == [format_move(board.game, m, sep="-") for m in board.game.history]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
