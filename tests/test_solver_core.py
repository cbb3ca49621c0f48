"""The optional compiled core (package `solitaire_nb_core`, built from ccore/) against the
pure-Python searches it ports (`solitaire_nb.solver.compiled`): on the same positions both give
the same result — verdict, states examined and winning line — and every won line replays to a
win through the engine.  Numbered deals of every one-deck game the fast state plays, positions
after random play, small positions checked against a plain search over the engine's own moves,
hand-built ones, and each search alone paused and resumed at random budgets.

Skipped, saying why, where the core is not built (`.venv/bin/pip install ./ccore` needs a C
compiler and Python's headers); in CI (CI=true) a missing core fails instead.
"""

from __future__ import annotations

import os
import random
from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from successors import played, won_reachable
from test_solver import STUCK_CASTLE

import solitaire_nb as sn
from solitaire_nb.core.cards import CARDS
from solitaire_nb.games.custom import custom_from_name
from solitaire_nb.solver import SolveResult, compiled, portfolio, solve
from solitaire_nb.solver.depth import _fast_dfs
from solitaire_nb.solver.fast import _Fast
from solitaire_nb.solver.lines import _check_line
from solitaire_nb.solver.probe import _fast_probe
from solitaire_nb.solver.search import _advance, _fast_search, _Ledger
from solitaire_nb.solver.state import _Spec
from solitaire_nb.solver.streamline import _fast_streamliner, blind_table

BUILT = compiled._core is not None and getattr(compiled._core, "API", None) == compiled.API
needs_core = pytest.mark.skipif(
    not BUILT,
    reason="the solver's compiled core is not built here (ccore/: .venv/bin/pip install ./ccore, which needs a C "
    "compiler and Python's headers); the pure-Python searches run instead",
)

# every one-deck game and variant the fast state plays, and composed ones (the lab's rules)
GAMES = [
    ("beleaguered_castle", {"takeback": False}),
    ("beleaguered_castle", {}),
    ("citadel", {}),
    ("citadel", {"takeback": False}),
    ("citadel", {"takeback": False, "autoplay": False}),
    ("bakers_dozen", {}),
    ("bakers_dozen", {"any_suit": True}),
    ("bakers_dozen", {"kings_to_bottom": False}),
    ("beleaguered_castle+empty=king+takeback=false", {}),
    ("beleaguered_castle+empty=none+suits=alt+takeback=false", {}),
    ("citadel+empty=king+autoplay=false+takeback=false", {}),
]


def _game(name: str, seed: int, moves: int, variant: dict) -> sn.Game:
    return played(custom_from_name(name) if "+" in name else name, seed, moves, **variant)


@contextmanager
def _path(core: bool):
    """Solve on the compiled core (`core`) or on the pure-Python searches."""
    with mock.patch.dict(os.environ, {compiled.CORE_ENV: "c" if core else "python"}):
        assert compiled.available() == core
        yield


def _both(g: sn.Game, **limits) -> tuple[SolveResult, SolveResult]:
    with _path(False):
        python = solve(g, **limits)
    with _path(True):
        core = solve(g, **limits)
    for r in (python, core):
        if r.status == "won":
            _check_line(g, r.moves)  # solve replayed it already: once more, explicitly
    return python, core


def test_core_is_built_in_ci():
    """CI installs the core (.ci/run and the README's test command) and tests both paths."""
    if os.environ.get("CI", "").lower() != "true":
        pytest.skip("outside CI the compiled core is optional")
    assert BUILT, "CI must build the compiled core (pip install ./ccore)"


@needs_core
@pytest.mark.parametrize("name, variant", GAMES)
def test_numbered_deals_give_the_same_result(name, variant):
    """Deals 1–30 (1–10 of the composed games) at a small state cap: the same verdict, states
    and line on both paths."""
    for seed in range(1, 11 if "+" in name else 31):
        g = _game(name, seed, 0, variant)
        python, core = _both(g, max_states=1500)
        assert python[:3] == core[:3], (name, variant, seed)


@needs_core
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GAMES), st.integers(1, 10**6), st.integers(0, 150), st.sampled_from([1, 60, 400, 2500]))
def test_positions_after_random_play_give_the_same_result(game, seed, moves, cap):
    name, variant = game
    python, core = _both(_game(name, seed, moves, variant), max_states=cap)
    assert python[:3] == core[:3]


SMALL_GAMES = [g for g in GAMES if "+" not in g[0]]


