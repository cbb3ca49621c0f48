"""The two-deck fast paths (solver/twodeck.py for Moving Left, solver/twodeck_reserve.py for
Chequers) against the generic path, same deals, same run.

    python benchmarks/bench_twodeck.py [--game moving_left] [--deals 1-5] [--states 20000] [--repeat 3]
    python benchmarks/bench_twodeck.py --game chequers --strand 7S --deals 1-5 --states 20000
    python benchmarks/bench_twodeck.py --game chequers --verdicts --deals 1-50 --states 5000
    python benchmarks/bench_twodeck.py --game chequers --verdicts --small 3:2H --deals 1-20 --states 100000

Each deal is searched by both paths with the same fixed ``max_states`` (so both examine the
same number of states unless one decides first); the table gives each path's best processor
time over `--repeat` runs, interleaved, and the states per second.  The search is the
complete one with take-backs where the rules allow them (the second phase of `solve`).
With ``--strand CODE``, each deal is played as a practice position without both copies of
that card: no longer winnable, so that both paths examine exactly ``max_states`` states
(Chequers wins most deals within a few hundred).

With ``--verdicts``, each deal is solved once by `solve` (both phases) on each path with
``max_states=--states``: the counts of won, lost and undecided deals on each path, and every
deal where both decide and disagree (there must be none).  With ``--small RANK:CODES`` the
deals become small practice positions (see `small`) that both paths can search completely.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import Counter
from unittest import mock

import solitaire_nb as sn
from solitaire_nb.solver import portfolio, twodeck, twodeck_reserve
from solitaire_nb.solver.api import DEFAULT_MAX_TABLE
from solitaire_nb.solver.state import _Spec


def stranded(name: str, deal: int, flags: dict, code: str):
    """Deal `deal` as a practice position without both copies of card `code`."""
    g = sn.new_game(name, seed=deal, **flags)
    piles = {p: [c.code for c in g.pile(p) if c.code != code] for p in g.pile_ids}
    face_down = {  # a stock stays face down; elsewhere a top stays face up
        p: len(piles[p]) if g.pile_kind(p) == "S" else min(g.face_down(p), len(piles[p]) - 1)
        for p in g.pile_ids
        if piles[p]
    }
    return sn.Game.from_position(name, piles, face_down, **flags)


def small(name: str, deal: int, flags: dict, spec: str):
    """Deal `deal` as a small practice position, `spec` "RANK:CODES": one copy of each card
    up to RANK (the first dealt), without the cards CODES (e.g. "3:2H", a stranded suit);
    a reserve's cards join the first pile (a hole and a reserve cannot be together)."""
    rank, _, out = spec.partition(":")
    g = sn.new_game(name, seed=deal, **flags)
    seen: set[str] = set()
    piles: dict[str, list[str]] = {}
    for p in g.pile_ids:
        if g.pile_kind(p) == "F":
            continue
        piles[p] = []
        for c in g.pile(p):
            if c.rank <= int(rank) and c.code not in out and c.code not in seen:
                seen.add(c.code)
                piles[p].append(c.code)
    if "R" in piles:
        piles[g.tableau_ids[0]] += piles.pop("R")
    face_down = {p: len(q) for p, q in piles.items() if q and g.pile_kind(p) == "S"}
    return sn.Game.from_position(name, piles, face_down, **flags)


def run(game, fast: bool, cap: int) -> tuple[str, int, float]:
    spec = _Spec(game)
    if not fast:
        spec.two_deck = spec.two_deck_reserve = False
    t0 = time.process_time()
    status, _, states = portfolio._search(game, spec, None, cap, DEFAULT_MAX_TABLE)
    return status, states, time.process_time() - t0


def solve_on(game, fast: bool, cap: int):
    """`solve` (both phases) on the fast path the rules select, or with every fast
    two-deck path switched off."""
    if fast:
        return sn.solve(game, max_states=cap)
    off = lambda rules, decks: False  # noqa: E731
    with mock.patch.object(twodeck, "applies", off), mock.patch.object(twodeck_reserve, "applies", off):
        return sn.solve(game, max_states=cap)


