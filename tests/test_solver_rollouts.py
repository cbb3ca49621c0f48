"""The solver's rollouts (issue 25): the no-peek player, its preferences varied, plays the
position out first where the tableau hides cards.  They only ever win, with a line the
engine replays; the first one is the plain player; the budget stays a hard cap."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_nb as sn
from solitaire_nb.players import player as pl
from solitaire_nb.solver import rollouts as ro
from solitaire_nb.solver.state import _Spec


def replays_to_a_win(game, moves) -> bool:
    g = game.copy()
    for m in moves:
        g.move(m)
    return g.is_won()


def test_selected_where_the_tableau_hides_cards():
    assert _Spec(sn.new_game("moving_left", seed=1)).rollouts
    assert _Spec(sn.new_game("moving_left", seed=1, shift_left=True)).rollouts
    for name in ("chequers", "scotch", "bakers_dozen", "citadel", "beleaguered_castle"):
        assert not _Spec(sn.new_game(name, seed=1)).rollouts, name


@pytest.mark.parametrize("deal", [29, 30])
def test_a_deal_the_plain_player_wins_is_won_with_its_line(deal):
    """Rollout 0 is `players.Heuristic` itself: the solver wins what that player wins, with
    the very same moves, counting one state per move."""
    game = sn.new_game("moving_left", seed=deal)
    player = pl.Heuristic()
    player.reset(game)
    g = game.copy()
    line = []
    while not g.is_won():
        move = player.choose(g)
        assert move is not None
        g.move(move)
        line.append(move)
    r = sn.solve(game, max_states=10_000)
    assert r.status == "won" and r.moves == line and r.states == len(line)


def test_varied_rollouts_win_deals_the_plain_player_loses():
    """Deals 2 and 8: the plain player gives up, a varied rollout wins; the line replays,
    the caller's game is untouched, and the answer is the same every time."""
    for deal in (2, 8):
        game = sn.new_game("moving_left", seed=deal)
        assert not pl.play_out(game, pl.Heuristic())
        status, moves, states = ro.rollouts(game, None, 5_000)
        assert status == "won" and len(moves) < states <= 5_000
        assert replays_to_a_win(game, moves)
        assert game.moves_played == 0
        assert ro.rollouts(game, None, 5_000) == (status, moves, states)


@pytest.mark.parametrize(("deal", "cap"), [(10, 6_000), (33, 15_000)])
def test_restarts_from_the_best_line_win_where_fresh_rollouts_do_not(deal, cap, monkeypatch):
    """The win comes after the fresh stage (a restart: part of the best line replayed, then a
    rollout), replays from the start, and the same budget spent on fresh rollouts only does
    not win."""
    game = sn.new_game("moving_left", seed=deal)
    status, moves, states = ro.rollouts(game, None, cap)
    assert status == "won" and cap // ro.FRESH_SHARE < states <= cap
    assert replays_to_a_win(game, moves)
    monkeypatch.setattr(ro, "FRESH_SHARE", 1)
    assert ro.rollouts(game, None, cap) == ("unknown", [], cap)


def test_rollouts_never_say_lost():
    """A lost practice position (no 2♥ can ever be reached without both A♥): the rollouts
    answer "unknown" and the complete search that follows proves it lost."""
    game = sn.Game.from_position(
        "moving_left",
        {"T0": ["2H", "3S"], "T1": ["2C"], "S": ["AS", "AC", "AD", "2D", "2S", "3H"]},
        {"S": 6},
    )
    assert ro.rollouts(game, None, 2_000)[0] == "unknown"
    assert sn.solve(game, max_states=50_000).status == "lost"


@settings(max_examples=15, deadline=None)
@given(cap=st.integers(0, 1_500), deal=st.integers(1, 60))
def test_the_state_budget_is_a_hard_cap(cap, deal):
    game = sn.new_game("moving_left", seed=deal)
    status, moves, states = ro.rollouts(game, None, cap)
    assert states <= cap
    assert status in ("won", "unknown")
    assert sn.solve(game, max_states=cap).states <= cap


def test_varied_with_no_noise_is_the_plain_player():
    game = sn.new_game("moving_left", seed=31)
    a, b = pl.Heuristic(), pl.Varied(seed=7, sigma=0.0)
    assert pl.play_game(game, a) == pl.play_game(game, b)
    c = pl.Varied(seed=7, sigma=100.0)
    d = pl.Varied(seed=7, sigma=100.0)
    assert pl.play_game(game, c) == pl.play_game(game, d)  # seeded: the same game twice


def test_the_copyable_generator_draws_the_deals_sequence():
    from solitaire_nb.core.shuffle import SplitMix64, splitmix64

    a, b = SplitMix64(2**64 - 3), splitmix64(2**64 - 3)
    assert [next(a) for _ in range(500)] == [next(b) for _ in range(500)]


def test_solve_keeps_every_win_of_rollouts_with_half_the_budget():
    """`solve` gives the rollouts 3/4 of its budget but starts the restarts where half of it
    would (a sixth of the budget): a deal the rollouts win with half the budget is won by
    `solve` with the same line and states (deal 10 is won by a restart)."""
    game = sn.new_game("moving_left", seed=10)
    cap = 6_000
    status, moves, states = ro.rollouts(game, None, cap)
    assert status == "won" and states > cap // ro.FRESH_SHARE
    r = sn.solve(game, max_states=2 * cap)
    assert (r.status, r.moves, r.states) == (status, moves, states)
    assert ro.budget(2 * cap, None) == (2 * cap * 3 // 4, 2 * cap // 6, None)
