"""Issue 43 part 3: notebook 06's class pool on the class core (seats, record, request checks).

The pool counts each deal number once, computes every deal's counts on the launcher from its
number, and its mean and interval are the notebook's own (`study.mean_ci`) on the distinct
deals; the real try widget pools through HTTP in this process; without a launcher it says how
to pool by hand; against the launcher itself, ten light clients and a kill -9.
"""

from __future__ import annotations

import csv
import io
import os
import signal
import threading
from pathlib import Path

import pytest

from solitaire_nb import study
from solitaire_nb.classroom import inbound
from solitaire_nb.classroom import launcher as clase
from solitaire_nb.classroom.class_core import NotYourSeat
from solitaire_nb.classroom.pool_deals import SEAT_STRIDE
from solitaire_nb.classroom.pool_state import Pool
from solitaire_nb.classroom.record import Record
from solitaire_nb.study.tally import count_deal


def engine_figures(numbers) -> tuple[int, float, float, float]:
    """n, mean and 95 % interval of the cards home during the deal, as notebook 06 computes
    them: the engine deals each number, `study.mean_ci` gives the interval."""
    values = [float(count_deal(n).home_in_deal) for n in sorted(set(numbers))]
    mean, low, high = (float(x) for x in study.mean_ci(values))
    return len(values), mean, low, high


def pool_figures(view: dict) -> tuple[int, float, float, float]:
    c = view["clase"]
    return c["n"], c["media"], c["bajo"], c["alto"]


# ---------------------------------------------------------------------- the pool itself
def test_each_deal_number_counts_once_and_the_figure_is_the_notebooks(tmp_path: Path) -> None:
    p = Pool("06", tmp_path / "p.sqlite", say=lambda _: None)
    seats = [p.new_seat()[1] for _ in range(4)]
    dealt = {0: [1, 2, 3], 1: [1, 2, 3], 2: [1, 200, 201], 3: [3, 3, 3]}  # thirty who start at 1 add one deal
    for k, numbers in dealt.items():
        for n in numbers:
            p.add_deal(seats[k], n)
    everyone = {n for numbers in dealt.values() for n in numbers}
    assert sorted(p.distinct()) == sorted(everyone) == [1, 2, 3, 200, 201]
    assert pool_figures(p.view()) == engine_figures(everyone)
    assert "5 partidas distintas" in p.figure()["texto"] and "con un 95 % de confianza, la media verdadera" in p.figure()["texto"]
    assert sum(count for _, count in p.view()["histograma"]) == 5
    assert [r["partidas"] for r in p.view()["filas"]] == [3, 3, 3, 1]
    # one event per seat and deal number, no more
    assert len([e for e in p.record.events() if e["kind"] == "deal"]) == 10


def test_seats_start_at_their_own_deal_numbers(tmp_path: Path) -> None:
    p = Pool("06", None, say=lambda _: None)
    starts = [p.page_state(p.new_seat()[1])["inicio"] for _ in range(3)]
    assert starts == [SEAT_STRIDE, 2 * SEAT_STRIDE, 3 * SEAT_STRIDE]


def test_the_page_sends_a_number_only_and_bad_ones_change_nothing(tmp_path: Path) -> None:
    p = Pool("06", tmp_path / "p.sqlite", say=lambda _: None)
    _, secret = p.new_seat()
    for bad in ("7", 7.0, True, -1, inbound.DEAL_NUMBER_MAX + 1, None, [7], {"home_in_deal": 48}):
        with pytest.raises(inbound.BadRequest):
            p.add_deal(secret, bad)
    with pytest.raises(NotYourSeat):
        p.add_deal("not a secret", 7)
    assert not p.distinct() and not p.record.events()


def test_vaciar_and_removing_a_seat_leave_nothing_of_them(tmp_path: Path) -> None:
    p = Pool("06", tmp_path / "p.sqlite", say=lambda _: None)
    (a, sa), (b, sb) = p.new_seat(), p.new_seat()
    p.set_name(sa, "Ana")
    for n in (5, 6):
        p.add_deal(sa, n)
    p.add_deal(sb, 6)
    p.predict(sa, "6,5")
    p.remove_seat(a)
    assert sorted(p.distinct()) == [6]  # seat b dealt 6 too: still in the class
    assert {(e["seat"], e["kind"]) for e in p.record.events()} == {(b, "deal")}
    assert p.record.seats()[0][2] == "" and p.predictions() == []
    p.teacher_predict("7")
    p.clear()
    assert not p.distinct() and not p.record.events() and p.predictions() == []
    assert pool_figures(p.view())[0] == 0 and len(p.seats) == 2  # pages keep their seats


