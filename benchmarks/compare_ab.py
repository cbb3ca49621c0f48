"""Speed of two git refs of the package, interleaved A/B, through the public API only.

    python benchmarks/compare_ab.py [--a REF] [--b REF] [--repeat 5] [--quick]
                                    [--only engine,study,lab,solver,import] [--verdict-shard 0/25]
                                    [--verdict-limit N] [--records DIR] [--no-verdicts]

Each ref (default A = 8702702, the start of issue 35; B = HEAD: committed work only) is
exported with ``git archive`` to a temporary folder, removed afterwards.  Each benchmark runs in
a fresh process with PYTHONPATH set to one export, A B, B A, A B … `--repeat` times each; the
table gives each side's best processor and wall time (the machine's noise only ever adds time)
and the ratio B/A (above 1: B is slower).  Each run also reports a check of the work it did
(moves played, states examined, …): «same» says both sides did identical work.  Then each ref's
own ``benchmarks/compare_verdicts.py run`` records the solver's verdicts on the same deals (every
n-th deal of its selection, `--verdict-shard`; ``0/1`` for all 5,175) and B's ``diff``
compares the two records; with `--records DIR` each commit's record is kept and later runs only
add the deals it lacks.  The machine's load average is printed with the table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from compare_speed import CASES

ROOT = Path(__file__).resolve().parent.parent
START = "8702702"  # main before issue 35's reorganisation

# Each benchmark is a child script: `setup()` (untimed: imports, warm-up) then `work(size)`
# (timed), which returns a check of the work done; only `import solitaire_nb as sn` and its
# public names are used, so the same text runs on both refs.
PRELUDE = """
import json, random, sys, time
import solitaire_nb as sn
assert sn.__file__.startswith(sys.argv[1]), f"imported {sn.__file__}, not {sys.argv[1]}"
size = json.loads(sys.argv[2])
"""
EPILOGUE = """
setup()
c0, w0 = time.process_time(), time.perf_counter()
check = work(size)
print(json.dumps([time.process_time() - c0, time.perf_counter() - w0, check]))
"""

ENGINE = """
def setup():
    sn.new_game("citadel", seed=1).legal_moves()

def work(deals):
    # random playouts: legal_moves() then move(), as bench_engine.py, on deals 1..deals of each game
    rng = random.Random(12345)
    moves = 0
    for name in sn.GAMES:
        for deal in range(1, deals + 1):
            g = sn.new_game(name, seed=deal)
            for _ in range(300):
                legal = g.legal_moves()
                if not legal:
                    break
                g.move(rng.choice(legal))
                moves += 1
    return moves
"""

STUDY = """
def setup():
    sn.study.simulate(1000, seed=0)

def work(n):
    r = sn.study.simulate(n, seed=1)
    return [int(r.n), int(r.home_in_deal.sum()), int(r.autoplay_moved.sum())]
"""

LAB = """
CHANGES = [("columns", 10), ("empty", "king"), ("suits", "alt"), ("aces_out", False),
           ("deal_to_foundations", True), ("autoplay", True), ("columns", 13), ("kings_to_bottom", True),
           ("foundation", "alt"), ("build", "updown"), ("runs", True), ("takeback", False)]

def setup():
    global lab
    lab = sn.lab("beleaguered_castle")

def work(changes):
    # as bench_lab.py: each change composes a game not seen before, deals it, recomputes the
    # paired statistics (10,000 decks), writes their table and draws the plot
    names = []
    for key, value in CHANGES[:changes]:
        assert lab.change(**{key: value}), (key, value)
        names.append(lab.game.name)
    return [names, lab.stats.value]
"""

# compare_speed.py's undecided deals, each at a fifth of its cap (times `scale`)
SOLVER = f"""
CASES = {[(game, variant, deal, cap // 5) for game, variant, deal, cap in CASES]!r}

def setup():
    sn.solve(sn.new_game("citadel", seed=1), max_states=100)

def work(scale):
    out = []
    for game, variant, deal, cap in CASES:
        r = sn.solve(sn.new_game(game, seed=deal, **variant), max_states=int(cap * scale))
        out.append([r.status, r.states, len(r.moves)])
    return out
"""

IMPORT = """
def setup():
    pass

def work(_):
    # what the first cell of a study or lab notebook loads
    sn.study, sn.solve, sn.lab, sn.win_rate, sn.render_svg
    return None
"""

# name: (child body, size, quick size, what the size means)
BENCHES = {
    "engine": (ENGINE, 40, 5, "deals of each game: random playouts"),
    "study": (STUDY, 500_000, 100_000, "paired deals: study.simulate"),
    "lab": (LAB, 12, 2, "lab refreshes: compose, deal, statistics, plot"),
    "solver": (SOLVER, 0.6, 0.2, "× 67,000 states on 7 undecided deals"),
    "import": (IMPORT, None, None, "first use of study, solver, lab, win_rate, render"),
}


def export(ref: str, folder: Path) -> str:
    """Write the tree of `ref` into `folder`, byte-compiled; return its short commit."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", f"{ref}^{{commit}}"],
                            capture_output=True, text=True, check=True).stdout.strip()
    folder.mkdir(parents=True)
    archive = subprocess.Popen(["git", "-C", str(ROOT), "archive", commit], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(folder)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise SystemExit(f"git archive {ref} failed")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / "solitaire_nb")], check=True)
    return commit


def child_env(checkout: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(checkout), SNB_VERDICT_CACHE="off", MPLBACKEND="Agg")
    return env


