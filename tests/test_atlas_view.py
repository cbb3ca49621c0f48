"""How notebook 07 shows the atlas: Spanish variant names, ranges where deals are undecided,
«—» where nothing was decided, and a plot that says the same."""

from __future__ import annotations

import pytest

import solitaire_nb as sn
from solitaire_nb.atlas import view as av
from solitaire_nb.atlas.summary import atlas
from solitaire_nb.core.numbers_es import percent, range_text, thousands


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
    assert av.rate_text(1707, 276, 17) == "entre 85,3 % y 86,2 %"  # 85,35 %: the ends rounded outward
    low, high = av.interval_text(97, 58, 45).split(" – ")
    assert low == "41,6 %" and high == "76,9 %"  # Wilson 41,67 % – 76,82 %, the ends rounded outward


def test_atlas_table_speaks_spanish_and_shows_ranges():
    entries = atlas()["entries"]
    table = av.atlas_table(entries)
    assert "takeback" not in table and "=" not in table and "True" not in table and "False" not in table
    assert "sin devoluciones" in table and "cualquier palo" in table
    rows = {line.split(" | ")[0].strip("| ") + " / " + line.split(" | ")[1]: line for line in table.splitlines()[2:]}
    ml = rows["Moving Left / reglas de la página"]  # 72 deals won, none lost: a range up to 100 %
    assert "entre 72,0 % y 100,0 %" in ml
    shifted = rows["Moving Left / desplazamiento a la izquierda"]
    assert "entre 60,0 % y 100,0 %" in shifted
    nothing = dict(entries[0], won=0, lost=0, unknown=entries[0]["computed_deals"])
    assert av.atlas_table([nothing]).splitlines()[2].rstrip().endswith("| — | — |")  # nothing decided: dashes
    bc = rows["Beleaguered Castle / reglas de la página"]
    assert "entre 68,5 % y 70,1 %" in bc  # 1,371 won, 599 lost, 30 undecided of 2,000


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

    from solitaire_nb.atlas import plots as atlas_plots

    data = atlas()
    # an entry with nothing decided (as Moving Left's was) gets a dash, not a bar
    entries = data["entries"] + [dict(data["entries"][-1], won=0, lost=0, unknown=data["entries"][-1]["computed_deals"])]
    fig = atlas_plots.plot_win_rates(entries, reference=data["blake_gent"])
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
        assert atlas_plots.plot_win_rates(data["entries"], ax=right) is fig and not left.has_data()
    finally:
        plt.close(fig)


def test_who_plays_each_row_and_the_bracket_comes_first():
    data = atlas()
    assert av.hides_cards({"game": "moving_left", "variant": {}}) and av.hides_cards({"game": "chequers", "variant": {}})
    assert not any(av.hides_cards({"game": g, "variant": {}}) for g in ("scotch", "bakers_dozen", "citadel"))
    table = av.class_table(data)
    rows = [r for r in table.splitlines()[2:] if r.startswith("|")]  # the table, not its footnote
    ml = [r for r in rows if "Moving Left" in r]
    assert av.BRACKET in ml[0] and "jugador que no mira" in ml[0]  # the row a student reads first
    player = next(p for p in data["players"] if p["key"] == "moving_left_jugador")
    solver = next(e for e in data["entries"] if e["key"] == "moving_left")
    assert f"al menos {percent(player['rate'])}" in ml[0] and av.rate_text(solver["won"], solver["lost"], solver["unknown"]) in ml[0]
    # the floor holds only for someone who plays at least as well as the no-peek player, and its
    # interval's ends are rounded outward like every other interval (not «98,5 %» for 98,46 %)
    assert av.FLOOR_WHO in ml[0] and range_text(player["interval_low"], solver["interval_high"]) in ml[0]
    for r in rows:  # every solver row of a game with face-down cards says so
        if ("Moving Left" in r or "Chequers" in r) and av.BRACKET not in r:
            assert av.SOLVER_PEEKS in r, r
        elif "Scotch" in r or "Citadel" in r:
            assert f"| {av.SOLVER} |" in r, r


