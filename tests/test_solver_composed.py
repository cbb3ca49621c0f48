"""The solver on composed games (`sn.custom`): every rule the lab can change, in any
combination, must be searched soundly or not selected.

Hypothesis draws a like game and a value of every change (4–20 columns), a deal and a few
random legal moves, and checks: `solve` and `hint` answer "won", "lost" or "unknown" and
raise nothing; a "won" line replays to a win through the public engine; a "lost" on a small
position (a practice position of at most 16 cards, or a whole deck with a few cards left in
play) agrees with an exhaustive search over the engine's own `legal_moves`; the fast state's
successors are the engine's wherever the rules select it; the probe's jumps are legal moves.
A table keeps the composed games that once failed (issue 31), and `win_rate` and the lab's
win sample run on a few deals of each.

Runtime: about 1–2 minutes.  More examples on demand: ``SNB_COMPOSED_EXAMPLES=500 python -m
pytest tests/test_solver_composed.py`` (docs/desarrollo.md).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from successors import walk, won_reachable

import solitaire_nb as sn
from solitaire_nb.atlas.executors import InProcessExecutor
from solitaire_nb.atlas.winrate import win_rate
from solitaire_nb.core.cards import CARDS
from solitaire_nb.core.moves import Move
from solitaire_nb.games import custom
from solitaire_nb.solver import hint, solve
from solitaire_nb.solver.fast import _Fast
from solitaire_nb.solver.probe import _jumps
from solitaire_nb.solver.state import _Spec, _State

EXAMPLES = int(os.environ.get("SNB_COMPOSED_EXAMPLES", "0")) or None


def examples(default: int) -> settings:
    """`default` examples, or SNB_COMPOSED_EXAMPLES of them when that is set."""
    return settings(
        max_examples=EXAMPLES or default,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def _value(key: str):
    if key == "columns":
        return st.integers(custom.MIN_COLUMNS, custom.MAX_COLUMNS)
    if key in custom.FLAGS:
        return st.booleans()
    return st.sampled_from(custom.CHOICES[key])


@st.composite
def composed(draw, max_columns: int = custom.MAX_COLUMNS) -> sn.GameDef:
    """A composed game: a like game and, for each change, nothing or a value."""
    like = draw(st.sampled_from(custom.LIKES))
    changes = {}
    for key in custom.CHANGES:
        value = draw(st.none() | _value(key))
        if value is not None:
            changes[key] = value
    if "columns" in changes:
        changes["columns"] = min(changes["columns"], max_columns)
    return sn.custom(like, **changes)


def _assert_sound(g: sn.Game, result) -> None:
    assert result.status in ("won", "lost", "unknown")
    if result.status == "won":
        h = g.copy()
        for m in result.moves:
            h.move(m)
        assert h.is_won()


# ---------------------------------------------------------------------- whole deals
@examples(20)
@given(definition=composed(), seed=st.integers(1, 10**6), steps=st.integers(0, 4), rng=st.randoms(use_true_random=False))
def test_solve_and_hint_on_composed_deals(definition, seed, steps, rng):
    """`solve` and `hint` on a deal of a composed game, after a few random moves: a verdict
    (a "won" line replays to a win), a legal hint, nothing raised."""
    g = walk(sn.new_game(definition, seed=seed), rng, steps)
    before = g.to_json()
    _assert_sound(g, solve(g, max_states=1500))
    h = hint(g, time_limit=None, max_states=300)
    assert h.status in ("won", "lost", "unknown")
    assert h.move is None or g.can_move(h.move)
    assert g.to_json() == before


# ---------------------------------------------------------------------- small positions
def _check_against_exhaustive(g: sn.Game) -> str | None:
    truth = won_reachable(g, 8000)
    if truth is None:
        event("too big for the exhaustive search")
        return None
    result = solve(g, max_states=200_000)
    _assert_sound(g, result)
    assert result.status == ("won" if truth else "lost"), (g.definition.name, g.to_json())
    event(f"checked: {result.status}")
    return result.status


@examples(25)
@given(
    definition=composed(max_columns=8),
    heights=st.lists(st.integers(0, 13), min_size=4, max_size=4),
    drop=st.booleans(),
    rng=st.randoms(use_true_random=False),
)
def test_practice_verdicts_match_exhaustive_search(definition, heights, drop, rng):
    """A practice position of the composed rules (each suit from its Ace up to a height, at
    most 16 cards, one of them left out when `drop`, so that it is often lost, shuffled into
    the tableau): the solver's verdict is the exhaustive one."""
    while sum(heights) > 16:
        heights[heights.index(max(heights))] -= 1
    cards = [c.code for c in CARDS if c.rank <= heights["SHDC".index(c.suit)]]
    if drop and len(cards) > 1:
        cards.remove(rng.choice(cards))
    if not cards:
        return
    rng.shuffle(cards)
    g0 = sn.Game.from_position(definition, {})
    tab = [pid for pid in g0.pile_ids if pid[0] == "T"]
    piles: dict[str, list[str]] = {pid: [] for pid in tab}
    for c in cards:
        piles[rng.choice(tab)].append(c)
    g = sn.Game.from_position(definition, piles)
    assert g.is_practice
    _check_against_exhaustive(g)