def test_a_restarted_pool_is_back_and_a_record_of_another_class_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite"
    p = Pool("06", path, say=lambda _: None)
    _, secret = p.new_seat()
    for n in (10, 11, 12):
        p.add_deal(secret, n)
    p.predict(secret, "7")
    before = p.view()
    p.record.close()
    again = Pool("06", path, say=lambda _: None)
    after = again.view()
    assert {**after, "version": 0} == {**before, "version": 0} and again.page_state(secret)["mias"] == [10, 11, 12]
    again.record.close()
    from solitaire_nb.classroom.challenge_state import Challenge

    said: list[str] = []
    Challenge("citadel/2026", path, say=said.append)  # a challenge on a pool's record: refused, unrecorded
    assert said and "otro reto" in said[0]


def test_the_csv_is_computed_from_the_numbers_and_neutralised(tmp_path: Path) -> None:
    p = Pool("06", tmp_path / "p.sqlite", say=lambda _: None)
    _, secret = p.new_seat()
    p.set_name(secret, "=HYPERLINK(1)")
    p.add_deal(secret, 518)
    p.teacher_predict("7")
    out = io.StringIO()
    assert p.write_csv(out, names=False) == 2
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    c = count_deal(518)
    assert rows[1][2:8] == ["reparto", "518", str(c.home_in_deal), str(c.autoplay), str(c.shortened_after_deal),
                            str(c.shortened_after_autoplay)]  # fmt: skip
    assert rows[2][0] == "docente" and rows[2][-2:] == ["7", "1"] and "nombre" not in rows[0]
    named = io.StringIO()
    p.write_csv(named, names=True)
    assert "'=HYPERLINK(1)" in named.getvalue()


