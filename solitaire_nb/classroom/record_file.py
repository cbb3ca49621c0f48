"""The one door to a class challenge's record file: every open, probe and deletion passes here.

`open_record` opens a record for ``--registro``, ``--borrar``, `is_record`, the export and the
replay.  Before SQLite sees the file it is checked with ``lstat`` (a FIFO, a device or a folder
is refused in Spanish, unopened); a symbolic link is followed to an existing file, never to make
a new record; the path reaches SQLite quoted in a ``file:`` URI (``#``, ``?``, ``%``, a leading
``//`` name nothing else); and an existing file is read read-only first, so a text file, another
program's database, another challenge's record or a newer format is refused before any PRAGMA
writes to it.  A launcher writing a record holds an OS lock on ``<record>-lock`` (``flock``, gone
with its process), so ``--borrar`` and a second launcher refuse a record in use (no lock on
Windows).  Records carry a format version (``meta.format``; none means 1, the first): older
formats always open, a newer one is refused and says why.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import urllib.parse
from pathlib import Path
from typing import Any, NamedTuple

from ..atlas.files import kind_refused, os_reason
from ..core.checks import shown

MAGIC = "solitaire_nb-reto-1"
"""What ``meta.magic`` holds in every record of a class challenge (every format)."""
FORMAT = 3
"""The record format this version writes (``meta.format``); bumped with any schema change, and
`open_record` then upgrades older records in place.  2: a record may hold a lesson's class pool
(``meta.deal`` «leccion/06», events ``deal`` and ``prediction``); 3: a pool's events name their
group in ``rule`` (none: group 1) and ``group`` events start a new one, so an older launcher
(which would pool every group together) refuses the file.  Older records are the same tables
and are marked 3 when a launcher opens them to write."""
BUSY_SECONDS = 2.0
"""How long a write waits for another process's lock before the class goes on without recording."""
SIDE_FILES = ("-wal", "-shm", "-journal")

_lstat = os.lstat  # module-level so a test can present a FIFO, a device or EACCES without one
_open = os.open
_access = os.access


class RecordError(Exception):
    """The record cannot be used (not a record, locked, unreadable…); the message is Spanish."""


class RecordFull(RecordError):
    """A write found no room (the disk, or the file's size limit, is full): worth retrying once
    space is freed; nothing of that write is in the file."""


def name(path: Path | str) -> str:
    """A record's path for a Spanish line, inside «…»."""
    return f"«{shown(path, path=True)}»"


def record_path(path: Any) -> Path:
    """`path` (text or path-like) as an absolute `Path`; RecordError for anything else."""
    if isinstance(path, os.PathLike) and not isinstance(path, str):
        path = os.fspath(path)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str) or not path.strip() or "\x00" in path:
        raise RecordError("Falta el nombre del archivo del registro (una ruta, como clase.sqlite).")
    return Path(os.path.abspath(path))


def _os(exc: OSError, path: Path, doing: str) -> RecordError:
    return RecordError(f"No se puede {doing} el registro {name(path)}: {os_reason(exc)}.")


def real_file(path: Path, new_ok: bool) -> Path | None:
    """The regular file the record at `path` is (a symbolic link followed), or None when none
    exists yet and `new_ok`.  Checked with ``lstat`` only: nothing is opened."""
    try:
        st = _lstat(path)
    except FileNotFoundError:
        if new_ok:
            return None
        raise RecordError(f"No existe el registro {name(path)}.") from None
    except OSError as exc:
        raise _os(exc, path, "leer") from None
    real = path
    if stat.S_ISLNK(st.st_mode):
        real = Path(os.path.realpath(path))
        try:
            st = _lstat(real)
        except FileNotFoundError:
            raise RecordError(
                f"{name(path)} es un enlace simbólico a un archivo que no existe: un registro nuevo no se "
                "crea a través de un enlace; usa la ruta del archivo de verdad."
            ) from None
        except OSError as exc:
            raise _os(exc, path, "leer") from None
    why = kind_refused(st.st_mode)
    if why is not None:
        raise RecordError(f"El registro {name(path)} {why}; el registro es un archivo (por ejemplo clase.sqlite).")
    return real


def _uri(path: Path, mode: str) -> str:
    # every byte quoted: «#», «?», «%» are part of the name; "file://" + an absolute path leaves
    # the authority empty even for a path starting with «//».
    return f"file://{urllib.parse.quote(os.fsencode(path))}?mode={mode}"


