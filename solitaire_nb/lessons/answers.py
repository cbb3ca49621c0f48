"""How the exercises read and check an answer, one checker per kind of exercise.

An `Ejercicio` pairs a Spanish question with a checker returning (right?, Spanish message).
The kinds: a set of cards (`card_answers.set_of_cards`), a number (`number_answer`; `interval_answer` for a
measured figure, any value inside its interval is right; `expected_answer` for an expected
value, a mean read from an interval), all read by `read_number` («8», «8,5», «8 cartas») and
telling «más» or «menos» once only (`DirectionOnce`: no bisecting), a word out of a few
(`choice_answer`); answers given as moves are checked by `move_answers`.  Answers are read
leniently («5 de picas y 2♥», «cinco de picas»); what cannot be read is a Spanish `ValueError`,
which the caller turns into a hint.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ..core.cards import Card
from ..core.checks import ANSWER_MAX, check_length, shown
from ..core.numbers_es import decimal, interval_decimals
from ..core.texts import joined
from ..engine import Game
from ..games import GAMES
from .card_names import CARDS_EXAMPLE, read_cards
from .number_words import _EXPLAINED, _LEADING_NUMBER, figures_for_words, read_number


# ---------------------------------------------------------------------- reading answers
def _cards(respuesta: object) -> list[Card]:
    """Read the cards of an answer: a text («5 de picas y el 2♥», «5S 2H») or a list of them
    (`card_names.read_cards`); ValueError with a plain Spanish reason."""
    if isinstance(respuesta, str):  # also what a reader types in a box: ["7S", "9S"]
        check_length(respuesta, ANSWER_MAX, "el texto")
        return read_cards(respuesta)
    if isinstance(respuesta, int) and not isinstance(respuesta, bool) and 2 <= respuesta <= 10:
        return read_cards(str(respuesta))  # «5» typed in a box: told that it lacks its suit
    if isinstance(respuesta, Iterable):
        cards: list[Card] = []
        for item in _items(respuesta):
            if isinstance(item, Card):
                cards.append(item)
            elif isinstance(item, str):
                cards.extend(_cards(item))
            else:
                raise ValueError(f"{shown(item)} no es una carta. {CARDS_EXAMPLE}")
        return cards
    raise ValueError(f"la respuesta son cartas. {CARDS_EXAMPLE}")


def _items(respuesta: Iterable) -> list:
    """The items of an answer given as a list, read to at most `ANSWER_MAX` (an endless
    iterator is refused, not followed)."""
    try:
        items = list(islice(respuesta, ANSWER_MAX + 1))
    except TypeError:  # iterable in name only (a 0-d array, an object whose __iter__ fails)
        raise ValueError("la respuesta no es una lista que se pueda leer") from None
    if len(items) > ANSWER_MAX:
        raise ValueError(f"la respuesta tiene más de {ANSWER_MAX} elementos")
    return items


# «no sé», «ni idea», «?», also after «porque» or «es que» («porque no sé»: still not an answer)
_DONT_KNOW = re.compile(r"\s*(?:(?:porque|pues|es\s+que)\s+)?(no\s+(lo\s+)?s[eé]|(no\s+tengo\s+)?ni\s+idea|ayuda|pista|\?+)?"
                        r"\s*[.!¿?]*\s*", re.IGNORECASE)
DONT_KNOW_LEAD = "No pasa nada: aquí tienes una pista."


def dont_know(respuesta: object) -> bool:
    """Whether an answer says the reader does not know («no sé», «porque no sé», «ni idea», «?», nothing): it is
    answered with the exercise's hint, not read as an answer."""
    return isinstance(respuesta, str) and _DONT_KNOW.fullmatch(respuesta) is not None


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
    """How it is answered: "cards" (a set of cards), "number", "choice" (a word such as «sí» or
    «no»), or "board" (moves played from `start`, on a board or typed)."""
    start: Callable[[], Game] | None = None
    """The position the exercise asks about, if it has one."""
    deal: tuple[str, int] | None = None
    """The numbered deal the exercise asks about, if any: (game, number)."""
    variant: str | None = None
    """The game or variant the exercise transfers to, if it is one its notebook has not measured
    before it: a composed name (`custom.custom_from_name` reads it, e.g. "citadel+columns=10"),
    or, for a player or variant only the win-rate atlas measures, the key of its atlas row
    (e.g. "moving_left_desplazar_jugador")."""

    @property
    def position(self) -> str | None:
        """The exercise's position in a line a teacher reads ("Tablero 1: 5♥ J♣ · Reserva: 2♦
        K♠"), or its numbered deal ("partida n.º 1234 de Citadel"); None if it has neither."""
        if self.start is not None:
            g = self.start()
            return " · ".join(
                f"{g.label(p)}: {' '.join(str(c) for c in g.piles[p])}" for p in g.pile_ids if g.piles[p]
            )
        if self.deal is not None:
            name, seed = self.deal
            return f"partida n.º {seed} de {GAMES[name].display_name}"
        return None


