"""The student's side of a class challenge: the challenge page and its board.

`challenge_page(code)` shows one board with the challenge's deal, «Pista» and the solver's
buttons off unless the teacher switches them on.  Served by the launcher (``SNB_RETO_URL`` set),
the board gets its seat from its page's secret and, after a reload, its line back; it sends every
move, undo, refused move and hint use to the launcher, which checks and records it, and polls
for pause, resume and end.  Without a server the page shows the share code of the student's line
(`solitaire_nb.classroom.summary.summary_from_codes`).

The board and the record never disagree: a move, undo or redo is drawn at once, then sent, and
taken back with a Spanish line on any answer but success.  After a lost answer the board asks
for its line before the next move; a board whose line extends the launcher's (a restart lost
unsaved events) sends its extra moves again instead of going back.
"""

from __future__ import annotations

import html
import json
import os
import threading
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from ..core.moves import Move
from ..engine import Game
from ..engine.share import load_share
from ..games.notation import format_move, parse_move
from .buttons import Buttons
from .widget import Board

URL_ENV = "SNB_RETO_URL"
HUB_URL_ENV = "SNB_HUB_RETO_URL"  # the class service under a JupyterHub (classroom.hub), set by the hub's spawner
HUB_SEAT = "hub"  # the seat a board under a hub names: the service takes its user's own
POLL_SECONDS = 0.5  # 0: no polling thread (tests call `poll_once`)
TIMEOUT = 5.0

INTRO = "Este es el reto de la clase: todos jugáis el mismo reparto. ¿Quién llega más lejos?"
RECORDED = ("Se registran, en el ordenador de tu profesor, tus movimientos, lo que deshaces, los movimientos "
            "no permitidos que intentas y las pistas que pides, con su hora; tu nombre es opcional.")  # fmt: skip
PAUSED = "El reto está en pausa. Espera a que tu profesor lo reanude."
ENDED = "El reto ha terminado: ya no se puede mover."
RESUMED = "El reto sigue: ya puedes mover."
REOPENED = "Tu profesor ha reabierto el reto: sigue jugando donde lo dejaste."
SAME_DEAL = "En el reto todos jugáis el mismo reparto: aquí no se cambia de partida."
NO_SEAT = "Esta página no tiene asiento en el reto: ábrela desde la dirección de la clase."
WHAT = {"move": "Tu movimiento no se ha guardado y ha vuelto atrás.", "undo": "No se ha podido deshacer: no se ha guardado.",
        "redo": "No se ha podido rehacer: no se ha guardado."}  # fmt: skip
NOT_TAKEN = "{what} {why}"
UNREACHABLE = "No hay conexión con el ordenador de tu profesor: vuelve a intentarlo en un momento."
REFUSED = "El ordenador de tu profesor no lo ha aceptado."
UNSAVED = " (Aún sin guardar: se guardará automáticamente en cuanto se pueda. Tú sigue jugando.)"
REPLAYED = "Tu partida sigue donde la dejaste: se han vuelto a mandar {n} que no se habían guardado."


class Launcher:
    """The launcher's challenge routes, seen from a kernel (JSON over local HTTP)."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base.rstrip("/")
        self.token = token  # under a hub: the single-user server's token, which names the user

    def call(self, path: str, data: dict | None = None, query: dict | None = None) -> tuple[int, dict]:
        """(status, JSON answer); (0, {}) when the launcher cannot be reached."""
        url = f"{self.base}{path}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
        body = json.dumps(data).encode() if data is not None else None
        req = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
        if self.token:
            req.add_header("Authorization", f"token {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"{}")
            except ValueError:
                return e.code, {}
        except (OSError, ValueError):
            return 0, {}


class _ChallengeButtons(Buttons):
    """A challenge's buttons: no new deal nor loaded game; undo, redo and hints reported."""

    board: ChallengeBoard

    def press(self, action: Any, msg: dict) -> Game | None:
        if action in ("new", "load"):
            self.board.say(SAME_DEAL, "error")
            return None
        allowed = self.refusal(action) is None if action in ("hint", "solvable", "solution") else False
        game = super().press(action, msg)
        if allowed:
            self.board._report("hint", action)
        return game

    def undo(self, msg: dict) -> None:
        board = self.board
        before = board.game.moves_played
        super().undo(msg)
        if board.game.moves_played < before:
            board._sync("undo", "", board.game.redo)

    def redo(self, msg: dict) -> None:
        board = self.board
        before = board.game.moves_played
        super().redo(msg)
        if board.game.moves_played > before:
            board._sync("redo", format_move(board.game, board.game.history[-1], sep="-"), board.game.undo)


