"""Plots of a `compare.Comparison` (matplotlib is imported only here and in `study.plots`).

Every function takes the comparison (and optionally a matplotlib Axes to draw into) and returns
the figure; nothing is shown.  Titles, axes and legends are in Spanish with decimal commas, in
the large type of `study.plots` so that they read on a classroom projector.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..core.checks import shown
from ..core.numbers_es import decimal, thousands
from .comparison import FIGURES, Comparison
from .plots import LEGEND, TICKS, _CommaFormatter, _shares, new_axes, style_axes
from .svg_comparison_plots import COLOR_A, COLOR_B, DIFFERENCE, column_legend  # one palette and legend, both drawings


def _n(comparison: Comparison) -> str:
    return thousands(comparison.n)


def _integer_x(ax: Axes) -> None:
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_formatter(_CommaFormatter())


def plot_on_table(comparison: Comparison, ax: Axes | None = None, after_autoplay: bool = True) -> Figure:
    """How many cards each game leaves on the table, deal by deal on the same decks: the share
    of deals with each count, side by side (after the automatic moves, or right after the deal)."""
    fig, ax = new_axes(ax)
    key = "on_table" if after_autoplay else "on_table_after_deal"
    values = [comparison.a.deal.on_table, comparison.b.deal.on_table] if after_autoplay else [
        comparison.a.deal.on_table_after_deal, comparison.b.deal.on_table_after_deal]
    x = np.arange(53)
    for shift, side, color, v in ((-0.2, comparison.a, COLOR_A, values[0]), (0.2, comparison.b, COLOR_B, values[1])):
        mean = side.figures[key][0]
        ax.bar(x + shift, _shares(v, 53), width=0.4, color=color, label=f"{side.name} (media {decimal(mean)})")
    both = _shares(values[0], 53) + _shares(values[1], 53)
    seen = np.nonzero(both >= 1e-3)[0]  # hide the far tails nobody can see
    ax.set_xlim(seen.min() - 1.5, seen.max() + 1.5)
    moment = "tras el juego automático" if after_autoplay else "tras el reparto"
    style_axes(ax, f"Cartas que quedan en la mesa {moment} ({_n(comparison)} repartos)",
           "Cartas en el tablero", "Proporción de repartos")
    ax.legend(fontsize=LEGEND, loc="upper left")
    return fig


def plot_column_lengths(comparison: Comparison, ax: Axes | None = None) -> Figure:
    """Each pile's mean length after the automatic moves, with its 95 % band, for both games.
    The y axis starts at 0, so a small difference looks small."""
    fig, ax = new_axes(ax)
    top = 0.0
    for side, color in ((comparison.a, COLOR_A), (comparison.b, COLOR_B)):
        mean, low, high = (np.array(v) for v in zip(*side.columns, strict=True))
        x = np.arange(1, len(mean) + 1)
        ax.fill_between(x, low, high, color=color, alpha=0.3, lw=0)
        ax.plot(x, mean, "o-", color=color, lw=2.5, ms=7, label=column_legend(side))
        top = max(top, float(high.max()))
    columns = max(len(comparison.a.columns), len(comparison.b.columns))
    ax.set_xticks(np.arange(1, columns + 1))
    ax.set_ylim(0, top * 1.25 + 0.5)
    style_axes(ax, f"{comparison.lengths_title} ({_n(comparison)} repartos)", comparison.pile_word,
           comparison.length_axis)
    ax.legend(fontsize=LEGEND, loc="lower center")
    return fig


def plot_difference(comparison: Comparison, key: str = "on_table", ax: Axes | None = None) -> Figure:
    """The paired difference a − b of one measure, deal by deal: how often each difference
    happens, its mean and the mean's 95 % interval."""
    if key not in FIGURES:
        raise ValueError(f"No hay ninguna medida llamada {shown(key)} (medidas: {', '.join(FIGURES)})")
    fig, ax = new_axes(ax)
    diff = comparison.difference(key)
    low_value, high_value = int(diff.min()), int(diff.max())
    x = np.arange(low_value, high_value + 1)
    ax.bar(x, np.bincount(diff - low_value, minlength=len(x)) / len(diff), width=0.8, color=DIFFERENCE,
           alpha=0.75, label="Proporción de repartos")
    mean, low, high = comparison.differences[key]
    # the interval in the mean's words: its band is often too narrow to see, so it has no key of its own
    ax.axvspan(low, high, color="#111111", alpha=0.4, lw=0)
    ax.axvline(mean, color="#111111", lw=2.5, label=f"Media: {decimal(mean)}, con su intervalo del 95 % (de {decimal(low)} a "
               f"{decimal(high)})")
    ax.axvline(0, color="#888888", lw=1.5, ls="--", label="Sin diferencia")
    _integer_x(ax)
    a, b = comparison.a.name, comparison.b.name
    name = comparison.figure_names()[key]
    # two lines: on one, the longest figure's name ran past the plot's edges
    style_axes(ax, f"La diferencia, reparto a reparto:\n{name[:1].lower()}{name[1:]}",
           f"{a} − {b}", "Proporción de repartos")
    # the legend goes under the plot: inside, it covered the line at 0 when every difference is 0
    ax.set_ylim(0, 1.1 * ax.get_ylim()[1])
    ax.legend(fontsize=LEGEND, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
    return fig


def plot_comparison(comparison: Comparison) -> Figure:
    """The three plots in one figure: cards on the table, the piles' lengths, the difference."""
    fig = plt.figure(figsize=(15, 11), layout="constrained")
    grid = fig.add_gridspec(2, 2)
    plot_on_table(comparison, fig.add_subplot(grid[0, 0]))
    plot_column_lengths(comparison, fig.add_subplot(grid[0, 1]))
    plot_difference(comparison, "on_table", fig.add_subplot(grid[1, :]))
    for ax in fig.axes:
        ax.title.set_fontsize(TICKS + 2)
    fig.suptitle(f"{comparison.a.name} frente a {comparison.b.name}", fontsize=TICKS + 6)
    return fig


def close(figure: Figure) -> None:
    """Let go of a figure already shown (pyplot keeps each one until it is closed)."""
    plt.close(figure)
