"""Moving Left's two-deck fast path against the generic path, same deals, same run.

    python benchmarks/bench_twodeck.py [--deals 1-5] [--states 20000] [--repeat 3]

Each deal is searched by both paths with the same fixed ``max_states`` (so both examine the
same number of states unless one decides first); the table gives each path's best processor
time over `--repeat` runs, interleaved, and the states per second.
"""

from __future__ import annotations

import argparse
import gc
import time

import solitaire_nb as sn
from solitaire_nb.solver import portfolio
from solitaire_nb.solver.api import DEFAULT_MAX_TABLE
from solitaire_nb.solver.state import _Spec


def run(game, two_deck: bool, cap: int) -> tuple[str, int, float]:
    spec = _Spec(game)
    spec.two_deck = two_deck
    t0 = time.process_time()
    status, _, states = portfolio._search(game, spec, None, cap, DEFAULT_MAX_TABLE)
    return status, states, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", default="1-5")
    ap.add_argument("--states", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variant", default="", help="e.g. shift_left=1")
    args = ap.parse_args()
    a, b = (int(x) for x in args.deals.split("-"))
    print(f"Moving Left, complete search with take-backs, {args.states:,} states, best of {args.repeat}")
    print(f"{'deal':>5} {'generic':>16} {'s':>7} {'states/s':>9} {'two-deck':>16} {'s':>7} {'states/s':>9} {'ratio':>6}")
    gc.disable()
    try:
        for deal in range(a, b + 1):
            game = sn.new_game("moving_left", seed=deal)
            best = {}
            for _ in range(args.repeat):
                for fast in (False, True):
                    status, states, sec = run(game, fast, args.states)
                    old = best.get(fast)
                    best[fast] = (status, states, sec if old is None else min(old[2], sec))
            (s0, n0, t0), (s1, n1, t1) = best[False], best[True]
            print(f"{deal:>5} {s0 + ' ' + str(n0):>16} {t0:>7.2f} {n0 / t0:>9.0f} {s1 + ' ' + str(n1):>16} {t1:>7.2f} {n1 / t1:>9.0f} {(n1 / t1) / (n0 / t0):>6.1f}")
    finally:
        gc.enable()


if __name__ == "__main__":
    main()
