"""The exercises answered with a set of cards: how an answer is judged (`set_of_cards`), and
how a set fished one card a try is noticed (`CardSet`), as the number checkers notice a value
found by trying («más / menos» walked through).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core.cards import Card
from ..core.checks import shown
from ..core.texts import capitalize
from .answers import RemembersTries, _cards, _count
from .card_names import read_group

NONE_FITS = "No: alguna carta sí vale. Piensa en la regla y compruébala con cada carta."
ALL_FIT = "No: no valen todas. Piensa en la regla y escribe solo las que valen, cada una con su palo."


def _words(respuesta: object, want: set[str], none_hint: str, all_hint: str = ALL_FIT) -> tuple[bool, str] | None:
    """The verdict on an answer in words instead of cards («ninguna», «todas», «los 9»), if it is
    one; None when the answer is cards, or not understood (then `_cards` says why)."""
    if not isinstance(respuesta, str):
        return None
    try:
        _cards(respuesta)
        return None
    except ValueError:
        said = read_group(respuesta)
    if said is None:
        return None
    kind, part = said
    if kind == "none":
        return (True, "¡Correcto!") if not want else (False, none_hint)
    if kind == "all":
        return False, all_hint
    # a group may hold right and wrong cards: no verdict on it, which would tell about the answer
    return False, f"Escribe cada carta con su palo, una a una, en lugar de «{shown(part, raw=True)}»."


ONE_OF_MORE = "La carta que has escrito vale, pero no es la única: sigue buscando con la regla."
"""What one right card of a larger set is told: no count, which would give away the answer's size."""


def set_of_cards(
    correct: Callable[[], Sequence[str]], explain: Callable[[Card], str | None], praise: Callable[[], str] | None = None,
    none_hint: str = NONE_FITS, all_hint: str = ALL_FIT,
) -> CardSet:
    """An exercise answered with a set of cards; `explain(card)` says why a card is wrong; `praise()`,
    if given, follows «¡Correcto!» (the explanation a reader gets only after answering);
    `none_hint` answers «ninguna» and `all_hint` «todas» (no card named: they must not name one).
    The checker is a `CardSet`: it notices a set fished one card a try."""

    def check(respuesta: object) -> tuple[bool, str]:
        want = set(correct())
        words = _words(respuesta, want, none_hint, all_hint)
        if words is not None:
            return words
        given = {c.code for c in _cards(respuesta)}
        if given == want:
            return True, "¡Correcto!" + (f" {praise()}" if praise is not None else "")
        extra, missing = given - want, want - given
        if len(given) == 1 and extra:  # the reader asked about this one card: the rule that refuses it
            card = Card.parse(next(iter(extra)))
            return False, f"{capitalize(card.articulo)} no vale. {explain(card) or ''}".strip()
        # counts, never which card: naming the wrong one would let a list be fished one card a try
        if not extra and len(given) == 1:  # no count: it would tell how many cards the answer has
            return False, ONE_OF_MORE
        if not extra:
            return False, f"Las cartas que has escrito valen, pero {_count('falta', len(missing))}."
        told = _count("sobra", len(extra)) + (f" y {_count('falta', len(missing))}" if missing else "")
        return False, f"{capitalize(told)}. Repasa la regla y comprueba cada carta con ella."

    return CardSet(check)


TRIED = ("Esa es la carta, pero has llegado a ella probando una a una.",
         "Esas son las cartas, pero has llegado a ellas probando una a una.")
"""What a right set is told after `CardSet.patience` wrong answers of one card each."""
REREAD = ("Vuelve a la regla de la lección de la que habla la pregunta y comprueba con ella por qué vale esa "
          "carta y ninguna más.",
          "Vuelve a la regla de la lección de la que habla la pregunta y comprueba con ella por qué valen esas "
          "cartas y ninguna más.")
"""What follows `TRIED` when the exercise has no explanation of its own to read."""


@dataclass(eq=False)
class CardSet(RemembersTries):
    """A card-set checker that notices an answer fished one card a try: after `patience` wrong
    answers that each name one card, a different one each time (refused, or right but not the
    whole set), the right set is accepted and told it was reached by trying, with its explanation
    (`set_of_cards`' praise) or, without one, the rule to read again.  Answers naming several
    cards are not counted: a reader correcting a list is not trying cards.  `peek` judges
    without counting; `forget` starts again, as a new kernel would."""

    check: Callable[[object], tuple[bool, str]]
    patience: int = 3
    tried: set[str] = field(default_factory=set)

    def __call__(self, respuesta: object) -> tuple[bool, str]:
        ok, message, missed = self._verdict(respuesta)
        if missed:
            self.tried.add(missed)
        return ok, message

    def forget(self) -> None:
        self.tried.clear()

    def _verdict(self, respuesta: object) -> tuple[bool, str, str]:
        """(right?, message, the one card of a wrong answer naming one card, or "")."""
        ok, message = self.check(respuesta)
        try:
            named = sorted({c.code for c in _cards(respuesta)})
        except ValueError:  # words («ninguna») or not cards: the checker has said why
            named = []
        if ok and named and len(self.tried) >= self.patience and message.startswith("¡Correcto!"):
            praise, many = message[len("¡Correcto!"):].strip(), len(named) > 1
            why = f"Lee por qué lo {'son' if many else 'es'}: {praise}" if praise else REREAD[many]
            return ok, f"{TRIED[many]} {why}", ""
        return ok, message, named[0] if not ok and len(named) == 1 else ""
