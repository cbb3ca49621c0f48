"""The interactive board: an anywidget whose JavaScript front end (board.js) only draws what
the kernel sends and reports what the reader clicked or typed.

All logic lives in Python: the board owns two helpers, `Clicks` (clicks and typed moves
become `game.move(...)`) and `Buttons` (the buttons), and every handler catches every
exception so that no traceback ever reaches the reader.  The front end sends messages
``{"event": "click" | "double" | "button" | "text" | "escape", ...}`` (see `Board.handle`);
the kernel answers by setting one synced trait, ``view``, holding the SVG from `render`, the
status line, the message and the move list.  Tests drive the board through the same `handle`.

Widget libraries are imported only in the board package (tests/test_layout.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..core.checks import shown
from ..core.moves import IllegalMove, Move
from ..core.rules import GameDef
from ..engine import Game, Step, new_game
from ..engine.share import load_share, share_code
from ..games import GAMES
from ..games.notation import format_move
from ..render import deal_lines, render_html, render_svg, status_text, step_lines
from .buttons import Buttons
from .clicks import Clicks
from .settings import checked_settings

_ASSETS = Path(__file__).resolve().parent  # board.js and board.css


class Board(anywidget.AnyWidget):
    """A clickable board for `game`; `board.game` is the live game.

    Moves made in Python on `board.game` show after `board.refresh()`.  The board holds the
    state it draws and owns its helpers: `clicks` (a `Clicks`) and `buttons` (a
    `buttons_type`), which act through `game`, `selection`, `say` and `play_move`."""

    # The public name, whichever module defines it: anywidget identifies the front end by it,
    # and notebooks saved before the board became a package carry this id.
    __module__ = "solitaire_nb.board"

    _esm = _ASSETS / "board.js"
    _css = _ASSETS / "board.css"

    view = traitlets.Dict().tag(sync=True)
    """Everything the front end draws: svg, status, message, kind, moves, seed, game, …"""

    room = traitlets.Int(0).tag(sync=True)
    """The drawing's width on the reader's screen (CSS px, 0 until the front end measures it):
    a board too wide for it is drawn again to fit (`render.render_svg`'s `room`)."""

    _restores_other_deals = True
    """Whether a game kept by the browser may be another deal than this board's own (a board
    whose deal is chosen by something else, like the lab's, says False)."""
    buttons_type: type[Buttons] = Buttons  # a board whose buttons differ names its subclass
    _dealt: dict[str, int] = {}  # boards made in this kernel per deal, to tell them apart
    _KEPT_MAX = 20_000  # no kept game is longer (a code of a few hundred moves)

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
                raise ValueError(f"Board ya no acepta {old}={shown(kwargs[old])}: usa solver_seconds")
        settings = checked_settings(hints=hints, solution=solution, solver_seconds=solver_seconds)
        if game is not None:
            _check_game(game)
        super().__init__(**kwargs)
        self._game: Game = game if game is not None else new_game("citadel")
        self._hints: bool = settings["hints"]
        self._solution: bool = settings["solution"]
        self._solver_seconds: float = settings["solver_seconds"]
        self.selection: tuple[str, int] | None = None  # (pile id, first selected card's index)
        self.message = ""
        self.kind = "info"  # "info", "ok" or "error": how the front end colours the message
        self.focus_pile: str | None = None  # the pile given the keyboard focus after this event
        self.clicks = Clicks(self)
        self.buttons = self.buttons_type(self)
        self._lines_cache: list[list[Any]] = []  # [move, its lines…] per move played
        self._played: tuple[int, Step] | None = None  # (moves played, step) of the board's last move
        self._deal_lines = deal_lines(self._game)
        self._start = start = _start_code(self._game)
        self._code_moves: list[tuple[Move, str]] = []  # the share code's moves, kept as played
        Board._dealt[start] = Board._dealt.get(start, 0) + 1
        # The name the browser keeps this board's game under: its deal, and its order among
        # the boards dealt alike in this kernel (the same on every run of the same page).
        self._keep = f"{start}#{Board._dealt[start]}"
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
        self._hints = checked_settings(hints=value)["hints"]
        self.refresh()

    @property
    def solution(self) -> bool:
        """Whether the solver's buttons are offered (setting it redraws the board)."""
        return self._solution

    @solution.setter
    def solution(self, value: bool) -> None:
        self._solution = checked_settings(solution=value)["solution"]
        if not value:
            self.buttons.replay = []
        self.refresh()

    @property
    def solver_seconds(self) -> float:
        """How long «¿Tiene solución?» and «Ver solución» may think; «Pista», a fifth of it."""
        return self._solver_seconds

    @solver_seconds.setter
    def solver_seconds(self, value: float) -> None:
        self._solver_seconds = checked_settings(solver_seconds=value)["solver_seconds"]

    @traitlets.observe("room")
    def _on_room(self, _change: Any) -> None:
        self.refresh()

    def _room(self) -> int | None:
        """The measured width, if the front end sent a usable one."""
        return self.room if 100 <= self.room <= 100_000 else None

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
        finally:
            self._played = None  # good for this drawing only

    def handle(self, msg: Any) -> None:
        """Process one message from the front end; no exception escapes."""
        try:
            self._dispatch(msg)
        except Exception as exc:
            self.selection = None
            self.say(f"Algo ha fallado: {exc}. La partida no ha cambiado.", "error")
        self.refresh()

    def say(self, text: str, kind: str = "info") -> None:
        """Show `text` under the board; `kind` ("info", "ok", "error") colours it."""
        self.message, self.kind = text, kind

    def play_move(self, move: Move) -> bool:
        """Play `move` as a reader's clicks would: the message says what happened or, if the
        rules refuse it, why (then nothing changes and the answer is False)."""
        g = self._game
        try:
            step = g.move(move)
        except IllegalMove as exc:  # the engine's Spanish sentence, as `why_not` says it
            self.say(exc.reason, "error")
            return False
        self._played = (g.moves_played, step)  # the move list reuses it instead of asking again
        self.buttons.follow(move)
        self.focus_pile = move.dst
        text = " ".join(line.strip() for line in step_lines(g, step, g.moves_played))
        self.say(f"{text}. ¡Ganada!" if g.is_won() else text, "ok")
        return True

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
        self.buttons.forget()  # the highlight, and the JSON (it goes out once, after «Guardar»)
        self.focus_pile = None
        if event == "click":
            self.clicks.click(msg.get("pile"), msg.get("index"))
        elif event == "double":
            self.clicks.double(msg.get("pile"), msg.get("index"))
        elif event == "text":
            self.clicks.typed(msg.get("text"))
        elif event == "button":
            game = self.buttons.press(msg.get("name"), msg)
            if game is not None:
                self._set_game(game)
        elif event == "restore":
            self._restore(msg.get("code"))
        elif event == "escape":
            had = self.selection is not None
            self.selection = None
            self.say("Selección anulada." if had else "No había ninguna carta elegida.")
        else:
            raise ValueError(f"evento no reconocido: {shown(event)}")

    def _restore(self, code: Any) -> None:
        """Load the game the reader's browser kept for this board (sent after a reload); a code
        that does not load leaves the board as dealt, and says nothing."""
        if not isinstance(code, str) or len(code) > self._KEPT_MAX:
            return
        try:
            game = load_share(code)
        except ValueError:
            return
        same_deal = _start_code(game) == self._start
        if same_deal and self._game.moves_played == 0:
            # Replayed on the board's own start: exact, face-down cards included.
            if not _replay(self._game, game.history):
                return
            game = self._game
        elif not self._restores_other_deals:
            return
        self._set_game(game)
        n = game.moves_played
        self.say(f"Tu partida ha vuelto tal como la dejaste: {n} movimiento{'s' if n != 1 else ''}.", "ok")

    # ------------------------------------------------------------------ view
    def _set_game(self, game: Game) -> None:
        _check_game(game)
        self._game = game
        self.selection = None
        self.buttons.forget(solution=True)
        self._lines_cache = []
        self._played = None
        self._deal_lines = deal_lines(game)
        self._start = _start_code(game)
        self._code_moves = []

    def _move_lines(self) -> list[str]:
        """The numbered move list, computing lines only for moves not seen before (a long
        game would otherwise rebuild hundreds of lines on every click).  The same moves from
        the same start give the same lines, so the cache is kept as far as the moves agree."""
        g = self._game
        history = g.history
        cache = self._lines_cache
        keep = 0
        while keep < len(cache) and keep < len(history) and cache[keep][0] == history[keep]:
            keep += 1
        del cache[keep:]
        if keep < len(history):
            played = self._played
            if played is not None and played[0] == len(history) == keep + 1 and played[1].move == history[-1]:
                new_steps = [played[1]]  # the move this board has just played
            else:
                new_steps = g.steps()[keep:]
            for k, step in enumerate(new_steps, keep):
                cache.append([step.move, *step_lines(g, step, k + 1)])
        return self._deal_lines + [line for entry in cache for line in entry[1:]]

    def _view_state(self) -> dict[str, Any]:
        g = self._game
        sel = self.selection
        if sel is not None and (sel[0] not in g.pile_ids or sel[1] >= len(g.pile(sel[0]))):
            sel = self.selection = None
        return {
            "svg": render_svg(g, selected=sel, highlight=self.buttons.highlight, interactive=True, room=self._room()),
            "status": status_text(g),
            "message": self.message,
            "kind": self.kind,
            "moves": self._move_lines(),
            "game": g.name,
            "display_name": g.definition.display_name,
            "games": _games_list(g),
            "seed": g.seed,
            "moves_played": g.moves_played,
            "can_undo": g.can_undo,
            "can_redo": g.can_redo,
            "replay_left": len(self.buttons.replay),
            "selected": list(sel) if sel else None,
            "focus": self.focus_pile,
            "export": self.buttons.export,
            "share": share_code(g) if self.buttons.export else "",
            "hints": self._hints,
            "solution": self._solution,
            "saves": self._solution or self.buttons.saves_without_solver,
            "fixed": bool(self.buttons.deal_fixed),  # the front end hides «Nueva partida» and «Cargar»
            "keep": self._keep,
            "code": self._share_code(),
        }

    def _share_code(self) -> str:
        """`share_code(board.game)`, formatting only the moves not seen before (the front end
        keeps it on every redraw, and a long game has hundreds of moves)."""
        history = self._game.history
        cache = self._code_moves
        keep = 0
        while keep < len(cache) and keep < len(history) and cache[keep][0] == history[keep]:
            keep += 1
        del cache[keep:]
        cache.extend((m, format_move(self._game, m, sep="-")) for m in history[keep:])
        return f"{self._start}/" + ",".join(text for _, text in cache)


def _replay(game: Game, moves: tuple[Move, ...]) -> bool:
    """Play `moves` on `game`; if one is not legal there, take back those played and say False."""
    played = 0
    try:
        for move in moves:
            game.move(move)
            played += 1
    except ValueError:
        for _ in range(played):
            game.undo()
        return False
    return True


def _start_code(g: Game) -> str:
    """The share code of where `g` starts (its moves left out)."""
    return share_code(g).rsplit("/", 1)[0]


def _games_list(g: Game) -> list[list[str]]:
    """The «Nueva partida» list: every registered game, and the current game when it is a
    composed one (by its Spanish name), so a new deal keeps it."""
    games = [[k, d.display_name] for k, d in GAMES.items()]
    if GAMES.get(g.name) is not g.definition:
        games.append([g.name, g.definition.display_name])
    return games


def play(
    name: str | GameDef,
    seed: int | None = None,
    hints: bool | None = None,
    solution: bool | None = None,
    solver_seconds: float | None = None,
    **variant: bool,
) -> Board:
    """A new game of `name` (a game's name, a composed name or a `GameDef` such as
    ``custom("beleaguered_castle", columns=10)``; deal number `seed`) on a board, ready to
    display.

    `hints=False` / `solution=False` take away «Pista» / the solver's buttons, and
    `solver_seconds` is the solver's time budget (None: the page's default, see
    `set_board_defaults`)."""
    settings = checked_settings(hints=hints, solution=solution, solver_seconds=solver_seconds)  # fail before dealing
    return Board(new_game(name, seed=seed, deck=None, **variant), **settings)


def _check_game(game: Any) -> None:
    if not isinstance(game, Game):
        raise ValueError(f"El tablero necesita una partida (solitaire_nb.Game), no {shown(game)}")
