"""95 % intervals of a win rate: Wilson's score interval and the bracketed interval.

With n deals, w won and u undecided, the bracketed interval runs from the Wilson lower bound
of w out of n (the undecided counted lost) to the Wilson upper bound of w + u out of n (counted
won): with no undecided deals it is the plain Wilson interval, and each one widens it on one
side only.  Wilson's interval keeps its coverage near 0 % and 100 % (0/10 gives [0, 27.75 %],
not the Wald interval's [0, 0]).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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


# ---------------------------------------------------------------------- reading an interval
def above_in_worst_case(a: tuple[int, int, int], b: tuple[int, int, int], z: float = Z95) -> bool:
    """Whether game `a` (won, lost, undecided) wins more often than game `b` even in `a`'s worst
    case (its undecided deals lost, `b`'s won): a one-sided two-proportion z test on those rates.
    Needed when the two 95 % intervals touch: touching intervals alone do not decide."""
    (wa, na), (wb, ub, nb) = (a[0], sum(a)), (b[0], b[2], sum(b))
    if not na or not nb:
        return False
    pa, pb, pooled = wa / na, (wb + ub) / nb, (wa + wb + ub) / (na + nb)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    return pa > pb if spread == 0 else (pa - pb) / spread > z


def interval_sentence(low: float, high: float, rate: bool = True, decimals: int = 1, what: str | None = None) -> str:
    """The one sentence form of a 95 % interval, its ends rounded outward: «con un 95 % de
    confianza, la proporción verdadera está entre 82,1 % y 88,8 %» for a rate (fractions
    `low`, `high`), «… la media verdadera está entre 6,85 y 6,89» for a mean (``rate=False``).
    `what` names the quantity instead («la proporción verdadera de partidas con solución»)."""
    from ..core.numbers_es import decimal_down, decimal_up, percent_end

    low, high = check_number(low, "El extremo inferior"), check_number(high, "El extremo superior")
    if not low <= high:
        raise ValueError(f"El extremo inferior {low!r} es mayor que el superior {high!r}.")
    if rate:
        ends = f"{percent_end(100 * low, decimals, up=False)} % y {percent_end(100 * high, decimals)} %"
    else:
        ends = f"{decimal_down(low, decimals)} y {decimal_up(high, decimals)}"
    name = what or ("la proporción verdadera" if rate else "la media verdadera")
    return f"con un 95 % de confianza, {name} está entre {ends}"


def _binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p), summed in logarithms (n up to a million)."""
    if k < 0:
        return 0.0
    if k >= n or p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    lp, lq = math.log(p), math.log1p(-p)
    lg = math.lgamma(n + 1)
    return min(1.0, sum(math.exp(lg - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq)
                        for i in range(k + 1)))


MAX_NEW_GAMES = 10_000
"""The most new games `new_games_count` speaks of."""


@dataclass(frozen=True)
class NewGamesCount:
    """How many of `games` new games a measured rate expects to win.

    `expected_low`, `expected_high`: the expected count (``games`` times the rate), with a 95 %
    confidence, from the bracketed interval's two ends (undecided deals counted as lost, then
    as won).  `likely_low`, `likely_high`: where the count of `games` concrete games falls
    at least 95 times in 100 (`likely_range`): a count varies much more than its mean."""

    games: int
    expected_low: float
    expected_high: float
    likely_low: int
    likely_high: int

    def sentence(self, what: str = "tienen solución") -> str:
        """«De 10 partidas nuevas, tienen solución de media entre 8,2 y 8,9 partidas (con un 95 % de
        confianza); pero en 10 partidas concretas, al menos 95 veces de cada 100, salen de 7 a 10: el
        intervalo habla de la proporción a la larga, no de una tanda de partidas.»  «Al menos»: the
        range holds 95 % for every rate in the bracket, more at its middle (`likely_range`)."""
        from ..core.numbers_es import decimal_down, decimal_up

        n = f"{self.games:,}".replace(",", ".")
        span = (f"de {self.likely_low} a {self.likely_high}" if self.likely_low < self.likely_high
                else f"{self.likely_low}")
        return (f"De {n} partidas nuevas, {what} de media entre {decimal_down(self.expected_low, 1)} y "
                f"{decimal_up(self.expected_high, 1)} partidas (con un 95 % de confianza); pero en {n} partidas "
                f"concretas, al menos 95 veces de cada 100, salen {span}: el intervalo habla de "
                "la proporción a la larga, no de una tanda de partidas.")


def new_games_count(won: int, unknown: int, n: int, games: int) -> NewGamesCount:
    """The count in `games` new games for a rate measured as `won` (and `unknown` undecided) of
    `n` deals: its expected value from the bracketed interval's ends, and the likely range of
    the count itself (binomial at those two ends).  For 1.707 won and 17 undecided of 2.000, 10
    new games: expected 8,3 to 8,8, likely 6 to 10."""
    n = check_int(n, "El número de partidas medidas (n)", 1, 10**15)
    won = check_int(won, "El número de partidas ganadas", 0, n)
    unknown = check_int(unknown, "El número de partidas sin decidir", 0, n - won)
    games = check_int(games, "El número de partidas nuevas", 1, MAX_NEW_GAMES)
    low, high = bracketed_interval(won, unknown, n)
    likely_low, likely_high = likely_range(games, low, high)
    # a range of whole counts that holds the expected values too (0,05 expected of 2 games: 0 to 1)
    likely_low = min(likely_low, math.floor(games * low + 1e-9))
    likely_high = max(likely_high, math.ceil(games * high - 1e-9))
    return NewGamesCount(games, games * low, games * high, likely_low, likely_high)


def likely_range(games: int, p_low: float, p_high: float) -> tuple[int, int]:
    """The narrowest range of counts where the count of `games` concrete games falls at least 95
    times in 100 for every rate from `p_low` to `p_high` (ties: the one holding most at the worse
    end).  The chance of a range, as a function of the rate, rises then falls, so it is least at
    one of the two ends: only they are checked.  For p = 0,855 and 10 games: 7 to 10."""
    games = check_int(games, "El número de partidas nuevas", 1, MAX_NEW_GAMES)
    p_low, p_high = check_number(p_low, "La proporción más baja"), check_number(p_high, "La proporción más alta")
    if not 0.0 <= p_low <= p_high <= 1.0:
        raise ValueError(f"Las proporciones deben cumplir 0 ≤ {p_low!r} ≤ {p_high!r} ≤ 1.")
    cdfs = [_cdf_table(games, p) for p in (p_low, p_high)]

    def held(a: int, b: int) -> float:
        return min(c[b] - (c[a - 1] if a else 0.0) for c in cdfs)

    best: tuple[int, float, int, int] | None = None
    for a in range(games + 1):
        lo, hi = a, games  # the chance grows with b: bisect for the smallest b that holds 95 %
        if held(a, hi) < 0.95 - 1e-12:
            break  # a larger a holds less still
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if held(a, mid) >= 0.95 - 1e-12 else (mid + 1, hi)
        key = (lo - a, -held(a, lo), a, lo)
        if best is None or key < best:
            best = key
    assert best is not None  # a = 0, b = games always holds
    return best[2], best[3]


def _cdf_table(games: int, p: float) -> list[float]:
    """P(X <= k) for k = 0 … `games`, X ~ Binomial(games, p), from the pmf in logarithms."""
    if p <= 0.0:
        return [1.0] * (games + 1)
    if p >= 1.0:
        return [0.0] * games + [1.0]
    lp, lq, lg = math.log(p), math.log1p(-p), math.lgamma(games + 1)
    total, out = 0.0, []
    for i in range(games + 1):
        total += math.exp(lg - math.lgamma(i + 1) - math.lgamma(games - i + 1) + i * lp + (games - i) * lq)
        out.append(min(1.0, total))
    return out
