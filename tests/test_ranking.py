"""Notebook 07's ranking of the games: a table whose places the data support, each touching pair
decided (or not) by a direct comparison shown with its figures, ranges rounded outward, and the
fair comparisons between rows with different state limits said exactly."""

from __future__ import annotations

import math
import re

from hypothesis import given
from hypothesis import strategies as st

from solitaire_nb.atlas import ranking
from solitaire_nb.atlas.intervals import above_in_worst_case, bracketed_interval
from solitaire_nb.atlas.summary import atlas


def _page() -> dict:
    data = atlas()
    return {**data, "entries": [e for e in data["entries"] if not e["variant"].get("shift_left")],
            "players": [p for p in data.get("players", []) if not p["variant"].get("shift_left")]}


def _row(game: str, won: int, lost: int, unknown: int, max_states: int = 1_000_000) -> dict:
    n = won + lost + unknown
    low, high = bracketed_interval(won, unknown, n)
    return {"key": game, "game": game, "variant": {}, "won": won, "lost": lost, "unknown": unknown,
            "computed_deals": n, "interval_low": low, "interval_high": high, "max_states": max_states}


def _places(text: str) -> dict[str, str]:
    return {m[1]: m[0] for m in re.findall(r"^\| (\S+) \| ([^|*]+?) \|", text, flags=re.M) if m[0] != "puesto"}


def test_the_table_ranks_the_atlas_games_and_gives_ceilings_no_place():
    text = ranking.ranking_text(_page())
    places = _places(text)
    assert places == {"Baker's Dozen": "1.º", "Citadel": "2.º", "Beleaguered Castle": "3.º", "Scotch": "4.º"}
    assert "| — | Chequers * |" in text and "| — | Moving Left * |" in text  # ceilings get no place
    assert "Comparten" not in text and "comparten puesto" not in text  # nothing said that a line below overturns
    # its first words: the ranking is a perfect player's (the solver's «tienen solución»), not a person's
    assert text.startswith("Es la clasificación de un **jugador perfecto**, no la de una persona")


def _touching_page() -> dict:
    """Today's atlas with Beleaguered Castle's page-rules row as recorded at 1,000,000 states
    (2026-12-07 00:09: 1,352 / 587 / 61), whose interval touched Scotch's."""
    page = _page()
    entries = []
    for e in page["entries"]:
        if e["key"] == "beleaguered_castle":
            low, high = bracketed_interval(1352, 61, 2000)
            e = {**e, "won": 1352, "lost": 587, "unknown": 61, "max_states": 1_000_000,
                 "interval_low": low, "interval_high": high}
        entries.append(e)
    return {**page, "entries": entries}


def test_touching_intervals_are_decided_by_the_worst_case_and_the_page_shows_why():
    text = ranking.ranking_text(_touching_page())
    assert _places(text)["Beleaguered Castle"] == "3.º" and _places(text)["Scotch"] == "4.º"
    # the worst case of the comparison, computed from the counts, not typed
    assert "1.352 de 2.000, el 67,60 %" in text and "1.271 de 2.000, el 63,55 %" in text
    assert "z ≈ 2,7" in text and "4,05 puntos" in text and "por eso va un puesto por encima" in text
    shown = re.sub(r"<details>.*?</details>", "", text, flags=re.S)  # z and the error are folded away
    assert "z ≈" not in shown and "1,96" not in shown and "error típico" not in shown
    assert "mismas barajas" in text and "aproximación" in text
    assert "20.000 frente a 1.000.000" in text  # the limits differ, and the page says why it is still fair


def test_worst_case_agrees_with_the_intervals_module():
    page = {e["key"]: e for e in _touching_page()["entries"]}
    c = ranking.worst_case(page["beleaguered_castle"], page["scotch"])
    assert c.rate_a == 1352 / 2000 and c.rate_b == 1271 / 2000
    assert round(c.z, 1) == 2.7 and c.decides and c.chance < 0.004
    assert round(1000 * c.two_sided_chance) == 7  # the chance 1,96 bounds: either way


