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

A player instead of the solver: with ``player="heuristic"`` (a name in
`solitaire_nb.players.player.PLAYERS`) each deal is played out by that player, who sees only what a
person sees (`solitaire_nb.players.player`); "won" then means the player won it and "lost" that it
did not (there are no unknowns), the work item is `solitaire_nb.players.player.play_deal`, and a
record's ``states`` column counts the moves it made.

Resumable studies: with ``out=`` a CSV file, every result is appended and flushed as it
comes, and a rerun with the same file solves only the deals not there yet (`studyfile`: its
format, the rows it trusts, and its one-writer lock).  A file made with another game, variant
or limits is refused with a Spanish message, so two different studies are never mixed.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import operator
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.checks import SEED_MAX, check_int, check_number, check_seconds, check_seed, check_states, shown
from ..core.numbers_es import percent, thousands
from ..core.rules import GameDef
from ..games import GAMES
from .params import _check_same_player, _player_params, _same_game
from .progress import kernel_bar
from .studyfile import (  # noqa: F401 - re-exported: the study file's names as they always were
    COLUMNS,
    HEADER_PREFIX,
    STATUSES,
    DealRecord,
    _open_study,
    _params,
    _path,
    _row,
    _study_lock,
    _write_clean,
    read_records,
)

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


MAX_DEALS = 1_000_000
"""Most distinct deals one `win_rate` call takes (split a longer study over several calls
on the same ``out`` file)."""
MAX_WORKERS = 256
"""Most processes `win_rate` starts for its own pool."""

STATUS_ES = {"won": "tiene solución", "lost": "no tiene solución", "unknown": "sin decidir"}
PLAYER_STATUS_ES = {"won": "ganada", "lost": "perdida", "unknown": "sin decidir"}


