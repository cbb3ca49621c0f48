"""The atlas room: win rates of many numbered deals and how a reader sees them.

- `winrate`: `win_rate`, the entry point; `result` its `WinRate` and Spanish texts;
  `intervals` the 95 % intervals; `executors` where deals are solved; `arguments` the checks;
- `studyfile`: resumable study files (`records` their format, `files` careful file I/O,
  `params` which study a header describes);
- `summary`: the committed atlas (``data/atlas.json``); `view` and `plots`: the atlas as
  notebook 07 shows it (`svg_plots` where matplotlib is absent: ``from solitaire_nb.atlas
  import plots`` gives it, as `study` does); `lab_measures`: the rules lab's measures.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..study import HAVE_MATPLOTLIB


def __getattr__(name: str) -> Any:
    if name == "plots" and not HAVE_MATPLOTLIB:
        module = importlib.import_module(".svg_plots", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