def _count(verb: str, n: int) -> str:
    """«falta 1 carta», «sobran 2 cartas»."""
    return f"{verb}{'' if n == 1 else 'n'} {n} carta{'' if n == 1 else 's'}"


class RemembersTries:
    """A checker that remembers, per exercise while the kernel runs, what a reader has tried
    (`DirectionOnce`, `card_answers.CardSet`, `reasoned.ReasonedChoice`, …): its `_verdict(respuesta)`
    gives (right?, message, what a call remembers); `peek` judges as the next call would,
    remembering nothing; `forget` starts again, as a new kernel would."""

    def _verdict(self, respuesta: object) -> tuple[bool, str, Any]:
        raise NotImplementedError

    def peek(self, respuesta: object) -> tuple[bool, str]:
        """(right?, Spanish message) as the next call would give it, without remembering anything."""
        return self._verdict(respuesta)[:2]

    def forget(self) -> None:
        raise NotImplementedError


@dataclass(eq=False)
class DirectionOnce(RemembersTries):
    """A number checker that tells whether the answer is higher or lower **once** (per exercise,
    while the kernel runs): every later wrong answer gets only `hint`, what to look at on the page
    or think about, never the direction again, so an answer cannot be found by halving the range.

    `judge(respuesta)` returns (right?, message, direction, said): a right answer, or one that is
    wrong in another way (a decimal where a count is asked, a rate where a count is asked), has
    its whole `message`; an answer that is just too high or too low has the `direction` sentence
    («son más de 5») and the number as the reader wrote it (`said`).

    `then`, if given, replaces `hint` once the direction is told: for a count with few possible
    values, it asks the reader to name what is counted, so the last values are not tried in turn.
    After `patience` wrong numbers nothing new is said: the reader is sent back to the hint, or to
    the teacher, so a small range cannot be tried through."""

    judge: Callable[[object], tuple[bool, str, str, str]]
    hint: str
    told: bool = False
    then: str = ""
    patience: int = 3
    wrong: int = 0
    tried: int = 0  # wrong numbers after which a right one was reached by trying (0: `patience`)

    def __call__(self, respuesta: object) -> tuple[bool, str]:
        ok, message, missed = self._verdict(respuesta)
        if missed:  # a number just too high or too low: the direction is told, the try counted
            self.told, self.wrong = True, self.wrong + 1
        return ok, message

    def _verdict(self, respuesta: object) -> tuple[bool, str, bool]:
        ok, message, direction, said = self.judge(respuesta)
        if ok and self.wrong >= (self.tried or self.patience) and message.startswith("¡Correcto! "):
            # reached by trying numbers: the number is accepted, and the reason is what to read
            return ok, f"Ese es el número, pero has llegado a él probando. Lee por qué lo es.{message[len('¡Correcto!'):]}", False
        if ok or not direction:
            return ok, message, False
        if self.wrong >= self.patience:
            return False, (f"No, {said} tampoco. Ya has probado {self.wrong + 1} números: probar más no te va "
                           "a ayudar. Vuelve a contar con la pista de antes y, si no te sale, pregúntale a tu "
                           "profesor o profesora."), True
        if self.told:
            return False, f"No, {said} tampoco. {self.then or self.hint}", True
        return False, f"No: {direction}. {self.hint}", True

    def forget(self) -> None:
        """Start again, as a new kernel would: the next wrong answer is told its direction."""
        self.told = False
        self.wrong = 0


# Counts up to here: one «más/menos» and a second miss leave a handful of values, so a right third
# number is a guess
SMALL_COUNT = 10


def _cards_named(respuesta: object, suit: str) -> set[str] | str | None:
    """The cards named after a number («2 (el 4 y el 5)», «2: …»), a rank alone read with `suit`
    («de tréboles»): their codes, or why they cannot be read; None if none is named."""
    said = _EXPLAINED.fullmatch(respuesta) if isinstance(respuesta, str) else None
    if said is None or not _LEADING_NUMBER.fullmatch(figures_for_words(said.group(1))):
        return None
    named, given, reason = said.string[said.end(1):].strip(" .!():"), None, ""
    for text in (named, f"{named} {suit}") if suit else (named,):
        try:
            given = given or {c.code for c in read_cards(text)}
        except ValueError as exc:
            reason = str(exc)
    return reason if given is None else given or None


