"""Citadel versus Beleaguered Castle: how much the deal-time foundation plays shorten the columns.

Both games deal the same deck the same way (docs/reglas.md, CB-1): the Aces start on the foundations
and the other 48 cards, in deal order, are meant for ``T(i mod 8)``.  Citadel sends home, during
the deal, every card its foundation accepts at that moment (CB-2) and then autoplays (CB-7);
Beleaguered Castle does neither (CB-8), so its eight columns always hold six cards.

Three things live here (NumPy only; plots are in `study_plots`):

* **Exact results** for Citadel before the post-deal autoplay, derived by hand:
  the k of a suit goes home during the deal exactly when the ranks 2, 3, …, k of that suit come
  in increasing order in the deal.  The relative order of a suit's cards is uniform and the four
  suits are independent, so a suit sends home at least m cards with probability 1/m!.
  The card dealt at position i (0…47 among the non-Aces) goes home with probability
  ``(1/12) · Σ_j C(i, j) / (C(47, j) · j!)`` (j = how many lower ranks of its suit must precede
  it, in order), and the column ``T(c)`` loses, on average, the sum of that over ``i ≡ c (mod 8)``.
  Every function takes ``suits``/``ranks``/``columns`` so that a reduced deck can be checked by
  enumerating every order (tests/test_study.py).
* **A vectorised paired simulation**, `simulate`, dealing each random deck both ways.
* **The same records through the rules engine**, `simulate_engine`, to cross-check deal by deal.

Random decks.  The package's numbered deals (SplitMix64, `shuffle.py`) are pure Python, too slow
for a million decks, so the study draws its own: ``numpy.random.default_rng(seed)`` and
``Generator.permuted`` on rows of ``0…51`` (card id = suit index · 13 + rank − 1, suits ♠ ♥ ♦ ♣).
Rows are drawn one after another from the same generator, so deal number i of a seed is the same
whatever the chunk size; `draw_decks` gives the very decks `simulate` used, and `deck_codes`
turns one into the card codes `solitaire_nb.new_game(..., deck=...)` takes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .cards import RANK_CODES, SUIT_CODES
from .checks import check_int, check_number, check_seed, shown
from .progress import kernel_bar

SUITS = 4
RANKS = 13
COLUMNS = 8
ROUNDS = 6  # 48 non-Aces over 8 columns
NON_ACES = SUITS * (RANKS - 1)
Z95 = 1.959963984540054  # two-sided 95 % normal quantile
MAX_DEALS = 10_000_000  # the most deals one call deals (a few hundred MB of records)

CARD_CODES: tuple[str, ...] = tuple(r + s for s in SUIT_CODES for r in RANK_CODES)
"""Card code of each card id 0…51 (``CARD_CODES[12] == "KS"``)."""

ProgressFn = Callable[[int, int], Any]


# =============================================================================== exact results
def _suit_home_distribution(ranks: int) -> list[Fraction]:
    """P(a suit sends exactly m cards home during the deal), m = 0 … ranks-1.

    At least m go home iff ranks 2…m+1 come in increasing order: probability 1/m!."""
    at_least = [Fraction(1, math.factorial(m)) for m in range(ranks)] + [Fraction(0)]
    at_least[0] = Fraction(1)
    dist = [at_least[m] - at_least[m + 1] for m in range(ranks)]
    dist[0] = Fraction(0)  # the 2 always goes home (its Ace is already there)
    return dist


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
    return total if exact else np.array([float(p) for p in total])


def expected_cards_home(exact: bool = False, *, suits: int = SUITS, ranks: int = RANKS) -> float | Fraction:
    """Expected number of cards Citadel's deal sends home: suits · (1/1! + 1/2! + … + 1/12!),
    about 4(e − 1) ≈ 6.873.  A float, or a `Fraction` with ``exact=True``."""
    suits, ranks = _deck_shape(suits, ranks)
    value = suits * sum(Fraction(1, math.factorial(m)) for m in range(1, ranks))
    return value if exact else float(value)


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
    return probs if exact else np.array([float(p) for p in probs])


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
    return lengths if exact else np.array([float(x) for x in lengths])


def cards_home_moments(*, suits: int = SUITS, ranks: int = RANKS) -> tuple[float, float]:
    """Exact mean and standard deviation of the number of cards sent home during the deal."""
    dist = cards_home_distribution(True, suits=suits, ranks=ranks)
    mean = sum(k * p for k, p in enumerate(dist))
    var = sum((k - mean) ** 2 * p for k, p in enumerate(dist))
    return float(mean), math.sqrt(float(var))


def _deck_shape(suits: object, ranks: object) -> tuple[int, int]:
    """A (reduced) deck's shape: 1 to 4 suits of 2 to 13 ranks (Spanish ValueError otherwise)."""
    return check_int(suits, "suits", 1, SUITS), check_int(ranks, "ranks", 2, RANKS)


