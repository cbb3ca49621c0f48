"""The win-rate atlas: how often each game and variant can be won (issue 7).

    python benchmarks/atlas.py                       # every entry, all cores, until done
    python benchmarks/atlas.py --workers 1 --hours 1.5 --entries beleaguered_castle_sin_devolver
    python benchmarks/atlas.py --summary-only        # rebuild data/atlas.json from the CSVs
    python benchmarks/atlas.py --markdown            # the same, as the Markdown table of benchmarks/RESULTS.md
    python benchmarks/atlas.py --retry-unknown ...   # first re-solve "unknown" rows (newer solver)
    python benchmarks/atlas.py --players --workers 1 # the player entries (not run by default)
    python benchmarks/atlas.py --dask tcp://host:8786 --workers 8 --entries citadel  # on a Dask cluster

Every entry is a fixed, documented range of numbered deals of one game + variant, solved with a
fixed ``max_states`` (so every record is the same on any machine).  Results stream to
``data/atlas/<entry>.csv`` (one row per deal, see `solitaire_nb.atlas.studyfile`), so the atlas is
built over several runs: a run stops when its time budget (``--hours``) is spent or the
entries are complete, and the next run resumes where it stopped.  After each chunk the summary
``data/atlas.json`` is rewritten from the CSVs: deal ranges (planned and computed), limits,
package and Python versions, date, counts, rates and 95% intervals (unknowns bracketed), the
paired Citadel–Beleaguered Castle comparison and the comparison with Blake & Gent.

Citadel and Beleaguered Castle entries use the same deal numbers, hence the same decks
(docs/reglas.md: one-deck games share the 52-card order of a number), so they can be compared deal by
deal.  A "won" or "lost" record is a proof (the solver replays every winning line; "lost" only
follows a complete search), so records stay valid when the solver gets faster; only
"unknown" depends on the solver and its cap.

Player entries (`PLAYER_ENTRIES`, summary key ``players``): the same machinery with a player
who does not see the face-down cards (`solitaire_nb.players.player`) instead of the solver: each
record says whether that player won the deal, its ``seconds`` is the time the game took.
They bound a game's win rate from below (what a good player who does not peek wins), as
the solver's entries bound it from above (what a player who sees everything wins).  Run
them with ``--players`` or by naming them in ``--entries``; a plain run leaves them alone.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import solitaire_nb as sn
from solitaire_nb.atlas.executors import InProcessExecutor
from solitaire_nb.atlas.files import replace_file
from solitaire_nb.atlas.result import WinRate
from solitaire_nb.atlas.studyfile import read_records, update_study
from solitaire_nb.atlas.winrate import win_rate

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"
CSV_DIR = DATA / "atlas"
SUMMARY = DATA / "atlas.json"
PACKAGED = REPO / "solitaire_nb" / "data" / "atlas.json"  # the copy a pip-installed package carries

DECIDED_BY = "solitaire_nb"
"""The solver that decided every deal of the solver entries (never fc-solve: see `entry_summary`)."""

# Blake & Gent, "The winnability of Klondike Solitaire and many other patience games"
# (Constraints, 2019; arXiv:1906.12314): Beleaguered Castle, 2,000,000 deals, no take-backs.
BLAKE_GENT = {"rate": 0.68170, "half_width": 0.00099, "deals": 2_000_000}


@dataclass(frozen=True)
class Entry:
    key: str  # file name under data/atlas/ and id in the summary
    game: str
    variant: dict = field(default_factory=dict)
    first: int = 1
    last: int = 1000
    max_states: int | None = 100_000
    note: str = ""  # Spanish: what the entry shows
    player: str | None = None  # a name in solitaire_nb.players.player.PLAYERS: played, not solved

    @property
    def deals(self) -> range:
        return range(self.first, self.last + 1)

    @property
    def csv(self) -> Path:
        return CSV_DIR / f"{self.key}.csv"


# The plan.  Order = priority: a budgeted run works through the entries in this order.
# Sized to the recomputation budget (`--list` sums the seconds each deal recorded; the
# figures are in benchmarks/RESULTS.md): the published Beleaguered Castle figure needs
# 20,000 deals, the other entries get as many deals as their cost allows (2,000 where a deal
# costs well under a second), with a lower cap where a deal that does not end quickly almost
# never ends at all (two decks, Scotch), so an unknown costs seconds, not minutes.
CAP = 100_000
# Beleaguered Castle without take-backs: the deals left undecided at 1,000,000 states were solved
# again at 5,000,000 (`--retry-unknown`; 2026-12-07, benchmarks/RESULTS.md «Larger tables»): with
# a cap over `solve`'s DEFAULT_MAX_TABLE each search's table holds that many keys, and most of
# those deals had stopped because every 1,000,000-key table was full
BC_CAP = 5_000_000
# Chequers: a deal is almost always won within 20,000 states; the larger cap only costs the
# few that are not (their search's first phase gets a quarter of it, so the cap changes records)
CHEQUERS_CAP = 200_000
# Baker's Dozen: every deal at 50,000 states first, then the undecided ones again at RETRY_CAP and
# (page rules, 2026-12-07) at BC_CAP (`--retry-unknown`; the file says its last cap); the castles with take-backs: every deal from an
# empty file (their first phase gets a share of the cap: a retry mixes budgets), Citadel at
# RETRY_CAP, Beleaguered Castle at BC_CAP (the same cap as without take-backs, so 07 compares
# the two rules' undecided deals at one limit)
RETRY_CAP = 1_000_000
ENTRIES = [
    # Beleaguered Castle without take-backs: every deal at CAP first, then the deals left
    # undecided again at 1,000,000 and at BC_CAP (`--retry-unknown`; the castles' schedule does
    # not depend on the cap, so the decided records are those BC_CAP gives — checked on the
    # decided deals with most states, whose tables could have filled; the file says BC_CAP once done)
    Entry("beleaguered_castle_sin_devolver", "beleaguered_castle", {"takeback": False}, 1, 20_000, BC_CAP,
          "Sin devolver cartas de la base, como Blake & Gent (68,170 % ± 0,099 %)."),
    Entry("citadel_sin_devolver", "citadel", {"takeback": False}, 1, 2_000, CAP,
          "Las mismas barajas que Beleaguered Castle: comparación partida a partida."),
    Entry("bakers_dozen", "bakers_dozen", {}, 1, 2_000, BC_CAP, "Regla de la página: palo distinto."),
    Entry("bakers_dozen_cualquier_palo", "bakers_dozen", {"any_suit": True}, 1, 2_000, RETRY_CAP,
          "Regla clásica (PySolFC, Aisleriot): sin importar el palo."),
    Entry("citadel", "citadel", {}, 1, 2_000, RETRY_CAP, "Reglas de la página: con devoluciones."),
    Entry("beleaguered_castle", "beleaguered_castle", {}, 1, 2_000, BC_CAP, "Reglas de la página: con devoluciones."),
    Entry("scotch", "scotch", {}, 1, 2_000, 20_000, "Bases en colores alternos."),
    Entry("chequers", "chequers", {}, 1, 2_000, CHEQUERS_CAP, "Con vuelta Rey–As (regla de la página)."),
    Entry("chequers_sin_vuelta", "chequers", {"wrap": False}, 1, 2_000, CHEQUERS_CAP, "Sin vuelta Rey–As."),
    Entry("moving_left", "moving_left", {}, 1, 100, 200_000,
          "Resuelto «con ventaja»: el resolvedor ve las cartas boca abajo y el mazo."),
    Entry("moving_left_desplazar", "moving_left", {"shift_left": True}, 1, 100, 10_000,
          "Con el desplazamiento a la izquierda de PySolFC; también «con ventaja»."),
]
# Players who do not peek (issue 25): the heuristic player over 10,000 deals where it is
# cheap, and the random and first-legal-move baselines on the first 1,000 of the same deals.
PLAYER_ENTRIES = [
    Entry("moving_left_jugador", "moving_left", {}, 1, 10_000, None,
          "Un jugador que no ve las cartas boca abajo ni el mazo (límite inferior).", "heuristic"),
    Entry("moving_left_azar", "moving_left", {}, 1, 1_000, None,
          "Referencia: una jugada legal al azar.", "random"),
    Entry("moving_left_primera", "moving_left", {}, 1, 1_000, None,
          "Referencia: siempre la primera jugada legal.", "first"),
    Entry("moving_left_desplazar_jugador", "moving_left", {"shift_left": True}, 1, 10_000, None,
          "El mismo jugador, con el desplazamiento a la izquierda de PySolFC.", "heuristic"),
    Entry("chequers_jugador", "chequers", {}, 1, 2_000, None,
          "Un jugador que no ve las cartas boca abajo de la reserva.", "heuristic"),
]
PAIRS = [("citadel_sin_devolver", "beleaguered_castle_sin_devolver"), ("citadel", "beleaguered_castle")]
BY_KEY = {e.key: e for e in ENTRIES + PLAYER_ENTRIES}


def solver_fingerprint() -> str:
    """First 12 hex digits of the solver sources' SHA-256 (every module of the package, in
    name order): which solver made the records."""
    import solitaire_nb.solver as solver

    digest = hashlib.sha256()
    for path in sorted(Path(solver.__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def load(entry: Entry) -> WinRate:
    """The records of `entry` already in its CSV (only deals inside its planned range)."""
    flags = sn.GAMES[entry.game].resolve_variant(entry.variant)
    result = WinRate(entry.game, flags, None, entry.max_states, [], entry.player)
    if entry.csv.exists():
        header, records = read_records(entry.csv)
        result.max_states = header.get("max_states", entry.max_states)  # the file's cap until a retry ends
        result.records = sorted((r for r in records if entry.first <= r.deal <= entry.last), key=lambda r: r.deal)
    return result


def entry_summary(entry: Entry) -> dict:
    result = load(entry)
    s = result.summary()
    s.update(
        key=entry.key,
        display_name=sn.GAMES[entry.game].display_name,
        note=entry.note,
        planned_first=entry.first,
        planned_last=entry.last,
        planned_deals=len(entry.deals),
        computed_deals=result.total,
        # computed deals form the prefix first..k of the range when a run is not interrupted
        # mid-chunk; say so, since a partial atlas must not hide gaps
        contiguous=[r.deal for r in result.records] == list(range(entry.first, entry.first + result.total)),
        complete=result.total == len(entry.deals),
        csv=str(entry.csv.relative_to(REPO)),
    )
    if entry.player is not None:
        from solitaire_nb.players.player import PLAYER_VERSION, PLAYERS

        s.update(player_name=PLAYERS[entry.player].display_name, player_version=PLAYER_VERSION,
                 seconds_per_deal=s["seconds"] / result.total if result.total else None)
    else:
        # which solver decided each deal: `solve_deal` calls `solve` without fc-solve, so every
        # verdict of a solver entry is the project's own search (the compiled core, where it is
        # installed, examines the same states in the same order as the pure-Python one)
        s.update(decided_by=DECIDED_BY)
    return s


def pair_summary(a_key: str, b_key: str) -> dict:
    a, b = load(BY_KEY[a_key]).by_deal(), load(BY_KEY[b_key]).by_deal()
    common = sorted(set(a) & set(b))
    counts = {"both_won": 0, "only_a": 0, "only_b": 0, "both_lost": 0, "undecided": 0}
    only_a, only_b = [], []
    for d in common:
        sa, sb = a[d].status, b[d].status
        if "unknown" in (sa, sb):
            counts["undecided"] += 1
        elif sa == sb == "won":
            counts["both_won"] += 1
        elif sa == sb == "lost":
            counts["both_lost"] += 1
        elif sa == "won":
            counts["only_a"] += 1
            only_a.append(d)
        else:
            counts["only_b"] += 1
            only_b.append(d)
    return {"a": a_key, "b": b_key, "common_deals": len(common), **counts,
            "only_a_deals": only_a[:50], "only_b_deals": only_b[:50]}


def blake_gent_summary() -> dict:
    s = entry_summary(BY_KEY["beleaguered_castle_sin_devolver"])
    ref_low = BLAKE_GENT["rate"] - BLAKE_GENT["half_width"]
    ref_high = BLAKE_GENT["rate"] + BLAKE_GENT["half_width"]
    overlap = s["computed_deals"] > 0 and s["interval_low"] <= ref_high and ref_low <= s["interval_high"]
    return {
        "entry": s["key"],
        "source": "Blake & Gent (2019), arXiv:1906.12314: Beleaguered Castle sin devoluciones, 2.000.000 partidas",
        "published_rate": BLAKE_GENT["rate"],
        "published_low": ref_low,
        "published_high": ref_high,
        "our_low": s["interval_low"],
        "our_high": s["interval_high"],
        "our_deals": s["computed_deals"],
        "overlap": bool(overlap),
        "enough_deals": s["computed_deals"] >= 20_000,
    }


def write_summary() -> dict:
    from solitaire_nb.atlas.intervals import Z95

    doc = {
        "description": "Atlas de porcentajes de victoria de solitaire_nb (benchmarks/atlas.py).",
        "generated": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
        "package_version": sn.__version__,
        "solver_sha256_12": solver_fingerprint(),
        "python_version": platform.python_version(),
        "platform": platform.platform(),
        "interval": f"Wilson 95 % (z = {Z95}); los «sin decidir» cuentan como perdidas en el extremo "
                    "inferior y como ganadas en el superior",
        "rate": "won / deals (los «sin decidir» cuentan como perdidas)",
        "limits": "max_states por partida (determinista), sin time_limit",
        "entries": [entry_summary(e) for e in ENTRIES],
        "pairs": [pair_summary(a, b) for a, b in PAIRS],
        "blake_gent": blake_gent_summary(),
        "players": [entry_summary(e) for e in PLAYER_ENTRIES],
        "players_note": "Jugadores que no ven las cartas boca abajo, el mazo ni la reserva "
                        "(solitaire_nb.players.player): «won» es una partida que el jugador gana; sin "
                        "max_states ni «sin decidir»",
    }
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    for path in (SUMMARY, PACKAGED):
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, text)  # the one way study and atlas files are written
    return doc


def print_table(doc: dict) -> None:
    print(f"{'entrada':34} {'hechas':>13} {'gan':>6} {'perd':>6} {'s/d':>6} {'%':>7} {'IC 95 %':>17} {'s':>8}")
    for s in doc["entries"]:
        if not s["computed_deals"]:
            print(f"{s['key']:34} {0:>6}/{s['planned_deals']:<6}")
            continue
        print(
            f"{s['key']:34} {s['computed_deals']:>6}/{s['planned_deals']:<6} {s['won']:>6} {s['lost']:>6} "
            f"{s['unknown']:>6} {100 * s['rate']:>6.2f} {100 * s['interval_low']:>7.2f}–{100 * s['interval_high']:<7.2f}"
            f" {s['seconds']:>8.0f}"
        )
    for p in doc["pairs"]:
        print(f"pareja {p['a']} / {p['b']}: {p['common_deals']} comunes, ambas {p['both_won']}, "
              f"solo la 1.ª {p['only_a']}, solo la 2.ª {p['only_b']}, ninguna {p['both_lost']}, "
              f"sin decidir {p['undecided']}")
    for s in doc.get("players", []):
        if s["computed_deals"]:
            print(f"{s['key']:34} {s['computed_deals']:>6}/{s['planned_deals']:<6} {s['won']:>6} {s['lost']:>6} "
                  f"{'':>6} {100 * s['rate']:>6.2f} {100 * s['interval_low']:>7.2f}–{100 * s['interval_high']:<7.2f}"
                  f" {s['seconds']:>8.0f}  ({s['player']}, {1000 * s['seconds_per_deal']:.0f} ms/partida)")
    bg = doc["blake_gent"]
    print(f"Blake & Gent: {100 * bg['published_low']:.3f}–{100 * bg['published_high']:.3f} %; nuestro "
          f"{100 * bg['our_low']:.2f}–{100 * bg['our_high']:.2f} % con {bg['our_deals']} partidas; "
          f"se solapan: {bg['overlap']}")


def markdown_table(doc: dict) -> str:
    """The summary as a Spanish Markdown table, for benchmarks/RESULTS.md."""

    def num(n: int) -> str:
        return f"{n:,}".replace(",", ".")

    def pct(x: float) -> str:
        return f"{100 * x:.1f}".replace(".", ",") + " %"

    rows = ["| entrada | variante | partidas | límite | con solución | sin solución | sin decidir | victorias | IC 95 % |",
            "|---|---|---|---|---|---|---|---|---|"]
    for s in doc["entries"]:
        flags = sn.GAMES[s["game"]].variants
        changed = ", ".join(f"`{k}={v}`" for k, v in s["variant"].items() if flags[k].default != v)
        done = f"{num(s['computed_deals'])} de {num(s['planned_deals'])}"
        rows.append(f"| {s['display_name']} | {changed or 'reglas de la página'} | {done} | {num(s['max_states'])} | "
                    f"{num(s['won'])} | {num(s['lost'])} | {num(s['unknown'])} | {pct(s['rate'])} | "
                    f"{pct(s['interval_low'])}–{pct(s['interval_high'])} |")
    return "\n".join(rows)


def players_markdown(doc: dict) -> str:
    """The player entries as a Spanish Markdown table, for benchmarks/RESULTS.md."""
    rows = ["| jugador | juego | variante | partidas | ganadas | victorias | IC 95 % | ms por partida |",
            "|---|---|---|---|---|---|---|---|"]
    for s in doc.get("players", []):
        if not s["computed_deals"]:
            continue
        flags = sn.GAMES[s["game"]].variants
        changed = ", ".join(f"`{k}={v}`" for k, v in s["variant"].items() if flags[k].default != v)
        pct = [f"{100 * x:.1f}".replace(".", ",") + " %" for x in (s["rate"], s["interval_low"], s["interval_high"])]
        num = [f"{n:,}".replace(",", ".") for n in (s["first_deal"], s["last_deal"], s["computed_deals"], s["won"])]
        rows.append(f"| {s['player_name']} | {s['display_name']} | {changed or 'reglas de la página'} | "
                    f"{num[2]} (n.º {num[0]}–{num[1]}) | {num[3]} | {pct[0]} | {pct[1]}–{pct[2]} | "
                    f"{1000 * s['seconds_per_deal']:.0f} |")
    return "\n".join(rows)


def run(entries: list[Entry], workers: int, deadline: float, chunk: int | None, max_deals: int | None,
        executor: object = None) -> None:
    """Solve what each entry still lacks (`executor`: a Dask cluster's; else `workers` processes)."""
    if executor is None:
        executor = InProcessExecutor() if workers == 1 else None
    for entry in entries:
        size = chunk or (500 if entry.player else 20)  # a player's deal takes a fraction of a second
        done = {r.deal for r in load(entry).records}
        todo = [d for d in entry.deals if d not in done]
        if max_deals is not None:
            todo = [d for d in todo if d < entry.first + max_deals]
        for i in range(0, len(todo), size):
            if time.monotonic() >= deadline:
                return
            part = todo[i:i + size]
            t0 = time.perf_counter()
            win_rate(entry.game, part, max_states=entry.max_states, executor=executor, workers=workers,
                     progress=False, out=entry.csv, player=entry.player, **entry.variant)
            doc = write_summary()
            s = next(x for x in doc["entries"] + doc["players"] if x["key"] == entry.key)
            print(f"{entry.key}: partidas {part[0]}–{part[-1]} en {time.perf_counter() - t0:.0f} s; "
                  f"{s['computed_deals']}/{s['planned_deals']} hechas, {s['won']} ganadas, {s['lost']} perdidas, "
                  f"{s['unknown']} sin decidir", flush=True)


def retry_unknown(entries: list[Entry], workers: int, deadline: float, chunk: int, executor: object = None) -> None:
    """Solve again, with the current solver and the entry's cap, the deals left "unknown" in
    its file, and put the new records in their place.

    Sound because "won" and "lost" are proofs whichever solver found them; the file then holds
    what the current solver says of those deals.  Where the entry's cap is now larger than the
    file's, the file's header takes the new cap: a deal decided within the old cap is decided
    the same way within the new one wherever the search's schedule does not depend on the cap
    below what it used (the castles' portfolio from `CASTLE_ALONE * CASTLE_ALONE_SHARE` states
    on; `tests/test_winrate.py` re-solves a sample of the records at the header's cap).  Progress goes to ``<entry>.retry.csv`` first, so an
    interrupted retry resumes too."""
    if executor is None:
        executor = InProcessExecutor() if workers == 1 else None
    for entry in entries:
        if not entry.csv.exists():
            continue
        side = entry.csv.with_suffix(".retry.csv")
        _, records = read_records(entry.csv)
        unknown = [r.deal for r in records if r.status == "unknown" and entry.first <= r.deal <= entry.last]
        redone = {r.deal for r in read_records(side)[1]} if side.exists() else set()
        todo = [d for d in unknown if d not in redone]
        for i in range(0, len(todo), chunk):
            if time.monotonic() >= deadline:
                break
            win_rate(entry.game, todo[i:i + chunk], max_states=entry.max_states, executor=executor,
                     workers=workers, progress=False, out=side, **entry.variant)
            print(f"{entry.key}: {min(i + chunk, len(todo))} de {len(todo)} partidas sin decidir resueltas de nuevo",
                  flush=True)
        if not side.exists():
            continue
        _, fresh = read_records(side)
        if {r.deal for r in fresh} < set(unknown):
            continue  # not finished: the file keeps its records and its cap until the retry ends
        new = {r.deal: r for r in fresh}
        # read, merge and rewrite under the study's lock: while another run appends to the
        # file, the retry is refused («está en uso»), so no row that run writes is lost
        def merge(params: dict, records: list, new: dict = new, cap: int | None = entry.max_states) -> list:
            if cap is not None and isinstance(params.get("max_states"), int) and cap > params["max_states"]:
                params["max_states"] = cap
            return [new.get(r.deal, r) if r.status == "unknown" else r for r in records]

        update_study(entry.csv, merge)
        side.unlink()
        changed = sum(1 for r in fresh if r.status != "unknown")
        print(f"{entry.key}: {len(fresh)} partidas sin decidir resueltas de nuevo; {changed} ya decididas", flush=True)
        write_summary()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--entries", help="comma-separated entry keys (default: all, in plan order)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (1: in-process)")
    ap.add_argument("--hours", type=float, default=None, help="time budget; stops after the chunk running then")
    ap.add_argument("--chunk", type=int, default=None,
                    help="deals per chunk between summary rewrites (default 20; 500 for a player)")
    ap.add_argument("--max-deals", type=int, default=None, help="only the first N deals of each entry's range")
    ap.add_argument("--summary-only", action="store_true", help="only rebuild data/atlas.json from the CSVs")
    ap.add_argument("--retry-unknown", action="store_true",
                    help="first solve again the deals left unknown (by an older, slower solver)")
    ap.add_argument("--players", action="store_true", help="run the player entries (after any --entries)")
    ap.add_argument("--list", action="store_true", help="print the plan and exit")
    ap.add_argument("--dask", metavar="ADDRESS", help="a dask.distributed scheduler (tcp://host:8786): solve on its "
                    "workers (--workers: deals in flight / 4, say its workers' total threads)")
    ap.add_argument("--markdown", action="store_true", help="print the summary as a Markdown table (benchmarks/RESULTS.md)")
    args = ap.parse_args(argv)
    if args.list:
        total = 0.0
        for e in ENTRIES + PLAYER_ENTRIES:
            result = load(e)
            seconds = sum(r.seconds for r in result.records)
            total += seconds
            limit = f"max_states={e.max_states:<7}" if e.player is None else f"jugador={e.player:<10}"
            print(f"{e.key:34} {e.game:20} {json.dumps(e.variant):24} {e.first}–{e.last} {limit}"
                  f" {result.total:>6} hechas, {seconds:>8.0f} s registrados")
        print(f"total: {total / 3600:.1f} h de un núcleo (los segundos que registra cada partida)")
        return
    if args.markdown:
        doc = write_summary()
        print(markdown_table(doc))
        print()
        print(players_markdown(doc))
        return
    entries = ENTRIES if not args.entries else [BY_KEY[k] for k in args.entries.split(",")]
    if args.players:
        entries = (entries if args.entries else []) + [e for e in PLAYER_ENTRIES if e not in entries]
    if not args.summary_only:
        deadline = time.monotonic() + (args.hours * 3600 if args.hours else float("inf"))
        where = f"el clúster de Dask {args.dask}" if args.dask else f"{args.workers} proceso(s)"
        print(f"solitaire_nb {sn.__version__}, solver {solver_fingerprint()}, Python {platform.python_version()}, "
              f"{where}; la máquina puede estar compartida: los tiempos son orientativos", file=sys.stderr)
        client = None
        if args.dask:
            import distributed  # the [dask] extra

            client = distributed.Client(args.dask)
        try:
            if args.retry_unknown:
                retry_unknown([e for e in entries if e.player is None], args.workers, deadline, args.chunk or 20,
                              client.get_executor() if client is not None else None)
            run(entries, args.workers, deadline, args.chunk, args.max_deals,
                client.get_executor() if client is not None else None)
        finally:
            if client is not None:
                client.close()
    print_table(write_summary())


if __name__ == "__main__":
    main()
