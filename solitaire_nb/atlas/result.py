"""The result of a win-rate study (`WinRate`) and how a reader sees it, in Spanish.

With n deals solved, w won and u unknown: ``rate`` = w / n (unknowns counted lost, as Blake &
Gent's headline figures do), ``rate_high`` = (w + u) / n (counted won), ``rate_decided`` =
w / (n - u); ``interval`` is the bracketed 95 % interval (`intervals.bracketed_interval`).
With a player instead of the solver, "won" means the player won the deal and "lost" that it
did not (there are no unknowns).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..core.numbers_es import percent
from .arguments import study_game
from .intervals import bracketed_interval
from .records import DealRecord

STATUS_ES = {"won": "tiene solución", "lost": "no tiene solución", "unknown": "sin decidir"}
"""A solver's verdict on one deal, as a reader reads it."""
PLAYER_STATUS_ES = {"won": "ganada", "lost": "perdida", "unknown": "sin decidir"}
"""A player's result on one deal, as a reader reads it."""


def _pct(x: float) -> str:
    return percent(x, 1)


@dataclass
class WinRate:
    """The result of a study: counts, rates, the bracketed 95% interval and the records."""

    name: str
    variant: dict[str, bool]
    time_limit: float | None
    max_states: int | None
    records: list[DealRecord] = field(default_factory=list)
    player: str | None = None
    """The player who played the deals (a name in `solitaire_nb.players.player.PLAYERS`), or None
    for the solver."""

    def _count(self, status: str) -> int:
        return sum(1 for r in self.records if r.status == status)

    @property
    def won(self) -> int:
        return self._count("won")

    @property
    def lost(self) -> int:
        return self._count("lost")

    @property
    def unknown(self) -> int:
        return self._count("unknown")

    @property
    def total(self) -> int:
        return len(self.records)

    @property
    def decided(self) -> int:
        return self.total - self.unknown

    @property
    def rate(self) -> float:
        """won / total: the unknowns counted as lost (Blake & Gent's convention)."""
        return self.won / self.total if self.total else math.nan

    @property
    def rate_high(self) -> float:
        """(won + unknown) / total: the unknowns counted as won."""
        return (self.won + self.unknown) / self.total if self.total else math.nan

    @property
    def rate_decided(self) -> float:
        """won / decided: the rate among the deals the solver decided."""
        return self.won / self.decided if self.decided else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval (fractions) with the unknowns bracketed; `intervals.bracketed_interval`."""
        return bracketed_interval(self.won, self.unknown, self.total)

    def by_deal(self) -> dict[int, DealRecord]:
        return {r.deal: r for r in self.records}

    def summary(self) -> dict[str, Any]:
        """Plain data for JSON files (rates and interval as fractions)."""
        low, high = self.interval
        deals = [r.deal for r in self.records]
        return {
            "game": self.name,
            "variant": dict(self.variant),
            "time_limit": self.time_limit,
            "max_states": self.max_states,
            "player": self.player,
            "deals": self.total,
            "first_deal": min(deals) if deals else None,
            "last_deal": max(deals) if deals else None,
            "won": self.won,
            "lost": self.lost,
            "unknown": self.unknown,
            "rate": self.rate if self.total else None,
            "rate_high": self.rate_high if self.total else None,
            "rate_decided": self.rate_decided if self.decided else None,
            "interval_low": low,
            "interval_high": high,
            "seconds": sum(r.seconds for r in self.records),
        }

    def texto(self) -> str:
        """A Spanish sentence for a reader."""
        if not self.total:
            return "Ninguna partida resuelta todavía."
        low, high = self.interval
        name = study_game(self.name).display_name
        if self.player is not None:
            from ..players.player import PLAYERS

            who = PLAYERS[self.player].display_name if self.player in PLAYERS else self.player
            return (
                f"{name}: el jugador «{who}», que no ve las cartas boca abajo, gana {self.won} de "
                f"{self.total} {'partida' if self.total == 1 else 'partidas'} ({_pct(self.rate)}); "
                f"intervalo de confianza del 95 %: {_pct(low)} – {_pct(high)}."
            )
        won = ("partida" if self.total == 1 else "partidas") + (" tiene" if self.won == 1 else " tienen")
        lost = "tiene" if self.lost == 1 else "tienen"
        unknown = "queda" if self.unknown == 1 else "quedan"
        return (
            f"{name}: {self.won} de {self.total} {won} solución ({_pct(self.rate)}), "
            f"{self.lost} no {lost} solución y {self.unknown} {unknown} sin decidir; "
            f"intervalo de confianza del 95 %: {_pct(low)} – {_pct(high)}."
        )

    def __str__(self) -> str:
        return self.texto()
