"""Solvitaire (Blake & Gent's solver, GPL-2, an external program) as a peer in the benchmarks.

Only its command line and output are used; none of its code is here.

- `deal_json`: a Beleaguered Castle position as its deal file (``--type beleaguered-castle``:
  8 piles building down regardless of suit, single cards, aces on the foundations, no
  take-backs): ``{"tableau piles": [[bottom … top] × 8], "foundations": [every card home]}``,
  ten written "10".
- `verdict`: its ``Solution Type:`` line (``solved`` / ``unsolvable`` / ``timed-out`` /
  ``memory-limit-reached`` / ``terminated``) as won / lost / unknown, and its ``Unique States
  Searched``.
- `deal_read`: the deal as it read it (the first position it prints), to check against ours.
- `states`, `replay`: a solved run prints no moves but every position of its line after
  ``Solution:`` (foundation tops, then the tableau one row a line, bottom row first, columns
  split by tabs, ``[]`` for an empty pile); `replay` finds the single-card move between each
  two, plays it through our engine and checks the engine's position is the printed one.
- `run`: one run capped in CPU seconds (``ITIMER_PROF``, fractions of a second too, backed by
  ``RLIMIT_CPU``) and memory; its CPU from ``RUSAGE_CHILDREN``.  `run_smart`: its
  ``smart-solvability`` mode (both streamliners with a tenth of the time, then the plain search)
  as two runs on CPU time instead of its wall-clock timer, the second with the time left.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import NamedTuple

from solitaire_nb.core.moves import Move
from solitaire_nb.engine import Game
from solitaire_nb.solver.fcsolve import fits

KIND = "beleaguered-castle"
RULE = "==================================="
STATUS = {"solved": "won", "unsolvable": "lost"}  # anything else it prints is undecided
_RANKS = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
WON = json.dumps({"tableau piles": [[]] * 8, "foundations": [r + s for s in "CDHS" for r in _RANKS]})
"""A won position (every card home): the run that measures its start-up."""


class State(NamedTuple):
    tops: frozenset[str]  # foundation top cards, in our codes (ten as "T")
    piles: tuple[tuple[str, ...], ...]  # tableau piles left to right, bottom card first


def _theirs(code: str) -> str:
    return code.replace("T", "10")


def _ours(code: str) -> str:
    return code.replace("10", "T")


def plays(game: Game) -> bool:
    """True when ``--type beleaguered-castle`` plays `game`'s rules (fc-solve's Beleaguered
    Castle, read from the rules data, with single cards only and no take-backs)."""
    return fits(game) and not game.rules.tableau.runs and not game.rules.takeback


def deal_json(game: Game) -> str:
    """The position of `game` as a Solvitaire deal file for ``--type beleaguered-castle``."""
    if not plays(game):
        raise ValueError(f"Solvitaire no juega aquí las reglas de {game.display_name}")
    piles = [[_theirs(c.code) for c in game.pile(t)] for t in game.tableau_ids]
    home = [_theirs(c.code) for f in game.foundation_ids for c in game.pile(f)]
    return json.dumps({"tableau piles": piles, "foundations": home})


def verdict(text: str) -> tuple[str, int]:
    """(won / lost / unknown, unique states searched) from a run's standard output; a text with
    no ``Solution Type:`` line (a deal file it refused) is a ValueError."""
    m = re.search(r"^Solution Type: (\S+)$", text, re.M)
    if m is None:
        raise ValueError(f"Solvitaire no dio veredicto: {text[-200:]!r}")
    n = re.search(r"^Unique States Searched: (\d+)$", text, re.M)
    return STATUS.get(m.group(1), "unknown"), int(n.group(1)) if n else 0


def _positions(text: str, marker: str) -> Iterator[State]:
    """The positions printed after the line `marker`, up to the verdict."""
    if f"\n{marker}\n" not in "\n" + text:
        return
    body = ("\n" + text).split(f"\n{marker}\n", 1)[1].split("\nSolution Type:", 1)[0]
    for block in body.split(RULE):
        lines = [x for x in block.split("\n") if x]
        if not lines:
            continue
        if len(lines) < 4 or lines[0] != "--- Foundations ---------" or lines[2] != "--- Tableau Piles -------":
            raise ValueError(f"posición de Solvitaire inesperada: {block[:120]!r}")
        tops = frozenset(_ours(c) for c in lines[1].split("\t") if c != "[]")
        rows = [row.split("\t") for row in lines[3:]]
        piles: list[list[str]] = [[] for _ in rows[0]]
        for row in rows:
            for j, cell in enumerate(row):
                if cell and cell != "[]":
                    piles[j].append(_ours(cell))
        yield State(tops, tuple(map(tuple, piles)))


def states(text: str) -> list[State]:
    """The positions a solved run prints after ``Solution:``, the deal first ([] otherwise)."""
    return list(_positions(text, "Solution:"))


def deal_read(text: str) -> State | None:
    """The deal as a run read it: the first position it prints (after ``Solution:``, or after
    ``Deal:`` when it did not win); None when it printed none."""
    for marker in ("Solution:", "Deal:"):
        for first in _positions(text, marker):
            return first
    return None


def state_of(game: Game) -> State:
    """`game`'s position as `states` reads one."""
    tops = frozenset(game.pile(f)[-1].code for f in game.foundation_ids if game.pile(f))
    return State(tops, tuple(tuple(c.code for c in game.pile(t)) for t in game.tableau_ids))


