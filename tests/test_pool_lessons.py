"""Issue 43 part 3: the class pool of 07 and 08, and groups, on the same class core as 06's.

07 pools whole deals of Citadel played by people (won — its line replayed by the engine —, given
up, not finished: never counted as lost) beside the solver's verdicts on the same deals; 08 one
row per pair with its invented game's counts (checked against the stored samples); «Nuevo grupo»
starts an empty pool in the same record.  The real widgets pool through HTTP in this process;
without a launcher they say how to pool by hand; against the launcher, light clients and a kill -9.
"""

from __future__ import annotations

import csv
import io
import os
import signal
from pathlib import Path

import pytest

from solitaire_nb.atlas.lab_sample import MAX_STATES, SAMPLE, stored_sample
from solitaire_nb.atlas.view import interval_text
from solitaire_nb.classroom.pool_play import solver_verdicts, start_of
from solitaire_nb.classroom.pool_state import Pool
from solitaire_nb.classroom.record import Record
from solitaire_nb.core.numbers_es import thousands
from solitaire_nb.engine import new_game
from solitaire_nb.engine.share import share_code
from solitaire_nb.games.custom import custom_from_name
from solitaire_nb.solver import solve


def won_line(number: int) -> str:
    """The share code of partida n.º `number` of Citadel played to its win by the solver."""
    g = new_game("citadel", seed=number)
    result = solve(g, max_states=50_000)
    assert result.status == "won"
    for move in result.moves:
        g.move(move)
    return share_code(g)


def counts_of(name: str) -> list[int]:
    s = stored_sample(custom_from_name(name), SAMPLE, MAX_STATES)
    assert s is not None
    return [s.won, s.lost, s.unknown]


# ---------------------------------------------------------------------- 07
def test_07_counts_people_apart_and_never_an_unfinished_deal_as_lost(tmp_path: Path) -> None:
    p = Pool("07", tmp_path / "p.sqlite", say=lambda _: None)
    (_, a), (_, b) = p.new_seat(), p.new_seat()
    assert [p.page_state(s)["inicio"] for s in (a, b)] == [start_of(1), start_of(2)] and start_of(1) != start_of(2)
    p.add(a, {"partida": 1, "resultado": "empezada"})
    p.add(a, {"partida": 1, "resultado": "ganada", "jugada": won_line(1)})
    p.add(a, {"partida": 2, "resultado": "perdida"})
    p.add(b, {"partida": 11, "resultado": "empezada"})
    p.add(b, {"partida": 11, "resultado": "empezada"})  # the same again: nothing new
    fig = p.figure()
    assert (fig["ganadas"], fig["perdidas"], fig["sin_terminar"]) == (1, 1, 1)
    assert "1 sin terminar (no cuentan como perdidas)" in fig["texto"] and "Con un 95 % de confianza" in fig["texto"]
    people, same, whole = fig["tabla"]["filas"]
    assert people[1:5] == ["3", "1", "1", "1"] and people[5] == interval_text(1, 1, 1)  # the unfinished bracketed
    verdicts = [solver_verdicts()[n] for n in (1, 2, 11)]
    assert same[2:5] == [str(verdicts.count(v)) for v in ("won", "lost", "unknown")]
    assert whole[1] == thousands(len(solver_verdicts()))
    # a win the engine does not replay, another deal's line, a number beyond the atlas: refused, nothing changed
    before = p.view()
    for bad in ({"partida": 3, "resultado": "ganada", "jugada": "citadel/3/"},
                {"partida": 3, "resultado": "ganada", "jugada": won_line(1)},
                {"partida": 5_000, "resultado": "empezada"}, {"partida": "3", "resultado": "perdida"},
                {"partida": 3, "resultado": "perdio"}, {"partida": 3, "resultado": ["ganada"]}):  # fmt: skip
        with pytest.raises(ValueError):
            p.add(a, bad)
    assert p.view() == before
    rows = {r["asiento"]: r for r in p.view()["filas"]}
    assert (rows[1]["ganadas"], rows[1]["perdidas"], rows[2]["sin_terminar"]) == (1, 1, 1)
    out = io.StringIO()
    assert p.write_csv(out) == 4
    lines = list(csv.reader(io.StringIO(out.getvalue())))
    assert lines[0][:7] == ["asiento", "hora", "suceso", "partida", "resultado", "movimientos", "el resolvedor"]
    assert lines[2][2:5] == ["partida", "1", "ganada"] and int(lines[2][5]) > 10 and lines[2][-1] == "1"
    p.record.close()
    again = Pool("07", tmp_path / "p.sqlite", say=lambda _: None)
    assert again.view() == {**before, "version": again.view()["version"]}  # a restart: the pool is back


