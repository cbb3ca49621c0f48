"""Notebook 06's try widget and the class pool: the student's side.

Served by the class launcher (``SNB_CLASE_URL`` set in the kernel), the widget gets its seat from
its page's address (`SeatReader`, a tiny front end that sends ``?asiento=`` to the kernel), starts
at the seat's own deal number, sends the number of every deal it counts to the launcher (which
deals it again and counts it itself: the page's counts are never sent) and shows the class's
figure beside the student's own tally; a thread asks for the class's figure now and then.
Without a launcher it says that nothing is pooled and how the class pools by hand.
"""

from __future__ import annotations

import html
import os
import threading
from collections.abc import Callable
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from .challenge import Launcher

URL_ENV = "SNB_CLASE_URL"
POLL_SECONDS = 3.0  # 0: no polling thread (tests call `poll_once`)

BY_HAND = ("<b>La clase.</b> Aquí tu cuenta no se junta con la de nadie: sin el programa de la clase "
           "(<code>python -m solitaire_nb.classroom 06</code>) cada página cuenta solo lo suyo. Apunta cada "
           "reparto en la hoja de recuento; la clase suma las hojas (sumas, no medias) en la pizarra.")  # fmt: skip
WAITING = "<b>La clase.</b> Esperando tu asiento…"
RECORDED = ("Se guardan, en el ordenador de tu profesor, los números de las partidas que repartes y tu "
            "apuesta, con su hora; tu nombre solo si lo escribes.")  # fmt: skip
UNREACHABLE = "no hay conexión con el ordenador de tu profesor; tu cuenta sí lo tiene en cuenta."

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


class PoolPanel(widgets.VBox):
    """The class's part of the try widget: the seat, the class's figure, the prediction and the
    optional name.  `on_seat(start, mine)` is told the seat's first deal number and the deal
    numbers it had already added (a reload)."""

    def __init__(self, launcher: Launcher | None, on_seat: Callable[[int, list[int]], None]) -> None:
        self.launcher = launcher
        self.on_seat = on_seat
        self.secret: str | None = None
        self.seat: int | None = None
        self.version = -1
        self.text = ""  # the class's figure, as the launcher last said it
        self._lock = threading.RLock()
        self.class_html = widgets.HTML(f"<p class='snb-class' role='status'>{WAITING if launcher else BY_HAND}</p>")
        children: list[Any] = [self.class_html]
        if launcher is not None:
            self.reader = SeatReader()
            self.reader.on_msg(lambda _w, content, _b=None: self.join(content.get("secret") if isinstance(content, dict) else None))
            self.bet = widgets.Text(placeholder="p. ej. 7", description="Tu apuesta", layout=widgets.Layout(width="14em"))
            self.bet_button = widgets.Button(description="Mandar apuesta")
            self.name = widgets.Text(placeholder="Tu nombre (si quieres)", layout=widgets.Layout(width="16em"))
            self.name_button = widgets.Button(description="Guardar nombre")
            self.said = widgets.HTML()
            self.bet_button.on_click(lambda _b: self._send_bet())
            self.name_button.on_click(lambda _b: self._send_name())
            children += [self.reader, widgets.HBox([self.bet, self.bet_button, self.name, self.name_button]), self.said,
                         widgets.HTML(f"<p><small>{RECORDED}</small></p>")]  # fmt: skip
        super().__init__(children)

    # ------------------------------------------------------------------ seat and figure
    def join(self, secret: Any) -> None:
        """The page's secret (from its address): ask the launcher for the seat."""
        if self.launcher is None or not isinstance(secret, str) or not secret or self.secret is not None:
            return
        status, answer = self.launcher.call("/clase/api/estado", query={"asiento": secret})
        if status != 200:
            self.class_html.value = ("<p class='snb-class' role='status'><b>La clase.</b> Esta página no tiene asiento "
                                     "en la clase: ábrela desde la dirección que da tu profesor.</p>")  # fmt: skip
            return
        self.secret, self.seat = secret, answer.get("asiento")
        self.reader.seat = int(self.seat or 0)
        self.show(answer)
        self.on_seat(int(answer.get("inicio", 0)), [n for n in answer.get("mias", []) if isinstance(n, int)])
        if POLL_SECONDS > 0:
            threading.Thread(target=self._poll, daemon=True, name="clase-poll").start()

    def show(self, answer: dict | None = None, problem: str = "") -> None:
        """The class's figure of a launcher's answer (None: the last one), and what went wrong."""
        with self._lock:
            if answer:
                self.version = answer.get("version", self.version)
                self.text = str((answer.get("clase") or {}).get("texto", self.text))
            seat = f" Tu asiento: <b>{html.escape(str(self.seat))}</b>." if self.seat is not None else ""
            extra = f" <i>{html.escape(problem)}</i>" if problem else ""
            self.class_html.value = f"<p class='snb-class' role='status'><b>La clase.</b> {html.escape(self.text)}{seat}{extra}</p>"

    def send_deal(self, number: int) -> bool:
        """Add partida nº `number` to the class; True when the launcher took it."""
        if self.launcher is None or self.secret is None:
            return False
        status, answer = self.launcher.call("/clase/api/reparto", {"asiento": self.secret, "partida": number})
        if status == 200:
            self.show(answer, "" if answer.get("nueva") else "Esa partida ya la había repartido alguien: la clase la cuenta una vez.")
            return True
        why = UNREACHABLE if status == 0 or status >= 500 else str(answer.get("error") or "el ordenador de tu profesor no la ha aceptado.")
        self.show(None, f"Esta partida no se ha sumado a la clase: {why}")
        return False

    def poll_once(self) -> None:
        """Ask the launcher for the class's figure; show it when it changed."""
        if self.launcher is None or self.secret is None:
            return
        status, answer = self.launcher.call("/clase/api/estado", query={"asiento": self.secret})
        if status == 200 and answer.get("version") != self.version:
            self.show(answer)

    def _poll(self) -> None:
        import time

        while True:
            time.sleep(POLL_SECONDS)
            self.poll_once()

    # ------------------------------------------------------------------ prediction and name
    def _send_bet(self) -> None:
        self._send("/clase/api/apuesta", {"apuesta": self.bet.value}, "apuesta", "Apuesta mandada")

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


def class_launcher() -> Launcher | None:
    """The class launcher seen from this kernel, or None when it was not started by one."""
    base = os.environ.get(URL_ENV)
    return Launcher(base) if base else None
