"""The class challenge's record as a file (issue 45, items 4–9, 12, 13): one door opens it
(`classroom/record_file.py`), FIFOs, devices, folders, text files and other programs' databases
refused before anything is written, names never read as URIs, ``--borrar`` through links and
against a running class, a versioned format, a replay that survives bad rows, neutralised CSV
cells, paths shown as paths, the verdict cache on foreign files, and read-only folders and
records (injected ``EACCES`` and, end to end, as the unprivileged user ``nobody``)."""

from __future__ import annotations

import csv
import errno
import io
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire_nb.classroom import launcher as clase
from solitaire_nb.classroom import record_file
from solitaire_nb.classroom.challenge_state import Challenge
from solitaire_nb.classroom.record import Record, RecordError, delete_record, is_record, record_deal
from solitaire_nb.classroom.summary import export_csv, write_csv
from solitaire_nb.core.checks import PATH_SHOWN, shown
from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move
from solitaire_nb.solver import verdict_cache as vc

DEAL = "citadel/2026"
REPO = Path(__file__).resolve().parents[1]
QUIET = {"say": lambda _: None}


def _legal(game, k: int = 0) -> str:
    return format_move(game, game.legal_moves()[k], sep="-")


def _refused_exit(argv, capsys) -> str:
    with pytest.raises(SystemExit) as exit_:
        clase.main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "PosixPath" not in err
    return err


def _foreign_db(path: Path) -> bytes:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notas(alumno TEXT, nota REAL)")
    db.execute("INSERT INTO notas VALUES ('Ana', 9.5)")
    db.commit()
    db.close()
    return path.read_bytes()


