"""Notebook 06's class pool: every deal the class deals, once.

Each «Repartir» of a student's try widget sends the deal's number; the pool computes that deal's
counts here, from the number, with the study's own function (`study.tally.count_deal`: what a
page says of them is never read), and keeps every deal number once however many seats deal it.
The class's mean and 95 % interval are `study.mean_ci` (the notebook's own interval function) on
the distinct deals, in the order of their numbers.  The record holds one ``deal`` event per seat
and deal number; the rest (seats, predictions, groups) is `pool_state.Pool`'s.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..atlas.intervals import interval_sentence
from ..core.numbers_es import decimal, thousands
from ..study.tally import DealCounts, count_deal
from . import inbound
from .pool_state import Pool, PoolSeat

#: deal numbers one seat may add: far more than a lesson's minutes allow (5 a student).
DEALS_PER_SEAT = 200
#: points of the interval-narrowing figure (prefixes of the deals, in their arrival order).
HISTORY_POINTS = 60
#: the deal numbers of seat k start at k · SEAT_STRIDE: seats deal different deals.
SEAT_STRIDE = 100


@lru_cache(maxsize=8192)
def counts(number: int) -> DealCounts:
    """The counts of partida n.º `number`, dealt by the engine (cached: many seats deal it)."""
    return count_deal(number)


@dataclass
class DealSeat(PoolSeat):
    deals: list[int] = field(default_factory=list)  # deal numbers, in the order dealt, each once


def figures(values: list[float]) -> dict[str, Any]:
    """n, mean and 95 % interval of `values` by `study.mean_ci` (None for an interval of fewer
    than two deals)."""
    from .. import study

    if not values:
        return {"n": 0, "media": None, "bajo": None, "alto": None}
    mean, low, high = (float(x) for x in study.mean_ci(values))  # type: ignore[arg-type]  # numpy takes a list
    if len(values) < 2 or not (math.isfinite(low) and math.isfinite(high)):
        low = high = None  # type: ignore[assignment]
    return {"n": len(values), "media": mean, "bajo": low, "alto": high}


def class_text(fig: dict[str, Any]) -> str:
    """The class's figure in Spanish, for every student's page."""
    n = fig["n"]
    if not n:
        return "La clase todavía no ha repartido ninguna partida."
    deals = "1 partida distinta" if n == 1 else f"{thousands(n)} partidas distintas"
    head = f"La clase lleva {deals}: de media, Citadel manda {decimal(fig['media'], 2)} cartas a la base durante el reparto"
    if fig["bajo"] is None:
        return head + ". Con una sola partida todavía no hay intervalo."
    return f"{head}; {interval_sentence(fig['bajo'], fig['alto'], rate=False, decimals=2)}."


class LessonPool(Pool):
    """Notebook 06's pool: the deal numbers each seat added (`add_deal`)."""

    KIND, EVENT_ES, ADD_ROUTE = "deal", "reparto", "reparto"
    CSV_COLUMNS = ("partida", "cartas a la base durante el reparto", "cartas que sube el juego automático",
                   "columnas acortadas tras el reparto", "columnas acortadas tras el juego automático")  # fmt: skip
    ROW_COLUMNS = (("partidas", "Partidas sumadas"),)

    def _reset(self) -> None:
        self._arrivals: list[tuple[int, int]] = []  # (seat, deal number), each pair once, in order

    def _seat(self, seat: int, secret: str) -> DealSeat:
        return DealSeat(seat, secret)

    def _forget_seat(self, s: DealSeat) -> None:
        self._arrivals = [(k, n) for k, n in self._arrivals if k != s.seat]
        s.deals.clear()

    def _active(self, s: DealSeat) -> bool:
        return bool(s.deals or s.prediction)

    def _take(self, s: DealSeat, move: str, reason: str = "") -> bool:
        number = inbound.deal_number(int(move))
        if number in s.deals:
            return False
        counts(number)  # a number the engine cannot deal is refused before anything changes
        s.deals.append(number)
        self._arrivals.append((s.seat, number))
        return True

    def add_deal(self, secret: Any, number: Any) -> dict[str, Any]:
        """Add partida n.º `number` dealt by the page holding `secret` (recorded before this
        returns); a number this seat had added already changes nothing.  The answer says
        whether it was new to the class and gives the class's figure."""
        s = self.seat_of(secret)
        number = inbound.deal_number(number)
        if number not in s.deals and len(s.deals) >= DEALS_PER_SEAT:
            raise ValueError(f"Cada asiento suma como mucho {DEALS_PER_SEAT} partidas a la clase; esta no se ha sumado.")
        already = number in self.distinct()
        recorded = self.recording
        if self._take(s, str(number)):
            recorded = self._add(s.seat, "deal", str(number))
            self.version += 1
        return self.answer(s, recorded, nueva=not already)

    def add(self, secret: Any, body: dict[str, Any]) -> dict[str, Any]:
        """What the students' route sends (`ADD_ROUTE`)."""
        return self.add_deal(secret, body.get("partida"))

    def distinct(self) -> dict[int, None]:
        """The distinct deal numbers of the class, in the order they first arrived."""
        return dict.fromkeys(number for _, number in self._arrivals)

    def values(self, what: str = "home_in_deal") -> list[float]:
        """A `DealCounts` figure of every distinct deal, in the order of their numbers."""
        return [float(getattr(counts(n), what)) for n in sorted(self.distinct())]

    def figure(self) -> dict[str, Any]:
        fig = figures(self.values())
        return {**fig, "texto": class_text(fig)}

    def _seat_state(self, s: DealSeat) -> dict[str, Any]:
        return {"inicio": s.seat * SEAT_STRIDE, "mias": list(s.deals)}

    def _seat_row(self, s: DealSeat) -> dict[str, Any]:
        return {"partidas": len(s.deals)}

    def history(self) -> list[dict[str, Any]]:
        """The class's interval as the deals arrived: one point per prefix (at most
        `HISTORY_POINTS`, the last one the whole pool)."""
        order = list(self.distinct())
        n = len(order)
        if n < 2:
            return []
        step = max(1, math.ceil((n - 1) / HISTORY_POINTS))
        ends = sorted({*range(2, n + 1, step), n})
        home = {k: float(counts(k).home_in_deal) for k in order}
        return [figures([home[k] for k in sorted(order[:m])]) for m in ends]

    def histogram(self) -> list[list[Any]]:
        """[cards home during the deal, distinct deals] from 4 to at least 12."""
        tally = Counter(int(v) for v in self.values())
        top = max([12, *tally])
        return [[k, tally.get(k, 0)] for k in range(4, top + 1)]

    def _lesson_view(self) -> dict[str, Any]:
        return {"historia": self.history(), "histograma": self.histogram(), "partidas": sorted(self.distinct())}

    def _csv_cells(self, move: str, reason: str) -> list[Any]:
        c = counts(inbound.deal_number(int(move)))
        return [move, c.home_in_deal, c.autoplay, c.shortened_after_deal, c.shortened_after_autoplay]
