"""Chequers, rule by rule (docs/reglas.md CH-1 … CH-8)."""

from __future__ import annotations

import pytest
from conftest import codes, pos

import solitaire_nb as sn


@pytest.mark.rule("CH-1")
def test_ch_1_deal_row_by_row_then_reserve_with_card_104_on_top():
    g = sn.new_game("chequers", seed=3)
    order = [c.code for c in g.deal]
    for i in range(25):
        assert codes(g.piles[f"T{i}"]) == [order[i], order[i + 25], order[i + 50], order[i + 75]]
    assert codes(g.piles["R"]) == order[100:104]
    assert g.face_down("R") == 3
    assert all(g.face_down(f"T{i}") == 0 for i in range(25))


@pytest.mark.rule("CH-2")
def test_ch_2_up_and_down_foundations_one_per_suit_in_each_group():
    g = pos("chequers", {"T0": "AS", "T1": "AS", "T2": "KS", "T3": "KS", "F0": "", "F4": "", "R": ""})
    assert g.can_move("T0", "F0") and g.can_move("T0", "F3")
    assert not g.can_move("T0", "F4")  # an Ace does not start a down-foundation
    assert g.can_move("T2", "F4") and not g.can_move("T2", "F0")
    g.move("T0", "F0")
    assert not g.can_move("T1", "F1")
    assert "ya hay una base de picas" in g.why_not("T1", "F1")
    g.move("T2", "F5")
    assert not g.can_move("T3", "F4")
    g2 = pos("chequers", {"F0": "AS 2S", "F4": "KH QH", "T0": "3S", "T1": "JH", "T2": "4S", "T3": "TH"})
    assert g2.can_move("T0", "F0") and g2.can_move("T1", "F4")
    assert not g2.can_move("T2", "F0") and not g2.can_move("T3", "F4")


@pytest.mark.rule("CH-3")
def test_ch_3_on_the_8_of_spades_only_the_7_and_9_of_spades():
    piles = {"T0": "8S", "T1": "7S", "T2": "9S", "T3": "7H", "T4": "9C", "T5": "6S", "T6": "TS 8S", "R": ""}
    g = pos("chequers", piles)
    assert g.can_move("T1", "T0") and g.can_move("T2", "T0")
    for src in ("T3", "T4", "T5"):
        assert not g.can_move(src, "T0")
    reason = g.why_not("T3", "T0")
    assert "7 de corazones" in reason and "8 de picas" in reason
    assert "el 7 de picas o el 9 de picas" in reason
    assert not g.can_move("T6", "T2", 2)  # one card at a time


@pytest.mark.rule("CH-4")
def test_ch_4_king_on_ace_and_ace_on_king_unless_wrap_is_off():
    piles = {"T0": "AH", "T1": "KH", "T2": "KH", "T3": "AH", "R": ""}
    g = pos("chequers", piles)
    assert g.can_move("T1", "T0") and g.can_move("T3", "T2")
    g2 = pos("chequers", piles, wrap=False)
    assert not g2.can_move("T1", "T0") and not g2.can_move("T3", "T2")


@pytest.mark.rule("CH-5")
def test_ch_5_emptied_pile_refilled_from_reserve_even_by_a_move_to_a_foundation():
    g = pos("chequers", {"T0": "AS", "T1": "5D", "R": "2C 9H 4D"}, {"R": 2})
    step = g.move("T0", "F0")
    assert codes(g.piles["T0"]) == ["4D"]
    assert codes(g.piles["R"]) == ["2C", "9H"] and g.face_down("R") == 1
    assert [(a.src, a.dst) for a in step.automatic] == [("R", "T0"), ("R", None)]
    g.move("T1", "T0")  # 5D on 4D: same suit, one higher; T1 empties and is refilled
    assert codes(g.piles["T1"]) == ["9H"] and codes(g.piles["R"]) == ["2C"]
    g.undo()
    g.undo()
    assert codes(g.piles["T0"]) == ["AS"] and codes(g.piles["R"]) == ["2C", "9H", "4D"]
    assert g.face_down("R") == 2


@pytest.mark.rule("CH-6")
def test_ch_6_with_the_reserve_empty_any_card_fills_a_hole():
    g = pos("chequers", {"T0": "", "T1": "QC 7D", "R": ""})
    assert g.can_move("T1", "T0")
    with_reserve = pos("chequers", {"T0": "", "T1": "QC 7D", "R": "5S"})
    assert not with_reserve.can_move("T1", "T0")
    assert "reserva" in with_reserve.why_not("T1", "T0")
    # Sixth review: the reserve's own top card was told «cada hueco se rellena con su carta de
    # arriba; el 9 de diamantes no puede ocuparlo» while it was that top card.
    from_reserve = pos("chequers", {"T0": "4S", "T6": "", "R": "4H 9D"})
    said = from_reserve.why_not("R", "T6")
    assert said.startswith("Mientras quede reserva, los huecos los rellena la reserva sola: no se ocupan a mano.")
    # Issue 44: a practice position shows many empty piles nobody fills; the sentence says what they are
    assert said.endswith("En esta posición de práctica solo están algunas de las cartas: sus pilas vacías son "
                         "las cartas que faltan, no huecos por rellenar.")


@pytest.mark.rule("CH-7")
def test_ch_7_reserve_top_playable_by_hand_unless_the_variant_forbids():
    g = pos("chequers", {"T0": "6H", "R": "QS 5H"}, {"R": 1})
    assert g.can_move("R", "T0")
    g.move("R", "T0")
    assert codes(g.piles["R"]) == ["QS"] and g.face_down("R") == 0
    g2 = pos("chequers", {"T0": "6H", "R": "QS 5H"}, {"R": 1}, reserve_playable=False)
    assert not g2.can_move("R", "T0")
    assert "reserva" in g2.why_not("R", "T0")
    g3 = pos("chequers", {"T0": "6H", "R": "QS AH"}, {"R": 1})
    assert g3.can_move("R", "F2")


@pytest.mark.rule("CH-8")
def test_ch_8_takeback_onto_a_tableau_pile_of_the_same_suit():
    g = pos("chequers", {"F0": "AC 2C 3C", "F4": "KD", "T0": "4C", "T1": "2C", "T2": "QD", "T3": "AD", "R": ""})
    assert g.can_move("F0", "T0") and g.can_move("F0", "T1")
    assert g.can_move("F4", "T2") and g.can_move("F4", "T3")  # K on A: the wrap
    assert not g.can_move("F0", "F1")
