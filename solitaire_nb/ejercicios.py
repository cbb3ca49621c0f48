"""Exercises of the notebooks: each one checks a reader's answer against the engine.

The correct answer is never typed here: it is computed from the rules engine (which cards a
pile accepts, what a deal did, what a move leaves behind), so the exercises stay right if a
rule's wording or a deal changes.  `comprobar(id, respuesta)` prints "¡Correcto!" or a Spanish
hint, often the engine's own sentence saying which rule refuses a wrong answer;
`es_correcta(id, respuesta)` just says whether it's right.  The widgets that ask the same
questions (`caja`, `tablero`) are built by the board module from `verdict_of_text`,
`verdict_of_game` and `start_position`; the names are re-exported here for the notebooks.
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

__all__ = ["EJERCICIOS", "caja", "tablero", "comprobar", "es_correcta", "verdict_of_text", "verdict_of_game", "start_position", "cartas_sobre", "cartas_bajo", "enunciado", "narrar", "movimientos", "por_que_no"]


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


def _play_answer(g: Game, respuesta: object) -> str | None:
    """Play the moves of an answer on `g`; the Spanish sentence of what went wrong, or None."""
    moves = _moves(g, respuesta)
    if not moves:
        return f"Escribe al menos un movimiento, por ejemplo {EXAMPLE_MOVES}."
    for i, m in enumerate(moves, 1):
        try:
            g.move(m)
        except IllegalMove as exc:
            return f"El movimiento nº {i} ({format_move(g, m)}) no está permitido: {exc.reason}"
    return None


def _moves_reaching(start: Callable[[], Game], goal: Callable[[Game], bool], not_yet: str) -> Callable:
    """An exercise answered with moves played from `start()`; right if `goal` holds after them."""

    def check(respuesta: object) -> tuple[bool, str]:
        g = start()
        problem = _play_answer(g, respuesta)
        if problem:
            return False, problem
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
def chequers_bases() -> Game:
    """Chequers, exercise 2: both heart foundations started, one going up and one going down."""
    up = ["AH", "2H", "3H", "4H", "5H", "6H"]
    down = ["KH", "QH", "JH", "TH", "9H", "8H", "7H"]
    return Game.from_position("chequers", {"F0": up, "F4": down, "T0": ["5S"], "R": ["JD", "3C"]})


def chequers_reserva() -> Game:
    """Chequers, exercise 3: the reserve's 8 of clubs reaches the tableau once the 9 of clubs is
    uncovered (a trap: the 4 of diamonds onto the 3 buries it deeper)."""
    return Game.from_position(
        "chequers",
        {"T0": ["9C", "3D"], "T1": ["JH", "4D"], "T2": ["QS"], "T3": ["TD", "5C"], "R": ["6C", "8C"]},
    )


def moving_left_secuencia() -> Game:
    """Moving Left, exercise 2: part of a run in the Tableau 3 fits on the Jack of spades."""
    return Game.from_position(
        "moving_left",
        {"T0": ["JS"], "T1": ["2D", "KH"], "T2": ["4S", "QC", "JD", "TH", "9C", "8H"], "T3": ["9D"]},
        face_down={"T1": 1, "T2": 1},
    )


def moving_left_hueco() -> Game:
    """Moving Left, exercise 3: uncover the Tableau 3's face-down card; its King-headed run needs a
    hole, which the 7 of hearts leaves when it goes onto the 8 of clubs."""
    return Game.from_position(
        "moving_left",
        {"T0": ["7H"], "T1": ["8C"], "T2": ["2C", "KD", "QC", "JH"], "T3": ["3H", "TS"], "S": ["4C"], "W": ["6S"]},
        face_down={"T2": 1, "T3": 1},
    )


def _to_win(start: Callable[[], Game]) -> Callable:
    """A practice position to win, answered with moves played from `start()`: right once every
    card is home; when the moves leave nothing to play, it says so (another way may still win)."""

    def check(respuesta: object) -> tuple[bool, str]:
        g = start()
        problem = _play_answer(g, respuesta)
        if problem:
            return False, problem
        if g.is_won():
            return True, "¡Correcto!"
        if not g.legal_moves():
            return False, "Sin movimientos: por ahí ya no se puede ganar. Prueba otro camino."
        return False, "Los movimientos son válidos, pero todavía no: aún quedan cartas fuera de las bases."

    return check


def scotch_reto() -> Game:
    """Scotch, exercise 3: ten cards to win; sending the 3 of spades home at once loses (it is
    the only card the 2 of spades can wait on while the 4 of hearts is freed)."""
    return Game.from_position(
        "scotch",
        {"F0": ["AC", "2D"], "T0": ["4H", "3D", "2S"], "T1": ["4C"], "T2": ["3S"], "T3": ["AH", "6D", "5C"]},
    )


def bakers_dozen_reto() -> Game:
    """Baker's Dozen, exercise 3: eight cards to win; the 3 of clubs on the 4 of hearts buries
    the 2 of clubs under a card that waits for it, and the game is lost."""
    return Game.from_position(
        "bakers_dozen",
        {"F0": ["AH"], "F1": ["AC"], "T0": ["5H", "4C"], "T1": ["3H", "3C"], "T2": ["5C", "2H"], "T3": ["2C", "4H"]},
    )


def citadel_rescate() -> Game:
    """Citadel, exercise 3: the 7 of diamonds lies under the 9 of hearts, and no tableau top
    takes the 9 and there is no hole; taking the 10 of spades back from its foundation onto the
    Jack of diamonds gives the 9 a place, and the autoplay then sends the 7 home."""
    return Game.from_position(
        "citadel",
        {
            "F0": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"],
            "F1": ["AH"],
            "F2": ["AD", "2D", "3D", "4D", "5D", "6D"],
            "F3": ["AC"],
            "T0": ["7D", "9H"],
            "T1": ["JD"],
            "T2": ["KD"],
            "T3": ["KC"],
            "T4": ["3H"],
            "T5": ["5H"],
            "T6": ["7C"],
            "T7": ["7H"],
        },
    )


def citadel_libera() -> Game:
    """Citadel, exercise 4: one move uncovers the 6 of hearts, which the autoplay then sends home
    (the 10 of diamonds onto the Jack of spades is the trap: it buries the 6 deeper)."""
    return Game.from_position(
        "citadel",
        {
            "F0": ["AS"],
            "F1": ["AH", "2H", "3H", "4H", "5H"],
            "F2": ["AD"],
            "F3": ["AC"],
            "T0": ["6H", "JS"],
            "T1": ["QH"],
            "T2": ["TD"],
            "T3": ["KS"],
            "T4": ["KD"],
            "T5": ["KC"],
            "T6": ["KH"],
            "T7": ["3D"],
        },
    )


CITADEL_CLUBS = ("2C", "4C", "3C", "5C", "6C")
"""Citadel, exercise 2: the order in which the clubs from 2 to 6 are dealt."""


def citadel_deck(clubs: Sequence[str] = CITADEL_CLUBS) -> list[str]:
    """A deck (first dealt first) in which `clubs` come in that order, the other clubs after them
    and every other card before, in new-deck order."""
    first = [c.code for c in CARDS if c.suit != "C"]
    rest = [c.code for c in CARDS if c.suit == "C" and c.code not in clubs]
    return first + list(clubs) + rest


def _clubs_home_in_deal() -> int:
    """How many clubs `citadel_deck()` sends home during Citadel's deal (the engine deals it)."""
    report = new_game("citadel", deck=citadel_deck(), autoplay=False).deal_report
    assert report is not None
    return sum(1 for c in report.to_foundations if c.suit == "C")


