"""The exercises of notebook 06 (Citadel frente a Beleaguered Castle) and the answers the
engine and the measurements give them.

Three kinds: a numbered deal the student deals in the try widget and counts in its table at the
two moments («tras el reparto», «tras el juego automático»), and two transfers to games the
notebook has not measured before, each answered by reasoning and measured afterwards with the
paired comparison the lab uses: Citadel with its Aces dealt with the other cards (in how many
orders of four spades the 3 goes home, counted by the engine) and Citadel's deal with ten
columns (how often only the four 2s go home: the exact share).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from ..core.cards import CARDS
from ..core.numbers_es import decimal, parse_number, percent
from ..engine import new_game
from ..study.exact import cards_home_distribution
from ..study.tally import count_deal
from .answers import DirectionOnce, number_answer

if TYPE_CHECKING:
    from ..study.compared import Comparison

ACES_DEALT = "citadel+aces_out=false"
"""Exercise estudio-1: Citadel with its Aces dealt with the other cards (an Ace goes home as it
is dealt), a game notebook 06 measures only after the exercise.  Its 3 needs the Ace, the 2 and
itself in order, as Citadel's 4 needs the 2, the 3 and itself: the page's rule, one card on."""
ACES_DEALT_DEALS = 20_000
ORDERED_SPADES = ("AS", "2S", "3S", "4S")
"""Exercise estudio-1: the four spades whose orders are counted."""
ORDERED_CARD = "3S"
"""Exercise estudio-1: the card asked about."""
DEAL_SEED = 563
"""Exercises estudio-2 and estudio-4: the numbered deal the student deals.  Its count of shortened
columns differs between the two moments, and from the cards sent home at each (a column can lose
two), so neither answer can be read off the widget's line of cards sent home."""
TEN_COLUMNS = "citadel+columns=10"
"""Exercise estudio-3: Citadel's deal with ten columns (a game notebook 06 measures only there)."""
TEN_COLUMNS_DEALS = 20_000
TEN_COLUMNS_SEED = 2026


def orders_sending_home(card: str = ORDERED_CARD, cards: tuple[str, ...] = ORDERED_SPADES,
                        game: str = ACES_DEALT) -> int:
    """In how many of the orders of `cards` (dealt last, every other card before them) the deal
    of `game` (a composed name) sends `card` home: each order is dealt by the engine; the deal's
    report leaves the automatic play out."""
    from ..games.custom import custom_from_name

    definition = custom_from_name(game)
    first = [c.code for c in CARDS if c.code not in cards]
    count = 0
    for order in itertools.permutations(cards):
        report = new_game(definition, deck=first + list(order)).deal_report
        assert report is not None  # Citadel always reports its deal
        count += any(c.code == card for c in report.to_foundations)
    return count


