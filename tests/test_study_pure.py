"""The studies' NumPy-free path (`study.pure`, the serverless sites'): the same decks give the
same records and the same figures as the vectorised NumPy path, and the package picks the path
by itself when NumPy is absent."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import solitaire_nb as sn
from solitaire_nb import study
from solitaire_nb.games.custom import custom
from solitaire_nb.study import compared, comparison, family, pure, pure_compare

SEED, N = 2026, 600


def same(a, b):
    """Two (mean, low, high) triples: the same mean exactly, the interval to rounding."""
    assert a[0] == b[0]
    assert a[1:] == pytest.approx(b[1:], rel=1e-12, abs=1e-12)


def test_the_same_seed_and_n_deal_the_same_records_both_ways():
    fast = study.deal_decks(np.array(pure.draw_decks(N, SEED), dtype=np.uint8))
    slow = pure.simulate(N, seed=SEED)
    assert slow.n == N and slow.requested == N
    for name in ("beleaguered", "after_deal", "citadel"):
        assert [tuple(r) for r in getattr(fast, name).lengths.tolist()] == getattr(slow, name).lengths
    assert fast.home_in_deal.tolist() == slow.home_in_deal
    assert fast.autoplay_moved.tolist() == slow.autoplay_moved
    assert slow.home_in_deal.mean() == fast.home_in_deal.mean()


def test_the_same_seed_and_n_give_the_same_figures_both_ways():
    fast = study.deal_decks(np.array(pure.draw_decks(N, SEED), dtype=np.uint8))
    slow = pure.simulate(N, seed=SEED)
    for key, value in study.summary(fast).items():
        same(pure.summary(slow)[key], value)
    for moment in ("after_deal", "citadel"):
        a, b = study.column_shortening(getattr(fast, moment)), pure.column_shortening(getattr(slow, moment))
        for key in a:
            same(b[key], a[key])
        ga, gb = study.column_gap(getattr(fast, moment)), pure.column_gap(getattr(slow, moment))
        assert (ga.longest, ga.shortest) == (gb.longest, gb.shortest)
        same(gb.difference, ga.difference)
        for x, y in zip(ga.lengths, gb.lengths, strict=True):
            same(y, x)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("citadel", "beleaguered_castle"),
        (custom("citadel", columns=10), "citadel"),
        ("bakers_dozen", custom("bakers_dozen", empty="any")),
        ("beleaguered_castle", custom("beleaguered_castle", columns=6)),
        ("scotch", "citadel"),
    ],
    ids=["citadel-bc", "citadel10", "bakers", "bc6", "scotch"],
)
def test_a_comparison_gives_the_same_figures_both_ways(a, b):
    slow = pure_compare.compare(a, b, n=300, seed=SEED)
    decks = np.array(pure.draw_decks(300, SEED), dtype=np.uint8)
    for side, game in ((slow.a, a), (slow.b, b)):
        definition = compared._definition(game)
        deal = family._deal(decks, definition.rules_for())
        for key in compared.FIGURES:
            assert compared.per_deal(deal, key).tolist() == compared.per_deal(side.deal, key), key
        fast = comparison._stats(definition, side.name, deal, {k: compared.per_deal(deal, k) for k in compared.FIGURES})
        for key in compared.FIGURES:
            same(side.figures[key], fast.figures[key])
        for x, y in zip(fast.columns, side.columns, strict=True):
            same(y, x)
    assert slow.text().startswith(f"{slow.a.name} frente a {slow.b.name}: 300 repartos")


def test_a_bigger_sample_than_the_browser_deals_is_capped_and_said(monkeypatch):
    monkeypatch.setattr(pure, "BROWSER_DEALS", 50)
    said = []
    monkeypatch.setattr(pure, "_say", said.append)
    r = pure.simulate(50_000, seed=1)
    assert (r.n, r.requested) == (50, 50_000)
    assert said == [pure.note(50, 50_000)]
    assert "50 barajas en lugar de 50.000" in said[0]


def test_bad_values_are_refused_in_spanish():
    with pytest.raises(ValueError, match="repartos"):
        pure.simulate(0)
    with pytest.raises(ValueError, match="semilla"):
        pure.simulate(10, seed="x")
    with pytest.raises(ValueError, match="No hay ningún juego"):
        pure_compare.compare("nada", "citadel", n=10)
    with pytest.raises(ValueError, match="summary"):
        pure.summary([1, 2])


def test_the_names_come_from_the_pure_path_without_numpy():
    assert study.source("simulate", numpy=False) == ".pure"
    assert study.source("compare", numpy=False) == ".pure_compare"
    assert study.source("simulate", numpy=True) == ".citadel"
    assert study.source("expected_cards_home", numpy=False) == ".exact"


BROWSER = """
import sys
sys.modules["numpy"] = None  # as in the serverless sites: no NumPy, no matplotlib
sys.modules["matplotlib"] = None
from solitaire_nb import study
from solitaire_nb.study import plots, comparison_plots
from solitaire_nb.lessons import study_exercises
r = study.simulate(300, seed=2026)
s = study.summary(r)
g = study.column_gap(r.after_deal)
c = study.column_shortening(r.citadel)
assert type(r).__name__ == "PureResults", r
assert float(study.expected_cards_home(exact=True)) > 6.8
assert len(study.expected_column_lengths(exact=True)) == 8
d = study_exercises.ten_columns()
for f in (plots.plot_cards_on_table, plots.plot_cards_home, plots.plot_column_lengths):
    assert "<svg" in f(r)._repr_svg_()
