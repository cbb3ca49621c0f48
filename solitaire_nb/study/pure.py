"""The studies without NumPy: the path the browser takes (Pyodide serves NumPy only from its CDN,
and the serverless sites ask nothing of the internet).  `study.simulate`, `study.summary`,
`study.column_shortening`, `study.column_gap` (and `study.compare`, from `pure_compare`) come from here when NumPy is
absent (`study.HAVE_NUMPY`), with the same names, arguments and figures.

The deals go through the rules engine, deck by deck (the legality lives there, and the
vectorised dealers are checked against it), so a sample is smaller: at most `BROWSER_DEALS`
decks for the simulation and `BROWSER_COMPARED` for a comparison.  Each figure's interval is the
one of the sample actually dealt, and the page says so (`note`).  Decks are drawn with
``random.Random(seed)``: other decks than NumPy's for the same seed, so the two paths agree
exactly on the same decks (tests/test_study_pure.py), not on the same seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..core.cards import RANK_CODES, SUIT_CODES
from ..core.checks import check_int, check_progress, check_seed, shown
from ..core.numbers_es import thousands

BROWSER_DEALS = 10_000
"""The most decks the pure-Python simulation deals (the browser's sample)."""
BROWSER_COMPARED = 5_000
"""The most decks a pure-Python comparison deals."""
COLUMNS, ROUNDS = 8, 6
Z95 = 1.959963984540054
CARD_CODES: tuple[str, ...] = tuple(r + s for s in SUIT_CODES for r in RANK_CODES)
MAX_DEALS = 10_000_000

ProgressFn = Callable[[int, int], Any]


# =============================================================================== statistics
def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean with the normal-approximation 95 % interval, as `stats.mean_ci` on one column."""
    n = len(values)
    if not n:
        raise ValueError("values debe tener al menos un número")
    mean = sum(values) / n
    if n == 1:
        return mean, math.nan, math.nan
    half = z * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def ratio_ci(numerator: Sequence[float], denominator: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Σ numerator / Σ denominator with its delta-method interval, as `stats.ratio_ci`."""
    n, total = len(denominator), sum(denominator)
    if n == 0 or total == 0:
        raise ValueError("the denominator must not sum to 0")
    ratio = sum(numerator) / total
    if n == 1:
        return ratio, math.nan, math.nan
    residual = sum((y - ratio * x) ** 2 for y, x in zip(numerator, denominator, strict=True))
    half = z * math.sqrt(residual / (n * (n - 1))) / (total / n)
    return ratio, ratio - half, ratio + half


class Column(list):
    """One number per deal (a list), with the one array method the notebooks call: `mean`."""

    def mean(self) -> float:
        return sum(self) / len(self)

    def max(self) -> int:
        return max(self)


# =============================================================================== records
@dataclass(frozen=True)
class PureLayout:
    """`deal.Layout` as lists: ``lengths[d][c]`` is column T(c) of deal d."""

    lengths: list[tuple[int, ...]]

    @property
    def on_table(self) -> Column:
        return Column(sum(row) for row in self.lengths)

    @property
    def longest(self) -> Column:
        return Column(max(row) for row in self.lengths)

    @property
    def shortest(self) -> Column:
        return Column(min(row) for row in self.lengths)


@dataclass(frozen=True)
class PureResults:
    """`deal.StudyResults` as lists, and how many deals were asked for (`requested`)."""

    seed: int | None
    beleaguered: PureLayout
    after_deal: PureLayout
    citadel: PureLayout
    home_in_deal: Column
    autoplay_moved: Column
    decks: list[list[int]]
    requested: int

    @property
    def n(self) -> int:
        return len(self.home_in_deal)

    @property
    def fewer_on_table(self) -> Column:
        return Column(b - c for b, c in zip(self.beleaguered.on_table, self.citadel.on_table, strict=True))

    @property
    def foundation_cards(self) -> Column:
        return Column(4 + h + a for h, a in zip(self.home_in_deal, self.autoplay_moved, strict=True))

    def __repr__(self) -> str:
        return f"PureResults(n={self.n}, seed={self.seed}, requested={self.requested})"


def draw_decks(n: int, seed: int | None = 0) -> list[list[int]]:
    """The first `n` decks the pure-Python path deals for `seed` (card ids, first dealt first)."""
    n = check_int(n, "El número de repartos", 0, MAX_DEALS)
    rng = random.Random(None if seed is None else check_seed(seed, "La semilla (seed)"))
    decks = []
    for _ in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        decks.append(deck)
    return decks


def deck_codes(deck: Iterable[int]) -> list[str]:
    return [CARD_CODES[check_int(c, "Cada número de carta", 0, 51)] for c in deck]


def note(dealt: int, requested: int) -> str:
    """The Spanish sentence a page shows when the browser dealt fewer decks than asked."""
    return (
        f"En el navegador, sin servidor, esta cuenta reparte {thousands(dealt)} barajas en lugar de "
        f"{thousands(requested)}: las cifras y sus intervalos del 95 % son los de esa muestra, más anchos "
        "que en la versión con servidor."
    )


def _say(text: str) -> None:
    """Show `text` on the page when running in a notebook (no IPython: nothing)."""
    try:
        from IPython import get_ipython
        from IPython.display import Markdown, display
    except ImportError:  # pragma: no cover - IPython comes with every notebook
        return
    if get_ipython() is not None:
        display(Markdown(f"*{text}*"))


def _sample(n: int, cap: int) -> int:
    if n > cap:
        _say(note(cap, n))
    return min(n, cap)


# =============================================================================== the Citadel study
@dataclass(frozen=True)
class ColumnGap:
    """The column with the most cards on average, the one with the fewest, and how far apart
    they are: the paired mean difference per deal with its 95 % interval."""

    longest: int
    """Index of the column with the most cards on average (0 = Tablero 1)."""
    shortest: int
    """Index of the column with the fewest cards on average."""
    lengths: tuple[tuple[float, float, float], ...]
    """Each column's mean length as (mean, low, high)."""
    difference: tuple[float, float, float]
    """Mean of (longest − shortest) per deal, with its interval."""


def deal_decks(decks: Iterable[Sequence[int]], seed: int | None = None, requested: int | None = None) -> PureResults:
    """Deal each deck as Citadel through the engine and record what `simulate` records
    (Beleaguered Castle needs no dealing: its eight columns keep six cards, CB-8)."""
    from ..engine import new_game

    after, cit, home, auto, kept = [], [], Column(), Column(), []
    for deck in decks:
        game = new_game("citadel", deck=deck_codes(deck))
        report = game.deal_report
        assert report is not None  # Citadel always reports its deal
        lost = [0] * COLUMNS
        for pile in report.meant_for:
            lost[int(pile[1:])] += 1
        after.append(tuple(ROUNDS - k for k in lost))
        cit.append(tuple(len(game.pile(f"T{c}")) for c in range(COLUMNS)))
        home.append(len(report.to_foundations))
        auto.append(len(report.autoplay))
        kept.append(list(deck))
    n = len(home)
    return PureResults(seed, PureLayout([(ROUNDS,) * COLUMNS] * n), PureLayout(after), PureLayout(cit),
                       home, auto, kept, n if requested is None else requested)


def simulate(
    n: int,
    seed: int | None = 0,
    progress: ProgressFn | Literal[False] | None = None,
    *,
    chunk: int = 500,
    keep_decks: int = 1000,
) -> PureResults:
    """`study.simulate` without NumPy: at most `BROWSER_DEALS` decks (the page says so)."""
    n = check_int(n, "El número de repartos", 1, MAX_DEALS)
    chunk = check_int(chunk, "chunk", 1, MAX_DEALS)
    keep_decks = check_int(keep_decks, "keep_decks", 0, MAX_DEALS)
    report = check_progress(progress, "progress(hechos, total)", "Repartos")
    seed = None if seed is None else check_seed(seed, "La semilla (seed)")
    dealt = _sample(n, BROWSER_DEALS)
    decks = draw_decks(dealt, seed)
    parts = []
    for start in range(0, dealt, chunk):
        parts.append(deal_decks(decks[start : start + chunk]))
        if report is not None:
            report(min(start + chunk, dealt), dealt)

    def joined(name: str) -> PureLayout:
        return PureLayout([row for p in parts for row in getattr(p, name).lengths])

    return PureResults(
        seed, joined("beleaguered"), joined("after_deal"), joined("citadel"),
        Column(v for p in parts for v in p.home_in_deal), Column(v for p in parts for v in p.autoplay_moved),
        decks[:keep_decks], n,
    )


def summary_columns(results: Any) -> dict[str, Any]:
    """The per-deal columns `summary` reports, by key, from either path's results (the NumPy
    `StudyResults` and `PureResults` name their columns alike)."""
    return {
        "on_table_bc": results.beleaguered.on_table,
        "on_table_after_deal": results.after_deal.on_table,
        "on_table": results.citadel.on_table,
        "fewer_on_table": results.fewer_on_table,
        "home_in_deal": results.home_in_deal,
        "autoplay_moved": results.autoplay_moved,
        "longest": results.citadel.longest,
        "shortest": results.citadel.shortest,
    }


def summary(results: PureResults) -> dict[str, tuple[float, float, float]]:
    """`study.summary` of pure-Python results."""
    if not isinstance(results, PureResults):
        raise ValueError(f"summary necesita los resultados de simulate, no {shown(results)}")
    figures = summary_columns(results)
    return {k: mean_ci(v) for k, v in figures.items()}


def column_shortening(layout: PureLayout) -> dict[str, tuple[float, float, float]]:
    """`study.column_shortening` of a pure-Python layout."""
    lost = [[ROUNDS - k for k in row] for row in layout.lengths]
    shortened = [sum(x > 0 for x in row) for row in lost]
    return {
        "columns_shortened": mean_ci(shortened),
        "cards_per_shortened_column": ratio_ci([sum(row) for row in lost], shortened),
        "share_losing_one": ratio_ci([sum(x == 1 for x in row) for row in lost], shortened),
        "columns_with_six": mean_ci([sum(x == 0 for x in row) for row in lost]),
        "longest_keeps_six": mean_ci([float(v == ROUNDS) for v in layout.longest]),
    }


def column_gap(layout: PureLayout) -> Any:
    """`study.column_gap` of a pure-Python layout (the same `ColumnGap` record)."""
    columns = list(zip(*layout.lengths, strict=True))
    per_column = tuple(mean_ci(c) for c in columns)
    means = [m for m, _, _ in per_column]
    longest, shortest = means.index(max(means)), means.index(min(means))
    diff = mean_ci([row[longest] - row[shortest] for row in layout.lengths])
    return ColumnGap(longest, shortest, per_column, diff)


# =============================================================================== checks a page shows
def value_counts(values: Iterable[Any], size: int) -> list[int]:
    """How many of `values` are 0, 1, …, size − 1 (NumPy's ``bincount``, for both paths)."""
    size = check_int(size, "size", 1, 10_000)
    counts = [0] * size
    for v in values:
        if 0 <= int(v) < size:
            counts[int(v)] += 1
    return counts


def same_deals(decks: Sequence[Sequence[int]]) -> bool:
    """Whether the simulation's dealer and the rules engine record the same deals for `decks`.
    Without NumPy the simulation's dealer is the engine (`deal_decks` here), so they agree."""
    records = deal_decks(decks)
    return records.citadel.lengths == deal_decks([list(d) for d in decks]).citadel.lengths
