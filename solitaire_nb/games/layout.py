"""The deal of the one-deck open games (Scotch, Baker's Dozen, Citadel, Beleaguered Castle and
every game composed from their rules), read from the `Rules` data alone, in this order:

1. `aces_out`: the four Aces go to the foundations first, one per foundation in foundation
   order: a foundation tied to a suit (`FoundationRule.start` a suit code) takes that suit's
   Ace, the others take ♠ ♥ ♦ ♣ in turn;
2. the other cards, in deal order, round after round: round k reaches `deal_rows[k]` piles
   from T0 rightwards (all `tableau_count` piles when `deal_rows` is None or has run out);
   with `deal_to_foundations` (CB-2) a card a foundation accepts at that moment goes there
   (the first foundation that takes it, as the engine's autoplay picks), and the pile it was
   meant for misses that round's card;
3. `kings_to_bottom`: each pile's Kings move to its bottom, keeping their order and the
   others' (a stable partition).

The autoplay after the deal (CB-7) is a move of the engine, not part of the layout.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ..core.cards import CARDS, SUIT_CODES, Card, same_rank_ids
from ..core.rules import FoundationRule, Layout, Rules


def deal_layout(order: list[Card], rules: Rules) -> Layout:
    """Lay out the deal order `order` (first dealt first) as `rules` say."""
    foundations: list[list[Card]] = [[] for _ in rules.foundations]
    rest = list(order)
    if rules.aces_out:
        rest = [c for c in order if c.rank != 1]
        aces = [c for c in order if c.rank == 1]
        for fi, card in enumerate(_aces_for(rules.foundations, aces)):
            foundations[fi].append(card)
    piles: dict[str, list[Card]] = {f"T{i}": [] for i in range(rules.tableau_count)}
    layout = Layout(piles)
    wants = _wants(rules.foundations, foundations) if rules.deal_to_foundations else {}
    for card, meant in zip(rest, _slots(rules), strict=False):
        home = wants.get(card.id)
        if home is None:
            piles[meant].append(card)
        else:
            foundations[home].append(card)
            layout.to_foundations.append(card)
            layout.meant_for.append(meant)
            wants = _wants(rules.foundations, foundations)
    if rules.kings_to_bottom:
        for pid, cards in piles.items():
            piles[pid] = [c for c in cards if c.rank == 13] + [c for c in cards if c.rank != 13]
    for fi, cards in enumerate(foundations):
        if cards or rules.aces_out:
            piles[f"F{fi}"] = cards
    return layout


def _slots(rules: Rules) -> Iterator[str]:
    """The pile each dealt card is meant for, round after round (endless)."""
    rows = rules.deal_rows or ()
    k = 0
    while True:
        reach = rows[k] if k < len(rows) else rules.tableau_count
        for i in range(min(reach, rules.tableau_count)):
            yield f"T{i}"
        k += 1


def _aces_for(fnds: tuple[FoundationRule, ...], aces: list[Card]) -> list[Card]:
    """The Ace each foundation starts with: its own suit's, else ♠ ♥ ♦ ♣ in turn."""
    by_suit = {c.suit: c for c in aces}
    tied = {f.start for f in fnds if f.start in SUIT_CODES}
    free = [s for s in SUIT_CODES if s not in tied]
    out = []
    for f in fnds:
        suit = f.start if f.start in SUIT_CODES else free.pop(0)
        out.append(by_suit[suit])
    return out


def _wants(fnds: tuple[FoundationRule, ...], piles: list[list[Card]]) -> dict[int, int]:
    """Card id -> the first foundation that accepts it now (the engine's choice too)."""
    out: dict[int, int] = {}
    for fi, rule in enumerate(fnds):
        pile = piles[fi]
        for cid in _follows(rule)[pile[-1].id] if pile else _starts(rule, fi, fnds, piles):
            out.setdefault(cid, fi)
    return out


def _starts(
    rule: FoundationRule, fi: int, fnds: tuple[FoundationRule, ...], piles: list[list[Card]]
) -> tuple[int, ...]:
    """What empty foundation `fi` takes (the engine's `_accepted` for an empty foundation)."""
    if rule.start == "any":
        return same_rank_ids(rule.base_rank)
    if rule.start == "new_suit":
        taken = {piles[j][0].suit for j, other in enumerate(fnds) if other.direction == rule.direction and piles[j]}
        return tuple(cid for cid in same_rank_ids(rule.base_rank) if CARDS[cid].suit not in taken)
    return (Card(rule.base_rank, rule.start).id,)


@lru_cache(maxsize=64)
def _follows(rule: FoundationRule) -> tuple[tuple[int, ...], ...]:
    return rule.accepts_table()
