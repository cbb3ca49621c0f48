"""Fast checks of lite/build.py's own logic and lite/pyodide_runtime.py's (no download, no
browser): the pins it reads, the metadata it adds to the package wheel, the lock packages it
serves, the notebooks it copies."""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import json
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _load(name: str, file: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "lite" / file)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


build = _load("lite_build", "build.py")
runtime = _load("lite_pyodide_runtime", "pyodide_runtime.py")


def test_requirements_pin_the_kernel_and_pyodide() -> None:
    tools, browser, pyodide = build.read_requirements()
    assert any(r.startswith("jupyterlite-core==") for r in tools)
    assert any(r.startswith("jupyterlite-pyodide-kernel==") for r in tools)
    assert {build.normalize(r.split("==")[0]) for r in browser} >= {"comm", "ipywidgets", "anywidget"}
    assert all("==" in r for r in browser)
    assert pyodide.count(".") == 2


def test_kernel_and_tools_versions_agree() -> None:
    """jupyterlite-core and the kernel move together (0.8.x with 0.8.x)."""
    tools, _, _ = build.read_requirements()
    pins = dict(r.split("==") for r in tools if "==" in r)
    core, kernel = pins["jupyterlite-core"], pins["jupyterlite-pyodide-kernel"]
    assert core.split(".")[:2] == kernel.split(".")[:2]


def _wheel(tmp_path: Path, requires: list[str]) -> Path:
    meta = "Metadata-Version: 2.4\nName: demo\nVersion: 1.0\n" + "".join(f"Requires-Dist: {r}\n" for r in requires)
    meta += "\nLong description.\n"
    files = {"demo/__init__.py": b"X = 1\n", "demo-1.0.dist-info/METADATA": meta.encode()}
    record = (
        "".join(f"{n},{build.record_hash(d)},{len(d)}\n" for n, d in files.items()) + "demo-1.0.dist-info/RECORD,,\n"
    )
    path = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
        z.writestr("demo-1.0.dist-info/RECORD", record)
    return path


def _requires(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        meta = z.read("demo-1.0.dist-info/METADATA").decode()
    return [line.split(": ", 1)[1] for line in meta.splitlines() if line.startswith("Requires-Dist: ")]


def _record_is_valid(wheel: Path) -> bool:
    with zipfile.ZipFile(wheel) as z:
        record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
        for row in csv.reader(io.StringIO(z.read(record).decode())):
            if row and row[1]:
                data = z.read(row[0])
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                if row[1] != f"sha256={digest}" or int(row[2]) != len(data):
                    return False
    return True


def test_board_dependencies_are_added_to_the_wheel(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, ['anywidget>=0.9; extra == "notebook"'])
    build.add_requirements(wheel, ("anywidget>=0.9", "ipywidgets>=8.0"))
    assert _requires(wheel) == ['anywidget>=0.9; extra == "notebook"', "anywidget>=0.9", "ipywidgets>=8.0"]
    assert _record_is_valid(wheel)


def test_unconditional_dependencies_are_not_repeated(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, ["anywidget>=0.10"])
    build.add_requirements(wheel, ("anywidget>=0.9", "ipywidgets>=8.0"))
    assert _requires(wheel) == ["anywidget>=0.10", "ipywidgets>=8.0"]
    assert _record_is_valid(wheel)


def test_lock_closure_follows_dependencies() -> None:
    packages = {
        "ipython": {"depends": ["traitlets", "Pygments"]},
        "traitlets": {"depends": []},
        "pygments": {"depends": []},
        "numpy": {"depends": []},
    }
    assert runtime.lock_closure(packages, ("ipython",)) == ["ipython", "pygments", "traitlets"]


def test_lock_asks_nothing_of_the_cdn_for_the_kernel(tmp_path: Path) -> None:
    """matplotlib-inline no longer pulls matplotlib into the kernel's packages, and sqlite3 (built by
    Pyodide only) is served as a valid empty wheel."""
    lock = {
        "packages": {
            "ipython": {"depends": ["matplotlib-inline", "sqlite3"]},
            "matplotlib-inline": {"depends": ["traitlets", "matplotlib"]},
            "traitlets": {"depends": []},
            "sqlite3": {"depends": []},
            "matplotlib": {"depends": ["numpy"]},
            "numpy": {"depends": []},
        }
    }
    (tmp_path / "pyodide-lock.json").write_text(json.dumps(lock))
    packages = runtime.read_lock(tmp_path)["packages"]
    assert runtime.lock_closure(packages, ("ipython",)) == ["ipython", "matplotlib-inline", "sqlite3", "traitlets"]
    wheel = runtime.empty_wheel("sqlite3", "1.0.0", tmp_path / "w")
    assert wheel.name == "sqlite3-1.0.0-py3-none-any.whl" and _record_is_valid(wheel)
    with zipfile.ZipFile(wheel) as z:
        assert all(".dist-info/" in n for n in z.namelist())


def test_student_tools_come_from_the_same_pins() -> None:
    tools = build.student_tools()
    assert any(t.startswith("voici-core==") for t in tools)
    assert not set(tools) & set(build.read_requirements()[0])


def test_notebook_multiline_strings_are_joined(tmp_path: Path) -> None:
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "source": ["a = 1\n", "a"],
                "outputs": [
                    {"output_type": "stream", "name": "stdout", "text": ["uno\n", "dos\n"]},
                    {"output_type": "display_data", "data": {"text/plain": ["x", "y"], "application/json": {"k": 1}}},
                ],
            }
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(nb))
    build.flatten_notebook(path)
    cell = json.loads(path.read_text())["cells"][0]
    assert cell["source"] == "a = 1\na"
    assert cell["outputs"][0]["text"] == "uno\ndos\n"
    assert cell["outputs"][1]["data"] == {"text/plain": "xy", "application/json": {"k": 1}}


