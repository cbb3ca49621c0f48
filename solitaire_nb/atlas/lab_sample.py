"""The rules lab's «¿Cuántas se pueden ganar?» sample: the solver's verdicts on deals 1…n of a
game, stored (``data/lab_samples.json``, written by ``tools/lab_samples.py``) or solved deal by
deal and streamed as they arrive (in worker processes where they can start), stoppable between
deals; always counted in three columns (with solution, without, undecided), and deal by deal
between two games.  Free of widgets, like `lab_measures`, which re-exports these names.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import threading
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.numbers_es import percent
from ..core.rules import GameDef
from ..engine import new_game

SAMPLE = 100
"""Deals the «¿Cuántas se pueden ganar?» button solves per game (deals 1 to SAMPLE)."""
MAX_STATES = 20_000
"""The solver's budget per deal: the same verdicts on every machine."""
WORKERS_ENV = "SNB_LAB_WORKERS"
"""Environment variable with the lab's worker processes (the class launcher sets 1: thirty
kernels already share the processor)."""


def _workers() -> int:
    raw = os.environ.get(WORKERS_ENV, "")
    return int(raw) if raw.isdigit() and 1 <= int(raw) <= 16 else 2


WORKERS = _workers()
"""Processes that solve a sample the lab streams (2, one per core of a usual computer, unless
``SNB_LAB_WORKERS`` says otherwise; the verdicts do not depend on it)."""
SAMPLES_FILE = "lab_samples.json"
"""The stored sample verdicts (``solitaire_nb/data``), written by ``tools/lab_samples.py``."""


@dataclass(frozen=True)
class Sample:
    """The solver's verdicts ("won", "lost", "unknown") on deals 1…n of one game, under a fixed
    budget per deal."""

    display_name: str
    verdicts: tuple[str, ...]

    @property
    def won(self) -> int:
        return self.verdicts.count("won")

    @property
    def lost(self) -> int:
        return self.verdicts.count("lost")

    @property
    def unknown(self) -> int:
        return self.verdicts.count("unknown")

    @property
    def total(self) -> int:
        return len(self.verdicts)


_SAMPLES: dict[tuple[str, int, int], Sample] = {}
_SAMPLES_LOCK = threading.Lock()


