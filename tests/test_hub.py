"""The class challenge as a JupyterHub service, under a real hub on loopback (issue 47).

One hub for every test here (`hub`, grouped in one xdist worker): JupyterHub from PyPI, Debian's
configurable-http-proxy, the project's own hub configuration (docs/hub/jupyterhub_config.py).
Identity is the hub's: a student's token records on the student's own seat, a token without the
service's scope gets 403, the teacher's page is for the «docentes» group only, and a service
killed with SIGKILL is started again by the hub with every acknowledged event.
"""

from __future__ import annotations

import os
import re
import signal
import time

import pytest
from hub_server import MARK, PROXY, SERVICE, Hub, HubClient, load, sweep

from solitaire_nb.classroom.record import Record
from solitaire_nb.engine.share import load_share
from solitaire_nb.games.notation import format_move

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("hub")]
DEAL = "citadel/2000"  # won (a hub's service, like the launcher, refuses a lost deal)


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    pytest.importorskip("jupyterhub")
    if PROXY is None:
        if os.environ.get("CI"):
            pytest.fail("configurable-http-proxy is missing: .ci/run installs node-configurable-http-proxy")
        pytest.skip("configurable-http-proxy is not installed (Debian: node-configurable-http-proxy)")
    h = Hub(tmp_path_factory.mktemp("hub"), DEAL)
    yield h
    h.close()


def legal_moves(line: list[str], n: int) -> list[str]:
    """`n` legal moves after `line` (the first legal move each time)."""
    from solitaire_nb.games.notation import parse_move

    g = load_share(DEAL)
    for text in line:
        g.move(parse_move(g, text))
    out = []
    for _ in range(n):
        m = g.legal_moves()[0]
        out.append(format_move(g, m, sep="-"))
        g.move(m)
    return out


def recorded(hub: Hub) -> dict[str, list[str]]:
    """{seat's name: its recorded moves}, read beside the running service."""
    rec = Record(hub.record, None, readonly=True)
    try:
        names = {seat: name for seat, _, name in rec.seats()}
        out: dict[str, list[str]] = {}
        for e in rec.events():
            if e["kind"] == "move":
                out.setdefault(names[e["seat"]], []).append(e["move"])
        return out
    finally:
        rec.close()


