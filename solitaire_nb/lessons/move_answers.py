"""Exercises answered with moves: the moves a reader types («T1 T2, T1 B1», «tablero 1 a
tablero 2 y luego tablero 1 a base 1») are played from the exercise's position by the engine,
and the answer is right when they reach a goal (`moves_reaching`, also for a question asking
for one move) or win the position (`to_win`).  A move the rules refuse is told with the
engine's reason; nothing here names the moves that would be right.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..core.checks import ANSWER_MAX, check_length, shown
from ..core.moves import IllegalMove, Move
from ..core.texts import after_colon
from ..engine import Game
from ..games.notation import format_move, parse_move
from .answers import DONT_KNOW_LEAD, RemembersTries, _items, dont_know

EXAMPLE_MOVES = "«T2 B1» o «T1 T3, T1 B1» (las pilas como en el tablero, contando desde 1)"

_SEPARATORS = re.compile(r"[,;]|\by luego\b|\bluego\b|\bdespues\b|\bdespués\b|\by\b", re.IGNORECASE)
_COUNT_ONLY = re.compile(r"\s*(x?\d+|\w+)\s+cartas?\s*|\s*\d+\s*", re.IGNORECASE)


def _moves(game: Game, respuesta: object) -> list[Move]:
    """Read moves in the learner notation ("T1 T2, T1 B1", "tablero 1 a tablero 2 y luego
    tablero 1 a base 1", or a list of such texts); a count after a comma ("tablero 2 a
    tablero 7, 3 cartas") belongs to the move before it."""
    if isinstance(respuesta, str):
        check_length(respuesta, ANSWER_MAX, "el texto")
        parts: list[str] = []
        for piece in _SEPARATORS.split(respuesta):
            if parts and _COUNT_ONLY.fullmatch(piece):
                parts[-1] += " " + piece
            elif piece.strip():
                parts.append(piece)
    elif isinstance(respuesta, Iterable):
        parts = [p if isinstance(p, str) else shown(p) for p in _items(respuesta)]
    else:
        raise ValueError(f"escribe los movimientos como en el tablero, por ejemplo {EXAMPLE_MOVES}.")
    return [parse_move(game, p) for p in parts]


def _play_answer(g: Game, respuesta: object) -> str | None:
    """Play the moves of an answer on `g`; the Spanish sentence of what went wrong, or None."""
    moves = _moves(g, respuesta)
    if not moves:
        return f"Escribe al menos un movimiento, por ejemplo {EXAMPLE_MOVES}."
    for i, m in enumerate(moves, 1):
        try:
            g.move(m)
        except IllegalMove as exc:
            which = f"n.º {i} ({format_move(g, m)})" if len(moves) > 1 else format_move(g, m)
            said = f"El movimiento {which} no está permitido: {after_colon(exc.reason)}"
            if m.n_cards == 1 and any(o.src == m.src and o.dst == m.dst and o.n_cards > 1 for o in g.legal_moves()):
                said += f" {COUNT_HINT}"  # the move is legal with more cards: the count was left out
            return said
    return None


COUNT_HINT = ("Para mover varias cartas a la vez, escribe cuántas detrás del movimiento, por ejemplo "
              "«T2 T5 2» para las 2 de arriba del Tablero 2.")


SEARCH_CAP = 20_000
"""Positions `still_reachable` looks at before it gives up (an exercise's few cards need far fewer)."""


def still_reachable(start: Game, goal: Callable[[Game], bool], cap: int = SEARCH_CAP) -> bool | None:
    """Whether some moves from `start` (none included) reach `goal`: a search of every position
    reachable, None when there are more than `cap` of them."""

    def key(g: Game) -> tuple:
        pos = g.position()
        return tuple((p, tuple(cards)) for p, cards in pos["piles"].items()), tuple(sorted(pos["face_down"].items()))

    seen, frontier = {key(start)}, [start]
    while frontier:
        g = frontier.pop()
        if goal(g):
            return True
        for m in g.legal_moves():
            nxt = g.copy()
            nxt.move(m)
            k = key(nxt)
            if k not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(k)
                frontier.append(nxt)
    return False


def lost_after(g: Game, win: bool = True) -> str:
    """What a checker says when the moves answered leave the exercise impossible (proved by
    `still_reachable`), without naming the right move.  «No tiene solución» is the solver's word
    for a position that can no longer be won: only a win exercise (`win`) says it; a goal
    exercise's practice position may never have been winnable."""
    one = len(g.history) == 1
    if not win:
        if one:
            return "Con ese movimiento ya no se puede conseguir lo que se pide: deshazlo y prueba otro."
        return "Con esos movimientos ya no se puede conseguir lo que se pide: deshaz alguno y prueba otro camino."
    if one:
        return "Con ese movimiento la posición ya no tiene solución: deshazlo y prueba otro."
    return "Con esos movimientos la posición ya no tiene solución: deshaz alguno y prueba otro camino."


ONE_MOVE = "Aquí basta un movimiento: escribe solo uno, el que lo consigue."
NOT_THIS_ONE = "Ese movimiento se puede hacer, pero no consigue lo que se pide."


def home_chain(start: Callable[[], Game]) -> Callable[[Game], str]:
    """What a right answer's moves sent home, in order, to follow «¡Correcto!»: «Así llegan a la
    base el 5 de corazones y después el 6 de corazones.» (read from the engine's piles)."""

    def said(g: Game) -> str:
        before = start()
        new = [c for p in g.pile_ids if p.startswith("F") for c in g.piles[p] if c not in before.piles[p]]
        if not new:
            return ""
        names = [c.articulo for c in new]
        chain = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " y después " + names[-1]
        return f"Así {'llega' if len(new) == 1 else 'llegan'} a la base {chain}."

    return said


def moves_reaching(start: Callable[[], Game], goal: Callable[[Game], bool], not_yet: str,
                   one_move: bool = False, praise: Callable[[Game], str] | None = None) -> Callable:
    """An exercise answered with moves played from `start()`; right if `goal` holds after them.
    With `one_move`, the question asks for one move and an answer of several is not read;
    `praise(game)`, if given, follows «¡Correcto!» (what the moves did)."""

    def check(respuesta: object) -> tuple[bool, str]:
        if dont_know(respuesta):
            return False, f"{DONT_KNOW_LEAD} {not_yet}"
        g = start()
        several = isinstance(respuesta, str) and re.search(r"\s(?:o|u|y)\s", respuesta.strip())  # «T3 T4 o T1 T2»
        if one_move and (several or len(_moves(g, respuesta)) > 1):
            return False, ONE_MOVE
        problem = _play_answer(g, respuesta)
        if problem:
            return False, problem
        if goal(g):
            said = praise(g) if praise is not None else ""
            return True, f"¡Correcto! {said}".strip()
        if one_move:  # one move asked: no «todavía», there is no next move to wait for
            return False, f"{NOT_THIS_ONE} {not_yet} Prueba con otro."
        if still_reachable(g, goal) is False:
            return False, lost_after(g, win=False)
        valid = "El movimiento es válido" if len(g.history) == 1 else "Los movimientos son válidos"
        return False, f"{valid}, pero todavía no lo has conseguido. {not_yet}"

    return check


STUCK = ("Sin movimientos, y quedan cartas fuera de las bases: esta posición ya no tiene solución. "
         "Alguno de tus movimientos dejó la partida perdida (después de él ya no se podía ganar, "
         "se jugara lo que se jugara); deshaz hasta antes de ese movimiento y busca otro camino.")


WIN_HINT = (f"{DONT_KNOW_LEAD} Empieza por las cartas que ya pueden ir a una base y, antes de tapar una carta "
            "con otra, mira si la vas a necesitar pronto.")


def to_win(start: Callable[[], Game], hint: str = WIN_HINT) -> Callable:
    """A practice position to win, answered with moves played from `start()`: right once every
    card is home; when the moves leave nothing to play, it says so (another way may still win).
    `hint` answers «no sé» (a position whose obvious move loses needs its own)."""

    def check(respuesta: object) -> tuple[bool, str]:
        if dont_know(respuesta):
            return False, hint
        g = start()
        problem = _play_answer(g, respuesta)
        if problem:
            return False, problem
        if g.is_won():
            return True, "¡Correcto!"
        if not g.legal_moves():
            return False, STUCK
        if still_reachable(g, Game.is_won) is False:
            return False, lost_after(g)
        valid = "El movimiento es válido" if len(g.history) == 1 else "Los movimientos son válidos"
        return False, f"{valid}, pero todavía no has ganado: aún quedan cartas fuera de las bases."

    return check


TRIED = ("Ese es el movimiento, pero has llegado a él probando. Lee por qué lo es.",
         "Esos son los movimientos, pero has llegado a ellos probando. Lee por qué lo son.")
_MISSES = (NOT_THIS_ONE, "Con ese movimiento", "Con esos movimientos", STUCK)


@dataclass(eq=False)
class TriedMoves(RemembersTries):
    """A moves checker (`moves_reaching`) for a position with few legal moves, where the answer
    can be found by trying them: after `patience` wrong tries (a move that is not the one, or
    that leaves the position lost, or that the rules refuse) a right answer is accepted, told it
    was reached by trying, and given `why` (the reason to read); from the `patience`-th miss on,
    `nudge` (a hint that points at the way without giving it) follows the miss's message, so that
    six legal moves need not be fished through.  `peek` judges without counting; `forget` starts
    again, as a new kernel would."""

    check: Callable[[object], tuple[bool, str]]
    start: Callable[[], Game]
    why: str
    patience: int = 2
    wrong: int = 0
    nudge: str = ""

    def __call__(self, respuesta: object) -> tuple[bool, str]:
        ok, message, missed = self._verdict(respuesta)
        self.wrong += missed
        return ok, message

    def _verdict(self, respuesta: object) -> tuple[bool, str, bool]:
        ok, message = self.check(respuesta)
        if ok and self.wrong >= self.patience:
            return ok, f"{TRIED[len(_moves(self.start(), respuesta)) > 1]} {self.why}", False
        missed = not ok and (message.startswith(_MISSES) or ("no está permitido" in message and message.startswith("El movimiento")))
        if missed and self.nudge and self.wrong + 1 >= self.patience:
            message = f"{message} {self.nudge}"
        return ok, message, missed

    def forget(self) -> None:
        self.wrong = 0
