"""Build the student app of solitaire_nb: a static folder (default student/_output) where each
lesson notebook opens as a page with its code hidden and runs by itself in the student's own
browser (Voici: Voila's pages on JupyterLite's Pyodide kernel), so that a class of any size needs
no Python server.  Copy the folder to any static host, or serve it with
``python -m http.server -d student/_output``.

Usage: ``python student/build.py [--output DIR] [--notebooks DIR_OR_FILE ...] [--clean-cache]``

What goes in: the lesson notebooks that run offline (a notebook importing NumPy or matplotlib is
left out: Pyodide only distributes those from its CDN), each without its cells tagged ``docente``;
never the teacher's guide, MyST sources, build scripts or anything but ``.ipynb`` files.  The
package wheel, the browser wheels, the Pyodide runtime and the packages its kernel loads at start
are all in the folder (the same steps as lite/build.py, whose functions this reuses with this
site's own pins, student/requirements.txt, and cache, student/.cache): nothing is fetched from
outside the site at run time.

Why a second site: voici-core 0.10 requires jupyterlite-core < 0.8 and lite/ uses 0.8.6.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

STUDENT = Path(__file__).resolve().parent
ROOT = STUDENT.parent
DEFAULT_OUTPUT = STUDENT / "_output"
DEFAULT_NOTEBOOKS = ROOT / "notebooks"
REQUIREMENTS = STUDENT / "requirements.txt"
#: the tag of cells meant for the teacher only (answers, notes): never in a student page.
TEACHER_TAG = "docente"
#: packages that Pyodide only serves from its CDN: a notebook importing one would go online.
ONLINE_ONLY = re.compile(r"^\s*(?:import|from)\s+(numpy|matplotlib|pandas|scipy)\b", re.M)
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: runtime files of npm pyodide 0.29 (its asm is .js where 314's is .mjs).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json")  # fmt: skip


def _load_lite():
    """lite/build.py as a module, pointed at this site's cache (its functions read the globals)."""
    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.CACHE = STUDENT / ".cache"
    module.VENV = module.CACHE / "venv"
    module.PYODIDE_FILES = PYODIDE_FILES
    module.log = lambda message: print(f"[student] {message}", flush=True)
    return module


lite = _load_lite()


