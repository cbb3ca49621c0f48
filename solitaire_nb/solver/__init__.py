"""A solver for the six games: proven verdicts, hints and winning lines.

`solve(game)` answers "can this position still be won?": ``"won"`` with a winning line of engine
`Move` objects (replayed through ``game.copy().move`` to ``is_won()`` before it is returned),
``"lost"`` only after a complete search, ``"unknown"`` when a cap stopped the search first.
`hint` gives a solution's first move, or a heuristic one marked as such.  Pure Python (it runs
under Pyodide); it reads the caller's game through `Game`'s public surface, never changes it,
and sees face-down cards, which a player does not (`verdict_text` says so).

Caps: ``max_states`` is a hard, deterministic cap on the states examined by all our searches of
a call (``0`` examines nothing; the optional fc-solve has one of its own); ``time_limit`` is
checked every few hundred states; a table never holds more than ``max_table`` keys; any cap
reached gives "unknown".  One module per job: `state`, `fast`, `pruning`, `heuristics`,
`search`, `probe`, `rollouts`, `twodeck`, `twodeck_reserve`, `portfolio`, `fcsolve`, `lines`,
`api`, `verdicts` (docs/solver.md, «El código»).
"""

from __future__ import annotations

from .api import (
    BUSY_MIN_SECONDS,
    BUSY_SHARE,
    CLASS_BUDGET_ENV,
    DEFAULT_MAX_TABLE,
    Hint,
    SolveResult,
    _class_budget,
    _cpu_time,
    _solve,
    hint,
    solve,
)
from .portfolio import (
    BAKERS_PORTFOLIO,
    CASTLE_ALONE,
    CASTLE_DEPTH_FIRST,
    CASTLE_SECOND,
    CASTLE_TURNS,
    PHASE1_SHARE,
)
from .probe import (
    CASTLE_PROBE,
    CASTLE_PROBE_QUOTA,
    CASTLE_PROBE_WALKS,
)
from .verdicts import (
    BUSY_HINT,
    THOUGHTFUL,
    busy_text,
    verdict_text,
)

# the public API (`solve`, `hint`, `verdict_text`, `busy_text` and their results), and the
# constants and helpers the package's callers, tools and tests read
__all__ = [
    "BAKERS_PORTFOLIO",
    "BUSY_HINT",
    "BUSY_MIN_SECONDS",
    "BUSY_SHARE",
    "CASTLE_ALONE",
    "CASTLE_DEPTH_FIRST",
    "CASTLE_PROBE",
    "CASTLE_PROBE_QUOTA",
    "CASTLE_PROBE_WALKS",
    "CASTLE_SECOND",
    "CASTLE_TURNS",
    "CLASS_BUDGET_ENV",
    "DEFAULT_MAX_TABLE",
    "Hint",
    "PHASE1_SHARE",
    "SolveResult",
    "THOUGHTFUL",
    "_class_budget",
    "_cpu_time",
    "_solve",
    "busy_text",
    "hint",
    "solve",
    "verdict_text",
]
