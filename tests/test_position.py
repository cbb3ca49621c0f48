"""`Position`, the engine's compact position: its moves are the game's legal moves in the
canonical order, its play/undo are the game's, and it is independent of the game it came from."""

from __future__ import annotations

import pytest
from conftest import VARIANT_IDS, VARIANTS, pos
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solitaire_nb as sn
from solitaire_nb.core.cards import Card
from solitaire_nb.core.rules import ALL
from solitaire_nb.engine import Position, rule_table


def indexed(g: sn.Game, moves) -> list[tuple[int, int, int]]:
    idx = {p: i for i, p in enumerate(g.pile_ids)}
    return [(idx[m.src], idx[m.dst], m.n_cards) for m in moves]


def brute_force(g: sn.Game) -> set[tuple[int, int, int]]:
    """Every (src, dst, count) the refusal path (`can_move`) accepts, tried exhaustively."""
    out = set()
    for s, src in enumerate(g.pile_ids):
        for d, dst in enumerate(g.pile_ids):
            for n in range(1, max(1, len(g.pile(src))) + 1):
                if g.can_move(src, dst, n):
                    out.add((s, d, n))
    return out


def state(p: Position) -> tuple[list[list[int]], list[int]]:
    return [list(q) for q in p.p], list(p.fd)


def game_state(g: sn.Game) -> tuple[list[list[int]], list[int]]:
    return [[c.id for c in g.pile(pid)] for pid in g.pile_ids], [g.face_down(pid) for pid in g.pile_ids]


@pytest.mark.parametrize("name, variant", VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 2**32), picks=st.lists(st.integers(0, 10_000), min_size=10, max_size=40))
def test_position_moves_and_play_equal_the_game(name, variant, seed, picks):
    g = sn.new_game(name, seed=seed, **variant)
    for step, pick in enumerate(picks):
        compact = g.compact()
        moves = compact.moves()
        legal = g.legal_moves()
        assert moves == indexed(g, legal)
        assert moves == sorted(moves, key=lambda m: (m[0], m[2], m[1])), "not in canonical order"
        assert len(set(moves)) == len(moves)
        if step % 4 == 0:  # the exhaustive check is slow in the two-deck games
            assert set(moves) == brute_force(g)
        before = state(compact)
        assert before == game_state(g)
        for s, d, n in moves[:8]:
            ops = compact.play(s, d, n)
            probe = g.copy()
            probe.move(g.pile_ids[s], g.pile_ids[d], n)
            assert state(compact) == game_state(probe)
            assert compact.is_won() == probe.is_won()
            compact.undo(ops)
            assert state(compact) == before
        assert game_state(g) == before, "playing on the compact position changed the game"
        if not legal:
            break
        g.move(legal[pick % len(legal)])


def test_compact_is_an_independent_copy():
    g = sn.new_game("moving_left", seed=5)
    c = g.compact()
    c.play(*c.moves()[0])
    assert game_state(g) != state(c)
    assert game_state(g) == state(g.compact())
    d = c.copy()
    i = next(k for k, q in enumerate(c.p) if q)
    d.p[i].clear()
    assert c.p[i]


def test_accepts_is_what_accepted_lists():
    g = pos("citadel", {"F0": "AS", "T0": "2S 9D", "T1": "TC", "T2": ""})
    c = g.compact()
    t0, t1, t2, f0, f1 = (g.pile_ids.index(p) for p in ("T0", "T1", "T2", "F0", "F1"))
    nine_h, two_s, two_h = Card.parse("9H").id, Card.parse("2S").id, Card.parse("2H").id
    assert c.accepts(t1, nine_h) and not c.accepts(t0, nine_h)
    assert c.accepted(t2) is ALL and c.accepts(t2, two_s)
    assert c.accepts(f0, two_s) and not c.accepts(f0, two_h)
    assert c.accepted(f1) == (Card.parse("AH").id,)


def test_run_length_and_turn_up():
    g = pos("moving_left", {"T0": "KS QH JC", "T1": "5D 9S 8H"}, {"T1": 1})
    c = g.compact()
    assert c.run_length(0) == 3 and c.run_length(1) == 2
    ops = c.play(1, 0, 2)  # 9S 8H onto the JC: `play` trusts its caller
    assert c.p[1] == [Card.parse("5D").id] and c.fd[1] == 0  # the 5D turned face up
    assert ops[-1] == (1, 1, Card.parse("5D").id)
    c.undo(ops)
    assert state(c) == game_state(g)


def test_autoplay_after_the_deal_and_after_a_move():
    g = sn.new_game("citadel", seed=1)
    c = g.compact()
    assert c.autoplay() == []  # the deal's autoplay already ran
    h = pos("citadel", {"F0": "AS", "F1": "AH", "T0": "2H", "T1": "2S 9C", "T2": "TD"})
    c = h.compact()
    t1, t2 = 1, 2
    ops = c.play(t1, t2, 1)
    assert ops[0] == (t1, t2, [Card.parse("9C").id], 0)
    # 2S went home by autoplay; 2H could already go home before the move, so it stays
    assert (t1, h.pile_ids.index("F0"), [Card.parse("2S").id], 0) in ops
    assert c.p[0] == [Card.parse("2H").id]


def test_rule_tables_are_shared_and_positions_check_their_size():
    g = sn.new_game("scotch", seed=3)
    assert g.compact().table is rule_table(g.rules)
    with pytest.raises(ValueError, match="pilas"):
        Position(rule_table(g.rules), [[]], [0])
    empty = Position.empty(g.rules)
    assert empty.is_won() and empty.moves() == []


def test_every_cited_rule_id_is_declared_by_some_game():
    declared = {i for d in sn.GAMES.values() for i in d.rules}
    for d in sn.GAMES.values():
        for field, rule_id in vars(d.rule_ids).items():
            assert rule_id in declared, (d.name, field, rule_id)
