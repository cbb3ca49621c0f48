"""Win rates: solve many numbered deals and count how many can be won, with a 95% interval.

`win_rate(name, deals, …)` hands each deal to the solver (`solitaire_nb.solve`), or to a
player who sees only what a person sees (``player="heuristic"``), on any
`concurrent.futures.Executor`, and returns a `result.WinRate`: won / lost / unknown counts,
per-deal records and the bracketed 95 % interval (`intervals`).  Where the work runs and its
picklable work item: `executors`.  With ``out=`` a CSV file, every record is appended as it
comes and a rerun solves only the deals not there yet (`studyfile`); a file of another game,
variant, limits or player is refused in Spanish.  Under ``max_states`` alone a deal's record
(apart from ``seconds``) is the same on every machine and executor.  ``progress``: None or a
function ``progress(done, total, text)`` (`solitaire_nb.board.progress_bar` is one).
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..core.checks import check_seconds, check_states
from ..core.rules import GameDef
from .arguments import ProgressFn, check_executor, check_progress, check_workers, deal_list, study_game
from .executors import InProcessExecutor, default_executor, run_deals
from .files import study_path
from .params import check_same_player, player_params, same_game
from .records import STATUSES, DealRecord, study_params
from .result import WinRate
from .studyfile import open_study, study_lock

__all__ = ["win_rate"]


def win_rate(
    name: str | GameDef,
    deals: Iterable[int],
    time_limit: float | None = None,
    max_states: int | None = None,
    executor: cf.Executor | None = None,
    progress: ProgressFn | Literal[False] | None = None,
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
    ``progress``: None (or False) for silence, or a function called as
    ``progress(done, total, text)`` after each deal, e.g. the board's
    ``progress_bar("Partidas")`` in a notebook.  ``variant``: the game's variant flags.
    Records come back sorted by deal, one per distinct deal asked for.  ``player``: a player's
    name (`solitaire_nb.players.player.PLAYERS`, e.g. "heuristic") to have that player play each
    deal instead of the solver (then no ``time_limit`` or ``max_states``).

    Every argument is checked before any work (Spanish ValueError, docs/entradas.md); a
    study file has one writer at a time: a second run on a file in use is refused."""
    definition = study_game(name)
    flags = definition.resolve_variant(variant)
    time_limit = check_seconds(time_limit, "time_limit")
    max_states = check_states(max_states, "max_states")
    if executor is not None:
        check_executor(executor)
    workers = check_workers(workers)
    report = check_progress(progress)
    if player is not None:
        from ..players.player import check_player

        player = check_player(player)
        if time_limit is not None or max_states is not None:
            raise ValueError("Un jugador no usa time_limit ni max_states: juega cada partida hasta el final")
    path = None if out is None else study_path(out)
    plan = _Plan(
        definition=definition, flags=flags, deals=deal_list(deals), time_limit=time_limit, max_states=max_states,
        executor=executor, progress=report, path=path, workers=workers, player=player,
    )
    if path is None:
        return _study(plan)
    with study_lock(path):
        return _study(plan)


@dataclass(frozen=True, kw_only=True)
class _Plan:
    """A `win_rate` call once its arguments are checked."""

    definition: GameDef
    flags: dict[str, bool]
    deals: list[int]
    time_limit: float | None
    max_states: int | None
    executor: cf.Executor | None
    progress: ProgressFn | None
    path: Path | None
    workers: int | None
    player: str | None

    @property
    def name(self) -> str:
        """What travels to the workers and names the study file's game."""
        return self.definition.name

    def params(self) -> dict:
        """The study file's header fields."""
        d = self.definition
        return {**study_params(d.name, self.flags, self.time_limit, self.max_states, d.spec), **player_params(self.player)}


def _study(plan: _Plan) -> WinRate:
    """`win_rate` once its arguments are checked (and, with a file, its lock held)."""
    done: dict[int, DealRecord] = {}
    fh = None
    if plan.path is not None:
        path = plan.path

        def vet(old: dict) -> None:
            check_same_player(path, old, plan.player)

        done, fh = open_study(path, plan.params(), same_game=same_game, vet=vet)
    wanted = plan.deals
    todo = [d for d in wanted if d not in done]
    records = {d: done[d] for d in wanted if d in done}
    counts = {s: sum(1 for r in records.values() if r.status == s) for s in STATUSES}
    own = plan.executor is None and bool(todo)
    if own:
        pool = default_executor(plan.workers)
    else:  # the caller's executor, or nothing left to solve
        pool = plan.executor if plan.executor is not None else InProcessExecutor()
    ok = False
    try:
        for rec in run_deals(pool, todo, plan.name, plan.flags, plan.time_limit, plan.max_states, plan.workers,
                             plan.player):
            records[rec.deal] = rec
            counts[rec.status] += 1
            if fh is not None:
                fh.append(rec)
            if plan.progress is not None:
                plan.progress(len(records), len(wanted), _progress_text(len(records), len(wanted), counts, plan.player))
        ok = True
    finally:
        if fh is not None:
            fh.close()
        if own:
            pool.shutdown(wait=ok, cancel_futures=True)
    return WinRate(plan.name, plan.flags, plan.time_limit, plan.max_states, [records[d] for d in sorted(records)],
                   plan.player)


def _progress_text(done: int, total: int, counts: dict[str, int], player: str | None) -> str:
    """The Spanish line a progress callback receives after each deal."""
    if player is not None:
        return f"{done}/{total} partidas: {counts['won']} ganadas, {counts['lost']} perdidas"
    return (
        f"{done}/{total} partidas: {counts['won']} con solución, {counts['lost']} sin solución, "
        f"{counts['unknown']} sin decidir"
    )
