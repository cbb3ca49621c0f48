"""The solver's public calls: `solve` (a verdict and a winning line) and `hint` (a move to
suggest), their result types, and the checks of a request before any search starts."""

from __future__ import annotations

import gc
import os
import time
from typing import NamedTuple, overload

from ..core.checks import STATES_MAX, check_int, check_seconds, check_states, shown
from ..core.moves import Move
from ..engine import Game
from . import fcsolve
from .heuristics import _order
from .portfolio import PHASE1_SHARE, STREAMLINERS, _search
from .rollouts import budget, rollouts
from .state import _Spec, _State

DEFAULT_MAX_TABLE = 1_000_000
"""Most canonical keys a search's transposition table holds unless ``max_states`` is larger
(then that many): about 70 bytes a key in the compiled core, a few hundred in Python."""


class SolveResult(NamedTuple):
    """What `solve` found: ``status`` "won", "lost" or "unknown"; ``moves`` a winning line
    (engine `Move` objects) when won; ``states`` distinct states examined (taken from the
    search queue); ``seconds`` (wall clock); ``cpu_seconds``, the processor time the search
    itself got in those seconds (less when other programs share the processor: see `busy`),
    with fc-solve's when it ran; ``found_by`` names the other solver whose line won ("fc-solve",
    see `solve`'s ``fc_solve``), None when our own search decided or nothing did."""

    status: str
    moves: list[Move]
    states: int
    seconds: float
    cpu_seconds: float | None = None
    found_by: str | None = None

    @property
    def busy(self) -> bool:
        """True when the search ran out of time because the computer was busy: undecided, and
        it got less than half the processor time it waited for (a class of thirty sharing one
        server, say), so asking again later may well decide it."""
        return (
            self.status == "unknown"
            and self.cpu_seconds is not None
            and self.seconds >= BUSY_MIN_SECONDS
            and self.cpu_seconds < BUSY_SHARE * self.seconds
        )


class Hint(NamedTuple):
    """A move to suggest: ``proven`` when it is the first move of a winning line found by the
    solver; otherwise a heuristic move (or None if there is no move).  ``status`` is the
    solver's verdict for the position ("won", "lost" or "unknown"); ``busy`` as in
    `SolveResult.busy`."""

    move: Move | None
    proven: bool
    status: str
    busy: bool = False


#: an undecided search that got less than this share of the time it waited for "was busy".
BUSY_SHARE = 0.5
#: below this wall time the measure says nothing (timer resolution, start-up).
BUSY_MIN_SECONDS = 0.2
#: environment variable with a class's budget (seconds): the class launcher sets it, and every
#: timed search in that kernel thinks at most that long (`solitaire_nb.classroom.launcher --segundos`).
CLASS_BUDGET_ENV = "SNB_SOLVER_SECONDS"


@overload
def _class_budget(time_limit: float) -> float: ...
@overload
def _class_budget(time_limit: None) -> None: ...
def _class_budget(time_limit: float | None) -> float | None:
    """`time_limit`, lowered to the class's budget when one is set (untimed searches stay so)."""
    raw = os.environ.get(CLASS_BUDGET_ENV)
    if time_limit is None or not raw:
        return time_limit
    try:
        cap = float(raw)
    except ValueError:
        return time_limit
    return min(time_limit, cap) if cap > 0 else time_limit


def _cpu_time() -> float:
    """Processor seconds of this thread; where the platform has no thread clock (Pyodide in
    JupyterLite) the process clock, and failing that wall time (never "busy" then)."""
    for clock in ("thread_time", "process_time"):
        try:
            return getattr(time, clock)()
        except (AttributeError, OSError):
            continue
    return time.perf_counter()


def solve(
    game: Game,
    time_limit: float | None = None,
    max_states: int | None = None,
    max_table: int | None = None,
    fc_solve: bool = False,
) -> SolveResult:
    """Decide whether `game`'s current position can still be won.

    ``max_states`` caps the distinct states expanded, so a capped run gives the same answer
    on every machine; ``time_limit`` (seconds) is a convenience on top; ``max_table`` bounds
    each search's transposition table (memory: the castles run up to four searches, each
    with its own table); by default `DEFAULT_MAX_TABLE` keys, or ``max_states`` if more, so
    that a larger state cap is not cut short by full tables and a record still depends on
    ``max_states`` alone.  With none of them given the search runs until it decides or the
    table is full.  A ``"won"`` result carries a winning line checked through the engine; ``"lost"`` comes only from a complete
    search (the pruning rules and why they are safe: docs/solver.md#reglas-de-poda).

    The cyclic garbage collector is paused while the search runs: the search allocates
    millions of small tuples and lists that hold no cycles (its queue and table), and the
    collector would otherwise walk them over and over, for nothing.
    It is switched back on before `solve` returns or raises, if it was on.

    The result's ``cpu_seconds`` is the processor time this thread got: far less than
    ``seconds`` means other programs had the processor (see `SolveResult.busy`).  A class
    budget in the environment (``SNB_SOLVER_SECONDS``) lowers ``time_limit``.

    ``fc_solve=True`` adds Freecell Solver's ``fc-solve`` where it is installed and plays the
    game's rules (`fcsolve.fits`): when our search leaves the position undecided, fc-solve
    searches it within ``max_states`` states (``-mi``; `fcsolve.FC_ITERATIONS` if none), the
    last 1/`FC_SHARE` of ``time_limit`` as CPU seconds (`fcsolve.FC_SECONDS` if none; its wall
    time at most twice that and a second) and
    `fcsolve.FC_MEMORY_GIB`; its line counts only once replayed to a win through the engine
    (``found_by="fc-solve"``), and its "could not solve" is never taken for a loss.  Off by
    default, so that every figure measured with `solve` is our own search's.

    Bad limits (negative, NaN, infinite, not numbers, a float for ``max_states``…) and a
    position no play could reach are refused with a Spanish `ValueError` before any work."""
    _check_request(game)
    time_limit = check_seconds(time_limit, "time_limit")
    max_states = check_states(max_states, "max_states")
    if max_table is None:
        max_table = max(DEFAULT_MAX_TABLE, max_states or 0)
    max_table = check_int(max_table, "max_table", 1, STATES_MAX)
    if not isinstance(fc_solve, bool):
        raise ValueError(f"fc_solve tiene que ser True o False, no {shown(fc_solve)}")
    time_limit = _class_budget(time_limit)
    portfolio = fc_solve and fcsolve.available(game)
    ours = time_limit
    if portfolio and time_limit is not None:
        ours = time_limit * (FC_SHARE - 1) / FC_SHARE
    collecting = gc.isenabled()
    gc.disable()
    cpu0 = _cpu_time()
    try:
        result = _solve(game, ours, max_states, max_table)
        result = result._replace(cpu_seconds=_cpu_time() - cpu0)
        if portfolio and result.status == "unknown":
            result = _with_fc_solve(game, result, time_limit, max_states)
        return result
    finally:
        if collecting:
            gc.enable()


