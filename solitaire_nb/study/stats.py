"""Statistics of the Citadel study: confidence intervals (NumPy) and a chi-square test (pure Python,
so that the browser's NumPy-free path runs it too).

No SciPy: the one special function needed, the chi-square tail, is the regularised incomplete
gamma function written out here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

from ..core.checks import check_int, check_number, shown

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def _numbers(values: object, what: str) -> list[float]:
    """A non-empty list of finite non-negative numbers, else a Spanish ValueError."""
    try:
        out = [float(v) for v in values]  # type: ignore[attr-defined]
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{what} debe ser una lista de números, no {shown(values)}") from None
    if not out or not all(math.isfinite(v) and v >= 0 for v in out):
        raise ValueError(f"{what} debe ser una lista no vacía de números finitos, 0 o más; no {shown(values)}")
    return out


def mean_ci(values: np.ndarray, axis: int = 0, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean with a normal-approximation confidence interval (95 % by default): (mean, low, high)."""
    import numpy as np

    try:
        values = np.asarray(values, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"values debe ser una tabla de números, no {shown(values)}") from None
    axis = check_int(axis, "axis", 0, max(values.ndim - 1, 0))
    if values.ndim == 0 or not values.shape[axis]:
        raise ValueError("values debe tener al menos un número")
    if not np.isfinite(values).all():
        raise ValueError("values debe tener solo números finitos (sin nan ni infinitos)")
    z = check_number(z, "z")
    n = values.shape[axis]
    mean = values.mean(axis=axis)
    half = z * values.std(axis=axis, ddof=1) / math.sqrt(n) if n > 1 else np.full_like(mean, np.nan)
    return mean, mean - half, mean + half


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x) (series below a+1, continued fraction above)."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300  # modified Lentz
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2_sf(stat: float, df: int) -> float:
    """P(χ² with `df` degrees of freedom ≥ `stat`): the p-value of a chi-square test."""
    df = check_int(df, "df (grados de libertad)", 1)
    stat = float(_numbers([stat], "stat")[0])
    return _gamma_q(df / 2, stat / 2)


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square goodness-of-fit test after pooling sparse tail bins."""

    statistic: float
    df: int
    p_value: float
    bins: tuple[tuple[int, int], ...]
    """Each pooled bin as (first value, last value), inclusive."""


def chi_square_test(observed: Sequence[int], probs: Sequence[float], min_expected: float = 5.0) -> ChiSquare:
    """Compare counts of the values 0, 1, … with their exact probabilities.

    Bins whose expected count is below `min_expected` are pooled into their neighbours, from
    each tail inwards (the classical rule for the chi-square approximation)."""
    counts, chances = _numbers(observed, "observed"), _numbers(probs, "probs")
    if len(counts) != len(chances):
        raise ValueError(f"observed y probs deben tener la misma longitud, no {len(counts)} y {len(chances)}")
    if not sum(counts) > 0 or not sum(chances) > 0:
        raise ValueError("observed y probs deben tener algún valor mayor que 0")
    if not check_number(min_expected, "min_expected") > 0:
        raise ValueError(f"min_expected debe ser un número mayor que 0, no {shown(min_expected)}")
    total = sum(counts)
    expected = [c * total for c in chances]
    groups = _pool(expected, min_expected)
    obs = [sum(counts[a : b + 1]) for a, b in groups]
    exp = [sum(expected[a : b + 1]) for a, b in groups]
    stat = float(sum((o - e) ** 2 / e for o, e in zip(obs, exp, strict=True)))
    df = len(groups) - 1
    return ChiSquare(stat, df, chi2_sf(stat, df), tuple(groups))


def _pool(expected: Sequence[float], min_expected: float) -> list[tuple[int, int]]:
    """Inclusive index ranges covering every bin, each expecting at least `min_expected`.

    Left to right, a bin joins the next until the group is big enough; a short group left at
    the right end joins the group before it.  For a single-peaked law this pools both tails."""
    groups: list[tuple[int, int]] = []
    start, acc = 0, 0.0
    for i, e in enumerate(expected):
        acc += e
        if acc >= min_expected:
            groups.append((start, i))
            start, acc = i + 1, 0.0
    if start < len(expected):
        if groups:
            groups[-1] = (groups[-1][0], len(expected) - 1)
        else:
            groups.append((0, len(expected) - 1))
    return groups



def ratio_ci(numerator: np.ndarray, denominator: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Ratio of sums Σ numerator / Σ denominator over deals, with a 95 % interval.

    The deals are the independent units, so the interval is the delta-method one of a ratio
    estimator: variance ≈ Σ (y − R·x)² / (n (n − 1) x̄²)."""
    import numpy as np

    y = np.asarray(numerator, dtype=float)
    x = np.asarray(denominator, dtype=float)
    if y.shape != x.shape or y.ndim != 1:
        raise ValueError("numerator and denominator must be 1-D arrays of the same length")
    n = len(x)
    if n == 0 or x.sum() == 0:
        raise ValueError("the denominator must not sum to 0")
    ratio = y.sum() / x.sum()
    if n == 1:
        return float(ratio), math.nan, math.nan
    residual = y - ratio * x
    half = z * math.sqrt((residual**2).sum() / (n * (n - 1))) / x.mean()
    return float(ratio), float(ratio - half), float(ratio + half)



def _floats(values: Iterable[Any]) -> tuple[float, float, float]:
    a, b, c = (float(v) for v in values)
    return a, b, c