def connect(path: Path, mode: str, timeout: float | None = None) -> sqlite3.Connection:
    """A connection to the regular file `path` (`mode` ``ro`` or ``rw``: never created here)."""
    timeout = BUSY_SECONDS if timeout is None else timeout
    uri = _uri(path, mode)
    if mode == "ro" and not _access(path.parent, os.W_OK) and not os.path.lexists(f"{path}-wal"):
        # A folder nobody can write holds no writer (its -wal would be there): the record is read
        # as it is, without the -shm file SQLite could not create.
        uri += "&immutable=1"
    return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None, check_same_thread=False)


def spanish(exc: sqlite3.Error, path: Path) -> RecordError:
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        why = "otro programa lo tiene bloqueado"
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        why = "el archivo está dañado o no es un registro de un reto de clase"
    elif "full" in text:
        return RecordFull(f"No queda espacio en el disco para el registro {name(path)}.")
    elif "readonly" in text or "permission" in text or "unable to open" in text or "access" in text:
        why = "no se puede leer o escribir en él o en su carpeta (permisos)"
    else:
        why = f"la base de datos ha fallado ({type(exc).__name__})"
    return RecordError(f"El registro {name(path)} no se puede usar: {why}.")


def read_meta(path: Path) -> dict[str, str]:
    """The ``meta`` table of the record at `path` (a regular file), read through a read-only
    connection; RecordError when it is no record of a class challenge or of a newer format."""
    not_record = RecordError(f"El archivo {name(path)} no es un registro de un reto de clase.")
    if not _access(path, os.R_OK):
        raise RecordError(f"No se puede leer el registro {name(path)}: no hay permiso.")
    try:
        db = connect(path, "ro", timeout=0.5)
    except sqlite3.Error as exc:
        raise spanish(exc, path) from None
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"meta", "seats", "events"} <= tables:
            raise not_record
        meta = {str(k): str(v) for k, v in db.execute("SELECT key, value FROM meta")}
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc).lower() or "no such" in str(exc).lower():
            raise not_record from None
        raise spanish(exc, path) from None
    finally:
        db.close()
    if meta.get("magic") != MAGIC or "deal" not in meta:
        raise not_record
    version = meta.get("format", "1")
    if not version.isascii() or not version.isdigit() or len(version) > 6:
        raise not_record
    if int(version) > FORMAT:
        raise RecordError(
            f"El registro {name(path)} es de una versión más nueva de solitaire_nb (formato {int(version)}; "
            f"esta lee hasta el {FORMAT}): actualiza solitaire_nb para abrirlo."
        )
    return meta


def in_use(path: Path) -> RecordError:
    return RecordError(
        f"El registro {name(path)} está en uso: una clase en marcha lo está escribiendo. "
        "Termina esa clase (Ctrl+C en su ventana) y vuelve a intentarlo."
    )


class Lock:
    """The operating-system lock of a record being written (``<record>-lock``, ``flock``)."""

    def __init__(self, path: Path, doing: str = "escribir") -> None:
        """Take the lock of the record at `path` (to `doing` it: «escribir», «borrar»);
        RecordError when another process holds it."""
        self.path = Path(f"{path}-lock")
        self.fd: int | None = None
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows, Pyodide: no lock
            return
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
        for _ in range(10):
            try:
                fd = _open(self.path, flags, 0o600)
            except OSError as exc:
                raise _os(exc, path, doing) from None
            if kind_refused(os.fstat(fd).st_mode):
                os.close(fd)
                raise RecordError(f"El archivo de bloqueo {name(self.path)} no es un archivo normal: bórralo.")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise in_use(path) from None
            try:  # the lock file may have been removed (and made again) by its last holder
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except OSError:
                same = False
            if same:
                break
            os.close(fd)
        else:  # pragma: no cover - ten launchers starting and ending in between
            raise in_use(path)
        self.fd = fd
        _HELD.add(fd)

    def release(self, remove: bool = True) -> None:
        """Let the lock go (removing its file first, while still held)."""
        if self.fd is None:
            return
        if remove:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        _HELD.discard(self.fd)
        os.close(self.fd)
        self.fd = None


_HELD: set[int] = set()


def _close_in_child() -> None:  # a forked child's copy must not keep the launcher's lock
    for fd in list(_HELD):
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_in_child)


class Opened(NamedTuple):
    db: sqlite3.Connection
    path: Path  # the record's real file (a symbolic link followed)
    meta: dict[str, str]  # empty for a new record
    lock: Lock | None  # held while writing


