"""A solver for the six games: proven verdicts, hints and winning lines.

`solve(game)` answers "can this position still be won?" with ``"won"`` (and a winning line of
engine `Move` objects, replayed through the public ``game.copy().move`` and checked to reach
``is_won()`` before it is returned), ``"lost"`` (only after a complete search) or
``"unknown"`` (a cap stopped the search first).  Pure Python, no NumPy: it also runs under
Pyodide.  The caller's game is never touched: the solver reads it through `Game`'s public
surface into its own compact state (card ids 0..51 in lists; the two copies of a card in
two-deck games share an id, as the rules document (docs/reglas.md) says they are equal for
every rule).  In games that deal cards face down the solver sees them, which a player does
not; its verdicts say so (`verdict_text`).

Caps: ``max_states`` counts the states examined (deterministic: same verdict on every
machine); it is a hard cap on the sum over every search of a call, so a "unknown" under it
has used it exactly, and ``max_states=0`` examines nothing.  ``time_limit`` is checked every
few hundred states; a search's table never holds more than ``max_table`` keys; reaching any
cap gives "unknown".

Modules, one job each:

- `state`: what the searches know about a game (`_Spec`, from the `Rules` data) and the
  generic position (`_State`), with the engine's moves and automatic actions.
- `fast`: the one-deck state (`_Fast`) for single-card games with same-suit foundations.
- `pruning`: the pruning rules, their proofs, and the rule data that selects each.
- `heuristics`: best-first scores and move orders (speed only, never soundness).
- `search`: the complete best-first and depth-first searches.
- `probe`: a quick, incomplete probe for a win by coarser moves.
- `rollouts`: the no-peek player played out many times, its preferences varied (an
  incomplete probe too: it only ever wins), first where the tableau hides cards.
- `twodeck`: the two-deck fast path (Moving Left's family: stock, waste, runs, face-down
  tableau), immutable compact positions and their best-first search.
- `twodeck_reserve`: the two-deck path with a reserve refilling holes and foundations both
  up and down (Chequers' family), on `twodeck`'s search.
- `portfolio`: which searches run, in what order, with what share of the budget.
- `lines`: winning lines turned into engine moves and replayed.
- `api`: `solve`, `hint`, their results and request checks.
- `verdicts`: the Spanish sentences.

`hint` falls back, when no solution is found in time, on a heuristic move (not proven): moves
to a foundation first, then moves that empty a pile or uncover a face-down card, then moves
onto a card, then moves into a hole, turning the stock, and take-backs last.

docs/solver.md explains the design for a reader; benchmarks/RESULTS.md has the figures.
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
