"""The student's side of a class challenge: the challenge page and its board.

`challenge_page(code)` shows one board with the challenge's deal, «Pista» and the solver's
buttons off unless the teacher switches them on.  Served by the launcher (``SNB_RETO_URL`` set)
or a hub's class service, the board gets its seat from its page's secret (under a hub, the
user's) and, after a reload, its line back; it sends every move, undo, refused move and hint
use to the server, which checks and records it, and polls for pause, resume and end.  Without a
server the page shows the share code of the student's line (`classroom.summary.summary_from_codes`).

A move, undo or redo is drawn at once, then sent; one the server refuses is taken back with a
Spanish line.  While the server cannot be reached the board plays on «sin guardar»: its events
wait in order (`class_link.Outbox`) and go when it answers again, after what it already took (a
lost answer: the seat's event count says); one it refuses then is said, and the board goes back
to the server's line.  A board whose line extends the server's (a restart lost events) sends them again.
"""

from __future__ import annotations

import html
import threading
from typing import Any

from ..core.moves import Move
from ..engine import Game
from ..engine.share import load_share
from ..games.notation import format_move
from .buttons import Buttons
from .challenge_sync import ENDED, NO_SEAT, PAUSED, REOPENED, RESUMED, SENT_LATER, STATE, SyncedBoard
from .class_link import SCHOOL_SERVER, TEACHERS_COMPUTER, Launcher, find_launcher, unsaved_line

__all__ = ["ENDED", "PAUSED", "REOPENED", "RESUMED", "ChallengeBoard", "Launcher", "challenge_page", "find_launcher"]

URL_ENV = "SNB_RETO_URL"
HUB_URL_ENV = "SNB_HUB_RETO_URL"  # the class service under a JupyterHub (classroom.hub), set by the hub's spawner
HUB_SEAT = "hub"  # the seat a board under a hub names: the service takes its user's own
POLL_SECONDS = 0.5  # 0: no polling thread (tests call `poll_once`)

INTRO = "Este es el reto de la clase: todos jugáis el mismo reparto. ¿Quién llega más lejos?"
_KEPT = ("Se registran, en {where}, tus movimientos, lo que deshaces, los movimientos no permitidos que intentas "
         "y las pistas que pides, con su hora{who}.")  # fmt: skip
RECORDED = _KEPT.format(where=TEACHERS_COMPUTER, who="; tu nombre es opcional")
RECORDED_HUB = _KEPT.format(where=SCHOOL_SERVER, who=" y tu usuario (solo lo ve tu profesor o profesora)")
SAME_DEAL = "En el reto todos jugáis el mismo reparto: aquí no se cambia de partida."


class _ChallengeButtons(Buttons):
    """A challenge's buttons: no new deal nor loaded game; undo, redo and hints reported."""

    saves_without_solver = True
    deal_fixed = SAME_DEAL

    board: ChallengeBoard

    def press(self, action: Any, msg: dict) -> Game | None:
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


class ChallengeBoard(SyncedBoard):
    """A board of a class challenge: one deal, no new deal nor loaded game (its view says
    ``reto``, and the front end hides those controls), and every event sent to the class
    server (`launcher` None: a class without a server)."""

    _restores_other_deals = False
    buttons_type = _ChallengeButtons

    def __init__(self, code: str, launcher: Launcher | None = None, **kwargs: Any) -> None:
        self._poller: threading.Thread | None = None
        self._rejoining = False
        self._said_no_seat = False
        self.on_seat: list[Any] = []  # callables(seat) told when the page gets its seat
        kwargs.setdefault("hints", False)
        kwargs.setdefault("solution", False)
        super().__init__(load_share(code), launcher, **kwargs)

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
        closed = self._state["ended"] or self._state["paused"]
        if closed and acts:
            self.selection = None
            self.say(self._closed_line(), "error")
            return
        super()._dispatch(msg)

    def _restore(self, code: Any) -> None:
        if self._secret is None:  # with a launcher, the launcher's record is the truth
            super()._restore(code)

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

    # ------------------------------------------------------------------ seat and state
    def _join(self, secret: Any) -> None:
        """The page's secret (from its address): ask the server for the seat and the line.
        A server out of reach is asked again by a thread until it answers."""
        if self._launcher is None or not isinstance(secret, str) or not secret or self._secret is not None:
            return
        if self._said_no_seat:  # asked again by the front end: said once is enough
            return
        status, answer = self._launcher.call(STATE, query={"asiento": secret})
        if status == 403:
            self._said_no_seat = True
            self.say(NO_SEAT, "error")
            return
        if status != 200:
            self.say(unsaved_line(self._launcher), "error")
            if POLL_SECONDS > 0 and not self._rejoining:
                self._rejoining = True
                threading.Thread(target=self._rejoin, args=(secret,), daemon=True, name="reto-join").start()
            return
        self._secret = secret
        self.seat = answer.get("asiento")
        if self.message == unsaved_line(self._launcher):  # said while it could not be reached
            self.say("")
        self._take_line(answer.get("linea") or [], answer.get("sucesos"))
        self._apply_state(answer, quiet=not (answer.get("paused") or answer.get("ended")))
        for tell in self.on_seat:
            tell(self.seat)
        if POLL_SECONDS > 0:
            self._poller = threading.Thread(target=self._poll, daemon=True, name="reto-poll")
            self._poller.start()

    def _rejoin(self, secret: str) -> None:
        import time

        while self._secret is None and not self._said_no_seat:
            time.sleep(POLL_SECONDS * 4)
            with self._lock:
                self._join(secret)
                self.refresh()

    def _poll(self) -> None:
        import time

        while True:
            time.sleep(POLL_SECONDS)
            self.poll_once()

    def poll_once(self) -> None:
        """Ask the server for the teacher's switches and this seat's line; send what waits
        (`_flush`), or take what changed."""
        assert self._launcher is not None
        with self._lock:
            sent = self._sent
        status, answer = self._launcher.call(STATE, query={"asiento": self._secret or ""})
        if status != 200:
            return
        keys = ("paused", "ended", "hints", "solution")
        with self._lock:
            fresh = sent == self._sent  # no event sent meanwhile: this answer's line is the latest
            if self.waiting:
                if self._flush(answer if fresh else None) == "done":
                    self.say(SENT_LATER, "ok")
                self._apply_state(answer)
                self.refresh()
                return
            line = (answer.get("linea") or []) if fresh else None
            out_of_step = line is not None and line != self._line()
            if not out_of_step and all(bool(answer.get(k)) == bool(self._state.get(k)) for k in keys):
                return
            if out_of_step:
                self._take_line(line or [], answer.get("sucesos"))
            self._apply_state(answer)
            self.refresh()


def challenge_page(code: str) -> ChallengeBoard:
    """Show the class challenge on `code` (a share code without moves): the line that says what it
    is and what is recorded, the board, the seat and the optional name; without a launcher, the
    share code of the student's line."""
    import ipywidgets as w
    from IPython.display import display

    launcher, hub = find_launcher(URL_ENV, HUB_URL_ENV)
    board = ChallengeBoard(code, launcher)
    intro = w.HTML(f"<p><b>{INTRO}</b></p>" + (f"<p><small>{RECORDED_HUB if hub else RECORDED}</small></p>" if launcher else ""))
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
            code_line.value = ("<p>Código de tu partida (cópialo y dáselo a tu profesor o profesora al terminar): "
                               f"<code>{board.view.get('code', '')}</code></p>")  # fmt: skip

        board.observe(show_code, names="view")
        show_code()
        parts.append(code_line)
    display(w.VBox(parts))
    return board