# ---------------------------------------------------------------------- kinds of file
def test_a_fifo_is_refused_without_opening(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "tubo.sqlite"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    assert not is_record(fifo) and record_deal(fifo) is None
    with pytest.raises(ValueError, match="tubería"):
        export_csv(fifo, tmp_path / "out.csv")
    assert "tubería" in _refused_exit(["--reto", DEAL, "--registro", str(fifo)], capsys)
    assert "tubería" in _refused_exit(["--borrar", str(fifo)], capsys)
    assert time.monotonic() - t0 < 30  # nothing blocked (a FIFO opened for reading waits forever)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_device_and_a_folder_are_refused(tmp_path: Path, capsys, monkeypatch) -> None:
    assert "dispositivo" in _refused_exit(["--reto", DEAL, "--registro", "/dev/null"], capsys)
    assert "carpeta" in _refused_exit(["--reto", DEAL, "--registro", str(tmp_path)], capsys)
    fake = tmp_path / "disco.sqlite"
    fake.write_bytes(b"")
    real_lstat = os.lstat
    monkeypatch.setattr(record_file, "_lstat",
                        lambda p: os.stat_result((stat.S_IFBLK | 0o600,) + tuple(real_lstat(p))[1:]))  # fmt: skip
    with pytest.raises(RecordError, match="dispositivo"):
        Record(fake, DEAL)


def test_a_text_file_or_another_programs_database_is_refused_untouched(tmp_path: Path, capsys) -> None:
    text = tmp_path / "notas.txt"
    text.write_text("las notas de la clase\n")
    assert "no es un registro" in _refused_exit(["--reto", DEAL, "--registro", str(text)], capsys)
    assert text.read_text() == "las notas de la clase\n"
    other = tmp_path / "otro.sqlite"
    before = _foreign_db(other)
    assert "no es un registro" in _refused_exit(["--reto", DEAL, "--registro", str(other)], capsys)
    with pytest.raises(RecordError, match="no es un registro"):
        Record(other, DEAL)
    with pytest.raises(ValueError, match="no es un registro"):
        export_csv(other, tmp_path / "out.csv")
    assert other.read_bytes() == before  # no WAL switch, no tables added
    assert not Path(f"{other}-wal").exists()
    db = sqlite3.connect(other)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()


# ---------------------------------------------------------------------- names are paths
NAMES = st.text(alphabet="ab#?%&=:/ .é", min_size=1, max_size=12).filter(
    lambda s: s.strip("/ ") and not any(part in ("", ".", "..") for part in s.strip("/").split("/")) and not s.endswith(" "))


@given(name=NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_name_with_uri_characters_is_the_file_it_names(tmp_path: Path, name: str) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / name.strip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    rec = Record(path, DEAL)
    rec.close()
    made = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert made == [path.relative_to(folder).as_posix()]
    assert is_record(path) and record_deal(path) == DEAL
    assert delete_record(path)[0] == path
    assert not [p for p in folder.rglob("*") if p.is_file()]


def test_a_leading_double_slash_names_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    Record(Path("/" + str(path)), DEAL).close()  # «//tmp/…»: no authority read from it
    assert is_record(path)


def test_borrar_never_deletes_another_file_through_a_uri(tmp_path: Path, capsys) -> None:
    victim = tmp_path / "a"
    victim.write_text("no soy un registro")
    Record(tmp_path / "a#x", DEAL).close()
    assert "no existe el registro" in _refused_exit(["--borrar", str(tmp_path / "a?mode=ro")], capsys)
    assert clase.main(["--borrar", str(tmp_path / "a#x")]) == 0
    assert victim.read_text() == "no soy un registro"


# ---------------------------------------------------------------------- symbolic links and the lock
def test_borrar_through_a_link_deletes_the_record_it_points_to(tmp_path: Path, capsys) -> None:
    real = tmp_path / "datos" / "reto.sqlite"
    real.parent.mkdir()
    c = Challenge(DEAL, real, **QUIET)
    c.new_seat()
    c.record._db.execute("PRAGMA wal_autocheckpoint=0")
    c.new_seat()
    assert Path(f"{real}-wal").exists()
    c.record._db.close()  # a launcher killed: -wal and -shm stay
    c.record._lock.release(remove=False)
    link = tmp_path / "enlace.sqlite"
    link.symlink_to(real)
    assert clase.main(["--borrar", str(link)]) == 0
    out = capsys.readouterr().out
    assert f"Registro borrado: {real}" in out and "enlace" in out
    assert not any(p.exists() or p.is_symlink() for p in [real, link, Path(f"{real}-wal"), Path(f"{real}-shm")])


def test_a_link_is_followed_to_a_record_never_to_a_new_one(tmp_path: Path, capsys) -> None:
    dangling = tmp_path / "nuevo.sqlite"
    dangling.symlink_to(tmp_path / "no-existe.sqlite")
    assert "enlace simbólico" in _refused_exit(["--reto", DEAL, "--registro", str(dangling)], capsys)
    assert not (tmp_path / "no-existe.sqlite").exists()
    real = tmp_path / "r.sqlite"
    Record(real, DEAL).close()
    link = tmp_path / "l.sqlite"
    link.symlink_to(real)
    rec = Record(link, DEAL)
    assert rec.path == real
    rec.new_seat()
    rec.close()
    assert len(Record(real, DEAL, readonly=True).seats()) == 1


def test_borrar_refuses_a_record_a_running_class_writes(tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.sqlite"
    c = Challenge(DEAL, path, **QUIET)
    c.new_seat()
    assert "en uso" in _refused_exit(["--borrar", str(path)], capsys)
    assert "en uso" in _refused_exit(["--reto", DEAL, "--registro", str(path)], capsys)
    assert path.exists() and c.recording
    c.record.close()
    assert clase.main(["--borrar", str(path)]) == 0 and not path.exists()


def test_the_lock_is_held_across_processes(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    rec = Record(path, DEAL)
    code = ("import sys\nfrom solitaire_nb.classroom.record import delete_record\n"
            "try:\n    delete_record(sys.argv[1])\nexcept ValueError as e:\n    print(e)\n")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60)
    assert "está en uso" in out.stdout and path.exists()
    rec.close()


# ---------------------------------------------------------------------- the format
def _todays_record(path: Path) -> None:
    """A record exactly as the first version wrote it (its SQL frozen here: no ``format`` key)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript("""
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats(
    seat INTEGER PRIMARY KEY, secret TEXT NOT NULL UNIQUE, name TEXT NOT NULL DEFAULT '', t REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events(
    id INTEGER PRIMARY KEY, seat INTEGER NOT NULL REFERENCES seats(seat), t REAL NOT NULL,
    kind TEXT NOT NULL, move TEXT NOT NULL DEFAULT '', rule TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS events_seat ON events(seat, id);
""")
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("magic", "solitaire_nb-reto-1"), ("deal", DEAL),
                                                      ("started", "2026-12-04T10:00:00"), ("paused", "1")])  # fmt: skip
    db.execute("INSERT INTO seats VALUES (1, 'secreto-de-ana', 'Ana', 1.7e9)")
    g = load_share(DEAL)
    db.execute("INSERT INTO events(seat, t, kind, move) VALUES (1, 1.7e9, 'move', ?)", (_legal(g),))
    db.close()


def test_a_record_of_the_first_version_still_opens(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite"
    _todays_record(path)
    c = Challenge(DEAL, path, **QUIET)
    assert c.recording and c.state["paused"]
    assert c.page_state("secreto-de-ana")["linea"] == [_legal(load_share(DEAL))]
    assert c.seats[1].name == "Ana"
    c.record.close()


def test_a_record_of_a_newer_format_is_refused_and_says_why(tmp_path: Path, capsys) -> None:
    path = tmp_path / "v9.sqlite"
    Record(path, DEAL).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='9' WHERE key='format'")
    db.commit()
    db.close()
    assert "versión más nueva" in _refused_exit(["--reto", DEAL, "--registro", str(path)], capsys)


# ---------------------------------------------------------------------- replay and export
def test_rows_that_do_not_replay_are_said_and_the_seat_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    c = Challenge(DEAL, path, **QUIET)
    _, ana = c.new_seat()
    _, ben = c.new_seat()
    g = load_share(DEAL)
    first = _legal(g)
    c.event(ana, "move", first)
    c.event(ben, "move", first)
    db = c.record._db
    db.execute("INSERT INTO events(seat, t, kind, move) VALUES (1, 1.7e9, 'move', 'T1-T1')")  # refused
    db.execute("INSERT INTO events(seat, t, kind) VALUES (2, 1.7e9, 'undo')")  # fine: ben undoes
    db.execute("INSERT INTO events(seat, t, kind) VALUES (2, 1.7e9, 'undo')")  # nothing to undo
    db.execute("INSERT INTO events(seat, t, kind) VALUES (7, 1.7e9, 'move')")  # no such seat
    db.execute("INSERT INTO events(seat, t, kind, move) VALUES (1, 'ayer', 'hint', '')")  # a bad time
    db.execute("INSERT INTO events(seat, t, kind) VALUES (1, 1.7e9, 'borrar')")  # an unknown kind
    c.record.close()
    said: list[str] = []
    again = Challenge(DEAL, path, say=said.append)
    assert again.recording
    assert again.page_state(ana)["linea"] == [first] and again.page_state(ben)["linea"] == []
    assert len(said) == 3, said  # one line per seat
    assert all("no se puede repetir" in s and "asiento" in s and "la n.º" in s for s in said)
    assert any("asiento 1" in s and "(y 1 más)" in s for s in said) and any("asiento 7" in s for s in said)
    assert all("Traceback" not in s and "PosixPath" not in s for s in said)
    again.record.close()
    out = tmp_path / "r.csv"
    assert export_csv(path, out) == 8
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert [r[1] for r in rows if r[1].startswith("hora no válida")] == ["hora no válida ('ayer')"]


FORMULA = st.sampled_from(["=", "+", "-", "@", "\t", "\r"])


@given(start=FORMULA, rest=st.text(max_size=20))
@settings(max_examples=40, deadline=None)
def test_every_csv_cell_reads_as_text(start: str, rest: str) -> None:
    text = (start + rest).replace("\x00", "")
    events = [{"seat": 1, "t": 1.7e9, "kind": "refusal", "move": text, "rule": text, "reason": text}]
    buf = io.StringIO()
    write_csv(events, {1: text}, buf, names=True)
    rows = list(csv.reader(io.StringIO(buf.getvalue())))
    assert all(cell == "'" + text for cell in rows[1][3:])


def test_the_export_neutralises_formulas(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    c = Challenge(DEAL, path, **QUIET)
    seat, secret = c.new_seat()
    c.set_name(secret, "=HYPERLINK(\"http://x\")")
    # Move texts and reasons from the network are checked or derived by the launcher; an edited
    # record can still hold anything, so the row is written below the API.
    c.record.add(seat, "refusal", "@SUM(1)", "+CB-4", "-1 no se puede")
    c.record.close()
    out = tmp_path / "r.csv"
    export_csv(path, out, names=True)
    row = list(csv.reader(out.open(encoding="utf-8")))[1]
    assert row[3:] == ["'@SUM(1)", "'+CB-4", "'-1 no se puede", "'=HYPERLINK(\"http://x\")"]


# ---------------------------------------------------------------------- paths shown as paths
@given(folder=st.text(min_size=0, max_size=300), leaf=st.text(alphabet="abc-_.0123456789", min_size=1, max_size=40))
@settings(max_examples=60, deadline=None)
def test_a_path_is_shown_as_a_path_with_its_file_name(folder: str, leaf: str) -> None:
    path = Path("/" + folder.replace("\x00", "")) / leaf
    text = shown(path)
    assert "PosixPath" not in text and len(text) <= PATH_SHOWN
    assert text.isprintable()
    if leaf not in (".", ".."):
        assert text.endswith(path.name)


def test_spanish_lines_hold_no_repr(tmp_path: Path, capsys, monkeypatch) -> None:
    from solitaire_nb.classroom import machine

    monkeypatch.setattr(machine, "port_free", lambda *a: None)
    other = tmp_path / ("x" * 150) / "reto-de-ayer.sqlite"
    other.parent.mkdir()
    Record(other, "citadel/7").close()
    err = _refused_exit(["--reto", DEAL, "--registro", str(other)], capsys)
    assert "(citadel/7)" in err and "('citadel/7')" not in err and "reto-de-ayer.sqlite" in err
    with pytest.raises(RecordError) as exc:
        Record(other, DEAL)
    assert "PosixPath" not in str(exc.value) and "('" not in str(exc.value)


# ---------------------------------------------------------------------- the verdict cache
def test_the_verdict_cache_leaves_a_foreign_file_alone_and_says_so_once(tmp_path: Path, capsys, monkeypatch) -> None:
    foreign = tmp_path / "otro.sqlite"
    before = _foreign_db(foreign)
    text = tmp_path / "notas.txt"
    text.write_text("notas")
    fifo = tmp_path / "tubo"
    os.mkfifo(fifo)
    import solitaire_nb as sn

    game = sn.new_game("citadel", seed=3)
    for bad in (foreign, text, fifo):
        monkeypatch.setenv(vc.CACHE_ENV, str(bad))
        assert vc.open_cache() is None and vc.open_cache() is None
        assert vc.cached_solve(game, 5.0).status == "won"
    err = capsys.readouterr().err
    assert err.count("Aviso: La caché de veredictos") == 3 and "sigue sin caché" in err
    assert foreign.read_bytes() == before and not Path(f"{foreign}-wal").exists()
    assert text.read_text() == "notas"
    empty = tmp_path / "vacia.sqlite"
    empty.write_bytes(b"")
    assert vc.open_cache(empty) is not None  # an empty file becomes a cache


# ---------------------------------------------------------------------- read-only folders and records
def _eacces(*_a, **_k):
    raise PermissionError(errno.EACCES, "denied")


def test_injected_eacces_is_refused_in_spanish(tmp_path: Path, capsys, monkeypatch) -> None:
    path = tmp_path / "r.sqlite"
    Record(path, DEAL).close()
    monkeypatch.setattr(record_file, "_open", _eacces)  # the lock file cannot be made
    with pytest.raises(RecordError, match="no hay permiso"):
        Record(path, DEAL)
    assert "no hay permiso" in _refused_exit(["--borrar", str(path)], capsys) and path.exists()
    monkeypatch.undo()
    monkeypatch.setattr(record_file, "_access", lambda p, mode: False)
    assert "no hay permiso" in _refused_exit(["--reto", DEAL, "--registro", str(tmp_path / "nuevo.sqlite")], capsys)
    monkeypatch.setattr(record_file, "_lstat", _eacces)
    assert not is_record(path)
    with pytest.raises(ValueError, match="no hay permiso"):
        export_csv(path, tmp_path / "out.csv")


@pytest.fixture
def open_folder():
    """A folder the user ``nobody`` can enter (pytest's own are closed to other users)."""
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("needs root and runuser to act as another user")
    folder = Path(tempfile.mkdtemp(prefix="snb-ro-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    for p in [folder, *folder.rglob("*")]:
        if p.is_dir() and not p.is_symlink():
            p.chmod(0o755)
    shutil.rmtree(folder)


def _as_nobody(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["runuser", "-u", "nobody", "--", sys.executable, *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd, env={**os.environ, "HOME": str(cwd)})  # fmt: skip


def test_read_only_folders_and_records_as_an_unprivileged_user(open_folder: Path) -> None:
    ro = open_folder / "solo-lectura"
    ro.mkdir()
    c = Challenge(DEAL, ro / "r.sqlite", **QUIET)
    _, secret = c.new_seat()
    c.event(secret, "move", _legal(load_share(DEAL)))
    c.record.close()
    (ro / "r.sqlite").chmod(0o644)
    ro.chmod(0o555)
    out = open_folder / "salida"
    out.mkdir()
    out.chmod(0o777)
    launch = ["-m", "solitaire_nb.classroom", "--reto", DEAL, "--registro"]
    new = _as_nobody(*launch, str(ro / "nuevo.sqlite"), cwd=out)
    assert new.returncode == 2 and "no hay permiso en su carpeta" in new.stderr and "Traceback" not in new.stderr
    old = _as_nobody(*launch, str(ro / "r.sqlite"), cwd=out)
    assert old.returncode == 2 and "no hay permiso" in old.stderr and "Traceback" not in old.stderr
    gone = _as_nobody("-m", "solitaire_nb.classroom", "--borrar", str(ro / "r.sqlite"), cwd=out)
    assert gone.returncode == 2 and "No se puede borrar" in gone.stderr and (ro / "r.sqlite").exists()
    code = f"from solitaire_nb.classroom.summary import export_csv\nprint(export_csv({str(ro / 'r.sqlite')!r}, 'r.csv'))"
    export = _as_nobody("-c", code, cwd=out)
    assert export.returncode == 0 and export.stdout.strip() == "1", export.stderr
    assert sorted(p.name for p in ro.iterdir()) == ["r.sqlite"]  # read as it is: nothing written
    (ro / "r.sqlite").chmod(0o600)  # a record only its owner can read
    hidden = _as_nobody("-c", code, cwd=out)
    assert hidden.returncode == 1 and "no hay permiso" in hidden.stderr
