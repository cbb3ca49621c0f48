"""The class challenge («Reto de clase»): record, seats, the challenge board, the summary, the
launcher's arguments; and, against the launcher itself, light clients (load and a kill -9)."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

import pytest

from solitaire_nb.classroom import launcher as clase
from solitaire_nb.classroom import machine
from solitaire_nb.classroom.challenge_state import Challenge, Closed, NotYourSeat
from solitaire_nb.classroom.record import Record, RecordError, delete_record, is_record
from solitaire_nb.classroom.summary import export_csv, summary_from_codes
from solitaire_nb.core.moves import Move
from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move

DEAL = "citadel/2026"
LAUNCHED = "citadel/2000"  # won: the launcher refuses a lost deal such as DEAL (test_reto_end)


def _legal(game, k: int = 0) -> str:
    return format_move(game, game.legal_moves()[k], sep="-")


def _refused(game) -> Move:
    for src in game.tableau_ids:
        for dst in game.pile_ids:
            m = Move(src, dst, 1)
            if src != dst and game.pile(src) and game.why_not(m) is not None:
                return m
    raise AssertionError("no refused move")


# ---------------------------------------------------------------------- the record
def test_record_is_wal_with_one_row_per_event(tmp_path: Path) -> None:
    c = Challenge(DEAL, tmp_path / "r.sqlite", say=lambda _: None)
    _, secret = c.new_seat()
    g = load_share(DEAL)
    c.event(secret, "move", _legal(g))
    c.event(secret, "undo")
    c.event(secret, "refusal", "T1-T2")  # its rule comes from the move itself
    db = sqlite3.connect(tmp_path / "r.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    rows = db.execute("SELECT seat, kind, rule FROM events ORDER BY id").fetchall()
    assert rows == [(1, "move", ""), (1, "undo", ""), (1, "refusal", "CB-4")]
    assert all(t > 0 for (t,) in db.execute("SELECT t FROM events"))


def test_a_page_writes_only_for_its_own_seat(tmp_path: Path) -> None:
    c = Challenge(DEAL, tmp_path / "r.sqlite", say=lambda _: None)
    _, mine = c.new_seat()
    other, _ = c.new_seat()
    with pytest.raises(NotYourSeat, match="no tiene asiento"):
        c.event(str(other), "move", _legal(load_share(DEAL)))  # a seat number is no secret
    with pytest.raises(NotYourSeat):
        c.page_state("x" * 16)
    c.event(mine, "move", _legal(load_share(DEAL)))
    assert [e["seat"] for e in c.record.events()] == [1]


def test_a_move_the_rules_refuse_is_not_recorded(tmp_path: Path) -> None:
    c = Challenge(DEAL, tmp_path / "r.sqlite", say=lambda _: None)
    _, secret = c.new_seat()
    g = load_share(DEAL)
    with pytest.raises(ValueError):
        c.event(secret, "move", format_move(g, _refused(g), sep="-"))
    with pytest.raises(ValueError, match="deshacer"):
        c.event(secret, "undo")
    assert c.record.events() == []


def test_restart_continues_the_class(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    c = Challenge(DEAL, path, say=lambda _: None)
    _, secret = c.new_seat()
    g = load_share(DEAL)
    for _ in range(3):
        text = _legal(g)
        c.event(secret, "move", text)
        g.move(g.legal_moves()[0])
    c.set_name(secret, "  Ana   María ")
    c.command("pausar")
    c.record.close()  # the launcher's end: a record being written is locked (a second launcher is refused)
    again = Challenge(DEAL, path, say=lambda _: None)
    state = again.page_state(secret)
    assert state["asiento"] == 1 and state["nombre"] == "Ana María" and state["paused"]
    assert state["linea"] == [format_move(g, m, sep="-") for m in g.history]
    with pytest.raises(Closed):
        again.event(secret, "move", _legal(g))


def test_a_record_of_another_challenge_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    Record(path, DEAL).close()
    with pytest.raises(RecordError, match="es de otro reto"):
        Record(path, "citadel/7")


@pytest.mark.parametrize("damage", ["corrupted", "locked"])
def test_a_broken_database_leaves_the_class_going_without_recording(tmp_path: Path, damage: str, monkeypatch) -> None:
    path = tmp_path / "r.sqlite"
    said: list[str] = []
    if damage == "corrupted":
        path.write_bytes(b"esto no es una base de datos" * 100)
        c = Challenge(DEAL, path, say=said.append)
    else:
        monkeypatch.setattr("solitaire_nb.classroom.record_file.BUSY_SECONDS", 0.2)
        c = Challenge(DEAL, path, say=said.append)
        _, first = c.new_seat()
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")  # another program holds the file
    _, secret = c.new_seat()
    answer = c.event(secret, "move", _legal(load_share(DEAL)))
    assert answer["registrado"] is False and not c.recording
    assert c.page_state(secret)["linea"]  # the class goes on
    assert len(said) == 1 and "La clase sigue sin registro" in said[0]
    assert ("no es un registro" if damage == "corrupted" else "bloqueado") in said[0]


def test_delete_record_only_deletes_a_record(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    Record(path, DEAL).close()
    assert is_record(path)
    other = tmp_path / "notas.txt"
    other.write_text("mis notas")
    with pytest.raises(ValueError, match="no es un registro"):
        delete_record(other)
    delete_record(path)
    assert not path.exists() and other.exists()


def test_csv_leaves_names_out_unless_asked(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    c = Challenge(DEAL, path, say=lambda _: None)
    _, secret = c.new_seat()
    c.set_name(secret, "Lucía")
    c.event(secret, "move", _legal(load_share(DEAL)))
    c.record.close()
    assert export_csv(path, tmp_path / "a.csv") == 1
    text = (tmp_path / "a.csv").read_text()
    assert text.splitlines()[0] == "asiento,hora,suceso,movimiento,regla,motivo" and "Lucía" not in text
    assert "movimiento" in text.splitlines()[1]
    export_csv(path, tmp_path / "b.csv", names=True)
    assert "Lucía" in (tmp_path / "b.csv").read_text()


# ---------------------------------------------------------------------- the challenge board
class InProcess:
    """The launcher's routes, called in this process (what board.challenge.Launcher does over HTTP)."""

    def __init__(self, challenge: Challenge) -> None:
        self.c = challenge

    def call(self, path: str, data: dict | None = None, query: dict | None = None) -> tuple[int, dict]:
        try:
            if path == "/reto/api/estado":
                return 200, self.c.page_state(query["asiento"])
            d = data or {}
            return 200, {**self.c.event(d["asiento"], d["suceso"], d["movimiento"]), **self.c.state}
        except NotYourSeat:
            return 403, {}
        except Closed:
            return 409, dict(self.c.state)
        except ValueError:
            return 400, {}


