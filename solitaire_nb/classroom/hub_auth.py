"""Who is asking, in hub mode: the JupyterHub user behind each request to the class service.

A student's board sends its single-user server's token (``Authorization: token …``); the
teacher's browser logs in through the hub (OAuth, then the service's cookie and its XSRF token).
`jupyterhub.services.auth.HubOAuth` asks the hub who holds the token; one without the service's
access scope (``access:services!service=<name>``) is refused (403), and the teacher's routes
need a member of the hub group `TEACHERS`.  `hub_routes` wraps the launcher's own route tables
(`challenge_server.handlers`, `pool_server.handlers`): the same handlers and class core, with the
hub user's seat in place of a page's secret (`HubSeats`; the secret never leaves the service).
"""

from __future__ import annotations

import html
import json
import secrets
import urllib.parse
from typing import Any

from jupyterhub.services.auth import HubOAuthenticated, UserNotAllowed
from tornado.web import HTTPError

from .challenge_server import TeacherPage, _Teacher
from .class_core import ClassCore, Closed

TEACHERS = "docentes"
SECRET_PREFIX = "hub:"

NO_USER = "Esta página es de la clase: entra antes con tu usuario de la plataforma de clase."
NOT_ALLOWED = "Tu usuario de la plataforma de clase no tiene acceso a esta clase."
NOT_TEACHER = f"Esta página es solo para el profesorado (el grupo «{TEACHERS}» de la plataforma de clase)."
NOT_A_USER = "Solo los usuarios de la plataforma de clase tienen asiento en la clase."
NAME_IS_HUB = "En la plataforma de clase, tu nombre es el de tu usuario: aquí no se cambia."
HUB_DOWN = "No se ha podido preguntar a la plataforma de clase quién eres: vuelve a intentarlo en un momento."

#: sent with every request of the teacher's page: the service's cookie is only taken with it.
FETCH_WITH_XSRF = ("<script>(() => {{ const t = {token}; const f = window.fetch.bind(window); "
                   "window.fetch = (u, o = {{}}) => f(u, {{...o, headers: {{...(o.headers || {{}}), "
                   "'X-XSRFToken': t}}}}); }})();</script>")  # fmt: skip


def user_of(secret: str) -> str | None:
    """The hub user a seat's secret was made for (`HubSeats`), None for a page's secret."""
    if not secret.startswith(SECRET_PREFIX):
        return None
    quoted, sep, _ = secret[len(SECRET_PREFIX) :].partition(":")
    return urllib.parse.unquote(quoted) if sep else None


class HubSeats:
    """One seat per hub user in a class core: made at the user's first request, its secret
    naming the user (so a restarted service finds every user's seat in the record), its name
    the user's hub name (shown only to the teacher, as any name)."""

    def __init__(self, core: ClassCore) -> None:
        self.core = core
        self.by_user: dict[str, str] = {}
        for seat in core.seats.values():
            user = user_of(seat.secret)
            if user is not None:
                self.by_user.setdefault(user, seat.secret)

    def secret(self, user: str) -> str:
        """The secret of `user`'s seat (a new seat the first time)."""
        known = self.by_user.get(user)
        if known is not None:
            return known
        made = f"{SECRET_PREFIX}{urllib.parse.quote(user, safe='')}:{secrets.token_urlsafe(9)}"
        self.core.new_seat(secret=made)
        try:
            self.core.set_name(made, user)
        except (ValueError, Closed):  # a name the class refuses, or a class already ended: no name
            pass
        self.by_user[user] = made
        return made


class _HubUser(HubOAuthenticated):
    """Identity from the hub, checked in `prepare` (before any handler reads the request)."""

    hub_user: dict[str, Any]

    async def prepare(self) -> None:
        try:
            model = await self.hub_auth.get_user(self, sync=False)
        except HTTPError:
            return self.hub_refuse(503, HUB_DOWN)
        allowed = None
        if model:
            try:
                allowed = self.check_hub_user(model)
            except UserNotAllowed:
                return self.hub_refuse(403, NOT_ALLOWED)
        self._hub_auth_user_cache = allowed
        if allowed is None:
            return self.no_user()
        self.hub_user = allowed
        self.hub_checked(allowed)

    def no_user(self) -> None:
        self.hub_refuse(403, NO_USER)

    def hub_checked(self, model: dict[str, Any]) -> None:
        """What this route asks of a user the hub has named (refuse with `hub_refuse`)."""

    def hub_refuse(self, status: int, text: str) -> None:
        self.reply({"error": text}, status)


class _HubStudent(_HubUser):
    """A student's board: the user's own seat, whatever seat the request names."""

    hub_seats: HubSeats
    _hub_secret = ""

    def hub_checked(self, model: dict[str, Any]) -> None:
        if model.get("kind", "user") != "user":
            return self.hub_refuse(403, NOT_A_USER)
        self._hub_secret = self.hub_seats.secret(model["name"])

    def body(self) -> dict[str, Any]:
        return {**super().body(), "asiento": self._hub_secret}

    def arg(self, name: str) -> str:
        return self._hub_secret if name == "asiento" else super().arg(name)


class _HubName(_HubStudent):
    def post(self) -> None:
        self.hub_refuse(403, NAME_IS_HUB)


class _HubTeacher(_HubUser):
    """The teacher's routes: members of the hub group `TEACHERS` only."""

    def hub_checked(self, model: dict[str, Any]) -> None:
        if TEACHERS not in (model.get("groups") or []):
            self.hub_refuse(403, NOT_TEACHER)


class _HubTeacherPage(_HubTeacher):
    """The teacher's page: the hub's login first (OAuth), and its requests carry the XSRF token."""

    page: Any

    def no_user(self) -> None:
        self.redirect(self.get_login_url())

    def hub_refuse(self, status: int, text: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        home = html.escape(self.hub_auth.hub_prefix + "home", quote=True)  # the way back: the hub's home
        self.finish(f"<!doctype html><html lang='es'><meta charset='utf-8'><p>{text}</p>"
                    f"<p><a href='{home}'>Volver al inicio</a></p></html>")

    def get(self) -> None:
        token = self.xsrf_token
        guard = FETCH_WITH_XSRF.format(token=json.dumps(token.decode() if isinstance(token, bytes) else token))
        text = self.page.read_text(encoding="utf-8").replace("<script", guard + "<script", 1)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(text)


def hub_routes(routes: list[tuple], seats: HubSeats) -> list[tuple]:
    """The launcher's routes (path, handler, arguments), each handler taking its identity from
    the hub: students' routes their user's seat, the teacher's the group `TEACHERS`."""
    out = []
    for path, handler, args in routes:
        if issubclass(handler, TeacherPage):
            mixin: type = _HubTeacherPage
        elif issubclass(handler, _Teacher):
            mixin = _HubTeacher
        elif path.endswith("/api/nombre"):
            mixin = _HubName
        else:
            mixin = _HubStudent
        out.append((path, type(f"Hub{handler.__name__}", (mixin, handler), {"hub_seats": seats}), args))
    return out
