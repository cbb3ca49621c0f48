"""The practice boards of lessons 01–05 open on a position with something to do: the status line
the executed notebook shows under each board never says «Sin movimientos», unless the cell is
tagged ``sin-movimientos`` (a board whose point is that nothing can move, asked about first)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
STATUS = re.compile(r'<p class="snb-status"[^>]*>([^<]*)</p>')


def board_statuses(stem: str) -> list[tuple[int, str]]:
    """(cell index, status line) for every board the executed notebook shows."""
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "sin-movimientos" in cell.metadata.get("tags", []):
            continue
        if not re.search(r"\bsn\.(Board|play)\(", cell.source):
            continue
        for out in cell.get("outputs", []):
            html = out.get("data", {}).get("text/html", "")
            found += [(i, s) for s in STATUS.findall(html if isinstance(html, str) else "".join(html))]
    return found


@pytest.mark.parametrize("stem", sorted(p.stem for p in NOTEBOOKS.glob("0[1-5]_*.ipynb")))
def test_every_practice_board_opens_with_a_legal_move(stem):
    statuses = board_statuses(stem)
    assert statuses, f"{stem}: no board's status line found in the executed notebook"
    stuck = [(i, s) for i, s in statuses if "Sin movimientos" in s]
    assert not stuck, stuck
