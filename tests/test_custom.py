"""The rules lab's first phase: the deal as data (games/layout.py) and `custom(like, **changes)`."""

from __future__ import annotations

import itertools
import random

import pytest

import solitaire_nb as sn
from solitaire_nb.cards import Card
from solitaire_nb.games import GAMES
from solitaire_nb.games.common import row_by_row
from solitaire_nb.games.layout import deal_layout
from solitaire_nb.rules import Layout
from solitaire_nb.shuffle import deal_order

# ---------------------------------------------------------------- the deal hooks before the change
# Copied from the game modules as they were before the deal became data: the data-driven deal
# must give exactly these layouts.


def old_scotch(order: list[Card], rules) -> Layout:
    piles = row_by_row(order[:34], 17)
    for i, card in enumerate(order[34:]):
        piles.setdefault(f"T{i}", []).append(card)
    return Layout(piles)


def old_bakers_dozen(order: list[Card], rules) -> Layout:
    piles = row_by_row(order, 13)
    if rules.tableau.empty == "none":
        for pid, cards in piles.items():
            piles[pid] = [c for c in cards if c.rank == 13] + [c for c in cards if c.rank != 13]
    return Layout(piles)


def old_castle(order: list[Card], rules) -> Layout:
    to_foundations = rules.deal_to_foundations
    piles: dict[str, list[Card]] = {f"T{i}": [] for i in range(8)}
    piles.update({f"F{i}": [Card(1, s)] for i, s in enumerate("SHDC")})
    next_rank = dict.fromkeys("SHDC", 2)
    layout = Layout(piles)
    for i, card in enumerate(c for c in order if c.rank != 1):
        meant = f"T{i % 8}"
        if to_foundations and next_rank[card.suit] == card.rank:
            piles[f"F{'SHDC'.index(card.suit)}"].append(card)
            next_rank[card.suit] += 1
            layout.to_foundations.append(card)
            layout.meant_for.append(meant)
        else:
            piles[meant].append(card)
    return layout


OLD_DEALS = {
    "scotch": old_scotch,
    "bakers_dozen": old_bakers_dozen,
    "citadel": old_castle,
    "beleaguered_castle": old_castle,
}


def every_variant(name: str):
    definition = GAMES[name]
    keys = list(definition.variants)
    for values in itertools.product((False, True), repeat=len(keys)):
        yield dict(zip(keys, values, strict=True))


@pytest.mark.parametrize("name", list(OLD_DEALS))
def test_the_data_deal_is_the_old_deal_for_every_seed_and_variant(name):
    definition = GAMES[name]
    for variant in every_variant(name):
        rules = definition.rules_for(variant)
        for seed in range(1, 301):
            order = deal_order(seed, 1)
            new, old = definition.deal(list(order), rules), OLD_DEALS[name](list(order), rules)
            assert new.piles == old.piles, (name, variant, seed)
            assert new.to_foundations == old.to_foundations
            assert new.meant_for == old.meant_for
            assert deal_layout(list(order), rules).piles == old.piles
