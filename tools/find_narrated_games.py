"""Find one won numbered deal per game notebook and store its line for `narrated_game`.

    python tools/find_narrated_games.py            # rewrite solitaire_nb/data/narrated.json
    python tools/find_narrated_games.py --check    # exit 1 if the stored lines differ

For each (game, variant) below, the deals of its range are solved in order with a FIXED
`max_states` (so every machine finds the same lines); the first won deal whose line has at
most `short` moves is kept, or, if none is that short, the shortest won line of the range.
Each line is replayed through the engine before it is stored.  Pages only read the file:
they never run the solver.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import solitaire_nb as sn
from solitaire_nb.lessons.narration import NARRATED_FILE, NARRATED_FORMAT
from solitaire_nb.solver import solve

OUT = Path(__file__).resolve().parents[1] / "solitaire_nb" / "data" / NARRATED_FILE

# (game, non-default flags, deals to try, longest line we call short, max_states per deal)
WANTED: list[tuple[str, dict[str, bool], range, int, int]] = [
    ("chequers", {}, range(1, 101), 125, 20_000),
    ("moving_left", {}, range(1, 9), 260, 150_000),
    ("scotch", {}, range(1, 151), 60, 20_000),
    ("bakers_dozen", {}, range(1, 151), 65, 20_000),
    ("citadel", {}, range(1, 201), 20, 20_000),
    ("beleaguered_castle", {}, range(1, 151), 75, 20_000),
]


def find_line(name: str, flags: dict[str, bool], deals: range, short: int, max_states: int, log) -> dict:
    best: dict | None = None
    for seed in deals:
        game = sn.new_game(name, seed=seed, **flags)
        result = solve(game, max_states=max_states)
        log(f"{name} {seed}: {result.status} ({len(result.moves)} movimientos, {result.states} estados)")
        if result.status != "won":
            continue
        entry = {
            "game": name,
            "variant": game.variant,
            "seed": seed,
            "max_states": max_states,
            "moves": [str(m) for m in result.moves],
        }
        if best is None or len(entry["moves"]) < len(best["moves"]):
            best = entry
        if len(entry["moves"]) <= short:
            break
    if best is None:
        raise SystemExit(f"Ninguna partida de {name} ganada en {deals} con {max_states} estados")
    check_line(best)
    return best


def check_line(entry: dict) -> None:
    game = sn.new_game(entry["game"], seed=entry["seed"], **entry["variant"])
    for move in entry["moves"]:
        game.move(move)
    if not game.is_won():
        raise SystemExit(f"La línea de {entry['game']} (partida {entry['seed']}) no gana")


def build(log=print) -> dict:
    lines = [find_line(*wanted, log=log) for wanted in WANTED]
    return {"format": NARRATED_FORMAT, "version": 1, "lines": lines}


def dumps(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the stored file, write nothing")
    args = parser.parse_args(argv)
    text = dumps(build(log=lambda s: print(s, file=sys.stderr)))
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("narrated.json al día" if same else "narrated.json no coincide con lo que se encuentra ahora")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"escrito {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
