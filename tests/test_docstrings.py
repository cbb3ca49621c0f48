"""Module docstrings say what a module does and its contract, in at most 15 lines: proofs,
history and design notes live in docs/, figures in benchmarks/RESULTS.md."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "solitaire_nb"
MAX_LINES = 15


def docstring_lines(path: Path) -> int:
    """Lines of the module docstring as `ast.get_docstring` cleans it (0 without one)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    return len(doc.splitlines()) if doc else 0


def test_module_docstrings_are_short():
    long = {str(p.relative_to(PACKAGE)): n for p in sorted(PACKAGE.rglob("*.py")) if (n := docstring_lines(p)) > MAX_LINES}
    assert not long, long


def test_the_measure_counts_the_cleaned_docstring(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""First.\n\n    Indented third line.\n"""\n\nx = 1\n', encoding="utf-8")
    assert docstring_lines(module) == 3
    module.write_text("x = 1\n", encoding="utf-8")
    assert docstring_lines(module) == 0
