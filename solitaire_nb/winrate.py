"""Win rates: solve many numbered deals and count how many can be won, with a 95% interval.

`win_rate(name, deals, …)` hands each deal to the solver (`solitaire_nb.solve`) on any
`concurrent.futures.Executor` and returns a `WinRate`: won / lost / unknown counts, per-deal
records and an interval that brackets the unknowns as Blake & Gent do.

Definitions (n = deals solved, w = won, u = unknown):

* ``rate`` = w / n: unknowns count as lost, as Blake & Gent's headline figures do;
  ``rate_high`` = (w + u) / n counts them as won; ``rate_decided`` = w / (n - u).
* ``interval`` = (Wilson lower bound of w out of n, Wilson upper bound of w + u out of n), at
  95% (z = 1.959963984540054).  With no unknowns it is the plain Wilson interval of w / n;
  each unknown widens it on one side only.  Wilson's interval keeps its coverage near 0% and
  100% (0/10 gives [0, 27.75%], not the Wald interval's [0, 0]).

Where the work runs:

* ``executor=None``: a local `ProcessPoolExecutor` with ``workers`` processes (default
  ``os.cpu_count()``); in-process (`InProcessExecutor`) where no process pool exists
  (``sys.platform == "emscripten"``, i.e. Pyodide/JupyterLite) or creating one fails.
* any `concurrent.futures.Executor` the caller passes, e.g. a Dask cluster's
  ``distributed.Client(...).get_executor()``; the caller keeps it and shuts it down.

Each work item is the top-level function `solve_deal(name, seed, variant, time_limit,
max_states)`: picklable, and it rebuilds the game from its number in the worker, so only a
few numbers travel each way.  Under ``max_states`` alone a deal's record (apart from
``seconds``) is the same on every machine and executor; ``time_limit`` makes it depend on
the machine's speed.

Resumable studies: with ``out=`` a CSV file, every result is appended and flushed as it
comes.  Its first line is a ``#`` comment holding the study's parameters as JSON (game, full
variant with defaults, limits, package version); a rerun with the same file reads the deals
already there and solves only the others.  A file made with another game, variant or limits
is refused with a Spanish message, so two different studies are never mixed.  A row cut short
by an interruption is dropped (and that deal solved again) when the file is read back.
"""

from __future__ import annotations

import concurrent.futures as cf
import csv
import io
import json
import math
import operator
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .games import GAMES

__all__ = [
    "DealRecord",
    "atlas",
    "InProcessExecutor",
    "WinRate",
    "read_records",
    "solve_deal",
    "wilson",
    "win_rate",
]

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""

STATUSES = ("won", "lost", "unknown")
COLUMNS = ("deal", "status", "states", "seconds", "moves")
HEADER_PREFIX = "# solitaire_nb win_rate "

STATUS_ES = {"won": "tiene solución", "lost": "no tiene solución", "unknown": "sin decidir"}


