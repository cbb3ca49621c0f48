"""A lesson's class pool on the launcher: what the class adds from its pages, on one class core.

`Pool(lesson, record_path)` is the pool of lesson «06» (`pool_deals`: deal numbers), «07»
(`pool_play`: deals people played and their results) or «08» (`pool_invent`: each pair's
invented game and its counts); this base keeps what they share: seats, names and the record
(`class_core`), the predictions (a student's own, or the teacher's, seat `record.TEACHER_SEAT`),
«Vaciar», removing a seat's entries, the CSV and **groups**: «Nuevo grupo» starts an empty pool
in the same record (each event names its group in ``rule``; a ``group`` event starts the next),
so one launcher and one file serve several classes.  A lesson says its event kind (`KIND`), how
an event changes its seats (`_take`), its figure and its rows.  No web library here:
`pool_server` turns HTTP requests into these calls.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.checks import shown
from . import inbound
from .class_core import ClassCore
from .record import TEACHER_SEAT
from .record_file import name

#: the lessons whose page adds to the class pool, and the module of each one's pool.
LESSONS = {"06": "pool_deals", "07": "pool_play", "08": "pool_invent"}
POOLED = tuple(LESSONS)
#: predictions the teacher may type into one pool.
TEACHER_PREDICTIONS_MAX = 60


def pool_id(lesson: str) -> str:
    """What a lesson's pool record says it is (``meta.deal``): «leccion/06»."""
    return f"leccion/{lesson}"


@dataclass
class PoolSeat:
    seat: int
    secret: str
    name: str = ""
    prediction: str = ""