assert "<svg" in comparison_plots.plot_column_lengths(d)._repr_svg_()
assert "<svg" in comparison_plots.plot_difference(d, "on_table")._repr_svg_()
only_twos, of = study_exercises.only_twos_measured("a")  # 06's «Ver lo medido»
assert 0 < only_twos < of == d.n, (only_twos, of)
aces = study_exercises.aces_dealt()  # 06's other «Ver lo medido»: the Aces dealt, counted as they go home
assert aces.n == d.n and 6 < aces.a.figures["home_in_deal"][0] < 8, aces.a.figures
from solitaire_nb.atlas import lab_measures, plots as atlas_plots  # 07 and 08 in the browser
from solitaire_nb.atlas.summary import atlas
a = atlas()
win_rates = atlas_plots.plot_win_rates(a["entries"], reference=a["blake_gent"], players=a.get("players", []))
assert "Porcentaje de victorias por juego y variante" in win_rates.svg()
assert atlas_plots.inline_image(win_rates).startswith('<img alt="gráfica" ')
p = next(e for e in a["players"] if e["computed_deals"])
assert "<svg" in atlas_plots.plot_bracket(p, a["entries"][0], 0.5)._repr_svg_()
assert lab_measures.PLOT_FORMAT == "svg+xml" and lab_measures.plot_png(d).startswith(b"<svg")
comparison_plots.close(comparison_plots.plot_column_lengths(d))
assert "numpy" not in sys.modules or sys.modules["numpy"] is None
print(d.a.figures["home_in_deal"][0] > 6)
"""


def test_the_study_runs_without_numpy_or_matplotlib():
    out = subprocess.run([sys.executable, "-c", BROWSER], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def test_the_engine_deals_what_the_pure_path_records():
    deck = pure.draw_decks(1, 7)[0]
    game = sn.new_game("citadel", deck=pure.deck_codes(deck))
    r = pure.deal_decks([deck])
    assert r.citadel.lengths[0] == tuple(len(game.pile(f"T{c}")) for c in range(8))


LAB_PICTURE = """
import sys
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.display_formatter.format(1)  # its printers set up first (they look for a NumPy already imported)
sys.modules["numpy"] = None  # the serverless sites: the SVG charts, shown at a cell's end
sys.modules["matplotlib"] = None
shown = []  # the pictures the page shows (the pure path's note on its sample is text)
shell.display_pub.publish = lambda data, metadata=None, **kw: shown.extend(k for k in data if k.startswith("image/"))
shell.run_cell("from solitaire_nb.atlas import lab_measures\\nfrom solitaire_nb.lessons import study_exercises\\n"
               "png = lab_measures.plot_png(study_exercises.ten_columns())")
assert shell.user_ns["png"].startswith(b"<svg") and shown == [], shown  # the lab's picture only
shell.run_cell("from solitaire_nb.study import comparison_plots\\n"
               "chart = comparison_plots.plot_column_lengths(study_exercises.ten_columns())")
assert shown == ["image/svg+xml"], shown  # a chart a cell makes: shown at its end
print("ok")
"""


def test_the_labs_svg_picture_is_not_shown_again_under_its_cell():
    """Without matplotlib the lab draws its plot as an SVG chart, which a page would show at the
    end of the cell (as matplotlib's inline backend does) unless closed: it is the lab's picture,
    so it is closed, and 08's class lab has no second plot under it."""
    out = subprocess.run([sys.executable, "-c", LAB_PICTURE], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")
