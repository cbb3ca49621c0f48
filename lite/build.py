"""Build the JupyterLite site of solitaire_nb: a static folder (default lite/_output) that any web
host can serve, with the notebooks, the package's own wheel, the Pyodide runtime and every wheel the
kernel and the boards need, so that nothing is fetched from the internet at run time.  NumPy and
matplotlib, which only Pyodide's CDN distributes, are not shipped: the lessons do without them in
the browser (the package's pure-Python paths and SVG plots, as in the student app), and a notebook
whose code imports one would fetch it from the CDN (`needs_network`; the build names any such).

Usage: ``python lite/build.py [--output DIR] [--notebooks DIR_OR_FILE ...] [--clean-cache]``

Steps (all downloads go through the ordinary registries and are cached in lite/.cache):
1. a virtual environment (lite/.cache/venv) with the pinned build tools of lite/requirements.txt;
2. the package wheel (built from a copy of the sources, so the work tree stays untouched), with the
   board's dependencies added to its metadata so that ``%pip install solitaire_nb`` in the
   browser also brings the widgets;
3. the browser wheels of lite/requirements.txt (``# browser:`` lines) from PyPI;
4. the npm package ``pyodide`` (core runtime files) at exactly the kernel's Pyodide version;
5. the pure-Python packages the kernel loads from Pyodide's lock file at start (micropip, IPython,
   jedi and their dependencies) from PyPI, with ``pyodide-lock.json`` rewritten to their files and
   hashes; every other lock entry points at Pyodide's CDN by absolute URL;
6. ``jupyter lite build`` on a temporary staging folder (lite/.cache/stage-*).
Steps 3 to 5 are `pyodide_runtime`'s.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:  # pyodide_runtime beside it, also when loaded by path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from pyodide_runtime import CACHE, fetch_runtime, log, make_pyodide, normalize, record_hash, run  # noqa: E402

LITE = Path(__file__).resolve().parent
ROOT = LITE.parent
VENV = CACHE / "venv"
REQUIREMENTS = LITE / "requirements.txt"
DEFAULT_OUTPUT = LITE / "_output"
DEFAULT_NOTEBOOKS = ROOT / "notebooks"

#: added to the site's solitaire_nb wheel, so that the notebooks' ``%pip install solitaire_nb``
#: brings the board (the package itself has no dependencies on a normal install).
LITE_REQUIRES = ("anywidget>=0.9", "ipywidgets>=8.0")

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: packages that Pyodide only serves from its CDN: a notebook importing one would go online.
ONLINE_ONLY = re.compile(r"^\s*(?:import|from)\s+(numpy|matplotlib|pandas|scipy)\b", re.M)


def needs_network(nb: dict) -> bool:
    """True when a code cell of notebook `nb` (its JSON) imports a package only Pyodide's CDN
    distributes (the kernel loads what a cell imports before running it)."""
    return any(
        cell.get("cell_type") == "code" and ONLINE_ONLY.search(str(_joined(cell.get("source", ""))))
        for cell in nb.get("cells", [])
    )


def student_tools(path: Path = REQUIREMENTS) -> list[str]:
    """The student app's extra build tools (``# student:`` lines of lite/requirements.txt)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [m.group(1) for raw in lines if (m := re.fullmatch(r"#\s*student:\s*(\S+)", raw.strip()))]


def read_requirements(path: Path = REQUIREMENTS) -> tuple[list[str], list[str], str]:
    """(build tools, browser wheels, pyodide npm version) from lite/requirements.txt."""
    build: list[str] = []
    browser: list[str] = []
    pyodide = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if m := re.fullmatch(r"#\s*browser:\s*(\S+)", line):
            browser.append(m.group(1))
        elif m := re.fullmatch(r"#\s*npm:\s*pyodide==(\S+)", line):
            pyodide = m.group(1)
        elif line and not line.startswith("#"):
            build.append(line)
    if not pyodide:
        raise SystemExit(f"{path}: missing '# npm: pyodide==VERSION'")
    return build, browser, pyodide


def venv_bin(name: str, env: Path = VENV) -> Path:
    return env / ("Scripts" if os.name == "nt" else "bin") / name


def ensure_venv(build_reqs: list[str], env: Path = VENV, system_site_packages: bool = True) -> None:
    """Create the build tools' virtual environment `env` (default lite/.cache/venv) with the pinned
    build tools (reused while the pins are unchanged)."""
    stamp = env / "requirements.stamp"
    wanted = "\n".join(build_reqs)
    if stamp.exists() and stamp.read_text() == wanted:
        return
    log(f"creating {env} with the build tools")
    shutil.rmtree(env, ignore_errors=True)
    # system_site_packages: jupyter-server and its dependencies are usually installed already
    # (the test extra), which saves most of the download; missing ones go into the venv.
    venv.EnvBuilder(with_pip=True, system_site_packages=system_site_packages).create(env)
    run([venv_bin("python", env), "-m", "pip", "install", "-q", "--disable-pip-version-check", *build_reqs])
    stamp.write_text(wanted)


