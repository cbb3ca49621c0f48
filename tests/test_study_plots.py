"""Plots of the Citadel versus Beleaguered Castle study: each returns its figure, draws into a
given Axes, and speaks Spanish (titles, axes, legends)."""

from __future__ import annotations

import pytest

matplotlib = pytest.importorskip("matplotlib")  # the plots need the notebook extra
matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from solitaire_nb import study  # noqa: E402
from solitaire_nb.study import plots as study_plots  # noqa: E402

ONE_AXES = [
    study_plots.plot_cards_on_table,
    study_plots.plot_column_lengths,
    study_plots.plot_cards_home,
    study_plots.plot_longest_column,
    study_plots.plot_length_counts,
    lambda r, ax=None: study_plots.plot_extreme_column(r, ax, which="shortest"),
]
ENGLISH = ("deal", "cards", "column", "length", "mean", "exact", "simulation", "probability", "share", "after")


@pytest.fixture(scope="module")
def results() -> study.StudyResults:
    return study.simulate(5000, seed=3, keep_decks=50)


def texts(fig: Figure) -> list[str]:
    out = [fig._suptitle.get_text()] if fig._suptitle else []
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        legend = ax.get_legend()
        if legend:
            out += [t.get_text() for t in legend.get_texts()]
    return [t for t in out if t]


@pytest.mark.parametrize("plot", ONE_AXES)
def test_plot_returns_its_figure_in_spanish(plot, results):
    fig = plot(results)
    try:
        assert isinstance(fig, Figure)
        words = " ".join(texts(fig)).lower()
        assert fig.axes[0].get_title() and fig.axes[0].get_ylabel()
        assert not [w for w in ENGLISH if w in words.split()], words
        assert fig.axes[0].get_title().split()[0] in {"Cartas", "Longitud", "La", "¿Cuántas"}
    finally:
        plt.close(fig)


@pytest.mark.parametrize("plot", ONE_AXES)
def test_plot_draws_into_a_given_axes(plot, results):
    fig, (left, right) = plt.subplots(1, 2)
    try:
        assert plot(results, ax=right) is fig
        assert right.has_data() and not left.has_data()
    finally:
        plt.close(fig)


def test_typical_deal_picture(results):
    fig = study_plots.plot_typical_deal(results)
    try:
        words = texts(fig)
        assert "El mismo reparto en los dos juegos" in words[0]
        assert words[1] == "Beleaguered Castle: 48 cartas en la mesa"
        i = results.typical_deal()
        assert words[2] == f"Citadel: {results.citadel.on_table[i]} cartas en la mesa"
        bases = [t.get_text() for t in fig.axes[1].texts if t.get_text().startswith("Base ")]
        assert [b.split(":")[0] for b in bases] == ["Base 1", "Base 2", "Base 3", "Base 4"]
        assert sum(int(b.split(": ")[1]) for b in bases) == results.foundation_cards[i]
    finally:
        plt.close(fig)
    fig, axes = plt.subplots(1, 2)
    try:
        assert study_plots.plot_typical_deal(results, index=0, axes=axes) is fig
    finally:
        plt.close(fig)


def test_plot_all(results):
    figs = study_plots.plot_all(results)
    try:
        assert len(figs) == 7 and all(isinstance(f, Figure) for f in figs)
    finally:
        for f in figs:
            plt.close(f)


def test_column_lengths_axis_starts_at_zero(results):
    """The columns differ by a fraction of a card: the axis must not magnify that."""
    fig = study_plots.plot_column_lengths(results)
    try:
        low, high = fig.axes[0].get_ylim()
        assert low == 0 and high >= 6
    finally:
        plt.close(fig)
