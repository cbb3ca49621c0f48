"""The fast path for two decks with a reserve (solver/twodeck_reserve.py, Chequers' family): the
engine's successors, its selection from the rules, replayed lines, and the generic path's
verdicts."""

from __future__ import annotations

import random
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from successors import successor_keys

import solitaire_nb as sn
from solitaire_nb import solve
from solitaire_nb.solver import portfolio, twodeck, twodeck_reserve
from solitaire_nb.solver.state import _Spec

VARIANTS = [{}, {"wrap": False}, {"reserve_playable": False}, {"wrap": False, "reserve_playable": False}]


def _successor_keys(g, takeback: bool) -> tuple[set[bytes], set[bytes]]:
    """The fast path's successor keys and the engine's (each legal move played on a copy)."""
    mine, engine, children = successor_keys(twodeck_reserve.TwoDeckReserve, g, takeback)
    sp = twodeck_reserve.TwoDeckReserve(g, takeback)
    for child in children:  # each child's score, worked out from its parent's, is its own
        assert child == sp.scored(*child[:3])
    return mine, engine


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(1, 10**6),
    choices=st.lists(st.integers(0, 10**6), min_size=0, max_size=300),
    takeback=st.booleans(),
)
def test_successors_are_the_engines_on_played_positions(variant, seed, choices, takeback):
    """Along a game played by Hypothesis's choices (the reserve runs out, holes open and take
    any card, foundations fill both ways), every tenth position's successors are the
    engine's."""
    g = sn.new_game("chequers", seed=seed, **variant)
    for step, k in enumerate(choices):
        if step % 10 == 0:
            mine, engine = _successor_keys(g, takeback)
            assert mine == engine, [str(m) for m in g.history]
        legal = g.legal_moves()
        if not legal:
            break
        g.move(legal[k % len(legal)])
    mine, engine = _successor_keys(g, takeback)
    assert mine == engine


def test_successors_in_long_random_games():
    """Deterministic random play deep into the game, every other position compared (with
    and without take-backs in turn)."""
    steps = 0
    for seed, variant in enumerate(VARIANTS, start=1):
        rnd = random.Random(seed)
        g = sn.new_game("chequers", seed=seed, **variant)
        for step in range(160):
            if step % 2 == 0:
                mine, engine = _successor_keys(g, step % 4 == 0)
                assert mine == engine, (variant, [str(m) for m in g.history])
            legal = g.legal_moves()
            if not legal:
                break
            g.move(rnd.choice(legal))
            steps += 1
    assert steps > 500


def test_successors_in_practice_positions():
    """Holes with the reserve out (one of them stands for all), a lone card that may go into
    a hole, up and down foundations that both take the same card, and take-backs from both."""
    positions = [
        {"F0": ["AS"], "F4": ["KS"], "T0": ["2S", "QS"], "T1": ["KS"], "T3": ["AS"]},
        # ♥ up to 5 and down to 7: the 6♥ may go either way, and either top may come back
        {
            "F1": [f"{r}H" for r in "A2345"],
            "F5": [f"{r}H" for r in "KQJT987"],
            "T0": ["6H"],
            "T1": ["6H", "5H"],
            "T2": ["7H"],
            "T3": ["4H"],
        },
    ]
    for piles in positions:
        for variant in VARIANTS:
            g = sn.Game.from_position("chequers", piles, **variant)
            g.validate()
            for takeback in (True, False):
                mine, engine = _successor_keys(g, takeback)
                assert mine == engine and mine, (piles, variant, takeback)


def test_selected_from_the_rules_not_the_name():
    for variant in VARIANTS:
        spec = _Spec(sn.new_game("chequers", seed=1, **variant))
        assert spec.two_deck_reserve and not spec.two_deck
    ml = _Spec(sn.new_game("moving_left", seed=1))
    assert ml.two_deck and not ml.two_deck_reserve
    for name in ("scotch", "bakers_dozen", "citadel", "beleaguered_castle", "moving_left"):
        for flags in ({}, {k: not v.default for k, v in sn.GAMES[name].variants.items()}):
            assert not _Spec(sn.new_game(name, seed=1, **flags)).two_deck_reserve, (name, flags)
    # the same rules under another name select it; runs or a reserve that does not refill do not
    d = sn.GAMES["chequers"]

    def renamed(**changes):
        tableau = {k: changes.pop(k) for k in ("runs", "empty") if k in changes}

        def configure(flags):
            r = d.configure(flags)
            return replace(r, tableau=replace(r.tableau, **tableau), **changes)

        return _Spec(sn.Game(replace(d, name="otro", configure=configure), d.defaults)).two_deck_reserve

    assert renamed()
    assert not renamed(runs=True)
    assert not renamed(refill_from_reserve=False)
    assert not renamed(empty="any")


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={int(x)}" for k, x in v.items()) or "page")
def test_won_lines_replay_through_the_engine(variant):
    wins = 0
    for seed in range(1, 5):
        g = sn.new_game("chequers", seed=seed, **variant)
        before = g.to_json()
        r = solve(g, max_states=20_000)
        assert g.to_json() == before  # the caller's game is untouched
        if r.status == "won":
            wins += 1
            h = g.copy()
            for m in r.moves:
                h.move(m)
            assert h.is_won()
    assert wins == 4


