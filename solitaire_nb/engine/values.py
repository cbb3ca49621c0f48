"""The engine's value types: what a move did (`Step`, `Action`), what a player sees
(`PlayerView`), what a deal did before the first move (`DealReport`); and the saved game's
format name and version (`Game.to_json`)."""

from __future__ import annotations

from typing import NamedTuple

from ..core.cards import Card
from ..core.moves import Move

FORMAT = "solitaire_nb/partida"
FORMAT_VERSION = 1


class Action(NamedTuple):
    """One thing that happened in a move: cards going from `src` to `dst`, or, with `dst`
    None, the card `cards[0]` turning face up on `src`."""

    src: str
    dst: str | None
    cards: tuple[Card, ...]


class Step(NamedTuple):
    """A player's move with the cards it moved and the automatic actions that followed it."""

    move: Move
    cards: tuple[Card, ...]
    automatic: tuple[Action, ...]


class PlayerView(NamedTuple):
    """A position as a player sees it (`Game.player_view`)."""

    game: str
    variant: dict[str, bool]
    piles: dict[str, tuple[Card | None, ...]]
    """Pile id -> its cards bottom to top, None for each face-down card."""
    unseen: tuple[Card, ...]
    """The cards not visible anywhere, sorted by card id (not by where they lie)."""


class DealReport(NamedTuple):
    """What Citadel's (or Beleaguered Castle's) deal did before the first move."""

    to_foundations: tuple[Card, ...]
    """Cards that went to the foundations during the deal (CB-2), in deal order."""
    meant_for: tuple[str, ...]
    """For each of those cards, the tableau pile it was meant for."""
    autoplay: tuple[Card, ...]
    """Cards the autoplay moved right after the deal (CB-7), in the order they moved."""
    autoplay_from: tuple[str, ...]
    """For each of those cards, the tableau pile it came from."""
