"""Studies of the one-deck open family: Citadel against Beleaguered Castle (`simulate`, the exact
counts, statistics), two games compared on the same decks (`compare`), and their plots
(`study.plots`, `study.comparison_plots`, the only modules here that import matplotlib).

The names below load on first use, so that `study.tally` (a deal counted on the board, no NumPy)
does not bring NumPy with it.  Where NumPy is absent (the serverless sites: Pyodide serves it only
from its CDN) the study's names come from `study.pure`, the same figures dealt by the rules engine
on a smaller sample; where matplotlib is absent, ``from solitaire_nb.study import plots`` (and
``comparison_plots``) give `study.svg_plots` (`svg_comparison_plots`), the same plots drawn as SVG.
Both are decided once, at import (`HAVE_NUMPY`, `HAVE_MATPLOTLIB`)."""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

HAVE_NUMPY = importlib.util.find_spec("numpy") is not None
HAVE_MATPLOTLIB = HAVE_NUMPY and importlib.util.find_spec("matplotlib") is not None
#: the names `study.pure` provides for the NumPy-free path (the rest need NumPy).
PURE_NAMES = frozenset({
    "COLUMNS", "ROUNDS", "Z95", "ColumnGap", "ProgressFn", "MAX_DEALS", "CARD_CODES", "column_gap",
    "column_shortening", "compare", "deal_decks", "deck_codes", "draw_decks", "mean_ci", "ratio_ci",
    "simulate", "summary", "same_deals",
})
EXACT_NAMES = frozenset({
    "NON_ACES", "RANKS", "SUITS", "cards_home_distribution", "cards_home_moments", "expected_cards_home",
    "expected_column_lengths", "home_probability_by_position", "mean_within",
})
STATS_NAMES = frozenset({"ChiSquare", "chi2_sf", "chi_square_test"})
BOTH_NAMES = frozenset({"value_counts"})  # pure Python on either path
#: plot modules and their SVG stand-ins, used when matplotlib is absent.
SVG_MODULES = {"plots": ".svg_plots", "comparison_plots": ".svg_comparison_plots"}

if TYPE_CHECKING:
    from .citadel import (
        CARD_CODES,
        COLUMNS,
        MAX_DEALS,
        NON_ACES,
        RANKS,
        ROUNDS,
        SUITS,
        Z95,
        ChiSquare,
        ColumnGap,
        Layout,
        ProgressFn,
        StudyResults,
        cards_home_distribution,
        cards_home_moments,
        chi2_sf,
        chi_square_test,
        column_gap,
        column_shortening,
        deal_decks,
        deal_games,
        deck_codes,
        deck_ids,
        draw_decks,
        expected_cards_home,
        expected_column_lengths,
        home_probability_by_position,
        mean_ci,
        ratio_ci,
        same_deals,
        simulate,
        simulate_engine,
        summary,
    )
    from .comparison import compare
    from .pure import value_counts

__all__ = [
    "CARD_CODES",
    "COLUMNS",
    "MAX_DEALS",
    "NON_ACES",
    "RANKS",
    "ROUNDS",
    "SUITS",
    "Z95",
    "ChiSquare",
    "ColumnGap",
    "Layout",
    "ProgressFn",
    "StudyResults",
    "cards_home_distribution",
    "cards_home_moments",
    "chi2_sf",
    "chi_square_test",
    "column_gap",
    "compare",
    "column_shortening",
    "deal_decks",
    "deal_games",
    "deck_codes",
    "deck_ids",
    "draw_decks",
    "expected_cards_home",
    "expected_column_lengths",
    "home_probability_by_position",
    "mean_ci",
    "mean_within",
    "ratio_ci",
    "same_deals",
    "simulate",
    "simulate_engine",
    "summary",
    "value_counts",
]


def source(name: str, numpy: bool = HAVE_NUMPY) -> str:
    """The module (relative to this package) that provides `name` with or without NumPy."""
    if name in EXACT_NAMES:
        return ".exact"
    if name in STATS_NAMES:
        return ".stats"
    if name in BOTH_NAMES:
        return ".pure"
    if not numpy and name in PURE_NAMES:
        return ".pure_compare" if name == "compare" else ".pure"
    return ".comparison" if name == "compare" else ".citadel"


def __getattr__(name: str) -> Any:
    if name in SVG_MODULES and not HAVE_MATPLOTLIB:
        module = importlib.import_module(SVG_MODULES[name], __name__)
        globals()[name] = module
        return module
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(source(name), __name__)
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
