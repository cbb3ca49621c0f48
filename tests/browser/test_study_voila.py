"""The study notebooks 06, 07 and 08 as a student sees them in Voila (served as the README says,
from a copy of the repository's layout with its voila.json), in Debian's Chromium.

06: the student deals three deals with the try widget («Repartir», then «Otro reparto» twice),
reads them counted in the tally, then answers the transfer exercise with a value inside the
measured interval and reads «¡Correcto!» saying any value inside counts.  08: the page reaches its
first lab board; every «Ver respuesta» starts closed and opens on a click; the first lab shows its
stored win counts in three columns without solving anything; an exercise box answers «¡Correcto!».
07: the prediction's answer, computed from the atlas, starts closed; the table says who plays each
row.  How long the pages take to open is measured by benchmarks/bench_voila_open.py, not here.
Screenshots: artifacts/screenshots/estudio-06.png and laboratorio-08.png.
"""

from __future__ import annotations

import pytest

pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium
pytest.importorskip("voila")  # the notebook extra: serves the student pages

from browser_helpers import BOARD_TIMEOUT_MS, require_chromium, screenshot  # noqa: E402
from student_view import NOTEBOOKS, code_talk, student_voila  # noqa: E402

from solitaire_nb.lessons.exercises import enunciado
from solitaire_nb.lessons.study_exercises import DEAL_SEED
from solitaire_nb.study.tally import Tally, count_deal

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = NOTEBOOKS / "06_citadel_vs_beleaguered_castle.ipynb"


def test_student_deals_three_deals_and_answers_the_transfer(chromium):
    from playwright.sync_api import expect

    require_chromium()
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    page = context.new_page()
    try:
        with student_voila(NOTEBOOK) as url:
            page.goto(url, timeout=BOARD_TIMEOUT_MS * 5)
            page.locator("#rendered_cells").wait_for(state="visible", timeout=BOARD_TIMEOUT_MS * 5)
            tally = page.locator(".snb-tally")
            tally.wait_for(timeout=BOARD_TIMEOUT_MS)
            board = page.locator(".snb-pair:not(.snb-pair-exercise)")
            first = int(board.locator("input[type=number]").first.input_value())
            expect(tally).to_contain_text("ningún reparto")
            board.get_by_role("button", name="Repartir", exact=True).click()
            expect(tally).to_contain_text("Llevas 1 reparto.", timeout=30_000)

            # Two more deals: «Otro reparto» deals the next number, both ways, and counts it.
            for k in (1, 2):
                board.get_by_role("button", name="Otro reparto").click()
                expect(tally).to_contain_text(f"Llevas {k + 1} repartos.", timeout=30_000)
                expect(page.locator(f'svg[data-game="citadel"][data-seed="{first + k}"]')).to_be_attached()
                expect(page.locator(f'svg[data-game="beleaguered_castle"][data-seed="{first + k}"]')).to_be_attached()
            expected = Tally()
            for s in range(first, first + 3):
                expected.add(count_deal(s))
            expect(tally).to_contain_text(expected.text())

            # Ejercicio 1's own board: partida n.º 563 already dealt; dealing there counts nothing.
            exercise = page.locator(".snb-pair-exercise")
            expect(exercise.locator(f'svg[data-game="citadel"][data-seed="{DEAL_SEED}"]')).to_be_attached()
            expect(exercise.get_by_role("button", name="Otro reparto")).to_have_count(0)
            exercise.locator("input[type=number]").first.fill(str(DEAL_SEED + 1))
            exercise.locator("input[type=number]").first.press("Enter")
            exercise.get_by_role("button", name="Repartir", exact=True).click()
            # the kernel has dealt it (its picture is there): and the tally has not moved
            expect(exercise.locator(f'svg[data-game="citadel"][data-seed="{DEAL_SEED + 1}"]')).to_be_attached(timeout=30_000)
            expect(tally).to_contain_text(expected.text())

            # The transfer exercise: how often only the four 2s go home with ten columns (1/16).
            question = enunciado("estudio-3")
            box = page.locator("div.widget-vbox", has=page.get_by_text(question, exact=True)).last
            entry = box.locator("textarea").first
            entry.scroll_into_view_if_needed()
            entry.fill("1/16")
            box.get_by_role("button", name="Comprobar").click()
            expect(box).to_contain_text("¡Correcto!", timeout=30_000)
            expect(box).to_contain_text("una vez de cada 16")
            screenshot(page, "estudio-06.png")

            problems = code_talk(page.locator("body").inner_text())
            assert not problems, "\n".join(problems)
    finally:
        context.close()


def _open(page, url: str) -> None:
    page.goto(url, timeout=BOARD_TIMEOUT_MS * 5)
    page.locator("#rendered_cells").wait_for(state="visible", timeout=BOARD_TIMEOUT_MS * 5)


def _closed_answers(page, count_at_least: int) -> None:
    from playwright.sync_api import expect

    answers = page.locator("details", has=page.locator("summary", has_text="Ver respuesta"))
    assert answers.count() >= count_at_least
    for i in range(answers.count()):
        assert answers.nth(i).get_attribute("open") is None, f"la respuesta n.º {i + 1} empieza abierta"
    first = answers.first
    body = first.locator(":scope > :not(summary)").first
    expect(body).to_be_hidden()
    first.locator(":scope > summary").click()  # its own, not a fold nested inside it
    expect(body).to_be_visible()


def test_the_lab_notebook_in_voila(page):
    from playwright.sync_api import expect

    require_chromium()
    with student_voila(NOTEBOOKS / "08_laboratorio.ipynb") as url:
        _open(page, url)
        board = page.locator(".snb-board[data-game='beleaguered_castle']").first
        board.locator("[data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
        _closed_answers(page, 3)

        lab = page.locator(".widget-vbox", has=page.locator(".snb-board")).first
        table = lab.locator(".snb-lab-table", has_text="Sin decidir").first
        expect(table).to_contain_text("Tienen solución")
        expect(table).to_contain_text("No tienen solución")
        expect(page.get_by_text("Resolviendo…")).to_have_count(0)  # stored: nothing solved at open
        expect(page.get_by_text("Partidas n.º 1 a", exact=False).first).to_contain_text("de cada juego, con el mismo")

        box = page.locator(".widget-vbox", has_text=enunciado("lab-1")).last
        box.locator("textarea").fill("más, porque hay menos cartas arriba")
        box.get_by_role("button", name="Apuntar").click()  # a prediction: taken down, not graded
        expect(box.get_by_text("¡Apuntado!", exact=False)).to_be_visible(timeout=30_000)
        screenshot(page, "laboratorio-08.png")


def test_the_atlas_notebook_in_voila(page):
    from playwright.sync_api import expect

    require_chromium()
    with student_voila(NOTEBOOKS / "07_probabilidades.ipynb") as url:
        _open(page, url)
        table = page.locator("table", has_text="quién juega").first
        expect(table).to_contain_text("resolvedor que ve las cartas boca abajo")
        expect(table).to_contain_text("jugador que no mira")
        _closed_answers(page, 5)  # counted once the outputs are drawn: answers live in them too
        expect(page.locator(".jupyter-widgets", has_text=enunciado("atlas-3")).first).to_be_visible(timeout=60_000)
        # a prediction is taken down, not graded: its button says so
        prediction = page.locator("div.widget-vbox", has=page.get_by_text(enunciado("atlas-2"), exact=True)).last
        expect(prediction.get_by_role("button", name="Apuntar")).to_be_visible(timeout=60_000)
