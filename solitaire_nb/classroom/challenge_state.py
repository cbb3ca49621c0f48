"""The live state of a class challenge on the launcher: seats, each seat's game, the teacher's
switches, and what the teacher's page shows.  The launcher is the only writer of the record
(`record`); this module checks every event against the rules (a page can only send moves its
own game accepts) and keeps going without the record when the database fails.  No web library
here: `challenge_server` turns HTTP requests into these calls.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.checks import LEARNER_MOVE_MAX, shown
from ..core.moves import IllegalMove
from ..engine import Game
from ..engine.share import load_share, share_code
from ..games.notation import format_move, parse_move
from . import inbound
from .class_core import IDLE_SEATS_PER_ADDRESS, ClassCore, Closed, NotYourSeat
from .record_file import name

__all__ = ["IDLE_SEATS_PER_ADDRESS", "KINDS", "Challenge", "Closed", "NotYourSeat", "Seat", "deal_code", "refusal_of"]

KINDS = ("move", "undo", "refusal", "hint")
HINT_TOOLS = ("", "hint", "solvable", "solution")  # what a hint event names: «Pista», «¿Tiene solución?», «Ver solución»
REPLAY_TEXT_MAX = 4000  # a recorded row's text read back on a restart: an edited file cannot swell memory


@dataclass
class Seat:
    seat: int
    secret: str
    game: Game
    name: str = ""
    moves: int = 0
    undos: int = 0
    refusals: int = 0
    hints: int = 0
    won: bool = False
    last_refusal: tuple[str, str] | None = None  # (move, reason)
    changed: float = field(default_factory=time.time)


def deal_code(code: str) -> str:
    """The start of the share code `code` (Spanish ValueError if it does not load or has moves:
    a challenge starts at a deal or a position)."""
    game = load_share(code)
    if game.moves_played:
        raise ValueError(
            f"el código «{code[:60]}» ya tiene movimientos; el reto empieza en un reparto: quita lo que va tras la última «/»"
        )
    return share_code(game).rsplit("/", 1)[0]


def events_of(s: Seat) -> int:
    """The events a seat's page has sent and this challenge took (its moves, undos, refusals and
    hints; the same after a restart, from the record): a page that lost an answer counts from it
    which of its waiting events were taken."""
    return s.moves + s.undos + s.refusals + s.hints


def state_line(game: Game) -> str:
    """«¡Ganada!», «Sin movimientos» or «Jugando»."""
    if game.is_won():
        return "¡Ganada!"
    if game.is_stuck():
        return "Sin movimientos"
    return "Jugando"


def ended_line(s: Seat) -> str:
    """A seat's state once the challenge has ended: «Ganó» or «Sin terminar»."""
    return "Ganó" if s.won else "Sin terminar"


def seat_summary(s: Seat) -> str:
    """What a student reads when the teacher ends the challenge."""
    g = s.game
    head = "¡Has ganado!" if s.won else f"Has llevado {g.foundation_cards()} de {g.total_cards} cartas a las bases."
    undo = "deshecho" if s.undos == 1 else "deshechos"
    mv = "movimiento" if s.moves == 1 else "movimientos"
    return f"Reto terminado. {head} Has hecho {s.moves} {mv} ({s.undos} {undo})."


