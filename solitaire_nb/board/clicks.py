"""How the board turns a reader's clicks, double clicks and typed moves into `game.move` calls.

A first click selects the run from the clicked card to the top of its pile (or says, in the
engine's words, why those cards cannot move); a second click on another pile plays the move.
A refused move shows the engine's Spanish sentence (`why_not`) and changes nothing.  The
state read and written here (the game, the selection, the message) lives on the `Board`,
which mixes this class in; nothing here imports a widget library.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.moves import IllegalMove, Move
from ..core.texts import capitalize
from ..engine import Game, Step
from ..games.notation import parse_move
from ..render import step_lines


class Clicks:
    """The clicks and typed moves of a `Board` (a mixin: `Board` holds the state)."""

    _game: Game
    selection: tuple[str, int] | None
    message: str
    kind: str
    _replay: list[Move]
    _focus: str | None
    _played: tuple[int, Step] | None

    def _say(self, text: str, kind: str = "info") -> None:
        self.message, self.kind = text, kind

    def _click(self, pile: Any, index: int | None) -> None:
        g = self._game
        if not isinstance(pile, str) or pile not in g.pile_ids:
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
            n = len(g.pile(pile))
            if index is None or index == first or not 0 <= index < n:
                self.selection = None
                self._say("Selección anulada.")
            else:
                self.selection = None
                self._pick(pile, index)
            return
        count = len(g.pile(src)) - first
        self.selection = None
        self._play(Move(src, pile, count))

    def _pick(self, pile: str, index: int | None) -> None:
        """Select the run from the clicked card to the top, or explain why it can't move."""
        g = self._game
        cards = g.pile(pile)
        n = len(cards)
        if g.pile_kind(pile) in ("F", "R", "W") or index is None or not 0 <= index < n:
            index = n - 1  # only the top card of these piles can be taken
        if n == 0:
            self._say(f"{g.label(pile)} está vacío: elige primero una carta que mover.", "error")
            return
        if index < g.face_down(pile):
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

    def _double(self, pile: Any, index: int | None) -> None:
        """Send the clicked top card to a foundation that takes it."""
        g = self._game
        self.selection = None
        if not isinstance(pile, str) or pile not in g.pile_ids:
            self._say("Esa zona no es ninguna pila de esta partida.", "error")
            return
        if pile == "S":
            self._play(Move("S", "W", 1))
            return
        cards = g.pile(pile)
        if not cards or g.pile_kind(pile) == "F":
            self._say("Doble clic sobre una carta del tablero para enviarla a su base.", "info")
            return
        if index is not None and index != len(cards) - 1:
            self._say("Solo la carta de arriba de una pila puede ir a la base.", "error")
            return
        foundations = g.foundation_ids
        for fid in foundations:
            if g.can_move(pile, fid):
                self._play(Move(pile, fid, 1))
                return
        reason = g.why_not(pile, foundations[0])
        card = cards[-1]
        extra = f" ({reason})" if reason and len(foundations) == 1 else ""
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
        self._played = (g.moves_played, step)  # the move list reuses it instead of asking again
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

    def _text_move(self, text: Any) -> None:
        self.selection = None
        move, error = parse_text_move(self._game, text)
        if error:
            self._say(error, "error")
            return
        assert move is not None
        self._play(move)


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
