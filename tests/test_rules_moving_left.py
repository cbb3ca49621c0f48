"""Moving Left, rule by rule (docs/reglas.md ML-1 … ML-9) and the shift_left variant."""

from __future__ import annotations

import pytest
from conftest import codes, pos

import solitaire_nb as sn


@pytest.mark.rule("ML-1")
def test_ml_1_triangular_deal_and_stock():
    g = sn.new_game("moving_left", seed=11)
    order = [c.code for c in g.deal]
    for k in range(10):
        assert len(g.piles[f"T{k}"]) == k + 1 and g.face_down(f"T{k}") == k
    # Round r deals to T r … T9; the first card of round r is T r's top.
    firsts = [0, 10, 19, 27, 34, 40, 45, 49, 52, 54]
    for r, idx in enumerate(firsts):
        assert g.piles[f"T{r}"][-1].code == order[idx]
    assert codes(g.piles["T9"]) == [order[i + 9 - r] for r, i in enumerate(firsts)][::1]
    assert len(g.piles["S"]) == 49 and g.face_down("S") == 49
    assert g.piles["S"][-1].code == order[55]  # card 56 on top
    assert g.piles["W"] == ()


@pytest.mark.rule("ML-2")
def test_ml_2_eight_foundations_up_by_suit_from_any_ace():
    g = pos("moving_left", {"T0": "AS", "T1": "AS", "F0": "AH 2H", "T2": "3H", "T3": "3D"})
    assert all(g.can_move("T0", f"F{i}") for i in range(1, 8))
    g.move("T0", "F1")
    assert g.can_move("T1", "F2")  # the second Ace of spades starts another foundation
    assert g.can_move("T2", "F0") and not g.can_move("T3", "F0")


@pytest.mark.rule("ML-3")
def test_ml_3_build_down_in_alternating_colours():
    g = pos("moving_left", {"T0": "9C", "T1": "8H", "T2": "8D", "T3": "8S", "T4": "7H"})
    assert g.can_move("T1", "T0") and g.can_move("T2", "T0")
    assert not g.can_move("T3", "T0") and not g.can_move("T4", "T0")
    assert "colores alternos" in g.why_not("T3", "T0")


@pytest.mark.rule("ML-4")
def test_ml_4_alternating_runs_move_whole_or_in_part():
    g = pos("moving_left", {"T0": "4S 9C 8H 7S 6D", "T1": "TD", "T2": "9H", "T3": "9S"}, {"T0": 1})
    assert g.can_move("T0", "T1", 4)  # 9C 8H 7S 6D on the 10D
    assert g.can_move("T0", "T3", 3)  # 8H 7S 6D on the 9S: part of the run
    assert not g.can_move("T0", "T2", 3)  # 8H on 9H: same colour
    moves = {str(m) for m in g.legal_moves()}
    assert {"T0>T1x4", "T0>T3x3"} <= moves
    assert not g.can_move("T0", "T1", 5)  # the 4S is face down
    g.move("T0", "T1", 4)
    assert codes(g.piles["T1"]) == ["TD", "9C", "8H", "7S", "6D"]
    assert g.face_down("T0") == 0  # ML-6 turned the 4S up


@pytest.mark.rule("ML-4")
def test_ml_4_a_broken_run_does_not_move_as_a_unit():
    g = pos("moving_left", {"T0": "9C 8H 7H", "T1": "TD"})
    assert not g.can_move("T0", "T1", 3)
    assert "secuencia" in g.why_not("T0", "T1", 3)


@pytest.mark.rule("ML-5")
def test_ml_5_only_a_king_or_king_headed_run_fills_a_hole_and_nothing_moves_by_itself():
    g = pos("moving_left", {"T0": "", "T1": "KH QS JD", "T2": "QH", "T3": "5C"})
    assert g.can_move("T1", "T0", 3) and not g.can_move("T1", "T0", 2)
    assert not g.can_move("T2", "T0")
    assert "Rey" in g.why_not("T2", "T0")
    assert not g.can_move("T3", "T0")
    g2 = pos("moving_left", {"T0": "5C", "T1": "6D", "T2": "QH"})
    g2.move("T0", "T1")
    assert g2.piles["T0"] == ()  # stays empty
    assert codes(g2.piles["T2"]) == ["QH"]


