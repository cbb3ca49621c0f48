"""The board, driven the way its front end drives it: custom messages through the widget's
message handler (clicks with data-pile / data-index, buttons, typed moves).  Checks the
position, the Spanish messages, undo/redo, numbered deals, save/load and keyboard moves, and
(with Hypothesis) that no exception escapes whatever arrives in whatever order."""

from __future__ import annotations

import importlib
import sys
import types
import xml.etree.ElementTree as ET
from collections import Counter
from unittest import mock

import pytest
from conftest import pos
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("anywidget")  # the notebook extra: the board

import solitaire_nb as sn  # noqa: E402
from solitaire_nb.board import BUTTONS, Board, load_share, parse_text_move, share_code  # noqa: E402
from solitaire_nb.games.notation import format_move


def send(board: Board, **msg) -> dict:
    """Deliver a message exactly as the front end's model.send does, and return the view."""
    board._handle_custom_msg(msg, [])
    return board.view


def top(board: Board, pid: str) -> int:
    return len(board.game.piles[pid]) - 1


def cards_total(g: sn.Game) -> Counter:
    return Counter(c.code for cards in g.piles.values() for c in cards)


@pytest.fixture
def board() -> Board:
    return sn.play("citadel", seed=1234)


def test_play_builds_a_board_with_a_view(board):
    assert isinstance(board, sn.Board)
    assert board.game.name == "citadel" and board.game.seed == 1234
    view = board.view
    assert view["status"].startswith("Citadel · Partida n.º 1234 · 0 movimientos")
    ET.fromstring(view["svg"])
    assert Board.view.metadata.get("sync") is True


def test_click_card_then_target_plays_the_move(board):
    g = board.game
    move = g.legal_moves()[0]
    expected = g.copy()
    expected.move(move)
    send(board, event="click", pile=move.src, index=top(board, move.src))
    assert board.selection == (move.src, top(board, move.src))
    assert "Elegida" in board.view["message"]
    view = send(board, event="click", pile=move.dst, index=None)
    assert g.position() == expected.position()
    assert g.history == (move,)
    assert view["kind"] == "ok"
    assert view["moves_played"] == 1
    line = view["moves"][-len(g.steps()[0].automatic) - 1]
    assert line.startswith(f"1. {format_move(g, move)} ({g.label(move.src)} → {g.label(move.dst)}): ")


def test_illegal_move_shows_why_not_and_changes_nothing(board):
    g = board.game
    legal = set(g.legal_moves())
    src, dst = next(
        (s, d)
        for s in g.pile_ids
        if s.startswith("T") and g.piles[s]
        for d in g.pile_ids
        if d != s and sn.Move(s, d) not in legal
    )
    before = g.position()
    send(board, event="click", pile=src, index=top(board, src))
    view = send(board, event="click", pile=dst, index=0)
    assert view["message"] == g.why_not(src, dst)
    assert view["kind"] == "error"
    assert g.position() == before and g.moves_played == 0
    assert board.selection is None


def test_clicking_the_same_pile_again_cancels_the_selection(board):
    send(board, event="click", pile="T0", index=top(board, "T0"))
    send(board, event="click", pile="T0", index=top(board, "T0"))
    assert board.selection is None and board.game.moves_played == 0


def test_one_card_games_refuse_to_pick_a_buried_card(board):
    view = send(board, event="click", pile="T0", index=0)
    assert board.selection is None
    assert view["message"] == "En Citadel solo se mueve una carta cada vez."


def test_moving_left_run_starts_at_the_clicked_card():
    g = pos("moving_left", {"T0": "5C QS JH TS", "T1": "KD"}, {"T0": 1})
    b = Board(g)
    send(b, event="click", pile="T0", index=1)
    assert b.selection == ("T0", 1)
    send(b, event="click", pile="T1")
    assert g.history == (sn.Move("T0", "T1", 3),)
    assert [c.code for c in g.piles["T1"]] == ["KD", "QS", "JH", "TS"]
    assert g.face_down("T0") == 0  # ML-6: the 5 of clubs turned up
    assert any("se pone boca arriba 5 de tréboles" in line for line in b.view["moves"])


def test_face_down_cards_and_empty_piles_cannot_be_picked():
    b = sn.play("moving_left", seed=2)
    view = send(b, event="click", pile="T5", index=0)
    assert view["message"] == "Esa carta está boca abajo: elige una carta boca arriba."
    view = send(b, event="click", pile="W")
    assert "El descarte está vacío: elige" in view["message"]
    assert b.selection is None and b.game.moves_played == 0


