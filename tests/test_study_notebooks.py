"""The study notebooks 07 (the atlas) and 08 (the rules lab) as explorations a class runs:
predict, then measure, then apply.

Conventions checked here (the same as notebook 06's, in tests/test_lessons.py):
- A measured result is a code cell whose output nbval checks (`nbval-check-output`) and whose
  output is not itself a hidden answer.  In its section (a ``##`` heading, ``###`` ones
  included), a question («?» in a Markdown cell) and a closed
  ``<details><summary>Ver respuesta</summary>`` come before it: in a Markdown cell, or as the
  output of a code cell (an answer computed from the data).
- At least three exercises (code cells tagged `ejercicio` calling ``caja("<id>")``), each with a
  checker of the package, and at least one a transfer: an exercise declared `transfer` whose
  game or variant (`about`) appears nowhere earlier in the notebook, sources or outputs.
The teacher's guide holds each one's plan with the sections the notebook has.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")  # the test extra
jupytext = pytest.importorskip("jupytext")  # the notebook extra

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
STUDIES = ["07_probabilidades", "08_laboratorio"]
CAJA = re.compile(r"""\bcaja\(\s*["']([\w-]+)["']""")
CLOSED_ANSWER = re.compile(r"<details(?P<attrs>[^>]*)>\s*<summary>\s*Ver respuesta\s*</summary>", re.S)
HEADING = re.compile(r"^(#{1,6})\s+(.*)$", re.M)


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _output_text(cell) -> str:
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(o.get("text", ""))
        for mime in ("text/markdown", "text/html", "text/plain"):
            text = o.get("data", {}).get(mime, "")
            out.append("".join(text) if isinstance(text, list) else text)
    return "\n".join(out)


def _executed(stem: str):
    return nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4).cells


def _sections(cells) -> list[tuple[str, list]]:
    """(title, cells) for each ``##`` section (its ``###`` subsections included)."""
    sections: list[tuple[str, list]] = []
    for cell in cells:
        if cell.cell_type == "markdown":
            for m in HEADING.finditer(cell.source):
                if len(m.group(1)) <= 2:
                    sections.append((m.group(2).strip(), []))
        if sections:
            sections[-1][1].append(cell)
    return sections


def unanswered_results(cells) -> list[str]:
    """The sections whose measured results come before a question and its hidden answer."""
    problems = []
    for title, section in _sections(cells):
        asked = answered = False
        for cell in section:
            text = cell.source if cell.cell_type == "markdown" else _output_text(cell)
            answers = list(CLOSED_ANSWER.finditer(text))
            if any("open" in a.group("attrs") for a in answers):
                problems.append(f"{title}: una respuesta empieza abierta")
            if cell.cell_type == "markdown" and "?" in (text[: answers[0].start()] if answers else text):
                asked = True
            if answers and (asked or "?" in text[: answers[0].start()]):
                answered = True
            if cell.cell_type == "code" and "nbval-check-output" in _tags(cell) and not answers and not answered:
                problems.append(f"{title}: un resultado medido antes de una predicción con «Ver respuesta»")
                break
    return problems


def predictions_without_answer(cells) -> list[str]:
    """Each «Predice» whose Markdown cell, or the cell right after it, holds no closed «Ver
    respuesta» (in its text or, for a code cell, in its output)."""
    problems = []
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown" or "Predice" not in cell.source:
            continue
        here = cell.source[cell.source.index("Predice"):]
        after = cells[i + 1] if i + 1 < len(cells) else None
        later = "" if after is None else after.source if after.cell_type == "markdown" else _output_text(after)
        if not CLOSED_ANSWER.search(here) and not CLOSED_ANSWER.search(later):
            problems.append(cell.source[:80])
    return problems


def exercise_blocks(cells) -> list[tuple[str, int]]:
    """(exercise id, index of the first cell of its block) for each `caja` exercise cell."""
    found = []
    for i, cell in enumerate(cells):
        if cell.cell_type == "code" and "ejercicio" in _tags(cell):
            for ex in CAJA.findall(cell.source):
                start = i
                while start > 0 and "ejercicio" in _tags(cells[start - 1]) and not CAJA.search(cells[start - 1].source):
                    start -= 1
                found.append((ex, start))
    return found


def _shown_before(cells, stop: int) -> str:
    return "\n".join(c.source + "\n" + (_output_text(c) if c.cell_type == "code" else "") for c in cells[:stop])


@pytest.mark.parametrize("stem", STUDIES)
def test_every_measured_result_follows_a_prediction_with_a_hidden_answer(stem):
    cells = _executed(stem)
    measured = [c for c in cells if c.cell_type == "code" and "nbval-check-output" in _tags(c)]
    assert len(measured) >= 3, stem
    assert not unanswered_results(cells)
    assert not predictions_without_answer(cells)


@pytest.mark.parametrize("stem", STUDIES)
def test_three_exercises_with_checkers_one_a_transfer(stem):
    from solitaire_nb.ejercicios import EJERCICIOS, enunciado

    cells = _executed(stem)
    blocks = exercise_blocks(cells)
    assert len(blocks) >= 3, f"{stem}: {len(blocks)} ejercicios"
    transfers = []
    for ex, start in blocks:
        assert ex in EJERCICIOS and callable(EJERCICIOS[ex].check), ex
        assert "¿" in enunciado(ex), ex
        about = EJERCICIOS[ex].about
        if EJERCICIOS[ex].transfer and about and about not in _shown_before(cells, start):
            transfers.append(ex)
    assert transfers, f"{stem}: ningún ejercicio aplica la idea a un juego o variante no medidos antes"


def test_the_check_finds_a_result_shown_before_its_answer():
    """The convention on a small hand-made notebook."""
    v4 = nbformat.v4

    def md(text):
        return v4.new_markdown_cell(text)

    def measured(text="50 %"):
        c = v4.new_code_cell("x", metadata={"tags": ["nbval-check-output"]})
        c.outputs = [v4.new_output("stream", text=text)]
        return c

    good = [md("## Pregunta\n¿Cuántas?"), md("<details><summary>Ver respuesta</summary>Muchas.</details>"), measured()]
    assert unanswered_results(good) == []
    computed = [md("## Pregunta\n¿Cuántas?"), measured("<details><summary>Ver respuesta</summary>20</details>"),
                measured()]
    assert unanswered_results(computed) == []
    assert unanswered_results([md("## Pregunta\n¿Cuántas?"), measured()])
    assert predictions_without_answer([md("**Predice.** ¿Cuántas?"), measured()])
    assert not predictions_without_answer(good)
    opened = [md("## P\n¿Sí?\n<details open><summary>Ver respuesta</summary>Sí.</details>"), measured()]
    assert "empieza abierta" in unanswered_results(opened)[0]


# ---------------------------------------------------------------------- the teacher's guide
def _guide_section(number: str) -> str:
    text = (NOTEBOOKS / "guia_docente.md").read_text(encoding="utf-8")
    start = text.index(f"### {number} · ")
    end = re.compile(r"^#{2,3} ", re.M).search(text, start + 4)
    return text[start: end.start() if end else len(text)]


def _answer_rows(plan: str) -> dict[str, str]:
    """Exercise id -> the answer cell of its row in a plan's «Respuestas» table."""
    answers = plan.split("**Respuestas.**")[1].split("**Errores frecuentes.**")[0]
    rows = {}
    for line in answers.splitlines():
        m = re.match(r"^\| [^|]*\(`([\w-]+)`\)[^|]*\| ([^|]+) \|", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def _assert_answers_accepted(plan: str, ids: list[str]) -> None:
    from solitaire_nb.ejercicios import es_correcta

    rows = _answer_rows(plan)
    for ex in ids:
        assert ex in rows, f"la guía no responde {ex}"
        given = re.findall(r"`([^`]+)`", rows[ex])
        assert given, ex
        for value in given:
            answer = int(value) if value.isdigit() else value.strip('"')
            assert es_correcta(ex, answer), f"{ex}: la guía dice {value!r}, el corrector no lo acepta"


def test_the_guide_plans_07_with_every_section_and_answers():
    plan = _guide_section("07")
    for part in ("Moving Left", "Blake y Gent", "devoluciones", "Chequers"):
        assert part in plan.split("**Respuestas.**")[0], part
    _assert_answers_accepted(plan, ["atlas-1", "atlas-2", "atlas-3"])


def test_the_guide_plans_08_with_answers_and_no_claim_beyond_its_data():
    plan = _guide_section("08")
    assert "casi todas las partidas tienen solución, con seis casi ninguna" not in plan
    assert "tarda alrededor de un minuto" not in plan
    _assert_answers_accepted(plan, ["lab-1", "lab-2", "lab-3", "lab-4"])
    text = (NOTEBOOKS / "guia_docente.md").read_text(encoding="utf-8")
    assert re.search(r"necesite 06,\s+07 u 08", text)
