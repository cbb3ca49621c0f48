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
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .checks import SEED_MAX, shown

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
    from . import __version__

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


_OS_REASONS = {
    errno.ENOENT: "no existe",
    errno.EACCES: "no hay permiso",
    errno.EPERM: "no hay permiso",
    errno.EISDIR: "es una carpeta",
    errno.ENOTDIR: "una parte de la ruta no es una carpeta",
    errno.ENOSPC: "no queda espacio en el disco",
    errno.EROFS: "el disco es de solo lectura",
    errno.ENAMETOOLONG: "el nombre es demasiado largo",
}


def _os_error(exc: OSError, path: Path, doing: str) -> ValueError:
    """An operating-system error as a Spanish ValueError (its own text is in English)."""
    reason = _OS_REASONS.get(exc.errno or 0, f"error del sistema nº {exc.errno}")
    return ValueError(f"No se puede {doing} el archivo {path}: {reason}.")


def read_records(path: str | os.PathLike) -> tuple[dict, list[DealRecord]]:
    """The parameters and records of a study file (first record of each deal kept; rows cut
    short by an interruption, malformed or not believable dropped, see `_parse_row`)."""
    path = _path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise _os_error(exc, path, "leer") from None
    except UnicodeDecodeError:
        raise ValueError(f"El archivo {path} no es un archivo de estudio de solitaire_nb (no es texto UTF-8).") from None
    lines = text.split("\n")
    if not lines[0].startswith(HEADER_PREFIX):
        raise ValueError(f"El archivo {path} no es un archivo de estudio de solitaire_nb (falta la cabecera).")
    try:
        params = json.loads(lines[0][len(HEADER_PREFIX):])
    except (ValueError, RecursionError):
        params = None
    if not isinstance(params, dict):
        raise ValueError(f"La cabecera del archivo {path} está dañada.")
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
    flags = variant.items() if isinstance(variant, dict) else ()
    text = ", ".join(f"{shown(k)}={shown(v)}" for k, v in flags) or "sin variantes"
    return (
        f"{shown(params.get('game'))} ({text}; time_limit={shown(params.get('time_limit'))}, "
        f"max_states={shown(params.get('max_states'))})"
    )


def _open_study(path: Path, params: dict) -> tuple[dict[int, DealRecord], io.TextIOBase]:
    """Records already in `path` and the file opened for appending (created if missing).
    The caller holds the file's lock (`_study_lock`).

    A file from a different study is refused; one left by an interrupted run is rewritten
    clean (through a temporary file, so a second interruption cannot lose its rows)."""
    done: dict[int, DealRecord] = {}
    try:
        exists = path.exists() and path.stat().st_size > 0
    except OSError as exc:
        raise _os_error(exc, path, "leer") from None
    if exists:
        old, records = read_records(path)
        mine = {k: old.get(k) for k in params}
        if mine != params:
            raise ValueError(
                f"El archivo {path} es de otro estudio: {_describe(old)}; este es {_describe(params)}. "
                "Usa otro archivo o los mismos parámetros."
            )
        done = {r.deal: r for r in records}
    try:
        if not exists:
            path.parent.mkdir(parents=True, exist_ok=True)
        _write_clean(path, params, list(done.values()))
        return done, open(path, "a", encoding="utf-8", newline="")  # noqa: SIM115 - closed by caller
    except OSError as exc:
        raise _os_error(exc, path, "escribir") from None


def _write_clean(path: Path, params: dict, records: list[DealRecord]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(_header_line(params) + "\n")
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in records:
            w.writerow(_row(r))
    os.replace(tmp, path)


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
    lock_path = path.with_name(path.name + ".lock")
    for _ in range(10):
        try:
            lock_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise _os_error(exc, lock_path, "crear") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ValueError(
                f"El archivo {path} está en uso: otro cálculo de win_rate está escribiendo en él. "
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
        raise ValueError(f"No se ha podido reservar el archivo {path}: inténtalo de nuevo.")
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
