"""How a class ends and what it takes (issue 45, items 16 and 17): SIGHUP and SIGTERM end it as
Ctrl+C does, a start removes only the temporary folders of classes that have ended, a page
beyond what memory allows is refused in Spanish, «Resumen» counts only seats that moved, and a
launcher that loses its port says so before printing any address."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from solitaire_nb.classroom import launcher as clase
from solitaire_nb.classroom import machine, temp_folders
from solitaire_nb.classroom.challenge_state import Challenge
from solitaire_nb.classroom.summary import players_of, summary
from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move

REPO = Path(__file__).resolve().parents[1]
DEAL = "citadel/2000"  # won: the launcher refuses a lost deal


def _note(folder: Path, pid: int, started: float | None, **more) -> Path:
    folder.mkdir()
    (folder / temp_folders.OWNER_NOTE).write_text(json.dumps({"pid": pid, "started": started, **more}))
    return folder


def _ended_pid() -> int:
    """The number of a process that has ended (and been reaped)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def _short_temp() -> Path:
    """A temporary folder with a short path: the kernels' local sockets live in it (about 100
    characters at most for such a path)."""
    return Path(tempfile.mkdtemp(prefix="snb-t", dir="/tmp" if os.path.isdir("/tmp") else None))


# ---------------------------------------------------------------------- temporary folders
def test_a_start_removes_only_the_folders_of_ended_classes(tmp_path: Path) -> None:
    pytest.importorskip("psutil")
    me, started = os.getpid(), temp_folders.process_start(os.getpid())
    dead = _ended_pid()
    assert temp_folders.process_start(dead) is None
    gone = [_note(tmp_path / "snb-clase-killed", dead, None), _note(tmp_path / "voila_killed", dead, 123.0),
            _note(tmp_path / "snb-clase-reused", me, (started or 0) - 3600)]  # fmt: skip
    kept = [_note(tmp_path / "snb-clase-running", me, started), _note(tmp_path / "voila_running", me, started),
            _note(tmp_path / "other-dead", dead, None),
            _note(tmp_path / "snb-clase-other-host", dead, None, host=socket.gethostname() + "-x")]  # fmt: skip
    for name in ("snb-clase-without-note", "voila_another_program"):
        (tmp_path / name).mkdir()
        kept.append(tmp_path / name)
    (tmp_path / "voila_half_written").mkdir()
    (tmp_path / "voila_half_written" / temp_folders.OWNER_NOTE).write_text("")
    kept.append(tmp_path / "voila_half_written")
    (tmp_path / "snb-clase-file").write_text("not a folder")
    assert temp_folders.remove_stale(tmp_path) == len(gone)
    assert [p for p in gone if p.exists()] == []
    assert [p for p in kept if not p.is_dir()] == []
    assert (tmp_path / "snb-clase-file").is_file()


