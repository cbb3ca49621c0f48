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


def requirement_lines(name: str = "requirements.txt") -> list[str]:
    req = (BINDER / name).read_text(encoding="utf-8").split("\n")
    return [line.strip() for line in req if line.strip() and not line.startswith("#")]


def pins() -> dict[str, str]:
    """{canonical name: version} of binder/versions.txt's exact pins."""
    from packaging.utils import canonicalize_name

    out = {}
    for line in requirement_lines("versions.txt"):
        if line == "-c versions-hub.txt":  # what the hub extra adds: constraints, never installed by Binder
            continue
        name, sep, version = line.partition("==")
        assert sep and version, f"binder/versions.txt: «{line}» is not an exact pin"
        out[canonicalize_name(name)] = version
    return out


def test_binder_configuration_files():
    # Binder installs the repository and the tested versions (a path relative to this file).
    assert requirement_lines() == ["-e .", "-r versions.txt"]
    pinned = pins()
    for name in ("jupyterlab", "jupyterlab-language-pack-es-es", "ipywidgets", "anywidget", "numpy",
                 "matplotlib", "voila", "jupytext", "jupyterlab-widgets", "ipykernel"):  # fmt: skip
        assert name in pinned, f"{name} is not pinned"
    assert any(line.startswith("jupyterhub==") for line in requirement_lines("versions-hub.txt"))
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    assert runtime.startswith("python-3.")


def test_binder_installs_the_notebook_extra():
    """repo2docker ignores pyproject.toml's extras when binder/ exists: every requirement of the
    notebook extra (what the README installs) is pinned in binder/requirements.txt, at a
    version the extra accepts."""
    tomllib = pytest.importorskip("tomllib")
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    extra = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    pinned = pins()
    for line in extra["notebook"]:
        req = Requirement(line)
        version = pinned.get(canonicalize_name(req.name))
        assert version and req.specifier.contains(version, prereleases=True), (line, version)


def test_binder_pins_are_the_versions_tested():
    """binder/requirements.txt and runtime.txt are what tools/pin_binder.py writes from this
    environment, the one the tests run in: Binder gets the versions tested. (After an upgrade,
    `.venv/bin/python tools/pin_binder.py` rewrites them.)"""
    pytest.importorskip("jupyterlab")  # the notebook extra is installed: its versions are the ones tested
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import pin_binder
    finally:
        sys.path.remove(str(REPO / "tools"))
    assert pin_binder.problems() == []
    needed = pin_binder.closure()
    assert {"jupyterlab", "ipywidgets", "anywidget", "ipykernel"} <= {n.lower() for n in needed}, needed


