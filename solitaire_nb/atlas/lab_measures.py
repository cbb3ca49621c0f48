"""What the rules lab (`board/lab.py`) computes, without any widget: the games it shows, the
paired deal statistics as HTML, the compact plot as PNG bytes, and the «¿Cuántas se pueden
ganar?» sample: stored verdicts (``data/lab_samples.json``, written by ``tools/lab_samples.py``)
or solved deal by deal and shown as the verdicts arrive, stoppable between deals; always counted in three columns (with
solution, without, undecided), and deal by deal between two games.

Kept apart from the widget so that tests and benchmarks drive the same code the lab runs.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import io
import json
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.numbers_es import percent
from ..core.rules import GameDef
from ..engine import Game
from ..games import custom_texts as words

STATS_DEALS = 10_000
"""Decks dealt both ways for the lab's statistics."""
STATS_SEED = 1
SAMPLE = 100
"""Deals the «¿Cuántas se pueden ganar?» button solves per game (deals 1 to SAMPLE)."""
MAX_STATES = 20_000
"""The solver's budget per deal: the same verdicts on every machine."""
WORKERS_ENV = "SNB_LAB_WORKERS"
"""Environment variable with the lab's worker processes (the class launcher sets 1: thirty
kernels already share the processor)."""


def _workers() -> int:
    raw = os.environ.get(WORKERS_ENV, "")
    return int(raw) if raw.isdigit() and 1 <= int(raw) <= 16 else 2


WORKERS = _workers()
"""Processes that solve a sample the lab streams (2, one per core of a usual computer, unless
``SNB_LAB_WORKERS`` says otherwise; the verdicts do not depend on it)."""
SAMPLES_FILE = "lab_samples.json"
"""The stored sample verdicts (``solitaire_nb/data``), written by ``tools/lab_samples.py``."""

# The groups of controls the lab shows, each with the rule aspects whose sentences explain it.
GROUPS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("Reparto", ("columns", "aces_out", "kings_to_bottom"), ("deal",)),
    ("Tablero", ("build", "suits", "runs"), ("tableau",)),
    ("Huecos", ("empty",), ("empty",)),
    ("Bases", ("foundation",), ("foundation",)),
    ("Lo automático", ("deal_to_foundations", "autoplay"), ("deal_to_foundations", "autoplay")),
    ("Devolver cartas", ("takeback",), ("takeback",)),
)

# The Spanish labels of the controls and of the choices of each dropdown.
LABELS: dict[str, str] = {
    "columns": "Columnas",
    "build": "Construcción",
    "suits": "Palos",
    "runs": "Las secuencias se mueven enteras",
    "empty": "Un hueco admite",
    "foundation": "Las bases suben",
    "aces_out": "Los Ases empiezan en las bases",
    "kings_to_bottom": "Los Reyes pasan al fondo de su pila",
    "deal_to_foundations": "Cartas a la base durante el reparto",
    "autoplay": "Juego automático a la base",
    "takeback": "Se pueden devolver cartas de la base al juego",
}
CHOICE_LABELS: dict[str, dict[str, str]] = {
    "build": {"down": "Hacia abajo", "updown": "Hacia arriba o hacia abajo"},
    "suits": {
        "any": "Sin importar el palo",
        "same": "Del mismo palo",
        "alt": "En colores alternos",
        "different": "De otro palo",
    },
    "empty": {"any": "Cualquier carta", "king": "Solo un Rey", "none": "Nada: se queda vacío"},
    "foundation": {"same": "Por palo", "alt": "En colores alternos"},
}


def new_game(definition: GameDef, seed: int) -> Game:
    """Deal `seed` of `definition`, composed or built in."""
    from .. import engine

    return engine.new_game(definition, seed=seed)


def columns_label(like: GameDef) -> str:
    return "Abanicos" if like.tableau_label == "Abanico" else LABELS["columns"]


def sentences(definition: GameDef, aspects: tuple[str, ...]) -> list[str]:
    """The Spanish sentences of `aspects` written from `definition`'s rules."""
    rules = definition.rules_for()
    return [words.ASPECT_SENTENCES[a](rules, definition.tableau_label) for a in aspects]


# ---------------------------------------------------------------------- the deal statistics
YOURS = "tu juego"
"""What the statistics call the composed game (its full name is on the lab's title)."""


_COMPARISONS: dict[tuple[str, str, int, int], Any] = {}
_KEEP = 8  # about 2 MB each; a page of labs holds most of them anyway


