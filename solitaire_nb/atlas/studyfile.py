"""Study files of `win_rate`: one CSV file per study, one writer at a time, no row lost.

The first line is a ``#`` comment holding the study's parameters as JSON (game, full variant
with defaults, limits, package version); then a header row and one row per solved deal
(`DealRecord`), appended and flushed as each comes.  Reading a file back (`read_records`) drops
every row that is cut short, malformed or not believable (`_parse_row`), so its deal is solved
again; a file of another study, or one that is not a study file, is refused in Spanish.

One writer: a run holds an operating-system lock on ``<file>.lock`` beside the file
(`_study_lock`, ``fcntl.flock``) for as long as it writes; a second run on the same file, from
this process or another, is refused in Spanish; the lock goes with the process that holds it,
even when it dies, and pool workers forked meanwhile drop their copy.  Where there is no
``fcntl`` (Windows, Pyodide) there is no lock.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import math
import os
import re
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.checks import SEED_MAX, shown

STATUSES = ("won", "lost", "unknown")
COLUMNS = ("deal", "status", "states", "seconds", "moves")
HEADER_PREFIX = "# solitaire_nb win_rate "


@dataclass(frozen=True)
class DealRecord:
    """One solved deal: its number, the solver's status, states expanded, seconds, and the
    length of the winning line (0 unless won)."""

    deal: int
    status: str
    states: int
    seconds: float
    moves: int

    def same_verdict(self) -> tuple[int, str, int, int]:
        """Everything but the time: equal on every machine under ``max_states``."""
        return self.deal, self.status, self.states, self.moves


def _params(
    name: str,
    variant: dict[str, bool],
    time_limit: float | None,
    max_states: int | None,
    spec: dict | None = None,
) -> dict:
    """A study's header fields; a composed game's `spec` too (built-in games' headers are
    unchanged, so their older files still resume)."""
    params = {"game": name, "variant": dict(sorted(variant.items())), "time_limit": time_limit, "max_states": max_states}
    if spec is not None and spec["changes"]:
        params["spec"] = spec
    return params


def _header_line(params: dict) -> str:
    from .. import __version__

    return HEADER_PREFIX + json.dumps({**params, "version": __version__}, ensure_ascii=False)


_DIGITS = re.compile(r"[0-9]{1,20}")


def _parse_row(line: str, max_states: int | None = None) -> DealRecord | None:
    """A record from a line of the file, or None for a line cut short, malformed or not
    believable, whose deal is then solved again: negative or non-finite numbers, a deal
    number out of range, more states than the study's cap, a lost or unknown verdict with
    moves or a won one without, a lost one without a state examined."""
    row = line.rstrip("\r").split(",")  # the file's rows never quote: numbers and statuses
    if len(row) != len(COLUMNS) or row[1] not in STATUSES:
        return None
    deal_text, status, states_text, seconds_text, moves_text = row
    if not all(_DIGITS.fullmatch(x) for x in (deal_text, states_text, moves_text)):
        return None
    try:
        seconds = float(seconds_text)
    except ValueError:
        return None
    deal, states, moves = int(deal_text), int(states_text), int(moves_text)
    if deal > SEED_MAX or not math.isfinite(seconds) or seconds < 0:
        return None
    if max_states is not None and states > max_states:
        return None
    if (status == "won") != (moves > 0) or (status == "lost" and states < 1):
        return None
    return DealRecord(deal, status, states, seconds, moves)


def _path(path: Any, what: str = "El archivo de estudio") -> Path:
    if isinstance(path, str) and path.strip():
        return Path(path)
    if isinstance(path, os.PathLike) and not isinstance(path, str):
        try:
            return Path(path)
        except TypeError:
            pass
    raise ValueError(f"{what} debe ser una ruta (texto o Path), no {shown(path)}")


MAX_STUDY_BYTES = 256 * 2**20
"""The largest study file read or resumed (about six million rows; a longer study is split
over several files)."""

_OS_REASONS = {
    errno.ENOENT: "no existe",
    errno.EACCES: "no hay permiso",
    errno.EPERM: "no hay permiso",
    errno.EISDIR: "es una carpeta",
    errno.ENOTDIR: "una parte de la ruta no es una carpeta",
    errno.ENOSPC: "no queda espacio en el disco",
    errno.EDQUOT: "no queda espacio en el disco",
    errno.EROFS: "el disco es de solo lectura",
    errno.ENAMETOOLONG: "el nombre es demasiado largo",
    errno.ELOOP: "es un enlace simbólico",
}
_FULL_DISK = (errno.ENOSPC, errno.EDQUOT)


def _os_error(exc: OSError, path: Path, doing: str) -> ValueError:
    """An operating-system error as a Spanish ValueError (its own text is in English); a full
    disk says what to do."""
    reason = _OS_REASONS.get(exc.errno or 0, f"error del sistema nº {exc.errno}")
    text = f"No se puede {doing} el archivo {shown(str(path), raw=True)}: {reason}."
    if exc.errno in _FULL_DISK:
        text += (
            " Las filas ya guardadas siguen en el archivo: libera espacio y vuelve a lanzar el mismo "
            "cálculo con el mismo archivo, que seguirá donde se quedó."
        )
    return ValueError(text)


_lstat = os.lstat  # module-level so a test can present a device without touching one
_os_write = os.write  # and inject a full disk
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in after the check cannot block (not on Windows)


def _kind_refused(mode: int) -> str | None:
    """Why a file of this mode cannot be a study file, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "es un enlace simbólico: usa la ruta del archivo de verdad"
    if stat.S_ISDIR(mode):
        return "es una carpeta"
    if stat.S_ISFIFO(mode):
        return "es una tubería (FIFO), no un archivo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "es un dispositivo, no un archivo"
    return "no es un archivo normal"


