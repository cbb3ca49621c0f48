"""Notebook 07's class pool: whole deals of Citadel played by people, beside the solver.

Each seat plays numbered deals of the game (`GAME`, the page's rules) from its own start; its
widget says when a deal starts, when the student gives up («Me rindo») and when the deal is won
— a win comes with its line (a share code), replayed here by the engine: what a page says is
never taken for a win.  People's three answers are counted apart: won, given up (lost to
people) and not finished (never counted as lost: the interval's low end counts them lost and its
high end won, as the atlas does with the solver's undecided deals).  Beside them, the solver's
verdicts on the same deal numbers, read from the atlas's records of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..atlas.intervals import bracketed_interval, interval_sentence
from ..core.checks import MAX_MOVES
from ..core.numbers_es import thousands
from ..engine.share import load_share, share_code
from ..games import GAMES
from . import inbound
from .pool_state import Pool, PoolSeat

#: the game the class plays (the atlas entry with the same key has the page's rules).
GAME = "citadel"
#: seat k starts at deal (k − 1) · SEAT_STRIDE + 1 (within the atlas's deals).
SEAT_STRIDE = 10
#: deals one seat may play: far more than a lesson's minutes allow.
PLAYS_PER_SEAT = 60
#: the longest line a win may send (characters of its share code).
LINE_MAX = 30_000
#: a result and its rank: a result only goes up (a deal given up can still be won).
RESULTS = {"empezada": 0, "perdida": 1, "ganada": 2}
HEADS = ["Quién juega", "Partidas", "Ganadas / con solución", "Perdidas / sin solución",
         "Sin terminar / sin decidir", "Intervalo del 95 %"]  # fmt: skip


@cache
def atlas_entry() -> dict[str, Any]:
    """The atlas's row of `GAME` with the page's rules."""
    from ..atlas.summary import atlas

    return next(e for e in atlas()["entries"] if e["key"] == GAME)


@cache
def solver_verdicts() -> dict[int, str]:
    """The solver's verdict on each deal of the atlas's records of `GAME` ({} without them)."""
    from ..atlas.studyfile import read_records
    from ..atlas.view import csv_path

    try:
        return {r.deal: r.status for r in read_records(csv_path(atlas_entry()))[1]}
    except (OSError, ValueError, StopIteration):
        return {}


def deals_played() -> int:
    """How many deals the class may play: those the atlas decided (or tried)."""
    return len(solver_verdicts()) or int(atlas_entry()["computed_deals"])


def start_of(seat: int) -> int:
    return (seat - 1) * SEAT_STRIDE % max(1, deals_played()) + 1


def range_cell(won: int, lost: int, unknown: int) -> str:
    """The bracketed 95 % interval as a table cell («—» before any deal is decided)."""
    from ..atlas.view import interval_text

    return interval_text(won, lost, unknown)


def _n(k: int, one: str, many: str) -> str:
    return f"{thousands(k)} {one if k == 1 else many}"


@dataclass
class PlaySeat(PoolSeat):
    plays: dict[int, str] = field(default_factory=dict)  # deal number -> result, in the order started


class LessonPool(Pool):
    """Notebook 07's pool: the deals each seat played and how each ended (`add_play`)."""

    KIND, EVENT_ES, ADD_ROUTE = "play", "partida", "partida"
    CSV_COLUMNS = ("partida", "resultado", "movimientos", "el resolvedor")
    ROW_COLUMNS = (("ganadas", "Ganadas"), ("perdidas", "Se rindió"), ("sin_terminar", "Sin terminar"))

    def _seat(self, seat: int, secret: str) -> PlaySeat:
        return PlaySeat(seat, secret)

    def _forget_seat(self, s: PlaySeat) -> None:
        s.plays.clear()

    def _active(self, s: PlaySeat) -> bool:
        return bool(s.plays or s.prediction)

    def _checked(self, number: Any, result: Any, line: Any) -> tuple[int, str, str]:
        """(deal, result, what the record keeps: the number, or a win's checked line)."""
        number = inbound.deal_number(number)
        if not 1 <= number <= deals_played():
            raise ValueError(f"La clase juega las partidas n.º 1 a {thousands(deals_played())} de {GAMES[GAME].display_name}, "
                             f"las que ha estudiado el resolvedor; la n.º {thousands(number)} no.")  # fmt: skip
        if not isinstance(result, str) or result not in RESULTS:
            raise inbound.BadRequest("El resultado debe ser «empezada», «perdida» o «ganada».", "un resultado no válido")
        if result != "ganada":
            return number, result, str(number)
        code = inbound.text_field(line, "La partida ganada", LINE_MAX)
        if code.count(",") >= MAX_MOVES:
            raise ValueError(f"Una partida de más de {thousands(MAX_MOVES)} movimientos no se puede comprobar: "
                             "no se ha contado como ganada.")  # fmt: skip
        try:
            game = load_share(code)
        except ValueError:
            raise ValueError("Esa partida ganada no se puede volver a jugar: no se ha contado.") from None
        fresh = share_code(game).rsplit("/", 1)[0]
        if game.name != GAME or game.seed != number or fresh != f"{GAME}/{number}" or not game.is_won():
            raise ValueError(f"Esa jugada no gana la partida n.º {thousands(number)} de {GAMES[GAME].display_name}: "
                             "no se ha contado como ganada.")  # fmt: skip
        return number, result, share_code(game)

    def _take(self, s: PlaySeat, move: str, reason: str) -> bool:
        number = int(move.split("/")[1]) if "/" in move else int(move)
        number, result, _ = self._checked(number, reason, move)
        if number not in s.plays and len(s.plays) >= PLAYS_PER_SEAT:
            raise ValueError(f"Cada asiento juega como mucho {PLAYS_PER_SEAT} partidas en la clase.")
        before = s.plays.get(number)
        if before is not None and RESULTS[before] >= RESULTS[result]:
            return False
        s.plays[number] = result
        return True

    def add(self, secret: Any, body: dict[str, Any]) -> dict[str, Any]:
        """A deal started, given up or won by the page holding `secret` (recorded before this
        returns); a result that is not new changes nothing."""
        s = self.seat_of(secret)
        number, result, kept = self._checked(body.get("partida"), body.get("resultado"), body.get("jugada"))
        recorded = self.recording
        if self._take(s, kept, result):
            recorded = self._add(s.seat, "play", kept, result)
            self.version += 1
        return self.answer(s, recorded)

    # ------------------------------------------------------------------ the class's figure
    def counts(self) -> tuple[int, int, int]:
        """(won, given up, not finished) of every deal every seat played."""
        results = [r for s in self.seats.values() for r in s.plays.values()]
        return results.count("ganada"), results.count("perdida"), results.count("empezada")

    def solver_counts(self) -> tuple[int, int, int] | None:
        """The solver's (won, lost, undecided) on the distinct deals the class played (None
        without the atlas's records)."""
        verdicts = solver_verdicts()
        if not verdicts:
            return None
        played = {n for s in self.seats.values() for n in s.plays}
        found = [verdicts.get(n, "unknown") for n in played]
        return found.count("won"), found.count("lost"), found.count("unknown")

    def table(self) -> dict[str, Any]:
        won, lost, open_ = self.counts()
        rows = [["Personas de esta clase", won + lost + open_, won, lost, open_, range_cell(won, lost, open_)]]
        solver = self.solver_counts()
        if solver is not None:
            rows.append(["El resolvedor, en las mismas partidas", sum(solver), *solver, range_cell(*solver)])
        e = atlas_entry()
        rows.append([f"El resolvedor, en {thousands(e['computed_deals'])} partidas del atlas", e["computed_deals"],
                     e["won"], e["lost"], e["unknown"], range_cell(e["won"], e["lost"], e["unknown"])])  # fmt: skip
        rows = [[thousands(c) if isinstance(c, int) else c for c in row] for row in rows]  # «2.000»
        return {"titulo": f"{GAMES[GAME].display_name}: personas y resolvedor", "cabecera": HEADS, "filas": rows}

    def figure(self) -> dict[str, Any]:
        won, lost, open_ = self.counts()
        n = won + lost + open_
        name = GAMES[GAME].display_name
        if not n:
            text = f"La clase todavía no ha empezado ninguna partida de {name}."
        else:
            text = (f"La clase ha jugado {_n(n, 'partida', 'partidas')} de {name}: {_n(won, 'ganada', 'ganadas')}, "
                    f"{thousands(lost)} en {'la' if lost == 1 else 'las'} que alguien se ha rendido y {thousands(open_)} "
                    "sin terminar (no cuentan como perdidas). ")  # fmt: skip
            if won + lost == 0:
                text += "Todavía no ha terminado ninguna: aún no hay intervalo."
            else:
                low, high = bracketed_interval(won, open_, n)
                said = interval_sentence(low, high, what="la proporción de partidas que gana una persona de esta clase")
                text += (said[0].upper() + said[1:]
                         + " (las sin terminar cuentan como perdidas en el extremo de abajo y como ganadas en el de arriba).")  # fmt: skip
            solver = self.solver_counts()
            if solver is not None:
                text += (f" El resolvedor, en esas mismas partidas: {_n(solver[0], 'tiene', 'tienen')} solución, "
                         f"{_n(solver[1], 'no la tiene', 'no la tienen')} y {_n(solver[2], 'queda', 'quedan')} sin decidir.")  # fmt: skip
        return {"n": n, "ganadas": won, "perdidas": lost, "sin_terminar": open_, "texto": text, "tabla": self.table()}

    def _seat_state(self, s: PlaySeat) -> dict[str, Any]:
        return {"inicio": start_of(s.seat), "mias": dict((str(k), v) for k, v in s.plays.items())}

    def _seat_row(self, s: PlaySeat) -> dict[str, Any]:
        results = list(s.plays.values())
        return {"ganadas": results.count("ganada"), "perdidas": results.count("perdida"),
                "sin_terminar": results.count("empezada")}  # fmt: skip

    def _csv_cells(self, move: str, reason: str) -> list[Any]:
        number = int(move.split("/")[1]) if "/" in move else int(move)
        moves = move.split("/", 2)[2].count(",") + 1 if move.count("/") >= 2 and move.split("/", 2)[2] else ""
        verdict = {"won": "tiene solución", "lost": "no tiene solución", "unknown": "sin decidir"}
        return [number, reason, moves, verdict.get(solver_verdicts().get(number, ""), "")]
