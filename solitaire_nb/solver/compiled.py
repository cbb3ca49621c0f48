"""The optional compiled search core (package `solitaire_nb_core`, built from the repository's
`ccore/` where a C compiler is present): the fast state's complete searches and the portfolio's
ledger, in C, used when installed.

The core is a port of `search._fast_search` and `depth._fast_dfs` (with `fast`, `pruning` and
`heuristics`), without rule 10 (runs as one step; `fits` declines it): the same states in the same order, the same counts, verdicts and lines, so a
verdict at a given ``max_states`` is the same with or without it.  The Python modules stay the
reference; its lines are replayed through the engine like every line.  The rule data it gets
are the `_Fast` state's (never a game's name).  ``SNB_SOLVER_CORE=python`` in the environment
turns it off (checked at every portfolio); a core built for another `API` is ignored.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Generator
from typing import Any, cast

from ..engine import Game
from . import probe, streamline
from .fast import _Fast
from .search import _UNLIMITED, _advance
from .state import _Spec
from .tables import _FC_VALUE


def _load() -> Any:
    """The core's module, or None where it is not built (the pure-Python searches run)."""
    try:
        return importlib.import_module("solitaire_nb_core")
    except ImportError:
        return None


_core: Any = _load()

API = 1
"""The core's calls this module makes (`solitaire_nb_core.API` must match)."""
CORE_ENV = "SNB_SOLVER_CORE"
"""Environment variable: ``python`` turns the compiled core off."""

_FC_BYTES52 = bytes(_FC_VALUE)
_Search = Generator[int, int, tuple[str, list, int]]


def available() -> bool:
    """The compiled core is installed, built for this module's `API`, and not turned off."""
    return _core is not None and getattr(_core, "API", None) == API and os.environ.get(CORE_ENV, "") != "python"


def fits(spec: _Spec, runs: bool = False) -> bool:
    """The core can search this game's fast state: it is `available`, the tableau is not
    wider than the core's `MAX_PILES`, and no search moves runs as one step (`runs`: rule 10
    is not ported, so those searches run in Python)."""
    return not runs and available() and len(spec.tab) <= _core.MAX_PILES


def ledger(work_cap: int) -> Any:
    """The core's ledger (`search._Ledger`'s calls: ``count``, ``over``, ``seen``, ``work``)."""
    return _core.Ledger(work_cap)


def _make(st: _Fast, deadline, max_table: int, ledger, kind: str, order: str = "key", **more: Any) -> Any:
    """The core's search of `kind` (``BEST_FIRST``, ``DEPTH_FIRST``, ``PROBE`` or
    ``STREAMLINERS``) from the fast state `st`, with its rule data and pruning switches."""
    spec = cast(_Spec, st.sp)
    assert not st.macro, "rule 10 is not in the core (fits declines it)"
    return _core.FastSearch(
        kind=getattr(_core, kind),
        piles=[bytes(q) for q in st.t],
        heights=bytes(st.h),
        accepts=[bytes(spec.tab_acc[c]) for c in range(52)],
        empty_any=st.empty_any,
        empty_king=st.empty_king,
        takeback=st.takeback,
        autoplay=st.autoplay,
        rule3=spec.rule3,
        dead_ends=st.dead_ends,
        hole_dead_ends=st.hole_dead_ends,
        order_fc=order == "fc",
        fc_values=_FC_BYTES52,
        urgency=tuple(st.urgency),
        disorder=st.disorder,
        max_table=max_table,
        ledger=ledger,
        deadline=deadline,
        **more,
    )


def _driven(search: Any) -> _Search:
    """The core's search with the Python searches' generator protocol (`search._advance`)."""
    allowed = yield 0
    while True:
        states, verdict = search.run(allowed)
        if verdict is not None:
            return verdict
        allowed = yield states


def fast_search(st: _Fast, deadline, max_table: int, ledger=None) -> _Search:
    """`search._fast_search`, in the core."""
    return _driven(_make(st, deadline, max_table, ledger, "BEST_FIRST"))


def fast_dfs(st: _Fast, deadline, max_table: int, order: str, ledger=None) -> _Search:
    """`depth._fast_dfs`, in the core."""
    return _driven(_make(st, deadline, max_table, ledger, "DEPTH_FIRST", order))


def fast_best_first(st: _Fast, deadline, cap: int, max_table: int, ledger=None) -> tuple[str, list, int]:
    """`search._fast_best_first` (one best-first search with its whole budget), in the core."""
    search = fast_search(st, deadline, max_table, ledger)
    next(search)
    paused, verdict = _advance(search, cap if cap >= 0 else _UNLIMITED)
    return verdict if verdict is not None else ("unknown", [], paused)


def fast_probe(spec: _Spec, game: Game, deadline, max_table: int, ledger=None) -> _Search:
    """`probe._fast_probe` (same walks, same random orders), in the core."""
    more: dict[str, Any] = {"limit": probe.CASTLE_PROBE, "walks": probe.CASTLE_PROBE_WALKS, "quota": probe.CASTLE_PROBE_QUOTA}
    return _driven(_make(_Fast(spec, game), deadline, max_table, ledger, "PROBE", **more))


def fast_streamliner(spec: _Spec, game: Game, table: bytes, deadline, limit: int, max_table: int,
                     ledger=None, macro: bool = False) -> _Search:
    """`streamline._fast_streamliner` (its games, `STREAMLINER_GAMES`, one after the other), in
    the core; `table` is `streamline.blind_table`'s.  Without rule 10 (`macro` must be off)."""
    assert not macro, "rule 10 is not in the core (fits declines it)"
    more: dict[str, Any] = {"limit": limit, "games": tuple(streamline.STREAMLINER_GAMES), "classes": table[:52]}
    return _driven(_make(_Fast(spec, game), deadline, max_table, ledger, "STREAMLINERS", "fc", **more))
