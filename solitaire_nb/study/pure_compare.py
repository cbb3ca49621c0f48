"""`study.compare` without NumPy (the browser's path, see `study.pure`): both games dealt by the
rules engine on the same decks, at most `pure.BROWSER_COMPARED` of them (the page says so),
measured with the same names as `family.FamilyDeal` and returned as the same `Comparison`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.checks import check_int
from . import pure
from .compared import FIGURES, Comparison, GameStats, Interval, game_side, per_deal
from .pure import Column, PureLayout, deck_codes, draw_decks, mean_ci


# =============================================================================== comparisons
@dataclass(frozen=True)
class PureDeal:
    """`family.FamilyDeal`'s per-deal records as lists, dealt by the engine."""

    columns: int
    after_deal: list[tuple[int, ...]]
    lengths: list[tuple[int, ...]]
    home_in_deal: Column
    autoplay_moved: Column
    under_king: Column

    @property
    def n(self) -> int:
        return len(self.home_in_deal)

    @property
    def on_table_after_deal(self) -> Column:
        return Column(sum(r) for r in self.after_deal)

    @property
    def on_table(self) -> Column:
        return Column(sum(r) for r in self.lengths)

    @property
    def longest(self) -> Column:
        return Column(max(r) for r in self.lengths)

    @property
    def shortest(self) -> Column:
        return Column(min(r) for r in self.lengths)

    @property
    def empty_columns(self) -> Column:
        return Column(sum(k == 0 for k in r) for r in self.lengths)

    def layout(self) -> PureLayout:
        return PureLayout(self.lengths)


def deal_game(definition: Any, variant: Mapping[str, bool], decks: Sequence[Sequence[int]]) -> PureDeal:
    """Deal every deck as one game of the family through the engine (`new_game`)."""
    from ..engine import new_game

    after, lengths, home, auto, under = [], [], Column(), Column(), Column()
    for deck in decks:
        game = new_game(definition, deck=deck_codes(deck), **dict(variant))
        piles = [game.pile(p) for p in game.tableau_ids]
        now = tuple(len(p) for p in piles)
        report = game.deal_report
        moved = [0] * len(piles)
        if report is not None:
            for pile in report.autoplay_from:
                moved[int(pile[1:])] += 1
        after.append(tuple(k + m for k, m in zip(now, moved, strict=True)))
        lengths.append(now)
        home.append(len(report.to_foundations) if report is not None else 0)
        auto.append(len(report.autoplay) if report is not None else 0)
        # cards below each pile's highest King (Baker's Dozen moves its Kings to the bottom)
        under.append(sum(max((j for j, c in enumerate(p) if c.rank == 13), default=0) for p in piles))
    return PureDeal(len(lengths[0]) if lengths else 0, after, lengths, home, auto, under)


def _stats(definition: Any, name: str, deal: PureDeal) -> GameStats:
    return GameStats(
        name=name,
        tableau_label=str(getattr(definition, "tableau_label", "Tablero")),
        deal=deal,
        figures={key: mean_ci(per_deal(deal, key)) for key in FIGURES},
        columns=tuple(mean_ci(c) for c in zip(*deal.lengths, strict=True)),
        columns_after_deal=tuple(mean_ci(c) for c in zip(*deal.after_deal, strict=True)),
    )


def compare(
    a: object,
    b: object,
    n: int = 10_000,
    seed: int | None = 1,
    *,
    variant_a: Mapping[str, bool] | None = None,
    variant_b: Mapping[str, bool] | None = None,
) -> Comparison:
    """`study.compare` without NumPy: at most `BROWSER_COMPARED` decks (the page says so)."""
    def_a, flags_a, rules_a, name_a = game_side(a, variant_a, "a")
    def_b, flags_b, rules_b, name_b = game_side(b, variant_b, "b")
    if name_a == name_b and rules_a != rules_b:
        name_a, name_b = f"{name_a} (a)", f"{name_b} (b)"
    n = check_int(n, "El número de repartos (n)", 2, 1_000_000)
    decks = draw_decks(pure._sample(n, pure.BROWSER_COMPARED), seed)
    return compare_decks(def_a, flags_a, name_a, def_b, flags_b, name_b, decks, seed)


def compare_decks(def_a: Any, flags_a: Mapping[str, bool], name_a: str, def_b: Any, flags_b: Mapping[str, bool],
                  name_b: str, decks: list[list[int]], seed: int | None) -> Comparison:
    """The comparison of two games on the given decks (what `compare` returns)."""
    deal_a, deal_b = deal_game(def_a, flags_a, decks), deal_game(def_b, flags_b, decks)
    differences: dict[str, Interval] = {
        key: mean_ci([x - y for x, y in zip(per_deal(deal_a, key), per_deal(deal_b, key), strict=True)])
        for key in FIGURES
    }
    return Comparison(_stats(def_a, name_a, deal_a), _stats(def_b, name_b, deal_b), len(decks),
                      None if seed is None else int(seed), decks, differences)
