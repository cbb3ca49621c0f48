"""The solver on random composed games (`sn.custom`): how many calls fail.

Each of `--deals` draws (one seeded random generator, so the same draws on every run) composes
a game from a random like game and a random value of every change (each change present or
not; 4–20 columns), deals a random deal number, plays 0–3 random legal moves, then calls
`solve` with `--states` states.  A call that raises, or a "won" line that does not replay to
a win through the public engine, is a failure.  The table counts verdicts and failures, and
lists the first failures (game name, deal, moves played first, error) so that each can be
reproduced.  Issue 31 counted 209 failures over 6,422 such deals before its fix.

    python benchmarks/bench_composed.py [--deals 2000] [--states 2000] [--seed 31]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

import solitaire_nb as sn
from solitaire_nb.games import custom


def random_changes(rng: random.Random) -> dict:
    """A random value of each change, each change present with probability 1/2."""
    out: dict = {}
    for key in custom.CHANGES:
        if rng.random() < 0.5:
            continue
        if key == "columns":
            out[key] = rng.randint(custom.MIN_COLUMNS, custom.MAX_COLUMNS)
        elif key in custom.FLAGS:
            out[key] = rng.random() < 0.5
        else:
            out[key] = rng.choice(custom.CHOICES[key])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--states", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--show", type=int, default=15, help="failures listed")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    counts: Counter = Counter()
    failures = []
    t0 = time.perf_counter()
    for _ in range(args.deals):
        definition = sn.custom(rng.choice(custom.LIKES), **random_changes(rng))
        seed = rng.randint(1, 10**6)
        g = sn.new_game(definition, seed=seed)
        played = []
        for _ in range(rng.randint(0, 3)):
            legal = g.legal_moves()
            if not legal:
                break
            m = rng.choice(legal)
            g.move(m)
            played.append(str(m))
        try:
            r = sn.solve(g, max_states=args.states)
            if r.status == "won":
                h = g.copy()
                for m in r.moves:
                    h.move(m)
                if not h.is_won():
                    raise AssertionError("the line does not win")
            counts[r.status] += 1
        except Exception as e:  # noqa: BLE001 - counting every kind of failure is the point
            counts["failed"] += 1
            failures.append((definition.name, seed, played, f"{type(e).__name__}: {str(e)[:90]}"))
    seconds = time.perf_counter() - t0
    print(f"{args.deals} composed deals, max_states={args.states}, seed={args.seed}: {seconds:.0f} s")
    print(f"{'won':>8} {'lost':>8} {'unknown':>8} {'failed':>8}")
    print(f"{counts['won']:>8} {counts['lost']:>8} {counts['unknown']:>8} {counts['failed']:>8}")
    for name, seed, played, err in failures[: args.show]:
        print(f"  {name} seed={seed} moves={played}: {err}")


if __name__ == "__main__":
    main()