@given(st.tuples(*[st.integers(0, 60)] * 3), st.tuples(*[st.integers(0, 60)] * 3))
def test_the_direct_comparison_is_the_worst_case_test(a, b):
    if sum(a) == 0 or sum(b) == 0:
        return
    decides = ranking.worst_case(_row("citadel", *a), _row("scotch", *b)).decides
    assert decides == above_in_worst_case(a, b)


def test_touching_intervals_that_the_comparison_does_not_decide_share_a_place_and_say_so():
    rows = [_row("citadel", 640, 340, 20), _row("scotch", 620, 350, 30)]
    (tier,) = ranking.places(rows)
    assert len(tier) == 2
    text = ranking.ranking_text({"entries": rows, "players": []})
    assert set(_places(text).values()) == {"1.º"}
    assert "**no deciden**" in text and "comparten puesto" in text


def test_apart_intervals_need_no_comparison():
    rows = [_row("citadel", 900, 100, 0), _row("scotch", 500, 500, 0)]
    assert [len(t) for t in ranking.places(rows)] == [1, 1]
    text = ranking.ranking_text({"entries": rows, "players": []})
    assert "la diferencia es clara" in text and "z ≈" not in text


def test_a_shared_range_is_rounded_outward():
    # 1.707 and 1.724 of 2.000: 85,35 % and 86,2 %; the low end goes down, never to «85,4 %»
    assert ranking.rate_range(1707, 276, 17) == "entre 85,3 % y 86,2 %"
    assert ranking.rate_range(1163, 729, 108) == "entre 58,1 % y 63,6 %"  # 58,15 % and 63,55 %
    assert ranking.rate_range(1935, 9, 56) == "entre 96,7 % y 99,6 %"  # 96,75 % and 99,55 %
    assert ranking.rate_range(30, 70, 0) == "30,0 %"


@given(st.integers(0, 3000), st.integers(0, 3000), st.integers(1, 3000))
def test_every_shared_range_holds_the_exact_one(won, lost, unknown):
    low, high = (float(x.replace(",", ".")) for x in re.findall(r"[\d,]+(?= %)", ranking.rate_range(won, lost, unknown)))
    n = won + lost + unknown
    assert low <= 100 * won / n + 1e-9 and high >= 100 * (won + unknown) / n - 1e-9
    assert math.isclose(low, 100 * won / n, abs_tol=0.1) and math.isclose(high, 100 * (won + unknown) / n, abs_tol=0.1)


def test_the_limits_paragraph_says_which_comparisons_are_fair():
    page = _page()
    text = ranking.limits_text(page["entries"], atlas()["entries"])
    assert "**sí** se comparan los intervalos" in text and "**No** se compara cuántas partidas quedan sin decidir" in text
    assert "no se pueden comparar" not in text  # the ranking compares rows with different limits: fairly


def test_the_complete_table_and_its_plot_follow_the_rankings_order():
    """Issue 44: 07's «tabla completa» and its plot list the games as the ranking table places them."""
    from solitaire_nb.atlas.view import class_table, rows_with_players
    from solitaire_nb.games import GAMES

    data = atlas()
    order = ranking.ranking_order(data)
    ranked = [line.split(" | ")[1].rstrip(" *") for line in ranking.ranking_text(data).splitlines()
              if re.match(r"\| (\d+\.º|—) \|", line)]
    assert [GAMES[g].display_name for g in order][: len(ranked)] == ranked
    by_place = {**data, "entries": sorted(data["entries"], key=lambda e: order.index(e["game"]))}
    plotted = list(dict.fromkeys(e["game"] for e in rows_with_players(by_place["entries"], data.get("players", []))))
    tabled = list(dict.fromkeys(line.split(" | ")[0].strip("| *") for line in class_table(by_place).splitlines()
                                if line.startswith("| ") and not line.startswith("| juego")))
    assert plotted == [g for g in order if g in plotted]
    assert tabled == [GAMES[g].display_name for g in order if GAMES[g].display_name in tabled]
