"""Exercises of the notebooks: each one checks a reader's answer against the engine.

The correct answer is never typed here: it is computed from the rules engine (which cards a
pile accepts, what a deal did, what a move leaves behind), so the exercises stay right if a
rule's wording or a deal changes.  `comprobar(id, respuesta)` prints "¡Correcto!" or a Spanish
hint, often the engine's own sentence saying which rule refuses a wrong answer;
`es_correcta(id, respuesta)` just says whether it's right.  The widgets that ask the same
questions (`solitaire_nb.board.caja`, `tablero`) are built from `verdict_of_text`,
`verdict_of_game` and `start_position`.

This module holds the exercises themselves (`EJERCICIOS`) and the public checking functions; the
rest is split by responsibility and re-exported here: reading answers
and the kinds of checker (`answers`, and `move_answers` for answers given as moves), exercises about sets of cards (`card_exercises`),
the positions and deals asked about (`positions`), and the printing helpers for the
notebooks' code cells (`movimientos`, `por_que_no`, `narrar`: `printing`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..core.checks import shown
from ..core.texts import after_colon
from ..engine import Game
from ..games.notation import format_move
from .answers import DONT_KNOW_LEAD, DirectionOnce, Ejercicio, RemembersTries, dont_know, number_answer
from .atlas_exercises import EJERCICIOS_ESTUDIO
from .card_answers import set_of_cards
from .card_exercises import (
    cartas_bajo,
    cartas_bajo_base,
    cartas_sobre,
    why_not_under,
    why_not_under_foundation,
)
from .move_answers import EXAMPLE_MOVES, TriedMoves, home_chain, moves_reaching, to_win
from .positions import (
    CITADEL_CLUBS,
    bakers_dozen_reto,
    chequers_bases,
    chequers_reserva,
    citadel_deck,
    citadel_libera,
    citadel_rescate,
    clubs_home_cards,
    clubs_home_in_deal,
    clubs_home_why,
    hearts_home,
    moving_left_hueco,
    moving_left_secuencia,
    on_foundation,
    on_tableau,
    run_onto_js,
    run_onto_js_cards,
    run_onto_js_why,
    scotch_reto,
    why_not_home,
)
from .printing import movimientos, narrar, por_que_no
from .reasoned import ReasonedPrediction
from .study_exercises import (
    ACES_DEALT,
    DEAL_SEED,
    ORDERED_CARD,
    ORDERED_SPADES,
    TEN_COLUMNS,
    only_twos_share,
    orders_answer,
    share_answer,
    shortened_after_deal_exercise,
    shortened_in_deal_exercise,
    shortened_why,
)

__all__ = [
    "EJERCICIOS", "comprobar", "es_correcta", "es_prediccion", "olvidar_intentos", "verdict_of_text", "verdict_of_game",
    "start_position", "cartas_sobre", "cartas_bajo", "enunciado", "narrar", "movimientos", "por_que_no",
    # re-exported for the notebooks and the tests:
    "EXAMPLE_MOVES", "CITADEL_CLUBS", "Ejercicio", "bakers_dozen_reto", "chequers_bases", "chequers_reserva",
    "citadel_deck", "citadel_libera", "citadel_rescate", "moving_left_hueco", "moving_left_secuencia", "ORDERED_CARD",
    "scotch_reto",
]


# ---------------------------------------------------------------------- the exercises
EJERCICIOS: Mapping[str, Ejercicio] = {
    "chequers-1": Ejercicio(
        "¿Sobre qué cartas puede ir la K de tréboles en el tablero de Chequers?",
        set_of_cards(lambda: cartas_bajo("chequers", "KC"), why_not_under("chequers", "KC")),
        cards=("KC",),
    ),
    "chequers-2": Ejercicio(
        "En esta posición, la Base 1 sube en corazones hasta el 6 de corazones y la Base 5 baja en "
        "corazones hasta el 7 de corazones. ¿Qué cartas de corazones admite ahora mismo alguna base?",
        set_of_cards(hearts_home, why_not_home,
                     none_hint="No: con dos barajas hay dos cartas de cada, y las dos bases siguen abiertas. Mira "
                               "la carta de arriba de cada base: ¿cuál le sigue en la Base 1, que sube, y cuál en "
                               "la Base 5, que baja?",
                     all_hint="Más adelante irán todas, pero ahora mismo no: cada base admite solo la carta que "
                              "sigue a su carta de arriba, en el sentido en que va. Escribe solo esas, cada una "
                              "con su palo."),
        cards=("6H", "7H"), start=chequers_bases,
    ),
    "chequers-3": Ejercicio(
        "¿Cómo llega al tablero el 8 de tréboles, la carta de arriba de la reserva?",
        TriedMoves(
            moves_reaching(
                chequers_reserva,
                lambda g: on_tableau(g, "8C"),
                "El 8 de tréboles sigue en la reserva, y no hay ningún 7 ni 9 de tréboles arriba de una pila. "
                "¿De qué otra manera sale al tablero una carta de la reserva?",
                praise=lambda g: "Al vaciarse una pila, la reserva la rellena sola con su carta de arriba.",
            ),
            chequers_reserva,
            "Ninguna pila tiene arriba un 7 ni un 9 de tréboles: el 8 de tréboles solo sale de la reserva "
            "para rellenar un hueco. El 3 de corazones sobre el 4 deja arriba el 6 de corazones, que va "
            "sobre el 5; la pila se vacía y la reserva la rellena con su carta de arriba.",
        ),
        cards=("8C", "7C"), kind="board", start=chequers_reserva,
    ),
    "moving_left-1": Ejercicio(
        "¿Sobre qué cartas puede ir el 5 de diamantes en el tablero de Moving Left?",
        set_of_cards(lambda: cartas_bajo("moving_left", "5D"), why_not_under("moving_left", "5D")),
        cards=("5D",),
    ),
    "moving_left-2": Ejercicio(
        "¿Cuántas cartas mueve, de una vez, el movimiento del Tablero 3 al Tablero 1?",
        number_answer(
            run_onto_js, "Busca en el Tablero 3 la carta que encaja sobre la J de picas.", run_onto_js_why,
            then="Antes de probar otro número, nombra las cartas que se mueven: la primera es la del "
                 "Tablero 3 que encaja sobre la J de picas, y con ella van las que tiene encima. "
                 "¿Cuántas has nombrado?",
            counted=run_onto_js_cards,
        ),
        cards=("JS", "TH"), kind="number", start=moving_left_secuencia,
    ),
    "moving_left-3": Ejercicio(
        "¿Cómo consigues que se ponga boca arriba la carta boca abajo del Tablero 3?",
        moves_reaching(
            moving_left_hueco,
            lambda g: g.face_down("T2") == 0,
            "La carta sigue boca abajo: para destaparla hay que llevarse toda la secuencia de la K de "
            "diamantes, y solo un hueco la admite.",
            praise=lambda g: ("La secuencia de la K de diamantes solo cabe en un hueco: el 7 de corazones sobre "
                              "el 8 de tréboles vacía el Tablero 1, la secuencia va allí y "
                              f"{moving_left_hueco().piles['T2'][0].articulo} se pone boca arriba."),
        ),
        cards=("KD", "7H", "8C"), kind="board", start=moving_left_hueco,
    ),
    "scotch-1": Ejercicio(
        "¿Sobre qué cartas puede ir la J de tréboles cuando la llevas a una base de Scotch?",
        set_of_cards(lambda: cartas_bajo_base("scotch", "JC"), why_not_under_foundation("scotch", "JC")),
        cards=("JC",),
    ),
    "scotch-2": Ejercicio(
        "¿Sobre qué cartas de un abanico puede ir el 8 de corazones?",
        set_of_cards(lambda: cartas_bajo("scotch", "8H"), why_not_under("scotch", "8H")),
        cards=("8H",),
    ),
    "scotch-3": Ejercicio(
        "¿Cómo se gana esta posición? Lleva a las bases las ocho cartas que faltan.",
        to_win(scotch_reto, f"{DONT_KNOW_LEAD} Antes de subir nada a una base, mira qué carta se quedará sin "
                            "sitio donde esperar: ¿dónde puede ponerse el 2 de picas mientras liberas el 4 de corazones?"),
        cards=("AC", "2D", "4H", "3D", "2S", "4C", "3S", "AH", "6D", "5C"), kind="board", start=scotch_reto,
    ),
    "bakers_dozen-1": Ejercicio(
        "¿Sobre qué cartas puede ir la J de picas en el tablero de Baker's Dozen?",
        set_of_cards(lambda: cartas_bajo("bakers_dozen", "JS"), why_not_under("bakers_dozen", "JS")),
        cards=("JS",),
    ),
    "bakers_dozen-2": Ejercicio(
        "Si en el tablero se construye sin importar el palo, como en otros programas de solitarios, ¿sobre "
        "qué cartas puede ir el 5 de diamantes?",
        set_of_cards(
            lambda: cartas_bajo("bakers_dozen", "5D", any_suit=True),
            why_not_under("bakers_dozen", "5D", any_suit=True),
        ),
        cards=("5D",),
    ),
    "bakers_dozen-3": Ejercicio(
        "¿Cómo se gana esta posición? Lleva a las bases las ocho cartas que faltan.",
        to_win(bakers_dozen_reto),
        cards=("AH", "AC", "5H", "4C", "3H", "3C", "5C", "2H", "2C", "4H"), kind="board", start=bakers_dozen_reto,
    ),
    "citadel-1": Ejercicio(
        "¿Sobre qué cartas puede ir la Q de tréboles en el tablero de Beleaguered Castle?",
        set_of_cards(
            lambda: cartas_bajo("beleaguered_castle", "QC"), why_not_under("beleaguered_castle", "QC")
        ),
        cards=("QC",),
    ),
    "citadel-2": Ejercicio(
        "En un reparto de Citadel, los tréboles del 2 al 6 salen en este orden: 2♣, 4♣, 3♣, 5♣, 6♣ "
        "(los demás tréboles salen después). ¿Cuántos de esos cinco tréboles van a la base durante el reparto?",
        number_answer(
            clubs_home_in_deal,
            "Sigue los tréboles en el orden en que salen: uno va a la base solo si, en ese momento, "
            "su base ya tiene el trébol anterior.",
            clubs_home_why,
            then="Antes de probar otro número, escribe cuáles van a la base: sigue los tréboles de uno "
                 "en uno, en el orden en que salen, y apunta qué carta hay arriba de la base de tréboles "
                 "cuando sale cada uno. ¿Cuántos has apuntado?",
            counted=clubs_home_cards, suit="de tréboles",  # the question asks about clubs only
        ),
        cards=("4C", "3C", "5C", "6C"), kind="number",
    ),
    "citadel-3": Ejercicio(
        "¿Cómo llevas el 7 de diamantes a la base?",
        TriedMoves(
            moves_reaching(
                citadel_rescate,
                lambda g: on_foundation(g, "7D"),
                "El 7 de diamantes sigue en el tablero, debajo del 9 de corazones, que necesita un sitio "
                "donde ir: un 10 arriba de una pila o un hueco.",
                praise=home_chain(citadel_rescate),
            ),
            citadel_rescate,
            "El 9 de corazones tapa el 7 de diamantes y necesita un 10 arriba de una pila o un hueco, y "
            "no hay ninguno. El único 10 a mano es el 10 de picas de la Base 1: vuelve al tablero sobre "
            "la J de diamantes, el 9 de corazones va encima y el 7 de diamantes queda libre para su base.",
        ),
        cards=("7D", "9H", "JD", "TS"), kind="board", start=citadel_rescate,
    ),
    "citadel-4": Ejercicio(
        "En esta posición de Citadel, ¿qué movimiento hace que el 6 de corazones suba solo a la base?",
        TriedMoves(
            moves_reaching(
                citadel_libera,
                lambda g: on_foundation(g, "6H"),
                "El 6 de corazones sigue en el tablero: el juego automático sube una carta cuando está "
                "arriba de su pila y su base ya tiene la anterior. ¿Qué tiene ahora la base de corazones?",
                one_move=True, praise=home_chain(citadel_libera),
            ),
            citadel_libera,
            "El 6 de corazones sube cuando su base tiene el 5, y el 5 estaba debajo del 9 de tréboles. "
            "Con el 9 sobre el 10 de diamantes, el 5 queda arriba y el juego automático sube el 5 y "
            "después el 6.",
            nudge="Pista: busca el 5 de corazones en el tablero. ¿Qué carta lo tapa, y dónde puede ir esa carta?",
        ),
        cards=("6H",), kind="board", start=citadel_libera,
    ),
    # notebook 06, the study: an order count, a deal dealt in the try widget, a transfer
    "estudio-1": Ejercicio(
        "Citadel con los Ases repartidos con las demás cartas: las cuatro cartas A♠, 2♠, 3♠ y 4♠ pueden "
        "salir en el reparto en 24 órdenes distintos. ¿En cuántos de esos órdenes va el 3♠ a la base "
        "durante el reparto?",
        orders_answer(
            "El 3♠ va a la base si, cuando sale, su base ya tiene el 2♠. Con los Ases repartidos, ¿cuándo "
            "está el 2♠ en la base? ¿Qué cartas tienen que salir en orden? El 4♠ puede salir en cualquier "
            "momento.",
        ),
        cards=ORDERED_SPADES, kind="number", variant=ACES_DEALT,
    ),
    "estudio-2": Ejercicio(
        f"Mira la partida n.º {DEAL_SEED} en el tablero del ejercicio y cuenta en su tabla. "
        "¿Cuántas columnas de Citadel tienen menos de seis cartas tras el reparto, antes del juego "
        "automático?",
        number_answer(
            shortened_after_deal_exercise,
            "Cuenta en la tabla, en la fila «Citadel, tras el reparto», las columnas que no llegan a "
            "seis cartas.",
            lambda: shortened_why(False),
        ),
        kind="number", deal=("citadel", DEAL_SEED),
    ),
    "estudio-4": Ejercicio(
        f"En la misma partida n.º {DEAL_SEED}, ¿cuántas columnas de Citadel tienen menos de seis "
        "cartas tras el juego automático?",
        number_answer(
            shortened_in_deal_exercise,
            "Cuenta en la tabla, en la fila «Citadel, tras el juego automático», las columnas que no "
            "llegan a seis cartas: el juego automático puede acortar alguna que el reparto dejó entera.",
            lambda: shortened_why(True),
        ),
        kind="number", deal=("citadel", DEAL_SEED),
    ),
    "estudio-3": Ejercicio(
        "Citadel con diez columnas: la misma baraja y el mismo reparto, pero fila a fila sobre diez "
        "columnas en lugar de ocho. ¿En qué porcentaje de los repartos van a la base durante el "
        "reparto solo los cuatro 2, y ninguna carta más?",
        share_answer(
            only_twos_share,
            "Solo van los cuatro 2 si ningún 3 va: ¿cuántas veces de cada dos se queda un 3 en su "
            "columna? Tiene que pasar en los cuatro palos a la vez. ¿Importa a qué columna iba cada carta?",
            "En cada palo, el 3 se queda en su columna cuando sale antes que su 2: la mitad de las veces. Los "
            "cuatro palos no se estorban, así que a la vez pasa (1/2)⁴ = 1/16 de las veces, con ocho "
            "columnas o con diez: depende del orden de la baraja, no de dónde cae cada carta.",
        ),
        kind="number", variant=TEN_COLUMNS,
    ),
    **EJERCICIOS_ESTUDIO,  # notebooks 07 and 08
}


def enunciado(ejercicio: str) -> str:
    """The question of an exercise, in Spanish."""
    return _get(ejercicio).pregunta

# «no sé» to a card-set exercise: no card named (that would give the answer away), only where to look.
CARDS_DONT_KNOW = ("No pasa nada: busca en la lección la regla de la que habla la pregunta{where} y piensa qué "
                   "cartas cumplen esa regla. Escribe las que creas; el corrector te dirá cuántas sobran o faltan, "
                   "sin decir cuáles.")


def _get(ejercicio: str) -> Ejercicio:
    try:
        return EJERCICIOS[ejercicio]
    except (KeyError, TypeError):
        raise ValueError(f"No existe el ejercicio {shown(ejercicio)}; los hay: {', '.join(EJERCICIOS)}") from None


def _verdict(ejercicio: str, respuesta: object, shown_to_reader: bool = True) -> tuple[bool, str]:
    """(right?, Spanish message) for an answer; an unknown exercise raises ValueError.  Only an
    answer whose message a reader sees (`shown_to_reader`) uses up a number exercise's one
    «más / menos» (`answers.DirectionOnce`)."""
    check = _get(ejercicio).check  # an unknown exercise is the notebook's bug: raise
    if not shown_to_reader and isinstance(check, RemembersTries):
        check = check.peek
    item = getattr(respuesta, "item", None)
    if getattr(respuesta, "ndim", None) == 0 and callable(item):
        respuesta = item()  # a 0-d NumPy array: the one value it holds
    if isinstance(check, DirectionOnce) and dont_know(respuesta) and str(respuesta).strip():
        return False, f"{DONT_KNOW_LEAD} {check.hint}"
    if _get(ejercicio).kind == "cards" and dont_know(respuesta) and str(respuesta).strip():
        where = ", mira la posición de la pregunta" if _get(ejercicio).start is not None else ""  # only if it has one
        return False, getattr(check, "dont_know", CARDS_DONT_KNOW.format(where=where))  # a single card has its own words
    if respuesta is None or (isinstance(respuesta, str | list | tuple) and not respuesta):
        return False, "Todavía no hay ninguna respuesta que comprobar."
    try:
        return check(respuesta)
    except ValueError as exc:
        reason = str(exc)
        if reason.startswith("No entiendo"):  # already says so: «No entiendo el movimiento …»
            return False, reason
        return False, f"No entiendo la respuesta: {after_colon(reason)}"


def es_prediccion(ejercicio: str) -> bool:
    """Whether the exercise asks a prediction, taken down and not graded (its box says «Apuntar»)."""
    return isinstance(_get(ejercicio).check, ReasonedPrediction)


def es_correcta(ejercicio: str, respuesta: object) -> bool:
    """Whether `respuesta` answers the exercise (silent: for tests and widgets)."""
    return _verdict(ejercicio, respuesta, shown_to_reader=False)[0]


def olvidar_intentos() -> None:
    """Forget the wrong answers given so far, as a new kernel would: each number exercise tells
    «más» or «menos» once again (for tests, or a teacher trying the exercises before class)."""
    for ex in EJERCICIOS.values():
        if isinstance(ex.check, RemembersTries):
            ex.check.forget()


def comprobar(ejercicio: str, respuesta: object) -> None:
    """Check a reader's answer: print "¡Correcto!" or a hint in Spanish."""
    print(_verdict(ejercicio, respuesta)[1])


def verdict_of_text(ejercicio: str, texto: str) -> tuple[bool, str]:
    """(right?, Spanish message) for an answer typed in a box: a whole number is read as one."""
    if not isinstance(texto, str):
        return _verdict(ejercicio, texto)  # not typed in a box: read as any other answer
    texto = texto.strip()
    if not texto:
        if _get(ejercicio).kind == "board":  # an empty move box: the hint, as for «no sé»
            return False, f"Escribe tu respuesta en la casilla. {_verdict(ejercicio, 'no sé')[1]}"
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
