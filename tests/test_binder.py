"""What Binder would do, as closely as this machine allows (no Docker here).

In a fresh virtual environment (no system site-packages) from the repository root:
``pip install -r binder/requirements.txt``, then ``binder/postBuild`` run as repo2docker runs it
(an executable, the environment first on PATH); JupyterLab from that environment serves
``notebooks/00_indice.ipynb`` in Spanish (the language pack and the locale postBuild sets);
Voila is there; every notebook executes with that environment's kernel; and
``repo2docker --no-build`` accepts the configuration (repo2docker only writes its Dockerfile
with --no-build, so it needs no Docker daemon).

Slow (a few minutes, most of it pip downloading JupyterLab, NumPy and matplotlib; pip's cache
makes later runs faster). It needs PyPI, which CI reaches.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from parallel import free_port  # one free port per server, whatever xdist worker

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
BINDER = REPO / "binder"
TOKEN = "binder-check"


def run(cmd: list[str], *, timeout: float, cwd: Path = REPO, env: dict | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{out[-4000:]}"
    return out


def clean_env(venv: Path, tmp: Path) -> dict[str, str]:
    """The venv first on PATH, and Jupyter's user directories in `tmp`, never the user's."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "MPLBACKEND")}
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR",
                "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR"):
        (tmp / var.lower()).mkdir(exist_ok=True)
        env[var] = str(tmp / var.lower())
    return env


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.read()


def requirement_lines() -> list[str]:
    req = (BINDER / "requirements.txt").read_text(encoding="utf-8").split("\n")
    return [line.strip() for line in req if line.strip() and not line.startswith("#")]


def test_binder_configuration_files():
    lines = requirement_lines()
    assert lines[0] == "-e ."
    for name in ("jupyterlab", "jupyterlab-language-pack-es-ES", "ipywidgets", "anywidget", "numpy",
                 "matplotlib", "voila"):  # fmt: skip
        assert any(line.startswith(name + ">=") for line in lines), f"{name} without a lower bound"
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    assert runtime.startswith("python-3.")


def test_binder_installs_the_notebook_extra():
    """repo2docker ignores pyproject.toml's extras when binder/ exists: the notebook extra (what
    the README installs) must be listed in binder/requirements.txt too."""
    tomllib = pytest.importorskip("tomllib")
    extra = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert set(extra["notebook"]) <= set(requirement_lines())


