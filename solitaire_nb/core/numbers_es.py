"""Numbers written the way Spanish writes them: the one place the package formats a number.

A decimal comma (0,35), a thousands point (50.000), a true minus sign (−0,12), a percentage
with a space before the sign (56,2 %), and an estimate with its interval, «0,353 (de 0,349 a
0,358)», printed with as many decimals as it takes for the interval to show.  ``parse_number``
reads a number a reader typed («5,02», «5.02», «1.234», «12 %») back.

Every notebook and every module that shows a number to a reader uses these functions;
none redefines them.  The module imports nothing beyond the standard library.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

__all__ = [
    "MINUS",
    "decimal",
    "thousands",
    "percent",
    "interval",
    "interval_decimals",
    "measured",
    "range_text",
    "comma_ticks",
    "parse_number",
    "decimal_down",
    "decimal_up",
    "percent_end",
]

MINUS = "−"
"""The minus sign (U+2212) a printed negative number carries, not the hyphen."""

MAX_DECIMALS = 6
"""The most decimals ``interval`` uses to make an interval show."""


def decimal(x: float, decimals: int = 2) -> str:
    """``x`` rounded to ``decimals`` places, with a decimal comma and a thousands point:
    1234.567 -> «1.234,57»; never «−0,00».  Raises a Spanish ``ValueError`` for a negative
    number of decimals or a value that is not a finite number."""
    if not isinstance(decimals, int) or isinstance(decimals, bool) or decimals < 0:
        raise ValueError(f"El número de decimales debe ser un entero mayor o igual que 0, no {decimals!r}.")
    try:
        value = float(x)
    except (TypeError, ValueError):
        raise ValueError(f"{x!r} no es un número.") from None
    if not math.isfinite(value):
        raise ValueError(f"{x!r} no es un número finito.")
    text = f"{value:,.{decimals}f}"
    if float(text.replace(",", "")) == 0:
        text = text.lstrip("-")
    # Python writes «1,234.5»: swap the two separators, then use the true minus sign.
    return text.translate(str.maketrans(",.-", ".," + MINUS))


def _outward(x: float, decimals: int, up: bool) -> float:
    """``x`` rounded down (or up) to ``decimals`` places.  A value already on the grid, up to
    floating-point noise (0.3 * 100 is 30.000000000000004), stays where it is."""
    value = float(x)
    if not math.isfinite(value):
        raise ValueError(f"{x!r} no es un número finito.")
    scaled = value * 10**decimals
    nearest = round(scaled)
    if abs(scaled - nearest) <= 1e-9 * max(1.0, abs(scaled)):
        return nearest / 10**decimals
    return (math.ceil(scaled) if up else math.floor(scaled)) / 10**decimals


def decimal_down(x: float, decimals: int = 2) -> str:
    """``x`` written like ``decimal`` but rounded down: the lower end of an interval, printed so
    that the printed interval contains the exact one (0.12499 -> «0,12», not «0,13»)."""
    decimal(0, decimals)  # the same check of ``decimals``
    return decimal(_outward(x, decimals, up=False), decimals)


def decimal_up(x: float, decimals: int = 2) -> str:
    """``x`` written like ``decimal`` but rounded up: the upper end of an interval."""
    decimal(0, decimals)
    return decimal(_outward(x, decimals, up=True), decimals)


def thousands(n: int) -> str:
    """An integer with a thousands point: 50000 -> «50.000», −1234 -> «−1.234»."""
    if isinstance(n, bool) or int(n) != n:
        raise ValueError(f"{n!r} no es un número entero.")
    return decimal(int(n), 0)


def percent(x: float, decimals: int = 1) -> str:
    """A fraction as a Spanish percentage: 0.5619 -> «56,2 %»."""
    return f"{decimal(100 * float(x), decimals)} %"


def interval_decimals(mean: float, low: float, high: float, at_least: int = 2, at_most: int = MAX_DECIMALS) -> int:
    """The fewest decimals (from ``at_least``, up to ``at_most``) with which the three numbers
    that differ print differently: «0,35 (de 0,35 a 0,36)» needs a third decimal to show that the
    mean is not the lower end."""
    values = sorted({float(mean), float(low), float(high)})
    d = at_least
    while d < at_most and len({decimal(v, d) for v in values}) < len(values):
        d += 1
    return d


def interval(estimate: Sequence[float], decimals: int | None = None, as_percent: bool = False) -> str:
    """An estimate and its interval, (mean, low, high), in one phrase: «7,22 (de 7,20 a 7,24)».

    With ``decimals`` None the number of decimals is the fewest that shows the interval
    (``interval_decimals``); give ``decimals`` to print two figures of one sentence with the same
    precision.  ``as_percent`` reads the three numbers as fractions: «35,3 % (de 34,9 % a 35,8 %)»."""
    if len(estimate) != 3:
        raise ValueError(f"Una estimación son tres números (media, extremo inferior, extremo superior), no {estimate!r}.")
    mean, low, high = (float(v) for v in estimate)
    if not low <= high:
        raise ValueError(f"El extremo inferior {low!r} es mayor que el superior {high!r}.")
    scale, unit, start = (100.0, " %", 1) if as_percent else (1.0, "", 2)
    m, lo, hi = scale * mean, scale * low, scale * high
    d = interval_decimals(m, lo, hi, at_least=start) if decimals is None else decimals
    # the ends rounded outward: the printed interval always contains the computed one
    return f"{decimal(m, d)}{unit} (de {decimal_down(lo, d)}{unit} a {decimal_up(hi, d)}{unit})"


def measured(estimate: Sequence[float], max_decimals: int | None = None) -> str:
    """A measured mean as a reader reads it: with its interval, «7,22 (de 7,20 a 7,24)», or
    «6 (siempre)» when every measure gave the same value (its two ends are equal; a whole
    count is written without decimals, another value with two: «5,50 (siempre)»).  With
    ``max_decimals`` a table's rows keep one precision: «5,99 (de 5,98 a 5,99)», ends outward."""
    if len(estimate) == 3 and float(estimate[1]) == float(estimate[2]):
        value = float(estimate[0])
        return f"{decimal(value, 0) if value.is_integer() else decimal(value)} (siempre)"
    if max_decimals is None or len(estimate) != 3:
        return interval(estimate)
    mean, low, high = (float(v) for v in estimate)
    return interval(estimate, min(interval_decimals(mean, low, high), max_decimals))


