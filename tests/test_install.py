"""The README's two commands (section «Dos órdenes»).

The first one is run for real, as a teacher on a fresh Debian/Ubuntu would: the system's
Python (/usr/bin/python3, whose pip refuses to install outside a virtual environment), a new
`.venv` in a copy of the repository, `pip install -e ".[notebook]"` and `binder/postBuild`,
exactly as README.md writes them (tests/readme_command.py reads them from there). Then
JupyterLab, started the README's way, must open the index in Spanish, and Voila must be there.
The second one (the test command) calls only the .venv's programs, runs pytest on every core
(pytest-xdist), is the command .ci/run ends with, and its install part runs verbatim in the same
.venv, whose pytest then runs. .ci/run installs the Debian package of every program the tests call.

Slow: one to two minutes with pip's cache warm, a few more on a cold one (pip downloads
JupyterLab, NumPy and matplotlib from PyPI); the install is made once per run, shared by every
xdist worker, and the tests that use it run in one worker (`SAME_VENV`). Without network they skip
saying so; without /usr/bin/python3 or its venv module (Debian package python3-venv) they skip with
a reason, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import urllib.request

import pytest
import readme_command
from readme_command import (
    REPO,
    SAME_VENV,
    SYSTEM_PYTHON,
    first_command,
    lab_server,
    opened_path,
    readme_install,
    second_command,
    split_command,
    split_test_command,
)

TOKEN = "readme-install"


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as r:
        assert r.status == 200, url
        return json.loads(r.read())


def test_first_command_uses_a_virtual_environment():
    install, launch = split_command()
    assert install.startswith("python3 -m venv .venv && "), first_command()
    # the versions the tests ran with, as Binder gets them (tools/pin_binder.py)
    assert '.venv/bin/pip install -c binder/versions.txt -e ".[notebook]"' in install
    assert ".venv/bin/python binder/postBuild" in install  # the same step Binder runs
    assert launch[:2] == [".venv/bin/jupyter", "lab"]
    assert all((REPO / arg).exists() for arg in launch[2:]), launch
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    before = readme.split("## Dos órdenes", 1)[1].split("```", 1)[0]
    # Debian's venv module comes apart; the line must work as root, where sudo may be absent.
    assert "`apt install python3-venv`" in before and "sudo" not in before
    ignored = subprocess.run(["git", "check-ignore", "-q", ".venv/"], cwd=REPO)
    assert ignored.returncode == 0, ".venv/ must be ignored by git"


def ci_lines() -> list[str]:
    """.ci/run's commands: comments and blank lines dropped, `\\` continuations joined."""
    text = (REPO / ".ci" / "run").read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def ci_apt_packages() -> set[str]:
    """Every package an `apt-get install` of .ci/run names."""
    found: set[str] = set()
    for line in ci_lines():
        for command in re.findall(r"apt-get install ([^|;&>]*)", line):
            found |= {word for word in command.split() if not word.startswith("-")}
    return found


def test_second_command_is_what_ci_runs():
    """The test command runs in the first command's .venv (no bare pip or python, which Debian's
    system Python refuses or lacks), on every core (pytest-xdist, from the test extra), and
    .ci/run calls it unchanged, in a .venv it makes with Debian's python3 as the first command does."""
    second = second_command()
    install, run = split_test_command()
    # the solver's optional compiled core too (ccore/), so that both of its paths are tested
    assert install == '.venv/bin/pip install -c binder/versions.txt -e ".[test,dask]" ./ccore', second
    assert run == [".venv/bin/python", "-m", "pytest", "-n", "auto", "--dist", "loadgroup"], second
    assert all(shlex.split(part)[0].startswith(".venv/bin/") for part in second.split(" && ")), second
    ci = ci_lines()
    assert ci[-1] == second, ".ci/run must end with the README's test command, unchanged"
    made = first_command().split(" && ")[0].split()
    assert ci[-2].split() == [str(SYSTEM_PYTHON), *made[1:]], "the .venv made with Debian's python3"
    assert {"python3", "python3-venv"} <= ci_apt_packages(), ".ci/run installs Debian's python3"
    tomllib = pytest.importorskip("tomllib")  # Python ≥ 3.11
    test_extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert any(re.match(r"pytest-xdist\b", req) for req in test_extra), test_extra


# Every program the tests run (or the builds they start: lite/, student/, tools/, binder/), and the
# Debian package that brings it on a fresh machine; None for what every Debian has (Essential).
PROGRAMS = {
    "bash": None,
    "mount": None,
    "umount": None,
    "runuser": None,  # util-linux, like mount: essential on Debian
    "unshare": None,  # util-linux too (the record on a small tmpfs, tests/test_reto_sync_live.py)
    "git": "git",
    "npm": "npm",
    "fc-solve": "freecell-solver-bin",
    "configurable-http-proxy": "node-configurable-http-proxy",  # the hub's proxy (tests/hub_server.py)
}
CALLED = re.compile(r"""(?:subprocess\.(?:run|Popen|check_output|check_call)|shutil\.which|run)\(\s*\[?\s*["']([a-z][\w.-]*)["']""")


def programs_called() -> set[str]:
    sources = [*(REPO / "tests").rglob("*.py"), *(REPO / "lite").glob("*.py"), *(REPO / "student").glob("*.py"),
               *(REPO / "tools").glob("*.py"), REPO / "binder" / "postBuild"]  # fmt: skip
    return {name for path in sources for name in CALLED.findall(path.read_text(encoding="utf-8"))}


