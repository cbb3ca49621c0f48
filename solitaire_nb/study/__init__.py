"""Studies of the one-deck open family: Citadel against Beleaguered Castle (`simulate`, the exact
counts, statistics), two games compared on the same decks (`compare`), and their plots
(`study.plots`, `study.comparison_plots`, the only modules here that import matplotlib).

The names below load on first use, so that `study.tally` (a deal counted on the board, no NumPy)
does not bring NumPy with it: JupyterLite's offline lessons have none."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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
        simulate,
        simulate_engine,
        summary,
    )
    from .comparison import compare

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
    "ratio_ci",
    "simulate",
    "simulate_engine",
    "summary",
]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(".comparison" if name == "compare" else ".citadel", __name__)
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
