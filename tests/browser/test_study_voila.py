"""A student in Voila on notebook 06 (issue 30's Done-when): the page served as the README says
(``voila notebooks/06_citadel_vs_beleaguered_castle.ipynb``), in Chromium.

The student deals three deals with the try widget («Repartir», then «Otro reparto» twice)
and reads them counted in the tally, then answers the transfer exercise's box with a value
inside the measured interval and reads «¡Correcto!» with the sentence saying any value inside
counts.  Screenshot: artifacts/screenshots/estudio-06.png.
"""

from __future__ import annotations

import pytest

pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium
pytest.importorskip("voila")  # the notebook extra: serves the student pages

from browser_helpers import BOARD_TIMEOUT_MS, require_chromium, screenshot  # noqa: E402
from student_view import NOTEBOOKS, code_talk, student_voila  # noqa: E402

from solitaire_nb.deal_tally import Tally, count_deal  # noqa: E402
from solitaire_nb.ejercicios import enunciado  # noqa: E402
from solitaire_nb.exercise_study import ten_columns_home_in_deal  # noqa: E402
from solitaire_nb.numbers_es import decimal  # noqa: E402

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
            first = int(page.locator("input[type=number]").first.input_value())
            expect(tally).to_contain_text("ningún reparto")
            page.get_by_role("button", name="Repartir", exact=True).click()
            expect(tally).to_contain_text("Llevas 1 reparto.", timeout=30_000)

            # Two more deals: «Otro reparto» deals the next number, both ways, and counts it.
            for k in (1, 2):
                page.get_by_role("button", name="Otro reparto").click()
                expect(tally).to_contain_text(f"Llevas {k + 1} repartos.", timeout=30_000)
                expect(page.locator(f'svg[data-game="citadel"][data-seed="{first + k}"]')).to_be_attached()
                expect(page.locator(f'svg[data-game="beleaguered_castle"][data-seed="{first + k}"]')).to_be_attached()
            expected = Tally()
            for s in range(first, first + 3):
                expected.add(count_deal(s))
            expect(tally).to_contain_text(expected.text())

            # The transfer exercise, answered with a value inside the measured interval.
            question = enunciado("estudio-3")
            box = page.locator("div.widget-vbox", has=page.get_by_text(question, exact=True)).last
            mean, _, _ = ten_columns_home_in_deal()
            entry = box.locator("input").first
            entry.scroll_into_view_if_needed()
            entry.fill(decimal(mean, 2))
            box.get_by_role("button", name="Comprobar").click()
            expect(box).to_contain_text("¡Correcto!", timeout=30_000)
            expect(box).to_contain_text("cualquier valor de ese intervalo")
            screenshot(page, "estudio-06.png")

            problems = code_talk(page.locator("body").inner_text())
            assert not problems, "\n".join(problems)
    finally:
        context.close()