@pytest.mark.rule("ML-6")
def test_ml_6_face_down_card_left_on_top_turns_up_as_part_of_the_move():
    g = pos("moving_left", {"T0": "3D 7S 5C", "T1": "6H"}, {"T0": 2})
    step = g.move("T0", "T1")
    assert g.face_down("T0") == 1
    assert step.automatic == (sn.Action("T0", None, (sn.Card.parse("7S"),)),)
    g.undo()
    assert g.face_down("T0") == 2


@pytest.mark.rule("ML-7")
def test_ml_7_stock_turns_one_card_to_the_waste_one_pass_only():
    g = pos("moving_left", {"S": "9D 4C", "T0": "KS"})
    assert g.face_down("S") == 2
    assert "S>W" in [str(m) for m in g.legal_moves()]
    g.move("S>W")
    assert codes(g.piles["W"]) == ["4C"] and g.face_down("W") == 0
    g.move("S>W")
    assert g.piles["S"] == ()
    assert not g.can_move("S", "W")
    assert "una pasada" in g.why_not("S", "W")
    assert not g.can_move("W", "S")
    assert not g.can_move("S", "T0")


@pytest.mark.rule("ML-8")
def test_ml_8_waste_top_to_a_foundation_or_the_tableau():
    g = pos("moving_left", {"W": "7H AD", "T0": "8S"})
    assert g.can_move("W", "F0")
    g.move("W", "F3")
    assert g.can_move("W", "T0")


@pytest.mark.rule("ML-9")
def test_ml_9_takeback_onto_a_pile_that_accepts_it_a_king_into_a_hole():
    g = pos("moving_left", {"F0": "AS 2S 3S", "T0": "4H", "T1": "4S", "T2": ""})
    assert g.can_move("F0", "T0") and not g.can_move("F0", "T1") and not g.can_move("F0", "T2")
    full = " ".join(f"{r}C" for r in "A23456789TJQK")
    g2 = pos("moving_left", {"F0": full, "T0": ""})
    assert g2.can_move("F0", "T0")


def test_ml_shift_left_variant_fills_holes_from_the_right():
    piles = {"T0": "5C", "T1": "9D 8S", "T2": "4H KC QH", "T3": "6D"}
    fd = {"T2": 1}
    g = pos("moving_left", piles, fd, shift_left=True)
    g.move("T0", "T3")
    assert codes(g.piles["T0"]) == ["9D", "8S"]
    assert codes(g.piles["T1"]) == ["KC", "QH"]
    assert codes(g.piles["T2"]) == ["4H"] and g.face_down("T2") == 0
    g.undo()
    assert g.position() == pos("moving_left", piles, fd, shift_left=True).position()
    plain = pos("moving_left", piles, fd)
    plain.move("T0", "T3")
    assert plain.piles["T0"] == ()


def test_refusal_names_the_cards_a_pile_takes_with_their_gender():
    """«un 8 rojo» but «una J roja»: a letter card is feminine in Spanish (la J, la K)."""
    g = sn.Game.from_position("moving_left", {"T0": ["9C"], "T1": ["8S"], "T2": ["QC"], "T3": ["TC"]})
    assert g.why_not("T1", "T0").endswith("solo puede ir un 8 rojo.")
    assert g.why_not("T3", "T2").endswith("solo puede ir una J roja.")


def test_refusals_name_a_pile_with_its_article():
    # Issue 44: «Solo 5 cartas de Tablero 3…», «Tablero 1 solo tiene 4 cartas.»
    g = sn.new_game("moving_left", seed=1234)
    assert g.why_not("T3", "T1", 2) == "Solo una carta del Tablero 4 está boca arriba."
    assert g.why_not("T1", "T2", 4) == "El Tablero 2 solo tiene 2 cartas."
    mixed = pos("moving_left", {"T0": "5S 9H", "T1": "TC"})
    assert mixed.why_not("T0", "T1", 2).startswith("Las 2 cartas de arriba del Tablero 1 no forman")
    assert g.why_not("F0", "T2") == "La Base 1 está vacía: no hay ninguna carta que mover."
    down = pos("moving_left", {"T0": "5S", "T1": "6H"}, face_down={"T0": 1})
    assert down.why_not("T0", "T1") == "La carta de arriba del Tablero 1 está boca abajo."
