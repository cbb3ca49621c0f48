"""The interactive board: an anywidget whose JavaScript front end only draws what the kernel
sends and reports what the reader clicked or typed.

All logic lives here, in Python: a click becomes `game.move(...)`, a refused move shows the
engine's Spanish sentence (`why_not`) and changes nothing, and every handler catches every
exception so that no traceback ever reaches the reader.  The front end sends messages
``{"event": "click" | "double" | "button" | "text", ...}`` (see `Board.handle`); the kernel
answers by setting one synced trait, ``view``, holding the SVG from `render.py`, the status
line, the message and the move list.  Tests drive the board through the same `handle`.

This is the only module of the package that imports ipywidgets/anywidget
(tests/test_widget_imports.py): the exercises' widgets (`caja`, `tablero`) and the progress bar
of long computations (reached through `progress.kernel_bar`) are built here too.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from . import ejercicios
from .checks import SEED_MAX, shown
from .engine import Game, Step, new_game
from .games import GAMES
from .moves import IllegalMove, Move
from .notation import format_move, parse_move
from .render import deal_lines, move_text, render_html, render_svg, status_text, step_lines
from .share import load_share, share_code
from .texts import capitalize

_HERE = Path(__file__).parent

# What a board offers unless told otherwise; a teacher changes it once per notebook with
# `set_board_defaults`.  «Pista» thinks a fifth of `solver_seconds`.
_DEFAULTS: dict[str, Any] = {"hints": True, "solution": True, "solver_seconds": 5.0}
SOLVER_BUTTONS = ("solvable", "solution", "next")

BUTTONS = ("undo", "redo", "new", "hint", "solvable", "solution", "next", "save", "load")

SOLVER_SEES_HIDDEN = " (el resolvedor ve las cartas boca abajo, que tú no ves)"


class Board(anywidget.AnyWidget):
    """A clickable board for `game`; `board.game` is the live game.

    Moves made in Python on `board.game` show after `board.refresh()`."""

    _esm = _HERE / "board.js"
    _css = _HERE / "board.css"

    view = traitlets.Dict().tag(sync=True)
    """Everything the front end draws: svg, status, message, kind, moves, seed, game, …"""

    def __init__(
        self,
        game: Game | None = None,
        *,
        hints: bool | None = None,
        solution: bool | None = None,
        solver_seconds: float | None = None,
        **kwargs: Any,
    ):
        """`hints=False` hides «Pista»; `solution=False` hides «¿Tiene solución?», «Ver
        solución», «Siguiente» and «▶ Reproducir»; the kernel refuses those actions too.
        `solver_seconds` is how long «¿Tiene solución?» and «Ver solución» may think («Pista»
        a fifth of it).  None takes the page's default (`set_board_defaults`)."""
        for old in ("solve_seconds", "hint_seconds"):  # earlier names: never ignore them silently
            if old in kwargs:
                raise ValueError(f"Board ya no acepta {old}={kwargs[old]!r}: usa solver_seconds")
        settings = _settings(hints=hints, solution=solution, solver_seconds=solver_seconds)
        super().__init__(**kwargs)
        self._game: Game = game if game is not None else new_game("citadel")
        self._hints: bool = settings["hints"]
        self._solution: bool = settings["solution"]
        self._solver_seconds: float = settings["solver_seconds"]
        self.selection: tuple[str, int] | None = None
        """(pile id, index of the first selected card), or None."""
        self.message = ""
        self.kind = "info"  # "info", "ok" or "error": how the front end colours the message
        self._highlight: Move | None = None
        self._replay: list[Move] = []
        self._export = ""
        self._focus: str | None = None
        self._lines_cache: list[list[Any]] = []
        self._deal_lines = deal_lines(self._game)
        self.on_msg(self._on_msg)
        self.refresh()

    # ------------------------------------------------------------------ public API
    @property
    def game(self) -> Game:
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._set_game(game)
        self.refresh()

    @property
    def hints(self) -> bool:
        """Whether «Pista» is offered (setting it redraws the board)."""
        return self._hints

    @hints.setter
    def hints(self, value: bool) -> None:
        self._hints = _settings(hints=value)["hints"]
        self.refresh()

    @property
    def solution(self) -> bool:
        """Whether the solver's buttons are offered (setting it redraws the board)."""
        return self._solution

    @solution.setter
    def solution(self, value: bool) -> None:
        self._solution = _settings(solution=value)["solution"]
        if not value:
            self._replay = []
        self.refresh()

    @property
    def solver_seconds(self) -> float:
        """How long «¿Tiene solución?» and «Ver solución» may think; «Pista», a fifth of it."""
        return self._solver_seconds

    @solver_seconds.setter
    def solver_seconds(self, value: float) -> None:
        self._solver_seconds = _settings(solver_seconds=value)["solver_seconds"]

    def refresh(self) -> None:
        """Redraw from `board.game` (call it after moves made in Python)."""
        try:
            self.view = self._view_state()
        except Exception as exc:  # never leave the reader with a stale or broken board
            self.view = {
                **dict(self.view or {}),
                "message": f"No se ha podido dibujar la partida: {exc}",
                "kind": "error",
            }

    def handle(self, msg: Any) -> None:
        """Process one message from the front end; no exception escapes."""
        try:
            self._dispatch(msg)
        except Exception as exc:
            self.selection = None
            self._say(f"Algo ha fallado: {exc}. La partida no ha cambiado.", "error")
        self.refresh()

    # Shorthands the tests and notebooks use; each goes through `handle`, as a click does.
    def click(self, pile: str, index: int | None = None) -> None:
        self.handle({"event": "click", "pile": pile, "index": index})

    def double_click(self, pile: str, index: int | None = None) -> None:
        self.handle({"event": "double", "pile": pile, "index": index})

    def press(self, button: str, **fields: Any) -> None:
        self.handle({"event": "button", "name": button, **fields})

    def type_move(self, text: str) -> None:
        self.handle({"event": "text", "text": text})

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # A static picture beside the widget view: nbconvert, GitHub and nbviewer show it
        # where no kernel runs (JupyterLab 4 does not restore saved widget state).
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            try:
                data["text/html"] = render_html(self._game)
                data["text/plain"] = f"Tablero de {status_text(self._game)}"
            except Exception:
                pass
        return bundle

    # ------------------------------------------------------------------ dispatch
    def _on_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        self.handle(content)

    def _dispatch(self, msg: Any) -> None:
        if not isinstance(msg, dict):
            raise ValueError(f"mensaje no reconocido: {shown(msg)}")
        event = msg.get("event")
        self._highlight = None
        self._focus = None
        self._export = ""  # the JSON goes out once, right after «Guardar»; never stale
        if event == "click":
            self._click(msg.get("pile"), _index(msg.get("index")))
        elif event == "double":
            self._double(msg.get("pile"), _index(msg.get("index")))
        elif event == "text":
            self._text_move(msg.get("text"))
        elif event == "button":
            self._button(msg.get("name"), msg)
        elif event == "escape":
            had = self.selection is not None
            self.selection = None
            self._say("Selección anulada." if had else "No había ninguna carta elegida.")
        else:
            raise ValueError(f"evento no reconocido: {shown(event)}")

    def _say(self, text: str, kind: str = "info") -> None:
        self.message, self.kind = text, kind

    # ------------------------------------------------------------------ clicks
    def _click(self, pile: Any, index: int | None) -> None:
        g = self._game
        if not isinstance(pile, str) or pile not in g._idx:
            self.selection = None
            self._say("Esa zona no es ninguna pila de esta partida.", "error")
            return
        if pile == "S":  # ML-7: the stock turns with one click, whatever was selected
            self.selection = None
            self._play(Move("S", "W", 1))
            return
        if self.selection is None:
            self._pick(pile, index)
            return
        src, first = self.selection
        if pile == src:
            n = len(g._piles[g._idx[pile]])
            if index is None or index == first or not 0 <= index < n:
                self.selection = None
                self._say("Selección anulada.")
            else:
                self.selection = None
                self._pick(pile, index)
            return
        count = len(g._piles[g._idx[src]]) - first
        self.selection = None
        self._play(Move(src, pile, count))

    def _pick(self, pile: str, index: int | None) -> None:
        """Select the run from the clicked card to the top, or explain why it can't move."""
        g = self._game
        i = g._idx[pile]
        cards = g._piles[i]
        n = len(cards)
        if pile == "W" or g._kind[i] in ("F", "R") or index is None or not 0 <= index < n:
            index = n - 1  # only the top card of these piles can be taken
        if n == 0:
            self._say(f"{g.label(pile)} está vacío: elige primero una carta que mover.", "error")
            return
        if index < g._fd[i]:
            self._say("Esa carta está boca abajo: elige una carta boca arriba.", "error")
            return
        count = n - index
        problem = self._source_problem(pile, count)
        if problem:
            self._say(problem, "error")
            return
        self.selection = (pile, index)
        what = cards[index].nombre if count == 1 else f"{count} cartas desde {cards[index].nombre}"
        self._say(f"Elegida: {what} ({g.label(pile)}). Ahora elige la pila de destino.")

    def _source_problem(self, pile: str, count: int) -> str | None:
        """The engine's sentence when these cards can't leave `pile` whatever the target."""
        g = self._game
        i = g._idx[pile]
        kind = g._kind[i]
        if kind == "T" and count <= g._run_length(i):
            return None
        if kind == "W" and count == 1:
            return None
        # Ask the engine with a probe target: its source checks come before the target's.
        probe = next((p for p in g.pile_ids if p[0] == "T" and p != pile), "F0")
        if kind in ("F", "R") and count == 1:
            # Whether these piles give cards back at all is a rule flag (BD-6, CB-6, CH-7).
            closed = not g.rules.takeback if kind == "F" else not g.rules.reserve_playable
            return g.why_not(pile, probe, 1) if closed else None
        return g.why_not(pile, probe, count) or f"No se pueden mover esas {count} cartas juntas."

    def _double(self, pile: Any, index: int | None) -> None:
        """Send the clicked top card to a foundation that takes it."""
        g = self._game
        self.selection = None
        if not isinstance(pile, str) or pile not in g._idx:
            self._say("Esa zona no es ninguna pila de esta partida.", "error")
            return
        if pile == "S":
            self._play(Move("S", "W", 1))
            return
        i = g._idx[pile]
        cards = g._piles[i]
        if not cards or g._kind[i] == "F":
            self._say("Doble clic sobre una carta del tablero para enviarla a su base.", "info")
            return
        if index is not None and index != len(cards) - 1:
            self._say("Solo la carta de arriba de una pila puede ir a la base.", "error")
            return
        for fid in (g.pile_ids[f] for f in g._fnd):
            if g.can_move(pile, fid):
                self._play(Move(pile, fid, 1))
                return
        reason = g.why_not(pile, g.pile_ids[g._fnd[0]])
        card = cards[-1]
        extra = f" ({reason})" if reason and len(g._fnd) == 1 else ""
        self._say(f"{capitalize(card.articulo)} no puede ir ahora a ninguna base.{extra}", "error")

    def _play(self, move: Move) -> bool:
        g = self._game
        reason = g.why_not(move)
        if reason is not None:
            self._say(reason, "error")
            return False
        try:
            step = g.move(move)
        except IllegalMove as exc:  # why_not and move agree; kept for safety
            self._say(exc.reason, "error")
            return False
        self._replay_check(move)
        self._focus = move.dst
        text = " ".join(line.strip() for line in step_lines(g, step, g.moves_played))
        if g.is_won():
            self._say(f"{text}. ¡Ganada!", "ok")
        else:
            self._say(text, "ok")
        return True

    def _replay_check(self, move: Move) -> None:
        """Keep a shown solution only while the reader follows it."""
        if self._replay and self._replay[0] == move:
            self._replay.pop(0)
        else:
            self._replay = []

    # ------------------------------------------------------------------ typed moves
    def _text_move(self, text: Any) -> None:
        self.selection = None
        move, error = parse_text_move(self._game, text)
        if error:
            self._say(error, "error")
            return
        assert move is not None
        self._play(move)

    # ------------------------------------------------------------------ buttons
    def _button(self, name: Any, msg: dict) -> None:
        if name not in BUTTONS:
            raise ValueError(f"botón no reconocido: {shown(name)}")
        refusal = self._refusal(name)
        if refusal:
            self._say(refusal, "error")
            return
        if name not in ("next", "save"):
            self.selection = None
        getattr(self, f"_do_{name}")(msg)

    def _refusal(self, name: str) -> str | None:
        """Why a button the teacher switched off does nothing (a crafted front end may send it)."""
        if name == "hint" and not self._hints:
            return "En este tablero no hay pistas: las ha desactivado quien preparó el cuaderno."
        if name in SOLVER_BUTTONS and not self._solution:
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
        name = msg.get("game") or g.name
        if not isinstance(name, str) or name not in GAMES:
            self._say(f"No existe el juego {shown(name)}.", "error")
            return
        raw = msg.get("seed")
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            seed = random.randrange(1, 1_000_000)
        else:
            seed = _seed(raw)
            if seed is None:
                self._say(f"El número de partida debe ser un número entero entre 0 y 18.446.744.073.709.551.615, no {shown(raw)}.", "error")
                return
        variant = g.variant if name == g.name else {}
        self._set_game(new_game(name, seed=seed, **variant))
        self._say(f"Nueva partida: {self._game.definition.display_name}, partida nº {seed}.", "ok")

    def _do_hint(self, _msg: dict) -> None:
        g = self._game
        if g.is_won():
            self._say("¡Ya está ganada! Todas las cartas están en las bases.", "ok")
            return
        move, proven, status, busy = None, False, None, False
        try:
            from .solver import hint

            result = hint(g.copy(), time_limit=self.solver_seconds / 5)
            move, proven, status = result.move, bool(result.proven), result.status
            busy = bool(getattr(result, "busy", False))
        except Exception:  # no solver, or it failed: the heuristic below still helps
            move = None
        if move is None or not g.can_move(move):
            legal = g.legal_moves()
            if not legal:
                self._say("Sin movimientos: no hay ninguna pista que dar.", "error")
                return
            move, proven = _heuristic(g, legal), False
        self._highlight = move
        self._focus = move.src
        cards = g._piles[g._idx[move.src]][-move.count :]
        if move.src == "S":
            text = f"Pista: {format_move(g, move)} (gira el mazo)"
        else:
            text = f"Pista: {move_text(g, move, cards)}"
        if proven:
            text += f". Con este movimiento {_what(g)} sigue teniendo solución."
        else:
            text += " (pista heurística)."
            if busy:  # the solver had too little of the processor to prove one
                from .solver import BUSY_HINT

                text += BUSY_HINT
        if status == "lost":
            text += " Ojo: " + _verdict("lost", g)[0].lower() + _verdict("lost", g)[1:]
        self._say(text, "info")

    def _solve(self):
        """The solver's result for a copy of the game, or None with a message if unavailable."""
        try:
            from .solver import solve

            return solve(self._game.copy(), time_limit=self.solver_seconds)
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
            + (SOLVER_SEES_HIDDEN if self._game.name == "moving_left" else ""),
            "ok",
        )

    def _verdict_text(self, result: Any) -> str:
        """The solver's own Spanish verdict when it has one, else ours (same vocabulary)."""
        try:
            from .solver import verdict_text

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

    # ------------------------------------------------------------------ view
    def _set_game(self, game: Game) -> None:
        if not isinstance(game, Game):
            raise TypeError("board.game debe ser una partida (solitaire_nb.Game)")
        self._game = game
        self.selection = None
        self._highlight = None
        self._replay = []
        self._export = ""
        self._lines_cache = []
        self._deal_lines = deal_lines(game)

    def _move_lines(self) -> list[str]:
        """The numbered move list, computing lines only for moves not seen before (a long
        game would otherwise rebuild hundreds of lines on every click)."""
        g = self._game
        record = g._undo  # (move, ops) per move played: read-only use of the engine's log
        cache = self._lines_cache
        keep = 0
        while keep < len(cache) and keep < len(record) and cache[keep][0] is record[keep][1]:
            keep += 1
        del cache[keep:]
        for k in range(keep, len(record)):
            move, ops = record[k]
            actions = [g._action(op) for op in ops]
            step = Step(move, actions[0].cards, tuple(actions[1:]))
            cache.append([ops, *step_lines(g, step, k + 1)])
        return self._deal_lines + [line for entry in cache for line in entry[1:]]

    def _view_state(self) -> dict[str, Any]:
        g = self._game
        sel = self.selection
        if sel is not None and (sel[0] not in g._idx or sel[1] >= len(g._piles[g._idx[sel[0]]])):
            sel = self.selection = None
        return {
            "svg": render_svg(g, selected=sel, highlight=self._highlight, interactive=True),
            "status": status_text(g),
            "message": self.message,
            "kind": self.kind,
            "moves": self._move_lines(),
            "game": g.name,
            "display_name": g.definition.display_name,
            "games": [[k, d.display_name] for k, d in GAMES.items()],
            "seed": g.seed,
            "moves_played": g.moves_played,
            "can_undo": bool(g.moves_played),
            "can_redo": bool(g._redo),
            "replay_left": len(self._replay),
            "selected": list(sel) if sel else None,
            "focus": self._focus,
            "export": self._export,
            "share": share_code(g) if self._export else "",
            "hints": self._hints,
            "solution": self._solution,
        }