@pytest.fixture
def seated(tmp_path: Path):
    pytest.importorskip("anywidget")
    from solitaire_nb.board.challenge import ChallengeBoard

    c = Challenge(DEAL, tmp_path / "r.sqlite", say=lambda _: None)
    _, secret = c.new_seat()
    board = ChallengeBoard(DEAL, InProcess(c))
    board.handle({"event": "seat", "secret": secret})
    return c, board, secret


def test_challenge_board_sends_every_event(seated) -> None:
    c, board, _ = seated
    assert board.seat == 1 and not board.hints and not board.solution
    g = board.game
    board.type_move(_legal(g).replace("-", " "))
    refused = _refused(board.game)
    board.type_move(format_move(board.game, refused))
    board.press("undo")
    kinds = [(e["kind"], bool(e["rule"])) for e in c.record.events()]
    assert kinds == [("move", False), ("refusal", True), ("undo", False)]
    board.press("hint")  # off: refused, not recorded
    assert "no hay pistas" in board.view["message"] and len(c.record.events()) == 3
    c.command("pistas", True)
    deadline = time.monotonic() + 5
    while not board.hints and time.monotonic() < deadline:
        time.sleep(0.1)
    assert board.hints
    board.press("hint")
    assert c.record.events()[-1]["kind"] == "hint"


def test_challenge_board_keeps_its_deal(seated) -> None:
    _, board, _ = seated
    board.press("new", game="citadel", seed="7")
    assert "mismo reparto" in board.view["message"] and board.game.seed == 2026
    board.press("load", text="citadel/7/")
    assert board.game.seed == 2026


