"""The atlas's hardest deals: how many of the deals an atlas entry leaves undecided `solve`
decides now, at a cap of CPU seconds per deal, with and without the castles' streamliners.

    python benchmarks/bench_undecided.py [--entry beleaguered_castle_sin_devolver] [--first 40]
        [--sample N] [--limit 20] [--without-streamliners] [--fc-solve] [--table KEYS] [--csv PATH]

The deals are the first `--first` deals (by number) the entry's committed CSV records as
undecided.  `solve` gets `time_limit=--limit` with its deadline read on this process's CPU
clock (`time.perf_counter` swapped for `time.process_time` during the call, as in
`bench_solver.py`), so a loaded machine does not change verdicts; times are the result's
``cpu_seconds``.  ``--without-streamliners`` switches their turn off (`portfolio.CASTLE_STREAM`
= 0): the solver as it was before them.  ``--fc-solve`` adds fc-solve to `solve`'s portfolio
(``fc_solve=True``: the last quarter of the time when ours is undecided; its CPU included,
the solver that found the line named).  Prints one row per deal, then the decided count and
the CPU seconds in all.  Every "won" line has already been replayed through the engine.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

from solitaire_nb import new_game, solve
from solitaire_nb.solver import compiled, portfolio

ATLAS = Path(__file__).resolve().parents[1] / "data" / "atlas"


def undecided(entry: str, first: int, path: Path | None = None, sample: int = 0) -> tuple[str, dict, list[int]]:
    """The entry's game, variant and first `first` undecided deals (its CSV at `path`, default
    the committed one); with `sample`, that many of them spread evenly over the list instead."""
    with (path or ATLAS / f"{entry}.csv").open(encoding="utf-8") as f:
        header = json.loads(f.readline().split(" ", 3)[3])
        rows = [r for r in csv.reader(f) if r and r[0].isdigit()]
    deals = sorted(int(r[0]) for r in rows if r[1] == "unknown")[:first]
    if 0 < sample < len(deals):
        deals = [deals[i * len(deals) // sample] for i in range(sample)]
    return header["game"], header["variant"], deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entry", default="beleaguered_castle_sin_devolver")
    ap.add_argument("--first", type=int, default=40)
    ap.add_argument("--sample", type=int, default=0, help="that many of the first deals, spread evenly")
    ap.add_argument("--limit", type=float, default=20.0, help="CPU seconds per deal")
    ap.add_argument("--without-streamliners", action="store_true")
    ap.add_argument("--fc-solve", action="store_true", help="fc-solve in the portfolio")
    ap.add_argument("--table", type=int, default=None, help="max_table: keys a search's table may hold")
    ap.add_argument("--csv", type=Path, default=None, help="the entry's CSV (default: data/atlas/ENTRY.csv)")
    args = ap.parse_args()
    if args.without_streamliners:
        portfolio.CASTLE_STREAM = 0
    game, variant, deals = undecided(args.entry, args.first, args.csv, args.sample)
    print(f"{args.entry}: {len(deals)} of the first {args.first} deals undecided in the atlas, {args.limit:g} CPU s each, "
          f"streamliners {'off' if args.without_streamliners else 'on'}, fc-solve {'on' if args.fc_solve else 'off'}, "
          f"table {args.table or 'default'}, compiled core {'on' if compiled.available() else 'off'}")
    print("| deal | verdict | found by | states | CPU s |")
    print("|---:|---|---|---:|---:|")
    decided = won = 0
    total = 0.0
    wall = time.perf_counter
    for deal in deals:
        time.perf_counter = time.process_time
        try:
            r = solve(new_game(game, seed=deal, **variant), time_limit=args.limit, fc_solve=args.fc_solve,
                      **({'max_table': args.table} if args.table else {}))
        finally:
            time.perf_counter = wall
        cpu = r.cpu_seconds or 0.0
        total += cpu
        decided += r.status != "unknown"
        won += r.status == "won"
        by = r.found_by or ("ours" if r.status != "unknown" else "-")
        print(f"| {deal} | {r.status} | {by} | {r.states:,} | {cpu:.2f} |", flush=True)
    print(f"decided {decided} of {len(deals)} ({won} won, {decided - won} lost); CPU {total:.1f} s in all")


if __name__ == "__main__":
    main()
