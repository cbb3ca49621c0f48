"""Scotch (SC-1 … SC-5) and Baker's Dozen (BD-1 … BD-6), rule by rule."""

from __future__ import annotations

import pytest
from conftest import codes, pos

import solitaire_nb as sn


@pytest.mark.rule("SC-1")
def test_sc_1_seventeen_fans_of_three_and_one_of_one():
    g = sn.new_game("scotch", seed=8)
    order = [c.code for c in g.deal]
    for i in range(17):
        assert codes(g.piles[f"T{i}"]) == [order[i], order[i + 17], order[i + 34]]
    assert codes(g.piles["T17"]) == [order[51]]
    assert all(g.face_down(p) == 0 for p in g.pile_ids)


@pytest.mark.rule("SC-2")
def test_sc_2_foundations_from_any_ace_up_in_alternating_colours():
    g = pos("scotch", {"T0": "AC", "F1": "AS 2H", "T1": "3C", "T2": "3S", "T3": "3D", "T4": "8S"})
    assert all(g.can_move("T0", f) for f in ("F0", "F2", "F3"))
    assert g.can_move("T1", "F1") and g.can_move("T2", "F1")
    assert not g.can_move("T3", "F1")
    assert "colores alternos" in g.why_not("T3", "F1")
    assert not g.can_move("T4", "F0")
    assert "As" in g.why_not("T4", "F0")


@pytest.mark.rule("SC-3")
def test_sc_3_fans_take_one_rank_lower_any_suit_one_card():
    g = pos("scotch", {"T0": "8S", "T1": "7S", "T2": "7H", "T3": "6S", "T4": "9D"})
    assert g.can_move("T1", "T0") and g.can_move("T2", "T0")
    assert not g.can_move("T3", "T0") and not g.can_move("T4", "T0")
    assert "un 7 de cualquier palo" in g.why_not("T3", "T0")
    assert "abanicos" in g.why_not("T3", "T0")


@pytest.mark.rule("SC-4")
def test_sc_4_an_empty_fan_refuses_every_card_takebacks_included():
    g = pos("scotch", {"T0": "", "T1": "KH", "T2": "5C", "F0": "AS 2H 3C 4D"})
    assert not g.can_move("T1", "T0") and not g.can_move("T2", "T0")
    assert not g.can_move("F0", "T0")
    assert "abanico vacío" in g.why_not("T1", "T0")
    assert all(m.dst != "T0" for m in g.legal_moves())


@pytest.mark.rule("SC-5")
def test_sc_5_takeback_onto_a_non_empty_fan_that_accepts_it():
    g = pos("scotch", {"F0": "AS 2H 3C", "T0": "4D", "T1": "5D"})
    assert g.can_move("F0", "T0") and not g.can_move("F0", "T1")
    g.move("F0", "T0")
    assert codes(g.piles["T0"]) == ["4D", "3C"]


@pytest.mark.rule("BD-1")
def test_bd_1_four_rounds_over_thirteen_piles_all_face_up():
    g = sn.new_game("bakers_dozen", seed=4, kings_to_bottom=False)
    order = [c.code for c in g.deal]
    for i in range(13):
        assert codes(g.piles[f"T{i}"]) == order[i::13]
    assert all(g.face_down(p) == 0 for p in g.pile_ids)


@pytest.mark.rule("BD-2")
def test_bd_2_kings_go_to_the_bottom_keeping_their_order():
    front = ["2S", "KH", "3S", "KS"]  # T0 gets 2S; T1 gets KH… (row by row: pile i gets i, i+13…)
    rest = [c.code for c in sn.new_game("bakers_dozen", seed=1).deal if c.code not in front]
    order = [""] * 52
    for k, code in zip((0, 13, 26, 39), front, strict=False):
        order[k] = code  # T0 receives 2S, KH, 3S, KS in that order
    it = iter(rest)
    order = [c or next(it) for c in order]
    g = sn.new_game("bakers_dozen", deck=order)
    assert codes(g.piles["T0"]) == ["KH", "KS", "2S", "3S"]
    raw = sn.new_game("bakers_dozen", deck=order, kings_to_bottom=False)
    assert codes(raw.piles["T0"]) == ["2S", "KH", "3S", "KS"]
    for seed in range(30):
        for pid, cards in sn.new_game("bakers_dozen", seed=seed).piles.items():
            ranks = [c.rank for c in cards]
            assert ranks == sorted(ranks, key=lambda r: r != 13), pid


@pytest.mark.rule("BD-3")
def test_bd_3_foundations_up_by_suit_from_an_ace():
    g = pos("bakers_dozen", {"T0": "AD", "T1": "2D", "T2": "2C", "F1": ""})
    assert g.can_move("T0", "F1") and not g.can_move("T1", "F1")
    g.move("T0", "F1")
    assert g.can_move("T1", "F1") and not g.can_move("T2", "F1")


@pytest.mark.rule("BD-4")
def test_bd_4_nine_of_hearts_refused_on_ten_of_hearts_unless_any_suit():
    piles = {"T0": "TH", "T1": "9H", "T2": "TD", "T3": "TC", "T4": "TS", "T5": "8C"}
    g = pos("bakers_dozen", piles)
    assert not g.can_move("T1", "T0")
    reason = g.why_not("T1", "T0")
    assert "9 de corazones" in reason and "10 de corazones" in reason and "otro palo" in reason
    assert g.can_move("T1", "T2") and g.can_move("T1", "T3") and g.can_move("T1", "T4")
    assert not g.can_move("T5", "T0")
    g2 = pos("bakers_dozen", piles, any_suit=True)
    assert g2.can_move("T1", "T0")


@pytest.mark.rule("BD-5")
def test_bd_5_an_emptied_pile_stays_empty_or_takes_only_a_king_in_the_variant():
    g = pos("bakers_dozen", {"T0": "", "T1": "KC", "T2": "5H"})
    assert not g.can_move("T1", "T0") and not g.can_move("T2", "T0")
    assert "vacío para el resto de la partida" in g.why_not("T1", "T0")
    g2 = pos("bakers_dozen", {"T0": "", "T1": "QH KC", "T2": "5H"}, kings_to_bottom=False)
    assert g2.can_move("T1", "T0") and not g2.can_move("T2", "T0")


@pytest.mark.rule("BD-6")
def test_bd_6_no_takebacks():
    g = pos("bakers_dozen", {"F0": "AS 2S 3S", "T0": "4H"})
    assert not g.can_move("F0", "T0")
    assert g.why_not("F0", "T0") == "En Baker's Dozen una carta de la base no vuelve al juego."
    assert g.legal_moves() == []