def test_notebook_sources_and_private_files_stay_out_of_the_site(tmp_path: Path) -> None:
    src = tmp_path / "nb"
    src.mkdir()
    (src / "01_a.ipynb").write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    (src / "01_a.md").write_text("---\njupytext:\n  formats: ipynb,md:myst\n---\n")
    (src / "_privado.py").write_text("")
    (src / "nbval_sanitize.cfg").write_text("")
    (src / "guia.md").write_text("")
    (src / "guia_docente.md").write_text("respuestas")
    (src / "voila.json").write_text("{}")
    assert build.copy_notebooks([src], tmp_path / "files") == 1
    assert sorted(p.name for p in (tmp_path / "files").iterdir()) == ["01_a.ipynb", "guia.md"]


def test_teacher_cells_stay_out_of_the_site(tmp_path: Path) -> None:
    src = tmp_path / "nb"
    src.mkdir()
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "Pregunta"},
        {"cell_type": "markdown", "metadata": {"tags": ["docente"]}, "source": "Respuesta: 8S"},
    ]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (src / "01_a.ipynb").write_text(json.dumps(nb))
    build.copy_notebooks([src], tmp_path / "files")
    copied = json.loads((tmp_path / "files" / "01_a.ipynb").read_text())
    assert [c["source"] for c in copied["cells"]] == ["Pregunta"]


@pytest.mark.parametrize("setting", ["pyodideUrl", "disablePyPIFallback"])
def test_site_check_refuses_an_online_site(tmp_path: Path, setting: str) -> None:
    settings = {"pyodideUrl": "./static/pyodide/pyodide.mjs", "disablePyPIFallback": True}
    settings[setting] = "https://cdn.example/pyodide.mjs" if setting == "pyodideUrl" else False
    config = {"jupyter-config-data": {"litePluginSettings": {build.KERNEL_PLUGIN: settings}}}
    (tmp_path / "jupyter-lite.json").write_text(json.dumps(config))
    (tmp_path / "pypi").mkdir()
    (tmp_path / "pypi" / "solitaire_nb-0.1.0-py3-none-any.whl").write_bytes(b"")
    with pytest.raises(SystemExit, match=setting):
        build.check_site(tmp_path)


def test_a_notebook_importing_numpy_or_matplotlib_needs_the_network() -> None:
    def nb(*sources: str) -> dict:
        return {"cells": [{"cell_type": "code", "source": s} for s in sources]}

    assert build.needs_network(nb("import solitaire_nb", "from numpy import mean"))
    assert build.needs_network(nb(["x = 1\n", "import matplotlib.pyplot as plt\n"]))
    assert not build.needs_network(nb("import solitaire_nb as sn", "# import numpy, in a comment"))
    assert not build.needs_network({"cells": [{"cell_type": "markdown", "source": "import numpy"}]})


def test_no_lesson_needs_the_network() -> None:
    """Both static sites run every lesson offline: no lesson's code imports what only Pyodide's
    CDN serves (the package itself falls back to its pure-Python paths without them)."""
    lessons = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert len(lessons) >= 9
    assert [p.name for p in lessons if build.needs_network(json.loads(p.read_text(encoding="utf-8")))] == []


def test_every_site_page_hides_a_collapsed_cells_code(tmp_path: Path) -> None:
    """JupyterLite has no custom.css: the rule the README install serves to JupyterLab (a collapsed
    code cell shows «•••», not its first line of Python) goes into each app's page, once."""
    for app in ("lab", "notebooks"):
        (tmp_path / app).mkdir()
        (tmp_path / app / "index.html").write_text("<html><head><title>x</title></head><body></body></html>")
    build.hide_code_previews(tmp_path)
    build.hide_code_previews(tmp_path)  # a second build step adds nothing
    rule = (REPO / "binder" / "hide_code_preview.css").read_text(encoding="utf-8")
    for app in ("lab", "notebooks"):
        html = (tmp_path / app / "index.html").read_text()
        assert html.count(rule) == 1 and html.index(rule) < html.index("</head>")
        assert ".jp-InputPlaceholder .jp-PlaceholderText" in rule