def range_text(low: float, high: float, decimals: int = 1, as_percent: bool = True) -> str:
    """An interval's two ends joined by a dash: «55,5 % – 70,1 %» (or «1,20 – 1,35» with
    ``as_percent`` False), rounded outward (the lower end down, the upper end up), so that the
    printed interval contains the exact one: Wilson's 12,46 % – 45,3 % prints «12,4 % – 45,3 %»,
    not «12,5 %»; an end short of 100 % (or above 0 %) never prints as 100,0 % (0,0 %):
    ``percent_end``."""
    lo, hi = (100 * float(low), 100 * float(high)) if as_percent else (float(low), float(high))
    unit = " %" if as_percent else ""
    if as_percent:
        return f"{percent_end(lo, decimals, up=False)}{unit} – {percent_end(hi, decimals, up=True)}{unit}"
    return f"{decimal_down(lo, decimals)}{unit} – {decimal_up(hi, decimals)}{unit}"


def percent_end(x: float, decimals: int = 1, up: bool = True) -> str:
    """One end of an interval of percentages (``x`` from 0 to 100), rounded outward like
    ``decimal_up`` (or ``decimal_down``), but never onto 100 (or 0) when ``x`` is not exactly
    that: another decimal is added instead, so 99,912 prints «99,92», not «100,0», which
    would say that no deal can be lost.  Up to ``MAX_DECIMALS`` decimals."""
    bound = 100.0 if up else 0.0
    write = decimal_up if up else decimal_down
    d = decimals
    while d < MAX_DECIMALS and float(x) != bound and _outward(x, d, up) == bound:
        d += 1
    return write(x, d)


def comma_ticks(label: str) -> str:
    """An axis label a plotting library wrote («0.25», «-1.5») in Spanish («0,25», «−1,5»)."""
    return label.replace(".", ",").replace("-", MINUS)


_NUMBER = re.compile(r"^[+-]?(\d+|[1-9]\d{0,2}(\.\d{3})+)(,\d+)?$|^[+-]?\d*[.,]\d+$")


def parse_number(text: str) -> float:
    """A number a reader typed, back to a float: «5,02», «5.02», «−0,5», «1.234», «1.234,5»,
    «12 %» (read as 12, not 0,12).  A point followed by exactly three digits and no comma is
    read as a thousands point («1.234» is 1234, «0.125» is 0,125), as ``decimal`` writes it; any other lone
    point or comma is the decimal separator.  Raises a Spanish ``ValueError`` naming the text
    when it is not a number."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} no es un texto con un número.")
    t = text.strip().replace(MINUS, "-").replace("\u2009", "").replace(" ", "")
    if t.endswith("%"):
        t = t[:-1]
    if not _NUMBER.match(t):
        raise ValueError(f"«{text}» no es un número: escríbelo con cifras, por ejemplo 5,02.")
    sign = -1.0 if t.startswith("-") else 1.0
    t = t.lstrip("+-")
    if "," in t:
        whole, frac = t.split(",")
        return sign * float(f"{whole.replace('.', '')}.{frac}")
    if re.fullmatch(r"[1-9]\d{0,2}(\.\d{3})+", t):
        return sign * float(t.replace(".", ""))
    return sign * float(t)
