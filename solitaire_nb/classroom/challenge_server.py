"""The class challenge's HTTP side, served by the launcher beside the student pages.

Students' pages (their kernels) use ``/reto/api/…`` with their page's secret: they can send
events for their own seat and read their own state, nothing else.  The teacher's page
(``/docente``) and its ``/docente/api/…`` need the token printed in the teacher's terminal.  All
answers are JSON except the teacher's page and the CSV.  Handlers only translate HTTP into calls
on `challenge_state.Challenge`.
"""

from __future__ import annotations

import io
import json
import secrets
from pathlib import Path
from typing import Any

import tornado.web
from tornado.ioloop import IOLoop

from . import inbound
from .challenge_state import Challenge, Closed, NotYourSeat
from .summary import players_of, summary, summary_from_codes, write_csv

NOTHING_SAVED = ("No hay tabla que descargar: esta clase no está guardando sus partidas en ningún archivo "
                 "(se arrancó sin él o dejó de poder escribir en él; el programa lo dijo en su ventana).")
"""The CSV's refusal when the class keeps no record (the teacher reads it, in plain words)."""

TEACHER_PAGE = Path(__file__).resolve().parent.parent / "templates" / "reto_docente.html"
BODY_MAX = 4096


#: the Spanish answer of each refused status without a message of its own.
_STATUS_ES = {400: "El ordenador de la clase no ha entendido lo que mandó esta página.",
              403: "Esta página no tiene permiso para hacer eso.",
              404: "Esa dirección no existe en el ordenador de la clase.",
              405: "Esa dirección no acepta lo que mandó esta página.",
              409: "El reto está en pausa o terminado.", 413: "Lo que mandó esta página es demasiado grande."}  # fmt: skip
LOOPBACK = ("127.0.0.1", "::1")


class _Json(tornado.web.RequestHandler):
    """JSON in and out; never a traceback.  Authenticated by a secret or token in the request
    itself (no cookie), so the cookie-based XSRF check does not apply.  Every body and query
    value is checked (`inbound`) before any call that changes something; a request no page
    sends is answered 400 in Spanish and said once per kind on the teacher's terminal."""

    body_max = BODY_MAX

    def initialize(self, challenge: Any, token: str, said: set[str]) -> None:
        self.challenge = challenge  # the class core: a `Challenge`, or a lesson's `pool_state.Pool`
        self.token = token
        self.said = said  # kinds of bad request already told to the teacher (shared by every route)

    def check_xsrf_cookie(self) -> None:
        return None

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")

    def body(self) -> dict[str, Any]:
        return inbound.parse_body(self.request.body, self.body_max)

    def arg(self, name: str) -> str:
        """A query argument as sent ("" when absent); BadRequest when it is not valid text."""
        values = self.request.query_arguments.get(name) or [b""]
        try:
            text = values[0].decode("utf-8")
        except UnicodeDecodeError:
            raise inbound.BadRequest("La dirección de la página tiene caracteres que no se pueden leer: recárgala y "
                                     "vuelve a intentarlo.", "texto que no es UTF-8", f"en «{name}»") from None
        return inbound.text_field(text, f"«{name}»", 200)

    def reply(self, data: Any, status: int = 200) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(data, ensure_ascii=False))

    def refuse(self, exc: Exception, status: int = 400) -> None:
        """Answer a refused request with its Spanish message; tell the teacher once per kind of
        request no page sends."""
        kind = getattr(exc, "kind", None)
        detail = f": {getattr(exc, 'detail', '')}" if getattr(exc, "detail", "") else ""
        if kind is not None and kind not in self.said:
            self.said.add(kind)
            self.challenge.say(
                f"Aviso: se ha rechazado una petición que ninguna página manda ({kind}{detail}); la clase sigue. "
                "Si se repite no se vuelve a avisar."
            )
        self.reply({"error": str(exc)}, status)

    def _handle_request_exception(self, e: BaseException) -> None:
        if isinstance(e, inbound.BadRequest):
            return self.refuse(e)
        if isinstance(e, tornado.web.HTTPError) or self._finished:
            return super()._handle_request_exception(e)
        # A fault of this program, not of the request: one Spanish line, no traceback.
        kind = f"error del programa: {type(e).__name__}"
        if kind not in self.said:
            self.said.add(kind)
            self.challenge.say(f"Aviso: una petición de una página ha fallado ({kind}); la clase sigue.")
        self.reply({"error": "El ordenador del profesor o profesora no ha podido atender la petición."}, 500)

    def log_exception(self, typ, value, tb) -> None:
        return None  # the refusal itself says what happened (refuse / _handle_request_exception)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.reply({"error": _STATUS_ES.get(status_code, _STATUS_ES[400])}, status_code)


class _Teacher(_Json):
    def prepare(self) -> None:
        given = self.request.headers.get("X-Token", "")
        token = self.request.query_arguments.get("token")
        if token:
            given = token[0].decode("latin-1")
        if not secrets.compare_digest(given.encode("utf-8", "replace"), self.token.encode()):
            raise tornado.web.HTTPError(403)


