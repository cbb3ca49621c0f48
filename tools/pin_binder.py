"""Pin Binder, and every install the README makes, to the environment the tests ran in.

    python tools/pin_binder.py            # write binder/versions.txt, requirements.txt, runtime.txt
    python tools/pin_binder.py --check    # exit 1 when they disagree with this environment

repo2docker ignores pyproject.toml's extras when binder/ exists and installs
binder/requirements.txt, so a Binder build next year would otherwise get next year's JupyterLab,
ipywidgets and anywidget, which nobody tested with these notebooks. This tool writes, as exact
pins in binder/versions.txt, every distribution that the package's ``notebook`` extra needs (its
requirements and theirs, with the markers evaluated here), at the version installed in the
running Python (the .venv the README's test command ran in), and Python's own minor version in
runtime.txt; what the ``hub`` extra adds (JupyterHub, for the class service) is pinned in
versions-hub.txt, which versions.txt names as constraints (``-c``): pip then holds it to those
versions when it installs it, and Binder, whose image brings its own JupyterHub, installs none. binder/requirements.txt installs the repository and those pins; the README's two
commands pass versions.txt to pip as constraints (``-c``), so the tests, the teacher's laptop
and Binder run the same versions whatever PyPI has released since. tests/test_binder.py runs
the check.
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
REQUIREMENTS = REPO / "binder" / "requirements.txt"
VERSIONS = REPO / "binder" / "versions.txt"
HUB_VERSIONS = REPO / "binder" / "versions-hub.txt"
RUNTIME = REPO / "binder" / "runtime.txt"
PACKAGE, EXTRA, HUB_EXTRA = "solitaire_nb", "notebook", "hub"
HEADER = """\
# What Binder (repo2docker) installs; with a binder/ folder it ignores pyproject.toml's extras.
# Written by tools/pin_binder.py (do not edit by hand). repo2docker runs pip from the repository
# root, so "-e ." is the repository itself; versions.txt (beside this file) holds the versions
# tested; then repo2docker runs binder/postBuild (JupyterLab in Spanish, the lessons trusted).
-e .
-r versions.txt
"""
VERSIONS_HEADER = """\
# The versions the tests ran with: every distribution the "notebook" extra needs. Written by
# tools/pin_binder.py from the test environment (do not edit by hand); Binder installs them
# (requirements.txt) and the README's commands use them as constraints (pip -c). To upgrade:
# install without -c in a new .venv, run the tests, then `.venv/bin/python tools/pin_binder.py`.
"""

def _needed(req: Requirement, extras: set[str]) -> bool:
    if req.marker is None:
        return True
    return any(req.marker.evaluate({"extra": extra}) for extra in (extras or {""}))


def closure(package: str = PACKAGE, extra: str = EXTRA, start: list[str] | None = None) -> dict[str, str]:
    """{distribution name: installed version} for everything `package[extra]` needs here (or the
    requirements `start`), `package` itself left out (Binder installs it from the repository)."""
    found: dict[str, str] = {}
    todo: list[tuple[str, set[str]]] = [(package, {extra})]
    if start is not None:
        todo = [(req.name, set(req.extras)) for req in map(Requirement, start)]
    done: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, extras = todo.pop()
        key = (canonicalize_name(name), frozenset(extras))
        if key in done:
            continue
        done.add(key)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # not installed: not what the tests ran with, so nothing to pin
        if canonicalize_name(name) != canonicalize_name(package):
            found[dist.metadata["Name"]] = dist.version
        for line in dist.requires or []:
            req = Requirement(line)
            if _needed(req, extras):
                todo.append((req.name, set(req.extras)))
    return dict(sorted(found.items(), key=lambda item: canonicalize_name(item[0])))


HUB_HEADER = """\
# The versions the tests ran with of what the "hub" extra adds to the "notebook" extra's (JupyterHub
# for the class service). Written by tools/pin_binder.py (do not edit by hand); versions.txt names
# this file as constraints, so pip holds these packages to these versions only when it installs them.
"""


def versions_text() -> str:
    pins = "".join(f"{name}=={version}\n" for name, version in closure().items())
    return VERSIONS_HEADER + f"-c {HUB_VERSIONS.name}\n" + pins


def hub_versions_text() -> str:
    """The pins of what the hub extra adds, its requirements read from pyproject.toml (the
    installed metadata may predate the extra)."""
    import tomllib

    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    notebook = closure()
    added = {name: version for name, version in closure(start=extras[HUB_EXTRA]).items() if name not in notebook}
    return HUB_HEADER + "".join(f"{name}=={version}\n" for name, version in added.items())


def runtime_text() -> str:
    return f"python-{sys.version_info.major}.{sys.version_info.minor}\n"


def problems() -> list[str]:
    """What binder/ says that this environment does not (empty when they agree)."""
    out = []
    written = ((REQUIREMENTS, HEADER), (VERSIONS, versions_text()), (HUB_VERSIONS, hub_versions_text()), (RUNTIME, runtime_text()))
    for path, want in written:
        have = path.read_text(encoding="utf-8") if path.exists() else ""
        if have != want:
            pins = {line for line in have.splitlines() if "==" in line or line.startswith("python-")}
            wanted = {line for line in want.splitlines() if "==" in line or line.startswith("python-")}
            missing, extra = sorted(wanted - pins), sorted(pins - wanted)
            out.append(f"{path.relative_to(REPO)} no coincide con este entorno: falta {missing or 'nada'}, "
                       f"sobra {extra or 'nada'} (escríbelo con tools/pin_binder.py)")  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fija binder/versions.txt a las versiones de este entorno.")
    parser.add_argument("--check", action="store_true", help="solo comprobar que binder/ coincide con este entorno")
    args = parser.parse_args(argv)
    if args.check:
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    REQUIREMENTS.write_text(HEADER, encoding="utf-8")
    VERSIONS.write_text(versions_text(), encoding="utf-8")
    HUB_VERSIONS.write_text(hub_versions_text(), encoding="utf-8")
    RUNTIME.write_text(runtime_text(), encoding="utf-8")
    print(f"{VERSIONS.relative_to(REPO)}: {len(closure())} versiones fijadas; {RUNTIME.relative_to(REPO)}: {runtime_text().strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
