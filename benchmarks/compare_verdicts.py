"""Record the solver's verdicts on a fixed set of deals, and compare two such records.

    python benchmarks/compare_verdicts.py run OUT.csv [--limit N] [--states S] [--shard k/n]
                                             [--entry KEY --deals A-B]
    python benchmarks/compare_verdicts.py atlas KEY OUT.csv
    python benchmarks/compare_verdicts.py diff BEFORE.csv AFTER.csv [--progress]

The deals: every deal of the atlas's Beleaguered Castle and Citadel entries (deals 1–200),
every deal the atlas left undecided, and 2,000 others drawn from the atlas's decided deals
with a fixed seed.  Each is solved with a fixed ``max_states`` (the atlas's own, at most
``--states``), so a record is the same on every machine.  ``run`` is resumable: it appends
one row per deal and skips the deals already in OUT.csv.  To compare two versions of the
solver, run it once with each on the import path (``PYTHONPATH=old/checkout``) and ``diff``
the two files: status, states and the winning line's length must agree deal by deal.

``--entry KEY --deals A-B`` records deals A to B of one atlas entry instead (or a list:
``--deals 26,30,40-45``), at the entry's ``max_states`` or exactly ``--states`` (a larger
budget too); ``atlas KEY OUT.csv`` writes the verdicts the atlas
holds for that entry as a record.  ``diff --progress`` compares a solver that should decide
more: a deal going from "unknown" to "won" or "lost" is progress, and every other change of
verdict (won to lost or back, decided to unknown) is flagged; states and line lengths may
change.
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
        rows = _atlas_rows(entry)
        every = entry["key"] in ("beleaguered_castle", "citadel")
        for row in rows:
            item = (entry["key"], entry["game"], entry["variant"], int(row["deal"]), cap)
            if every and item[3] > 200:
                continue  # those two entries' first 200 deals, as before they grew
            if every or row["status"] == "unknown":
                chosen.append(item)
            else:
                decided.append(item)
    picked = set(random.Random(OTHERS_SEED).sample(range(len(decided)), min(OTHERS, len(decided))))
    chosen += [d for i, d in enumerate(decided) if i in picked]
    return chosen


def _entry(key: str) -> dict:
    atlas = json.loads(ATLAS.read_text(encoding="utf-8"))
    for entry in atlas["entries"]:
        if entry["key"] == key:
            return entry
    raise SystemExit(f"no atlas entry {key!r}")


def _atlas_rows(entry: dict) -> list[dict]:
    with open(ROOT / entry["csv"], encoding="utf-8") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


def entry_selection(key: str, deals: list[int], states: int | None) -> list[tuple[str, str, dict, int, int]]:
    """Those deals of one atlas entry, at `states` if given (larger than the entry's cap
    too: what a bigger budget decides), else at the entry's ``max_states``."""
    entry = _entry(key)
    cap = entry["max_states"] if states is None else states
    return [(key, entry["game"], entry["variant"], d, cap) for d in deals]


def parse_deals(text: str) -> list[int]:
    """``A-B`` (deals A to B) or a comma-separated list of deals and ranges (``26,30,40-45``)."""
    out: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


def atlas_record(key: str, out: Path) -> int:
    """Write the verdicts the atlas holds for entry `key` as a record (`FIELDS`)."""
    rows = _atlas_rows(_entry(key))
    with open(out, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(FIELDS)
        for r in sorted(rows, key=lambda r: int(r["deal"])):
            w.writerow([key, r["deal"], r["status"], r["states"], r["moves"]])
    return len(rows)


def run(
    out: Path, limit: int | None, states_cap: int, shard: str = "0/1", chosen: list | None = None
) -> int:
    from solitaire_nb import new_game, solve

    base = out.with_name(out.name.split(".csv")[0] + ".csv")
    done = set(read(base))  # the record and every shard of it
    k, n = (int(x) for x in shard.split("/"))
    chosen = selection(states_cap) if chosen is None else chosen
    todo = [d for i, d in enumerate(chosen) if i % n == k and (d[0], d[3]) not in done]
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


def progress(before: Path, after: Path) -> list[str]:
    """Lines describing every deal whose verdict changed other than from "unknown" to
    "won" or "lost"; prints how many deals each kind of change concerns."""
    a, b = read(before), read(after)
    common = sorted(set(a) & set(b))
    kinds: dict[str, int] = {}
    out = []
    for k in common:
        was, now = a[k][0], b[k][0]
        kinds[f"{was}->{now}"] = kinds.get(f"{was}->{now}", 0) + 1
        if was != now and not (was == "unknown" and now in ("won", "lost")):
            out.append(f"{k[0]} {k[1]}: {a[k]} -> {b[k]}")
    print(f"{len(common)} deals in both files; " + ", ".join(f"{x}: {n}" for x, n in sorted(kinds.items()))
          + f"; {len(out)} flagged")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("out", type=Path)
    r.add_argument("--limit", type=int, default=None)
    r.add_argument("--states", type=int, default=None,
                   help="max_states: with --entry, exactly this (default: the entry's); else at most this (default 20,000)")
    r.add_argument("--shard", default="0/1", help="k/n: only every n-th deal from the k-th (run n processes)")
    r.add_argument("--entry", default=None, help="one atlas entry's key (with --deals)")
    r.add_argument("--deals", default=None, help="A-B: that entry's deals A to B; or a list, 26,30,40-45")
    at = sub.add_parser("atlas")
    at.add_argument("key")
    at.add_argument("out", type=Path)
    d = sub.add_parser("diff")
    d.add_argument("before", type=Path)
    d.add_argument("after", type=Path)
    d.add_argument("--progress", action="store_true", help="accept unknown -> won/lost, flag every other change")
    args = ap.parse_args()
    if args.cmd == "run":
        chosen = None
        if args.entry:
            chosen = entry_selection(args.entry, parse_deals(args.deals or "1-200"), args.states)
        n = run(args.out, args.limit, 20_000 if args.states is None else args.states, args.shard, chosen)
        print(f"{n} deals solved into {args.out}")
    elif args.cmd == "atlas":
        print(f"{atlas_record(args.key, args.out)} deals written to {args.out}")
    else:
        lines = (progress if args.progress else diff)(args.before, args.after)
        print("\n".join(lines))
        sys.exit(1 if lines else 0)


if __name__ == "__main__":
    main()