# ---------------------------------------------------------------------- helpers
def _index(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,6}", value.strip()):
        return int(value)
    return None


def _seed(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, str) and re.fullmatch(r"[0-9]{1,20}", raw.strip()):
        raw = int(raw.strip())
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if isinstance(raw, int) and 0 <= raw <= SEED_MAX:
        return raw
    return None


def _heuristic(g: Game, legal: list[Move]) -> Move:
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
    hidden = SOLVER_SEES_HIDDEN if g.name == "moving_left" else ""
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


def parse_text_move(g: Game, text: Any) -> tuple[Move | None, str | None]:
    """Read a typed move in the learner notation (`notation.parse_move`: "T4 B1", "T2 T7 3",
    "A3 B1", "M", "tablero 2 a base 1"): (move, None), or (None, the Spanish reason)."""
    try:
        return parse_move(g, text), None
    except ValueError as exc:
        return None, str(exc)


def play(
    name: str,
    seed: int | None = None,
    hints: bool | None = None,
    solution: bool | None = None,
    solver_seconds: float | None = None,
    **variant: bool,
) -> Board:
    """A new game of `name` (deal number `seed`) on a board, ready to display.

    `hints=False` / `solution=False` take away «Pista» / the solver's buttons, and
    `solver_seconds` is the solver's time budget (None: the page's default, see
    `set_board_defaults`)."""
    settings = _settings(hints=hints, solution=solution, solver_seconds=solver_seconds)  # fail before dealing
    return Board(new_game(name, seed=seed, **variant), **settings)