def test_a_class_folder_names_its_owner(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    folder = temp_folders.make_class_folder()
    assert folder.parent == tmp_path and folder.name.startswith("snb-clase-")
    assert temp_folders.owner(folder)[0] == os.getpid()
    assert temp_folders.remove_stale(tmp_path) == 0 and folder.is_dir()


# ---------------------------------------------------------------------- memory, seats, summary
def test_each_new_kernel_is_counted_against_the_memory_free_at_the_start() -> None:
    per, base, share = machine.MB_PER_STUDENT_ESTIMATE, machine.SERVER_BASE_MB, machine.MEMORY_SHARE
    start = (base + 10 * per) / share  # exactly ten kernels fit
    assert machine.kernel_fits(9, start, start)
    assert not machine.kernel_fits(10, start, start)
    assert not machine.kernel_fits(60, start, start)
    # The count allows it, but other programs have taken the memory since the start.
    assert machine.kernel_fits(0, start, start * (1 - share) + per)
    assert not machine.kernel_fits(0, start, start * (1 - share) + per - 1)
    assert machine.kernel_fits(500, None, None)  # unknown: as the start-up check
    # Whatever class the start-up check lets in, its whole pool fits; one kernel beyond what it
    # would have allowed does not.
    for students in (1, 5, 30, 100):
        available = machine.needed_memory_mb(students) / share
        machine.check_memory(students, available)
        assert machine.kernel_fits(machine.pool_size(students) - 1, available, available)
        assert not machine.kernel_fits(machine.pool_size(students) + 1, available, available)


def test_summary_counts_only_seats_that_moved(tmp_path: Path) -> None:
    c = Challenge(DEAL, tmp_path / "r.sqlite", say=lambda _: None)
    secrets = [c.new_seat("10.0.0.1")[1] for _ in range(5)]
    game = load_share(DEAL)
    for secret, moves in zip(secrets[:2], (2, 1), strict=True):
        g = game.copy()
        for _ in range(moves):
            text = format_move(g, g.legal_moves()[0], sep="-")
            c.event(secret, "move", text)
            g.move(g.legal_moves()[0])
    c.event(secrets[1], "undo")  # a move undone is still a move made
    c.command("pistas", True)
    c.event(secrets[2], "hint", "hint")  # asked for a hint, never moved
    players = players_of(c)
    assert sorted(p.moves for p in players) == [1, 2]
    text = summary(DEAL, players, [], solver_seconds=0.2)
    assert "Han jugado 2 alumnos; han ganado 0." in text
    assert "Mediana de movimientos por alumno: 1,5." in text
    assert "Nadie ha jugado el reto todavía." in summary(DEAL, players_of(Challenge(DEAL, None)), [], solver_seconds=0.2)


def test_a_launcher_that_loses_its_port_says_so_before_any_address(capsys, monkeypatch) -> None:
    """The race of two launchers started at once: both found the port free, the other took it."""
    pytest.importorskip("voila")
    from solitaire_nb.classroom import challenge

    served = []
    monkeypatch.setattr(machine, "port_free", lambda *a: None)  # the check both passed
    monkeypatch.setattr(challenge, "serve_challenge", lambda *a, **k: served.append(a))
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        with pytest.raises(SystemExit) as exit_:
            clase.main(["--reto", DEAL, "--puerto", str(port), "--ip", "127.0.0.1", "--progresivo"])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and served == []
    assert f"El puerto {port} está ocupado (¿hay otra clase abierta?)" in err
    assert "http://" not in out + err and "token" not in out + err


# ---------------------------------------------------------------------- real launchers
def _launch(port: int, temp: Path, log: Path, memory_mb: float | None = None) -> subprocess.Popen:
    """A challenge launcher without preheated pages in a process group of its own, its temporary
    folders in `temp`; `memory_mb`: the memory it reads as free (injected, not exhausted)."""
    argv = ["--reto", DEAL, "--registro", str(log.with_suffix(".sqlite")), "--alumnos", "1", "--puerto", str(port),
            "--ip", "127.0.0.1", "--progresivo"]  # fmt: skip
    code = "from solitaire_nb.classroom import machine\n"
    if memory_mb is not None:
        code += f"machine.available_memory_mb = lambda: {memory_mb!r}\n"
    code += f"from solitaire_nb.classroom.launcher import main\nraise SystemExit(main({argv!r}))\n"
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(REPO)}
    with open(log, "w") as out:
        return subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)  # fmt: skip


def _wait_for(proc: subprocess.Popen, log: Path, text: str) -> None:
    deadline = time.monotonic() + 180
    while text not in log.read_text() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert text in log.read_text(), log.read_text()