def test_a_new_group_starts_empty_in_the_same_record_and_vaciar_empties_only_it(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite"
    p = Pool("06", path, say=lambda _: None)
    _, first = p.new_seat()
    p.add_deal(first, 5)
    p.predict(first, "7")
    assert p.new_group() == 2
    assert not p.distinct() and p.predictions() == [] and p.view()["filas"] == [] and p.view()["grupo"] == 2
    _, second = p.new_seat()
    p.add_deal(second, 6)
    assert [r["asiento"] for r in p.view()["filas"]] == [2]
    p.record.close()
    p = Pool("06", path, say=lambda _: None)  # a restart goes on with the last group
    assert p.group == 2 and list(p.distinct()) == [6]
    p.clear()
    kinds = [(e["kind"], e["rule"]) for e in p.record.events()]
    assert ("deal", "1") in kinds and ("prediction", "1") in kinds and ("deal", "2") not in kinds
    out = io.StringIO()
    p.write_csv(out)
    assert [r[2] for r in csv.reader(io.StringIO(out.getvalue()))][1:] == ["reparto", "apuesta", "nuevo grupo"]


# ---------------------------------------------------------------------- 08
def test_08_one_row_per_pair_with_counts_the_launcher_checks(tmp_path: Path) -> None:
    p = Pool("08", tmp_path / "p.sqlite", say=lambda _: None)
    (_, a), (_, b) = p.new_seat(), p.new_seat()
    p.set_name(a, "Ana y Luis")
    ten = {"juego": "beleaguered_castle+columns=10", "nombre_juego": "Diez", "cuentas": counts_of("beleaguered_castle+columns=10"),
           "original": counts_of("beleaguered_castle")}  # fmt: skip
    p.add(a, ten)
    p.add(b, {**ten, "juego": "scotch+columns=10", "nombre_juego": "", "cuentas": [40, 50, 10], "original": counts_of("scotch")})
    king = {"juego": "beleaguered_castle+empty=king", "nombre_juego": "Reyes", "cuentas": counts_of("beleaguered_castle+empty=king"),
            "original": counts_of("beleaguered_castle")}  # fmt: skip
    p.add(a, king)  # a pair's new game replaces its row
    rows = p.figure()["tabla"]["filas"]
    assert len(rows) == 2 and rows[0][0] == "Ana y Luis" and rows[0][1].startswith("Reyes (") and rows[1][0] == "Asiento 2"
    assert rows[0][3:6] == king["cuentas"] and rows[0][6] == interval_text(*king["cuentas"])
    assert "2 parejas" in p.figure()["texto"] and "no cuentan como perdidas" in p.figure()["texto"]
    before = p.view()
    wrong = [king["cuentas"][0] - 1, king["cuentas"][1] + 1, king["cuentas"][2]]
    for bad in ({**king, "cuentas": wrong}, {**king, "juego": "beleaguered_castle"}, {**king, "juego": "scotch+columns=99"},
                {**king, "cuentas": [50, 50, 50]}, {**king, "cuentas": [True, 0, 99]}, {**king, "original": "64"}):  # fmt: skip
        with pytest.raises(ValueError):
            p.add(a, bad)
    assert p.view() == before
    p.record.close()
    assert Pool("08", tmp_path / "p.sqlite", say=lambda _: None).figure() == before["clase"]


# ---------------------------------------------------------------------- the real widgets
@pytest.fixture
def served(tmp_path: Path, request):
    pytest.importorskip("anywidget")
    from reto_server import InProcessServer

    s = InProcessServer(tmp_path, pool=request.param)
    try:
        yield s
    finally:
        s.close()


def _seated(widget, served, secret: str):
    from solitaire_nb.board import deal_pool

    deal_pool.POLL_SECONDS = 0
    widget.pool.reader._handle_custom_msg({"event": "seat", "secret": secret}, [])  # what the page's front end sends
    return widget


@pytest.mark.parametrize("served", ["07"], indirect=True)
def test_07_the_real_board_pools_a_win_and_a_surrender(served) -> None:
    from solitaire_nb.board.challenge import Launcher
    from solitaire_nb.board.class_play import ClassPlay
    from solitaire_nb.games.notation import format_move

    _, secret = served.on_server(served.challenge.new_seat)
    w = _seated(ClassPlay(launcher=Launcher(f"http://127.0.0.1:{served.port}")), served, secret)
    assert w.seed == start_of(1) and w.board.hints is False and w.board.solution is False
    w.board.press("new")
    assert "Otra partida" in w.board.message  # the class chooses the deal
    line = new_game("citadel", seed=w.seed)
    for move in solve(new_game("citadel", seed=w.seed), max_states=50_000).moves:
        w.board.type_move(format_move(line, move, sep="-"))
        line.move(move)
    assert w.results == {w.seed: "ganada"} and "Ganada" in w.board.message
    w.next_button.click()
    legal = w.board.game.legal_moves()[0]
    w.board.type_move(format_move(w.board.game, legal, sep="-"))
    w.give_up.click()
    view = served.on_server(served.challenge.view)
    assert (view["clase"]["ganadas"], view["clase"]["perdidas"], view["clase"]["sin_terminar"]) == (1, 1, 0)
    assert "Personas de esta clase" in w.pool.class_html.value and "1 ganada" in w.own.value
    again = _seated(ClassPlay(launcher=Launcher(f"http://127.0.0.1:{served.port}")), served, secret)  # a reload
    assert again.results == w.results and again.seed == w.seed + 1


@pytest.mark.parametrize("served", ["08"], indirect=True)
def test_08_the_real_lab_sends_the_pairs_game(served) -> None:
    from solitaire_nb.board.challenge import Launcher
    from solitaire_nb.board.lab_pool import ClassLab

    _, secret = served.on_server(served.challenge.new_seat)
    lab = _seated(ClassLab("beleaguered_castle", launcher=Launcher(f"http://127.0.0.1:{served.port}")), served, secret)
    assert not lab.send() and "Cambia antes" in lab.sent.value
    lab.change(columns=10)  # a stored sample: counted at once
    lab.game_name.value = "Diez"
    assert lab.send() and "Mandado" in lab.sent.value
    rows = served.on_server(lambda: served.challenge.figure()["tabla"]["filas"])
    assert rows[0][1].startswith("Diez") and rows[0][3:6] == counts_of("beleaguered_castle+columns=10")
    assert "Diez" in lab.pool.class_html.value


@pytest.mark.parametrize("served", ["07"], indirect=True)
def test_07_results_played_out_of_reach_wait_sin_guardar_and_arrive_in_order(served) -> None:
    from test_pool import Cut

    from solitaire_nb.board.challenge import Launcher
    from solitaire_nb.board.class_play import ClassPlay
    from solitaire_nb.games.notation import format_move

    _, secret = served.on_server(served.challenge.new_seat)
    wire = Cut(Launcher(f"http://127.0.0.1:{served.port}"))
    w = _seated(ClassPlay(launcher=wire), served, secret)
    wire.down = True
    w.board.type_move(format_move(w.board.game, w.board.game.legal_moves()[0], sep="-"))  # started…
    w.give_up.click()  # …and given up, both «sin guardar»
    assert len(w.pool.outbox) == 2 and "Sin guardar" in w.pool.class_html.value and w.results == {w.seed: "perdida"}
    wire.down = False
    w.pool.poll_once()
    view = served.on_server(served.challenge.view)
    assert (view["clase"]["ganadas"], view["clase"]["perdidas"], view["clase"]["sin_terminar"]) == (0, 1, 0)
    assert not len(w.pool.outbox) and "Sin guardar" not in w.pool.class_html.value


@pytest.mark.parametrize("served", ["08"], indirect=True)
def test_08_a_game_sent_out_of_reach_waits_and_reaches_the_class_table(served) -> None:
    from test_pool import Cut

    from solitaire_nb.board.challenge import Launcher
    from solitaire_nb.board.lab_pool import ClassLab

    _, secret = served.on_server(served.challenge.new_seat)
    wire = Cut(Launcher(f"http://127.0.0.1:{served.port}"))
    lab = _seated(ClassLab("beleaguered_castle", launcher=wire), served, secret)
    lab.change(columns=10)
    lab.game_name.value = "Diez"
    wire.down = True
    assert not lab.send() and "Sin guardar" in lab.sent.value
    wire.down = False
    lab.pool.poll_once()
    rows = served.on_server(lambda: served.challenge.figure()["tabla"]["filas"])
    assert rows[0][1].startswith("Diez") and not len(lab.pool.outbox)


def test_without_a_launcher_07_and_08_say_how_to_pool_by_hand(monkeypatch) -> None:
    pytest.importorskip("anywidget")
    from solitaire_nb.board.class_play import ClassPlay
    from solitaire_nb.board.deal_pool import BY_HAND
    from solitaire_nb.board.lab_pool import ClassLab

    monkeypatch.delenv("SNB_CLASE_URL", raising=False)
    play, lab = ClassPlay(3), ClassLab("scotch")
    assert "no cuentan como perdidas" in BY_HAND["07"] and "una fila por pareja" in BY_HAND["08"]
    for widget, lesson in ((play, "07"), (lab, "08")):
        assert BY_HAND[lesson] in widget.pool.class_html.value and BY_HAND[lesson] in widget.static_html
        assert not hasattr(widget.pool, "reader") and "python" not in BY_HAND[lesson]
    assert not hasattr(lab, "send_button")


# ---------------------------------------------------------------------- against the launcher
@pytest.mark.slow
def test_07_light_clients_and_a_kill_9_keep_every_acknowledged_result(tmp_path: Path) -> None:
    pytest.importorskip("voila")
    from pool_light import PoolClient, start_pool_launcher
    from reto_light import free_port, stop_cleanly

    port, record = free_port(), tmp_path / "clase.sqlite"
    proc, token = start_pool_launcher(record, port, tmp_path / "log1", lesson="07")
    try:
        clients = [PoolClient(port) for _ in range(6)]
        for k, c in enumerate(clients):
            assert c.add("partida", {"partida": c.start, "resultado": "empezada"}) == 200
            assert c.add("partida", {"partida": c.start + 1, "resultado": "perdida"}) == 200
            if k < 2:
                assert c.add("partida", {"partida": c.start, "resultado": "ganada", "jugada": won_line(c.start)}) == 200
        assert clients[0].add("partida", {"partida": 4, "resultado": "ganada", "jugada": "citadel/4/"}) == 400
        status, view = clients[0].page.call("/docente/api/clase", query={"token": token})
        assert status == 200 and view["clase"]["n"] == 12
        assert (view["clase"]["ganadas"], view["clase"]["perdidas"], view["clase"]["sin_terminar"]) == (2, 6, 4)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # acknowledged results, then the launcher at once
        proc.wait(timeout=30)
    rec = Record(record, None, readonly=True)
    assert len([e for e in rec.events() if e["kind"] == "play"]) == sum(len(c.acked) for c in clients)
    rec.close()
    proc, token = start_pool_launcher(record, port, tmp_path / "log2", lesson="07")
    try:
        status, again = clients[0].page.call("/docente/api/clase", query={"token": token})
        assert status == 200 and again["clase"] == view["clase"] and again["filas"] == view["filas"]
        assert PoolClient(port, secret=clients[0].secret).state()["mias"] == {str(clients[0].start): "ganada",
                                                                               str(clients[0].start + 1): "perdida"}  # fmt: skip
        status, grouped = clients[0].page.call("/docente/api/grupo", {"seguro": True}, query={"token": token})
        assert status == 200 and grouped["grupo"] == 2 and grouped["clase"]["n"] == 0
    finally:
        stop_cleanly(proc, tmp_path / "log2")


@pytest.mark.slow
def test_08_pairs_games_and_a_kill_9_bring_back_the_class_table(tmp_path: Path) -> None:
    pytest.importorskip("voila")
    from pool_light import PoolClient, start_pool_launcher
    from reto_light import free_port, stop_cleanly

    def game(name: str, given: str) -> dict:
        base = name.split("+")[0]
        return {"juego": name, "nombre_juego": given, "cuentas": counts_of(name), "original": counts_of(base)}

    port, record = free_port(), tmp_path / "clase.sqlite"
    proc, token = start_pool_launcher(record, port, tmp_path / "log1", students=4, lesson="08")
    try:
        clients = [PoolClient(port) for _ in range(4)]
        sent = [game("beleaguered_castle+columns=10", "Diez"), game("beleaguered_castle+empty=king", "Reyes"),
                game("citadel+columns=13", ""), game("bakers_dozen+empty=any", "Huecos libres")]  # fmt: skip
        for c, g in zip(clients, sent, strict=True):
            assert c.add("juego", g) == 200
        # a pair's new game replaces its row; a game the package does not store is taken as counted
        assert clients[2].add("juego", game("citadel+columns=4", "Cuatro")) == 200
        unstored = {**game("scotch", "x"), "juego": "scotch+columns=10", "cuentas": [40, 50, 10]}
        assert clients[3].add("juego", unstored) == 200
        wrong = {**sent[0], "cuentas": [sent[0]["cuentas"][0] - 1, sent[0]["cuentas"][1] + 1, sent[0]["cuentas"][2]]}
        assert clients[0].add("juego", wrong) == 400
        status, view = clients[0].page.call("/docente/api/clase", query={"token": token})
        rows = view["clase"]["tabla"]["filas"]
        assert status == 200 and view["clase"]["n"] == 4 and "4 parejas han mandado" in view["clase"]["texto"]
        assert [r[0] for r in rows] == [f"Asiento {c.state()['asiento']}" for c in clients]
        assert rows[0][1].startswith("Diez (") and rows[0][3:6] == counts_of("beleaguered_castle+columns=10")
        assert rows[2][1].startswith("Cuatro (") and rows[2][3:6] == counts_of("citadel+columns=4")
        assert rows[3][3:6] == [40, 50, 10]
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # acknowledged games, then the launcher at once
        proc.wait(timeout=30)
    rec = Record(record, None, readonly=True)
    assert len([e for e in rec.events() if e["kind"] == "invented"]) == sum(len(c.acked) for c in clients) == 6
    rec.close()
    proc, token = start_pool_launcher(record, port, tmp_path / "log2", students=4, lesson="08")
    try:
        status, again = clients[0].page.call("/docente/api/clase", query={"token": token})
        assert status == 200 and again["clase"] == view["clase"] and again["filas"] == view["filas"]
        assert PoolClient(port, secret=clients[2].secret).state()["mio"]["juego"] == "citadel+columns=4"
    finally:
        stop_cleanly(proc, tmp_path / "log2")
