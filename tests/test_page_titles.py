"""Each lesson's page has a Spanish title in the browser's tab («Scotch · Solitarios para
aprender»), not its file name («03_scotch»): tools/build_notebooks.py saves the notebook's first
heading as its metadata ``title``, which the pages of Voila, Voici and nbconvert's lab template
put in ``<title>``; ``--check`` catches a notebook whose title is missing or stale."""

from __future__ import annotations

import html
import importlib.util
import re
import shutil
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")  # the notebook extra: pairs .md and .ipynb
nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
_spec = importlib.util.spec_from_file_location("build_notebooks", REPO / "tools" / "build_notebooks.py")
build_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_notebooks)
NAMES = sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("name", NAMES)
def test_every_lesson_has_its_title(name):
    title = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4).metadata.get("title")
    source = jupytext.read(NOTEBOOKS / f"{name}.md")
    headings = [m[1] for c in source.cells if c.cell_type == "markdown" for m in re.finditer(r"^# (.+)$", c.source, re.M)]
    assert title and headings and title.startswith(headings[0]), (title, headings[:1])
    assert "Solitarios para aprender" in title and "_" not in title


def test_the_page_shows_it_in_the_tab():
    exporter = pytest.importorskip("nbconvert").HTMLExporter(template_name="lab")
    page, _ = exporter.from_filename(str(NOTEBOOKS / "05_citadel_y_beleaguered_castle.ipynb"))
    found = re.search(r"<title>(.*?)</title>", page, re.S)
    assert found and html.unescape(found[1].strip()) == "Citadel y Beleaguered Castle · Solitarios para aprender"


def test_a_missing_or_stale_title_is_caught(tmp_path: Path):
    for ext in (".md", ".ipynb"):
        shutil.copy2(NOTEBOOKS / f"03_scotch{ext}", tmp_path / f"03_scotch{ext}")
    assert build_notebooks.problems(tmp_path) == []
    nb = nbformat.read(tmp_path / "03_scotch.ipynb", as_version=4)
    del nb.metadata["title"]
    nbformat.write(nb, tmp_path / "03_scotch.ipynb")
    [problem] = build_notebooks.problems(tmp_path)
    assert "título de página" in problem and "Scotch · Solitarios para aprender" in problem
