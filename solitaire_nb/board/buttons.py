"""What the board's buttons do: undo, redo, a new deal, a hint, the solver's verdict and
solution, and saving or loading a game.

A button the teacher switched off is refused here too (a crafted front end may still send
it).  The solver is imported only when a button asks for it; without it (or when it fails)
«Pista» falls back to a simple heuristic and the verdicts say «sin decidir».  Verdicts go
through the shared on-disk cache (`verdict_cache`): a position another kernel has solved, or
is solving, is answered from there.  `Buttons` works through its board's public surface and
holds what only the buttons make: the highlighted move, a shown solution and the saved JSON.
Nothing here imports a widget library.
"""

from __future__ import annotations

import random
import re
from typing import Any

from ..core.checks import SEED_MAX, integer, shown
from ..core.moves import Move
from ..core.rules import GameDef
from ..engine import Game, game_definition, new_game
from ..engine.share import load_share, share_code
from ..games import GAMES
from ..games.notation import format_move
from ..render import move_text
from .clicks import BoardSurface

SOLVER_BUTTONS = ("solvable", "solution", "next")
BUTTONS = ("undo", "redo", "new", "hint", "solvable", "solution", "next", "save", "load")

SOLVER_SEES_HIDDEN = " (el resolvedor ve las cartas boca abajo, que tú no ves)"
# The solver's verdict on a lost game after some moves, and what the board says instead when
# the game was lost before its first move (undoing would not help).
NO_LONGER = "Ya no tiene solución"
NEVER = ", ni la tenía al empezar"


