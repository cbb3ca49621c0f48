"""The games ranked by how often they are won, as notebook 07 shows it (Markdown).

The games with every card face up are placed by their 95 % intervals, the undecided deals
bracketed (lost at one end, won at the other; never counted lost).  Where two intervals touch,
the direct comparison decides: the worst case of the game above (its undecided lost) against
the best case of the one below (its undecided won), a one-sided two-proportion z test.  If that
does not decide either, the two share the place.  A game whose solver sees face-down cards has
no place of its own: its figure is a ceiling.  Every figure is computed from the rows given;
the ends of a range are rounded outward, so the printed range holds the exact one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core import texts
from ..core.numbers_es import decimal, percent, percent_end, thousands
from ..games import GAMES
from .intervals import Z95
from .view import RULES_OF_THE_PAGE, SOLVER, SOLVER_PEEKS, bracket_player, interval_text, variant_name, who

__all__ = ["WorstCase", "worst_case", "places", "rate_range", "ranking_text", "limits_text"]


@dataclass(frozen=True)
class WorstCase:
    """Game `a` in its worst case (its undecided deals lost) against game `b` in its best (its
    undecided won): the two rates, the standard error of their difference (pooled), its z and
    the one-sided chance of a difference this large or larger were both won equally often."""

    rate_a: float
    rate_b: float
    spread: float
    z: float

    @property
    def decides(self) -> bool:
        """Whether the difference is beyond what the luck of the sample gives (z > 1.96)."""
        return self.z > Z95

    @property
    def chance(self) -> float:
        """The one-sided chance (the test's direction: `a` above `b`)."""
        return 0.5 * math.erfc(self.z / math.sqrt(2))

    @property
    def two_sided_chance(self) -> float:
        """The chance of a difference this large either way, the one 1.96 is the 95 % bound of."""
        return math.erfc(abs(self.z) / math.sqrt(2))


def _counts(e: Mapping[str, Any]) -> tuple[int, int, int]:
    return int(e["won"]), int(e["lost"]), int(e["unknown"])


def worst_case(a: Mapping[str, Any], b: Mapping[str, Any]) -> WorstCase:
    """`a`'s worst case against `b`'s best (the test of `intervals.above_in_worst_case`, with its figures)."""
    (wa, la, ua), (wb, lb, ub) = _counts(a), _counts(b)
    na, nb = wa + la + ua, wb + lb + ub
    pa, pb, pooled = wa / na, (wb + ub) / nb, (wa + wb + ub) / (na + nb)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    z = (math.inf if pa > pb else -math.inf if pa < pb else 0.0) if spread == 0 else (pa - pb) / spread
    return WorstCase(pa, pb, spread, z)


def _below(b: Mapping[str, Any], a: Mapping[str, Any]) -> bool:
    """Whether the data put `b` below `a`: intervals apart, or the direct comparison decides."""
    return b["interval_high"] < a["interval_low"] or worst_case(a, b).decides


def places(games: list[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The games (listed from the highest interval middle) in the places the data support: a
    game starts a new place only when it is below every game of the place above."""
    ranked = sorted(games, key=lambda e: -(e["interval_low"] + e["interval_high"]))
    tiers: list[list[Mapping[str, Any]]] = []
    for e in ranked:
        if tiers and not all(_below(e, o) for o in tiers[-1]):
            tiers[-1].append(e)
        else:
            tiers.append([e])
    return tiers


def rate_range(won: int, lost: int, unknown: int) -> str:
    """The share won as the data allow: «85,4 %» when all were decided, «entre 85,3 % y 86,2 %»
    when some were not (undecided lost, then won), the ends rounded outward."""
    n = won + lost + unknown
    if not unknown:
        return percent(won / n)
    return f"entre {percent_end(100 * won / n, up=False)} % y {percent_end(100 * (won + unknown) / n)} %"


def _decimals(x: float) -> int:
    """One decimal, or two when the percentage needs them to be exact (63,55 %)."""
    return 1 if abs(1000 * x - round(1000 * x)) < 1e-6 else 2


def _share(x: float, up: bool, digits: int | None = None) -> str:
    """A share as a percentage, exact when two decimals hold it (63,55 %), else rounded outward;
    `digits` gives two shares of one sentence the same precision."""
    return f"{percent_end(100 * x, _decimals(x) if digits is None else digits, up=up)} %"


def _comparison(name: Mapping[str, str], a: Mapping[str, Any], b: Mapping[str, Any]) -> str:
    """The direct comparison of two games whose intervals touch: its outcome in two lines, its
    figures (the limits, z and the two-sided chance) in a fold."""
    c = worst_case(a, b)
    (wa, la, ua), (wb, lb, ub) = _counts(a), _counts(b)
    na, nb = wa + la + ua, wb + lb + ub
    ga, gb = name[a["game"]], name[b["game"]]
    digits = max(_decimals(c.rate_a), _decimals(c.rate_b))  # both rates with the same precision
    text = (f"Los intervalos de **{ga}** y **{gb}** se tocan, así que se comparan directamente, en el caso más "
            f"difícil para {ga}: sus {thousands(ua)} partidas sin decidir, perdidas ({thousands(wa)} de "
            f"{thousands(na)}, el {_share(c.rate_a, up=False, digits=digits)}), frente a las {thousands(ub)} de "
            f"{gb}, ganadas ({thousands(wb + ub)} de {thousands(nb)}, el {_share(c.rate_b, up=True, digits=digits)}). ")
    detail = ""
    if a["max_states"] != b["max_states"]:
        fewer = a if a["max_states"] < b["max_states"] else b
        detail += (f"{name[fewer['game']]} se calculó con un límite de posiciones más bajo "
                   f"({thousands(fewer['max_states'])} frente a {thousands(max(a['max_states'], b['max_states']))}), "
                   "y por eso le quedan más partidas sin decidir; la comparación es justa igualmente: con un límite "
                   f"más alto, el peor caso de {ga} solo podría subir y el mejor de {gb}, solo bajar. ")
    if c.z <= 0:
        return text + ("En ese caso la diferencia desaparece: los datos **no deciden** cuál se gana más a "
                       "menudo, y los dos comparten puesto." + _fold(detail))
    detail += (f"La diferencia, {decimal(100 * (c.rate_a - c.rate_b), digits)} puntos, es {decimal(c.z, 1)} veces lo "
               f"que el azar de qué partidas han salido suele mover una diferencia así (su error típico, "
               f"{decimal(100 * c.spread, 1)} puntos): z ≈ {decimal(c.z, 1)}. Se compara con 1,96, el mismo número "
               "que lleva la fórmula del intervalo del 95 % (más abajo, en «Cómo se calcula el intervalo de "
               "confianza»). Esta cuenta trata las dos muestras como independientes, aunque los juegos del atlas "
               "se juegan con las mismas barajas: es una aproximación, no una comparación baraja a baraja. ")
    if c.decides:
        per_1000 = round(1000 * c.two_sided_chance)
        odds = "menos de 1 vez" if per_1000 < 1 else f"unas {thousands(per_1000)} veces"
        detail += (f"Si los dos juegos se ganaran igual de a menudo, una diferencia así o mayor, a favor de uno o "
                   f"del otro, saldría {odds} de cada 1.000.")
        return text + (f"Incluso así, {ga} tiene solución más a menudo, y por más de lo que suele dar el azar: por eso va "
                       "un puesto por encima." + _fold(detail))
    return text + ("Ahí la diferencia no supera lo que puede dar el azar: "
                   "los datos **no deciden** cuál se gana más a menudo, y los dos comparten puesto." + _fold(detail))


def _fold(detail: str) -> str:
    """The comparison's figures, folded: «Para saber más» opens them with a click."""
    if not detail:
        return ""
    return f"\n\n<details><summary>Para saber más: la comparación, con sus cifras</summary>\n\n{detail.strip()}\n\n</details>"


def _page_rows(data: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    firsts: dict[str, Mapping[str, Any]] = {}
    for e in data["entries"]:
        if variant_name(e["game"], e["variant"]) == RULES_OF_THE_PAGE and e["computed_deals"] and e["won"] + e["lost"]:
            firsts.setdefault(e["game"], e)
    return firsts


def ranking_order(data: Mapping[str, Any]) -> list[str]:
    """The games in the ranking's order (its places, then the games without one, then any game
    with no row of its page's rules): notebook 07's complete table and its plot follow it too."""
    rows = _page_rows(data)
    ordered = [e["game"] for tier in places([e for e in rows.values() if who(e) == SOLVER]) for e in tier]
    ordered += [g for g, e in rows.items() if who(e) == SOLVER_PEEKS]
    return ordered + [g for g in dict.fromkeys(e["game"] for e in data["entries"]) if g not in ordered]


def ranking_text(data: Mapping[str, Any]) -> str:
    """The ranking of the games with the rules of their page: a table (place, game, share won,
    95 % interval, undecided deals, state limit), then each direct comparison that decides a place
    or a shared one, with its figures, and what the games without a place do tell."""
    rows = _page_rows(data)
    name = {g: GAMES[g].display_name for g in rows}
    open_games = [e for e in rows.values() if who(e) == SOLVER]
    peeks = [(e, bracket_player(data, e)) for e in rows.values() if who(e) == SOLVER_PEEKS]
    tiers = places(open_games)
    lines = ["| puesto | juego | tienen solución | intervalo del 95 % | sin decidir | límite de posiciones |",
             "|---:|---|---|---|---:|---:|"]

    def row(place: str, e: Mapping[str, Any], mark: str = "") -> str:
        won, lost, unknown = _counts(e)
        return (f"| {place} | {name[e['game']]}{mark} | {rate_range(won, lost, unknown)} | "
                f"{interval_text(won, lost, unknown)} | {thousands(unknown)} de {thousands(won + lost + unknown)} | "
                f"{thousands(e['max_states'])} |")

    for k, tier in enumerate(tiers, 1):
        lines += [row(f"{k}.º", e) for e in tier]
    lines += [row("—", e, " *") for e, _ in peeks]
    notes = []
    for upper, lower in zip(tiers, tiers[1:], strict=False):
        notes += [_comparison(name, a, b) for a in upper for b in lower if b["interval_high"] >= a["interval_low"]]
    for tier in tiers:
        notes += [_comparison(name, a, b) for i, a in enumerate(tier) for b in tier[i + 1:]]
    compared = bool(notes)  # the lead names the direct comparison only when one is shown below
    apart = [f"{name[a['game']]} y {name[b['game']]}" for upper, lower in zip(tiers, tiers[1:], strict=False)
             for a in upper for b in lower if b["interval_high"] < a["interval_low"]]
    if apart:
        notes.insert(0, "Donde dos intervalos no se tocan, la diferencia es clara: el de abajo queda entero por "
                        f"debajo ({'; '.join(apart)}).")
    for e, p in peeks:
        text = (f"\\* **{name[e['game']]}** no tiene puesto: su resolvedor ve las cartas boca abajo, y su cifra es un "
                "techo (ninguna persona gana más).")
        if p is not None:
            floor = interval_text(int(p["won"]), int(p["lost"]), int(p.get("unknown", 0)))
            text += f" El jugador que no mira, que solo ve lo que ve una persona, gana el {percent(p['rate'])} ({floor})"
            below = [name[o["game"]] for o in open_games if o["interval_high"] < p["interval_low"]]
            if below:
                listed = texts.joined(below)
                whose = "cuyo intervalo queda entero" if len(below) == 1 else "cuyos intervalos quedan enteros"
                text += f": quien juegue al menos así gana {name[e['game']]} más a menudo que {listed}, {whose} por debajo"
            text += "."
            if not below:
                others = [name[o["game"]] for o in open_games]  # the games with a place have no player measured
                text += (f" En {texts.joined(others)} no hemos medido a ningún jugador: no se sabe qué puesto "
                         "tendría para una persona.") if others else ""
        notes.append(text)
    lead = ("Es la clasificación de un **jugador perfecto**, no la de una persona: el resolvedor ve todas las "
            "cartas; una persona puede perder alguna partida que tiene solución. Cada juego con las reglas de su "
            "página, ordenado por su intervalo del 95 %. Las partidas sin decidir cuentan como perdidas en un "
            "extremo y como ganadas en el otro: por eso «tienen solución» va entre dos cifras. Un juego va por "
            "debajo de otro cuando su intervalo queda entero por debajo"
            + (", o, si los dos se tocan, cuando lo decide la comparación directa de debajo de la tabla." if compared
               else "."))
    table = texts.table_box("\n".join(lines), "Tabla de la clasificación")
    peek_notes = notes[len(notes) - len(peeks):] if peeks else []
    shown = notes[: len(notes) - len(peek_notes)]
    if peek_notes:  # the games without a place, folded: the class reads the places first
        names = [name[e["game"]] for e, _ in peeks]
        which = texts.joined(names)
        shown.append(f"<details><summary>\\* ¿Por qué {which} no {'tiene' if len(names) == 1 else 'tienen'} "
                     "puesto?</summary>\n\n" + "\n\n".join(peek_notes) + "\n\n</details>")
    return lead + "\n\n" + table + "\n\n" + "\n\n".join(shown)


def limits_text(entries: list[Mapping[str, Any]], atlas_entries: list[Mapping[str, Any]] | None = None) -> str:
    """The state limits of the rows, and which comparisons between rows with different limits
    are fair: their intervals and worst-case comparisons are, their undecided counts and the
    widths of their margins are not."""
    from .view import entry_label

    done = [e for e in entries if e["computed_deals"]]
    low, high = min(done, key=lambda e: e["max_states"]), max(done, key=lambda e: e["max_states"])
    text = (f"El límite de posiciones no es el mismo en todas las filas: va de {thousands(low['max_states'])}, en "
            f"{entry_label(low)}, a {thousands(high['max_states'])}, en {entry_label(high)}.")
    everywhere = [e for e in atlas_entries or () if e["computed_deals"]]
    if everywhere and {e["max_states"] for e in everywhere} - {e["max_states"] for e in done}:
        text += (f" En todo el atlas va de {thousands(min(e['max_states'] for e in everywhere))} a "
                 f"{thousands(max(e['max_states'] for e in everywhere))}.")
    text += (" Con un límite más alto, el resolvedor decide más partidas de las mismas: quedan menos sin decidir "
             "y el intervalo se estrecha, pero el nuevo cabe dentro del de ahora, porque las partidas sin decidir "
             "ya cuentan como perdidas en un extremo y como ganadas en el otro. Por eso, entre filas con límites "
             "distintos, **sí** se comparan los intervalos del 95 %, y el peor caso de una con el mejor caso de la "
             "otra (así se ordena la clasificación). **No** se compara cuántas partidas quedan sin decidir ni lo "
             "ancho que es cada margen: esa diferencia puede venir del límite y no de las reglas.")
    for game in dict.fromkeys(e["game"] for e in done):
        rows = [e for e in done if e["game"] == game]
        if len({e["max_states"] for e in rows}) > 1:
            listed = "; ".join(f"{variant_name(game, e['variant'])}: {thousands(e['max_states'])}" for e in rows)
            text += f" En {GAMES[game].display_name}, por ejemplo, las filas tienen límites distintos ({listed})."
    return text

