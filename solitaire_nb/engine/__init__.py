"""The rules engine: `Game` plays any game declared as a `GameDef` (see `game`)."""

from __future__ import annotations

from .game import (
    FORMAT,
    FORMAT_VERSION,
    Action,
    DealReport,
    Game,
    PlayerView,
    Step,
    load_game,
    new_game,
)
from .game import (
    _definition as _definition,
)
from .game import (
    _tables_for as _tables_for,
)

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "Action",
    "DealReport",
    "Game",
    "PlayerView",
    "Step",
    "load_game",
    "new_game",
]