# four foundation sequences in alternate colours from the four Aces (♠♥♣♦ by rank in a
# Latin square): foundation k takes chain k's cards in order
_ALT_CHAINS = [["SHCD", "HSDC", "CDSH", "DCHS"][k] for k in range(4)]


def _chain(first_suit: str, same: bool) -> list[str]:
    if same:
        return [f"{'A23456789TJQK'[r]}{first_suit}" for r in range(13)]
    cycle = next(c for c in _ALT_CHAINS if c[0] == first_suit)
    return [f"{'A23456789TJQK'[r]}{cycle[r % 4]}" for r in range(13)]


@examples(25)
@given(
    definition=composed(max_columns=8),
    order=st.permutations("SHCD"),
    left=st.integers(3, 6),
    rng=st.randoms(use_true_random=False),
)
def test_endgame_verdicts_match_exhaustive_search(definition, order, left, rng):
    """A whole deck with a few cards left in play (the foundations legal sequences of the
    composed rules, the rest shuffled into the tableau), so that the full-deck searches and
    their pruning rules run: the solver's verdict is the exhaustive one."""
    rules = sn.Game.from_position(definition, {}).rules
    starts = [f.start for f in rules.foundations]
    suits = [s if s in "SHDC" else None for s in starts]
    free = [s for s in order if s not in suits]
    suits = [s or free.pop(0) for s in suits]
    chains = [_chain(s, f.suits == "same") for s, f in zip(suits, rules.foundations, strict=True)]
    heights = [13] * 4
    for _ in range(left):
        k = rng.choice([k for k in range(4) if heights[k] > 1 or not rules.aces_out and heights[k] > 0])
        heights[k] -= 1
    in_play = [c for k in range(4) for c in chains[k][heights[k] :]]
    rng.shuffle(in_play)
    g0 = sn.Game.from_position(definition, {})
    tab = [pid for pid in g0.pile_ids if pid[0] == "T"]
    fnd = [pid for pid in g0.pile_ids if pid[0] == "F"]
    piles = {pid: chains[k][: heights[k]] for k, pid in enumerate(fnd)}
    piles.update({pid: [] for pid in tab})
    for c in in_play:
        piles[rng.choice(tab)].append(c)
    g = sn.Game.from_position(definition, piles)
    assert not g.is_practice
    _check_against_exhaustive(g)