class ChallengeBoard(Board):
    """A board of a class challenge: one deal, no new deal nor loaded game (its view says
    ``reto``, and the front end hides those controls), and every event sent to the launcher
    (`launcher` None: a class without a server)."""

    _restores_other_deals = False
    buttons_type = _ChallengeButtons

    def __init__(self, code: str, launcher: Launcher | None = None, **kwargs: Any) -> None:
        self._launcher = launcher
        self._secret: str | None = None
        self._state: dict[str, Any] = {"paused": False, "ended": False, "hints": False, "solution": False}
        self._lock = threading.RLock()
        self._poller: threading.Thread | None = None
        self.seat: int | None = None
        self._said_no_seat = False
        self._stale = False  # an answer was lost: the launcher's line is asked before the next move
        self._sent = 0  # events sent, so a poll's answer older than one of them is not taken for a line
        self.on_seat: list[Any] = []  # callables(seat) told when the page gets its seat
        kwargs.setdefault("hints", False)
        kwargs.setdefault("solution", False)
        super().__init__(load_share(code), **kwargs)

    # ------------------------------------------------------------------ front end
    def handle(self, msg: Any) -> None:
        with self._lock:
            super().handle(msg)

    def _view_state(self) -> dict[str, Any]:
        return {**super()._view_state(), "reto": True, "seat": self.seat}

    def _dispatch(self, msg: Any) -> None:
        event = msg.get("event") if isinstance(msg, dict) else None
        if event == "seat":
            self._join(msg.get("secret"))
            return
        acts = event in ("click", "double", "text", "button") and msg.get("name") != "save"
        if acts and self._stale and not self._reconcile():
            self.selection = None
            self.say(f"Este paso no se ha hecho. {UNREACHABLE}", "error")
            return
        closed = self._state["ended"] or self._state["paused"]
        if closed and acts:
            self.selection = None
            self.say(self._closed_line(), "error")
            return
        super()._dispatch(msg)

    def _closed_line(self) -> str:
        if self._state["ended"]:
            return self._state.get("resumen") or ENDED
        return PAUSED

    def _restore(self, code: Any) -> None:
        if self._secret is None:  # with a launcher, the launcher's record is the truth
            super()._restore(code)

    # ------------------------------------------------------------------ what is sent
    def _report(self, kind: str, move: str = "") -> dict | None:
        """Send one event (a refused move's rule and reason are the launcher's to find)."""
        if self._launcher is None or self._secret is None:
            return None
        data = {"asiento": self._secret, "suceso": kind, "movimiento": move}
        self._sent += 1
        status, answer = self._launcher.call("/reto/api/evento", data)
        if status == 409:
            self._apply_state(answer, quiet=True)
        return {"status": status, **answer}

    def play_move(self, move: Move) -> bool:
        g = self._game
        text = format_move(g, move, sep="-")
        if g.why_not(move) is not None:
            self._report("refusal", text)
        redo = list(g._redo)  # a move clears «Rehacer»: taken back, it is as it was

        def take_back() -> None:
            g.undo()
            g._redo[:] = redo

        return super().play_move(move) and self._sync("move", text, take_back)

    def _sync(self, kind: str, move: str, take_back: Any) -> bool:
        """Send a move, undo or redo the board has just made (`kind`: move, undo, redo), drawn
        first so the click is answered at once; on any answer but success, `take_back()` and say
        why (a refusal: the launcher's line is taken).  True when the launcher took it."""
        if self._launcher is None or self._secret is None:
            return True
        self.refresh()
        answer = self._report("undo" if kind == "undo" else "move", move)
        assert answer is not None
        status = answer["status"]
        if status == 200:
            if answer.get("registrado") is False and answer.get("sin_guardar"):
                self.message += UNSAVED
            if answer.get("jugados", self._game.moves_played) != self._game.moves_played:
                self._reconcile()  # taken on another line than this board's (a restarted launcher)
                return False
            return True
        take_back()
        self.selection = None
        if status == 409:
            why = self._closed_line()
        elif status == 0 or status >= 500:  # lost, or not answered: the launcher may have taken it
            why, self._stale = UNREACHABLE, True
        else:
            why = REFUSED
        self.say(NOT_TAKEN.format(what=WHAT[kind], why=why), "error")
        if status == 400 or self._stale:  # the launcher's line is the truth (said if it differs)
            self._reconcile()
        return False

    # ------------------------------------------------------------------ seat and state
    def _join(self, secret: Any) -> None:
        """The page's secret (from its address): ask the launcher for the seat and the line."""
        if self._launcher is None or not isinstance(secret, str) or not secret or self._secret is not None:
            return
        if self._said_no_seat:  # asked again by the front end: said once is enough
            return
        status, answer = self._launcher.call("/reto/api/estado", query={"asiento": secret})
        if status == 403:
            self._said_no_seat = True
            self.say(NO_SEAT, "error")
            return
        if status != 200:
            self.say("No hay conexión con el ordenador de tu profesor: juegas sin que se registre.", "error")
            return
        self._secret = secret
        self.seat = answer.get("asiento")
        self._take_line(answer.get("linea") or [])
        self._apply_state(answer, quiet=not (answer.get("paused") or answer.get("ended")))
        for tell in self.on_seat:
            tell(self.seat)
        if POLL_SECONDS > 0:
            self._poller = threading.Thread(target=self._poll, daemon=True, name="reto-poll")
            self._poller.start()

    def _line(self) -> list[str]:
        self._share_code()  # formats only the moves not seen before
        return [text for _, text in self._code_moves]

    def _take_line(self, line: list[str]) -> None:
        """Make the board's line the launcher's record of it: a board whose line extends the
        record's (events a restart lost) sends its extra moves again; otherwise it plays the
        record's line."""
        mine = self._line()
        if line == mine:
            return
        if len(mine) > len(line) and mine[: len(line)] == line:
            extra = mine[len(line) :]
            taken = 0
            while taken < len(extra) and (self._report("move", extra[taken]) or {}).get("status") == 200:
                taken += 1
            if taken == len(extra):
                n = len(extra)
                self.say(REPLAYED.format(n=f"{n} movimiento{'s' if n != 1 else ''}"), "ok")
                return
            status, answer = self._launcher.call("/reto/api/estado", query={"asiento": self._secret or ""}) if self._launcher else (0, {})
            if status != 200:
                self._stale = True
                return
            line = answer.get("linea") or []
            if line == mine:
                return
        game = load_share(self._start)
        for text in line:
            game.move(parse_move(game, text))
        self._set_game(game)
        n = len(line)
        self.say(f"Tu partida ha vuelto tal como la dejaste: {n} movimiento{'s' if n != 1 else ''}.", "ok")

    def _reconcile(self) -> bool:
        """Ask the launcher for this seat's line and take it (`_take_line`); False when it
        cannot be reached (the board stays out of step until it can)."""
        if self._launcher is None or self._secret is None:
            return True
        status, answer = self._launcher.call("/reto/api/estado", query={"asiento": self._secret})
        if status != 200:
            return False
        self._stale = False
        self._take_line(answer.get("linea") or [])
        self._apply_state(answer, quiet=True)
        return not self._stale

    def _apply_state(self, answer: dict, quiet: bool = False) -> None:
        """Take the teacher's switches; say what changed on the board."""
        new = {k: bool(answer.get(k)) for k in ("paused", "ended", "hints", "solution")}
        if "resumen" in answer:
            new["resumen"] = answer["resumen"]
        old = self._state
        self._state = {**old, **new}
        self._hints, self._solution = new["hints"], new["solution"]
        if quiet:
            return
        if new["ended"] and not old["ended"]:
            self.say(self._closed_line(), "ok")
        elif old["ended"] and not new["ended"]:
            self.say(PAUSED if new["paused"] else REOPENED, "error" if new["paused"] else "ok")
        elif new["paused"] and not old["paused"]:
            self.say(PAUSED, "error")
        elif old["paused"] and not new["paused"] and not new["ended"]:
            self.say(RESUMED, "ok")

    def _poll(self) -> None:
        import time

        while True:
            time.sleep(POLL_SECONDS)
            self.poll_once()

    def poll_once(self) -> None:
        """Ask the launcher for the teacher's switches and this seat's line; take what changed."""
        assert self._launcher is not None
        with self._lock:
            sent = self._sent
        status, answer = self._launcher.call("/reto/api/estado", query={"asiento": self._secret or ""})
        if status != 200:
            return
        keys = ("paused", "ended", "hints", "solution")
        with self._lock:
            # The line, only if no event was sent meanwhile (then this answer may predate it).
            line = (answer.get("linea") or []) if sent == self._sent else None
            out_of_step = line is not None and (self._stale or line != self._line())
            if not out_of_step and all(bool(answer.get(k)) == bool(self._state.get(k)) for k in keys):
                return
            if out_of_step:
                self._stale = False
                self._take_line(line or [])
            self._apply_state(answer)
            self.refresh()


