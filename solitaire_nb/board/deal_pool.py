"""The class pool, the student's side: the class's part of 06's try widget, 07's class play
and 08's lab (`PoolPanel`).

Served by the class launcher (``SNB_CLASE_URL`` set in the kernel), the panel gets its seat from
its page's address (`SeatReader`, a tiny front end that sends ``?asiento=`` to the kernel), tells
its widget the seat's state (06: the seat's own first deal number), sends what the widget adds
(06 a deal's number: the launcher deals it again and counts it itself; 07 a deal's result; 08 a
pair's game) and shows the class's figure and table beside the student's own; a thread asks for
them now and then.  Without a launcher it says that nothing is pooled and how the class pools by
hand (`BY_HAND`, one sentence per lesson: also the widgets' picture without a kernel).  Under a
JupyterHub the lesson's pool is a service of the hub (``SNB_HUB_CLASE06_URL``…, `HUB_URL_ENV`):
the panel sends with its server's token and the service takes the hub user's own seat.  While
the server cannot be reached what the widget adds waits «sin guardar» (`class_link.Outbox`) and
is sent, in order, once it answers (each entry counts once there: sending one twice changes nothing).
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from .challenge import HUB_SEAT
from .class_link import Launcher, Outbox, Waiting, find_launcher, unreachable, unsaved_line, where

URL_ENV = "SNB_CLASE_URL"
HUB_URL_ENV = "SNB_HUB_CLASE{lesson}_URL"  # a lesson's pool under a JupyterHub (classroom.hub), set by the hub's spawner
POLL_SECONDS = 3.0  # 0: no polling thread (tests call `poll_once`)

_ALONE = "<b>La clase.</b> Esta página no está conectada a la clase: {what}. "
#: how the class pools by hand, per lesson (JupyterLab alone, the static app, a picture of the page).
BY_HAND = {
    "06": _ALONE.format(what="tus repartos no se suman a los de los demás")
    + "Apunta cada reparto en la hoja de recuento; la clase suma las hojas (sumas, no medias) en la pizarra.",
    "07": _ALONE.format(what="tus partidas no se suman a las de los demás")
    + "Apunta cada partida en la hoja de recuento (su número y si la ganas, te rindes o se queda sin terminar); la "
    "clase suma las hojas en la pizarra, en tres columnas: las partidas sin terminar no cuentan como perdidas.",
    "08": _ALONE.format(what="vuestro juego no llega solo a la tabla de la clase")
    + "Apuntad vuestro juego y sus tres cuentas (con solución, sin solución, sin decidir) en la hoja de «Inventa tu "
    "juego»; la clase copia las hojas en una tabla en la pizarra, una fila por pareja.",
}
WAITING = "<b>La clase.</b> Esperando tu asiento…"
_KEPT = "Se guardan, en el ordenador de tu profesor o profesora, {what}, con su hora; {who} solo si {write}."
RECORDED = {
    "06": _KEPT.format(what="los números de las partidas que repartes y tu predicción", who="tu nombre", write="lo escribes"),
    "07": _KEPT.format(what="los números de las partidas que juegas, cómo acaba cada una y los movimientos de las que "
                       "ganas", who="tu nombre", write="lo escribes"),
    "08": _KEPT.format(what="el juego que mandáis, su nombre y sus cuentas", who="vuestros nombres", write="los escribís"),
}
_KEPT_HUB = "Se guardan, en el servidor del centro, {what}, con su hora y {who} (solo lo ve tu profesor o profesora)."
RECORDED_HUB = {
    "06": _KEPT_HUB.format(what="los números de las partidas que repartes y tu predicción", who="tu usuario"),
    "07": _KEPT_HUB.format(what="los números de las partidas que juegas, cómo acaba cada una y los movimientos de las "
                           "que ganas", who="tu usuario"),
    "08": _KEPT_HUB.format(what="el juego que mandáis, su nombre y sus cuentas", who="vuestro usuario"),
}

_SEAT_JS = """
export default {
  render({ model }) {
    const secret = new URLSearchParams(location.search).get("asiento") || "";
    let asked = 0;
    const ask = () => {
      if (model.get("seat") || asked++ >= 30) return;
      model.send({ event: "seat", secret });
      setTimeout(ask, 2000);
    };
    ask();
  },
};
"""


class SeatReader(anywidget.AnyWidget):
    """Sends the page's ``?asiento=`` secret to the kernel until the kernel has a seat."""

    _esm = _SEAT_JS
    seat = traitlets.Int(0).tag(sync=True)


