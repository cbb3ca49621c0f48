"""Time for one control change of the rules lab (`sn.lab`) to refresh everything it shows.

A change of a control composes the game (`custom`), deals its board (and, for the deal number,
the original's), recomputes the paired deal statistics of both games on 10,000 decks
(`compare`), writes their table and draws the compact plot.  All of it runs in the control's
callback, so the time of ``control.value = x`` is the time a reader waits.  The script builds
a lab on Beleaguered Castle and makes `--changes` changes, each to a game not seen before in
this process (so no cache helps), timing each; it prints one row per change, the median and
the median of the parts (compose + boards, statistics, plot) measured on the same games.
Target (issue 24): median ≤ 1 s.

With ``--a-la-vez K`` it measures a class instead: K processes (one per student's kernel), each
with its own lab built beforehand, change one control at the same moment (each a different
change of the list, in turn); it prints the seconds until each one's lab is refreshed (median,
max) and the load average.

    python benchmarks/bench_lab.py [--changes 10] [--like beleaguered_castle] [--a-la-vez 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from solitaire_nb.atlas import lab_measures as lab_work
from solitaire_nb.board.lab import Lab

# Ten changes of different controls, each giving a new game: (control, value).
CHANGES = [
    ("columns", 10),
    ("empty", "king"),
    ("suits", "alt"),
    ("aces_out", False),
    ("deal_to_foundations", True),
    ("autoplay", True),
    ("columns", 13),
    ("kings_to_bottom", True),
    ("foundation", "alt"),
    ("build", "updown"),
    ("runs", True),
    ("takeback", False),
]


def _one_student(args: tuple) -> tuple[float, float]:
    """One kernel: build the lab, wait for the common moment, change one control; (wall, cpu) s."""
    like, index, ready, start_at = args
    lab = Lab(like)
    ready.put(index)
    while time.time() < start_at.value:  # 0 until every lab is built
        time.sleep(0.01)
    key, value = CHANGES[index % len(CHANGES)]
    c0, t0 = time.process_time(), time.perf_counter()
    lab.controls[key].value = value
    return time.perf_counter() - t0, time.process_time() - c0


def at_once(like: str, k: int) -> None:
    """K labs (K processes) change a control at the same moment."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager:
        ready, start_at = manager.Queue(), manager.Value("d", float("inf"))
        with ctx.Pool(k) as pool:
            pending = pool.map_async(_one_student, [(like, i, ready, start_at) for i in range(k)])
            for _ in range(k):
                ready.get(timeout=1800)
            load = os.getloadavg()[0]
            start_at.value = time.time() + 1.0
            rows = pending.get(timeout=1800)
    walls, cpus = sorted(r[0] for r in rows), [r[1] for r in rows]
    print(f"Laboratorio de {like}: {k} núcleos cambian una regla a la vez "
          f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; carga antes {load:.1f}, "
          f"después {os.getloadavg()[0]:.1f}; {os.cpu_count()} núcleos del procesador)")  # fmt: skip
    print()
    print("| a la vez | mediana hasta recalculado (s) | máx. (s) | mediana de CPU de un cambio (s) |")
    print("|---:|---:|---:|---:|")
    print(f"| {k} | {statistics.median(walls):.2f} | {walls[-1]:.2f} | {statistics.median(cpus):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=10)
    parser.add_argument("--like", default="beleaguered_castle")
    parser.add_argument("--a-la-vez", type=int, default=0, dest="at_once", help="K kernels change a rule at once")
    args = parser.parse_args()
    if args.at_once:
        at_once(args.like, args.at_once)
        return
    lab = Lab(args.like)
    rows = []
    for key, value in CHANGES[: args.changes]:
        start = time.perf_counter()
        lab.controls[key].value = value
        total = time.perf_counter() - start
        # the parts, again on the game just composed (its definition is cached by then)
        t0 = time.perf_counter()
        lab_work.new_game(lab.game, lab.seed.value)
        t1 = time.perf_counter()
        cmp = lab_work.comparison(lab.base, lab.game)
        lab_work.stats_html(cmp)
        t2 = time.perf_counter()
        lab_work.plot_png(cmp)
        t3 = time.perf_counter()
        rows.append((f"{key} = {value}", total, t1 - t0, t2 - t1, t3 - t2))
    print(f"Laboratorio de {lab.base.display_name}: {len(rows)} cambios; carga media {os.getloadavg()[0]:.1f}")
    print()
    print("| cambio | total (s) | partida (s) | estadísticas 10.000 repartos (s) | gráfica (s) |")
    print("|---|---:|---:|---:|---:|")
    for name, *times in rows:
        print(f"| {name} | " + " | ".join(f"{t:.3f}" for t in times) + " |")
    medians = [statistics.median(r[i] for r in rows) for i in range(1, 5)]
    print("| **mediana** | " + " | ".join(f"**{t:.3f}**" for t in medians) + " |")


if __name__ == "__main__":
    main()
