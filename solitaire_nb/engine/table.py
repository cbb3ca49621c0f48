"""`RuleTable`: a `Rules` value compiled once for play (`rule_table`), the data `Position`
reads: pile kinds and indices, the acceptance tables, the empty-pile rule, runs, take-backs
and the automatic actions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..core.cards import CARDS, Card, same_rank_ids
from ..core.rules import ALL, FoundationRule, Rules

KINGS = same_rank_ids(13)

_TABLE_CACHE: dict[Any, Any] = {}


def _tables_for(rule) -> tuple[tuple[int, ...], ...]:
    """`rule.accepts_table()`, built once per (frozen, hashable) rule value."""
    table = _TABLE_CACHE.get(rule)
    if table is None:
        table = _TABLE_CACHE[rule] = rule.accepts_table()
    return table


def _static_start(rule: FoundationRule) -> tuple[int, ...] | None:
    """What an empty foundation takes when that doesn't depend on the others (else None)."""
    if rule.start == "any":
        return same_rank_ids(rule.base_rank)
    if rule.start == "new_suit":
        return None
    return (Card(rule.base_rank, rule.start).id,)


@dataclass(frozen=True, eq=False)
class RuleTable:
    """A `Rules` value compiled for play (`rule_table`); immutable and shared by positions.

    Pile indices follow `pile_ids`; `r`, `s`, `w` are the reserve's, stock's and waste's
    indices, or -1 when the game has none."""

    rules: Rules
    pile_ids: tuple[str, ...]
    kind: tuple[str, ...]
    """Per pile: "T" tableau, "F" foundation, "R" reserve, "S" stock, "W" waste."""
    tab: tuple[int, ...]
    fnd: tuple[int, ...]
    dests: tuple[int, ...]
    """The piles a player's card can go to: tableau then foundations."""
    r: int
    s: int
    w: int
    tab_acc: tuple[tuple[int, ...], ...]
    """Top card id -> the card ids the tableau rule lets go on it."""
    tab_ok: tuple[bool, ...]
    """The same as a flat table: ``tab_ok[top * 52 + cid]``."""
    fnd_acc: tuple[tuple[tuple[int, ...], ...], ...]
    """Per foundation (0-based within `fnd`): top card id -> the ids that may follow it."""
    fnd_start: tuple[tuple[int, ...] | None, ...]
    """Per foundation: what it takes when empty, or None where that depends on the others
    ("new_suit": a suit that has no foundation of the same direction yet)."""
    fnd_peers: tuple[tuple[int, ...], ...]
    """Per foundation: the piles of the foundations going the same direction (itself too)."""
    fnd_new_suit: tuple[tuple[tuple[int, ...], ...], ...]
    """Per "new_suit" foundation: bit set of the suits already started by its peers (bit
    s for suit s) -> the base cards it takes when empty."""
    empty: str
    """What fills an empty tableau pile: "any", "king", "none" or "reserve"."""
    empty_acc: tuple[int, ...] | None
    """What an empty tableau pile takes (ALL for any card) unless `empty` is "reserve"."""
    runs: bool
    takeback: bool
    reserve_playable: bool
    refill: bool
    shift_left: bool
    autoplay: bool
    plain: bool
    """Nothing plays by itself after a move (no autoplay, refill or shift): `Position.play`'s
    short way when no card can turn up either."""
    tab_key: tuple[int, ...]
    """Card id -> the key `moves` files it under: its rank where the tableau rule looks at the
    rank alone (build down, any suit), else its id."""
    tab_wanted: tuple[tuple[int, ...], ...]
    """Top card id -> the keys of the cards it takes (as `tab_key`)."""
    key_count: int
    """One more than the largest key (`moves` files piles in a list indexed by key)."""
    single: tuple[tuple[tuple[int, int, int], ...], ...]
    """``single[src][dst]`` is the move tuple ``(src, dst, 1)`` (built once)."""


@cache
def rule_table(rules: Rules) -> RuleTable:
    """The compiled table of `rules` (built once per `Rules` value)."""
    ids = [f"T{i}" for i in range(rules.tableau_count)]
    ids += [f"F{i}" for i in range(len(rules.foundations))]
    ids += [p for p, present in (("R", rules.reserve), ("S", rules.stock), ("W", rules.waste)) if present]
    kind = tuple(p[0] for p in ids)
    tab = tuple(i for i, k in enumerate(kind) if k == "T")
    fnd = tuple(i for i, k in enumerate(kind) if k == "F")
    tab_acc = _tables_for(rules.tableau)
    ok = [False] * (52 * 52)
    for top in range(52):
        for cid in tab_acc[top]:
            ok[top * 52 + cid] = True
    t = rules.tableau
    # keying by rank lets `moves` find every pile that takes a card with one dict lookup
    by_rank = t.suits == "any" and t.build == "down" and t.empty in ("any", "none")
    return RuleTable(
        rules=rules,
        pile_ids=tuple(ids),
        kind=kind,
        tab=tab,
        fnd=fnd,
        dests=tab + fnd,
        r=ids.index("R") if rules.reserve else -1,
        s=ids.index("S") if rules.stock else -1,
        w=ids.index("W") if rules.waste else -1,
        tab_acc=tab_acc,
        tab_ok=tuple(ok),
        fnd_acc=tuple(_tables_for(f) for f in rules.foundations),
        fnd_start=tuple(_static_start(f) for f in rules.foundations),
        fnd_peers=tuple(
            tuple(fnd[k] for k, g in enumerate(rules.foundations) if g.direction == f.direction)
            for f in rules.foundations
        ),
        fnd_new_suit=tuple(
            tuple(
                tuple(cid for cid in same_rank_ids(f.base_rank) if not taken >> (cid // 13) & 1)
                for taken in range(16)
            )
            for f in rules.foundations
        ),
        empty=t.empty,
        empty_acc={"any": ALL, "king": KINGS, "none": ()}.get(t.empty, ()),
        runs=t.runs,
        takeback=rules.takeback,
        reserve_playable=rules.reserve_playable,
        refill=rules.refill_from_reserve,
        shift_left=rules.shift_left,
        autoplay=rules.autoplay,
        plain=not (rules.autoplay or rules.refill_from_reserve or rules.shift_left),
        tab_key=tuple(c.rank if by_rank else c.id for c in CARDS),
        tab_wanted=tuple((c.rank - 1,) if c.rank > 1 else () for c in CARDS) if by_rank else tab_acc,
        key_count=14 if by_rank else 52,
        single=tuple(tuple((a, b, 1) for b in range(len(ids))) for a in range(len(ids))),
    )
