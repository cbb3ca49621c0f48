"""The exercises of the study notebooks 07 (the win-rate atlas) and 08 (the rules lab).

Every right answer is read from data when the answer is checked: the atlas summary
(`atlas.summary.atlas`), the lab's stored sample (`lab_measures`), a deal of a composed game, or
the lab's comparison of two deals; so a rebuilt atlas or sample changes the answers with it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.numbers_es import thousands
from .answers import (
    Ejercicio,
    RemembersTries,
    choice_answer,
    expected_answer,
)
from .approximate import about_a_number
from .card_answers import set_of_cards
from .positions import citadel_needed, lifted_after_first_move
from .reasoned import ReasonedChoice, reasoned_prediction, split_reason

LAB_DEAL = 1234
"""The deal number the labs of notebook 08 start on."""
NEW_GAMES = 25
"""Exercise atlas-1: how many new games of Citadel the expected count is asked for."""


@functools.cache
def _atlas() -> dict[str, Any]:
    from ..atlas.summary import atlas

    data = atlas()
    return {e["key"]: e for e in data["entries"] + data.get("players", [])}


def _entry(key: str) -> Mapping[str, Any]:
    entries = _atlas()
    if key not in entries:
        raise ValueError(f"El atlas no tiene la entrada «{key}»")
    return entries[key]


def _new_games(key: str, n: int) -> Any:
    """How many of `n` new deals the entry expects to win: `intervals.new_games_count` on its
    counts (the expected value from the bracketed interval's two ends, and the count's spread)."""
    from ..atlas.intervals import new_games_count

    e = _entry(key)
    return new_games_count(int(e["won"]), int(e.get("unknown", 0)), int(e["computed_deals"]), n)


def _expected_ends(key: str, n: int) -> tuple[float, float]:
    """Exercise atlas-1's accepted range: `n` times each raw end of the entry's rate interval,
    rounded outward to one decimal (20,933 and 21,911 give 20,9 and 22,0): the range its verdict
    and the guide print, so «22» is in it."""
    from ..core.numbers_es import decimal_down, decimal_up, parse_number

    c = _new_games(key, n)
    return parse_number(decimal_down(c.expected_low, 1)), parse_number(decimal_up(c.expected_high, 1))


def _expected_why(key: str, n: int, what: str) -> str:
    """Exercise atlas-1, after a right answer: what the expected count is (the rate's interval
    times `n`) and how much one batch of `n` games varies around it, both read from the atlas."""
    from ..core.numbers_es import decimal, percent_end
    from ..games import GAMES

    c, e = _new_games(key, n), _entry(key)
    low, high = _expected_ends(key, n)
    rate_low, rate_high = percent_end(100 * c.expected_low / n, up=False), percent_end(100 * c.expected_high / n)
    batch = f"de {c.likely_low} a {c.likely_high}" if c.likely_low < c.likely_high else f"{c.likely_low}"
    return (f"De media, con un 95 % de confianza, entre {decimal(low, 1)} y {decimal(high, 1)} de {n} partidas "
            f"nuevas {what}: la proporción de {GAMES[e['game']].display_name} (de {rate_low} % a "
            f"{rate_high} %) multiplicada por {n}. En {n} "
            f"partidas concretas, la cuenta varía mucho más alrededor de esa media: de cada 100 tandas de {n}, al menos "
            f"95 tienen {batch} partidas con solución. El intervalo habla de la proporción a la larga, no de una "
            "tanda de partidas.")


# The games the transfer exercises ask about (their `variant`): composed names for the lab's
# games, and the atlas row of the no-peek player of Moving Left with the shift to the left.
SIX_COLUMNS = "beleaguered_castle+columns=6"
ANY_CARD_IN_HOLES = "bakers_dozen+empty=any"
ALTERNATE_COLOURS = "bakers_dozen+suits=alt"
FOUR_COLUMNS = "citadel+columns=4"
SHIFT_LEFT_PLAYER = "moving_left_desplazar_jugador"


def _lab_game(name: str) -> Any:
    from ..games.custom import custom_from_name

    return custom_from_name(name)


# Exercises lab-1 and lab-4 (predictions) and lab-3 compare a figure of a changed game with the original's.
MORE_OR_LESS = ("más", "menos", "las mismas")
START_DEALS = 2_000
"""Exercise lab-1: the deals (n.º 1 to this) in which notebook 08 counts the moves at the start."""
KINGS_STAY = "bakers_dozen+kings_to_bottom=false"


def _under_king_kings_stay() -> str:
    """Exercise lab-3's answer: «más» (or «menos») cards under a King in Baker's Dozen when the Kings
    stay where they fall, from the lab's comparison of the same decks (the difference's interval
    must leave 0 out)."""
    from ..atlas import lab_measures as lab_work

    _, low, high = lab_work.comparison(_lab_game("bakers_dozen"), _lab_game(KINGS_STAY)).differences["under_king"]
    if low > 0 or high < 0:  # original minus changed, deal by deal
        return "menos" if low > 0 else "más"
    raise ValueError("Sin los Reyes al fondo, las cartas tapadas por un Rey no cambian claramente")


def _sample_verdicts(name: str) -> tuple[str, ...]:
    from ..atlas import lab_measures as lab_work

    sample = lab_work.solve_sample(_lab_game(name), lab_work.SAMPLE, lab_work.MAX_STATES)
    assert sample is not None  # no stop event: always finishes
    return tuple(sample.verdicts)


def _sample_won(name: str) -> int:
    return _sample_verdicts(name).count("won")


# Exercise lab-2: how the count of won deals with a changed rule compares with the original's.
BOUND_WORDS = ("al menos", "como mucho", "exactamente")


def _bound_with_alternate_colours() -> str:
    """Exercise lab-2's answer, «como mucho»: a card of the other colour is always of another suit,
    so every move with alternate colours is a move of Baker's Dozen and no deal can gain a solution;
    checked on the stored sample (a deal won only with the new rule would make the question wrong)."""
    before, after = _sample_verdicts("bakers_dozen"), _sample_verdicts(ALTERNATE_COLOURS)
    if any(a == "won" and b == "lost" for b, a in zip(before, after, strict=True)):
        raise ValueError("Una partida sin solución en Baker's Dozen la tiene en colores alternos")
    return "como mucho"


def _why_lifted() -> str:
    """Exercise atlas-4, after a right answer: what the lifted card did, and why it cannot come back."""
    from ..core.cards import Card

    (code,) = lifted_after_first_move()
    card = Card.parse(code)
    return (f"En Citadel, en cuanto {card.articulo} queda arriba, el juego automático lo sube a la base y el 4 "
            "de diamantes se queda sin sitio. Devolverlo al tablero tampoco se puede: una carta vuelve de la "
            f"base solo sobre una carta un punto más alta, de cualquier palo, o a un hueco, y en lo alto de las "
            f"columnas no hay ningún {card.rank + 1} ni queda ningún hueco. En Beleaguered Castle se "
            "queda en el tablero, el 4 de diamantes va encima y el 2 de corazones llega a su base. Eso mismo, "
            "en mitad de una partida entera, es lo que hace que Citadel no gane algunas partidas que gana "
            "Beleaguered Castle: puedes jugar las de la lista del cuaderno por su número en los tableros del "
            "cuaderno 05.")


PLAY_THE_ONE_MOVE = ("Juega el único movimiento que hay en el tablero de Citadel y mira qué carta sube sola a "
                     "la base justo después.")
"""Exercise atlas-4's hint after a wrong card: the position has one legal move, and it shows the answer."""


