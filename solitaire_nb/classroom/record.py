"""The class record (a class challenge's or a lesson's class pool): one SQLite file per class (WAL mode, one row per event).

Separate from any other database of the package (the solver's verdict cache has its own file
and lock).  Tables: ``meta`` (the deal's share code, when the class started, the challenge's
state: paused, ended, hints, solution), ``seats`` (seat number, the page's secret, an optional
name) and ``events`` (seat, time, kind, move, rule id, reason).  Kinds: ``move``, ``undo``,
``refusal``, ``win``, ``hint`` for a challenge; for a lesson's pool (format 2) ``deal`` (06: a
deal number), ``play`` (07: a deal played, its result in ``reason``), ``invented`` (08: a pair's
game and counts) and ``prediction`` (seat `TEACHER_SEAT` when the teacher typed it), each with
its group in ``rule``, and ``group`` (format 3: the teacher started a new group).  Every write is committed before it is acknowledged, so a
launcher killed afterwards loses nothing; a later launcher with the same file continues the
class.  Every open, probe and deletion of the file passes through `record_file` (regular files
only, a path never read as a URI, a foreign file refused before any write, the launcher's lock).
Rules side: no widget or web library.
"""

from __future__ import annotations

import datetime
import os
import secrets
import sqlite3
import time
from pathlib import Path
from typing import Any

from ..core.checks import shown
from .record_file import (
    BUSY_SECONDS,
    MAGIC,
    RecordError,
    RecordFull,
    name,
    open_record,
    read_meta,
    real_file,
    record_path,
    spanish,
)
from .record_file import delete_record as _delete

__all__ = ["BUSY_SECONDS", "KINDS", "MAGIC", "Record", "RecordError", "RecordFull", "default_path", "delete_record", "is_record", "record_deal", "TEACHER_SEAT"]

