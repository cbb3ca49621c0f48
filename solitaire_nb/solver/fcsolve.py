"""Freecell Solver's `fc-solve` (Debian: freecell-solver-bin) as an optional second solver.

`fc_solve_board` writes a position in its board format (``fc-solve -g beleaguered_castle``:
a line ``Foundations: H-A C-A D-A S-A`` with each foundation's top rank, then one ``: `` line
per tableau pile, bottom card first), for the cross-check tests and the benchmarks.
`fc_solve_line` runs it on a position (`solve(..., fc_solve=True)`, after our own search left
it undecided): found on ``PATH``, capped in states (``-mi``), CPU time and memory, and its
line counts only once it is expanded into single-card moves and replayed to a win through the
engine.  Its "could not solve" is never read: only our complete search proves a loss.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable

from ..core.moves import Move
from ..engine import Game

FC_ITERATIONS = 1_000_000
"""fc-solve's state cap (``-mi``) when the caller gave no ``max_states`` (about 1 KB a state)."""
FC_MEMORY_GIB = 2.0
"""fc-solve's address space (``RLIMIT_AS``): it used 6–9 GB on hard deals without a cap."""
FC_SECONDS = 30.0
"""fc-solve's CPU seconds when the caller gave no ``time_limit``."""
FC_NAME = "fc-solve"

_SUITS = "HCDS"  # the order of fc-solve's foundations line
_MOVE = re.compile(r"Move (a card|\d+ cards) from stack (\d+) to (the foundations|stack (\d+))")


def fits(game: Game) -> bool:
    """True when fc-solve's Beleaguered Castle plays `game`'s rules (read from its rules data,
    whatever the game is called): eight open tableau piles building down regardless of suit, any
    card in a hole, four foundations up by suit, one deck, nothing played by itself after a
    move.  Take-backs may be allowed: a line without them is a line here too."""
    r = game.rules
    return (
        r.tableau_count == 8
        and r.tableau.build == "down" and r.tableau.suits == "any" and not r.tableau.wrap
        and r.tableau.empty == "any"
        and len(r.foundations) == 4
        and all(f.direction == "up" and f.suits == "same" for f in r.foundations)
        and not (r.reserve or r.stock or r.waste or r.refill_from_reserve or r.shift_left)
        and not (r.autoplay or r.face_down_tableau)
        and game.total_cards == 52
    )


def fc_solve_board(game: Game) -> str:
    """The position of `game` (`fits`) as fc-solve reads it."""
    if not fits(game):
        raise ValueError(f"fc-solve no juega las reglas de {game.display_name} (solo las de Beleaguered Castle)")
    tops = {}
    for f in game.foundation_ids:
        pile = game.pile(f)
        if pile:
            tops[pile[-1].suit] = pile[-1].code[0]  # fc-solve writes ten as T, as we do
    lines = ["Foundations: " + " ".join(f"{s}-{tops.get(s, '0')}" for s in _SUITS)]
    lines += [": " + " ".join(c.code for c in game.pile(t)) for t in game.tableau_ids]
    return "\n".join(lines) + "\n"


def find() -> str | None:
    """fc-solve's path (on ``PATH``, or Debian's ``/usr/games``), None where it is absent or no
    program can be capped (no `resource` module: Windows, Pyodide)."""
    try:
        import resource  # noqa: F401
    except ImportError:
        return None
    return shutil.which(FC_NAME) or shutil.which(FC_NAME, path="/usr/games")


