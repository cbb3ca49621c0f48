"""The solver on numbered deals, against Debian's fc-solve (and Solvitaire, when a binary is
given) on the same deals in the same run, measured on CPU time.

    python benchmarks/bench_solver.py [--deals 200] [--limit 10] [--games beleaguered_castle,…]
        [--fc-memory 4] [--fc-iterations N] [--solvitaire PATH [--solvitaire-modes none,smart]]
        [--portfolio] [--python-row] [--baseline DIR] [--per-deal FILE] [--variant JSON]

What is measured, and how:

- **Ours**: `solve(game, time_limit=limit)` with the solver's deadline read on this process's
  CPU clock (`time.perf_counter` is swapped for `time.process_time` during the call), so a
  loaded machine does not change its verdicts; its time is the result's ``cpu_seconds``.
- **fc-solve**, both its default order and its proof mode (``-to 0AB``): its CPU time is the
  change of ``resource.getrusage(RUSAGE_CHILDREN)`` (user + system) around the run, less its
  start-up, measured in the same run on a position that is already won (the median of 9
  runs).  It is capped in CPU seconds (``RLIMIT_CPU``, whole seconds) and in memory
  (``RLIMIT_AS``, ``--fc-memory`` GiB: it used 6–9 GB on hard deals), and optionally in
  iterations (``-mi``).  A killed run is «sin decidir».
- **Ours + fc-solve** (``--portfolio``, a separate row; every target is our own search's):
  `solve(game, time_limit=limit, fc_solve=True)`, fc-solve joining in the last quarter of the
  time when ours is undecided; its time is ``cpu_seconds``, fc-solve's CPU (with its start-up)
  included.
- **Ours, pure Python** (``--python-row``, a separate row): the same `solve` with the optional
  compiled core turned off (``SNB_SOLVER_CORE=python``); the header says whether «ours» ran on
  the core.  Both examine the same states, so only the seconds differ.
- **Another tree of the package** (``--baseline DIR``, optional: a ``git worktree`` or ``git
  archive`` of another commit): its `solve` in a child process, run the same way as ours,
  deal by deal in the same rotation, so that a change is measured against the code before it
  under the same load (row «baseline»; ratio = ours ÷ it).  Its PYTHONPATH is dropped: it
  uses the compiled core installed in this Python, if any (the header says).
- **Solvitaire** (``--solvitaire PATH``, optional; built from its source, docs/solver.md): on
  the games whose rules its ``--type beleaguered-castle`` plays, the deal written as its JSON
  deal file (`benchmarks/solvitaire.py`), one row per ``--solvitaire-modes``: ``none`` (its
  plain search) and ``smart`` (its ``smart-solvability``: both streamliners with a tenth of the
  cap, then the plain search with the CPU time left — the two runs timed here on CPU time, not
  on its wall-clock timer).  Capped in CPU seconds (``ITIMER_PROF``) and memory as fc-solve;
  its CPU from ``RUSAGE_CHILDREN`` less its start-up (measured as fc-solve's, once per run it
  starts); states are its «Unique States Searched».  It prints no moves but every position of
  a won line: each line is replayed through our engine, position by position, and the rows
  count those that win.  Without a binary, its published figures are printed instead.

Runs are interleaved deal by deal (ours, then each peer, in an order that rotates per deal).
Printed per solver: decided count, won / lost / undecided; over the deals **both** it and ours
decide: median, p90 and total CPU seconds, and ours ÷ it for each; states per CPU second over
its runs that print a count (fc-solve's «Total number of states checked»; a run a cap stopped
prints none); verdict disagreements (must be 0:
a «won» against a «lost»); and the deals each left undecided.  ``--per-deal FILE`` also writes
every run as a JSON line (game, deal, solver, verdict, CPU seconds, states); ``--variant JSON``
sets variant flags over each game's (``'{"autoplay": true}'``: Citadel as its page deals it,
without take-backs); fc-solve runs only where it plays the rules (`fcsolve.fits`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import NamedTuple

import solvitaire  # benchmarks/solvitaire.py, beside this script

from solitaire_nb import new_game
from solitaire_nb.solver import compiled, solve
from solitaire_nb.solver.fcsolve import fc_solve_board, fits

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
SOLVITAIRE_MODES = {"none": "Solvitaire", "smart": "Solvitaire smart"}
PUBLISHED = ("Solvitaire: not run (no --solvitaire PATH). Published (Blake & Gent, arXiv:1906.12314), Beleaguered "
             "Castle, 2,000,000 deals: 68.17 % ± 0.10 % won; 0.068 % undecided, 4.9 CPU s a deal (as issue 46 "
             "quotes them); benchmarks/RESULTS.md has it beside ours.")
WON_BOARD = "Foundations: H-K C-K D-K S-K\n" + ":\n" * 8


class Run(NamedTuple):
    status: str  # "won", "lost" or "unknown"
    cpu: float  # CPU seconds
    states: int  # states the solver says it checked (0 when it does not say)
    line_ok: bool | None = None  # a peer's won line replayed to a win in our engine (None: not checked)


def child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def capped(cpu_seconds: float, memory_gib: float) -> Callable[[], None]:
    """A `preexec_fn` capping the child's CPU time (whole seconds, at least 1) and memory."""
    def limit() -> None:
        secs = max(1, int(round(cpu_seconds)))
        resource.setrlimit(resource.RLIMIT_CPU, (secs, secs + 1))
        size = int(memory_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
        os.nice(0)
    return limit


def run_child(args: list[str], stdin: str, limit: float, memory: float) -> tuple[str, float]:
    """(stdout, CPU seconds) of one capped child run; stdout "" when it was killed."""
    c0 = child_cpu()
    proc = subprocess.run(args, input=stdin, capture_output=True, text=True,
                          preexec_fn=capped(limit, memory))
    return (proc.stdout if proc.returncode == 0 else ""), child_cpu() - c0


def fc_args(exe: str, proof: bool, iterations: int | None) -> list[str]:
    args = [exe, "-g", "beleaguered_castle", "-sel"] + (["-to", "0AB"] if proof else [])
    if iterations:
        args += ["-mi", str(iterations)]
    return args + ["-"]


def run_fc(args: list[str], board: str, limit: float, memory: float, startup: float) -> Run:
    out, cpu = run_child(args, board, limit, memory)
    m = re.search(r"Total number of states checked is (\d+)", out)
    states = int(m.group(1)) if m else 0
    cpu = max(cpu - startup, 0.0)
    if "This game is solveable." in out:
        return Run("won", cpu, states)
    if "I could not solve this game." in out:
        return Run("lost", cpu, states)
    return Run("unknown", cpu, states)


def run_solvitaire(exe: str, mode: str, game, limit: float, memory: float, startup: float) -> Run:
    """One Solvitaire run (`mode` "none", or "smart": its streamliner phase first, on CPU
    time); a won verdict's printed line is replayed through our engine (`Run.line_ok`)."""
    deal = solvitaire.deal_json(game)
    if mode == "smart":
        out, cpu, states = solvitaire.run_smart(exe, deal, limit, memory, startup)
    else:
        out, cpu = solvitaire.run(exe, deal, mode, limit, memory)
        cpu = max(cpu - startup, 0.0)
        states = solvitaire.verdict(out)[1] if out else 0
    if out and solvitaire.deal_read(out) != solvitaire.state_of(game):
        raise RuntimeError(f"Solvitaire read another position than deal {game.seed}'s")
    status = solvitaire.verdict(out)[0] if out else "unknown"
    ok = solvitaire.replay(game, solvitaire.states(out)) is not None if status == "won" else None
    return Run(status, cpu, states, ok)


def run_ours(game, limit: float, fc: bool = False, python: bool = False) -> Run:
    """Our solver with its deadline on this process's CPU clock (see the module docstring);
    with `fc`, fc-solve in its portfolio (`solve`'s ``fc_solve``); with `python`, the
    compiled core turned off."""
    wall = time.perf_counter
    time.perf_counter = time.process_time
    saved = os.environ.get(compiled.CORE_ENV)
    if python:
        os.environ[compiled.CORE_ENV] = "python"
    try:
        r = solve(game, time_limit=limit, fc_solve=fc)
    finally:
        time.perf_counter = wall
        if python:
            if saved is None:
                del os.environ[compiled.CORE_ENV]
            else:
                os.environ[compiled.CORE_ENV] = saved
    return Run(r.status, r.cpu_seconds or 0.0, r.states)


BASELINE_WORKER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import solitaire_nb
assert solitaire_nb.__file__.startswith(sys.argv[1]), solitaire_nb.__file__
from solitaire_nb import new_game, solve
try:
    from solitaire_nb.solver import compiled
    core = compiled.available()
except ImportError:  # a tree from before the compiled core
    core = False
print(json.dumps(core), flush=True)
for line in sys.stdin:
    name, seed, limit, flags = json.loads(line)
    wall = time.perf_counter
    time.perf_counter = time.process_time
    try:
        r = solve(new_game(name, seed=seed, **flags), time_limit=limit)
    finally:
        time.perf_counter = wall
    print(json.dumps([r.status, r.cpu_seconds or 0.0, r.states]), flush=True)
"""


class Baseline:
    """`solve` of another tree of the package (`--baseline`), in a child process that imports
    only that tree (and the compiled core installed in this Python, if any: `core`) and is fed
    one deal at a time (see `BASELINE_WORKER`)."""

    def __init__(self, tree: str):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.proc = subprocess.Popen([sys.executable, "-c", BASELINE_WORKER, os.path.abspath(tree)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout is not None
        self.core: bool = json.loads(self.proc.stdout.readline())

    def run(self, name: str, seed: int, flags: dict, limit: float) -> Run:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([name, seed, limit, flags]) + "\n")
        self.proc.stdin.flush()
        status, cpu, states = json.loads(self.proc.stdout.readline())
        return Run(status, cpu, states)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def report(name: str, runs: list[Run], ours: list[Run], seeds: list[int]) -> None:
    n = len(runs)
    won = sum(r.status == "won" for r in runs)
    lost = sum(r.status == "lost" for r in runs)
    both = [k for k in range(n) if runs[k].status != "unknown" and ours[k].status != "unknown"]
    mine = [runs[k].cpu for k in both]
    theirs = [ours[k].cpu for k in both]
    disagree = sum(1 for k in both if runs[k].status != ours[k].status)
    counted = [r for r in runs if r.states]  # a run a cap stopped prints no count
    cpu_counted = sum(r.cpu for r in counted)
    rate = sum(r.states for r in counted) / cpu_counted if cpu_counted else 0.0
    line = f"{name:22} {won + lost:4d}/{n:<4d} {won:4d} {lost:4d} {n - won - lost:4d} {len(both):5d}"
    if both:
        line += f" {statistics.median(mine):9.3f} {pct(mine, 0.9):8.3f} {sum(mine):9.2f}"
        med = statistics.median(theirs) / max(statistics.median(mine), 1e-9)
        line += f" {med:9.2f} {sum(theirs) / max(sum(mine), 1e-9):9.2f}"
    line += f" {rate:10,.0f} {disagree:5d}"
    print(line)
    undecided = [seeds[k] for k in range(n) if runs[k].status == "unknown"]
    print(f"{'':22} undecided: {' '.join(map(str, undecided)) or '-'}")
    checked = [k for k in range(n) if runs[k].line_ok is not None]
    if checked:
        bad = [seeds[k] for k in checked if not runs[k].line_ok]
        print(f"{'':22} won lines replayed to a win in our engine: {len(checked) - len(bad)} of {won}"
              + (f"; NOT: {' '.join(map(str, bad))}" if bad else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--start", type=int, default=1, help="first deal number")
    ap.add_argument("--limit", type=float, default=10.0, help="CPU seconds per deal and solver")
    ap.add_argument("--games", default=",".join(CONFIGS))
    ap.add_argument("--fc-memory", type=float, default=4.0, help="GiB of address space for a peer")
    ap.add_argument("--fc-iterations", type=int, default=None, help="fc-solve's -mi cap")
    ap.add_argument("--solvitaire", default=None, help="path of a Solvitaire binary (optional)")
    ap.add_argument("--solvitaire-modes", default="none,smart",
                    help="Solvitaire rows: none (--streamliners none), smart (its smart-solvability on CPU time)")
    ap.add_argument("--portfolio", action="store_true", help="add ours + fc-solve as a row of its own")
    ap.add_argument("--python-row", action="store_true", help="add ours without the compiled core as a row")
    ap.add_argument("--baseline", default=None, help="another tree of the package, measured beside ours")
    ap.add_argument("--per-deal", default=None, help="write every run as a JSON line to this file")
    ap.add_argument("--variant", default=None, help="JSON flags over each game's, e.g. '{\"autoplay\": true}'")
    args = ap.parse_args()
    exe = shutil.which("fc-solve")
    startup = 0.0
    if exe:
        startup = statistics.median(run_child(fc_args(exe, False, None), WON_BOARD, 5, 1)[1] for _ in range(9))
    modes = [m for m in args.solvitaire_modes.split(",") if m]
    if any(m not in SOLVITAIRE_MODES for m in modes):
        ap.error(f"--solvitaire-modes: {args.solvitaire_modes!r} (none, smart)")
    sv_startup = 0.0
    baseline = Baseline(args.baseline) if args.baseline else None
    per_deal = open(args.per_deal, "w", encoding="utf-8") if args.per_deal else None
    if args.solvitaire:
        sv_startup = statistics.median(
            solvitaire.run(args.solvitaire, solvitaire.WON, "none", 5, 1)[1] for _ in range(9))
    print(f"deals {args.start}..{args.start + args.deals - 1}, {args.limit:g} CPU s per deal and solver, "
          f"baseline: {args.baseline or 'none'}{' (on the compiled core)' if baseline and baseline.core else ''}, "
          f"fc-solve: {exe or 'absent'} (start-up {startup * 1000:.2f} ms CPU, subtracted; "
          f"{args.fc_memory:g} GiB), Solvitaire: {args.solvitaire or 'not given'}"
          f"{f' (start-up {sv_startup * 1000:.2f} ms CPU, subtracted)' if args.solvitaire else ''}, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; ours: "
          f"{'the compiled core' if compiled.available() else 'pure Python (no compiled core)'}")
    print("CPU seconds over the deals both that solver and ours decide; ratio = ours ÷ it")
    print(f"{'solver':22} {'decided':>9} {'won':>4} {'lost':>4} {'unk':>4} {'both':>5} "
          f"{'median s':>9} {'p90 s':>8} {'total s':>9} {'med ratio':>9} {'tot ratio':>9} "
          f"{'states/s':>10} {'disag':>5}")
    for key in args.games.split(","):
        name, flags = CONFIGS[key]
        if args.variant:
            flags = {**flags, **json.loads(args.variant)}
        seeds = list(range(args.start, args.start + args.deals))
        peers: dict[str, list[Run]] = {}
        ours: list[Run] = []
        for k, seed in enumerate(seeds):
            g = new_game(name, seed=seed, **flags)
            jobs: list[tuple[str, Callable[[], Run]]] = [("ours", lambda g=g: run_ours(g, args.limit))]
            if args.python_row:
                jobs.append(("ours, pure Python", lambda g=g: run_ours(g, args.limit, python=True)))
            if exe and fits(g):  # fc-solve only where it plays these rules (no autoplay, say)
                board = fc_solve_board(g)
                for label, proof in (("fc-solve default", False), ("fc-solve -to 0AB", True)):
                    fa = fc_args(exe, proof, args.fc_iterations)
                    jobs.append((label, lambda fa=fa, b=board: run_fc(fa, b, args.limit, args.fc_memory, startup)))
                if args.portfolio:
                    jobs.append(("ours + fc-solve", lambda g=g: run_ours(g, args.limit, fc=True)))
            if baseline is not None:
                jobs.append(("baseline", lambda name=name, seed=seed, flags=flags: baseline.run(name, seed, flags, args.limit)))
            if args.solvitaire and solvitaire.plays(g):
                for mode in modes:
                    jobs.append((SOLVITAIRE_MODES[mode], lambda g=g, mode=mode: run_solvitaire(
                        args.solvitaire, mode, g, args.limit, args.fc_memory, sv_startup)))
            shift = k % len(jobs)
            for label, job in jobs[shift:] + jobs[:shift]:  # the order rotates deal by deal
                r = job()
                if per_deal is not None:
                    per_deal.write(json.dumps([key, seed, label, r.status, r.cpu, r.states]) + "\n")
                    per_deal.flush()
                if label == "ours":
                    ours.append(r)
                else:
                    peers.setdefault(label, []).append(r)
        print(f"{key}:")
        report("ours", ours, ours, seeds)
        for label, runs in peers.items():
            report(label, runs, ours, seeds)
        if not args.solvitaire and solvitaire.plays(new_game(name, seed=args.start, **flags)):
            print(PUBLISHED)


if __name__ == "__main__":
    main()