class Buttons:
    """The buttons of one `Board`, which owns this helper.  Each action is the method of its
    name (`BUTTONS`), taking the front end's message; `new` and `load` return the game to put
    on the board, the others None.  A board whose buttons differ subclasses this class and
    names it in `Board.buttons_type`."""

    saves_without_solver = False
    """Whether «Guardar y compartir» stays on a board without the solver's buttons (a class
    challenge's, whose deal everyone knows); elsewhere a saved game could be loaded on a board
    with them and solved there."""

    deal_fixed = ""
    """Why «Nueva partida» and «Cargar» do nothing on a board whose deal is given (a class
    challenge's, an exercise's), or "" where they work; the front end hides them then."""

    def __init__(self, board: BoardSurface):
        self.board = board
        self.highlight: Move | None = None
        """The move drawn highlighted: a hint, or the next move of a shown solution."""
        self.replay: list[Move] = []
        """The shown solution's moves still to play, kept while the reader follows it."""
        self.export = ""
        """The game's JSON, right after «Guardar» (sent once)."""
        self._start: tuple[str, str | None] = ("", None)
        """(the game's start, as JSON; the solver's verdict on it), see `_start_status`."""

    def forget(self, solution: bool = False) -> None:
        """Drop what one event showed (the highlight, the JSON), and with `solution` the shown
        solution too."""
        self.highlight = None
        self.export = ""
        if solution:
            self.replay = []

    def follow(self, move: Move) -> None:
        """Keep a shown solution only while the reader follows it (`move` was just played)."""
        if self.replay and self.replay[0] == move:
            self.replay.pop(0)
        else:
            self.replay = []

    def press(self, action: Any, msg: dict) -> Game | None:
        """Run button `action` (one of `BUTTONS`, else a Spanish ValueError)."""
        if action not in BUTTONS:
            raise ValueError(f"botón no reconocido: {shown(action)}")
        refusal = self.refusal(action)
        if refusal:
            self.board.say(refusal, "error")
            return None
        if action not in ("next", "save"):
            self.board.selection = None
        return getattr(self, action)(msg)

    def refusal(self, action: str) -> str | None:
        """Why a button the teacher switched off does nothing (a crafted front end may send it)."""
        if action in ("new", "load") and self.deal_fixed:
            return self.deal_fixed
        if action == "hint" and not self.board.hints:
            return "En este tablero no hay pistas: las ha desactivado quien preparó el cuaderno."
        if action in SOLVER_BUTTONS and not self.board.solution:
            return "En este tablero no se puede consultar el resolvedor: lo ha desactivado quien preparó el cuaderno."
        if action in ("save", "load") and not self.board.solution and not self.saves_without_solver:
            return "En este tablero no se guardan ni se cargan partidas: quien preparó el cuaderno lo ha desactivado."
        return None

    def undo(self, _msg: dict) -> None:
        self.replay = []
        if self.board.game.undo():
            self.board.say("Movimiento deshecho.")
        else:
            self.board.say("No hay ningún movimiento que deshacer.", "error")

    def redo(self, _msg: dict) -> None:
        self.replay = []
        if self.board.game.redo():
            self.board.say("Movimiento rehecho.")
        else:
            self.board.say("No hay ningún movimiento que rehacer.", "error")

    def new(self, msg: dict) -> Game | None:
        g = self.board.game
        wanted = msg.get("game") or g.name
        definition = _game(wanted, g)
        if definition is None:
            self.board.say(f"No existe el juego {shown(wanted)}.", "error")
            return None
        raw = msg.get("seed")
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            seed: int | None = random.randrange(1, 1_000_000)
        else:
            seed = typed_seed(raw)
            if seed is None:
                # Named as typed; the upper limit (2**64 - 1) is enforced but not recited.
                typed = f"«{shown(raw, raw=True)}»"
                whole = isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0
                if whole or (isinstance(raw, str) and raw.strip().isdigit()):  # str() of a huge int raises
                    self.board.say(f"No hay ninguna partida {typed}: es demasiado grande. Escribe un número más pequeño, por ejemplo 1234.", "error")
                else:
                    self.board.say(f"No hay ninguna partida {typed}. Escribe un número de partida sin signos, por ejemplo 1234.", "error")
                return None
        # Another deal of the same game keeps the variant chosen (and a composed game stays
        # composed); another game starts plain.
        variant = g.variant if definition is g.definition else {}
        game = new_game(definition, seed=seed, deck=None, **variant)
        self.board.say(f"Nueva partida: {game.definition.display_name}, partida n.º {seed}.", "ok")
        return game

    def hint(self, _msg: dict) -> None:
        g = self.board.game
        if g.is_won():
            self.board.say("¡Ya está ganada! Todas las cartas están en las bases.", "ok")
            return
        move, proven, status, busy = None, False, None, False
        try:
            from ..solver.verdict_cache import cached_hint

            result = cached_hint(g.copy(), self.board.solver_seconds / 5)
            move, proven, status = result.move, bool(result.proven), result.status
            busy = bool(getattr(result, "busy", False))
        except Exception:  # no solver, or it failed: the heuristic below still helps
            move = None
        if move is None or not g.can_move(move):
            legal = g.legal_moves()
            if not legal:
                self.board.say("Sin movimientos: no hay ninguna pista que dar.", "error")
                return
            move, proven = _heuristic(legal), False
        self.highlight = move
        self.board.focus_pile = move.src
        cards = g.pile(move.src)[-move.n_cards :]
        if move.src == "S":
            text = f"Pista: {format_move(g, move)}: pasa una carta del mazo al descarte"
        else:
            text = f"Pista: {move_text(g, move, cards)}"
        if proven:
            # the proof used the face-down cards the reader cannot see: say so
            hidden = SOLVER_SEES_HIDDEN if g.hides_cards else ""
            text += f". Con este movimiento {_what(g)} sigue teniendo solución{hidden}."
        else:
            text += " (una idea, sin comprobar)."
            if busy:  # the solver had too little of the processor to prove one
                from ..solver import BUSY_HINT

                text += BUSY_HINT
        if status == "lost" and not g.is_practice:  # an exercise's position: the hint helps, no verdict
            lost = _verdict("lost", g, start=self._start_status(self.board.solver_seconds / 5))
            text += " Ojo: " + lost[0].lower() + lost[1:]
        self.board.say(text, "info")

    def _solve(self) -> Any:
        """The solver's result for a copy of the game (through the verdict cache the kernels of a
        class share), or None with a message if unavailable."""
        try:
            from ..solver.verdict_cache import cached_solve

            return cached_solve(self.board.game.copy(), self.board.solver_seconds)
        except Exception as exc:
            detail = f" ({exc})" if str(exc) else ""
            self.board.say(f"El resolvedor no está disponible o ha fallado{detail}: sin decidir.", "error")
            return None

    def solvable(self, _msg: dict) -> None:
        result = self._solve()
        if result is None:
            return
        self.board.say(self._verdict_text(result), "ok" if result.status == "won" else "info")

    def solution(self, _msg: dict) -> None:
        result = self._solve()
        if result is None:
            return
        if result.status != "won" or not result.moves:
            self.board.say(self._verdict_text(result), "info")
            return
        self.replay = [Move.parse(str(m)) for m in result.moves]
        self.highlight = self.replay[0]
        self.board.say(
            f"Solución de {len(self.replay)} movimientos"
            + (SOLVER_SEES_HIDDEN if self.board.game.hides_cards else "")
            + ": pulsa «Siguiente» para verla paso a paso.",
            "ok",
        )

    def _verdict_text(self, result: Any) -> str:
        """The solver's own Spanish verdict when it has one, else ours (same vocabulary); a
        lost game after some moves says whether it was lost from the start (`_start_status`)."""
        g = self.board.game
        start = self._start_status(self.board.solver_seconds) if result.status == "lost" and g.moves_played else None
        try:
            from ..solver import verdict_text

            text = verdict_text(result, g)
            if isinstance(text, str) and text:
                if text.startswith(NO_LONGER) and start != "won":
                    text = "No tiene solución" + text[len(NO_LONGER) :]
                    if start == "lost":  # right after what it says of the position, else at the end
                        cut = text.find(": el resolvedor")
                        text = text[:cut] + NEVER + text[cut:] if cut > 0 else f"{text} {NEVER[2:].capitalize()}."
                return text
        except Exception:
            pass
        return _verdict(result.status, g, len(result.moves or ()), start)

    def _start_status(self, seconds: float) -> str | None:
        """The solver's verdict on the board's game before its first move ("won", "lost", or
        None when undecided or unavailable), asked once per start: whether a lost game is lost
        because of the moves played («ya no tiene solución») or never could be won."""
        start = self.board.game.copy()
        while start.undo():
            pass
        key = start.to_json()
        if self._start[0] != key:
            status = None
            try:
                from ..solver.verdict_cache import cached_solve

                status = cached_solve(start, seconds).status
            except Exception:
                pass
            self._start = (key, status if status in ("won", "lost") else None)
        return self._start[1]

    def next(self, _msg: dict) -> None:
        if not self.replay:
            self.board.say("No hay ninguna solución en curso: pulsa «Ver solución».", "error")
            return
        self.board.selection = None
        move = self.replay[0]
        if self.board.play_move(move):
            left = len(self.replay)
            if left:
                self.highlight = self.replay[0]
                self.board.message += f" (quedan {left})"
        else:
            self.replay = []

    def save(self, _msg: dict) -> None:
        g = self.board.game
        code = share_code(g)
        self.export = g.to_json()
        self.board.say(f"Código para compartir: {code}   (o copia la partida guardada de abajo)", "ok")

    def load(self, msg: dict) -> Game | None:
        text = msg.get("text")
        if not isinstance(text, str) or not text.strip():
            self.board.say("Pega en el cuadro un código de partida o una partida guardada.", "error")
            return None
        try:
            game = load_share(text)
        except ValueError as exc:
            self.board.say(f"No se ha podido cargar: {exc}", "error")
            return None
        n = game.moves_played
        self.board.say(f"Partida cargada: {game.definition.display_name}, {n} movimiento{'s' if n != 1 else ''}.", "ok")
        return game