def test_stock_turns_with_one_click_even_with_a_selection():
    b = sn.play("moving_left", seed=2)
    g = b.game
    stock_top = g.piles["S"][-1]
    send(b, event="click", pile="T9", index=top(b, "T9"))
    send(b, event="click", pile="S", index=None)
    assert g.history == (sn.Move("S", "W"),) and g.piles["W"][-1] is stock_top
    assert b.view["message"].startswith("1. M D (Mazo → Descarte): ")


def test_double_click_sends_a_card_to_its_foundation():
    g = pos("citadel", {"T0": "9H 2S", "T1": "KC", "F0": "AS", "F1": "AH", "F2": "AD", "F3": "AC"})
    b = Board(g)
    view = send(b, event="double", pile="T0", index=1)
    assert [c.code for c in g.piles["F0"]] == ["AS", "2S"]
    assert view["kind"] == "ok"
    view = send(b, event="double", pile="T1", index=0)
    assert view["message"] == "La K de tréboles no puede ir ahora a ninguna base."
    assert g.moves_played == 1


def test_undo_and_redo_buttons(board):
    g = board.game
    start = g.position()
    move = g.legal_moves()[0]
    send(board, event="click", pile=move.src, index=top(board, move.src))
    send(board, event="click", pile=move.dst)
    after = g.position()
    view = send(board, event="button", name="undo")
    assert g.position() == start and view["can_redo"] and not view["can_undo"]
    view = send(board, event="button", name="redo")
    assert g.position() == after and view["moves_played"] == 1
    send(board, event="button", name="undo")
    view = send(board, event="button", name="undo")
    assert view["message"] == "No hay ningún movimiento que deshacer." and g.position() == start


def test_new_deal_with_a_number(board):
    view = send(board, event="button", name="new", seed="777")
    assert board.game.seed == 777 and board.game.name == "citadel"
    assert board.game.position() == sn.new_game("citadel", seed=777).position()
    assert view["seed"] == 777 and "partida n.º 777" in view["message"]
    send(board, event="button", name="new", seed=5, game="scotch")
    assert board.game.name == "scotch" and board.game.seed == 5
    before = board.game
    view = send(board, event="button", name="new", seed="doce")
    assert board.game is before and view["kind"] == "error"
    assert view["message"] == "No hay ninguna partida «doce». Escribe un número de partida sin signos, por ejemplo 1234."
    view = send(board, event="button", name="new", seed="-3")
    assert board.game is before and "«-3»" in view["message"] and "sin signos" in view["message"]
    view = send(board, event="button", name="new", seed=str(2**64))  # one past the largest deal number
    assert board.game is before and view["message"].startswith(f"No hay ninguna partida «{2**64}»: es demasiado grande.")
    send(board, event="button", name="new", seed=str(2**64 - 1))
    assert board.game is not before and board.game.seed == 2**64 - 1
    before = board.game
    send(board, event="button", name="new", seed="")
    assert board.game is not before and board.game.seed is not None


def test_new_deal_keeps_the_variant():
    b = sn.play("chequers", seed=1, wrap=False)
    send(b, event="button", name="new", seed=2)
    assert b.game.variant["wrap"] is False


def test_a_new_deal_of_another_game_starts_with_its_own_defaults():
    b = sn.play("chequers", seed=1, wrap=False)
    send(b, event="button", name="new", game="citadel", seed=2)
    assert b.game.name == "citadel" and b.game.variant == sn.new_game("citadel", seed=2).variant
    send(b, event="button", name="new", game="chequers", seed=3)
    assert b.game.variant == sn.new_game("chequers", seed=3).variant


def test_save_and_load_json_and_share_code(board):
    g = board.game
    for _ in range(3):
        g.move(g.legal_moves()[0])
    board.refresh()
    view = send(board, event="button", name="save")
    assert view["export"] == g.to_json()
    assert view["share"] == share_code(g) == "citadel/1234/" + ",".join(format_move(g, m, "-") for m in g.history)
    assert ">" not in view["share"] and ">" not in view["message"]
    position = g.position()
    send(board, event="button", name="new", seed=1)
    send(board, event="button", name="load", text=view["share"])
    assert board.game.position() == position and board.game.seed == 1234
    send(board, event="button", name="new", seed=1)
    view2 = send(board, event="button", name="load", text=view["export"])
    assert board.game.position() == position and view2["kind"] == "ok"
    before = board.game
    for junk in ("", "citadel/xx/", "nada/1/", "citadel/1/T0>F9", "citadel/1/T1-B9", "citadel/p.AAA/", "{no es json"):
        view3 = send(board, event="button", name="load", text=junk)
        assert view3["kind"] == "error" and board.game is before