def check_study_file(path: Path, follow: bool = False) -> bool:
    """Whether `path` exists, after refusing in Spanish (before any byte is read or written)
    anything but a regular file with one name and at most `MAX_STUDY_BYTES`.  `follow`
    (reading only) lets a symbolic link to such a file through."""
    try:
        st = _lstat(path)
        if follow and stat.S_ISLNK(st.st_mode):
            st = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _os_error(exc, path, "leer") from None
    why = _kind_refused(st.st_mode)
    if why is None and st.st_nlink > 1 and not follow:  # two names, two lock files: refused
        why = ("tiene más de un nombre (enlaces duros): dos cálculos podrían escribirlo a la vez "
               "con nombres distintos; cópialo a un archivo propio")
    if why is None and st.st_size > MAX_STUDY_BYTES:
        why = f"es demasiado grande para un estudio (más de {MAX_STUDY_BYTES // 2**20} MB)"
    if why is not None:
        raise ValueError(f"El archivo de estudio {shown(str(path), raw=True)} {why}.")
    return True


def _read_text(path: Path, head: int | None = None) -> str:
    """The text of a study file, checked before it is opened (no FIFO blocks, no device
    streams) and read to at most `MAX_STUDY_BYTES` (only its first `head` bytes if given)."""
    if not check_study_file(path, follow=True):
        raise _os_error(FileNotFoundError(errno.ENOENT, "missing"), path, "leer")
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _os_error(exc, path, "leer") from None
    try:
        if _kind_refused(os.fstat(fd).st_mode):  # swapped since the check: refuse, unread
            raise ValueError(f"El archivo de estudio {shown(str(path), raw=True)} no es un archivo normal.")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_STUDY_BYTES + 1 if head is None else head)
    except OSError as exc:
        raise _os_error(exc, path, "leer") from None
    finally:
        os.close(fd)
    if head is not None:
        return data.decode("utf-8", errors="replace")
    if len(data) > MAX_STUDY_BYTES:
        raise ValueError(f"El archivo de estudio {shown(str(path), raw=True)} es demasiado grande para un estudio.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(
            f"El archivo {shown(str(path), raw=True)} no es un archivo de estudio de solitaire_nb (no es texto UTF-8)."
        ) from None