def check_kernel_pyodide(version: str, env: Path = VENV) -> None:
    """Stop when the npm pin and the kernel's own Pyodide version differ: they must match exactly."""
    out = subprocess.run(
        [
            str(venv_bin("python", env)),
            "-c",
            "from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION as v; print(v)",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if out != version:
        raise SystemExit(f"lite/requirements.txt pins pyodide {version} but the kernel expects {out}")


def build_wheel(dest: Path, env: Path = VENV) -> Path:
    """Build the package wheel from a copy of the sources and add the board's dependencies."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            shutil.copy2(ROOT / name, src / name)
        shutil.copytree(
            ROOT / "solitaire_nb", src / "solitaire_nb", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
        run(
            [
                venv_bin("python", env),
                "-m",
                "pip",
                "wheel",
                "-q",
                "--no-deps",
                "--no-build-isolation",
                "--disable-pip-version-check",
                "-w",
                dest,
                src,
            ],
        )
    wheel = next(dest.glob("solitaire_nb-*.whl"))
    add_requirements(wheel, LITE_REQUIRES)
    return wheel


def add_requirements(wheel: Path, requires: tuple[str, ...]) -> None:
    """Add Requires-Dist lines to a wheel's METADATA (and fix its RECORD) unless already there."""
    with zipfile.ZipFile(wheel) as zin:
        items = [(info, zin.read(info)) for info in zin.infolist()]
    meta_name = next(i.filename for i, _ in items if i.filename.endswith(".dist-info/METADATA"))
    record_name = meta_name.rsplit("/", 1)[0] + "/RECORD"
    meta = dict((i.filename, d) for i, d in items)[meta_name].decode()
    head, sep, body = meta.partition("\n\n")
    # only unconditional requirements count: "anywidget; extra == 'notebook'" is not installed
    present = {normalize(m) for m in re.findall(r"^Requires-Dist: ([A-Za-z0-9_.\-]+)[^;\n]*$", head, re.M)}
    extra = [r for r in requires if normalize(re.split(r"[<>=!~ ;\[]", r)[0]) not in present]
    if not extra:
        return
    new_meta = (head + "".join(f"\nRequires-Dist: {r}" for r in extra) + sep + body).encode()
    out: list[tuple[zipfile.ZipInfo, bytes]] = []
    for info, data in items:
        if info.filename == meta_name:
            data = new_meta
        elif info.filename == record_name:
            lines = [
                f"{meta_name},{record_hash(new_meta)},{len(new_meta)}" if ln.startswith(meta_name + ",") else ln
                for ln in data.decode().splitlines()
            ]
            data = ("\n".join(lines) + "\n").encode()
        out.append((info, data))
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zout:
        for info, data in out:
            zout.writestr(info, data)


def copy_notebooks(sources: list[Path], files: Path) -> int:
    """Copy the notebooks (and files beside them) into the site's contents; return how many."""
    files.mkdir(parents=True, exist_ok=True)
    # Private files (_*) and the test configuration stay out, and so do the notebooks' MyST
    # sources (NN_xxx.md beside NN_xxx.ipynb): the site serves the executed notebooks.  Students
    # open this site too, so the teacher's guide (it holds the answers), the Voila settings and
    # the cells tagged ``docente`` stay out as well.
    private = shutil.ignore_patterns(
        ".ipynb_checkpoints", "__pycache__", "*.pyc", "_*", "*.cfg", "guia_docente.md", "voila.json"
    )

    def ignore(folder: str, names: list[str]) -> set[str]:
        sources = {n for n in names if n.endswith(".md") and n[: -len(".md")] + ".ipynb" in names}
        return set(private(folder, names)) | sources

    for src in sources:
        if src.is_dir():
            shutil.copytree(src, files, dirs_exist_ok=True, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, files / src.name)
    notebooks = list(files.rglob("*.ipynb"))
    for nb in notebooks:
        drop_teacher_cells(nb)
        flatten_notebook(nb)
    return len(notebooks)


def drop_teacher_cells(path: Path) -> None:
    """Remove the cells tagged ``docente`` (teacher notes and answers) from a copied notebook."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = [c for c in nb.get("cells", []) if "docente" not in c.get("metadata", {}).get("tags", [])]
    if len(cells) != len(nb.get("cells", [])):
        nb["cells"] = cells
        path.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _joined(value: object) -> object:
    """nbformat's multiline strings (lists of lines) as one string."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "".join(value)
    return value


def flatten_notebook(path: Path) -> None:
    """Store every multiline string of a notebook as one string.  nbformat allows both, but
    JupyterLite shows a saved stream output kept as a list of lines joined by commas."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb.get("cells", []):
        cell["source"] = _joined(cell.get("source", ""))
        for output in cell.get("outputs", []):
            if "text" in output:
                output["text"] = _joined(output["text"])
            for mime, value in output.get("data", {}).items():
                output["data"][mime] = _joined(value)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


@contextlib.contextmanager
def timed(label: str) -> Iterator[None]:
    start = time.perf_counter()
    yield
    log(f"{label}: {time.perf_counter() - start:.1f} s")


def build(output: Path = DEFAULT_OUTPUT, notebooks: list[Path] | None = None) -> Path:
    """Build the whole site into output (replaced) and return it."""
    start = time.perf_counter()
    build_reqs, browser_reqs, version = read_requirements()
    CACHE.mkdir(parents=True, exist_ok=True)
    # A staging folder of its own, so that two builds at once (a test, a reader) never mix.
    with tempfile.TemporaryDirectory(dir=CACHE, prefix="stage-") as tmp:
        stage = Path(tmp)
        # The downloads (the main interpreter's pip, npm) overlap the build tools' installation.
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            downloads = pool.submit(fetch_runtime, version, browser_reqs)
            with timed("build tools (lite/.cache/venv)"):
                ensure_venv(build_reqs)
                check_kernel_pyodide(version)
            with timed("package wheel"):
                wheel = build_wheel(stage / "pypi")
            with timed("downloads"):
                npm_dir, browser_wheels, local = downloads.result()
        log(f"package wheel: {wheel.name}")
        stage_site(stage, browser_wheels, version, npm_dir, local, notebooks)
        output = output.resolve()
        shutil.rmtree(output, ignore_errors=True)
        with timed("jupyter lite build"):
            run(
                [venv_bin("jupyter-lite"), "build", "--lite-dir", stage, "--output-dir", output],
                cwd=stage,
                env={**os.environ, "PATH": f"{venv_bin('python').parent}{os.pathsep}{os.environ.get('PATH', '')}"},
            )
    hide_code_previews(output)
    check_site(output)
    log(f"built {output} in {time.perf_counter() - start:.1f} s, {folder_size(output) / 2**20:.1f} MiB")
    return output


def stage_site(
    stage: Path, browser_wheels: list[Path], version: str, npm_dir: Path, local: list[str], notebooks: list[Path] | None
) -> None:
    """Lay out the lite dir: configuration, wheels (pypi/), runtime (static/pyodide/), notebooks (files/)."""
    for name in ("jupyter-lite.json", "overrides.json"):
        shutil.copy2(LITE / name, stage / name)
    for w in browser_wheels:
        shutil.copy2(w, stage / "pypi" / w.name)
    write_build_config(browser_wheels, stage / "jupyter_lite_config.json")
    make_pyodide(version, npm_dir, stage / "static" / "pyodide", local)
    log(f"pyodide {version} with {len(local)} lock packages served locally")
    count = copy_notebooks(notebooks if notebooks is not None else [DEFAULT_NOTEBOOKS], stage / "files")
    online = sorted(
        p.name for p in (stage / "files").rglob("*.ipynb") if needs_network(json.loads(p.read_text(encoding="utf-8")))
    )
    log(f"{count} notebooks; need the network (they import NumPy or matplotlib): {', '.join(online) or 'none'}")


def write_build_config(browser_wheels: list[Path], dest: Path) -> None:
    """lite/jupyter_lite_config.json plus the frontend extensions found in the browser wheels."""
    config = json.loads((LITE / "jupyter_lite_config.json").read_text(encoding="utf-8"))
    with_extension = []
    for wheel in browser_wheels:
        with zipfile.ZipFile(wheel) as z:
            if any("/share/jupyter/labextensions/" in n for n in z.namelist()):
                with_extension.append(str(wheel))
    build_config = config.setdefault("LiteBuildConfig", {})
    build_config["federated_extensions"] = [*build_config.get("federated_extensions", []), *with_extension]
    dest.write_text(json.dumps(config, indent=2), encoding="utf-8")


def hide_code_previews(output: Path) -> None:
    """Add the rule that hides a collapsed code cell's first line (binder/hide_code_preview.css, the
    one the README install serves to JupyterLab) to every page of the site: JupyterLite has no
    custom.css of its own."""
    style = f"<style>{(ROOT / 'binder' / 'hide_code_preview.css').read_text(encoding='utf-8')}</style>"
    for page in output.glob("*/index.html"):
        html = page.read_text(encoding="utf-8")
        if style not in html:
            page.write_text(html.replace("</head>", f"{style}</head>", 1), encoding="utf-8")


def check_site(output: Path) -> None:
    """Fail loudly if the site would reach the internet for the kernel or for pip."""
    config = json.loads((output / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    problems = []
    if not str(settings.get("pyodideUrl", "")).startswith("./"):
        problems.append(f"pyodideUrl is {settings.get('pyodideUrl')!r}, not local")
    if settings.get("disablePyPIFallback") is not True:
        problems.append("disablePyPIFallback is not true")
    if not list((output / "pypi").glob("solitaire_nb-*.whl")):
        problems.append("no solitaire_nb wheel in pypi/")
    if problems:
        raise SystemExit("site check failed: " + "; ".join(problems))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="site folder (replaced)")
    parser.add_argument(
        "--notebooks", type=Path, nargs="*", default=None, help="notebook folders or files (default: notebooks/)"
    )
    parser.add_argument("--clean-cache", action="store_true", help="delete lite/.cache first (as CI starts)")
    args = parser.parse_args(argv)
    if args.clean_cache:
        shutil.rmtree(CACHE, ignore_errors=True)
    build(args.output, args.notebooks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
