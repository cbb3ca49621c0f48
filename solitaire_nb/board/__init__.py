"""The interactive board and the other widgets the notebooks display.

- `widget`: the anywidget `Board` and `play`;
- `clicks`: clicks, double clicks and typed moves become `game.move` calls;
- `buttons`: undo, redo, new deal, hint, the solver's buttons, save and load;
- `settings`: what boards offer by default (`set_board_defaults`);
- `boxes`: boxes with a static picture, the progress bar, the exercises' widgets
  (`caja`, `tablero`) and a study's controls;
- `deal_pair`: notebook 06's try step, one deal dealt as Citadel and as Beleaguered Castle;
- `lab`, `lab_wins`: the rules lab (`lab("beleaguered_castle")`) and its «¿Cuántas se pueden ganar?»;
- `deal_pool`, `class_play` (07), `lab_pool` (08, `class_lab`): the class pool's widgets;
- `challenge`: a class challenge's board and page (imported by the challenge page only).

Only those modules import a widget library; importing this package imports all but `challenge`,
as importing the board module always did.
"""

from __future__ import annotations

from ..engine.share import load_share, share_code
from .boxes import (
    StaticHBox,
    StaticVBox,
    answer_box,
    caja,
    exercise_board,
    progress_bar,
    static_box,
    study_controls,
    tablero,
)
from .buttons import BUTTONS, SOLVER_BUTTONS, SOLVER_SEES_HIDDEN
from .class_play import ClassPlay, class_play
from .clicks import parse_text_move
from .deal_pair import DealPair, deal_pair
from .lab import Lab, lab
from .lab_pool import ClassLab, class_lab
from .settings import _DEFAULTS as _DEFAULTS
from .settings import set_board_defaults
from .widget import Board, play

__all__ = [
    "Board",
    "play",
    "lab",
    "deal_pair",
    "DealPair",
    "Lab",
    "class_play",
    "ClassPlay",
    "class_lab",
    "ClassLab",
    "set_board_defaults",
    "parse_text_move",
    "share_code",
    "load_share",
    "progress_bar",
    "answer_box",
    "exercise_board",
    "caja",
    "tablero",
    "static_box",
    "study_controls",
    "StaticVBox",
    "StaticHBox",
    "BUTTONS",
    "SOLVER_BUTTONS",
    "SOLVER_SEES_HIDDEN",
]
