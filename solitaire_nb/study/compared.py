"""What a comparison of two games measured, and how a reader sees it (`Comparison`), with no
NumPy: both paths build these, the vectorised one (`comparison.compare`) and the browser's pure
Python one (`pure.compare`, used when NumPy is absent).  The per-deal records (`GameStats.deal`)
are a `family.FamilyDeal` (NumPy arrays) or a `pure.PureDeal` (lists) with the same names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.checks import shown
from ..core.numbers_es import decimal, interval_decimals, measured, thousands
from .family_rules import family_problem

FIGURES: dict[str, str] = {
    "on_table_after_deal": "Cartas en la mesa tras el reparto",
    "on_table": "Cartas en la mesa tras el juego automático",
    "home_in_deal": "Cartas a la base durante el reparto",
    "autoplay_moved": "Cartas a la base con el juego automático",
    "longest": "Cartas en la columna más larga",
    "shortest": "Cartas en la columna más corta",
    "empty_columns": "Huecos en el tablero",
    "under_king": "Cartas tapadas por un Rey",
}
"""The per-deal measures, in the order the summary shows them, with their Spanish names."""

FAN_FIGURES = {"longest": "Cartas en el abanico más largo", "shortest": "Cartas en el abanico más corto",
               "empty_columns": "Abanicos vacíos"}
"""`FIGURES`' names where both games' piles are fans (Scotch's «abanicos»)."""

Interval = tuple[float, float, float]
"""(mean, low, high): a mean with its 95 % confidence interval."""


def per_deal(deal: Any, key: str) -> Any:
    """The per-deal values of one of `FIGURES` for one game."""
    if key not in FIGURES:
        raise ValueError(f"No hay ninguna medida llamada {shown(key)} (medidas: {', '.join(FIGURES)})")
    values = {
        "on_table_after_deal": lambda: deal.on_table_after_deal,
        "on_table": lambda: deal.on_table,
        "home_in_deal": lambda: deal.home_in_deal,
        "autoplay_moved": lambda: deal.autoplay_moved,
        "longest": lambda: deal.longest,
        "shortest": lambda: deal.shortest,
        "empty_columns": lambda: deal.empty_columns,
        "under_king": lambda: deal.under_king,
    }
    return values[key]()


@dataclass(frozen=True)
class GameStats:
    """One game's side of a comparison."""

    name: str
    """The game's Spanish name, with its variant if it has one."""
    tableau_label: str
    """What the board calls a tableau pile ("Tablero", "Abanico")."""
    deal: Any
    """Every deal's records (one row per deck, the decks' order)."""
    figures: dict[str, Interval]
    """Each of `FIGURES` as (mean, low, high)."""
    columns: tuple[Interval, ...]
    """Each pile's mean length after the automatic moves (T0 first)."""
    columns_after_deal: tuple[Interval, ...]
    """Each pile's mean length right after the deal."""

    @property
    def layout(self) -> Any:
        """The piles' lengths after the automatic moves as a layout for `study.column_gap`."""
        return self.deal.layout()


@dataclass(frozen=True)
class Comparison:
    """What `compare` measured: both games on the same decks, and the paired differences."""

    a: GameStats
    b: GameStats
    n: int
    seed: int | None
    decks: Any
    """The (n, 52) decks dealt both ways (card ids, first dealt first; `study.deck_codes`)."""
    differences: dict[str, Interval]
    """Each of `FIGURES`, per deal a − b, as (mean, low, high)."""

    @property
    def pile_word(self) -> str:
        """What both boards call a tableau pile («Tablero 1…»), or «Columna» when they differ."""
        return self.a.tableau_label if self.a.tableau_label == self.b.tableau_label else "Columna"

    @property
    def lengths_title(self) -> str:
        """«Longitud media de cada columna», or «… de cada abanico» where both games' piles are fans."""
        return f"Longitud media de cada {'abanico' if self.pile_word == 'Abanico' else 'columna'}"

    @property
    def length_axis(self) -> str:
        """The length plots' axis: «Cartas en la columna», or «Cartas en el abanico»."""
        return "Cartas en el abanico" if self.pile_word == "Abanico" else "Cartas en la columna"

    def figure_names(self) -> dict[str, str]:
        """`FIGURES` in the words of these boards: «abanico» where both games' piles are fans."""
        fans = self.pile_word == "Abanico"
        return {k: FAN_FIGURES.get(k, v) if fans else v for k, v in FIGURES.items()}

    def difference(self, key: str) -> Any:
        """The per-deal differences a − b of one of `FIGURES` (an array, or a list without NumPy)."""
        a, b = per_deal(self.a.deal, key), per_deal(self.b.deal, key)
        if isinstance(a, list):
            return [x - y for x, y in zip(a, b, strict=True)]
        import numpy as np

        return a.astype(np.int16) - b.astype(np.int16)

    def typical_deal(self, which: str = "b") -> int:
        """Index of a deal (in `decks`) that leaves on the table, after the automatic moves, the
        median number of cards of game `which` ("a" or "b"): half the deals leave more."""
        if which not in ("a", "b"):
            raise ValueError(f"which debe ser 'a' o 'b', no {shown(which)}")
        table = [float(v) for v in (self.a if which == "a" else self.b).deal.on_table]
        middle = sorted(table)
        k = len(middle)
        median = middle[k // 2] if k % 2 else (middle[k // 2 - 1] + middle[k // 2]) / 2
        return min(range(k), key=lambda d: abs(table[d] - median))  # the first of the nearest, as argmin

    # ------------------------------------------------------------------ what a reader sees
    def headline(self) -> str:
        """One Spanish sentence: how many more or fewer cards a leaves on the table than b."""
        mean, low, high = self.differences["on_table"]
        a, b = self.a.name, self.b.name
        d = interval_decimals(mean, low, high)
        if low == high and mean != 0:  # the same difference in every deal
            cards = decimal(abs(mean), 0) if float(mean).is_integer() else decimal(abs(mean))
            return f"{a} deja siempre {cards} cartas {'más' if mean > 0 else 'menos'} en la mesa que {b}."
        if low > 0 or high < 0:
            more = "más" if mean > 0 else "menos"
            return (f"{a} deja {more} cartas en la mesa que {b}: {decimal(abs(mean), d)} de media, con un "
                    f"intervalo del 95 % de {decimal(abs(low if mean > 0 else high), d)} a "
                    f"{decimal(abs(high if mean > 0 else low), d)}.")
        if low == high:
            return f"{a} y {b} dejan siempre el mismo número de cartas en la mesa."
        return (f"Con estos repartos no se distingue qué juego deja más cartas en la mesa: la "
                f"diferencia, {decimal(mean, d)}, va de {decimal(low, d)} a {decimal(high, d)} (intervalo del 95 %).")

    def _deals(self) -> str:
        # «semilla» is a programmer's word: the reader is told the decks are random and repeatable
        which = f" (tanda n.º {self.seed}, siempre la misma)" if self.seed is not None else ""
        return (f"{thousands(self.n)} repartos de barajas al azar{which}, las mismas barajas repartidas de las dos "
                f"maneras; entre paréntesis, el intervalo de confianza del 95 %.")

    def text(self) -> str:
        """The summary as plain Spanish text."""
        lines = [f"{self.a.name} frente a {self.b.name}: {self._deals()}", self.headline(), ""]
        for key, label in self.figure_names().items():
            lines.append(
                f"- {label}: {self.a.name}, {measured(self.a.figures[key])}; {self.b.name}, "
                f"{measured(self.b.figures[key])}; diferencia, {measured(self.differences[key])}."
            )
        lines.append("")
        lines.append(f"{self.lengths_title}, tras el juego automático:")
        for side in (self.a, self.b):
            cells = " · ".join(decimal(m) for m, _, _ in side.columns)
            lines.append(f"- {side.name}, {len(side.columns)} columnas: {cells}.")
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        a, b = self.a.name, self.b.name
        rows = [
            f"**{a}** frente a **{b}**",
            "",
            self._deals()[:1].upper() + self._deals()[1:],
            "",
            f"{self.headline()}",
            "",
            f"| | {a} | {b} | Diferencia ({a} − {b}) |",
            "|---|---:|---:|---:|",
        ]
        for key, label in self.figure_names().items():  # one precision down the table; text() keeps what each needs
            rows.append(f"| {label} | {measured(self.a.figures[key], 2)} | {measured(self.b.figures[key], 2)} | "
                        f"{measured(self.differences[key], 2)} |")
        piles = "Abanicos" if self.pile_word == "Abanico" else "Columnas del tablero"
        rows.append(f"| {piles} | {self.a.deal.columns} | {self.b.deal.columns} | |")
        rows += ["", f"{self.lengths_title}, tras el juego automático:", ""]
        rows += [f"| | {a} | {b} |", "|---|---:|---:|"]
        for c in range(max(len(self.a.columns), len(self.b.columns))):
            label = f"{self.pile_word} {c + 1}"
            cells = [measured(side.columns[c], 2) if c < len(side.columns) else "—" for side in (self.a, self.b)]
            rows.append(f"| {label} | {cells[0]} | {cells[1]} |")
        return "\n".join(rows)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return self.text()

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())



def _definition(game: object) -> Any:
    """A game's definition from its name, or the definition itself if it looks like one."""
    if isinstance(game, str):
        from ..engine import game_definition
        from ..games import GAMES

        if "+" not in game and game not in GAMES:
            raise ValueError(f"No hay ningún juego llamado {shown(game)} (juegos: {', '.join(GAMES)})")
        return game_definition(game)  # a built-in name, or a composed one ("citadel+columns=10")
    looks_like = (
        callable(getattr(game, "rules_for", None))
        and isinstance(getattr(game, "display_name", None), str)
        and getattr(game, "decks", None) == 1
    )
    name, decks = getattr(game, "display_name", None), getattr(game, "decks", None)
    if not looks_like and isinstance(name, str) and isinstance(decks, int):
        raise ValueError(f"compare necesita juegos de una baraja a la vista, y {name} se juega con {decks} barajas")
    if not looks_like:
        raise ValueError(
            f"compare necesita dos juegos de una baraja a la vista (su nombre o su definición), "
            f"no {shown(game)}"
        )
    return game


def _variant_words(definition: Any, variant: Mapping[str, bool]) -> str:
    """The changed flags as short Spanish phrases: each flag's description up to its first
    explanation («Sin importar el palo (la regla…» gives «sin importar el palo»)."""
    variants = getattr(definition, "variants", {}) or {}
    defaults = {k: getattr(v, "default", None) for k, v in variants.items()}
    words = []
    for key, value in variant.items():
        if defaults.get(key) == value or key not in variants:
            continue
        text = getattr(variants[key], "descripcion", "") or key
        for stop in (" (", ":", ","):
            text = text.split(stop, 1)[0]
        words.append(text[:1].lower() + text[1:])
    return ", ".join(words)


def game_side(game: object, variant: Mapping[str, bool] | None, which: str) -> tuple[Any, dict[str, bool], Any, str]:
    """One side of a comparison: its definition, flags, rules and Spanish name (`which` is "a"
    or "b", for the message); a Spanish ValueError for a game the family dealer cannot deal."""
    definition = _definition(game)
    if variant is not None and not isinstance(variant, Mapping):
        raise ValueError(f"La variante de {which} debe ser un diccionario de opciones, no {shown(variant)}")
    flags = dict(variant or {})
    rules = definition.rules_for(flags) if flags else definition.rules_for()
    problem = family_problem(rules)
    if problem is not None:
        raise ValueError(f"No se puede comparar {definition.display_name}: {problem}")
    words = _variant_words(definition, flags)
    return definition, flags, rules, f"{definition.display_name} ({words})" if words else definition.display_name
