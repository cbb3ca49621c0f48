"""Study files of `win_rate`: one CSV file per study, one writer at a time, no row lost.

Rows are appended and flushed as each deal comes (`StudyWriter`); reading a file back
(`read_records`) drops every row that is cut short, malformed or not believable
(`records.parse_row`), so its deal is solved again; a file of another study, or one that is
not a study file, is refused in Spanish (`open_study`).  The format is in `records`, the
careful file primitives in `files`.

One writer: a run holds an operating-system lock on ``<file>.lock`` beside the file
(`study_lock`, ``fcntl.flock``) for as long as it writes; a second run on the same file, from
this process or another, is refused in Spanish; the lock goes with the process that holds it,
even when it dies, and pool workers forked meanwhile drop their copy.  Where there is no
``fcntl`` (Windows, Pyodide) there is no lock.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..core.checks import shown
from .files import NONBLOCK, check_study_file, kind_refused, os_error, read_text, replace_file, study_path, write_all
from .records import COLUMNS, HEADER_PREFIX, DealRecord, describe, header_line, parse_row, row_fields

SameGame = Callable[[dict, dict], bool]
"""``same_game(old, new)``: whether two study headers name games that play alike."""
Vet = Callable[[dict], None]
"""``vet(old)``: refuses (Spanish ValueError) a file whose header `old` is of another study."""


def read_header(path: Path) -> dict | None:
    """The parameters in a study file's first line, or None if it has none readable (a
    missing file included); refuses what `check_study_file` refuses."""
    if not check_study_file(path, follow=True):
        return None
    first = read_text(path, head=64 * 1024).split("\n", 1)[0]
    try:
        old = json.loads(first[len(HEADER_PREFIX):]) if first.startswith(HEADER_PREFIX) else None
    except (ValueError, RecursionError):
        old = None
    return old if isinstance(old, dict) else None


def read_records(path: str | os.PathLike) -> tuple[dict, list[DealRecord]]:
    """The parameters and records of a study file (first record of each deal kept; rows cut
    short by an interruption, malformed or not believable dropped, see `parse_row`).  What is
    not a regular file, or is larger than `files.MAX_STUDY_BYTES`, is refused unopened."""
    path = study_path(path)
    text = read_text(path)
    lines = text.split("\n")
    shown_path = shown(path, path=True)
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
        rec = parse_row(line, cap)
        if rec is not None and rec.deal not in seen:
            seen[rec.deal] = rec
    return params, list(seen.values())


def open_study(
    path: Path, params: dict, *, same_game: SameGame | None = None, vet: Vet | None = None
) -> tuple[dict[int, DealRecord], StudyWriter]:
    """Records already in `path` and a writer appending to it (the file is created if
    missing).  The caller holds the file's lock (`study_lock`).

    The file's header is read once: ``vet(old)`` may refuse it first in its own words; then a
    file from a different study is refused; ``same_game(old, new)`` may say that two headers
    that differ only in how they name the game name games that play alike (the file then keeps
    its own header).  A file left by an interrupted run is rewritten clean (through a
    temporary file, so a second interruption cannot lose its rows)."""
    done: dict[int, DealRecord] = {}
    header = params
    exists = check_study_file(path) and os.path.getsize(path) > 0
    if exists:
        old, records = read_records(path)
        if vet is not None:
            vet(old)
        mine = {k: old.get(k) for k in params}
        if mine != params and same_game is not None and same_game(old, params):
            header = {k: v for k, v in old.items() if k != "version"}
        elif mine != params:
            raise ValueError(
                f"El archivo {shown(path, path=True)} es de otro estudio: {describe(old)}; "
                f"este es {describe(params)}. Usa otro archivo o los mismos parámetros."
            )
        done = {r.deal: r for r in records}
    try:
        if not exists:
            path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise os_error(exc, path, "escribir") from None
    write_clean(path, header, list(done.values()))
    return done, StudyWriter(path)


class StudyWriter:
    """Appends rows to a study file, each whole row in one write (a row cut short by a crash
    or a full disk is dropped on reading, and its deal is solved again)."""

    def __init__(self, path: Path):
        self.path = path
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            self.fd: int | None = os.open(path, flags)
        except OSError as exc:
            raise os_error(exc, path, "escribir") from None

    def append(self, record: DealRecord) -> None:
        assert self.fd is not None
        write_all(self.fd, (",".join(map(str, row_fields(record))) + "\n").encode("ascii"), self.path)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def write_clean(path: Path, params: dict, records: Iterable[DealRecord]) -> None:
    """Write a whole study file: the header with `params`, then `records` (through a
    temporary file, `files.replace_file`)."""
    out = io.StringIO()
    out.write(header_line(params) + "\n")
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in records:
        w.writerow(row_fields(r))
    replace_file(path, out.getvalue())


def update_study(
    path: str | os.PathLike, change: Callable[[dict, list[DealRecord]], Iterable[DealRecord]]
) -> tuple[dict, list[DealRecord]]:
    """Read a study file, let ``change(params, records)`` return its new records, and write
    them back, all under the file's lock (a run writing it meanwhile is refused, not lost)."""
    path = study_path(path)
    with study_lock(path):
        params, records = read_records(path)
        new = list(change(params, records))
        params.pop("version", None)
        write_clean(path, params, new)
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
def study_lock(path: Path) -> Iterator[None]:
    """Hold the study file's lock for the duration (refused in Spanish if another run holds
    it).  Without `fcntl` (Windows, Pyodide) there is no lock."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    check_study_file(path)  # before the lock file is made: nothing written for a refused path
    lock_path = path.with_name(path.name + ".lock")
    flags = os.O_RDWR | os.O_CREAT | NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(10):
        try:
            lock_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock_path, flags, 0o644)
        except OSError as exc:
            raise os_error(exc, lock_path, "crear") from None
        if kind_refused(os.fstat(fd).st_mode):
            os.close(fd)
            raise ValueError(f"El archivo de bloqueo {shown(lock_path, path=True)} no es un archivo normal: bórralo.")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ValueError(
                f"El archivo {shown(path, path=True)} está en uso: otro cálculo de win_rate está escribiendo en él. "
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
        raise ValueError(f"No se ha podido reservar el archivo {shown(path, path=True)}: inténtalo de nuevo.")
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
