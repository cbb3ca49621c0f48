"""How the win-rate atlas is shown to a reader (notebook 07): variants named in Spanish words,
a rate with undecided deals shown as the range it is («entre 48,5 % y 71,0 %»), «—» where
the solver decided nothing, who plays each row (a solver that sees face-down cards is said so),
and the state limits read in words.  Plain text only: `plots.plot_win_rates` draws the picture.

An atlas entry is one item of ``summary.atlas()["entries"]`` (counts ``won``, ``lost``,
``unknown``, ``computed_deals``; ``game``; ``variant`` with every flag).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core import texts
from ..core.numbers_es import percent, percent_end, range_text, thousands
from ..games import GAMES
from .intervals import bracketed_interval
from .studyfile import read_records

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


def rate_text(won: int, lost: int, unknown: int, decimals: int = 1) -> str:
    """The win rate as the data allows: a point when every deal was decided, «entre X % y Y %»
    when some were not (the undecided counted lost, then won), «—» when none was."""
    n = won + lost + unknown
    if n == 0 or won + lost == 0:
        return NOTHING_DECIDED
    if unknown == 0:
        return percent(won / n, decimals)
    return f"entre {percent_end(100 * won / n, decimals, up=False)} % y {percent_end(100 * (won + unknown) / n, decimals)} %"


def interval_text(won: int, lost: int, unknown: int, decimals: int = 1) -> str:
    """The 95 % interval with the undecided bracketed («55,5 % – 70,1 %», its ends rounded
    outward), «—» when nothing was decided."""
    n = won + lost + unknown
    if n == 0 or won + lost == 0:
        return NOTHING_DECIDED
    low, high = bracketed_interval(won, unknown, n)
    return range_text(low, high, decimals)  # the ends rounded outward


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
            f"(n.º {thousands(e['planned_first'])}–{thousands(e['planned_last'])})"
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


# ---------------------------------------------------------------------- who plays each row
SOLVER = "resolvedor"
SOLVER_PEEKS = "resolvedor que ve las cartas boca abajo"
PLAYER = "jugador que no mira"
BRACKET = ("una persona que juegue al menos tan bien como el jugador que no mira: entre ese jugador y el "
           f"{SOLVER_PEEKS}")
# The floor is the no-peek player's rate: it holds only for someone who plays at least as well.
FLOOR_WHO = "una persona que juegue al menos tan bien como el jugador que no mira"


def hides_cards(entry: Mapping[str, Any]) -> bool:
    """Whether the entry's game, with its variant, deals cards face down."""
    return GAMES[entry["game"]].rules_for(entry["variant"]).hides_cards


def who(entry: Mapping[str, Any]) -> str:
    """Who plays an atlas row: the no-peek player, a solver that sees face-down cards, or a
    solver in a game with every card face up."""
    if entry.get("player"):
        return PLAYER if entry["player"] == "heuristic" else f"jugador «{entry['player_name']}»"
    return SOLVER_PEEKS if hides_cards(entry) else SOLVER