# =============================================================================== statistics
def _numbers(values: object, what: str) -> np.ndarray:
    """A non-empty 1-D array of finite non-negative numbers, else a Spanish ValueError."""
    try:
        out = np.asarray(values, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{what} debe ser una lista de números, no {shown(values)}") from None
    if out.ndim != 1 or not out.size or not np.isfinite(out).all() or (out < 0).any():
        raise ValueError(f"{what} debe ser una lista no vacía de números finitos, 0 o más; no {shown(values)}")
    return out


def mean_ci(values: np.ndarray, axis: int = 0, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean with a normal-approximation confidence interval (95 % by default): (mean, low, high)."""
    try:
        values = np.asarray(values, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"values debe ser una tabla de números, no {shown(values)}") from None
    axis = check_int(axis, "axis", 0, max(values.ndim - 1, 0))
    if values.ndim == 0 or not values.shape[axis]:
        raise ValueError("values debe tener al menos un número")
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
    observed, probs = _numbers(observed, "observed"), _numbers(probs, "probs")
    if observed.shape != probs.shape:
        raise ValueError(f"observed y probs deben tener la misma longitud, no {len(observed)} y {len(probs)}")
    if not observed.sum() > 0 or not probs.sum() > 0:
        raise ValueError("observed y probs deben tener algún valor mayor que 0")
    if not check_number(min_expected, "min_expected") > 0:
        raise ValueError(f"min_expected debe ser un número mayor que 0, no {shown(min_expected)}")
    expected = probs * observed.sum()
    groups = _pool(expected, min_expected)
    obs = np.array([observed[a : b + 1].sum() for a, b in groups])
    exp = np.array([expected[a : b + 1].sum() for a, b in groups])
    stat = float(((obs - exp) ** 2 / exp).sum())
    df = len(groups) - 1
    return ChiSquare(stat, df, chi2_sf(stat, df), tuple(groups))


def _pool(expected: np.ndarray, min_expected: float) -> list[tuple[int, int]]:
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


# =============================================================================== random decks
def _deck_stream(seed: int | None) -> np.random.Generator:
    return np.random.default_rng(seed)


def _draw(rng: np.random.Generator, n: int) -> np.ndarray:
    """`n` uniformly shuffled decks as an (n, 52) uint8 array of card ids, one row per deck."""
    return rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (n, 1)), axis=1)


def draw_decks(n: int, seed: int | None = 0) -> np.ndarray:
    """The first `n` decks `simulate(…, seed=seed)` deals: (n, 52) card ids, first dealt first."""
    n = check_int(n, "El número de repartos", 0, MAX_DEALS)
    return _draw(_deck_stream(_study_seed(seed)), n)


def _study_seed(seed: object) -> int | None:
    return None if seed is None else check_seed(seed, "La semilla (seed)")


def deck_codes(deck: Iterable[int]) -> list[str]:
    """Card codes of a deck of card ids, ready for ``new_game(..., deck=...)``."""
    if isinstance(deck, str) or not isinstance(deck, Iterable):
        raise ValueError(f"El reparto debe ser una lista de números de carta (0 a 51), no {shown(deck)}")
    return [CARD_CODES[check_int(c, "Cada número de carta", 0, 51)] for c in deck]


def deck_ids(codes: Iterable[str]) -> np.ndarray:
    """Card ids of a deck given as card codes (inverse of `deck_codes`)."""
    from .cards import Card

    if isinstance(codes, str) or not isinstance(codes, Iterable):
        raise ValueError(f"El reparto debe ser una lista de códigos de carta, no {shown(codes)}")
    return np.array([Card.parse(c).id for c in codes], dtype=np.uint8)


# =============================================================================== results
@dataclass(frozen=True)
class Layout:
    """Column lengths of many deals at one moment: ``lengths[d, c]`` is column T(c) of deal d."""

    lengths: np.ndarray

    @property
    def on_table(self) -> np.ndarray:
        """Cards on the table (all eight columns) per deal."""
        return self.lengths.sum(axis=1, dtype=np.int16)

    @property
    def longest(self) -> np.ndarray:
        return self.lengths.max(axis=1)

    @property
    def shortest(self) -> np.ndarray:
        return self.lengths.min(axis=1)

    @property
    def length_counts(self) -> np.ndarray:
        """(deals, 7): how many of the eight columns have length 0, 1, …, 6."""
        return np.stack([(self.lengths == k).sum(axis=1, dtype=np.uint8) for k in range(ROUNDS + 1)], axis=1)


@dataclass(frozen=True)
class StudyResults:
    """Per-deal records of a paired study (every array has one row per deal, same order)."""

    seed: int | None
    beleaguered: Layout
    """Beleaguered Castle's columns (always six cards each)."""
    after_deal: Layout
    """Citadel's columns right after the deal, before the autoplay."""
    citadel: Layout
    """Citadel's columns after the post-deal autoplay: the position the player starts from."""
    home_in_deal: np.ndarray
    """Cards Citadel's deal sent to the foundations (CB-2)."""
    autoplay_moved: np.ndarray
    """Cards the autoplay right after the deal moved to the foundations (CB-7)."""
    decks: np.ndarray
    """The first few decks (card ids), kept to show or replay them; see `deck_codes`."""

    @property
    def n(self) -> int:
        return len(self.home_in_deal)

    @property
    def foundation_cards(self) -> np.ndarray:
        """Cards on Citadel's foundations once the autoplay stops (the four Aces included)."""
        return SUITS + self.home_in_deal.astype(np.int16) + self.autoplay_moved

    @property
    def fewer_on_table(self) -> np.ndarray:
        """Per deal: how many fewer cards Citadel leaves on the table than Beleaguered Castle."""
        return self.beleaguered.on_table - self.citadel.on_table

    def typical_deal(self) -> int:
        """Index (among the kept decks) of a deal whose Citadel table count is the median one."""
        k = len(self.decks)
        if k == 0:
            raise ValueError("No se guardó ningún reparto (keep_decks=0)")
        table = self.citadel.on_table[:k].astype(float)
        return int(np.argmin(np.abs(table - np.median(self.citadel.on_table))))

    def __repr__(self) -> str:
        return f"StudyResults(n={self.n}, seed={self.seed}, decks kept={len(self.decks)})"


def _empty_results(n: int, seed: int | None, decks: np.ndarray) -> StudyResults:
    """Records for `n` deals, zero-filled, for `simulate` to fill chunk by chunk."""
    def lengths() -> Layout:
        return Layout(np.zeros((n, COLUMNS), dtype=np.uint8))

    zeros = np.zeros(n, dtype=np.uint8)
    return StudyResults(seed, lengths(), lengths(), lengths(), zeros, zeros.copy(), decks)


def _fill(out: StudyResults, start: int, part: StudyResults) -> None:
    stop = start + part.n
    for name in ("beleaguered", "after_deal", "citadel"):
        getattr(out, name).lengths[start:stop] = getattr(part, name).lengths
    out.home_in_deal[start:stop] = part.home_in_deal
    out.autoplay_moved[start:stop] = part.autoplay_moved


# =============================================================================== vectorised path
def deal_decks(decks: np.ndarray) -> StudyResults:
    """Deal every deck (rows of card ids) both ways at once and return the records."""
    decks = _deck_rows(decks)
    n = len(decks)
    grid = decks[decks % RANKS != 0].reshape(n, NON_ACES)  # CB-1: non-Aces in deal order
    home_grid, home_count = _home_in_deal(grid)
    present = ~home_grid.reshape(n, ROUNDS, COLUMNS)  # slot [d, r, c] holds position 8r + c
    after_deal = _lengths(present)
    next_rank = 2 + home_count  # (n, 4): the rank each foundation takes next
    moved = _autoplay(grid.reshape(n, ROUNDS, COLUMNS), present, next_rank)
    return StudyResults(
        seed=None,
        beleaguered=Layout(np.full((n, COLUMNS), ROUNDS, dtype=np.uint8)),  # CB-8: nothing leaves
        after_deal=Layout(after_deal),
        citadel=Layout(_lengths(present)),
        home_in_deal=home_count.sum(axis=1, dtype=np.uint8),
        autoplay_moved=moved,
        decks=decks[:0],
    )


def _deck_rows(decks: object) -> np.ndarray:
    """Decks as an (n, 52) uint8 array, each row an order of the 52 card ids (else a Spanish
    ValueError)."""
    try:
        raw = np.asarray(decks)
        ok = raw.ndim == 2 and raw.shape[1] == 52 and raw.dtype.kind in "iu"
    except (TypeError, ValueError):
        ok = False
    if not ok or (raw.size and not (np.sort(raw, axis=1) == np.arange(52)).all()):
        raise ValueError("Los repartos deben ser filas de 52 números de carta, cada fila los números 0 a 51 una vez")
    return raw.astype(np.uint8)


def _lengths(present: np.ndarray) -> np.ndarray:
    """(n, 8) column lengths from the (n, 6, 8) slots still on the table (adding six slices is
    several times faster than ``sum(axis=1)`` here)."""
    slots = present.view(np.uint8)
    out = slots[:, 0].copy()
    for r in range(1, ROUNDS):
        out += slots[:, r]
    return out


def _home_in_deal(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which dealt cards go home during the deal (CB-2), and how many per suit.

    No loop over the deal: the k of a suit goes home iff ranks 2…k of that suit appear in
    increasing position order, a running AND over each suit's ranks.  Flat indices are used
    because 1-D fancy indexing is much faster than the 2-D broadcast form."""
    n = len(grid)
    flat = ((np.arange(n, dtype=np.int32) * 52)[:, None] + grid).ravel()  # (deal, card id)
    pos = np.zeros(n * 52, dtype=np.int8)  # each card's position among the non-Aces
    pos[flat] = np.tile(np.arange(NON_ACES, dtype=np.int8), n)
    by_suit = pos.reshape(n, SUITS, RANKS)[:, :, 1:]  # ranks 2…13
    home_by_id = np.zeros((n, SUITS, RANKS), dtype=bool)
    home_by_id[:, :, 1] = True  # the 2 always goes home: its Ace is already there
    np.logical_and.accumulate(by_suit[:, :, 1:] > by_suit[:, :, :-1], axis=2, out=home_by_id[:, :, 2:])
    home_grid = home_by_id.ravel()[flat].reshape(n, NON_ACES)
    return home_grid, home_by_id.sum(axis=2, dtype=np.int8)


def _autoplay(grid: np.ndarray, present: np.ndarray, next_rank: np.ndarray) -> np.ndarray:
    """CB-7 right after the deal, on every deal at once; updates `present` and `next_rank`.

    Each sweep sends home every column top its foundation accepts.  Two tops can never be the
    same suit's next card, so moving them together is the same as moving them one by one, and
    the autoplay's end result does not depend on the order (a card going home never stops
    another from going).  Deals where nothing moved drop out of the next sweep."""
    n = len(grid)
    moved = np.zeros(n, dtype=np.uint8)
    active = np.arange(n)
    g, pres, nxt = grid, present, next_rank
    while active.size:
        m = len(active)
        slots = pres.view(np.uint8)
        top = slots[:, 0].copy()  # 1 + slot of each column's top card, 0 for a hole
        for r in range(1, ROUNDS):
            np.maximum(top, slots[:, r] * np.uint8(r + 1), out=top)
        slot = top.astype(np.intp) - 1
        rows = np.arange(m)[:, None]
        card = g.ravel()[rows * NON_ACES + slot.clip(0) * COLUMNS + np.arange(COLUMNS)]
        suit = card // RANKS
        goes = (top > 0) & (card % RANKS + 1 == nxt.ravel()[rows * SUITS + suit])
        row, col = np.nonzero(goes)
        deal = active[row]
        present[deal, slot[row, col], col] = False
        next_rank[deal, suit[row, col]] += 1  # distinct suits within a deal: no lost updates
        moved += np.bincount(deal, minlength=n).astype(np.uint8)
        active = active[goes.any(axis=1)]
        g, pres, nxt = grid[active], present[active], next_rank[active]
    return moved


def _progress(progress: bool | ProgressFn, total: int) -> ProgressFn | None:
    """A callback for `simulate`: the caller's own, the default bar inside a kernel, or None."""
    if callable(progress):
        return progress
    update = kernel_bar(total, "Repartos") if progress else None
    if update is None:
        return None

    def report(done: int, total: int) -> None:
        update(done, f"{done:,} de {total:,}".replace(",", "."))

    return report


def simulate(
    n: int,
    seed: int | None = 0,
    progress: bool | ProgressFn = False,
    *,
    chunk: int = 50_000,
    keep_decks: int = 1000,
) -> StudyResults:
    """Deal `n` random decks both as Citadel and as Beleaguered Castle (a paired study).

    `seed` fixes the decks (`draw_decks(n, seed)` gives them back).  Deals are processed
    `chunk` at a time so memory stays small; `keep_decks` of them are kept in the results.
    `progress`: False (silent), True (a progress bar when running in a kernel, else silent)
    or a function called as ``progress(done, n)`` after each chunk."""
    n = check_int(n, "El número de repartos", 1, MAX_DEALS)
    seed = _study_seed(seed)
    chunk = check_int(chunk, "chunk", 1, MAX_DEALS)
    keep_decks = check_int(keep_decks, "keep_decks", 0, MAX_DEALS)
    if not (isinstance(progress, bool) or callable(progress)):
        raise ValueError(f"progress debe ser True, False o una función, no {shown(progress)}")
    report = _progress(progress, n)
    rng = _deck_stream(seed)
    kept = np.zeros((max(0, min(n, keep_decks)), 52), dtype=np.uint8)
    out = _empty_results(n, seed, kept)
    done = 0
    while done < n:
        decks = _draw(rng, min(chunk, n - done))
        if done < len(kept):
            kept[done : done + len(decks)] = decks[: len(kept) - done]
        _fill(out, done, deal_decks(decks))
        done += len(decks)
        if report is not None:
            report(done, n)
    return out


# =============================================================================== engine path
def simulate_engine(decks: Iterable[Sequence[int] | Sequence[str]]) -> StudyResults:
    """The same records as `simulate`, but dealt by the rules engine (`new_game`), deck by deck.

    Slow (pure Python): a cross-check on a sample.  Decks are rows of card ids or of card codes."""
    from .engine import new_game

    rows: dict[str, list] = {k: [] for k in ("bc", "deal", "cit", "home", "auto", "decks")}
    if isinstance(decks, str) or not isinstance(decks, Iterable):
        raise ValueError(f"decks debe ser una lista de repartos, no {shown(decks)}")
    for deck in decks:
        if isinstance(deck, str) or not isinstance(deck, Iterable):
            raise ValueError(f"Cada reparto debe ser una lista de cartas, no {shown(deck)}")
        codes = [c if isinstance(c, str) else CARD_CODES[check_int(c, "Cada número de carta", 0, 51)] for c in deck]
        bc = new_game("beleaguered_castle", deck=codes)
        dealt = new_game("citadel", deck=codes, autoplay=False)
        cit = new_game("citadel", deck=codes)
        rows["bc"].append(_tableau_lengths(bc))
        rows["deal"].append(_tableau_lengths(dealt))
        rows["cit"].append(_tableau_lengths(cit))
        rows["home"].append(len(cit.deal_report.to_foundations))
        rows["auto"].append(len(cit.deal_report.autoplay))
        rows["decks"].append(deck_ids(codes))

    def lengths(key: str) -> Layout:
        return Layout(np.array(rows[key], dtype=np.uint8).reshape(-1, COLUMNS))

    return StudyResults(
        seed=None,
        beleaguered=lengths("bc"),
        after_deal=lengths("deal"),
        citadel=lengths("cit"),
        home_in_deal=np.array(rows["home"], dtype=np.uint8),
        autoplay_moved=np.array(rows["auto"], dtype=np.uint8),
        decks=np.array(rows["decks"], dtype=np.uint8).reshape(-1, 52),
    )


def _tableau_lengths(game) -> list[int]:
    return [len(game.pile(f"T{c}")) for c in range(COLUMNS)]


def deal_games(codes: Sequence[str]) -> dict[str, Any]:
    """The engine's games for one deck: Beleaguered Castle, Citadel right after its deal
    (``autoplay=False``) and Citadel after the autoplay, keyed "beleaguered", "after_deal",
    "citadel" (the same keys as the `StudyResults` layouts)."""
    from .engine import new_game

    if isinstance(codes, str) or not isinstance(codes, Iterable):
        raise ValueError(f"El reparto debe ser una lista de códigos de carta, no {shown(codes)}")
    codes = list(codes)
    return {
        "beleaguered": new_game("beleaguered_castle", deck=codes),
        "after_deal": new_game("citadel", deck=codes, autoplay=False),
        "citadel": new_game("citadel", deck=codes),
    }


# =============================================================================== summary
def summary(results: StudyResults) -> dict[str, tuple[float, float, float]]:
    """Headline figures as (mean, low, high) with 95 % confidence intervals."""
    if not isinstance(results, StudyResults):
        raise ValueError(f"summary necesita los resultados de simulate, no {shown(results)}")
    figures = {
        "on_table_bc": results.beleaguered.on_table,
        "on_table_after_deal": results.after_deal.on_table,
        "on_table": results.citadel.on_table,
        "fewer_on_table": results.fewer_on_table,
        "home_in_deal": results.home_in_deal,
        "autoplay_moved": results.autoplay_moved,
        "longest": results.citadel.longest,
        "shortest": results.citadel.shortest,
    }
    return {k: tuple(float(x) for x in mean_ci(v)) for k, v in figures.items()}


# =============================================================================== how the columns shrink
def ratio_ci(numerator: np.ndarray, denominator: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Ratio of sums Σ numerator / Σ denominator over deals, with a 95 % interval.

    The deals are the independent units, so the interval is the delta-method one of a ratio
    estimator: variance ≈ Σ (y − R·x)² / (n (n − 1) x̄²)."""
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


def column_shortening(layout: Layout) -> dict[str, tuple[float, float, float]]:
    """How a deal shortens the eight columns, as (value, low, high) with 95 % intervals:

    * ``columns_shortened``: columns per deal that lost at least one card;
    * ``cards_per_shortened_column``: cards lost by each of those columns, on average;
    * ``share_losing_one``: the share of those columns that lost exactly one card;
    * ``columns_with_six``: columns per deal that kept their six cards;
    * ``longest_keeps_six``: the share of deals whose longest column kept six cards."""
    lost = ROUNDS - layout.lengths.astype(np.int16)
    shortened = (lost > 0).sum(axis=1)
    return {
        "columns_shortened": _floats(mean_ci(shortened)),
        "cards_per_shortened_column": ratio_ci(lost.sum(axis=1), shortened),
        "share_losing_one": ratio_ci((lost == 1).sum(axis=1), shortened),
        "columns_with_six": _floats(mean_ci((lost == 0).sum(axis=1))),
        "longest_keeps_six": _floats(mean_ci(layout.longest == ROUNDS)),
    }


@dataclass(frozen=True)
class ColumnGap:
    """The column with the most cards on average, the one with the fewest, and how far apart
    they are: the paired mean difference per deal with its 95 % interval."""

    longest: int
    """Index of the column with the most cards on average (0 = Tablero 1)."""
    shortest: int
    """Index of the column with the fewest cards on average."""
    lengths: tuple[tuple[float, float, float], ...]
    """Each column's mean length as (mean, low, high)."""
    difference: tuple[float, float, float]
    """Mean of (longest − shortest) per deal, with its interval."""


def column_gap(layout: Layout) -> ColumnGap:
    """How much the eight columns differ on average (see `ColumnGap`)."""
    lengths = layout.lengths.astype(float)
    mean, low, high = mean_ci(lengths)
    longest, shortest = int(mean.argmax()), int(mean.argmin())
    diff = _floats(mean_ci(lengths[:, longest] - lengths[:, shortest]))
    per_column = tuple(_floats(t) for t in zip(mean, low, high, strict=True))
    return ColumnGap(longest, shortest, per_column, diff)


def _floats(values: Iterable[Any]) -> tuple[float, float, float]:
    a, b, c = (float(v) for v in values)
    return a, b, c
