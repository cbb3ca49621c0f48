"""A choice among a few words that cannot be won by trying them all: after a wrong choice, the
right one counts only with its reason written after it («más, porque …»).  The reason is not
graded (no program can read it fairly); asking for it makes the reader think before the next try,
and the explanation that follows a right answer is read against it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

REASON_WORDS = 2
"""The fewest words a reason has («porque ve más cartas»; «porque sí» is not one)."""
_BECAUSE = re.compile(r"[,;:.]?\s*\bporque\b", re.IGNORECASE)


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
        parts = _BECAUSE.split(respuesta, maxsplit=1)
        word, reason = parts[0].strip(), (parts[1].strip() if len(parts) > 1 else "")
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