def test_share_code_carries_variants_and_practice_positions():
    g = sn.new_game("chequers", seed=3, wrap=False)
    code = share_code(g)
    assert code == "chequers;wrap=0/3/"
    assert load_share(code).variant == g.variant
    practice = pos("citadel", {"T0": "KS"})
    assert share_code(practice).startswith("citadel/p.")
    b = Board(practice)
    view = send(b, event="button", name="save")
    assert view["share"] in view["message"] and view["export"]
    assert load_share(view["share"]).position() == practice.position()


def test_typed_moves_in_the_learner_notation():
    g = sn.new_game("chequers", seed=1)
    assert parse_text_move(g, "T4 B1") == (sn.Move("T3", "F0"), None)
    assert parse_text_move(g, "t2 t7 3")[0] == sn.Move("T1", "T6", 3)
    assert parse_text_move(g, "T2 T7 x3")[0] == sn.Move("T1", "T6", 3)
    assert parse_text_move(g, "R B5")[0] == sn.Move("R", "F4")
    assert parse_text_move(g, "del tablero 4 a la base 1")[0] == sn.Move("T3", "F0")
    move, error = parse_text_move(g, "T3>F0")  # the Python API's notation is not the board's
    assert move is None and "«T4 B1»" in error
    assert parse_text_move(sn.new_game("moving_left", seed=1), "M")[0] == sn.Move("S", "W")
    assert parse_text_move(sn.new_game("moving_left", seed=1), "D T3")[0] == sn.Move("W", "T2")
    assert parse_text_move(sn.new_game("scotch", seed=1), "A18 B2")[0] == sn.Move("T17", "F1")
    assert "con B" in parse_text_move(g, "F1 T2")[1]
    assert "no tiene Tablero 26" in parse_text_move(g, "T26 B1")[1]
    assert "no tiene Tablero 0" in parse_text_move(g, "T0 B1")[1]
    assert parse_text_move(g, "")[1].startswith("Escribe un movimiento")


def test_typed_move_plays_through_the_board(board):
    g = board.game
    move = g.legal_moves()[0]
    text = f"T{int(move.src[1:]) + 1} T{int(move.dst[1:]) + 1}"
    view = send(board, event="text", text=text)
    assert g.history == (move,) and view["kind"] == "ok"
    view = send(board, event="text", text="T1 B9")
    assert "no tiene Base 9" in view["message"] and view["kind"] == "error" and g.moves_played == 1
    view = send(board, event="text", text="T2 T2")
    assert view["message"] == g.why_not("T1", "T1") and g.moves_played == 1
    view = send(board, event="text", text="T1>T1")
    assert "«T4 B1»" in view["message"] and view["kind"] == "error" and g.moves_played == 1


def test_python_side_moves_show_after_refresh(board):
    g = board.game
    g.move(g.legal_moves()[0])
    assert board.view["moves_played"] == 0
    board.refresh()
    assert board.view["moves_played"] == 1 and 'data-moves="1"' in board.view["svg"]
    board.game = sn.new_game("bakers_dozen", seed=4)
    assert board.view["game"] == "bakers_dozen"


def fake_solver(status="won", moves=(), hint_move=None, proven=False, fail=False):
    module = types.ModuleType("solitaire_nb.solver")

    def solve(game, time_limit=None, max_states=None):
        if fail:
            raise RuntimeError("roto")
        return types.SimpleNamespace(status=status, moves=list(moves), states=10, seconds=0.01)

    def hint(game, time_limit=1.0):
        if fail:
            raise RuntimeError("roto")
        return types.SimpleNamespace(move=hint_move, proven=proven, status=status)

    module.solve, module.hint = solve, hint
    importlib.import_module("solitaire_nb.solver.verdict_cache")  # the buttons' door to the solver, loaded for real
    return mock.patch.dict(sys.modules, {"solitaire_nb.solver": module})


