"""What the board's buttons do: undo, redo, a new deal, a hint, the solver's verdict and
solution, and saving or loading a game.

A button the teacher switched off is refused here too (a crafted front end may still send
it).  The solver is imported only when a button asks for it; without it (or when it fails)
«Pista» falls back to a simple heuristic and the verdicts say «sin decidir».  Verdicts go through
the shared on-disk cache (`verdict_cache`): a position another kernel has solved, or is solving,
is answered from there.  Nothing here
imports a widget library: `Board` mixes this class in and holds the state.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from ..core.checks import SEED_MAX, _integer, shown
from ..core.moves import Move
from ..core.rules import GameDef
from ..engine import Game, game_definition, new_game
from ..engine.share import load_share, share_code
from ..games import GAMES
from ..games.notation import format_move
from ..render import move_text

SOLVER_BUTTONS = ("solvable", "solution", "next")
BUTTONS = ("undo", "redo", "new", "hint", "solvable", "solution", "next", "save", "load")

SOLVER_SEES_HIDDEN = " (el resolvedor ve las cartas boca abajo, que tú no ves)"


class Buttons:
    """The buttons of a `Board` (a mixin: `Board` holds the state and the clicks' `_play`)."""

    _game: Game
    selection: tuple[str, int] | None
    message: str
    _hints: bool
    _solution: bool
    _solver_seconds: float
    _highlight: Move | None
    _replay: list[Move]
    _export: str
    _focus: str | None

    if TYPE_CHECKING:  # provided by Clicks and Board

        def _say(self, text: str, kind: str = "info") -> None: ...
        def _play(self, move: Move) -> bool: ...
        def _set_game(self, game: Game) -> None: ...

    def _button(self, action: Any, msg: dict) -> None:
        if action not in BUTTONS:
            raise ValueError(f"botón no reconocido: {shown(action)}")
        refusal = self._refusal(action)
        if refusal:
            self._say(refusal, "error")
            return
        if action not in ("next", "save"):
            self.selection = None
        getattr(self, f"_do_{action}")(msg)

    def _refusal(self, action: str) -> str | None:
        """Why a button the teacher switched off does nothing (a crafted front end may send it)."""
        if action == "hint" and not self._hints:
            return "En este tablero no hay pistas: las ha desactivado quien preparó el cuaderno."
        if action in SOLVER_BUTTONS and not self._solution:
            return "En este tablero no se puede consultar el resolvedor: lo ha desactivado quien preparó el cuaderno."
        return None

    def _do_undo(self, _msg: dict) -> None:
        self._replay = []
        if self._game.undo():
            self._say("Movimiento deshecho.")
        else:
            self._say("No hay ningún movimiento que deshacer.", "error")

    def _do_redo(self, _msg: dict) -> None:
        self._replay = []
        if self._game.redo():
            self._say("Movimiento rehecho.")
        else:
            self._say("No hay ningún movimiento que rehacer.", "error")

    def _do_new(self, msg: dict) -> None:
        g = self._game
        wanted = msg.get("game") or g.name
        definition = _game(wanted, g)
        if definition is None:
            self._say(f"No existe el juego {shown(wanted)}.", "error")
            return
        raw = msg.get("seed")
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            seed = random.randrange(1, 1_000_000)
        else:
            seed = _seed(raw)
            if seed is None:
                self._say(f"El número de partida debe ser un número entero entre 0 y 18.446.744.073.709.551.615, no {shown(raw)}.", "error")
                return
        # Another deal of the same game keeps the variant chosen (and a composed game stays
        # composed); another game starts plain.
        variant = g.variant if definition is g.definition else {}
        self._set_game(new_game(definition, seed=seed, **variant))
        self._say(f"Nueva partida: {self._game.definition.display_name}, partida nº {seed}.", "ok")

    def _do_hint(self, _msg: dict) -> None:
        g = self._game
        if g.is_won():
            self._say("¡Ya está ganada! Todas las cartas están en las bases.", "ok")
            return
        move, proven, status, busy = None, False, None, False
        try:
            from ..solver.verdict_cache import cached_hint

            result = cached_hint(g.copy(), self._solver_seconds / 5)
            move, proven, status = result.move, bool(result.proven), result.status
            busy = bool(getattr(result, "busy", False))
        except Exception:  # no solver, or it failed: the heuristic below still helps
            move = None
        if move is None or not g.can_move(move):
            legal = g.legal_moves()
            if not legal:
                self._say("Sin movimientos: no hay ninguna pista que dar.", "error")
                return
            move, proven = _heuristic(legal), False
        self._highlight = move
        self._focus = move.src
        cards = g.pile(move.src)[-move.count :]
        if move.src == "S":
            text = f"Pista: {format_move(g, move)} (gira el mazo)"
        else:
            text = f"Pista: {move_text(g, move, cards)}"
        if proven:
            text += f". Con este movimiento {_what(g)} sigue teniendo solución."
        else:
            text += " (pista heurística)."
            if busy:  # the solver had too little of the processor to prove one
                from ..solver import BUSY_HINT

                text += BUSY_HINT
        if status == "lost":
            lost = _verdict("lost", g)
            text += " Ojo: " + lost[0].lower() + lost[1:]
        self._say(text, "info")

    def _solve(self) -> Any:
        """The solver's result for a copy of the game (through the verdict cache the kernels of a
        class share), or None with a message if unavailable."""
        try:
            from ..solver.verdict_cache import cached_solve

            return cached_solve(self._game.copy(), self._solver_seconds)
        except Exception as exc:
            detail = f" ({exc})" if str(exc) else ""
            self._say(f"El resolvedor no está disponible o ha fallado{detail}: sin decidir.", "error")
            return None

    def _do_solvable(self, _msg: dict) -> None:
        result = self._solve()
        if result is None:
            return
        self._say(self._verdict_text(result), "ok" if result.status == "won" else "info")

    def _do_solution(self, _msg: dict) -> None:
        result = self._solve()
        if result is None:
            return
        if result.status != "won" or not result.moves:
            self._say(self._verdict_text(result), "info")
            return
        self._replay = [Move.parse(str(m)) for m in result.moves]
        self._highlight = self._replay[0]
        self._say(
            f"Solución de {len(self._replay)} movimientos: pulsa «Siguiente» para verla paso a paso."
            + (SOLVER_SEES_HIDDEN if self._game.hides_cards else ""),
            "ok",
        )

    def _verdict_text(self, result: Any) -> str:
        """The solver's own Spanish verdict when it has one, else ours (same vocabulary)."""
        try:
            from ..solver import verdict_text

            text = verdict_text(result, self._game)
            if isinstance(text, str) and text:
                return text
        except Exception:
            pass
        return _verdict(result.status, self._game, len(result.moves or ()))

    def _do_next(self, _msg: dict) -> None:
        if not self._replay:
            self._say("No hay ninguna solución en curso: pulsa «Ver solución».", "error")
            return
        self.selection = None
        move = self._replay[0]
        if self._play(move):
            left = len(self._replay)
            if left:
                self._highlight = self._replay[0]
                self.message += f" (quedan {left})"
        else:
            self._replay = []

    def _do_save(self, _msg: dict) -> None:
        g = self._game
        code = share_code(g)
        self._export = g.to_json()
        self._say(f"Código para compartir: {code}   (o copia el JSON de abajo)", "ok")

    def _do_load(self, msg: dict) -> None:
        text = msg.get("text")
        if not isinstance(text, str) or not text.strip():
            self._say("Pega en el cuadro un código de partida o un JSON guardado.", "error")
            return
        try:
            game = load_share(text)
        except ValueError as exc:
            self._say(f"No se ha podido cargar: {exc}", "error")
            return
        self._set_game(game)
        n = game.moves_played
        self._say(f"Partida cargada: {game.definition.display_name}, {n} movimiento{'s' if n != 1 else ''}.", "ok")


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


def _seed(raw: Any) -> int | None:
    """A deal number typed in the board (an int, or digits), else None."""
    if isinstance(raw, str) and re.fullmatch(r"[0-9]{1,20}", raw.strip()):
        raw = int(raw.strip())
    n = _integer(raw)  # NumPy integers too; never a bool or a float (docs/entradas.md)
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


def _verdict(status: str, g: Game, length: int | None = None) -> str:
    """The board's own verdict in Spanish, used when the solver gives none."""
    hidden = SOLVER_SEES_HIDDEN if g.hides_cards else ""
    what = "Esta posición" if g.is_practice else "Esta partida"
    if status == "won":
        if g.is_won():
            return "¡Ganada! Todas las cartas están ya en las bases."
        extra = f" (una solución de {length} movimientos)" if length else ""
        return f"{what} tiene solución{extra}.{hidden}"
    if status == "lost":
        cards = " con las cartas que tiene" if g.is_practice else ""
        if g.moves_played:
            return f"{what} ya no tiene solución{cards}: prueba a deshacer movimientos.{hidden}"
        return f"{what} no tiene solución{cards}.{hidden}"
    return f"Sin decidir: el resolvedor no ha terminado en el tiempo disponible.{hidden}"
