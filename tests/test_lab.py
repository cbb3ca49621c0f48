"""The rules lab (`sn.lab`): its controls compose the game `custom` would, both boards show the
same deal, the statistics follow each change, a refused change keeps the last game, and the win
sample runs in a thread, stops on request and says its rates in Spanish."""

from __future__ import annotations

import re
import threading

import pytest

pytest.importorskip("ipywidgets")  # the notebook extra
pytest.importorskip("numpy")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import solitaire_nb as sn  # noqa: E402
from solitaire_nb.atlas import lab_measures as work
from solitaire_nb.atlas import lab_sample
from solitaire_nb.board.lab import Lab  # noqa: E402
from solitaire_nb.games import custom

FEW = 300  # decks for the statistics in these tests: the lab's code, a tenth of the work


def small_lab(like: str = "beleaguered_castle", **kwargs) -> Lab:
    return Lab(like, stats_deals=FEW, **kwargs)


@pytest.mark.parametrize("like", custom.LIKES)
def test_the_lab_builds_for_each_base_game(like):
    lab = small_lab(like, seed=5)
    defn = sn.GAMES[like]
    assert lab.base is defn and lab.game.name == like
    assert lab.values() == custom.current(defn.rules_for())
    assert lab.board.game.seed == lab.base_board.game.seed == 5
    assert lab.board.game.piles == sn.new_game(like, seed=5).piles
    assert defn.display_name in lab.title.value and "Todavía no has cambiado" in lab.title.value
    assert lab.message.value == "" and lab.comparison.n == FEW
    assert lab.plot.value[:4] == b"\x89PNG"
    assert "Laboratorio de reglas" in lab.static_html


def test_the_public_entry_and_a_definition_as_base():
    lab = sn.lab(sn.GAMES["citadel"], seed=3)
    assert isinstance(lab, Lab) and lab.base is sn.GAMES["citadel"]
    assert lab.comparison.n == 10_000
    with pytest.raises(ValueError, match="like debe ser uno de"):
        sn.lab("chequers")


def test_changing_controls_composes_the_game_custom_would():
    lab = small_lab()
    before = lab.stats.value
    lab.controls["columns"].value = 10
    lab.controls["empty"].value = "king"
    assert lab.game is custom.custom("beleaguered_castle", columns=10, empty="king")
    assert lab.game.spec == {"like": "beleaguered_castle", "changes": {"columns": 10, "empty": "king"}}
    assert "Beleaguered Castle con 10 columnas y huecos solo para Reyes" in lab.title.value
    assert lab.board.game.name == lab.game.name and len(lab.board.game.tableau_ids) == 10
    assert lab.base_board.game.name == "beleaguered_castle"
    # the statistics followed: ten columns now, and the tenth column's length
    assert lab.stats.value != before and "Tablero 10" in lab.stats.value
    assert re.search(r"Columnas del tablero</td><td[^>]*>8</td><td[^>]*>10</td>", lab.stats.value)
    # the rule sentences say what changed, beside the original's
    assert "Solo un Rey puede ocupar un hueco." in lab.explanations["Huecos"].value
    assert "Cualquier carta puede ocupar un hueco." in lab.explanations["Huecos"].value
    # back to the original's values: the original game again
    lab.controls["columns"].value = 8
    lab.controls["empty"].value = "any"
    assert lab.game.name == "beleaguered_castle" and lab.game.spec["changes"] == {}


def test_before_any_change_the_lab_asks_for_one_and_does_not_say_the_deal_is_untouched():
    lab = small_lab("beleaguered_castle")
    assert work.NOTHING_CHANGED in lab.stats.value and "no toca el reparto" not in lab.stats.value
    lab.controls["columns"].value = 10  # a change that alters the deal: neither sentence
    assert work.NOTHING_CHANGED not in lab.stats.value and "no toca el reparto" not in lab.stats.value
    lab.controls["columns"].value = 8  # back to the original: nothing changed again
    assert work.NOTHING_CHANGED in lab.stats.value
    cmp = work.comparison(sn.GAMES["citadel"], sn.GAMES["citadel"], n=FEW)
    assert "no toca el reparto" in work.stats_html(cmp)  # the same deal, said when a rule was changed
    assert work.NOTHING_CHANGED in work.stats_html(cmp, changed=False)


def test_interval_ends_are_rounded_outward():
    # 19 of 100: Wilson gives 12,5 % – 27,8 %; to the nearest it would print 13 %, shaving the interval
    assert work.interval_words(work.Sample("X", ("won",) * 19 + ("lost",) * 81)) == "entre el 12 % y el 28 %"
    assert work.interval_words(work.Sample("X", ("won",) * 20)) == "entre el 83 % y el 100 %"  # 83,9 %: down, not up


