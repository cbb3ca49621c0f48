"""Positions in the board format of Freecell Solver's `fc-solve` (Debian: freecell-solver-bin),
so that our solver's verdicts can be checked against an independent one.

Only Beleaguered Castle and Citadel positions have an fc-solve equivalent
(``fc-solve -g beleaguered_castle``): a line ``Foundations: H-A C-A D-A S-A`` with each
foundation's top rank, then one ``: `` line per tableau pile, bottom card first."""

from __future__ import annotations

from ..engine import Game


def fc_solve_board(game: Game) -> str:
    """The position of a Beleaguered Castle or Citadel game as fc-solve reads it."""
    if game.name not in ("beleaguered_castle", "citadel"):
        raise ValueError(f"fc-solve solo juega Beleaguered Castle y Citadel, no {game.display_name}")
    tops = {}
    for f in ("F0", "F1", "F2", "F3"):
        pile = game.piles[f]
        if pile:
            tops[pile[-1].suit] = pile[-1].code[0]  # fc-solve writes ten as T, as we do
    lines = ["Foundations: " + " ".join(f"{s}-{tops.get(s, '0')}" for s in "HCDS")]
    lines += [": " + " ".join(c.code for c in game.piles[f"T{i}"]) for i in range(8)]
    return "\n".join(lines) + "\n"
