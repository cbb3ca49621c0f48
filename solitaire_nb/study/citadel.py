"""Citadel versus Beleaguered Castle: how much the deal-time foundation plays shorten the columns.

Both games deal the same deck the same way (docs/reglas.md, CB-1): the Aces start on the
foundations and the other 48 cards, in deal order, are meant for ``T(i mod 8)``.  Citadel sends
home, during the deal, every card its foundation accepts at that moment (CB-2) and then
autoplays (CB-7); Beleaguered Castle does neither (CB-8), so its eight columns hold six cards.

This module is the study's front (NumPy only; plots are in `study.plots`), and every name below
is importable from here: `study.exact` (exact results for Citadel before the post-deal
autoplay), `study.deal` (the paired deals: `simulate`, vectorised, and `simulate_engine`,
through the engine, to cross-check; the random decks and `StudyResults`), `study.stats`
(confidence intervals, the chi-square test), and here the headline figures (`summary`) and how
the columns shrink (`column_shortening`, `column_gap`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.checks import shown
from .deal import (
    CARD_CODES,
    MAX_DEALS,
    Layout,
    ProgressFn,
    StudyResults,
    deal_decks,
    deal_games,
    deck_codes,
    deck_ids,
    draw_decks,
    simulate,
    simulate_engine,
)
from .exact import (
    COLUMNS,
    NON_ACES,
    RANKS,
    ROUNDS,
    SUITS,
    cards_home_distribution,
    cards_home_moments,
    expected_cards_home,
    expected_column_lengths,
    home_probability_by_position,
)
from .pure import ColumnGap, summary_columns
from .stats import Z95, ChiSquare, _floats, chi2_sf, chi_square_test, mean_ci, ratio_ci

if TYPE_CHECKING:
    pass

__all__ = [
    "CARD_CODES", "COLUMNS", "MAX_DEALS", "NON_ACES", "RANKS", "ROUNDS", "SUITS", "Z95",
    "ChiSquare", "ColumnGap", "Layout", "ProgressFn", "StudyResults",
    "cards_home_distribution", "cards_home_moments", "chi2_sf", "chi_square_test", "column_gap", "column_shortening", "deal_decks", "deal_games", "deck_codes", "deck_ids", "draw_decks",
    "expected_cards_home", "expected_column_lengths", "home_probability_by_position", "mean_ci",
    "ratio_ci", "same_deals", "simulate", "simulate_engine", "summary",
]


# =============================================================================== summary
def summary(results: StudyResults) -> dict[str, tuple[float, float, float]]:
    """Headline figures as (mean, low, high) with 95 % confidence intervals."""
    if not isinstance(results, StudyResults):
        raise ValueError(f"summary necesita los resultados de simulate, no {shown(results)}")
    figures = summary_columns(results)
    out: dict[str, tuple[float, float, float]] = {}
    for k, v in figures.items():
        mean, low, high = mean_ci(v)
        out[k] = (float(mean), float(low), float(high))
    return out


# =============================================================================== how the columns shrink
def column_shortening(layout: Layout) -> dict[str, tuple[float, float, float]]:
    """How a deal shortens the eight columns, as (value, low, high) with 95 % intervals:

    * ``columns_shortened``: columns per deal that lost at least one card;
    * ``cards_per_shortened_column``: cards lost by each of those columns, on average;
    * ``share_losing_one``: the share of those columns that lost exactly one card;
    * ``columns_with_six``: columns per deal that kept their six cards;
    * ``longest_keeps_six``: the share of deals whose longest column kept six cards."""
    lost = ROUNDS - layout.lengths.astype(np.int16)
    shortened = (lost > 0).sum(axis=1)
    return {
        "columns_shortened": _floats(mean_ci(shortened)),
        "cards_per_shortened_column": ratio_ci(lost.sum(axis=1), shortened),
        "share_losing_one": ratio_ci((lost == 1).sum(axis=1), shortened),
        "columns_with_six": _floats(mean_ci((lost == 0).sum(axis=1))),
        "longest_keeps_six": _floats(mean_ci(layout.longest == ROUNDS)),
    }


def column_gap(layout: Layout) -> ColumnGap:
    """How much the eight columns differ on average (see `ColumnGap`)."""
    lengths = layout.lengths.astype(float)
    mean, low, high = mean_ci(lengths)
    longest, shortest = int(mean.argmax()), int(mean.argmin())
    diff = _floats(mean_ci(lengths[:, longest] - lengths[:, shortest]))
    per_column = tuple(_floats(t) for t in zip(mean, low, high, strict=True))
    return ColumnGap(longest, shortest, per_column, diff)


def same_deals(decks: np.ndarray) -> bool:
    """Whether the vectorised dealer (`deal_decks`) and the rules engine (`simulate_engine`)
    record the same deals for `decks`, deal by deal."""
    engine, fast = simulate_engine(decks), deal_decks(decks)
    same = all(np.array_equal(getattr(engine, m).lengths, getattr(fast, m).lengths)
               for m in ("beleaguered", "after_deal", "citadel"))
    return bool(same and np.array_equal(engine.home_in_deal, fast.home_in_deal))
