"""«Inventa tu juego» for a class: K pairs at once, each in its own kernel as the class launcher
runs them (``SNB_LAB_WORKERS=1``: the lab solves in the kernel itself), each composing a game
that is not stored with the package and pressing «¿Cuántas se pueden ganar?» at the same moment.
Prints a table for benchmarks/RESULTS.md («Inventa tu juego con una clase»).

Each kernel first runs notebook 08 as a student's page runs it (cells tagged "docente" left
out), which gives the memory of a real page and the time a class waits for its pages when
they are prepared together; then every kernel builds `Lab(like, **changes)` and presses the
button.  Per pair: seconds from the press until the counts of deals 1–20 of both games are on
the page and until all of deals 1–100 are (or «—» when the cap `--tope` came first: the pair
then reads the deals shown so far, as the page does), the composed game's three counts, and
the kernel's memory (PSS, peak while solving).  The load average is printed: the machine is
shared, and its seconds are pessimistic when it is loaded.

    nice python benchmarks/bench_lab_class.py [--parejas 15] [--tope 900] [--sin-cuaderno]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from queue import Empty

import nbformat
import psutil
from jupyter_client import KernelManager

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "notebooks" / "08_laboratorio.ipynb"

# Fifteen compositions of two changed rules, as pairs make them in «Inventa tu juego» (none is
# stored with the package: each is solved on the press).
COMPOSITIONS: list[tuple[str, dict]] = [
    ("scotch", {"columns": 13, "empty": "any"}),
    ("scotch", {"build": "updown", "takeback": False}),
    ("scotch", {"empty": "king", "runs": True}),
    ("scotch", {"columns": 10, "autoplay": True}),
    ("scotch", {"deal_to_foundations": True, "autoplay": True}),
    ("bakers_dozen", {"columns": 12, "suits": "any"}),
    ("bakers_dozen", {"empty": "any", "kings_to_bottom": False}),
    ("bakers_dozen", {"build": "updown", "columns": 14}),
    ("citadel", {"suits": "alt", "columns": 10}),
    ("citadel", {"empty": "king", "columns": 9}),
    ("citadel", {"autoplay": False, "columns": 7}),
    ("beleaguered_castle", {"columns": 9, "suits": "same"}),
    ("beleaguered_castle", {"deal_to_foundations": True, "columns": 10}),
    ("beleaguered_castle", {"runs": True, "empty": "king"}),
    ("beleaguered_castle", {"build": "updown", "columns": 7}),
]

# What each kernel runs on the press: the lab as the notebook builds it, its button, and the
# moments the first 20 and all the deals of both games are shown.
PRESS = """
import json as _json, time as _time
from solitaire_nb.board.lab import Lab as _Lab
_lab = _Lab({like!r}, seed=2026, **{changes!r})
_seen = {{}}
_show = _lab._show_wins
def _spy(note="", partial=None):
    _show(note, partial)
    if partial is not None:
        _k = min(len(v) for v in partial)
        _seen["mine"] = partial[0]
        for _m in (20, 100):
            if _k >= _m:
                _seen.setdefault(_m, _time.time())
_lab._show_wins = _spy
_t0 = _time.time()
_thread = _lab.count_wins()
_thread.join({cap})
_lab.stop()
_v = _seen.get("mine", ())
print(_json.dumps({{"game": _lab.game.name, "t0": _t0, "first20": _seen.get(20), "all": _seen.get(100),
                   "solved": len(_v), "won": _v.count("won"), "lost": _v.count("lost"),
                   "unknown": _v.count("unknown")}}))
