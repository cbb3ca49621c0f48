"""The rules lab's «¿Cuántas se pueden ganar?» as a reader sees it: seconds from the press until
the counts of deals 1–20 of both games are on the page, and until all of deals 1–100 are, with
the width of the 95 % interval of the composed game at 20, 50 and 100 deals.  Prints a table for
benchmarks/RESULTS.md («Laboratorio: la muestra según llega»).

The lab is built as a notebook builds it (``Lab(like, **changes)``) and its button pressed
(`Lab.count_wins`); the samples solved in this process are forgotten before each row, so a game
is solved unless its verdicts are stored with the package (``data/lab_samples.json``, the games
of notebook 08's questions).

    python benchmarks/bench_lab_sample.py [--games preguntas propios]
"""

from __future__ import annotations

import argparse
import os
import time

from solitaire_nb.atlas import lab_sample as work
from solitaire_nb.atlas.intervals import bracketed_interval
from solitaire_nb.board.lab import Lab

# Notebook 08's three questions (stored) and a few compositions a student might try (solved).
QUESTIONS = [
    ("beleaguered_castle", {"columns": 10}),
    ("beleaguered_castle", {"empty": "king"}),
    ("citadel", {"columns": 13}),
]
OWN = [
    ("beleaguered_castle", {"columns": 9}),
    ("citadel", {"suits": "alt"}),
    ("bakers_dozen", {"columns": 12}),
    ("scotch", {"empty": "king"}),
]


def width(verdicts: tuple[str, ...], k: int) -> str:
    if len(verdicts) < k:
        return "–"
    v = verdicts[:k]
    low, high = bracketed_interval(v.count("won"), v.count("unknown"), k)
    return f"{100 * (high - low):.0f}"


def press(like: str, changes: dict) -> dict:
    work._SAMPLES.clear()
    lab = Lab(like, stats_deals=1000, **changes)
    seen: dict[int, float] = {}
    mine: list[tuple[str, ...]] = [()]
    show = lab._show_wins

    def spy(note: str = "", partial=None) -> None:
        show(note, partial)
        if partial is not None:
            k = min(len(v) for v in partial)
            mine[0] = partial[0]
            seen.setdefault(20, time.perf_counter()) if k >= 20 else None
            seen.setdefault(100, time.perf_counter()) if k >= 100 else None

    lab._show_wins = spy  # type: ignore[method-assign]
    t0, c0 = time.perf_counter(), time.process_time()
    lab.count_wins().join()
    end, cpu = time.perf_counter(), time.process_time() - c0
    full = work.cached_sample(lab.game, work.SAMPLE, work.MAX_STATES)
    verdicts = full.verdicts if full is not None else mine[0]
    return {
        "game": lab.game.name,
        "stored": work.stored_sample(lab.game, work.SAMPLE, work.MAX_STATES) is not None,
        "first20": seen.get(20, end) - t0,
        "all": end - t0,
        "cpu": cpu,
        "counts": f"{verdicts.count('won')} / {verdicts.count('lost')} / {verdicts.count('unknown')}",
        "widths": " → ".join(width(verdicts, k) for k in (20, 50, 100)),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", nargs="*", default=["preguntas", "propios"])
    a = p.parse_args(argv)
    print(f"# bench_lab_sample  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  deals 1–{work.SAMPLE}, "
          f"{work.MAX_STATES} states per deal, {work.WORKERS} worker processes")  # fmt: skip
    print(f"# load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}  ({os.cpu_count()} cores)\n")
    print("| juego | guardado | 1–20 de los dos (s) | 1–100 de los dos (s) | CPU de este proceso (s) | tu juego: con / sin / sin decidir | "
          "anchura del intervalo a 20 → 50 → 100 (puntos) |")  # fmt: skip
    print("|---|---|---:|---:|---:|---|---|")
    games = (QUESTIONS if "preguntas" in a.games else []) + (OWN if "propios" in a.games else [])
    for like, changes in games:
        r = press(like, changes)
        print(f"| {r['game']} | {'sí' if r['stored'] else 'no'} | {r['first20']:.1f} | {r['all']:.1f} | {r['cpu']:.1f} | "
              f"{r['counts']} | {r['widths']} |", flush=True)  # fmt: skip
    print(f"\n# load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