def _named_after(respuesta: object, counted: Sequence[str], suit: str) -> str | None:
    """What is wrong with the cards a right count names after it (`_cards_named`); None if they
    are `counted` or none is named."""
    given, lead = _cards_named(respuesta, suit), "El número es correcto, pero"
    if isinstance(given, str):
        return f"{lead} no entiendo las cartas que nombras detrás: {given} También vale el número solo."
    if not given:
        return None
    extra, missing = len(given - set(counted)), len(set(counted) - given)
    told = " y ".join(([f"{extra} de ellas no cuenta{'' if extra == 1 else 'n'}"] if extra else [])
                      + ([_count("falta", missing)] if missing else []))
    return f"{lead} las cartas que nombras no son las que cuentan: {told}." if told else None


def number_answer(correct: Callable[[], int], hint: str, why: Callable[[], str] | None = None,
                  then: str = "", counted: Callable[[], Sequence[str]] | None = None, suit: str = "") -> DirectionOnce:
    """A count: right when the number read (`read_number`: «8», «8 cartas») is `correct()`; a
    right answer is told `why()`, if given; `then` is `DirectionOnce.then`.  A count up to
    `SMALL_COUNT` is reached by trying after two misses (`DirectionOnce.tried`), unless it names
    the cards counted, as `then` asks.  Cards named after a right number must be `counted()`
    (`_named_after`)."""

    def judge(respuesta: object) -> tuple[bool, str, str, str]:
        x = read_number(respuesta, count=True)
        if not x.is_integer():
            return False, (f"Aquí se cuenta: la respuesta es un número entero, sin decimales, y "
                           f"{decimal(x, _typed_decimals(respuesta))} no lo es. {hint}"), "", ""
        if x < 0:  # not a count: told so, without the direction
            return False, f"Aquí se cuenta, y una cuenta no es negativa: {decimal(x, 0)} no puede ser. {hint}", "", ""
        want = correct()
        checker.tried = 2 if want <= SMALL_COUNT else 0  # few values: after two misses the third is a guess
        if x == want and counted is not None and (named := _named_after(respuesta, counted(), suit)):
            return False, named, "", ""
        if x == want and counted is not None and _cards_named(respuesta, suit):
            # the counted cards named, as the hint asks after two misses: counted, not tried
            checker.tried = sys.maxsize
        if x == want:
            return True, "¡Correcto!" + (f" {why()}" if why is not None else ""), "", ""
        said = decimal(x, 0)
        return False, "", f"son {'más' if x < want else 'menos'} de {said}", said

    checker = DirectionOnce(judge, hint, then=then)
    return checker


def expected_answer(bounds: Callable[[], tuple[float, float]], why: Callable[[], str], hint: str,
                    out_of: int) -> DirectionOnce:
    """An expected count of `out_of` games (a mean, not the count of one batch): ``bounds()`` gives
    the ends of its 95 % interval as the page lets a reader compute them, and a
    number is right when it lies between them («21», «21,5» or «20,96» for 20,5 – 22,2).  A right answer is told
    `why()`, or, after two misses, that it was reached by trying (`DirectionOnce.tried`).  A rate
    («85 %», «0,85») or a number above `out_of` is told, kindly, that the question asks how many
    games of `out_of`; neither uses up the direction."""

    def judge(respuesta: object) -> tuple[bool, str, str, str]:
        x = read_number(respuesta)
        said = decimal(x, _typed_decimals(respuesta))
        typed_percent = _typed_percent(respuesta)
        if typed_percent or 0 < x < 1:
            rate = said if typed_percent else decimal(100 * x, max(_typed_decimals(respuesta) - 2, 0))
            return False, (f"{said}{' %' if typed_percent else ''} es una proporción, no un número de "
                           f"partidas. La pregunta pide cuántas de las {out_of}: ¿cuántas partidas son el "
                           f"{rate} % de {out_of}?"), "", ""
        if x > out_of:
            if x > 100:
                return False, f"De {out_of} partidas no pueden salir {said}. {hint}", "", ""
            return False, (f"De {out_of} partidas no pueden salir {said}. Si {said} es un porcentaje, la "
                           f"pregunta pide cuántas de las {out_of}: ¿cuántas partidas son el {said} % de "
                           f"{out_of}?"), "", ""
        lo, hi = bounds()
        if lo - 1e-9 <= x <= hi + 1e-9:
            return True, f"¡Correcto! {said} es una buena respuesta. {why()}", "", ""
        return False, "", f"de media son {'más' if x < lo else 'menos'} de {said}", said

    return DirectionOnce(judge, hint, tried=2)  # halving a range of 25: two misses make it trying


