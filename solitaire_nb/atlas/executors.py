"""Where `win_rate`'s deals are solved: the picklable work item `solve_deal`, the executors
(a local process pool, or `InProcessExecutor` where none can exist) and `run_deals`, which
keeps a bounded number of deals in flight on any `concurrent.futures.Executor`.

Each work item rebuilds its game from its name and number in the worker, so only a few numbers
travel each way; a composed game travels as its name ("beleaguered_castle+columns=10").
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from ..core.checks import check_seed, shown
from .records import DealRecord

CLOSED = "El executor ya está cerrado (shutdown) o roto: crea uno nuevo o pasa executor=None"


def solve_deal(
    name: str, seed: int, variant: dict[str, bool], time_limit: float | None, max_states: int | None
) -> tuple[int, str, int, float, int]:
    """Solve numbered deal `seed` of `name` (run in a worker: rebuilds the game itself; a
    composed game travels as its name, "beleaguered_castle+columns=10").

    Returns a plain tuple (deal, status, states, seconds, moves) so that it pickles cheaply;
    the seconds are the processor time the search got (``cpu_seconds``), so a loaded machine
    does not inflate an entry's cost (wall seconds where that clock is missing)."""
    from ..engine import game_definition, new_game
    from ..solver import solve

    if not isinstance(variant, dict):
        raise ValueError(f"La variante debe ser un diccionario de nombre -> True/False, no {shown(variant)}")
    flags = game_definition(name).resolve_variant(variant)  # "seed" or "name" as a flag: refused
    game = new_game(name, seed=check_seed(seed), deck=None, **flags)
    result = solve(game, time_limit=time_limit, max_states=max_states)
    seconds = result.cpu_seconds if result.cpu_seconds is not None else result.seconds
    return seed, result.status, int(result.states), float(seconds), len(result.moves)


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


def default_executor(workers: int | None) -> cf.Executor:
    """A local process pool of `workers` processes (default: all cores), or in-process where
    none can exist (Pyodide/JupyterLite, or creating one fails)."""
    if sys.platform == "emscripten":
        return InProcessExecutor()
    try:
        return cf.ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1)
    except (ImportError, NotImplementedError, OSError, ValueError):
        return InProcessExecutor()


def closed(executor: Any) -> bool:
    """Whether `executor` says it is shut down or broken (the standard pools' and Dask's marks)."""
    marks = [getattr(executor, f, None) for f in ("_shutdown", "_shutdown_thread", "_broken")]
    return any(m is True or (isinstance(m, str) and bool(m)) for m in marks)


def run_deals(
    pool: cf.Executor,
    todo: list[int],
    name: str,
    flags: dict[str, bool],
    time_limit: float | None,
    max_states: int | None,
    workers: int | None,
    player: str | None = None,
) -> Iterator[DealRecord]:
    """Yield records as they complete, keeping a bounded number of calls in flight (so an
    interruption leaves little queued work and memory stays flat on long studies).  With a
    `player`, the work item is `players.player.play_deal` instead of `solve_deal`."""
    if player is not None:
        from ..players.player import play_deal
    window = 4 * (workers or getattr(pool, "_max_workers", None) or os.cpu_count() or 1)
    it = iter(todo)
    pending: set[cf.Future] = set()
    deal_of: dict[cf.Future, int] = {}
    lost: dict[int, int] = {}

    def submit(deal: int) -> cf.Future:
        try:
            if player is None:
                fut = pool.submit(solve_deal, name, deal, flags, time_limit, max_states)
            else:
                fut = pool.submit(play_deal, name, deal, flags, player)
        except RuntimeError:
            if closed(pool):  # shut down meanwhile, or broken: the rows so far are kept
                raise ValueError(CLOSED) from None
            raise
        deal_of[fut] = deal
        return fut

    try:
        while True:
            while len(pending) < window:
                deal = next(it, None)
                if deal is None:
                    break
                fut = submit(deal)
                pending.add(fut)
                if fut.done():  # in-process: save it before solving more, lest a stop lose it
                    break
            if not pending:
                return
            finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in sorted(finished, key=_deal_of):
                deal = deal_of.pop(fut)
                failed = fut.cancelled() or fut.exception() is not None
                if failed and lost.get(deal, 0) < LOST_RETRIES and not closed(pool):
                    # a future the executor lost (a killed Dask worker can leave one cancelled or
                    # with a broken error): the deal is solved again; a real error repeats and is raised
                    lost[deal] = lost.get(deal, 0) + 1
                    pending.add(submit(deal))
                    continue
                yield DealRecord(*fut.result())
    finally:
        for fut in pending:
            fut.cancel()


LOST_RETRIES = 2
"""How many times a deal whose future failed is submitted again before its error is raised."""


def _deal_of(fut: cf.Future) -> int:
    return fut.result()[0] if fut.done() and not fut.cancelled() and fut.exception() is None else -1
