"""A board whose line is the class server's: what a challenge board sends and how it keeps
in step (`challenge.ChallengeBoard` adds the page's seat, polling and buttons).

Every move, undo or redo is drawn first and then sent (`_sync`); a refusal takes it back.  A
server out of reach keeps it «sin guardar» in the board's outbox (`class_link.Outbox`), each
event with the line after it; once the server answers (`_flush`) the seat's event count says
how many of them it already took (their answers were lost), and the rest go in order.  One it
refuses then is said and the board goes back to the server's line; a line that is not this
board's (another device of the seat, a record that lost events) is taken (`_take_line`).
"""

from __future__ import annotations

import threading
from typing import Any

from ..engine import Game
from ..engine.share import load_share
from ..games.notation import parse_move
from .class_link import UNSAVED, Launcher, Outbox, Waiting, unreachable, unsaved_line, where
from .widget import Board

EVENT, STATE = "/reto/api/evento", "/reto/api/estado"
WAITING = -1  # the status `_report` gives an event kept in the outbox

PAUSED = "El reto está en pausa. Espera a que tu profesor o profesora lo reanude."
ENDED = "El reto ha terminado: ya no se puede mover."
RESUMED = "El reto sigue: ya puedes mover."
REOPENED = "Tu profesor o profesora ha reabierto el reto: sigue jugando donde lo dejaste."
NO_SEAT = "Esta página no tiene asiento en el reto: ábrela desde la dirección de la clase."
WHAT = {"move": "Tu movimiento no se ha guardado y ha vuelto atrás.", "undo": "No se ha podido deshacer: no se ha guardado.",
        "redo": "No se ha podido rehacer: no se ha guardado."}  # fmt: skip
NOT_TAKEN = "{what} {why}"
REFUSED = "{where} no lo ha aceptado."
UNSAVED_DISK = f" (Aún {UNSAVED}: se guardará automáticamente en cuanto se pueda. Tú sigue jugando.)"
REPLAYED = "Tu partida sigue donde la dejaste: se han vuelto a mandar {n} que no se habían guardado."
SENT_LATER = "Vuelve a haber conexión: ya está guardado todo lo que jugaste sin ella."
REFUSED_LATER = ("Al volver la conexión, {where} no ha aceptado un paso que diste sin ella ({why}); tu partida "
                 "vuelve a como estaba guardada.")  # fmt: skip


