"""The rules engine against plain lists: Beleaguered Castle random games, moves per CPU second.

    python benchmarks/bench_engine_lists.py [--rounds 10] [--deals 20] [--max-moves 300]

Two players of the same random games (default rules, take-backs on, as `bench_engine.py`):

- **engine**: `new_game("beleaguered_castle", seed=n)` (not timed), then `legal_moves()` and `move()`
  through the public API (legality checked, history kept, every step returned), until stuck
  or `--max-moves` moves;
- **lists**: a naive implementation written here (twelve Python lists of cards as small
  integers, the move list built by loops over the piles' top cards, a move is ``append(pop())``
  and a history entry), dealt from the same game (not timed), choosing with the same random
  generator.

Before timing, every deal is played by both side by side and their move lists must be equal
at every step (same moves, same order), so both play the same games.  Then the two run in
turns (`--rounds` rounds of `--deals` deals each, the order swapped every round) and each
one's time is `time.process_time` (CPU time: a loaded machine disturbs it less).  Prints both
rates (moves per CPU second), their ratio (engine ÷ lists, target ≥ 0.9) and the spread over
the rounds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from bench_engine import random_game  # the same random player as bench_engine.py (this folder is on sys.path)

from solitaire_nb import new_game
from solitaire_nb.games.beleaguered_castle import FOUNDATION_SUITS

GAME = "beleaguered_castle"


class Lists:
    """Beleaguered Castle with take-backs on twelve lists: T0…T7, then F0…F3 (♠ ♥ ♦ ♣); a
    card is the number 4 × rank + suit (so 0 is "no card" and 4 × rank is a suit's base)."""

    ACES = [4 + "SHDC".index(s) for s in FOUNDATION_SUITS]

    def __init__(self, game) -> None:
        self.piles = [[4 * c.rank + "SHDC".index(c.suit) for c in game.pile(p)] for p in game.pile_ids]
        self.history: list[tuple[int, int]] = []

    def legal_moves(self) -> list[tuple[int, int]]:
        tops = [p[-1] if p else 0 for p in self.piles]
        ranks = [c >> 2 for c in tops[:8]]  # 0 for a hole
        out = []
        for s in range(12):
            c = tops[s]
            if not c:
                continue
            up = (c >> 2) + 1  # never a pile's own rank: a pile never takes its own top
            for d in range(8):
                r = ranks[d]
                if r == up or not r:
                    out.append((s, d))
            if s < 8:
                for d in range(8, 12):
                    t = tops[d]
                    if (t == c - 4) if t else c == self.ACES[d - 8]:
                        out.append((s, d))
        return out

    def move(self, m: tuple[int, int]) -> None:
        self.piles[m[1]].append(self.piles[m[0]].pop())
        self.history.append(m)


def play(games: list, max_moves: int, seed: int) -> int:
    """Random games from each dealt game (either player's): moves played."""
    rng = random.Random(seed)
    return sum(random_game(g, rng, max_moves) for g in games)


DEAL = {"engine": lambda deal: new_game(GAME, seed=deal), "lists": lambda deal: Lists(new_game(GAME, seed=deal))}


def check_same_games(deals: range, max_moves: int, seed: int) -> None:
    """Both play every deal side by side: the same legal moves, in the same order, each step."""
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for deal in deals:
        g = new_game(GAME, seed=deal)
        ids = {p: i for i, p in enumerate(g.pile_ids)}
        lists = Lists(g)
        for step in range(max_moves):
            legal = g.legal_moves()
            mine = lists.legal_moves()
            assert [(ids[m.src], ids[m.dst]) for m in legal] == mine, (deal, step)
            if not legal:
                break
            g.move(rng_a.choice(legal))
            lists.move(rng_b.choice(mine))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--deals", type=int, default=20, help="deals per round")
    ap.add_argument("--max-moves", type=int, default=300)
    args = ap.parse_args()
    check_same_games(range(1, args.deals + 1), args.max_moves, 7)
    print(f"{GAME}, {args.rounds} rounds of {args.deals} deals, ≤ {args.max_moves} moves a deal; "
          f"same moves checked; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    rates: dict[str, list[float]] = {"engine": [], "lists": []}
    for k in range(args.rounds):
        deals = range(1 + k * args.deals, 1 + (k + 1) * args.deals)
        for name in ("engine", "lists") if k % 2 == 0 else ("lists", "engine"):
            games = [DEAL[name](d) for d in deals]  # dealing is not timed
            t0 = time.process_time()
            n = play(games, args.max_moves, k)
            rates[name].append(n / (time.process_time() - t0))
    print(f"{'player':8} {'moves/CPU s (median)':>21} {'min':>9} {'max':>9}")
    for name, r in rates.items():
        print(f"{name:8} {statistics.median(r):21,.0f} {min(r):9,.0f} {max(r):9,.0f}")
    ratios = [e / li for e, li in zip(rates["engine"], rates["lists"], strict=True)]
    print(f"engine ÷ lists: median {statistics.median(ratios):.2f} (rounds {min(ratios):.2f}–{max(ratios):.2f})")


if __name__ == "__main__":
    main()
