"""The class challenge in Chromium: the launcher with ``--reto``, three student pages (each its own
browser, so its own seat) and the teacher's page.

Moves made on the students' boards appear on the teacher's page; «Pausar» freezes the students'
boards (a move is refused with a Spanish line) and «Seguir» frees them; «Mostrar» replays a
student's line on the teacher's board; «Terminar» asks first, then shows each student their own
summary and the teacher's page the end (every control and status); «Reabrir» undoes it.  The
students' boards offer no other deal, and the launcher's terminal shows no English warning.
"""

from __future__ import annotations

import os
import sys

import pytest

pytest.importorskip("playwright")  # the test extra: drives Chromium
pytest.importorskip("voila")  # the clase extra: serves the pages

from browser_helpers import BOARD_TIMEOUT_MS, REPO, screenshot  # noqa: E402
from test_clase_browser import Launcher, _student  # noqa: E402

import solitaire_nb as sn  # noqa: E402
from solitaire_nb.games.notation import format_move

pytestmark = [pytest.mark.browser, pytest.mark.slow]
DEAL = "citadel/1234"


class ChallengeLauncher(Launcher):
    def __init__(self, folder, students: int = 3) -> None:  # noqa: D107
        import subprocess

        from browser_helpers import free_port

        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / "clase.log"
        cmd = [sys.executable, "-m", "solitaire_nb.classroom", "--reto", DEAL, "--registro", str(folder / "clase.sqlite"),
               "--alumnos", str(students), "--puerto", str(self.port), "--ip", "127.0.0.1"]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, env=env,
                                         start_new_session=True)  # fmt: skip


def _teacher_url(text: str) -> str:
    for word in text.split():
        if "/docente?token=" in word:
            return word
    raise AssertionError(text)


def _move(page) -> None:
    """Type the next move of the line every page here plays (each time the first legal move)."""
    board = page.locator(".snb-board").first
    box = board.locator(".snb-text")
    game = sn.new_game("citadel", seed=1234)
    for _ in range(int(board.get_attribute("data-moves") or 0)):
        game.move(game.legal_moves()[0])
    box.fill(format_move(game, game.legal_moves()[0]))
    box.press("Enter")


@pytest.fixture(scope="module")
def challenge(tmp_path_factory):
    launched = ChallengeLauncher(tmp_path_factory.mktemp("reto"))
    try:
        launched.wait_for("Listo")
        yield launched
    finally:
        launched.stop()