def test_outside_a_hub_the_hub_mode_says_so_and_writes_the_students_pages(tmp_path):
    import json
    import subprocess
    import sys

    from hub_server import REPO

    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTERHUB_")}
    env["PYTHONPATH"] = str(REPO)
    cmd = [sys.executable, "-m", "solitaire_nb.classroom", "--hub", "--reto", DEAL]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert out.returncode == 2 and "solo funciona como servicio de JupyterHub" in out.stderr
    out = subprocess.run([*cmd, "--paginas", str(tmp_path / "paginas")], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    pages = sorted(p.name for p in (tmp_path / "paginas").iterdir())
    assert "reto.ipynb" in pages and any(name.startswith("05_") for name in pages)
    for name in pages:
        cells = json.loads((tmp_path / "paginas" / name).read_text(encoding="utf-8"))["cells"]
        assert not any("docente" in c.get("metadata", {}).get("tags", []) for c in cells), name


def test_the_service_runs_under_the_hub_and_sends_the_teacher_to_the_hubs_login(hub):
    status, _ = hub.request("GET", f"/services/{SERVICE}/docente")
    assert status == 302  # not logged in: the hub's OAuth (hub.request follows no redirect)
    status, answer = hub.request("GET", f"/services/{SERVICE}/reto/api/estado")
    assert status == 403 and "usuario de la plataforma de clase" in answer["error"]


def test_a_students_token_records_on_the_students_own_seat(hub):
    ana = HubClient(hub, hub.token("ana"))
    status, state = ana.state()
    assert status == 200 and state["nombre"] == "ana" and state["linea"] == []
    for text in legal_moves([], 2):
        assert ana.move(text) == 200
    assert recorded(hub)["ana"] == ana.acked
    # Another student, whatever seat the request names, writes only on their own.
    bea = HubClient(hub, hub.token("bea"))
    assert bea.move(legal_moves([], 1)[0]) == 200
    assert recorded(hub)["ana"] == ana.acked and len(recorded(hub)["bea"]) == 1
    assert bea.state()[1]["asiento"] != ana.state()[1]["asiento"]
    # The name is the hub's: a student does not change it.
    status, answer = bea.call("/reto/api/nombre", {"asiento": "hub", "nombre": "Otra"})
    assert status == 403 and "usuario" in answer["error"]


def test_a_token_without_the_services_scope_gets_403(hub):
    limited = HubClient(hub, hub.token("carla", ["read:users:name!user"]))
    assert limited.state()[0] == 403
    assert limited.move(legal_moves([], 1)[0]) == 403
    assert "carla" not in recorded(hub)
    assert HubClient(hub, "no-es-un-token").state()[0] == 403


def test_the_teachers_page_is_for_the_docentes_group(hub):
    student = hub.token("dani")
    for path in ("/docente", "/docente/api/clase"):
        assert hub.request("GET", f"/services/{SERVICE}{path}", token=student)[0] == 403
    assert hub.request("POST", f"/services/{SERVICE}/docente/api/orden", {"orden": "pausar"}, student)[0] == 403
    teacher = hub.token("profe")  # in «docentes» by the shipped configuration
    status, page = hub.request("GET", f"/services/{SERVICE}/docente", token=teacher)
    assert status == 200 and "X-XSRFToken" in page and "docente/api/" in page
    status, view = hub.request("GET", f"/services/{SERVICE}/docente/api/clase", token=teacher)
    assert status == 200 and "dani" not in [r["nombre"] for r in view["filas"]]  # dani never played
    # Pause, then a student's move is refused; resume, and it is taken.
    eva = HubClient(hub, hub.token("eva"))
    eva.state()
    assert hub.request("POST", f"/services/{SERVICE}/docente/api/orden", {"orden": "pausar"}, teacher)[0] == 200
    move = legal_moves([], 1)[0]
    assert eva.move(move) == 409
    assert hub.request("POST", f"/services/{SERVICE}/docente/api/orden", {"orden": "seguir"}, teacher)[0] == 200
    assert eva.move(move) == 200
    status, view = hub.request("GET", f"/services/{SERVICE}/docente/api/clase", token=teacher)
    assert "eva" in [r["nombre"] for r in view["filas"]]


def test_a_board_in_a_students_kernel_finds_the_service_with_its_token(hub, monkeypatch):
    from solitaire_nb.board import challenge as board_challenge

    monkeypatch.setattr(board_challenge, "POLL_SECONDS", 0)
    monkeypatch.delenv(board_challenge.URL_ENV, raising=False)
    monkeypatch.setenv(board_challenge.HUB_URL_ENV, hub.service_url)  # as the shipped configuration sets it
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", hub.token("fede"))
    launcher, under_hub = board_challenge.find_launcher(board_challenge.URL_ENV, board_challenge.HUB_URL_ENV)
    assert under_hub and launcher is not None
    board = board_challenge.ChallengeBoard(DEAL, launcher)
    board._join(board_challenge.HUB_SEAT)
    assert board.seat is not None
    g = board.game
    assert board.play_move(g.legal_moves()[0])
    assert recorded(hub)["fede"] == [format_move(load_share(DEAL), load_share(DEAL).legal_moves()[0], sep="-")]


def test_a_killed_service_is_started_again_by_the_hub_and_the_moves_played_meanwhile_arrive(hub, monkeypatch):
    """kill -9 of the service: every acknowledged event is back when the hub starts it again,
    and a board that played on while it was down («sin guardar») sends those moves, in order."""
    from solitaire_nb.board import challenge as board_challenge

    monkeypatch.setattr(board_challenge, "POLL_SECONDS", 0)
    gil = HubClient(hub, hub.token("gil"))
    for text in legal_moves([], 4):
        assert gil.move(text) == 200
    board = board_challenge.ChallengeBoard(DEAL, board_challenge.Launcher(hub.service_url, hub.token("hana")))
    board._join(board_challenge.HUB_SEAT)
    assert board.play_move(board.game.legal_moves()[0])
    pid = hub.service_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    for _ in range(3):  # the board plays on while the service is down
        assert board.play_move(board.game.legal_moves()[0])
    assert board.waiting == 3 and board.game.moves_played == 4
    assert "Sin guardar: no hay conexión con el servidor del centro" in board.message
    deadline = time.monotonic() + 60
    while hub.service_pid() in (pid, None) or gil.state()[0] != 200:
        assert time.monotonic() < deadline, hub.log.read_text()[-3000:]
        time.sleep(0.3)
    status, state = gil.state()
    assert status == 200 and state["linea"] == gil.acked and state["nombre"] == "gil"
    # The restarted service goes on with the same seats.
    assert gil.move(legal_moves(gil.acked, 1)[0]) == 200
    assert gil.state()[1]["linea"] == gil.acked
    board.poll_once()  # the board's poller finds the service again and sends what waited
    assert board.waiting == 0 and "ya está guardado todo" in board.message
    line = board._line()  # noqa: SLF001 - the line the board shows, as it sends it
    assert len(line) == 4 and recorded(hub)["hana"] == line
    assert board.play_move(board.game.legal_moves()[0]) and recorded(hub)["hana"] == line + legal_moves(line, 1)


def test_ten_students_at_once_every_acknowledged_event_is_recorded(hub):
    run = load(hub, students=10, events=15)
    assert run["acked"] == run["recorded"] and sum(run["acked"].values()) >= 10 * 10
    teacher = hub.token("profe")
    status, view = hub.request("GET", f"/services/{SERVICE}/docente/api/clase", token=teacher)
    names = {r["nombre"] for r in view["filas"]}
    assert {f"carga{k}" for k in range(10)} <= names
    for user, line in run["lines"].items():
        assert HubClient(hub, hub.token(user)).state()[1]["linea"] == line


def _wait_for_pool(hub: Hub) -> None:
    deadline = time.monotonic() + 60
    while hub.request("GET", "/services/clase06/clase/api/estado")[0] != 403:  # up: its own refusal
        assert time.monotonic() < deadline, hub.log.read_text()[-3000:]
        time.sleep(0.3)


def test_lesson_06s_class_pool_under_the_hub_takes_each_users_deals(hub):
    """The same hub mode serves a lesson's class pool (the shipped configuration's service
    «clase06»): its routes, the hub's identity."""
    from solitaire_nb.classroom.pool_state import Pool

    add = getattr(Pool("06", None, say=lambda _: None), "ADD_ROUTE", "reparto")  # the route 06's widget adds with
    base = "/services/clase06"
    _wait_for_pool(hub)
    pepa, quim = hub.token("pepa"), hub.token("quim")
    status, state = hub.request("GET", f"{base}/clase/api/estado?asiento=x", token=pepa)
    assert status == 200 and state["asiento"] == 1
    status, answer = hub.request("POST", f"{base}/clase/api/{add}", {"asiento": "x", "partida": 7}, pepa)
    assert status == 200, answer
    assert hub.request("POST", f"{base}/clase/api/{add}", {"asiento": "x", "partida": 8}, quim)[0] == 200
    limited = hub.token("carla", ["read:users:name!user"])  # without the service's scope
    assert hub.request("GET", f"{base}/clase/api/estado", token=limited)[0] == 403
    assert hub.request("GET", f"{base}/docente/api/clase", token=pepa)[0] == 403
    status, view = hub.request("GET", f"{base}/docente/api/clase", token=hub.token("profe"))
    assert status == 200 and {"pepa", "quim"} <= {row["nombre"] for row in view["filas"]}, view


def test_lesson_06s_widget_in_a_students_kernel_adds_its_deals_to_the_hubs_pool(hub, monkeypatch):
    """06's try widget in a student's kernel (the spawner's environment, the server's token): it
    takes the hub user's seat, and a deal it deals is recorded under that user."""
    import ipywidgets

    from solitaire_nb.board import deal_pool
    from solitaire_nb.board.deal_pair import DealPair

    monkeypatch.setattr(deal_pool, "POLL_SECONDS", 0)
    monkeypatch.delenv(deal_pool.URL_ENV, raising=False)
    monkeypatch.setenv(deal_pool.HUB_URL_ENV.format(lesson="06"), hub.pool_url)  # as the shipped configuration sets it
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", hub.token("rosa"))
    _wait_for_pool(hub)
    widget = DealPair(seed=1)
    (row,) = [c for c in widget.pool.children if isinstance(c, ipywidgets.HBox)]
    assert widget.pool.hub and widget.pool.name not in row.children  # the hub's name is the name
    widget.pool.join("")  # a Voila page under the hub has no «?asiento=»
    assert widget.pool.seat is not None, widget.pool.class_html.value
    number = widget.number.value
    widget.deal(number)
    rec = Record(hub.pool_record, None, readonly=True)
    try:
        rosa = next(seat for seat, _, name in rec.seats() if name == "rosa")
        assert [(e["kind"], e["move"]) for e in rec.events() if e["seat"] == rosa] == [("deal", str(number))]
    finally:
        rec.close()


def _type_move(page) -> None:
    """Type the next move of the line the page's board shows (the first legal move each time)."""
    board = page.locator(".snb-board").first
    box = board.locator(".snb-text")
    game = load_share(DEAL)
    for _ in range(int(board.get_attribute("data-moves") or 0)):
        game.move(game.legal_moves()[0])
    box.fill(format_move(game, game.legal_moves()[0]))
    box.press("Enter")


def _log_in(chromium, hub: Hub, user: str):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login", timeout=60_000)
    assert page.locator("h1").inner_text() == "Entrar" and page.locator("html").get_attribute("lang") == "es"  # the hub's page in Spanish
    page.fill("#username_input", user)
    page.fill("#password_input", "cualquiera")
    page.click("#login_submit")
    return context, page


@pytest.mark.browser
def test_three_students_and_the_teacher_through_the_hubs_login_page(hub, chromium):
    """Each student logs in (the hub's page in Spanish), lands on the challenge's page in their own
    server (Voila) and plays; the teacher logs in, sees each student by hub name, pauses, shows a
    line and ends; a student opens lesson 05 in the same server."""
    from playwright.sync_api import expect

    users = ["hugo", "ines", "juan"]
    for user in users:  # their servers start together (as a class arrives), before the logins
        hub.home(user)
        hub.user(user)
        hub.api("POST", f"/users/{user}/server")
    students = []
    for user in users:  # each lands on the code-free page (default_url), its board with a seat
        context, page = _log_in(chromium, hub, user)
        page.locator(".snb-board [data-card]").first.wait_for(timeout=180_000)
        assert f"/user/{user}/voila/render/" in page.url
        if not students:  # the launcher's student template: nothing from outside, no code
            assert ".jp-InternalAnchorLink, .anchor-link { display: none !important; }" in page.content()
            shown = page.locator("body").inner_text()
            assert page.locator("link[href*='fontawesome']").count() == 0 and "import" not in shown and "challenge_page" not in shown
        expect(page.get_by_text("Tu asiento:")).to_be_visible(timeout=60_000)
        expect(page.get_by_placeholder("Tu nombre (si quieres)")).to_have_count(0)  # the hub's name is the name
        students.append((context, page))
    for k, (_, page) in enumerate(students):
        for _ in range(k + 1):
            before = int(page.locator(".snb-board").first.get_attribute("data-moves") or 0)
            _type_move(page)
            expect(page.locator(".snb-board").first).to_have_attribute("data-moves", str(before + 1), timeout=60_000)
    # A student is refused the teacher's page by the service itself (after the hub's login).
    other_tab = students[0][0].new_page()  # the same login, another tab: the board plays on in its own
    other_tab.goto(f"{hub.url}/services/{SERVICE}/docente")
    expect(other_tab.get_by_text("solo para el profesorado")).to_be_visible(timeout=30_000)
    expect(other_tab.get_by_role("link", name="Volver al inicio")).to_have_attribute("href", "/hub/home")
    other_tab.close()

    tctx, teacher = _log_in(chromium, hub, "profe")
    teacher.goto(f"{hub.url}/services/{SERVICE}/docente", timeout=60_000)
    rows = teacher.locator("#filas tbody tr")
    expect(rows.filter(has_text="hugo")).to_have_count(1, timeout=30_000)
    for k, user in enumerate(users):
        expect(rows.filter(has_text=user).locator("td:nth-child(4)")).to_have_text(str(k + 1), timeout=10_000)
    teacher.click("#pausar")
    expect(teacher.locator("#estado")).to_have_text("Reto en pausa", timeout=10_000)
    for _, page in students:
        expect(page.locator(".snb-message").first).to_contain_text("El reto está en pausa", timeout=10_000)
    teacher.click("#seguir")
    seat = rows.filter(has_text="juan").locator("td:nth-child(1)").inner_text()
    teacher.select_option("#mostrar-asiento", seat)
    teacher.click("#mostrar")
    expect(teacher.locator("#paso")).to_contain_text("movimiento 3 de 3", timeout=15_000)
    teacher.click("#terminar")
    teacher.click("#confirmar-si")
    expect(teacher.locator("#estado")).to_have_text("Reto terminado", timeout=10_000)
    for k, (_, page) in enumerate(students):
        expect(page.locator(".snb-message").first).to_contain_text(f"Has hecho {k + 1} movimiento", timeout=10_000)
    teacher.click("#reabrir")  # the other tests of this hub play on
    expect(teacher.locator("#estado")).to_have_text("Reto en marcha", timeout=10_000)
    # A lesson in the same student's server: its copy without the teacher's cells, in Voila.
    lesson = next(p.name for p in hub.home("hugo").glob("05_*.ipynb"))
    page = students[0][0].new_page()
    page.goto(f"{hub.url}/user/hugo/voila/render/{lesson}", timeout=180_000)
    page.locator(".snb-board [data-card]").first.wait_for(timeout=180_000)
    for context in [c for c, _ in students] + [tctx]:
        context.close()


def test_a_students_own_server_shows_only_the_students_folder(hub):
    """One OS user in tests: what keeps a student from the teacher's files here is their server's
    root (the shipped configuration's ``notebook_dir``), asked through the student's own server
    API; the record and the guide are outside it (on a school's hub, also another OS user)."""
    teacher = hub.home("profe")
    (teacher / "guia_docente.ipynb").write_text('{"cells": [], "respuesta": "RESPUESTA-DEL-DOCENTE"}', encoding="utf-8")
    mine = hub.home("hugo")
    hub.server("hugo")
    token = hub.token("hugo")
    status, listing = hub.request("GET", "/user/hugo/api/contents", token=token)
    assert status == 200, listing
    names = {item["name"] for item in listing["content"]}  # type: ignore[index]
    assert names == {p.name for p in mine.iterdir() if not p.name.startswith(".")} and not any("guia" in n for n in names)
    record = str(hub.record).lstrip("/")
    for path in ("..", "%2E%2E", "..%2Fprofe%2Fguia_docente.ipynb", "../profe/guia_docente.ipynb",
                 "..%2F..%2Freto.sqlite", f"%2F{record}", "%2F"):  # fmt: skip
        for route in ("api/contents", "files"):
            status, body = hub.request("GET", f"/user/hugo/{route}/{path}", token=token)
            said = str(body)
            assert "RESPUESTA-DEL-DOCENTE" not in said and "SQLite format 3" not in said, (route, path)
            assert status in (400, 403, 404) or (status == 200 and "profe" not in said and "sqlite" not in said), (route, path, status)
    # Nor through the teacher's server (running or not): another user's server is not the student's.
    status, body = hub.request("GET", "/user/profe/api/contents", token=token)
    assert status != 200 and "guia_docente" not in str(body)


ENGLISH = re.compile(r"\b(the|your|you|my|is|are|not|of|and|to|with|this|please|server|home|token|tokens|login|logout|"
                     r"start|stop|running|found|forbidden|services|permissions|note|never|expires|request|new|launch|"
                     r"failed|refresh|page|named|authorized|revoke|manage)\b", re.I)  # fmt: skip


@pytest.mark.browser
def test_the_hubs_pages_a_student_can_reach_are_in_spanish(hub, chromium):
    """Home, access keys, a server not running, 403, 404 and leaving: the text a student reads
    (what Chromium shows), the page's language and title."""
    hub.user("lola")
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login?next=%2Fhub%2Fhome", timeout=60_000)  # no server started
    page.fill("#username_input", "lola")
    page.fill("#password_input", "cualquiera")
    page.click("#login_submit")
    page.wait_for_url("**/hub/home", timeout=60_000)
    seen = {}
    for path, what in (("/hub/home", "Abrir mis lecciones"), ("/hub/token", "Pedir una clave nueva"),
                       ("/hub/user/lola/", "Tu servidor no está en marcha"), ("/hub/admin", "No tienes permiso"),
                       ("/hub/no-existe", "Esta página no existe"), ("/hub/logout", "Entrar")):  # fmt: skip
        page.goto(f"{hub.url}{path}", timeout=60_000)
        page.get_by_text(what).first.wait_for(timeout=30_000)
        text = page.evaluate("() => document.title + '\\n' + document.body.innerText")
        seen[path] = text
        if path == "/hub/home":  # the «Servicios» menu names each service in words, not by its id
            menu = page.locator(".dropdown-menu .dropdown-item").all_text_contents()
            assert "Reto de clase" in [m.strip() for m in menu] and not {"clase", "clase06"} & {m.strip() for m in menu}, menu
        assert page.locator("html").get_attribute("lang") == "es", path
        assert not ENGLISH.findall(text), (path, ENGLISH.findall(text), text)
    assert "Salir" in seen["/hub/home"] and "Claves de acceso" not in seen["/hub/home"]  # the menu: admins only
    context.close()


def test_an_interrupted_runs_hub_processes_are_swept():
    """A process marked by a test hub whose test process is gone (a run killed mid-way) is
    ended by the next hub; one of a test process still running is left alone."""
    import subprocess
    import sys

    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    env = {**os.environ, MARK: f"{done.pid}:/tmp/prueba-interrumpida"}
    orphan = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], env=env)
    mine = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                            env={**os.environ, MARK: f"{os.getpid()}:/tmp/prueba-en-marcha"})  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while orphan.pid not in sweep():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert orphan.wait(10) == -signal.SIGKILL and mine.poll() is None
        assert mine.pid in sweep(f"{os.getpid()}:/tmp/prueba-en-marcha") and mine.wait(10) == -signal.SIGKILL
    finally:
        for proc in (orphan, mine):
            if proc.poll() is None:
                proc.kill()