def test_hint_uses_the_solver_and_falls_back_to_a_heuristic(board):
    g = board.game
    good = g.legal_moves()[-1]
    with fake_solver(hint_move=good, proven=True):
        view = send(board, event="button", name="hint")
    assert view["message"].startswith(f"Pista: {format_move(g, good)} ({g.label(good.src)} → {g.label(good.dst)})")
    assert "sigue teniendo solución" in view["message"] and g.moves_played == 0
    with fake_solver(fail=True):
        view = send(board, event="button", name="hint")
    assert "una idea, sin comprobar" in view["message"] and g.moves_played == 0
    with mock.patch.dict(sys.modules, {"solitaire_nb.solver": None}):  # module missing
        view = send(board, event="button", name="hint")
    assert "una idea, sin comprobar" in view["message"]


def test_hint_where_cards_lie_face_down_says_the_solver_saw_them():
    """Moving Left hides cards: a proven hint says the proof saw them, and a stock move is
    told as what it does (one card to the waste), not as turning the stock over."""
    b = sn.play("moving_left", seed=1236)
    g = b.game
    stock = next(m for m in g.legal_moves() if m.src == "S")
    with fake_solver(hint_move=stock, proven=True):
        view = send(b, event="button", name="hint")
    message = view["message"]
    assert message.startswith(f"Pista: {format_move(g, stock)}: pasa una carta del mazo al descarte.")
    assert message.endswith("sigue teniendo solución (el resolvedor ve las cartas boca abajo, que tú no ves).")
    assert "gira" not in message and g.moves_played == 0


def test_solver_verdicts_in_spanish(board):
    with fake_solver(status="won", moves=[sn.Move("T0", "T1")]):
        assert "tiene solución" in send(board, event="button", name="solvable")["message"]
    with fake_solver(status="lost"):
        assert "no tiene solución" in send(board, event="button", name="solvable")["message"]
    board.game.move(board.game.legal_moves()[0])
    with fake_solver(status="lost"):  # lost before the move too (tests/test_board_verdicts.py)
        assert "ni la tenía al empezar" in send(board, event="button", name="solvable")["message"]
    with fake_solver(status="unknown"):
        assert "Sin decidir" in send(board, event="button", name="solvable")["message"]
    with fake_solver(fail=True):
        view = send(board, event="button", name="solvable")
    assert "sin decidir" in view["message"] and view["kind"] == "error"
    ml = sn.play("moving_left", seed=1)
    with fake_solver(status="unknown"):
        assert "ve las cartas boca abajo" in send(ml, event="button", name="solvable")["message"]


@pytest.mark.parametrize("name", list(sn.GAMES))
def test_the_hidden_cards_notice_follows_the_rules(name):
    """Games that deal cards face down (Moving Left's tableau, Chequers' reserve) say that the
    solver sees them; the others don't."""
    b = sn.play(name, seed=1)
    hides = b.game.rules.hides_cards
    line = []
    probe = b.game.copy()
    for _ in range(2):
        m = probe.legal_moves()[0]
        probe.move(m)
        line.append(m)
    for status in ("won", "lost", "unknown"):
        with fake_solver(status=status, moves=line):
            message = send(b, event="button", name="solvable")["message"]
        assert ("ve las cartas boca abajo" in message) is hides, (status, message)
    with fake_solver(status="won", moves=line):
        message = send(b, event="button", name="solution")["message"]
    assert "Siguiente" in message and ("ve las cartas boca abajo" in message) is hides


def test_see_solution_replays_step_by_step(board):
    g = board.game
    line = []
    probe = g.copy()
    for _ in range(3):
        m = probe.legal_moves()[0]
        probe.move(m)
        line.append(m)
    with fake_solver(status="won", moves=line):
        view = send(board, event="button", name="solution")
    assert view["replay_left"] == 3 and "Siguiente" in view["message"]
    for k in range(3):
        view = send(board, event="button", name="next")
        assert g.history == tuple(line[: k + 1])
    assert view["replay_left"] == 0
    view = send(board, event="button", name="next")
    assert view["kind"] == "error" and g.moves_played == 3


def test_unknown_messages_are_answered_in_spanish(board):
    for msg in ("texto", None, {"event": "vuela"}, {"event": "button", "name": "borrar"}):
        board._handle_custom_msg(msg, [])
        assert board.view["kind"] == "error" and "La partida no ha cambiado" in board.view["message"]


