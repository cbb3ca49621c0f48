"""The registry: game name -> its `GameDef`, in the order the collection presents them."""

from __future__ import annotations

from types import MappingProxyType

from ..core.rules import GameDef
from . import bakers_dozen, beleaguered_castle, chequers, citadel, moving_left, scotch

GAMES: MappingProxyType[str, GameDef] = MappingProxyType(
    {
        m.DEFINITION.name: m.DEFINITION
        for m in (chequers, moving_left, scotch, bakers_dozen, citadel, beleaguered_castle)
    }
)