# ---------------------------------------------------------------------- the paths selected
@examples(20)
@given(definition=composed(), seed=st.integers(1, 10**6), rng=st.randoms(use_true_random=False))
def test_generator_and_fast_state_equal_engine(definition, seed, rng):
    """Along a random walk: the generic state's moves are the engine's legal moves and play
    as the engine plays them; where the rules select the fast state, its successors are the
    engine's up to pile symmetry; the two-deck paths and the rollouts are never selected (the
    lab composes one-deck games with every card face up)."""
    g = sn.new_game(definition, seed=seed)
    for _ in range(25):
        spec = _Spec(g)
        assert not (spec.two_deck or spec.two_deck_reserve or spec.rollouts)
        stt = _State(spec, g)
        ids = spec.pile_ids
        assert sorted((ids[a], ids[b], n) for a, b, n in stt.moves()) == sorted(tuple(m) for m in g.legal_moves())
        for a, b, n in stt.moves()[:4]:
            ops = stt.play(a, b, n)
            probe = g.copy()
            probe.move(Move(ids[a], ids[b], n))
            assert stt.p == [[c.id for c in probe.pile(pid)] for pid in ids]
            stt.undo(ops)
        if spec.fast:
            fast = _Fast(spec, g)
            here = fast.key()
            engine_keys = set()
            for m in g.legal_moves():
                probe = g.copy()
                probe.move(m)
                engine_keys.add(_Fast(spec, probe).key())
            fast_keys = set()
            for a, b in fast.moves():
                auto = fast.play(a, b)
                fast_keys.add(fast.key())
                fast.undo(a, b, auto)
                assert fast.key() == here
            assert fast_keys <= engine_keys
            assert engine_keys - {here} <= fast_keys
        if spec.probe:
            _check_jumps(spec, g)
        legal = g.legal_moves()
        if not legal:
            break
        g.move(rng.choice(legal))


def _check_jumps(spec: _Spec, g: sn.Game) -> None:
    """Every jump of the probe is a line of legal single moves of the engine."""
    st_ = _Fast(spec, g)
    home, other = _jumps(st_)
    ids, T = spec.pile_ids, st_.T
    for jump in home + other:
        h = g.copy()
        for a, b in jump:
            src = ids[spec.tab[a]]
            dst = ids[spec.tab[b]] if b < T else next(ids[f] for f in spec.fnd if h.can_move(src, ids[f]))
            h.move(Move(src, dst, 1))


# ---------------------------------------------------------------------- known failures
# Composed games the solver once failed on (issue 31): (name, deal, moves played first).
KNOWN = [
    ("citadel+foundation=alt", 0, ()),  # IllegalMove: the autoplay chose another foundation
    ("citadel+foundation=alt", 11, ()),  # the line found did not win
    ("scotch+autoplay=true", 2, ()),
    ("beleaguered_castle+foundation=alt+autoplay=true", 5, ()),
    ("scotch+aces_out=true+autoplay=true+takeback=true", 1, ()),
    ("bakers_dozen+foundation=alt+autoplay=true", 4, ()),
    ("citadel+columns=14+suits=different+foundation=alt", 636048, ()),
    ("scotch+build=updown+deal_to_foundations=true+autoplay=true", 388000, ("T17>T13",)),
    ("scotch+aces_out=true+autoplay=true+takeback=false", 567204, ("T2>T0", "T16>T13")),
]


@pytest.mark.parametrize(("name", "seed", "moves"), KNOWN, ids=[f"{n}-{s}" for n, s, _ in KNOWN])
def test_known_composed_failures(name, seed, moves):
    g = sn.new_game(name, seed=seed)
    for m in moves:
        g.move(m)
    _assert_sound(g, solve(g, max_states=20_000))
    h = hint(g, time_limit=None, max_states=2000)
    assert h.move is None or g.can_move(h.move)


# ♥ and ♣ home, ♠ to the Jack, ♦ to the 9; the Jack of diamonds on top of everything else
KING_BACK = {
    "F0": [f"{r}S" for r in "A23456789TJ"],
    "F1": [f"{r}H" for r in "A23456789TJQK"],
    "F2": [f"{r}D" for r in "A23456789"],
    "F3": [f"{r}C" for r in "A23456789TJQK"],
    "T0": ["KS", "KD", "QD", "TD", "QS", "JD"],
}


