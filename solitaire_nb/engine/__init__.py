"""The rules engine: `Game` plays any game declared as a `GameDef` (see `game`) on a
`Position` (see `position`), the one implementation of the rules' mechanics.

`table` compiles a game's rules; `refusals` words why a move is refused (`Game` owns a
`Referee`); `setup` builds and checks starting positions; `construct` makes games
(`new_game`, `load_game`); `share` reads and writes share codes; `values` holds the value
types a game hands out."""

from __future__ import annotations

from .construct import load_game, new_game
from .game import Game
from .position import Position
from .setup import game_definition
from .table import RuleTable, rule_table
from .table import _tables_for as _tables_for
from .values import FORMAT, FORMAT_VERSION, Action, DealReport, PlayerView, Step

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "Action",
    "DealReport",
    "Game",
    "PlayerView",
    "Position",
    "RuleTable",
    "Step",
    "game_definition",
    "load_game",
    "new_game",
    "rule_table",
]
