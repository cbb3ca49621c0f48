"""What a student sees on a Voila page, and the text that must never be there.

Shared by tests/test_student_pages.py (pages rendered by a Voila server, read as HTML) and
tests/browser/test_student_voila.py (the same pages in Chromium): `code_talk(text)` lists the
passages that ask for code, show Python or number piles from 0; `student_voila` serves a copy of
the repository's notebooks with Voila the way the README's command does (``voila
notebooks/NN_xxx.ipynb`` from the repository root, so with the repository's voila.json).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from browser_helpers import _isolated_env, _wait_http, free_port

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb") if not p.name.startswith("00_"))
TEACHER_TAG = "docente"

# (pattern, what it means): each is something a student page must never show.
FORBIDDEN: list[tuple[str, str]] = [
    # asking for code
    (r"\bvariables?\b(?!\s+aleatori)", "habla de variables"),
    (r"\bejecut\w*\s+(?:de\s+nuevo\s+)?(?:la|las|esta|cada|una|otra)\s+celdas?", "pide ejecutar celdas"),
    (r"vuelve a ejecutar", "pide volver a ejecutar"),
    (r"\brespuesta\s*=", "pide escribir código (respuesta =)"),
    (r"\bShift\b|Mayús", "nombra una tecla para ejecutar"),
    (r"\bescrib\w*\b[^.\n]{0,60}\ben la variable", "pide escribir en una variable"),
    # Python
    (r"\bMove\(", "muestra un Move(…)"),
    (r"\bCard\(", "muestra un Card(…)"),
    (r"\[\s*(['\"])[^'\"\]]*\1(?:\s*,\s*(['\"])[^'\"\]]*\2)*\s*\]", "muestra una lista de Python"),
    (r"object at 0x", "muestra un repr de objeto"),
    (r"\b\w*(?:Box|Widget|Board|HTML|Button|Text|Label)\(", "muestra el repr de un widget"),
    (r"Error displaying widget|model not found|Loading widget", "un widget que no se dibuja"),
    (r"Traceback|\w+Error\b", "muestra un error de Python"),
    (r"(?<![\w.])sn\.\w", "muestra código (sn.)"),
    (r"(?<![\w.])g\.\w", "muestra código (g.)"),
    (r"\b(?:True|False|None)\b", "muestra True/False/None"),
    (r"\b\w+_\w+\s*=", "muestra un argumento de Python"),
    (r"\b[TFRSW]\d*\s*>\s*[TFRSW]\d*\b", "escribe un movimiento como la API (T3>F0)"),
    # piles numbered from 0, or named as the API does
    (r"\b(?:Tablero|Base|Abanico|Reserva)\s+0\b", "numera las pilas desde 0"),
    (r"\b[TAB]0\b|\bF\d+\b", "nombra una pila como la API (T0, F0)"),
    # Voila's own error message (in English) for a cell that raised
    (r"error when executing|show_tracebacks|Please run Voil", "muestra el error de una celda"),
]


LESSON_LINK = r"[0-9]{2}_\w+\.ipynb(?:#[\w-]*)?"
SOFTWARE = (
    "NumPy", "matplotlib", "ipywidgets", "anywidget", "IPython", "pandas", "SciPy", "Dask", "Pyodide",
    "jupytext", "tqdm", "nbval", "pytest", "Hypothesis", "Voil[aà]", r"Jupyter\w*", "Binder", "nbviewer",
    "GitHub", "Python",
)  # fmt: skip

# What a cell without the `docente` tag must never hold: it is what a student sees (Voila, the
# static app), and these speak to the teacher or the developer instead. The four rules:
NOT_FOR_STUDENTS: list[tuple[str, str]] = [
    # 1. A shell command, or an invocation of pip, voila, python, jupyter…
    (r"(?<![\w/.-])(?:pip3?|voila|python3?|jupyter|sudo|apt(?:-get)?|npm|git|conda)\s+"
     r"(?:-{1,2}\w[\w-]*|install\b|lab\b|notebook\b|clone\b|[\w./-]+\.(?:py|ipynb)\b)",
     "una orden de terminal"),  # fmt: skip
    (r"[%!]pip\b|\.venv/|\bbash\b|\bsudo\b", "una orden de terminal"),
    # 2. A link to the guide, to a .md source, or to any file that is not a lesson.
    (r"guia_docente|\bgu[ií]a\s+(?:del\s+|para\s+el\s+)?(?:docente|profesorado)", "nombra la guía docente"),
    (rf"\]\((?!https?://|#|{LESSON_LINK}\))[^)\s]*\)", "enlaza un fichero que no es una lección"),
    (rf"\bhref=[\"'](?!https?://|#|{LESSON_LINK}[\"'])[^\"']*", "enlaza un fichero que no es una lección"),
    (r"[\w/-]\.md\b", "nombra una fuente .md"),
    # 3. An instruction to run, execute or edit a cell: the student runs nothing.
    (r"(?i)\bceldas?\b", "habla de celdas"),
    (r"(?i)\b(?:ejecut|edit)\w*", "pide ejecutar o editar"),
    (r"\bRun\b|\bmenú\b|⏩|\bnúcleo\b|\bkernel\b", "nombra un menú o el núcleo de Jupyter"),
    # 4. The name of a library or a program, of the package's tests, or of its internals.
    (rf"(?i)\b(?:{'|'.join(SOFTWARE)})\b", "nombra una biblioteca o un programa"),
    (r"(?i)\bpruebas?\s+(?:automáticas\s+)?del\s+(?:paquete|proyecto|código)\b|\btests?/|\btest_\w+",
     "habla de las pruebas del paquete"),  # fmt: skip
    (r"solitaire_nb|\b\w+\.py\b|\bGameDef\b|\bm[óo]dulos?\b|\bbenchmarks?\b|\bAPI\b|(?i:\b(?:el|del|al|este)\s+paquete\b)",
     "habla del código del paquete"),  # fmt: skip
    # and, with them, anything addressed to the teacher
    (r"(?i)\bquien enseña\b|\bprofesor\w*|\bdocentes?\b", "se dirige a quien enseña"),
]


def _findings(rules: list[tuple[str, str]], text: str) -> list[str]:
    found = []
    for pattern, meaning in rules:
        for m in re.finditer(pattern, text):
            start, end = max(0, m.start() - 50), min(len(text), m.end() + 50)
            context = " ".join(text[start:end].split())
            found.append(f"{meaning}: «{m.group(0)}» en «…{context}…»")
    return found


def code_talk(text: str) -> list[str]:
    """The passages of `text` a student page must not show, each with what is wrong."""
    return _findings(FORBIDDEN, text)


def teacher_talk(text: str) -> list[str]:
    """The passages of `text` (a student cell's Markdown, or an output's text) that speak to the
    teacher or the developer (NOT_FOR_STUDENTS), each with what is wrong."""
    return _findings(NOT_FOR_STUDENTS, text)


def student_cells(notebook: Path) -> Iterator[tuple[int, str]]:
    """(cell number, text) for what a student sees of each cell without the `docente` tag: a
    Markdown cell's source (links included), and a code cell's outputs (an HTML output's visible
    text and its links, written as Markdown links; text/plain only where nothing richer is)."""
    nb = nbformat.read(notebook, as_version=4)
    for number, cell in enumerate(nb.cells):
        if TEACHER_TAG in cell.metadata.get("tags", []):
            continue
        if cell.cell_type == "markdown":
            yield number, cell.source
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                yield number, out.get("text", "")
            data = out.get("data", {})
            if "text/markdown" in data:
                yield number, data["text/markdown"]
            if "text/html" in data:
                html = data["text/html"]
                links = re.findall(r"<a\b[^>]*\bhref=[\"']([^\"']*)", html)
                yield number, visible_text(html) + "".join(f" [enlace]({link})" for link in links)
            elif set(data) == {"text/plain"}:
                yield number, data["text/plain"]


class _VisibleText(HTMLParser):
    """The text of an HTML page a browser would show: no scripts, styles or templates (widget
    outputs are scripts in Voila's HTML; the browser test reads them)."""

    HIDDEN = {"script", "style", "template", "head", "title", "noscript"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.depth += 1
        elif tag in ("p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "pre"):
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return "".join(parser.parts)


def _fresh_copy(notebook: Path, folder: Path) -> Path:
    """`notebook` in `folder`, without saved outputs: what the page shows comes from running it."""
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    target = folder / notebook.name
    nbformat.write(nb, target)
    return target


def layout(tmp: Path, notebooks: list[Path]) -> Path:
    """A copy of the repository's layout in `tmp`: voila.json at the root, the notebooks (and
    notebooks/voila.json) in notebooks/. Returns the notebooks folder."""
    folder = tmp / "notebooks"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "voila.json", tmp / "voila.json")
    shutil.copy(NOTEBOOKS / "voila.json", folder / "voila.json")
    for nb in notebooks:
        _fresh_copy(nb, folder)
    return folder


@contextlib.contextmanager
def voila_server(tmp: Path, args: list[str], cwd: Path) -> Iterator[str]:
    """Run ``voila <args>`` in `cwd` on 127.0.0.1 (Jupyter's user folders in `tmp`); yield its
    base URL. Only the server started here is stopped."""
    pytest.importorskip("voila")  # the notebook extra
    port = free_port()
    cmd = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
           "--Voila.port_retries=0", *args]  # fmt: skip
    log = tmp / f"voila-{port}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=_isolated_env(tmp), stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_http(f"tcp:127.0.0.1:{port}", proc, log)  # a page would run the notebook once more
            yield f"http://127.0.0.1:{port}/"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


@contextlib.contextmanager
def student_voila(notebook: Path) -> Iterator[str]:
    """``voila notebooks/<name>`` run from the root of a copy of the repository's layout (the
    README's command); yield the page's URL."""
    with tempfile.TemporaryDirectory(prefix="snb-student-") as tmp_name:
        tmp = Path(tmp_name)
        layout(tmp, [notebook])
        with voila_server(tmp, [f"notebooks/{notebook.name}"], cwd=tmp) as url:
            yield url
