"""The one Spanish number formatter: separators, signs, intervals that show, and reading back."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solitaire_nb.core.numbers_es import (
    MINUS,
    comma_ticks,
    decimal,
    decimal_down,
    decimal_up,
    interval,
    interval_decimals,
    measured,
    parse_number,
    percent,
    range_text,
    thousands,
)

finite = st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False)
places = st.integers(min_value=0, max_value=5)


def test_examples():
    assert decimal(0.35) == "0,35"
    assert decimal(1234.567) == "1.234,57"
    assert decimal(-0.001) == "0,00"  # never «−0,00»
    assert decimal(-1.5, 1) == f"{MINUS}1,5"
    assert thousands(50_000) == "50.000"
    assert thousands(999) == "999"
    assert thousands(1_000_000) == "1.000.000"
    assert percent(0.5619) == "56,2 %"
    assert percent(0.253, 0) == "25 %"
    assert range_text(0.555, 0.701) == "55,5 % – 70,1 %"
    # an end short of 100 % (or above 0 %) takes another decimal rather than print the bound
    assert range_text(0.8919, 0.99912) == "89,1 % – 99,92 %"
    assert range_text(0.0001, 0.3) == "0,01 % – 30,0 %"
    assert range_text(0.0, 1.0) == "0,0 % – 100,0 %"
    assert comma_ticks("-0.25") == f"{MINUS}0,25"


def test_an_interval_is_printed_with_the_decimals_that_show_it():
    # The case: «0,35 (de 0,35 a 0,36)» hides that the mean is not the lower end.
    # the ends are rounded outward, so that the printed interval contains the computed one
    assert interval((0.3512, 0.3498, 0.3561)) == "0,351 (de 0,349 a 0,357)"
    assert interval((7.2213, 7.2011, 7.2415)) == "7,22 (de 7,20 a 7,25)"
    assert interval((0.353, 0.349, 0.358), as_percent=True) == "35,3 % (de 34,9 % a 35,8 %)"
    assert interval((0.3512, 0.3498, 0.3561), decimals=2) == "0,35 (de 0,34 a 0,36)"  # asked for


def test_a_measure_that_never_varies_says_so():
    assert measured((6.0, 6.0, 6.0)) == "6 (siempre)"
    assert measured((5.5, 5.5, 5.5)) == "5,50 (siempre)"
    assert measured((5.9878, 5.98565, 5.98995)) == "5,988 (de 5,985 a 5,990)"
    assert measured((5.9878, 5.98565, 5.98995), 2) == "5,99 (de 5,98 a 5,99)"  # a table's one precision
    assert measured((6.0, 6.0, 6.0), 2) == "6 (siempre)"
    assert measured((7.2234, 7.2011, 7.2452)) == interval((7.2234, 7.2011, 7.2452))


def test_bad_input_is_refused_in_spanish():
    with pytest.raises(ValueError, match="decimales"):
        decimal(1.0, -1)
    with pytest.raises(ValueError, match="finito"):
        decimal(math.inf)
    with pytest.raises(ValueError, match="entero"):
        thousands(2.5)
    with pytest.raises(ValueError, match="inferior"):
        interval((1.0, 2.0, 0.5))
    with pytest.raises(ValueError, match="tres números"):
        interval((1.0, 2.0))
    for text in ("", "cinco", "5,0,2", "1.23.4", "1,234.5", "--3"):
        with pytest.raises(ValueError, match="no es un número"):
            parse_number(text)


def test_reading_what_a_reader_types():
    assert parse_number("5,02") == 5.02
    assert parse_number("5.02") == 5.02
    assert parse_number(" 0,128 ") == 0.128
    assert parse_number("0.125") == 0.125
    assert parse_number("1.234") == 1234
    assert parse_number("1.234,5") == 1234.5
    assert parse_number(f"{MINUS}0,5") == -0.5
    assert parse_number("12 %") == 12
    assert parse_number(",5") == 0.5


@given(finite, places)
def test_decimal_reads_back_as_the_rounded_value(x, d):
    text = decimal(x, d)
    assert ("," in text) == (d > 0)
    assert parse_number(text) == pytest.approx(float(f"{x:.{d}f}"), abs=10.0 ** -d / 2 + 1e-9 * abs(x))


@given(st.integers(min_value=-10**12, max_value=10**12))
def test_thousands_round_trip(n):
    text = thousands(n)
    assert parse_number(text) == n
    assert all(len(group) == 3 for group in text.lstrip(MINUS).split(".")[1:])


@given(finite, finite, places)
def test_decimal_is_monotonic(x, y, d):
    lo, hi = sorted((x, y))
    assert parse_number(decimal(lo, d)) <= parse_number(decimal(hi, d))


@given(st.lists(st.floats(min_value=-100, max_value=100, allow_nan=False), min_size=3, max_size=3))
def test_an_interval_shows_its_three_numbers_apart(values):
    low, mean, high = sorted(values)
    d = interval_decimals(mean, low, high)
    text = interval((mean, low, high))
    shown = [decimal(mean, d), decimal_down(low, d), decimal_up(high, d)]
    assert text == f"{shown[0]} (de {shown[1]} a {shown[2]})"
    if d < 6:  # with enough decimals, numbers that differ print differently
        assert len({decimal(v, d) for v in (mean, low, high)}) == len({mean, low, high})
    # the printed ends still bracket the printed mean
    assert parse_number(shown[1]) <= parse_number(shown[0]) <= parse_number(shown[2])
