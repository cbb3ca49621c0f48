"""The package's layout: each folder is a room with one job, imports run one way between rooms,
only the board touches widgets, and the wheel carries every module (docs/desarrollo.md)."""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "solitaire_nb"

# Lowest first: a room may import the rooms before it, never one after it (not even inside a
# function). `classroom` and `board` stand side by side: neither imports the other.
ORDER = ["core", "games", "render", "engine", "players", "solver", "study", "atlas", "lessons", "classroom", "board"]
WIDGET_LIBRARIES = ("ipywidgets", "anywidget", "tqdm.notebook", "tqdm.auto")
LARGEST = 400  # lines per module


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _room(module: str) -> str | None:
    """The room of `solitaire_nb.x.y` (its folder), None for the package's face."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "solitaire_nb" else None


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of imports that run only for a type checker (``if TYPE_CHECKING:``)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        lines.add(sub.lineno)
    return lines


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in `path` that runs, at the top or in a function."""
    module = _name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # `from . import x` names modules: each is an import of its own
            found += [(node.lineno, f"{target}.{a.name}") for a in node.names if _is_module(f"{target}.{a.name}")]
    return found


def _is_module(name: str) -> bool:
    parts = name.split(".")
    if parts[0] != "solitaire_nb":
        return False
    path = REPO.joinpath(*parts)
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_every_module_lives_in_a_room():
    loose = [p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"módulos fuera de una carpeta: {loose}"
    rooms = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert rooms == sorted(ORDER)


def test_imports_run_one_way_between_rooms():
    wrong = []
    for path in _modules():
        here = _room(_name(path))
        if here is None:
            continue  # the package's face offers every room
        for line, target in imports(path):
            there = _room(target)
            if there is None or there == here:
                continue  # a library, the face (`from .. import __version__`) or the same room
            if ORDER.index(there) > ORDER.index(here) or {here, there} == {"classroom", "board"}:
                wrong.append(f"{path.relative_to(REPO)}:{line}: {here} → {there} ({target})")
    assert not wrong, "\n".join(wrong)


def test_only_the_board_touches_widgets():
    wrong = []
    for path in _modules():
        if _room(_name(path)) == "board":
            continue
        for line, target in imports(path):
            widget = any(target == w or target.startswith(w + ".") for w in WIDGET_LIBRARIES)
            if widget or _room(target) == "board":
                wrong.append(f"{path.relative_to(REPO)}:{line}: {target}")
    assert not wrong, "\n".join(wrong)


def test_the_scan_sees_nested_and_relative_imports():
    board = imports(PACKAGE / "board" / "widget.py")
    assert any(target == "anywidget" for _, target in board)
    assert any(target == "solitaire_nb.board.clicks" for _, target in board)  # `from .clicks import …`
    render = imports(PACKAGE / "render" / "draw.py")
    assert any(target == "solitaire_nb.core.checks" for _, target in render)  # inside a function
    assert not any(_room(target) == "engine" for _, target in render)  # TYPE_CHECKING only


LIGHT = {
    # what a computation loads: no widget
    "computations": (
        "import solitaire_nb, solitaire_nb.study, solitaire_nb.atlas.winrate, solitaire_nb.lessons.exercises\n"
        "solitaire_nb.study.simulate(10)",
        ("ipywidgets", "anywidget", "solitaire_nb.board"),
    ),
    # `import solitaire_nb` loads the rules alone: the rest comes when first used
    "face": (
        "import solitaire_nb",
        ("numpy", "matplotlib", "ipywidgets", "anywidget", "solitaire_nb.board", "solitaire_nb.solver",
         "solitaire_nb.study", "solitaire_nb.atlas"),
    ),
    # JupyterLite's offline lessons have no NumPy: the board and the exercises load without it
    "lessons": (
        "import solitaire_nb.board, solitaire_nb.lessons.exercises, solitaire_nb.study.tally",
        ("numpy", "matplotlib"),
    ),
}


@pytest.mark.parametrize("case", sorted(LIGHT))
def test_imports_stay_light(case):
    code, unwanted = LIGHT[case]
    if case == "computations":
        pytest.importorskip("numpy")  # the study needs the notebook extra
    check = f"import sys\n{code}\nprint(sorted(m for m in sys.modules if m.startswith({unwanted!r})))"
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def _all_imports(path: Path) -> set[str]:
    """The package's modules `path` imports, type-only and in-function imports included."""
    module = _name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            found.add(target)
            found |= {f"{target}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {m for m in found if _is_module(m) and m != module}


# a circle older than this test, left for its own change
KNOWN_CIRCLES = [{"solitaire_nb.study.deal", "solitaire_nb.study.family"}]


def test_modules_of_a_room_import_one_way():
    """No circle among a room's modules, not even through ``TYPE_CHECKING`` or a function-level
    import (a circle hides which module is the lower one)."""
    rooms: dict[str, dict[str, set[str]]] = {}
    for path in _modules():
        name, room = _name(path), _room(_name(path))
        if room is not None and path.name != "__init__.py":
            rooms.setdefault(room, {})[name] = _all_imports(path)
    circles = []
    for graph in rooms.values():
        for start in graph:
            if start in _reach(graph, start):
                members = {m for m in _reach(graph, start) if start in _reach(graph, m)} | {start}
                if members not in circles and members not in KNOWN_CIRCLES:
                    circles.append(members)
    assert not circles, [sorted(c) for c in circles]


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules of `graph` that `start` imports, directly or not."""
    seen, todo = set(), list(graph[start])
    while todo:
        m = todo.pop()
        if m in graph and m not in seen:
            seen.add(m)
            todo += graph[m]
    return seen


def test_modules_stay_small():
    big = {str(p.relative_to(REPO)): n for p in _modules() if (n := len(p.read_text(encoding="utf-8").splitlines())) > LARGEST}
    assert not big, big


@pytest.mark.slow
@pytest.mark.xdist_group("wheel")
def test_the_wheel_carries_every_module(tmp_path):
    """Build the wheel the way the static sites do (from a copy of the sources), install nothing,
    and import every module from the unpacked wheel alone."""
    if importlib.util.find_spec("setuptools") is None:
        pytest.fail("setuptools no está instalado: viene con el extra «test» (pyproject.toml)")
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        (src / name).write_bytes((REPO / name).read_bytes())
    shutil.copytree(PACKAGE, src / "solitaire_nb", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "-w", str(dist), str(src)],
        check=True, capture_output=True, text=True,
    )
    wheel = next(dist.glob("solitaire_nb-*.whl"))
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
        names = set(archive.namelist())
    expected = {str(p.relative_to(REPO)) for p in _modules()}
    assert expected <= names, sorted(expected - names)
    for data in ("solitaire_nb/py.typed", "solitaire_nb/board/board.js", "solitaire_nb/board/board.css",
                 "solitaire_nb/data/atlas.json", "solitaire_nb/templates/reto_docente.html"):
        assert data in names, data
    modules = sorted(_name(p) for p in _modules() if p.name != "__main__.py")
    code = (
        "import importlib, solitaire_nb\n"
        f"assert solitaire_nb.__file__.startswith({str(site)!r}), solitaire_nb.__file__\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m)\n"
        "print('ok', len(" + repr(modules) + "))"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.startswith("ok")
