"""The Spanish notebooks: they run under nbval, demonstrate every rule id, and are well formed.

`test_notebooks_run_under_nbval` runs the same command a reader of the README would
(``pytest --nbval-lax --nbval-current-env --sanitize-with notebooks/nbval_sanitize.cfg
notebooks/``) in a subprocess, so that the main ``python -m pytest`` executes every notebook
without putting nbval's options on the tests/ run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")  # the test extra
pytest.importorskip("nbval")  # the test extra: runs the notebooks

import solitaire_nb as sn  # noqa: E402
from solitaire_nb.lessons.exercises import EJERCICIOS  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
SANITIZE = NOTEBOOKS / "nbval_sanitize.cfg"

FIRST_CELL = """# En JupyterLite (Python en el navegador) instala el paquete; en otro sitio no hace nada.
import sys
if sys.platform == "emscripten":
    %pip install -q solitaire_nb"""

# The notebooks this test file owns, and the games each one teaches.
GAME_NOTEBOOKS = {
    "01_chequers.ipynb": ["chequers"],
    "02_moving_left.ipynb": ["moving_left"],
    "03_scotch.ipynb": ["scotch"],
    "04_bakers_dozen.ipynb": ["bakers_dozen"],
    "05_citadel_y_beleaguered_castle.ipynb": ["citadel", "beleaguered_castle"],
}
OWN = ["00_indice.ipynb", *GAME_NOTEBOOKS]


def load(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def test_notebooks_run_under_nbval():
    """Every notebook in notebooks/ executes without error and its checked outputs match."""
    cmd = [
        sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env",
        "--sanitize-with", str(SANITIZE.relative_to(REPO)), "notebooks/",
        "-p", "no:cacheprovider", "-q", "-rf", "--tb=short", "--collect-only",
    ]
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
    listed = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120, env=env)
    for name in OWN:
        assert name in listed.stdout, f"nbval did not collect {name}:\n{listed.stdout[-2000:]}"
    run = subprocess.run(cmd[:-1], cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
    tail = (run.stdout + run.stderr)[-6000:]
    assert run.returncode == 0, f"nbval failed:\n{tail}"
    assert re.search(r"\b\d+ passed\b", run.stdout), tail


@pytest.mark.parametrize("name", OWN)
def test_first_cell_installs_in_jupyterlite(name):
    code = [c for c in load(name).cells if c.cell_type == "code"]
    assert code[0].source == FIRST_CELL


@pytest.mark.parametrize("name,games", list(GAME_NOTEBOOKS.items()))
def test_every_rule_id_is_demonstrated(name, games):
    """Each id the game declares (GEN ones included) tags a demonstrating code cell."""
    nb = load(name)
    shown = {t.split(":", 1)[1] for c in nb.cells if c.cell_type == "code" for t in tags(c) if t.startswith("regla:")}
    declared = set().union(*(sn.GAMES[g].rules for g in games))
    assert declared - shown == set(), f"{name} does not demonstrate {sorted(declared - shown)}"
    assert shown - declared == set(), f"{name} tags unknown rule ids {sorted(shown - declared)}"


@pytest.mark.parametrize("name", OWN)
def test_saved_with_outputs_and_pictures(name):
    """Saved executed: no error output, each checked cell has its output, and the game
    notebooks carry static SVG pictures of their key positions for GitHub and nbviewer."""
    nb = load(name)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(o.output_type != "error" for c in code for o in c.outputs)
    for c in code:
        if "nbval-check-output" in tags(c):
            assert c.outputs, f"checked cell without a saved output: {c.source[:80]}"
    svgs = sum("image/svg+xml" in o.get("data", {}) for c in code for o in c.outputs)
    if name in GAME_NOTEBOOKS:
        assert svgs >= 5


@pytest.mark.parametrize("name,games", list(GAME_NOTEBOOKS.items()))
def test_ends_with_a_deal_to_play_and_checked_exercises(name, games):
    nb = load(name)
    sources = [c.source for c in nb.cells if c.cell_type == "code"]
    assert any("sn.play(" in s for s in sources), "no full deal to play"
    assert any("sn.Board(" in s for s in sources), "no board to try things on"
    checked = re.findall(r'(?:comprobar|caja)\("([\w-]+)"', "\n".join(sources))  # typed or in a box
    assert len(checked) >= 3
    assert all(e in EJERCICIOS for e in checked)


def test_every_exercise_is_in_a_notebook():
    every = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))  # the studies' exercises too
    text = "\n".join(c.source for n in every for c in load(n).cells)
    missing = [e for e in EJERCICIOS if f'comprobar("{e}"' not in text and f'caja("{e}"' not in text]
    assert missing == []


def test_index_links_every_notebook_and_says_what_works_offline():
    md = "\n".join(c.source for c in load("00_indice.ipynb").cells if c.cell_type == "markdown")
    for target in [*GAME_NOTEBOOKS, "06_citadel_vs_beleaguered_castle.ipynb", "07_probabilidades.ipynb"]:
        assert f"]({target})" in md
    assert "JupyterLite" in md and "sin conexión" in md


def test_index_table_is_generated_from_games():
    """The comparison table is computed from sn.GAMES, not typed: its saved HTML shows each
    game's own descriptions."""
    nb = load("00_indice.ipynb")
    html = "".join(
        o.get("data", {}).get("text/html", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs
    )
    src = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "sn.GAMES" in src
    for d in sn.GAMES.values():
        assert d.display_name.replace("'", "&#x27;") in html
        for text in (d.tableau_builds, d.empty_pile, d.automatic):
            assert text.replace("'", "&#x27;") in html


@pytest.mark.parametrize("name", GAME_NOTEBOOKS)
def test_game_notebooks_have_their_sections(name):
    md = "\n".join(c.source for c in load(name).cells if c.cell_type == "markdown")
    for title in ("## Disposición", "## Base", "## Tablero", "## Prueba tú", "## Ejercicios"):
        assert title in md, f"{name} lacks the section {title!r}"
    if name == "01_chequers.ipynb":
        assert "## Reserva" in md
    if name == "02_moving_left.ipynb":
        assert "## Mazo y descarte" in md
    # What works offline in JupyterLite is for the teacher: the index's `docente` cell and the guide
    # say it (tests/test_student_pages.py keeps it out of the student's cells).


def test_ambiguities_discussed_with_their_flags():
    text = {n: "\n".join(c.source for c in load(n).cells) for n in GAME_NOTEBOOKS}
    assert "any_suit=True" in text["04_bakers_dozen.ipynb"]
    assert "kings_to_bottom=False" in text["04_bakers_dozen.ipynb"]
    assert "shift_left=True" in text["02_moving_left.ipynb"]
    assert "takeback=False" in text["05_citadel_y_beleaguered_castle.ipynb"]
    assert "06_citadel_vs_beleaguered_castle.ipynb" in text["05_citadel_y_beleaguered_castle.ipynb"]