def test_a_rule_that_does_not_touch_the_deal_says_so():
    lab = small_lab("bakers_dozen")
    lab.controls["suits"].value = "any"
    assert lab.game.spec["changes"] == {"suits": "any"}
    assert "no toca el reparto" in lab.stats.value
    lab.controls["kings_to_bottom"].value = False
    assert "no toca el reparto" not in lab.stats.value
    assert "Cartas tapadas por un Rey" in lab.stats.value


def test_both_boards_show_the_same_deal_number():
    lab = small_lab(columns=9)
    lab.seed.value = 77
    assert lab.board.game.seed == lab.base_board.game.seed == 77
    assert sorted(c for p in lab.board.game.piles.values() for c in p) == sorted(
        c for p in lab.base_board.game.piles.values() for c in p
    )
    lab.board.press("new", seed="12")  # a board's «Nueva partida» moves the lab's number
    assert lab.seed.value == 12 and lab.base_board.game.seed == 12 and lab.board.game.seed == 12
    lab.base_board.press("new", seed="no")
    assert lab.seed.value == 12 and "número entero" in lab.base_board.view["message"]
    lab.board.type_move("T1 T2")  # the composed board plays as a board does
    assert lab.board.view["message"]


def test_a_refused_change_keeps_the_last_game_and_says_why():
    lab = small_lab()
    lab.controls["columns"].value = 11
    game, stats = lab.game, lab.stats.value
    assert lab.change(columns=3) is False
    assert "columns debe ser un entero entre 4 y 20" in lab.message.value and "Sigue el juego anterior" in lab.message.value
    assert lab.game is game and lab.controls["columns"].value == 11 and lab.stats.value == stats
    assert lab.change(suits="rainbow") is False and lab.game is game
    assert lab.change(columns=12, autoplay=True) is True
    assert lab.message.value == "" and lab.game.spec["changes"] == {"columns": 12, "autoplay": True}
    assert lab.controls["autoplay"].value is True


def test_rate_sentences_carry_their_interval_and_three_counts():
    assert work.rate_text(work.Sample("Citadel", ("won",) * 12 + ("lost",) * 8)) == (
        "Citadel, partidas n.º 1 a 20: 12 tienen solución, 8 no tienen solución y 0 quedan sin decidir; "
        "porcentaje de victorias 60 % (intervalo de confianza del 95 %: entre el 38 % y el 79 %)."
    )  # Wilson's 38,7 % – 78,1 %, rounded outward
    text = work.rate_text(work.Sample("Citadel", ("won",) * 12 + ("lost",) * 5 + ("unknown",) * 3))
    assert "5 no tienen solución y 3 quedan sin decidir" in text
    assert "entre el 60 % y el 75 %" in text and "entre el 38 % y" in text


def test_paired_counts_keep_undecided_deals_apart():
    a = work.Sample("A", ("won", "won", "unknown", "lost", "won", "lost"))
    b = work.Sample("B", ("won", "lost", "won", "won", "unknown", "lost"))
    assert work.paired_counts(a, b) == {"both": 1, "only_a": 1, "only_b": 1, "neither": 1, "undecided": 2}
    text = work.paired_text(a, b, "el original", "el otro")
    assert "1 solo en el original (en el otro no la tienen)" in text and "en 2 alguno de los dos queda sin decidir" in text
    with pytest.raises(ValueError, match="mismas"):
        work.paired_counts(a, work.Sample("C", ("won",)))


def test_counts_table_has_three_count_columns():
    table = work.counts_table([work.Sample("Citadel", ("won",) * 3 + ("lost", "unknown"))])
    head, _, row = table.splitlines()
    assert "tienen solución | no tienen solución | sin decidir" in head
    assert row.startswith("| Citadel | 3 | 1 | 1 | entre el 60 % y el 80 % |")


def test_the_sample_sentence_formats_only_its_number():
    lab = small_lab()
    words = lab._sample_words()
    assert "de cada juego, con el mismo límite" in words and "(20.000 posiciones)" in words


def test_stored_samples_are_shown_at_open_without_solving(monkeypatch):
    monkeypatch.setattr(lab_sample, "solve_one", lambda *a: pytest.fail("the lab solved at open"))
    data = work.stored_samples()
    assert data["games"], "solitaire_nb/data/lab_samples.json: python tools/lab_samples.py"
    lab = Lab("beleaguered_castle", stats_deals=FEW)
    text = lab.win_text.value.lower()
    assert "tienen solución" in text and "no tienen solución" in text and "sin decidir" in text
    assert text.count("<tr><td") == 1  # no rule changed yet: one row
    lab.change(columns=10)  # stored too
    assert "Tu juego" in lab.win_text.value and f"De las mismas {work.SAMPLE} partidas" in lab.win_text.value