def test_pause_reaches_the_board_and_refuses_moves(seated) -> None:
    c, board, _ = seated
    c.command("pausar")
    deadline = time.monotonic() + 2
    while "pausa" not in board.view["message"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "El reto está en pausa" in board.view["message"]
    board.type_move(_legal(board.game).replace("-", " "))
    assert board.game.moves_played == 0 and "pausa" in board.view["message"]
    c.command("terminar")
    deadline = time.monotonic() + 2
    while "terminado" not in board.view["message"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "Reto terminado" in board.view["message"] and "0 movimientos" in board.view["message"]


def test_reloaded_page_gets_its_seat_and_position_back(seated) -> None:
    from solitaire_nb.board.challenge import ChallengeBoard

    c, board, secret = seated
    for _ in range(4):
        board.type_move(_legal(board.game).replace("-", " "))
    reloaded = ChallengeBoard(DEAL, InProcess(c))
    reloaded.handle({"event": "restore", "code": f"{DEAL}/"})  # the browser's copy is not the truth…
    reloaded.handle({"event": "seat", "secret": secret})
    assert reloaded.seat == 1 and reloaded.game.history == board.game.history
    reloaded.handle({"event": "restore", "code": f"{DEAL}/"})  # …nor afterwards
    assert reloaded.game.history == board.game.history


def test_a_board_out_of_step_takes_the_launchers_line(seated) -> None:
    c, board, secret = seated
    board.type_move(_legal(board.game).replace("-", " "))
    c.event(secret, "undo")  # the launcher's record moved on without this board (e.g. another tab)
    board.type_move(_legal(board.game).replace("-", " "))  # refused by the launcher: out of step
    assert [format_move(board.game, m, sep="-") for m in board.game.history] == c.page_state(secret)["linea"]


def test_a_page_without_a_seat_is_told(tmp_path: Path) -> None:
    pytest.importorskip("anywidget")
    from solitaire_nb.board.challenge import ChallengeBoard

    c = Challenge(DEAL, tmp_path / "r.sqlite", say=lambda _: None)
    board = ChallengeBoard(DEAL, InProcess(c))
    board.handle({"event": "seat", "secret": "inventado"})
    assert board.seat is None and "no tiene asiento" in board.view["message"]


def test_without_a_server_the_line_is_a_share_code() -> None:
    pytest.importorskip("anywidget")
    from solitaire_nb.board.challenge import ChallengeBoard

    board = ChallengeBoard(DEAL)
    board.type_move(_legal(board.game).replace("-", " "))
    assert board.view["code"].startswith(DEAL + "/") and load_share(board.view["code"]).moves_played == 1


# ---------------------------------------------------------------------- summary
def test_summary_from_pasted_codes() -> None:
    g = load_share(DEAL)
    codes = [f"{DEAL}/{_legal(g)}", f"{DEAL}/", "citadel/7/", "basura"]
    text = summary_from_codes(DEAL, "\n".join(codes), solver_seconds=0.5)
    assert "Han jugado 2 alumnos; han ganado 0." in text
    assert "Mediana de movimientos por alumno: 0,5." in text
    assert "El resolvedor dice del reparto:" in text
    assert "El código n.º 3 es de otra partida" in text and "El código n.º 4 no se puede leer" in text


def test_summary_names_the_shortest_winning_line() -> None:
    from solitaire_nb.classroom.summary import Player, summary
    from solitaire_nb.solver import solve

    game = load_share("citadel/1234")  # one the solver decides at once
    result = solve(game, time_limit=20)
    if result.status != "won":
        pytest.skip("the solver did not decide this deal on this machine now")
    line, g = [], game.copy()
    for m in result.moves:
        line.append(format_move(g, m, sep="-"))
        g.move(m)
    players = [Player("a", line, True, len(line) + 5), Player("b", line + line[:0], True, len(line)),
               Player("c", line[:3], False, 3)]  # fmt: skip
    text = summary("citadel/1234", players, [], solver_seconds=20)
    assert "han ganado 2" in text
    assert f"La línea ganadora más corta de un alumno ({len(line)} movimientos)" in text
    assert "La línea del resolvedor" in text and "no tiene por qué ser la más corta" in text


# ---------------------------------------------------------------------- the launcher's arguments
@pytest.mark.parametrize(
    "argv, message",
    [
        (["--reto", "nojuego/1"], "no es un reparto para el reto"),
        (["--reto", "citadel/2026/T4-T5"], "ya tiene movimientos"),
        (["--reto", "citadel/1", "05"], "con --reto no se indica cuaderno"),
        (["05", "--registro", "x.sqlite"], "--registro solo sirve con --reto"),
        (["--reto", "citadel/1", "--registro", "/no/existe/r.sqlite"], "la carpeta de"),
        (["--borrar", "/no/existe.sqlite"], "no existe el registro"),
    ],
)
def test_challenge_arguments_are_refused_in_spanish(argv, message, capsys, monkeypatch) -> None:
    monkeypatch.setattr(machine, "port_free", lambda *a: None)
    with pytest.raises(SystemExit) as exit_:
        clase.main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_a_record_of_another_challenge_stops_the_launcher(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(machine, "port_free", lambda *a: None)
    path = tmp_path / "r.sqlite"
    Record(path, "citadel/7").close()
    with pytest.raises(SystemExit) as exit_:
        clase.main(["--reto", DEAL, "--registro", str(path)])
    assert exit_.value.code == 2 and "es de otro reto (citadel/7): para seguir esa clase usa --reto citadel/7" in capsys.readouterr().err


def test_borrar_deletes_a_record(tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.sqlite"
    Record(path, DEAL).close()
    assert clase.main(["--borrar", str(path)]) == 0
    assert not path.exists() and "Registro borrado" in capsys.readouterr().out
    text = tmp_path / "t.txt"
    text.write_text("x")
    with pytest.raises(SystemExit):
        clase.main(["--borrar", str(text)])
    assert "no lo borro" in capsys.readouterr().err and text.exists()


# ---------------------------------------------------------------------- against the launcher
@pytest.mark.slow
def test_light_clients_every_event_recorded_and_pages_kept_apart(tmp_path: Path) -> None:
    pytest.importorskip("voila")
    from reto_light import LightClient, free_port, start_launcher, stop_cleanly

    port, record = free_port(), tmp_path / "clase.sqlite"
    proc, token = start_launcher(LAUNCHED, record, port, tmp_path / "log")
    try:
        clients = [LightClient(port, seed=k) for k in range(5)]
        threads = [threading.Thread(target=cl.play, args=(LAUNCHED, 10)) for cl in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        events = Record(record, LAUNCHED, readonly=True).events()
        assert len(events) == sum(len(cl.acked) for cl in clients) >= 40
        seat_of = {cl.secret: cl.state()["asiento"] for cl in clients}
        for cl in clients:
            mine = [(e["kind"], e["move"]) for e in events if e["seat"] == seat_of[cl.secret]]
            assert [k for k, _ in mine if k != "win"] == [k for k, _ in cl.acked]
        # A page can't reach the teacher's page, nor another seat's line, nor write for it.
        a = clients[0]
        assert a.call("/docente/api/clase")[0] == 403
        assert a.call("/docente/api/clase", query={"token": a.secret})[0] == 403
        assert a.call("/docente", query={"token": ""})[0] == 403
        assert a.call("/reto/api/evento", {"asiento": seat_of[clients[1].secret], "suceso": "undo"})[0] == 403
        assert set(a.state()) == {"asiento", "nombre", "paused", "ended", "hints", "solution", "linea", "sucesos"}
        status, view = a.call("/docente/api/clase", query={"token": token})
        assert status == 200 and len(view["filas"]) == 5
        conn = a._conn()
        conn.request("GET", f"/docente/api/csv?token={token}")
        csv_text = conn.getresponse().read().decode()
        assert csv_text.splitlines()[0] == "asiento,hora,suceso,movimiento,regla,motivo"
        assert len(csv_text.splitlines()) == 1 + len(events)
        # Seats are a hard limit: three per student of --alumnos (5 here).
        more = [LightClient(port) for _ in range(15 - 5)]
        assert len({cl.secret for cl in clients + more}) == 15
        conn = a._conn()
        conn.request("GET", "/")
        full = conn.getresponse()
        assert full.status == 403 and "todos sus asientos ocupados" in full.read().decode()
        # Hostile bodies against the real launcher (the in-process fuzz covers every route):
        # a 4xx each, and the launcher's log holds no traceback.
        hostile = [b'{"nombre": "\\ud800"}', b"[" * 3000, b'{"asiento": 1' + b"0" * 5000 + b"}", b"\xff\xfe", b"{}"]
        for path in ("/reto/api/nombre", "/reto/api/evento", "/docente/api/orden"):
            for body in hostile:
                conn = a._conn()
                conn.request("POST", f"{path}?asiento={a.secret}&token={token}", body=body,
                             headers={"Content-Type": "application/json"})  # fmt: skip
                answer = conn.getresponse()
                answer.read()
                assert 400 <= answer.status < 500, (path, body[:20], answer.status)
        assert a.call("/docente/api/clase", query={"token": token})[0] == 200
    finally:
        stop_cleanly(proc, tmp_path / "log")


@pytest.mark.slow
def test_kill_9_loses_no_acknowledged_event(tmp_path: Path) -> None:
    pytest.importorskip("voila")
    from reto_light import LightClient, free_port, start_launcher

    port, record = free_port(), tmp_path / "clase.sqlite"
    # Its own temporary folder (short: the kernels' local sockets live there), to see what is left.
    temp = Path(tempfile.mkdtemp(prefix="snb-t", dir="/tmp" if os.path.isdir("/tmp") else None))
    env = {**os.environ, "TMPDIR": str(temp)}
    proc, _ = start_launcher(LAUNCHED, record, port, tmp_path / "log1", env=env)
    first = sorted(p.name for p in temp.iterdir())
    assert [n[:6] for n in first] == ["snb-cl", "voila_"], first
    clients = [LightClient(port, seed=k) for k in range(3)]
    for cl in clients:
        cl.play(LAUNCHED, 8)
    lines = {cl.secret: [format_move(cl.game, m, sep="-") for m in cl.game.history] for cl in clients}
    seats = {cl.secret: cl.state()["asiento"] for cl in clients}
    os.killpg(proc.pid, signal.SIGKILL)  # the launcher and its kernels, at once
    proc.wait(timeout=30)
    assert sorted(p.name for p in temp.iterdir()) == first  # nothing could remove them
    proc, _ = start_launcher(LAUNCHED, record, port, tmp_path / "log2", env=env)
    try:
        # The next class removes the folders of the one killed, and keeps its own.
        now = sorted(p.name for p in temp.iterdir())
        assert not set(now) & set(first) and [n[:6] for n in now] == ["snb-cl", "voila_"], (first, now)
        assert "Se han borrado las carpetas temporales" in (tmp_path / "log2").read_text()
        assert "Registro del reto" in (tmp_path / "log2").read_text()
        for cl in clients:
            back = LightClient(port, secret=cl.secret)
            st = back.join(LAUNCHED)
            assert st["asiento"] == seats[cl.secret] and st["linea"] == lines[cl.secret]
            assert back.game.history == cl.game.history
        acked = sum(len(cl.acked) for cl in clients)
        assert len([e for e in Record(record, LAUNCHED, readonly=True).events() if e["kind"] != "win"]) == acked
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        shutil.rmtree(temp, ignore_errors=True)


# ---------------------------------------------------------------------- hostile pages
def test_any_event_a_page_sends_is_taken_or_refused_and_touches_only_its_seat(tmp_path_factory) -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    c = Challenge(DEAL, tmp_path_factory.mktemp("h") / "r.sqlite", say=lambda _: None)
    _, mine = c.new_seat()
    other, theirs = c.new_seat()
    c.event(theirs, "move", _legal(load_share(DEAL)))
    their_line = c.line(other)
    anything = st.one_of(st.none(), st.integers(), st.text(max_size=300), st.lists(st.text(max_size=5), max_size=3),
                         st.sampled_from(["move", "undo", "refusal", "hint", "win", "T4-T5", "T1 B1", mine]))  # fmt: skip

    @settings(max_examples=300, deadline=None)
    @given(st.one_of(anything, st.just(mine)), anything, anything)
    def check(secret, kind, move) -> None:
        before = len(c.record.events())
        try:
            c.event(secret, kind, move)
        except (NotYourSeat, Closed, ValueError) as exc:
            assert str(exc) and len(str(exc)) < 400
            assert len(c.record.events()) == before  # refused: nothing recorded
        assert c.line(other) == their_line
        assert all(len(e["move"]) <= 200 for e in c.record.events()[before:])
        assert all(e["reason"] for e in c.record.events()[before:] if e["kind"] == "refusal")

    check()
