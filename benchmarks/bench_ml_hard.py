"""Moving Left's undecided deals: what more budget buys, and how far the rollouts get.

For each deal: the verdict of `solve` at a larger `max_states` than the atlas's (states,
processor seconds), and the most cards any of the first `--rollouts` rollouts brought home
(how near the player's rules of thumb come to a win).  Prints a Markdown table for
benchmarks/RESULTS.md.

    python benchmarks/bench_ml_hard.py --deals 3,4,7,11,14 --states 1000000
"""

from __future__ import annotations

import argparse
import time

import solitaire_nb as sn
from solitaire_nb.solver import rollouts


def most_home(game, count: int) -> int:
    """The most cards home at the end of fresh rollouts 0..count-1 (from the deal itself)."""
    return max((rollouts._rollout(game, [], k, 3000, None)[2] for k in range(count)), default=0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="3,4,7,11,14", help="comma-separated deal numbers")
    ap.add_argument("--states", type=int, default=1_000_000, help="max_states for solve")
    ap.add_argument("--rollouts", type=int, default=200, help="rollouts for the 'most home' column")
    args = ap.parse_args()
    print(f"| deal | verdict | states | processor s | most cards home in {args.rollouts} rollouts |")
    print("|---:|---|---:|---:|---:|")
    for d in (int(x) for x in args.deals.split(",")):
        game = sn.new_game("moving_left", seed=d)
        t = time.process_time()
        r = sn.solve(game, max_states=args.states)
        cpu = time.process_time() - t
        print(f"| {d} | {r.status} | {r.states:,} | {cpu:.1f} | {most_home(game, args.rollouts)} |", flush=True)


if __name__ == "__main__":
    main()
