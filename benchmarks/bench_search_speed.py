"""How fast each of the castles' searches examines states, alone, on one hard deal, on both
paths: the pure-Python searches and the optional compiled core (when it is installed).

    python benchmarks/bench_search_speed.py [--deal 22] [--states 150000] [--repeat 3]

Each search (`solitaire_nb.solver.portfolio._castle_portfolio`'s four complete ones, the probe and
the streamliners) runs alone on the same Beleaguered Castle deal without take-backs, up to the
same number of states (the probe and the streamliners stop earlier when they are done), so the
state counts are the same on every machine and on both paths; only the seconds differ.  Seconds
are this process's CPU time, the best of `--repeat` runs (the machine's noise only ever adds
time).  The garbage collector is paused as `solve` pauses it.
"""

from __future__ import annotations

import argparse
import gc
import time

from solitaire_nb import new_game
from solitaire_nb.solver import compiled
from solitaire_nb.solver.api import DEFAULT_MAX_TABLE
from solitaire_nb.solver.depth import _fast_dfs
from solitaire_nb.solver.fast import _Fast
from solitaire_nb.solver.portfolio import CASTLE_DEPTH_FIRST, CASTLE_SECOND, CASTLE_STREAM
from solitaire_nb.solver.probe import _fast_probe
from solitaire_nb.solver.search import _advance, _fast_search
from solitaire_nb.solver.state import _Spec
from solitaire_nb.solver.streamline import _fast_streamliner, blind_table

PATHS = {"python": (_fast_search, _fast_dfs, _fast_probe, _fast_streamliner)}
if compiled.available():
    PATHS["core"] = (compiled.fast_search, compiled.fast_dfs, compiled.fast_probe, compiled.fast_streamliner)


def searches(spec, game, path: str):
    best_first, depth_first, probe, streamliner = PATHS[path]

    def bf(urgency):
        st = _Fast(spec, game)
        if urgency:
            st.urgency = urgency
        return best_first(st, None, DEFAULT_MAX_TABLE)

    yield "best-first, usual order", lambda: bf(None)
    yield "best-first, second order", lambda: bf(CASTLE_SECOND)
    for order in CASTLE_DEPTH_FIRST:
        yield f"depth-first, {order!r} order", lambda o=order: depth_first(_Fast(spec, game), None, DEFAULT_MAX_TABLE, o)
    yield "probe", lambda: probe(spec, game, None, DEFAULT_MAX_TABLE)
    table = blind_table(spec)
    yield "streamliners", lambda: streamliner(spec, game, table, None, CASTLE_STREAM, DEFAULT_MAX_TABLE)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deal", type=int, default=22)
    ap.add_argument("--states", type=int, default=150_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    game = new_game("beleaguered_castle", seed=args.deal, takeback=False)
    spec = _Spec(game)
    print(f"Beleaguered Castle, takeback=False, deal {args.deal}, {args.states} states, best of {args.repeat}, "
          f"CPU seconds; paths: {', '.join(PATHS)}")
    print(f"{'search':28} {'path':>6} {'states':>10} {'CPU s':>9} {'states/s':>10}")
    gc.disable()
    try:
        for path in PATHS:
            for name, make in searches(spec, game, path):
                best = None
                for _ in range(args.repeat):
                    search = make()
                    next(search)
                    t0 = time.process_time()
                    used, _verdict = _advance(search, args.states)
                    dt = max(time.process_time() - t0, 1e-6)
                    search.close()
                    best = dt if best is None else min(best, dt)
                print(f"{name:28} {path:>6} {used:>10} {best:>9.3f} {used / best:>10.0f}")
    finally:
        gc.enable()


if __name__ == "__main__":
    main()
