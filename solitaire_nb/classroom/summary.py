"""After a class challenge: its Spanish summary and its CSV export, from the launcher's record or
from share codes pasted by the students of a class without a server.

The summary says how many won, the median number of moves, the most common refusal, the solver's
verdict on the deal, and the shortest winning line found by a student next to the solver's line
(a winning line, not necessarily the shortest).
"""

from __future__ import annotations

import csv
import math
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.checks import shown
from ..engine.share import load_share, share_code
from ..games.notation import format_move
from .challenge_state import Challenge, refusal_sentences
from .record import Record, RecordError

KIND_ES = {"move": "movimiento", "undo": "deshacer", "refusal": "rechazo", "win": "ganada", "hint": "pista"}
CSV_HEADER = ["asiento", "hora", "suceso", "movimiento", "regla", "motivo"]
#: problem lines the summary of pasted codes shows (then «Y N códigos más…»).
PROBLEMS_SHOWN = 20


@dataclass
class Player:
    """One student's challenge: their line (moves from the deal to where they are, undone moves
    left out), whether they won, and how many moves they made (undone ones included)."""

    label: str
    line: list[str]
    won: bool
    moves: int


def players_of(challenge: Challenge) -> list[Player]:
    """The seats that made at least one move (undone ones count): a page opened and left, or a
    seat no page took, did not play."""
    return [Player(f"Asiento {s.seat}", [format_move(s.game, m, sep="-") for m in s.game.history], s.won, s.moves)
            for s in challenge.seats.values() if s.moves]  # fmt: skip


def players_from_codes(deal: str, codes: list[str]) -> tuple[list[Player], list[str]]:
    """The players of pasted share codes of the challenge `deal` (a class without a server), and
    a Spanish line for each code that could not be read or is of another deal."""
    players, problems = [], []
    for k, code in enumerate(codes, 1):
        code = str(code).strip()
        if not code:
            continue
        try:
            game = load_share(code)
        except ValueError as exc:
            problems.append(f"El código n.º {k} no se puede leer: {exc}")
            continue
        if share_code(game).rsplit("/", 1)[0] != deal:
            problems.append(f"El código n.º {k} es de otra partida, no del reto ({shown(deal)}).")
            continue
        line = [format_move(game, m, sep="-") for m in game.history]
        players.append(Player(f"Código {k}", line, game.is_won(), len(line)))
    return players, problems


def _solver_line(deal: str, seconds: float) -> tuple[str, list[str]]:
    """The solver's verdict on the deal (Spanish) and its winning line, if it found one."""
    try:
        from ..solver import solve, verdict_text
    except ImportError:
        return "El resolvedor no está disponible.", []
    game = load_share(deal)
    result = solve(game, time_limit=seconds)
    text = verdict_text(result, game)
    line = []
    if result.status == "won":
        g = game.copy()
        for m in result.moves:
            line.append(format_move(g, m, sep="-"))
            g.move(m)
    return text, line


def summary(deal: str, players: list[Player], events: list[dict[str, Any]] | None = None,
            solver_seconds: float = 10.0) -> str:  # fmt: skip
    """The class's summary in Spanish (several lines).  `events`, when the record has them,
    give the most common refusal; pasted codes do not carry refusals."""
    n = len(players)
    won = [p for p in players if p.won]
    out = [f"Reto de clase: {deal}."]
    if not n:
        out.append("Nadie ha jugado el reto todavía.")
    else:
        people = "alumno" if n == 1 else "alumnos"
        out.append(f"Han jugado {n} {people}; han ganado {len(won)}.")
        median = statistics.median(p.moves for p in players)
        out.append(f"Mediana de movimientos por alumno: {f'{median:g}'.replace('.', ',')}.")
    if events is not None:
        common = refusal_sentences(events, 1)
        out.append(f"El rechazo más común: {common[0]}" if common else "Nadie ha intentado un movimiento no permitido.")
    verdict, solver = _solver_line(deal, solver_seconds)
    out.append(f"El resolvedor dice del reparto: {verdict}")
    if won:
        best = min(won, key=lambda p: len(p.line))
        out.append(f"La línea ganadora más corta de un alumno ({len(best.line)} movimientos): {', '.join(best.line)}")
    else:
        out.append("Ningún alumno ha encontrado una línea ganadora.")
    if solver:
        out.append(
            f"La línea del resolvedor ({len(solver)} movimientos; gana, pero no tiene por qué ser la más corta): "
            + ", ".join(solver)
        )
    return "\n".join(out)


def summary_from_codes(deal: str, codes: list[str] | str, solver_seconds: float = 10.0) -> str:
    """The same summary from share codes pasted by the students (one per line, or a list): for a
    class that played the challenge on the static student app, without a server."""
    if isinstance(codes, str):
        codes = codes.splitlines()
    start = share_code(load_share(deal)).rsplit("/", 1)[0]
    players, problems = players_from_codes(start, list(codes))
    text = summary(start, players, None, solver_seconds)
    more = len(problems) - PROBLEMS_SHOWN
    if more > 0:
        word = "código más que no se puede leer o es" if more == 1 else "códigos más que no se pueden leer o son"
        problems = [*problems[:PROBLEMS_SHOWN], f"Y {more:,} {word} de otra partida.".replace(",", ".")]
    return "\n".join([text, *problems])


def export_csv(record_path: Path | str, out: Path | str, names: bool = False) -> int:
    """Write the class's record as CSV (one row per event, Spanish headers; the students' names
    only when `names`); the number of rows written.  The record is opened read-only
    (`record_file.open_record`: a FIFO, a folder or a file that is no record is refused in
    Spanish, and nothing is written to it).  Spanish ValueError if it cannot be read."""
    try:
        rec = Record(record_path, None, readonly=True)
    except RecordError as exc:
        raise ValueError(str(exc)) from None
    try:
        return write_csv(rec.events(), {s: n for s, _, n in rec.seats()}, out, names)
    except RecordError as exc:
        raise ValueError(str(exc)) from None
    finally:
        rec.close()


#: what a spreadsheet would read as a formula (or a cell break) at the start of a cell.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BAD_TIME = "hora no válida"


def cell(value: Any) -> str:
    """`value` as a CSV cell a spreadsheet shows as text: a leading «'» before ``= + - @``, a
    tab or a carriage return, so no cell is read as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def event_time(t: Any) -> str:
    """The time of an event as ISO text, or `BAD_TIME` (with what the row holds) when it is no
    time (an edited record)."""
    import datetime

    if isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t):
        try:
            return datetime.datetime.fromtimestamp(t).isoformat(timespec="milliseconds")
        except (OverflowError, OSError, ValueError):
            pass
    return f"{BAD_TIME} ({shown(t)})"


def write_csv(events: list[dict[str, Any]], seat_names: dict[int, str], out: Any, names: bool = False) -> int:
    """`events` as CSV into `out` (a path or an open text file); every cell neutralised
    (`cell`), a row whose time is no time marked `BAD_TIME`.  The one CSV writer of the
    record: the export and the teacher's download."""
    own = isinstance(out, (str, Path))
    f = open(out, "w", newline="", encoding="utf-8") if own else out
    try:
        w = csv.writer(f)
        w.writerow(CSV_HEADER + (["nombre"] if names else []))
        for e in events:
            row = [e["seat"], event_time(e["t"]), KIND_ES.get(e["kind"], e["kind"]), e["move"], e["rule"], e["reason"]]
            w.writerow([cell(c) for c in row + ([seat_names.get(e["seat"], "")] if names else [])])
    finally:
        if own:
            f.close()
    return len(events)
