"""Widgets stay in the widget module: a static scan of the package's imports (no import runs)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "solitaire_nb"
MODULES = sorted(PACKAGE.rglob("*.py"))
WIDGET_LIBRARIES = ("ipywidgets", "anywidget", "tqdm.notebook", "tqdm.auto")
#: the only modules that may name the board or a widget library inside a function: the
#: progress seam (the default bar) and the exercises' re-exports of `caja`/`tablero`
LAZY_SEAMS = {"progress.py", "ejercicios.py"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(absolute module name, at module level?) of each import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else _module_name(path)
    nested: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            nested.update(id(n) for n in ast.walk(node) if n is not node)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        found += [(name, id(node) not in nested) for name in names]
    return found


def _is_widget(name: str) -> bool:
    return name == "solitaire_nb.board" or any(name == w or name.startswith(w + ".") for w in WIDGET_LIBRARIES)


def test_the_scan_sees_relative_and_nested_imports(tmp_path):
    sample = PACKAGE / "progress.py"
    assert ("solitaire_nb.board.progress_bar", False) in _imports(sample)
    assert any(name == "anywidget" and top for name, top in _imports(PACKAGE / "board.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_board_module_imports_widgets(path):
    if path.name == "board.py":
        return
    widgets = [(name, top) for name, top in _imports(path) if _is_widget(name)]
    at_top = [name for name, top in widgets if top]
    assert not at_top, f"{path.name} imports {at_top} at module level: widgets belong in board.py"
    if path.name not in LAZY_SEAMS:
        assert not widgets, f"{path.name} imports {[n for n, _ in widgets]}: ask progress.py or board.py instead"


def test_computations_load_no_widget_library():
    code = (
        "import sys, solitaire_nb, solitaire_nb.study, solitaire_nb.winrate, solitaire_nb.ejercicios; "
        "solitaire_nb.study.simulate(10, progress=True); "
        "print([m for m in ('ipywidgets', 'anywidget', 'solitaire_nb.board') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
