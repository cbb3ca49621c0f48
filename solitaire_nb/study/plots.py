"""Plots of the Citadel versus Beleaguered Castle study (matplotlib is imported only here).

Every function takes the `study.StudyResults` of `study.simulate` (and optionally a matplotlib
Axes to draw into) and returns the figure.  Titles, axes and legends are in Spanish, with large
fonts so that they read on a classroom projector.  Global rcParams are left alone.
"""

from __future__ import annotations

from typing import Literal

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch
from matplotlib.ticker import ScalarFormatter

from ..core.numbers_es import comma_ticks, percent, thousands
from . import citadel as study
from .citadel import COLUMNS, ROUNDS, StudyResults
from .svg_plots import AFTER_DEAL, BELEAGUERED, CITADEL, COLUMN_NAMES, EXACT  # one palette, both drawings

TITLE, LABEL, TICKS, LEGEND = 18, 16, 14, 13


class _CommaFormatter(ScalarFormatter):
    """Tick labels with a decimal comma, as Spanish writes numbers (0,25 rather than 0.25)."""

    def __call__(self, x: float, pos: int | None = None) -> str:
        return comma_ticks(super().__call__(x, pos))


def new_axes(ax: Axes | None, size: tuple[float, float] = (10, 6)) -> tuple[Figure, Axes]:
    """`ax` and its figure, or a new figure of `size` inches with one Axes."""
    if ax is not None:
        return figure_of(ax), ax
    fig, ax = plt.subplots(figsize=size, layout="constrained")
    return fig, ax


def figure_of(ax: Axes) -> Figure:
    """The whole figure `ax` is drawn in (the top-level one when `ax` lies in a subfigure)."""
    fig = ax.figure
    return fig if isinstance(fig, Figure) else fig.figure


def style_axes(ax: Axes, title: str, xlabel: str, ylabel: str) -> None:
    """The study's look: large Spanish title and labels, decimal commas, a light grid."""
    ax.set_title(title, fontsize=TITLE)
    ax.set_xlabel(xlabel, fontsize=LABEL)
    ax.set_ylabel(ylabel, fontsize=LABEL)
    ax.tick_params(labelsize=TICKS)
    ax.yaxis.set_major_formatter(_CommaFormatter())
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)


def _n(results: StudyResults) -> str:
    return thousands(results.n)


def _shares(values: np.ndarray, size: int) -> np.ndarray:
    return np.bincount(values.astype(np.intp), minlength=size)[:size] / len(values)


def plot_cards_on_table(results: StudyResults, ax: Axes | None = None) -> Figure:
    """How many cards stay on the table: Citadel (after the deal, after the autoplay) against
    Beleaguered Castle, which always leaves 48."""
    fig, ax = new_axes(ax)
    x = np.arange(49)
    ax.bar(x, _shares(results.citadel.on_table, 49), width=0.8, color=CITADEL,
           label="Citadel, tras el juego automático")
    ax.step(x, _shares(results.after_deal.on_table, 49), where="mid", color=AFTER_DEAL, lw=2.5,
            label="Citadel, tras el reparto")
    ax.axvline(48, color=BELEAGUERED, lw=4, label="Beleaguered Castle (siempre 48)")
    shares = _shares(results.citadel.on_table, 49)
    low = int(np.nonzero(shares >= 1e-3)[0].min())  # hide the far tail nobody can see
    ax.set_xlim(low - 1.5, 49)
    style_axes(ax, f"Cartas que quedan en la mesa ({_n(results)} repartos)", "Cartas en la mesa",
           "Proporción de repartos")
    ax.legend(fontsize=LEGEND, loc="upper left")
    return fig