class Pool(ClassCore):
    """The class pool of lesson `lesson` («06», «07», «08»; ``Pool("07", …)`` is that lesson's
    own class), recorded at `record_path` (None: not recording)."""

    KIND = ""  # the lesson's event kind (`record.KINDS`)
    EVENT_ES = ""  # what the CSV calls it
    ADD_ROUTE = ""  # the students' route that adds one: ``/clase/api/<ADD_ROUTE>``
    CSV_COLUMNS: tuple[str, ...] = ()
    #: the teacher's table of seats: (key of `_seat_row`, heading) after the seat and name.
    ROW_COLUMNS: tuple[tuple[str, str], ...] = ()

    def __new__(cls, lesson: str, *args: Any, **kwargs: Any) -> Pool:
        if cls is Pool:
            if lesson not in LESSONS:
                raise ValueError(f"La lección {shown(lesson)} no junta los datos de la clase.")
            cls = importlib.import_module(f".{LESSONS[lesson]}", __package__).LessonPool
        return super().__new__(cls)

    def __init__(self, lesson: str, record_path: Path | None, say: Callable[[str], None] = print) -> None:
        if lesson not in POOLED:
            raise ValueError(f"La lección {shown(lesson)} no junta los datos de la clase.")
        self.lesson = lesson
        self.group = 1
        self._group_after = 0  # seats up to this one were made before the group began
        self.teacher_predictions: list[str] = []
        self._reset()
        super().__init__(pool_id(lesson), record_path, say)

    # ------------------------------------------------------------------ what a lesson says
    def _reset(self) -> None:
        """Forget every entry of the lesson (a new group, «Vaciar»); the seats stay."""

    def _forget_seat(self, s: Any) -> None:
        """Forget the lesson's entries of seat `s`."""

    def _take(self, s: Any, move: str, reason: str) -> bool:
        """Apply one event of the lesson's kind; True when it changed the pool; ValueError
        (nothing changed) when it is not one this lesson takes."""
        raise NotImplementedError

    def add(self, secret: Any, body: dict[str, Any]) -> dict[str, Any]:
        """One entry the page holding `secret` sends on `ADD_ROUTE` (its body, checked before
        anything changes); the page's state."""
        raise NotImplementedError

    def _active(self, s: Any) -> bool:
        """Whether seat `s` added anything to this group."""
        return bool(s.prediction)

    def figure(self) -> dict[str, Any]:
        """The class's figure: at least ``texto`` (the sentence every page shows)."""
        raise NotImplementedError

    def _seat_state(self, s: Any) -> dict[str, Any]:
        """The lesson's part of what a student's widget gets."""
        return {}

    def _seat_row(self, s: Any) -> dict[str, Any]:
        """The lesson's cells of seat `s` in the teacher's table (`ROW_COLUMNS`)."""
        return {}

    def _lesson_view(self) -> dict[str, Any]:
        """What else the teacher's page draws (06: the narrowing and the histogram)."""
        return {}

    def _csv_cells(self, move: str, reason: str) -> list[Any]:
        """The lesson's CSV cells of one event (`CSV_COLUMNS`); ValueError for an edited row."""
        return [move]

    # ------------------------------------------------------------------ record
    def _add(self, seat: int, kind: str, move: str, reason: str = "") -> bool:
        """Record one event of this group; whether it is written now."""
        return self._write("add", seat, kind, move, str(self.group), reason) is not None

    def _replay(self) -> None:
        """The entries of a pool that was already running (a restart), from its last group on; a
        row that does not replay (an edited file) is skipped and said once."""
        assert self.record is not None
        bad: list[Any] = []
        for e in self.record.events():
            try:
                if e["kind"] == "group":
                    self._start_group(inbound.ascii_number(e["move"], "el grupo"), inbound.ascii_number(e["reason"] or "0", "el asiento"))
                    continue
                if inbound.ascii_number(e["rule"] or "1", "el grupo") != self.group:
                    continue  # an earlier group's entry: kept in the record and its CSV
                if e["kind"] == "prediction":
                    text, _ = inbound.prediction_field(str(e["move"]))
                    if e["seat"] == TEACHER_SEAT:
                        self.teacher_predictions.append(text)
                    else:
                        self.seats[e["seat"]].prediction = text
                elif e["kind"] == self.KIND:
                    self._take(self.seats[e["seat"]], str(e["move"]), str(e["reason"]))
                else:
                    raise ValueError(e["kind"])
            except (KeyError, ValueError, TypeError):
                bad.append(e["id"])
        if bad:
            more = f" (y {len(bad) - 1} más)" if len(bad) > 1 else ""
            self.say(f"Aviso: el registro {name(self.record.path)} tiene una fila que no es de esta clase: la n.º "
                     f"{shown(bad[0])}{more}; se deja fuera.")  # fmt: skip

    # ------------------------------------------------------------------ predictions
    def predict(self, secret: Any, value: Any) -> str:
        """A student's prediction; a new one replaces the last."""
        s = self.seat_of(secret)
        text, _ = inbound.prediction_field(value)
        s.prediction = text
        self._add(s.seat, "prediction", text)
        self.version += 1
        return text

    def teacher_predict(self, value: Any) -> str:
        """A prediction the teacher types (one the class said aloud or wrote on the board)."""
        text, _ = inbound.prediction_field(value)
        if len(self.teacher_predictions) >= TEACHER_PREDICTIONS_MAX:
            raise ValueError(f"Como mucho se anotan {TEACHER_PREDICTIONS_MAX} predicciones en la página del docente.")
        self.teacher_predictions.append(text)
        self._add(TEACHER_SEAT, "prediction", text)
        self.version += 1
        return text

    def predictions(self) -> list[str]:
        return [*self.teacher_predictions, *(s.prediction for s in self.seats.values() if s.prediction)]

    # ------------------------------------------------------------------ the teacher's buttons
    def _start_group(self, group: int, after: int) -> None:
        self.group, self._group_after = group, after
        self._clear_memory()

    def _clear_memory(self) -> None:
        self.teacher_predictions.clear()
        for s in self.seats.values():
            s.prediction = ""
            self._forget_seat(s)
        self._reset()

    def new_group(self) -> int:
        """«Nuevo grupo»: an empty pool for the next class, in the same record (the earlier
        groups' entries stay in it and in its CSV); the open pages keep their seats.  The new
        group's number."""
        after = max(self.seats, default=0)
        self._write("add", TEACHER_SEAT, "group", str(self.group + 1), "", str(after))
        self._start_group(self.group + 1, after)
        self.version += 1
        return self.group

    def clear(self) -> None:
        """«Vaciar»: every entry of this group out of the pool and of the record (seats stay)."""
        kinds = (self.KIND, "prediction")
        self._write("delete_events", None, kinds, str(self.group))
        if self.group == 1:  # rows written before groups existed name none
            self._write("delete_events", None, kinds, "")
        self._clear_memory()
        self.version += 1

    def remove_seat(self, seat: Any) -> None:
        """One seat's entries (of every group), prediction and name out of the pool and of the record."""
        number = inbound.ascii_number(seat, "el número de asiento") if isinstance(seat, str) else seat
        if isinstance(number, bool) or not isinstance(number, int) or number not in self.seats:
            raise ValueError(f"No hay ningún asiento {shown(seat)}.")
        s = self.seats[number]
        self._write("delete_events", number, (self.KIND, "prediction"))
        self._write("set_name", number, "")
        self._forget_seat(s)
        s.prediction = s.name = ""
        self.version += 1

    # ------------------------------------------------------------------ what a page asks
    def page_state(self, secret: Any, join: bool = True) -> dict[str, Any]:
        """What a student's widget needs: its seat, its own entries and the class's figure."""
        s = self.seat_of(secret)
        self.retry_writes()
        if join:
            self.joined(secret)
        return {"asiento": s.seat, "nombre": s.name, "apuesta": s.prediction, "grupo": self.group,
                "clase": self.figure(), "version": self.version, **self._seat_state(s)}  # fmt: skip

    def answer(self, s: Any, recorded: bool, **extra: Any) -> dict[str, Any]:
        """A student's answer after an entry: written or not, and the page's state."""
        return {"registrado": recorded, "sin_guardar": self.unsaved, **extra, **self.page_state(s.secret)}

    def rows(self) -> list[dict[str, Any]]:
        """The teacher's table: the seats of this group (made after it began, or that added to it)."""
        return [{"asiento": s.seat, "nombre": s.name, "apuesta": s.prediction, **self._seat_row(s)}
                for s in self.seats.values() if s.seat > self._group_after or self._active(s)]  # fmt: skip

    def view(self) -> dict[str, Any]:
        self.retry_writes()
        return {"version": self.version, "leccion": self.lesson, "grupo": self.group, "registro": self.recording,
                "registro_texto": self.record_text(), "sin_guardar": self.unsaved, "clase": self.figure(),
                "apuestas": self.predictions(), "filas": self.rows(), "columnas": [list(c) for c in self.ROW_COLUMNS],
                **self._lesson_view()}  # fmt: skip

    def write_csv(self, out: Any, names: bool = False) -> int:
        """The recorded entries, predictions and new groups as CSV into `out` (an open text
        file): one row each, every cell neutralised (`summary.cell`); the names only when
        `names`.  The rows written."""
        import csv

        from .summary import cell, event_time

        if self.record is None:
            return 0
        seat_names = {s: n for s, _, n in self.record.seats()}
        w = csv.writer(out)
        w.writerow(["asiento", "hora", "suceso", *self.CSV_COLUMNS, "apuesta", "grupo"] + (["nombre"] if names else []))
        rows, blank = 0, [""] * len(self.CSV_COLUMNS)
        for e in self.record.events():
            who = "docente" if e["seat"] == TEACHER_SEAT else e["seat"]
            row: list[Any] = [who, event_time(e["t"])]
            if e["kind"] == self.KIND:
                try:
                    cells = self._csv_cells(str(e["move"]), str(e["reason"]))
                except (ValueError, TypeError):  # an edited row: shown as it is
                    cells = [e["move"], *blank[1:]]
                row += [self.EVENT_ES, *cells, "", e["rule"] or "1"]
            elif e["kind"] == "prediction":
                row += ["apuesta", *blank, e["move"], e["rule"] or "1"]
            elif e["kind"] == "group":
                row += ["nuevo grupo", *blank, "", e["move"]]
            else:
                continue
            w.writerow([cell(v) for v in row + ([seat_names.get(e["seat"], "")] if names else [])])
            rows += 1
        return rows