def _same_rules(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return a["game"] == b["game"] and dict(a["variant"]) == dict(b["variant"])


def bracket_player(data: Mapping[str, Any], entry: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The no-peek player's row for a solver row that sees face-down cards (same game and
    variant), if the atlas has one with deals."""
    if who(entry) != SOLVER_PEEKS:
        return None
    return next((p for p in data.get("players", []) if p.get("player") == "heuristic" and _same_rules(p, entry)
                 and p["computed_deals"]), None)  # fmt: skip


def limit_notes(entries: list[Mapping[str, Any]]) -> dict[str, str]:
    """For each row whose game has rows with other state limits, the words saying so."""
    notes = {}
    for e in entries:
        others = [o for o in entries if o["game"] == e["game"] and o["max_states"] != e["max_states"]]
        if others:
            limits = " y ".join(sorted({thousands(o["max_states"]) for o in others}))
            notes[e["key"]] = (f"la otra fila de {GAMES[e['game']].display_name} tiene {limits}: "
                               "sus márgenes no se comparan")
    return notes


def limits_text(entries: list[Mapping[str, Any]], atlas_entries: list[Mapping[str, Any]] | None = None) -> str:
    """A paragraph on the state limits as the table has them: the lowest, the highest, and each
    game whose rows differ.  With `atlas_entries` (the whole atlas), the range over the whole atlas
    is added when rows left out of this table reach beyond it."""
    done = [e for e in entries if e["computed_deals"]]
    low = min(done, key=lambda e: e["max_states"])
    high = max(done, key=lambda e: e["max_states"])
    parts = [
        f"El límite de posiciones no es el mismo en todas las filas de esta tabla: va de "
        f"{thousands(low['max_states'])}, en {entry_label(low)}, a {thousands(high['max_states'])}, en "
        f"{entry_label(high)}. Con un límite más "
        "alto, el resolvedor puede decidir más partidas y el margen se estrecha; por eso dos filas con "
        "límites distintos no se pueden comparar como si fueran la misma medida."
    ]
    everywhere = [e for e in atlas_entries or () if e["computed_deals"] and e.get("max_states")]
    if everywhere:
        all_low = min(everywhere, key=lambda e: e["max_states"])
        all_high = max(everywhere, key=lambda e: e["max_states"])
        if (all_low["max_states"], all_high["max_states"]) != (low["max_states"], high["max_states"]):
            keys = {e["key"] for e in done}

            def where(e: Mapping[str, Any]) -> str:  # a row left out is not named: the page may show it later
                return entry_label(e) if e["key"] in keys else f"una variante de {GAMES[e['game']].display_name} que esta tabla no trae"

            parts.append(f"En todo el atlas va de {thousands(all_low['max_states'])}, en {where(all_low)}, a "
                         f"{thousands(all_high['max_states'])}, en {where(all_high)}.")
    for game in dict.fromkeys(e["game"] for e in done):
        rows = [e for e in done if e["game"] == game]
        if len({e["max_states"] for e in rows}) > 1:
            listed = "; ".join(f"{variant_name(game, e['variant'])}: {thousands(e['max_states'])}" for e in rows)
            parts.append(f"En {GAMES[game].display_name} las filas tienen límites distintos ({listed}): "
                         "una diferencia entre sus márgenes puede venir del límite y no de la regla.")
    return " ".join(parts)


def class_table(data: Mapping[str, Any]) -> str:
    """The atlas as notebook 07 shows it, a Markdown table in its scroll box: a column saying
    who plays each row, the state limit read in words where a game's rows differ, and, for a
    game whose solver sees face-down cards, first the bracket a person's rate lies in (the
    no-peek player's rate as a floor, the solver's as a ceiling)."""
    entries = list(data["entries"])
    order = list(dict.fromkeys(e["game"] for e in entries))
    entries.sort(key=lambda e: order.index(e["game"]))  # each game's rows together, in the atlas's order
    notes = limit_notes(entries)
    rows = [
        "| juego | variante | quién juega | partidas | límite de posiciones | tienen solución | no tienen "
        "solución | sin decidir | porcentaje de victorias | intervalo de confianza (95 %) |",
        "|---|---|---|---|---|---:|---:|---:|---|---|",
    ]
    for e in entries:
        name, variant = GAMES[e["game"]].display_name, variant_name(e["game"], e["variant"])
        player = bracket_player(data, e)
        if player is not None and e["computed_deals"]:
            rows.append(
                f"| **{name}** | **{variant}** | **{BRACKET}** | | | | | | **al menos {percent(player['rate'])} "
                f"(lo que gana el jugador que no mira); como mucho, lo que gana el {SOLVER_PEEKS}: {rate_text(*_counts(e))}** | "
                f"{range_text(player['interval_low'], e['interval_high'])} |"
            )
        limit = thousands(e["max_states"]) + (" †" if e["key"] in notes else "")
        done = f"{thousands(e['computed_deals'])} de {thousands(e['planned_deals'])}"
        start = f"| {name} | {variant} | {who(e)} | {done} | {limit} |"
        if e["computed_deals"]:
            won, lost, unknown = _counts(e)
            rows.append(f"{start} {thousands(won)} | {thousands(lost)} | {thousands(unknown)} "
                        f"| {rate_text(won, lost, unknown)} | {interval_text(won, lost, unknown)} |")
        else:
            rows.append(f"{start} | | | sin datos todavía | |")
    box = texts.table_box("\n".join(rows), "Tabla completa del atlas")  # ten columns: a phone slides them
    differing = dict.fromkeys(e["game"] for e in entries if e["key"] in notes)
    if differing:  # said once under the table, not in every cell of those rows
        box += "\n\n† " + " ".join(
            f"Las filas de {GAMES[g].display_name} tienen límites distintos ("
            + " y ".join(thousands(m) for m in sorted({e["max_states"] for e in entries if e["game"] == g}))
            + "): sus márgenes no se comparan." for g in differing)
    return box


def student_table(data: Mapping[str, Any]) -> str:
    """The short table of notebook 07, one row per game with the rules of its page: how many
    deals have a solution, have none, are undecided, and the 95 % interval (the undecided
    bracketed, ends rounded outward); a row whose solver sees face-down cards says so."""
    rows = ["| juego | partidas | con solución | sin solución | sin decidir | intervalo del 95 % |",
            "|---|---:|---:|---:|---:|---|"]
    seen = set()
    for e in data["entries"]:
        if e["game"] in seen or variant_name(e["game"], e["variant"]) != RULES_OF_THE_PAGE or not e["computed_deals"]:
            continue
        seen.add(e["game"])
        won, lost, unknown = _counts(e)
        mark = " *" if who(e) == SOLVER_PEEKS else ""
        rows.append(f"| {GAMES[e['game']].display_name}{mark} | {thousands(e['computed_deals'])} | {thousands(won)} "
                    f"| {thousands(lost)} | {thousands(unknown)} | {interval_text(won, lost, unknown)} |")
    # A labelled scroll box: six columns do not fit a phone, and the page must not clip them.
    box = texts.table_box("\n".join(rows), "Tabla del atlas")
    if any(r.split(" |")[0].endswith("*") for r in rows[2:]):
        box += "\n\n\\* El resolvedor ve las cartas boca abajo: su cifra es un techo, no lo que gana una persona."
    return box


def csv_path(entry: Mapping[str, Any], root: Path | None = None) -> Path:
    """Where an entry's per-deal records are (``data/atlas/<key>.csv`` of the repository)."""
    root = root or Path(__file__).resolve().parents[2]
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
    "BRACKET",
    "FLOOR_WHO",
    "NOTHING_DECIDED",
    "PLAYER",
    "SOLVER",
    "SOLVER_PEEKS",
    "VARIANT_WORDS",
    "atlas_table",
    "student_table",
    "bracket_player",
    "class_table",
    "hides_cards",
    "limit_notes",
    "limits_text",
    "entry_label",
    "interval_text",
    "paired_statuses",
    "rate_text",
    "rows_with_players",
    "variant_name",
    "who",
]


def rows_with_players(entries: list[dict], players: list[dict]) -> list[dict]:
    """The solver rows, each solver row that sees face-down cards preceded by the no-peek
    player's row of the same game and variant (the bracket a person's rate lies in)."""
    rows: list[dict] = []
    order = list(dict.fromkeys(e["game"] for e in entries))  # each game's rows together, as in the table
    for e in sorted(entries, key=lambda e: order.index(e["game"])):
        if not e["computed_deals"]:
            continue
        if who(e) == SOLVER_PEEKS:
            rows += [p for p in players if p.get("player") == "heuristic" and p["computed_deals"]
                     and p["game"] == e["game"] and dict(p["variant"]) == dict(e["variant"])]  # fmt: skip
        rows.append(e)
    return rows