class Challenge(ClassCore):
    """One class challenge: the deal, the seats and the record (None: not recording)."""

    no_seat = "Esta página no tiene asiento en el reto: recárgala desde la dirección de la clase."

    def __init__(self, deal: str, record_path: Path | None, say: Callable[[str], None] = print) -> None:
        self.deal = deal_code(deal)
        self.total_cards = load_share(self.deal).total_cards
        self.state = {"paused": False, "ended": False, "hints": False, "solution": False}
        self.refusal_log: list[dict[str, Any]] = []  # every refusal (seat, rule, reason), kept here too
        super().__init__(self.deal, record_path, say)

    def _seat(self, seat: int, secret: str) -> Seat:
        return Seat(seat, secret, load_share(self.deal))

    def _check_open(self) -> None:
        if self.state["ended"]:
            raise Closed("El reto está terminado: el nombre ya no se cambia.")

    def _replay(self) -> None:
        """The games and switches of a class that was already running (a restart).  A row
        that does not replay (a refused move, an undo with nothing to undo, an unknown seat or
        kind: an edited file, another version's) is skipped and said in one Spanish line per
        seat; that seat goes on from the rows before it."""
        assert self.record is not None
        self.state.update(self.record.state())
        skipped: dict[Any, list[tuple[Any, str]]] = {}
        for e in self.record.events():
            s = self.seats.get(e["seat"]) if isinstance(e["seat"], int) else None
            try:
                if s is None:
                    raise ValueError("ese asiento no está en el registro")
                if e["kind"] not in ("move", "undo", "refusal", "hint", "win"):
                    raise ValueError(f"suceso desconocido ({str(e['kind'])[:20]})")
                self._apply(s, e["kind"], *(str(e[k] if e[k] is not None else "")[:REPLAY_TEXT_MAX] for k in ("move", "rule", "reason")))
            except Exception as exc:  # noqa: BLE001 - whatever an edited row holds, the class starts
                skipped.setdefault(e["seat"], []).append((e["id"], str(exc) or type(exc).__name__))
        for seat, rows in skipped.items():
            first, why = rows[0]
            more = f" (y {len(rows) - 1} más)" if len(rows) > 1 else ""
            self.say(f"Aviso: el registro {name(self.record.path)} tiene una fila que no se puede repetir: la n.º {shown(first)}"
                     f"{more}, del asiento {shown(seat)} ({shown(why, raw=True).rstrip('.')}); ese asiento sigue desde "
                     "las filas anteriores.")  # fmt: skip

    # ------------------------------------------------------------------ events
    def event(self, secret: Any, kind: Any, move: Any = "") -> dict[str, Any]:
        """Take one event of the page holding `secret` and record it (committed before this
        returns).  Moves and undos are played on the seat's own game: one the rules refuse is a
        ValueError and is not recorded.  A refusal names the move the page tried; its rule and
        Spanish sentence come from that move on the seat's own game (what a page says of it is
        not read), and a move the rules accept is no refusal (ValueError)."""
        s = self.seat_of(secret)
        if not isinstance(kind, str) or kind not in KINDS:
            raise inbound.BadRequest(f"Suceso no reconocido: «{inbound.shown_kind(kind)}».", "un suceso no reconocido")
        move = inbound.text_field(move, "El movimiento", LEARNER_MOVE_MAX)
        if self.state["ended"] or self.state["paused"]:
            raise Closed("El reto está terminado." if self.state["ended"] else "El reto está en pausa.")
        if kind == "hint" and not (self.state["hints"] or self.state["solution"]):
            raise ValueError("Las pistas y el resolvedor están desactivados en este reto.")
        rule = reason = ""
        if kind == "refusal":
            move, rule, reason = refusal_of(s.game, move)
        elif kind == "hint" and move not in HINT_TOOLS:
            raise inbound.BadRequest(f"Ayuda no reconocida: «{inbound.shown_kind(move)}».", "un suceso no reconocido")
        elif kind == "undo":
            move = ""
        was_won = s.won
        move = self._apply(s, kind, move, rule, reason)
        recorded = self._write("add", s.seat, kind, move, rule, reason) is not None
        if s.won and not was_won:
            self._write("add", s.seat, "win", "", "", "")
        self.version += 1
        return {"registrado": recorded, "asiento": s.seat, "ganada": s.won, "sin_guardar": self.unsaved,
                "jugados": s.game.moves_played, "sucesos": events_of(s)}  # fmt: skip

    def _apply(self, s: Seat, kind: str, move: str, rule: str, reason: str) -> str:
        g = s.game
        if kind == "move":
            m = parse_move(g, move)
            g.move(m)  # IllegalMove (a ValueError) when refused: nothing changes
            move = format_move(g, m, sep="-")
            s.moves += 1
            s.won = s.won or g.is_won()
        elif kind == "undo":
            if not g.undo():
                raise ValueError("no hay ningún movimiento que deshacer")
            s.undos += 1
        elif kind == "refusal":
            s.refusals += 1
            s.last_refusal = (move, reason)
            self.refusal_log.append({"kind": "refusal", "seat": s.seat, "rule": rule, "reason": reason})
        elif kind == "hint":
            s.hints += 1
        s.changed = time.time()
        return move

    # ------------------------------------------------------------------ what a page asks
    def page_state(self, secret: Any, join: bool = True) -> dict[str, Any]:
        """What a student's page needs: its seat, its line (to come back after a reload) and the
        teacher's switches; its summary once the challenge has ended.  `join`: the asker is the
        page's own board (its kernel), so the seat is taken (`idle_seats`)."""
        s = self.seat_of(secret)
        self.retry_writes()  # pages poll twice a second: recording resumes by itself
        if join:
            self.joined(secret)
        out: dict[str, Any] = {"asiento": s.seat, "nombre": s.name, "sucesos": events_of(s), **self.state}
        out["linea"] = [format_move(s.game, m, sep="-") for m in s.game.history]
        if self.state["ended"]:
            out["resumen"] = seat_summary(s)
        return out

    def command(self, order: Any, value: Any = True) -> None:
        """The teacher's buttons: pausar, seguir, terminar, reabrir, pistas, solucion; `value`
        (for pistas and solucion) is True or False, nothing else."""
        if not isinstance(value, bool):
            raise inbound.BadRequest("El valor de una orden tiene que ser un sí o un no.", "un interruptor no válido")
        changes = {"pausar": ("paused", True), "seguir": ("paused", False), "terminar": ("ended", True),
                   "reabrir": ("ended", False), "pistas": ("hints", value), "solucion": ("solution", value)}  # fmt: skip
        if not isinstance(order, str) or order not in changes:
            why = f"Orden no reconocida: «{inbound.shown_kind(order)}»." if isinstance(order, str) else "La orden debe ser un texto, como «pausar»."
            raise inbound.BadRequest(why, "una orden no reconocida")
        key, on = changes[order]
        self.state[key] = bool(on)
        self._write("set_state", key, bool(on))
        self.version += 1

    # ------------------------------------------------------------------ the teacher's view
    def rows(self) -> list[dict[str, Any]]:
        """One row per seat; its «estado» is the game's while the challenge runs, the result
        (`ended_line`) once it has ended."""
        out = []
        for s in self.seats.values():
            g = s.game
            last = f"{s.last_refusal[0]}: {s.last_refusal[1]}" if s.last_refusal else ""
            out.append({"asiento": s.seat, "nombre": s.name, "base": g.foundation_cards(), "total": g.total_cards,
                        "movimientos": s.moves, "deshechos": s.undos, "pistas": s.hints, "rechazo": last,
                        "estado": ended_line(s) if self.state["ended"] else state_line(g)})  # fmt: skip
        return out

    def histogram(self) -> list[list[Any]]:
        """[label, students] per range of cards home."""
        total = self.total_cards
        width = max(1, math.ceil((total + 1) / 11))
        bins = Counter(min(s.game.foundation_cards(), total) // width for s in self.seats.values())
        last = total // width
        out = []
        for b in range(last + 1):
            lo, hi = b * width, min(total, b * width + width - 1)
            out.append([str(lo) if lo == hi else f"{lo}–{hi}", bins.get(b, 0)])
        return out

    def common_refusals(self, top: int = 5) -> list[str]:
        """The refusals most often made, one Spanish sentence each (students, not attempts)."""
        return refusal_sentences(self.refusal_log, top)

    def view(self) -> dict[str, Any]:
        self.retry_writes()
        said = self.record_text()
        return {"version": self.version, "estado": dict(self.state), "registro": self.recording,
                "registro_texto": said, "sin_guardar": self.unsaved,
                "filas": self.rows(), "histograma": self.histogram(), "reparto": self.deal,
                "rechazos": self.common_refusals()}  # fmt: skip

    def line(self, seat: int) -> list[str]:
        s = self.seats.get(seat)
        if s is None:
            raise ValueError(f"no hay ningún asiento {seat}")
        return [format_move(s.game, m, sep="-") for m in s.game.history]


def refusal_of(game: Game, text: str) -> tuple[str, str, str]:
    """(move, rule id, Spanish sentence) of the move `text` that the rules refuse on `game`,
    read from the engine's own refusal (the game does not change); ValueError when `text` is
    not a move of this game or the rules accept it."""
    m = parse_move(game, text)
    try:
        game.copy().move(m)
    except IllegalMove as exc:
        return format_move(game, m, sep="-"), exc.rule or "", exc.reason
    raise ValueError(f"El movimiento {format_move(game, m, sep='-')} está permitido: no es un movimiento rechazado.")


def refusal_sentences(events: list[dict[str, Any]], top: int = 5) -> list[str]:
    """Group the refusals by rule (or by reason when no rule is cited): «12 alumnos han intentado
    un movimiento que la regla CB-4 no permite, como «…»»."""
    who: dict[str, set[int]] = {}
    example: dict[str, str] = {}
    for e in events:
        if e["kind"] != "refusal":
            continue
        key = e["rule"] or e["reason"]
        who.setdefault(key, set()).add(e["seat"])
        example.setdefault(key, e["reason"])
    ranked = sorted(who, key=lambda k: (-len(who[k]), k))[:top]
    out = []
    for key in ranked:
        n = len(who[key])
        people = "1 alumno ha" if n == 1 else f"{n} alumnos han"
        why = example[key].rstrip(".")
        rule = f" que la regla {key} no permite" if key != example[key] and key else " no permitido"
        out.append(f"{people} intentado un movimiento{rule}: «{why}».")
    return out
