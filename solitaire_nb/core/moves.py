"""Moves as value types written in the rules document's notation (docs/reglas.md) (``T3>F0``, ``T2>T7x3``, ``S>W``).

These are 0-based pile ids as in the rules document, for the Python API; learners read and
type the board's labels («T4 B1»), which only `solitaire_nb.games.notation` writes and reads."""

from __future__ import annotations

import re
from typing import NamedTuple

from .checks import MOVE_TEXT_MAX, shown

# ASCII digits, a few of them: pile ids and counts stay small numbers (no thousand-digit int)
_MOVE_RE = re.compile(r"^\s*([A-Z][0-9]{0,3})\s*>\s*([A-Z][0-9]{0,3})\s*(?:[xX]([0-9]{1,4}))?\s*$")


class Move(NamedTuple):
    """A player's move: `n_cards` cards from pile `src` to pile `dst`."""

    src: str
    dst: str
    n_cards: int = 1

    def __str__(self) -> str:
        """``T3>F0``: 0-based pile ids as in the rules document; learners use solitaire_nb.games.notation."""
        return f"{self.src}>{self.dst}" + (f"x{self.n_cards}" if self.n_cards != 1 else "")

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """Read ``"T3>F0"``, ``"T2>T7x3"`` or ``"S>W"`` (``x1`` is accepted); ValueError otherwise.

        0-based pile ids as in the rules document; learners use solitaire_nb.games.notation."""
        if isinstance(text, Move):
            return text
        ok = isinstance(text, str) and len(text) <= MOVE_TEXT_MAX and text.isascii()
        m = _MOVE_RE.match(text.upper()) if ok else None  # length first: the pattern backtracks
        if not m or (m.group(3) is not None and int(m.group(3)) < 1):
            raise ValueError(f"Movimiento no válido: {shown(text)} (se escribe como 'T3>F0' o 'T2>T7x3')")
        return cls(m.group(1), m.group(2), int(m.group(3) or 1))


class IllegalMove(ValueError):
    """A move the rules refuse; `.reason` is the Spanish explanation, `.rule` the id in docs/reglas.md."""

    def __init__(self, reason: str, rule: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
