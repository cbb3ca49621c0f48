"""Record the solver's verdicts on a fixed set of deals, and compare two such records.

    python benchmarks/compare_verdicts.py run OUT.csv [--limit N] [--states S] [--shard k/n]
    python benchmarks/compare_verdicts.py diff BEFORE.csv AFTER.csv

The deals: every deal of the atlas's Beleaguered Castle and Citadel entries (deals 1–200),
every deal the atlas left undecided, and 2,000 others drawn from the atlas's decided deals
with a fixed seed.  Each is solved with a fixed ``max_states`` (the atlas's own, at most
``--states``), so a record is the same on every machine.  ``run`` is resumable: it appends
one row per deal and skips the deals already in OUT.csv.  To compare two versions of the
solver, run it once with each on the import path (``PYTHONPATH=old/checkout``) and ``diff``
the two files: status, states and the winning line's length must agree deal by deal.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ATLAS = ROOT / "solitaire_nb" / "data" / "atlas.json"
FIELDS = ["key", "deal", "status", "states", "moves"]
OTHERS = 2_000
OTHERS_SEED = 22


def selection(states_cap: int) -> list[tuple[str, str, dict, int, int]]:
    """(entry key, game, variant, deal, max_states) for every deal to compare, in a fixed order."""
    atlas = json.loads(ATLAS.read_text(encoding="utf-8"))
    chosen: list[tuple[str, str, dict, int, int]] = []
    decided: list[tuple[str, str, dict, int, int]] = []
    for entry in atlas["entries"]:
        cap = min(entry["max_states"], states_cap)
        with open(ROOT / entry["csv"], encoding="utf-8") as fh:
            rows = list(csv.DictReader(line for line in fh if not line.startswith("#")))
        every = entry["key"] in ("beleaguered_castle", "citadel")
        for row in rows:
            item = (entry["key"], entry["game"], entry["variant"], int(row["deal"]), cap)
            if every or row["status"] == "unknown":
                chosen.append(item)
            else:
                decided.append(item)
    picked = set(random.Random(OTHERS_SEED).sample(range(len(decided)), min(OTHERS, len(decided))))
    chosen += [d for i, d in enumerate(decided) if i in picked]
    return chosen


def run(out: Path, limit: int | None, states_cap: int, shard: str = "0/1") -> int:
    from solitaire_nb import new_game, solve

    base = out.with_name(out.name.split(".csv")[0] + ".csv")
    done = set(read(base))  # the record and every shard of it
    k, n = (int(x) for x in shard.split("/"))
    todo = [d for i, d in enumerate(selection(states_cap)) if i % n == k and (d[0], d[3]) not in done]
    if limit is not None:
        todo = todo[:limit]
    new_file = not out.exists()
    t0 = time.perf_counter()
    with open(out, "a", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        if new_file:
            w.writerow(FIELDS)
        for i, (key, game, variant, deal, cap) in enumerate(todo, 1):
            r = solve(new_game(game, seed=deal, **variant), max_states=cap)
            w.writerow([key, deal, r.status, r.states, len(r.moves)])
            fh.flush()
            if i % 100 == 0:
                print(f"{i}/{len(todo)} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return len(todo)


def read(path: Path) -> dict[tuple[str, int], tuple[str, str, str]]:
    """The rows of a record, or of every shard of it (OUT.csv, OUT.csv.1, … from `--shard`)."""
    out = {}
    for part in sorted(path.parent.glob(path.name + "*")):
        with open(part, encoding="utf-8") as fh:
            out.update({(r["key"], int(r["deal"])): (r["status"], r["states"], r["moves"]) for r in csv.DictReader(fh)})
    return out


def diff(before: Path, after: Path) -> list[str]:
    """Lines describing every deal recorded in both files whose result differs."""
    a, b = read(before), read(after)
    common = sorted(set(a) & set(b))
    out = [f"{k} {d}: {a[(k, d)]} -> {b[(k, d)]}" for k, d in common if a[(k, d)] != b[(k, d)]]
    by_status: dict[str, int] = {}
    for k in common:
        by_status[a[k][0]] = by_status.get(a[k][0], 0) + 1
    print(f"{len(common)} deals in both files ({', '.join(f'{s}: {n}' for s, n in sorted(by_status.items()))}); "
          f"{len(out)} differ")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("out", type=Path)
    r.add_argument("--limit", type=int, default=None)
    r.add_argument("--states", type=int, default=20_000)
    r.add_argument("--shard", default="0/1", help="k/n: only every n-th deal from the k-th (run n processes)")
    d = sub.add_parser("diff")
    d.add_argument("before", type=Path)
    d.add_argument("after", type=Path)
    args = ap.parse_args()
    if args.cmd == "run":
        n = run(args.out, args.limit, args.states, args.shard)
        print(f"{n} deals solved into {args.out}")
    else:
        lines = diff(args.before, args.after)
        print("\n".join(lines))
        sys.exit(1 if lines else 0)


if __name__ == "__main__":
    main()
