"""`Game.move` skips the referee for a move `legal_moves` has just given for the same position:
it must still accept exactly what the referee accepts, whatever happened in between (undo,
redo, copies, a caller changing the list it got)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_nb as sn
from solitaire_nb.core.moves import IllegalMove, Move

GAMES = [("beleaguered_castle", {}), ("citadel", {}), ("bakers_dozen", {}), ("scotch", {}), ("moving_left", {})]


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(1, 10_000),
    ops=st.lists(st.tuples(st.sampled_from(["legal", "move", "stale", "undo", "redo", "copy"]), st.integers(0, 999)),
                 max_size=60),
)
def test_move_accepts_what_the_referee_accepts(game, seed, ops):
    name, flags = game
    g = sn.new_game(name, seed=seed, **flags)
    seen: list[Move] = []  # moves legal in some earlier position
    for op, k in ops:
        if op == "legal":
            seen += g.legal_moves()
        elif op in ("move", "stale"):
            moves = g.legal_moves() if op == "move" else seen
            if not moves:
                continue
            m = moves[k % len(moves)]
            legal = g.why_not(m) is None
            before = g.to_json()
            try:
                g.move(m)
            except IllegalMove:
                assert not legal, m
                assert g.to_json() == before
            else:
                assert legal, m
        elif op == "undo":
            g.undo()
        elif op == "redo":
            g.redo()
        else:
            g = g.copy()


def test_a_changed_list_does_not_make_a_move_legal():
    g = sn.new_game("beleaguered_castle", seed=1)
    legal = g.legal_moves()
    illegal = next(Move(a, b) for a in g.tableau_ids for b in g.tableau_ids if a != b and not g.can_move(a, b))
    legal.append(illegal)
    with pytest.raises(IllegalMove):
        g.move(illegal)


def test_a_true_count_is_refused_as_before():
    g = sn.new_game("beleaguered_castle", seed=1)
    m = g.legal_moves()[0]
    with pytest.raises(IllegalMove, match="entero positivo"):
        g.move(Move(m.src, m.dst, True))