@st.composite
def _small(draw) -> sn.Game:
    """A full deck with at most 6 cards left in the tableau, the rest home."""
    name, variant = draw(st.sampled_from(SMALL_GAMES))
    left = draw(st.lists(st.integers(0, 3), min_size=4, max_size=4).filter(lambda xs: 1 <= sum(xs) <= 6))
    suits = "SHDC"
    out = [c for c in CARDS if c.rank > 13 - left[suits.index(c.suit)]]
    order = draw(st.permutations(out))
    fresh = sn.new_game(name, seed=1, **variant)
    tableau = fresh.tableau_ids
    where = draw(st.lists(st.integers(0, len(tableau) - 1), min_size=len(order), max_size=len(order)))
    piles: dict[str, list[str]] = {t: [] for t in tableau}
    for card, i in zip(order, where, strict=True):
        piles[tableau[i]].append(card.code)
    for f, s in zip(fresh.foundation_ids, suits, strict=True):
        piles[f] = [c.code for c in CARDS if c.suit == s and c.rank <= 13 - left[suits.index(s)]]
    return sn.Game.from_position(name, piles, **variant)


@needs_core
@settings(max_examples=60, deadline=None)
@given(_small())
def test_small_positions_agree_with_the_plain_search(g):
    """Where a plain search over the engine's own moves decides a small position, the core's
    complete search says the same (never won against lost), and the Python one too."""
    truth = won_reachable(g, 3000)
    python, core = _both(g, max_states=20_000)
    assert python[:3] == core[:3]
    if truth is not None and core.status != "unknown":
        assert core.status == ("won" if truth else "lost")


def _runs(upto: dict[str, int]) -> dict[str, list[str]]:
    return {f"F{k}": [c.code for c in CARDS if c.suit == s and c.rank <= upto[s]] for k, s in enumerate("SHDC")}


@needs_core
@pytest.mark.parametrize("takeback", [False, True])
def test_hand_built_positions(takeback):
    """A stuck castle (`STUCK_CASTLE`, lost: its only move leads nowhere), and a nearly
    finished one whose last cards must be dug out through a hole (won), on both paths."""
    stuck = sn.Game.from_position("beleaguered_castle", STUCK_CASTLE, takeback=takeback)
    python, core = _both(stuck)
    assert python[:3] == core[:3] and core.status == "lost"
    near = {"T0": ["KS", "QH", "KH", "QS"], "T1": ["KD"], "T2": ["KC", "QD", "QC"]}
    near |= {f"T{i}": [] for i in range(3, 8)} | _runs({"S": 11, "H": 11, "D": 11, "C": 11})
    g = sn.Game.from_position("beleaguered_castle", near, takeback=takeback)
    python, core = _both(g)
    assert python[:3] == core[:3] and core.status == "won"


def _drive(search, steps: list[int]) -> list:
    """Yields of a fast search sent the running sums of `steps`, then its verdict."""
    seen = [next(search)]
    allowed = 0
    for step in steps:
        allowed += step
        states, verdict = _advance(search, allowed)
        seen.append(states)
        if verdict is not None:
            return seen + [verdict]
    search.close()
    return seen


def _searches(spec: _Spec, g: sn.Game):
    """Each fast search a portfolio may run, as (name, Python start, core start); a start takes
    the ledger (or None) and returns the search, not yet started."""

    def best_first(make, urgency, disorder):
        def start(ledger):
            st_ = _Fast(spec, g)
            st_.urgency, st_.disorder = urgency, disorder
            return make(st_, None, 10**6, ledger)
        return start

    def depth_first(make, order):
        return lambda ledger: make(_Fast(spec, g), None, 10**6, order, ledger)

    for weights in (((1, 1), 0), ((3, 2, 1), 8)):
        yield "best-first", best_first(_fast_search, *weights), best_first(compiled.fast_search, *weights)
    for order in ("key", "fc"):
        yield order, depth_first(_fast_dfs, order), depth_first(compiled.fast_dfs, order)
    if spec.probe:
        yield "probe", *(lambda ledger, m=m: m(spec, g, None, 10**6, ledger) for m in (_fast_probe, compiled.fast_probe))
    table = blind_table(spec)
    if table is not None and spec.castle_streamline:
        yield "streamliners", *(lambda ledger, m=m: m(spec, g, table, None, 3000, 10**6, ledger)
                                for m in (_fast_streamliner, compiled.fast_streamliner))


@needs_core
@pytest.mark.parametrize("name, variant", GAMES[:6])
def test_each_search_pauses_and_resumes_alike(name, variant):
    """Each search alone, sent random budgets (as the portfolio's turns send them), without a
    ledger, with an empty one and with one another search already filled: the same yields,
    verdict and ledger on both paths."""
    rng = random.Random(name + str(variant))
    for seed in (3, 11):
        g = _game(name, seed, rng.randrange(0, 40), variant)
        spec = _Spec(g)
        steps = [rng.choice([1, 2, 7, 50, 300]) for _ in range(40)]
        for kind, python, core in _searches(spec, g):
            assert _drive(python(None), steps) == _drive(core(None), steps), (name, variant, seed, kind)
            for filled in (False, True):
                ledgers = [_Ledger(), compiled.ledger(1 << 62)]
                if filled:  # what one best-first search examined first
                    _drive(_fast_search(_Fast(spec, g), None, 10**6, ledgers[0]), [500])
                    _drive(compiled.fast_search(_Fast(spec, g), None, 10**6, ledgers[1]), [500])
                runs = [_drive(python(ledgers[0]), steps), _drive(core(ledgers[1]), steps)]
                assert runs[0] == runs[1], (name, variant, seed, kind, filled)
                assert ledgers[0].work == ledgers[1].work and len(ledgers[0].seen) == len(ledgers[1].seen)


