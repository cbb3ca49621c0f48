"""The rules common to every game (GEN-1 … GEN-4)."""

from __future__ import annotations

import pytest
from conftest import codes, pos

import solitaire_nb as sn


@pytest.mark.rule("GEN-1")
@pytest.mark.parametrize(
    "name, piles, src, good, bad",
    [
        ("citadel", {"F0": "AS 2S 3S", "T0": "4D", "T1": ""}, "F0", ["T0", "T1"], ["F1"]),
        ("chequers", {"F0": "AS 2S", "T0": "3S", "T1": "3H", "R": ""}, "F0", ["T0"], ["T1", "F1", "R"]),
        ("moving_left", {"F0": "AS 2S", "T0": "3D", "T1": ""}, "F0", ["T0"], ["T1", "W", "S", "F1"]),
        ("scotch", {"F0": "AS 2H", "T0": "3C", "T1": ""}, "F0", ["T0"], ["T1", "F1"]),
    ],
)
def test_gen_1_takeback_only_into_play_never_foundation_to_foundation(name, piles, src, good, bad):
    g = pos(name, piles)
    for dst in good:
        assert g.can_move(src, dst), dst
    for dst in bad:
        assert not g.can_move(src, dst), dst


@pytest.mark.rule("GEN-1")
def test_gen_1_bakers_dozen_has_no_takeback():
    assert not pos("bakers_dozen", {"F0": "AS 2S", "T0": "3H"}).can_move("F0", "T0")


@pytest.mark.rule("GEN-2")
def test_gen_2_one_undo_takes_back_the_automatic_actions():
    g = pos("chequers", {"T0": "AS", "R": "3D 9C"}, {"R": 1})
    before = g.position()
    g.move("T0", "F0")
    assert codes(g.piles["T0"]) == ["9C"] and g.face_down("R") == 0
    assert g.moves_played == 1
    assert g.undo()
    assert g.position() == before and g.moves_played == 0
    assert g.redo()
    assert codes(g.piles["T0"]) == ["9C"]
    g2 = pos("citadel", {"F0": "AS", "T0": "2S 3S 9D", "T1": "TC"})
    g2.move("T0", "T1")
    assert codes(g2.piles["F0"]) == ["AS"]  # 3S is not playable: F0 needs the 2S first
    g3 = pos("citadel", {"F0": "AS", "T0": "3S 2S 9D", "T1": "TC"})
    before = g3.position()
    g3.move("T0", "T1")
    assert codes(g3.piles["F0"]) == ["AS", "2S", "3S"]
    g3.undo()
    assert g3.position() == before


@pytest.mark.rule("GEN-3")
def test_gen_3_won_when_every_card_is_on_the_foundations():
    suits = "SHDC"
    piles = {f"F{i}": " ".join(f"{r}{s}" for r in "A23456789TJQK") for i, s in enumerate(suits)}
    piles["F3"] = " ".join(f"{r}C" for r in "A23456789TJQ")
    piles["T5"] = "KC"
    g = sn.Game.from_position("bakers_dozen", {k: v.split() for k, v in piles.items()})
    assert not g.is_won() and not g.is_stuck()
    g.move("T5", "F3")
    assert g.is_won() and not g.is_stuck()


@pytest.mark.rule("GEN-4")
def test_gen_4_a_foundation_holds_at_most_13_cards():
    full = " ".join(f"{r}S" for r in "A23456789TJQK")
    alternating = " ".join(f"{r}{'S' if k % 2 == 0 else 'H'}" for k, r in enumerate("A23456789TJQK"))
    g = pos("scotch", {"F0": alternating, "T0": "AD"})  # Scotch builds its bases in alternating colours
    assert not g.can_move("T0", "F0")
    assert "13 cartas" in g.why_not("T0", "F0")
    g2 = pos("moving_left", {"F0": full, "T0": "AS"})
    assert not g2.can_move("T0", "F0") and g2.can_move("T0", "F1")
