"""The streamliners (`_Spec.streamlined`, `portfolio.STREAMLINERS`): where take-backs are allowed
on the generic state, two restricted games (take-backs forbidden; every card that can go home,
or only the Aces, the twos and the cards whose twin is home, sent home at once) are searched
first.  Their wins are wins of the game; their "lost" proves nothing."""

from __future__ import annotations

import pytest

import solitaire_nb as sn
from solitaire_nb.solver import solve
from solitaire_nb.solver.portfolio import _search
from solitaire_nb.solver.state import _Spec, _State

# Scotch: the two red-Ace chains home, F0 (black Aces) up to 7♠, F3 up to 5♣
_HOME = {
    "F0": ["AS", "2H", "3S", "4H", "5S", "6H", "7S"],
    "F1": ["AH", "2S", "3H", "4S", "5H", "6S", "7H", "8S", "9H", "TS", "JH", "QS", "KH"],
    "F2": ["AD", "2C", "3D", "4C", "5D", "6C", "7D", "8C", "9D", "TC", "JD", "QC", "KD"],
    "F3": ["AC", "2D", "3C", "4D", "5C"],
}
# 7♣ covers 6♦, which F3 needs next; its only free parent is 8♥ (8♦ lies under K♣).  Sending
# 8♥ home at once (to F0, the only foundation taking it) leaves 7♣ stuck: the streamliner's
# game is lost.  Keeping 8♥ out wins: 7♣ on 8♥, then 6♦, 7♣, 8♥, 9♣, 10♦, J♣, Q♦ and K♣ to F3,
# which frees 8♦ for F0, then 9♠, 10♥, J♠, Q♥ and K♠.
TRAP = {
    **_HOME,
    "T0": ["8H"], "T1": ["6D", "7C"], "T2": ["8D", "KC"], "T3": ["9S"], "T4": ["TH"], "T5": ["JS"],
    "T6": ["QH"], "T7": ["KS"], "T8": ["9C"], "T9": ["TD"], "T10": ["JC"], "T11": ["QD"],
}  # fmt: skip


def test_streamliner_selected_by_rules_data():
    """On the generic state where take-backs are allowed (Scotch), not elsewhere."""
    assert _Spec(sn.new_game("scotch", seed=1)).streamline
    assert not _Spec(sn.new_game("scotch+takeback=false", seed=1)).streamline
    assert not _Spec(sn.new_game("beleaguered_castle", seed=1, takeback=True)).streamline
    assert not _Spec(sn.new_game("moving_left", seed=1)).streamline
    restricted = _Spec(sn.new_game("scotch", seed=1)).streamlined()
    assert restricted.auto_home == "all" and not restricted.takeback
    assert _Spec(sn.new_game("scotch", seed=1)).streamlined("twin").auto_home == "twin"


def test_streamliner_sends_every_card_home_that_can_go():
    g = sn.Game.from_position("scotch", TRAP)
    st = _State(_Spec(g).streamlined(), g)
    si, di, n = st.safe_move()
    assert (g.pile_ids[si], g.pile_ids[di], n) == ("T0", "F0", 1)
    assert _State(_Spec(g), g).safe_move() is None  # the full game forces nothing
    # the other streamliner waits: 8♥'s twin 8♦ is not home
    assert _State(_Spec(g).streamlined("twin"), g).safe_move() is None


def test_twin_streamliner_sends_aces_twos_and_cards_whose_twin_is_home():
    piles = {**_HOME, **{k: v for k, v in TRAP.items() if k[0] == "T"}}
    piles["T1"] = ["7C", "6D"]  # 6♦ on top now: F3 takes it, and its twin 6♥ is home
    g = sn.Game.from_position("scotch", piles)
    si, di, n = _State(_Spec(g).streamlined("twin"), g).safe_move()
    assert (g.pile_ids[si], g.pile_ids[di], n) == ("T1", "F3", 1)


@pytest.mark.parametrize("max_states", [None, 50])
def test_streamliner_lost_proves_nothing(max_states):
    """The trap is lost in the first streamliner's game and won in the game (and in the second
    streamliner's): `solve` goes on after the first and finds the win, whose line replays
    through the engine."""
    g = sn.Game.from_position("scotch", TRAP)
    status, _, _ = _search(g, _Spec(g).streamlined(), None, -1, 10**6)
    assert status == "lost"
    assert _search(g, _Spec(g).streamlined("twin"), None, -1, 10**6)[0] == "won"
    result = solve(g, max_states=max_states)
    assert result.status == "won"
    h = g.copy()
    for m in result.moves:
        h.move(m)
    assert h.is_won()


def test_streamliner_wins_are_wins():
    """Deal 191 of Scotch, undecided at 20,000 states before the streamliner, is won in its
    game within a few dozen states; the line replays through the engine."""
    g = sn.new_game("scotch", seed=191)
    result = solve(g, max_states=20_000)
    assert result.status == "won" and result.states < 100
    h = g.copy()
    for m in result.moves:
        h.move(m)
    assert h.is_won()