def test_limits_are_read_in_words_where_a_games_rows_differ():
    entries = atlas()["entries"]
    notes = av.limit_notes(entries)
    by_game = {}
    for e in entries:
        by_game.setdefault(e["game"], set()).add(e["max_states"])
    for e in entries:
        assert (e["key"] in notes) == (len(by_game[e["game"]]) > 1), e["key"]
    text = av.limits_text(entries)
    high = max(entries, key=lambda e: e["max_states"])
    low = min(entries, key=lambda e: e["max_states"])
    assert f"a {thousands(high['max_states'])}, en {av.entry_label(high)}" in text
    assert f"va de {thousands(low['max_states'])}, en {av.entry_label(low)}" in text
    assert "no se pueden comparar" in text
    # the full table says it once, under the table, not in every «límite» cell of those rows
    table = av.class_table({"entries": entries, "players": []})
    differing = {sn.GAMES[e["game"]].display_name for e in entries if e["key"] in notes}
    for name in differing:
        assert table.count(f"Las filas de {name} tienen límites distintos") == 1
    assert table.count("sus márgenes no se comparan") == len(differing)
    assert "la otra fila" not in table


def test_a_tables_limits_say_the_whole_atlas_range_when_its_rows_do_not_reach_it():
    """07's full table leaves out the shift-left rows (Moving Left, 10.000 positions): its range
    is the table's, and the atlas's own range is said beside it."""
    entries = atlas()["entries"]
    table = [e for e in entries if not e["variant"].get("shift_left")]
    text = av.limits_text(table, entries)
    low = min((e for e in entries if e["computed_deals"]), key=lambda e: e["max_states"])
    table_low = min((e for e in table if e["computed_deals"]), key=lambda e: e["max_states"])
    assert f"de esta tabla: va de {thousands(table_low['max_states'])}" in text
    if low["max_states"] < table_low["max_states"]:
        assert f"En todo el atlas va de {thousands(low['max_states'])}, en una variante de" in text
        assert av.entry_label(low) not in text  # a row the table leaves out is not named before its page shows it
    assert "En todo el atlas" not in av.limits_text(entries, entries)


def test_the_plot_marks_a_solver_that_sees_face_down_cards():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from solitaire_nb.atlas import plots as atlas_plots

    data = atlas()
    fig = atlas_plots.plot_win_rates(data["entries"], players=data["players"])
    try:
        ax = fig.axes[0]
        labels = [t.get_text() for t in ax.get_yticklabels()]
        ml = [i for i, t in enumerate(labels) if t.startswith("Moving Left (reglas de la página)")]
        assert labels[ml[0]].endswith(av.PLAYER) and labels[ml[1]].endswith(av.SOLVER_PEEKS)
        assert any(p.get_hatch() == "///" for p in ax.patches)
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert "jugador que no mira" in legend
        assert any("ve las cartas boca abajo" in t for t in legend)
    finally:
        plt.close(fig)


def test_the_bracket_plot_names_both_players_and_the_pages_rate():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from solitaire_nb.atlas import plots as atlas_plots

    data = atlas()
    player = next(p for p in data["players"] if p["key"] == "moving_left_jugador")
    solver = next(e for e in data["entries"] if e["key"] == "moving_left")
    fig = atlas_plots.plot_bracket(player, solver, 0.15)
    try:
        ax = fig.axes[0]
        assert ax.get_title() == f"Moving Left: entre el {av.PLAYER}\ny el {av.SOLVER_PEEKS}"
        assert [t.get_text() for t in ax.get_yticklabels()][1] == av.PLAYER
        assert any(t.get_text() == "15 % de la página" for t in ax.texts)
        bars = sorted(ax.patches, key=lambda p: p.get_y())  # the solver's row (0) below the player's (1)
        assert bars[0].get_x() == pytest.approx(100 * solver["interval_low"])
        assert bars[1].get_x() + bars[1].get_width() == pytest.approx(100 * player["interval_high"])
        assert ax.title.get_fontsize() >= 16
    finally:
        plt.close(fig)


def test_a_proven_loss_keeps_the_upper_end_below_100():
    """Baker's Dozen: 187 won, 1 lost, 12 undecided of 200; the upper end (undecided counted won)
    is 99,91 %, and rounding it outward must not print 100,0 % as if no deal could be lost."""
    assert av.interval_text(187, 1, 12) == "89,1 % – 99,92 %"
    assert av.interval_text(188, 0, 12).endswith("– 100,0 %")
