"""Optional compiled search core of solitaire_nb's solver, for the one-deck fast state.

`solitaire_nb.solver.compiled` uses it when it is installed: `FastSearch` runs the same
searches as `solitaire_nb.solver` (the best-first and depth-first searches of `search`, the
probe of `probe`, the streamliners of `streamline`: same states, same order, same counts and
lines; the Python modules are the reference and the tests compare both), and `Ledger` is the
portfolio's shared ledger of examined states.  It knows no game: the caller passes the rule
data (who may lie on whom, what a hole takes, which pruning rules apply).  `API` changes
whenever the calls change, so that a stale build is ignored, never misused.
"""

from ._core import API, BEST_FIRST, DEPTH_FIRST, MAX_PILES, PROBE, STREAMLINERS, FastSearch, Ledger

__all__ = ["API", "BEST_FIRST", "DEPTH_FIRST", "MAX_PILES", "PROBE", "STREAMLINERS", "FastSearch", "Ledger"]
