"""Notebook 08's class pool: each pair's «Inventa tu juego» in one class table.

A pair's lab sends its composed game (its name, as `games.custom` writes it), the name the pair
gave it, and the solver's counts on deals 1 to `lab_sample.SAMPLE` of that game and of the
original (with solution, without, undecided).  The game is composed again here (a name that does
not compose is refused) and, when the package stores that game's sample, the counts must be the
stored ones; the launcher does not solve the rest again (fifteen compositions would take its
processor from the class).  One row per seat (a pair shares a computer): its last game sent,
with the interval that counts undecided deals lost at its low end and won at its high end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..atlas.lab_sample import MAX_STATES, SAMPLE, cached_sample
from ..core.checks import shown
from ..core.numbers_es import thousands
from ..games import GAMES, custom
from . import inbound
from .pool_play import range_cell
from .pool_state import Pool, PoolSeat

HEADS = ["Pareja", "Su juego", "Qué cambia", "Con solución", "Sin solución", "Sin decidir", "Intervalo del 95 %",
         "El original, mismas partidas"]  # fmt: skip


def _counts(value: Any, what: str) -> tuple[int, int, int]:
    if (not isinstance(value, list) or len(value) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):  # fmt: skip
        raise inbound.BadRequest(f"{what} deben ser tres números enteros: con solución, sin solución y sin decidir.",
                                 "unas cuentas no válidas")  # fmt: skip
    if sum(value) != SAMPLE:
        raise ValueError(f"{what} deben sumar las {SAMPLE} partidas de la muestra, no {thousands(sum(value))}.")
    return value[0], value[1], value[2]


def checked(body: dict[str, Any]) -> dict[str, Any]:
    """A pair's result as the record keeps it (``juego``, ``nombre``, ``cuentas``, ``original``);
    Spanish ValueError, nothing kept, when it is not one."""
    text = inbound.text_field(body.get("juego"), "El juego", 400)
    try:
        game = custom.custom_from_name(text)
    except ValueError as exc:
        raise ValueError(f"Ese juego no se puede componer: {exc}.") from None
    if game.spec is None or not game.spec["changes"]:
        raise ValueError("Ese juego no cambia ninguna regla: cambia alguna en el laboratorio antes de mandarlo.")
    base = GAMES[game.spec["like"]]
    mine, original = _counts(body.get("cuentas"), "Las cuentas de vuestro juego"), _counts(body.get("original"), "Las cuentas del original")
    for definition, said in ((game, mine), (base, original)):
        stored = cached_sample(definition, SAMPLE, MAX_STATES)
        if stored is not None and (stored.won, stored.lost, stored.unknown) != said:
            raise ValueError(f"Las cuentas de {definition.display_name} no son las que da el resolvedor: no se han guardado.")
    return {"juego": game.name, "nombre": inbound.name_field(body.get("nombre_juego")),
            "cuentas": list(mine), "original": list(original)}  # fmt: skip


@dataclass
class InventSeat(PoolSeat):
    game: dict[str, Any] | None = None  # the last result the pair sent (`checked`)


class LessonPool(Pool):
    """Notebook 08's pool: each pair's invented game and its counts (`add`)."""

    KIND, EVENT_ES, ADD_ROUTE = "invented", "juego", "juego"
    CSV_COLUMNS = ("juego", "nombre del juego", "con solución", "sin solución", "sin decidir",
                   "original con solución", "original sin solución", "original sin decidir")  # fmt: skip
    ROW_COLUMNS = (("juego", "Su juego"),)

    def _seat(self, seat: int, secret: str) -> InventSeat:
        return InventSeat(seat, secret)

    def _forget_seat(self, s: InventSeat) -> None:
        s.game = None

    def _active(self, s: InventSeat) -> bool:
        return bool(s.game or s.prediction)

    def _take(self, s: InventSeat, move: str, reason: str = "") -> bool:
        data = json.loads(move)
        if not isinstance(data, dict):
            raise ValueError(f"fila no válida: {shown(move)}")
        result = checked({**data, "nombre_juego": data.get("nombre")})  # the record keeps it as «nombre»
        if s.game == result:
            return False
        s.game = result
        return True

    def add(self, secret: Any, body: dict[str, Any]) -> dict[str, Any]:
        """The game the pair at the page holding `secret` invented and measured (recorded
        before this returns); it replaces the pair's earlier one."""
        s = self.seat_of(secret)
        move = json.dumps(checked(body), ensure_ascii=False, separators=(",", ":"))
        recorded = self.recording
        if self._take(s, move):
            recorded = self._add(s.seat, "invented", move)
            self.version += 1
        return self.answer(s, recorded)

    def _row(self, s: InventSeat) -> list[Any]:
        g = s.game
        assert g is not None
        game = custom.custom_from_name(g["juego"])
        mine, original = g["cuentas"], g["original"]
        who = s.name or f"Asiento {s.seat}"
        label = game.display_name if not g["nombre"] else f"{g['nombre']} ({game.display_name})"
        changes = " ".join(custom.changed_rules(game).values())
        base = f"{original[0]} / {original[1]} / {original[2]} · {range_cell(*original)}"
        return [who, label, changes, *mine, range_cell(*mine), base]

    def table(self) -> dict[str, Any]:
        rows = [self._row(s) for s in self.seats.values() if s.game is not None]
        return {"titulo": f"Los juegos de la clase: partidas n.º 1 a {SAMPLE} de cada uno (con solución / sin solución / sin decidir)",
                "cabecera": HEADS, "filas": rows}  # fmt: skip

    def figure(self) -> dict[str, Any]:
        n = sum(1 for s in self.seats.values() if s.game is not None)
        if not n:
            text = "Todavía ninguna pareja ha mandado su juego a la clase."
        else:
            text = (f"{'Una pareja ha' if n == 1 else f'{thousands(n)} parejas han'} mandado su juego a la clase. "
                    f"Cada fila cuenta las partidas n.º 1 a {SAMPLE} con el mismo límite del resolvedor "
                    f"({thousands(MAX_STATES)} posiciones por partida); las sin decidir no cuentan como perdidas: "
                    "el intervalo las cuenta como perdidas en su extremo de abajo y como ganadas en el de arriba.")  # fmt: skip
        return {"n": n, "texto": text, "tabla": self.table()}

    def _seat_state(self, s: InventSeat) -> dict[str, Any]:
        return {"mio": s.game}

    def _seat_row(self, s: InventSeat) -> dict[str, Any]:
        return {"juego": custom.custom_from_name(s.game["juego"]).display_name if s.game else ""}

    def _csv_cells(self, move: str, reason: str) -> list[Any]:
        g = json.loads(move)
        if not isinstance(g, dict):
            raise ValueError(f"fila no válida: {shown(move)}")
        return [g["juego"], g["nombre"], *g["cuentas"], *g["original"]]
