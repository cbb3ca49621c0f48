"""Ten students press «¿Tiene solución?» at the same moment on the same deal, as the kernels of a
class do (`python -m solitaire_nb.classroom`): without the shared verdict cache and with it, in the
same run.  Prints a table for benchmarks/RESULTS.md («Veredictos compartidos»).

Each student is its own process (a kernel) with its own board (``sn.play``), built before the
moment everyone presses; the press is the board's own button message, so the verdict is the
sentence a student reads.  With the cache every process points at one fresh file, as the launcher
points its kernels (``SNB_VERDICT_CACHE``); ``--segundos`` is the launcher's class budget
(``SNB_SOLVER_SECONDS``).  A row counts the sentences: with a solution, without, undecided, and
among the undecided those that say the computer was busy.

    python benchmarks/bench_verdict_cache.py [--alumnos 10] [--segundos 5 2] [--juego citadel] [--partida 2026]
                                             [--guardada | --solo-guardada]

``--guardada`` adds a row where the first answer is already in the cache (decided without a time
limit and stored, as when one kernel had the processor to itself): the time the others wait.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import tempfile
import time
from pathlib import Path


def _student(args: tuple) -> tuple[str, float, float]:
    """One kernel: its board, then «¿Tiene solución?» at `start_at`; (message, wall s, CPU s)."""
    game, seed, cache, seconds, start_at = args
    os.environ["SNB_VERDICT_CACHE"] = cache
    if seconds is not None:
        os.environ["SNB_SOLVER_SECONDS"] = str(seconds)
    import solitaire_nb as sn

    board = sn.play(game, seed=seed)
    while time.time() < start_at:
        time.sleep(0.005)
    t0, c0 = time.perf_counter(), time.process_time()
    board._handle_custom_msg({"event": "button", "name": "solvable"}, [])
    return board.view["message"], time.perf_counter() - t0, time.process_time() - c0


def kind(message: str) -> str:
    if message.startswith("Tiene solución") or message.startswith("¡Ganada"):
        return "won"
    if "no tiene solución" in message.lower():
        return "lost"
    return "busy" if "muy ocupado" in message else "unknown"


def stored_first(path: str, game: str, seed: int) -> None:
    """The first student's search, decided and stored (as when one kernel had the processor to
    itself): the verdict without a time limit, put in the class's cache."""
    import solitaire_nb as sn
    from solitaire_nb.solver import solve
    from solitaire_nb.solver import verdict_cache as vc

    g = sn.new_game(game, seed=seed)
    r = solve(g.copy())
    cache = vc.VerdictCache(path)
    cache.put(vc.position_key(g), r.status, [str(m) for m in r.moves], 60.0, r.states)
    cache.close()


def run(
    k: int, game: str, seed: int, cached: bool, seconds: float | None, stored: bool = False
) -> list[tuple[str, float, float]]:
    with tempfile.TemporaryDirectory(prefix="bench-veredictos-") as tmp:
        cache = str(Path(tmp) / "clase.sqlite") if cached else "off"
        if stored:
            stored_first(cache, game, seed)
        with multiprocessing.get_context("spawn").Pool(k) as pool:
            start_at = time.time() + 4.0 + 0.3 * k  # every board built before anyone presses
            return pool.map(_student, [(game, seed, cache, seconds, start_at)] * k)


def print_row(cache: str, seconds: str, k: int, rows: list, digits: int, sample: dict) -> None:
    """One row of the table (waits with `digits` decimals); each kind of answer's first message
    goes into `sample`."""
    kinds = [kind(r[0]) for r in rows]
    n = {x: kinds.count(x) for x in ("won", "lost", "unknown", "busy")}
    waits = [r[1] for r in rows]
    print(
        f"| {cache} | {seconds} | {k} | {n['won']} | {n['lost']} | {n['unknown'] + n['busy']} | {n['busy']} | "
        f"{statistics.median(waits):.{digits}f} | {max(waits):.{digits}f} | {sum(r[2] for r in rows):.1f} |",
        flush=True,
    )
    for r in rows:
        sample.setdefault(kind(r[0]), r[0])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--alumnos", type=int, default=10)
    p.add_argument(
        "--segundos", type=float, nargs="*", default=[5.0, 2.0], help="class budgets (5: the board's default)"
    )
    p.add_argument("--juego", default="citadel")
    p.add_argument("--partida", type=int, default=2026)
    p.add_argument("--guardada", action="store_true", help="also: the first answer already stored, then K press")
    p.add_argument("--solo-guardada", action="store_true", help="only that row")
    a = p.parse_args(argv)
    print(f"# bench_verdict_cache  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  {a.juego} n.º {a.partida}")
    print(f"# load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}  ({os.cpu_count()} cores)\n")
    print(
        "| caché | segundos | a la vez | con solución | sin solución | sin decidir | «muy ocupado» | "
        "mediana de espera (s) | máx. (s) | CPU de todos (s) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    sample = {}
    a.guardada = a.guardada or a.solo_guardada
    for seconds in [] if a.solo_guardada else a.segundos:
        for cached in (False, True):
            for k in (1, a.alumnos):
                rows = run(k, a.juego, a.partida, cached, None if seconds == 5.0 else seconds)
                print_row("sí" if cached else "no", f"{seconds:g}", k, rows, 1, sample)
    if a.guardada:
        rows = run(a.alumnos, a.juego, a.partida, True, None, stored=True)
        print_row("sí, con la respuesta ya guardada", "5", a.alumnos, rows, 2, sample)
    print(f"\n# load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for key, message in sample.items():
        print(f"# {key}: «{message}»")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
