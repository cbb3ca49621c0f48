"""Solver speed of two checkouts of the package, interleaved, through the public API only.

    python benchmarks/compare_speed.py --before OLD_CHECKOUT [--after .] [--repeat 5]

For each case (a game, a variant, a deal and a fixed ``max_states``) the two checkouts take
turns, each in a fresh process that imports its own `solitaire_nb`, `--repeat` times; the
table gives each side's best processor time (the machine's noise only ever adds time), the
states per second and their ratio.  Both must examine exactly the same number of states (a
fixed ``max_states`` and the same verdict), which the table also shows.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

CASES = [  # deals the atlas leaves undecided at these caps: each run examines exactly max_states
    ("beleaguered_castle", {"takeback": False}, 22, 150_000),
    ("beleaguered_castle", {}, 7, 50_000),
    ("citadel", {}, 14, 50_000),
    ("bakers_dozen", {}, 25, 50_000),
    ("scotch", {}, 4, 20_000),
    ("chequers", {}, 287, 5_000),
    ("moving_left", {}, 1, 10_000),
]

CHILD = """
import gc, json, sys, time
from solitaire_nb import new_game, solve
game, variant, deal, cap = json.loads(sys.argv[1])
g = new_game(game, seed=deal, **variant)
t0 = time.process_time()
r = solve(g, max_states=cap)
print(json.dumps([r.status, r.states, time.process_time() - t0]))
"""


def run(checkout: Path, case) -> tuple[str, int, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(case)],
        env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True, cwd=checkout,
    )
    status, states, seconds = json.loads(out.stdout)
    return status, states, seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--after", type=Path, default=Path("."))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    before, after = args.before.resolve(), args.after.resolve()
    print(f"best of {args.repeat}, interleaved; processor seconds")
    print(f"{'case':44} {'verdict':>16} {'before s':>9} {'after s':>9} {'before/s':>9} {'after/s':>9} {'after/before':>12}")
    for case in CASES:
        best = {"before": None, "after": None}
        seen = {}
        for _ in range(args.repeat):
            for side, path in (("before", before), ("after", after)):
                status, states, seconds = run(path, case)
                seen.setdefault(side, (status, states))
                best[side] = seconds if best[side] is None else min(best[side], seconds)
        (s0, n0), (s1, n1) = seen["before"], seen["after"]
        name = f"{case[0]} {case[1] or ''} deal {case[2]} ({case[3]:,})"
        verdict = f"{s0} {n0}" if (s0, n0) == (s1, n1) else f"{s0} {n0} / {s1} {n1}"
        b, a = best["before"], best["after"]
        print(f"{name:44} {verdict:>16} {b:>9.2f} {a:>9.2f} {n0 / b:>9.0f} {n1 / a:>9.0f} {(n1 / a) / (n0 / b):>12.2f}")


if __name__ == "__main__":
    main()
