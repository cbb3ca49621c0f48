"""compare(a, b, n, seed): two games of the one-deck open family on the same decks.  It
reproduces notebook 06's figures for Beleaguered Castle against Citadel, pairs the deals,
accepts names and definitions (composed ones included) and refuses the rest in Spanish; its
summary and plots speak Spanish."""

from __future__ import annotations

import dataclasses
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import solitaire_nb as sn  # noqa: E402
from solitaire_nb import study
from solitaire_nb.study import comparison_plots as compare_plots
from solitaire_nb.study.comparison import FIGURES, Comparison, compare, per_deal

NOTEBOOK_N, NOTEBOOK_SEED = 50_000, 2026  # notebook 06's N and SEMILLA


@dataclasses.dataclass(frozen=True)
class Composed:
    """What a composed game looks like from outside: a definition whose rules are data."""

    rules: object
    display_name: str = "Mi juego"
    decks: int = 1
    tableau_label: str = "Tablero"

    def rules_for(self, variant=None):
        return self.rules


@pytest.fixture(scope="module")
def castle_citadel() -> Comparison:
    return compare("beleaguered_castle", "citadel", n=NOTEBOOK_N, seed=NOTEBOOK_SEED)


@pytest.fixture(scope="module")
def small() -> Comparison:
    return compare(sn.GAMES["bakers_dozen"], "bakers_dozen", n=3000, seed=5, variant_b={"kings_to_bottom": False})


# ----------------------------------------------------------------------------- notebook 06
@pytest.mark.rule("CB-2")
@pytest.mark.rule("CB-7")
def test_castle_against_citadel_reproduces_notebook_06(castle_citadel):
    """The same figures, to the last bit, as the study the notebook runs."""
    results = study.simulate(NOTEBOOK_N, seed=NOTEBOOK_SEED)
    summary = study.summary(results)
    c = castle_citadel
    assert c.a.figures["on_table"] == summary["on_table_bc"]
    for ours, theirs in [("on_table_after_deal", "on_table_after_deal"), ("on_table", "on_table"),
                         ("home_in_deal", "home_in_deal"), ("autoplay_moved", "autoplay_moved"),
                         ("longest", "longest"), ("shortest", "shortest")]:
        assert c.b.figures[ours] == summary[theirs], ours
    assert c.differences["on_table"] == summary["fewer_on_table"]
    assert study.column_gap(c.b.layout) == study.column_gap(results.citadel)
    assert study.column_shortening(c.b.layout) == study.column_shortening(results.citadel)
    assert c.b.columns == study.column_gap(results.citadel).lengths
    np.testing.assert_array_equal(c.decks, study.draw_decks(NOTEBOOK_N, NOTEBOOK_SEED))
    assert c.a.figures["home_in_deal"] == (0.0, 0.0, 0.0)
    assert c.a.columns == ((6.0, 6.0, 6.0),) * 8


def test_the_summary_reads_like_the_notebook(castle_citadel):
    text = castle_citadel.text()
    assert text.startswith("Beleaguered Castle frente a Citadel: 50.000 repartos de barajas al azar (tanda n.º 2026, siempre la misma)")
    mean, low, high = castle_citadel.differences["on_table"]
    assert f"{mean:.2f}".replace(".", ",") in castle_citadel.headline()
    assert castle_citadel.headline().startswith("Beleaguered Castle deja más cartas en la mesa que Citadel: ")
    reverse = compare("citadel", "beleaguered_castle", n=300)
    assert reverse.headline().startswith("Citadel deja menos cartas en la mesa que Beleaguered Castle: ")
    assert "−" not in reverse.headline()
    assert "48 (siempre)" in text


# ----------------------------------------------------------------------------- pairing
def test_differences_are_paired_deal_by_deal(small):
    for key in FIGURES:
        diff = small.difference(key)
        np.testing.assert_array_equal(diff, per_deal(small.a.deal, key).astype(int) - per_deal(small.b.deal, key))
        assert small.differences[key] == tuple(float(x) for x in study.mean_ci(diff))
    assert small.differences["on_table"] == (0.0, 0.0, 0.0)  # Kings move, no card leaves
    assert small.differences["under_king"][2] < 0  # kings_to_bottom frees the cards under Kings


