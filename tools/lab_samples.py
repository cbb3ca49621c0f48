"""Solve the rules lab's win sample («¿Cuántas se pueden ganar?») for the games notebook 08 shows,
and store the verdicts the lab and the notebook read when they open.

    python tools/lab_samples.py            # rewrite solitaire_nb/data/lab_samples.json
    python tools/lab_samples.py --check    # exit 1 if the stored verdicts differ

Each game (a built-in game or one composed by `custom`, stored under its `name`) is solved on
deals 1…`lab_work.SAMPLE` with the fixed budget `lab_work.MAX_STATES`, so every machine finds
the same verdicts.  The pages only read the file: a game not in it is solved when a student
presses the lab's button.  Rerun this after changing the solver, the sample or the budget.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from solitaire_nb.atlas import lab_measures as lab_work
from solitaire_nb.games.custom import custom

OUT = Path(__file__).resolve().parents[1] / "solitaire_nb" / "data" / lab_work.SAMPLES_FILE

# The games notebook 08 asks about, and the ones its labs start on: (like game, changes).
WANTED: list[tuple[str, dict]] = [
    ("beleaguered_castle", {}),
    ("beleaguered_castle", {"columns": 10}),
    ("beleaguered_castle", {"columns": 6}),
    ("beleaguered_castle", {"empty": "king"}),
    ("bakers_dozen", {}),
    ("bakers_dozen", {"empty": "any"}),
    ("bakers_dozen", {"suits": "alt"}),
    ("citadel", {}),
    ("citadel", {"columns": 13}),
    ("citadel", {"columns": 4}),
    ("scotch", {}),
]


def compute(deals: int, max_states: int, log) -> dict:
    games = {}
    for like, changes in WANTED:
        definition = custom(like, **changes)
        verdicts = [lab_work.solve_one(definition, seed, max_states) for seed in range(1, deals + 1)]
        log(f"{definition.name}: {verdicts.count('won')} / {verdicts.count('lost')} / {verdicts.count('unknown')}")
        games[definition.name] = verdicts
    return {"deals": deals, "max_states": max_states, "games": games}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the stored file, write nothing")
    parser.add_argument("--deals", type=int, default=lab_work.SAMPLE)
    parser.add_argument("--max-states", type=int, default=lab_work.MAX_STATES)
    args = parser.parse_args()
    data = compute(args.deals, args.max_states, lambda text: print(text, file=sys.stderr))
    if args.check:
        stored = json.loads(OUT.read_text(encoding="utf-8"))
        same = {k: stored[k] for k in ("deals", "max_states", "games")} == data
        print("iguales" if same else "distintos")
        return 0 if same else 1
    data["generated"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"escrito {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
