"""The type checker: mypy, pinned in the test extra and configured in pyproject.toml
([tool.mypy]), finds no error in the package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.xdist_group("mypy")
def test_mypy_finds_no_error() -> None:
    pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install -e '.[test]'")
    # From the repository's root with its pyproject.toml (files, version, overrides).
    command = [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml")]
    run = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=900)
    exit_code = run.returncode
    assert exit_code == 0, f"mypy exited {exit_code}:\n{run.stdout}{run.stderr}"
    assert "Success: no issues found" in run.stdout, run.stdout