def comparison(base: GameDef, game: GameDef, n: int = STATS_DEALS, seed: int = STATS_SEED) -> Any:
    """`compare(base, game)`: both games on the same `n` decks, the composed one named «tu juego»
    (a composed game's name can run to a whole line).  The last few are kept, by the games'
    names: a page with several labs of one game, or a lab asked again for a game it showed,
    computes each comparison once."""
    from ..study.comparison import compare

    key = (base.name, game.name, n, seed)
    if key not in _COMPARISONS:
        while len(_COMPARISONS) >= _KEEP:
            _COMPARISONS.pop(next(iter(_COMPARISONS)))
        _COMPARISONS[key] = compare(base, dataclasses.replace(game, display_name=YOURS), n=n, seed=seed)
    return _COMPARISONS[key]


def same_deal(cmp: Any) -> bool:
    """Whether the two games deal every deck the same way (every measure equal in every deal)."""
    if cmp.a.deal.columns != cmp.b.deal.columns:
        return False
    return all(cmp.differences[key] == (0.0, 0.0, 0.0) for key in cmp.differences) and cmp.a.columns == cmp.b.columns


def _inline(text: str) -> str:
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(text, quote=False))


def markdown_html(markdown: str) -> str:
    """The small Markdown `compare` writes (paragraphs, **bold**, pipe tables) as HTML."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = block.splitlines()
        if lines and lines[0].startswith("|"):
            rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
            head, body = rows[0], rows[2:]
            right = [c.endswith(":") for c in rows[1]] if len(rows) > 1 else []
            cells = "".join(f"<th>{_inline(c[:1].upper() + c[1:])}</th>" for c in head)
            table = [f'<table class="snb-lab-table"><thead><tr>{cells}</tr></thead><tbody>']
            for row in body:
                tds = "".join(
                    f'<td style="text-align:{"right" if i < len(right) and right[i] else "left"}">{_inline(c)}</td>'
                    for i, c in enumerate(row)
                )
                table.append(f"<tr>{tds}</tr>")
            out.append("".join(table) + "</tbody></table>")
        else:
            out.append(f"<p>{_inline(' '.join(lines))}</p>")
    return "\n".join(out)


def stats_html(cmp: Any) -> str:
    """The comparison as the lab shows it: a sentence when the deal does not change, the table of
    measures, and each column's length folded away."""
    md = cmp._repr_markdown_()
    main, _, columns = md.partition("\n\nLongitud media de cada columna")
    parts = []
    if same_deal(cmp):
        parts.append(
            "<p><b>Este cambio no toca el reparto:</b> las dos partidas empiezan exactamente igual en "
            "cada baraja. Lo que cambia es cómo se juega; para medirlo, pulsa «¿Cuántas se pueden ganar?».</p>"
        )
    parts.append(markdown_html(main))
    if columns:
        parts.append(
            "<details><summary>Longitud media de cada columna</summary>"
            + markdown_html("Longitud media de cada columna" + columns)
            + "</details>"
        )
    return "\n".join(parts)


_PNGS: dict[int, tuple[Any, bytes]] = {}


def plot_png(cmp: Any) -> bytes:
    """The compact plot: each column's mean length in both games, with its 95 % band (drawn
    once per comparison `comparison` keeps)."""
    kept = _PNGS.get(id(cmp))
    if kept is not None and kept[0] is cmp:
        return kept[1]
    png = _draw_png(cmp)
    while len(_PNGS) >= _KEEP:
        _PNGS.pop(next(iter(_PNGS)))
    _PNGS[id(cmp)] = (cmp, png)
    return png


def _draw_png(cmp: Any) -> bytes:
    from matplotlib.figure import Figure  # no pyplot: no backend, no figure left open

    from ..study.comparison_plots import plot_column_lengths

    fig = Figure(figsize=(10, 4.6))
    fig.subplots_adjust(left=0.08, right=0.985, bottom=0.16, top=0.9)  # fixed margins: a third faster than "constrained"
    plot_column_lengths(cmp, fig.add_subplot())
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=64)
    return buffer.getvalue()


# ---------------------------------------------------------------------- the win sample
@dataclass(frozen=True)
class Sample:
    """The solver's verdicts ("won", "lost", "unknown") on deals 1…n of one game, under a fixed
    budget per deal."""

    display_name: str
    verdicts: tuple[str, ...]

    @property
    def won(self) -> int:
        return self.verdicts.count("won")

    @property
    def lost(self) -> int:
        return self.verdicts.count("lost")

    @property
    def unknown(self) -> int:
        return self.verdicts.count("unknown")

    @property
    def total(self) -> int:
        return len(self.verdicts)


_SAMPLES: dict[tuple[str, int, int], Sample] = {}
_SAMPLES_LOCK = threading.Lock()


