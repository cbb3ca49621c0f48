"""The student pages: ``voila notebooks/NN_xxx.ipynb`` shows each lesson without code, without the
cells tagged ``docente``, and with nothing that asks for code or shows Python.

The configuration is the repository's voila.json (Voila reads it from its working directory: the
root, as the README says, or notebooks/, which has the same file); Binder's
``?urlpath=voila/render/notebooks/…`` pages get it from the server's configuration, which
binder/postBuild writes from the same file.

Each lesson is rendered by a real Voila server (every cell run in a fresh kernel), and the page's
visible text is read from its HTML; widgets are drawn by the browser, so their static fallbacks
(what an exported page shows in their place) are read from the executed notebook, and
tests/browser/test_student_voila.py reads a whole page, widgets included, in Chromium.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")  # the test extra

from browser_helpers import TOKEN, _isolated_env, _server, free_port  # noqa: E402
from student_view import (  # noqa: E402
    LESSONS,
    NOTEBOOKS,
    REPO,
    TEACHER_TAG,
    code_talk,
    layout,
    student_cells,
    teacher_talk,
    visible_text,
    voila_server,
)

PAGE_TIMEOUT = 900  # a page is sent once its notebook has run, on a busy 2-core machine


def fetch(url: str, timeout: float = PAGE_TIMEOUT) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        assert r.status == 200, url
        return r.read().decode("utf-8")


# ---------------------------------------------------------------------- the configuration
def test_both_voila_json_are_the_same():
    root = json.loads((REPO / "voila.json").read_text(encoding="utf-8"))
    assert json.loads((NOTEBOOKS / "voila.json").read_text(encoding="utf-8")) == root
    tags = root["VoilaExporter"]["TagRemovePreprocessor"]
    assert tags["enabled"] is True and tags["remove_cell_tags"] == [TEACHER_TAG]


STUDENT_COMMAND = "python -m solitaire_nb.classroom 05 --alumnos 1 --ip 127.0.0.1"
STUDENT_PAGE = "notebooks/05_citadel_y_beleaguered_castle.ipynb"


def test_docs_name_the_same_student_command():
    """README, the teacher's guide and the index give the same command: the class launcher for
    one student (plain ``voila`` leaks the kernel of a closed tab and reaches a CDN), and the
    README the same page on Binder."""
    for doc in (REPO / "README.md", NOTEBOOKS / "guia_docente.md", NOTEBOOKS / "00_indice.md"):
        text = doc.read_text(encoding="utf-8")
        assert STUDENT_COMMAND in text, doc.name
        plain = re.findall(r"voila \S*\.ipynb", text)
        assert not plain, f"{doc.name} names plain Voila: {plain}"
    assert f"?urlpath=voila/render/{STUDENT_PAGE}" in (REPO / "README.md").read_text(encoding="utf-8")


def _probe_notebook(folder: Path) -> Path:
    """A notebook with one cell of each kind for the student and for the teacher."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    teacher = {"tags": [TEACHER_TAG]}
    nb.cells = [
        nbformat.v4.new_markdown_cell("Texto-para-el-alumno"),
        nbformat.v4.new_markdown_cell("Nota-para-el-docente", metadata=teacher),
        nbformat.v4.new_code_cell("print('Salida-' + 'docente')", metadata=teacher),
        nbformat.v4.new_code_cell("print('Salida-' + 'alumno')"),
    ]
    target = folder / "prueba_alumno.ipynb"
    nbformat.write(nb, target)
    return target


def _assert_student_page(html: str) -> None:
    text = visible_text(html)
    assert "Texto-para-el-alumno" in text and "Salida-alumno" in text, text[-2000:]
    assert "docente" not in html, "a cell tagged docente reached the page"
    assert "print(" not in html, "the page shows code"


@pytest.mark.slow
@pytest.mark.parametrize("where", ["raíz", "notebooks"])
def test_voila_command_removes_teacher_cells_and_code(where):
    """``voila notebooks/x.ipynb`` from the root, and ``voila x.ipynb`` from notebooks/, with no
    flag: code hidden and the cells tagged docente gone."""
    with tempfile.TemporaryDirectory(prefix="snb-student-") as tmp_name:
        tmp = Path(tmp_name)
        folder = layout(tmp, [])
        probe = _probe_notebook(folder)
        cwd, arg = (tmp, f"notebooks/{probe.name}") if where == "raíz" else (folder, probe.name)
        with voila_server(tmp, [arg], cwd=cwd) as url:
            _assert_student_page(fetch(url, timeout=300))


