"""Write the package's index of deals the solver has decided, from the atlas records.

    python tools/won_deals.py            # rewrite solitaire_nb/data/won_deals.json
    python tools/won_deals.py --check    # exit 1 if the stored index differs from data/atlas/*.csv

`data/atlas/*.csv` is not in the wheel; this index is: one line of verdicts per game and
variant, a letter per deal from the first deal solved (``w`` won, ``l`` lost, ``u`` undecided,
``-`` not solved).  The solver's records give all three; a player's record (``"player"`` in
its header) only adds wins, since a player that lost proves nothing about the deal.  The
index is read by `solitaire_nb.atlas.won_deals` («una partida con solución», `--reto`'s check).
Rerun it after `benchmarks/atlas.py` changes a record.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from solitaire_nb.atlas.studyfile import read_records
from solitaire_nb.atlas.won_deals import FORMAT, INDEX_FILE, LETTERS

REPO = Path(__file__).resolve().parents[1]
ATLAS = REPO / "data" / "atlas"
OUT = REPO / "solitaire_nb" / "data" / INDEX_FILE


def compute(folder: Path = ATLAS) -> dict:
    """The index of every record in `folder` (sorted by game and variant: the same file on
    every run)."""
    merged: dict[tuple[str, str], dict[int, str]] = {}
    for path in sorted(folder.glob("*.csv")):
        params, records = read_records(path)
        if params.get("spec"):
            continue  # composed games: the lab's stored samples hold theirs
        key = (params["game"], json.dumps(dict(sorted(params["variant"].items()))))
        deals = merged.setdefault(key, {})
        player = params.get("player") is not None
        for r in records:
            if player and r.status != "won":
                continue
            before = deals.get(r.deal)
            if before is not None and {before, r.status} == {"won", "lost"}:
                raise SystemExit(f"{path.name}: deal {r.deal} is won in one record and lost in another")
            if before is None or before == "unknown" or r.status == "won":
                deals[r.deal] = r.status
    entries = []
    for (game, variant), deals in sorted(merged.items()):
        first, last = min(deals), max(deals)
        letters = "".join(LETTERS.get(deals.get(d, ""), "-") for d in range(first, last + 1))
        entries.append({"game": game, "variant": json.loads(variant), "first": first, "verdicts": letters})
    return {"format": FORMAT, "entries": entries}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the stored index, write nothing")
    args = parser.parse_args()
    data = compute()
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if args.check:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print("the index agrees with the atlas records" if same else f"{OUT} differs: run python tools/won_deals.py")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    for e in data["entries"]:
        v = e["verdicts"]
        print(f"{e['game']} {e['variant']}: {v.count('w')} won, {v.count('l')} lost, {v.count('u')} undecided", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
