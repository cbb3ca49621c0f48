"""A lesson's class pool on the launcher (notebook 06): every deal the class deals, once.

Each «Repartir» of a student's try widget sends the deal's number; the pool computes that deal's
counts here, from the number, with the study's own function (`study.tally.count_deal`: what a
page says of them is never read), and keeps every deal number once however many seats deal it.
The class's mean and 95 % interval are `study.mean_ci` (the notebook's own interval function) on
the distinct deals, in the order of their numbers.  Seats, names and the record are the class
core's (`class_core`); the record holds one ``deal`` event per seat and deal number, and the
predictions (``prediction``: a student's own, or the teacher's, seat `record.TEACHER_SEAT`).
No web library here: `pool_server` turns HTTP requests into these calls.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..atlas.intervals import interval_sentence
from ..core.checks import shown
from ..core.numbers_es import decimal, thousands
from ..study.tally import DealCounts, count_deal
from . import inbound
from .class_core import ClassCore
from .record import TEACHER_SEAT
from .record_file import name

#: the lessons whose try widget pools into the class (their number, as the launcher takes it).
POOLED = ("06",)
#: deal numbers one seat may add: far more than a lesson's minutes allow (5 a student).
DEALS_PER_SEAT = 200
#: predictions the teacher may type into one pool.
TEACHER_PREDICTIONS_MAX = 60
#: points of the interval-narrowing figure (prefixes of the deals, in their arrival order).
HISTORY_POINTS = 60
#: the deal numbers of seat k start at k · SEAT_STRIDE: seats deal different deals.
SEAT_STRIDE = 100
POOL_KINDS = ("deal", "prediction")


def pool_id(lesson: str) -> str:
    """What a lesson's pool record says it is (``meta.deal``): «leccion/06»."""
    return f"leccion/{lesson}"


@lru_cache(maxsize=8192)
def counts(number: int) -> DealCounts:
    """The counts of partida nº `number`, dealt by the engine (cached: many seats deal it)."""
    return count_deal(number)


@dataclass
class PoolSeat:
    seat: int
    secret: str
    name: str = ""
    deals: list[int] = field(default_factory=list)  # deal numbers, in the order dealt, each once
    prediction: str = ""


def figures(values: list[float]) -> dict[str, Any]:
    """n, mean and 95 % interval of `values` by `study.mean_ci` (None for an interval of fewer
    than two deals)."""
    from .. import study

    if not values:
        return {"n": 0, "media": None, "bajo": None, "alto": None}
    mean, low, high = (float(x) for x in study.mean_ci(values))  # type: ignore[arg-type]  # numpy takes a list
    if len(values) < 2 or not (math.isfinite(low) and math.isfinite(high)):
        low = high = None  # type: ignore[assignment]
    return {"n": len(values), "media": mean, "bajo": low, "alto": high}


def class_text(fig: dict[str, Any]) -> str:
    """The class's figure in Spanish, for every student's page."""
    n = fig["n"]
    if not n:
        return "La clase todavía no ha repartido ninguna partida."
    deals = "1 partida distinta" if n == 1 else f"{thousands(n)} partidas distintas"
    head = f"La clase lleva {deals}: de media, Citadel manda {decimal(fig['media'], 2)} cartas a la base durante el reparto"
    if fig["bajo"] is None:
        return head + ". Con una sola partida todavía no hay intervalo."
    return f"{head}; {interval_sentence(fig['bajo'], fig['alto'], rate=False, decimals=2)}."


