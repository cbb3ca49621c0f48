"""Kernel-side latency of the board, per game: from a click message arriving to the new view
state being ready (SVG, status, message and move list computed, and the view encoded as JSON
as the comm would send it).

Random play through the board's own message handler, as the front end sends it: one click on
the source card (selection) and one on the target pile (the move); both are timed.  When a
deal has no move left, a new deal starts (not timed).  Target: median under 15 ms for every
game, Chequers included.

A second table redraws one mid-game position many times (`Board.refresh` and the JSON
encoding) and prints the fastest and the median run: on a shared machine the fastest run is the
figure that compares two versions of the code (run this script with each on PYTHONPATH).

    python benchmarks/bench_board.py [--clicks 400] [--seed 1] [--redraws 300]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from solitaire_nb import GAMES, new_game
from solitaire_nb.board import Board


def timed(board: Board, msg: dict) -> float:
    start = time.perf_counter()
    board._handle_custom_msg(msg, [])
    json.dumps(board.view)  # what the comm does with the new state before sending it
    return (time.perf_counter() - start) * 1000


def clicks_for(name: str, clicks: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    deal = seed
    board = Board(new_game(name, seed=deal))
    times: list[float] = []
    while len(times) < clicks:
        g = board.game
        legal = g.legal_moves()
        if not legal or g.moves_played >= 300:
            deal += 1
            board.game = new_game(name, seed=deal)
            continue
        move = rng.choice(legal)
        if move.src == "S":
            times.append(timed(board, {"event": "click", "pile": "S", "index": None}))
            continue
        index = len(g.piles[move.src]) - move.n_cards
        times.append(timed(board, {"event": "click", "pile": move.src, "index": index}))
        times.append(timed(board, {"event": "click", "pile": move.dst, "index": None}))
        assert g.history[-1] == move, board.view["message"]
    return times


def redraws_for(name: str, redraws: int, seed: int) -> list[float]:
    """Time `redraws` redraws of the position after 20 random moves (fewer if the deal ends)."""
    rng = random.Random(seed)
    board = Board(new_game(name, seed=seed))
    g = board.game
    for _ in range(20):
        legal = g.legal_moves()
        if not legal:
            break
        g.move(rng.choice(legal))
    times = []
    for _ in range(redraws):
        start = time.perf_counter()
        board.refresh()
        json.dumps(board.view)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--clicks", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--redraws", type=int, default=300)
    args = ap.parse_args()
    print(f"{'juego':<20} {'clics':>6} {'mediana ms':>11} {'p90 ms':>8} {'máx ms':>8}")
    for name in GAMES:
        t = sorted(clicks_for(name, args.clicks, args.seed))
        p90 = t[int(0.9 * (len(t) - 1))]
        print(f"{name:<20} {len(t):>6} {statistics.median(t):>11.2f} {p90:>8.2f} {t[-1]:>8.2f}")
    print()
    print(f"{'juego':<20} {'redibujos':>9} {'mínimo ms':>10} {'mediana ms':>11}")
    for name in GAMES:
        t = redraws_for(name, args.redraws, args.seed)
        print(f"{name:<20} {len(t):>9} {min(t):>10.3f} {statistics.median(t):>11.3f}")


if __name__ == "__main__":
    main()
