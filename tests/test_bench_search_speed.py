"""The search-speed benchmark runs and counts the same states for every search (its seconds
are only printed: speed is never asserted in a test)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_search_speed.py"


def test_bench_search_speed_prints_one_row_per_search():
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--states", "400", "--repeat", "1"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout.splitlines()
    rows = [line.split() for line in out[2:]]
    names = [" ".join(r[:-3]) for r in rows]
    assert names == ["best-first, usual order", "best-first, second order",
                     "depth-first, 'key' order", "depth-first, 'fc' order"]
    assert all(r[-3] == "400" and float(r[-1]) > 0 for r in rows)
