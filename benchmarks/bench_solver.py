"""The solver on numbered deals, against Debian's fc-solve on the same deals in the same run.

Per game: decided fraction, won/lost/unknown, median and 90th-percentile seconds, and for
Beleaguered Castle and Citadel (``takeback=False, autoplay=False``, as fc-solve plays them)
the median, deal by deal, of our time / fc-solve's time, against fc-solve's default search and
against its proof mode (``-to 0AB``), plus how many verdicts disagree (must be 0); then the
numbers of the deals our solver left undecided.

    python benchmarks/bench_solver.py [--deals 100] [--limit 10] [--games beleaguered_castle,…]

Each solver gets `--limit` seconds per deal (fc-solve through a process timeout; its times
include starting the process).  Timings on a shared machine are noisy: say so with figures.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import time

from solitaire_nb import new_game
from solitaire_nb.solver import solve
from solitaire_nb.solver.fcsolve import fc_solve_board

CONFIGS = {
    "beleaguered_castle": ("beleaguered_castle", {"takeback": False}),
    "citadel": ("citadel", {"takeback": False, "autoplay": False}),
    "bakers_dozen": ("bakers_dozen", {}),
    "bakers_dozen_any_suit": ("bakers_dozen", {"any_suit": True}),
    "scotch": ("scotch", {}),
    "chequers": ("chequers", {}),
    "moving_left": ("moving_left", {}),
}
FC_GAMES = ("beleaguered_castle", "citadel")




def run_fc(exe: str, game, limit: float, proof: bool) -> tuple[str, float]:
    args = [exe, "-g", "beleaguered_castle", "-sel"] + (["-to", "0AB"] if proof else []) + ["-"]
    t0 = time.perf_counter()
    try:
        out = subprocess.run(args, input=fc_solve_board(game), capture_output=True, text=True, timeout=limit).stdout
    except subprocess.TimeoutExpired:
        return "unknown", limit
    dt = time.perf_counter() - t0
    if "This game is solveable." in out:
        return "won", dt
    if "I could not solve this game." in out:
        return "lost", dt
    return "unknown", dt


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--start", type=int, default=1, help="first deal number")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per deal and solver")
    ap.add_argument("--games", default=",".join(CONFIGS))
    args = ap.parse_args()
    exe = shutil.which("fc-solve")
    print(f"deals {args.start}..{args.start + args.deals - 1}, limit {args.limit:g} s per deal, "
          f"fc-solve: {exe or 'absent'}, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    head = f"{'game':24} {'decided':>8} {'won':>4} {'lost':>4} {'unk':>4} {'median s':>9} {'p90 s':>7}"
    head += f" {'ratio/default':>13} {'ratio/proof':>11} {'fc-def dec':>10} {'fc-proof dec':>12} {'disagree':>8}"
    print(head)
    for key in args.games.split(","):
        name, flags = CONFIGS[key]
        ours, times, r_def, r_proof = [], [], [], []
        fc_dec = [0, 0]
        disagree = 0
        for seed in range(args.start, args.start + args.deals):
            g = new_game(name, seed=seed, **flags)
            r = solve(g, time_limit=args.limit)
            ours.append(r.status)
            times.append(r.seconds)
            if exe and name in FC_GAMES:
                for k, proof in enumerate((False, True)):
                    verdict, dt = run_fc(exe, g, args.limit, proof)
                    (r_proof if proof else r_def).append(r.seconds / max(dt, 1e-6))
                    if verdict != "unknown":
                        fc_dec[k] += 1
                        if r.status != "unknown" and verdict != r.status and (proof or verdict == "won"):
                            disagree += 1
        n = len(ours)
        won, lost = ours.count("won"), ours.count("lost")
        line = f"{key:24} {(won + lost) / n:8.1%} {won:4d} {lost:4d} {n - won - lost:4d}"
        line += f" {statistics.median(times):9.2f} {pct(times, 0.9):7.2f}"
        if r_def:
            line += f" {statistics.median(r_def):13.1f} {statistics.median(r_proof):11.1f}"
            line += f" {fc_dec[0] / n:10.1%} {fc_dec[1] / n:12.1%} {disagree:8d}"
        print(line, flush=True)
        undecided = [args.start + k for k, status in enumerate(ours) if status == "unknown"]
        print(f"{'':24} undecided: {' '.join(map(str, undecided)) or '-'}", flush=True)


if __name__ == "__main__":
    main()
