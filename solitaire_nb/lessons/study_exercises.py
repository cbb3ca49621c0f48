"""The exercises of notebook 06 (Citadel frente a Beleaguered Castle) and the answers the
engine and the measurements give them.

Three kinds: an order count worked with the engine (in how many orders of four spades does a
card go home during the deal), a numbered deal the student deals in the try widget, and a
transfer to a game the notebook has not measured before, Citadel's deal with ten columns,
measured here with the same paired comparison the lab uses.
"""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING

from ..core.cards import CARDS
from ..engine import new_game
from ..study.tally import count_deal

if TYPE_CHECKING:
    from ..study.compared import Comparison

ORDERED_SPADES = ("2S", "3S", "4S", "5S")
"""Exercise estudio-1: the four spades whose orders are counted."""
ORDERED_CARD = "4S"
"""Exercise estudio-1: the card asked about."""
DEAL_SEED = 505
"""Exercise estudio-2: the numbered deal the student deals."""
TEN_COLUMNS = "citadel+columns=10"
"""Exercise estudio-3: Citadel's deal with ten columns (a game notebook 06 measures only there)."""
TEN_COLUMNS_DEALS = 20_000
TEN_COLUMNS_SEED = 2026


def orders_sending_home(card: str = ORDERED_CARD, cards: tuple[str, ...] = ORDERED_SPADES) -> int:
    """In how many of the orders of `cards` (dealt last, every other card before them) Citadel's
    deal sends `card` home: each order is dealt by the engine, without the automatic play."""
    first = [c.code for c in CARDS if c.code not in cards]
    count = 0
    for order in itertools.permutations(cards):
        report = new_game("citadel", deck=first + list(order), autoplay=False).deal_report
        assert report is not None  # Citadel always reports its deal
        count += any(c.code == card for c in report.to_foundations)
    return count


def shortened_in_deal_exercise() -> int:
    """Columns of Citadel's partida nº `DEAL_SEED` with fewer than six cards after the automatic play."""
    return count_deal(DEAL_SEED).shortened_after_autoplay


@functools.cache
def ten_columns() -> Comparison:
    """Citadel with ten columns against Citadel, the same decks dealt both ways."""
    from ..study import compare

    return compare(TEN_COLUMNS, "citadel", n=TEN_COLUMNS_DEALS, seed=TEN_COLUMNS_SEED)


def ten_columns_home_in_deal() -> tuple[float, float, float]:
    """Cards sent home during the deal with ten columns: (mean, low, high), 95 % interval."""
    return ten_columns().a.figures["home_in_deal"]