def test_the_lesson_launcher_takes_a_record_only_for_a_pooled_lesson(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(clase.machine, "port_free", lambda *a: None)
    monkeypatch.setattr(clase.machine, "check_memory", lambda *a: None)
    args = clase.parser().parse_args(["06", "--registro", str(tmp_path / "c.sqlite")])
    assert clase.check_args(args).name.startswith("06")
    with pytest.raises(SystemExit):
        clase.main(["05", "--registro", str(tmp_path / "c.sqlite")])
    assert "--registro solo sirve con --reto o con un cuaderno" in capsys.readouterr().err
    from solitaire_nb.classroom.challenge_state import Challenge

    reto = tmp_path / "reto.sqlite"
    Challenge("citadel/2026", reto, say=lambda _: None).record.close()
    with pytest.raises(ValueError, match="es de otra clase"):
        clase.check_args(clase.parser().parse_args(["06", "--registro", str(reto)]))
    pool = tmp_path / "pool.sqlite"
    Pool("06", pool, say=lambda _: None).record.close()
    with pytest.raises(ValueError, match="lección 06, no de un reto"):
        clase.check_args(clase.parser().parse_args(["--reto", "citadel/2026", "--registro", str(pool)]))
    assert clase.main(["--borrar", str(pool)]) == 0 and not pool.exists()  # --borrar covers pool records


# ---------------------------------------------------------------------- the real try widget
@pytest.fixture
def served(tmp_path: Path):
    pytest.importorskip("anywidget")
    from reto_server import InProcessServer

    s = InProcessServer(tmp_path, pool=True)
    try:
        yield s
    finally:
        s.close()


def _widget(served, secret: str):
    from solitaire_nb.board import deal_pool
    from solitaire_nb.board.challenge import Launcher
    from solitaire_nb.board.deal_pair import DealPair

    deal_pool.POLL_SECONDS = 0
    w = DealPair(1, launcher=Launcher(f"http://127.0.0.1:{served.port}"))
    # what the page's front end sends: its address's secret, through the widget's comm
    w.pool.reader._handle_custom_msg({"event": "seat", "secret": secret}, [])
    return w


def test_the_try_widget_pools_every_deal_it_counts(served) -> None:
    (_, mine), (_, theirs) = (served.on_server(served.challenge.new_seat) for _ in range(2))
    w = _widget(served, mine)
    assert w.pool.seat == 1 and w.number.value == SEAT_STRIDE and w.tally.n == 0  # its own deal number, uncounted
    w.deal_button.click()
    for _ in range(4):
        w.next_button.click()
    mine_dealt = list(range(SEAT_STRIDE, SEAT_STRIDE + 5))
    assert sorted(served.on_server(lambda: list(served.challenge.distinct()))) == mine_dealt == sorted(w.tally.deals)
    other = _widget(served, theirs)
    other.number.value = SEAT_STRIDE + 2  # a deal the class already has
    other.deal_button.click()
    view = served.on_server(served.challenge.view)
    assert pool_figures(view) == engine_figures(mine_dealt)
    assert "ya la había repartido alguien" in other.pool.class_html.value
    assert "5 partidas distintas" in other.pool.class_html.value and "Tu asiento: <b>2</b>" in other.pool.class_html.value
    assert "Tu cuenta" in w.tally_html.value
    # a reload: a new kernel's widget on the same seat gets its tally back and goes on after it
    again = _widget(served, mine)
    assert sorted(again.tally.deals) == mine_dealt and again.number.value == SEAT_STRIDE + 5
    w.pool.bet.value = "6,5"
    w.pool.bet_button.click()
    assert served.on_server(served.challenge.predictions) == ["6,5"]


def test_the_exercise_board_counts_nothing_and_reaches_no_class(served) -> None:
    """Issue 44: Ejercicio 1's own board (one deal every student looks at) adds nothing to «Tu
    cuenta» nor to the class pool, and takes no seat; the try board goes on counting."""
    from solitaire_nb.board.challenge import Launcher
    from solitaire_nb.board.deal_pair import DealPair
    from solitaire_nb.lessons.study_exercises import DEAL_SEED

    _, mine = served.on_server(served.challenge.new_seat)
    w = _widget(served, mine)
    w.deal_button.click()
    exercise = DealPair(DEAL_SEED, launcher=Launcher(f"http://127.0.0.1:{served.port}"), counted=False)
    assert exercise.pool is None and exercise.number.value == DEAL_SEED
    assert f'data-seed="{DEAL_SEED}"' in exercise.picture.value  # shown dealt, with its table
    exercise.deal_button.click()
    exercise.number.value = DEAL_SEED + 1
    exercise.deal_button.click()
    assert exercise.tally.n == 0 and w.tally.n == 1
    assert sorted(served.on_server(lambda: list(served.challenge.distinct()))) == [SEAT_STRIDE]
    assert exercise.next_button not in exercise.children[1].children  # no «Otro reparto» there
    assert "Tu cuenta" not in str(exercise._repr_mimebundle_())


class Cut:
    """A class server that can be cut off: while `down` every request finds nothing (0), as a
    server that is stopped, killed or out of the network."""

    token = None

    def __init__(self, launcher) -> None:
        self.launcher, self.down = launcher, False

    def call(self, *args, **kwargs) -> tuple[int, dict]:
        return (0, {}) if self.down else self.launcher.call(*args, **kwargs)


def test_the_try_widget_keeps_its_deals_sin_guardar_and_pools_them_when_the_server_is_back(served) -> None:
    """Issue 47: a server out of reach does not lose a deal: it waits, said «sin guardar», and
    goes in order when the server answers (the same outbox as the challenge board's)."""
    from solitaire_nb.board import deal_pool
    from solitaire_nb.board.challenge import Launcher
    from solitaire_nb.board.deal_pair import DealPair

    deal_pool.POLL_SECONDS = 0
    _, mine = served.on_server(served.challenge.new_seat)
    wire = Cut(Launcher(f"http://127.0.0.1:{served.port}"))
    w = DealPair(1, launcher=wire)
    w.pool.reader._handle_custom_msg({"event": "seat", "secret": mine}, [])
    w.deal_button.click()
    wire.down = True
    for _ in range(3):
        w.next_button.click()
    said = w.pool.class_html.value
    assert w.tally.n == 4 and len(w.pool.outbox) == 3 and "Sin guardar: no hay conexión con el ordenador de tu profesor o profesora" in said
    w.pool.poll_once()  # still out of reach
    assert len(served.on_server(lambda: list(served.challenge.distinct()))) == 1
    wire.down = False
    w.pool.poll_once()
    dealt = served.on_server(lambda: list(served.challenge.distinct()))
    assert dealt == list(range(SEAT_STRIDE, SEAT_STRIDE + 4)) and not len(w.pool.outbox)  # in the order dealt
    assert "Sin guardar" not in w.pool.class_html.value
    w.pool.poll_once()
    assert "4 partidas distintas" in w.pool.class_html.value


def test_without_a_launcher_the_widget_says_how_to_pool_by_hand(monkeypatch) -> None:
    pytest.importorskip("anywidget")
    from solitaire_nb.board.deal_pair import DealPair

    monkeypatch.delenv("SNB_CLASE_URL", raising=False)
    w = DealPair(3)
    w.deal_button.click()
    said = w.pool.class_html.value
    assert "no está conectada a la clase" in said and "hoja de recuento" in said and "sumas, no medias" in said
    assert not hasattr(w.pool, "reader") and w.tally.n == 1


def test_under_a_hub_each_lessons_widget_finds_its_own_pool_service(monkeypatch) -> None:
    """The hub's spawner gives each lesson's pool its address (docs/hub/jupyterhub_config.py);
    the laptop launcher's, when a kernel has it, comes first; a hub's address without the
    server's token is no connection (a page alone)."""
    pytest.importorskip("anywidget")
    from solitaire_nb.board.deal_pool import HUB_URL_ENV, URL_ENV, class_launcher

    monkeypatch.delenv(URL_ENV, raising=False)
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    for lesson in ("06", "07", "08"):
        monkeypatch.setenv(HUB_URL_ENV.format(lesson=lesson), f"http://127.0.0.1:1/services/clase{lesson}")
    assert class_launcher(True, "07") is None
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "token-del-servidor")
    for lesson in ("06", "07", "08"):
        launcher = class_launcher(True, lesson)
        assert launcher is not None and launcher.base.endswith(f"/clase{lesson}") and launcher.token == "token-del-servidor"
    monkeypatch.setenv(URL_ENV, "http://127.0.0.1:2")
    launcher = class_launcher(True, "08")
    assert launcher is not None and launcher.base == "http://127.0.0.1:2" and launcher.token is None