@functools.cache
def stored_samples() -> dict[str, Any]:
    """The stored verdicts: {"deals", "max_states", "games": {game name: [verdict, …]}}; an
    empty record when the file is missing."""
    path = Path(__file__).resolve().parent.parent / "data" / SAMPLES_FILE
    if not path.is_file():
        return {"deals": 0, "max_states": 0, "games": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def stored_sample(definition: GameDef, deals: int, max_states: int) -> Sample | None:
    """The stored verdicts of `definition` on deals 1…`deals` with `max_states`, if the stored
    file holds that game with that sample and budget (nothing is solved here)."""
    data = stored_samples()
    verdicts = data["games"].get(definition.name)
    if verdicts is None or data["deals"] != deals or data["max_states"] != max_states:
        return None
    return Sample(definition.display_name, tuple(verdicts))


def cached_sample(definition: GameDef, deals: int, max_states: int) -> Sample | None:
    """The sample if it is known already: solved in this process or stored with the package."""
    with _SAMPLES_LOCK:
        have = _SAMPLES.get((definition.name, deals, max_states))
    return have if have is not None else stored_sample(definition, deals, max_states)


def solve_one(definition: GameDef, seed: int, max_states: int) -> str:
    """The solver's verdict ("won", "lost", "unknown") on deal `seed` of `definition`."""
    from ..solver import solve

    return solve(new_game(definition, seed), max_states=max_states).status


def solve_sample(
    definition: GameDef,
    deals: int,
    max_states: int,
    stop: threading.Event | None = None,
    progress: Callable[[int], Any] | None = None,
) -> Sample | None:
    """Solve deals 1…`deals` of `definition` (cached per game, deals and budget); None when
    `stop` is set before the last deal (nothing is cached then)."""
    last: tuple[str, ...] = ()
    for verdicts in stream_samples((definition,), deals, max_states, stop):
        last = verdicts[0]
        if progress is not None:
            progress(len(last))
    if len(last) < deals:
        return None
    return cached_sample(definition, deals, max_states)


def _solve_named(name: str, seed: int, max_states: int) -> str:
    """`solve_one` for a game given by its (composed) name: what a worker process is sent."""
    from ..games.custom import custom_from_name

    return solve_one(custom_from_name(name), seed, max_states)


def _verdicts_here(jobs: list[tuple[GameDef, int]], max_states: int, stop: threading.Event | None) -> Iterator[str]:
    for game, seed in jobs:
        if stop is not None and stop.is_set():
            return
        yield solve_one(game, seed, max_states)


def _start_pool(jobs: list[tuple[GameDef, int]], max_states: int, workers: int) -> tuple[Any, list] | None:
    """`workers` processes with every job submitted, in order; None where none can start (no
    processes or threads here, a sandbox): then the deals are solved in this thread."""
    import concurrent.futures as cf
    import multiprocessing

    try:
        pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    except (OSError, RuntimeError, ValueError, NotImplementedError):
        return None
    try:
        return pool, [pool.submit(_solve_named, game.name, seed, max_states) for game, seed in jobs]
    except (OSError, RuntimeError):
        pool.shutdown(wait=False, cancel_futures=True)
        return None


def _verdicts_in_pool(pool: Any, futures: list, stop: threading.Event | None) -> Iterator[str]:
    """The pool's verdicts in the order submitted (the same verdicts as one process: the budget
    is a number of states); the pool is shut down when they end, stop, or the reader goes."""
    import concurrent.futures as cf

    finished = False
    try:
        for future in futures:
            while True:
                if stop is not None and stop.is_set():
                    return
                try:
                    yield future.result(timeout=0.1)
                    break
                except cf.TimeoutError:
                    continue
        finished = True
    finally:
        # all done: the workers are idle and end at once; stopped: do not wait for their deals
        pool.shutdown(wait=finished, cancel_futures=True)


def stream_samples(
    games: tuple[GameDef, ...],
    deals: int,
    max_states: int,
    stop: threading.Event | None = None,
    workers: int = 1,
) -> Iterator[tuple[tuple[str, ...], ...]]:
    """The samples of `games` as they are solved: after each deal, each game's verdicts so far
    (deals 1…k, in order).  The games are solved deal by deal in turn (deal 1 of each, then deal
    2…), so that the games can be compared on the deals solved so far; a game whose sample is
    known (`cached_sample`) is given whole from the start.  With ``workers`` > 1 the deals are
    solved by that many processes (where processes can start; in this thread otherwise), and
    given in the same order.  Stops quietly when `stop` is set; each sample finished is cached."""
    known = [cached_sample(g, deals, max_states) for g in games]
    verdicts: list[list[str]] = [list(k.verdicts) if k is not None else [] for k in known]
    yield tuple(tuple(v) for v in verdicts)
    order = [(i, seed) for seed in range(1, deals + 1) for i in range(len(games)) if known[i] is None]
    if not order:
        return
    jobs = [(games[i], seed) for i, seed in order]
    started = _start_pool(jobs, max_states, workers) if workers > 1 and sys.platform != "emscripten" else None
    found = _verdicts_in_pool(*started, stop) if started else _verdicts_here(jobs, max_states, stop)
    for (i, seed), verdict in zip(order, found, strict=False):  # fewer when stopped
        verdicts[i].append(verdict)
        if seed == deals:
            sample = Sample(games[i].display_name, tuple(verdicts[i]))
            with _SAMPLES_LOCK:
                _SAMPLES[(games[i].name, deals, max_states)] = sample
        yield tuple(tuple(v) for v in verdicts)


def _pct(x: float) -> str:
    return percent(x, 0)


COUNT_HEADS = ("tienen solución", "no tienen solución", "sin decidir")
"""The three columns every win count is given in (an undecided deal is never counted lost)."""


def rate_words(sample: Sample) -> str:
    """The win rate as the counts allow: «60 %» when every deal was decided, «entre el 55 % y el
    70 %» (the undecided counted lost, then won) when some were not."""
    n, won, unknown = sample.total, sample.won, sample.unknown
    if not unknown:
        return _pct(won / n)
    return f"entre el {_pct(won / n)} y el {_pct((won + unknown) / n)}"


def interval_words(sample: Sample) -> str:
    """The 95 % interval with the undecided bracketed: «entre 39 % y 78 %»."""
    from .intervals import bracketed_interval

    low, high = bracketed_interval(sample.won, sample.unknown, sample.total)
    return f"entre {_pct(low)} y {_pct(high)}"


def rate_text(sample: Sample) -> str:
    """«Beleaguered Castle, partidas nº 1 a 20: 12 tienen solución, 3 no tienen solución y 5
    quedan sin decidir; porcentaje de victorias entre el 60 % y el 85 % (intervalo de
    confianza del 95 %: entre 39 % y 92 %).»  Always the three counts."""
    n, won, lost, unknown = sample.total, sample.won, sample.lost, sample.unknown
    queda = "queda sin decidir" if unknown == 1 else "quedan sin decidir"
    return (
        f"{sample.display_name}, partidas nº 1 a {n}: {won} {'tiene' if won == 1 else 'tienen'} solución, "
        f"{lost} no {'tiene' if lost == 1 else 'tienen'} solución y {unknown} {queda}; porcentaje de "
        f"victorias {rate_words(sample)} (intervalo de confianza del 95 %: {interval_words(sample)})."
    )


def counts_table(samples: list[Sample]) -> str:
    """The samples as a Markdown table: the three counts, the rate and its 95 % interval."""
    rows = [
        "| juego | " + " | ".join(COUNT_HEADS) + " | porcentaje de victorias | intervalo de confianza (95 %) |",
        "|---|---:|---:|---:|---|---|",
    ]
    for s in samples:
        rows.append(f"| {s.display_name} | {s.won} | {s.lost} | {s.unknown} | {rate_words(s)} | {interval_words(s)} |")
    return "\n".join(rows)


def paired_counts(a: Sample, b: Sample) -> dict[str, int]:
    """Deal by deal (the same numbers in both samples): both have a solution, only `a` has one
    (`b` has none), only `b`, neither, and «undecided» where either was left undecided."""
    if a.total != b.total:
        raise ValueError(f"Las dos muestras deben tener las mismas partidas, no {a.total} y {b.total}")
    pairs = list(zip(a.verdicts, b.verdicts, strict=True))
    return {
        "both": sum(x == y == "won" for x, y in pairs),
        "only_a": sum(x == "won" and y == "lost" for x, y in pairs),
        "only_b": sum(x == "lost" and y == "won" for x, y in pairs),
        "neither": sum(x == y == "lost" for x, y in pairs),
        "undecided": sum("unknown" in (x, y) for x, y in pairs),
    }


def paired_text(a: Sample, b: Sample, name_a: str, name_b: str) -> str:
    """The paired counts in one sentence; a deal undecided in either game is counted apart,
    never as lost."""
    c = paired_counts(a, b)
    return (
        f"De las mismas {a.total} partidas: {c['both']} tienen solución en los dos juegos, {c['only_a']} solo "
        f"en {name_a} (en {name_b} no la tienen), {c['only_b']} solo en {name_b} (en {name_a} no la tienen), "
        f"{c['neither']} no la tienen en ninguno y en {c['undecided']} alguno de los dos queda sin decidir."
    )
