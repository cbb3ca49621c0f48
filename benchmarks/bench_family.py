"""Time of `compare(a, b, n)` for a few pairs of the one-deck open family (issue 24).

The rules lab recomputes the paired deal statistics of both games on every control change, so
the whole `compare` (drawing the decks, dealing them both ways with `family.deal_family`,
the means and paired differences with their intervals) must stay well under a second.  For
each pair the table shows the median of `--repeat` runs of the whole call (wall clock, and the
process's CPU time, less sensitive to other jobs), and of its parts: drawing the decks and
dealing them as each game (wall clock).  Target: ≤ 0.5 s for n = 10,000.  Timings are
noisy on a shared machine: the load average is printed with the table.

    python benchmarks/bench_family.py [--n 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time
from collections.abc import Callable

import solitaire_nb as sn
from solitaire_nb import study
from solitaire_nb.core.rules import FoundationRule
from solitaire_nb.study.comparison import compare
from solitaire_nb.study.family import deal_family


@dataclasses.dataclass(frozen=True)
class Composed:
    """A stand-in for a composed game: a definition whose rules are given as data."""

    rules: object
    display_name: str
    decks: int = 1

    def rules_for(self, variant=None):
        return self.rules


def composed(base: str, name: str, **changes) -> Composed:
    return Composed(dataclasses.replace(sn.GAMES[base].rules_for(), **changes), name)


ALT = (FoundationRule("up", "alt", "any"),) * 4

PAIRS: list[tuple[str, object, object, dict]] = [
    ("Beleaguered Castle / Citadel", "beleaguered_castle", "citadel", {}),
    ("Baker's Dozen / any_suit", "bakers_dozen", "bakers_dozen", {"variant_b": {"any_suit": True}}),
    ("Baker's Dozen / Reyes donde caen", "bakers_dozen", "bakers_dozen", {"variant_b": {"kings_to_bottom": False}}),
    ("Citadel / con 13 columnas y Reyes al fondo", "citadel",
     composed("citadel", "Citadel 13", tableau_count=13, kings_to_bottom=True), {}),
    ("Scotch / con el reparto de Citadel", "scotch",
     composed("scotch", "Scotch+", deal_to_foundations=True, autoplay=True), {}),
    ("Beleaguered Castle / Citadel en colores alternos", "beleaguered_castle",
     composed("citadel", "Citadel alt", foundations=ALT), {}),
]


def median_time(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def rules_of(game: object, variant: dict | None):
    definition = sn.GAMES[game] if isinstance(game, str) else game
    return definition.rules_for(variant) if variant else definition.rules_for()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    compare("beleaguered_castle", "citadel", n=1000)  # warm up imports and NumPy
    deals = f"{args.n:,}".replace(",", ".")
    print(f"n = {deals} repartos, mediana de {args.repeat}; media de carga: "
          + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    print()
    print("| pareja (a / b) | compare (s) | compare, CPU (s) | barajas (s) | repartir a (s) | repartir b (s) |")
    print("|---|---:|---:|---:|---:|---:|")
    decks = study.draw_decks(args.n, seed=1)
    for label, a, b, kwargs in PAIRS:
        rules_a = rules_of(a, kwargs.get("variant_a"))
        rules_b = rules_of(b, kwargs.get("variant_b"))
        call = lambda a=a, b=b, kw=kwargs: compare(a, b, n=args.n, seed=1, **kw)  # noqa: E731
        whole = median_time(call, args.repeat)
        cpu = median_time(call, args.repeat, time.process_time)
        draw = median_time(lambda: study.draw_decks(args.n, seed=1), args.repeat)
        deal_a = median_time(lambda r=rules_a: deal_family(decks, r), args.repeat)
        deal_b = median_time(lambda r=rules_b: deal_family(decks, r), args.repeat)
        print(f"| {label} | {whole:.3f} | {cpu:.3f} | {draw:.3f} | {deal_a:.3f} | {deal_b:.3f} |")


if __name__ == "__main__":
    main()
