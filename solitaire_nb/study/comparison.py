"""Two games of the one-deck open family dealt from the same decks: what a rule changes in the
deal, paired deal by deal.

``compare(a, b, n, seed)`` draws `n` decks (`study.draw_decks`, so the same seed gives the same
decks as `study.simulate`), deals each both ways with `family.deal_family`, and measures per
game the cards on the table after the deal and after the automatic moves, the cards sent home
during the deal and by the autoplay, and the piles' lengths; then the paired differences
(a − b) with 95 % intervals.  The games are given by name or as anything that looks like a
`GameDef` (``rules_for()``, ``display_name``, ``decks == 1``), composed ones included: only
their `Rules` are read, never their names.

Plots are in `compare_plots`.  The summary a reader sees (``text()``, the plain-text and
Markdown reprs) is Spanish, with decimal commas.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..core.checks import check_int
from . import citadel as study
from .compared import FIGURES, Comparison, GameStats, Interval, game_side, per_deal
from .family import FamilyDeal, _deal

__all__ = ["FIGURES", "MAX_COMPARED", "Comparison", "GameStats", "Interval", "compare", "per_deal"]

MAX_COMPARED = 1_000_000  # decks per comparison (both games' records stay in memory)

def _interval(values: np.ndarray) -> Interval:
    mean, low, high = study.mean_ci(values)
    return float(mean), float(low), float(high)


# ---------------------------------------------------------------------- the games
def _stats(definition: Any, name: str, deal: FamilyDeal, values: dict[str, np.ndarray]) -> GameStats:
    figures = {key: _interval(values[key]) for key in FIGURES}
    columns = study.mean_ci(deal.lengths)
    after = study.mean_ci(deal.after_deal)
    return GameStats(
        name=name,
        tableau_label=str(getattr(definition, "tableau_label", "Tablero")),
        deal=deal,
        figures=figures,
        columns=tuple(zip(*(a.tolist() for a in columns), strict=True)),
        columns_after_deal=tuple(zip(*(a.tolist() for a in after), strict=True)),
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
    """Deal the same `n` random decks (`study.draw_decks(n, seed)`) as game `a` and as game `b`.

    `a`, `b`: a game's name or definition (a one-deck open game: Scotch, Baker's Dozen,
    Citadel, Beleaguered Castle or one composed from them); `variant_a`/`variant_b`: its flags.
    A Spanish ValueError names any bad value."""
    def_a, _, rules_a, name_a = game_side(a, variant_a, "a")
    def_b, _, rules_b, name_b = game_side(b, variant_b, "b")
    if name_a == name_b and rules_a != rules_b:
        name_a, name_b = f"{name_a} (a)", f"{name_b} (b)"
    n = check_int(n, "El número de repartos (n)", 2, MAX_COMPARED)  # an interval needs two
    decks = study.draw_decks(n, seed)
    deal_a, deal_b = _deal(decks, rules_a), _deal(decks, rules_b)
    values_a = {key: per_deal(deal_a, key) for key in FIGURES}
    values_b = {key: per_deal(deal_b, key) for key in FIGURES}
    stats_a, stats_b = _stats(def_a, name_a, deal_a, values_a), _stats(def_b, name_b, deal_b, values_b)
    differences = {
        key: _interval(values_a[key].astype(np.int16) - values_b[key].astype(np.int16)) for key in FIGURES
    }
    return Comparison(stats_a, stats_b, n, None if seed is None else int(seed), decks, differences)