def test_each_kind_of_move_is_the_engine_move_it_stands_for():
    """Every child's move, as the engine `Move` the winning lines are made of, played on the
    game, reaches the child: tableau moves, moves home either way, the reserve's plays and
    take-backs from both foundations."""
    kinds = set()
    for seed, variant in enumerate(VARIANTS, start=1):
        rnd = random.Random(seed)
        g = sn.new_game("chequers", seed=seed, **variant)
        for step in range(120):
            if step % 4 == 0:
                sp = twodeck_reserve.TwoDeckReserve(g, True)
                for move, child in sp.children(sp.root):
                    h = g.copy()
                    h.move(sp.engine_move(h, move))
                    assert sp.key(twodeck_reserve.TwoDeckReserve(h, True).root) == sp.key(child)
                    kinds.add(move[0] if move[0] != twodeck_reserve.MOVE_B else (move[0], move[2]))
            legal = g.legal_moves()
            if not legal:
                break
            g.move(rnd.choice(legal))
    tr = twodeck_reserve
    assert kinds == {tr.MOVE_T, tr.MOVE_F, tr.MOVE_RT, tr.MOVE_RF, (tr.MOVE_B, tr.UP), (tr.MOVE_B, tr.DOWN)}


def test_a_won_line_through_the_reserve_replays():
    """Up foundations complete, ♦ and ♣ down complete; ♠ and ♥ down still to play: the K♠ in
    the reserve, the 25 others one to a pile.  The K♠ goes down from the reserve (by hand, or
    by refilling a pile the K♥ leaves), then every pile follows."""
    ranks = "A23456789TJQK"
    piles = {f"F{k}": [r + s for r in ranks] for k, s in enumerate("SHDC")}
    piles["F6"] = [r + "D" for r in reversed(ranks)]
    piles["F7"] = [r + "C" for r in reversed(ranks)]
    rest = [r + "S" for r in ranks[:-1]] + [r + "H" for r in ranks]
    random.Random(3).shuffle(rest)
    piles.update({f"T{i}": [c] for i, c in enumerate(rest)})
    piles["R"] = ["KS"]
    for variant in VARIANTS:
        g = sn.Game.from_position("chequers", piles, **variant)
        r = solve(g)
        assert r.status == "won" and len(r.moves) == 26  # one move a card
        h = g.copy()
        for m in r.moves:
            h.move(m)
        assert h.is_won()


def _small_position(seed: int, top_rank: int, leave_out: str = "", **variant):
    """A Chequers practice position: deal `seed` with one copy of each card up to `top_rank`
    (the first dealt), without the cards `leave_out` (codes); no reserve, holes."""
    g = sn.new_game("chequers", seed=seed, **variant)
    seen: set[str] = set()
    piles = {}
    for pid in g.tableau_ids + ("R",):
        kept = []
        for c in g.pile(pid):
            if c.rank <= top_rank and c.code not in leave_out and c.code not in seen:
                seen.add(c.code)
                kept.append(c.code)
        piles[pid] = kept
    piles["T0"] += piles.pop("R")  # holes and a reserve cannot be together (`Game.validate`)
    return sn.Game.from_position("chequers", piles, **variant)


def _generic(g, cap: int):
    spec = _Spec(g)
    spec.two_deck_reserve = False
    return portfolio._search(g, spec, None, cap, 10**6)


@pytest.mark.parametrize(
    ("seed", "top_rank", "leave_out", "verdict"),
    [(s, 4, "", "won") for s in (1, 2, 3)] + [(s, 3, "2H", "lost") for s in (1, 2, 3)] + [(4, 3, "2D", "lost")],
)
def test_same_verdicts_as_the_generic_path_where_both_decide(seed, top_rank, leave_out, verdict):
    """Practice positions small enough for both complete searches to finish: won ones, and
    lost ones (a missing card strands its suit).  A complete "lost" search examines every
    canonical state, and both paths' canonical states are the same: same count."""
    g = _small_position(seed, top_rank, leave_out)
    fast = twodeck_reserve.search(g, True, None, 100_000, 10**6)
    generic = _generic(g, 100_000)
    assert fast[0] == generic[0] == verdict
    if verdict == "lost":
        assert fast[2] == generic[2]
    assert solve(g, max_states=200_000).status == verdict


def test_same_verdicts_as_the_generic_path_on_deals():
    """`solve` on the fast path and with the fast two-deck paths switched off: the same
    verdict wherever both decide, on a few deals of each variant (Chequers' deals are won)."""
    off = lambda rules, decks: False  # noqa: E731
    decided = 0
    for variant in VARIANTS:
        for seed in (1, 2):
            g = sn.new_game("chequers", seed=seed, **variant)
            fast = solve(g, max_states=3000)
            with mock.patch.object(twodeck_reserve, "applies", off), mock.patch.object(twodeck, "applies", off):
                assert not _Spec(g).two_deck_reserve
                generic = solve(g, max_states=3000)
            if "unknown" not in (fast.status, generic.status):
                assert fast.status == generic.status
                decided += 1
    assert decided >= 6


def test_search_does_not_depend_on_pile_numbering():
    """The root's piles are sorted: permuting the tableau gives the same verdict, the same
    states and the same moves up to the piles' names."""
    rng = random.Random(7)
    g = sn.new_game("chequers", seed=3)
    for _ in range(30):
        g.move(rng.choice(g.legal_moves()))
    tab = list(g.tableau_ids)
    order = tab[:]
    rng.shuffle(order)
    piles = {p: [c.code for c in g.pile(p)] for p in g.pile_ids}
    moved = dict(piles)
    for src, dst in zip(tab, order, strict=True):
        moved[dst] = piles[src]
    h = sn.Game.from_position("chequers", moved, {"R": g.face_down("R")})
    a, b = solve(g, max_states=5000), solve(h, max_states=5000)
    assert (a.status, a.states, len(a.moves)) == (b.status, b.states, len(b.moves))


def test_caps_hold():
    g = _small_position(2, 4, "2H")
    assert solve(g, max_states=0).states == 0
    r = solve(g, max_states=500)
    assert r.status == "unknown" and r.states == 500
