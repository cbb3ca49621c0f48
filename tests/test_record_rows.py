"""Issue 45, classes 5, 8 and 12 as Hypothesis properties: whatever an edited record's rows hold,
the class starts again (one Spanish line per seat, never a traceback) and the export marks what
it cannot read; whatever a file that is no record or no cache holds, it is refused and left as it
was (tests/test_record_files.py has the cases written out)."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire_nb.classroom.challenge_state import Challenge
from solitaire_nb.classroom.record import Record, RecordError, is_record
from solitaire_nb.classroom.summary import FORMULA_STARTS, write_csv
from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move
from solitaire_nb.solver import verdict_cache as vc

DEAL = "citadel/2026"
FEW = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
#: what an edited row may hold in any column: SQLite stores any type in any column.
CELL = st.one_of(  # (no NULL: the columns are NOT NULL)
    st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False), st.text(max_size=30), st.binary(max_size=10),
    st.sampled_from(["move", "undo", "refusal", "hint", "win", "T1-T2", "T1-T1", "=1+1", "ayer"]),
)  # fmt: skip
ROW = st.tuples(st.one_of(st.integers(0, 4), CELL), *[CELL] * 5)


def _english_free(line: str) -> bool:
    return not any(w in line for w in ("Traceback", "Error", "PosixPath", "object", "not "))


# ---------------------------------------------------------------------- class 8: rows that do not replay
@FEW
@given(rows=st.lists(ROW, min_size=1, max_size=8))
def test_class_8_any_edited_rows_start_the_class_and_the_export(tmp_path_factory, rows) -> None:
    path = tmp_path_factory.mktemp("filas") / "r.sqlite"
    c = Challenge(DEAL, path, say=lambda _: None)
    _, secret = c.new_seat()
    c.new_seat()
    first = format_move(load_share(DEAL), load_share(DEAL).legal_moves()[0], sep="-")
    c.event(secret, "move", first)
    db = c.record._db
    db.execute("PRAGMA foreign_keys=OFF")
    for row in rows:  # below the API, as an editor or another version would
        db.execute("INSERT INTO events(seat, t, kind, move, rule, reason) VALUES (?, ?, ?, ?, ?, ?)", row)
    db.commit()
    c.record.close()
    said: list[str] = []
    again = Challenge(DEAL, path, say=said.append)
    assert again.recording and len(said) <= len({r[0] for r in rows}) + 1
    assert all(_english_free(line) and "no se puede repetir" in line for line in said), said
    assert again.view()["filas"]  # the teacher's view answers
    out = io.StringIO()
    write_csv(again.record.events(), {s: n for s, _, n in again.record.seats()}, out, names=True)
    again.record.close()
    cells = [cell for row in list(csv.reader(io.StringIO(out.getvalue())))[1:] for cell in row]
    assert not [cell for cell in cells if cell.startswith(FORMULA_STARTS)]


# ---------------------------------------------------------------------- classes 5 and 12: foreign files
def _foreign(path: Path, kind: str, data: bytes, table: str) -> None:
    if kind == "bytes":
        path.write_bytes(data)
        return
    db = sqlite3.connect(path)
    db.execute(f'CREATE TABLE "{table}"(x)')
    db.execute(f'INSERT INTO "{table}" VALUES (?)', (data,))
    db.commit()
    db.close()


FOREIGN = {"kind": st.sampled_from(["bytes", "sqlite"]), "data": st.binary(min_size=1, max_size=200),
           "table": st.sampled_from(["notas", "meta", "seats", "events", "verdicts", "x"])}  # fmt: skip


@FEW
@given(**FOREIGN)
def test_class_5_a_file_that_is_no_record_is_refused_and_left_alone(tmp_path_factory, kind, data, table) -> None:
    path = tmp_path_factory.mktemp("ajeno") / "r.sqlite"
    _foreign(path, kind, data, table)
    before = path.read_bytes()
    try:
        Record(path, DEAL).close()
    except RecordError as exc:
        assert _english_free(str(exc)) and "no es un registro" in str(exc) or "está vacío" in str(exc), str(exc)
    else:  # only an empty file becomes a record
        raise AssertionError("a foreign file was taken as a record")
    assert not is_record(path)
    assert path.read_bytes() == before and not Path(f"{path}-wal").exists()


@FEW
@given(**FOREIGN)
def test_class_12_the_verdict_cache_leaves_any_foreign_file_alone(tmp_path_factory, kind, data, table) -> None:
    path = tmp_path_factory.mktemp("cache") / "c.sqlite"
    _foreign(path, kind, data, table)
    before = path.read_bytes()
    assert vc.open_cache(path) is None
    assert path.read_bytes() == before and not Path(f"{path}-wal").exists()