@needs_core
def test_the_portfolio_takes_the_core_unless_turned_off(monkeypatch):
    monkeypatch.delenv(compiled.CORE_ENV, raising=False)  # the suite may run with it set
    g = sn.new_game("beleaguered_castle", seed=5, takeback=False)
    spec = _Spec(g)
    assert portfolio._kit(spec).best_first is compiled.fast_search
    # rule 10 (runs as one step) is not in the core: a portfolio where a search uses it runs in Python
    assert spec.macro and portfolio._kit(spec, runs=True).best_first is _fast_search
    monkeypatch.setenv(compiled.CORE_ENV, "python")
    assert not compiled.available()
    assert portfolio._kit(spec).best_first is _fast_search


@needs_core
def test_rule_10_runs_in_python_on_both_paths(monkeypatch):
    """With runs as one step switched on in the castles' searches, the core declines the
    portfolio: both paths give the same result (the Python searches'), and the core's
    searches refuse a state that moves runs."""
    monkeypatch.setattr(portfolio, "CASTLE_MACRO", frozenset({"usual", "second", "key", "fc", "stream"}))
    for seed in (1, 2, 3, 22):
        g = sn.new_game("beleaguered_castle", seed=seed, takeback=False)
        python, core = _both(g, max_states=3000)
        assert python[:3] == core[:3], seed
    g = sn.new_game("beleaguered_castle", seed=5, takeback=False)
    st_ = _Fast(_Spec(g), g)
    st_.macro = True
    with pytest.raises(AssertionError):
        compiled.fast_search(st_, None, 10)


@needs_core
def test_the_core_refuses_bad_data():
    g = sn.new_game("beleaguered_castle", seed=5, takeback=False)
    st_ = _Fast(_Spec(g), g)
    ok = compiled._make(st_, None, 10, None, "BEST_FIRST")
    ok.run(5)
    st_.t[0] = st_.t[0] + [st_.t[1][0]]  # a card twice
    with pytest.raises(ValueError):
        compiled._make(st_, None, 10, None, "BEST_FIRST")
    st_ = _Fast(_Spec(g), g)
    with pytest.raises(TypeError):
        compiled._make(st_, None, 10, object(), "BEST_FIRST")
    ended = compiled._make(st_, None, 1, None, "BEST_FIRST")
    while ended.run(10**6)[1] is None:
        pass
    with pytest.raises(RuntimeError):
        ended.run(10**6)


# keys as the searches make them (cards 0..51, 0xff between piles, four heights 0..13), and
# byte strings the table cannot pack (any byte, any length): the table stores the first kind
# packed, the second as it is (docs/solver.md, «El núcleo compilado»)
_CARD_KEYS = st.builds(
    lambda piles, heights: b"".join(bytes(p) + b"\xff" for p in piles) + bytes(heights),
    st.lists(st.lists(st.integers(0, 62), max_size=13), max_size=10),
    st.lists(st.integers(0, 15), min_size=4, max_size=4),
)
_ANY_KEYS = st.one_of(_CARD_KEYS, st.binary(max_size=120))


@needs_core
@settings(max_examples=60, deadline=None)
@given(st.lists(_ANY_KEYS, max_size=60), st.integers(0, 2**32))
def test_the_core_table_keeps_keys_exactly(keys, seed):
    """The core's table (here through its ledger) answers «seen?» exactly as a set of the keys
    would, packed or not, across the growth of its index: keys that differ in one byte, in
    length only, or only in what packing would drop (a byte over 62, a height over 15) stay
    apart."""
    rng = random.Random(seed)
    many = [bytes(rng.randrange(64) if rng.random() < 0.9 else 255 for _ in range(rng.randrange(4, 70)))
            for _ in range(3000)]
    near = [k[:-1] + bytes([k[-1] ^ 16]) for k in keys if k] + [k + b"\x00" for k in keys]
    near += [k[:i] + bytes([255 - k[i]]) + k[i + 1:] for k in keys for i in range(min(len(k), 3))]
    ledger = compiled.ledger(10**9)
    seen: set[bytes] = set()
    for k in keys + many + near + keys:
        assert ledger.count(k) == (k not in seen)
        seen.add(k)
    assert len(ledger) == len(seen)
    assert all(k in ledger.seen for k in seen)
    assert not any(k + b"\x07" in ledger.seen for k in keys if k + b"\x07" not in seen)
