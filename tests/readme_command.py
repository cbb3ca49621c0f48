"""The README's two commands (section «Dos órdenes»), read from README.md so that the tests
and the README cannot drift apart, and the virtual environment it builds with the system's
Python (Debian's /usr/bin/python3, where pip refuses to install outside a virtual environment).

`readme_install(tmp_path_factory)` runs the command's install part exactly as the README writes
it, once per test run (shared by the xdist workers), in a copy of the repository (tracked and untracked files, without what
.gitignore leaves out); `lab_command` is the command's last part (`jupyter lab …`) plus the
flags a test needs (no browser, a free port, a token). Both tests/test_install.py and the
browser test tests/browser/test_lab_spanish.py use the same environment.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from parallel import free_port, once_per_run

REPO = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = Path("/usr/bin/python3")
INSTALL_TIMEOUT = 1500  # seconds; pip downloads JupyterLab, NumPy and matplotlib on a cold cache
# The tests that use the README's .venv run one after the other in one xdist worker: one of them
# pip-installs the test extra into that .venv, which the others' JupyterLab runs from.
SAME_VENV = pytest.mark.xdist_group("readme-venv")


def _commands() -> list[str]:
    """The ```bash blocks of README.md's «Dos órdenes» section, each as one line."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Dos órdenes", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    assert len(blocks) == 2, "README.md: «Dos órdenes» has not two ```bash blocks"
    return [" ".join(block.split()) for block in blocks]


def first_command() -> str:
    """The README's first command: install and open the notebooks."""
    return _commands()[0]


def second_command() -> str:
    """The README's second command, the test command: install the test extras, run every test."""
    return _commands()[1]


def split_test_command() -> tuple[str, list[str]]:
    """(the test command's install part, as the README writes it; its last part, `… -m pytest …`,
    as argv)."""
    install, _, run = second_command().rpartition(" && ")
    argv = shlex.split(run)
    assert install and argv[1:3] == ["-m", "pytest"], second_command()
    return install, argv


def split_command() -> tuple[str, list[str]]:
    """(install part, as the README writes it; the last part, `jupyter lab …`, as argv)."""
    command = first_command()
    install, _, launch = command.rpartition(" && ")
    argv = shlex.split(launch)
    assert install and argv[1:2] == ["lab"] and argv[0].endswith("jupyter"), command
    return install, argv


def opened_path() -> str:
    """The path, in JupyterLab's URLs, of the notebook the README's command opens: given a
    file, Jupyter Server serves the file's folder (so `notebooks/00_indice.ipynb` is
    `/lab/tree/00_indice.ipynb`)."""
    _, argv = split_command()
    files = [a for a in argv[2:] if not a.startswith("-")]
    assert len(files) == 1 and (REPO / files[0]).is_file(), argv
    return Path(files[0]).name


def require(condition: bool, message: str) -> None:
    """Skip with `message` when `condition` fails, but fail in CI (CI=true), where the system's
    Python and its venv module are installed on purpose (.ci/run)."""
    if condition:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message}; en CI esta prueba es obligatoria", pytrace=False)
    pytest.skip(message)


def package_index() -> str:
    """The package index pip downloads from (PIP_INDEX_URL, else PyPI's)."""
    return os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/") + "/"


def require_network() -> None:
    """Skip, saying so, when the package index cannot be reached: the README's install
    downloads JupyterLab, NumPy and matplotlib from it. (Not a CI failure: without the index
    .ci/run cannot install the test extra either.)"""
    url = package_index() + "pip/"
    try:
        with urllib.request.urlopen(url, timeout=20) as r:
            if r.status == 200:
                return
            reason = f"HTTP {r.status}"
    except OSError as exc:
        reason = str(getattr(exc, "reason", exc))
    pytest.skip(f"sin red: no se llega al índice de paquetes {url} ({reason}), y la orden del README instala de ahí")


def clean_env(home: Path, path: str) -> dict[str, str]:
    """No trace of the test run's own Python, and Jupyter's user directories in `home`, so the
    user's own settings and kernels neither help nor hinder."""
    drop = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "MPLBACKEND", "CONDA_PREFIX")
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("JUPYTER")}
    env["PATH"] = path
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR",
                "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR"):  # fmt: skip
        (home / var.lower()).mkdir(parents=True, exist_ok=True)
        env[var] = str(home / var.lower())
    return env