def check_record(path: Any, deal: str | None = None, write: bool = False,
                 probe_lock: bool = True) -> tuple[Path | None, dict[str, str]]:  # fmt: skip
    """(the real file or None for a new record, its meta) after every check `open_record` makes
    before it opens for writing, without writing anything: for the launcher's arguments."""
    path = record_path(path)
    real = real_file(path, new_ok=write)
    meta: dict[str, str] = {}
    if real is not None and _lstat(real).st_size > 0:
        meta = read_meta(real)
    elif not write:
        raise RecordError(f"El archivo {name(path)} está vacío: no es un registro de un reto de clase.")
    if deal is not None and meta and meta["deal"] != deal:
        raise RecordError(
            f"El registro {name(path)} es de otro reto ({shown(meta['deal'], raw=True)}); para un reto nuevo usa un archivo nuevo."
        )
    if write:
        target = real or path
        folder = target.parent
        if not _access(folder, os.W_OK | os.X_OK):
            raise RecordError(f"No se puede escribir el registro {name(path)}: no hay permiso en su carpeta.")
        if real is not None and not _access(real, os.R_OK | os.W_OK):
            raise RecordError(f"No se puede escribir el registro {name(path)}: no hay permiso.")
        if real is not None and probe_lock:
            Lock(real).release()  # a running class holds it: refused now, not once the class starts
    return real, meta


def open_record(path: Any, deal: str | None = None, write: bool = False, schema: str = "") -> Opened:
    """Open the record at `path`: read-only (`write` False: it must exist), or for the launcher
    (created when missing, or an empty file, with `schema` and `deal`; WAL; its lock held).
    `deal`, when given, must be the record's.  RecordError (Spanish) for every refusal."""
    path = record_path(path)
    if write and real_file(path, new_ok=True) is None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _os(exc, path, "crear") from None
    real, meta = check_record(path, deal, write, probe_lock=False)
    if not write:
        assert real is not None
        try:
            return Opened(connect(real, "ro"), real, meta, None)
        except sqlite3.Error as exc:
            raise spanish(exc, real) from None
    target = real or path
    lock = Lock(target)
    try:
        if real is None:
            try:  # O_EXCL: a file (or link) made since the check is never written through
                os.close(_open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
            except FileExistsError:
                raise RecordError(f"El registro {name(path)} ha aparecido mientras se creaba: vuelve a intentarlo.") from None
            except OSError as exc:
                raise _os(exc, path, "crear") from None
        try:
            db = connect(target, "rw")
        except sqlite3.Error as exc:
            raise spanish(exc, target) from None
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA secure_delete=ON")  # a pool emptied or a seat removed: its rows overwritten
            with db:
                db.executescript(schema)
                if meta and meta.get("format", "1") != str(FORMAT):  # an older format, upgraded in place
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (str(FORMAT),))
                if not meta:
                    import datetime

                    started = datetime.datetime.now().isoformat(timespec="seconds")
                    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                   [("magic", MAGIC), ("deal", deal or ""), ("format", str(FORMAT)), ("started", started)])  # fmt: skip
        except sqlite3.Error as exc:
            db.close()
            raise spanish(exc, target) from None
    except BaseException:
        lock.release()
        raise
    return Opened(db, target, meta or {"magic": MAGIC, "deal": deal or "", "format": str(FORMAT)}, lock)


def delete_record(path: Any) -> list[Path]:
    """Delete the record at `path` with its side files (``-wal``, ``-shm``, ``-journal``, its
    lock); through a symbolic link, the file it points to and then the link.  The paths deleted
    (the record first).  Spanish ValueError, nothing deleted, for a file that is no record, a
    record in use by a running class, or one that cannot be deleted."""
    try:
        path = record_path(path)
        real = real_file(path, new_ok=False)
        assert real is not None
        read_meta(real)
        lock = Lock(real, "borrar")
    except RecordError as exc:
        said = str(exc)
        if "no es un registro" in said or "está vacío" in said:
            said = said.rstrip(".") + ": no lo borro."
        raise ValueError(said) from None
    try:
        extras = []
        for extra in SIDE_FILES:
            side = Path(f"{real}{extra}")
            try:
                mode = _lstat(side).st_mode
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise ValueError(str(_os(exc, real, "borrar"))) from None
            if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                raise ValueError(f"No borro el registro {name(real)}: {name(side)} no es un archivo normal.")
            extras.append(side)
        gone: list[Path] = []
        for target in [real, *extras] + ([path] if path != real else []):
            try:
                os.unlink(target)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise ValueError(str(_os(exc, target, "borrar")) + (" Ya se ha borrado: " + ", ".join(map(str, gone)) if gone else "")) from None
            gone.append(target)
        return gone
    finally:
        lock.release()
