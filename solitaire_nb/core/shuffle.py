"""Numbered deals that are the same on every platform and Python version.

The shuffle is documented so that anyone can reproduce a deal by hand or in another language:

1. Start from new-deck order: ♠ A…K, ♥ A…K, ♦ A…K, ♣ A…K (and again for a second deck).
2. Seed a SplitMix64 generator with the deal number (0 … 2**64 − 1: the state itself).  Each draw adds
   0x9E3779B97F4A7C15 to the state and returns the standard SplitMix64 mix of it.
3. Fisher–Yates from the end: for i = n-1 down to 1, draw j uniformly in 0…i and swap
   positions i and j.  A uniform j comes from rejection sampling: draws at or above
   2**64 - (2**64 mod (i+1)) are discarded, then j = draw mod (i+1).

The result is the deal order: the first card is dealt first.  One-deck games with the same
number get the same 52-card order, so Citadel and Beleaguered Castle can be compared deal by
deal (docs/reglas.md, decisions).
"""

from __future__ import annotations

from collections.abc import Iterator

from .cards import Card, new_deck
from .checks import check_int, check_seed

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(seed: int) -> Iterator[int]:
    """Yield the SplitMix64 sequence for `seed` (an endless generator of 64-bit ints)."""
    state = seed & _MASK
    while True:
        state = (state + _GOLDEN) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        yield z ^ (z >> 31)


class SplitMix64:
    """The `splitmix64` sequence as an iterator object whose state is a plain int, so it can
    be copied (a player that draws from it can be deep-copied mid-game)."""

    def __init__(self, seed: int):
        self.state = seed & _MASK

    def __iter__(self) -> SplitMix64:
        return self

    def __next__(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)


def deal_order(seed: int, decks: int = 1) -> list[Card]:
    """The deal order of numbered deal `seed` for a game of `decks` decks."""
    seed = check_seed(seed)
    decks = check_int(decks, "El número de barajas", 1, 2)
    cards = new_deck(decks)
    draws = splitmix64(seed)
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        z = next(draws)
        while z >= limit:
            z = next(draws)
        j = z % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards
