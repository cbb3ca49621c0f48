"""The two-deck fast path (solver/twodeck.py): the engine's successors, the generic path's
verdicts, replayed lines, and its selection from the rules."""

from __future__ import annotations

import random

import pytest
from successors import successor_keys

import solitaire_nb as sn
from solitaire_nb import solve
from solitaire_nb.solver import portfolio, twodeck
from solitaire_nb.solver.state import _Spec


def _successor_keys(g, takeback: bool) -> tuple[set[bytes], set[bytes]]:
    """The fast path's successor keys and the engine's (each legal move played on a copy)."""
    mine, engine, _ = successor_keys(twodeck.TwoDeck, g, takeback)
    return mine, engine


@pytest.mark.parametrize("takeback", [True, False])
def test_successors_are_the_engines_in_random_play(takeback):
    steps = 0
    for seed in range(1, 7):
        rnd = random.Random(seed)
        g = sn.new_game("moving_left", seed=seed)
        for _ in range(150):
            mine, engine = _successor_keys(g, takeback)
            assert mine == engine, (seed, [str(m) for m in g.history])
            legal = g.legal_moves()
            if not legal:
                break
            g.move(rnd.choice(legal))
            steps += 1
    assert steps > 600


def test_selected_from_the_rules_not_the_name():
    g = sn.new_game("moving_left", seed=1)
    assert twodeck.applies(g.rules, 2) and _Spec(g).two_deck
    assert not _Spec(sn.new_game("moving_left", seed=1, shift_left=True)).two_deck  # piles shift
    for name in ("chequers", "scotch", "bakers_dozen", "citadel", "beleaguered_castle"):
        assert not _Spec(sn.new_game(name, seed=1)).two_deck


def test_a_won_line_replays_through_the_engine():
    """The two-deck search itself (not the rollouts `solve` runs first) wins deal 2."""
    g = sn.new_game("moving_left", seed=2)
    status, moves, states = twodeck.search(g, True, None, 60_000, 10**6)
    assert status == "won" and 0 < states <= 60_000
    h = g.copy()
    for m in moves:
        h.move(m)
    assert h.is_won()
    assert g.moves_played == 0  # the caller's game is untouched


def _small_position(seed: int, top_rank: int, leave_out: str = ""):
    """A Moving Left practice position: deal `seed` with only the cards up to `top_rank`,
    without the cards `leave_out` (codes; both copies)."""
    g = sn.new_game("moving_left", seed=seed)
    piles, face_down = {}, {}
    for pid in g.tableau_ids + ("S",):
        cards = g.pile(pid)
        kept = [c for c in cards if c.rank <= top_rank and c.code not in leave_out]
        hidden = sum(1 for c in cards[: g.face_down(pid)] if c in kept)
        piles[pid] = [c.code for c in kept]
        if pid == "S":
            face_down[pid] = len(kept)
        elif kept:
            face_down[pid] = min(hidden, len(kept) - 1)
    return sn.Game.from_position("moving_left", piles, face_down)


@pytest.mark.parametrize(
    ("seed", "top_rank", "leave_out", "verdict"),
    [(s, 3, "", "won") for s in range(1, 5)] + [(s, 2, "AH", "lost") for s in range(1, 6)] + [(2, 3, "AHAS", "lost")],
)
def test_same_verdicts_as_the_generic_path_where_both_decide(seed, top_rank, leave_out, verdict):
    """Practice positions small enough for both paths to finish: some won, some lost (a
    missing Ace or 2 strands its suit's higher cards)."""
    g = _small_position(seed, top_rank, leave_out)
    status, moves, _ = twodeck.search(g, True, None, 200_000, 10**6)
    spec = _Spec(g)
    spec.two_deck = False
    generic = portfolio._search(g, spec, None, 200_000, 10**6)
    assert status == generic[0] == verdict
    assert solve(g, max_states=50_000).status == verdict  # rollouts first (3/4 of the budget), then the searches
    if status == "won":
        h = g.copy()
        for m in moves:
            h.move(m)
        assert h.is_won()


def test_caps_hold():
    g = sn.new_game("moving_left", seed=1)
    assert solve(g, max_states=0).states == 0
    r = solve(g, max_states=500)
    assert r.status == "unknown" and r.states == 500
