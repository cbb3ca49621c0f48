"""How big Moving Left's state space is: the figures behind docs/solver.md's argument.

Two measurements on the two-deck fast path (`solver/twodeck.py`, take-backs allowed, the
search that would have to finish to prove a deal lost):

* ``--search``: the complete best-first search from whole deals for ``--states`` examined
  positions: how many distinct positions it reached (its table), how many moves a position
  has (before and after merging transpositions), the most cards home and the fewest stock
  cards left among the positions it examined, and processor seconds.
* ``--ranks``: every position reachable from small versions of the deals (both copies of
  each card up to a rank, in the deal's order; each pile's top face up, the rest face down;
  the stock in its order), counted breadth-first without stopping at a win, up to
  ``--keys`` positions: how the space grows with each rank added.

Prints Markdown tables for benchmarks/RESULTS.md.

    python benchmarks/bench_ml_space.py --search --deals 3,4,7 --states 100000
    python benchmarks/bench_ml_space.py --ranks 1-4 --deals 1-5 --keys 3000000
"""

from __future__ import annotations

import argparse
import sys
import time

import solitaire_nb as sn
from solitaire_nb.solver import twodeck


class Counted(twodeck.TwoDeck):
    """The two-deck space, counting what the search asks of it."""

    def __init__(self, game, takeback: bool):
        super().__init__(game, takeback)
        self.expanded = 0
        self.moves = 0
        self.most_home = 0
        self.least_stock = self.root[2]

    def children(self, pos) -> list:
        out = super().children(pos)
        self.expanded += 1
        self.moves += len(out)
        self.most_home = max(self.most_home, sum(pos[1]))
        self.least_stock = min(self.least_stock, pos[2])
        return out


def parse_deals(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


class Spy:
    """Wraps the best-first loop of `twodeck.search` to keep a reference to its table."""

    def __init__(self) -> None:
        self.table: dict = {}
        self.real = twodeck.best_first

    def __call__(self, root_key, root, root_score, expand, cap, max_table, deadline, every):
        def keeping(key, pos, parent, heap):
            self.table = parent
            return expand(key, pos, parent, heap)

        return self.real(root_key, root, root_score, keeping, cap, max_table, deadline, every)


def search_table(deals: list[int], cap: int) -> None:
    print(
        "| deal | examined | reached | reached per examined | moves per position | most cards home "
        "| fewest stock cards left | bytes per table entry | processor s |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for d in deals:
        game = sn.new_game("moving_left", seed=d)
        spaces: list[Counted] = []

        def space(g, takeback, _spaces=spaces):
            _spaces.append(Counted(g, takeback))
            return _spaces[-1]

        spy = Spy()
        twodeck.best_first = spy
        try:
            t = time.process_time()
            status, _, states = twodeck.search(game, True, None, cap, 10 * cap + 10, space=space)
            cpu = time.process_time() - t
        finally:
            twodeck.best_first = spy.real
        sp = spaces[0]
        reached = len(spy.table)
        print(
            f"| {d} | {states:,} | {reached:,} | {reached / max(states, 1):.1f} | {sp.moves / max(sp.expanded, 1):.1f} "
            f"| {sp.most_home} | {sp.least_stock} | {table_bytes(spy.table):.0f} | {cpu:.1f} |"
            + ("" if status == "unknown" else f" ({status})"),
            flush=True,
        )


def table_bytes(parent: dict) -> float:
    """Mean bytes of a table entry: its key, its link to the parent (the tuple and its move
    list) and the dict's slot (three words and an index), over up to 10,000 entries."""
    total = n = 0
    for k, v in parent.items():
        total += sys.getsizeof(k) + 32
        if v is not None:
            total += sys.getsizeof(v) + sys.getsizeof(v[1])
        n += 1
        if n == 10_000:
            break
    return total / max(n, 1)


def small_deal(deal: int, rank: int):
    """Deal `deal` of Moving Left with only the cards up to `rank` (both copies), in the
    deal's order; each tableau pile's top face up and the rest face down, as dealt."""
    g = sn.new_game("moving_left", seed=deal)
    piles: dict[str, list[str]] = {}
    face_down: dict[str, int] = {}
    for p in (*g.tableau_ids, "S"):
        piles[p] = [c.code for c in g.pile(p) if c.rank <= rank]
        if piles[p]:
            face_down[p] = len(piles[p]) if p == "S" else len(piles[p]) - 1
    return sn.Game.from_position("moving_left", piles, face_down)


def count_reachable(game, cap: int) -> tuple[int, bool, bool]:
    """(distinct canonical positions reachable, whether the count finished under `cap`,
    whether a won position is among them), breadth-first over the two-deck space."""
    sp = twodeck.TwoDeck(game, True)
    key, children, won = sp.key, sp.children, sp.won
    seen = {key(sp.root)}
    frontier = [sp.root]
    any_won = won(sp.root)
    while frontier:
        nxt = []
        for pos in frontier:
            for _, child in children(pos):
                k = key(child)
                if k in seen:
                    continue
                seen.add(k)
                if len(seen) > cap:
                    return len(seen), False, any_won
                any_won = any_won or won(child)
                nxt.append(child)
        frontier = nxt
    return len(seen), True, any_won


def ranks_table(deals: list[int], ranks: list[int], cap: int) -> None:
    print("| deal | ranks | cards | reachable positions | a win among them | processor s |")
    print("|---:|---:|---:|---:|---|---:|")
    for d in deals:
        for r in ranks:
            game = small_deal(d, r)
            t = time.process_time()
            n, done, won = count_reachable(game, cap)
            cpu = time.process_time() - t
            count = f"{n:,}" if done else f"more than {cap:,}"
            print(f"| {d} | 1–{r} | {game.total_cards} | {count} | {'yes' if won else 'no'} | {cpu:.1f} |", flush=True)
            if not done:
                break


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--search", action="store_true", help="the complete search from whole deals")
    ap.add_argument("--ranks", default="", help="small deals up to these ranks, e.g. 1-4")
    ap.add_argument("--deals", default="3,4,7", help="deal numbers, e.g. 1-5 or 3,4,7")
    ap.add_argument("--states", type=int, default=100_000, help="--search: positions to examine")
    ap.add_argument("--keys", type=int, default=2_000_000, help="--ranks: most positions to count")
    args = ap.parse_args()
    deals = parse_deals(args.deals)
    if args.search:
        search_table(deals, args.states)
    if args.ranks:
        ranks_table(deals, parse_deals(args.ranks), args.keys)


if __name__ == "__main__":
    main()
