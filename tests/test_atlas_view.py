"""How notebook 07 shows the atlas: Spanish variant names, ranges where deals are undecided,
«—» where nothing was decided, and a plot that says the same."""

from __future__ import annotations

import pytest

import solitaire_nb as sn
from solitaire_nb import atlas_view as av
from solitaire_nb.winrate import atlas


def test_every_variant_flag_has_spanish_words():
    for name, d in sn.GAMES.items():
        defaults = {k: v.default for k, v in d.variants.items()}
        assert av.variant_name(name, defaults) == "reglas de la página"
        for flag, v in d.variants.items():
            words = av.variant_name(name, {**defaults, flag: not v.default})
            assert words and "=" not in words and "_" not in words and "True" not in words, (name, flag)
    assert av.variant_name("beleaguered_castle", {"takeback": False}) == "sin devoluciones"
    assert av.variant_name("bakers_dozen", {"any_suit": True, "kings_to_bottom": True}) == "cualquier palo"
    with pytest.raises(ValueError, match="Scotch no tiene la variante «takeback»"):
        av.variant_name("scotch", {"takeback": False})


def test_rate_is_a_point_a_range_or_a_dash():
    assert av.rate_text(30, 70, 0) == "30,0 %"
    assert av.rate_text(97, 58, 45) == "entre 48,5 % y 71,0 %"
    assert av.rate_text(0, 0, 100) == av.NOTHING_DECIDED == "—"
    assert av.interval_text(0, 0, 100) == "—"
    assert av.interval_text(0, 10, 0) == "0,0 % – 27,8 %"
    low, high = av.interval_text(97, 58, 45).split(" – ")
    assert low == "41,7 %" and high == "76,8 %"


def test_atlas_table_speaks_spanish_and_shows_ranges():
    entries = atlas()["entries"]
    table = av.atlas_table(entries)
    assert "takeback" not in table and "=" not in table and "True" not in table and "False" not in table
    assert "sin devoluciones" in table and "cualquier palo" in table
    rows = {line.split(" | ")[0].strip("| ") + " / " + line.split(" | ")[1]: line for line in table.splitlines()[2:]}
    ml = rows["Moving Left / reglas de la página"]  # 68 deals won, none lost: a range up to 100 %
    assert "entre 68,0 % y 100,0 %" in ml
    shifted = rows["Moving Left / desplazamiento a la izquierda"]
    assert "entre 60,0 % y 100,0 %" in shifted
    nothing = dict(entries[0], won=0, lost=0, unknown=entries[0]["computed_deals"])
    assert av.atlas_table([nothing]).splitlines()[2].rstrip().endswith("| — | — |")  # nothing decided: dashes
    bc = rows["Beleaguered Castle / reglas de la página"]
    assert "entre 48,5 % y 71,0 %" in bc


def test_paired_statuses_counts_the_common_deals():
    entries = {e["key"]: e for e in atlas()["entries"]}
    pairs = av.paired_statuses(entries["beleaguered_castle_sin_devolver"], entries["beleaguered_castle"])
    if pairs is None:
        pytest.skip("the atlas's per-deal records are not here")
    assert sum(pairs.values()) == entries["beleaguered_castle"]["computed_deals"]
    assert pairs[("won", "lost")] == 0  # take-backs only add moves: a win stays a win
    assert sum(v for (a, b), v in pairs.items() if b == "unknown") == entries["beleaguered_castle"]["unknown"]


def test_win_rate_plot_shows_ranges_and_dashes_in_spanish():
    matplotlib = pytest.importorskip("matplotlib")  # the plot needs the notebook extra
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from solitaire_nb import study_plots

    data = atlas()
    # an entry with nothing decided (as Moving Left's was) gets a dash, not a bar
    entries = data["entries"] + [dict(data["entries"][-1], won=0, lost=0, unknown=data["entries"][-1]["computed_deals"])]
    fig = study_plots.plot_win_rates(entries, reference=data["blake_gent"])
    try:
        ax = fig.axes[0]
        assert ax.get_xlim() == (0, 100)
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert all("=" not in t and "_" not in t for t in labels)
        assert "Beleaguered Castle (sin devoluciones), 20.000 partidas" in labels
        texts = [t.get_text() for t in ax.texts]
        undecided = sum(1 for e in entries if e["computed_deals"] and not e["won"] + e["lost"])
        assert undecided >= 1
        assert sum("ninguna partida decidida" in t for t in texts) == undecided
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert "Blake y Gent (2019)" in legend and "intervalo de confianza del 95 %" in legend
        assert ax.get_title() == "Porcentaje de victorias por juego y variante"
    finally:
        plt.close(fig)
    fig, (left, right) = plt.subplots(1, 2)
    try:
        assert study_plots.plot_win_rates(data["entries"], ax=right) is fig and not left.has_data()
    finally:
        plt.close(fig)
