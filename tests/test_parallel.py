"""tests/parallel.py: what keeps the README's test command (`pytest -n auto --dist loadgroup`)
correct on several workers. A small throw-away suite runs on two xdist workers: a module's tests
that share a module-scoped fixture run in one worker, which builds it once; a step asked for by
tests in both workers runs once per run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from parallel import free_port, once_per_run, run_dir

pytest.importorskip("xdist")  # the test extra

TESTS = Path(__file__).resolve().parent

CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
import pytest
from parallel import group_for_xdist


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    group_for_xdist(config, items)
"""

SUITE = """
import os, time
from pathlib import Path
import pytest
from parallel import once_per_run

LOG = Path(os.environ["SNB_PARALLEL_LOG"])


def note(what):
    with open(LOG, "a") as f:
        f.write(f"{what} {os.environ.get('PYTEST_XDIST_WORKER', 'main')}\\n")


@pytest.fixture(scope="module")
def server():
    note("server")
    return "up"


@pytest.mark.parametrize("n", range(4))
def test_uses_the_server(server, n):
    time.sleep(0.2)
    note("server-test")


@pytest.mark.parametrize("n", range(8))
def test_asks_for_the_build(tmp_path_factory, n):
    time.sleep(0.3)
    folder, value = once_per_run(tmp_path_factory, "build", lambda f: (note("build"), (f / "x").write_text("1"), 7)[2])
    assert value == 7 and (folder / "x").read_text() == "1"
    note("build-test")


@pytest.mark.slow
def test_slow_one():
    note("slow")
"""


@pytest.mark.slow
def test_two_workers_share_a_module_fixture_and_a_build(tmp_path):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_suite.py").write_text(textwrap.dedent(SUITE))
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: slow\n")
    log = tmp_path / "log.txt"
    env = {**os.environ, "SNB_PARALLEL_LOG": str(log)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-p", "no:cacheprovider", "-q",
         "--basetemp", str(tmp_path / "base"), "test_suite.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    lines = [line.split() for line in log.read_text().splitlines()]
    events = [what for what, _ in lines]
    assert events.count("server") == 1 and events.count("build") == 1, lines
    assert len({who for what, who in lines if what in ("server", "server-test")}) == 1, lines
    assert events.count("build-test") == 8
    assert {who for _, who in lines} == {"gw0", "gw1"}, lines  # both workers took part
    assert events.index("slow") < 2, lines  # the slow test is handed out first


def test_once_per_run_builds_once_and_repeats_a_failure(tmp_path_factory):
    calls = []

    def make(folder: Path) -> dict:
        calls.append(folder)
        (folder / "built").write_text("ok")
        return {"n": 1}

    name = f"once-{os.getpid()}-{free_port()}"
    first = once_per_run(tmp_path_factory, name, make)
    again = once_per_run(tmp_path_factory, name, make)
    assert first == again == (run_dir(tmp_path_factory) / name, {"n": 1}) and len(calls) == 1
    assert json.loads((run_dir(tmp_path_factory) / f"{name}.json").read_text())["value"] == {"n": 1}

    def broken(folder: Path) -> None:
        raise RuntimeError("pip no llegó")

    with pytest.raises(RuntimeError, match="pip no llegó"):
        once_per_run(tmp_path_factory, name + "-broken", broken)
    with pytest.raises(AssertionError, match="failed earlier in this run.*pip no llegó"):
        once_per_run(tmp_path_factory, name + "-broken", make)

    def offline(folder: Path) -> None:
        pytest.skip("sin red")

    for _ in range(2):  # the skip is replayed, not turned into a failure
        with pytest.raises(pytest.skip.Exception, match="sin red"):
            once_per_run(tmp_path_factory, name + "-offline", offline)


def test_free_port_is_free():
    import socket

    port = free_port()
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))  # nothing holds it
