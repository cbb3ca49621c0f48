"""Players who do not peek: they choose each move from what a person at the table sees.

A player is an object with ``choose(game) -> Move | None`` (None: it gives up) that reads
only `Game.player_view`, `Game.legal_moves` (which depend on face-up cards only) and the
game's rules as data.  It never reads `Game.piles`, `Game.pile` or the deal, so permuting the
unseen cards never changes what it does (tests/test_players.py).

* `Heuristic` ("heuristic"): the good player: it scores each legal move with a person's rules
  of thumb (`W`) and plays the best one, never back to a visible position it has been in.
* `RandomPlayer` ("random"), `FirstLegal` ("first"): a seeded random or the first legal move.
* `Varied` ("varied"): the heuristic player with seeded noise (`solver.rollouts` plays it).

`play_out(game, player)` plays a whole game on a copy and says whether it was won; `play_deal`
is the picklable work item `atlas.winrate.win_rate(..., player=...)` hands to its workers
(players travel by name, `PLAYERS`).  The heuristic player's rules: `Heuristic`'s docstring.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from ..core.cards import Card
from ..core.checks import check_seed, shown
from ..core.moves import Move
from ..core.shuffle import SplitMix64
from .scene import Scene, Table, ViewKey, is_run

MAX_MOVES = 3000
"""Most moves `play_out` lets a player make in one game (a random player may wander)."""

PLAYER_VERSION = 1
"""Bumped whenever a player's choices change: study files record it, so records of two
different players are never mixed."""


_GROUP = {"T": 0, "F": 2, "R": 3, "S": 4, "W": 5}


def legal_moves(game: Any, piles: dict | None = None) -> list[Move]:
    """`Game.legal_moves` in one fixed order, whatever order the engine lists them in, so a
    player's choices (and the study files they fill) do not change when the engine does.

    The order: single cards from the tableau, pile by pile; then sequences of two or more,
    pile by pile and shortest first; then cards back from the foundations; then the reserve,
    the stock and the waste.  For each source: tableau piles (holes too where only some cards
    fill them), foundations, then holes any card fills, each left to right.  It depends on
    face-up cards and pile sizes only (the order `Game.legal_moves` had when the atlas's
    player entries were computed)."""
    if piles is None:
        piles = game.player_view().piles
    index = {p: i for i, p in enumerate(piles)}
    empty = game.rules.tableau.empty
    any_card = empty == "any" or (empty == "reserve" and not piles.get("R"))  # holes last

    def key(m: Move) -> tuple[int, int, int, int, int]:
        kind_s, kind_d = game.pile_kind(m.src), game.pile_kind(m.dst)
        group = 1 if kind_s == "T" and m.n_cards > 1 else _GROUP[kind_s]
        where = 1 if kind_d == "F" else 2 if kind_d == "T" and any_card and not piles[m.dst] else 0
        return group, index[m.src], m.n_cards, where, index[m.dst]

    return sorted(game.legal_moves(), key=key)


class Player:
    """Base class: ``choose(game)`` returns a legal move or None (it stops playing)."""

    name = "player"
    display_name = "jugador"

    def reset(self, game: Any) -> None:
        """Forget everything before a new game."""

    def choose(self, game: Any) -> Move | None:
        raise NotImplementedError

    def __call__(self, game: Any) -> Move | None:
        return self.choose(game)


class FirstLegal(Player):
    """Plays the first legal move, in the order `Game.legal_moves` lists them."""

    name = "first"
    display_name = "primera jugada"

    def choose(self, game: Any) -> Move | None:
        moves = legal_moves(game)
        return moves[0] if moves else None


class RandomPlayer(Player):
    """Plays a legal move drawn at random; seeded by `seed`, else by the deal's number, so
    the same deal gives the same game."""

    name = "random"
    display_name = "al azar"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._rng = random.Random(seed or 0)

    def reset(self, game: Any) -> None:
        seed = self.seed if self.seed is not None else getattr(game, "seed", None)
        self._rng = random.Random(seed or 0)

    def choose(self, game: Any) -> Move | None:
        moves = legal_moves(game)
        return self._rng.choice(moves) if moves else None


# ---------------------------------------------------------------------- the heuristic player
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


# ---------------------------------------------------------------------- registry and play
PLAYERS: dict[str, type[Player]] = {
    "heuristic": Heuristic,
    "random": RandomPlayer,
    "first": FirstLegal,
    "varied": Varied,
}
"""Name -> a fresh player; the names travel to `win_rate`'s workers."""


def make_player(name: str) -> Player:
    """A fresh player by its name in `PLAYERS` (Spanish ValueError for an unknown name)."""
    if not isinstance(name, str) or name not in PLAYERS:
        raise ValueError(f"No hay ningún jugador llamado {shown(name)} (jugadores: {', '.join(PLAYERS)})")
    return PLAYERS[name]()


def check_player(player: Any) -> str:
    """The registered name of `player` (a name or a registered player), else ValueError."""
    name = player if isinstance(player, str) else getattr(player, "name", player)
    make_player(name)
    return name


def play_game(game: Any, player: Player | Callable[[Any], Move | None], max_moves: int = MAX_MOVES) -> tuple[bool, int]:
    """Play `game` (on a copy) with `player` until it is won, the player gives up or
    `max_moves` moves are made; (won, moves made)."""
    g = game.copy()
    reset = getattr(player, "reset", None)
    if reset is not None:
        reset(g)
    made = 0
    while made < max_moves and not g.is_won():
        move = player(g)
        if move is None:
            break
        g.move(move)
        made += 1
    return g.is_won(), made


def play_out(game: Any, player: Player | Callable[[Any], Move | None], max_moves: int = MAX_MOVES) -> bool:
    """Whether `player` wins `game` playing it out on a copy (the game itself is untouched)."""
    return play_game(game, player, max_moves)[0]


def play_deal(name: str, seed: int, variant: dict[str, bool], player: str) -> tuple[int, str, int, float, int]:
    """Play numbered deal `seed` of `name` with the player called `player` (a worker's
    job: picklable arguments, the game rebuilt from its number).

    Returns (deal, "won" | "lost", moves made, seconds, moves of the win or 0), the shape of
    a solver's record (`solitaire_nb.atlas.records.DealRecord`): the third column counts moves
    made instead of states."""
    from ..engine import game_definition, new_game

    if not isinstance(variant, dict):
        raise ValueError(f"La variante debe ser un diccionario de nombre -> True/False, no {shown(variant)}")
    flags = game_definition(name).resolve_variant(variant)
    game = new_game(name, seed=check_seed(seed), deck=None, **flags)
    t0 = time.perf_counter()
    won, made = play_game(game, make_player(player))
    seconds = time.perf_counter() - t0
    return seed, "won" if won else "lost", max(made, 1), seconds, made if won else 0