def run_once(checkout: Path, body: str, size: object) -> tuple[float, float, object]:
    out = subprocess.run(
        [sys.executable, "-c", PRELUDE + body + EPILOGUE, str(checkout), json.dumps(size)],
        env=child_env(checkout), cwd=checkout, capture_output=True, text=True,
    )
    if out.returncode != 0:
        raise SystemExit(f"benchmark failed in {checkout}:\n{out.stderr[-3000:]}")
    cpu, wall, check = json.loads(out.stdout.strip().splitlines()[-1])
    return cpu, wall, check


def compare(sides: dict[str, Path], names: list[str], repeat: int, quick: bool) -> list[str]:
    rows = []
    for name in names:
        body, size, quick_size, meaning = BENCHES[name]
        size = quick_size if quick else size
        best: dict[str, list[float]] = {"A": [float("inf")] * 2, "B": [float("inf")] * 2}
        checks: dict[str, set[str]] = {"A": set(), "B": set()}
        for i in range(repeat):
            # A B, B A, A B …: neither side always runs first, and a steady drift of the machine cancels
            for side in ("A", "B") if i % 2 == 0 else ("B", "A"):
                cpu, wall, check = run_once(sides[side], body, size)
                best[side] = [min(best[side][0], cpu), min(best[side][1], wall)]
                checks[side].add(json.dumps(check))
        (a_cpu, a_wall), (b_cpu, b_wall) = best["A"], best["B"]
        if name == "import":
            same = "—"
        else:
            same = "same" if checks["A"] == checks["B"] and len(checks["A"]) == 1 else "DIFFERENT"
        what = meaning if size is None else f"{size:,} {meaning}"
        rows.append(f"| {name} | {what} | {a_cpu:.3f} | {b_cpu:.3f} | **{b_cpu / a_cpu:.2f}** "
                    f"| {a_wall:.3f} | {b_wall:.3f} | {b_wall / a_wall:.2f} | {same} |")
        print(rows[-1], flush=True)
    return rows


def verdicts(
    sides: dict[str, Path], commits: dict[str, str], shard: str, limit: int | None, folder: Path
) -> tuple[str, int]:
    """Each ref's compare_verdicts.py on the same deals, then B's diff; (summary, differing deals).
    A record already in `folder` for a commit is extended, not redone (``run`` is resumable)."""
    records, seconds = {}, {}
    for side, checkout in sides.items():
        records[side] = folder / f"verdicts_{commits[side]}.csv"
        cmd = [sys.executable, str(checkout / "benchmarks" / "compare_verdicts.py"), "run", str(records[side]),
               "--shard", shard] + ([] if limit is None else ["--limit", str(limit)])
        t0 = time.perf_counter()
        subprocess.run(cmd, env=child_env(checkout), cwd=checkout, check=True, capture_output=True, text=True)
        seconds[side] = time.perf_counter() - t0
    out = subprocess.run(
        [sys.executable, str(sides["B"] / "benchmarks" / "compare_verdicts.py"), "diff",
         str(records["A"]), str(records["B"])],
        env=child_env(sides["B"]), cwd=sides["B"], capture_output=True, text=True,
    )
    lines = out.stdout.strip().splitlines()
    lines[0] += f" (A took {seconds['A']:.0f} s, B {seconds['B']:.0f} s, one after the other)"
    return "\n".join(lines), len(lines) - 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default=START, help=f"the reference (default {START})")
    ap.add_argument("--b", default="HEAD", help="the version measured against it (default HEAD)")
    ap.add_argument("--repeat", type=int, default=None, help="runs per side (default 5; 2 with --quick)")
    ap.add_argument("--quick", action="store_true", help="small sizes, 2 runs, 20 verdicts: a smoke run")
    ap.add_argument("--only", default=",".join(BENCHES), help="comma-separated benchmarks")
    ap.add_argument("--verdict-shard", default="0/25", help="k/n: every n-th deal of compare_verdicts' selection")
    ap.add_argument("--verdict-limit", type=int, default=None, help="at most this many deals not yet in the records")
    ap.add_argument("--records", type=Path, default=None,
                    help="keep each commit's verdict record here (verdicts_COMMIT.csv) and extend it next time")
    ap.add_argument("--no-verdicts", action="store_true")
    args = ap.parse_args()
    names = args.only.split(",")
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        ap.error(f"unknown benchmark {unknown[0]!r}; known: {', '.join(BENCHES)}")
    repeat = args.repeat or (2 if args.quick else 5)
    limit = 20 if args.quick and args.verdict_limit is None else args.verdict_limit

    work = Path(tempfile.mkdtemp(prefix="compare_ab_"))
    try:
        sides = {"A": work / "a", "B": work / "b"}
        commits = {side: export(ref, sides[side]) for side, ref in (("A", args.a), ("B", args.b))}
        load = os.getloadavg()
        start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        print(f"A = {args.a} ({commits['A']}), B = {args.b} ({commits['B']}); {start}; "
              f"best of {repeat} per side, interleaved A B, B A, A B …; {os.cpu_count()} cores; "
              f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start")
        print()
        print("| benchmark | work | A cpu s | B cpu s | B/A cpu | A wall s | B wall s | B/A wall | work done |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---|", flush=True)
        compare(sides, names, repeat, args.quick)
        load = os.getloadavg()
        print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end of the timings", flush=True)
        if not args.no_verdicts:
            folder = args.records.resolve() if args.records else work
            folder.mkdir(parents=True, exist_ok=True)
            summary, differ = verdicts(sides, commits, args.verdict_shard, limit, folder)
            print(f"\nverdicts (compare_verdicts.py run --shard {args.verdict_shard}"
                  f"{'' if limit is None else f' --limit {limit}'} with each ref, then diff): {summary}")
            if differ:
                sys.exit(1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