def test_a_game_against_itself_differs_in_nothing():
    c = compare("scotch", "scotch", n=500, seed=3)
    assert all(v == (0.0, 0.0, 0.0) for v in c.differences.values())
    assert "el mismo número de cartas" in c.headline()


def test_same_seed_same_decks_and_figures():
    one = compare("citadel", "bakers_dozen", n=800, seed=9)
    two = compare("citadel", "bakers_dozen", n=800, seed=9)
    np.testing.assert_array_equal(one.decks, two.decks)
    assert one.differences == two.differences and one.a.figures == two.a.figures
    np.testing.assert_array_equal(one.decks, study.draw_decks(800, 9))


# ----------------------------------------------------------------------------- what it accepts
def test_definitions_and_composed_games_are_accepted():
    ten = Composed(dataclasses.replace(sn.GAMES["beleaguered_castle"].rules_for(), tableau_count=10),
                   "Beleaguered Castle con 10 columnas")
    c = compare(sn.GAMES["beleaguered_castle"], ten, n=400, seed=2)
    assert c.b.name == "Beleaguered Castle con 10 columnas"
    assert c.b.deal.columns == 10 and len(c.b.columns) == 10
    assert c.differences["on_table"] == (0.0, 0.0, 0.0)
    assert c.differences["longest"][0] > 0  # 48 cards over ten columns: shorter ones
    like_citadel = Composed(dataclasses.replace(sn.GAMES["beleaguered_castle"].rules_for(),
                                                deal_to_foundations=True, autoplay=True))
    same = compare("citadel", like_citadel, n=400, seed=2)
    assert all(v == (0.0, 0.0, 0.0) for v in same.differences.values())


def test_variants_are_named_in_spanish(small):
    assert small.a.name == "Baker's Dozen"
    assert small.b.name == "Baker's Dozen (los Reyes donde caen)"
    c = compare("beleaguered_castle", "beleaguered_castle", n=200, variant_b={"deal_to_foundations": True})
    assert c.b.name == "Beleaguered Castle (cartas a la base durante el reparto)"
    same_name = compare(Composed(sn.GAMES["citadel"].rules_for()), Composed(sn.GAMES["scotch"].rules_for()), n=50)
    assert (same_name.a.name, same_name.b.name) == ("Mi juego (a)", "Mi juego (b)")


@pytest.mark.parametrize(
    ("a", "words"),
    [
        ("klondike", "No hay ningún juego llamado 'klondike'"),
        ("chequers", "reserva"),
        (sn.GAMES["moving_left"], "compare necesita juegos de una baraja a la vista, y Moving Left se juega con 2 barajas"),
        (Composed(sn.GAMES["citadel"].rules_for(), decks=2), "y Mi juego se juega con 2 barajas"),
        ("", "No hay ningún juego llamado ''"),
        (sn.GAMES, "compare necesita dos juegos de una baraja a la vista (su nombre o su definición), no"),
        (7, "no 7"),
        (None, "no None"),
        (Composed(sn.GAMES["chequers"].rules_for()), "No se puede comparar Mi juego"),
        (Composed(dataclasses.replace(sn.GAMES["citadel"].rules_for(), tableau_count=30)), "no 30"),
    ],
)
def test_other_games_are_refused_in_spanish(a, words):
    with pytest.raises(ValueError) as err:
        compare(a, "citadel", n=10)
    assert words in str(err.value)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"n": 0}, "El número de repartos (n)"),
        ({"n": 2.5}, "no 2.5"),
        ({"n": 10**8}, "entre 2 y 1000000"),
        ({"n": 1}, "entre 2 y 1000000, no 1"),
        ({"seed": -1}, "semilla"),
        ({"seed": "uno"}, "semilla"),
        ({"variant_a": {"colour": True}}, "no tiene la variante 'colour'"),
        ({"variant_a": {"any_suit": "sí"}}, "debe ser True o False"),
        ({"variant_b": ["any_suit"]}, "La variante de b debe ser un diccionario"),
    ],
)
def test_bad_values_are_refused_in_spanish(kwargs, words):
    with pytest.raises(ValueError) as err:
        compare("bakers_dozen", "bakers_dozen", **{"n": 10, **kwargs})
    assert words in str(err.value)


