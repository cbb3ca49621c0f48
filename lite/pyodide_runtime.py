"""The downloads of the Lite sites (build.py here, student/build.py): the Pyodide runtime from
npm, its lock file rewritten so that the packages the kernel loads at start are served from the
site (PyPI's wheels, with their hashes) and every other entry points at Pyodide's CDN, and the
browser wheels from PyPI; with the small helpers both builds use (log, run, normalize).
All downloads go through the ordinary registries and are cached in lite/.cache.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

CACHE = Path(__file__).resolve().parent / ".cache"

#: what the kernel loads from the lock file before the first cell runs (see the kernel's worker:
#: loadPackage(["micropip"]), then piplite.install of sqlite3, ipykernel, comm, pyodide-kernel,
#: jedi, ipython); anywidget needs typing-extensions, micropip needs packaging for version checks.
KERNEL_LOCK_PACKAGES = ("micropip", "packaging", "ipython", "jedi", "traitlets", "typing-extensions", "sqlite3")
#: lock dependencies dropped: matplotlib-inline (a dependency of IPython) imports matplotlib only
#: when a plot is drawn, and matplotlib comes from the CDN only when a notebook imports it.
DROP_DEPENDS = {"matplotlib-inline": ("matplotlib",)}
#: lock packages built by Pyodide only (not on PyPI) that the kernel installs by name: served as an
#: empty wheel, so that nothing is asked of the CDN.  Without sqlite3, IPython keeps no history.
EMPTY_LOCK_PACKAGES = ("sqlite3",)
#: Python's version in the browser (Pyodide 0.29), for downloading pure-Python wheels.
BROWSER_PYTHON = "3.13"
CDN = "https://cdn.jsdelivr.net/pyodide/v{version}/full/"
#: runtime files of the npm package the site needs (no source maps, typings or demo pages).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.js",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)


def log(message: str) -> None:
    print(f"[lite] {message}", flush=True)


def run(cmd: list[str | os.PathLike[str]], **kwargs: object) -> None:
    """Run quietly; on failure show the command's whole output and stop."""
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if proc.returncode:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(str(c) for c in cmd)}")


def normalize(name: str) -> str:
    """PEP 503 name, as pyodide-lock.json uses for its keys."""
    return re.sub(r"[-_.]+", "-", name).lower()


def record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def pip_download(reqs: list[str], dest: Path) -> None:
    """Download pure-Python wheels (usable by Python in the browser), without dependencies."""
    dest.mkdir(parents=True, exist_ok=True)
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--disable-pip-version-check",
            "--no-deps",
            "--only-binary=:all:",
            "--platform",
            "any",
            "--python-version",
            BROWSER_PYTHON,
            "--implementation",
            "py",
            "-d",
            dest,
            *reqs,
        ],
    )


def wheel_name(path: Path) -> str:
    return normalize(path.name.split("-")[0])


def fetch_browser_wheels(reqs: list[str]) -> list[Path]:
    dest = CACHE / "browser-wheels"
    wanted = {normalize(r.split("==")[0]): r.split("==")[1] for r in reqs}
    have = {wheel_name(p): p for p in dest.glob("*.whl") if p.name.split("-")[1] == wanted.get(wheel_name(p))}
    missing = [r for r in reqs if normalize(r.split("==")[0]) not in have]
    if missing:
        log(f"downloading browser wheels: {' '.join(missing)}")
        pip_download(missing, dest)
    files = {wheel_name(p): p for p in dest.glob("*.whl") if p.name.split("-")[1] == wanted.get(wheel_name(p))}
    return [files[n] for n in wanted]


def fetch_pyodide(version: str) -> Path:
    """npm package ``pyodide@version``, unpacked in lite/.cache/npm/pyodide-VERSION."""
    target = CACHE / "npm" / f"pyodide-{version}"
    if (target / "pyodide.asm.wasm").exists():
        return target
    log(f"downloading npm pyodide@{version}")
    tmp = CACHE / "npm" / "tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    run(["npm", "pack", "--silent", f"pyodide@{version}"], cwd=tmp)
    tgz = next(tmp.glob("pyodide-*.tgz"))
    with tarfile.open(tgz) as tar:
        tar.extractall(tmp, filter="data") if sys.version_info >= (3, 12) else tar.extractall(tmp)  # noqa: S202
    shutil.rmtree(target, ignore_errors=True)
    (tmp / "package").rename(target)
    shutil.rmtree(tmp)
    return target