"""


def pss_mb(pid: int) -> float:
    with contextlib.suppress(psutil.Error):
        info = psutil.Process(pid).memory_full_info()
        return getattr(info, "pss", info.rss) / 2**20
    return 0.0


def student_cells() -> list[str]:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    return [c.source for c in nb.cells
            if c.cell_type == "code" and "docente" not in c.get("metadata", {}).get("tags", [])]


def run(kc, code: str, timeout: float) -> str:
    """Execute `code` in a kernel and return what it printed (an error's text if it raised)."""
    msg_id = kc.execute(code, store_history=False)
    out: list[str] = []
    deadline = time.time() + timeout
    while True:
        try:
            msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        except Empty:
            return "".join(out) + " [sin respuesta]"
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            out.append(f"ERROR {content['ename']}: {content['evalue']}")
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(out)


def checked_compositions(k: int) -> list[tuple[str, dict, str]]:
    from solitaire_nb.atlas import lab_sample
    from solitaire_nb.games import custom

    out = []
    for like, changes in COMPOSITIONS[:k]:
        game = custom.custom(like, **changes)
        if lab_sample.stored_sample(game, lab_sample.SAMPLE, lab_sample.MAX_STATES) is not None:
            raise SystemExit(f"{game.name} está guardado: el benchmark mide juegos que se resuelven al pulsar")
        out.append((like, changes, game.name))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--parejas", type=int, default=15, help=f"pairs, one kernel each (≤ {len(COMPOSITIONS)})")
    p.add_argument("--tope", type=float, default=900, help="seconds a pair waits before «Detener»")
    p.add_argument("--sin-cuaderno", action="store_true", help="do not run notebook 08 in the kernels first")
    a = p.parse_args(argv)
    pairs = checked_compositions(min(a.parejas, len(COMPOSITIONS)))
    print(f"# bench_lab_class  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  {len(pairs)} pairs, "
          f"SNB_LAB_WORKERS=1, cap {a.tope:.0f} s, nice {os.nice(0)}")
    print(f"# load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}  ({os.cpu_count()} cores)\n",
          flush=True)
    env = {**os.environ, "PYTHONPATH": str(REPO), "SNB_LAB_WORKERS": "1", "SNB_VERDICT_CACHE": "off"}
    env.pop("MPLBACKEND", None)
    managers, clients = [], []
    t_start = time.time()
    try:
        for _ in pairs:
            km = KernelManager(kernel_name="python3")
            km.start_kernel(env=env, cwd=str(NOTEBOOK.parent))
            kc = km.client()
            kc.start_channels()
            managers.append(km)
            clients.append(kc)
        for kc in clients:
            kc.wait_for_ready(timeout=600)
        cpu_before = {i: psutil.Process(km.provisioner.pid).cpu_times() for i, km in enumerate(managers)}

        # Every kernel runs the student's page of 08 at the same time, as a class's pages do.
        page_seconds: dict[int, float] = {}
        if not a.sin_cuaderno:
            code = "\n\n".join(student_cells())
            code = code.replace("sys.platform == \"emscripten\"", "False")

            def page(i: int) -> None:
                said = run(clients[i], code, 1800)
                page_seconds[i] = time.time() - t_start
                if "ERROR" in said:
                    print(f"# kernel {i + 1}: {said.strip()[:300]}", flush=True)

            threads = [threading.Thread(target=page, args=(i,)) for i in range(len(pairs))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        mb_page = [pss_mb(km.provisioner.pid) for km in managers]
        print(f"# {len(pairs)} kernels started and notebook 08 run in each: {time.time() - t_start:.1f} s "
              f"(first {min(page_seconds.values(), default=0):.1f} s); memory {sum(mb_page):.0f} MB "
              f"({statistics.median(mb_page):.0f} MB a kernel, median)", flush=True)

        # The press, at once in every kernel.
        peak = [0.0] * len(pairs)
        results: dict[int, dict] = {}
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.5):
                for i, km in enumerate(managers):
                    peak[i] = max(peak[i], pss_mb(km.provisioner.pid))

        def press(i: int) -> None:
            like, changes, _name = pairs[i]
            said = run(clients[i], PRESS.format(like=like, changes=changes, cap=a.tope), a.tope + 600)
            try:
                results[i] = json.loads(said.strip().splitlines()[-1])
            except (ValueError, IndexError):
                results[i] = {"error": said.strip()[:300]}

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        t_press = time.time()
        threads = [threading.Thread(target=press, args=(i,)) for i in range(len(pairs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        done.set()
        wall = time.time() - t_press
        cpu = sum(sum(psutil.Process(km.provisioner.pid).cpu_times()[:2]) - sum(cpu_before[i][:2])
                  for i, km in enumerate(managers))
    finally:
        for kc in clients:
            kc.stop_channels()
        for km in managers:
            with contextlib.suppress(Exception):
                km.shutdown_kernel(now=True)

    print("| pareja | juego compuesto | 1–20 de los dos (s) | 1–100 de los dos (s) | resueltas | tu juego: con / sin / sin decidir | memoria del núcleo, pico (MB) |")
    print("|---:|---|---:|---:|---:|---|---:|")
    firsts, alls = [], []
    for i, (_like, _changes, name) in enumerate(pairs):
        r = results.get(i, {})
        if "error" in r:
            print(f"| {i + 1} | {name} | error: {r['error']} | | | | |")
            continue
        f20 = None if r.get("first20") is None else r["first20"] - r["t0"]
        f100 = None if r.get("all") is None else r["all"] - r["t0"]
        firsts.append(f20)
        alls.append(f100)
        fmt = lambda x: "—" if x is None else f"{x:.0f}"  # noqa: E731
        print(f"| {i + 1} | {name} | {fmt(f20)} | {fmt(f100)} | {r.get('solved', 0)} | "
              f"{r.get('won', 0)} / {r.get('lost', 0)} / {r.get('unknown', 0)} | {peak[i]:.0f} |", flush=True)
    got20 = sorted(x for x in firsts if x is not None)
    got100 = sorted(x for x in alls if x is not None)
    print(f"\n# first 20 deals: {len(got20)} of {len(pairs)} pairs within the cap"
          + (f", median {statistics.median(got20):.0f} s, last {got20[-1]:.0f} s" if got20 else ""))
    print(f"# all 100 deals: {len(got100)} of {len(pairs)} pairs within the cap"
          + (f", median {statistics.median(got100):.0f} s, last {got100[-1]:.0f} s" if got100 else ""))
    print(f"# press → last pair done or stopped: {wall:.0f} s; processor time of the kernels {cpu:.0f} s; "
          f"memory of the kernels at the peak {sum(peak):.0f} MB")
    print(f"# load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
