"""How fast each of the castles' four searches examines states, alone, on one hard deal.

    python benchmarks/bench_search_speed.py [--deal 22] [--states 150000] [--repeat 3]

Each search (`solitaire_nb.solver.portfolio._castle_portfolio`'s four) runs alone on the same
Beleaguered Castle deal without take-backs, up to the same number of states, so the state
counts are the same on every machine and only the seconds differ; the best of `--repeat`
runs is printed (the machine's noise only ever adds time).  The garbage collector is paused
as `solve` pauses it.
"""

from __future__ import annotations

import argparse
import gc
import time

from solitaire_nb import new_game
from solitaire_nb.solver.api import DEFAULT_MAX_TABLE
from solitaire_nb.solver.depth import _fast_dfs
from solitaire_nb.solver.fast import _Fast
from solitaire_nb.solver.portfolio import CASTLE_DEPTH_FIRST, CASTLE_SECOND
from solitaire_nb.solver.search import _advance, _fast_search
from solitaire_nb.solver.state import _Spec


def searches(spec, game):
    def best_first(urgency):
        st = _Fast(spec, game)
        if urgency:
            st.urgency = urgency
        return _fast_search(st, None, DEFAULT_MAX_TABLE)

    yield "best-first, usual order", lambda: best_first(None)
    yield "best-first, second order", lambda: best_first(CASTLE_SECOND)
    for order in CASTLE_DEPTH_FIRST:
        yield f"depth-first, {order!r} order", lambda o=order: _fast_dfs(_Fast(spec, game), None, DEFAULT_MAX_TABLE, o)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deal", type=int, default=22)
    ap.add_argument("--states", type=int, default=150_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    game = new_game("beleaguered_castle", seed=args.deal, takeback=False)
    spec = _Spec(game)
    print(f"Beleaguered Castle, takeback=False, deal {args.deal}, {args.states} states, best of {args.repeat}")
    print(f"{'search':36} {'states':>10} {'seconds':>9} {'states/s':>10}")
    gc.disable()
    try:
        for name, make in searches(spec, game):
            best = None
            for _ in range(args.repeat):
                search = make()
                next(search)
                t0 = time.perf_counter()
                used, _verdict = _advance(search, args.states)
                dt = time.perf_counter() - t0
                search.close()
                best = dt if best is None else min(best, dt)
            print(f"{name:36} {used:>10} {best:>9.2f} {used / best:>10.0f}")
    finally:
        gc.enable()


if __name__ == "__main__":
    main()