def fetch_runtime(version: str, browser_reqs: list[str]) -> tuple[Path, list[Path], list[str]]:
    """lite's downloads, without the compiled standard-library modules of the kernel's closure
    (Pyodide 0.29 lists sqlite3 under IPython; it is not on PyPI, only on the CDN, and IPython
    runs without it: no saved history)."""
    npm_dir = lite.fetch_pyodide(version)
    packages = json.loads((npm_dir / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
    local = [n for n in lite.lock_closure(packages, lite.KERNEL_LOCK_PACKAGES) if not _compiled(packages[n])]
    lite.fetch_lock_wheels(version, packages, local)
    return npm_dir, lite.fetch_browser_wheels(browser_reqs), local


def _compiled(entry: dict) -> bool:
    return entry.get("package_type") == "cpython_module"


#: the compiled standard-library modules the kernel asks for at start (keep going if they fail).
KERNEL_STDLIB = ("ssl", "sqlite3")


def stub_wheel(entry: dict, dest: Path) -> Path:
    """A wheel whose modules raise ModuleNotFoundError: the same as the module being absent, which is
    what Python code that can live without it (``try: import ssl``) expects."""
    import zipfile

    name, version = entry["name"], entry["version"]
    dist = f"{name}-{version}.dist-info"
    files = {
        f"{module}.py": f'raise ModuleNotFoundError("{module} no está en esta web (no hace falta para los cuadernos)")\n'
        for module in entry["imports"]
    }
    files[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    files[f"{dist}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: student/build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{dist}/RECORD"] = "".join(f"{f},,\n" for f in files) + f"{dist}/RECORD,,\n"
    path = dest / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for member, text in files.items():
            z.writestr(member, text)
    return path


def stub_kernel_stdlib(pyodide_dir: Path) -> list[str]:
    """Serve stubs for the compiled modules the kernel asks for at start (ssl, sqlite3): only
    Pyodide's CDN has the real ones, and listed as they are the kernel would fetch them from it.
    The notebooks need neither (no HTTPS from Python, no saved history).  Return their names."""
    lock_path = pyodide_dir / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    for name in KERNEL_STDLIB:
        entry = lock["packages"][name]
        wheel = stub_wheel(entry, pyodide_dir)
        entry.update(file_name=wheel.name, sha256=lite.sha256_file(wheel), depends=[], package_type="package")
    lock_path.write_text(json.dumps(lock, indent=1), encoding="utf-8")
    return list(KERNEL_STDLIB)


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
        if needs_network(nb):
            left_out.append(path.name)
            continue
        out = files / path.name
        out.write_text(json.dumps(student_notebook(nb), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path.name)
    return written, left_out


def write_config(stage: Path, browser_wheels: list[Path]) -> None:
    """jupyter-lite.json (kernel from this site only) and the build config (widget extensions)."""
    lite_json = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Solitarios: páginas de alumno",
            "litePluginSettings": {KERNEL_PLUGIN: {"disablePyPIFallback": True}},
        },
    }
    (stage / "jupyter-lite.json").write_text(json.dumps(lite_json, indent=2, ensure_ascii=False), encoding="utf-8")
    shutil.copy2(ROOT / "lite" / "overrides.json", stage / "overrides.json")
    lite.write_build_config(browser_wheels, stage / "jupyter_lite_config.json")
    config = json.loads((stage / "jupyter_lite_config.json").read_text(encoding="utf-8"))
    config["LiteBuildConfig"]["apps"] = ["voici"]  # only the student pages: no JupyterLab
    (stage / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")


def voici_env() -> dict[str, str]:
    """The build's environment: the venv first on PATH, and Voila's templates found where this
    interpreter has them (the venv sees the package voila but not its data files) behind the
    package's own "alumno" template (Voila's, without links to public CDNs)."""
    from jupyter_core.paths import jupyter_path

    paths = [str(ROOT / "solitaire_nb" / "templates"), *jupyter_path()]
    return {
        **os.environ,
        "PATH": f"{lite.venv_bin('python').parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "JUPYTER_PATH": os.pathsep.join(paths),
    }


CONFIG_SCRIPT = re.compile(r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', re.S)


def fix_page_urls(site: Path) -> int:
    """Point each page's kernel at the site's root.  The site's configuration gives Pyodide and
    the wheel indexes as ``./static/…`` and ``./pypi/…``, which the kernel resolves against the
    page's own address, and Voici's pages live two folders down (voici/render/NAME.html);
    return how many pages were fixed."""
    fixed = 0
    for page in (site / "voici").rglob("*.html"):
        up = "../" * (len(page.relative_to(site).parts) - 1)
        text = page.read_text(encoding="utf-8")
        match = CONFIG_SCRIPT.search(text)
        if not match:
            continue
        config = json.loads(match.group(2))
        kernel = config.get("litePluginSettings", {}).get(KERNEL_PLUGIN)
        if not kernel:
            continue

        def rebase(url: str, up: str = up) -> str:
            return up + url[2:] if url.startswith("./") else url

        if "pyodideUrl" in kernel:
            kernel["pyodideUrl"] = rebase(kernel["pyodideUrl"])
        kernel["pipliteUrls"] = [rebase(u) for u in kernel.get("pipliteUrls", [])]
        new = text[: match.start(2)] + json.dumps(config) + text[match.end(2) :]
        page.write_text(new, encoding="utf-8")
        fixed += 1
    return fixed


def build(output: Path = DEFAULT_OUTPUT, notebooks: list[Path] | None = None) -> Path:
    start = time.perf_counter()
    build_reqs, browser_reqs, version = lite.read_requirements(REQUIREMENTS)
    lite.CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=lite.CACHE, prefix="stage-") as tmp:
        stage = Path(tmp)
        with lite.timed("build tools (student/.cache/venv)"):
            lite.ensure_venv(build_reqs)
            lite.check_kernel_pyodide(version)
        with lite.timed("package wheel"):
            wheel = lite.build_wheel(stage / "pypi")
        with lite.timed("downloads"):
            npm_dir, browser_wheels, local = fetch_runtime(version, browser_reqs)
        lite.log(f"package wheel: {wheel.name}")
        for w in browser_wheels:
            shutil.copy2(w, stage / "pypi" / w.name)
        write_config(stage, browser_wheels)
        lite.make_pyodide(version, npm_dir, stage / "static" / "pyodide", local)
        stubs = stub_kernel_stdlib(stage / "static" / "pyodide")
        lite.log(f"stubs for {', '.join(stubs)} (only on Pyodide's CDN, not needed)")
        written, left_out = select_notebooks(notebooks or [DEFAULT_NOTEBOOKS], stage / "files")
        lite.log(f"{len(written)} student pages; left out (need the network): {', '.join(left_out) or 'none'}")
        output = output.resolve()
        shutil.rmtree(output, ignore_errors=True)
        with lite.timed("voici build"):
            lite.run(
                [lite.venv_bin("voici"), "build", "--lite-dir", stage, "--contents", stage / "files",
                 "--output-dir", output, "--template", "alumno"],  # fmt: skip
                cwd=stage,
                env=voici_env(),
            )
    lite.log(f"{fix_page_urls(output)} pages pointed at the site's Pyodide")
    lite.check_site(output)
    check_student_site(output)
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
    if problems:
        raise SystemExit(f"teacher material in the student site: {problems}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="site folder (replaced)")
    parser.add_argument("--notebooks", type=Path, nargs="*", default=None, help="notebook folders or files")
    parser.add_argument("--clean-cache", action="store_true", help="delete student/.cache first (as CI starts)")
    args = parser.parse_args(argv)
    if args.clean_cache:
        shutil.rmtree(lite.CACHE, ignore_errors=True)
    build(args.output, args.notebooks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
