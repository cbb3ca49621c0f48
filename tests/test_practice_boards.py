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


# The whole deals a class plays and compares («¿quién la ganó?», «¿cuántas cartas en las bases?»):
# «Pista» would win them button press by button press, so their boards come without it.
CLASS_GAMES = {
    "00_indice": [("citadel", 1234)],
    "01_chequers": [("chequers", 1234)],
    "02_moving_left": [("moving_left", 1236)],
    "03_scotch": [("scotch", 1233)],
    "04_bakers_dozen": [("bakers_dozen", 123)],
    "05_citadel_y_beleaguered_castle": [("citadel", 2000), ("beleaguered_castle", 2000)],
}
CODE_CELL = re.compile(r"```\{code-cell\}[^\n]*\n(.*?)```", re.S)


def source_cells(stem: str) -> list[str]:
    """The code cells of the notebook's source, without their option lines."""
    text = (NOTEBOOKS / f"{stem}.md").read_text(encoding="utf-8")
    return ["\n".join(ln for ln in c.splitlines() if not ln.startswith(":")).strip() for c in CODE_CELL.findall(text)]


@pytest.mark.parametrize("stem, game, seed", [(s, g, n) for s, deals in CLASS_GAMES.items() for g, n in deals])
def test_class_game_boards_have_no_hint(stem, game, seed):
    import solitaire_nb as sn

    cells = [c for c in source_cells(stem) if re.fullmatch(rf'sn\.play\("{game}", seed={seed}\b.*\)', c)]
    assert len(cells) == 1, f"{stem}: the board of {game} n.º {seed} not found"
    board = eval(cells[0], {"sn": sn})
    assert board.hints is False
    board.press("hint")
    assert "no hay pistas" in board.message and board.buttons.highlight is None
    assert board.game.moves_played == 0
    assert "no hay **Pista**" in (NOTEBOOKS / f"{stem}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("stem", sorted(CLASS_GAMES)[1:])
def test_practice_boards_keep_the_hint(stem):
    boards = [c for c in source_cells(stem) if re.match(r"sn\.(Board|play)\(", c)]
    assert any("hints=False" not in c for c in boards), f"{stem}: no board left with «Pista»"