@pytest.mark.slow
def test_binder_voila_render_removes_teacher_cells(tmp_path):
    """Binder's link (``voila/render`` inside the Jupyter server) after binder/postBuild: the
    same student page, though the server extension ignores voila.json's exporter settings."""
    folder = layout(tmp_path, [])
    probe = _probe_notebook(folder)
    env = _isolated_env(tmp_path)
    subprocess.run([sys.executable, str(REPO / "binder" / "postBuild")], check=True, capture_output=True,
                   env={**env, "JUPYTERLAB_DIR": str(tmp_path / "lab")}, timeout=120)  # fmt: skip
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "jupyter", "server", "--no-browser", "--allow-root", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}",
           f"--ServerApp.root_dir={tmp_path}"]  # fmt: skip
    (tmp_path / "nb").mkdir()  # the helper's working directory
    with _server(cmd, tmp_path, f"{base}/api/status?token={TOKEN}"):
        html = fetch(f"{base}/voila/render/notebooks/{probe.name}?token={TOKEN}", timeout=300)
    _assert_student_page(html)


# ---------------------------------------------------------------------- the lessons
@pytest.fixture(scope="module")
def lesson_server():
    """One Voila server over a copy of the lessons (``voila notebooks`` from the root)."""
    with tempfile.TemporaryDirectory(prefix="snb-student-") as tmp_name:
        tmp = Path(tmp_name)
        layout(tmp, [NOTEBOOKS / name for name in LESSONS])
        with voila_server(tmp, ["notebooks"], cwd=tmp) as url:
            yield url


