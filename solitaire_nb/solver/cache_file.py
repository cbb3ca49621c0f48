"""Which file the verdict cache (`verdict_cache`) may open: one that is new, empty, or already a
cache — never another program's database, a text file, a FIFO or a device.

`refusal` looks before SQLite opens anything for writing: ``lstat`` first (a symbolic link is
followed only to an existing file), then a read-only connection whose path is quoted in a
``file:`` URI (``#``, ``?``, ``%`` are part of the name), which reads the table list and writes
nothing.  So a cache pointed at a foreign file leaves it byte for byte as it was: no tables
added, no WAL switch.
"""

from __future__ import annotations

import os
import stat
import sys
import urllib.parse
from pathlib import Path

from ..core.checks import shown

TABLES = {
    "verdicts": ["key", "status", "line", "budget", "states", "stored"],
    "claims": ["key", "owner", "budget", "expires"],
}
"""A cache's tables and their columns (`verdict_cache.VerdictCache` makes them)."""

SQLITE_HEADER = b"SQLite format 3\x00"  # the first bytes of every SQLite database
_lstat = os.lstat  # module-level so a test can present a FIFO or a device without one
_SAID: set[str] = set()


class NotACache(ValueError):
    """The file is not one the cache may touch; the message is Spanish."""


def quoted_uri(path: Path, mode: str) -> str:
    """A SQLite ``file:`` URI naming exactly `path` (absolute, every byte quoted)."""
    return f"file://{urllib.parse.quote(os.fsencode(Path(path).absolute()))}?mode={mode}"


def refusal(path: Path, timeout: float = 0.5) -> str | None:
    """Why the cache must not touch `path` (Spanish), or None when it is missing, empty or a
    cache.  A database that is only busy raises its `sqlite3.Error` (no verdict on it)."""
    try:
        st = _lstat(path)
        if stat.S_ISLNK(st.st_mode):
            st = os.stat(path)
    except FileNotFoundError:
        return "es un enlace simbólico a un archivo que no existe" if os.path.islink(path) else None
    except OSError as exc:
        return f"no se puede leer (error del sistema n.º {exc.errno})"
    if stat.S_ISDIR(st.st_mode):
        return "es una carpeta"
    if not stat.S_ISREG(st.st_mode):
        return "no es un archivo normal (una tubería o un dispositivo)"
    if st.st_size == 0:
        return None
    not_cache = "no es una caché de veredictos (es otro archivo o la base de datos de otro programa)"
    try:  # a regular file (checked above): reading its first bytes cannot block
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        return f"no se puede leer (error del sistema n.º {exc.errno})"
    if head != SQLITE_HEADER:  # SQLite reads a file of a byte or two as an empty database
        return not_cache
    import sqlite3  # here, not at the top: the browser's Python has no sqlite3 and solves without a cache

    db = sqlite3.connect(quoted_uri(path, "ro"), uri=True, timeout=timeout)
    try:
        found = {r[0]: r[1] for r in db.execute("SELECT name, type FROM sqlite_master")}
        tables = {n for n, kind in found.items() if kind == "table"}
        if not found:  # a database with nothing in it yet: another process is creating the cache
            return None
        if "verdicts" not in tables or not tables <= set(TABLES):
            return not_cache
        for table in tables:
            columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
            if columns != TABLES[table]:
                return not_cache
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc).lower() or "malformed" in str(exc).lower():
            return not_cache
        raise
    finally:
        db.close()
    return None


def check_cache_file(path: Path, timeout: float = 0.5) -> None:
    """Refuse (`NotACache`, Spanish) a file the cache must not touch."""
    why = refusal(path, timeout)
    if why is not None:
        raise NotACache(f"La caché de veredictos {shown(path, path=True)} {why}: el resolvedor sigue sin caché y no toca ese archivo.")


def say_once(message: str) -> None:
    """Say `message` on stderr once per process (a kernel's or the launcher's terminal)."""
    if message not in _SAID:
        _SAID.add(message)
        print(f"Aviso: {message}", file=sys.stderr, flush=True)