# ----------------------------------------------------------------------------- what a reader sees
PYTHON_BITS = re.compile(r"[\[\]{}]|\bNone\b|\bTrue\b|\bFalse\b|\w+_\w+|\w+\(|array|Rules|\d\.(?!\d{3}\b)\d")


@pytest.mark.parametrize("render", [str, repr, Comparison.text, Comparison._repr_markdown_])
def test_the_summary_is_spanish_without_python(small, render):
    text = render(small)
    assert "Baker's Dozen frente a" in text.replace("**", "")
    assert not PYTHON_BITS.findall(text), PYTHON_BITS.findall(text)
    for label in FIGURES.values():
        assert label in text
    assert "intervalo de confianza del 95 %" in text
    assert "3.000 repartos de barajas al azar (tanda n.º 5, siempre la misma)" in text


def test_the_markdown_has_one_row_per_figure_and_column(small):
    md = small._repr_markdown_()
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    assert len(rows) == 2 + len(FIGURES) + 1 + 13
    assert "| Tablero 13 |" in md
    mixed = compare("scotch", "citadel", n=50)._repr_markdown_()
    assert "| Columna 18 | 1 (siempre) | — |" in mixed


def test_ipython_shows_the_spanish_text(small):
    class Printer:
        def __init__(self):
            self.out = ""

        def text(self, s):
            self.out += s

    p = Printer()
    small._repr_pretty_(p, False)
    assert p.out == small.text()


# ----------------------------------------------------------------------------- plots
ENGLISH = ("deal", "cards", "column", "length", "mean", "share", "after", "difference", "table")
PLOTS = [
    compare_plots.plot_on_table,
    lambda c, ax=None: compare_plots.plot_on_table(c, ax, after_autoplay=False),
    compare_plots.plot_column_lengths,
    compare_plots.plot_difference,
    lambda c, ax=None: compare_plots.plot_difference(c, "under_king", ax),
]


def figure_texts(fig: Figure) -> list[str]:
    out = [fig._suptitle.get_text()] if fig._suptitle else []
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        legend = ax.get_legend()
        if legend:
            out += [t.get_text() for t in legend.get_texts()]
        fig.canvas.draw()
        out += [t.get_text() for t in ax.get_yticklabels() + ax.get_xticklabels()]
    return [t for t in out if t]


@pytest.mark.parametrize("plot", PLOTS)
def test_plots_speak_spanish_with_decimal_commas(plot):
    c = compare("citadel", "beleaguered_castle", n=2000, seed=3)
    fig = plot(c)
    try:
        assert isinstance(fig, Figure)
        texts = figure_texts(fig)
        words = " ".join(texts).lower().split()
        assert not [w for w in ENGLISH if w in words], words
        assert fig.axes[0].get_title() and fig.axes[0].get_ylabel()
        assert not [t for t in texts if re.search(r"\d\.(?!\d{3}\b)\d", t)], texts
    finally:
        plt.close(fig)


@pytest.mark.parametrize("plot", PLOTS)
def test_plots_draw_into_a_given_axes(plot, small):
    fig, (left, right) = plt.subplots(1, 2)
    try:
        assert plot(small, ax=right) is fig
        assert right.has_data() and not left.has_data()
    finally:
        plt.close(fig)


def test_the_combined_figure(small):
    fig = compare_plots.plot_comparison(small)
    try:
        assert len(fig.axes) == 3
        assert fig._suptitle.get_text() == "Baker's Dozen frente a Baker's Dozen (los Reyes donde caen)"
    finally:
        plt.close(fig)


def test_an_unknown_measure_is_refused_in_spanish(small):
    with pytest.raises(ValueError, match="No hay ninguna medida llamada 'cards'"):
        compare_plots.plot_difference(small, "cards")
    with pytest.raises(ValueError, match="No hay ninguna medida llamada 'cards'"):
        small.difference("cards")


def test_headline_when_the_interval_holds_zero(small):
    unclear = dataclasses.replace(small, differences={**small.differences, "on_table": (0.02, -0.01, 0.05)})
    assert unclear.headline() == (
        "Con estos repartos no se distingue qué juego deja más cartas en la mesa: la diferencia, "
        "0,02, va de −0,01 a 0,05 (intervalo del 95 %)."
    )