def orders_answer(hint: str) -> DirectionOnce:
    """estudio-1's checker: a count of orders; a probability typed instead («1/6», «1 de cada 6»,
    «0,17», «16,7 %») is told, kindly and without using up the direction, that the question
    counts orders, not how often."""
    total = len(list(itertools.permutations(ORDERED_SPADES)))

    def why() -> str:
        n = orders_sending_home()
        return (f"Con los Ases repartidos, el 2♠ solo está en la base si salió después del A♠, así que el 3♠ "
                f"necesita que el A♠, el 2♠ y el 3♠ salgan en ese orden, y el 4♠ puede salir antes, entre ellos o "
                f"después: {n} órdenes de {total}, uno de cada {total // n}. El motor de reglas ha repartido los "
                f"{total} órdenes y lo confirma. Es lo que le pasaba al 4♥ con los Ases en la base: cada carta "
                "necesita ahora una carta más en orden, el As.")

    count = number_answer(orders_sending_home, hint, why)

    def judge(respuesta: object) -> tuple[bool, str, str, str]:
        if _reads_as(respuesta, total // 2):  # the page's rule copied: the 3 goes when it follows its 2
            return False, (f"Con {total // 2}, el 3♠ iría la mitad de las veces, como en Citadel con los Ases en "
                           "la base, donde solo necesita que el 2♠ salga antes. Con los Ases repartidos, ¿está "
                           "siempre el 2♠ en la base cuando sale el 3♠?"), "", ""
        if not isinstance(respuesta, (str, float)) or isinstance(respuesta, bool):
            return count.judge(respuesta)  # a whole number (or no number) is read as a count
        text = respuesta.strip() if isinstance(respuesta, str) else str(respuesta).replace(".", ",")
        if _FRACTION.match(text) or text.endswith("%") or _below_one(text):
            said = text
            return False, (f"«{said}» es una probabilidad: cuántas veces de cada tanto va el 3♠ a la base. "
                           f"La pregunta pide cuántos órdenes, de los {total}: un número entero."), "", ""
        return count.judge(respuesta)

    return DirectionOnce(judge, hint, tried=2)  # a small count, as estudio-2: after two misses, a guess


def _reads_as(respuesta: object, value: int) -> bool:
    """Whether an answer is the whole number `value` («12», 12, «12,0»)."""
    if isinstance(respuesta, bool) or not isinstance(respuesta, int | float | str):
        return False
    try:
        return (parse_number(respuesta) if isinstance(respuesta, str) else respuesta) == value
    except ValueError:
        return False


def _below_one(text: str) -> bool:
    """Whether an answer reads as a number strictly between 0 and 1 (a probability, not a count)."""
    try:
        return 0 < parse_number(text) < 1
    except ValueError:
        return False


def shortened_after_deal_exercise() -> int:
    """Columns of Citadel's partida n.º `DEAL_SEED` with fewer than six cards when the deal ends."""
    return count_deal(DEAL_SEED).shortened_after_deal


def shortened_why(after_autoplay: bool) -> str:
    """Exercises estudio-2 and estudio-4, after a right answer: columns are counted, not cards."""
    deal = count_deal(DEAL_SEED)
    if not after_autoplay:
        return (f"Cada carta que va a la base durante el reparto deja una columna con una carta menos, pero una "
                f"columna puede perder dos: el reparto manda {deal.home_in_deal} cartas a la base y deja "
                f"{deal.shortened_after_deal} columnas con menos de seis.")
    return (f"El juego automático sube {deal.autoplay} cartas más, las que quedan arriba de una columna y "
            f"encajan en su base: acorta columnas que el reparto había dejado enteras, y ahora son "
            f"{deal.shortened_after_autoplay} las que no llegan a seis.")


def shortened_in_deal_exercise() -> int:
    """Columns of Citadel's partida n.º `DEAL_SEED` with fewer than six cards after the automatic play."""
    return count_deal(DEAL_SEED).shortened_after_autoplay


def only_twos_share() -> Fraction:
    """The exact share of decks whose deal sends home only the four 2s (no 3 follows its 2):
    the same with any number of columns, since the deal's plays depend on the deck's order only."""
    return cards_home_distribution(exact=True)[4]


_FRACTION = re.compile(r"^\s*(\d{1,6})\s*(?:/|de cada|entre)\s*(\d{1,6})\s*$", re.IGNORECASE)


def _share_read(respuesta: object) -> tuple[float, float]:
    """(the share typed, as a fraction of 1; how far from it the typed precision reaches).
    A share is read as a fraction («1/16», «1 de cada 16»), a percentage («6,25 %», or any
    number above 1: «6,25»), or a proportion («0,0625»).  ValueError (Spanish) otherwise."""
    if isinstance(respuesta, bool) or not isinstance(respuesta, int | float | str):
        raise ValueError("la respuesta es un porcentaje, por ejemplo 12,5 %, o una fracción, por ejemplo 1/8.")
    if isinstance(respuesta, str):
        text = respuesta.strip()
        fraction = _FRACTION.match(text)
        if fraction:
            top, bottom = int(fraction[1]), int(fraction[2])
            if bottom == 0:
                raise ValueError(f"«{text}»: una fracción no puede tener 0 abajo.")
            return top / bottom, 0.0
        value = parse_number(text)
        typed = text.rstrip("%").strip()
        decimals = len(re.split(r"[,.]", typed)[-1]) if re.search(r"[,.]\d+$", typed) else 0
        percent_typed = text.endswith("%") or value > 1
    else:
        if isinstance(respuesta, int) and abs(respuesta) > 10**6:  # no float for a huge whole number
            raise ValueError("la respuesta es un porcentaje no tan grande, por ejemplo 12,5 %.")
        value = float(respuesta)
        decimals = 0 if float(value).is_integer() else len(repr(float(value)).split(".")[-1])
        percent_typed = value > 1
    if value != value or abs(value) > 10**6:  # NaN, or too large to be a share
        raise ValueError("la respuesta es un porcentaje no tan grande, por ejemplo 12,5 %.")
    scale = 100 if percent_typed else 1
    return value / scale, 0.5 * 10.0**-decimals / scale


def share_answer(exact: Callable[[], Fraction], hint: str, why: str = "") -> DirectionOnce:
    """An exercise answered with an exact share: right when the share typed is `exact()` («6,25 %»,
    «0,0625», «1/16», «2/32» all answer 1/16).  A share that only rounds to it («6 %», «6,3»: what
    a bar of a plot shows) is told it is close and asked for the exact value, without a
    direction; a wrong answer is told once whether the share is higher or lower
    (`DirectionOnce`), then only `hint`.  `why`, the reason, follows a right answer."""

    def judge(respuesta: object) -> tuple[bool, str, str, str]:
        value, reach = _share_read(respuesta)
        want = float(exact())
        if reach > 0.005:
            return False, "Da el porcentaje con más precisión: al menos en números enteros, por ejemplo 12 %.", "", ""
        if abs(value - want) > 1e-12 and abs(value - want) <= max(reach, 0.0015) + 1e-12:
            return False, "Cerca: ¿cuánto exactamente? Piensa palo a palo.", "", ""
        if abs(value - want) <= 1e-12:
            return True, (f"¡Correcto! Es {percent(want, 2)}, una vez de cada {round(1 / want)}: "
                          f"{decimal(want * 100, 2)} de cada 100 repartos. {why}").rstrip(), "", ""
        said = percent(value, _fewest_decimals(100 * value))
        return False, "", f"es {'más' if value < want else 'menos'} del {said}", f"el {said}"

    return _CloseCounts(judge, hint, tried=2)  # a share read off a bar and refined: two tries are trying


class _CloseCounts(DirectionOnce):
    """`DirectionOnce` where a «Cerca» (a share only rounding to the right one, as a plot's bar or
    the simulation's measure shows it) makes the next right share «found by trying», unless it is
    written as a fraction («1/16»: the count, palo a palo); misses count as usual (every right
    share is told its reason)."""

    close: int = 0  # tries added by «Cerca» answers

    def __call__(self, respuesta: object) -> tuple[bool, str]:
        counted = isinstance(respuesta, str) and _FRACTION.match(respuesta.strip()) is not None
        credit = self.close if counted else 0  # a fraction shows the count, not a refined reading
        self.wrong -= credit
        ok, message = super().__call__(respuesta)
        self.wrong += credit
        if not ok and message.startswith("Cerca"):
            added = max(1, self.tried - self.wrong)
            self.wrong, self.close = self.wrong + added, self.close + added
        return ok, message

    def forget(self) -> None:
        super().forget()
        self.close = 0



def _fewest_decimals(x: float, most: int = 2) -> int:
    """The fewest decimals (up to `most`) that print `x` as rounded to `most`: 12,5, not 12,50."""
    return next(d for d in range(most + 1) if round(x, d) == round(x, most))


@functools.cache
def aces_dealt() -> Comparison:
    """Citadel with its Aces dealt against Citadel, the same decks dealt both ways."""
    from ..study import compare

    return compare(ACES_DEALT, "citadel", n=ACES_DEALT_DEALS, seed=TEN_COLUMNS_SEED)


def aces_dealt_exact() -> Fraction:
    """The exact mean of the cards Citadel with its Aces dealt sends home during the deal, the
    Aces counted: an Ace always, its 2 one time in 2!, …, its King one time in 13!."""
    return 4 * sum((Fraction(1, math.factorial(k)) for k in range(1, 14)), Fraction(0))


@functools.cache
def ten_columns() -> Comparison:
    """Citadel with ten columns against Citadel, the same decks dealt both ways."""
    from ..study import compare

    return compare(TEN_COLUMNS, "citadel", n=TEN_COLUMNS_DEALS, seed=TEN_COLUMNS_SEED)


def ten_columns_home_in_deal() -> tuple[float, float, float]:
    """Cards sent home during the deal with ten columns: (mean, low, high), 95 % interval."""
    return ten_columns().a.figures["home_in_deal"]


def only_twos_measured(which: str = "a") -> tuple[int, int]:
    """In the ten-column comparison (side "a": ten columns, "b": Citadel's eight), how many of
    the decks sent home only the four 2s during the deal, and out of how many."""
    side = ten_columns().a if which == "a" else ten_columns().b
    counts = [int(c) for c in side.deal.home_in_deal]  # a NumPy array or, in the browser, a list
    return counts.count(4), len(counts)
