"""A comparison's plots drawn as SVG (`svg.Chart`), for where matplotlib is absent: the same
names, arguments, titles and colours as `study.comparison_plots` (which takes its colours from
here).  ``from solitaire_nb.study import comparison_plots`` gives this module when matplotlib is
missing (`study.HAVE_MATPLOTLIB`)."""

from __future__ import annotations

from ..core.checks import shown
from ..core.numbers_es import decimal, decimal_down, decimal_up, thousands
from ..core.texts import capitalize
from .compared import FIGURES, Comparison, GameStats
from .svg import Chart

COLOR_A = "#2e6da4"
COLOR_B = "#c0392b"
DIFFERENCE = "#6c3483"


def column_legend(side: GameStats) -> str:
    """A game's line in the column-length plot: «Tu juego (media e intervalo del 95 %)», or, when
    every deal gives each column as many cards, «… (siempre el mismo número de cartas)» (no band to see)."""
    spread = any(high - low > 1e-9 for _, low, high in side.columns)
    what = "media e intervalo del 95 %" if spread else "siempre el mismo número de cartas"
    return f"{capitalize(side.name)} ({what})"


def plot_column_lengths(comparison: Comparison, ax: None = None) -> Chart:
    """Each pile's mean length after the automatic moves, with its 95 % band, for both games.
    The y axis starts at 0, so a small difference looks small."""
    columns = max(len(comparison.a.columns), len(comparison.b.columns))
    top = max(high for side in (comparison.a, comparison.b) for _, _, high in side.columns)
    chart = Chart(f"{comparison.lengths_title} ({thousands(comparison.n)} repartos)", comparison.pile_word,
                  comparison.length_axis, (0.5, columns + 0.5), (0, top * 1.25 + 0.5))
    chart.xticks = [(c, str(c)) for c in range(1, columns + 1)]
    for side, color in ((comparison.a, COLOR_A), (comparison.b, COLOR_B)):
        x = list(range(1, len(side.columns) + 1))
        chart.band(x, [lo for _, lo, _ in side.columns], [hi for _, _, hi in side.columns], color)
        chart.line(x, [m for m, _, _ in side.columns], color, column_legend(side))
    return chart


def plot_difference(comparison: Comparison, key: str = "on_table", ax: None = None) -> Chart:
    """The paired difference a − b of one measure, deal by deal: how often each difference
    happens, its mean and the mean's 95 % interval."""
    if key not in FIGURES:
        raise ValueError(f"No hay ninguna medida llamada {shown(key)} (medidas: {', '.join(FIGURES)})")
    diff = [int(v) for v in comparison.difference(key)]
    lo, hi = min(diff), max(diff)
    x = list(range(lo, hi + 1))
    counts = [0] * len(x)
    for v in diff:
        counts[v - lo] += 1
    share = [c / len(diff) for c in counts]
    mean, low, high = comparison.differences[key]
    a, b = comparison.a.name, comparison.b.name
    name = comparison.figure_names()[key]
    chart = Chart(f"La diferencia, reparto a reparto: {name[:1].lower()}{name[1:]}",
                  f"{a} − {b}", "Proporción de repartos", (min(lo, 0) - 1, max(hi, 0) + 1), (0, max(share) * 1.15))
    chart.bars(x, share, DIFFERENCE, "Proporción de repartos", opacity=0.75)
    # the interval in the mean's words: its band is often too narrow to see, so it has no key of its own
    chart.vspan(low, high, "#111111")
    chart.vline(mean, "#111111", f"Media: {decimal(mean)}, con su intervalo del 95 % (de {decimal_down(low)} a "
                f"{decimal_up(high)})", width=2.5)
    chart.vline(0, "#888888", "Sin diferencia", width=1.5, dash="6 4")
    return chart


def close(figure: Chart) -> None:
    """Let the chart go: it is not shown at the cell's end, as a closed matplotlib figure is not
    (`comparison_plots.close`)."""
    figure.shown = True