KINDS = ("move", "undo", "refusal", "win", "hint", "deal", "prediction", "play", "invented", "group")
#: seat number of what the teacher writes (a prediction typed on the teacher's page).
TEACHER_SEAT = 0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats(
    seat INTEGER PRIMARY KEY, secret TEXT NOT NULL UNIQUE, name TEXT NOT NULL DEFAULT '', t REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events(
    id INTEGER PRIMARY KEY, seat INTEGER NOT NULL REFERENCES seats(seat), t REAL NOT NULL,
    kind TEXT NOT NULL, move TEXT NOT NULL DEFAULT '', rule TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS events_seat ON events(seat, id);
"""


def default_path(now: datetime.datetime | None = None, kind: str = "reto") -> Path:
    """A new dated file in the user's data folder (``…/solitaire_nb/retos/reto-AAAA-MM-DD-HHMMSS.sqlite``;
    `kind` «clase» for a lesson's pool: ``clase-…``)."""
    try:
        import platformdirs

        base = Path(platformdirs.user_data_dir("solitaire_nb"))
    except ImportError:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "solitaire_nb"
    stamp = (now or datetime.datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    return base / "retos" / f"{kind}-{stamp}.sqlite"


class Record:
    """One class's record.  Every method raises `RecordError` (Spanish) when the database fails."""

    def __init__(self, path: Path | str, deal: str | None, readonly: bool = False) -> None:
        """Open (or create) the record at `path` for the challenge `deal` (a share code without
        moves), holding its lock (`record_file`); `readonly` opens an existing record only to
        read it (any challenge's when `deal` is None).  A file of another challenge, or not a
        class record, is refused before anything is written to it."""
        if not readonly and not deal:
            raise ValueError("Para escribir un registro hace falta el reparto del reto.")
        opened = open_record(path, deal, write=not readonly, schema=_SCHEMA)
        self._db, self.path, self._lock = opened.db, opened.path, opened.lock
        self.deal = opened.meta["deal"]
        self.readonly = readonly

    def close(self) -> None:
        """Close the database, then let its lock go."""
        try:
            self._db.close()
        finally:
            if self._lock is not None:
                self._lock.release()

    # ------------------------------------------------------------------ helpers
    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def _write(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        if self.readonly:
            raise RecordError(f"El registro {name(self.path)} está abierto solo para leerlo.")
        try:
            with self._db:
                return self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise spanish(exc, self.path) from None

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise spanish(exc, self.path) from None

    # ------------------------------------------------------------------ state of the challenge
    def state(self) -> dict[str, bool]:
        """paused, ended, hints, solution (all False for a new class)."""
        rows = dict(self._read("SELECT key, value FROM meta WHERE key IN ('paused','ended','hints','solution')"))
        return {k: rows.get(k) == "1" for k in ("paused", "ended", "hints", "solution")}

    def set_state(self, key: str, value: bool) -> None:
        if key not in ("paused", "ended", "hints", "solution"):
            raise ValueError(f"estado desconocido: {shown(key)}")
        self._write("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, "1" if value else "0"))

    # ------------------------------------------------------------------ seats
    def new_seat(self, seat: int | None = None, secret: str | None = None, t: float | None = None) -> tuple[int, str]:
        """A new seat and its secret (`seat` and `secret` given: a seat made while the disk was
        full, written now)."""
        secret = secret or secrets.token_urlsafe(12)
        cur = self._write("INSERT INTO seats(seat, secret, t) VALUES (?, ?, ?)", (seat, secret, time.time() if t is None else t))
        return int(cur.lastrowid or 0), secret

    def seat_of(self, secret: str) -> int | None:
        """The seat whose page holds `secret`, or None."""
        rows = self._read("SELECT seat FROM seats WHERE secret=?", (str(secret),))
        return rows[0][0] if rows else None

    def set_name(self, seat: int, name: str) -> None:
        self._write("UPDATE seats SET name=? WHERE seat=?", (name, seat))

    def seats(self) -> list[tuple[int, str, str]]:
        """(seat, secret, name) of every seat, in order."""
        return [(s, k, n) for s, k, n in self._read("SELECT seat, secret, name FROM seats ORDER BY seat")]

    # ------------------------------------------------------------------ events
    def add(self, seat: int, kind: str, move: str = "", rule: str = "", reason: str = "", t: float | None = None) -> int:
        """Record one event of `seat` (committed when this returns); its row id."""
        if kind not in KINDS:
            raise ValueError(f"suceso desconocido: {shown(kind)}")
        cur = self._write(
            "INSERT INTO events(seat, t, kind, move, rule, reason) VALUES (?, ?, ?, ?, ?, ?)",
            (seat, time.time() if t is None else t, kind, move, rule, reason),
        )
        return int(cur.lastrowid or 0)

    def events(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Every event (of `seat` only, if given), in order."""
        sql = "SELECT id, seat, t, kind, move, rule, reason FROM events"
        rows = self._read(sql + (" WHERE seat=? ORDER BY id" if seat is not None else " ORDER BY id"),
                          (seat,) if seat is not None else ())  # fmt: skip
        keys = ("id", "seat", "t", "kind", "move", "rule", "reason")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def delete_events(self, seat: int | None, kinds: tuple[str, ...], rule: str | None = None) -> int:
        """Delete the events of `kinds` (of `seat` only, if given; whose ``rule`` is `rule` only,
        if given: a pool's group), for good: a pool emptied or a seat's entries removed leave
        nothing of them in the file (SQLite's secure_delete).  The rows deleted."""
        marks = ",".join("?" * len(kinds))
        where = f"kind IN ({marks})" + (" AND seat=?" if seat is not None else "") + (" AND rule=?" if rule is not None else "")
        extra = (*((seat,) if seat is not None else ()), *((rule,) if rule is not None else ()))
        cur = self._write(f"DELETE FROM events WHERE {where}", (*kinds, *extra))
        return int(cur.rowcount or 0)


def record_deal(path: Path | str) -> str | None:
    """The deal of the class challenge recorded at `path`, or None when it is not a readable
    record (checked without opening anything but a regular file, and read without changing it)."""
    try:
        real = real_file(record_path(path), new_ok=False)
        return read_meta(real)["deal"] if real is not None else None
    except RecordError:
        return None


def is_record(path: Path | str) -> bool:
    """Whether `path` is a class challenge's record (read without changing it)."""
    return record_deal(path) is not None


def delete_record(path: Path | str) -> list[Path]:
    """Delete a class's record and SQLite's side files (`record_file.delete_record`); the paths
    deleted.  Spanish ValueError, nothing deleted, if it is not one or a class is using it."""
    return _delete(path)
