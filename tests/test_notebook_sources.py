"""Each notebook has a MyST Markdown source beside it, paired by jupytext, and the two agree.

The sources (notebooks/NN_xxx.md) are what a teacher edits; ``python tools/build_notebooks.py``
rewrites and executes the .ipynb from them.  These tests catch a .ipynb edited without its
source (or the reverse), a notebook without a source and a source without a notebook.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")  # the notebook extra: pairs .md and .ipynb
nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"

_spec = importlib.util.spec_from_file_location("build_notebooks", REPO / "tools" / "build_notebooks.py")
build_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_notebooks)

NAMES = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))


def test_every_notebook_agrees_with_its_source():
    assert len(NAMES) >= 8
    assert build_notebooks.problems(NOTEBOOKS) == []


def test_check_command_passes_on_the_repository():
    run = subprocess.run(
        [sys.executable, "tools/build_notebooks.py", "--check"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert f"Los {len(NAMES)} cuadernos coinciden" in run.stdout


@pytest.mark.parametrize("name", NAMES)
def test_pair_is_declared_in_both_files(name):
    """jupytext pairs them (JupyterLab saves both), and the front matter holds no noise."""
    text = (NOTEBOOKS / f"{name}.md").read_text(encoding="utf-8")
    header = text.split("---\n")[1]
    source = jupytext.read(NOTEBOOKS / f"{name}.md")
    assert source.metadata["jupytext"]["formats"] == "ipynb,md:myst"
    # JupyterLab's jupytext keeps the saved notebook's hidden inputs out of the source, and in it.
    assert source.metadata["jupytext"]["cell_metadata_filter"] == build_notebooks.CELL_METADATA_FILTER
    assert set(source.metadata) == {"jupytext", "kernelspec"}
    assert "jupytext_version:" not in header and "widgets" not in header and "language_info" not in header
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    assert notebook.metadata["jupytext"]["formats"] == "ipynb,md:myst"


@pytest.mark.parametrize("name", NAMES)
def test_every_code_cell_is_saved_with_its_input_hidden(name):
    """JupyterLab and Binder then show a lesson's boards and drawings, not its Python."""
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.metadata.get("jupyter", {}).get("source_hidden") is True for c in code)
    assert all("outputs_hidden" not in c.metadata.get("jupyter", {}) for c in code)