def interval_answer(measure: Callable[[], tuple[float, float, float]], unit: str, hint: str) -> DirectionOnce:
    """An exercise answered with a measured figure: `measure()` gives (mean, low, high), and any
    value inside the interval, as printed, is right; the verdict says so.  A wrong answer is told
    once whether the measure is higher or lower, never the interval."""

    def judge(respuesta: object) -> tuple[bool, str, str, str]:
        x = read_number(respuesta)
        mean, low, high = measure()
        d = interval_decimals(mean, low, high)
        lo, hi = round(low, d), round(high, d)
        said = decimal(x, _typed_decimals(respuesta))
        if lo <= round(x, d) <= hi:  # any value that prints inside the printed interval
            return True, (f"¡Correcto! {said} está dentro del intervalo medido, de {decimal(lo, d)} a "
                          f"{decimal(hi, d)} {unit}: cualquier valor de ese intervalo es una respuesta correcta."), "", ""
        return False, "", f"lo medido es {'más alto' if x < lo else 'más bajo'} que {said}", said

    return DirectionOnce(judge, f"Vale cualquier valor dentro del intervalo de confianza del 95 % de la medida. {hint}")


def _typed_percent(respuesta: object) -> bool:
    """Whether a reader wrote their number as a percentage («85 %»)."""
    found = _LEADING_NUMBER.fullmatch(respuesta) if isinstance(respuesta, str) else None
    return bool(found and found.group(2))


def _typed_decimals(respuesta: object) -> int:
    """How many decimals a reader typed, to say their number back as they wrote it."""
    text = str(respuesta).strip()
    found = _LEADING_NUMBER.fullmatch(text) if isinstance(respuesta, str) else None
    text = found.group(1) if found else text.rstrip("%").strip()
    if "," in text:
        return len(text.rsplit(",", 1)[1])
    if "." in text and not re.fullmatch(r"[+\-−]?[1-9]\d{0,2}(\.\d{3})+", text):  # not a thousands point
        return len(text.rsplit(".", 1)[1])
    return 0


def _plain_word(text: str) -> str:
    import unicodedata

    word = unicodedata.normalize("NFD", text.strip().lower())
    return re.sub(r"[^a-z ]", "", "".join(c for c in word if not unicodedata.combining(c))).strip()


# Words around an option that do not change it: «la de los Reyes», «la regla del palo».
_FILLER = frozenset({"el", "la", "los", "las", "lo", "de", "del", "regla"})


def _core_words(text: str) -> str:
    return " ".join(w for w in _plain_word(text).split() if w not in _FILLER)


def option_reader(options: Sequence[str]) -> tuple[Callable[[str], str | None], str]:
    """(read, ask): `read(text)` is the option a text names, read without accents, capitals or
    the articles around it, or None; `ask` is the Spanish sentence listing the options."""
    plain = {_plain_word(o): o for o in options}
    core = {_core_words(o): o for o in options}
    if len(core) == len(options):  # options that differ only in their articles are read whole
        plain = {**core, **plain}
    quoted = [f"«{o}»" for o in options]
    listed = joined(quoted, "o")
    one = "una palabra" if all(" " not in o for o in options) else "una de estas respuestas"

    def read(text: str) -> str | None:
        return plain.get(_plain_word(text)) or plain.get(_core_words(text))

    return read, f"Responde con {one}: {listed}."


def choice_answer(correct: Callable[[], str], options: Sequence[str], why: Callable[[], str], hint: str) -> Callable:
    """An answer chosen among a few words (`options`, e.g. «sí», «no»), read without accents or
    capitals, and without the articles and «regla» around it («la de los Reyes» is «Reyes»);
    `correct()` is the right one.  A right answer is told why."""
    read, ask = option_reader(options)

    def check(respuesta: object) -> tuple[bool, str]:
        if not isinstance(respuesta, str):
            return False, ask
        chosen = read(respuesta)
        if chosen is None:
            return False, ask
        if chosen == correct():
            return True, f"¡Correcto! {why()}"
        return False, f"No. {hint}"

    return check
