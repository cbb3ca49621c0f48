"""The heuristic player ("heuristic", the good player who does not peek: its rules are
`Heuristic`'s docstring) and `Varied` ("varied"), the same player with seeded noise on its
preferences (the thoughtful solver plays many of them out, `solver.rollouts`).
"""

from __future__ import annotations

import math
from typing import Any

from ..core.cards import Card
from ..core.moves import Move
from ..core.shuffle import SplitMix64
from .base import Player, legal_moves
from .scene import Scene, Table, ViewKey, is_run

_NEVER = None  # a move the heuristic player never makes

STALL = 60
"""Most moves in a row that bring no card home, turn none up and take none from the waste
or the reserve; then the player gives up."""

# Move scores (the stock scores 0: a move scoring more is played first; one scoring less,
# only when the stock is empty).  Tuned on Moving Left deals 50,001-50,600, not on the
# atlas's deals: home plays that are not safe early but low (a card on the tableau is a
# place for another), the waste's card before uncovering, moves that only prepare a later
# play barely above the stock.
W = {
    "safe": 1000.0,  # a card home that no card in play could be built on
    "waste": 600.0,  # the waste's (or reserve's) card onto the tableau
    "waste_hole": 610.0,  # ... into a hole that only Kings fill: a King leaves the waste
    "waste_home": 500.0,  # added when the waste's (or reserve's) card goes home
    "reveal": 500.0,  # the whole face-up part moves and a face-down card turns up
    "reveal_fd": 1.0,  # ... per face-down card of that pile (dig where most are hidden)
    "refill": 450.0,  # emptying a pile the reserve refills (Chequers): its next card shows
    "expose_reveal": 450.0,  # part of a sequence moves and the card left on top takes the
    # face-up part of another pile that lies on face-down cards
    "home_reveal": 300.0,  # added when a card going home turns a face-down card up
    "takeback": 150.0,  # a card back from home that takes a card waiting to be played
    "empty_any": 150.0,  # emptying a pile any card may fill
    "empty_king": 100.0,  # emptying a pile only a King fills, while a King sequence waits
    "unsafe": 50.0,  # a card home that some card still in play could be built on
    "empty_idle": 5.0,  # emptying a pile nothing is waiting for
    "expose_home": 0.5,  # part of a sequence moves and the card left on top can go home
    "expose_waste": 0.5,  # ... or takes the waste's (or reserve's) card
    "tie": -0.01,  # per card of the destination pile: shorter piles first
    "dig": -1.0,  # a card off a face-up card that a foundation takes now
    "dig_depth": 0.01,  # ... per card still left on it (the shallowest first)
    "bury": 0.5,  # ... less when it covers another such card
    "hole": 0.5,  # ... less when it takes a hole
}


class Heuristic(Player):
    """The good player who does not peek: it scores each legal move with a person's rules of
    thumb (`W`) and plays the best one; in order:

    1. A card goes home when that is *safe*: no card still in play could be built on it.
    2. The waste's (or the reserve's) card goes onto the tableau or home: it frees the next one.
    3. A face-down card is uncovered (the whole face-up part moves), where most are hidden first.
    4. A pile is emptied when its hole will be used: the reserve refills it (Chequers), a King
       sequence waits for it (Moving Left), or any card may fill it.
    5. A card comes back from home only when a card waiting to be played can then go on it.
    6. A card goes home although a card in play could still be built on it; part of a sequence
       moves when the card it leaves on top can then go home, take the waste's card or take a
       sequence lying on face-down cards (a one-move look-ahead on the visible cards).
    7. Otherwise the stock turns.  With the stock empty it digs: it moves cards off a face-up
       card a foundation takes, the shallowest first; after `STALL` moves in a row that bring
       no card home, turn none up and play none from the waste or the reserve, it gives up.

    It never goes back to a visible position it has been in (it remembers them: no back and
    forth); among equal moves it prefers the destination with fewer cards, then the first in
    `legal_moves`' fixed order, so the same deal is always played the same way.
    """

    name = "heuristic"
    display_name = "prudente"

    def __init__(self) -> None:
        self._seen: set[ViewKey] = set()
        self._idle = 0
        self._last: tuple[int, ...] = ()
        self._table: Table | None = None  # the rules' tables, kept for the whole game
        self.examined = 0  # moves scored so far (each is a position looked at)

    def reset(self, game: Any) -> None:
        self._seen = set()
        self._idle = 0
        self._last = ()
        self._table = None
        self.examined = 0

    def _jitter(self) -> float:
        """Added to each move's score (and to the stock's): none here; see `Varied`."""
        return 0.0

    def choose(self, game: Any) -> Move | None:
        scene = Scene(game, self._table)
        self._table = scene.table
        self._seen.add(scene.key)
        best, best_score = None, -math.inf
        stock = None
        moves = legal_moves(game, scene.piles)
        self.examined += len(moves)
        for move in moves:
            if scene.kind[move.src] == "S":
                stock = move
                continue
            score = _score(scene, move)
            if score is _NEVER:
                continue
            score += self._jitter()
            if score <= best_score:
                continue
            key = scene.key_after(move)
            if key is not None and key in self._seen:
                continue
            best, best_score = move, score
        if best is None or (best_score <= self._jitter() and stock is not None):
            return stock
        # moves that bring no card home, turn none up and play none from the waste or the
        # reserve (digging, shuffling): only so many in a row
        progress = scene.progress()
        self._idle = 0 if progress != self._last else self._idle + 1
        self._last = progress
        return None if self._idle > STALL else best


