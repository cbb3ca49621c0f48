"""Players who do not peek: they choose each move from what a person at the table sees.

A player is an object with ``choose(game) -> Move | None`` (None: it gives up) that reads
only `Game.player_view`, `Game.legal_moves` (which depend on face-up cards only) and the
game's rules as data.  It never reads `Game.piles`, `Game.pile` or the deal, so permuting the
unseen cards never changes what it does (tests/test_players.py).

* `Heuristic` ("heuristic", in `heuristic`): the good player, scoring each legal move with a
  person's rules of thumb (`W`); `Varied` ("varied"): the same with seeded noise.
* `RandomPlayer` ("random"), `FirstLegal` ("first"), in `base`: a seeded random or the first
  legal move.  All are importable from here.

`play_out(game, player)` plays a whole game on a copy and says whether it was won; `play_deal`
is the picklable work item `atlas.winrate.win_rate(..., player=...)` hands to its workers
(players travel by name, `PLAYERS`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..core.checks import check_seed, shown
from ..core.moves import Move
from .base import FirstLegal, Player, RandomPlayer, legal_moves
from .heuristic import STALL, Heuristic, Varied, W

__all__ = [
    "MAX_MOVES",
    "PLAYERS",
    "PLAYER_VERSION",
    "STALL",
    "W",
    "FirstLegal",
    "Heuristic",
    "Player",
    "RandomPlayer",
    "Varied",
    "check_player",
    "legal_moves",
    "make_player",
    "play_deal",
    "play_game",
    "play_out",
]

MAX_MOVES = 3000
"""Most moves `play_out` lets a player make in one game (a random player may wander)."""

PLAYER_VERSION = 1
"""Bumped whenever a player's choices change: study files record it, so records of two
different players are never mixed."""

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