ONE_CARD_DONT_KNOW = ("No pasa nada: vuelve a jugar en los tableros de arriba y mira qué pasa. Escribe la carta que "
                      "creas; el corrector te dirá si vale y por qué.")
"""Exercise atlas-4's answer to «no sé»: one card is asked, so nothing «sobra» or «falta»."""


@dataclass(eq=False)
class OneCard(RemembersTries):
    """Exercise atlas-4 asks for one card: several are told so, uncounted (one «de más» would tell
    which is right); «no sé» is told `dont_know`.  A card may come with a reason («5♠, porque …»,
    not graded); after `patience` wrong cards a right one was reached by trying."""

    check: Callable[[object], tuple[bool, str]]
    dont_know: str = ONE_CARD_DONT_KNOW
    patience: int = 2
    wrong: int = 0

    def __call__(self, respuesta: object) -> tuple[bool, str]:
        ok, message, missed = self._verdict(respuesta)
        self.wrong += missed
        return ok, message

    def forget(self) -> None:
        """Start again, as a new kernel would."""
        self.wrong = 0

    def _verdict(self, respuesta: object) -> tuple[bool, str, bool]:
        from .card_names import read_cards

        try:
            named = len(read_cards(respuesta)) if isinstance(respuesta, str) else (
                len(respuesta) if isinstance(respuesta, list | tuple) else 1)
        except ValueError:  # a card and its reason, or not cards (then the checker says why)
            card = split_reason(respuesta)[0] if isinstance(respuesta, str) else ""
            try:
                respuesta, named = (card, len(read_cards(card))) if read_cards(card) else (respuesta, 0)
            except ValueError:
                named = 0
        if named > 1:
            return False, f"La respuesta es una sola carta: escribe solo una. {PLAY_THE_ONE_MOVE}", False
        ok, message = self.check(respuesta)
        if ok and self.wrong >= self.patience and message.startswith("¡Correcto!"):
            return ok, f"Esa es la carta, pero has llegado a ella probando. Lee por qué lo es.{message[len('¡Correcto!'):]}", False
        return ok, message, not ok and named == 1


