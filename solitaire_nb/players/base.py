"""The player interface (`Player`: ``choose(game) -> Move | None``, None to give up), the fixed
order of the legal moves every player reads (`legal_moves`), and the two simple players:
`FirstLegal` ("first") and `RandomPlayer` ("random", seeded by the deal number)."""

from __future__ import annotations

import random
from typing import Any

from ..core.moves import Move

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
