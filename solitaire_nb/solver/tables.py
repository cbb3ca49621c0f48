"""Card facts the searches look up by card id (0..51), and the rules' acceptance tables.

Built once at import from `solitaire_nb.core.cards.CARDS` and from the rules' own
`TableauRule.accepts_table()` / `FoundationRule.accepts_table()`: the rules data stays the one
source of what may go where; these are only flat copies, indexed for speed.
"""

from __future__ import annotations

from ..core.cards import CARDS
from ..core.rules import FoundationRule, TableauRule

_RANK = [c.rank for c in CARDS]
_SUIT = ["SHDC".index(c.suit) for c in CARDS]
_RED = [int(c.is_red) for c in CARDS]
# Scotch's foundation classes: a foundation started by a black Ace takes black odd ranks and
# red even ranks (class 1), the others the rest (class 0).  Per class and rank, its two
# cards; per class, its two Kings.
_CLASS_RANK = [[tuple(c.id for c in CARDS if c.rank == r and (int(c.is_red) + r) % 2 == k) for r in range(14)]
               for k in (0, 1)]
_CLASS_KINGS = [_CLASS_RANK[k][13] for k in (0, 1)]
# alternate-colour foundations (Scotch): the cards a foundation topped by card c takes now or
# next (index 52: an empty foundation, which takes any Ace)
_ALT_NEXT = [
    tuple(d.id for d in CARDS if (d.rank == c.rank + 1 and d.color != c.color) or (d.rank == c.rank + 2 and d.color == c.color))
    for c in CARDS
] + [tuple(d.id for d in CARDS if d.rank == 1)]
_FC_VALUE = [c.rank * 4 + "HCDS".index(c.suit) for c in CARDS]  # how Freecell Solver orders cards
_FC_BYTES = bytes(_FC_VALUE) + bytes(256 - 52)  # the same, as a table for `bytes.translate`
_RANK_BYTES = bytes(r - 1 for r in _RANK) + bytes(256 - 52)  # rank from 0, for `bytes.translate`
# the other card of the same rank and colour (♠↔♣, ♥↔♦)
_TWIN = [next(d.id for d in CARDS if d.rank == c.rank and d.color == c.color and d.suit != c.suit) for c in CARDS]

_ACCEPTS: dict[TableauRule | FoundationRule, tuple[tuple[int, ...], ...]] = {}


def accepts_table(rule: TableauRule | FoundationRule) -> tuple[tuple[int, ...], ...]:
    """`rule.accepts_table()` (a `TableauRule` or `FoundationRule`: per top card id, the ids of
    the cards that may go on it), built once per rule value."""
    table = _ACCEPTS.get(rule)
    if table is None:
        table = _ACCEPTS[rule] = rule.accepts_table()
    return table