def widget_fallbacks(name: str) -> str:
    """The static fallbacks (text/html) of the widgets the executed notebook shows to students."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    parts = []
    for cell in nb.cells:
        if cell.cell_type != "code" or TEACHER_TAG in cell.metadata.get("tags", []):
            continue
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data and "text/html" in data:
                parts.append(visible_text(data["text/html"]))
    return "\n".join(parts)


def test_every_lesson_is_checked():
    assert len(LESSONS) >= 7 and "05_citadel_y_beleaguered_castle.ipynb" in LESSONS


@pytest.mark.slow
@pytest.mark.parametrize("name", LESSONS)
def test_student_page_asks_for_no_code(lesson_server, name):
    html = fetch(f"{lesson_server}voila/render/{name}")
    text = visible_text(html)
    shown_code = re.findall(r'class="[^"]*(?:jp-InputArea-editor|jp-InputPrompt|highlight-ipynb)', html)
    assert not shown_code and "import solitaire_nb" not in html, "the page shows code"
    problems = code_talk(text) + [f"(sin núcleo) {p}" for p in code_talk(widget_fallbacks(name))]
    assert not problems, f"{name}: la página del alumno\n" + "\n".join(problems)


# ---------------------------------------------------------------------- every notebook's cells
# What a student sees is every cell without the `docente` tag (Voila and the static app remove
# only those), so none of them may speak to the teacher or the developer. The rules
# (student_view.NOT_FOR_STUDENTS), checked on the cells' text and saved outputs:
#   1. no shell command, and no pip / voila / python / jupyter invocation;
#   2. no link to the teacher's guide, to a .md source, or to a file that is not a lesson;
#   3. no instruction to run, execute or edit a cell (in Voila and the static app the student
#      runs nothing; such instructions go in a `docente` cell or in the guide);
#   4. no name of a library or program (NumPy, matplotlib, ipywidgets, JupyterLite…), of the
#      package's tests, or of its internals (modules, files, "el paquete").
EVERY_NOTEBOOK = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))

TEACHER_TALK = [  # one passage of each kind, each of which the rules must catch
    'pip install -e ".[notebook]"',
    "`voila notebooks/05_citadel_y_beleaguered_castle.ipynb`",
    "python tools/build_notebooks.py 05",
    "%pip install -q solitaire_nb",
    "La [guía docente](guia_docente.md) trae las respuestas.",
    "Las reglas, en [docs/reglas.md](../docs/reglas.md).",
    "El [resumen](resumenes/citadel.html) se imprime.",
    '<a href="../README.md">léeme</a>',
    "Ejecuta las celdas: menú *Run → Ejecutar todas las celdas*.",
    "Cambia el número y vuelve a ejecutar.",
    "Al final hay una celda que resuelve unas pocas partidas.",
    "Edita la lista y pulsa ⏩.",
    "El motor de reglas y el tablero no usan NumPy ni matplotlib.",
    "Los tableros están hechos con ipywidgets.",
    "Funciona sin red en JupyterLite.",
    "Las pruebas del paquete comprueban además estas fórmulas.",
    "La regla está en solitaire_nb/core/rules.py.",
    "Con el resolvedor del paquete podemos medirlo.",
    "## Para quien enseña",
]
STUDENT_TALK = [  # what a lesson says to a student, which the rules must let through
    "¿Puede ir el 7♥ sobre el 8♣? Escribe el movimiento, «T3 T5», y pulsa **Comprobar**.",
    "Sigue en [05 · Citadel y Beleaguered Castle](05_citadel_y_beleaguered_castle.ipynb).",
    "Otros programas (PySolFC) juegan una variante que justifica el nombre.",
    "El juego automático a la base sube la carta; el tablero dice por qué no vale un movimiento.",
    "Prueba tú: juega la partida n.º 1234 y pulsa **Pista** si te atascas.",
]


@pytest.mark.parametrize("passage", TEACHER_TALK)
def test_the_rules_catch_each_kind_of_teacher_talk(passage):
    assert teacher_talk(passage), passage


@pytest.mark.parametrize("passage", STUDENT_TALK)
def test_the_rules_let_a_lesson_speak_to_the_student(passage):
    assert not teacher_talk(passage)


@pytest.mark.parametrize("name", EVERY_NOTEBOOK)
def test_untagged_cells_speak_only_to_the_student(name):
    cells = list(student_cells(NOTEBOOKS / name))
    problems = [f"celda {number}: {p}" for number, text in cells for p in teacher_talk(text)]
    problems += [f"celda {number}: enlaza una lección que no existe: {target}" for number, text in cells
                 for target in re.findall(r"\]\((\d\d_\w+\.ipynb)", text) if not (NOTEBOOKS / target).exists()]  # fmt: skip
    assert not problems, f"{name}: una celda sin la etiqueta docente\n" + "\n".join(problems)


def test_every_notebook_is_checked_for_teacher_talk():
    assert len(EVERY_NOTEBOOK) >= 9 and EVERY_NOTEBOOK[0] == "00_indice.ipynb"
    assert {name[:2] for name in EVERY_NOTEBOOK} >= {"06", "07", "08"}  # the studies too


def test_only_untagged_cells_and_their_outputs_are_read(tmp_path):
    """A `docente` cell may say anything; an untagged cell's Markdown and its outputs are read."""
    nb = nbformat.v4.new_notebook()
    teacher = {"tags": [TEACHER_TAG]}
    nb.cells = [
        nbformat.v4.new_markdown_cell("Ejecuta `pip install -e .` y abre la [guía](guia_docente.md).", metadata=teacher),
        nbformat.v4.new_markdown_cell("¿Puede ir el 7♥ sobre el 8♣?"),
        nbformat.v4.new_code_cell("x", outputs=[nbformat.v4.new_output("stream", text="Calculado con NumPy.")]),
        nbformat.v4.new_code_cell("y", metadata=teacher, outputs=[nbformat.v4.new_output("stream", text="NumPy")]),
        nbformat.v4.new_code_cell("z", outputs=[nbformat.v4.new_output(
            "display_data", data={"text/html": '<p>Mira <a href="../docs/reglas.md">las reglas</a>.</p>'})]),
    ]  # fmt: skip
    nbformat.write(nb, tmp_path / "prueba.ipynb")
    found = {number: teacher_talk(text) for number, text in student_cells(tmp_path / "prueba.ipynb")}
    assert set(found) == {1, 2, 4} and not found[1] and found[2] and found[4], found
