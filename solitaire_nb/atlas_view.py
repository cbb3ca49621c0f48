"""How the win-rate atlas is shown to a reader (notebook 07): variants named in Spanish words,
a rate with undecided deals shown as the range it is («entre 48,5 % y 71,0 %»), and «—» where
the solver decided nothing.  Plain text only: `study_plots.plot_win_rates` draws the picture.

An atlas entry is one item of ``winrate.atlas()["entries"]`` (counts ``won``, ``lost``,
``unknown``, ``computed_deals``; ``game``; ``variant`` with every flag).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .games import GAMES
from .numbers_es import percent, thousands
from .winrate import bracketed_interval, read_records

NOTHING_DECIDED = "—"
"""What a rate shows when the solver decided none of the deals."""

RULES_OF_THE_PAGE = "reglas de la página"

# The short name of each variant flag's non-default value, as a table and a plot label say it.
# Keyed by flag, not by game: the same flag means the same change in every game that has it.
VARIANT_WORDS: Mapping[tuple[str, bool], str] = {
    ("takeback", False): "sin devoluciones",
    ("any_suit", True): "cualquier palo",
    ("kings_to_bottom", False): "sin bajar los Reyes",
    ("wrap", False): "sin vuelta Rey–As",
    ("reserve_playable", False): "reserva sin jugar",
    ("shift_left", True): "desplazamiento a la izquierda",
    ("deal_to_foundations", False): "sin cartas a la base en el reparto",
    ("deal_to_foundations", True): "con cartas a la base en el reparto",
    ("autoplay", False): "sin juego automático",
    ("autoplay", True): "con juego automático",
}


def variant_name(game: str, variant: Mapping[str, bool]) -> str:
    """The variant in Spanish words: what differs from the game's own rules, or «reglas de la
    página».  A flag the game does not have raises a Spanish ValueError."""
    if game not in GAMES:
        raise ValueError(f"No hay ningún juego llamado «{game}»")
    flags = GAMES[game].variants
    changes = []
    for flag, value in variant.items():
        if flag not in flags:
            raise ValueError(f"{GAMES[game].display_name} no tiene la variante «{flag}»")
        if flags[flag].default != value:
            changes.append(VARIANT_WORDS[(flag, bool(value))])
    return ", ".join(changes) or RULES_OF_THE_PAGE


def entry_label(entry: Mapping[str, Any]) -> str:
    """«Beleaguered Castle (sin devoluciones)»: the game and its variant, for a table or a plot."""
    return f"{GAMES[entry['game']].display_name} ({variant_name(entry['game'], entry['variant'])})"


pct = percent  # the name this module's readers (notebook 07) use


def rate_text(won: int, lost: int, unknown: int, decimals: int = 1) -> str:
    """The win rate as the data allows: a point when every deal was decided, «entre X % y Y %»
    when some were not (the undecided counted lost, then won), «—» when none was."""
    n = won + lost + unknown
    if n == 0 or won + lost == 0:
        return NOTHING_DECIDED
    if unknown == 0:
        return pct(won / n, decimals)
    return f"entre {pct(won / n, decimals)} y {pct((won + unknown) / n, decimals)}"


def interval_text(won: int, lost: int, unknown: int, decimals: int = 1) -> str:
    """The 95 % interval with the undecided bracketed («55,5 % – 70,1 %»), «—» when nothing
    was decided."""
    n = won + lost + unknown
    if n == 0 or won + lost == 0:
        return NOTHING_DECIDED
    low, high = bracketed_interval(won, unknown, n)
    return f"{pct(low, decimals)} – {pct(high, decimals)}"


def _counts(entry: Mapping[str, Any]) -> tuple[int, int, int]:
    return int(entry["won"]), int(entry["lost"]), int(entry["unknown"])


def atlas_table(entries: list[Mapping[str, Any]]) -> str:
    """The atlas as a Markdown table a reader sees: one row per game and variant."""
    rows = [
        "| juego | variante | partidas | límite de posiciones | tienen solución | no tienen solución "
        "| sin decidir | porcentaje de victorias | intervalo de confianza (95 %) |",
        "|---|---|---|---|---:|---:|---:|---|---|",
    ]
    for e in entries:
        done = (
            f"{thousands(e['computed_deals'])} de {thousands(e['planned_deals'])} "
            f"(nº {thousands(e['planned_first'])}–{thousands(e['planned_last'])})"
        )
        start = (
            f"| {GAMES[e['game']].display_name} | {variant_name(e['game'], e['variant'])} | {done} "
            f"| {thousands(e['max_states'])} |"
        )
        if e["computed_deals"]:
            won, lost, unknown = _counts(e)
            rows.append(
                f"{start} {thousands(won)} | {thousands(lost)} | {thousands(unknown)} "
                f"| {rate_text(won, lost, unknown)} | {interval_text(won, lost, unknown)} |"
            )
        else:
            rows.append(f"{start} | | | sin datos todavía | |")
    return "\n".join(rows)


def csv_path(entry: Mapping[str, Any], root: Path | None = None) -> Path:
    """Where an entry's per-deal records are (``data/atlas/<key>.csv`` of the repository)."""
    root = root or Path(__file__).resolve().parent.parent
    return root / "data" / "atlas" / f"{entry['key']}.csv"


def paired_statuses(
    a: Mapping[str, Any], b: Mapping[str, Any], root: Path | None = None
) -> Counter[tuple[str, str]] | None:
    """For the deals both entries solved: how many had each pair of verdicts (status in `a`,
    status in `b`), e.g. ``("won", "unknown")``.  None when a records file is missing (an
    installed package ships the summary only)."""
    paths = csv_path(a, root), csv_path(b, root)
    if not all(p.is_file() for p in paths):
        return None
    first = {r.deal: r.status for r in read_records(paths[0])[1]}
    second = {r.deal: r.status for r in read_records(paths[1])[1]}
    return Counter((first[d], second[d]) for d in sorted(first.keys() & second.keys()))


__all__ = [
    "NOTHING_DECIDED",
    "VARIANT_WORDS",
    "atlas_table",
    "entry_label",
    "interval_text",
    "paired_statuses",
    "pct",
    "rate_text",
    "thousands",
    "variant_name",
]
