"""The exercises of the study notebooks 07 (the win-rate atlas) and 08 (the rules lab).

Every right answer is read from data when the answer is checked: the atlas summary
(`atlas.summary.atlas`), the lab's stored sample (`lab_measures`), a deal of a composed game, or
the lab's comparison of two deals; so a rebuilt atlas or sample changes the answers with it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from .answers import Ejercicio, choice_answer, number_answer, range_answer

LAB_DEAL = 1234
"""The deal number the labs of notebook 08 start on."""


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


def _expected(key: str, n: int) -> tuple[int, int]:
    """How many of `n` new deals the entry's 95 % interval expects: its ends times `n`, rounded."""
    e = _entry(key)
    return round(n * e["interval_low"]), round(n * e["interval_high"])


def _expected_why(key: str, n: int, who: str) -> str:
    from ..core.numbers_es import percent

    e = _entry(key)
    low, high = _expected(key, n)
    return (f"el intervalo de confianza del 95 % de {who} va del {percent(e['interval_low'])} al "
            f"{percent(e['interval_high'])}; de {n} partidas, eso son de {low} a {high}, redondeando.")


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


def _home_at_start(name: str) -> int:
    from ..atlas.lab_measures import new_game

    return new_game(_lab_game(name), LAB_DEAL).foundation_cards()


def _same_deal(name: str) -> str:
    from ..atlas import lab_measures as lab_work

    game = _lab_game(name)
    like = _lab_game(name.split("+")[0])
    return "no" if lab_work.same_deal(lab_work.comparison(like, game, n=1_000)) else "sí"


def _sample_won(name: str) -> int:
    from ..atlas import lab_measures as lab_work

    sample = lab_work.solve_sample(_lab_game(name), lab_work.SAMPLE, lab_work.MAX_STATES)
    assert sample is not None  # no stop event: always finishes
    return sample.won


def _sample_size() -> int:
    from ..atlas.lab_measures import SAMPLE

    return SAMPLE


EJERCICIOS_ESTUDIO: dict[str, Ejercicio] = {
    # ------------------------------------------------------------------ 07 · the atlas
    "atlas-1": Ejercicio(
        "Con las reglas de la página, ¿cuántas de 10 partidas nuevas de Citadel esperas que tengan "
        "solución? Usa el intervalo de confianza de la tabla.",
        range_answer(
            lambda: _expected("citadel", 10),
            lambda: _expected_why("citadel", 10, "Citadel (reglas de la página)"),
            "Multiplica por 10 los dos extremos del intervalo de confianza de Citadel (reglas de la página).",
        ),
        kind="number",
    ),
    "atlas-2": Ejercicio(
        "Moving Left con el desplazamiento a la izquierda: de 100 partidas nuevas, ¿cuántas esperas que "
        "gane el jugador que no mira? Escribe tu predicción antes de abrir «Ver lo medido».",
        range_answer(
            lambda: _expected(SHIFT_LEFT_PLAYER, 100),
            lambda: _expected_why(SHIFT_LEFT_PLAYER, 100, "ese jugador"),
            "Abre «Ver lo medido», debajo, y multiplica por 100 los extremos del intervalo de confianza "
            "del jugador que no mira con el desplazamiento a la izquierda.",
        ),
        kind="number", variant=SHIFT_LEFT_PLAYER,
    ),
    "atlas-3": Ejercicio(
        "Imagina Chequers con otra regla: la carta de arriba de la reserva solo rellena huecos y no se "
        "puede jugar a mano. ¿Puede el resolvedor encontrar solución a más partidas que con las reglas "
        "de la página? Responde «sí» o «no».",
        choice_answer(
            lambda: "no", ("sí", "no"),
            lambda: "Esa regla solo quita movimientos: cualquier forma de ganar con ella vale también con "
                    "las reglas de la página. Así que con ella tienen solución las mismas partidas o menos, "
                    "nunca más; es el razonamiento de las devoluciones de Beleaguered Castle, al revés.",
            "Piensa si la regla añade movimientos o los quita, como en la sección de las devoluciones.",
        ),
        kind="choice",
    ),
    # ------------------------------------------------------------------ 08 · the rules lab
    "lab-1": Ejercicio(
        "Beleaguered Castle con seis columnas: ¿cuántas cartas tiene cada columna al empezar la partida?",
        number_answer(
            lambda: _column_length(SIX_COLUMNS),
            "Cuenta las cartas de una columna en el tablero de tu juego, o reparte las 48 cartas que no "
            "son Ases entre seis columnas.",
        ),
        kind="number", variant=SIX_COLUMNS,
    ),
    "lab-2": Ejercicio(
        "Baker's Dozen con huecos para cualquier carta: ¿cambia el reparto? Responde «sí» o «no».",
        choice_answer(
            lambda: _same_deal(ANY_CARD_IN_HOLES), ("sí", "no"),
            lambda: "La regla de los huecos solo cuenta al jugar: las dos versiones dejan las mismas "
                    "cartas en las mismas columnas en cada baraja, y la tabla del reparto sale igual.",
            "Mira la tabla «Qué cambia en el reparto» del laboratorio de Baker's Dozen después de elegir "
            "«Un hueco admite: Cualquier carta».",
        ),
        kind="choice", variant=ANY_CARD_IN_HOLES,
    ),
    "lab-3": Ejercicio(
        f"Baker's Dozen con huecos para cualquier carta: ¿cuántas de las partidas nº 1 a {_sample_size()} "
        "tienen solución según el resolvedor del laboratorio?",
        number_answer(
            lambda: _sample_won(ANY_CARD_IN_HOLES),
            "Pulsa «¿Cuántas se pueden ganar?» en el laboratorio de Baker's Dozen con «Un hueco admite: "
            "Cualquier carta» y lee la columna «tienen solución» de tu juego.",
        ),
        kind="number", variant=ANY_CARD_IN_HOLES,
    ),
    "lab-4": Ejercicio(
        f"Citadel con cuatro columnas: ¿cuántas cartas hay en las bases al empezar la partida nº {LAB_DEAL}?",
        number_answer(
            lambda: _home_at_start(FOUR_COLUMNS),
            f"Pon Columnas en 4 en el laboratorio de Citadel y cuenta las cartas de las bases en el tablero "
            f"de tu juego (partida nº {LAB_DEAL}).",
        ),
        kind="number", variant=FOUR_COLUMNS,
    ),
}