# ---------------------------------------------------------------------- against the launcher
@pytest.mark.slow
def test_ten_light_clients_pool_the_distinct_deals_and_a_kill_9_keeps_them(tmp_path: Path) -> None:
    pytest.importorskip("voila")
    from pool_light import PoolClient, start_pool_launcher
    from reto_light import free_port, stop_cleanly

    port, record = free_port(), tmp_path / "clase.sqlite"
    proc, token = start_pool_launcher(record, port, tmp_path / "log1")
    try:
        clients = [PoolClient(port) for _ in range(10)]
        # four start at deal 1 as the whole class might; the others at their seat's own number
        plans = [[1, 2, 3, 4, 5] if k < 4 else [c.start + j for j in range(5)] for k, c in enumerate(clients)]
        threads = [threading.Thread(target=lambda c=c, p=p: [c.deal(n) for n in p]) for c, p in zip(clients, plans, strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(c.acked == p for c, p in zip(clients, plans, strict=True))
        everyone = {n for p in plans for n in p}
        status, view = clients[0].page.call("/docente/api/clase", query={"token": token})
        assert status == 200 and view["partidas"] == sorted(everyone) and len(everyone) == 5 + 6 * 5
        assert pool_figures(view) == engine_figures(everyone)
        assert clients[0].page.call("/docente/api/clase", query={"token": clients[0].secret})[0] == 403
        assert clients[0].state()["clase"]["n"] == len(everyone)  # every page sees the class's figure
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # acknowledged deals, then the launcher and its kernels at once
        proc.wait(timeout=30)
    rec = Record(record, None, readonly=True)
    assert len([e for e in rec.events() if e["kind"] == "deal"]) == sum(len(c.acked) for c in clients)
    rec.close()
    proc, token = start_pool_launcher(record, port, tmp_path / "log2")
    try:
        assert "Registro de la clase" in (tmp_path / "log2").read_text()
        status, again = clients[0].page.call("/docente/api/clase", query={"token": token})
        assert status == 200 and again["partidas"] == view["partidas"] and again["clase"] == view["clase"]
        back = PoolClient(port, secret=clients[5].secret)
        assert back.state()["mias"] == plans[5]
    finally:
        stop_cleanly(proc, tmp_path / "log2")
