"""The arguments of `win_rate`, checked before any work: the game, the deal numbers, the
executor, the number of processes and the progress callback (Spanish ValueErrors naming the
value, docs/entradas.md)."""

from __future__ import annotations

import concurrent.futures as cf
import operator
from collections.abc import Callable, Iterable
from typing import Any

from ..core import checks
from ..core.checks import SEED_MAX, check_int, shown
from ..core.numbers_es import thousands
from ..core.rules import GameDef
from ..games import GAMES
from .executors import CLOSED, closed

MAX_DEALS = 1_000_000
"""Most distinct deals one `win_rate` call takes (split a longer study over several calls
on the same ``out`` file)."""
MAX_WORKERS = 256
"""Most processes `win_rate` starts for its own pool."""

ProgressFn = Callable[[int, int, str], Any]
"""``progress(done, total, text)``: called after each deal, `text` a Spanish summary."""

def study_game(name: Any) -> GameDef:
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


def deal_list(deals: Iterable[int]) -> list[int]:
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


def check_executor(executor: Any) -> cf.Executor:
    """An open `concurrent.futures.Executor`, else a Spanish ValueError before any file is
    touched.  The standard pools and Dask's mark a shut-down or broken executor in these
    fields; any other refusal of a call is turned into Spanish as it happens
    (`executors.run_deals`)."""
    if not isinstance(executor, cf.Executor):
        raise ValueError(f"executor debe ser un concurrent.futures.Executor o None, no {shown(executor)}")
    if closed(executor):
        raise ValueError(CLOSED)
    return executor


def check_workers(workers: Any) -> int | None:
    """None (all cores) or a number of processes from 1 to `MAX_WORKERS`."""
    return None if workers is None else check_int(workers, "workers (procesos)", 1, MAX_WORKERS)


def check_progress(progress: Any) -> ProgressFn | None:
    """`win_rate`'s progress callback (`core.checks.check_progress`)."""
    return checks.check_progress(progress, "progress(hechas, total, texto)", "Partidas")
