"""Build the student app of solitaire_nb: a static folder (default student/_output) where every
student's Python runs in their own browser (Pyodide), so that a class of any size needs no Python
server.  Copy the folder to any static host (its root or a folder of it), or serve it with
``python -m http.server -d student/_output``; students open ``alumnos.html``.

Usage: ``python student/build.py [--output DIR] [--notebooks DIR_OR_FILE ...]``

It is a Voici site (Voila's static counterpart): each lesson is a page that runs by itself, code
hidden, as in the Voila app.  Its build tools live in their own virtual environment,
student/.cache/venv, which this script creates with ``python -m venv`` (no system packages) and
the pins of lite/requirements.txt (the same set as the JupyterLite site's, plus the ``# student:``
lines); downloads go through the ordinary registries (PyPI, npm)
and are cached in lite/.cache, shared with the Lite site (lite/build.py, whose helpers this
reuses).  Nothing is fetched from outside the site at run time.

What goes in, and what each page does:

* only the lessons that run offline (a notebook importing NumPy or matplotlib is left out: Pyodide
  only distributes those from its CDN), without the cells tagged ``docente``;
* only ``.ipynb`` files: never the teacher's guide, MyST sources or build scripts (checked after
  the build, `teacher_material`);
* each lesson page shows at once a snapshot of the executed lesson (its text and the static
  pictures of its boards) under a «Cargando Python…» line, until the live page replaces it
  (`snapshot.py`);
* links between lessons point at the lesson pages when the lesson is in the site, and become plain
  text otherwise; a start page, ``alumnos.html``, lists the lessons by title in the teaching order.

Why these versions: docs/jupyterlite.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STUDENT = Path(__file__).resolve().parent
ROOT = STUDENT.parent
CACHE = STUDENT / ".cache"
VENV = CACHE / "venv"
DEFAULT_OUTPUT = STUDENT / "_output"
DEFAULT_NOTEBOOKS = ROOT / "notebooks"
#: the tag of cells meant for the teacher only (answers, notes): never in a student page.
TEACHER_TAG = "docente"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lite = _load("lite_build", ROOT / "lite" / "build.py")
snapshot = _load("student_snapshot", STUDENT / "snapshot.py")


def student_notebook(nb: dict) -> dict:
    """The notebook a student gets: cells tagged ``docente`` removed, multiline strings joined,
    and the code hidden even if the notebook is opened elsewhere.  Outputs stay: they are the
    page's snapshot (Voici clears them before it runs the notebook)."""
    cells = []
    for cell in nb.get("cells", []):
        if TEACHER_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        cell = {**cell, "source": lite._joined(cell.get("source", ""))}
        if cell.get("cell_type") == "code":
            cell["metadata"] = {**cell.get("metadata", {}), "jupyter": {"source_hidden": True}}
        cells.append(cell)
    return {**nb, "cells": cells}


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
        if lite.needs_network(nb):
            left_out.append(path.name)
            continue
        out = files / path.name
        out.write_text(json.dumps(student_notebook(nb), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path.name)
    return written, left_out


def stage_runtime(version: str, stage: Path, browser_reqs: list[str]) -> None:
    """Pyodide (static/pyodide) with the kernel's lock packages beside it, and the browser wheels
    (pypi/), exactly as the JupyterLite site gets them (`lite.fetch_runtime`)."""
    npm_dir, browser_wheels, local = lite.fetch_runtime(version, browser_reqs)
    lite.make_pyodide(version, npm_dir, stage / "static" / "pyodide", local)
    for w in browser_wheels:
        shutil.copy2(w, stage / "pypi" / w.name)
    lite.log(f"pyodide {version} with {len(local)} lock packages served locally")


def stage_site(stage: Path, notebooks: list[Path], browser_reqs: list[str], version: str) -> tuple[list[str], list[str]]:
    """Lay out Voici's lite dir: configuration, runtime, wheels and the student notebooks."""
    (stage / "jupyter-lite.json").write_text(
        json.dumps(
            {
                "jupyter-lite-schema-version": 0,
                "jupyter-config-data": {
                    "appName": "Solitarios",
                    "litePluginSettings": {lite.KERNEL_PLUGIN: {"disablePyPIFallback": True}},
                },
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    stage_runtime(version, stage, browser_reqs)
    browser_wheels = sorted((stage / "pypi").glob("*.whl"))
    lite.write_build_config([w for w in browser_wheels if not w.name.startswith("solitaire_nb")], stage / "cfg.json")
    config = json.loads((stage / "cfg.json").read_text(encoding="utf-8"))
    (stage / "cfg.json").unlink()
    config["LiteBuildConfig"].pop("apps", None)  # Voici builds only its own app
    config["VoilaConfiguration"] = {"strip_sources": True, "show_tracebacks": False}
    (stage / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    written, left_out = select_notebooks(notebooks, stage / "files")
    return written, left_out


def build(output: Path = DEFAULT_OUTPUT, notebooks: list[Path] | None = None) -> Path:
    """Build the whole site into output (replaced) and return it."""
    start = time.perf_counter()
    build_reqs, browser_reqs, version = lite.read_requirements()
    build_reqs += lite.student_tools()
    output = output.resolve()
    CACHE.mkdir(parents=True, exist_ok=True)
    with lite.timed("build tools (student/.cache/venv)"):
        lite.ensure_venv(build_reqs, VENV, system_site_packages=False)
        lite.check_kernel_pyodide(version, VENV)
    # jupyterlite-core silently skips every staged file whose path starts with the output's path
    # (jupyter-lite.json and its disablePyPIFallback would vanish): stage elsewhere then.
    parent = CACHE if not str(CACHE).startswith(str(output)) else None
    with tempfile.TemporaryDirectory(dir=parent, prefix="stage-") as tmp:
        stage = Path(tmp)
        with lite.timed("package wheel"):
            lite.build_wheel(stage / "pypi", VENV)
        written, left_out = stage_site(stage, notebooks or [DEFAULT_NOTEBOOKS], browser_reqs, version)
        lite.log(f"{len(written)} lessons; left out (need the network): {', '.join(left_out) or 'none'}")
        shutil.rmtree(output, ignore_errors=True)
        with lite.timed("voici build"):
            lite.run(
                [lite.venv_bin("voici", VENV), "build", "--lite-dir", stage, "--output-dir", output],
                cwd=stage,
                env={**os.environ, "PATH": f"{lite.venv_bin('python', VENV).parent}{os.pathsep}{os.environ.get('PATH', '')}"},
            )
        # nbconvert (Markdown outputs in the snapshots) is in the build environment.
        proc = subprocess.run(
            [lite.venv_bin("python", VENV), STUDENT / "snapshot.py", output, stage / "files", *written],
            capture_output=True,
            text=True,
        )
        if proc.returncode:
            sys.stderr.write(proc.stdout + proc.stderr)
            raise SystemExit("student/snapshot.py failed")
        titles = json.loads(proc.stdout.strip().splitlines()[-1])
    lite.check_site(output)
    check_student_site(output)
    lite.log(f"student app: {', '.join(titles)}")
    lite.log(f"built {output} in {time.perf_counter() - start:.1f} s, {lite.folder_size(output) / 2**20:.1f} MiB")
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
    problems += [f"{p}: links outside the site" for p in snapshot.external_links(site)]
    if problems:
        raise SystemExit(f"student site check failed: {problems}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="site folder (replaced)")
    parser.add_argument("--notebooks", type=Path, nargs="*", default=None, help="notebook folders or files")
    args = parser.parse_args(argv)
    build(args.output, args.notebooks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
