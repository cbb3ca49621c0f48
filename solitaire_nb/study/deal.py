"""The paired deals of the Citadel study: each random deck dealt both as Citadel and as
Beleaguered Castle, and the per-deal records (`StudyResults`).

Two paths give the same records: `simulate` deals many decks at once with NumPy array
operations (Citadel through the family's dealer, `family.py`), and `simulate_engine` deals
them one by one through the rules engine, to cross-check the first on a sample.

Random decks.  The package's numbered deals (SplitMix64, `shuffle.py`) are pure Python, too slow
for a million decks, so the study draws its own: ``numpy.random.default_rng(seed)`` and
``Generator.permuted`` on rows of ``0…51`` (card id = suit index · 13 + rank − 1, suits ♠ ♥ ♦ ♣).
Rows are drawn one after another from the same generator, so deal number i of a seed is the same
whatever the chunk size; `draw_decks` gives the very decks `simulate` used, and `deck_codes`
turns one into the card codes `solitaire_nb.new_game(..., deck=...)` takes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import numpy as np

from ..core.cards import RANK_CODES, SUIT_CODES
from ..core.checks import check_int, check_progress, check_seed, shown
from ..core.rules import Rules
from ..games import GAMES
from .exact import COLUMNS, ROUNDS, SUITS
from .family import _deal, deck_rows

MAX_DEALS = 10_000_000  # the most deals one call deals: bounds the memory of the records

CARD_CODES: tuple[str, ...] = tuple(r + s for s in SUIT_CODES for r in RANK_CODES)
"""Card code of each card id 0…51 (``CARD_CODES[12] == "KS"``)."""

ProgressFn = Callable[[int, int], Any]


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
    from ..core.cards import Card

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
    return _deal_both(deck_rows(decks))


def _deal_both(decks: np.ndarray) -> StudyResults:
    """`deal_decks` for decks already checked: Citadel is dealt by the family's dealer
    (`family.deal_family`), Beleaguered Castle needs no dealing (CB-8: nothing leaves)."""
    citadel = _deal(decks, _citadel_rules())
    return StudyResults(
        seed=None,
        beleaguered=Layout(np.full((len(decks), COLUMNS), ROUNDS, dtype=np.uint8)),
        after_deal=Layout(citadel.after_deal),
        citadel=Layout(citadel.lengths),
        home_in_deal=citadel.home_in_deal,
        autoplay_moved=citadel.autoplay_moved,
        decks=decks[:0],
    )


@cache
def _citadel_rules() -> Rules:
    return GAMES["citadel"].rules_for()


def simulate(
    n: int,
    seed: int | None = 0,
    progress: ProgressFn | Literal[False] | None = None,
    *,
    chunk: int = 50_000,
    keep_decks: int = 1000,
) -> StudyResults:
    """Deal `n` random decks both as Citadel and as Beleaguered Castle (a paired study).

    `seed` fixes the decks (`draw_decks(n, seed)` gives them back).  Deals are processed
    `chunk` at a time so memory stays small; `keep_decks` of them are kept in the results.
    `progress`: None (or False) for silence, or a function called as ``progress(done, n)``
    after each chunk, e.g. the board's ``progress_bar("Repartos")`` in a notebook."""
    n = check_int(n, "El número de repartos", 1, MAX_DEALS)
    seed = _study_seed(seed)
    chunk = check_int(chunk, "chunk", 1, MAX_DEALS)
    keep_decks = check_int(keep_decks, "keep_decks", 0, MAX_DEALS)
    report = check_progress(progress, "progress(hechos, total)", "Repartos")
    rng = _deck_stream(seed)
    kept = np.zeros((max(0, min(n, keep_decks)), 52), dtype=np.uint8)
    out = _empty_results(n, seed, kept)
    done = 0
    while done < n:
        decks = _draw(rng, min(chunk, n - done))
        if done < len(kept):
            kept[done : done + len(decks)] = decks[: len(kept) - done]
        _fill(out, done, _deal_both(decks))
        done += len(decks)
        if report is not None:
            report(done, n)
    return out


# =============================================================================== engine path
def simulate_engine(decks: Iterable[Sequence[int] | Sequence[str]]) -> StudyResults:
    """The same records as `simulate`, but dealt by the rules engine (`new_game`), deck by deck.

    Slow (pure Python): a cross-check on a sample.  Decks are rows of card ids or of card codes."""
    from ..engine import new_game

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
        report = cit.deal_report
        assert report is not None  # Citadel always reports its deal
        rows["home"].append(len(report.to_foundations))
        rows["auto"].append(len(report.autoplay))
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
    from ..engine import new_game

    if isinstance(codes, str) or not isinstance(codes, Iterable):
        raise ValueError(f"El reparto debe ser una lista de códigos de carta, no {shown(codes)}")
    codes = list(codes)
    return {
        "beleaguered": new_game("beleaguered_castle", deck=codes),
        "after_deal": new_game("citadel", deck=codes, autoplay=False),
        "citadel": new_game("citadel", deck=codes),
    }
