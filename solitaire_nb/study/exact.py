"""Exact results of the Citadel study, for Citadel's deal before the post-deal autoplay.

Derived by hand: the k of a suit goes home during the deal exactly when the ranks 2, 3, …, k of
that suit come in increasing order in the deal.  The relative order of a suit's cards is uniform
and the four suits are independent, so a suit sends home at least m cards with probability 1/m!.
The card dealt at position i (0…47 among the non-Aces) goes home with probability
``(1/12) · Σ_j C(i, j) / (C(47, j) · j!)`` (j = how many lower ranks of its suit must precede it,
in order), and the column ``T(c)`` loses, on average, the sum of that over ``i ≡ c (mod 8)``.
Every function takes ``suits``/``ranks`` (and `expected_column_lengths` ``columns``) so that a
reduced deck can be checked by enumerating every order (tests/test_study.py).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, overload

if TYPE_CHECKING:
    import numpy as np

from ..core.checks import check_int

SUITS = 4
RANKS = 13
COLUMNS = 8
ROUNDS = 6  # 48 non-Aces over 8 columns
NON_ACES = SUITS * (RANKS - 1)


def _array(values: list[Fraction]) -> np.ndarray:
    """Floats as a NumPy array; as a list where NumPy is absent (the browser's pure path)."""
    try:
        import numpy as np
    except ImportError:
        return [float(v) for v in values]  # type: ignore[return-value]
    return np.array([float(v) for v in values])


def _suit_home_distribution(ranks: int) -> list[Fraction]:
    """P(a suit sends exactly m cards home during the deal), m = 0 … ranks-1.

    At least m go home iff ranks 2…m+1 come in increasing order: probability 1/m!."""
    at_least = [Fraction(1, math.factorial(m)) for m in range(ranks)] + [Fraction(0)]
    at_least[0] = Fraction(1)
    dist = [at_least[m] - at_least[m + 1] for m in range(ranks)]
    dist[0] = Fraction(0)  # the 2 always goes home (its Ace is already there)
    return dist


@overload
def cards_home_distribution(exact: Literal[False] = False, *, suits: int = ..., ranks: int = ...) -> np.ndarray: ...
@overload
def cards_home_distribution(exact: Literal[True], *, suits: int = ..., ranks: int = ...) -> list[Fraction]: ...
@overload
def cards_home_distribution(exact: bool, *, suits: int = ..., ranks: int = ...) -> np.ndarray | list[Fraction]: ...
def cards_home_distribution(
    exact: bool = False, *, suits: int = SUITS, ranks: int = RANKS
) -> np.ndarray | list[Fraction]:
    """Probability that 0, 1, …, 48 cards go home during Citadel's deal (before the autoplay).

    The suits are independent, so the total is the convolution of the four suits' laws.
    Floats in a NumPy array, or exact `Fraction`s with ``exact=True``."""
    suits, ranks = _deck_shape(suits, ranks)
    per_suit = _suit_home_distribution(ranks)
    total = [Fraction(1)]
    for _ in range(suits):
        out = [Fraction(0)] * (len(total) + len(per_suit) - 1)
        for a, pa in enumerate(total):
            if pa:
                for b, pb in enumerate(per_suit):
                    out[a + b] += pa * pb
        total = out
    return total if exact else _array(total)


@overload
def expected_cards_home(exact: Literal[False] = False, *, suits: int = ..., ranks: int = ...) -> float: ...
@overload
def expected_cards_home(exact: Literal[True], *, suits: int = ..., ranks: int = ...) -> Fraction: ...
@overload
def expected_cards_home(exact: bool, *, suits: int = ..., ranks: int = ...) -> float | Fraction: ...
def expected_cards_home(exact: bool = False, *, suits: int = SUITS, ranks: int = RANKS) -> float | Fraction:
    """Expected number of cards Citadel's deal sends home: suits · (1/1! + 1/2! + … + 1/12!),
    about 4(e − 1) ≈ 6.873.  A float, or a `Fraction` with ``exact=True``."""
    suits, ranks = _deck_shape(suits, ranks)
    value = suits * sum(Fraction(1, math.factorial(m)) for m in range(1, ranks))
    return value if exact else float(value)


@overload
def home_probability_by_position(
    exact: Literal[False] = False, *, suits: int = ..., ranks: int = ...
) -> np.ndarray: ...
@overload
def home_probability_by_position(exact: Literal[True], *, suits: int = ..., ranks: int = ...) -> list[Fraction]: ...
@overload
def home_probability_by_position(exact: bool, *, suits: int = ..., ranks: int = ...) -> np.ndarray | list[Fraction]: ...
def home_probability_by_position(
    exact: bool = False, *, suits: int = SUITS, ranks: int = RANKS
) -> np.ndarray | list[Fraction]:
    """P(the card dealt at position i among the non-Aces goes home during the deal), i = 0 … 47.

    That card is a given (suit, rank k) with probability 1/48; it goes home iff the j = k − 2
    lower non-Ace ranks of its suit all sit among the i earlier positions (C(i, j)/C(47, j)) and
    in increasing order (1/j!)."""
    suits, ranks = _deck_shape(suits, ranks)
    n = suits * (ranks - 1)
    probs = []
    for i in range(n):
        terms = (Fraction(math.comb(i, j), math.comb(n - 1, j) * math.factorial(j)) for j in range(ranks - 1))
        probs.append(Fraction(suits, n) * sum(terms))
    return probs if exact else _array(probs)


@overload
def expected_column_lengths(
    exact: Literal[False] = False, *, suits: int = ..., ranks: int = ..., columns: int = ...
) -> np.ndarray: ...
@overload
def expected_column_lengths(
    exact: Literal[True], *, suits: int = ..., ranks: int = ..., columns: int = ...
) -> list[Fraction]: ...
@overload
def expected_column_lengths(
    exact: bool, *, suits: int = ..., ranks: int = ..., columns: int = ...
) -> np.ndarray | list[Fraction]: ...
def expected_column_lengths(
    exact: bool = False, *, suits: int = SUITS, ranks: int = RANKS, columns: int = COLUMNS
) -> np.ndarray | list[Fraction]:
    """Expected length of each Citadel column after the deal, before the autoplay (T0 first).

    Column c was meant to receive the cards at positions c, c + 8, c + 16, …; it keeps each one
    that does not go home."""
    columns = check_int(columns, "columns", 1, COLUMNS)
    probs = home_probability_by_position(True, suits=suits, ranks=ranks)
    lengths = [Fraction(0)] * columns
    for i, p in enumerate(probs):
        lengths[i % columns] += 1 - p
    return lengths if exact else _array(lengths)


def cards_home_moments(*, suits: int = SUITS, ranks: int = RANKS) -> tuple[float, float]:
    """Exact mean and standard deviation of the number of cards sent home during the deal."""
    dist = cards_home_distribution(True, suits=suits, ranks=ranks)
    mean = sum(k * p for k, p in enumerate(dist))
    var = sum((k - mean) ** 2 * p for k, p in enumerate(dist))
    return float(mean), math.sqrt(float(var))


def mean_within(deals: int, margin: float, *, suits: int = SUITS, ranks: int = RANKS) -> float:
    """The exact probability that the mean number of cards sent home during the deal, over
    `deals` independent deals, lies less than `margin` cards from the true mean: one deal's law
    combined `deals` times (a convolution, in pure Python; terms below 1e-18 are dropped, which
    changes the result by less than 1e-15)."""
    deals = check_int(deals, "deals", 1, 10_000)
    one = [float(p) for p in cards_home_distribution(True, suits=suits, ranks=ranks)]
    mean = float(expected_cards_home(True, suits=suits, ranks=ranks))
    law, low = [1.0], 0  # law[k] = P(sum == low + k)
    for _ in range(deals):
        nxt = [0.0] * (len(law) + len(one) - 1)
        for i, a in enumerate(law):
            for j, b in enumerate(one):
                nxt[i + j] += a * b
        start = next(k for k, v in enumerate(nxt) if v >= 1e-18)
        end = max(k for k, v in enumerate(nxt) if v >= 1e-18) + 1
        law, low = nxt[start:end], low + start
    return sum(p for k, p in enumerate(law) if abs((low + k) / deals - mean) < margin)


def _deck_shape(suits: object, ranks: object) -> tuple[int, int]:
    """A (reduced) deck's shape: 1 to 4 suits of 2 to 13 ranks (Spanish ValueError otherwise)."""
    return check_int(suits, "suits", 1, SUITS), check_int(ranks, "ranks", 2, RANKS)
