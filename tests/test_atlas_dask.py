"""The atlas beyond one machine (issue 47): an atlas entry run by ``benchmarks/atlas.py --dask``
on a dask.distributed scheduler with two workers, each started as its own process by the
``dask scheduler`` / ``dask worker`` commands (on loopback, as on a school's machines), one of them
killed with SIGKILL while deals are in flight: the scheduler gives its deals to the other, and
the entry's file holds the same records as an in-process run."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from parallel import free_port

from solitaire_nb.atlas.executors import InProcessExecutor
from solitaire_nb.atlas.studyfile import read_records
from solitaire_nb.atlas.winrate import win_rate

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("dask")]
REPO = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).parent / "dask"  # the command the [dask] extra installs
KEY, DEALS = "citadel_sin_devolver", 10  # its first ten deals: a few seconds of solving


def atlas_script(monkeypatch):
    """benchmarks/atlas.py as a module (in sys.modules while the test runs: its dataclasses need it)."""
    spec = importlib.util.spec_from_file_location("atlas_script", REPO / "benchmarks" / "atlas.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two workers (``--no-nanny``: each worker is the process that can be killed),
    each its own process; {worker name: its process} and the scheduler's address."""
    distributed = pytest.importorskip("distributed")
    if not DASK.exists():
        pytest.skip("the dask command is not installed (extra [dask])")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    address = f"tcp://127.0.0.1:{free_port()}"
    procs: dict[str, subprocess.Popen] = {}

    def start(name: str, *args: str) -> None:
        with open(tmp_path / f"{name}.log", "w") as log:
            procs[name] = subprocess.Popen([str(DASK), *args], env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)

    try:
        start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--no-dashboard")
        for name in ("w1", "w2"):
            start(name, "worker", address, "--name", name, "--no-nanny", "--nthreads", "1", "--host", "127.0.0.1",
                  "--no-dashboard", "--death-timeout", "60")  # fmt: skip
        with distributed.Client(address, timeout=60) as watch:
            watch.wait_for_workers(2, timeout=60)
            yield address, procs, watch
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
            proc.wait(30)


def test_an_atlas_entry_on_a_dask_cluster_survives_a_killed_worker(cluster, tmp_path, monkeypatch):
    address, procs, watch = cluster
    atlas = atlas_script(monkeypatch)
    for name, path in (("REPO", tmp_path), ("CSV_DIR", tmp_path / "atlas"), ("SUMMARY", tmp_path / "atlas.json"),
                       ("PACKAGED", tmp_path / "paquete.json")):  # fmt: skip  (the repository's own files untouched)
        monkeypatch.setattr(atlas, name, path)
    entry = atlas.BY_KEY[KEY]
    killed: dict[str, int] = {}

    def kill_a_busy_worker() -> None:
        """Once the first record is on disk, SIGKILL the worker with the most deals in flight."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            if entry.csv.exists() and read_records(entry.csv)[1]:
                busy = {watch.scheduler_info()["workers"][w]["name"]: len(keys) for w, keys in watch.processing().items()
                        if w in watch.scheduler_info()["workers"]}  # fmt: skip
                name = max(busy, key=lambda n: busy[n], default=None)
                if name is not None and busy[name] > 0:
                    killed.update(worker=procs[name].pid, in_flight=busy[name], done=len(read_records(entry.csv)[1]))
                    os.kill(procs[name].pid, signal.SIGKILL)
                    return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_a_busy_worker, daemon=True)
    killer.start()
    atlas.main(["--entries", KEY, "--max-deals", str(DEALS), "--workers", "2", "--dask", address])
    killer.join(5)
    assert killed and killed["done"] < DEALS, killed  # killed mid-run, with deals of its own in flight
    assert next(p for p in procs.values() if p.pid == killed["worker"]).wait(10) == -signal.SIGKILL
    assert len(watch.scheduler_info()["workers"]) == 1  # the other one finished the entry

    deals = list(entry.deals)[:DEALS]
    _, records = read_records(entry.csv)
    local = win_rate(entry.game, deals, max_states=entry.max_states, executor=InProcessExecutor(), progress=False,
                     **entry.variant)  # fmt: skip
    assert sorted(r.same_verdict() for r in records) == sorted(r.same_verdict() for r in local.records)
    assert sorted(r.deal for r in records) == deals