class SyncedBoard(Board):
    """A board whose every step goes to the class server at `launcher` (None: no server)."""

    def __init__(self, game: Game, launcher: Launcher | None = None, **kwargs: Any) -> None:
        self._launcher = launcher
        self._secret: str | None = None
        self._state: dict[str, Any] = {"paused": False, "ended": False, "hints": False, "solution": False}
        self._lock = threading.RLock()
        self.seat: int | None = None
        self._outbox = Outbox()  # events the server has not answered yet, each with the line after it
        self._acked: tuple[Any, list[str]] = (None, [])  # the seat's event count and line, as the server last said
        self._sent = 0  # events sent, so a poll's answer older than one of them is not taken for a line
        super().__init__(game, **kwargs)

    @property
    def waiting(self) -> int:
        """Events kept «sin guardar», waiting for the server."""
        return len(self._outbox)

    def _closed_line(self) -> str:
        if self._state["ended"]:
            return self._state.get("resumen") or ENDED
        return PAUSED

    # ------------------------------------------------------------------ what is sent
    def _report(self, kind: str, move: str = "") -> dict | None:
        """Send one event (a refused move's rule and reason are the server's to find).  Behind
        events that wait, or when the server cannot be reached, it waits too (status `WAITING`)."""
        if self._launcher is None or self._secret is None:
            return None
        data = {"asiento": self._secret, "suceso": kind, "movimiento": move}
        if not self.waiting:
            self._sent += 1
            status, answer = self._launcher.call(EVENT, data)
            if not unreachable(status):
                if status == 200:
                    self._acked = (answer.get("sucesos"), self._line())
                elif status == 409:
                    self._apply_state(answer, quiet=True)
                return {"status": status, **answer}
        # Not arrived, or its answer lost (the server may have it: `_flush` asks first).
        self._outbox.add(EVENT, data, self._line())
        return {"status": WAITING}

    def _sync(self, kind: str, move: str, take_back: Any) -> bool:
        """Send a move, undo or redo the board has just made (`kind`: move, undo, redo), drawn
        first so the click is answered at once.  Kept «sin guardar» while the server cannot be
        reached; on a refusal, `take_back()` and say why (a 400: the server's line is taken).
        True when the board keeps the step."""
        if self._launcher is None or self._secret is None:
            return True
        self.refresh()
        answer = self._report("undo" if kind == "undo" else "move", move)
        assert answer is not None
        status = answer["status"]
        if status == WAITING:
            self.say(f"{self.message} {unsaved_line(self._launcher)}".strip(), self.kind)
            return True
        if status == 200:
            if answer.get("registrado") is False and answer.get("sin_guardar"):
                self.message += UNSAVED_DISK
            if answer.get("jugados", self._game.moves_played) != self._game.moves_played:
                self._reconcile()  # taken on another line than this board's (another device of the seat)
                return False
            return True
        take_back()
        self.selection = None
        why = self._closed_line() if status == 409 else _refused(self._launcher)
        self.say(NOT_TAKEN.format(what=WHAT[kind], why=why), "error")
        if status == 400:  # the server's line is the truth (said if it differs)
            self._reconcile()
        return False

    def _flush(self, state: dict | None = None) -> str:
        """Send what waits once the server answers (`state`: its answer for this seat, if just
        asked): first drop what it already took (the seat's event count since the last answer
        says how many), then send the rest in order.  "done", "waiting" (out of reach again),
        "refused" (said; the board is back on the server's line) or "other" (the server's line
        is not this board's: taken, `_take_line`)."""
        if not self.waiting or self._launcher is None:
            return "done"
        if state is None:
            status, state = self._launcher.call(STATE, query={"asiento": self._secret or ""})
            if unreachable(status):
                return "waiting"
            if status != 200:  # the seat is gone: nothing can wait for it
                self._outbox.clear()
                self.say(NO_SEAT, "error")
                return "refused"
        line, count = state.get("linea") or [], state.get("sucesos")
        base_count, base_line = self._acked
        lines = [base_line, *(w.note for w in self._outbox.items)]
        taken = count - base_count if isinstance(count, int) and isinstance(base_count, int) else 0
        if not 0 <= taken < len(lines) or lines[taken] != line:
            self._outbox.clear()
            self._take_line(line, count)
            return "other"
        self._outbox.drop(taken)
        self._acked = (count, line)
        refused: list[tuple[int, dict]] = []

        def answered(item: Waiting, status: int, answer: dict) -> bool:
            self._sent += 1
            if status == 200 and answer.get("jugados", len(item.note)) == len(item.note):
                self._acked = (answer.get("sucesos"), item.note)
                return True
            if status == 400 and item.data["suceso"] in ("refusal", "hint"):
                return True  # nothing on the board hangs on it
            refused.append((status, answer))
            return False

        if self._outbox.send(self._launcher, answered):
            return "done"
        if not refused:
            return "waiting"
        self._outbox.clear()
        status, answer = refused[0]
        if status == 200:  # taken on another line (another device of this seat)
            self._reconcile()
            return "other"
        if status == 409:
            self._apply_state(answer, quiet=True)
        why = self._closed_line() if status == 409 else str(answer.get("error") or _refused(self._launcher))
        self._show_line(self._acked[1])
        reason = why.rstrip(".").split(". ")[0]  # its first sentence, inside the brackets
        self.say(REFUSED_LATER.format(where=where(self._launcher), why=reason[:1].lower() + reason[1:]), "error")
        return "refused"

    def _take_line(self, line: list[str], count: Any = None) -> None:
        """Make the board's line the server's record of it (`count`: the seat's events there):
        a board whose line extends the record's (events a restart lost) sends its extra moves
        again; otherwise it plays the record's line."""
        mine = self._line()
        self._acked = (count, line)
        if line == mine:
            return
        if len(mine) > len(line) and mine[: len(line)] == line and self._secret is not None:
            self._outbox.clear()
            for k in range(len(line), len(mine)):
                self._outbox.add(EVENT, {"asiento": self._secret, "suceso": "move", "movimiento": mine[k]}, mine[: k + 1])
            n = len(mine) - len(line)
            said = self._flush({"linea": line, "sucesos": count})
            if said == "done":
                self.say(REPLAYED.format(n=f"{n} movimiento{'s' if n != 1 else ''}"), "ok")
            elif said == "waiting":
                self.say(unsaved_line(self._launcher), "error")
            return
        self._show_line(line)
        n = len(line)
        self.say(f"Tu partida ha vuelto tal como la dejaste: {n} movimiento{'s' if n != 1 else ''}.", "ok")

    def _show_line(self, line: list[str]) -> None:
        game = load_share(self._start)
        for text in line:
            game.move(parse_move(game, text))
        self._set_game(game)

    def _reconcile(self) -> bool:
        """Ask the server for this seat's line and take it (`_take_line`); False when it
        cannot be reached."""
        if self._launcher is None or self._secret is None:
            return True
        status, answer = self._launcher.call(STATE, query={"asiento": self._secret})
        if status != 200:
            return False
        self._take_line(answer.get("linea") or [], answer.get("sucesos"))
        self._apply_state(answer, quiet=True)
        return True

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

    def _line(self) -> list[str]:
        self._share_code()  # formats only the moves not seen before
        return [text for _, text in self._code_moves]


def _refused(launcher: Any) -> str:
    said = REFUSED.format(where=where(launcher))
    return said[:1].upper() + said[1:]
