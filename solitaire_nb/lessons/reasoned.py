"""A choice among a few words that cannot be won by trying them all: after a wrong choice, the
right one counts only with its reason written after it («más, porque …»).  The reason is not
graded (no program can read it fairly); asking for it makes the reader think before the next try,
and the explanation that follows a right answer is read against it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .answers import option_reader

REASON_WORDS = 2
"""The fewest words a reason has («porque ve más cartas»; «porque sí» is not one)."""
# «…, porque …», «… porque …» (no comma) or «…: …» all put the reason after the word
_BECAUSE = re.compile(r"\s*(?:[,;:.]?\s*\bporque\b|[:;])", re.IGNORECASE)


def split_reason(respuesta: str) -> tuple[str, str]:
    """(word, reason) of «más, porque …», «más porque …» or «más: …»; the reason may be empty."""
    parts = _BECAUSE.split(respuesta, maxsplit=1)
    return parts[0].strip(), (parts[1].strip() if len(parts) > 1 else "")


@dataclass(eq=False)
class ReasonedChoice:
    """`choice(respuesta)` -> (right?, message) judges the word; this wrapper remembers a wrong
    choice (per exercise, while the kernel runs) and from then on asks for «…, porque …»."""

    choice: Callable[[object], tuple[bool, str]]
    missed: bool = False

    def peek(self, respuesta: object) -> tuple[bool, str]:
        """(right?, Spanish message) as the next call would give it, without remembering a miss."""
        return self._verdict(respuesta)

    def __call__(self, respuesta: object) -> tuple[bool, str]:
        ok, message = self._verdict(respuesta)
        if not ok and message.startswith("No."):
            self.missed = True
        return ok, message

    def _verdict(self, respuesta: object) -> tuple[bool, str]:
        if not isinstance(respuesta, str):
            return self.choice(respuesta)
        word, reason = split_reason(respuesta)
        ok, message = self.choice(word)
        if not ok:  # a miss (not a word it cannot read) asks to think before the next try
            return ok, message + (" Antes de probar otra respuesta, piensa por qué."
                                  if message.startswith("No.") and not self.missed else "")
        if self.missed and len(reason.split()) < REASON_WORDS:
            return False, ("Después de una respuesta equivocada, escribe también por qué, con tus palabras, "
                           "detrás de tu respuesta: «…, porque …».")
        return ok, message

    def forget(self) -> None:
        """Start again, as a new kernel would: a bare right word counts again."""
        self.missed = False


def reasoned_prediction(options: Sequence[str], after: Callable[[], str]) -> Callable[[object], tuple[bool, str]]:
    """A prediction, not graded: any of `options` («más», «menos», …) with its reason after it is
    taken down (right, so the box lets the reader go on) and told `after()`, where to compare it
    with the measure; a word without a reason is asked for one."""
    read, ask = option_reader(options)

    def check(respuesta: object) -> tuple[bool, str]:
        if not isinstance(respuesta, str):
            return False, ask
        word, reason = split_reason(respuesta)
        chosen = read(word)
        if chosen is None:
            return False, ask
        if len(reason.split()) < REASON_WORDS:
            return False, ("Escribe también por qué, con tus palabras, detrás de tu respuesta: "
                           f"«{chosen}, porque …».")
        return True, f"¡Apuntado! «{chosen}», con tu razón. Una predicción no se corrige: {after()}"

    return check
