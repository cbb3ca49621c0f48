"""Time for one control change of the rules lab (`sn.lab`) to refresh everything it shows.

A change of a control composes the game (`custom`), deals its board (and, for the deal number,
the original's), recomputes the paired deal statistics of both games on 10,000 decks
(`compare`), writes their table and draws the compact plot.  All of it runs in the control's
callback, so the time of ``control.value = x`` is the time a reader waits.  The script builds
a lab on Beleaguered Castle and makes `--changes` changes, each to a game not seen before in
this process (so no cache helps), timing each; it prints one row per change, the median and
the median of the parts (compose + boards, statistics, plot) measured on the same games.
Target (issue 24): median ≤ 1 s.

    python benchmarks/bench_lab.py [--changes 10] [--like beleaguered_castle]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from solitaire_nb.atlas import lab_measures as lab_work
from solitaire_nb.board.lab import Lab

# Ten changes of different controls, each giving a new game: (control, value).
CHANGES = [
    ("columns", 10),
    ("empty", "king"),
    ("suits", "alt"),
    ("aces_out", False),
    ("deal_to_foundations", True),
    ("autoplay", True),
    ("columns", 13),
    ("kings_to_bottom", True),
    ("foundation", "alt"),
    ("build", "updown"),
    ("runs", True),
    ("takeback", False),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=10)
    parser.add_argument("--like", default="beleaguered_castle")
    args = parser.parse_args()
    lab = Lab(args.like)
    rows = []
    for key, value in CHANGES[: args.changes]:
        start = time.perf_counter()
        lab.controls[key].value = value
        total = time.perf_counter() - start
        # the parts, again on the game just composed (its definition is cached by then)
        t0 = time.perf_counter()
        lab_work.new_game(lab.game, lab.seed.value)
        t1 = time.perf_counter()
        cmp = lab_work.comparison(lab.base, lab.game)
        lab_work.stats_html(cmp)
        t2 = time.perf_counter()
        lab_work.plot_png(cmp)
        t3 = time.perf_counter()
        rows.append((f"{key} = {value}", total, t1 - t0, t2 - t1, t3 - t2))
    print(f"Laboratorio de {lab.base.display_name}: {len(rows)} cambios; carga media {os.getloadavg()[0]:.1f}")
    print()
    print("| cambio | total (s) | partida (s) | estadísticas 10.000 repartos (s) | gráfica (s) |")
    print("|---|---:|---:|---:|---:|")
    for name, *times in rows:
        print(f"| {name} | " + " | ".join(f"{t:.3f}" for t in times) + " |")
    medians = [statistics.median(r[i] for r in rows) for i in range(1, 5)]
    print("| **mediana** | " + " | ".join(f"**{t:.3f}**" for t in medians) + " |")


if __name__ == "__main__":
    main()