def read_header(path: Path) -> dict | None:
    """The parameters in a study file's first line, or None if it has none readable (a
    missing file included); refuses what `check_study_file` refuses."""
    if not check_study_file(path, follow=True):
        return None
    first = _read_text(path, head=64 * 1024).split("\n", 1)[0]
    try:
        old = json.loads(first[len(HEADER_PREFIX):]) if first.startswith(HEADER_PREFIX) else None
    except (ValueError, RecursionError):
        old = None
    return old if isinstance(old, dict) else None


def read_records(path: str | os.PathLike) -> tuple[dict, list[DealRecord]]:
    """The parameters and records of a study file (first record of each deal kept; rows cut
    short by an interruption, malformed or not believable dropped, see `_parse_row`).  What is
    not a regular file, or is larger than `MAX_STUDY_BYTES`, is refused unopened."""
    path = _path(path)
    text = _read_text(path)
    lines = text.split("\n")
    shown_path = shown(str(path), raw=True)
    if not lines[0].startswith(HEADER_PREFIX):
        raise ValueError(f"El archivo {shown_path} no es un archivo de estudio de solitaire_nb (falta la cabecera).")
    try:
        params = json.loads(lines[0][len(HEADER_PREFIX):])
    except (ValueError, RecursionError):
        params = None
    if not isinstance(params, dict):
        raise ValueError(f"La cabecera del archivo {shown_path} está dañada.")
    cap = params.get("max_states")
    cap = cap if isinstance(cap, int) and not isinstance(cap, bool) else None
    body = lines[1:]
    if text and not text.endswith("\n") and body:
        body = body[:-1]  # the last row was being written when the run stopped
    seen: dict[int, DealRecord] = {}
    for line in body:
        rec = _parse_row(line, cap)
        if rec is not None and rec.deal not in seen:
            seen[rec.deal] = rec
    return params, list(seen.values())


def _describe(params: dict) -> str:
    variant = params.get("variant")
    flags = list(variant.items())[:9] if isinstance(variant, dict) else []
    text = ", ".join(f"{shown(k)}={shown(v)}" for k, v in flags[:8]) or "sin variantes"
    if len(flags) > 8:  # a header written by hand: the message stays short
        text += ", …"
    return (
        f"{shown(params.get('game'))} ({text}; time_limit={shown(params.get('time_limit'))}, "
        f"max_states={shown(params.get('max_states'))})"
    )


def _open_study(path: Path, params: dict, same_game=None) -> tuple[dict[int, DealRecord], StudyWriter]:
    """Records already in `path` and a writer appending to it (the file is created if
    missing).  The caller holds the file's lock (`_study_lock`).

    A file from a different study is refused; ``same_game(old, new)`` may say that two
    headers that differ only in how they name the game name games that play alike (the file
    then keeps its own header).  A file left by an interrupted run is rewritten clean
    (through a temporary file, so a second interruption cannot lose its rows)."""
    done: dict[int, DealRecord] = {}
    header = params
    exists = check_study_file(path) and os.path.getsize(path) > 0
    if exists:
        old, records = read_records(path)
        mine = {k: old.get(k) for k in params}
        if mine != params and same_game is not None and same_game(old, params):
            header = {k: v for k, v in old.items() if k != "version"}
        elif mine != params:
            raise ValueError(
                f"El archivo {shown(str(path), raw=True)} es de otro estudio: {_describe(old)}; "
                f"este es {_describe(params)}. Usa otro archivo o los mismos parámetros."
            )
        done = {r.deal: r for r in records}
    try:
        if not exists:
            path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _os_error(exc, path, "escribir") from None
    _write_clean(path, header, list(done.values()))
    return done, StudyWriter(path)


def _write_all(fd: int, data: bytes, path: Path) -> None:
    """Write every byte of `data` to `fd` (the one place study and atlas bytes reach the disk);
    an operating-system error, a full disk included, as a Spanish ValueError."""
    view = memoryview(data)
    try:
        while view:
            view = view[_os_write(fd, view):]
    except OSError as exc:
        raise _os_error(exc, path, "escribir") from None