@pytest.mark.parametrize("name", ["beleaguered_castle+empty=king", "citadel+empty=king"])
def test_a_king_taken_back_into_a_hole_that_takes_kings(name):
    """Holes that take only Kings, with take-backs: the Jack of diamonds can only go onto a
    Queen, and the only way to get one is a King taken back into a hole and a Queen onto it.
    The fast state once left that take-back out and called this position lost."""
    g = sn.Game.from_position(name, KING_BACK)
    assert g.rules.takeback and _Spec(g).fast
    result = solve(g)
    _assert_sound(g, result)
    assert result.status == "won"


def test_suit_tied_foundations_in_colours_keyed_by_their_cards_with_take_backs():
    """A foundation tied to its Ace's suit but building in alternate colours holds different
    cards at the same height (2♥ or 2♦ on the ♠ Ace); with take-backs that card can come
    back, so the key tells the two apart (only same-suit foundations are keyed by height)."""
    name = "citadel+foundation=alt+autoplay=false"
    base = {"F0": ["AS"], "F1": ["AH"], "F2": ["AD"], "F3": ["AC"], "T0": ["KS"]}
    one = sn.Game.from_position(name, {**base, "F0": ["AS", "2H"], "F1": ["AH", "2S"]})
    two = sn.Game.from_position(name, {**base, "F0": ["AS", "2D"], "F1": ["AH", "2C"]})
    keys = [_State(_Spec(g), g).key() for g in (one, two)]
    assert one.rules.takeback and keys[0] != keys[1]
    spec = _Spec(one).without_takebacks()  # without them only the top's colour matters
    assert _State(spec, one).key() == _State(spec, two).key()


def test_rule_3b_waits_for_every_card_that_may_lie_on_the_card():
    """Rule 3b sends a card home only when no card that may still lie on it is in play: in
    Scotch every card one rank lower; with a tableau building up or down, one rank higher
    too.  Every 3 is home and two foundations take the 4 of hearts; the 5 of spades, in play,
    may lie on it only when the tableau also builds up."""
    piles = {
        "F0": ["AS", "2H", "3S"], "F1": ["AH", "2S", "3H"], "F2": ["AD", "2C", "3D"], "F3": ["AC", "2D", "3C"],
        "T0": ["4H"], "T1": ["5S"],
    }  # fmt: skip
    safe = {}
    for name in ("scotch+takeback=false", "scotch+build=updown+takeback=false"):
        g = sn.Game.from_position(name, piles)
        spec = _Spec(g)
        assert spec.rule3b
        safe[name] = _State(spec, g).safe_move()
    assert safe == {"scotch+takeback=false": (0, 18, 1), "scotch+build=updown+takeback=false": None}


TABLE_GAMES = ["citadel+foundation=alt", "scotch+autoplay=true", "beleaguered_castle+columns=6+empty=king+takeback=true"]


@pytest.mark.parametrize("name", TABLE_GAMES)
def test_win_rate_and_lab_sample_on_composed_games(name):
    """`win_rate` and the lab's win sample run to the end on composed games that once made
    the solver fail, with a verdict for every deal."""
    rate = win_rate(name, range(1, 4), max_states=2000, executor=InProcessExecutor(), progress=False)
    assert rate.total == 3 and rate.won + rate.lost + rate.unknown == 3
    pytest.importorskip("anywidget")  # the lab lives in the board package (notebook extra)
    from solitaire_nb.atlas import lab_measures as lab_work

    sample = lab_work.solve_sample(custom.custom_from_name(name), 3, 2000)
    assert sample is not None and len(sample.verdicts) == 3
    assert set(sample.verdicts) <= {"won", "lost", "unknown"}
