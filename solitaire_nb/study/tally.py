"""One numbered deal dealt as Citadel and as Beleaguered Castle, counted; and a class's tally.

`count_deal(seed)` deals partida n.º `seed` of both games through the rules engine and counts
what Citadel's deal did: the cards it sent home while dealing, the cards the automatic play
lifted afterwards, and how many of the eight columns lost at least one card, at the two
moments notebook 06 names «tras el reparto» (the deal only) and «tras el juego automático».
`Tally` adds up the deals a student deals (each number once) and says the running means in
Spanish.  No widget here: the board's `deal_pair` shows both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.checks import check_seed, shown
from ..core.numbers_es import decimal, thousands
from ..engine import Game, new_game

COLUMNS = 8
ROUNDS = 6


@dataclass(frozen=True)
class DealCounts:
    """What Citadel's deal did to partida n.º `seed` (Beleaguered Castle keeps 6 cards a column)."""

    seed: int
    home_in_deal: int
    """Cards sent home while dealing (the deal only)."""
    autoplay: int
    """Cards the automatic play lifted after the deal."""
    after_deal: tuple[int, ...]
    """Each column's length when the deal ends, before the automatic play."""
    after_autoplay: tuple[int, ...]
    """Each column's length after the automatic play."""

    @property
    def fewer_on_table(self) -> int:
        """Cards fewer on the table than Beleaguered Castle's 48, after the automatic play."""
        return self.home_in_deal + self.autoplay

    @property
    def shortened_after_deal(self) -> int:
        """Columns that lost at least one card in the deal only."""
        return sum(n < ROUNDS for n in self.after_deal)

    @property
    def shortened_after_autoplay(self) -> int:
        """Columns with fewer than six cards after the automatic play."""
        return sum(n < ROUNDS for n in self.after_autoplay)


def counts_of(citadel: Game) -> DealCounts:
    """The counts of a freshly dealt Citadel game (no move played yet)."""
    report, seed = citadel.deal_report, citadel.seed
    if report is None or seed is None:
        raise ValueError(f"Se esperaba una partida de Citadel con número, no {shown(citadel)}")
    lost = [0] * COLUMNS
    for pile in report.meant_for:
        lost[int(pile[1:])] += 1
    after_autoplay = tuple(len(citadel.piles[f"T{c}"]) for c in range(COLUMNS))
    return DealCounts(
        seed=seed,
        home_in_deal=len(report.to_foundations),
        autoplay=len(report.autoplay),
        after_deal=tuple(ROUNDS - n for n in lost),
        after_autoplay=after_autoplay,
    )


def deal_both(seed: int) -> tuple[Game, Game]:
    """Partida n.º `seed` of Citadel and of Beleaguered Castle: the same deck, dealt both ways."""
    seed = check_seed(seed)
    return new_game("citadel", seed=seed), new_game("beleaguered_castle", seed=seed)


def count_deal(seed: int) -> DealCounts:
    """`DealCounts` of partida n.º `seed` (a Spanish ValueError for a bad number)."""
    return counts_of(deal_both(seed)[0])


@dataclass
class Tally:
    """The deals a student has dealt, each number counted once, and their running means."""

    deals: dict[int, DealCounts] = field(default_factory=dict)

    def add(self, counts: DealCounts) -> bool:
        """Count a deal; False (and nothing changes) if its number was counted already."""
        if counts.seed in self.deals:
            return False
        self.deals[counts.seed] = counts
        return True

    @property
    def n(self) -> int:
        return len(self.deals)

    def mean(self, what: str) -> float:
        """The mean of a `DealCounts` figure over the deals counted (0 with none)."""
        if not self.deals:
            return 0.0
        return sum(getattr(d, what) for d in self.deals.values()) / self.n

    def text(self) -> str:
        """The tally in Spanish sentences, for the page: the cards home, not the columns (the
        reader counts those in the deal's table)."""
        if not self.deals:
            return "Todavía no has contado ningún reparto: pulsa «Repartir» u «Otro reparto»."
        deals = "1 reparto" if self.n == 1 else f"{thousands(self.n)} repartos"
        return (
            f"Llevas {deals}. De media, Citadel manda {decimal(self.mean('home_in_deal'))} cartas a "
            f"la base durante el reparto y el juego automático sube {decimal(self.mean('autoplay'))} más: "
            f"deja {decimal(self.mean('fewer_on_table'))} cartas menos en la mesa que Beleaguered Castle."
        )  # no column counts: notebook 06 asks the reader to count the columns in the table
