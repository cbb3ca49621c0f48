"""Rule 8's fixed point (`FastPruning.stuck`, which rescans only the piles still blocked) against
the plainest one: every pile again and again until nothing changes.  The least fixed point is
unique, so the two must agree on every position; the plain scan here is the reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from successors import played

from solitaire_nb.games.custom import custom_from_name
from solitaire_nb.solver.fast import _Fast
from solitaire_nb.solver.state import _Spec

GAMES = [
    ("bakers_dozen", {}),
    ("bakers_dozen", {"any_suit": True}),
    ("bakers_dozen", {"kings_to_bottom": False}),
    ("beleaguered_castle", {"takeback": False}),
    ("citadel", {"takeback": False}),
    ("beleaguered_castle+empty=king+takeback=false", {}),
    ("beleaguered_castle+empty=none+suits=alt+takeback=false", {}),
    ("citadel+empty=king+autoplay=false+takeback=false", {}),
]


def stuck_by_passes(f: _Fast) -> bool:
    """Rule 8 by plain repeated passes over the piles (the reference)."""
    t, any_hole = f.t, f.empty_any
    if any_hole and not all(t):
        return False
    free = [len(q) - 1 for q in t]
    tops = 0
    for q in t:
        if q:
            tops |= 1 << q[-1]
    reach = list(f.h)
    changed = True
    while changed:
        changed = False
        for u in range(4):
            while reach[u] < 13 and tops >> (u * 13 + reach[u]) & 1:
                reach[u] += 1
        for i, q in enumerate(t):
            j = free[i]
            if j < 0:
                continue
            x = q[j]
            if x % 13 < reach[x // 13] or f.parent_bits[x] & tops or (f.empty_king and x % 13 == 12):
                if j == 0 and any_hole:
                    return False
                free[i] = j - 1
                if j > 0:
                    tops |= 1 << q[j - 1]
                changed = True
    return reach != [13, 13, 13, 13]


def _position(name: str, variant: dict, seed: int, moves: int) -> _Fast:
    g = played(custom_from_name(name) if "+" in name else name, seed, moves, **variant)
    return _Fast(_Spec(g), g)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GAMES), st.integers(1, 10**6), st.integers(0, 120))
def test_stuck_reaches_the_plain_fixed_point(game, seed, moves):
    name, variant = game
    f = _position(name, variant, seed, moves)
    assert f.stuck() == stuck_by_passes(f)


def test_both_see_a_stuck_position_and_a_free_one():
    """Baker's Dozen deals with random play: some positions are stuck, some are not, and the
    two computations agree on each (so the comparison above is not vacuous)."""
    seen = set()
    for seed in range(1, 60):
        f = _position("bakers_dozen", {}, seed, 60)
        assert f.stuck() == stuck_by_passes(f)
        seen.add(f.stuck())
    assert seen == {True, False}
