"""Wall time of the test suite (or a part of it) in one process and on several xdist workers,
measured in the same run, one after the other, with the machine's load beside each figure.

    python benchmarks/bench_suite.py                      # a CPU-bound subset, serial vs -n 2
    python benchmarks/bench_suite.py --full --only-parallel   # the README's whole test run
    python benchmarks/bench_suite.py --workers 2 --repeat 2 tests/test_share.py tests/test_notation.py

Each run is `python -m pytest -q -p no:cacheprovider [ -n N --dist loadgroup ] TESTS` from the
repository's root; the table gives its wall time, what pytest reported, and the 1-minute load
average before it started (other work on the machine slows every figure alike).
"""

from __future__ import annotations

import argparse
import os
import re
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


def run(tests: list[str], workers: int) -> tuple[float, str]:
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    if workers:
        cmd += ["-n", str(workers), "--dist", "loadgroup"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    proc = subprocess.run([*cmd, *tests], cwd=REPO, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    summary = re.findall(r"=+ (.*?) in [\d.]+s", proc.stdout)
    return seconds, (summary[-1] if summary else f"exit {proc.returncode}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tests", nargs="*", help="test files (default: a CPU-bound subset)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="serial/parallel pairs")
    parser.add_argument("--full", action="store_true", help="every test (the README's run)")
    parser.add_argument("--only-parallel", action="store_true", help="skip the serial run")
    args = parser.parse_args(argv)
    tests = [] if args.full else (args.tests or SUBSET)

    print(f"{'run':<12} {'wall s':>8} {'load 1 min':>10}  pytest")
    for _ in range(args.repeat):
        for workers in ([args.workers] if args.only_parallel else [0, args.workers]):
            load = os.getloadavg()[0]
            seconds, summary = run(tests, workers)
            label = f"-n {workers}" if workers else "serial"
            print(f"{label:<12} {seconds:>8.1f} {load:>10.1f}  {summary}", flush=True)


if __name__ == "__main__":
    main()