def plot_column_lengths(results: StudyResults, ax: Axes | None = None) -> Figure:
    """Mean length of each column with its 95 % confidence band, next to the exact value (after
    the deal) and Beleaguered Castle's six.  The y axis starts at 0."""
    fig, ax = new_axes(ax)
    x = np.arange(COLUMNS)
    ax.axhline(ROUNDS, color=BELEAGUERED, lw=3, label="Beleaguered Castle (siempre 6)")
    for layout, color, name in ((results.after_deal, AFTER_DEAL, "Citadel, tras el reparto"),
                                (results.citadel, CITADEL, "Citadel, tras el juego automático")):
        mean, low, high = study.mean_ci(layout.lengths)
        ax.fill_between(x, low, high, color=color, alpha=0.35, lw=0)
        ax.plot(x, mean, "o-", color=color, lw=2.5, ms=8, label=f"{name} (media e intervalo del 95 %)")
    ax.plot(x, study.expected_column_lengths(), "_", color=EXACT, ms=28, mew=3,
            label="Exacto, tras el reparto")
    ax.set_xticks(x, COLUMN_NAMES, rotation=30)
    # From 0: the columns differ by a tenth of a card, and a cut axis would make that look big.
    ax.set_ylim(0, ROUNDS + 0.6)
    style_axes(ax, f"Longitud media de cada columna ({_n(results)} repartos)", "",
           "Cartas en la columna")
    ax.legend(fontsize=LEGEND, loc="lower center")
    return fig


def plot_cards_home(results: StudyResults, ax: Axes | None = None) -> Figure:
    """Cards Citadel's deal sends home: the simulation's shares against the exact law."""
    fig, ax = new_axes(ax)
    exact = study.cards_home_distribution()
    top = int(max(results.home_in_deal.max(), np.nonzero(exact > 1e-4)[0].max())) + 1
    x = np.arange(top + 1)
    ax.bar(x, _shares(results.home_in_deal, top + 1), width=0.8, color=CITADEL, alpha=0.8,
           label=f"Simulación ({_n(results)} repartos)")
    ax.plot(x, exact[: top + 1], "o", color=EXACT, ms=9, label="Probabilidad exacta")
    ax.set_xlim(2.5, top + 0.5)
    style_axes(ax, "Cartas que van a la base durante el reparto: exacto y simulado",
           "Cartas a la base durante el reparto", "Probabilidad")
    ax.legend(fontsize=LEGEND)
    return fig


def _three_layouts(results: StudyResults) -> tuple:
    """The three ways a deck lies after the deal, with their colour and Spanish legend."""
    return (
        (results.beleaguered, BELEAGUERED, "Beleaguered Castle"),
        (results.after_deal, AFTER_DEAL, "Citadel, tras el reparto"),
        (results.citadel, CITADEL, "Citadel, tras el juego automático"),
    )


def plot_extreme_column(
    results: StudyResults, ax: Axes | None = None, which: Literal["longest", "shortest"] = "longest"
) -> Figure:
    """Distribution of the longest (or shortest) column, Citadel against Beleaguered Castle."""
    fig, ax = new_axes(ax)
    word = "más larga" if which == "longest" else "más corta"
    x = np.arange(ROUNDS + 1)
    w = 0.27
    for k, (layout, color, name) in enumerate(_three_layouts(results)):
        values = layout.longest if which == "longest" else layout.shortest
        bars = ax.bar(x + (k - 1) * w, _shares(values, ROUNDS + 1), width=w, color=color, label=name)
        if layout is results.citadel:  # percentages on Citadel's final bars, where readable
            labels = [percent(b.get_height(), 1) if b.get_height() >= 0.005 else "" for b in bars]
            ax.bar_label(bars, labels, fontsize=TICKS - 2, padding=2)
    ax.set_xticks(x)
    ax.set_ylim(0, 1.08)
    style_axes(ax, f"La columna {word} de cada reparto ({_n(results)} repartos)",
           f"Cartas en la columna {word}", "Proporción de repartos")
    ax.legend(fontsize=LEGEND, loc="upper left")
    return fig