def verdicts(name: str, flags: dict, deals: list[int], label: str, cap: int, spec: str = "") -> None:
    counts = {False: Counter(), True: Counter()}
    states = {False: 0, True: 0}
    seconds = {False: 0.0, True: 0.0}
    differ = []
    undecided: dict[bool, list[int]] = {False: [], True: []}
    lost_states_differ = []
    for deal in deals:
        game = small(name, deal, flags, spec) if spec else sn.new_game(name, seed=deal, **flags)
        got = {}
        lost_states = set()
        for fast in (False, True):
            t0 = time.process_time()
            r = solve_on(game, fast, cap)
            seconds[fast] += time.process_time() - t0
            got[fast] = r.status
            if r.status == "lost":
                lost_states.add(r.states)
            counts[fast][r.status] += 1
            if r.status == "unknown":
                undecided[fast].append(deal)
            states[fast] += r.states
        if "unknown" not in got.values() and got[False] != got[True]:
            differ.append((deal, got[False], got[True]))
        if len(lost_states) > 1:
            lost_states_differ.append(deal)
    what = f"practice positions {spec} of deals" if spec else "deals"
    print(f"{name} {flags or ''} {what} {label}, solve(max_states={cap:,})")
    print(f"{'path':>8} {'won':>5} {'lost':>5} {'unknown':>8} {'states':>10} {'s':>8}  undecided deals")
    for fast in (False, True):
        c = counts[fast]
        path = "fast" if fast else "generic"
        print(f"{path:>8} {c['won']:>5} {c['lost']:>5} {c['unknown']:>8} {states[fast]:>10,} {seconds[fast]:>8.1f}  {undecided[fast]}")
    print(f"both decide and disagree: {len(differ)} {differ if differ else ''}")
    # complete searches of the same canonical states: a lost deal takes as many on each path
    print(f"both lost, after different numbers of states: {len(lost_states_differ)} {lost_states_differ or ''}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="moving_left")
    ap.add_argument("--deals", default="1-5", help="a range, or a comma-separated list")
    ap.add_argument("--states", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variant", default="", help="e.g. shift_left=1 or wrap=0,reserve_playable=0")
    ap.add_argument("--strand", default="", help="leave out both copies of this card (e.g. 7S)")
    ap.add_argument("--small", default="", help='with --verdicts: small practice positions, "RANK:CODES"')
    ap.add_argument("--verdicts", action="store_true", help="compare solve's verdicts instead of speed")
    args = ap.parse_args()
    if "-" in args.deals:
        a, b = (int(x) for x in args.deals.split("-"))
        deals = list(range(a, b + 1))
    else:
        deals = [int(x) for x in args.deals.split(",")]
    flags = {k: bool(int(v)) for k, v in (kv.split("=") for kv in args.variant.split(",") if kv)}
    if args.verdicts:
        verdicts(args.game, flags, deals, args.deals, args.states, args.small)
        return
    title = sn.new_game(args.game, seed=1, **flags).display_name
    if args.variant:
        title += f" ({args.variant})"
    if args.strand:
        title += f" without {args.strand}"
    print(f"{title}, complete search with take-backs, {args.states:,} states, best of {args.repeat}")
    print(f"{'deal':>5} {'generic':>16} {'s':>7} {'states/s':>9} {'two-deck':>16} {'s':>7} {'states/s':>9} {'ratio':>6}")
    gc.disable()
    try:
        for deal in deals:
            game = stranded(args.game, deal, flags, args.strand) if args.strand else sn.new_game(args.game, seed=deal, **flags)
            best = {}
            for _ in range(args.repeat):
                for fast in (False, True):
                    status, states, sec = run(game, fast, args.states)
                    old = best.get(fast)
                    best[fast] = (status, states, sec if old is None else min(old[2], sec))
            (s0, n0, t0), (s1, n1, t1) = best[False], best[True]
            print(f"{deal:>5} {s0 + ' ' + str(n0):>16} {t0:>7.2f} {n0 / t0:>9.0f} {s1 + ' ' + str(n1):>16} {t1:>7.2f} {n1 / t1:>9.0f} {(n1 / t1) / (n0 / t0):>6.1f}")
    finally:
        gc.enable()


if __name__ == "__main__":
    main()
