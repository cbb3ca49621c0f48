"""Build the student app of solitaire_nb: a static folder (default student/_output) where every
student's Python runs in their own browser (Pyodide), so that a class of any size needs no Python
server.  Copy the folder to any static host, or serve it with
``python -m http.server -d student/_output``; students open ``alumnos.html``.

Usage: ``python student/build.py [--output DIR] [--notebooks DIR_OR_FILE ...]``

It is the JupyterLite site of lite/build.py (same pins, same cache lite/.cache, nothing fetched
from outside the site at run time) built from student versions of the lessons:

* only the lessons that run offline (a notebook importing NumPy or matplotlib is left out: Pyodide
  only distributes those from its CDN);
* without the cells tagged ``docente``, without saved outputs, and a first line telling the
  student to run the page; the Notebook view shows no code (`HIDE_CODE`);
* only ``.ipynb`` files: never the teacher's guide, MyST sources or build scripts (checked after
  the build, `teacher_material`);
* a start page, ``alumnos.html``, linking each lesson in JupyterLite's Notebook view.

Why the current Lite site and not Voici: docs/jupyterlite.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
import tempfile
import time
from html import escape
from pathlib import Path

STUDENT = Path(__file__).resolve().parent
ROOT = STUDENT.parent
DEFAULT_OUTPUT = STUDENT / "_output"
DEFAULT_NOTEBOOKS = ROOT / "notebooks"
#: the tag of cells meant for the teacher only (answers, notes): never in a student page.
TEACHER_TAG = "docente"
#: packages that Pyodide only serves from its CDN: a notebook importing one would go online.
ONLINE_ONLY = re.compile(r"^\s*(?:import|from)\s+(numpy|matplotlib|pandas|scipy)\b", re.M)
START = (
    "**Para empezar:** menú **Ejecutar → Ejecutar todas las celdas** (o el botón ⏩). "
    "La primera vez tarda un poco: Python se carga en tu navegador."
)


def _load_lite():
    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lite = _load_lite()


def needs_network(nb: dict) -> bool:
    """True when a code cell imports a package only Pyodide's CDN distributes."""
    return any(
        cell.get("cell_type") == "code" and ONLINE_ONLY.search(lite._joined(cell.get("source", "")))
        for cell in nb.get("cells", [])
    )


def student_notebook(nb: dict) -> dict:
    """The notebook a student gets: cells tagged ``docente`` removed, outputs cleared (the page
    runs every cell itself) and the code hidden even if the notebook is opened elsewhere."""
    cells = []
    for cell in nb.get("cells", []):
        if TEACHER_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        cell = {**cell, "source": lite._joined(cell.get("source", ""))}
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
            cell["metadata"] = {**cell.get("metadata", {}), "jupyter": {"source_hidden": True}}
        cells.append(cell)
    intro = {"cell_type": "markdown", "id": "snb-empezar", "metadata": {}, "source": START}
    return {**nb, "cells": [intro, *cells]}


def select_notebooks(sources: list[Path], files: Path) -> tuple[list[str], list[str]]:
    """Write the student versions of the offline lesson notebooks into files/; return the
    names written and the names left out (they need the network)."""
    files.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for src in sources:
        paths += sorted(src.glob("*.ipynb")) if src.is_dir() else [src]
    written, left_out = [], []
    for path in paths:
        if path.name.startswith(("_", ".")):
            continue
        nb = json.loads(path.read_text(encoding="utf-8"))
        if needs_network(nb):
            left_out.append(path.name)
            continue
        out = files / path.name
        out.write_text(json.dumps(student_notebook(nb), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path.name)
    return written, left_out


#: a student page shows no code: every code cell's input is hidden (its outputs stay).
HIDE_CODE = '<style id="snb-alumno">.jp-CodeCell .jp-Cell-inputWrapper { display: none; }</style>'


def hide_code(site: Path) -> None:
    """Add `HIDE_CODE` to the Notebook view's page (the app students open)."""
    page = site / "notebooks" / "index.html"
    text = page.read_text(encoding="utf-8")
    if HIDE_CODE not in text:
        page.write_text(text.replace("</head>", HIDE_CODE + "</head>", 1), encoding="utf-8")


def start_page(site: Path, names: list[str]) -> Path:
    """alumnos.html: one link per lesson, opening it in JupyterLite's Notebook view."""
    links = "\n".join(
        f'<li><a href="notebooks/index.html?path={escape(n)}">{escape(n.removesuffix(".ipynb").replace("_", " "))}</a></li>'
        for n in names
    )
    page = site / "alumnos.html"
    page.write_text(
        f"""<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Solitarios: cuadernos</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto">
<h1>Solitarios para aprender</h1>
<p>Elige un cuaderno. Se abre en tu navegador, que ejecuta Python por sí mismo: no hace falta
instalar nada ni conexión a internet.</p>
<ul>
{links}
</ul>
</body></html>
""",
        encoding="utf-8",
    )
    return page


def build(output: Path = DEFAULT_OUTPUT, notebooks: list[Path] | None = None) -> Path:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="snb-student-") as tmp:
        written, left_out = select_notebooks(notebooks or [DEFAULT_NOTEBOOKS], Path(tmp))
        print(f"[student] {len(written)} student pages; left out (need the network): {', '.join(left_out) or 'none'}")
        output = lite.build(output, [Path(tmp)])
    hide_code(output)
    start_page(output, written)
    check_student_site(output)
    print(f"[student] built {output} in {time.perf_counter() - start:.1f} s")
    return output


def teacher_material(site: Path) -> list[str]:
    """Files of the site a student must never get: the guide, Markdown/MyST sources, build
    scripts, and any notebook still holding a cell tagged ``docente``."""
    found = []
    for path in site.rglob("*"):
        if not path.is_file():
            continue
        rel = path.relative_to(site).as_posix()
        if re.search(r"guia_docente|_construir|nbval", path.name) or (
            path.suffix == ".md" and rel.startswith("files/")
        ):
            found.append(rel)
        elif path.suffix == ".ipynb":
            nb = json.loads(path.read_text(encoding="utf-8"))
            if any(TEACHER_TAG in c.get("metadata", {}).get("tags", []) for c in nb.get("cells", [])):
                found.append(rel)
    return found


def check_student_site(site: Path) -> None:
    problems = teacher_material(site)
    if problems:
        raise SystemExit(f"teacher material in the student site: {problems}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="site folder (replaced)")
    parser.add_argument("--notebooks", type=Path, nargs="*", default=None, help="notebook folders or files")
    args = parser.parse_args(argv)
    build(args.output, args.notebooks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