# ---------------------------------------------------------------------- students' pages
class EventHandler(_Json):
    def post(self) -> None:
        d = self.body()  # «regla» and «motivo», if a page sends them, are not read
        try:
            answer = self.challenge.event(d.get("asiento"), d.get("suceso"), d.get("movimiento", ""))
        except NotYourSeat as exc:
            return self.reply({"error": str(exc)}, 403)
        except Closed as exc:
            return self.reply({"error": str(exc), **self.challenge.state}, 409)
        except inbound.BadRequest as exc:
            return self.refuse(exc)
        except ValueError as exc:
            return self.reply({"error": str(exc)}, 400)
        self.reply({**answer, **self.challenge.state})


class StateHandler(_Json):
    def get(self) -> None:
        try:  # only the page's own board (its kernel, on this computer) takes the seat
            self.reply(self.challenge.page_state(self.arg("asiento"), join=self.request.remote_ip in LOOPBACK))
        except NotYourSeat as exc:
            self.reply({"error": str(exc)}, 403)


class NameHandler(_Json):
    def post(self) -> None:
        d = self.body()
        try:
            self.reply({"nombre": self.challenge.set_name(d.get("asiento"), d.get("nombre"))})
        except NotYourSeat as exc:
            self.reply({"error": str(exc)}, 403)
        except Closed as exc:
            self.reply({"error": str(exc)}, 409)


# ---------------------------------------------------------------------- the teacher's page
class TeacherPage(_Teacher):
    page = TEACHER_PAGE

    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(self.page.read_text(encoding="utf-8"))


class ClassHandler(_Teacher):
    def get(self) -> None:
        self.reply(self.challenge.view())


class OrderHandler(_Teacher):
    def post(self) -> None:
        d = self.body()
        try:
            self.challenge.command(d.get("orden"), inbound.json_switch(d.get("valor"), "«valor»", True))
        except inbound.BadRequest as exc:
            return self.refuse(exc)
        except ValueError as exc:
            return self.reply({"error": str(exc)}, 400)
        self.reply(self.challenge.state)


class StepHandler(_Teacher):
    """One step of a student's line, drawn as the board draws it («Mostrar»)."""

    def get(self) -> None:
        from ..engine.share import load_share
        from ..games.notation import parse_move
        from ..render.draw import render_svg

        seat = inbound.ascii_number(self.arg("asiento"), "el número de asiento")
        step = inbound.ascii_number(self.arg("paso"), "el paso", default=0)
        names = inbound.query_switch(self.arg("nombres"), "«nombres»")
        try:
            line = self.challenge.line(seat)
        except ValueError as exc:
            return self.reply({"error": str(exc)}, 400)
        step = max(0, min(step, len(line)))
        game = load_share(self.challenge.deal)
        for text in line[:step]:
            game.move(parse_move(game, text))
        label = "Línea de un alumno"
        if names:
            s = self.challenge.seats[seat]
            label = f"Asiento {seat}" + (f" · {s.name}" if s.name else "")
        self.reply({"svg": render_svg(game), "paso": step, "pasos": len(line), "etiqueta": label,
                    "movimiento": line[step - 1] if step else "", "base": game.foundation_cards()})  # fmt: skip


class CsvHandler(_Teacher):
    def get(self) -> None:
        names = inbound.query_switch(self.arg("nombres"), "«nombres»")
        rec = self.challenge.record
        if rec is None:
            return self.reply({"error": NOTHING_SAVED}, 404)
        buf = io.StringIO()
        write_csv(rec.events(), {s: n for s, _, n in rec.seats()}, buf, names)
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="reto.csv"')
        self.finish(buf.getvalue())


class SummaryHandler(_Teacher):
    async def get(self) -> None:
        c = self.challenge
        players = players_of(c)
        events = list(c.refusal_log)
        text = await IOLoop.current().run_in_executor(None, summary, c.deal, players, events)
        self.reply({"resumen": text})


class CodesHandler(_Teacher):
    """The summary of share codes pasted by the students of a class without a server."""

    body_max = 200_000

    async def post(self) -> None:
        codes = self.body().get("codigos", "")
        if not isinstance(codes, str):
            return self.reply({"error": "Pega los códigos como texto, uno por línea."}, 400)
        text = await IOLoop.current().run_in_executor(None, summary_from_codes, self.challenge.deal, codes)
        self.reply({"resumen": text})


def handlers(challenge: Challenge, token: str, prefix: str = "/") -> list[tuple]:
    """The tornado routes of the challenge, to put before Voila's own."""
    args = {"challenge": challenge, "token": token, "said": set()}
    base = prefix.rstrip("/")
    routes = [
        ("/reto/api/evento", EventHandler), ("/reto/api/estado", StateHandler), ("/reto/api/nombre", NameHandler),
        ("/docente", TeacherPage), ("/docente/api/clase", ClassHandler), ("/docente/api/orden", OrderHandler),
        ("/docente/api/paso", StepHandler), ("/docente/api/csv", CsvHandler), ("/docente/api/resumen", SummaryHandler),
        ("/docente/api/codigos", CodesHandler),
    ]  # fmt: skip
    return [(base + path, handler, args) for path, handler in routes]