PILES = ["T0", "T1", "T2", "T3", "T7", "T9", "T12", "T17", "T24", "F0", "F1", "F3", "F7", "R", "S", "W", "X9", "", None]
INDEXES = st.one_of(st.none(), st.integers(-2, 30), st.just("3"), st.just("x"))
EVENTS = st.one_of(
    st.fixed_dictionaries(
        {"event": st.sampled_from(["click", "double"]), "pile": st.sampled_from(PILES), "index": INDEXES}
    ),
    st.fixed_dictionaries(
        {
            "event": st.just("button"),
            "name": st.sampled_from(
                ["undo", "redo", "hint", "next", "save", "solvable", "solution", "new", "load", "x"]
            ),
            "seed": st.one_of(st.none(), st.integers(-5, 50), st.just("12"), st.just("abc")),
            "text": st.one_of(st.none(), st.just("citadel/3/"), st.just("{}"), st.text(max_size=8)),
        }
    ),
    st.fixed_dictionaries(
        {"event": st.just("text"), "text": st.one_of(st.none(), st.text(max_size=10), st.just("T1 T2"), st.just("M"))}
    ),
    st.just({"event": "escape"}),
    st.just("no es un dict"),
)


def well_formed(msg) -> bool:
    if not isinstance(msg, dict):
        return False
    if msg["event"] == "button":
        return msg["name"] in BUTTONS
    return True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(list(sn.GAMES)), seed=st.integers(1, 500), events=st.lists(EVENTS, max_size=25))
def test_no_exception_escapes_random_clicks(name, seed, events):
    b = sn.play(name, seed=seed)
    with fake_solver(status="won", moves=[], hint_move=None):
        for msg in events:
            b._handle_custom_msg(msg, [])  # raises if a handler lets anything escape
            view = b.view
            if well_formed(msg):  # a real front-end message never hits the catch-all
                assert "Algo ha fallado" not in view["message"], (msg, view["message"])
            g = b.game
            assert isinstance(view["message"], str) and view["svg"].startswith("<svg")
            assert view["moves_played"] == g.moves_played
            assert sum(cards_total(g).values()) == 52 * g.definition.decks
            if b.selection is not None:
                pid, index = b.selection
                assert 0 <= index < len(g.piles[pid])


def test_static_fallback_beside_the_widget_view(board):
    data = board._repr_mimebundle_()[0]
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/html"].startswith('<div class="snb-static"') and "<svg" in data["text/html"]


def test_escape_cancels_and_double_click_on_stock_turns():
    b = sn.play("moving_left", seed=3)
    send(b, event="click", pile="T9", index=top(b, "T9"))
    send(b, event="escape")
    assert b.selection is None
    send(b, event="double", pile="S", index=None)
    assert b.game.history == (sn.Move("S", "W"),)



def test_with_the_real_solver_a_nearly_won_game_is_solved_and_replayed():
    pytest.importorskip("solitaire_nb.solver")
    ranks = "A23456789TJQ"
    piles = {f"F{i}": [r + s for r in ranks] for i, s in enumerate("SHDC")}
    piles.update({"T0": ["KS", "KH"], "T1": ["KD"], "T2": ["KC"]})
    b = Board(sn.Game.from_position("beleaguered_castle", piles), solver_seconds=2.0)
    view = send(b, event="button", name="solvable")
    assert "tiene solución" in view["message"].lower() and "no tiene" not in view["message"].lower()
    send(b, event="button", name="solution")
    while b.view["replay_left"]:
        send(b, event="button", name="next")
    assert b.game.is_won() and "¡Ganada!" in b.view["status"]


def test_move_list_matches_the_games_steps_through_undo_and_redo():
    from solitaire_nb.render import deal_lines, move_lines

    b = sn.play("chequers", seed=21)
    g = b.game
    for k in range(30):
        legal = g.legal_moves()
        send(b, event="text", text=str(legal[k % len(legal)]))
        if k % 7 == 3:
            send(b, event="button", name="undo")
        if k % 11 == 5:
            send(b, event="button", name="redo")
        assert b.view["moves"] == deal_lines(g) + move_lines(g)