def _score(s: Scene, move: Move) -> float | None:
    """How much the heuristic player likes `move` (None: never; the stock scores 0)."""
    src, dst, n = move
    ks, kd = s.kind[src], s.kind[dst]
    pile = s.piles[src]
    card = pile[-n]
    assert card is not None  # legal moves move face-up cards only
    fd = s.fd[src]
    up = len(pile) - fd
    reveals = ks == "T" and n == up and fd > 0
    dest = s.piles[dst]
    tie = W["tie"] * len(dest)
    if kd == "F":
        score = W["safe"] if s.safe_home(card) else W["unsafe"]
        if reveals:
            score += W["home_reveal"] + fd
        if ks in ("W", "R"):
            score += W["waste_home"]
        return score
    if ks == "F":
        return _takeback(s, card, dst)
    if ks in ("W", "R"):
        if not dest and s.rules.tableau.empty != "any":
            return W["waste_hole"] + tie
        return W["waste"] + tie
    # tableau to tableau
    if reveals:
        return W["reveal"] + fd * W["reveal_fd"] + tie
    if n == len(pile):  # empties the pile
        if not dest:
            return _NEVER  # a whole pile from one hole to another
        empty = s.rules.tableau.empty
        if s.rules.refill_from_reserve and s.piles.get("R"):
            return W["refill"] + tie
        if empty == "king":
            return (W["empty_king"] if s.king_waiting() else W["empty_idle"]) + tie
        if empty == "any":
            return W["empty_any"] + tie
        return W["empty_idle"] + tie
    below = pile[-n - 1]
    if below is None:
        return _NEVER
    if s.uncovers_next(below, src, dst):
        return W["expose_reveal"] + tie
    if below.id in s.wants:
        return W["expose_home"] + tie
    if any(c.id in s.tab_table[below.id] for c in s.free_cards()):
        return W["expose_waste"] + tie
    return _dig(s, src, dst, n)


def _dig(s: Scene, src: str, dst: str, n: int) -> float | None:
    """Digging: moving cards off a face-up card a foundation wants, the shallowest first,
    not onto another such card nor into a hole (a negative score: only when nothing else)."""
    depth = s.wanted_depth(src)
    if depth is None or depth < n:
        return _NEVER
    score = W["dig"] - W["dig_depth"] * (depth - n)
    if s.wanted_depth(dst) is not None:
        score -= W["bury"]
    if not s.piles[dst]:
        score -= W["hole"]
    return score


def _takeback(s: Scene, card: Card, dst: str) -> float | None:
    """A card back from a foundation only when something waiting can then go on it: the
    waste's or reserve's card, or a face-up sequence whose move uncovers a card."""
    takes = s.tab_table[card.id]
    if any(c.id in takes for c in s.free_cards()):
        return W["takeback"]
    for t in s.tab:
        if t == dst:
            continue
        p = s.piles[t]
        fd = s.fd[t]
        c = p[fd] if fd and len(p) > fd else None  # the lowest face-up card above face-down ones
        if c is not None and c.id in takes and is_run(p[fd:], s.tab_table):
            return W["takeback"]
    return _NEVER


class Varied(Heuristic):
    """The heuristic player with its preferences blurred: each move's score (and the
    stock's 0) gets noise of deviation `sigma`, so one (seed, sigma) always plays a deal the
    same way, on every machine, and different seeds play it differently; the thoughtful
    solver tries many of them (`solver.rollouts`).  With ``sigma=0`` it plays exactly as
    `Heuristic`.  It does not peek either: it draws once per move it scores, and which moves
    it scores depends only on what it sees.

    The noise is the sum of three uniform draws of the package's SplitMix64 generator
    (`shuffle.SplitMix64`, seeded by `seed`), centred and scaled to deviation `sigma`: close
    to a normal law, and exact integer and float arithmetic, so no platform's libm enters."""

    name = "varied"
    display_name = "prudente con variaciones"

    def __init__(self, seed: int = 0, sigma: float = 100.0) -> None:
        super().__init__()
        self.seed = seed
        self.sigma = sigma
        self._draws = SplitMix64(seed)

    def reset(self, game: Any) -> None:
        super().reset(game)
        self._draws = SplitMix64(self.seed)

    def _jitter(self) -> float:
        if not self.sigma:
            return 0.0
        d = self._draws
        u = (next(d) + next(d) + next(d)) / 2.0**64  # 0..3, mean 1.5, deviation 1/2
        return (u - 1.5) * 2.0 * self.sigma