def replay(game: Game, line: list[State]) -> list[Move] | None:
    """The moves of a printed line played on a copy of `game`: None unless the first position
    is `game`'s, each step is one card moved by a move the engine accepts and leading to the
    next printed position, and the last position is won."""
    g = game.copy()
    if not line or state_of(g) != line[0]:
        return None
    tabs, moves = g.tableau_ids, []
    for before, after in pairwise(line):
        if not len(before.piles) == len(after.piles) == len(tabs):
            return None
        grew = [len(q) - len(p) for p, q in zip(before.piles, after.piles, strict=True)]
        src = [j for j, d in enumerate(grew) if d == -1]
        dst = [j for j, d in enumerate(grew) if d == 1]
        if len(src) != 1 or len(dst) > 1 or grew.count(0) != len(grew) - 1 - len(dst):
            return None
        if dst:
            move = Move(tabs[src[0]], tabs[dst[0]], 1)
        else:
            home = [f for f in g.foundation_ids if g.can_move(tabs[src[0]], f)]
            if not home:
                return None
            move = Move(tabs[src[0]], home[0], 1)
        if not g.can_move(move):
            return None
        g.move(move)
        moves.append(move)
        if state_of(g) != after:
            return None
    return moves if g.is_won() else None


def child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _caps(cpu_seconds: float, memory_gib: float) -> Callable[[], None]:
    """A `preexec_fn`: SIGPROF after `cpu_seconds` of CPU (the timer survives exec), RLIMIT_CPU
    a second or two later as a backstop, and RLIMIT_AS."""
    def limit() -> None:
        signal.setitimer(signal.ITIMER_PROF, max(cpu_seconds, 0.001))
        secs = int(cpu_seconds) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (secs, secs + 1))
        size = int(memory_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    return limit


def run(exe: str, deal: str, streamliners: str, cpu_seconds: float, memory_gib: float) -> tuple[str, float]:
    """(standard output, CPU seconds) of one run on `deal` (a `deal_json` text) with
    ``--streamliners streamliners``; the output is "" when a cap stopped it."""
    fd, path = tempfile.mkstemp(suffix=".json")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(deal)
        c0 = child_cpu()
        proc = subprocess.run([exe, "--type", KIND, "--streamliners", streamliners, path],
                              capture_output=True, text=True, preexec_fn=_caps(cpu_seconds, memory_gib))
        used = child_cpu() - c0
    finally:
        os.unlink(path)
    if proc.returncode == 0:
        verdict(proc.stdout)  # a refused deal file must not pass as «undecided»
        return proc.stdout, used
    return "", used


def run_smart(exe: str, deal: str, cpu_seconds: float, memory_gib: float,
              startup: float) -> tuple[str, float, int]:
    """Its ``smart-solvability`` mode on CPU time: ``both`` streamliners with a tenth of
    `cpu_seconds`; unless that wins, ``none`` with the rest.  (Output of the deciding run, CPU
    seconds of both less `startup` each, unique states of both or 0 when a cap stopped the
    second, which then prints no count.)"""
    out, first = run(exe, deal, "both", cpu_seconds / 10, memory_gib)
    first = max(first - startup, 0.0)
    seen = verdict(out)[1] if out else 0
    if out and verdict(out)[0] == "won":
        return out, first, seen
    out, second = run(exe, deal, "none", cpu_seconds - first, memory_gib)
    return out, first + max(second - startup, 0.0), (seen + verdict(out)[1]) if out else 0


def main() -> None:
    """One deal through a Solvitaire binary: its verdict, states, CPU seconds and whether its
    line replays to a win in our engine."""
    import argparse

    from solitaire_nb import new_game

    ap = argparse.ArgumentParser(description="One Beleaguered Castle deal (no take-backs) through Solvitaire.")
    ap.add_argument("binary", help="path of a Solvitaire binary")
    ap.add_argument("--deal", type=int, default=1)
    ap.add_argument("--limit", type=float, default=5.0, help="CPU seconds")
    ap.add_argument("--memory", type=float, default=4.0, help="GiB of address space")
    ap.add_argument("--streamliners", default="none", help="none, or smart (on CPU time)")
    args = ap.parse_args()
    game = new_game("beleaguered_castle", seed=args.deal, takeback=False)
    deal = deal_json(game)
    if args.streamliners == "smart":
        out, cpu, _ = run_smart(args.binary, deal, args.limit, args.memory, 0.0)
    else:
        out, cpu = run(args.binary, deal, args.streamliners, args.limit, args.memory)
    status, count = verdict(out) if out else ("unknown", 0)
    ok = replay(game, states(out)) is not None if status == "won" else None
    print(f"deal {args.deal}: {status}, {count} states, {cpu:.3f} CPU s, line replayed to a win: {ok}")


if __name__ == "__main__":
    main()