def _on_tableau(g: Game, code: str) -> bool:
    card = Card.parse(code)
    return any(card in g.piles[p] for p in g.pile_ids if p.startswith("T"))


def _on_foundation(g: Game, code: str) -> bool:
    card = Card.parse(code)
    return any(card in g.piles[p] for p in g.pile_ids if p.startswith("F"))


def _hearts_home() -> list[str]:
    """The hearts that may still go to a foundation in `chequers_bases` (the engine decides)."""
    out = []
    for code in (c.code for c in CARDS if c.suit == "H"):
        g = chequers_bases()
        g = Game.from_position("chequers", {**g.position()["piles"], "T1": [code]})
        if any(g.can_move("T1", f) for f in g.pile_ids if f.startswith("F")):
            out.append(code)
    return out


def _why_not_home(card: Card) -> str | None:
    if card.suit != "H":
        return "Solo se pregunta por las cartas de corazones."
    g = chequers_bases()
    g = Game.from_position("chequers", {**g.position()["piles"], "T1": [card.code]})
    up, down = g.why_not("T1", "F0"), g.why_not("T1", "F4")
    return up if card.rank > 6 else down


def _run_onto_js() -> int:
    g = moving_left_secuencia()
    counts = [m.count for m in g.legal_moves() if m.src == "T2" and m.dst == "T0"]
    return counts[0] if counts else 0