class Pool(ClassCore):
    """The class pool of lesson `lesson` (``"06"``): seats, the deals each seat added and the
    predictions, recorded at `record_path` (None: not recording)."""

    def __init__(self, lesson: str, record_path: Path | None, say: Callable[[str], None] = print) -> None:
        if lesson not in POOLED:
            raise ValueError(f"La lección {shown(lesson)} no junta los datos de la clase.")
        self.lesson = lesson
        self.teacher_predictions: list[str] = []
        self._arrivals: list[tuple[int, int]] = []  # (seat, deal number), each pair once, in order
        super().__init__(pool_id(lesson), record_path, say)

    def _seat(self, seat: int, secret: str) -> PoolSeat:
        return PoolSeat(seat, secret)

    def _replay(self) -> None:
        """The deals and predictions of a pool that was already running (a restart); a row that
        does not replay (an edited file) is skipped and said once."""
        assert self.record is not None
        bad: list[Any] = []
        for e in self.record.events():
            try:
                if e["kind"] == "deal":
                    self._take_deal(self.seats[e["seat"]], inbound.deal_number(int(str(e["move"]))))
                elif e["kind"] == "prediction":
                    text, _ = inbound.prediction_field(str(e["move"]))
                    if e["seat"] == TEACHER_SEAT:
                        self.teacher_predictions.append(text)
                    else:
                        self.seats[e["seat"]].prediction = text
                else:
                    raise ValueError(e["kind"])
            except (KeyError, ValueError, TypeError):
                bad.append(e["id"])
        if bad:
            more = f" (y {len(bad) - 1} más)" if len(bad) > 1 else ""
            self.say(f"Aviso: el registro {name(self.record.path)} tiene una fila que no es de esta clase: la nº "
                     f"{shown(bad[0])}{more}; se deja fuera.")  # fmt: skip

    # ------------------------------------------------------------------ deals
    def _take_deal(self, s: PoolSeat, number: int) -> bool:
        if number in s.deals:
            return False
        counts(number)  # a number the engine cannot deal is refused before anything changes
        s.deals.append(number)
        self._arrivals.append((s.seat, number))
        return True

    def add_deal(self, secret: Any, number: Any) -> dict[str, Any]:
        """Add partida nº `number` dealt by the page holding `secret` (recorded before this
        returns); a number this seat had added already changes nothing.  The answer says
        whether it was new to the class and gives the class's figure."""
        s = self.seat_of(secret)
        number = inbound.deal_number(number)
        if number not in s.deals and len(s.deals) >= DEALS_PER_SEAT:
            raise ValueError(f"Cada asiento suma como mucho {DEALS_PER_SEAT} partidas a la clase; esta no se ha sumado.")
        already = number in self.distinct()
        recorded = self.recording
        if self._take_deal(s, number):
            recorded = self._write("add", s.seat, "deal", str(number)) is not None
            self.version += 1
        return {"nueva": not already, "registrado": recorded, "sin_guardar": self.unsaved, **self.page_state(secret)}

    def distinct(self) -> dict[int, None]:
        """The distinct deal numbers of the class, in the order they first arrived."""
        return dict.fromkeys(number for _, number in self._arrivals)

    def values(self, what: str = "home_in_deal") -> list[float]:
        """A `DealCounts` figure of every distinct deal, in the order of their numbers."""
        return [float(getattr(counts(n), what)) for n in sorted(self.distinct())]

    def figure(self) -> dict[str, Any]:
        fig = figures(self.values())
        return {**fig, "texto": class_text(fig)}

    # ------------------------------------------------------------------ predictions
    def predict(self, secret: Any, value: Any) -> str:
        """A student's prediction (cards home during the deal); a new one replaces the last."""
        s = self.seat_of(secret)
        text, _ = inbound.prediction_field(value)
        s.prediction = text
        self._write("add", s.seat, "prediction", text)
        self.version += 1
        return text

    def teacher_predict(self, value: Any) -> str:
        """A prediction the teacher types (one the class said aloud or wrote on the board)."""
        text, _ = inbound.prediction_field(value)
        if len(self.teacher_predictions) >= TEACHER_PREDICTIONS_MAX:
            raise ValueError(f"Como mucho se anotan {TEACHER_PREDICTIONS_MAX} apuestas en la página del docente.")
        self.teacher_predictions.append(text)
        self._write("add", TEACHER_SEAT, "prediction", text)
        self.version += 1
        return text

    def predictions(self) -> list[str]:
        return [*self.teacher_predictions, *(s.prediction for s in self.seats.values() if s.prediction)]

    # ------------------------------------------------------------------ the teacher's buttons
    def clear(self) -> None:
        """«Vaciar»: every deal and prediction out of the pool and of the record (seats stay)."""
        self._write("delete_events", None, POOL_KINDS)
        self._arrivals.clear()
        self.teacher_predictions.clear()
        for s in self.seats.values():
            s.deals.clear()
            s.prediction = ""
        self.version += 1

    def remove_seat(self, seat: Any) -> None:
        """One seat's deals, prediction and name out of the pool and of the record."""
        number = inbound.ascii_number(seat, "el número de asiento") if isinstance(seat, str) else seat
        if isinstance(number, bool) or not isinstance(number, int) or number not in self.seats:
            raise ValueError(f"No hay ningún asiento {shown(seat)}.")
        s = self.seats[number]
        self._write("delete_events", number, POOL_KINDS)
        self._write("set_name", number, "")
        self._arrivals = [(k, n) for k, n in self._arrivals if k != number]
        s.deals.clear()
        s.prediction = s.name = ""
        self.version += 1

    # ------------------------------------------------------------------ what a page asks
    def page_state(self, secret: Any, join: bool = True) -> dict[str, Any]:
        """What a student's widget needs: its seat, the number it starts at, its own deals and
        the class's figure."""
        s = self.seat_of(secret)
        self.retry_writes()
        if join:
            self.joined(secret)
        return {"asiento": s.seat, "nombre": s.name, "inicio": s.seat * SEAT_STRIDE, "mias": list(s.deals),
                "apuesta": s.prediction, "clase": self.figure(), "version": self.version}  # fmt: skip

    def history(self) -> list[dict[str, Any]]:
        """The class's interval as the deals arrived: one point per prefix (at most
        `HISTORY_POINTS`, the last one the whole pool)."""
        order = list(self.distinct())
        n = len(order)
        if n < 2:
            return []
        step = max(1, math.ceil((n - 1) / HISTORY_POINTS))
        ends = sorted({*range(2, n + 1, step), n})
        home = {k: float(counts(k).home_in_deal) for k in order}
        return [figures([home[k] for k in sorted(order[:m])]) for m in ends]

    def histogram(self) -> list[list[Any]]:
        """[cards home during the deal, distinct deals] from 4 to at least 12."""
        tally = Counter(int(v) for v in self.values())
        top = max([12, *tally])
        return [[k, tally.get(k, 0)] for k in range(4, top + 1)]

    def rows(self) -> list[dict[str, Any]]:
        return [{"asiento": s.seat, "nombre": s.name, "partidas": len(s.deals), "apuesta": s.prediction}
                for s in self.seats.values()]  # fmt: skip

    def view(self) -> dict[str, Any]:
        self.retry_writes()
        return {"version": self.version, "leccion": self.lesson, "registro": self.recording,
                "registro_texto": self.record_text(), "sin_guardar": self.unsaved, "clase": self.figure(),
                "historia": self.history(), "histograma": self.histogram(), "apuestas": self.predictions(),
                "filas": self.rows(), "partidas": sorted(self.distinct())}  # fmt: skip

    def write_csv(self, out: Any, names: bool = False) -> int:
        """The recorded deals and predictions as CSV into `out` (an open text file): one row
        each, the deal's counts computed from its number, every cell neutralised
        (`summary.cell`); the names only when `names`.  The rows written."""
        import csv

        from .summary import cell, event_time

        if self.record is None:
            return 0
        seat_names = {s: n for s, _, n in self.record.seats()}
        w = csv.writer(out)
        w.writerow(CSV_HEADER + (["nombre"] if names else []))
        rows = 0
        for e in self.record.events():
            if e["kind"] not in POOL_KINDS:
                continue
            who = "docente" if e["seat"] == TEACHER_SEAT else e["seat"]
            row: list[Any] = [who, event_time(e["t"])]
            if e["kind"] == "deal":
                try:
                    c = counts(inbound.deal_number(int(str(e["move"]))))
                    figures_of: list[Any] = [c.home_in_deal, c.autoplay, c.shortened_after_deal, c.shortened_after_autoplay]
                except (ValueError, TypeError):  # an edited row: shown as it is, without counts
                    figures_of = ["", "", "", ""]
                row += ["reparto", e["move"], *figures_of, ""]
            else:
                row += ["apuesta", "", "", "", "", "", e["move"]]
            w.writerow([cell(v) for v in row + ([seat_names.get(e["seat"], "")] if names else [])])
            rows += 1
        return rows


CSV_HEADER = ["asiento", "hora", "suceso", "partida", "cartas a la base durante el reparto",
              "cartas que sube el juego automático", "columnas acortadas tras el reparto",
              "columnas acortadas tras el juego automático", "apuesta"]  # fmt: skip
