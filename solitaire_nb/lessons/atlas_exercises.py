"""The exercises of the study notebooks 07 (the win-rate atlas) and 08 (the rules lab).

Every right answer is read from data when the answer is checked: the atlas summary
(`atlas.summary.atlas`), the lab's stored sample (`lab_measures`), a deal of a composed game, or
the lab's comparison of two deals; so a rebuilt atlas or sample changes the answers with it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .answers import (
    DirectionOnce,
    Ejercicio,
    _plain_word,
    choice_answer,
    expected_answer,
    number_answer,
)
from .approximate import about_a_number
from .card_answers import set_of_cards
from .positions import citadel_needed, lifted_after_first_move
from .reasoned import ReasonedChoice, at_least_answer, reasoned_prediction, split_reason

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
FOUR_COLUMNS = "citadel+columns=4"
SHIFT_LEFT_PLAYER = "moving_left_desplazar_jugador"


def _lab_game(name: str) -> Any:
    from ..games.custom import custom_from_name

    return custom_from_name(name)


def _column_length(name: str) -> int:
    from ..atlas.lab_measures import new_game

    game = new_game(_lab_game(name), LAB_DEAL)
    return len(game.pile(game.tableau_ids[0]))


def _home_in_deal(name: str) -> int:
    """Cards the deal of partida nº `LAB_DEAL` sends home while dealing (the Aces and the
    automatic play not counted)."""
    from ..atlas.lab_measures import new_game

    report = new_game(_lab_game(name), LAB_DEAL).deal_report
    return 0 if report is None else len(report.to_foundations)


def _header(name: str) -> int:
    """The cards in the foundations the board's header counts on partida nº `LAB_DEAL` at the
    start: the Aces, the deal's and the automatic play's."""
    from ..atlas.lab_measures import new_game

    return new_game(_lab_game(name), LAB_DEAL).foundation_cards()


def _autoplayed_words(name: str) -> str:
    """«1 carta» / «3 cartas»: how many the automatic play sends home after the deal of partida nº
    `LAB_DEAL` (not which: naming it would leave only a subtraction to do)."""
    from ..atlas.lab_measures import new_game

    report = new_game(_lab_game(name), LAB_DEAL).deal_report
    cards = () if report is None else report.autoplay
    return "1 carta" if len(cards) == 1 else f"{len(cards)} cartas"


# Exercise lab-2: three rules of Baker's Dozen, each as the word a reader answers with and the
# composed game that changes it.  The answer is the one whose comparison changes the deal.
DEAL_RULES = {
    "huecos": "bakers_dozen+empty=any",
    "palo": "bakers_dozen+suits=any",
    "Reyes": "bakers_dozen+kings_to_bottom=false",
}


def _rule_changing_deal() -> str:
    from ..atlas import lab_measures as lab_work

    base = _lab_game("bakers_dozen")
    changing = [word for word, name in DEAL_RULES.items()
                if not lab_work.same_deal(lab_work.comparison(base, _lab_game(name), n=1_000))]
    if len(changing) != 1:  # the question has one right answer only if one rule acts in the deal
        raise ValueError(f"Cambian el reparto {len(changing)} de las reglas del ejercicio, no una")
    return changing[0]


def _sample_verdicts(name: str) -> tuple[str, ...]:
    from ..atlas import lab_measures as lab_work

    sample = lab_work.solve_sample(_lab_game(name), lab_work.SAMPLE, lab_work.MAX_STATES)
    assert sample is not None  # no stop event: always finishes
    return tuple(sample.verdicts)


def _sample_won(name: str) -> int:
    return _sample_verdicts(name).count("won")


# Exercise lab-3: how the count of won deals with a changed rule compares with the original's.
BOUND_WORDS = ("al menos", "como mucho", "exactamente")


def _bound_with_any_card() -> str:
    """Exercise lab-3's answer, «al menos»: a hole that admits any card admits what it admitted
    before, so every deal won with the original rule stays won; checked on the stored sample
    (a won deal proved lost with the new rule would make the question wrong)."""
    before, after = _sample_verdicts("bakers_dozen"), _sample_verdicts(ANY_CARD_IN_HOLES)
    if any(b == "won" and a == "lost" for b, a in zip(before, after, strict=True)):
        raise ValueError("Una partida con solución en Baker's Dozen la pierde con huecos para cualquier carta")
    return "al menos"


def _reason_after(count: DirectionOnce) -> DirectionOnce:
    """`count` reading «8, porque …» as 8 (the reason is welcome, not needed, and not judged)."""
    def judge(respuesta: object) -> tuple[bool, str, str, str]:
        verdict = count.judge(split_reason(respuesta)[0] if isinstance(respuesta, str) else respuesta)
        outer.tried = count.tried  # a small count's «tried by bisecting» rule, set by `count`
        return verdict
    outer = DirectionOnce(judge, count.hint, then=count.then)
    return outer


def _word_inside(options: tuple[str, ...], check: Callable[[object], tuple[bool, str]]) -> Callable[[object], tuple[bool, str]]:
    """`check` reading a phrase that names exactly one of `options` («Reyes al fondo») as that option."""
    def judge(respuesta: object) -> tuple[bool, str]:
        if isinstance(respuesta, str):
            words = _plain_word(respuesta).split()
            named = [o for o in options if _plain_word(o) in words]
            if len(named) == 1:
                respuesta = named[0]
        return check(respuesta)

    return judge


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
class OneCard:
    """Exercise atlas-4 asks for one card: several are told so, uncounted (one «de más» would tell
    which is right); «no sé» is told `dont_know`.  A card may come with a reason («5♠, porque …»,
    not graded); after `patience` wrong cards a right one was reached by trying."""

    check: Callable[[object], tuple[bool, str]]
    dont_know: str = ONE_CARD_DONT_KNOW
    patience: int = 2
    wrong: int = 0

    def peek(self, respuesta: object) -> tuple[bool, str]:
        """(right?, Spanish message) as the next call would give it, without counting a try."""
        return self._verdict(respuesta)[:2]

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
                    "Después, «Ver respuesta» da razones a favor de «más» y de «menos»: solo la medida decide.",
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
        "Beleaguered Castle con seis columnas: ¿cuántas cartas tiene cada columna al empezar la partida?",
        _reason_after(number_answer(
            lambda: _column_length(SIX_COLUMNS),
            "Sin tocar el laboratorio: los Ases empiezan en la base, así que se reparten las 48 cartas "
            "restantes entre seis columnas (48 ÷ 6).",
            lambda: (f"Los Ases empiezan en la base: las {6 * _column_length(SIX_COLUMNS)} cartas restantes, "
                     f"repartidas entre seis columnas, dan {_column_length(SIX_COLUMNS)} a cada una."),
        )),
        kind="number", variant=SIX_COLUMNS,
    ),
    "lab-2": Ejercicio(
        "En Baker's Dozen, ¿cuál de estas tres reglas cambia el reparto si la cambias: la de los "
        "huecos (que admitan cualquier carta), la del palo al construir (que dé igual el palo) o "
        "la de los Reyes (que no bajen al fondo de su columna)? Responde «huecos», «palo» o «Reyes», con tu "
        "razón: «…, porque …».",
        ReasonedChoice(_word_inside(tuple(DEAL_RULES), choice_answer(
            _rule_changing_deal, tuple(DEAL_RULES),
            lambda: "Los Reyes bajan al fondo de su columna al repartir: si no bajan, la partida "
                    "empieza de otra manera. Los huecos y el palo solo cuentan al jugar.",
            "Piensa qué regla actúa mientras se reparte, antes del primer movimiento. Puedes "
            "comprobarlo en el laboratorio de Baker's Dozen: la tabla del reparto dice si cambia.",
        )), fewest=1),  # one verb can be the reason: «Reyes, porque bajan»
        kind="choice",
    ),
    "lab-3": Ejercicio(
        f"Si en Baker's Dozen un hueco admitiera cualquier carta, ¿cuántas de las partidas nº 1 a "
        f"{_sample_size()} tendrían solución, comparadas con las que la tienen en la tabla del Baker's Dozen "
        "original: «al menos» esas, «como mucho» esas o «exactamente» esas? Responde antes de cambiar la "
        "regla, con tu razón: «…, porque …».",
        ReasonedChoice(choice_answer(
            _bound_with_any_card, BOUND_WORDS,
            lambda: (f"Un hueco que admite cualquier carta admite también las que admitía antes: cada forma de "
                     f"ganar de las {_sample_won('bakers_dozen')} partidas con solución sigue valiendo, así que "
                     "tienen solución al menos esas. Que sean exactamente esas no se puede asegurar: con más "
                     "movimientos puede ganarse alguna más, y cuántas lo dice la medida."),
            "¿Quita algún movimiento que un hueco admita cualquier carta, o solo añade? Piensa qué pasa con "
            "una partida que ya se gana con la regla original.",
        )),
        kind="choice", variant=ANY_CARD_IN_HOLES,
    ),
    "lab-4": Ejercicio(
        f"En la partida nº {LAB_DEAL}, la cabecera del tablero original de Citadel (8 columnas) dice "
        f"{_header('citadel')} cartas en la base: los 4 Ases, las que van a la base durante el reparto y "
        f"{_autoplayed_words('citadel')} que sube después el juego automático. Sin mover Columnas todavía: "
        "con 4 columnas, ¿cuántas cartas en la base puedes asegurar que dirá la cabecera, como mínimo? "
        "Responde con el número y tu razón: «…, porque …».",
        at_least_answer(
            lambda: 4 + _home_in_deal(FOUR_COLUMNS),
            "¿Qué partes de la cabecera dependen de cuántas columnas haya? Piensa en qué hace falta para "
            "que una carta suba a la base en cuanto sale de la baraja, y en qué mira el juego automático.",
            lambda: (f"Los 4 Ases empiezan en la base, y una carta va a la base al repartirla si su base ya tiene "
                     f"la anterior: eso depende del orden de la baraja, no de la columna donde cae, así que "
                     f"con cuatro columnas van las mismas {_home_in_deal(FOUR_COLUMNS)} durante el reparto. "
                     f"Lo que sube el juego automático depende de las cartas que quedan arriba de las columnas, "
                     f"y eso sí cambia: asegurados, 4 + {_home_in_deal(FOUR_COLUMNS)} = "
                     f"{4 + _home_in_deal(FOUR_COLUMNS)}."),
            above=("Puede que el juego automático suba alguna carta más, pero eso depende de qué cartas "
                   "queden arriba de las columnas; aquí se pregunta cuántas puedes asegurar antes de probar."),
        ),
        kind="number", variant=FOUR_COLUMNS,
    ),
}