def test_a_notebook_with_visible_code_is_caught(copy: Path):
    nb = json.loads((copy / "00_indice.ipynb").read_text(encoding="utf-8"))
    first = next(c for c in nb["cells"] if c["cell_type"] == "code")
    del first["metadata"]["jupyter"]
    (copy / "00_indice.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    [problem] = build_notebooks.problems(copy)
    assert "su código no está oculto" in problem


@pytest.mark.parametrize("name", NAMES)
def test_saved_without_timings_and_with_stable_ids(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    assert all("execution" not in c.metadata for c in nb.cells)
    assert len({c.id for c in nb.cells}) == len(nb.cells)
    first = nb.cells[0]
    assert first.id == build_notebooks.hashlib.sha1(f"{first.cell_type}\0{first.source}".encode()).hexdigest()[:8]


def test_the_teachers_guide_is_plain_markdown():
    guide = NOTEBOOKS / "guia_docente.md"
    assert not guide.read_text(encoding="utf-8").startswith("---")
    assert guide not in build_notebooks.sources(NOTEBOOKS)
    assert not list(NOTEBOOKS.glob("_construir*.py")), "the notebooks are built from their .md sources"


def test_cells_use_the_documented_tags():
    """The tags the student page and the tests rely on are listed in the teachers' guide, and
    no source uses another (a misspelt «docente» would show a teacher's cell to students)."""
    guide = (NOTEBOOKS / "guia_docente.md").read_text(encoding="utf-8")
    section = guide.split("## Cómo editar una lección", 1)[1]
    for tag in (*build_notebooks.TAGS, *(prefix + "ID" for prefix in build_notebooks.PREFIX_TAGS)):
        assert f"`{tag}`" in section
    for source in build_notebooks.sources(NOTEBOOKS):
        for cell in jupytext.read(source).cells:
            for tag in cell.metadata.get("tags", []):
                ok = tag in build_notebooks.TAGS or tag.startswith(build_notebooks.PREFIX_TAGS)
                assert ok, f"{source.name}: unknown tag {tag!r}"


def test_names_select_sources():
    chosen = build_notebooks.select(["01", "02_moving_left", "notebooks/07_probabilidades.ipynb", "00_indice.md"])
    assert [p.stem for p in chosen] == ["01_chequers", "02_moving_left", "07_probabilidades", "00_indice"]
    with pytest.raises(SystemExit, match="«9»"):
        build_notebooks.select(["9"])


# ---------------------------------------------------------------- the check can fail


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """Two pairs and the guide in a scratch folder."""
    for name in ("00_indice", "04_bakers_dozen"):
        for ext in (".md", ".ipynb"):
            shutil.copy2(NOTEBOOKS / f"{name}{ext}", tmp_path / f"{name}{ext}")
    shutil.copy2(NOTEBOOKS / "guia_docente.md", tmp_path)
    assert build_notebooks.problems(tmp_path) == []
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_edited_source_is_caught(copy: Path):
    _edit(copy / "00_indice.md", "# Solitarios para aprender: índice", "# Solitarios para aprender")
    [problem] = build_notebooks.problems(copy)
    assert problem.startswith("00_indice.ipynb, celda 2: su texto")


def test_a_removed_tag_is_caught(copy: Path):
    _edit(copy / "04_bakers_dozen.md", ":tags: ['regla:BD-1', ", ":tags: [")
    [problem] = build_notebooks.problems(copy)
    assert "04_bakers_dozen.ipynb" in problem and "metadatos" in problem


def test_an_edited_notebook_is_caught(copy: Path):
    nb = nbformat.read(copy / "04_bakers_dozen.ipynb", as_version=4)
    nb.cells.insert(3, nbformat.v4.new_markdown_cell("Una celda nueva."))
    nbformat.write(nb, copy / "04_bakers_dozen.ipynb")
    [problem] = build_notebooks.problems(copy)
    assert "04_bakers_dozen.ipynb" in problem and "celdas" in problem


def test_a_notebook_without_source_and_a_source_without_notebook_are_caught(copy: Path):
    (copy / "00_indice.md").unlink()
    (copy / "04_bakers_dozen.ipynb").unlink()
    assert build_notebooks.problems(copy) == [
        "00_indice.ipynb no tiene fuente 00_indice.md",
        "04_bakers_dozen.md no tiene cuaderno 04_bakers_dozen.ipynb",
    ]


def test_an_unpaired_notebook_is_caught(copy: Path):
    nb = json.loads((copy / "00_indice.ipynb").read_text(encoding="utf-8"))
    del nb["metadata"]["jupytext"]
    (copy / "00_indice.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    [problem] = build_notebooks.problems(copy)
    assert "no lo emparejan" in problem


# ---------------------------------------------------------------- the build


SMALL = """---
jupytext:
  formats: ipynb,md:myst
  notebook_metadata_filter: -jupytext.text_representation.jupytext_version
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  display_name: Python 3 (ipykernel)
  language: python
  name: python3
---

# Un cuaderno pequeño

```{code-cell} ipython3
:tags: [docente]

import sys
for i in range(3):
    print(i)
    sys.stdout.flush()
```

```{code-cell} ipython3
import ipywidgets as widgets
widgets.VBox([widgets.Label("hola"), widgets.IntSlider(3)])
```
"""


def test_build_writes_a_repeatable_executed_notebook(tmp_path: Path):
    source = tmp_path / "09_pequeno.md"
    source.write_text(SMALL, encoding="utf-8")
    target = build_notebooks.build(source)
    first = target.read_bytes()
    assert build_notebooks.problems(tmp_path) == []
    nb = nbformat.read(target, as_version=4)
    assert nb.cells[1].metadata == {"tags": ["docente"], "jupyter": {"source_hidden": True}}
    assert "source_hidden" not in jupytext.writes(nb, fmt="md:myst")  # the flag stays out of the source
    assert nb.cells[1].outputs == [{"output_type": "stream", "name": "stdout", "text": "0\n1\n2\n"}]
    state = nb.metadata.widgets["application/vnd.jupyter.widget-state+json"]["state"]
    assert len(state) >= 4  # the box, its two children, their layouts and styles
    build_notebooks.build(source)
    assert target.read_bytes() == first, "a rebuild changed the saved notebook"


def test_no_saved_notebook_shows_an_error():
    # A repr that fails while a result is displayed leaves an error output without stopping
    # the run; the build refuses it, and no committed notebook may carry one.
    for path in sorted(Path(__file__).resolve().parents[1].glob("notebooks/*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        errors = [o for c in nb["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]
        assert not errors, f"{path.name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
