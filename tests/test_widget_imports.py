"""Widgets stay in the widget modules (`board/widget.py`, `board/boxes.py`, `board/lab.py`, `board/deal_pair.py`,
`board/challenge.py` and the board
package's `__init__`, which re-exports them): a static scan of the package's imports (no
import runs)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "solitaire_nb"
MODULES = sorted(PACKAGE.rglob("*.py"))
WIDGET_LIBRARIES = ("ipywidgets", "anywidget", "tqdm.notebook", "tqdm.auto")
BOARD = PACKAGE / "board"
#: the modules that may import a widget library at module level
WIDGET_MODULES = {BOARD / "widget.py", BOARD / "boxes.py", BOARD / "lab.py", BOARD / "deal_pair.py", BOARD / "challenge.py",
                  BOARD / "__init__.py"}
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


def _is_widget(name: str, inside_board: bool = False) -> bool:
    """Whether importing `name` loads a widget library.  From outside the board package any
    part of it does (its `__init__` loads the widget modules); inside it, the package is already
    loaded and only its widget modules count."""
    if any(name == w or name.startswith(w + ".") for w in WIDGET_LIBRARIES):
        return True
    if not inside_board:
        return name == "solitaire_nb.board" or name.startswith("solitaire_nb.board.")
    widget_modules = {_module_name(p) for p in WIDGET_MODULES if p.name != "__init__.py"}
    return name == "solitaire_nb.board" or any(name == m or name.startswith(m + ".") for m in widget_modules)


def test_the_scan_sees_relative_and_nested_imports(tmp_path):
    sample = PACKAGE / "progress.py"
    assert ("solitaire_nb.board.progress_bar", False) in _imports(sample)
    assert any(name == "anywidget" and top for name, top in _imports(BOARD / "widget.py"))
    assert any(name == "ipywidgets" and top for name, top in _imports(BOARD / "boxes.py"))
    assert ("solitaire_nb.board.clicks.Clicks", True) in _imports(BOARD / "widget.py")
    assert _is_widget("solitaire_nb.board.clicks") and not _is_widget("solitaire_nb.board.clicks", inside_board=True)
    assert _is_widget("solitaire_nb.board.widget.Board", inside_board=True)
    assert _is_widget("ipywidgets.widgets", inside_board=True) and not _is_widget("solitaire_nb.render")


def test_the_board_package_has_modules_free_of_widgets():
    assert BOARD.is_dir() and all(p.exists() for p in WIDGET_MODULES)
    assert set(BOARD.glob("*.py")) - WIDGET_MODULES, "the board's logic lives beside its widgets"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_widget_modules_import_widgets(path):
    if path in WIDGET_MODULES:
        return
    inside_board = path.parent == BOARD
    widgets = [(name, top) for name, top in _imports(path) if _is_widget(name, inside_board)]
    at_top = [name for name, top in widgets if top]
    where = "board/widget.py or board/boxes.py"
    assert not at_top, f"{path.relative_to(PACKAGE)} imports {at_top} at module level: widgets belong in {where}"
    if path.name not in LAZY_SEAMS:
        assert not widgets, f"{path.relative_to(PACKAGE)} imports {[n for n, _ in widgets]}: ask progress.py or {where}"


def test_computations_load_no_widget_library():
    pytest.importorskip("numpy")  # the study needs the notebook extra
    code = (
        "import sys, solitaire_nb, solitaire_nb.study, solitaire_nb.atlas.winrate, solitaire_nb.lessons.exercises; "
        "solitaire_nb.study.simulate(10); "
        "print([m for m in ('ipywidgets', 'anywidget', 'solitaire_nb.board') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
