"""How the board turns a reader's clicks, double clicks and typed moves into moves.

A first click selects the run from the clicked card to the top of its pile (or says, in the
engine's words, why those cards cannot move); a second click on another pile plays the move.
A refused move shows the engine's Spanish sentence (`why_not`) and changes nothing.  `Clicks`
works through its board's public surface (`game`, `selection`, `say`, `play_move`); nothing
here imports a widget library.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from ..core.moves import Move
from ..core.texts import capitalize
from ..engine import Game
from ..engine.refusals import empty_pile_text
from ..games.notation import parse_move


class BoardSurface(Protocol):
    """What the board's helpers use of their board: all of it public on `Board`."""

    selection: tuple[str, int] | None
    message: str
    focus_pile: str | None

    @property
    def game(self) -> Game: ...
    @property
    def hints(self) -> bool: ...
    @property
    def solution(self) -> bool: ...
    @property
    def solver_seconds(self) -> float: ...
    def say(self, text: str, kind: str = "info") -> None: ...
    def play_move(self, move: Move) -> bool: ...


class Clicks:
    """The clicks and typed moves of one `Board`, which owns this helper and the state."""

    def __init__(self, board: BoardSurface):
        self.board = board

    def click(self, pile: Any, raw_index: Any) -> None:
        """A click on `pile` at card `raw_index` (as the front end sends it)."""
        board, g, index = self.board, self.board.game, _index(raw_index)
        if not isinstance(pile, str) or pile not in g.pile_ids:
            board.selection = None
            board.say("Esa zona no es ninguna pila de esta partida.", "error")
            return
        if pile == "S":  # ML-7: the stock turns with one click, whatever was selected
            board.selection = None
            board.play_move(Move("S", "W", 1))
            return
        if board.selection is None:
            self._pick(pile, index)
            return
        src, first = board.selection
        if pile == src:
            n = len(g.pile(pile))
            if index is None or index == first or not 0 <= index < n:
                board.selection = None
                board.say("Selección anulada.")
            else:
                board.selection = None
                self._pick(pile, index)
            return
        count = len(g.pile(src)) - first
        board.selection = None
        board.play_move(Move(src, pile, count))

    def _pick(self, pile: str, index: int | None) -> None:
        """Select the run from the clicked card to the top, or explain why it can't move."""
        board, g = self.board, self.board.game
        cards = g.pile(pile)
        n = len(cards)
        if g.pile_kind(pile) in ("F", "R", "W") or index is None or not 0 <= index < n:
            index = n - 1  # only the top card of these piles can be taken
        if n == 0:
            board.say(f"{empty_pile_text(g.label(pile))}: elige primero una carta que mover.", "error")
            return
        if index < g.face_down(pile):
            board.say("Esa carta está boca abajo: elige una carta boca arriba.", "error")
            return
        count = n - index
        problem = self._source_problem(pile, count)
        if problem:
            board.say(problem, "error")
            return
        board.selection = (pile, index)
        what = cards[index].nombre if count == 1 else f"{count} cartas desde {cards[index].nombre}"
        board.say(f"Elegida: {what} ({g.label(pile)}). Ahora elige la pila de destino.")

    def _source_problem(self, pile: str, count: int) -> str | None:
        """The engine's sentence when these cards can't leave `pile` whatever the target."""
        g = self.board.game
        kind = g.pile_kind(pile)
        if kind == "T" and count <= g.run_length(pile):
            return None
        if kind == "W" and count == 1:
            return None
        # Ask the engine with a probe target: its source checks come before the target's.
        probe = next((p for p in g.tableau_ids if p != pile), g.foundation_ids[0])
        if kind in ("F", "R") and count == 1:
            # Whether these piles give cards back at all is a rule flag (BD-6, CB-6, CH-7).
            closed = not g.rules.takeback if kind == "F" else not g.rules.reserve_playable
            return g.why_not(pile, probe, 1) if closed else None
        return g.why_not(pile, probe, count) or f"No se pueden mover esas {count} cartas juntas."

    def double(self, pile: Any, raw_index: Any) -> None:
        """A double click: send the clicked top card to a foundation that takes it."""
        board, g, index = self.board, self.board.game, _index(raw_index)
        board.selection = None
        if not isinstance(pile, str) or pile not in g.pile_ids:
            board.say("Esa zona no es ninguna pila de esta partida.", "error")
            return
        if pile == "S":
            board.play_move(Move("S", "W", 1))
            return
        cards = g.pile(pile)
        if not cards or g.pile_kind(pile) == "F":
            board.say("Doble clic sobre una carta del tablero para enviarla a su base.", "info")
            return
        if index is not None and index != len(cards) - 1:
            board.say("Solo la carta de arriba de una pila puede ir a la base.", "error")
            return
        foundations = g.foundation_ids
        for fid in foundations:
            if g.can_move(pile, fid):
                board.play_move(Move(pile, fid, 1))
                return
        reason = g.why_not(pile, foundations[0])
        card = cards[-1]
        extra = f" ({reason})" if reason and len(foundations) == 1 else ""
        board.say(f"{capitalize(card.articulo)} no puede ir ahora a ninguna base.{extra}", "error")

    def typed(self, text: Any) -> None:
        """A move typed in the learner notation."""
        board = self.board
        board.selection = None
        move, error = parse_text_move(board.game, text)
        if error:
            board.say(error, "error")
            return
        assert move is not None
        board.play_move(move)


def _index(value: Any) -> int | None:
    """A card's index from a front-end message (an int, or digits), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,6}", value.strip()):
        return int(value)
    return None


def parse_text_move(g: Game, text: Any) -> tuple[Move | None, str | None]:
    """Read a typed move in the learner notation (`notation.parse_move`: "T4 B1", "T2 T7 3",
    "A3 B1", "M", "tablero 2 a base 1"): (move, None), or (None, the Spanish reason)."""
    try:
        return parse_move(g, text), None
    except ValueError as exc:
        return None, str(exc)