# ---------------------------------------------------------------------- interval arithmetic
def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for `successes` out of `n` (as fractions); (0, 1) when n == 0."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in 0..{n}, not {successes}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # exact ends: floating point must not push 0/n above 0 or n/n below 1
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def bracketed_interval(won: int, unknown: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95% interval with the unknowns bracketed: lower end counts them lost, upper end won."""
    return wilson(won, n, z)[0], wilson(won + unknown, n, z)[1]


def _pct(x: float) -> str:
    """A fraction as a Spanish percentage: 0.253 -> '25,3 %'."""
    return f"{100 * x:.1f} %".replace(".", ",")


# ---------------------------------------------------------------------- records and result
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


@dataclass
class WinRate:
    """The result of a study: counts, rates, the bracketed 95% interval and the records."""

    name: str
    variant: dict[str, bool]
    time_limit: float | None
    max_states: int | None
    records: list[DealRecord] = field(default_factory=list)

    def _count(self, status: str) -> int:
        return sum(1 for r in self.records if r.status == status)

    @property
    def won(self) -> int:
        return self._count("won")

    @property
    def lost(self) -> int:
        return self._count("lost")

    @property
    def unknown(self) -> int:
        return self._count("unknown")

    @property
    def total(self) -> int:
        return len(self.records)

    @property
    def decided(self) -> int:
        return self.total - self.unknown

    @property
    def rate(self) -> float:
        """won / total: the unknowns counted as lost (Blake & Gent's convention)."""
        return self.won / self.total if self.total else math.nan

    @property
    def rate_high(self) -> float:
        """(won + unknown) / total: the unknowns counted as won."""
        return (self.won + self.unknown) / self.total if self.total else math.nan

    @property
    def rate_decided(self) -> float:
        """won / decided: the rate among the deals the solver decided."""
        return self.won / self.decided if self.decided else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval (fractions) with the unknowns bracketed; see the module docstring."""
        return bracketed_interval(self.won, self.unknown, self.total)

    def by_deal(self) -> dict[int, DealRecord]:
        return {r.deal: r for r in self.records}

    def summary(self) -> dict[str, Any]:
        """Plain data for JSON files (rates and interval as fractions)."""
        low, high = self.interval
        deals = [r.deal for r in self.records]
        return {
            "game": self.name,
            "variant": dict(self.variant),
            "time_limit": self.time_limit,
            "max_states": self.max_states,
            "deals": self.total,
            "first_deal": min(deals) if deals else None,
            "last_deal": max(deals) if deals else None,
            "won": self.won,
            "lost": self.lost,
            "unknown": self.unknown,
            "rate": self.rate if self.total else None,
            "rate_high": self.rate_high if self.total else None,
            "rate_decided": self.rate_decided if self.decided else None,
            "interval_low": low,
            "interval_high": high,
            "seconds": sum(r.seconds for r in self.records),
        }

    def texto(self) -> str:
        """A Spanish sentence for a reader."""
        if not self.total:
            return "Ninguna partida resuelta todavía."
        low, high = self.interval
        name = GAMES[self.name].display_name
        won = ("partida" if self.total == 1 else "partidas") + (" tiene" if self.won == 1 else " tienen")
        lost = "tiene" if self.lost == 1 else "tienen"
        unknown = "queda" if self.unknown == 1 else "quedan"
        return (
            f"{name}: {self.won} de {self.total} {won} solución ({_pct(self.rate)}), "
            f"{self.lost} no {lost} solución y {self.unknown} {unknown} sin decidir; "
            f"intervalo de confianza del 95 %: {_pct(low)} – {_pct(high)}."
        )

    def __str__(self) -> str:
        return self.texto()


# ---------------------------------------------------------------------- the work item
def solve_deal(
    name: str, seed: int, variant: dict[str, bool], time_limit: float | None, max_states: int | None
) -> tuple[int, str, int, float, int]:
    """Solve numbered deal `seed` of `name` (run in a worker: rebuilds the game itself).

    Returns a plain tuple (deal, status, states, seconds, moves) so that it pickles cheaply."""
    from .engine import new_game
    from .solver import solve  # imported here: `import solitaire_nb.winrate` stays light

    game = new_game(name, seed=seed, **variant)
    result = solve(game, time_limit=time_limit, max_states=max_states)
    return seed, result.status, int(result.states), float(result.seconds), len(result.moves)


# ---------------------------------------------------------------------- executors
class InProcessExecutor(cf.Executor):
    """Runs each submitted call at once in the calling thread (for Pyodide, tests, notebooks
    that must stay light).  Exceptions are stored in the future, as a real pool does."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        future: cf.Future = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - a pool would also store it
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            future.set_exception(exc)
        return future


def _default_executor(workers: int | None) -> cf.Executor:
    """A local process pool, or in-process where none can exist."""
    if sys.platform == "emscripten":
        return InProcessExecutor()
    try:
        return cf.ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1)
    except (ImportError, NotImplementedError, OSError, ValueError):
        return InProcessExecutor()


# ---------------------------------------------------------------------- the CSV file
def _params(name: str, variant: dict[str, bool], time_limit: float | None, max_states: int | None) -> dict:
    return {"game": name, "variant": dict(sorted(variant.items())), "time_limit": time_limit, "max_states": max_states}


def _header_line(params: dict) -> str:
    from . import __version__

    return HEADER_PREFIX + json.dumps({**params, "version": __version__}, ensure_ascii=False)


def _parse_row(row: list[str]) -> DealRecord | None:
    """A record from a CSV row, or None for a row cut short or otherwise malformed."""
    if len(row) != len(COLUMNS) or row[1] not in STATUSES:
        return None
    try:
        return DealRecord(int(row[0]), row[1], int(row[2]), float(row[3]), int(row[4]))
    except ValueError:
        return None


def read_records(path: str | os.PathLike) -> tuple[dict, list[DealRecord]]:
    """The parameters and records of a study file (first record of each deal kept; rows cut
    short by an interruption dropped)."""
    text = Path(path).read_text(encoding="utf-8")
    lines = text.split("\n")
    if not lines or not lines[0].startswith(HEADER_PREFIX):
        raise ValueError(f"El archivo {path} no es un archivo de estudio de solitaire_nb (falta la cabecera).")
    try:
        params = json.loads(lines[0][len(HEADER_PREFIX):])
    except ValueError:
        raise ValueError(f"La cabecera del archivo {path} está dañada.") from None
    body = lines[1:]
    if text and not text.endswith("\n") and body:
        body = body[:-1]  # the last row was being written when the run stopped
    seen: dict[int, DealRecord] = {}
    for row in csv.reader(body):
        if row == list(COLUMNS):
            continue
        rec = _parse_row(row)
        if rec is not None and rec.deal not in seen:
            seen[rec.deal] = rec
    return params, list(seen.values())


def _describe(params: dict) -> str:
    variant = ", ".join(f"{k}={v}" for k, v in params.get("variant", {}).items()) or "sin variantes"
    return (
        f"{params.get('game')} ({variant}; time_limit={params.get('time_limit')}, "
        f"max_states={params.get('max_states')})"
    )


def _open_study(path: Path, params: dict) -> tuple[dict[int, DealRecord], io.TextIOBase]:
    """Records already in `path` and the file opened for appending (created if missing).

    A file from a different study is refused; one left by an interrupted run is rewritten
    clean (through a temporary file, so a second interruption cannot lose its rows)."""
    done: dict[int, DealRecord] = {}
    if path.exists() and path.stat().st_size > 0:
        old, records = read_records(path)
        mine = {k: old.get(k) for k in params}
        if mine != params:
            raise ValueError(
                f"El archivo {path} es de otro estudio: {_describe(old)}; este es {_describe(params)}. "
                "Usa otro archivo o los mismos parámetros."
            )
        done = {r.deal: r for r in records}
        _write_clean(path, params, records)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_clean(path, params, [])
    return done, open(path, "a", encoding="utf-8", newline="")  # noqa: SIM115 - closed by caller


def _write_clean(path: Path, params: dict, records: list[DealRecord]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(_header_line(params) + "\n")
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in records:
            w.writerow(_row(r))
    os.replace(tmp, path)


def _row(r: DealRecord) -> list:
    return [r.deal, r.status, r.states, f"{r.seconds:.4f}", r.moves]


# ---------------------------------------------------------------------- progress display
def _in_kernel() -> bool:
    """True inside a Jupyter kernel (IPython already imported and running a kernel)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:  # noqa: BLE001 - any failure means "not in a kernel"
        return False
    return shell is not None and getattr(shell, "kernel", None) is not None


class _Progress:
    """A progress bar and label in a kernel (built by the board module); nothing elsewhere."""

    def __init__(self, enabled: bool, total: int, done: int, display_name: str):
        self.show = None
        if not (enabled and _in_kernel()):
            return
        try:
            from .board import progress_bar
        except ImportError:
            return
        self.show = progress_bar(total, display_name, done, in_kernel=True)

    def update(self, done: int, total: int, counts: dict[str, int]) -> None:
        if self.show is not None:
            self.done = done
            self.text = (
                f"{done}/{total} partidas: {counts['won']} con solución, {counts['lost']} sin solución, "
                f"{counts['unknown']} sin decidir"
            )
            self.show(done, self.text)

    def close(self, ok: bool) -> None:
        if self.show is not None and not ok:
            self.show(getattr(self, "done", 0), getattr(self, "text", ""), failed=True)


# ---------------------------------------------------------------------- the study
def win_rate(
    name: str,
    deals: Iterable[int],
    time_limit: float | None = None,
    max_states: int | None = None,
    executor: cf.Executor | None = None,
    progress: bool = True,
    out: str | os.PathLike | None = None,
    workers: int | None = None,
    **variant: bool,
) -> WinRate:
    """Solve the numbered `deals` of game `name` and count how many can be won.

    ``time_limit`` / ``max_states`` are passed to `solve` for each deal (use ``max_states``
    for results that are the same on every machine).  ``executor``: any
    `concurrent.futures.Executor` (kept open); None for a local process pool of ``workers``
    processes (default: all cores), or in-process where no pool can exist.  ``out``: a CSV file
    that receives each record as it comes and lets a rerun skip the deals already there.
    ``progress``: a progress bar when run in a Jupyter kernel.  ``variant``: the game's
    variant flags.  Records come back sorted by deal, one per distinct deal asked for."""
    if name not in GAMES:
        raise ValueError(f"No hay ningún juego llamado {name!r} (juegos: {', '.join(GAMES)})")
    flags = GAMES[name].resolve_variant(variant)
    wanted = _deal_list(deals)
    params = _params(name, flags, time_limit, max_states)
    done: dict[int, DealRecord] = {}
    fh = None
    if out is not None:
        done, fh = _open_study(Path(out), params)
    todo = [d for d in wanted if d not in done]
    records = {d: done[d] for d in wanted if d in done}
    bar = _Progress(progress, len(wanted), len(records), GAMES[name].display_name)
    counts = {s: sum(1 for r in records.values() if r.status == s) for s in STATUSES}
    own = executor is None and bool(todo)
    pool = _default_executor(workers) if own else executor
    ok = False
    try:
        for rec in _run(pool, todo, name, flags, time_limit, max_states, workers):
            records[rec.deal] = rec
            counts[rec.status] += 1
            if fh is not None:
                csv.writer(fh, lineterminator="\n").writerow(_row(rec))
                fh.flush()
            bar.update(len(records), len(wanted), counts)
        ok = True
    finally:
        if fh is not None:
            fh.close()
        if own:
            pool.shutdown(wait=ok, cancel_futures=True)
        bar.close(ok)
    return WinRate(name, flags, time_limit, max_states, [records[d] for d in sorted(records)])


def _deal_list(deals: Iterable[int]) -> list[int]:
    seen: dict[int, None] = {}
    for d in deals:
        try:
            n = operator.index(d)  # accepts NumPy integers too
        except TypeError:
            n = -1
        if isinstance(d, bool) or n < 0:
            raise ValueError(f"Los números de partida deben ser enteros no negativos, no {d!r}")
        seen.setdefault(n, None)
    return list(seen)


def _run(pool: cf.Executor, todo: list[int], name: str, flags: dict, time_limit, max_states, workers):
    """Yield records as they complete, keeping a bounded number of calls in flight (so an
    interruption leaves little queued work and memory stays flat on long studies)."""
    window = 4 * (workers or getattr(pool, "_max_workers", None) or os.cpu_count() or 1)
    it = iter(todo)
    pending: set[cf.Future] = set()
    try:
        while True:
            while len(pending) < window:
                deal = next(it, None)
                if deal is None:
                    break
                fut = pool.submit(solve_deal, name, deal, flags, time_limit, max_states)
                pending.add(fut)
                if fut.done():  # in-process: save it before solving more, lest a stop lose it
                    break
            if not pending:
                return
            finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in sorted(finished, key=_deal_of):
                yield DealRecord(*fut.result())
    finally:
        for fut in pending:
            fut.cancel()


def _deal_of(fut: cf.Future) -> int:
    return fut.result()[0] if fut.done() and fut.exception() is None else -1


# ---------------------------------------------------------------------- the committed atlas
def atlas() -> dict[str, Any]:
    """The win-rate atlas summary (``data/atlas.json``, written by ``benchmarks/atlas.py``):
    the repository's copy when the package runs from a checkout, else the copy shipped inside
    the package (``solitaire_nb/data/atlas.json``)."""
    here = Path(__file__).resolve().parent
    for path in (here.parent / "data" / "atlas.json", here / "data" / "atlas.json"):
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    raise FileNotFoundError("No se encuentra el atlas (data/atlas.json): genera uno con benchmarks/atlas.py.")