def test_class_challenge_with_three_students_and_the_teacher(chromium, challenge) -> None:
    from playwright.sync_api import expect

    outside: list[str] = []
    students = []
    for _ in range(3):
        context, page = _student(chromium, outside)
        page.goto(challenge.base + "/", timeout=BOARD_TIMEOUT_MS)
        page.locator(".snb-board [data-card]").first.wait_for(timeout=BOARD_TIMEOUT_MS)
        assert "asiento=" in page.url
        expect(page.get_by_text("Este es el reto de la clase")).to_be_visible()
        expect(page.get_by_text("Se registran, en el ordenador de tu profesor o profesora")).to_be_visible()
        expect(page.get_by_text("Tu asiento:")).to_be_visible(timeout=60_000)
        # What cannot be used in a challenge is not shown: another game or deal, a loaded game.
        for hidden in (page.locator(".snb-board .snb-game"), page.get_by_role("button", name="Nueva partida", include_hidden=True),
                       page.get_by_role("button", name="Cargar", include_hidden=True)):  # fmt: skip
            expect(hidden).to_have_count(1)
            expect(hidden).to_be_hidden()
        students.append((context, page))
    # Hints and the solver are off during the challenge.
    board = students[0][1].locator(".snb-board").first
    assert board.get_by_role("button", name="Pista").count() == 0 or not board.get_by_role("button", name="Pista").is_visible()

    tctx, teacher = _student(chromium, outside)
    teacher.goto(_teacher_url(challenge.text()))
    expect(teacher.locator("#filas tbody tr")).to_have_count(3, timeout=30_000)

    for k, (_, page) in enumerate(students):
        for _ in range(k + 1):  # seat order: 1, 2 and 3 moves
            before = int(page.locator(".snb-board").first.get_attribute("data-moves") or 0)
            _move(page)
            expect(page.locator(".snb-board").first).to_have_attribute("data-moves", str(before + 1), timeout=60_000)
    moves = teacher.locator("#filas tbody tr td:nth-child(4)")
    expect(moves).to_have_text(["1", "2", "3"], timeout=10_000)
    expect(teacher.locator("#histograma .bar")).not_to_have_count(0)
    # The histogram's axes say what they count: students, cards home.
    expect(teacher.locator("#histograma-eje-y")).to_have_text("alumnos")
    expect(teacher.locator("#histograma-eje-x")).to_have_text("cartas en la base")

    teacher.click("#pausar")
    expect(teacher.locator("#estado")).to_have_text("Reto en pausa", timeout=10_000)
    for _, page in students:
        expect(page.locator(".snb-message").first).to_contain_text("El reto está en pausa", timeout=10_000)
    _move(students[0][1])
    expect(students[0][1].locator(".snb-message").first).to_contain_text("pausa")
    assert students[0][1].locator(".snb-board").first.get_attribute("data-moves") == "1"
    teacher.click("#seguir")
    expect(students[0][1].locator(".snb-message").first).to_contain_text("El reto sigue", timeout=10_000)

    teacher.select_option("#mostrar-asiento", "3")
    teacher.click("#mostrar")
    expect(teacher.locator("#repeticion svg")).to_have_count(1, timeout=10_000)
    expect(teacher.locator("#paso")).to_contain_text("Línea de un alumno: movimiento 3 de 3", timeout=15_000)

    # «Terminar» asks first: «No» changes nothing.
    teacher.click("#terminar")
    expect(teacher.locator("#confirmar")).to_be_visible()
    expect(teacher.locator("#confirmar")).to_contain_text("¿Terminar el reto?")
    teacher.click("#confirmar-no")
    expect(teacher.locator("#confirmar")).to_be_hidden()
    expect(teacher.locator("#estado")).to_have_text("Reto en marcha")
    teacher.click("#terminar")
    screenshot(teacher, "reto-docente-confirmar.png")
    teacher.click("#confirmar-si")
    # Every control and status shows the end.
    expect(teacher.locator("#titulo")).to_have_text("Reto terminado", timeout=10_000)
    expect(teacher.locator("#estado")).to_have_text("Reto terminado")
    expect(teacher.locator("#registro")).to_have_text("registro guardado")
    expect(teacher.locator("#filas tbody tr td:nth-child(8)")).to_have_text(["Sin terminar"] * 3)
    for control in ("#pausar", "#seguir", "#pistas", "#solucion"):
        expect(teacher.locator(control)).to_be_disabled()
    expect(teacher.locator("#terminar")).to_be_hidden()
    expect(teacher.locator("#reabrir")).to_be_visible()
    screenshot(teacher, "reto-docente-terminado.png")
    for k, (_, page) in enumerate(students):
        message = page.locator(".snb-message").first
        expect(message).to_contain_text("Reto terminado", timeout=10_000)
        expect(message).to_contain_text(f"Has hecho {k + 1} movimiento")
    screenshot(students[0][1], "reto-alumno-terminado.png")
    teacher.click("#resumen")
    expect(teacher.locator("#resumen-texto")).to_contain_text("Han jugado 3 alumnos; han ganado 0.", timeout=90_000)
    expect(teacher.locator("#resumen-texto")).to_contain_text("El resolvedor dice del reparto")
    teacher.fill("#codigos", f"{DEAL}/\notra cosa")
    teacher.click("#resumen-codigos")
    expect(teacher.locator("#codigos-texto")).to_contain_text("Han jugado 1 alumno; han ganado 0.", timeout=90_000)
    expect(teacher.locator("#codigos-texto")).to_contain_text("El código n.º 2 no se puede leer")

    # «Reabrir» undoes a mistaken end: the students play on where they were.
    teacher.click("#reabrir")
    expect(teacher.locator("#titulo")).to_have_text("Reto de clase", timeout=10_000)
    expect(teacher.locator("#estado")).to_have_text("Reto en marcha")
    expect(teacher.locator("#registro")).to_have_text("se está registrando")
    expect(teacher.locator("#filas tbody tr td:nth-child(8)")).to_have_text(["Jugando"] * 3)
    expect(teacher.locator("#pausar")).to_be_enabled()
    expect(teacher.locator("#seguir")).to_be_disabled()  # not paused: nothing to resume
    expect(teacher.locator("#terminar")).to_be_visible()
    first = students[0][1]
    expect(first.locator(".snb-message").first).to_contain_text("ha reabierto el reto", timeout=10_000)
    _move(first)
    expect(first.locator(".snb-board").first).to_have_attribute("data-moves", "2", timeout=60_000)
    expect(moves).to_have_text(["2", "2", "3"], timeout=10_000)
    log = challenge.text()
    assert "warning" not in log.lower(), log  # nbformat's MissingIDFieldWarning was one
    assert outside == []
    for context, _ in [*students, (tctx, teacher)]:
        context.close()
