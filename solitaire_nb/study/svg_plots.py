"""The Citadel study's plots drawn as SVG (`svg.Chart`), for where matplotlib is absent: the
same names, arguments, titles and colours as `study.plots` (which takes its colours from here),
for pure-Python results (`study.pure`) or NumPy ones.  ``from solitaire_nb.study import plots``
gives this module when matplotlib is missing (`study.HAVE_MATPLOTLIB`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.numbers_es import thousands
from .exact import COLUMNS, ROUNDS, cards_home_distribution, expected_column_lengths
from .pure import mean_ci
from .svg import Chart

CITADEL = "#c0392b"
AFTER_DEAL = "#e6a09a"
BELEAGUERED = "#2e6da4"
EXACT = "#111111"
COLUMN_NAMES = [f"Tablero {c + 1}" for c in range(COLUMNS)]


def shares(values: Iterable[Any], size: int) -> list[float]:
    """The share of values equal to 0, 1, …, size − 1 (a NumPy-free bincount / n)."""
    counts = [0] * size
    n = 0
    for v in values:
        n += 1
        if 0 <= int(v) < size:
            counts[int(v)] += 1
    return [c / n for c in counts] if n else [0.0] * size


def plot_cards_on_table(results: Any, ax: None = None) -> Chart:
    """How many cards stay on the table: Citadel (after the deal, after the autoplay) against
    Beleaguered Castle, which always leaves 48."""
    final = shares(results.citadel.on_table, 49)
    low = min(k for k, s in enumerate(final) if s >= 1e-3)  # hide the far tail nobody can see
    chart = Chart(f"Cartas que quedan en la mesa ({thousands(results.n)} repartos)", "Cartas en el tablero",
                  "Proporción de repartos", (low - 1.5, 49), (0, max(final) * 1.15))
    x = list(range(49))
    chart.bars(x, final, CITADEL, "Citadel, tras el juego automático")
    chart.line(x, shares(results.after_deal.on_table, 49), AFTER_DEAL, "Citadel, tras el reparto", points=False)
    chart.vline(48, BELEAGUERED, "Beleaguered Castle (siempre 48)", width=4)
    return chart


def plot_column_lengths(results: Any, ax: None = None) -> Chart:
    """Mean length of each column with its 95 % band, next to the exact value (after the deal)
    and Beleaguered Castle's six.  The y axis starts at 0."""
    chart = Chart(f"Longitud media de cada columna ({thousands(results.n)} repartos)", "Tablero", "Cartas en la columna",
                  (-0.5, COLUMNS - 0.5), (0, ROUNDS + 0.6))
    chart.xticks = [(c, str(c + 1)) for c in range(COLUMNS)]  # numbered under the axis title: «Tablero 1…8» would overlap on a phone
    x = list(range(COLUMNS))
    chart.hline(ROUNDS, BELEAGUERED, "Beleaguered Castle (siempre 6)")
    for layout, color, name in ((results.after_deal, AFTER_DEAL, "Citadel, tras el reparto"),
                                (results.citadel, CITADEL, "Citadel, tras el juego automático")):
        rows = [tuple(int(v) for v in row) for row in layout.lengths]
        figures = [mean_ci([float(r[c]) for r in rows]) for c in x]
        chart.band(x, [f[1] for f in figures], [f[2] for f in figures], color)
        chart.line(x, [f[0] for f in figures], color, f"{name} (media e intervalo del 95 %)")
    chart.line(x, [float(v) for v in expected_column_lengths()], EXACT, "Exacto, tras el reparto", lines=False)
    return chart


def plot_cards_home(results: Any, ax: None = None) -> Chart:
    """Cards Citadel's deal sends home: the simulation's shares against the exact law."""
    exact = [float(p) for p in cards_home_distribution()]
    top = max(max(int(v) for v in results.home_in_deal), max(k for k, p in enumerate(exact) if p > 1e-4)) + 1
    simulated = shares(results.home_in_deal, top + 1)
    chart = Chart("Cartas que van a la base durante el reparto: exacto y simulado",
                  "Cartas a la base durante el reparto", "Probabilidad", (2.5, top + 0.5),
                  (0, max(simulated + exact[: top + 1]) * 1.15))
    x = list(range(top + 1))
    chart.bars(x, simulated, CITADEL, f"Simulación ({thousands(results.n)} repartos)", opacity=0.8)
    chart.line(x, exact[: top + 1], EXACT, "Probabilidad exacta", lines=False)
    return chart