def copy_for_postbuild(target: Path) -> Path:
    """What postBuild reads and writes (binder/, voila.json, the notebooks), copied: postBuild
    rewrites and signs the notebooks next to it, never the repository's here."""
    shutil.copytree(BINDER, target / "binder")
    shutil.copy2(REPO / "voila.json", target / "voila.json")
    shutil.copytree(REPO / "notebooks", target / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return target / "binder" / "postBuild"


def test_postbuild_sets_spanish(tmp_path):
    """postBuild is an executable (repo2docker runs it so) that writes JupyterLab's default
    settings in the running Python's JupyterLab application directory (JUPYTERLAB_DIR here)."""
    pytest.importorskip("jupyterlab")  # the notebook extra: postBuild runs in this Python
    postbuild = BINDER / "postBuild"
    assert os.access(postbuild, os.X_OK)
    mode = subprocess.run(["git", "ls-files", "-s", "binder/postBuild"], cwd=REPO, capture_output=True, text=True)
    assert mode.stdout.startswith("100755") or not mode.stdout, "git must keep binder/postBuild executable"
    assert postbuild.read_text(encoding="utf-8").startswith("#!/usr/bin/env python3\n")
    copy = copy_for_postbuild(tmp_path / "repo")
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    (config_dir / "jupyter_server_config.json").write_text('{"ServerApp": {"open_browser": false}}')
    env = {**os.environ, "JUPYTERLAB_DIR": str(tmp_path), "JUPYTER_CONFIG_DIR": str(config_dir)}
    run([sys.executable, str(copy)], timeout=120, env=env)
    written = json.loads((tmp_path / "settings" / "overrides.d" / "solitaire_nb.json").read_text(encoding="utf-8"))
    assert written["@jupyterlab/translation-extension:plugin"] == {"locale": "es_ES"}
    assert written["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    # Voila's pages inside the server (Binder's voila/render links) get the student page's
    # configuration, the repository's voila.json; the file's other settings stay.
    server = json.loads((config_dir / "jupyter_server_config.json").read_text(encoding="utf-8"))
    student_page = json.loads((REPO / "voila.json").read_text(encoding="utf-8"))
    notary = server.pop("NotebookNotary")
    # JupyterLab's custom CSS, served from this configuration's folder, not the user's ~/.jupyter.
    assert server.pop("LabApp") == {"custom_css": True}
    custom = config_dir / "custom"
    assert server["ServerApp"].pop("tornado_settings") == {"static_custom_path": [str(custom)]}
    assert server == {"ServerApp": {"open_browser": False}, **student_page}
    css = (custom / "custom.css").read_text(encoding="utf-8")
    assert ".jp-InputPlaceholder .jp-PlaceholderText { display: none; }" in css
    # The lessons are trusted in a database of this environment's configuration (not the
    # user's data dir), with the kernel's language_info, so JupyterLab shows them as saved.
    assert Path(notary["db_file"]).parent == config_dir / "solitaire_nb-trust"
    assert_trusted_for_this_kernel(copy.parents[1] / "notebooks", notary)


def assert_trusted_for_this_kernel(folder: Path, notary_files: dict) -> None:
    nbformat = pytest.importorskip("nbformat")
    from ipykernel.ipkernel import IPythonKernel
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary(**notary_files)
    notebooks = sorted(folder.glob("*.ipynb"))
    assert len(notebooks) >= 9
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        assert notary.check_signature(nb), f"{path.name} is not trusted"
        assert nb.metadata["language_info"] == IPythonKernel.language_info, path.name
        # Only the language_info changed: the outputs are the repository's.
        saved = nbformat.read(REPO / "notebooks" / path.name, as_version=4)
        assert [c.get("outputs") for c in nb.cells] == [c.get("outputs") for c in saved.cells], path.name


def test_postbuild_keeps_a_custom_css_of_the_folder(tmp_path):
    """A custom.css already in the configuration's folder keeps its rules, and postBuild's own
    block is written once however often it runs (the README says to run it after every pull)."""
    pytest.importorskip("jupyterlab")
    copy = copy_for_postbuild(tmp_path / "repo")
    css = tmp_path / "config" / "custom" / "custom.css"
    css.parent.mkdir(parents=True)
    css.write_text("h1 { color: teal; }", encoding="utf-8")
    env = {**os.environ, "JUPYTERLAB_DIR": str(tmp_path / "lab"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    for _ in range(2):
        run([sys.executable, str(copy)], timeout=120, env=env, cwd=tmp_path / "repo")
    text = css.read_text(encoding="utf-8")
    assert text.startswith("h1 { color: teal; }\n")
    assert text.count(".jp-PlaceholderText") == 1 and text.count("solitaire_nb: begin") == 1


def test_postbuild_as_binder_runs_it_is_the_readme_install(tmp_path):
    """repo2docker runs ./binder/postBuild (an executable, the environment's Python first on
    PATH); the README's install runs `.venv/bin/python binder/postBuild`. Both write the same
    files: the Spanish settings, the server configuration (Voila's pages, the trust database),
    the same notebooks, trusted."""
    pytest.importorskip("jupyterlab")
    results = []
    for way in ("binder", "readme"):
        base = tmp_path / way
        copy = copy_for_postbuild(base / "repo")
        (base / "config").mkdir()
        env = {**os.environ, "JUPYTERLAB_DIR": str(base / "lab"), "JUPYTER_CONFIG_DIR": str(base / "config"),
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}  # fmt: skip
        argv = [str(copy)] if way == "binder" else [sys.executable, "binder/postBuild"]
        run(argv, timeout=120, env=env, cwd=base / "repo")
        server = json.loads((base / "config" / "jupyter_server_config.json").read_text(encoding="utf-8"))
        assert_trusted_for_this_kernel(base / "repo" / "notebooks", server["NotebookNotary"])
        results.append({
            "settings": (base / "lab" / "settings" / "overrides.d" / "solitaire_nb.json").read_text(encoding="utf-8"),
            "server": json.dumps(server, sort_keys=True).replace(str(base), "<base>"),
            "css": (base / "config" / "custom" / "custom.css").read_text(encoding="utf-8"),
            "notebooks": {p.name: p.read_bytes() for p in (base / "repo" / "notebooks").glob("*.ipynb")},
        })  # fmt: skip
    assert results[0] == results[1]


def test_postbuild_without_config_dir_writes_where_every_server_of_the_environment_reads(tmp_path):
    """Binder and a teacher's shell set no JUPYTER_CONFIG_DIR: postBuild then writes the server's
    configuration (the trust database's place, Voila's pages) in the environment,
    ``<sys.prefix>/etc/jupyter`` (here a scratch prefix), a folder Jupyter reads whatever the
    user's own folders are (tests/browser/test_lab_first_open.py opens the lessons so)."""
    pytest.importorskip("jupyterlab")
    copy = copy_for_postbuild(tmp_path / "repo")
    prefix = tmp_path / "prefix"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    env["JUPYTERLAB_DIR"] = str(tmp_path / "lab")
    run_as_if = f"import runpy, sys; sys.prefix = {str(prefix)!r}; runpy.run_path({str(copy)!r}, run_name='__main__')"
    run([sys.executable, "-c", run_as_if], timeout=120, env=env, cwd=tmp_path / "repo")
    server = json.loads((prefix / "etc" / "jupyter" / "jupyter_server_config.json").read_text(encoding="utf-8"))
    assert Path(server["NotebookNotary"]["db_file"]).parent == prefix / "etc" / "jupyter" / "solitaire_nb-trust"
    assert_trusted_for_this_kernel(tmp_path / "repo" / "notebooks", server["NotebookNotary"])
    # A server with user folders of its own still reads the environment's configuration.
    elsewhere = {**env, "JUPYTER_CONFIG_DIR": str(tmp_path / "user"), "JUPYTER_DATA_DIR": str(tmp_path / "data")}
    probe = ("import os, sys; from jupyter_core.paths import jupyter_config_path; "
             "print(os.path.join(sys.prefix, 'etc', 'jupyter') in jupyter_config_path())")  # fmt: skip
    read = run([sys.executable, "-c", probe], timeout=60, env=elsewhere)
    assert read.strip().endswith("True"), read


def test_the_build_keeps_the_trust_postbuild_gave(tmp_path, monkeypatch):
    """A rebuilt notebook is a new file hash: tools/build_notebooks.py signs it in the database
    postBuild configured, so JupyterLab keeps showing its boards."""
    nbformat = pytest.importorskip("nbformat")
    from nbformat.sign import NotebookNotary

    sys.path.insert(0, str(REPO / "tools"))
    try:
        import build_notebooks
    finally:
        sys.path.remove(str(REPO / "tools"))
    config_dir = tmp_path / "config"
    notary_files = {"db_file": str(tmp_path / "trust" / "db"), "secret_file": str(tmp_path / "trust" / "secret")}
    (tmp_path / "trust").mkdir()
    config_dir.mkdir()
    (config_dir / "jupyter_server_config.json").write_text(json.dumps({"NotebookNotary": notary_files}))
    target = tmp_path / "00_indice.ipynb"
    nb = nbformat.read(REPO / "notebooks" / "00_indice.ipynb", as_version=4)
    nb.cells[0].source += "\n# rebuilt"
    nbformat.write(nb, target)
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(tmp_path / "elsewhere"))
    assert not build_notebooks.sign_for_this_environment(target)  # postBuild has not run there
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(config_dir))
    assert build_notebooks.sign_for_this_environment(target)
    assert NotebookNotary(**notary_files).check_signature(nbformat.read(target, as_version=4))


def test_postbuild_leaves_a_clone_without_changes_where_python_differs(tmp_path):
    """Where the teacher's Python is not the one the notebooks were built with, postBuild still
    writes its language_info (JupyterLab then opens them unmodified), but `git status` shows no
    change and a real edit still shows: the clone's own clean filter, no tracked file touched."""
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("jupyterlab")
    from ipykernel.ipkernel import IPythonKernel

    repo = tmp_path / "repo"
    copy = copy_for_postbuild(repo)
    (repo / "tools").mkdir()
    shutil.copy2(REPO / "tools" / "notebook_language.py", repo / "tools")
    for path in (repo / "notebooks").glob("*.ipynb"):  # built with another Python
        nb = nbformat.read(path, as_version=4)
        nb.metadata["language_info"] = {**nb.metadata.get("language_info", {}), "version": "3.0.0"}
        nbformat.write(nb, path)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    run([*git, "init", "-q"], timeout=60)
    run([*git, "add", "-A"], timeout=60)
    run([*git, "commit", "-q", "-m", "lessons"], timeout=60)
    config = tmp_path / "config"
    config.mkdir()
    env = {**os.environ, "JUPYTERLAB_DIR": str(tmp_path / "lab"), "JUPYTER_CONFIG_DIR": str(config)}
    for _ in range(2):  # run twice: the attribute line is written once
        run([sys.executable, str(copy)], timeout=120, env=env, cwd=repo)
    index = nbformat.read(repo / "notebooks" / "00_indice.ipynb", as_version=4)
    assert index.metadata["language_info"] == IPythonKernel.language_info  # rewritten on disk
    assert run([*git, "status", "--porcelain"], timeout=60) == ""
    assert run([*git, "diff", "--stat"], timeout=60) == ""
    assert run([*git, "config", "--list", "--local"], timeout=60).count("solitaire-nb-language-info") == 1
    attributes = (repo / ".git" / "info" / "attributes").read_text(encoding="utf-8")
    assert attributes.count("filter=solitaire-nb-language-info") == 1
    index.cells[0].source += "\nUna línea nueva."
    nbformat.write(index, repo / "notebooks" / "00_indice.ipynb")
    assert run([*git, "status", "--porcelain"], timeout=60).split() == ["M", "notebooks/00_indice.ipynb"]


def test_the_language_filter_hides_only_language_info():
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import notebook_language
    finally:
        sys.path.remove(str(REPO / "tools"))
    saved = b'{"cells": [], "metadata": {"language_info": {"version": "3.11.2"}}}'
    other_python = b'{\n "cells": [],\n "metadata": {"language_info": {"version": "3.12.1"}}\n}'
    edited = b'{"cells": [1], "metadata": {"language_info": {"version": "3.12.1"}}}'
    assert notebook_language.clean(other_python, saved) == saved
    assert notebook_language.clean(edited, saved) == edited
    assert notebook_language.clean(b"not json", saved) == b"not json"
    assert notebook_language.clean(other_python, None) == other_python  # a new file


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
    # As repo2docker runs it; on a copy, since it rewrites and signs the notebooks next to it.
    root = tmp_path / "root"
    run([str(copy_for_postbuild(root))], timeout=600, env=env, cwd=root)
    assert "voila" in run([py, "-m", "pip", "list"], timeout=120, env=env).lower()
    installed = time.monotonic()

    # 2. JupyterLab from that environment serves the index notebook.
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