FC_SHARE = 4
"""With ``fc_solve=True`` and a ``time_limit``, fc-solve gets its last 1/FC_SHARE."""


def _with_fc_solve(game: Game, result: SolveResult, time_limit: float | None, max_states: int | None) -> SolveResult:
    """`result` (undecided) after fc-solve's try: "won" with its replayed line, or still
    undecided; either way with its states, CPU and wall seconds added."""
    seconds = None if time_limit is None else max(time_limit - result.seconds, 0.0)
    t0 = time.perf_counter()
    line, states, cpu = fcsolve.fc_solve_line(game, max_states, seconds)
    result = result._replace(states=result.states + states, seconds=result.seconds + time.perf_counter() - t0,
                             cpu_seconds=(result.cpu_seconds or 0.0) + cpu)
    if line is None:
        return result
    return result._replace(status="won", moves=line, found_by=fcsolve.FC_NAME)


def _check_request(game: Game) -> None:
    """Refuse (Spanish ValueError) what is not a game, or a position no deal could reach and
    that the searches would misread (`Game.validate`: a card more often than the decks hold
    it, foundations that are not legal sequences, face-down counts outside their piles)."""
    if not isinstance(game, Game):
        raise ValueError(f"El resolvedor necesita una partida (Game), no {shown(game)}")
    game.validate()


def _solve(game: Game, time_limit: float | None, max_states: int | None, max_table: int) -> SolveResult:
    t0 = time.perf_counter()
    spec = _Spec(game)
    cap = -1 if max_states is None else max_states
    deadline = None if time_limit is None else t0 + time_limit
    states = 0
    if spec.rollouts:
        # The player's rollouts: a probe that can only win (see `rollouts`).
        cap0, fresh, seconds0 = budget(cap, time_limit)
        deadline0 = None if seconds0 is None else t0 + seconds0
        status, moves, states = rollouts(game, deadline0, cap0, fresh)
        if status == "won":
            return SolveResult(status, moves, states, time.perf_counter() - t0)
        if cap >= 0:
            cap = max(cap - states, 0)
    for home, share in STREAMLINERS if spec.streamline else ():
        # Streamliners (Blake and Gent): take-backs forbidden and cards sent home at once,
        # much smaller games whose wins are wins here too; each gets 1/share of what is
        # left of the budget, and its "lost" proves nothing.
        cap0 = -1 if cap < 0 else cap // share
        deadline0 = None
        if deadline is not None:
            now = time.perf_counter()
            deadline0 = now + max(deadline - now, 0.0) / share
        status, moves, more = _search(game, spec.streamlined(home), deadline0, cap0, max_table)
        states += more
        if status == "won":
            return SolveResult(status, moves, states, time.perf_counter() - t0)
        if cap >= 0:
            cap = max(cap - more, 0)
    if spec.takeback:
        # Phase 1: the same position with take-backs forbidden, a smaller game whose wins are
        # wins here too; its "lost" proves nothing here, so the complete search follows.
        # It gets 1/PHASE1_SHARE of what the rollouts and the streamliners left.
        cap1 = -1 if cap < 0 else cap // PHASE1_SHARE
        deadline1 = None
        if deadline is not None:
            now = time.perf_counter()
            deadline1 = now + max(deadline - now, 0.0) / PHASE1_SHARE
        status, moves, more = _search(game, spec.without_takebacks(), deadline1, cap1, max_table)
        states += more
        if status == "won":
            return SolveResult(status, moves, states, time.perf_counter() - t0)
        if cap >= 0:
            cap = max(cap - more, 0)
    status, moves, more = _search(game, spec, deadline, cap, max_table)
    return SolveResult(status, moves, states + more, time.perf_counter() - t0)


def hint(game: Game, time_limit: float | None = 1.0, max_states: int | None = None) -> Hint:
    """The first move of a winning line found within `time_limit` seconds and `max_states`
    states (proven), else a heuristic move: the solver's preferred legal move (not proven).
    The limits are checked as `solve` checks them."""
    result = solve(game, time_limit=time_limit, max_states=max_states)
    if result.status == "won" and result.moves:
        return Hint(result.moves[0], True, "won")
    spec = _Spec(game)
    st = _State(spec, game)
    ordered = _order(st, st.moves(True))
    if not ordered:
        return Hint(None, False, result.status, result.busy)
    si, di, n = ordered[0]
    return Hint(Move(spec.pile_ids[si], spec.pile_ids[di], n), False, result.status, result.busy)