def test_postbuild_sets_spanish(tmp_path):
    """postBuild is an executable (repo2docker runs it so) that writes JupyterLab's default
    settings in the running Python's JupyterLab application directory (JUPYTERLAB_DIR here)."""
    pytest.importorskip("jupyterlab")  # the notebook extra: postBuild runs in this Python
    postbuild = BINDER / "postBuild"
    assert os.access(postbuild, os.X_OK)
    mode = subprocess.run(["git", "ls-files", "-s", "binder/postBuild"], cwd=REPO, capture_output=True, text=True)
    assert mode.stdout.startswith("100755") or not mode.stdout, "git must keep binder/postBuild executable"
    assert postbuild.read_text(encoding="utf-8").startswith("#!/usr/bin/env python3\n")
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    (config_dir / "jupyter_server_config.json").write_text('{"ServerApp": {"open_browser": false}}')
    env = {**os.environ, "JUPYTERLAB_DIR": str(tmp_path), "JUPYTER_CONFIG_DIR": str(config_dir)}
    run([sys.executable, str(postbuild)], timeout=120, env=env)
    written = json.loads((tmp_path / "settings" / "overrides.d" / "solitaire_nb.json").read_text(encoding="utf-8"))
    assert written["@jupyterlab/translation-extension:plugin"] == {"locale": "es_ES"}
    assert written["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    # Voila's pages inside the server (Binder's voila/render links) get the student page's
    # configuration, the repository's voila.json; the file's other settings stay.
    server = json.loads((config_dir / "jupyter_server_config.json").read_text(encoding="utf-8"))
    student_page = json.loads((REPO / "voila.json").read_text(encoding="utf-8"))
    assert server == {"ServerApp": {"open_browser": False}, **student_page}


def test_fresh_environment_like_binder(tmp_path):
    started = time.monotonic()
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], timeout=120)
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()
    env = clean_env(venv, tmp_path)
    py = str(venv / "bin" / "python")

    # 1. What repo2docker runs, from the repository root (so "-e ." is the repository).
    run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", "binder/requirements.txt"],
        timeout=1200, env=env)
    run([str(BINDER / "postBuild")], timeout=600, env=env)  # as repo2docker runs it
    assert "voila" in run([py, "-m", "pip", "list"], timeout=120, env=env).lower()
    installed = time.monotonic()

    # 2. JupyterLab from that environment serves the index notebook.
    root = tmp_path / "root"
    shutil.copytree(REPO / "notebooks", root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(tmp_path / "lab.log", "wb")  # noqa: SIM115 - closed below
    lab = subprocess.Popen(
        [py, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}",
         f"--ServerApp.root_dir={root}", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, page = get(f"{base}/lab/tree/notebooks/00_indice.ipynb?token={TOKEN}")
                break
            except OSError:
                assert lab.poll() is None, (tmp_path / "lab.log").read_text(errors="replace")[-3000:]
                assert time.monotonic() < deadline, "JupyterLab did not answer"
                time.sleep(0.5)
        assert status == 200 and b"JupyterLab" in page
        status, body = get(f"{base}/api/contents/notebooks/00_indice.ipynb?token={TOKEN}&content=0")
        assert status == 200 and json.loads(body)["type"] == "notebook"
        # Spanish: postBuild's default locale, and the language pack that serves it.
        status, body = get(f"{base}/lab/api/settings/@jupyterlab/translation-extension:plugin?token={TOKEN}")
        assert json.loads(body)["schema"]["properties"]["locale"]["default"] == "es_ES"
        status, body = get(f"{base}/lab/api/translations/es_ES?token={TOKEN}")
        spanish = json.loads(body)
        assert spanish["message"] == "" and spanish["data"]["jupyterlab"]["menu\x04File"] == ["Archivo"]
    finally:
        lab.terminate()  # only the server this test started
        try:
            lab.wait(timeout=15)
        except subprocess.TimeoutExpired:
            lab.kill()
            lab.wait(timeout=5)
        log.close()

    # 3. Every notebook executes with the environment's own kernel.
    run([py, "-m", "ipykernel", "install", "--prefix", str(venv), "--name", "binder-venv"], timeout=120, env=env)
    kernel = json.loads((venv / "share/jupyter/kernels/binder-venv/kernel.json").read_text())
    assert kernel["argv"][0].startswith(str(venv))
    notebooks = sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert len(notebooks) >= 6
    out = tmp_path / "executed"
    run([py, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--output-dir", str(out),
         "--ExecutePreprocessor.kernel_name=binder-venv", "--ExecutePreprocessor.timeout=300",
         *map(str, notebooks)], timeout=900, cwd=root / "notebooks", env=env)  # fmt: skip
    assert sorted(p.name for p in out.glob("*.ipynb")) == [p.name for p in notebooks]
    executed = time.monotonic()

    # 4. repo2docker accepts the configuration (it only writes the Dockerfile here).
    run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "jupyter-repo2docker"],
        timeout=600, env=env)
    dockerfile = run([str(venv / "bin" / "repo2docker"), "--no-build", "--no-run", "--debug", str(REPO)],
                     timeout=300, env=env)  # fmt: skip
    version = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip().removeprefix("python-")
    assert f"python={version}" in dockerfile
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in dockerfile
    assert "./binder/postBuild" in dockerfile
    print(f"\ninstall {installed - started:.0f} s · serve and execute {executed - installed:.0f} s · "
          f"repo2docker {time.monotonic() - executed:.0f} s")