def test_ci_installs_every_debian_package_the_tests_need():
    """On a fresh Debian, .ci/run's apt-get brings everything the tests call: each program named
    in a subprocess call (a new one must be added to PROGRAMS with its package), Debian's Chromium
    at the path the browser tests use, and the font the boards ask for first."""
    apt = ci_apt_packages()
    called = programs_called()
    assert {"git", "fc-solve", "npm"} <= called, called  # the scan still sees the calls it must
    unknown = called - set(PROGRAMS) - {"python", "python3", "jupyter", "voila"}
    assert not unknown, f"programs the tests call with no Debian package in PROGRAMS: {sorted(unknown)}"
    needed = {PROGRAMS[name] for name in called if PROGRAMS.get(name)}
    from browser_helpers import CHROMIUM

    assert CHROMIUM == "/usr/bin/chromium"  # Debian's package `chromium`
    needed.add("chromium")
    css = (REPO / "solitaire_nb" / "board" / "board.css").read_text(encoding="utf-8")
    first_font = re.search(r"font-family:\s*\"?([^\",;]+)", css).group(1)
    assert first_font == "DejaVu Sans", first_font
    needed |= {"fonts-dejavu-core", "fonts-liberation"}  # DejaVu Sans, and Liberation Sans for Arial
    assert needed <= apt, f".ci/run does not install {sorted(needed - apt)}"


@pytest.mark.slow
@SAME_VENV
def test_readme_install_opens_jupyterlab_in_spanish(tmp_path_factory):
    done = readme_install(tmp_path_factory)
    venv = done.root / ".venv"
    cfg = (venv / "pyvenv.cfg").read_text()
    assert f"home = {SYSTEM_PYTHON.parent}" in cfg and "include-system-site-packages = false" in cfg

    lab = done.run([str(venv / "bin" / "jupyter"), "lab", "--version"]).strip().splitlines()[-1]
    assert int(lab.split(".")[0]) >= 4, lab
    assert re.search(r"\d+\.\d+", done.run([str(venv / "bin" / "voila"), "--version"]))
    done.run([str(venv / "bin" / "python"), "-c", "import jupyterlab_language_pack_es_ES, solitaire_nb"])

    with lab_server(done, TOKEN) as base:
        plugin = get_json(f"{base}/lab/api/settings/@jupyterlab/translation-extension:plugin?token={TOKEN}")
        assert plugin["schema"]["properties"]["locale"]["default"] == "es_ES"
        assert "locale" not in plugin["settings"]  # no user setting hides the default
        packs = get_json(f"{base}/lab/api/translations/?token={TOKEN}")
        assert "es_ES" in packs["data"], packs
        spanish = get_json(f"{base}/lab/api/translations/es_ES?token={TOKEN}")
        assert spanish["message"] == ""
        assert spanish["data"]["jupyterlab"]["menu\x04File"] == ["Archivo"]
        index = get_json(f"{base}/api/contents/{opened_path()}?token={TOKEN}&content=0")
        assert index["type"] == "notebook" and index["name"] == "00_indice.ipynb"
        news = get_json(f"{base}/lab/api/settings/@jupyterlab/apputils-extension:notification?token={TOKEN}")
        assert news["schema"]["properties"]["fetchNews"]["default"] == "false"
    print(f"\nthe README's install part took {done.seconds:.0f} s")


@pytest.mark.slow
@SAME_VENV
def test_readme_test_command_runs_in_the_same_venv(tmp_path_factory):
    """The README's test command, after the first command's install: its install part runs
    verbatim in the same .venv, and its pytest is that .venv's (shown on one test file here; the
    whole suite is what .ci/run runs), on several workers."""
    done = readme_install(tmp_path_factory)
    install, run = split_test_command()
    proc = subprocess.run(["bash", "-c", install], cwd=done.root, env=done.env(), capture_output=True, text=True,
                          timeout=readme_command.INSTALL_TIMEOUT)  # fmt: skip
    assert proc.returncode == 0, f"the README's test install failed ({install}):\n{(proc.stdout + proc.stderr)[-4000:]}"
    prefix = done.run([run[0], "-c", "import sys, pytest, xdist, hypothesis, nbval, playwright, axe_playwright_python, dask; print(sys.prefix)"])
    assert prefix.strip().splitlines()[-1] == str(done.root / ".venv"), prefix
    out = done.run([*run, "tests/test_notation.py", "-q", "-p", "no:cacheprovider"], timeout=600)
    assert re.search(r"\b\d+ passed\b", out) and "failed" not in out, out[-2000:]
    assert re.search(r"bringing up nodes|created: \d+/\d+ workers", out), out[-2000:]  # xdist ran it


def test_no_network_skips_saying_so(monkeypatch, tmp_path):
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # the discard port: refused
    with pytest.raises(pytest.skip.Exception, match="sin red"):
        readme_command.require_network()


def test_missing_system_python_skips_outside_ci_and_fails_in_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(readme_command, "SYSTEM_PYTHON", tmp_path / "no-python3")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no existe"):
        readme_command.readme_install(tmp_path)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="obligatoria"):
        readme_command.readme_install(tmp_path)
