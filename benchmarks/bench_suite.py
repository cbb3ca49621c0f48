"""Wall time of the test suite (or a part of it) in one process and on several xdist workers,
measured in the same run, one after the other, with the machine's load beside each figure.

    python benchmarks/bench_suite.py                      # a CPU-bound subset, serial vs -n 2
    python benchmarks/bench_suite.py --full --only-parallel   # the README's whole test run
    python benchmarks/bench_suite.py --workers 2 --repeat 2 tests/test_share.py tests/test_notation.py

Each run is `python -m pytest -q -p no:cacheprovider [ -n N --dist MODE ] TESTS` from the
repository's root; the table gives its wall time, the CPU time of pytest and all it started
(workers, servers, browsers), what pytest reported, and the 1-minute load average before it
started. On a shared machine the wall times mean little: Linux shares the CPU between sessions
(autogroup), so extra workers in one session get no more CPU than one process; the CPU time is
the figure to compare, and on an idle machine with N cores a well spread run takes about
CPU time / N.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SUBSET = [
    "tests/test_rules_castle.py",
    "tests/test_rules_chequers.py",
    "tests/test_rules_moving_left.py",
    "tests/test_rules_scotch_bakers.py",
    "tests/test_rules_general.py",
    "tests/test_notation.py",
    "tests/test_share.py",
    "tests/test_position.py",
    "tests/test_compare.py",
    "tests/test_engine_contract.py",
]


def run(tests: list[str], workers: int, dist: str = "loadgroup") -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of pytest and everything it started, pytest's summary)."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    if workers:
        cmd += ["-n", str(workers), "--dist", dist]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([*cmd, *tests], cwd=REPO, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = re.findall(r"^=*\s*(\d+ (?:passed|failed|skipped|error).*?) in [\d.]+s", proc.stdout, re.M)
    return seconds, cpu, (summary[-1] if summary else f"exit {proc.returncode}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tests", nargs="*", help="test files (default: a CPU-bound subset)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="serial/parallel pairs")
    parser.add_argument("--full", action="store_true", help="every test (the README's run)")
    parser.add_argument("--only-parallel", action="store_true", help="skip the serial run")
    parser.add_argument("--dist", default="loadgroup", help="xdist modes to compare, comma-separated (load,loadgroup…)")
    args = parser.parse_args(argv)
    tests = [] if args.full else (args.tests or SUBSET)

    print(f"{'run':<20} {'wall s':>8} {'CPU s':>7} {'load 1 min':>10}  pytest")
    for _ in range(args.repeat):
        runs = [(args.workers, dist) for dist in args.dist.split(",")]
        for workers, dist in runs if args.only_parallel else [(0, ""), *runs]:
            load = os.getloadavg()[0]
            seconds, cpu, summary = run(tests, workers, dist)
            label = f"-n {workers} {dist}" if workers else "serial"
            print(f"{label:<20} {seconds:>8.1f} {cpu:>7.1f} {load:>10.1f}  {summary}", flush=True)


if __name__ == "__main__":
    main()