def _get(port: int, path: str) -> tuple[int, str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    conn.request("GET", path)
    r = conn.getresponse()
    return r.status, r.getheader("Location") or "", r.read().decode("utf-8", "replace")


def _running(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


@pytest.mark.slow
def test_race_for_a_port_memory_refusal_and_sigterm(tmp_path: Path, port: int) -> None:
    """Two launchers started at once on one port: one says in Spanish that the port is taken and
    prints no address.  The other, with memory for one kernel, refuses a second page in Spanish,
    and SIGTERM ends its class as Ctrl+C does."""
    pytest.importorskip("voila")
    psutil = pytest.importorskip("psutil")
    temp = _short_temp()
    # (120 MB of server and 65 per kernel) ≤ 80 % of 260 MB < (120 + 2 × 65)
    procs = [_launch(port, temp, tmp_path / f"{k}.log", memory_mb=260) for k in "ab"]
    try:
        deadline = time.monotonic() + 180
        while all(p.poll() is None for p in procs) and time.monotonic() < deadline:
            time.sleep(0.2)
        logs = {p: (tmp_path / f"{k}.log") for p, k in zip(procs, "ab", strict=True)}
        ended = [p for p in procs if p.poll() is not None]
        assert len(ended) == 1, [log.read_text() for log in logs.values()]
        loser = ended[0]
        winner = next(p for p in procs if p is not loser)
        lost = logs[loser].read_text()
        assert loser.returncode == 2, lost
        assert f"El puerto {port} está ocupado (¿hay otra clase abierta?)" in lost
        assert "http://" not in lost and "Voil" not in lost and "Traceback" not in lost
        _wait_for(winner, logs[winner], "token=")

        seats = [_get(port, "/")[1] for _ in range(2)]
        assert all("?asiento=" in s for s in seats), seats
        status, _, page = _get(port, seats[0])
        assert status == 200 and "Traceback" not in page
        kernels = [c.pid for c in psutil.Process(winner.pid).children(recursive=True)]
        assert len(kernels) == 1
        status, _, page = _get(port, seats[1])
        assert status == 503 and "no tiene memoria libre para abrir otra página" in page, (status, page[:500])
        assert len(psutil.Process(winner.pid).children(recursive=True)) == 1
        assert "Aviso: una página nueva no se ha abierto" in logs[winner].read_text()

        os.kill(winner.pid, signal.SIGTERM)  # the launcher only: it closes its kernel itself
        assert winner.wait(timeout=60) == 0
        text = logs[winner].read_text()
        assert "Clase terminada: núcleos cerrados." in text and "Traceback" not in text
        assert [k for k in kernels if _running(k)] == []
        assert sorted(temp.iterdir()) == []
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=30)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.slow
def test_closing_the_terminal_ends_the_class_and_a_start_keeps_running_classes_folders(tmp_path: Path, port: int) -> None:
    """SIGHUP (the terminal closed) to the launcher's process group ends the class as Ctrl+C
    does.  At its start it removed the folder of a class that had ended, and kept the one of a
    class still running (this test's own process stands for it)."""
    pytest.importorskip("voila")
    pytest.importorskip("psutil")
    temp = _short_temp()
    stale = _note(temp / "snb-clase-killed", _ended_pid(), None)
    running = _note(temp / "snb-clase-running", os.getpid(), temp_folders.process_start(os.getpid()))
    log = tmp_path / "c.log"
    proc = _launch(port, temp, log)
    try:
        _wait_for(proc, log, "token=")
        assert not stale.exists() and running.is_dir()
        assert "Se han borrado las carpetas temporales de una clase anterior" in log.read_text()
        assert len([p for p in temp.iterdir() if p.name.startswith(temp_folders.PREFIXES)]) == 3
        os.killpg(proc.pid, signal.SIGHUP)
        assert proc.wait(timeout=60) == 0
        text = log.read_text()
        assert "Clase terminada: núcleos cerrados." in text and "Traceback" not in text
        assert sorted(temp.iterdir()) == [running]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="a terminal of its own needs pty.fork")
def test_a_closed_terminal_window_ends_the_class_cleanly(tmp_path: Path, port: int) -> None:
    """The launcher in a terminal of its own (a pty) that is then closed: the system sends it
    SIGHUP and its lines can no longer be written; it still closes its kernel, removes its
    folders and exits cleanly."""
    pytest.importorskip("voila")
    pytest.importorskip("psutil")
    import pty
    import select

    temp = _short_temp()
    argv = [sys.executable, "-m", "solitaire_nb.classroom", "--reto", DEAL, "--registro", str(tmp_path / "r.sqlite"),
            "--alumnos", "1", "--puerto", str(port), "--ip", "127.0.0.1", "--progresivo"]  # fmt: skip
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(REPO)}
    pid, terminal = pty.fork()
    if pid == 0:  # the child: the launcher, in the new terminal (never back into pytest)
        try:
            os.chdir(REPO)
            os.execve(sys.executable, argv, env)
        finally:
            os._exit(127)
    reaped = False
    try:
        shown, deadline = b"", time.monotonic() + 180
        while b"token=" not in shown and time.monotonic() < deadline:
            if select.select([terminal], [], [], 1)[0]:
                shown += os.read(terminal, 4096)
        assert b"token=" in shown, shown.decode("utf-8", "replace")
        status, _, _ = _get(port, _get(port, "/")[1])
        assert status == 200
        import psutil

        kernels = [c.pid for c in psutil.Process(pid).children(recursive=True)]
        assert len(kernels) == 1
        os.close(terminal)  # the window closes
        terminal = -1
        _, code = os.waitpid(pid, 0)
        reaped = True
        assert os.waitstatus_to_exitcode(code) == 0
        assert [k for k in kernels if _running(k)] == []
        assert sorted(temp.iterdir()) == []
    finally:
        if terminal >= 0:
            os.close(terminal)
        if not reaped:  # the launcher this test started, still its child: its number is its own
            with contextlib.suppress(ChildProcessError, ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        shutil.rmtree(temp, ignore_errors=True)