def test_a_mistyped_password_is_told_in_spanish():
    """The hub answers a wrong password with its own English sentence; the login page shows it
    in Spanish (rendered with the hub's own templates under ours, as the hub does)."""
    jinja2 = pytest.importorskip("jinja2")
    pytest.importorskip("jupyterhub")
    from pathlib import Path

    ours = Path(__file__).resolve().parents[1] / "solitaire_nb" / "templates" / "hub"
    from jupyterhub._data import DATA_FILES_PATH  # where the hub finds its own templates

    hubs = Path(DATA_FILES_PATH) / "templates"
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(ours)),
                                  jinja2.PrefixLoader({"templates": jinja2.FileSystemLoader(str(hubs))})])  # fmt: skip
    env = jinja2.Environment(loader=loader, undefined=jinja2.ChainableUndefined, extensions=["jinja2.ext.do"])
    env.globals["static_url"] = lambda *a, **k: ""
    page = env.get_template("login.html")
    for error, said in (("Invalid username or password", "Usuario o contraseña incorrectos."),
                        ("Something else", "No se ha podido entrar: pregunta a tu profesor o profesora.")):  # fmt: skip
        html = page.render(login_error=error, authenticator_login_url="/hub/login", xsrf="x", username="lola",
                           authenticator=type("A", (), {"request_otp": False})())  # fmt: skip
        assert said in html and error not in html