def set_board_defaults(
    hints: bool | None = None, solution: bool | None = None, solver_seconds: float | None = None
) -> None:
    """What every board made afterwards offers, unless it says otherwise: a teacher calls it
    once at the top of a notebook, e.g. ``sn.set_board_defaults(solution=False)`` for an
    exam.  None leaves a setting as it is."""
    _DEFAULTS.update(_settings(hints=hints, solution=solution, solver_seconds=solver_seconds))


def _settings(**given: Any) -> dict[str, Any]:
    """The page defaults overridden by the non-None values given, checked (Spanish ValueError)."""
    out = dict(_DEFAULTS)
    for key, value in given.items():
        if value is None:
            continue
        if key == "solver_seconds":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 600
            if not ok:
                raise ValueError(
                    f"solver_seconds debe ser un número de segundos mayor que 0 y como mucho 600, no {value!r}"
                )
            out[key] = float(value)
        elif isinstance(value, bool):
            out[key] = value
        else:
            raise ValueError(f"{key} debe ser True o False, no {value!r}")
    return out


# ---------------------------------------------------------------------- other small widgets
# The studies and the exercises show widgets too; they are built here so that this stays the
# one module that imports a widget library.


class _Static:
    """Mixin for boxes the notebooks display: their mimebundle also carries a static HTML
    picture, so GitHub, nbviewer and a notebook opened before running show the question or
    the picture instead of ``VBox(children=…)``."""

    static_html = ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict) and self.static_html:
            data["text/html"] = self.static_html
            data["text/plain"] = _plain(self.static_html)
        return bundle


