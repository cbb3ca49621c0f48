"""The committed win-rate atlas: ``data/atlas.json``, written by ``benchmarks/atlas.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def atlas() -> dict[str, Any]:
    """The win-rate atlas summary (``data/atlas.json``, written by ``benchmarks/atlas.py``):
    the repository's copy when the package runs from a checkout, else the copy shipped inside
    the package (``solitaire_nb/data/atlas.json``)."""
    package = Path(__file__).resolve().parents[1]
    for path in (package.parent / "data" / "atlas.json", package / "data" / "atlas.json"):
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    raise FileNotFoundError("No se encuentra el atlas (data/atlas.json): genera uno con benchmarks/atlas.py.")
