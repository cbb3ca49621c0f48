"""The class challenge's record: one SQLite file per class (WAL mode, one row per event).

Separate from any other database of the package (the solver's verdict cache has its own file
and lock).  Tables: ``meta`` (the deal's share code, when the class started, the challenge's
state: paused, ended, hints, solution), ``seats`` (seat number, the page's secret, an optional
name) and ``events`` (seat, time, kind, move, rule id, reason).  Kinds: ``move``, ``undo``,
``refusal``, ``win``, ``hint``.  Every write is committed before it is acknowledged, so a
launcher killed afterwards loses nothing; a later launcher with the same file continues the
class.  Rules side: no widget or web library.
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

KINDS = ("move", "undo", "refusal", "win", "hint")
#: how long a write waits for another process's lock before the class goes on without recording.
BUSY_SECONDS = 2.0
_MAGIC = "solitaire_nb-reto-1"

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


class RecordError(Exception):
    """The record cannot be used (corrupted, locked, not a class record); the message is Spanish."""


def default_path(now: datetime.datetime | None = None) -> Path:
    """A new dated file in the user's data folder (``…/solitaire_nb/retos/reto-AAAA-MM-DD-HHMMSS.sqlite``)."""
    try:
        import platformdirs

        base = Path(platformdirs.user_data_dir("solitaire_nb"))
    except ImportError:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "solitaire_nb"
    stamp = (now or datetime.datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    return base / "retos" / f"reto-{stamp}.sqlite"


def _spanish(exc: Exception, path: Path) -> str:
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        why = "otro programa lo tiene bloqueado"
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        why = "el archivo está dañado o no es un registro de clase"
    elif "readonly" in text or "permission" in text or "unable to open" in text:
        why = "no se puede escribir en él"
    else:
        why = f"error de la base de datos ({shown(exc)})"
    return f"El registro «{shown(path)}» no se puede usar: {why}."


class Record:
    """One class's record.  Every method raises `RecordError` (Spanish) when the database fails."""

    def __init__(self, path: Path | str, deal: str) -> None:
        """Open (or create) the record at `path` for the challenge `deal` (a share code without
        moves).  A file of another challenge, or not a class record, is refused."""
        self.path = Path(path)
        self.deal = deal
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            self._db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            if not fresh:
                self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()
                tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if "meta" not in tables or self._meta("magic") != _MAGIC:
                    raise RecordError(f"El archivo «{shown(self.path)}» no es un registro de un reto de clase.")
                if self._meta("deal") != deal:
                    raise RecordError(
                        f"El registro «{shown(self.path)}» es de otro reto ({shown(self._meta('deal'))}); "
                        "para un reto nuevo usa un archivo nuevo."
                    )
            with self._db:
                self._db.executescript(_SCHEMA)
                if fresh:
                    self._db.executemany(
                        "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                        [("magic", _MAGIC), ("deal", deal), ("started", datetime.datetime.now().isoformat(timespec="seconds"))],
                    )
        except sqlite3.Error as exc:
            raise RecordError(_spanish(exc, self.path)) from None

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------------ helpers
    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def _write(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        try:
            with self._db:
                return self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise RecordError(_spanish(exc, self.path)) from None

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise RecordError(_spanish(exc, self.path)) from None

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
    def new_seat(self) -> tuple[int, str]:
        """A new seat and its secret."""
        secret = secrets.token_urlsafe(12)
        cur = self._write("INSERT INTO seats(secret, t) VALUES (?, ?)", (secret, time.time()))
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


def record_deal(path: Path | str) -> str | None:
    """The deal of the class challenge recorded at `path`, or None when it is not a readable
    record (read without changing it)."""
    try:
        db = sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True, timeout=0.5)
        try:
            rows = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('magic', 'deal')").fetchall())
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return rows.get("deal") if rows.get("magic") == _MAGIC else None


def is_record(path: Path | str) -> bool:
    """Whether `path` is a class challenge's record (read without changing it)."""
    return record_deal(path) is not None


def delete_record(path: Path | str) -> None:
    """Delete a class's record (and SQLite's side files); Spanish ValueError if it is not one."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"No existe el registro «{shown(path)}».")
    if not is_record(path):
        raise ValueError(f"«{shown(path)}» no es un registro de un reto de clase: no lo borro.")
    for extra in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