def find_launcher(url_env: str, hub_env: str) -> tuple[Launcher | None, bool]:
    """The class server this kernel sends to, and whether it is a hub's service (`hub_env`, with
    the single-user server's own token); the laptop launcher's (`url_env`) comes first."""
    base, hub, token = (os.environ.get(k) for k in (url_env, hub_env, "JUPYTERHUB_API_TOKEN"))
    if base or not (hub and token):
        return (Launcher(base) if base else None), False
    return Launcher(hub, token), True


def challenge_page(code: str) -> ChallengeBoard:
    """Show the class challenge on `code` (a share code without moves): the line that says what it
    is and what is recorded, the board, the seat and the optional name; without a launcher, the
    share code of the student's line."""
    import ipywidgets as w
    from IPython.display import display

    launcher, hub = find_launcher(URL_ENV, HUB_URL_ENV)
    board = ChallengeBoard(code, launcher)
    intro = w.HTML(f"<p><b>{INTRO}</b></p>" + (f"<p><small>{RECORDED}</small></p>" if launcher else ""))
    parts: list[Any] = [intro, board]
    if launcher is not None:
        seat = w.HTML("<p>Esperando tu asiento…</p>")
        name = w.Text(placeholder="Tu nombre (si quieres)", layout=w.Layout(width="16em"))
        keep = w.Button(description="Guardar nombre")
        said = w.HTML()

        def save(_button: Any) -> None:
            if board._secret is None:
                said.value = "Todavía no tienes asiento."
                return
            status, answer = launcher.call("/reto/api/nombre", {"asiento": board._secret, "nombre": name.value})
            if status == 200:
                said.value = f"Nombre guardado: {html.escape(str(answer.get('nombre', '')))}"
            else:
                said.value = html.escape(str(answer.get("error") or "No se ha podido guardar."))

        keep.on_click(save)
        board.on_seat.append(lambda n: setattr(seat, "value", f"<p>Tu asiento: <b>{n}</b></p>"))
        parts += [seat] if hub else [seat, w.HBox([name, keep, said])]  # under a hub the name is the user's
        if hub:
            board._join(HUB_SEAT)
    else:
        code_line = w.HTML()

        def show_code(_change: Any = None) -> None:
            code_line.value = ("<p>Código de tu partida (cópialo y dáselo a tu profesor al terminar): "
                               f"<code>{board.view.get('code', '')}</code></p>")  # fmt: skip

        board.observe(show_code, names="view")
        show_code()
        parts.append(code_line)
    display(w.VBox(parts))
    return board