# ipywidgets sizes an HTML widget's content to its widest line: the sentence wraps to the page and
# the class's table scrolls sideways in its own box instead (a phone held upright).
_STYLE = ("<style>.snb-class-html > .widget-html-content{flex:1 1 0;min-width:0;width:100%}"
          ".snb-class-table{border-collapse:collapse;line-height:1.3}.snb-class-table td,.snb-class-table th"
          "{border-bottom:1px solid #ccc;vertical-align:top}</style>")  # fmt: skip


def table_html(table: dict | None) -> str:
    """The class's table of a launcher's answer (07, 08) as HTML, in a box that scrolls sideways
    on a phone."""
    if not isinstance(table, dict) or not table.get("filas"):
        return ""
    head = "".join(f"<th style='padding:2px 8px;text-align:left'>{html.escape(str(h))}</th>" for h in table.get("cabecera", []))
    rows = "".join("<tr>" + "".join(f"<td style='padding:2px 8px'>{html.escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in table["filas"] if isinstance(row, list))  # fmt: skip
    caption = html.escape(str(table.get("titulo", "")))
    return (f"<div style='overflow-x:auto;max-width:100%' role='region' aria-label='{caption}' tabindex='0'>"
            f"<table class='snb-class-table'><caption style='text-align:left'>{caption}</caption>"
            f"<tr>{head}</tr>{rows}</table></div>")


class PoolPanel(widgets.VBox):
    """The class's part of a lesson's widget: the seat, the class's figure (and table), the
    prediction (06) and the optional name.  `on_seat(answer)` is told the launcher's state of
    the seat (its first deal, what it had already added: a reload)."""

    def __init__(self, launcher: Launcher | None, on_seat: Callable[[dict], None], lesson: str = "06") -> None:
        self.launcher = launcher
        self.hub = launcher is not None and bool(launcher.token)  # a hub's service: the seat is the hub user's
        self.on_seat = on_seat
        self.lesson = lesson
        self.secret: str | None = None
        self.seat: int | None = None
        self.version = -1
        self.text = ""  # the class's figure, as the launcher last said it
        self._lock = threading.RLock()
        self.table = ""  # the class's table (07, 08), as HTML
        self._group: Any = None  # the launcher's group when this page last heard from it
        self.outbox = Outbox()  # what the widget added while the server could not be reached
        self.class_html = widgets.HTML(f"<p class='snb-class' role='status'>{WAITING if launcher else BY_HAND[lesson]}</p>")
        self.class_html.add_class("snb-class-html")
        children: list[Any] = [widgets.HTML(_STYLE), self.class_html]
        if launcher is not None:
            self.reader = SeatReader()
            self.reader.on_msg(lambda _w, content, _b=None: self.join(content.get("secret") if isinstance(content, dict) else None))
            self.bet = widgets.Text(placeholder="p. ej. 7", description="Predicción", layout=widgets.Layout(width="14em"))
            self.bet_button = widgets.Button(description="Mandar predicción")
            who = "Vuestros nombres (si queréis)" if lesson == "08" else "Tu nombre (si quieres)"
            self.name = widgets.Text(placeholder=who, layout=widgets.Layout(width="16em"))
            self.name_button = widgets.Button(description="Guardar nombre")
            self.said = widgets.HTML()
            self.bet_button.on_click(lambda _b: self._send_bet())
            self.name_button.on_click(lambda _b: self._send_name())
            row = [self.bet, self.bet_button] if lesson == "06" else []
            if not self.hub:  # under a hub the name is the user's (the service refuses another)
                row += [self.name, self.name_button]
            kept = (RECORDED_HUB if self.hub else RECORDED)[lesson]
            children += [self.reader, widgets.HBox(row, layout=widgets.Layout(flex_flow="row wrap")), self.said,
                         widgets.HTML(f"<p><small>{kept}</small></p>")]  # fmt: skip
        super().__init__(children)

    # ------------------------------------------------------------------ seat and figure
    def join(self, secret: Any) -> None:
        """The page's secret (from its address): ask the launcher for the seat.  Under a hub
        the page has none (empty): the service gives the hub user's own seat."""
        if self.hub and secret == "":
            secret = HUB_SEAT
        if self.launcher is None or not isinstance(secret, str) or not secret or self.secret is not None:
            return
        status, answer = self.launcher.call("/clase/api/estado", query={"asiento": secret})
        if status != 200:
            why = "Esta página no tiene asiento en la clase: ábrela desde la dirección que da tu profesor o profesora."
            if self.hub:  # the service's own reason (no access, the hub down), or no connection
                why = str(answer.get("error") or f"Tu página no está conectada a la clase. {unsaved_line(self.launcher)}")
            self.class_html.value = f"<p class='snb-class' role='status'><b>La clase.</b> {html.escape(why)}</p>"
            return
        self.secret, self.seat = secret, answer.get("asiento")
        self.reader.seat = int(self.seat or 0)
        self._group = answer.get("grupo")
        self.show(answer)
        self.on_seat(answer)
        if POLL_SECONDS > 0:
            threading.Thread(target=self._poll, daemon=True, name="clase-poll").start()

    def show(self, answer: dict | None = None, problem: str = "") -> None:
        """The class's figure of a launcher's answer (None: the last one), and what went wrong."""
        with self._lock:
            if answer:
                self.version = answer.get("version", self.version)
                figure = answer.get("clase") or {}
                self.text = str(figure.get("texto", self.text))
                self.table = table_html(figure.get("tabla"))
            seat = f" Tu asiento: <b>{html.escape(str(self.seat))}</b>." if self.seat is not None else ""
            extra = f" <i>{html.escape(problem)}</i>" if problem else ""
            self.class_html.value = (f"<p class='snb-class' role='status'><b>La clase.</b> {html.escape(self.text)}{seat}{extra}</p>"
                                     + self.table)  # fmt: skip

    def send(self, route: str, data: dict, what: str = "Esta partida no se ha sumado a la clase") -> dict | None:
        """Send what the widget adds on ``/clase/api/<route>``: the launcher's answer when it
        took it (shown), else None (the reason shown after `what`; a server out of reach: it
        waits «sin guardar», behind what already waits, and the poller sends it)."""
        if self.launcher is None or self.secret is None:
            return None
        path, body = f"/clase/api/{route}", {"asiento": self.secret, **data}
        with self.outbox.lock:  # after what waits, never before it
            if not len(self.outbox):
                status, answer = self.launcher.call(path, body)
                if status == 200:
                    self.show(answer)
                    return answer
                if not unreachable(status):
                    self.show(None, f"{what}: {self._refusal(answer)}")
                    return None
            self.outbox.add(path, body, what)
        self.show(None, unsaved_line(self.launcher))
        return None

    def _refusal(self, answer: dict) -> str:
        return str(answer.get("error") or f"{where(self.launcher)} no la ha aceptado.")

    def flush(self) -> bool:
        """Send what waits, in order (an entry the server refuses: said, and the next goes);
        True when nothing waits any more."""
        if self.launcher is None or not len(self.outbox):
            return True
        problems: list[str] = []

        def answered(item: Waiting, status: int, answer: dict) -> bool:
            if status == 200:
                self.show(answer)
            else:
                problems.append(f"{item.note}: {self._refusal(answer)}")
            return True

        done = self.outbox.send(self.launcher, answered)
        self.show(None, " ".join(problems) if done else unsaved_line(self.launcher))
        return done

    def send_deal(self, number: int) -> bool:
        """Add partida n.º `number` to the class (06); True when the launcher took it."""
        answer = self.send("reparto", {"partida": number})
        if answer is not None and not answer.get("nueva"):
            self.show(answer, "Esa partida ya la había repartido alguien: la clase la cuenta una vez.")
        return answer is not None

    def poll_once(self) -> None:
        """Ask the launcher for the class's figure; show it when it changed."""
        if self.launcher is None or self.secret is None:
            return
        status, answer = self.launcher.call("/clase/api/estado", query={"asiento": self.secret})
        if status == 200 and len(self.outbox):
            self.flush()  # the figure after them comes with the next poll
            return
        if status == 200 and answer.get("version") != self.version:
            if self._group is not None and answer.get("grupo") != self._group:
                self.on_seat(answer)  # the teacher started a new group: the widget starts again
            self._group = answer.get("grupo")
            self.show(answer)

    def _poll(self) -> None:
        import time

        while True:
            time.sleep(POLL_SECONDS)
            self.poll_once()

    # ------------------------------------------------------------------ prediction and name
    def _send_bet(self) -> None:
        self._send("/clase/api/apuesta", {"apuesta": self.bet.value}, "apuesta", "Predicción mandada")

    def _send_name(self) -> None:
        self._send("/clase/api/nombre", {"nombre": self.name.value}, "nombre", "Nombre guardado")

    def _send(self, path: str, data: dict, key: str, done: str) -> None:
        if self.launcher is None or self.secret is None:
            self.said.value = "Todavía no tienes asiento."
            return
        status, answer = self.launcher.call(path, {"asiento": self.secret, **data})
        if status == 200:
            self.said.value = f"{done}: {html.escape(str(answer.get(key, '')))}"
        else:
            self.said.value = html.escape(str(answer.get("error") or "No se ha podido mandar."))


def class_launcher(launcher: Launcher | None | bool = True, lesson: str = "06") -> Launcher | None:
    """The class launcher seen from this kernel (`launcher` True), or the hub's service of
    `lesson`'s pool, or None when there is neither; a widget's own `launcher` (a test's) as it is."""
    if launcher is not True:
        return launcher or None
    return find_launcher(URL_ENV, HUB_URL_ENV.format(lesson=lesson))[0]
