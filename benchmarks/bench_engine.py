"""Random-playout throughput of the rules engine, per game (moves played per second).

Each playout starts from a numbered deal and repeatedly asks `legal_moves()`, picks one at
random and plays it with `move()` (the public API, so legality checks and automatic actions
are included), until the game is won, stuck, or `--max-moves` moves were played.  Time is the process's CPU
time, so other programs on the machine disturb the figure less (on an idle machine it equals
the wall-clock time of this single-threaded loop).

    python benchmarks/bench_engine.py [--seconds 3] [--max-moves 300]
"""

from __future__ import annotations

import argparse
import random
import time

from solitaire_nb import GAMES, new_game


def random_game(g, rng: random.Random, max_moves: int) -> int:
    """Play random legal moves on `g` (anything with `legal_moves()` and `move()`) until it is
    stuck or `max_moves` are played; the moves played."""
    for n in range(max_moves):
        legal = g.legal_moves()
        if not legal:
            return n
        g.move(rng.choice(legal))
    return max_moves


def playout_rate(name: str, seconds: float, max_moves: int) -> tuple[float, int]:
    rng = random.Random(12345)
    moves = 0
    deal = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        deal += 1
        moves += random_game(new_game(name, seed=deal), rng, max_moves)
    return moves / (time.process_time() - start), deal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--max-moves", type=int, default=300)
    args = ap.parse_args()
    print(f"{'juego':<20} {'movimientos/s':>14} {'partidas':>9}")
    for name in GAMES:
        rate, deals = playout_rate(name, args.seconds, args.max_moves)
        print(f"{name:<20} {rate:>14,.0f} {deals:>9}")


if __name__ == "__main__":
    main()
