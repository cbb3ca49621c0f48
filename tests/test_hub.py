"""The class challenge as a JupyterHub service, under a real hub on loopback (issue 47).

One hub for every test here (`hub`, grouped in one xdist worker): JupyterHub from PyPI, Debian's
configurable-http-proxy, the project's own hub configuration (docs/hub/jupyterhub_config.py).
Identity is the hub's: a student's token records on the student's own seat, a token without the
service's scope gets 403, the teacher's page is for the «docentes» group only, and a service
killed with SIGKILL is started again by the hub with every acknowledged event.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from hub_server import PROXY, SERVICE, Hub, HubClient, load

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


def test_the_service_runs_under_the_hub_and_sends_the_teacher_to_the_hubs_login(hub):
    status, _ = hub.request("GET", f"/services/{SERVICE}/docente")
    assert status == 302  # not logged in: the hub's OAuth (hub.request follows no redirect)
    status, answer = hub.request("GET", f"/services/{SERVICE}/reto/api/estado")
    assert status == 403 and "usuario del hub" in answer["error"]


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


def test_a_killed_service_is_started_again_by_the_hub_with_every_acknowledged_event(hub):
    gil = HubClient(hub, hub.token("gil"))
    for text in legal_moves([], 4):
        assert gil.move(text) == 200
    pid = hub.service_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while hub.service_pid() in (pid, None) or gil.state()[0] != 200:
        assert time.monotonic() < deadline, hub.log.read_text()[-3000:]
        time.sleep(0.3)
    status, state = gil.state()
    assert status == 200 and state["linea"] == gil.acked and state["nombre"] == "gil"
    # The restarted service goes on with the same seat.
    assert gil.move(legal_moves(gil.acked, 1)[0]) == 200
    assert gil.state()[1]["linea"] == gil.acked


def test_ten_students_at_once_every_acknowledged_event_is_recorded(hub):
    run = load(hub, students=10, events=15)
    assert run["acked"] == run["recorded"] and sum(run["acked"].values()) >= 10 * 10
    teacher = hub.token("profe")
    status, view = hub.request("GET", f"/services/{SERVICE}/docente/api/clase", token=teacher)
    names = {r["nombre"] for r in view["filas"]}
    assert {f"carga{k}" for k in range(10)} <= names
    for user, line in run["lines"].items():
        assert HubClient(hub, hub.token(user)).state()[1]["linea"] == line
