"""Helpers that keep tests correct when pytest-xdist runs them in several worker processes
(the README's test command uses ``-n auto --dist loadgroup``).

- `group_for_xdist(config, items)`: keeps together the tests of a module that share a
  module- or session-scoped fixture (tests/conftest.py calls it from its collection hook).
- `free_port()`: a free TCP port on 127.0.0.1 for a server a test starts (never a fixed port
  such as 8866 or 8888: two workers would take the same one).
- `run_dir(tmp_path_factory)`: a folder shared by every worker of this pytest run (the
  run's own base temporary folder, never /tmp or the repository), for what is built once.
- `run_lock(tmp_path_factory, name)`: a lock held across the run's workers, for a step that
  must not run twice at the same time (a shared cache such as lite/.cache, a shared file).
- `once_per_run(tmp_path_factory, name, make)`: `make(folder)` runs once per run, in whichever
  worker asks first, while the others wait and then get the same folder; a failure is recorded
  so that the others fail at once with the same message instead of building again.

Each test's own files go to pytest's `tmp_path` / `tmp_path_factory.mktemp(...)`, which are
per worker. Without xdist the helpers work the same, in one process.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Fixtures of a wider scope that every worker may build for itself: cheap, shared by many modules.
PER_WORKER_FIXTURES = {"playwright_session", "chromium", "tmp_path_factory", "worker_id", "testrun_uid"}


def group_for_xdist(config: pytest.Config, items: list[pytest.Item]) -> None:
    """For `pytest_collection_modifyitems` under `--dist loadgroup` (tests/conftest.py): a test
    that uses a module-, class- or session-scoped fixture (a server, a built site) runs in the
    same worker as the rest of its module, so that the fixture is built once; the other tests
    are spread one by one. Tests marked `slow` are handed out first, so that none of them
    starts last and runs alone."""
    # The controller sees `--dist loadgroup`; xdist's workers, which collect, see `loadgroup`.
    if config.getoption("dist", "no") != "loadgroup" and not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.items() if info is not None else ()
        shared = any(
            name not in PER_WORKER_FIXTURES and any(getattr(d, "scope", "function") != "function" for d in fixturedefs)
            for name, fixturedefs in defs
        )
        if shared and not any(item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
    if "PYTEST_XDIST_WORKER" in os.environ:  # one process would split a module's fixture in two
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow ones first


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (the system picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker_id() -> str:
    """"gw0", "gw1"… under xdist; "main" without it."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this run shares: under xdist each worker's base temporary
    folder is `<run>/popen-gwN`, so the run's is its parent."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if "PYTEST_XDIST_WORKER" in os.environ else base
    (shared / "shared").mkdir(exist_ok=True)
    return shared / "shared"


@contextlib.contextmanager
def run_lock(tmp_path_factory: pytest.TempPathFactory, name: str, timeout: float = 1800) -> Iterator[None]:
    """Hold the run-wide lock called `name` (waiting up to `timeout` seconds for it)."""
    # The test extra; imported here, so that a run without extras skips only what takes a lock.
    FileLock = pytest.importorskip("filelock").FileLock  # noqa: N806

    with FileLock(str(run_dir(tmp_path_factory) / f"{name}.lock"), timeout=timeout):
        yield


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], object], timeout: float = 1800
) -> tuple[Path, object]:
    """(the folder `name` in the run's shared folder, what `make` returned there, as JSON).

    `make(folder)` gets an empty folder and runs once per run; its return value must be
    JSON-serialisable (the other workers read it back). If it raised, every later call raises
    an AssertionError naming the first failure (a skip is replayed as the same skip)."""
    folder = run_dir(tmp_path_factory) / name
    record = folder.with_suffix(".json")
    with run_lock(tmp_path_factory, name, timeout):
        if not record.exists():
            folder.mkdir(exist_ok=True)
            started = time.monotonic()
            try:
                value = make(folder)
            except pytest.skip.Exception as exc:
                record.write_text(json.dumps({"skip": str(exc)}))
                raise
            except BaseException as exc:
                record.write_text(json.dumps({"error": f"{type(exc).__name__}: {exc}"[-4000:]}))
                raise
            record.write_text(json.dumps({"value": value, "seconds": time.monotonic() - started, "by": worker_id()}))
        done = json.loads(record.read_text())
    if "skip" in done:
        pytest.skip(done["skip"])
    if "error" in done:
        raise AssertionError(f"{name} failed earlier in this run (in another test or worker): {done['error']}")
    return folder, done["value"]
