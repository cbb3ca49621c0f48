"""Throughput and memory of the paired Citadel / Beleaguered Castle study (issue 5).

Runs `solitaire_nb.study.simulate` for growing numbers of deals, each dealt both ways, and
prints a table: wall time, deals per second, the peak of memory NumPy and Python allocated
during the run (tracemalloc: the arrays NumPy allocates are traced too) and the process's peak
resident memory (getrusage, includes the interpreter and the libraries).  Also times the
engine path (`simulate_engine`) on a sample, for comparison.  Target: 1,000,000 paired deals
in under 10 s and under 1 GiB on a 2-core machine.  Timings are noisy on a shared machine:
each size runs `--repeat` times and the best time is shown, with its CPU time (less
sensitive to other processes than the wall clock).

    python benchmarks/bench_study.py [--sizes 10000 100000 1000000] [--repeat 3] [--chunk 50000]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc

from solitaire_nb import study


def timed(n: int, chunk: int) -> tuple[float, float]:
    """Wall and CPU seconds of one `simulate(n)` (not traced: tracing slows NumPy down)."""
    wall, cpu = time.perf_counter(), time.process_time()
    results = study.simulate(n, seed=1, chunk=chunk)
    assert results.n == n
    return time.perf_counter() - wall, time.process_time() - cpu


def traced_peak(n: int, chunk: int) -> int:
    """Peak bytes allocated (tracemalloc) during one `simulate(n)`, results included."""
    tracemalloc.start()
    study.simulate(n, seed=1, chunk=chunk)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def max_rss_mib() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if sys.platform == "darwin" else rss / 1024  # bytes on macOS, KiB on Linux


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=50_000)
    ap.add_argument("--engine-sample", type=int, default=1000)
    args = ap.parse_args()

    study.simulate(1000, seed=0)  # warm up imports and NumPy
    print(f"{'repartos':>10} {'s (reloj)':>10} {'s (CPU)':>8} {'repartos/s':>11} "
          f"{'pico NumPy (MiB)':>17} {'pico proceso (MiB)':>19}")
    for n in args.sizes:
        wall, cpu = min(timed(n, args.chunk) for _ in range(args.repeat))
        peak = traced_peak(n, args.chunk)
        print(f"{n:>10,} {wall:>10.2f} {cpu:>8.2f} {n / wall:>11,.0f} {peak / 2**20:>17.1f} {max_rss_mib():>19.1f}")

    decks = study.draw_decks(args.engine_sample, seed=1)
    start = time.perf_counter()
    study.simulate_engine(decks)
    seconds = time.perf_counter() - start
    print(f"\nmotor de reglas (3 partidas por baraja): {args.engine_sample:,} barajas en {seconds:.2f} s, "
          f"{args.engine_sample / seconds:,.0f} barajas/s")


if __name__ == "__main__":
    main()
