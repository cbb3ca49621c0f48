"""Rule 10 (runs as one step, docs/solver.md#poda-10) in each castle search alone, on and off,
interleaved deal by deal: what each search decides and what a state costs in CPU time.

    python benchmarks/bench_runs.py [--searches usual,fc,stream] [--deals 1-60] [--states 20000]

Each search of the castles' portfolio runs alone on Beleaguered Castle without take-backs, to a
verdict or `--states` states: "usual" (the usual best-first order), "key" and "fc" (the
depth-first ones), "stream" (the two streamliners, which may only win).  Per search and
setting: won, lost, CPU seconds, states and microseconds per state.  Lines are not replayed
here (the tests do that).
"""

from __future__ import annotations

import argparse
import time

from solitaire_nb import new_game
from solitaire_nb.solver.depth import _fast_dfs
from solitaire_nb.solver.fast import _Fast
from solitaire_nb.solver.search import _advance, _fast_search
from solitaire_nb.solver.state import _Spec
from solitaire_nb.solver.streamline import _fast_streamliner, blind_table


def run(kind: str, macro: bool, seed: int, cap: int) -> tuple[str, int, float]:
    """One search alone: its verdict, its states and its CPU seconds."""
    g = new_game("beleaguered_castle", seed=seed, takeback=False)
    spec = _Spec(g)
    st = _Fast(spec, g)
    st.macro = macro
    c0 = time.process_time()
    if kind == "usual":
        search = _fast_search(st, None, 10**7)
    elif kind in ("key", "fc"):
        search = _fast_dfs(st, None, 10**7, kind)
    else:
        table = blind_table(spec)
        assert table is not None
        search = _fast_streamliner(spec, g, table, None, cap, 10**7, None, macro)
    next(search)
    states, verdict = _advance(search, cap)
    if verdict is None:
        search.close()
        verdict = ("unknown", [], states)
    return verdict[0], verdict[2], time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--searches", default="usual,fc,stream")
    ap.add_argument("--deals", default="1-60")
    ap.add_argument("--states", type=int, default=20_000)
    args = ap.parse_args()
    first, last = map(int, args.deals.split("-"))
    totals: dict[tuple[str, bool], list[float]] = {}
    for seed in range(first, last + 1):
        for kind in args.searches.split(","):
            for macro in (False, True) if seed % 2 else (True, False):  # the order alternates
                status, states, cpu = run(kind, macro, seed, args.states)
                t = totals.setdefault((kind, macro), [0, 0, 0.0, 0])
                t[0] += status == "won"
                t[1] += status == "lost"
                t[2] += cpu
                t[3] += states
    print(f"Beleaguered Castle deals {args.deals}, each search alone up to {args.states:,} states")
    print("| search | runs as one step | won | lost | CPU s | states | µs a state |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (kind, macro), (won, lost, cpu, states) in sorted(totals.items()):
        print(f"| {kind} | {'on' if macro else 'off'} | {won:.0f} | {lost:.0f} | {cpu:.1f} | {states:,.0f} | "
              f"{1e6 * cpu / max(states, 1):.1f} |")


if __name__ == "__main__":
    main()
