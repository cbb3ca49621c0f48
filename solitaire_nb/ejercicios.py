"""Exercises of the notebooks: each one checks a reader's answer against the engine.

The correct answer is never typed here: it is computed from the rules engine (which cards a
pile accepts, what a deal did, what a move leaves behind), so the exercises stay right if a
rule's wording or a deal changes.  `comprobar(id, respuesta)` prints "¡Correcto!" or a Spanish
hint, often the engine's own sentence saying which rule refuses a wrong answer; `caja(id)` is
the same check as a widget (for Voila); `es_correcta(id, respuesta)` just says whether it's right.
The few helpers at the end (`movimientos`, `por_que_no`, `narrar`) print positions for the notebooks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CARDS, Card
from .checks import shown
from .engine import Game, new_game
from .games import GAMES
from .moves import IllegalMove, Move
from .notation import format_move, parse_move, pile_name
from .render import move_text
from .texts import capitalize

EXAMPLE_MOVES = "«T2 B1» o «T1 T3, T1 B1» (las pilas como en el tablero, contando desde 1)"

__all__ = ["EJERCICIOS", "caja", "comprobar", "es_correcta", "cartas_sobre", "cartas_bajo", "enunciado", "narrar", "movimientos", "por_que_no"]


# ---------------------------------------------------------------------- what the engine says
def cartas_sobre(game: str, carta: str, pila: str = "tablero", **variant: bool) -> list[str]:
    """Codes of the cards that may go on `carta` when it is the top of a tableau pile
    (``pila="tablero"``) or of a foundation (``pila="base"``), in new-deck order."""
    if pila == "tablero":
        target, under = "T0", [carta]
    else:
        target, under = _foundation_ending(game, carta, **variant)
    out = []
    for cand in CARDS:
        if cand.code in under:  # it would be two places at once (and none goes on itself)
            continue
        g = Game.from_position(game, {target: under, "T1": [cand.code]}, **variant)
        if g.can_move("T1", target):
            out.append(cand.code)
    return out


def _foundation_ending(game: str, carta: str, **variant: bool) -> tuple[str, list[str]]:
    """A foundation and a legal sequence on it from its first card up to `carta` (a practice
    position's foundations must be sequences play could build)."""
    top = Card.parse(carta)
    for fi, rule in enumerate(GAMES[game].rules_for(variant).foundations):
        follows = rule.accepts_table()
        chain = [top]
        while chain[0].rank != rule.base_rank:
            below = next((c for c in CARDS if chain[0].id in follows[c.id] and c not in chain), None)
            if below is None:
                break
            chain.insert(0, below)
        else:
            codes = [c.code for c in chain]
            try:
                Game.from_position(game, {f"F{fi}": codes}, **variant)
            except ValueError:
                continue
            return f"F{fi}", codes
    raise ValueError(f"{top.articulo} no puede estar en ninguna base de {GAMES[game].display_name}")


def cartas_bajo(game: str, carta: str, **variant: bool) -> list[str]:
    """Codes of the tableau tops that `carta` may be moved onto, in new-deck order."""
    out = []
    for cand in CARDS:
        if cand == Card.parse(carta):
            continue
        g = Game.from_position(game, {"T0": [cand.code], "T1": [carta]}, **variant)
        if g.can_move("T1", "T0"):
            out.append(cand.code)
    return out


# ---------------------------------------------------------------------- reading answers
def _cards(respuesta: object) -> list[Card]:
    """Read "7S 9S", "7♠, 9♠" or ["7S", "9S"] into cards; ValueError with a Spanish reason."""
    if isinstance(respuesta, str):  # also what a reader types in a box: ["7S", "9S"]
        parts = re.sub(r"[\[\]\"',]", " ", respuesta).split()
    elif isinstance(respuesta, Iterable):
        parts = list(respuesta)
    else:
        raise ValueError("Escribe las cartas como una lista de códigos, por ejemplo [\"7S\", \"9S\"].")
    return [Card.parse(p) for p in parts]


_SEPARATORS = re.compile(r"[,;]|\by luego\b|\bluego\b|\bdespues\b|\bdespués\b|\by\b", re.IGNORECASE)
_COUNT_ONLY = re.compile(r"\s*(x?\d+|\w+)\s+cartas?\s*|\s*\d+\s*", re.IGNORECASE)


def _moves(game: Game, respuesta: object) -> list[Move]:
    """Read moves in the learner notation ("T1 T2, T1 B1", "tablero 1 a tablero 2 y luego
    tablero 1 a base 1", or a list of such texts); a count after a comma ("tablero 2 a
    tablero 7, 3 cartas") belongs to the move before it."""
    if isinstance(respuesta, str):
        parts: list[str] = []
        for piece in _SEPARATORS.split(respuesta):
            if parts and _COUNT_ONLY.fullmatch(piece):
                parts[-1] += " " + piece
            elif piece.strip():
                parts.append(piece)
    elif isinstance(respuesta, Iterable):
        parts = [p if isinstance(p, str) else shown(p) for p in respuesta]
    else:
        raise ValueError(f"escribe los movimientos como en el tablero, por ejemplo {EXAMPLE_MOVES}.")
    return [parse_move(game, p) for p in parts]


# ---------------------------------------------------------------------- kinds of exercise
@dataclass(frozen=True)
class Ejercicio:
    """One exercise: its question (Spanish), a checker returning (right?, message), and what it
    asks about, declared so the notebooks' tests can check that no card of it is shown earlier
    in its lesson."""

    pregunta: str
    check: Callable[[object], tuple[bool, str]]
    cards: tuple[str, ...] = ()
    """Codes of the cards the exercise asks about (none may appear before it in its notebook)."""
    kind: str = "cards"
    """How it is answered: "cards" (a set of cards), "number", or "board" (moves played from
    `start`, on a board or typed)."""
    start: Callable[[], Game] | None = None
    """The position the exercise asks about, if it has one."""
    deal: tuple[str, int] | None = None
    """The numbered deal the exercise asks about, if any: (game, number)."""

    @property
    def position(self) -> str | None:
        """The exercise's position in a line a teacher reads ("Tablero 1: 5♥ J♣ · Reserva: 2♦
        K♠"), or its numbered deal ("partida nº 1234 de Citadel"); None if it has neither."""
        if self.start is not None:
            g = self.start()
            return " · ".join(
                f"{g.label(p)}: {' '.join(str(c) for c in g.piles[p])}" for p in g.pile_ids if g.piles[p]
            )
        if self.deal is not None:
            name, seed = self.deal
            return f"partida nº {seed} de {GAMES[name].display_name}"
        return None


def _set_of_cards(correct: Callable[[], Sequence[str]], explain: Callable[[Card], str | None]) -> Callable:
    """An exercise answered with a set of cards; `explain(card)` says why a card is wrong."""

    def check(respuesta: object) -> tuple[bool, str]:
        given = {c.code for c in _cards(respuesta)}
        want = set(correct())
        if given == want:
            return True, "¡Correcto!"
        extra = sorted(given - want, key=lambda c: Card.parse(c).id)
        if extra:
            why = explain(Card.parse(extra[0]))
            return False, f"{capitalize(Card.parse(extra[0]).articulo)} no vale. {why or ''}".strip()
        n = len(want)
        return False, f"Te falta alguna: son {n} cartas en total y has escrito {len(given)}."

    return check


def _number(correct: Callable[[], int], hint: str) -> Callable:
    def check(respuesta: object) -> tuple[bool, str]:
        if isinstance(respuesta, bool) or not isinstance(respuesta, int) or abs(respuesta) > 10**9:
            return False, "La respuesta es un número entero no muy grande, por ejemplo 3."
        want = correct()
        if respuesta == want:
            return True, "¡Correcto!"
        more = "más" if respuesta < want else "menos"
        return False, f"No: son {more} de {respuesta}. {hint}"

    return check


def _moves_reaching(start: Callable[[], Game], goal: Callable[[Game], bool], not_yet: str) -> Callable:
    """An exercise answered with moves played from `start()`; right if `goal` holds after them."""

    def check(respuesta: object) -> tuple[bool, str]:
        g = start()
        moves = _moves(g, respuesta)
        if not moves:
            return False, f"Escribe al menos un movimiento, por ejemplo {EXAMPLE_MOVES}."
        for i, m in enumerate(moves, 1):
            try:
                g.move(m)
            except IllegalMove as exc:
                return False, f"El movimiento nº {i} ({format_move(g, m)}) no está permitido: {exc.reason}"
        if goal(g):
            return True, "¡Correcto!"
        return False, f"Los movimientos son válidos, pero todavía no. {not_yet}"

    return check


_SAME_CARD = "Es la misma carta: ninguna carta va sobre sí misma."


def _why_not_on(game: str, top: str, **variant: bool) -> Callable[[Card], str | None]:
    def explain(card: Card) -> str | None:
        if card == Card.parse(top):
            return _SAME_CARD
        g = Game.from_position(game, {"T0": [top], "T1": [card.code]}, **variant)
        return g.why_not("T1", "T0")

    return explain


def _why_not_under(game: str, moving: str, **variant: bool) -> Callable[[Card], str | None]:
    def explain(card: Card) -> str | None:
        if card == Card.parse(moving):
            return _SAME_CARD
        g = Game.from_position(game, {"T0": [card.code], "T1": [moving]}, **variant)
        return g.why_not("T1", "T0")

    return explain


def _why_not_foundation(game: str, top: str) -> Callable[[Card], str | None]:
    def explain(card: Card) -> str | None:
        if card == Card.parse(top):
            return _SAME_CARD
        target, under = _foundation_ending(game, top)
        if card.code in under:
            return f"{capitalize(card.articulo)} va antes, debajo de {Card.parse(top).articulo}."
        g = Game.from_position(game, {target: under, "T1": [card.code]})
        return g.why_not("T1", target)

    return explain


# ---------------------------------------------------------------------- the positions used
def chequers_reserva() -> Game:
    """Chequers, exercise 3: the reserve has two cards; which move brings its top into play?"""
    return Game.from_position(
        "chequers",
        {"T0": ["5H", "JC"], "T1": ["QC"], "T2": ["4D", "9S"], "T3": ["7H"], "R": ["2D", "KS"]},
    )


def moving_left_hueco() -> Game:
    """Moving Left, exercises 2 and 3: a hole, a King-headed run, a face-down card under it."""
    return Game.from_position(
        "moving_left",
        {
            "T0": [],
            "T1": ["3C", "KH", "QS", "JD"],
            "T2": ["9S", "8D", "7C", "6H"],
            "T3": ["5S", "8H"],
            "S": ["2C", "4H"],
            "W": ["AD"],
        },
        face_down={"T1": 1, "T3": 1},
    )


def scotch_dos() -> Game:
    """Scotch, exercise 3: free the 2 of hearts and put it on the Ace of spades' foundation."""
    return Game.from_position(
        "scotch",
        {"T0": ["5C", "2H", "9D"], "T1": ["3S"], "T2": ["TH"], "T3": ["TS", "4D"], "F0": ["AS"]},
    )


def bakers_dozen_as() -> Game:
    """Baker's Dozen, exercise 3: the Ace of clubs lies under the 7 of hearts."""
    return Game.from_position(
        "bakers_dozen",
        {"T0": ["KD", "5S", "AC", "7H"], "T1": ["8H"], "T2": ["9S", "8C"]},
    )


def citadel_devolver() -> Game:
    """Citadel, exercise 3: take the 3 of spades back from its foundation onto a 4."""
    return Game.from_position(
        "citadel",
        {
            "F0": ["AS", "2S", "3S"],
            "F1": ["AH"],
            "F2": ["AD"],
            "F3": ["AC"],
            "T0": ["9C", "4H"],
            "T1": ["KD", "4S"],
            "T2": ["QH", "2H"],
        },
    )


def _on_tableau(g: Game, code: str) -> bool:
    card = Card.parse(code)
    return any(card in g.piles[p] for p in g.pile_ids if p.startswith("T"))


def _on_foundation(g: Game, code: str) -> bool:
    card = Card.parse(code)
    return any(card in g.piles[p] for p in g.pile_ids if p.startswith("F"))


def _citadel_deal_count(seed: int) -> int:
    report = new_game("citadel", seed=seed).deal_report
    assert report is not None
    return len(report.to_foundations)


def _run_onto_8h() -> int:
    g = moving_left_hueco()
    counts = [m.count for m in g.legal_moves() if m.src == "T2" and m.dst == "T3"]
    return counts[0] if counts else 0


# ---------------------------------------------------------------------- the exercises
EJERCICIOS: Mapping[str, Ejercicio] = {
    "chequers-1": Ejercicio(
        "¿Qué cartas pueden ir sobre el 8 de picas en el tablero de Chequers?",
        _set_of_cards(lambda: cartas_sobre("chequers", "8S"), _why_not_on("chequers", "8S")),
        cards=("8S",),
    ),
    "chequers-2": Ejercicio(
        "¿Qué cartas pueden ir sobre la K de corazones en el tablero de Chequers?",
        _set_of_cards(lambda: cartas_sobre("chequers", "KH"), _why_not_on("chequers", "KH")),
        cards=("KH",),
    ),
    "chequers-3": Ejercicio(
        "En esta posición, ¿qué movimiento hace que la K de picas de la reserva llegue al tablero?",
        _moves_reaching(
            chequers_reserva,
            lambda g: _on_tableau(g, "KS"),
            "La K de picas sigue en la reserva: o la juegas tú, o vacías una pila para que la reserva la rellene.",
        ),
        cards=("KS", "QC", "JC"), kind="board", start=chequers_reserva,
    ),
    "moving_left-1": Ejercicio(
        "¿Qué cartas pueden ir sobre el 9 de tréboles en el tablero de Moving Left?",
        _set_of_cards(lambda: cartas_sobre("moving_left", "9C"), _why_not_on("moving_left", "9C")),
        cards=("9C",),
    ),
    "moving_left-2": Ejercicio(
        "¿Cuántas cartas mueve, de una vez, el movimiento del Tablero 3 al Tablero 4?",
        _number(_run_onto_8h, "Busca en el Tablero 3 la carta que encaja sobre el 8 de corazones."),
        cards=("8H", "7C", "6H"), kind="number", start=moving_left_hueco,
    ),
    "moving_left-3": Ejercicio(
        "¿Con qué movimiento ocupas el hueco del Tablero 1?",
        _moves_reaching(
            moving_left_hueco,
            lambda g: bool(g.piles["T0"]),
            "El Tablero 1 sigue vacío: solo un Rey, o una secuencia encabezada por un Rey, puede ocuparlo.",
        ),
        cards=("KH", "QS", "JD"), kind="board", start=moving_left_hueco,
    ),
    "scotch-1": Ejercicio(
        "¿Qué cartas pueden ir sobre el 8 de picas en una base de Scotch?",
        _set_of_cards(lambda: cartas_sobre("scotch", "8S", pila="base"), _why_not_foundation("scotch", "8S")),
        cards=("8S",),
    ),
    "scotch-2": Ejercicio(
        "¿Qué cartas pueden ir sobre el 8 de picas en un abanico de Scotch?",
        _set_of_cards(lambda: cartas_sobre("scotch", "8S"), _why_not_on("scotch", "8S")),
        cards=("8S",),
    ),
    "scotch-3": Ejercicio(
        "¿Qué movimientos llevan el 2 de corazones a la base?",
        _moves_reaching(
            scotch_dos,
            lambda g: _on_foundation(g, "2H"),
            "El 2 de corazones aún no está en la base.",
        ),
        cards=("2H", "9D", "TH"), kind="board", start=scotch_dos,
    ),
    "bakers_dozen-1": Ejercicio(
        "¿Sobre qué cartas puede ir el 9 de corazones en Baker's Dozen?",
        _set_of_cards(lambda: cartas_bajo("bakers_dozen", "9H"), _why_not_under("bakers_dozen", "9H")),
        cards=("9H",),
    ),
    "bakers_dozen-2": Ejercicio(
        "¿Y sobre qué cartas puede ir el 9 de corazones si en el tablero se construye sin importar el palo, como en PySolFC y Aisleriot?",
        _set_of_cards(
            lambda: cartas_bajo("bakers_dozen", "9H", any_suit=True),
            _why_not_under("bakers_dozen", "9H", any_suit=True),
        ),
        cards=("9H",),
    ),
    "bakers_dozen-3": Ejercicio(
        "¿Qué movimientos llevan el As de tréboles a la base?",
        _moves_reaching(
            bakers_dozen_as,
            lambda g: _on_foundation(g, "AC"),
            "El As de tréboles aún no está en la base.",
        ),
        cards=("AC", "7H", "8C"), kind="board", start=bakers_dozen_as,
    ),
    "citadel-1": Ejercicio(
        "En la partida nº 1234 de Citadel, ¿cuántas cartas van a la base durante el reparto?",
        _number(
            lambda: _citadel_deal_count(1234),
            "Abre la partida nº 1234 en el tablero y cuenta, en su lista de movimientos, "
            "las líneas que empiezan por «Reparto:»: cada una es una carta que fue a la base.",
        ),
        kind="number", deal=("citadel", 1234),
    ),
    "citadel-2": Ejercicio(
        "¿Qué cartas pueden ir sobre el 8 de diamantes en el tablero de Beleaguered Castle?",
        _set_of_cards(
            lambda: cartas_sobre("beleaguered_castle", "8D"), _why_not_on("beleaguered_castle", "8D")
        ),
        cards=("8D",),
    ),
    "citadel-3": Ejercicio(
        "¿Qué movimiento devuelve el 3 de picas de la base al tablero (y lo deja allí)?",
        _moves_reaching(
            citadel_devolver,
            lambda g: _on_tableau(g, "3S"),
            "El 3 de picas no está en el tablero.",
        ),
        cards=("3S", "4H", "4S"), kind="board", start=citadel_devolver,
    ),
}


def enunciado(ejercicio: str) -> str:
    """The question of an exercise, in Spanish."""
    return _get(ejercicio).pregunta


def _get(ejercicio: str) -> Ejercicio:
    try:
        return EJERCICIOS[ejercicio]
    except (KeyError, TypeError):
        raise ValueError(f"No existe el ejercicio {shown(ejercicio)}; los hay: {', '.join(EJERCICIOS)}") from None


def _verdict(ejercicio: str, respuesta: object) -> tuple[bool, str]:
    """(right?, Spanish message) for an answer; an unknown exercise raises ValueError."""
    check = _get(ejercicio).check  # an unknown exercise is the notebook's bug: raise
    if respuesta is None or (isinstance(respuesta, str | list | tuple) and not respuesta):
        return False, "Todavía no hay ninguna respuesta que comprobar."
    try:
        return check(respuesta)
    except ValueError as exc:
        return False, f"No entiendo la respuesta: {exc}"


def es_correcta(ejercicio: str, respuesta: object) -> bool:
    """Whether `respuesta` answers the exercise (silent: for tests and widgets)."""
    return _verdict(ejercicio, respuesta)[0]


def comprobar(ejercicio: str, respuesta: object) -> None:
    """Check a reader's answer: print "¡Correcto!" or a hint in Spanish."""
    print(_verdict(ejercicio, respuesta)[1])


def caja(ejercicio: str) -> Any:
    """The same check as a small widget (question, text box, «Comprobar» button, verdict), for
    readers who write no code, in Voila too.  The widget is built by the board module."""
    from .board import answer_box

    def check(texto: str) -> tuple[bool, str]:
        texto = texto.strip()
        if not texto:
            return False, "Escribe tu respuesta en la casilla."
        respuesta: object = int(texto) if re.fullmatch(r"-?[0-9]{1,9}", texto) else texto
        return _verdict(ejercicio, respuesta)

    return answer_box(enunciado(ejercicio), check)


# ---------------------------------------------------------------------- small helpers for the notebooks
def narrar(game: Game, paso: object) -> None:
    """Print, in Spanish, what a move did: the cards the player moved and each automatic action."""
    move, cards, automatic = paso  # a Step
    print(move_text(game, move, cards))
    if not automatic:
        print("    (nada automático)")
    for action in automatic:
        if action.dst is None:
            where = _the(pile_name(game, action.src))
            print(f"    y automáticamente se pone boca arriba {action.cards[0].articulo} en {where}")
        else:
            what = ", ".join(c.nombre for c in action.cards)
            print(f"    y automáticamente: {pile_name(game, action.src)} → {pile_name(game, action.dst)}: {what}")


def _the(label: str) -> str:
    """A pile's label with its article: "el Tablero 1", "la Reserva"."""
    return ("la " if label.startswith(("Base", "Reserva")) else "el ") + label


def movimientos(game: Game) -> None:
    """Print the legal moves of a position, one line each, as the board writes them."""
    moves = game.legal_moves()
    if not moves:
        print("Sin movimientos")
    for m in moves:
        print(move_text(game, m, game.piles[m.src][-m.count :]))


def por_que_no(game: Game, *jugadas: str | Move) -> None:
    """For each move, print it in the learner notation and "válido" or the engine's Spanish
    reason for refusing it.  Moves are written as on the board ("T1 B1"); the Python API's
    0-based form with ">" ("T0>F0") is read too, since notebook code may use it."""
    for jugada in jugadas:
        try:
            if isinstance(jugada, Move) or ">" in str(jugada):
                move = Move.parse(jugada)
                if move.src not in game.pile_ids or move.dst not in game.pile_ids:
                    raise ValueError(f"{game.display_name} no tiene esa pila")
            else:
                move = parse_move(game, str(jugada))
        except ValueError as exc:
            print(f"{jugada}: {exc}")
            continue
        reason = game.why_not(move)
        print(f"{format_move(game, move)}: {'válido' if reason is None else reason}")
