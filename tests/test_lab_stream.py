"""The rules lab's win sample as it arrives: deals solved in turn in both games, the counts and
their interval shown after each deal, undecided deals never counted as lost."""

from __future__ import annotations

import re
import threading

import pytest

pytest.importorskip("ipywidgets")  # the notebook extra
pytest.importorskip("numpy")

from solitaire_nb.atlas import lab_sample as work
from solitaire_nb.atlas.intervals import bracketed_interval
from solitaire_nb.board.lab import Lab  # noqa: E402
from solitaire_nb.games import custom

FEW = 300


def test_the_stream_gives_growing_prefixes_deal_by_deal_in_turn():
    a, b = custom.custom("citadel", columns=10), custom.custom("citadel", columns=11)
    seen = list(work.stream_samples((a, b), 3, 150))
    assert seen[0] == ((), ())
    lengths = [tuple(len(v) for v in step) for step in seen[1:]]
    assert lengths == [(1, 0), (1, 1), (2, 1), (2, 2), (3, 2), (3, 3)]
    final = seen[-1]
    for game, verdicts in zip((a, b), final, strict=True):
        assert list(verdicts) == [work.solve_one(game, seed, 150) for seed in (1, 2, 3)]
        assert work.cached_sample(game, 3, 150).verdicts == verdicts
    again = list(work.stream_samples((a, b), 3, 150))  # known now: given whole at once
    assert again == [final]


def test_a_stopped_stream_caches_nothing():
    game = custom.custom("citadel", columns=12)
    stop = threading.Event()
    got = []
    for step in work.stream_samples((game,), 4, 100, stop):
        got.append(step)
        if len(step[0]) == 2:
            stop.set()
    assert len(got[-1][0]) == 2 and work.cached_sample(game, 4, 100) is None


def test_the_lab_shows_the_counts_after_every_deal(monkeypatch):
    verdicts = {1: "won", 2: "unknown", 3: "lost", 4: "won"}
    lab = Lab("citadel", stats_deals=FEW, sample=4, max_states=77, workers=1, columns=9)
    shown: list[str] = []

    def fake(definition, seed, max_states):
        shown.append(lab.win_text.value)  # what the reader sees before this deal is solved
        return verdicts[seed]

    monkeypatch.setattr(work, "solve_one", fake)
    thread = lab.count_wins()
    thread.join(60)
    assert not thread.is_alive()
    assert len(shown) == 8  # four deals of each game, solved in turn
    assert "Partidas n.º 1 a 1 de cada juego (de 4" in shown[2]
    assert "Partidas n.º 1 a 3 de cada juego (de 4" in shown[6]
    final = lab.win_text.value
    assert "Partidas n.º 1 a 4 de cada juego," in final and "(de 4" not in final
    # deal 2 undecided in both: counted apart, and the rate is a margin, never a loss
    rows = re.findall(r"<tr><td[^>]*>([^<]*)</td><td[^>]*>(\d+)</td><td[^>]*>(\d+)</td><td[^>]*>(\d+)</td>", final)
    assert [r[1:] for r in rows] == [("2", "1", "1"), ("2", "1", "1")]
    assert "entre el 50 % y el 75 %" in final
    assert "en 1 alguno de los dos queda sin decidir" in final
    assert lab.progress.value == 8


def test_the_interval_narrows_as_deals_arrive():
    widths = []
    for k in (20, 40, 60, 80, 100):
        low, high = bracketed_interval(int(0.6 * k), int(0.1 * k), k)
        widths.append(high - low)
    assert widths == sorted(widths, reverse=True)


def test_a_stored_base_game_is_paired_from_the_first_deal(monkeypatch):
    """The original's stored verdicts are there from the start: only the composed game is
    solved, and each deal solved is compared with the original's same deal."""
    data = work.stored_samples()
    if "beleaguered_castle" not in data["games"]:
        pytest.skip("python tools/lab_samples.py")
    calls = []

    def fake(definition, seed, max_states):
        calls.append(definition.name)
        return "won"

    monkeypatch.setattr(work, "solve_one", fake)
    lab = Lab("beleaguered_castle", stats_deals=FEW, workers=1, columns=11, kings_to_bottom=True)
    thread = lab.count_wins()
    thread.join(60)
    assert set(calls) == {lab.game.name} and len(calls) == work.SAMPLE
    assert f"Partidas n.º 1 a {work.SAMPLE} de cada juego," in lab.win_text.value


def test_worker_processes_give_the_same_verdicts_in_the_same_order():
    a, b = custom.custom("scotch", columns=9), custom.custom("scotch", columns=10)
    one = list(work.stream_samples((a, b), 3, 200, workers=1))
    work._SAMPLES.clear()
    two = list(work.stream_samples((a, b), 3, 200, workers=2))
    assert two == one


def test_a_stopped_pool_ends_without_waiting_for_its_deals():
    game = custom.custom("citadel", columns=7)
    stop = threading.Event()
    stream = work.stream_samples((game,), 50, 20_000, stop, workers=2)
    assert next(stream) == ((),)
    first = next(stream)
    assert len(first[0]) == 1
    stop.set()
    assert list(stream) == []
    assert work.cached_sample(game, 50, 20_000) is None


def test_the_workers_come_from_the_environment(monkeypatch):
    for raw, workers in (("1", 1), ("3", 3), ("", 2), ("0", 2), ("dos", 2), ("99", 2)):
        monkeypatch.setenv(work.WORKERS_ENV, raw)
        assert work._workers() == workers, raw


def test_without_threads_the_count_runs_deal_by_deal_on_the_event_loop(monkeypatch):
    """Pyodide starts no threads: on the page's event loop the count is a task that gives the
    loop back after every deal, so the counts grow on screen and «Detener» (a message handled
    between two deals) stops it; nothing is cached then."""
    import asyncio
    import sys

    monkeypatch.setattr(work, "solve_one", lambda definition, seed, max_states: "won")
    lab = Lab("citadel", stats_deals=FEW, sample=5, max_states=79, workers=1, columns=9)

    async def reader() -> list[str]:
        count = lab.count_wins()
        assert count is not None and count.is_alive() and lab.count_wins() is None  # one run at a time
        seen = []
        for _ in range(5):  # what the page shows between the count's steps
            await asyncio.sleep(0)
            seen.append(lab.progress.value)
        assert lab.stop_button.disabled is False
        lab.stop()  # a click on «Detener», handled between two deals
        await count.task
        assert not count.is_alive()
        return seen

    def run(coroutine):  # a loop of its own, in a thread where no other loop runs (Playwright's may)
        done = []
        runner = threading.Thread(target=lambda: done.append(asyncio.run(coroutine)))
        runner.start()
        runner.join(60)
        return done[0]

    monkeypatch.setattr(sys, "platform", "emscripten")  # Pyodide: no thread, the page's event loop
    seen = run(reader())
    assert seen == sorted(seen) and len(set(seen)) >= 3 and seen[-1] < 10  # growing, not finished at once
    assert "detenido" in lab.win_text.value and not lab.win_button.disabled
    # the deals solved before «Detener» stay on screen (a pair copies them): a table, not an empty box
    assert "resueltas antes de detener" in lab.win_text.value and "<table" in lab.win_text.value
    assert work.cached_sample(lab.game, 5, 79) is None

    async def whole() -> None:
        await lab.count_wins().task

    run(whole())
    assert "Partidas n.º 1 a 5 de cada juego," in lab.win_text.value and lab.progress.value == 10
