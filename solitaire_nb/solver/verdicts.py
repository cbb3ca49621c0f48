"""The solver's Spanish sentences: verdicts, the busy-computer notice and the «con ventaja»
notice for games that hide cards (one place for every sentence the solver shows a reader)."""

from __future__ import annotations

from ..core.cards import CARDS
from ..core.numbers_es import decimal
from ..core.texts import joined
from ..engine import Game
from .api import SolveResult
from .tables import accepts_table


def _stranded(game: Game) -> list:
    """Cards of a practice position outside the foundations that can never go home: no chain
    of the position's own cards leads from a foundation's top (or an empty foundation's first
    card) to them.  Reachability ignores every other rule, so the claim is safe."""
    present = {c.id for pid, pile in game.piles.items() if game.pile_kind(pid) != "F" for c in pile}
    reached: set[int] = set()
    for fid, rule in zip(game.foundation_ids, game.rules.foundations, strict=True):
        follows = accepts_table(rule)
        pile = game.pile(fid)
        if pile:
            frontier = [i for i in follows[pile[-1].id] if i in present]
        else:
            frontier = [i for i in present if CARDS[i].rank == rule.base_rank and rule.start in ("any", "new_suit", CARDS[i].suit)]
        while frontier:
            i = frontier.pop()
            if i not in reached:
                reached.add(i)
                frontier += [j for j in follows[i] if j in present]
    return [CARDS[i] for i in sorted(present - reached)]


THOUGHTFUL = " El resolvedor juega «con ventaja»: ve las cartas que están boca abajo, que el jugador no ve."
"""Added to every verdict in a game that deals cards face down (`Game.hides_cards`: Moving
Left's tableau and stock, Chequers' reserve): the solver reads the whole position."""


def _decimal(x: float) -> str:
    return decimal(x, 1)


def busy_text(cpu_seconds: float, seconds: float) -> str:
    """The undecided verdict when the computer was busy (`SolveResult.busy`)."""
    return (
        f"Sin decidir: el ordenador estaba muy ocupado y el resolvedor solo ha podido pensar "
        f"{_decimal(cpu_seconds)} de los {_decimal(seconds)} segundos que ha esperado. "
        "Prueba otra vez dentro de un momento."
    )


BUSY_HINT = " El ordenador estaba muy ocupado: prueba otra vez dentro de un momento para una pista comprobada."


def verdict_text(result: SolveResult, game: Game) -> str:
    """The verdict as a Spanish sentence for a reader."""
    if result.status == "won":
        n = len(result.moves)
        if n == 0:
            text = "¡Ganada! Todas las cartas están ya en las bases."
        else:
            word = "movimiento" if n == 1 else "movimientos"
            text = f"Tiene solución: el resolvedor ha encontrado una forma de ganar en {n} {word}."
            if result.found_by:  # another solver's line, replayed here move by move
                text = (
                    f"Tiene solución (resuelta con {result.found_by}, otro resolvedor instalado en este "
                    f"ordenador): una forma de ganar en {n} {word}, comprobada movimiento a movimiento."
                )
    elif result.status == "lost":
        head = "Ya no tiene solución" if game.moves_played else "No tiene solución"
        if game.is_practice:  # proved with the cards it has, not lost for the missing ones
            head += " con las cartas que tiene esta posición de práctica"
            stranded = _stranded(game)
            if stranded:
                names = [c.articulo for c in stranded[:3]] + (["otras"] if len(stranded) > 3 else [])
                who = joined(names)
                verb = "no llega" if len(names) == 1 else "no llegan"
                head += f" ({who} {verb} nunca a la base: falta una carta que va antes)"
        text = (
            f"{head}: el resolvedor ha recorrido todas las posiciones a las que se puede llegar "
            "y en ninguna se gana."
        )
    elif result.busy:
        text = busy_text(result.cpu_seconds or 0.0, result.seconds)
    else:
        text = (
            "Sin decidir: el resolvedor se ha detenido (por tiempo o por número de posiciones) "
            "antes de encontrar una solución o de demostrar que no la hay."
        )
    if game.hides_cards:
        text += THOUGHTFUL
    return text