def _limits(cpu_seconds: float, memory_gib: float) -> Callable[[], None]:
    """A `preexec_fn` capping the child's CPU time (whole seconds, at least 1) and memory."""

    def limit() -> None:
        import resource  # POSIX only, like `find`

        secs = max(1, int(cpu_seconds + 0.5))
        resource.setrlimit(resource.RLIMIT_CPU, (secs, secs + 1))
        size = int(memory_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return limit


def _child_cpu() -> float:
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run(exe: str, board: str, iterations: int, cpu_seconds: float, wall_seconds: float) -> tuple[str, int, float]:
    """fc-solve's move list for `board` (``-m``), the states it says it checked and the CPU
    seconds it used; "" when it did not win (capped, killed after `wall_seconds`, out of
    memory, or "could not solve", which is not read)."""
    args = [exe, "-g", "beleaguered_castle", "-sel", "-m", "-mi", str(max(1, iterations)), "-"]
    c0 = _child_cpu()
    try:
        proc = subprocess.run(
            args, input=board, capture_output=True, text=True, timeout=max(wall_seconds, 0.05),
            preexec_fn=_limits(cpu_seconds, FC_MEMORY_GIB),
        )
    except (OSError, subprocess.SubprocessError):  # absent, not runnable, or out of time
        return "", 0, _child_cpu() - c0
    cpu = _child_cpu() - c0
    m = re.search(r"Total number of states checked is (\d+)", proc.stdout)
    states = int(m.group(1)) if m else 0
    if proc.returncode != 0 or "This game is solveable." not in proc.stdout:
        return "", states, cpu
    return proc.stdout, states, cpu


def _expand(g: Game, src: str, dst: str, n: int, spare: list[str]) -> list[Move]:
    """Single-card moves carrying the top `n` cards of `src` to `dst` through the empty piles
    `spare` (a run of n ≤ 2^len(spare) cards: half to a hole, the rest to `dst`, the half after
    it), played on `g` as they are made.  The engine refuses what is not legal."""
    if n == 1:
        move = Move(src, dst, 1)
        g.move(move)
        return [move]
    if not spare:
        raise ValueError("no hole left for a run")
    hole, rest = spare[0], spare[1:]
    half = n // 2
    moves = _expand(g, src, hole, half, rest)
    moves += _expand(g, src, dst, n - half, rest)
    return moves + _expand(g, hole, dst, half, rest)


def replay(game: Game, text: str) -> list[Move] | None:
    """fc-solve's ``-m`` moves as engine moves played on a copy of `game`: None unless every one
    is legal in the engine and the last wins."""
    g = game.copy()
    tabs, out = g.tableau_ids, []
    try:
        for kind, a, home, b in _MOVE.findall(text):
            src = tabs[int(a)]
            if home.startswith("the"):
                dst = next(f for f in g.foundation_ids if g.can_move(src, f))
                out.append(Move(src, dst, 1))
                g.move(out[-1])
                continue
            dst = tabs[int(b)]
            n = 1 if kind == "a card" else int(kind.split()[0])
            spare = [t for t in tabs if t not in (src, dst) and not g.pile(t)]
            out += _expand(g, src, dst, n, spare)
    except (ValueError, IndexError, StopIteration):
        return None  # an illegal step: the line is not ours to trust
    return out if g.is_won() else None


def available(game: Game) -> bool:
    """True when fc-solve is installed and plays `game`'s rules."""
    return fits(game) and find() is not None


def fc_solve_line(game: Game, iterations: int | None, seconds: float | None) -> tuple[list[Move] | None, int, float]:
    """A winning line found by fc-solve and replayed through the engine (None if it is absent,
    does not play these rules, stops, or prints a line that does not win), the states it
    checked and its CPU seconds.  `seconds` caps its CPU time (`FC_SECONDS` when None) and its
    wall time at twice that and a second more (a busy computer gives it less than a whole
    processor); `iterations` caps its states (`FC_ITERATIONS` when None)."""
    exe = find()
    if exe is None or not fits(game):
        return None, 0, 0.0
    cpu = FC_SECONDS if seconds is None else seconds
    cap = FC_ITERATIONS if iterations is None else iterations
    text, states, used = run(exe, fc_solve_board(game), cap, cpu, 2 * cpu + 1)
    return (replay(game, text) if text else None), states, used
