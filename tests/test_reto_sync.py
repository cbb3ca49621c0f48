"""A challenge board and the launcher's record agree (issue 45, items 14 and 15) once the
board reaches the launcher; while it cannot, the board plays on «sin guardar» and sends its
events in order when it can (issue 47).

Boards talk to the in-process challenge through `Wire`, which can lose requests (the launcher
cannot be reached), lose answers (the launcher took the event but the answer timed out), and the
record can run out of room (``PRAGMA max_page_count`` gives SQLite's «database or disk is full»).
The teacher's «Pausar» reaches the record at once and a board only when it polls, so a move,
undo or redo in between meets a launcher that refuses it.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from reto_light import recorded_line

from solitaire_nb.classroom import record_queue
from solitaire_nb.classroom.challenge_state import Challenge, Closed, NotYourSeat
from solitaire_nb.classroom.record import Record
from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move

DEAL = "citadel/2026"
ENGLISH = re.compile(r"PosixPath|database|disk is full|Error|error\b|Traceback")


class Wire:
    """The launcher's student routes called in this process, as `board.challenge.Launcher` calls
    them over HTTP; `mode` "up", "down" (nothing arrives) or "lost" (taken, the answer lost)."""

    def __init__(self, challenge: Challenge) -> None:
        self.c = challenge
        self.mode = "up"

    def call(self, path: str, data: dict | None = None, query: dict | None = None) -> tuple[int, dict]:
        if self.mode == "down":
            return 0, {}
        status, answer = self._answer(path, data, query)
        return (0, {}) if self.mode == "lost" else (status, answer)

    def _answer(self, path: str, data: dict | None, query: dict | None) -> tuple[int, dict]:
        try:
            if path == "/reto/api/estado":
                return 200, self.c.page_state((query or {}).get("asiento"))
            d = data or {}
            return 200, {**self.c.event(d.get("asiento"), d.get("suceso"), d.get("movimiento", "")), **self.c.state}
        except NotYourSeat as exc:
            return 403, {"error": str(exc)}
        except Closed as exc:
            return 409, {"error": str(exc), **self.c.state}
        except ValueError as exc:
            return 400, {"error": str(exc)}


def line_of(board) -> list[str]:
    """The line a board shows."""
    return [format_move(board.game, m, sep="-") for m in board.game.history]


def _fill(c: Challenge, filler: str) -> None:
    """The disk is full from now on: the file may not grow, and the rows of seat `filler` (no
    board's) fill its last page, so that the next write finds no room."""
    db = c.record._db  # noqa: SLF001 - the test stands for a full disk
    db.execute(f"PRAGMA max_page_count={db.execute('PRAGMA page_count').fetchone()[0]}")
    if c.state["paused"] or c.state["ended"]:
        return
    game = c.seat_of(filler).game
    first = format_move(load_share(DEAL), load_share(DEAL).legal_moves()[0], sep="-")
    for _ in range(2000):
        if not c.event(filler, "undo" if game.moves_played else "move", first)["registrado"]:
            break
    else:
        raise AssertionError("the file never filled")


def _free(c: Challenge) -> None:
    c.record._db.execute("PRAGMA max_page_count=1073741823")  # noqa: SLF001


@pytest.fixture
def no_polling(monkeypatch):
    pytest.importorskip("anywidget")
    from solitaire_nb.board import challenge as board_challenge

    monkeypatch.setattr(board_challenge, "POLL_SECONDS", 0)  # the test says when a board polls
    monkeypatch.setattr(record_queue, "RETRY_SECONDS", 0.0)  # every poll retries a waiting record
    return board_challenge


def _board(mod, wire: Wire, secret: str, kept: str | None = None):
    board = mod.ChallengeBoard(DEAL, wire)
    if kept is not None:
        board.handle({"event": "restore", "code": kept})  # what the browser kept, sent before the seat
    board.handle({"event": "seat", "secret": secret})
    return board


def _one_seat(mod, path: Path):
    """A challenge recorded at `path`, the wire to it and one seated board: (challenge, wire, board)."""
    c = Challenge(DEAL, path, say=lambda _: None)
    wire = Wire(c)
    _, secret = c.new_seat()
    return c, wire, _board(mod, wire, secret)


def _play(board, k: int = 0) -> None:
    legal = board.game.legal_moves()
    if legal:
        board.type_move(format_move(board.game, legal[k % len(legal)]))


# ---------------------------------------------------------------------- item 14: pause races
@pytest.mark.parametrize("action", ["undo", "redo", "move"])
@pytest.mark.parametrize("order", ["pausar", "terminar"])
def test_a_step_the_launcher_refuses_is_taken_back(no_polling, tmp_path: Path, action: str, order: str) -> None:
    c = Challenge(DEAL, tmp_path / "r.sqlite", say=lambda _: None)
    _, secret = c.new_seat()
    board = _board(no_polling, Wire(c), secret)
    _play(board)
    _play(board)
    if action == "redo":
        board.press("undo")
    c.command(order)  # reaches the record; the board has not polled yet
    before = line_of(board)
    if action == "move":
        _play(board)
    else:
        board.press(action)
    assert line_of(board) == before == c.line(1) == recorded_line(tmp_path / "r.sqlite", 1, DEAL)
    said = board.view["message"]
    assert "no se ha guardado" in said and ("pausa" in said or "terminado" in said)
    assert "Movimiento deshecho" not in said and "Movimiento rehecho" not in said


def test_a_move_made_after_a_refused_undo_is_recorded_on_the_position_shown(no_polling, tmp_path: Path) -> None:
    """The issue's repro: undo before the board sees «Pausar», «Seguir», then a move."""
    c = Challenge(DEAL, tmp_path / "r.sqlite", say=lambda _: None)
    _, secret = c.new_seat()
    board = _board(no_polling, Wire(c), secret)
    for _ in range(3):
        _play(board)
    c.command("pausar")
    board.press("undo")
    c.command("seguir")
    board.poll_once()
    _play(board, 1)
    assert line_of(board) == c.line(1) == recorded_line(tmp_path / "r.sqlite", 1, DEAL) and len(c.line(1)) == 4
    reloaded = _board(no_polling, Wire(c), secret, kept=board.view["code"])
    assert line_of(reloaded) == line_of(board)  # a reload keeps the student's move


# ---------------------------------------------------------------------- issue 47: out of reach
def _refused_text(game) -> str:
    from solitaire_nb.core.moves import Move

    for src in game.tableau_ids:
        for dst in game.pile_ids:
            m = Move(src, dst, 1)
            if src != dst and game.pile(src) and game.why_not(m) is not None:
                return format_move(game, m)
    raise AssertionError("no refused move")


def _kinds(path: Path, seat: int) -> list[str]:
    rec = Record(path, None, readonly=True)
    try:
        return [e["kind"] for e in rec.events(seat) if e["kind"] != "win"]
    finally:
        rec.close()


@pytest.mark.parametrize("mode", ["down", "lost"])
def test_a_server_out_of_reach_keeps_every_step_sin_guardar_and_sends_them_in_order(no_polling, tmp_path: Path, mode: str) -> None:
    """«down»: nothing arrives; «lost»: the server takes the first event, its answer is lost
    (the seat's event count tells the board not to send it twice)."""
    path = tmp_path / "r.sqlite"
    c, wire, board = _one_seat(no_polling, path)
    _play(board)
    wire.mode = mode
    _play(board)
    _play(board)
    board.press("undo")
    board.type_move(_refused_text(board.game))  # a refused move is reported as ever, later
    _play(board, 1)
    said = board.view["message"]
    assert board.waiting == 5 and len(line_of(board)) == 3  # the board plays on
    assert "Sin guardar: no hay conexión con el ordenador de tu profesor o profesora" in said and not ENGLISH.search(said)
    board.poll_once()  # still out of reach: everything waits, in order
    assert board.waiting == 5 and len(c.line(1)) == (2 if mode == "lost" else 1)
    wire.mode = "up"
    board.poll_once()
    assert board.waiting == 0 and "ya está guardado todo" in board.view["message"]
    assert line_of(board) == c.line(1) == recorded_line(path, 1, DEAL)
    assert _kinds(path, 1) == ["move", "move", "move", "undo", "refusal", "move"]  # each once, in order
    _play(board)  # and on as before
    assert board.waiting == 0 and line_of(board) == recorded_line(path, 1, DEAL)


def test_a_step_the_server_refuses_when_it_is_back_is_said_and_the_board_takes_its_line(no_polling, tmp_path: Path) -> None:
    """The teacher paused the challenge while a board could not reach it: its waiting moves
    meet a paused challenge (409), said in Spanish; the board goes back to the server's line."""
    path = tmp_path / "r.sqlite"
    c, wire, board = _one_seat(no_polling, path)
    _play(board)
    wire.mode = "down"
    _play(board)
    _play(board)
    c.command("pausar")
    wire.mode = "up"
    board.poll_once()
    said = board.view["message"]
    assert board.waiting == 0 and line_of(board) == c.line(1) == recorded_line(path, 1, DEAL) and len(c.line(1)) == 1
    assert "no ha aceptado un paso que diste sin ella" in said and "en pausa" in said and not ENGLISH.search(said)


def test_a_move_refused_on_replay_is_said_with_the_servers_reason(no_polling, tmp_path: Path) -> None:
    """A server that refuses a waiting move (400, its own Spanish reason): said, and the board
    goes back to the server's line; what was taken before it stays."""
    path = tmp_path / "r.sqlite"
    c, wire, board = _one_seat(no_polling, path)
    wire.mode = "down"
    for _ in range(3):
        _play(board)
    wire.mode = "up"
    answer = wire._answer
    calls: list[str] = []

    def refuse_the_second(path_: str, data: dict | None, query: dict | None) -> tuple[int, dict]:
        if data is not None and data.get("suceso") == "move":
            calls.append(data["movimiento"])
            if len(calls) == 2:
                return 400, {"error": "Ese movimiento no está permitido aquí."}
        return answer(path_, data, query)

    wire._answer = refuse_the_second  # type: ignore[method-assign]
    board.poll_once()
    said = board.view["message"]
    assert board.waiting == 0 and len(calls) == 2 and line_of(board) == c.line(1) == calls[:1]
    assert "(ese movimiento no está permitido aquí)" in said and "vuelve a como estaba guardada" in said


def test_a_board_that_could_not_join_plays_on_and_sends_its_moves_once_seated(no_polling, tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    c = Challenge(DEAL, path, say=lambda _: None)
    _, secret = c.new_seat()
    wire = Wire(c)
    wire.mode = "down"
    board = _board(no_polling, wire, secret)
    assert board.seat is None and "Sin guardar" in board.view["message"]
    _play(board)
    _play(board)
    wire.mode = "up"
    board.handle({"event": "seat", "secret": secret})  # the page asks again (its kernel's thread, in a class)
    assert board.seat == 1 and line_of(board) == c.line(1) == recorded_line(path, 1, DEAL) and len(c.line(1)) == 2
    assert "se han vuelto a mandar 2 movimientos" in board.view["message"]
    wire.mode = "down"
    other = c.new_seat()[1]
    quiet = _board(no_polling, wire, other)  # one that plays nothing meanwhile: once seated, «sin guardar» is not said
    assert "Sin guardar" in quiet.view["message"]
    wire.mode = "up"
    quiet.handle({"event": "seat", "secret": other})
    assert quiet.seat == 2 and "Sin guardar" not in quiet.view["message"]


# ---------------------------------------------------------------------- item 15: a full disk
def test_a_full_disk_answers_sin_guardar_and_recording_resumes_by_itself(no_polling, tmp_path: Path) -> None:
    said: list[str] = []
    path = tmp_path / "r.sqlite"
    c = Challenge(DEAL, path, say=said.append)
    _, secret = c.new_seat()
    _, filler = c.new_seat()
    board = _board(no_polling, Wire(c), secret)
    _play(board)
    _fill(c, filler)
    for k in range(5):
        board.press("undo") if k % 2 else _play(board)
        assert "Aún sin guardar" in board.view["message"] and "se guardará automáticamente" in board.view["message"]
    assert c.unsaved > 5
    _, late = c.new_seat()  # a seat made while the disk is full is written later, the same
    view = c.view()
    assert view["registro"] and view["registro_texto"].startswith("sin guardar: no queda espacio en el disco")
    assert len(said) == 1 and "no queda espacio en el disco" in said[0] and "r.sqlite" in said[0]
    _free(c)
    board.poll_once()  # a page's poll retries: nobody has to do anything
    assert c.unsaved == 0 and c.view()["registro_texto"] == "se está registrando"
    assert len(said) == 2 and "vuelve a guardarse" in said[1]
    assert not any(ENGLISH.search(line) for line in said), said
    assert recorded_line(path, 1, DEAL) == c.line(1) == line_of(board)
    rec = Record(path, None, readonly=True)
    assert [s for s, k, _ in rec.seats()] == [1, 2, 3] and rec.seats()[2][1] == late
    rec.close()


def test_a_restart_after_a_full_disk_gets_each_boards_extra_moves_back(no_polling, tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    c = Challenge(DEAL, path, say=lambda _: None)
    seats = [c.new_seat()[1] for _ in range(3)]
    _, filler = c.new_seat()
    boards = [_board(no_polling, Wire(c), s) for s in seats]
    for b in boards:
        _play(b)
    _fill(c, filler)
    for _ in range(3):
        for b in boards:
            _play(b)
    assert c.unsaved > 0
    lines = [line_of(b) for b in boards]
    c.record.close()  # the launcher stops; what waited is not in the file
    assert all(recorded_line(path, n, DEAL) != lines[n - 1] for n in (1, 2, 3))
    said: list[str] = []
    c2 = Challenge(DEAL, path, say=said.append)
    again = [_board(no_polling, Wire(c2), s, kept=b.view["code"]) for s, b in zip(seats, boards, strict=True)]
    for n, b in enumerate(again, 1):
        assert line_of(b) == lines[n - 1] == c2.line(n) == recorded_line(path, n, DEAL)
        assert "se han vuelto a mandar" in b.view["message"]


def test_a_single_step_played_offline_into_a_pause_is_taken_back(no_polling, tmp_path: Path) -> None:
    """Found by the sequence test below: the teacher pauses, the connection drops, the student
    plays one move the board cannot send; when the connection is back the server refuses it
    (paused), and the board must go back to the recorded line and say so, even though the
    refused step was the only one waiting."""
    c, wire, board = _one_seat(no_polling, tmp_path / "r.sqlite")
    c.command("pausar")
    wire.mode = "down"
    _play(board)
    assert board.waiting and line_of(board) != []
    wire.mode = "up"
    board.poll_once()
    assert not board.waiting and line_of(board) == c.line(1) == []
    said = board.view["message"]
    assert "no ha aceptado un paso que diste sin ella (el reto está en pausa)" in said
    assert "vuelve a como estaba guardada" in said


# ---------------------------------------------------------------------- every step, any order
def test_any_sequence_keeps_every_board_on_its_recorded_line(no_polling) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    mod = no_polling
    step = st.one_of(
        st.tuples(st.just("play"), st.integers(0, 2), st.integers(0, 9)),
        st.tuples(st.sampled_from(["undo", "redo", "poll", "reload"]), st.integers(0, 2)),
        st.tuples(st.just("order"), st.sampled_from(["pausar", "seguir", "terminar", "reabrir"])),
        st.tuples(st.just("wire"), st.sampled_from(["up", "down", "lost"])),
        st.tuples(st.just("disk"), st.booleans()),
        st.just(("restart",)),
    )

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(step, min_size=5, max_size=30))
    def check(steps) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "r.sqlite"
            c = Challenge(DEAL, path, say=lambda _: None)
            wire = Wire(c)
            seats = [c.new_seat()[1] for _ in range(3)]
            _, filler = c.new_seat()
            boards = [_board(mod, wire, s) for s in seats]
            for s in steps:
                if s[0] == "play":
                    _play(boards[s[1]], s[2])
                elif s[0] in ("undo", "redo"):
                    boards[s[1]].press(s[0])
                elif s[0] == "poll":
                    boards[s[1]].poll_once()
                elif s[0] == "reload" and wire.mode == "up":  # a page that cannot reach it has no seat
                    boards[s[1]] = _board(mod, wire, seats[s[1]], kept=boards[s[1]].view["code"])
                elif s[0] == "order":
                    c.command(s[1])
                elif s[0] == "wire":
                    wire.mode = s[1]
                    if s[1] == "up":  # each board's poller finds the launcher again
                        for b in boards:
                            b.poll_once()
                elif s[0] == "disk" and c.record is not None:
                    _fill(c, filler) if s[1] else _free(c)
                elif s[0] == "restart" and wire.mode == "up":  # the launcher and its pages start again
                    c.record.close()
                    c = wire.c = Challenge(DEAL, path, say=lambda _: None)
                    boards = [_board(mod, wire, sec, kept=b.view["code"]) for sec, b in zip(seats, boards, strict=True)]
                for n, b in enumerate(boards, 1):
                    if b.waiting:  # «sin guardar»: its events wait for a server it cannot reach
                        assert wire.mode != "up", (n, s)
                        continue
                    assert line_of(b) == c.line(n), (n, s)
                    if not c.unsaved:
                        assert recorded_line(path, n, DEAL) == line_of(b), (n, s)
            c.record.close()

    check()
