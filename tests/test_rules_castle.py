"""Citadel and Beleaguered Castle, rule by rule (docs/reglas.md CB-1 … CB-8)."""

from __future__ import annotations

import pytest
from conftest import codes, pos

import solitaire_nb as sn
from solitaire_nb.core.cards import CARDS

ACES_FIRST = ["AS", "AH", "AD", "AC"]


def deck_with_front(front: list[str]) -> list[str]:
    """A full deck order that starts with `front` and continues in new-deck order."""
    rest = [c.code for c in CARDS if c.code not in front]
    return front + rest


def deck_with_slots(slots: dict[int, str]) -> list[str]:
    """Aces first, then 48 non-Aces where index i (meant for T(i mod 8)) holds slots[i] and
    the other places get the remaining cards from the Kings down, so low cards come late."""
    filler = [c.code for c in sorted(CARDS, key=lambda c: (-c.rank, c.id)) if c.rank != 1 and c.code not in slots.values()]
    non_aces = [slots[i] if i in slots else filler.pop(0) for i in range(48)]
    return ACES_FIRST + non_aces


@pytest.mark.rule("CB-1")
def test_cb_1_aces_on_foundations_and_48_cards_row_by_row():
    order = deck_with_front(["KS", "AH", "QH", "2C"])
    g = sn.new_game("beleaguered_castle", deck=order)
    assert [codes(g.piles[f"F{i}"]) for i in range(4)] == [["AS"], ["AH"], ["AD"], ["AC"]]
    non_aces = [c for c in order if c[0] != "A"]
    for i in range(8):
        assert codes(g.piles[f"T{i}"]) == non_aces[i::8]
    assert all(len(g.piles[f"T{i}"]) == 6 for i in range(8))


@pytest.mark.rule("CB-1")
def test_cb_1_same_seed_same_deck_for_both_games():
    a = sn.new_game("citadel", seed=77)
    b = sn.new_game("beleaguered_castle", seed=77)
    assert a.deal == b.deal
    assert sn.new_game("scotch", seed=77).deal == a.deal


@pytest.mark.rule("CB-2")
def test_cb_2_known_cards_go_home_during_the_deal_and_piles_come_out_shorter():
    # Non-Aces in order: 2S (meant for T0) goes home; 3S (T1) goes home; 5S (T2) stays; 4S (T3)
    # goes home; 2H (T4) home; then the rest.  The card dealt to a pile is never looked at again:
    # 5S stays on T2 although the 4S reaches the foundation later.
    front = ["2S", "3S", "5S", "4S", "2H"]
    g = sn.new_game("citadel", deck=deck_with_front(front), autoplay=False)
    assert codes(g.piles["F0"]) == ["AS", "2S", "3S", "4S"]
    assert codes(g.piles["F1"])[:2] == ["AH", "2H"]
    assert codes(g.deal_report.to_foundations)[:4] == ["2S", "3S", "4S", "2H"]
    assert g.deal_report.meant_for[:4] == ("T0", "T1", "T3", "T4")
    assert g.piles["T2"][0].code == "5S"
    total = sum(len(g.piles[f"T{i}"]) for i in range(8))
    assert total == 48 - len(g.deal_report.to_foundations)
    assert len(g.piles["T0"]) < 6 and len(g.piles["T1"]) < 6
    # No replacement: T0 simply got no card in the round its card went home.
    b = sn.new_game("beleaguered_castle", deck=deck_with_front(front))
    assert codes(g.piles["T0"]) == [c for c in codes(b.piles["T0"]) if c not in codes(g.deal_report.to_foundations)]


@pytest.mark.rule("CB-2")
def test_cb_2_flag_on_beleaguered_castle_gives_citadels_deal():
    a = sn.new_game("citadel", seed=5, autoplay=False)
    b = sn.new_game("beleaguered_castle", seed=5, deal_to_foundations=True)
    assert a.piles == b.piles


@pytest.mark.rule("CB-3")
def test_cb_3_foundations_build_up_by_suit():
    g = pos("beleaguered_castle", {"F0": "AS 2S", "F1": "AH", "T0": "3S", "T1": "3H", "T2": "2H"})
    assert g.can_move("T0", "F0")
    assert not g.can_move("T1", "F0")
    assert "3 de corazones" in g.why_not("T1", "F0")
    assert g.can_move("T2", "F1")
    assert not g.can_move("T0", "F1")


@pytest.mark.rule("CB-4")
def test_cb_4_tableau_builds_down_regardless_of_suit_one_card_at_a_time():
    g = pos("citadel", {"T0": "8S", "T1": "7H", "T2": "7S", "T3": "6D", "T4": "9C 8C", "F0": "AS"})
    assert g.can_move("T1", "T0") and g.can_move("T2", "T0")
    assert not g.can_move("T3", "T0")
    assert not g.can_move("T0", "T1")  # up is not allowed
    reason = g.why_not("T3", "T0")
    assert "6 de diamantes" in reason and "8 de picas" in reason and "un 7 de cualquier palo" in reason
    assert not g.can_move("T4", "T1", 2)
    assert "una carta cada vez" in g.why_not("T4", "T1", 2)