def test_move_list_follows_moves_made_in_python_and_clicks():
    """The list is kept from one view to the next as far as the moves agree: moves made in
    Python, a different move after an undo, clicks and a new game all show the game's steps."""
    from solitaire_nb.render import deal_lines, move_lines

    b = sn.play("citadel", seed=7)  # autoplay: moves have automatic lines under them
    g = b.game
    for k in range(12):
        legal = g.legal_moves()
        if not legal:
            break
        move = legal[k % len(legal)]
        if k % 3 == 0:
            g.move(move)
            b.refresh()
        elif move.src == "S":
            send(b, event="click", pile="S", index=None)
        else:
            send(b, event="click", pile=move.src, index=len(g.piles[move.src]) - move.n_cards)
            send(b, event="click", pile=move.dst, index=None)
        assert g.history[-1] == move
        assert b.view["moves"] == deal_lines(g) + move_lines(g)
    g.undo()
    g.undo()
    other = [m for m in g.legal_moves() if m != b.game.legal_moves()[0]][-1]
    g.move(other)
    b.refresh()
    assert b.view["moves"] == deal_lines(g) + move_lines(g)
    b.game = sn.new_game("beleaguered_castle", seed=7)
    assert b.view["moves"] == deal_lines(b.game) == []


def test_saved_json_is_sent_once_and_never_goes_stale(board):
    view = send(board, event="button", name="save")
    assert view["export"]
    g = board.game
    view = send(board, event="text", text=format_move(g, g.legal_moves()[0]))
    assert view["export"] == "" and view["share"] == ""


# ---------------------------------------------------------------------- teacher switches


@pytest.fixture
def page_defaults():
    """Leave the page's board defaults as they were (a test may change them)."""
    from solitaire_nb import board as board_module

    saved = dict(board_module._DEFAULTS)
    yield
    board_module._DEFAULTS.clear()
    board_module._DEFAULTS.update(saved)


def test_switched_off_hints_and_solver_are_refused_by_the_kernel(page_defaults):
    b = sn.play("citadel", seed=1234, hints=False, solution=False)
    assert b.view["hints"] is False and b.view["solution"] is False
    before = b.game.position()
    with fake_solver(status="won", moves=[b.game.legal_moves()[0]], hint_move=b.game.legal_moves()[0], proven=True):
        view = send(b, event="button", name="hint")
        assert view["kind"] == "error" and "no hay pistas" in view["message"]
        for name in ("solvable", "solution", "next"):
            view = send(b, event="button", name=name)
            assert view["kind"] == "error" and "resolvedor" in view["message"], name
            assert view["replay_left"] == 0
    assert b.game.position() == before and b.game.moves_played == 0
    assert "Algo ha fallado" not in view["message"]
    # The rest of the board still works.
    move = b.game.legal_moves()[0]
    send(b, event="text", text=format_move(b.game, move))
    assert b.game.moves_played == 1


def test_a_board_without_the_solver_neither_saves_nor_loads(page_defaults):
    """Saved there and loaded on a board with the solver, an exercise's deal could be solved."""
    other = sn.play("citadel", seed=1234)
    code = share_code(other.game)
    b = sn.play("citadel", seed=1234, solution=False)
    assert b.view["saves"] is False and other.view["saves"] is True
    for name, extra in (("save", {}), ("load", {"text": code})):
        view = send(b, event="button", name=name, **extra)
        assert view["kind"] == "error" and "no se guardan ni se cargan" in view["message"], name
        assert not view["export"]
    assert b.game.moves_played == 0


def test_switches_default_to_on_and_follow_the_page_defaults(page_defaults):
    b = sn.play("citadel", seed=1)
    assert (b.hints, b.solution, b.solver_seconds) == (True, True, 5.0)
    sn.set_board_defaults(solution=False, solver_seconds=2)
    b = sn.play("citadel", seed=1)
    assert (b.hints, b.solution, b.solver_seconds) == (True, False, 2.0)
    assert sn.play("citadel", seed=1, solution=True).solution is True  # a board's own word wins
    sn.set_board_defaults(hints=False)  # None leaves the other settings as they were
    b = Board(sn.new_game("scotch", seed=3), solver_seconds=0.5)
    assert (b.hints, b.solution, b.solver_seconds) == (False, False, 0.5)