class StaticVBox(_Static, widgets.VBox):
    """A VBox with a static HTML fallback (`static_html`)."""


class StaticHBox(_Static, widgets.HBox):
    """An HBox with a static HTML fallback (`static_html`)."""


def _plain(html: str) -> str:
    import html as html_module

    return html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


def static_box(children: list[Any], static_html: str, horizontal: bool = False, **kwargs: Any) -> Any:
    """A box of `children` whose static fallback is `static_html` (for the study's controls and
    any other group of widgets a notebook displays)."""
    box = (StaticHBox if horizontal else StaticVBox)(children, **kwargs)
    box.static_html = static_html
    return box


def progress_bar(total: int, description: str, done: int = 0, in_kernel: bool | None = None) -> Any:
    """Display a progress bar with a text label now; return ``update(done, text="", failed=False)``.

    Returns None outside a Jupyter kernel (plain Python, tests), where nothing is shown;
    `in_kernel` overrides the detection (the caller may know better)."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        return None
    if in_kernel is None:
        shell = get_ipython()
        in_kernel = shell is not None and getattr(shell, "kernel", None) is not None
    if not in_kernel:
        return None
    from html import escape

    bar = widgets.IntProgress(value=done, min=0, max=max(total, 1), description=description)
    label = widgets.Label()
    box = static_box([bar, label], f"<p>{escape(description)}: {done} de {total}</p>", horizontal=True)
    display(box)

    def update(done: int, text: str = "", failed: bool = False) -> None:
        bar.value = done
        label.value = text
        box.static_html = f"<p>{escape(description)}: {done} de {total}. {escape(text)}</p>"
        if failed:
            bar.bar_style = "danger"
        elif done >= total:
            bar.bar_style = "success"

    return update


def _verdict_html(ok: bool, message: str) -> str:
    from html import escape

    colour = "#1a7f37" if ok else "#b3261e"
    return f'<span role="status" style="color:{colour}">{escape(message)}</span>'


def answer_box(question: str, check: Any) -> Any:
    """A question, a text box, a «Comprobar» button and the verdict: `check(text)` returns
    (ok, Spanish message).  For readers who write no code, in Voila too; its static fallback
    shows the question."""
    from html import escape

    entry = widgets.Text(placeholder="Escribe aquí tu respuesta", layout=widgets.Layout(width="24em"))
    button = widgets.Button(description="Comprobar", button_style="primary")
    verdict = widgets.HTML()

    def on_check(_event: object = None) -> None:
        try:
            ok, message = check(entry.value)
        except Exception:  # noqa: BLE001 - a reader's answer never shows a traceback
            ok, message = False, "No he entendido la respuesta; prueba a escribirla de otra forma."
        verdict.value = _verdict_html(ok, message)

    button.on_click(on_check)
    entry.continuous_update = False
    entry.observe(lambda change: on_check() if change["new"].strip() else None, names="value")
    question_html = f"<p><b>{escape(question)}</b></p>"
    static = f'{question_html}<p><i>Abre el cuaderno en marcha para responder aquí.</i></p>'
    return static_box([widgets.HTML(question_html), widgets.HBox([entry, button]), verdict], static)


def exercise_board(question: str, game: Game, check: Any, **board_args: Any) -> Any:
    """A question answered by playing: a board on `game` and a verdict line under it.

    After each move the reader plays, ``check(game, move)`` returns (ok, Spanish message)
    saying whether the move played is the one asked for; the verdict shows that message.
    The board is a normal `Board` (Deshacer lets the reader try again)."""
    from html import escape

    board = Board(game, **board_args)
    verdict = widgets.HTML()
    start = game.moves_played
    last = [start]  # moves played when the board was last drawn

    def on_view(_change: object) -> None:
        g = board.game
        played, before = g.moves_played, last[0]
        last[0] = played
        if played < before or played <= start:
            verdict.value = ""  # an undo or a new game: the last verdict no longer holds
        if played <= before or played <= start:
            return  # nothing new to judge
        try:
            ok, message = check(g, g.history[-1])
        except Exception:  # noqa: BLE001 - never a traceback for a reader
            ok, message = False, "No he podido comprobar ese movimiento."
        verdict.value = _verdict_html(ok, message)

    board.observe(on_view, names="view")
    question_html = f"<p><b>{escape(question)}</b></p>"
    static = question_html + render_html(game)
    return static_box([widgets.HTML(question_html), board, verdict], static)


def caja(ejercicio: str) -> Any:
    """An exercise of `solitaire_nb.ejercicios` as a widget (question, text box, «Comprobar»
    button, verdict), for readers who write no code, in Voila too."""
    question = ejercicios.enunciado(ejercicio)  # an unknown exercise: ValueError now, not on click
    return answer_box(question, lambda texto: ejercicios.verdict_of_text(ejercicio, texto))


def tablero(ejercicio: str, **board_args: Any) -> Any:
    """A board exercise (kind "board") answered by playing: its position on a board and, after
    each move, the verdict `caja` would give for the moves played so far.  `board_args` go
    to the board (e.g. ``hints=False``)."""
    game = ejercicios.start_position(ejercicio)
    question = ejercicios.enunciado(ejercicio)
    return exercise_board(question, game, lambda g, _move: ejercicios.verdict_of_game(ejercicio, g), **board_args)


__all__ = [
    "Board",
    "play",
    "set_board_defaults",
    "parse_text_move",
    "share_code",
    "load_share",
    "progress_bar",
    "answer_box",
    "exercise_board",
    "caja",
    "tablero",
    "static_box",
]


# ---------------------------------------------------------------------- a study's controls
def study_controls(
    run: Any,
    sizes: tuple[int, ...] = (1_000, 10_000, 100_000, 1_000_000),
    value: int = 10_000,
    description: str = "Repartos",
    button: str = "Simular",
) -> Any:
    """A slider to choose how many deals to simulate, a button and an output area.

    A click calls ``run(size)`` inside the output area (whatever it prints or displays shows
    there, replacing the previous run).  An exception is reported in one Spanish sentence, never
    as a traceback.  The static fallback names the choices."""
    from html import escape

    if value not in sizes:
        raise ValueError(f"El valor inicial {value} no está entre los tamaños {list(sizes)}")

    def thousands(n: int) -> str:
        return f"{n:,}".replace(",", ".")

    slider = widgets.SelectionSlider(
        options=[(thousands(n), n) for n in sizes], value=value, description=description
    )
    go = widgets.Button(description=button, button_style="primary")
    out = widgets.Output()

    def on_click(_event: object = None) -> None:
        with out:
            out.clear_output(wait=True)
            try:
                run(slider.value)
            except Exception as exc:  # noqa: BLE001 - a reader never sees a traceback
                print(f"No se ha podido completar la simulación: {exc}")

    go.on_click(on_click)
    choices = ", ".join(thousands(n) for n in sizes)
    static = (
        f"<p><b>{escape(description)}:</b> {escape(choices)} · botón «{escape(button)}». "
        "<i>Abre el cuaderno en marcha para usar estos controles.</i></p>"
    )
    return static_box([widgets.HBox([slider, go]), out], static)


__all__.append("study_controls")
