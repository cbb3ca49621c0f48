"""Every maintainer script (tools/, benchmarks/) still starts: it imports what it uses from
the package and answers ``--help``.  A script broken by a move inside the package would
otherwise only be found the day someone reruns it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p.relative_to(REPO).as_posix() for folder in ("tools", "benchmarks") for p in (REPO / folder).glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_answers_help(script):
    done = subprocess.run([sys.executable, script, "--help"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