def _game(wanted: Any, current: Game) -> GameDef | None:
    """The game «Nueva partida» asks for: the current one (composed or not), a registered
    one, or a composed name; None for anything else."""
    if wanted == current.name:
        return current.definition
    if not isinstance(wanted, str):
        return None
    if wanted in GAMES:
        return GAMES[wanted]
    if "+" in wanted:
        try:
            return game_definition(wanted)
        except ValueError:
            return None
    return None


def typed_seed(raw: Any) -> int | None:
    """A deal number typed in the board (an int, or digits), else None."""
    if isinstance(raw, str) and re.fullmatch(r"[0-9]{1,20}", raw.strip()):
        raw = int(raw.strip())
    n = integer(raw)  # NumPy integers too; never a bool or a float (docs/entradas.md)
    return n if n is not None and 0 <= n <= SEED_MAX else None


def _heuristic(legal: list[Move]) -> Move:
    """The first legal move, preferring one to a foundation and avoiding a bare stock turn."""
    for m in legal:
        if m.dst.startswith("F") and not m.src.startswith("F"):
            return m
    for m in legal:
        if m.src != "S" and not m.src.startswith("F"):
            return m
    return legal[0]


def _what(g: Game) -> str:
    """ "la partida", or "la posición" for a practice position (a few cards set up by hand)."""
    return "la posición" if g.is_practice else "la partida"


def _verdict(status: str, g: Game, length: int | None = None, start: str | None = "won") -> str:
    """The board's own verdict in Spanish, used when the solver gives none; `start` is the
    verdict on the game before its first move (None: not known)."""
    hidden = SOLVER_SEES_HIDDEN if g.hides_cards else ""
    what = "Esta posición" if g.is_practice else "Esta partida"
    if status == "won":
        if g.is_won():
            return "¡Ganada! Todas las cartas están ya en las bases."
        extra = f" (una solución de {length} movimientos)" if length else ""
        return f"{what} tiene solución{extra}{hidden}."
    if status == "lost":
        cards = " con las cartas que tiene" if g.is_practice else ""
        if not g.moves_played:
            return f"{what} no tiene solución{cards}{hidden}."
        if start == "lost":  # undoing would not help: say so
            return f"{what} no tiene solución{cards}, ni la tenía al empezar: deshacer no la arregla{hidden}."
        if start is None:
            return f"{what} no tiene solución{cards}; si la tenía al empezar, prueba a deshacer movimientos{hidden}."
        return f"{what} ya no tiene solución{cards}: prueba a deshacer movimientos{hidden}."
    return f"Sin decidir: el resolvedor no ha terminado en el tiempo disponible{hidden}."
