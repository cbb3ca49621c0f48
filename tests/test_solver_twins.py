"""Pruning rule 9 (docs/solver.md#poda-9): where the rules never tell twins apart (the two cards
of one rank and colour), the canonical key names each card by the lower id of it and its twin.

Checked here: which rules select it (by data, never by name); hand-built Scotch positions that
differ only in where twins lie share a key, other swaps do not; and, on small practice positions
of every composed rule set that selects it, an exhaustive search over the engine's own
`legal_moves` gives a position and its twin image the same verdict, which is also the solver's.
"""

from __future__ import annotations

import random

import pytest
from successors import won_reachable

import solitaire_nb as sn
from solitaire_nb.core.cards import CARDS
from solitaire_nb.solver import solve
from solitaire_nb.solver.pruning import twin_symmetric
from solitaire_nb.solver.state import _Spec, _State

_TWIN_CODE = {"S": "C", "C": "S", "H": "D", "D": "H"}


def _twin(code: str) -> str:
    return code[0] + _TWIN_CODE[code[1]]


def _spec(name: str) -> _Spec:
    return _Spec(sn.new_game(name, seed=1))


@pytest.mark.parametrize(
    ("name", "selected"),
    [
        ("scotch", True),
        ("scotch+takeback=false", True),
        ("scotch+suits=alt", True),  # colours alternate: a twin has its card's colour
        ("scotch+build=updown+empty=any", True),
        ("scotch+suits=same", False),  # a suit tells a card from its twin
        ("scotch+suits=different", False),
        ("scotch+foundation=same", False),
        ("scotch+autoplay=true", False),
        ("beleaguered_castle", False),
        ("bakers_dozen", False),
        ("moving_left", False),
    ],
)
def test_rule_9_selected_by_rules_data(name, selected):
    spec = _spec(name)
    assert spec.twins is selected
    assert twin_symmetric(spec.rules, spec.decks) is selected


def _key(piles: dict[str, list[str]], takeback: bool = True) -> bytes:
    g = sn.Game.from_position("scotch", piles)
    spec = _Spec(g) if takeback else _Spec(g).without_takebacks()
    return _State(spec, g).key()


def test_twin_images_share_a_key():
    """Swapping 5♠ (on a foundation) with 5♣ (in a fan), or two twins both in fans, leaves the
    key unchanged with and without take-backs; swapping 5♣ with 5♥ (not twins) changes it."""
    base = {
        "F0": ["AH", "2S", "3H", "4S", "5D"], "F1": ["AD", "2C", "3D", "4C"],
        "F2": ["AS", "2H", "3S", "4H", "5S"], "F3": ["AC", "2D", "3C", "4D"],
        "T0": ["9H", "5C"], "T1": ["7D", "6S"], "T2": ["6C", "5H"], "T3": ["8S"],
    }  # fmt: skip
    swapped = {k: [{"5S": "5C", "5C": "5S"}.get(c, c) for c in v] for k, v in base.items()}
    fans = {k: [{"6S": "6C", "6C": "6S"}.get(c, c) for c in v] for k, v in base.items()}
    other = {k: [{"5C": "5H", "5H": "5C"}.get(c, c) for c in v] for k, v in base.items()}
    for takeback in (True, False):
        assert _key(swapped, takeback) == _key(base, takeback)
        assert _key(fans, takeback) == _key(base, takeback)
    sn.Game.from_position("scotch", other)  # a legal position too
    assert _key(other) != _key(base)


# composed rules that select rule 9, with few columns so that positions stay small
TWIN_GAMES = [
    "scotch+columns=4",
    "scotch+columns=4+takeback=false",
    "scotch+columns=5+suits=alt",
    "scotch+columns=4+build=updown",
    "scotch+columns=4+empty=any+takeback=false",
    "scotch+columns=4+empty=king+runs=true",
]


@pytest.mark.parametrize("name", TWIN_GAMES)
def test_twin_images_have_the_same_verdict_exhaustively(name):
    """Random practice positions (the cards from the Aces up to a rank, up to two of them left
    out, shuffled into the fans) and their images under random twin swaps: the exhaustive search over the engine's
    moves gives both the same verdict, and the solver (rule 9 in its keys) agrees with it."""
    rng = random.Random(name)
    g0 = sn.Game.from_position(name, {})
    assert _Spec(g0).twins
    tab = [p for p in g0.pile_ids if p[0] == "T"]
    verdicts = set()
    checked = 0
    for _ in range(30):
        cards = [c.code for c in CARDS if c.rank <= rng.choice((2, 2, 3))]
        for _ in range(rng.randrange(0, 3)):
            cards.remove(rng.choice(cards))
        rng.shuffle(cards)
        piles: dict[str, list[str]] = {p: [] for p in tab}
        for c in cards:
            piles[rng.choice(tab)].append(c)
        # sigma: every card of the swapped (rank, colour) classes becomes its twin
        swap = {(c[0], c[1] in "HD") for c in cards if rng.random() < 0.5}
        image = {p: [_twin(c) if (c[0], c[1] in "HD") in swap else c for c in q] for p, q in piles.items()}
        g, h = sn.Game.from_position(name, piles), sn.Game.from_position(name, image)
        assert _State(_Spec(g), g).key() == _State(_Spec(h), h).key()
        truth = won_reachable(g, 3000)
        if truth is None:
            continue
        assert won_reachable(h, 3000) is truth, (piles, image)
        assert solve(g, max_states=100_000).status == ("won" if truth else "lost"), piles
        verdicts.add(truth)
        checked += 1
    assert checked >= 5
    assert verdicts == {True, False}  # the positions test both verdicts