def plot_longest_column(results: StudyResults, ax: Axes | None = None) -> Figure:
    """Distribution of the longest column (see `plot_extreme_column`)."""
    return plot_extreme_column(results, ax, "longest")


def plot_length_counts(results: StudyResults, ax: Axes | None = None) -> Figure:
    """How many of the eight columns have 0, 1, …, 6 cards, on average."""
    fig, ax = new_axes(ax)
    x = np.arange(ROUNDS + 1)
    w = 0.27
    for k, (layout, color, name) in enumerate(_three_layouts(results)):
        ax.bar(x + (k - 1) * w, layout.length_counts.mean(axis=0), width=w, color=color, label=name)
    ax.set_xticks(x)
    style_axes(ax, "¿Cuántas columnas tienen cada longitud?", "Cartas en la columna",
           "Columnas por reparto (media)")
    ax.legend(fontsize=LEGEND, loc="upper left")
    return fig


# ----------------------------------------------------------------------------- one deal, drawn
def _draw_card(ax: Axes, x: float, y: float, card, home: bool = False) -> None:
    color = "#c0392b" if card.is_red else "#111111"
    face = "#fdf3d8" if home else "white"
    ax.add_patch(FancyBboxPatch((x - 0.42, y - 0.3), 0.84, 0.6, boxstyle="round,pad=0.02",
                                fc=face, ec="#555555", lw=1.2))
    ax.text(x, y, str(card), ha="center", va="center", fontsize=TICKS, color=color, fontweight="bold")


def _draw_game(ax: Axes, game, title: str) -> None:
    """Foundations on top (their top card and how many cards they hold), columns below."""
    found = [p for p in game.pile_ids if p.startswith("F")]
    for i, pid in enumerate(found):
        pile = game.pile(pid)
        _draw_card(ax, i + 2, 1.2, pile[-1], home=True)
        ax.text(i + 2, 1.75, f"{game.label(pid)}: {len(pile)}", ha="center", fontsize=TICKS - 2)
    for c in range(COLUMNS):
        pile = game.pile(f"T{c}")
        ax.text(c, -0.05, str(c + 1), ha="center", fontsize=TICKS - 1, color="#555555")
        for r, card in enumerate(pile):
            _draw_card(ax, c, -0.55 - 0.55 * r, card)
    on_table = sum(len(game.pile(f"T{c}")) for c in range(COLUMNS))
    ax.set_title(f"{title}: {on_table} cartas en la mesa", fontsize=TITLE - 2)
    ax.set_xlim(-0.6, COLUMNS - 0.4)
    ax.set_ylim(-0.55 - 0.55 * (ROUNDS - 1) - 0.45, 2.1)
    ax.set_aspect("equal")
    ax.axis("off")


def plot_typical_deal(results: StudyResults, index: int | None = None, axes: tuple[Axes, Axes] | None = None) -> Figure:
    """One kept deck dealt both ways, side by side (by default a deal with the median number of
    cards left on Citadel's table).  Foundations on top, columns ("Tablero 1"…) below."""
    i = results.typical_deal() if index is None else index
    games = study.deal_games(study.deck_codes(results.decks[i]))
    if axes is None:
        fig, axes = plt.subplots(1, 2, figsize=(16, 7), layout="constrained")
    else:
        fig = figure_of(axes[0])
    _draw_game(axes[0], games["beleaguered"], "Beleaguered Castle")
    _draw_game(axes[1], games["citadel"], "Citadel")
    fig.suptitle(f"El mismo reparto en los dos juegos (reparto {i + 1} de la simulación)", fontsize=TITLE)
    return fig


def plot_all(results: StudyResults) -> list[Figure]:
    """Every plot of the study, in the notebook's order."""
    return [
        plot_typical_deal(results),
        plot_cards_on_table(results),
        plot_column_lengths(results),
        plot_cards_home(results),
        plot_longest_column(results),
        plot_extreme_column(results, which="shortest"),
        plot_length_counts(results),
    ]
