"""The class pool in Chromium: the launcher serving a lesson numbered 06 (its try widget only),
then one numbered 07 (its class play only), then one numbered 08 (its class lab only), for two
students, each in a browser of their own (so a seat of their own), and the teacher's page.

06: each page starts at its seat's own deal number; a «Repartir» on one page changes the class's
figure on the teacher's page and, by its polling, on the other student's page; the same deal
dealt by the other student is counted once.  07: a move starts a deal (not finished, never
lost), «Me rindo» makes it lost to people, the table beside the solver changes everywhere;
«Nuevo grupo», confirmed, empties the class on every page.  08: a pair names itself and its
game, «Mandar a la clase» puts one row with the game's stored counts on the teacher's page and,
by its polling, on the other pair's page.  The terminal shows no traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("playwright")  # the test extra: drives Chromium
pytest.importorskip("voila")  # the clase extra: serves the pages

from browser_helpers import BOARD_TIMEOUT_MS, REPO, free_port  # noqa: E402
from test_clase import _nb  # noqa: E402
from test_clase_browser import Launcher, _code, _md, _student  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class PoolLauncher(Launcher):
    def __init__(self, folder, students: int = 2, lesson: str = "06") -> None:  # noqa: D107
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / "clase.log"
        cmd = [sys.executable, "-m", "solitaire_nb.classroom", lesson, "--registro", str(folder / "clase.sqlite"),
               "--alumnos", str(students), "--puerto", str(self.port), "--ip", "127.0.0.1", "--carpeta", str(folder)]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, env=env,
                                         start_new_session=True)  # fmt: skip


@pytest.fixture(scope="module")
def launcher(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clase06")
    nb = _nb([_md("# Pruébalo: reparte tú"), _code("from solitaire_nb.board import deal_pair\ndeal_pair(seed=1)")])
    (folder / "06_prueba.ipynb").write_text(json.dumps(nb))
    launched = PoolLauncher(folder)
    try:
        launched.wait_for("Listo")
        yield launched
    finally:
        launched.stop()


def _class_line(page):
    return page.locator(".snb-class").first


def test_two_students_and_the_teacher_see_the_class_figure_change(chromium, launcher) -> None:
    from playwright.sync_api import expect

    outside: list[str] = []
    teacher_url = next(w for w in launcher.text().split() if "/docente?token=" in w)
    (ca, a), (cb, b) = _student(chromium, outside), _student(chromium, outside)
    ct, teacher = _student(chromium, outside)
    try:
        for page in (a, b):
            page.goto(launcher.base + "/", timeout=BOARD_TIMEOUT_MS)
            expect(_class_line(page)).to_contain_text("Tu asiento", timeout=BOARD_TIMEOUT_MS)
        seats = sorted(int(p.locator(".snb-class b").nth(1).inner_text()) for p in (a, b))
        assert seats == [1, 2]
        teacher.goto(teacher_url)
        expect(teacher.locator("#cifra")).to_contain_text("todavía no ha repartido", timeout=30_000)
        a.get_by_role("button", name="Repartir").click()
        expect(_class_line(a)).to_contain_text("1 partida distinta", timeout=60_000)
        expect(teacher.locator("#cifra")).to_contain_text("1 partida distinta", timeout=30_000)
        expect(_class_line(b)).to_contain_text("1 partida distinta", timeout=30_000)  # b's page polls
        b.get_by_role("button", name="Repartir").click()
        expect(teacher.locator("#cifra")).to_contain_text("2 partidas distintas", timeout=60_000)
        expect(teacher.locator("#cifra")).to_contain_text("con un 95 % de confianza", timeout=5_000)
        expect(_class_line(a)).to_contain_text("2 partidas distintas", timeout=30_000)
        assert teacher.locator("#histograma rect").count() >= 9 and teacher.locator("#estrecha polygon").count() == 1
        assert teacher.locator("#histograma text").filter(has_text="partidas").count() == 1  # the y axis
        # the same deal number on the other page: counted once, and that page says so
        number = a.locator("input[type=number]").first.input_value()
        b.locator("input[type=number]").first.fill(number)
        b.locator("input[type=number]").first.press("Tab")  # the field syncs on leaving it
        b.get_by_role("button", name="Repartir").click()
        expect(_class_line(b)).to_contain_text("ya la había repartido alguien", timeout=60_000)
        expect(teacher.locator("#cifra")).to_contain_text("2 partidas distintas")
        assert not outside, outside
    finally:
        for c in (ca, cb, ct):
            c.close()
    assert "Traceback" not in launcher.text()


@pytest.fixture(scope="module")
def launcher07(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clase07")
    nb = _nb([_md("# Mídelo en clase"), _code("from solitaire_nb.board import class_play\nclass_play()")])
    (folder / "07_prueba.ipynb").write_text(json.dumps(nb))
    launched = PoolLauncher(folder, lesson="07")
    try:
        launched.wait_for("Listo")
        yield launched
    finally:
        launched.stop()


def test_07_people_beside_the_solver_and_a_new_group_on_every_page(chromium, launcher07) -> None:
    from playwright.sync_api import expect

    from solitaire_nb.classroom.pool_play import start_of
    from solitaire_nb.engine import new_game
    from solitaire_nb.games.notation import format_move

    outside: list[str] = []
    teacher_url = next(w for w in launcher07.text().split() if "/docente?token=" in w)
    (ca, a), (cb, b), (ct, teacher) = (_student(chromium, outside) for _ in range(3))
    try:
        for page in (a, b):
            page.goto(launcher07.base + "/", timeout=BOARD_TIMEOUT_MS)
            expect(_class_line(page)).to_contain_text("Tu asiento", timeout=BOARD_TIMEOUT_MS)
        teacher.goto(teacher_url)
        expect(teacher.locator("#cifra")).to_contain_text("todavía no ha empezado", timeout=30_000)
        seat = int(a.locator(".snb-class b").nth(1).inner_text())
        game = new_game("citadel", seed=start_of(seat))
        expect(a.locator(".snb-board [data-card]").first).to_be_visible(timeout=BOARD_TIMEOUT_MS)
        assert not a.get_by_role("button", name="Pista").is_visible()  # the class measures people
        box = a.locator(".snb-board .snb-text").first
        box.fill(format_move(game, game.legal_moves()[0]))
        box.press("Enter")
        expect(teacher.locator("#cifra")).to_contain_text("1 sin terminar (no cuentan como perdidas)", timeout=60_000)
        expect(teacher.locator("#tabla")).to_contain_text("El resolvedor, en las mismas partidas")
        a.get_by_role("button", name="Me rindo").click()
        expect(teacher.locator("#cifra")).to_contain_text("1 en la que alguien se ha rendido", timeout=60_000)
        expect(_class_line(b)).to_contain_text("1 en la que alguien se ha rendido", timeout=30_000)  # b's page polls
        expect(teacher.locator("#filas")).to_contain_text("Se rindió")
        teacher.get_by_role("button", name="Nuevo grupo").click()
        teacher.locator("#grupo-si").click()
        expect(teacher.locator("#grupo")).to_contain_text("Grupo 2", timeout=30_000)
        expect(teacher.locator("#cifra")).to_contain_text("todavía no ha empezado")
        expect(_class_line(a)).to_contain_text("todavía no ha empezado", timeout=30_000)
        assert not outside, outside
    finally:
        for c in (ca, cb, ct):
            c.close()
    assert "Traceback" not in launcher07.text()


@pytest.fixture(scope="module")
def launcher08(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clase08")
    # a game the package stores the sample of: counted at once, as when a pair has pressed
    # «¿Cuántas se pueden ganar?» (a sample solved in the page would take the test minutes)
    code = 'from solitaire_nb.board import class_lab\nclass_lab("beleaguered_castle", seed=1, columns=10)'
    (folder / "08_prueba.ipynb").write_text(json.dumps(_nb([_md("# Inventa tu juego"), _code(code)])))
    launched = PoolLauncher(folder, lesson="08")
    try:
        launched.wait_for("Listo")
        yield launched
    finally:
        launched.stop()


def test_08_a_pairs_game_sent_to_the_class_is_a_row_on_every_page(chromium, launcher08) -> None:
    from playwright.sync_api import expect

    from solitaire_nb.atlas.lab_sample import MAX_STATES, SAMPLE, stored_sample
    from solitaire_nb.games.custom import custom_from_name

    counted = stored_sample(custom_from_name("beleaguered_castle+columns=10"), SAMPLE, MAX_STATES)
    assert counted is not None
    outside: list[str] = []
    teacher_url = next(w for w in launcher08.text().split() if "/docente?token=" in w)
    (ca, a), (cb, b), (ct, teacher) = (_student(chromium, outside) for _ in range(3))
    try:
        for page in (a, b):
            page.goto(launcher08.base + "/", timeout=BOARD_TIMEOUT_MS)
            expect(_class_line(page)).to_contain_text("Tu asiento", timeout=BOARD_TIMEOUT_MS)
        teacher.goto(teacher_url)
        expect(teacher.locator("#cifra")).to_contain_text("Todavía ninguna pareja", timeout=30_000)
        a.get_by_placeholder("Vuestros nombres (si queréis)").fill("Ana y Luis")
        a.get_by_role("button", name="Guardar nombre").click()
        expect(a.get_by_text("Nombre guardado")).to_be_visible(timeout=30_000)
        a.get_by_placeholder("El nombre de vuestro juego").fill("Diez")
        a.get_by_role("button", name="Mandar a la clase").click()
        expect(a.get_by_text("Mandado: ya está en la tabla de la clase.")).to_be_visible(timeout=60_000)
        expect(teacher.locator("#cifra")).to_contain_text("Una pareja ha mandado su juego", timeout=30_000)
        row = teacher.locator("#tabla tbody tr")
        expect(row).to_have_count(1)
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        assert cells[0] == "Ana y Luis" and cells[1].startswith("Diez (") and "10 columnas" in cells[1]
        assert cells[3:6] == [str(counted.won), str(counted.lost), str(counted.unknown)]
        expect(b.locator(".snb-class-html")).to_contain_text("Ana y Luis", timeout=30_000)  # b's page polls
        assert not outside, outside
    finally:
        for c in (ca, cb, ct):
            c.close()
    assert "Traceback" not in launcher08.text()