# ---------------------------------------------------------------------- the exercises
EJERCICIOS: Mapping[str, Ejercicio] = {
    "chequers-1": Ejercicio(
        "¿Qué cartas pueden ir sobre el As de tréboles en el tablero de Chequers?",
        _set_of_cards(lambda: cartas_sobre("chequers", "AC"), _why_not_on("chequers", "AC")),
        cards=("AC",),
    ),
    "chequers-2": Ejercicio(
        "En esta posición, la Base 1 sube en corazones hasta el 6 de corazones y la Base 5 baja en "
        "corazones hasta el 7 de corazones. ¿Qué cartas de corazones pueden ir todavía a una base?",
        _set_of_cards(_hearts_home, _why_not_home),
        cards=("6H", "7H"), start=chequers_bases,
    ),
    "chequers-3": Ejercicio(
        "¿Cómo llega al tablero el 8 de tréboles, la carta de arriba de la reserva?",
        _moves_reaching(
            chequers_reserva,
            lambda g: _on_tableau(g, "8C"),
            "El 8 de tréboles sigue en la reserva: ¿sobre qué carta podría ir, y dónde está?",
        ),
        cards=("8C", "9C"), kind="board", start=chequers_reserva,
    ),
    "moving_left-1": Ejercicio(
        "¿Sobre qué cartas puede ir el 5 de diamantes en el tablero de Moving Left?",
        _set_of_cards(lambda: cartas_bajo("moving_left", "5D"), _why_not_under("moving_left", "5D")),
        cards=("5D",),
    ),
    "moving_left-2": Ejercicio(
        "¿Cuántas cartas mueve, de una vez, el movimiento del Tablero 3 al Tablero 1?",
        _number(_run_onto_js, "Busca en el Tablero 3 la carta que encaja sobre la J de picas."),
        cards=("JS", "TH"), kind="number", start=moving_left_secuencia,
    ),
    "moving_left-3": Ejercicio(
        "¿Cómo consigues que se ponga boca arriba la carta boca abajo del Tablero 3?",
        _moves_reaching(
            moving_left_hueco,
            lambda g: g.face_down("T2") == 0,
            "La carta sigue boca abajo: para destaparla hay que llevarse toda la secuencia de la K de "
            "diamantes, y solo un hueco la admite.",
        ),
        cards=("KD", "7H", "8C"), kind="board", start=moving_left_hueco,
    ),
    "scotch-1": Ejercicio(
        "¿Qué cartas pueden ir sobre la J de tréboles en una base de Scotch?",
        _set_of_cards(lambda: cartas_sobre("scotch", "JC", pila="base"), _why_not_foundation("scotch", "JC")),
        cards=("JC",),
    ),
    "scotch-2": Ejercicio(
        "¿Sobre qué cartas de un abanico puede ir el 8 de corazones?",
        _set_of_cards(lambda: cartas_bajo("scotch", "8H"), _why_not_under("scotch", "8H")),
        cards=("8H",),
    ),
    "scotch-3": Ejercicio(
        "¿Cómo se gana esta posición? Lleva sus diez cartas a las bases.",
        _to_win(scotch_reto),
        cards=("AC", "2D", "4H", "3D", "2S", "4C", "3S", "AH", "6D", "5C"), kind="board", start=scotch_reto,
    ),
    "bakers_dozen-1": Ejercicio(
        "¿Qué cartas pueden ir sobre la J de picas en el tablero de Baker's Dozen?",
        _set_of_cards(lambda: cartas_sobre("bakers_dozen", "JS"), _why_not_on("bakers_dozen", "JS")),
        cards=("JS",),
    ),
    "bakers_dozen-2": Ejercicio(
        "Si en el tablero se construye sin importar el palo, como en PySolFC y Aisleriot, ¿sobre "
        "qué cartas puede ir el 5 de diamantes?",
        _set_of_cards(
            lambda: cartas_bajo("bakers_dozen", "5D", any_suit=True),
            _why_not_under("bakers_dozen", "5D", any_suit=True),
        ),
        cards=("5D",),
    ),
    "bakers_dozen-3": Ejercicio(
        "¿Cómo se gana esta posición? Lleva sus ocho cartas a las bases.",
        _to_win(bakers_dozen_reto),
        cards=("AH", "AC", "5H", "4C", "3H", "3C", "5C", "2H", "2C", "4H"), kind="board", start=bakers_dozen_reto,
    ),
    "citadel-1": Ejercicio(
        "¿Sobre qué cartas puede ir la Q de tréboles en el tablero de Beleaguered Castle?",
        _set_of_cards(
            lambda: cartas_bajo("beleaguered_castle", "QC"), _why_not_under("beleaguered_castle", "QC")
        ),
        cards=("QC",),
    ),
    "citadel-2": Ejercicio(
        "En un reparto de Citadel, los tréboles del 2 al 6 salen en este orden: 2♣, 4♣, 3♣, 5♣, 6♣ "
        "(los demás tréboles salen después). ¿Cuántos tréboles van a la base durante el reparto?",
        _number(
            _clubs_home_in_deal,
            "Sigue los tréboles en el orden en que salen: uno va a la base solo si, en ese momento, "
            "su base ya tiene el trébol anterior.",
        ),
        cards=("4C", "3C", "5C", "6C"), kind="number",
    ),
    "citadel-3": Ejercicio(
        "¿Cómo llevas el 7 de diamantes a la base?",
        _moves_reaching(
            citadel_rescate,
            lambda g: _on_foundation(g, "7D"),
            "El 7 de diamantes sigue en el tablero, debajo del 9 de corazones, que necesita un sitio "
            "donde ir: un 10 arriba de una pila o un hueco.",
        ),
        cards=("7D", "9H", "JD", "TS"), kind="board", start=citadel_rescate,
    ),
    "citadel-4": Ejercicio(
        "En esta posición de Citadel, ¿qué movimiento hace que el 6 de corazones suba solo a la base?",
        _moves_reaching(
            citadel_libera,
            lambda g: _on_foundation(g, "6H"),
            "El 6 de corazones sigue en el tablero: el juego automático solo lo sube cuando queda arriba "
            "de su pila.",
        ),
        cards=("6H", "JS", "QH"), kind="board", start=citadel_libera,
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


def verdict_of_text(ejercicio: str, texto: str) -> tuple[bool, str]:
    """(right?, Spanish message) for an answer typed in a box: a whole number is read as one."""
    texto = texto.strip()
    if not texto:
        return False, "Escribe tu respuesta en la casilla."
    respuesta: object = int(texto) if re.fullmatch(r"-?[0-9]{1,9}", texto) else texto
    return _verdict(ejercicio, respuesta)


def verdict_of_game(ejercicio: str, game: Game) -> tuple[bool, str]:
    """(right?, Spanish message) for the moves played so far on a board exercise's game."""
    return _verdict(ejercicio, [format_move(game, m) for m in game.history])


def start_position(ejercicio: str) -> Game:
    """A new game at a board exercise's position (kind "board"); ValueError for the others."""
    ex = _get(ejercicio)
    if ex.start is None:
        raise ValueError(f"El ejercicio {ejercicio} no tiene una posición para jugarla en un tablero.")
    return ex.start()


# The widgets live in the board module; these names stay here for the notebooks' imports.
def caja(ejercicio: str) -> Any:
    """`solitaire_nb.board.caja`: the exercise's check as a widget."""
    from .board import caja as widget

    return widget(ejercicio)


def tablero(ejercicio: str, **board_args: Any) -> Any:
    """`solitaire_nb.board.tablero`: a board exercise answered by playing."""
    from .board import tablero as widget

    return widget(ejercicio, **board_args)


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
