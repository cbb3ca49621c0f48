"""The search-speed benchmark runs and counts the same states for every search, on both paths
when the compiled core is installed (its seconds are only printed: speed is never asserted in a
test)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from solitaire_nb.solver import compiled

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_search_speed.py"
SEARCHES = ["best-first, usual order", "best-first, second order", "depth-first, 'key' order",
            "depth-first, 'fc' order", "probe", "streamliners"]


def test_bench_search_speed_prints_one_row_per_search_and_path():
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--states", "400", "--repeat", "1"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout.splitlines()
    rows = [line.split() for line in out[2:]]
    paths = ["python", "core"] if compiled.available() else ["python"]
    assert [(" ".join(r[:-4]), r[-4]) for r in rows] == [(s, p) for p in paths for s in SEARCHES]
    counts = {}
    for r in rows:
        assert 0 < int(r[-3]) <= 400 and float(r[-1]) > 0
        counts.setdefault(" ".join(r[:-4]), set()).add(r[-3])
    assert all(len(c) == 1 for c in counts.values()), counts  # the same states on both paths
    assert counts["best-first, usual order"] == {"400"}