class StudyWriter:
    """Appends rows to a study file, each whole row in one write (a row cut short by a crash
    or a full disk is dropped on reading, and its deal is solved again)."""

    def __init__(self, path: Path):
        self.path = path
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            self.fd: int | None = os.open(path, flags)
        except OSError as exc:
            raise _os_error(exc, path, "escribir") from None

    def append(self, record: DealRecord) -> None:
        assert self.fd is not None
        _write_all(self.fd, (",".join(map(str, _row(record))) + "\n").encode("ascii"), self.path)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def replace_file(path: Path, text: str) -> None:
    """Write `text` as the whole of `path` through a temporary file beside it, so a crash or a
    full disk leaves the old file whole.  `path` must be a regular file with one name, or
    missing (`check_study_file`)."""
    check_study_file(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        if os.path.lexists(tmp):
            os.unlink(tmp)  # a link or leftover is removed, never written through
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        raise _os_error(exc, path, "escribir") from None
    try:
        _write_all(fd, text.encode("utf-8"), path)
    except BaseException:
        os.close(fd)
        _quiet_unlink(tmp)
        raise
    os.close(fd)
    try:
        os.replace(tmp, path)
    except OSError as exc:
        _quiet_unlink(tmp)
        raise _os_error(exc, path, "escribir") from None


def _quiet_unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _write_clean(path: Path, params: dict, records: list[DealRecord]) -> None:
    out = io.StringIO()
    out.write(_header_line(params) + "\n")
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in records:
        w.writerow(_row(r))
    replace_file(path, out.getvalue())


def update_study(path: Path, change) -> tuple[dict, list[DealRecord]]:
    """Read a study file, let ``change(params, records)`` return its new records, and write
    them back, all under the file's lock (a run writing it meanwhile is refused, not lost)."""
    path = _path(path)
    with _study_lock(path):
        params, records = read_records(path)
        new = list(change(params, records))
        params.pop("version", None)
        _write_clean(path, params, new)
    return params, new


# One writer per study file: an OS lock on "<file>.lock" beside it, held by the process that
# runs `win_rate` (released by the OS if it dies).  Worker processes forked while it is held
# close their copy at once, so the lock never outlives the run's own process.
_HELD_LOCKS: set[int] = set()


def _close_held_locks() -> None:
    for fd in list(_HELD_LOCKS):
        try:
            os.close(fd)  # the parent's descriptor keeps the lock
        except OSError:
            pass
    _HELD_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_held_locks)


@contextmanager
def _study_lock(path: Path):
    """Hold the study file's lock for the duration (refused in Spanish if another run holds
    it).  Without `fcntl` (Windows, Pyodide) there is no lock."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    check_study_file(path)  # before the lock file is made: nothing written for a refused path
    lock_path = path.with_name(path.name + ".lock")
    flags = os.O_RDWR | os.O_CREAT | _NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(10):
        try:
            lock_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock_path, flags, 0o644)
        except OSError as exc:
            raise _os_error(exc, lock_path, "crear") from None
        if _kind_refused(os.fstat(fd).st_mode):
            os.close(fd)
            raise ValueError(f"El archivo de bloqueo {shown(str(lock_path), raw=True)} no es un archivo normal: bórralo.")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ValueError(
                f"El archivo {shown(str(path), raw=True)} está en uso: otro cálculo de win_rate está escribiendo en él. "
                "Espera a que termine o usa otro archivo."
            ) from None
        try:  # the lock file may have been removed (and made again) by the run before
            same = os.stat(lock_path).st_ino == os.fstat(fd).st_ino
        except OSError:
            same = False
        if same:
            break
        os.close(fd)
    else:  # pragma: no cover - ten runs starting and ending in between
        raise ValueError(f"No se ha podido reservar el archivo {shown(str(path), raw=True)}: inténtalo de nuevo.")
    _HELD_LOCKS.add(fd)
    try:
        yield
    finally:
        _HELD_LOCKS.discard(fd)
        try:
            os.unlink(lock_path)  # while still held: the next run makes a fresh one
        except OSError:
            pass
        os.close(fd)


def _row(r: DealRecord) -> list:
    return [r.deal, r.status, r.states, f"{r.seconds:.4f}", r.moves]