def test_narrow_intervals_get_the_decimals_they_need(small):
    figures = {**small.differences, "longest": (0.0134, 0.01321, 0.01349), "shortest": (2.299, 2.2962, 2.3021)}
    text = dataclasses.replace(small, differences=figures).text()
    assert "diferencia, 0,0134 (de 0,0132 a 0,0135)" in text  # three decimals would not separate them
    assert "diferencia, 2,30 (de 2,30 a 2,30)" not in text and "2,299 (de 2,296 a 2,303)" in text  # ends rounded outward


def test_the_table_keeps_two_decimals_down_its_columns(small):
    """The lab's table: every row with the same precision, ends rounded outward («5,988 (de 5,985
    a 5,990)» among two-decimal rows read as more precise than its neighbours)."""
    figures = {**small.a.figures, "longest": (5.9878, 5.98565, 5.98995)}
    table = dataclasses.replace(small, a=dataclasses.replace(small.a, figures=figures))._repr_markdown_()
    assert "| Cartas en la columna más larga | 5,99 (de 5,98 a 5,99) |" in table
    assert "5,988" not in table


def test_a_typical_deal(castle_citadel):
    d = castle_citadel.typical_deal()
    table = castle_citadel.b.deal.on_table
    assert table[d] == np.median(table)
    assert castle_citadel.a.deal.on_table[castle_citadel.typical_deal("a")] == 48
    with pytest.raises(ValueError, match="which debe ser 'a' o 'b', no 'c'"):
        castle_citadel.typical_deal("c")


def test_a_random_seed_is_said_so():
    c = compare("citadel", "scotch", n=100, seed=None)
    assert c.seed is None and "100 repartos de barajas al azar," in c.text()
    names = compare("citadel", "citadel", n=20, variant_b={"takeback": False, "autoplay": False})
    assert names.b.name == "Citadel (sin devolver cartas, sin juego automático a la base)"


def test_headline_when_the_difference_never_changes():
    c = compare("beleaguered_castle", "scotch", n=50)
    assert c.headline() == "Beleaguered Castle deja siempre 4 cartas menos en la mesa que Scotch."


def test_column_plot_with_different_column_counts():
    fig = compare_plots.plot_column_lengths(compare("scotch", "citadel", n=200))
    try:
        assert [len(line.get_xdata()) for line in fig.axes[0].get_lines()] == [18, 8]
    finally:
        plt.close(fig)


def test_the_column_legend_promises_a_band_only_where_there_is_one():
    """Beleaguered Castle's columns are the same length in every deal: no «intervalo» in its
    legend; Citadel's vary; a game's name starts with a capital («Tu juego»)."""
    import dataclasses

    from solitaire_nb.study.svg_comparison_plots import column_legend

    c = compare("beleaguered_castle", "citadel", n=200)
    assert column_legend(c.a) == "Beleaguered Castle (siempre el mismo número de cartas)"
    assert column_legend(c.b) == "Citadel (media e intervalo del 95 %)"
    assert column_legend(dataclasses.replace(c.b, name="tu juego")).startswith("Tu juego (")
    fig = compare_plots.plot_column_lengths(c)
    try:
        assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == [column_legend(c.a), column_legend(c.b)]
    finally:
        plt.close(fig)


def test_a_composed_name_is_read_where_names_are():
    """compare itself reads a composed game's name (study.compare only forwards to it)."""
    from solitaire_nb.study.comparison import compare as paired

    by_name = paired("beleaguered_castle", "beleaguered_castle+columns=10", n=200, seed=3)
    by_def = paired("beleaguered_castle", sn.custom("beleaguered_castle", columns=10), n=200, seed=3)
    assert by_name.text() == by_def.text()
    assert "10 columnas" in by_name.text()


def test_scotchs_piles_are_named_fans_in_the_lab_table():
    """Issue 44: Scotch's lab says «abanico», its pile word, not «columna» or «Columnas del tablero»."""
    fans = compare("scotch", "scotch", n=50, seed=5)._repr_markdown_()
    assert "| Cartas en el abanico más largo |" in fans and "| Abanicos vacíos |" in fans and "| Abanicos | 18 | 18 |" in fans
    assert "Cartas en la columna" not in fans and "Columnas del tablero" not in fans
    assert "| Columnas del tablero |" in compare("citadel", "citadel", n=50, seed=5)._repr_markdown_()