@functools.cache
def stored_samples() -> dict[str, Any]:
    """The stored verdicts: {"deals", "max_states", "games": {game name: [verdict, …]}}; an
    empty record when the file is missing."""
    path = Path(__file__).resolve().parent.parent / "data" / SAMPLES_FILE
    if not path.is_file():
        return {"deals": 0, "max_states": 0, "games": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def stored_sample(definition: GameDef, deals: int, max_states: int) -> Sample | None:
    """The stored verdicts of `definition` on deals 1…`deals` with `max_states`, if the stored
    file holds that game with that sample and budget (nothing is solved here)."""
    data = stored_samples()
    verdicts = data["games"].get(definition.name)
    if verdicts is None or data["deals"] != deals or data["max_states"] != max_states:
        return None
    return Sample(definition.display_name, tuple(verdicts))


def cached_sample(definition: GameDef, deals: int, max_states: int) -> Sample | None:
    """The sample if it is known already: solved in this process or stored with the package."""
    with _SAMPLES_LOCK:
        have = _SAMPLES.get((definition.name, deals, max_states))
    return have if have is not None else stored_sample(definition, deals, max_states)


def solve_one(definition: GameDef, seed: int, max_states: int) -> str:
    """The solver's verdict ("won", "lost", "unknown") on deal `seed` of `definition`."""
    from ..solver import solve

    return solve(new_game(definition, seed=seed), max_states=max_states).status


def solve_sample(
    definition: GameDef,
    deals: int,
    max_states: int,
    stop: threading.Event | None = None,
    progress: Callable[[int], Any] | None = None,
) -> Sample | None:
    """Solve deals 1…`deals` of `definition` (cached per game, deals and budget); None when
    `stop` is set before the last deal (nothing is cached then)."""
    last: tuple[str, ...] = ()
    for verdicts in stream_samples((definition,), deals, max_states, stop):
        last = verdicts[0]
        if progress is not None:
            progress(len(last))
    if len(last) < deals:
        return None
    return cached_sample(definition, deals, max_states)


def _solve_named(name: str, seed: int, max_states: int) -> str:
    """`solve_one` for a game given by its (composed) name: what a worker process is sent."""
    from ..games.custom import custom_from_name

    return solve_one(custom_from_name(name), seed, max_states)


def _verdicts_here(jobs: list[tuple[GameDef, int]], max_states: int, stop: threading.Event | None) -> Iterator[str]:
    for game, seed in jobs:
        if stop is not None and stop.is_set():
            return
        yield solve_one(game, seed, max_states)


def _start_pool(jobs: list[tuple[GameDef, int]], max_states: int, workers: int) -> tuple[Any, list] | None:
    """`workers` processes with every job submitted, in order; None where none can start (no
    processes or threads here, a sandbox): then the deals are solved in this thread."""
    import concurrent.futures as cf
    import multiprocessing

    try:
        pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    except (OSError, RuntimeError, ValueError, NotImplementedError):
        return None
    try:
        return pool, [pool.submit(_solve_named, game.name, seed, max_states) for game, seed in jobs]
    except (OSError, RuntimeError):
        pool.shutdown(wait=False, cancel_futures=True)
        return None


def _verdicts_in_pool(pool: Any, futures: list, stop: threading.Event | None) -> Iterator[str]:
    """The pool's verdicts in the order submitted (the same verdicts as one process: the budget
    is a number of states); the pool is shut down when they end, stop, or the reader goes."""
    import concurrent.futures as cf

    finished = False
    try:
        for future in futures:
            while True:
                if stop is not None and stop.is_set():
                    return
                try:
                    yield future.result(timeout=0.1)
                    break
                except cf.TimeoutError:
                    continue
        finished = True
    finally:
        # all done: the workers are idle and end at once; stopped: do not wait for their deals
        pool.shutdown(wait=finished, cancel_futures=True)


def stream_samples(
    games: tuple[GameDef, ...],
    deals: int,
    max_states: int,
    stop: threading.Event | None = None,
    workers: int = 1,
) -> Generator[tuple[tuple[str, ...], ...], None, None]:
    """The samples of `games` as they are solved: after each deal, each game's verdicts so far
    (deals 1…k, in order).  The games are solved deal by deal in turn (deal 1 of each, then deal
    2…), so that the games can be compared on the deals solved so far; a game whose sample is
    known (`cached_sample`) is given whole from the start.  With ``workers`` > 1 the deals are
    solved by that many processes (where processes can start; in this thread otherwise), and
    given in the same order.  Stops quietly when `stop` is set; each sample finished is cached."""
    known = [cached_sample(g, deals, max_states) for g in games]
    verdicts: list[list[str]] = [list(k.verdicts) if k is not None else [] for k in known]
    yield tuple(tuple(v) for v in verdicts)
    order = [(i, seed) for seed in range(1, deals + 1) for i in range(len(games)) if known[i] is None]
    if not order:
        return
    jobs = [(games[i], seed) for i, seed in order]
    started = _start_pool(jobs, max_states, workers) if workers > 1 and sys.platform != "emscripten" else None
    found = _verdicts_in_pool(*started, stop) if started else _verdicts_here(jobs, max_states, stop)
    for (i, seed), verdict in zip(order, found, strict=False):  # fewer when stopped
        verdicts[i].append(verdict)
        if seed == deals:
            sample = Sample(games[i].display_name, tuple(verdicts[i]))
            with _SAMPLES_LOCK:
                _SAMPLES[(games[i].name, deals, max_states)] = sample
        yield tuple(tuple(v) for v in verdicts)


def _pct(x: float) -> str:
    return percent(x, 0)


COUNT_HEADS = ("tienen solución", "no tienen solución", "sin decidir")
"""The three columns every win count is given in (an undecided deal is never counted lost)."""


def rate_words(sample: Sample) -> str:
    """The win rate as the counts allow: «60 %» when every deal was decided, «entre el 55 % y el
    70 %» (the undecided counted lost, then won) when some were not."""
    n, won, unknown = sample.total, sample.won, sample.unknown
    if not unknown:
        return _pct(won / n)
    return f"entre el {_pct(won / n)} y el {_pct((won + unknown) / n)}"


def interval_words(sample: Sample) -> str:
    """The 95 % interval with the undecided bracketed, its ends rounded outward to whole
    percents so that rounding never narrows it: «entre el 38 % y el 79 %» for 12 of 20."""
    import math

    from .intervals import bracketed_interval

    low, high = bracketed_interval(sample.won, sample.unknown, sample.total)
    # 1e-9: a float a hair off a whole percent (0.5 * 100) is not pushed a whole point out
    down, up = math.floor(low * 100 + 1e-9), math.ceil(high * 100 - 1e-9)
    return f"entre el {percent(down / 100, 0)} y el {percent(up / 100, 0)}"


def rate_text(sample: Sample) -> str:
    """«Beleaguered Castle, partidas n.º 1 a 20: 12 tienen solución, 3 no tienen solución y 5
    quedan sin decidir; porcentaje de victorias entre el 60 % y el 85 % (intervalo de
    confianza del 95 %: entre el 38 % y el 92 %).»  Always the three counts."""
    n, won, lost, unknown = sample.total, sample.won, sample.lost, sample.unknown
    queda = "queda sin decidir" if unknown == 1 else "quedan sin decidir"
    return (
        f"{sample.display_name}, partidas n.º 1 a {n}: {won} {'tiene' if won == 1 else 'tienen'} solución, "
        f"{lost} no {'tiene' if lost == 1 else 'tienen'} solución y {unknown} {queda}; porcentaje de "
        f"victorias {rate_words(sample)} (intervalo de confianza del 95 %: {interval_words(sample)})."
    )


def counts_table(samples: list[Sample]) -> str:
    """The samples as a Markdown table: the three counts, the rate and its 95 % interval."""
    rows = [
        "| juego | " + " | ".join(COUNT_HEADS) + " | porcentaje de victorias | intervalo de confianza (95 %) |",
        "|---|---:|---:|---:|---|---|",
    ]
    for s in samples:
        rows.append(f"| {s.display_name} | {s.won} | {s.lost} | {s.unknown} | {rate_words(s)} | {interval_words(s)} |")
    return "\n".join(rows)


def paired_counts(a: Sample, b: Sample) -> dict[str, int]:
    """Deal by deal (the same numbers in both samples): both have a solution, only `a` has one
    (`b` has none), only `b`, neither, and «undecided» where either was left undecided."""
    if a.total != b.total:
        raise ValueError(f"Las dos muestras deben tener las mismas partidas, no {a.total} y {b.total}")
    pairs = list(zip(a.verdicts, b.verdicts, strict=True))
    return {
        "both": sum(x == y == "won" for x, y in pairs),
        "only_a": sum(x == "won" and y == "lost" for x, y in pairs),
        "only_b": sum(x == "lost" and y == "won" for x, y in pairs),
        "neither": sum(x == y == "lost" for x, y in pairs),
        "undecided": sum("unknown" in (x, y) for x, y in pairs),
    }


def paired_text(a: Sample, b: Sample, name_a: str, name_b: str) -> str:
    """The paired counts in one sentence; a deal undecided in either game is counted apart,
    never as lost."""
    c = paired_counts(a, b)
    return (
        f"De las mismas {a.total} partidas: "
        f"{'ninguna tiene' if c['both'] == 0 else str(c['both']) + ' tienen'} solución en los dos juegos, {c['only_a']} solo "
        f"en {name_a} (en {name_b} no la tienen), {c['only_b']} solo en {name_b} (en {name_a} no la tienen), "
        f"{c['neither']} no la tienen en ninguno y en {c['undecided']} alguno de los dos queda sin decidir."
    )