def lock_closure(packages: dict[str, dict], roots: tuple[str, ...]) -> list[str]:
    """Names (lock keys) of roots and everything they depend on in the lock file."""
    seen: list[str] = []
    todo = [normalize(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.append(name)
        todo.extend(normalize(d) for d in packages[name]["depends"])
    return sorted(seen)


def read_lock(npm_dir: Path) -> dict:
    """Pyodide's lock file with the dependencies in `DROP_DEPENDS` removed."""
    lock = json.loads((npm_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    for key, dropped in DROP_DEPENDS.items():
        if key in lock["packages"]:
            entry = lock["packages"][key]
            entry["depends"] = [d for d in entry["depends"] if normalize(d) not in dropped]
    return lock


def empty_wheel(name: str, version: str, dest: Path) -> Path:
    """A wheel holding only its metadata: stands for a lock package the kernel asks for by name."""
    dest.mkdir(parents=True, exist_ok=True)
    wheel = dest / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: solitaire_nb\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(f"{p},{record_hash(t.encode())},{len(t.encode())}\n" for p, t in files.items())
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for p, t in files.items():
            z.writestr(zipfile.ZipInfo(p, (2020, 1, 1, 0, 0, 0)), t)
        z.writestr(zipfile.ZipInfo(f"{info}/RECORD", (2020, 1, 1, 0, 0, 0)), record + f"{info}/RECORD,,\n")
    return wheel


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def lock_wheels_dir(version: str) -> Path:
    return CACHE / "lock-wheels" / version


def fetch_lock_wheels(version: str, packages: dict[str, dict], local: list[str]) -> None:
    """PyPI's wheels of the lock packages the kernel loads (same versions as the lock)."""
    have = {wheel_name(p) for p in lock_wheels_dir(version).glob("*.whl")}
    missing = [f"{packages[n]['name']}=={packages[n]['version']}" for n in local if n not in have]
    if missing:
        log(f"downloading {len(missing)} lock packages from PyPI")
        pip_download(missing, lock_wheels_dir(version))


def make_pyodide(version: str, npm_dir: Path, dest: Path, local: list[str]) -> None:
    """Copy the runtime into dest with the kernel's lock packages beside it, and rewrite the lock."""
    dest.mkdir(parents=True, exist_ok=True)
    names = list(PYODIDE_FILES)
    if not (npm_dir / "pyodide.asm.mjs").exists():  # Pyodide 0.29 and older (the student app's)
        names[names.index("pyodide.asm.mjs")] = "pyodide.asm.js"
    for name in names:
        shutil.copy2(npm_dir / name, dest / name)
    lock = read_lock(npm_dir)
    have = {wheel_name(p): p for p in lock_wheels_dir(version).glob("*.whl")}
    cdn = CDN.format(version=version)
    for key, entry in lock["packages"].items():
        if key in local:
            wheel = have[key]
            shutil.copy2(wheel, dest / wheel.name)
            # Pyodide checks each file against the lock's sha256: PyPI's files are not the CDN's.
            entry["file_name"] = wheel.name
            entry["sha256"] = sha256_file(wheel)
        else:
            # Not shipped (NumPy, matplotlib…): an absolute URL, so that it still loads online.
            entry["file_name"] = cdn + entry["file_name"]
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")


def fetch_runtime(version: str, browser_reqs: list[str]) -> tuple[Path, list[Path], list[str]]:
    """Every download the site needs (npm pyodide, lock packages, browser wheels)."""
    npm_dir = fetch_pyodide(version)
    lock = read_lock(npm_dir)
    local = lock_closure(lock["packages"], KERNEL_LOCK_PACKAGES)
    for name in EMPTY_LOCK_PACKAGES:
        entry = lock["packages"][name]
        if not list(lock_wheels_dir(version).glob(f"{name}-{entry['version']}-*.whl")):
            empty_wheel(name, entry["version"], lock_wheels_dir(version))
    fetch_lock_wheels(version, lock["packages"], local)
    return npm_dir, fetch_browser_wheels(browser_reqs), local