# ---------------------------------------------------------------------- interval arithmetic
def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for `successes` out of `n` (as fractions); (0, 1) when n == 0
    (then `successes` must be 0 too)."""
    n = check_int(n, "El número de partidas (n)", 0, 10**15)
    successes = check_int(successes, "El número de éxitos", 0, 10**15)
    z = check_number(z, "z")
    if successes > n:
        raise ValueError(f"El número de éxitos debe estar entre 0 y {n}, no {successes}")
    if n == 0:
        return 0.0, 1.0
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
    return percent(x, 1)


# ---------------------------------------------------------------------- records and result
@dataclass
class WinRate:
    """The result of a study: counts, rates, the bracketed 95% interval and the records."""

    name: str
    variant: dict[str, bool]
    time_limit: float | None
    max_states: int | None
    records: list[DealRecord] = field(default_factory=list)
    player: str | None = None
    """The player who played the deals (a name in `solitaire_nb.players.player.PLAYERS`), or None
    for the solver."""

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
            "player": self.player,
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
        name = _game(self.name).display_name
        if self.player is not None:
            from ..players.player import PLAYERS

            who = PLAYERS[self.player].display_name if self.player in PLAYERS else self.player
            return (
                f"{name}: el jugador «{who}», que no ve las cartas boca abajo, gana {self.won} de "
                f"{self.total} {'partida' if self.total == 1 else 'partidas'} ({_pct(self.rate)}); "
                f"intervalo de confianza del 95 %: {_pct(low)} – {_pct(high)}."
            )
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
    """Solve numbered deal `seed` of `name` (run in a worker: rebuilds the game itself; a
    composed game travels as its name, "beleaguered_castle+columns=10").

    Returns a plain tuple (deal, status, states, seconds, moves) so that it pickles cheaply."""
    from ..engine import game_definition, new_game
    from ..solver import solve

    if not isinstance(variant, dict):
        raise ValueError(f"La variante debe ser un diccionario de nombre -> True/False, no {shown(variant)}")
    flags = game_definition(name).resolve_variant(variant)  # "seed" or "name" as a flag: refused
    game = new_game(name, seed=check_seed(seed), **flags)
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


# ---------------------------------------------------------------------- progress display
ProgressFn = Callable[[int, int, str], Any]
"""``progress(done, total, text)``: called after each deal, `text` a Spanish summary."""


class _Progress:
    """Reports a study's progress: to the caller's function, to the default bar in a kernel
    (`progress.kernel_bar`), or nowhere."""

    def __init__(self, progress: bool | ProgressFn, total: int, done: int, display_name: str, player: bool = False):
        self.own = progress if callable(progress) else None
        self.show = kernel_bar(total, display_name, done) if progress is True else None
        self.done, self.text = done, ""
        self.player = player

    def update(self, done: int, total: int, counts: dict[str, int]) -> None:
        self.done = done
        if self.player:
            self.text = f"{done}/{total} partidas: {counts['won']} ganadas, {counts['lost']} perdidas"
        else:
            self.text = (
                f"{done}/{total} partidas: {counts['won']} con solución, {counts['lost']} sin solución, "
                f"{counts['unknown']} sin decidir"
            )
        if self.own is not None:
            self.own(done, total, self.text)
        if self.show is not None:
            self.show(done, self.text)

    def close(self, ok: bool) -> None:
        if self.show is not None and not ok:
            self.show(self.done, self.text, failed=True)


# ---------------------------------------------------------------------- the study
def win_rate(
    name: str | GameDef,
    deals: Iterable[int],
    time_limit: float | None = None,
    max_states: int | None = None,
    executor: cf.Executor | None = None,
    progress: bool | ProgressFn = True,
    out: str | os.PathLike | None = None,
    workers: int | None = None,
    player: str | None = None,
    **variant: bool,
) -> WinRate:
    """Solve the numbered `deals` of game `name` (a game's name, a composed name or a
    `GameDef`, e.g. ``custom("beleaguered_castle", columns=10)``) and count how many can be won.

    ``time_limit`` / ``max_states`` are passed to `solve` for each deal (use ``max_states``
    for results that are the same on every machine).  ``executor``: any
    `concurrent.futures.Executor` (kept open); None for a local process pool of ``workers``
    processes (default: all cores), or in-process where no pool can exist.  ``out``: a CSV file
    that receives each record as it comes and lets a rerun skip the deals already there.
    ``progress``: True for a progress bar when run in a Jupyter kernel (silent elsewhere),
    False, or a function called as ``progress(done, total, text)`` after each deal.  ``variant``: the game's
    variant flags.  Records come back sorted by deal, one per distinct deal asked for.
    ``player``: a player's name (`solitaire_nb.players.player.PLAYERS`, e.g. "heuristic") to have
    that player play each deal instead of the solver (then no ``time_limit`` or
    ``max_states``); see the module docstring.

    Every argument is checked before any work (Spanish ValueError, docs/entradas.md); a
    study file has one writer at a time: a second run on a file in use is refused."""
    definition = _game(name)
    name = definition.name  # what travels to the workers and names the study file's game
    flags = definition.resolve_variant(variant)
    time_limit = check_seconds(time_limit, "time_limit")
    max_states = check_states(max_states, "max_states")
    if executor is not None:
        _check_executor(executor)
    if workers is not None:
        workers = check_int(workers, "workers (procesos)", 1, MAX_WORKERS)
    if not (isinstance(progress, bool) or callable(progress)):
        raise ValueError(f"progress debe ser True, False o una función, no {shown(progress)}")
    if player is not None:
        from ..players.player import check_player

        player = check_player(player)
        if time_limit is not None or max_states is not None:
            raise ValueError("Un jugador no usa time_limit ni max_states: juega cada partida hasta el final")
    path = None if out is None else _path(out)
    wanted = _deal_list(deals)
    if path is None:
        return _study(name, flags, wanted, time_limit, max_states, executor, progress, None, workers, player)
    with _study_lock(path):
        return _study(name, flags, wanted, time_limit, max_states, executor, progress, path, workers, player)


def _check_executor(executor: Any) -> None:
    """An open `concurrent.futures.Executor`, else a Spanish ValueError before any file is
    touched.  The standard pools and Dask's mark a shut-down or broken executor in these
    fields; any other refusal of a call is turned into Spanish as it happens (`_run`)."""
    if not isinstance(executor, cf.Executor):
        raise ValueError(f"executor debe ser un concurrent.futures.Executor o None, no {shown(executor)}")
    if _closed(executor):
        raise ValueError(_CLOSED)


def _closed(executor: Any) -> bool:
    marks = [getattr(executor, f, None) for f in ("_shutdown", "_shutdown_thread", "_broken")]
    return any(m is True or (isinstance(m, str) and bool(m)) for m in marks)


_CLOSED = "El executor ya está cerrado (shutdown) o roto: crea uno nuevo o pasa executor=None"


def _study(name, flags, wanted, time_limit, max_states, executor, progress, path, workers, player=None) -> WinRate:
    """`win_rate` once its arguments are checked (and, with a file, its lock held)."""
    definition = _game(name)
    params = {**_params(name, flags, time_limit, max_states, definition.spec), **_player_params(player)}
    done: dict[int, DealRecord] = {}
    fh = None
    if path is not None:
        _check_same_player(path, player)
        done, fh = _open_study(path, params, _same_game)
    todo = [d for d in wanted if d not in done]
    records = {d: done[d] for d in wanted if d in done}
    bar = _Progress(progress, len(wanted), len(records), definition.display_name, player is not None)
    counts = {s: sum(1 for r in records.values() if r.status == s) for s in STATUSES}
    own = executor is None and bool(todo)
    pool = _default_executor(workers) if own else executor
    ok = False
    try:
        for rec in _run(pool, todo, name, flags, time_limit, max_states, workers, player):
            records[rec.deal] = rec
            counts[rec.status] += 1
            if fh is not None:
                fh.append(rec)
            bar.update(len(records), len(wanted), counts)
        ok = True
    finally:
        if fh is not None:
            fh.close()
        if own:
            pool.shutdown(wait=ok, cancel_futures=True)
        bar.close(ok)
    return WinRate(name, flags, time_limit, max_states, [records[d] for d in sorted(records)], player)


def _game(name: Any) -> GameDef:
    """The game `name` stands for: a registered name, a composed name or a `GameDef` that one
    of them rebuilds (workers get the name only); a Spanish ValueError otherwise."""
    from ..engine import game_definition
    from ..games.custom import from_spec

    if isinstance(name, GameDef):
        if name.spec is not None:  # a composed game: its name rebuilds it (custom(x) plays as x)
            try:
                same = from_spec(name.spec).name == name.name
            except ValueError:
                same = False
        else:
            same = GAMES.get(name.name) is name
        if not same:
            raise ValueError(
                f"win_rate solo estudia juegos que se pueden rehacer por su nombre (los de GAMES o los "
                f"de custom), y {shown(name.name)} no es uno de ellos"
            )
        return name
    if isinstance(name, str) and "+" in name:
        return game_definition(name)
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"No hay ningún juego llamado {shown(name)} (juegos: {', '.join(GAMES)})")
    return GAMES[name]


def _deal_list(deals: Iterable[int]) -> list[int]:
    """The distinct deal numbers of `deals`, read to at most `MAX_DEALS` items (so an endless
    iterator is refused, not followed)."""
    if isinstance(deals, str | bytes) or not isinstance(deals, Iterable):
        raise ValueError(f"deals debe ser una lista o un rango de números de partida, no {shown(deals)}")
    seen: dict[int, None] = {}
    for k, d in enumerate(deals):
        if k >= MAX_DEALS:
            raise ValueError(
                f"Demasiadas partidas para un estudio: como mucho {thousands(MAX_DEALS)} números por "
                "llamada (¿es un iterador sin fin?)"
            )
        try:
            n = operator.index(d)  # accepts NumPy integers too
        except TypeError:
            n = -1
        if isinstance(d, bool) or not 0 <= n <= SEED_MAX:
            raise ValueError(
                f"Los números de partida deben ser enteros no negativos, hasta 2⁶⁴ − 1; no {shown(d)}"
            )
        seen.setdefault(n, None)
    return list(seen)


def _run(pool: cf.Executor, todo: list[int], name: str, flags: dict, time_limit, max_states, workers, player=None):
    """Yield records as they complete, keeping a bounded number of calls in flight (so an
    interruption leaves little queued work and memory stays flat on long studies)."""
    if player is not None:
        from ..players.player import play_deal
    window = 4 * (workers or getattr(pool, "_max_workers", None) or os.cpu_count() or 1)
    it = iter(todo)
    pending: set[cf.Future] = set()
    try:
        while True:
            while len(pending) < window:
                deal = next(it, None)
                if deal is None:
                    break
                try:
                    if player is None:
                        fut = pool.submit(solve_deal, name, deal, flags, time_limit, max_states)
                    else:
                        fut = pool.submit(play_deal, name, deal, flags, player)
                except RuntimeError:
                    if _closed(pool):  # shut down meanwhile, or broken: the rows so far are kept
                        raise ValueError(_CLOSED) from None
                    raise
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
    package = Path(__file__).resolve().parents[1]
    for path in (package.parent / "data" / "atlas.json", package / "data" / "atlas.json"):
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    raise FileNotFoundError("No se encuentra el atlas (data/atlas.json): genera uno con benchmarks/atlas.py.")
