"""The HTTP side of a lesson's class pool, served by the launcher beside the lesson's pages.

The same class core as the challenge's (`challenge_server`): every body and query value is
checked by `inbound` before anything changes, a refusal is a Spanish JSON answer, the teacher's
routes need the token printed in the teacher's terminal.  Students' widgets (their kernels) use
``/clase/api/…`` with their page's secret, each lesson one route of its own to add what it pools
(`Pool.ADD_ROUTE`: 06 ``reparto``, 07 ``partida``, 08 ``juego``); the teacher's page is ``/docente``.
"""

from __future__ import annotations

import io
from pathlib import Path

from ..core.checks import shown
from . import inbound
from .challenge_server import LOOPBACK, NOTHING_SAVED, ClassHandler, NameHandler, TeacherPage, _Json, _Teacher
from .class_core import NotYourSeat
from .pool_state import Pool

POOL_PAGE = Path(__file__).resolve().parent.parent / "templates" / "clase_docente.html"


class PoolStateHandler(_Json):
    def get(self) -> None:
        try:  # only the page's own widget (its kernel, on this computer) takes the seat
            self.reply(self.challenge.page_state(self.arg("asiento"), join=self.request.remote_ip in LOOPBACK))
        except NotYourSeat as exc:
            self.reply({"error": str(exc)}, 403)


class AddHandler(_Json):
    """What a student's widget adds to the class: 06 a deal's number (its counts are the
    pool's), 07 a deal played and how it ended, 08 a pair's game and its counts."""

    body_max = 64_000  # 07: a won deal's whole line

    def post(self) -> None:
        d = self.body()
        try:
            self.reply(self.challenge.add(d.get("asiento"), d))
        except NotYourSeat as exc:
            self.reply({"error": str(exc)}, 403)
        except inbound.BadRequest as exc:
            self.refuse(exc)
        except ValueError as exc:
            self.reply({"error": str(exc)}, 400)


class PredictionHandler(_Json):
    def post(self) -> None:
        d = self.body()
        try:
            self.reply({"apuesta": self.challenge.predict(d.get("asiento"), d.get("apuesta"))})
        except NotYourSeat as exc:
            self.reply({"error": str(exc)}, 403)


class PoolTeacherPage(TeacherPage):
    page = POOL_PAGE


class TeacherPredictionHandler(_Teacher):
    def post(self) -> None:
        d = self.body()
        try:
            self.reply({"apuesta": self.challenge.teacher_predict(d.get("apuesta"))})
        except inbound.BadRequest as exc:
            self.refuse(exc)
        except ValueError as exc:
            self.reply({"error": str(exc)}, 400)


class ClearHandler(_Teacher):
    """«Vaciar»: the pool's deals and predictions out, for good (asked again on the page)."""

    def post(self) -> None:
        d = self.body()
        if inbound.json_switch(d.get("seguro"), "«seguro»", False) is not True:
            return self.reply({"error": "Para vaciar la clase hace falta confirmarlo: pulsa otra vez «Vaciar la clase» y después «Sí, vaciarla»."}, 400)
        self.challenge.clear()
        self.reply(self.challenge.view())


class NewGroupHandler(_Teacher):
    """«Nuevo grupo»: an empty pool for the next class in the same record (asked again on the page)."""

    def post(self) -> None:
        d = self.body()
        if inbound.json_switch(d.get("seguro"), "«seguro»", False) is not True:
            return self.reply({"error": "Para empezar un grupo nuevo hace falta confirmarlo: pulsa otra vez «Nuevo grupo» y después «Sí, grupo nuevo»."}, 400)
        self.challenge.new_group()
        self.reply(self.challenge.view())


class RemoveSeatHandler(_Teacher):
    """One seat's deals, prediction and name out of the pool."""

    def post(self) -> None:
        seat = self.body().get("asiento")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise inbound.BadRequest("La página no ha enviado bien el número del asiento: recárgala y vuelve a intentarlo.",
                                     "un número no válido", f"asiento {shown(seat)}")
        try:
            self.challenge.remove_seat(seat)
        except ValueError as exc:
            return self.reply({"error": str(exc)}, 400)
        self.reply(self.challenge.view())


class PoolCsvHandler(_Teacher):
    def get(self) -> None:
        names = inbound.query_switch(self.arg("nombres"), "«nombres»")
        if self.challenge.record is None:
            return self.reply({"error": NOTHING_SAVED}, 404)
        buf = io.StringIO()
        self.challenge.write_csv(buf, names)
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="clase-{self.challenge.lesson}.csv"')
        self.finish(buf.getvalue())


def handlers(pool: Pool, token: str, prefix: str = "/") -> list[tuple]:
    """The tornado routes of a lesson's pool, to put before Voila's own."""
    args = {"challenge": pool, "token": token, "said": set()}
    base = prefix.rstrip("/")
    routes = [
        ("/clase/api/estado", PoolStateHandler), (f"/clase/api/{pool.ADD_ROUTE}", AddHandler),
        ("/clase/api/apuesta", PredictionHandler), ("/clase/api/nombre", NameHandler),
        ("/docente", PoolTeacherPage), ("/docente/api/clase", ClassHandler),
        ("/docente/api/apuesta", TeacherPredictionHandler), ("/docente/api/vaciar", ClearHandler), ("/docente/api/grupo", NewGroupHandler),
        ("/docente/api/quitar", RemoveSeatHandler), ("/docente/api/csv", PoolCsvHandler),
    ]  # fmt: skip
    return [(base + path, handler, args) for path, handler in routes]
