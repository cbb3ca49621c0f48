"""Rule 8b's cost and gain: processor time and states of `solve` with and without it, on
every fifth Beleaguered Castle deal (no take-backs) of 1-200, at the atlas budget.

    python benchmarks/bench_rule8b.py
"""

import argparse
import time

from solitaire_nb import new_game, solve
from solitaire_nb.solver import pruning


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    real = pruning.hole_dead_ends
    seconds = {True: 0.0, False: 0.0}
    states = {True: 0, False: 0}
    try:
        for deal in range(1, 201, 5):
            for on in (True, False):
                pruning.hole_dead_ends = real if on else (lambda *args: False)
                t = time.process_time()
                r = solve(new_game("beleaguered_castle", seed=deal, takeback=False), max_states=100_000)
                seconds[on] += time.process_time() - t
                states[on] += r.states
    finally:
        pruning.hole_dead_ends = real
    print("| rule 8b | processor s | states |")
    print("|---|---:|---:|")
    for on in (True, False):
        print(f"| {'on' if on else 'off'} | {seconds[on]:.1f} | {states[on]:,} |")


if __name__ == "__main__":
    main()
