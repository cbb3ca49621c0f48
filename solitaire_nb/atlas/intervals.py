"""95 % intervals of a win rate: Wilson's score interval and the bracketed interval.

With n deals, w won and u undecided, the bracketed interval runs from the Wilson lower bound
of w out of n (the undecided counted lost) to the Wilson upper bound of w + u out of n (counted
won): with no undecided deals it is the plain Wilson interval, and each one widens it on one
side only.  Wilson's interval keeps its coverage near 0 % and 100 % (0/10 gives [0, 27.75 %],
not the Wald interval's [0, 0]).
"""

from __future__ import annotations

import math

from ..core.checks import check_int, check_number

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for `successes` out of `n` (as fractions); (0, 1) when n == 0
    (then `successes` must be 0 too)."""
    n = check_int(n, "El número de partidas (n)", 0, 10**15)
    successes = check_int(successes, "El número de éxitos", 0, 10**15)
    z = check_number(z, "z")
    if successes > n:
        raise ValueError(f"El número de éxitos debe estar entre 0 y {n}, no {successes}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # exact ends: floating point must not push 0/n above 0 or n/n below 1
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def bracketed_interval(won: int, unknown: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95% interval with the unknowns bracketed: lower end counts them lost, upper end won."""
    return wilson(won, n, z)[0], wilson(won + unknown, n, z)[1]