def test_the_solver_budget_reaches_the_solver(page_defaults):
    # the board reaches the solver through its verdict cache: imported before the solver package
    # is replaced, as a whole run has it, so the test does not depend on which ran before it
    import solitaire_nb.solver.verdict_cache  # noqa: F401

    seen = {}

    def solve(game, time_limit):
        seen["solve"] = time_limit
        return types.SimpleNamespace(status="unknown", moves=[])

    def hint(game, time_limit):
        seen["hint"] = time_limit
        return types.SimpleNamespace(move=None, proven=False, status="unknown")

    module = types.ModuleType("solitaire_nb.solver")
    module.solve, module.hint = solve, hint
    b = sn.play("citadel", seed=1234)
    b.solver_seconds = 3.0
    with mock.patch.dict(sys.modules, {"solitaire_nb.solver": module}):
        send(b, event="button", name="solvable")
        send(b, event="button", name="hint")
    assert seen == {"solve": 3.0, "hint": 0.6}


@pytest.mark.parametrize(
    ("kwargs", "shown"),
    [
        ({"hints": "no"}, "'no'"),
        ({"solution": 0}, "0"),
        ({"solver_seconds": 0}, "0"),
        ({"solver_seconds": -1.5}, "-1.5"),
        ({"solver_seconds": "5"}, "'5'"),
        ({"solver_seconds": True}, "True"),
        ({"solver_seconds": float("nan")}, "nan"),
    ],
)
def test_bad_switches_are_refused_in_spanish(page_defaults, kwargs, shown):
    from solitaire_nb import board as board_module

    saved = dict(board_module._DEFAULTS)
    for make in (sn.set_board_defaults, lambda **kw: Board(sn.new_game("citadel", seed=1), **kw)):
        with pytest.raises(ValueError, match="debe ser") as info:
            make(**kwargs)
        assert shown in str(info.value)
    if "solver_seconds" not in kwargs:
        with pytest.raises(ValueError, match="debe ser"):
            sn.play("citadel", seed=1, **kwargs)
    assert board_module._DEFAULTS == saved  # nothing changed


def test_static_fallback_is_a_picture_and_a_readable_line(board):
    data = board._repr_mimebundle_()[0]
    html = data["text/html"]
    assert "<svg" in html and "object at 0x" not in html and "Board(" not in html
    from solitaire_nb.render import status_text

    assert data["text/plain"] == f"Tablero de {status_text(board.game)}"
    assert data["text/plain"].startswith("Tablero de Citadel · Partida n.º 1234")
    assert 'role="button"' not in html  # nothing to press where no kernel runs


def test_escape_says_what_it_did(board):
    view = send(board, event="escape")
    assert view["message"] == "No había ninguna carta elegida."
    g = board.game
    move = g.legal_moves()[0]
    send(board, event="click", pile=move.src, index=top(board, move.src))
    view = send(board, event="escape")
    assert view["message"] == "Selección anulada." and board.selection is None


def test_board_drawing_is_interactive_with_one_focus_order(board):
    root = ET.fromstring(board.view["svg"])
    buttons = [n for n in root.iter() if n.get("role") == "button"]
    assert buttons and all(n.get("tabindex") == "-1" for n in buttons)  # board.js picks the one Tab stop


def test_switches_set_on_a_shown_board_redraw_it(page_defaults):
    b = sn.play("citadel", seed=1234)
    b.solution = False
    assert b.view["solution"] is False and b.view["hints"] is True
    b.hints = False
    assert b.view["hints"] is False
    with pytest.raises(ValueError, match="debe ser"):
        b.solver_seconds = -2
    with pytest.raises(ValueError, match="debe ser"):
        b.hints = "sí"
    assert b.solver_seconds == 5.0 and b.hints is False
    assert sn.play("scotch", seed=2, solver_seconds=1.5).solver_seconds == 1.5


def test_the_old_solver_time_names_are_refused_not_ignored():
    with pytest.raises(ValueError, match="solve_seconds=2.*solver_seconds"):
        Board(sn.new_game("citadel", seed=1), solve_seconds=2)


def test_clicking_an_empty_pile_names_it_with_its_article():
    """An empty pile clicked first is named as a sentence says it («La Base 1 está vacía»), not
    by its bare label («Base 1 está vacío»)."""
    from solitaire_nb.engine.refusals import empty_pile_text

    assert empty_pile_text("Mazo") == "El mazo está vacío"
    assert empty_pile_text("Base 1") == "La Base 1 está vacía"
    assert empty_pile_text("Reserva") == "La reserva está vacía"
