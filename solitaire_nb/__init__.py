"""solitaire_nb: patience games to learn and explore in Spanish, in Jupyter.

The rules are pure Python and import nothing heavy; the board, the studies and the solver are
loaded only when first used (``solitaire_nb.Board``, ``solitaire_nb.study`` …).
"""

from __future__ import annotations

import importlib
from typing import Any

from .core.cards import Card
from .core.moves import IllegalMove, Move
from .core.rules import GameDef
from .engine import Action, DealReport, Game, PlayerView, Step, load_game, new_game
from .games import GAMES

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "Action",
    "Card",
    "DealReport",
    "Game",
    "GameDef",
    "IllegalMove",
    "Move",
    "PlayerView",
    "Step",
    "load_game",
    "new_game",
    # reached lazily:
    "Board",
    "play",
    "lab",
    "set_board_defaults",
    "render_svg",
    "render_html",
    "solve",
    "win_rate",
    "study",
    "custom",
    "from_spec",
]

_LAZY = {
    "Board": ("board", "Board"),
    "play": ("board", "play"),
    "lab": ("board", "lab"),
    "set_board_defaults": ("board", "set_board_defaults"),
    "render_svg": ("render", "render_svg"),
    "render_html": ("render", "render_html"),
    "solve": ("solver", "solve"),
    "win_rate": ("atlas.winrate", "win_rate"),
    "from_spec": ("games.custom", "from_spec"),
}
# `custom` is a module that is also callable: ``sn.custom("citadel", columns=10)`` composes a
# game and ``from solitaire_nb import custom`` still gives the module (custom.LIKES, …).
_LAZY_MODULES = {"study": "study", "render": "render", "board": "board", "solver": "solver", "custom": "games.custom"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        return getattr(importlib.import_module(f".{module}", __name__), attr)
    if name in _LAZY_MODULES:
        return importlib.import_module(f".{_LAZY_MODULES[name]}", __name__)
    raise AttributeError(f"module 'solitaire_nb' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_LAZY_MODULES))