def copy_repository(target: Path) -> None:
    """The files git would see (tracked or untracked, not ignored): no .git, .venv or caches."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():  # a tracked file deleted in the worktree is not copied
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


@dataclass
class ReadmeInstall:
    root: Path  # the repository copy the command ran in (its working directory)
    home: Path  # Jupyter's user directories for servers started from it
    seconds: float  # how long the install part took
    output: str

    def env(self) -> dict[str, str]:
        return clean_env(self.home, f"{self.root / '.venv' / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin")

    def record(self) -> dict[str, float | str]:
        """What another worker needs besides the folder (see `readme_install`)."""
        return {"seconds": self.seconds, "output": self.output[-20_000:]}

    def run(self, argv: list[str], timeout: float = 120) -> str:
        proc = subprocess.run(argv, cwd=self.root, env=self.env(), capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, f"{shlex.join(argv)} failed:\n{(proc.stdout + proc.stderr)[-3000:]}"
        return proc.stdout + proc.stderr


_DONE: dict[str, ReadmeInstall | BaseException] = {}


def readme_install(where: pytest.TempPathFactory | Path) -> ReadmeInstall:
    """Run the README's install part with /usr/bin/python3 first on PATH, once per test run.

    Given pytest's `tmp_path_factory`, the install is made once for the whole run, in the
    folder every xdist worker shares (tests/parallel.py), and reused by every test of every
    worker; given a folder, once per process, there."""
    require(SYSTEM_PYTHON.exists(), f"{SYSTEM_PYTHON} no existe (la orden del README usa el Python del sistema)")
    probe = subprocess.run([str(SYSTEM_PYTHON), "-c", "import venv, ensurepip"], capture_output=True, text=True)
    require(probe.returncode == 0, f"{SYSTEM_PYTHON} no tiene venv/ensurepip: sudo apt install python3-venv")
    require_network()
    if not isinstance(where, Path):
        folder, done = once_per_run(where, "readme-install", lambda base: _install(base).record(), INSTALL_TIMEOUT + 300)
        return ReadmeInstall(folder / "repo", folder / "home", done["seconds"], done["output"])
    if "done" not in _DONE:
        try:
            _DONE["done"] = _install(where)
        except BaseException as exc:  # the second test reports the same failure, fast
            _DONE["done"] = exc
            raise
    done = _DONE["done"]
    if isinstance(done, BaseException):
        raise AssertionError(f"the README's install part failed earlier in this session: {done}")
    return done


def _install(base: Path) -> ReadmeInstall:
    root, home = base / "repo", base / "home"
    root.mkdir(parents=True)
    copy_repository(root)
    install, _ = split_command()
    # `python3` must be the system's: its directory comes first, and nothing of pyenv/conda.
    env = clean_env(home, f"{SYSTEM_PYTHON.parent}{os.pathsep}/bin")
    # A teacher's shell has no JUPYTER_CONFIG_DIR: binder/postBuild then writes the server's
    # configuration (Voila's pages, the notebooks' trust database) into the environment, where
    # every later `jupyter lab`, whatever its user folders, reads it (lab_server's are fresh).
    del env["JUPYTER_CONFIG_DIR"]
    started = time.monotonic()
    proc = subprocess.run(["bash", "-c", install], cwd=root, env=env, capture_output=True, text=True,
                          timeout=INSTALL_TIMEOUT)  # fmt: skip
    out = proc.stdout + proc.stderr
    if proc.returncode and "ensurepip" in out:
        require(False, f"{SYSTEM_PYTHON} -m venv falla sin python3-venv (sudo apt install python3-venv)")
    assert proc.returncode == 0, f"the README's install part failed ({install}):\n{out[-4000:]}"
    return ReadmeInstall(root, home, time.monotonic() - started, out)


def lab_command(port: int, token: str) -> list[str]:
    """The README's `jupyter lab …` with what a test adds: no browser, this port, this token."""
    _, argv = split_command()
    return [*argv, "--no-browser", "--allow-root", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]  # fmt: skip


@contextlib.contextmanager
def lab_server(install: ReadmeInstall, token: str, timeout: float = 120) -> Iterator[str]:
    """Start JupyterLab the README's way in the repository copy; yield its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = install.home / f"lab-{port}.log"
    # Jupyter's user folders of its own: another worker's server may share the repository copy.
    env = clean_env(install.home / f"lab-{port}", install.env()["PATH"])
    with open(log, "wb") as out:
        lab = subprocess.Popen(lab_command(port, token), cwd=install.root, env=env, stdout=out,
                               stderr=subprocess.STDOUT)  # fmt: skip
        try:
            deadline = time.monotonic() + timeout
            while True:
                assert lab.poll() is None, f"JupyterLab exited:\n{log.read_text(errors='replace')[-3000:]}"
                assert time.monotonic() < deadline, f"JupyterLab did not answer:\n{log.read_text(errors='replace')[-3000:]}"
                try:
                    with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5):
                        break
                except OSError:
                    time.sleep(0.5)
            yield base
        finally:
            lab.terminate()  # only the server started here, by its own handle
            try:
                lab.wait(timeout=15)
            except subprocess.TimeoutExpired:
                lab.kill()
                lab.wait(timeout=5)
