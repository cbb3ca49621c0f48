"""Reading a 95 % interval: one sentence form, ends rounded outward, and the count in N new
games as an expected value with the spread of a binomial count."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_nb.atlas.intervals import (
    _binomial_cdf,
    bracketed_interval,
    interval_sentence,
    likely_range,
    new_games_count,
    wilson,
)
from solitaire_nb.core.numbers_es import decimal_down, decimal_up, interval, parse_number, range_text

fractions = st.floats(0, 1, allow_nan=False)


def test_the_sentence_reads_a_rate_and_a_mean_the_one_way():
    assert interval_sentence(0.8217, 0.8874) == (
        "con un 95 % de confianza, la proporción verdadera está entre 82,1 % y 88,8 %")
    assert interval_sentence(6.8514, 6.8806, rate=False, decimals=2) == (
        "con un 95 % de confianza, la media verdadera está entre 6,85 y 6,89")
    with pytest.raises(ValueError, match="mayor que el superior"):
        interval_sentence(0.9, 0.1)


def test_wilson_twelve_and_a_half_percent_is_not_printed_as_thirteen():
    low, high = wilson(1, 8)  # 2,2 % – 47,1 %
    assert range_text(0.125, high, 0).startswith("12 %")
    assert range_text(low, high) == f"{decimal_down(100 * low, 1)} % – {decimal_up(100 * high, 1)} %"
    assert decimal_down(12.5, 0) == "12" and decimal_up(12.01, 0) == "13"
    assert decimal_up(30.000000000000004, 1) == "30,0"  # floating-point noise is not rounded up


@settings(max_examples=200, deadline=None)
@given(a=st.floats(-1e6, 1e6), b=st.floats(-1e6, 1e6), d=st.integers(0, 4))
def test_outward_rounding_contains_the_exact_interval(a, b, d):
    low, high = min(a, b), max(a, b)
    lo, hi = parse_number(decimal_down(low, d)), parse_number(decimal_up(high, d))
    assert lo <= low + 1e-9 * max(1, abs(low)) and hi >= high - 1e-9 * max(1, abs(high))
    assert hi - lo <= high - low + 2 * 10**-d + 1e-6  # no wider than one step at each end


@settings(max_examples=100, deadline=None)
@given(mean=fractions, spread=st.floats(0, 0.2))
def test_the_printed_interval_contains_the_computed_one(mean, spread):
    low, high = max(0.0, mean - spread), min(1.0, mean + spread)
    text = interval((mean, low, high), as_percent=True)
    lo, hi = (parse_number(t.strip()) for t in text.split("(de ")[1].rstrip(")").split(" a "))
    assert lo <= 100 * low + 1e-7 and hi >= 100 * high - 1e-7


def test_the_count_in_ten_new_games_is_a_mean_and_a_wide_range():
    assert likely_range(10, 0.855, 0.855) == (7, 10)  # not «8 a 9»: that happens 62 % of the time
    citadel = new_games_count(1677, 70, 2000, 10)
    assert (round(citadel.expected_low, 1), round(citadel.expected_high, 1)) == (8.2, 8.9)
    assert (citadel.likely_low, citadel.likely_high) == (6, 10)
    text = citadel.sentence()
    assert "tienen solución de media entre 8,2 y 8,9 partidas" in text and "de 6 a 10" in text
    # «at least»: the range holds 95 in 100 at the bracket's ends, more in between (99,8 % for 1 to 9
    # of 10 at 0,5), so the sentence must not say «95 veces de cada 100» as if that were exact
    assert "al menos 95 veces de cada 100" in text and "lo normal" not in text
    player = new_games_count(1919, 0, 10_000, 100)  # the no-peek player with the shift
    assert (player.likely_low, player.likely_high) == (12, 27)  # the narrowest: 11 to 28 said more than needed
    assert likely_range(10, 0.5, 0.5) == (2, 8)
    assert likely_range(10, 0.0, 0.0) == (0, 0) and likely_range(10, 1.0, 1.0) == (10, 10)


@pytest.mark.parametrize("args", [(5, 0, 4, 10), (1, 1, 10, 0), (-1, 0, 10, 10), (1, 0, 10, 10**9), (1.5, 0, 10, 10)])
def test_impossible_counts_are_refused_in_spanish(args):
    with pytest.raises(ValueError) as err:
        new_games_count(*args)
    assert any(w in str(err.value) for w in ("debe", "número", "entre"))


@settings(max_examples=60, deadline=None)
@given(won=st.integers(0, 300), unknown=st.integers(0, 50), lost=st.integers(0, 300), games=st.integers(1, 120))
def test_the_likely_range_contains_the_expected_counts(won, unknown, lost, games):
    n = won + unknown + lost
    if n == 0:
        return
    c = new_games_count(won, unknown, n, games)
    low, high = bracketed_interval(won, unknown, n)
    assert math.isclose(c.expected_low, games * low) and math.isclose(c.expected_high, games * high)
    assert 0 <= c.likely_low <= c.expected_low + 1e-9
    assert c.expected_high - 1e-9 <= c.likely_high <= games


@settings(max_examples=60, deadline=None)
@given(p=fractions, q=fractions, t=fractions, games=st.integers(1, 60))
def test_the_likely_range_holds_at_least_95_in_100_counts_for_every_rate_in_the_bracket(p, q, t, games):
    p_low, p_high = min(p, q), max(p, q)
    a, b = likely_range(games, p_low, p_high)
    rate = p_low + t * (p_high - p_low)
    inside = _binomial_cdf(b, games, rate) - _binomial_cdf(a - 1, games, rate)
    assert inside >= 0.95 - 1e-9


@settings(max_examples=40, deadline=None)
@given(p=fractions, q=fractions, games=st.integers(1, 60))
def test_no_narrower_range_holds_95_in_100_at_both_ends_of_the_bracket(p, q, games):
    p_low, p_high = min(p, q), max(p, q)
    a, b = likely_range(games, p_low, p_high)
    for lo in range(games - (b - a) + 2):
        hi = lo + (b - a) - 1  # one count narrower
        if hi < lo:
            continue
        held = min(_binomial_cdf(hi, games, r) - _binomial_cdf(lo - 1, games, r) for r in (p_low, p_high))
        assert held < 0.95 + 1e-9