@pytest.mark.rule("CB-5")
def test_cb_5_any_card_fills_an_empty_pile():
    g = pos("beleaguered_castle", {"T0": "QD", "T1": "", "F0": "AS 2S 3S"})
    assert g.can_move("T0", "T1")
    assert g.can_move("F0", "T1")  # a take-back may fill it too
    g.move("T0", "T1")
    assert codes(g.piles["T1"]) == ["QD"]


@pytest.mark.rule("CB-6")
def test_cb_6_takeback_onto_a_pile_that_accepts_it_and_flag_forbids_it():
    piles = {"F0": "AS 2S 3S", "T0": "4H", "T1": "5C", "F1": "AH"}
    g = pos("citadel", piles)
    assert g.can_move("F0", "T0")
    assert not g.can_move("F0", "T1")
    assert not g.can_move("F0", "F1")
    g2 = pos("citadel", piles, takeback=False)
    assert not g2.can_move("F0", "T0")
    # The game itself allows it: the sentence blames the variant, not Citadel (issue 44).
    assert g2.why_not("F0", "T0") == "En esta variante (sin devolver cartas), una carta de la base no vuelve al juego."
    assert all(m.src[0] != "F" for m in g2.legal_moves())


@pytest.mark.rule("CB-6")
def test_cb_6_an_ace_taken_back_leaves_its_foundation_for_its_own_suit():
    g = pos("beleaguered_castle", {"F0": "AS", "F1": "AH", "T0": "2D", "T1": "AC"})
    g.move("F0", "T0")
    assert g.piles["F0"] == ()
    assert not g.can_move("T1", "F0")  # F0 stays the spades foundation
    assert g.can_move("T0", "F0")


@pytest.mark.rule("CB-7")
def test_cb_7_autoplay_right_after_the_deal():
    # The 3S is the last card meant for T1 (index 41) and lands there: the 2S comes later
    # (index 47), goes home during the deal, and the autoplay after the deal sends the exposed
    # 3S home.
    order = deck_with_slots({41: "3S", 47: "2S"})
    g = sn.new_game("citadel", deck=order)
    assert "2S" in codes(g.deal_report.to_foundations)
    assert "3S" in codes(g.deal_report.autoplay)
    assert g.deal_report.autoplay_from[codes(g.deal_report.autoplay).index("3S")] == "T1"
    assert codes(g.piles["F0"])[:3] == ["AS", "2S", "3S"]
    no_auto = sn.new_game("citadel", deck=order, autoplay=False)
    assert no_auto.deal_report.autoplay == ()
    assert codes(no_auto.piles["T1"])[-1] == "3S"


@pytest.mark.rule("CB-7")
def test_cb_7_autoplay_after_a_move_sends_exposed_cards_home_in_one_undoable_move():
    g = pos("citadel", {"F0": "AS", "F1": "AH", "T0": "2S 9D", "T1": "TC", "T2": "2H 3H"})
    step = g.move("T0", "T1")
    assert codes(g.piles["F0"]) == ["AS", "2S"]
    assert [(a.src, a.dst) for a in step.automatic] == [("T0", "F0")]
    # 3H was acceptable? no: F1 needs 2H, which lies under the 3H, so both stay.
    assert codes(g.piles["T2"]) == ["2H", "3H"]
    g.undo()
    assert codes(g.piles["T0"]) == ["2S", "9D"] and codes(g.piles["F0"]) == ["AS"]


@pytest.mark.rule("CB-7")
def test_cb_7_card_taken_back_stays_where_the_player_put_it():
    g = pos("citadel", {"F0": "AS 2S 3S", "T0": "4H"})
    g.move("F0", "T0")
    assert codes(g.piles["T0"]) == ["4H", "3S"]
    assert codes(g.piles["F0"]) == ["AS", "2S"]


@pytest.mark.rule("CB-7")
def test_cb_7_cards_already_playable_before_the_move_are_left_alone():
    # 2H is a playable top before the move; the player moves something else; 2H stays.
    g = pos("citadel", {"F0": "AS", "F1": "AH", "T0": "2H", "T1": "9C", "T2": "TD"})
    g.move("T1", "T2")
    assert codes(g.piles["T0"]) == ["2H"]
    # But a card that becomes playable through the move goes home.
    g2 = pos("citadel", {"F0": "AS", "F1": "AH", "T0": "2H", "T1": "2S 9C", "T2": "TD"})
    g2.move("T1", "T2")
    assert g2.piles["T1"] == () and codes(g2.piles["F0"]) == ["AS", "2S"]
    assert codes(g2.piles["T0"]) == ["2H"]


@pytest.mark.rule("CB-8")
def test_cb_8_beleaguered_castle_has_no_deal_plays_and_no_autoplay():
    for seed in range(20):
        g = sn.new_game("beleaguered_castle", seed=seed)
        assert g.deal_report.to_foundations == () and g.deal_report.autoplay == ()
        assert all(len(g.piles[f"T{i}"]) == 6 for i in range(8))
    g = pos("beleaguered_castle", {"F0": "AS", "T0": "2S 9D", "T1": "TC"})
    g.move("T0", "T1")
    assert codes(g.piles["T0"]) == ["2S"]