def test_the_win_button_solves_a_small_sample_in_a_thread():
    lab = Lab("citadel", stats_deals=FEW, sample=2, max_states=200, columns=10)
    thread = lab.count_wins()
    assert thread is not None
    thread.join(120)
    assert not thread.is_alive()
    text = lab.win_text.value
    assert re.search(r"tu juego|Citadel con 10 columnas", text)
    assert len(re.findall(r"<tr><td[^>]*>(Tu juego|Citadel)</td>", text)) == 2
    assert "Intervalo de confianza (95 %)" in text and "Sin decidir" in text
    assert not lab.win_button.disabled and lab.stop_button.disabled
    assert work.cached_sample(lab.game, 2, 200) is not None  # cached per composed game
    lab.controls["columns"].value = 8
    lab.controls["columns"].value = 10
    assert "Tu juego" in lab.win_text.value and "De las mismas 2 partidas" in lab.win_text.value  # from the cache


def test_stop_ends_the_sample_between_deals(monkeypatch):
    gate, started = threading.Event(), threading.Event()

    def slow(definition, seed, max_states):
        started.set()
        gate.wait(30)
        return "won"

    monkeypatch.setattr(lab_sample, "solve_one", slow)
    lab = small_lab(sample=5, max_states=123, workers=1)
    thread = lab.count_wins()
    assert started.wait(30)
    assert lab.count_wins() is None  # one run at a time
    lab.stop()
    gate.set()
    thread.join(30)
    assert "detenido" in lab.win_text.value
    assert work.cached_sample(lab.game, 5, 123) is None
    assert not lab.win_button.disabled


def test_markdown_tables_become_html():
    html = work.markdown_html("**a** b\n\n| | x |\n|---|---:|\n| fila | 1,0 |")
    assert html.startswith("<p><b>a</b> b</p>")
    assert '<td style="text-align:right">1,0</td>' in html and "<th>X</th>" in html
    # a table slides sideways in its labelled box on a phone, rather than being cut
    assert '<div class="snb-table-box" role="region" tabindex="0" aria-label="Tabla: ' in html
    assert html.endswith("</table></div>")


_LAB: list[Lab] = []


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        st.sampled_from(custom.CHANGES),
        st.one_of(st.integers(-3, 25), st.sampled_from([v for c in custom.CHOICES.values() for v in c]),
                  st.booleans(), st.text(max_size=3)),
        max_size=4,
    )
)
def test_no_exception_escapes_control_changes(changes):
    if not _LAB:
        _LAB.append(Lab("scotch", stats_deals=50))
    lab = _LAB[0]
    ok = lab.change(**changes)
    assert ok or "Sigue el juego anterior" in lab.message.value
    for key, value in changes.items():  # the same values through the controls themselves
        try:
            lab.controls[key].value = value
        except Exception:  # noqa: BLE001 - the widget's own type check, before the lab sees it
            pass
    assert custom.current(lab.game.rules_for()) == lab.values()
    assert lab.board.game.name == lab.game.name and lab.board.game.seed == lab.seed.value
    assert "Traceback" not in lab.message.value + lab.stats.value


def test_without_threads_the_sample_is_solved_at_once(monkeypatch):
    """Pyodide (JupyterLite) starts no threads: the button still answers, before returning."""

    def no_thread(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", no_thread)
    lab = Lab("beleaguered_castle", stats_deals=FEW, sample=1, max_states=50, columns=5)
    done = lab.count_wins()
    done.join()
    assert not done.is_alive() and lab.win_text.value.count("<tr><td") == 2
    assert not lab.win_button.disabled


def test_stored_sample_verdicts_are_what_the_solver_finds():
    """A few stored verdicts recomputed (tools/lab_samples.py writes them all)."""
    data = work.stored_samples()
    assert data["deals"] == work.SAMPLE and data["max_states"] == work.MAX_STATES, "python tools/lab_samples.py"
    for name in ("beleaguered_castle", "citadel+columns=13", "bakers_dozen+empty=any"):
        stored = data["games"][name]
        assert len(stored) == work.SAMPLE
        game = custom.custom_from_name(name)
        for seed in (1, 2):
            assert work.solve_one(game, seed, work.MAX_STATES) == stored[seed - 1], (name, seed)
