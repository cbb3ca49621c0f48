"""Notebook 06's try step: one numbered deal counted both ways, the class's tally, and the widget
that shows them (its static picture, its buttons)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_nb as sn
from solitaire_nb.core.cards import CARDS
from solitaire_nb.study.tally import DealCounts, Tally, count_deal, counts_of

pytest.importorskip("ipywidgets")
from solitaire_nb.board import DealPair, deal_pair  # noqa: E402
from solitaire_nb.board.deal_pair import pair_html  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_counts_add_up_for_any_deal(seed):
    c = count_deal(seed)
    assert sum(c.after_deal) == 48 - c.home_in_deal
    assert sum(c.after_autoplay) == 48 - c.fewer_on_table
    assert all(a <= d <= 6 for a, d in zip(c.after_autoplay, c.after_deal, strict=True))
    assert c.home_in_deal >= 4  # the four 2s always go home
    assert c.shortened_after_deal <= c.shortened_after_autoplay


def test_counts_are_what_the_engine_dealt():
    g = sn.new_game("citadel", seed=1234)
    c = count_deal(1234)
    assert c.home_in_deal == len(g.deal_report.to_foundations)
    assert c.autoplay == len(g.deal_report.autoplay)
    assert c.after_autoplay == tuple(len(g.piles[f"T{i}"]) for i in range(8))
    engine = sn.new_game("citadel", seed=1234, autoplay=False)
    assert c.after_deal == tuple(len(engine.piles[f"T{i}"]) for i in range(8))


def test_a_deal_is_counted_once_and_the_means_are_the_deals_means():
    tally = Tally()
    assert tally.n == 0 and tally.mean("home_in_deal") == 0.0
    assert "ningún reparto" in tally.text()
    deals = [count_deal(s) for s in (1, 2, 3)]
    assert all(tally.add(d) for d in deals)
    assert not tally.add(count_deal(2))  # the same number again: not counted twice
    assert tally.n == 3
    for what in ("home_in_deal", "autoplay", "fewer_on_table", "shortened_after_deal", "shortened_after_autoplay"):
        assert tally.mean(what) == pytest.approx(sum(getattr(d, what) for d in deals) / 3)
    text = tally.text()
    assert text.startswith("Llevas 3 repartos.")
    assert "durante el reparto" in text and "juego automático" in text
    assert "Columnas" not in text  # notebook 06's exercise counts the columns in the table
    assert not re.search(r"\d\.\d", text)  # decimal commas


def test_a_hand_made_tally():
    tally = Tally()
    tally.add(DealCounts(7, 6, 1, (5, 5, 6, 6, 5, 6, 6, 3), (5, 4, 6, 6, 5, 6, 6, 3)))
    tally.add(DealCounts(8, 8, 0, (4, 6, 6, 6, 5, 5, 5, 3), (4, 6, 6, 6, 5, 5, 5, 3)))
    assert tally.mean("home_in_deal") == 7 and tally.mean("fewer_on_table") == 7.5
    assert tally.mean("shortened_after_deal") == tally.mean("shortened_after_autoplay") == 4.5
    assert "7,00 cartas a la base" in tally.text() and "1.000" not in tally.text()


def test_bad_deal_numbers_are_refused_in_spanish():
    with pytest.raises(ValueError, match="número de partida"):
        count_deal(-1)
    with pytest.raises(ValueError, match="número de partida"):
        count_deal("siete")


def test_only_a_numbered_deal_is_counted():
    unnumbered = sn.new_game("citadel", deck=[c.code for c in CARDS])
    with pytest.raises(ValueError, match="partida de Citadel con número"):
        counts_of(unnumbered)


def test_the_static_picture_shows_both_deals_and_the_counts():
    html, counts = pair_html(505)
    assert 'data-game="citadel"' in html and 'data-game="beleaguered_castle"' in html
    assert html.count('data-seed="505"') == 2
    assert "Citadel, tras el reparto" in html and "Citadel, tras el juego automático" in html
    assert f"<b>{counts.home_in_deal}</b> cartas a la base" in html
    # the columns that lose a card are counted by the reader in the table, never said
    assert "Columnas que pierden" not in html and "se cuenta en la tabla" in html
    w = deal_pair(505)
    bundle = w._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert 'data-seed="505"' in data["text/html"]
    assert "Abre el cuaderno en marcha" in data["text/html"]
    assert "VBox(" not in data["text/plain"]


def test_the_buttons_deal_the_next_number_and_fill_the_tally():
    w = DealPair(10)
    assert 'data-seed="10"' in w.picture.value
    assert w.tally.n == 0 and "ningún reparto" in w.tally_html.value  # shown, not dealt by the student
    w.deal_button.click()
    assert w.tally.n == 1 and "Llevas 1 reparto." in w.tally_html.value
    w.next_button.click()
    w.next_button.click()
    assert w.number.value == 12 and w.tally.n == 3
    assert 'data-seed="12"' in w.picture.value
    assert "Llevas 3 repartos." in w.tally_html.value
    w.number.value = 11
    w.deal_button.click()  # a deal already counted: shown, not counted again
    assert 'data-seed="11"' in w.picture.value and w.tally.n == 3
    w.number.value = w.number.max
    w.next_button.click()  # past the last number: stays on the last, never a traceback
    assert w.number.value == w.number.max
