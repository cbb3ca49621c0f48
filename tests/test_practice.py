"""Practice positions: a few cards set up by hand.  They are won when their cards are home (the
engine, the solver and the board agree), impossible ones are refused in Spanish, and they
survive a JSON round trip."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("anywidget")  # the notebook extra: the board

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import solitaire_nb as sn  # noqa: E402
from solitaire_nb.board import Board  # noqa: E402
from solitaire_nb.core.cards import CARDS
from solitaire_nb.games import GAMES  # noqa: E402
from solitaire_nb.render import status_text  # noqa: E402
from solitaire_nb.solver import hint, solve, verdict_text  # noqa: E402


def home_run(name: str, length: int) -> list[str]:
    """`length` cards that Base 1 takes one after the other, from empty."""
    g = sn.Game.from_position(name, {})
    rule = g.rules.foundations[0]
    follows = rule.accepts_table()
    first = next(c for c in CARDS if c.rank == rule.base_rank and sn.Game.from_position(name, {"T0": [c.code]}).can_move("T0", "F0"))
    chain = [first]
    while len(chain) < length:
        chain.append(next(CARDS[i] for i in follows[chain[-1].id] if CARDS[i] not in chain))
    return [c.code for c in chain]


def practice(name: str, home: int, away: int) -> sn.Game:
    """Base 1 holds the first `home` cards of a run; the next `away` lie on Tablero 1, the one
    needed next on top: a winnable position with most of the deck missing."""
    run = home_run(name, home + away)
    return sn.Game.from_position(name, {"F0": run[:home], "T0": run[home:][::-1]})


def test_partial_positions_are_practice_positions():
    assert sn.Game.from_position("citadel", {"T0": ["KS"]}).is_practice
    assert not sn.new_game("citadel", seed=1).is_practice
    deal = sn.new_game("chequers", seed=2)
    full = sn.Game.from_position("chequers", {p: [c.code for c in cs] for p, cs in deal.piles.items()})
    assert not full.is_practice


@pytest.mark.parametrize("name", list(GAMES))
def test_won_when_its_cards_are_home(name):
    g = practice(name, 2, 3)
    assert g.is_practice and not g.is_won() and g.total_cards == 5
    assert "0 de 5 cartas" not in status_text(g) and "2 de 5 cartas en las bases" in status_text(g)
    assert "Posición de práctica" in status_text(g)
    while not g.is_won():
        g.move(next(m for m in g.legal_moves() if m.dst == "F0"))
    assert g.is_won() and status_text(g).endswith("¡Ganada!")
    assert sn.Game.from_position(name, {"F0": home_run(name, 3)}).is_won()


@pytest.mark.parametrize("name", list(GAMES))
def test_solver_and_hint_win_practice_positions(name):
    g = practice(name, 1, 4)
    result = solve(g, max_states=20_000)
    assert result.status == "won" and result.moves
    replay = g.copy()
    for m in result.moves:
        replay.move(m)
    assert replay.is_won()
    assert "no tiene solución" not in verdict_text(result, g).lower()
    h = hint(g, time_limit=5)
    assert h.proven and h.status == "won" and g.can_move(h.move)


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), home=st.integers(0, 8), away=st.integers(1, 5))
def test_no_practice_position_is_lost_for_its_missing_cards(name, home, away):
    g = practice(name, home, away)
    assert solve(g, max_states=20_000).status == "won"


@pytest.mark.parametrize("name", list(GAMES))
def test_board_buttons_on_a_practice_position(name):
    b = Board(practice(name, 1, 3), solver_seconds=10)  # «Pista» thinks 2 s
    b.press("solvable")
    assert "tiene solución" in b.view["message"].lower() and "no tiene" not in b.view["message"]
    b.press("hint")
    assert b.view["message"].startswith("Pista:") and "sigue teniendo solución" in b.view["message"]
    b.press("solution")
    assert b.view["kind"] == "ok" and "Solución de" in b.view["message"]
    while b.view["replay_left"]:
        b.press("next")
    assert b.game.is_won() and "¡Ganada!" in b.view["message"]
    b.press("solvable")
    assert "¡Ganada!" in b.view["message"]
    b.press("hint")
    assert "ganada" in b.view["message"].lower() and "pista" not in b.view["message"].lower()


def test_a_genuinely_stuck_practice_position_may_be_lost():
    # Baker's Dozen: the 2 of spades covers its Ace, and no 3 of another suit or hole takes it.
    g = sn.Game.from_position("bakers_dozen", {"T0": ["AS", "2S"]})
    assert g.is_practice and not g.legal_moves()
    result = solve(g, max_states=1000)
    assert result.status == "lost"
    assert "con las cartas que tiene" in verdict_text(result, g)
    b = Board(g, solver_seconds=5)
    b.press("solvable")
    assert "no tiene solución con las cartas que tiene" in b.view["message"].lower()


@pytest.mark.parametrize(
    "name, piles, face_down, needle",
    [
        ("citadel", {"T0": ["2S"], "T1": ["2S"]}, None, "2S aparece más de una vez"),
        ("chequers", {"T0": ["2S", "2S"], "T1": ["2S"]}, None, "2S aparece más de 2 veces"),
        ("citadel", {"T99": ["2S"]}, None, "T99"),
        ("citadel", {"X": ["2S"]}, None, "no tiene la pila"),
        ("citadel", {"T0": ["2S"]}, {"T0": 2}, "boca abajo"),
        ("moving_left", {"T0": ["2S"]}, {"T0": -1}, "boca abajo"),
        ("citadel", {"F0": ["2S"]}, None, "Base 1 no es una secuencia válida"),
        ("citadel", {"F0": ["AS", "3S"]}, None, "Base 1 no es una secuencia válida"),
        ("scotch", {"F0": ["AS", "2S"]}, None, "Base 1 no es una secuencia válida"),
        ("citadel", {"T0": ["ZZ"]}, None, "ZZ"),
        ("citadel", {"T0": "2S"}, None, "lista de cartas"),
    ],
)
def test_impossible_positions_are_refused_in_spanish(name, piles, face_down, needle):
    with pytest.raises(ValueError, match=needle):
        sn.Game.from_position(name, piles, face_down)


def test_refused_position_leaves_the_board_as_it_was():
    b = Board(sn.new_game("citadel", seed=3))
    before = b.game.position()
    doc = json.loads(sn.Game.from_position("citadel", {"T0": ["2S"]}).to_json())
    doc["start"]["piles"]["T1"] = ["2S"]
    doc["position"]["piles"]["T1"] = ["2S"]
    b.press("load", text=json.dumps(doc))
    assert b.view["kind"] == "error" and "más de una vez" in b.view["message"]
    assert b.game.position() == before and b.game.seed == 3


def test_validate_false_no_longer_skips_checks():
    with pytest.raises(ValueError, match="más de una vez"):
        sn.Game.from_position("citadel", {"T0": ["2S"], "T1": ["2S"]}, validate=False)
    assert sn.Game.from_position("citadel", {"T0": ["2S"]}, validate=False).is_practice


def test_json_round_trip():
    g = practice("chequers", 2, 3)
    g.move(next(m for m in g.legal_moves() if m.dst == "F0"))
    again = sn.load_game(g.to_json())
    assert again.is_practice and again.position() == g.position() and again.history == g.history
    assert "validate" not in json.loads(g.to_json())["start"]


def test_documents_never_bypass_the_checks():
    doc = json.loads(sn.Game.from_position("citadel", {"T0": ["2S"]}).to_json())
    doc["start"]["validate"] = False  # older documents carry it: it is ignored
    assert sn.load_game(json.dumps(doc)).is_practice
    doc["start"]["piles"]["T1"] = ["2S"]
    doc["position"]["piles"]["T1"] = ["2S"]
    with pytest.raises(ValueError, match="más de una vez"):
        sn.load_game(json.dumps(doc))


def test_a_lost_practice_position_names_the_cards_that_can_never_go_home():
    g = sn.Game.from_position("citadel", {"T0": ["7H"], "T1": ["AS"]})  # the hearts below 7 are missing
    result = solve(g, max_states=1000)
    assert result.status == "lost"
    text = verdict_text(result, g)
    assert "con las cartas que tiene" in text and "7 de corazones" in text and "As de picas" not in text