ATLAS_2_REASONS = "«Ver respuesta (Ejercicio 4)»"
"""The fold of notebook 07 that gives atlas-2's reasons, by its title: on the student's path,
right under the measure (a bare «Ver respuesta» would also name the optional parts' folds)."""


def _sample_size() -> int:
    from ..atlas.lab_measures import SAMPLE

    return SAMPLE


EJERCICIOS_ESTUDIO: dict[str, Ejercicio] = {
    # ------------------------------------------------------------------ 07 · the atlas
    "atlas-1": Ejercicio(
        f"Con las reglas de la página, si tomas {NEW_GAMES} partidas nuevas de Citadel, ¿cuántas esperas "
        "que tengan solución, de media? Vale una respuesta con decimales.",
        about_a_number(expected_answer(
            lambda: _expected_ends("citadel", NEW_GAMES),
            lambda: _expected_why("citadel", NEW_GAMES, "tienen solución"),
            "Busca Citadel en la tabla del atlas: ¿qué parte de sus partidas tiene solución? Esa misma "
            f"parte de {NEW_GAMES} partidas es lo que se espera de media.",
            out_of=NEW_GAMES,
        )),
        kind="number",
    ),
    "atlas-2": Ejercicio(
        "Moving Left con el desplazamiento a la izquierda: ¿ganará el jugador que no mira más partidas "
        "que con las reglas de la página, menos o las mismas? Responde «más», «menos» o «las mismas», y "
        "detrás tu porqué: «…, porque …». Tu predicción no se corrige: la comparas después con lo medido.",
        reasoned_prediction(
            ("más", "menos", "las mismas"),
            lambda: "abre «Ver lo medido», debajo de la casilla, y compara tu palabra y tu cifra con la medida. "
                    f"Después, justo debajo, {ATLAS_2_REASONS} da razones a favor de «más» y de «menos»: solo "
                    "la medida decide.",
        ),
        kind="choice", variant=SHIFT_LEFT_PLAYER,
    ),
    "atlas-4": Ejercicio(
        "Juega en los dos tableros de arriba. En Citadel, ¿qué carta sube sola a la base y hacía falta "
        "en el tablero?",
        OneCard(set_of_cards(  # one card asked: OneCard counts the tries, not the set's own `CardSet`
            lifted_after_first_move,
            lambda card: f"Esa carta no sube sola. {PLAY_THE_ONE_MOVE}",
            _why_lifted,
        ).check),
        cards=("5S",), start=citadel_needed,
    ),
    "atlas-3": Ejercicio(
        "Imagina Citadel sin el juego automático a la base: las cartas que encajan no suben solas, pero "
        "puedes subirlas tú cuando quieras (el reparto no cambia: las cartas que van a la base durante el "
        "reparto siguen yendo). Comparado con las reglas de la página, ¿cuántas partidas "
        "tendrán solución? Responde «nunca menos», «nunca más» o «cualquier cosa», con tu razón: «…, porque …».",
        ReasonedChoice(choice_answer(
            lambda: "nunca menos", ("nunca menos", "nunca más", "cualquier cosa"),
            lambda: "Sin el juego automático puedes hacer a mano todo lo que él hacía, y además dejar en "
                    "el tablero una carta que te hace falta. Cualquier forma de ganar con las reglas de la "
                    "página vale también sin él: tienen solución las mismas partidas o más, nunca menos. "
                    "Si terminas antes, la parte plegada «¿sale peor Beleaguered Castle con devoluciones?», al "
                    "final del cuaderno, usa el mismo razonamiento.",
            "Piensa si quitar el juego automático te quita movimientos o te deja elegir más: ¿puedes "
            "hacer a mano lo que él hacía solo? (El reparto no cambia: las cartas que van a la base "
            "durante el reparto siguen yendo.)",
        )),
        kind="choice",
    ),
    # ------------------------------------------------------------------ 08 · the rules lab
    "lab-1": Ejercicio(
        f"Beleaguered Castle con seis columnas, partidas n.º 1 a {thousands(START_DEALS)}: ¿habrá más, menos o las "
        "mismas partidas sin ningún movimiento posible al empezar que con ocho columnas? Responde «más», «menos» o "
        "«las mismas», y detrás tu porqué: «…, porque …». Tu predicción no se corrige: la comparas después con lo "
        "medido.",
        reasoned_prediction(
            MORE_OR_LESS,
            lambda: "juega en el laboratorio con seis columnas (¿cuántos movimientos tienes al empezar?) y después "
                    "abre «Ver lo medido», más abajo: cuenta las partidas sin ningún movimiento al empezar con seis "
                    "y con ocho columnas.",
        ),
        kind="choice", variant=SIX_COLUMNS,
    ),
    "lab-2": Ejercicio(
        "En Baker's Dozen se construye sobre una carta de otro palo. Si hubiera que construir en colores "
        f"alternos (roja sobre negra o negra sobre roja), ¿cuántas de las partidas n.º 1 a {_sample_size()} "
        "tendrían solución, comparadas con las que la tienen en Baker's Dozen: «al menos» esas, «como mucho» "
        "esas o «exactamente» esas? Responde antes de cambiar la regla, con tu razón: «…, porque …».",
        ReasonedChoice(choice_answer(
            _bound_with_alternate_colours, BOUND_WORDS,
            lambda: ("Una carta de otro color es siempre de otro palo, pero no al revés: el 7 de corazones sobre "
                     "el 8 de diamantes vale en Baker's Dozen y no en colores alternos. La regla nueva solo "
                     "quita movimientos: una forma de ganar en colores alternos vale también en Baker's Dozen. "
                     "Así que tienen solución como mucho las que la tienen en Baker's Dozen: las "
                     f"{_sample_won('bakers_dozen')} que el resolvedor ha ganado y, quizá, alguna de las "
                     f"{_sample_verdicts('bakers_dozen').count('unknown')} que deja sin decidir. Que sean "
                     "exactamente esas no se puede asegurar: sin esos movimientos, alguna puede perder su "
                     "solución. Cuántas, lo dice la medida."),
            "¿Es una carta de otro color siempre de otro palo? ¿Y una de otro palo, siempre de otro color? "
            "Piensa si la regla nueva añade movimientos o solo quita.",
        )),
        kind="choice", variant=ALTERNATE_COLOURS,
    ),
    "lab-3": Ejercicio(
        "En Baker's Dozen, al repartir, los Reyes pasan al fondo de su columna, y la tabla del reparto dice "
        "cuántas cartas tapadas por un Rey hay de media. Si los Reyes se quedaran donde caen, ¿habría más "
        "cartas tapadas por un Rey, menos o las mismas? Responde «más», «menos» o «las mismas», con tu "
        "razón: «…, porque …».",
        ReasonedChoice(choice_answer(
            _under_king_kings_stay, MORE_OR_LESS,
            lambda: ("Un Rey al fondo de su columna no tapa nada, salvo otro Rey que haya bajado con él. Si se "
                     "queda donde cae, tapa todas las cartas que tiene debajo: en una columna de cuatro cartas, "
                     "de 0 a 3, y de media 1,5. Con cuatro Reyes, unas 6 cartas tapadas por reparto, algo menos "
                     "cuando dos Reyes caen en la misma columna. Lo medido, más abajo."),
            "¿Qué cartas tapa un Rey que está al fondo de su columna? ¿Y uno que se queda donde cae al "
            "repartir?",
        )),
        kind="choice", variant=KINGS_STAY,
    ),
    "lab-4": Ejercicio(
        f"Citadel con 4 columnas, partidas n.º 1 a {_sample_size()}: ¿quedarán sin decidir más partidas que con "
        "Citadel (8 columnas), menos o las mismas? Responde «más», «menos» o «las mismas», y detrás tu porqué: "
        "«…, porque …». Tu predicción no se corrige: la comparas después con lo medido.",
        reasoned_prediction(
            MORE_OR_LESS,
            lambda: "pon Columnas en 4 en el laboratorio, mira la columna «sin decidir» de la tabla de «¿Cuántas se "
                    "pueden ganar?» y después abre la respuesta y «Ver lo medido», más abajo.",
        ),
        kind="choice", variant=FOUR_COLUMNS,
    ),
}
