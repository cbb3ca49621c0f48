"""The solver: most tests go through the public calls (`solve`, `hint`, `verdict_text`):
won lines replay to a win, hand-built positions get their known verdicts, verdicts survive
pile symmetries and agree with a plain search through the engine.  Private parts are tested
only where no public call reaches: the move generators against the engine (the generic
state for every game and variant, the fast state for every one it is selected for), the
pruning rules on hand-built positions, which rules the `Rules` data selects per built-in
game, and single searches of the portfolios.

Runtime: about 1 minute of CPU (3 minutes wall on the shared, loaded 2-core machine):
``python -m pytest tests/test_solver.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import VARIANT_IDS, VARIANTS
from successors import walk

import solitaire_nb as sn
from solitaire_nb.core.cards import new_deck
from solitaire_nb.solver import (
    BAKERS_PORTFOLIO,
    THOUGHTFUL,
    Hint,
    SolveResult,
    api,
    compiled,
    hint,
    portfolio,
    pruning,
    solve,
    verdict_text,
)
from solitaire_nb.solver.depth import _fast_dfs
from solitaire_nb.solver.fast import _Fast, _restore_fast
from solitaire_nb.solver.lines import _check_line, _described_moves
from solitaire_nb.solver.portfolio import _fast_portfolio
from solitaire_nb.solver.probe import _fast_probe, _jumps
from solitaire_nb.solver.search import _advance, _fast_search
from solitaire_nb.solver.state import _Spec, _State

RANKS = "A23456789TJQK"


def _suit_run(suit: str, lo: int, hi: int) -> list[str]:
    """Card codes of `suit` from rank lo to hi (inclusive, 1-based), ascending."""
    return [RANKS[r - 1] + suit for r in range(lo, hi + 1)]


def _random_walk(game: sn.Game, rng: random.Random, steps: int):
    """Yield the game after each of up to `steps` random legal moves (the start included)."""
    yield game
    for _ in range(steps):
        if not game.legal_moves():
            return
        yield walk(game, rng, 1)


# ---------------------------------------------------------------------- generator == engine
@pytest.mark.parametrize(("name", "flags"), VARIANTS, ids=VARIANT_IDS)
def test_generator_equals_engine_legal_moves(name, flags):
    """On random positions, the solver's own move generator lists exactly the engine's legal
    moves, and playing any of them gives the engine's position; undo restores the state."""
    rng = random.Random(hash((name, tuple(sorted(flags.items())))) & 0xFFFF)
    for seed in range(3):
        g = sn.new_game(name, seed=seed + 1, **flags)
        for pos in _random_walk(g, rng, 60):
            spec = _Spec(pos)
            st = _State(spec, pos)
            ids = spec.pile_ids
            mine = sorted((ids[a], ids[b], n) for a, b, n in st.moves())
            assert mine == sorted(tuple(m) for m in pos.legal_moves())
            before = ([list(p) for p in st.p], list(st.fd))
            for a, b, n in st.moves()[:6]:
                ops = st.play(a, b, n)
                probe = pos.copy()
                probe.move(sn.Move(ids[a], ids[b], n))
                assert st.p == [[c.id for c in probe.pile(pid)] for pid in ids]
                assert st.fd == [probe.face_down(pid) for pid in ids]
                st.undo(ops)
                assert (st.p, st.fd) == before


# every game and variant the fast state is selected for (by the rules data, `pruning.fast`)
FAST_VARIANTS = [(n, f) for n, f in VARIANTS if _Spec(sn.new_game(n, seed=1, **f)).fast]


@pytest.mark.parametrize(("name", "flags"), FAST_VARIANTS, ids=[f"{n}-{f}" for n, f in FAST_VARIANTS])
def test_fast_state_successors_equal_engine(name, flags):
    """The fast state reaches, up to pile symmetry, exactly the positions the engine's legal
    moves reach (besides moves that lead back to the same canonical position, such as a lone
    card into a hole), for every game and variant it is selected for."""
    rng = random.Random(7)
    for seed in range(3):
        g = sn.new_game(name, seed=seed + 11, **flags)
        for pos in _random_walk(g, rng, 60):
            spec = _Spec(pos)
            assert spec.fast
            fast = _Fast(spec, pos)
            here = fast.key()
            engine_keys = set()
            for m in pos.legal_moves():
                probe = pos.copy()
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


# ---------------------------------------------------------------------- rules selected by data
# What `_Spec` selects from the `Rules` data for every built-in game and variant: for the
# search itself and, where take-backs are allowed, for the first phase without them.  A
# change of any selection predicate (`solver.pruning`) or of a game's rules shows up here.
SELECTED = {
    ("chequers", "wrap=0,reserve_playable=0"): ("has_fd", "has_fd"),
    ("chequers", "wrap=0,reserve_playable=1"): ("has_fd", "has_fd"),
    ("chequers", "wrap=1,reserve_playable=0"): ("has_fd", "has_fd"),
    ("chequers", "wrap=1,reserve_playable=1"): ("has_fd", "has_fd"),
    ("moving_left", "shift_left=0"): ("has_fd", "has_fd"),
    ("moving_left", "shift_left=1"): ("has_fd ordered", "has_fd ordered"),
    ("scotch", ""): ("king_dead_ends twins streamline", "rule3b king_dead_ends fnd_by_height twins"),
    ("bakers_dozen", "any_suit=0,kings_to_bottom=0"): ("fast rule3 dead_ends", None),
    ("bakers_dozen", "any_suit=0,kings_to_bottom=1"): ("fast rule3 dead_ends", None),
    ("bakers_dozen", "any_suit=1,kings_to_bottom=0"): ("fast rule3 dead_ends", None),
    ("bakers_dozen", "any_suit=1,kings_to_bottom=1"): ("fast rule3 dead_ends", None),
    ("citadel", "deal_to_foundations=0,autoplay=0,takeback=0"): ("fast rule3 hole_dead_ends castle_portfolio macro probe", None),
    ("citadel", "deal_to_foundations=0,autoplay=0,takeback=1"): ("fast castle_portfolio macro", "fast rule3 hole_dead_ends castle_portfolio macro probe"),
    ("citadel", "deal_to_foundations=0,autoplay=1,takeback=0"): ("fast hole_dead_ends castle_portfolio macro", None),
    ("citadel", "deal_to_foundations=0,autoplay=1,takeback=1"): ("fast castle_portfolio macro", "fast hole_dead_ends castle_portfolio macro"),
    ("citadel", "deal_to_foundations=1,autoplay=0,takeback=0"): ("fast rule3 hole_dead_ends castle_portfolio macro probe", None),
    ("citadel", "deal_to_foundations=1,autoplay=0,takeback=1"): ("fast castle_portfolio macro", "fast rule3 hole_dead_ends castle_portfolio macro probe"),
    ("citadel", "deal_to_foundations=1,autoplay=1,takeback=0"): ("fast hole_dead_ends castle_portfolio macro", None),
    ("citadel", "deal_to_foundations=1,autoplay=1,takeback=1"): ("fast castle_portfolio macro", "fast hole_dead_ends castle_portfolio macro"),
    ("beleaguered_castle", "deal_to_foundations=0,autoplay=0,takeback=0"): ("fast rule3 hole_dead_ends castle_portfolio macro probe", None),
    ("beleaguered_castle", "deal_to_foundations=0,autoplay=0,takeback=1"): ("fast castle_portfolio macro", "fast rule3 hole_dead_ends castle_portfolio macro probe"),
    ("beleaguered_castle", "deal_to_foundations=0,autoplay=1,takeback=0"): ("fast hole_dead_ends castle_portfolio macro", None),
    ("beleaguered_castle", "deal_to_foundations=0,autoplay=1,takeback=1"): ("fast castle_portfolio macro", "fast hole_dead_ends castle_portfolio macro"),
    ("beleaguered_castle", "deal_to_foundations=1,autoplay=0,takeback=0"): ("fast rule3 hole_dead_ends castle_portfolio macro probe", None),
    ("beleaguered_castle", "deal_to_foundations=1,autoplay=0,takeback=1"): ("fast castle_portfolio macro", "fast rule3 hole_dead_ends castle_portfolio macro probe"),
    ("beleaguered_castle", "deal_to_foundations=1,autoplay=1,takeback=0"): ("fast hole_dead_ends castle_portfolio macro", None),
    ("beleaguered_castle", "deal_to_foundations=1,autoplay=1,takeback=1"): ("fast castle_portfolio macro", "fast hole_dead_ends castle_portfolio macro"),
}
SELECTABLE = ("fast", "rule3", "rule3b", "dead_ends", "hole_dead_ends", "king_dead_ends", "castle_portfolio", "macro", "probe", "has_fd",
              "fnd_by_height", "twins", "streamline")


def _selected(spec: _Spec) -> str:
    return " ".join([r for r in SELECTABLE if getattr(spec, r)] + ([] if spec.symmetric else ["ordered"]))


@pytest.mark.parametrize(("name", "flags"), VARIANTS, ids=VARIANT_IDS)
def test_rules_selected_per_builtin_game(name, flags):
    spec = _Spec(sn.new_game(name, seed=1, **flags))
    key = (name, ",".join(f"{k}={int(v)}" for k, v in flags.items()))
    phase1 = _selected(spec.without_takebacks()) if spec.takeback else None
    assert (_selected(spec), phase1) == SELECTED[key]


def test_rules_are_selected_by_data_not_by_name():
    """The same rules under another name select the same; Beleaguered Castle's rules with
    holes that take nothing select the dead-end rules 6 and 8 and Baker's Dozen's portfolio;
    with runs, or alternate-colour foundations, neither the fast state nor rule 3."""
    from dataclasses import replace

    def spec_for(name: str, **changes) -> _Spec:
        d = sn.GAMES[name]
        tableau = {k: changes.pop(k) for k in ("empty", "runs") if k in changes}
        base = d.configure

        def configure(flags):
            r = base(flags)
            return replace(r, tableau=replace(r.tableau, **tableau), **changes)

        return _Spec(sn.Game(replace(d, name="otro", configure=configure), d.defaults))

    for name in ("bakers_dozen", "beleaguered_castle", "scotch", "moving_left"):
        assert _selected(spec_for(name)) == _selected(_Spec(sn.new_game(name, seed=1)))
    castle_none = spec_for("beleaguered_castle", empty="none", takeback=False)
    assert _selected(castle_none) == "fast rule3 dead_ends"
    assert _selected(spec_for("beleaguered_castle", runs=True, takeback=False)) == ""
    alt = tuple(replace(f, suits="alt", start="any") for f in sn.GAMES["beleaguered_castle"].rules_for().foundations)
    assert _selected(spec_for("beleaguered_castle", foundations=alt, takeback=False)) == "fnd_by_height twins"


def test_solver_reads_games_only_through_their_public_surface():
    """No module of the solver touches a private field of `Game` or compares a game's name
    (what it does is chosen from the `Rules` data)."""
    import re
    from pathlib import Path

    import solitaire_nb.solver as package

    for path in sorted(Path(package.__file__).parent.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(game|g)\._[a-z]", source), path.name
        assert not re.search(r"\bname\s*[!=]=|[!=]=\s*\"(" + "|".join(sn.GAMES) + r")\"", source), path.name


# ---------------------------------------------------------------------- won lines replay
@pytest.mark.parametrize(
    ("name", "flags", "cap"),
    [
        ("beleaguered_castle", {"takeback": False}, 3000),
        ("beleaguered_castle", {}, 3000),
        ("citadel", {}, 3000),
        ("citadel", {"takeback": False, "autoplay": False}, 3000),
        ("bakers_dozen", {}, 3000),
        ("bakers_dozen", {"any_suit": True}, 3000),
        ("scotch", {}, 2000),
        ("chequers", {}, 1500),
        ("moving_left", {}, 1500),
    ],
)
def test_won_lines_replay_to_a_win(name, flags, cap):
    """Every "won" carries a line of legal moves that wins when replayed on a copy; the
    caller's game is left untouched."""
    wins = 0
    for seed in range(1, 9):
        g = sn.new_game(name, seed=seed, **flags)
        before = g.to_json()
        r = solve(g, max_states=cap)
        assert g.to_json() == before
        assert r.status in ("won", "lost", "unknown")
        if r.status == "won":
            wins += 1
            legal_types = type(g.legal_moves()[0])
            probe = g.copy()
            for m in r.moves:
                assert isinstance(m, legal_types)
                probe.move(m)
            assert probe.is_won()
        else:
            assert r.moves == []
    if name in ("beleaguered_castle", "citadel", "chequers"):
        assert wins > 0


def test_max_states_is_deterministic():
    g = sn.new_game("beleaguered_castle", seed=22, takeback=False)
    a = solve(g, max_states=800)
    b = solve(g, max_states=800)
    assert (a.status, a.states, a.moves) == (b.status, b.states, b.moves)
    assert a.states <= 800


@pytest.mark.parametrize(("seed", "status", "states"), [(23, "lost", 2608), (20, "won", 4010)])
def test_a_larger_state_cap_gets_tables_as_large(seed, status, states, monkeypatch):
    """By default a search's table holds `DEFAULT_MAX_TABLE` keys or ``max_states`` if more: with
    the default shrunk to 300 keys, deals the atlas records decided within 20,000 states (its
    file: data/atlas/beleaguered_castle_sin_devolver.csv) are decided the same way, while an
    explicit table of 300 keys fills first."""
    import solitaire_nb.solver.api as api

    g = sn.new_game("beleaguered_castle", seed=seed, takeback=False)
    monkeypatch.setattr(api, "DEFAULT_MAX_TABLE", 300)
    got = solve(g, max_states=20_000)
    assert (got.status, got.states) == (status, states)
    small = solve(g, max_states=20_000, max_table=300)
    assert small.status == "unknown" and small.states < states



@pytest.mark.parametrize(("name", "seed"), [("beleaguered_castle", 5), ("citadel", 6)])
def test_takeback_games_first_search_without_takebacks(name, seed, monkeypatch):
    """With take-backs allowed, `solve` first runs the search of the game without them (a
    quarter of the budget): on a deal that game wins quickly, the verdict, states and line
    are exactly those of ``takeback=False`` without the castles' streamliners (they play only
    where the game itself forbids take-backs), and the line is legal with take-backs too."""
    with monkeypatch.context() as m:
        m.setattr(portfolio, "CASTLE_STREAM", 0)
        free = solve(sn.new_game(name, seed=seed, takeback=False), max_states=4000)
    assert free.status == "won" and free.states < 1000
    with_takebacks = solve(sn.new_game(name, seed=seed), max_states=4000)
    assert (with_takebacks.status, with_takebacks.states) == (free.status, free.states)
    assert [str(m) for m in with_takebacks.moves] == [str(m) for m in free.moves]
    # a "lost" of the first phase is no proof: the complete search still runs, and the
    # states of both phases are counted
    stuck = sn.Game.from_position("beleaguered_castle", STUCK_CASTLE)
    r = solve(stuck, max_states=4000)
    assert r.status == "lost"
    assert r.states > solve(sn.Game.from_position("beleaguered_castle", STUCK_CASTLE, takeback=False)).states

# ---------------------------------------------------------------------- hand-built positions
def _castle_home(except_spades_from: int) -> dict[str, list[str]]:
    """Beleaguered Castle foundations: ♥ ♦ ♣ complete, ♠ up to rank except_spades_from - 1."""
    return {
        "F0": _suit_run("S", 1, except_spades_from - 1),
        "F1": _suit_run("H", 1, 13),
        "F2": _suit_run("D", 1, 13),
        "F3": _suit_run("C", 1, 13),
    }


@pytest.mark.parametrize("name", ["beleaguered_castle", "citadel"])
@pytest.mark.parametrize("takeback", [True, False])
def test_castle_won_in_three(name, takeback):
    """Q♠ lies under K♠ and everything else is home: K♠ to a hole, Q♠ home, K♠ home."""
    piles = {**_castle_home(12), "T0": ["QS", "KS"]}
    g = sn.Game.from_position(name, piles, takeback=takeback)
    r = solve(g)
    assert r.status == "won" and len(r.moves) <= 3


STUCK_CASTLE = {
    # tops K K J J 9 9 7 and 6 on a 4: the only move is 6♥ onto 7♠, after which nothing moves
    "T0": ["2S", "3S", "4S", "KS"],
    "T1": ["2H", "3H", "4H", "KH"],
    "T2": ["2D", "3D", "4D", "5S", "JS"],
    "T3": ["2C", "3C", "5H", "5D", "JH"],
    "T4": ["5C", "6S", "6D", "6C", "9S"],
    "T5": ["7H", "7D", "7C", "8S", "9H"],
    "T6": ["8H", "8D", "8C", "9D", "9C", "TS", "TH", "TD", "TC", "JD", "JC", "QS", "QH", "QD", "QC", "KD", "KC", "7S"],
    "T7": ["4C", "6H"],
    "F0": ["AS"],
    "F1": ["AH"],
    "F2": ["AD"],
    "F3": ["AC"],
}


@pytest.mark.parametrize("name", ["beleaguered_castle", "citadel"])
@pytest.mark.parametrize("takeback", [True, False])
def test_castle_provably_lost(name, takeback):
    """Lost: the tops are K♠ K♥ J♠ J♥ 9♠ 9♥ 7♠ 6♥, no 2 is a top and no top is one rank
    below another, except 6♥ on 7♠.  After 6♥ goes onto 7♠ the new tops are 4♣ and 6♥:
    nothing fits anywhere (no 5 is a top, no 2 is free, no hole), and take-backs can only
    bring an Ace back, which needs a 2 on top or a hole.  So the only line ends stuck."""
    g = sn.Game.from_position(name, STUCK_CASTLE, takeback=takeback)
    assert [str(m) for m in g.legal_moves()] == ["T7>T6"]
    r = solve(g)
    assert r.status == "lost"
    assert "No tiene solución" in verdict_text(r, g)
    g.move("T7>T6")
    assert g.is_stuck()
    r2 = solve(g)
    assert r2.status == "lost" and "Ya no tiene solución" in verdict_text(r2, g)


def _bakers_home() -> dict[str, list[str]]:
    return {"F1": _suit_run("H", 1, 13), "F2": _suit_run("D", 1, 13), "F3": _suit_run("C", 1, 13)}


@pytest.mark.parametrize("flags", [{}, {"any_suit": True}, {"kings_to_bottom": False}])
def test_bakers_dozen_won_and_lost(flags):
    """With ♥ ♦ ♣ home and A♠ home, the other spades lie as K♠…5♠ (5♠ on top), 2♠ alone,
    and 3♠ with 4♠.  Won: 3♠ on top of 4♠, so the twelve spades go home one by one.
    Lost: 4♠ on top of 3♠.  4♠ can go home only after 3♠, which lies under it; onto a 5 of
    another suit, but those are home and Baker's Dozen never takes a card back; into a hole,
    which stays empty (or takes only a King).  So 4♠ never moves and 3♠ never comes out.
    With ``any_suit`` 4♠ may go onto 5♠, and the position is won."""
    spades_high = list(reversed(_suit_run("S", 5, 13)))  # K♠ at the bottom, 5♠ on top
    lost = {**_bakers_home(), "T0": ["3S", "4S"], "T1": ["2S"], "T2": spades_high, "F0": ["AS"]}
    g = sn.Game.from_position("bakers_dozen", lost, **flags)
    r = solve(g)
    if flags.get("any_suit"):
        assert r.status == "won"  # 4♠ may go onto 5♠ when the suit does not matter
    else:
        assert r.status == "lost"
    won = {**_bakers_home(), "T0": ["4S", "3S"], "T1": ["2S"], "T2": spades_high, "F0": ["AS"]}
    r = solve(sn.Game.from_position("bakers_dozen", won, **flags))
    assert r.status == "won" and len(r.moves) == 12


SCOTCH_FULL = {
    # four alternate-colour foundations of 13 cards each
    "F0": ["AS", "2H", "3S", "4H", "5S", "6H", "7S", "8H", "9S", "TH", "JS", "QH", "KS"],
    "F1": ["AH", "2S", "3H", "4S", "5H", "6S", "7H", "8S", "9H", "TS", "JH", "QS", "KH"],
    "F2": ["AD", "2C", "3D", "4C", "5D", "6C", "7D", "8C", "9D", "TC", "JD", "QC", "KD"],
    "F3": ["AC", "2D", "3C", "4D", "5C", "6D", "7C", "8D", "9C", "TD", "JC", "QD", "KC"],
}


def test_scotch_won_and_lost():
    """Won: Q♥ and K♠ are off their foundation (Q♥ on top): Q♥ home, then K♠ home.
    Lost: the same two cards with K♠ on top of Q♥.  K♠ can go only on a foundation topped by
    a red Q (Q♥ is under it, Q♦ is under K♦, which could come back only onto a fan topped
    by a card one rank higher, and there is none) or on a fan topped by a card one rank
    higher (none).  So K♠ never moves and Q♥ never comes out."""
    base = {k: list(v) for k, v in SCOTCH_FULL.items()}
    base["F0"] = base["F0"][:-2]
    r = solve(sn.Game.from_position("scotch", {**base, "T0": ["KS", "QH"]}))
    assert r.status == "won" and len(r.moves) == 2
    g = sn.Game.from_position("scotch", {**base, "T0": ["QH", "KS"]})
    assert solve(g).status == "lost"



def _scotch_endgame(f0: int, f3: int, fans: dict[str, list[str]]) -> dict[str, list[str]]:
    """Scotch with ♥♠ and ♦♣ chains home (F1, F2), the two black-Ace chains of SCOTCH_FULL
    home up to heights f0 and f3, and the given fans (the others empty)."""
    piles = {k: list(v) for k, v in SCOTCH_FULL.items()}
    piles["F0"] = piles["F0"][:f0]
    piles["F3"] = piles["F3"][:f3]
    return {**piles, **fans}


def _scotch_dead(piles: dict[str, list[str]], takeback: bool = True) -> bool:
    g = sn.Game.from_position("scotch", piles)
    spec = _Spec(g) if takeback else _Spec(g).without_takebacks()
    return _State(spec, g).dead()


# the black-Ace chains above 7: F0 goes on 8♥ 9♠ 10♥ J♠ Q♥ K♠, F3 on 8♦ 9♣ 10♦ J♣ Q♦ K♣
_SCOTCH_SINGLES = {f"T{i + 2}": [c] for i, c in enumerate(["9S", "TH", "JS", "QH", "9C", "TD", "JC", "QD"])}


def test_scotch_dead_end_rule_7():
    """Rule 7 on hand-built positions, each checked against the reasoning in its comment."""
    # (a) K♠ covers both red 8s: its foundation needs one of them first
    assert _scotch_dead(_scotch_endgame(7, 7, {"T0": ["8H", "8D", "KS"], "T1": ["KC"], **_SCOTCH_SINGLES}))
    # (d) K♠ needs 8♦, which lies under K♣, and K♣ needs 8♥, under K♠
    cyclic = _scotch_endgame(7, 7, {"T0": ["8H", "KS"], "T1": ["8D", "KC"], **_SCOTCH_SINGLES})
    assert _scotch_dead(cyclic)
    assert solve(sn.Game.from_position("scotch", cyclic)).status == "lost"
    # ...but with 8♦ on top of K♣ it is won: 8♦, 9♠, …, K♠ home, then 8♥, 9♣, …, K♣
    alive = _scotch_endgame(7, 7, {"T0": ["8H", "KS"], "T1": ["KC", "8D"], **_SCOTCH_SINGLES})
    assert not _scotch_dead(alive)
    assert solve(sn.Game.from_position("scotch", alive)).status == "won"
    # (b) K♠ needs 8♦, which lies under K♣ on a finished foundation
    full = _scotch_endgame(7, 13, {"T0": ["8H", "KS"], "T2": ["9S"], "T3": ["TH"], "T4": ["JS"], "T5": ["QH"]})
    assert _scotch_dead(full)
    # K♠ needs 8♦ (8♥ lies under it) and K♣ needs 9♣ (9♠ lies under it); so K♠'s
    # foundation takes 8♦ and 9♠, and K♣'s takes 9♣ and 8♥: K♣ must go home before K♠ (to
    # free 9♠) and K♠ before K♣ (to free 8♥).  Dead with or without take-backs.
    f0 = SCOTCH_FULL["F0"][:7] + ["8D", "9C"]
    shared = _scotch_endgame(7, 7, {"T0": ["8H", "KS"], "T1": ["9S", "KC"], "T2": ["TH"], "T3": ["JS"], "T4": ["QH"],
                                    "T5": ["TD"], "T6": ["JC"], "T7": ["QD"]})
    shared["F0"] = f0
    assert _scotch_dead(shared) and _scotch_dead(shared, takeback=False)
    # 8♥ under both black Kings: whichever foundation it ends on, its King lies above it
    stacked = _scotch_endgame(7, 7, {"T0": ["8H", "KC", "KS"], "T1": ["8D"], **_SCOTCH_SINGLES})
    assert _scotch_dead(stacked)
    # a King under the other one only has to wait for it
    stacked["T0"], stacked["T1"], stacked["T10"] = ["KC", "KS"], ["8D"], ["8H"]
    assert not _scotch_dead(stacked)
    assert solve(sn.Game.from_position("scotch", stacked)).status == "won"


def test_scotch_safe_move_rule_3b():
    """Rule 3b applies in the first phase only (no take-backs): an Ace goes home at once;
    a 9 goes home when every 8 is home and its twin is home or two foundations take it."""
    piles = _scotch_endgame(8, 7, {"T0": ["9C"], "T1": ["8D", "9S"]})
    g = sn.Game.from_position("scotch", piles)
    restricted = _State(_Spec(g).without_takebacks(), g)
    assert restricted.safe_move() is None  # 8♦ is in play: a 9 could still go on it
    assert _State(_Spec(g), g).safe_move() is None  # and never with take-backs
    piles = _scotch_endgame(8, 8, {"T0": ["9C"], "T2": ["9S"]})  # both black-Ace chains at 8
    g = sn.Game.from_position("scotch", piles)
    si, di, n = _State(_Spec(g).without_takebacks(), g).safe_move()
    assert (g.pile_ids[si], n) in (("T0", 1), ("T2", 1)) and g.pile_ids[di] in ("F0", "F3")
    piles = _scotch_endgame(9, 8, {"T0": ["9C"]})  # F0 took 9♠: 9♣ has one place, twin home
    piles["F0"] = SCOTCH_FULL["F0"][:9]
    g = sn.Game.from_position("scotch", piles)
    assert _State(_Spec(g).without_takebacks(), g).safe_move() is not None


def test_scotch_verdicts_match_brute_force_on_small_endgames():
    """Random Scotch endgames (5–6 cards off the two black-Ace chains, on three fans): the
    solver (first phase without take-backs with rule 3b, then the complete search with rule
    7) agrees with a plain breadth-first search through the engine, take-backs included."""
    rng = random.Random(77)
    checked = Counter()
    for _ in range(25):
        f0, f3 = rng.randrange(9, 12), rng.randrange(9, 12)
        cards = SCOTCH_FULL["F0"][f0:] + SCOTCH_FULL["F3"][f3:]
        rng.shuffle(cards)
        fans: dict[str, list[str]] = {"T0": [], "T1": [], "T2": []}
        for c in cards:
            fans[f"T{rng.randrange(3)}"].append(c)
        g = sn.Game.from_position("scotch", _scotch_endgame(f0, f3, fans))
        truth = _brute_force_won(g, limit=4000)
        if truth is None:
            continue
        verdict = solve(g).status
        assert verdict == ("won" if truth else "lost"), fans
        checked[verdict] += 1
    assert checked["won"] > 0 and checked["lost"] > 0, checked

def _chequers_home() -> dict[str, list[str]]:
    piles = {}
    for k, s in enumerate("SHDC"):
        piles[f"F{k}"] = _suit_run(s, 1, 13)
        piles[f"F{4 + k}"] = list(reversed(_suit_run(s, 1, 13)))
    return piles


def test_chequers_won():
    """All home but the second A♠ and K♠ (K♠ on top): K♠ goes up, A♠ goes down."""
    piles = _chequers_home()
    piles["F0"] = piles["F0"][:-1]
    piles["F4"] = piles["F4"][:-1]
    piles["T0"] = ["AS", "KS"]
    r = solve(sn.Game.from_position("chequers", piles))
    assert r.status == "won" and len(r.moves) == 2


def _chequers_stuck() -> dict[str, list[str]]:
    """Up foundations A…5 and down foundations K…9 in every suit, the reserve empty, and 25
    piles topped by A 3 5 7 7 9 J of each suit (the first 25 of those), the rest below."""
    piles: dict[str, list[str]] = {}
    for k, s in enumerate("SHDC"):
        piles[f"F{k}"] = _suit_run(s, 1, 5)
        piles[f"F{4 + k}"] = list(reversed(_suit_run(s, 9, 13)))
    tops = [r + s for s in "SHDC" for r in ("A", "3", "5", "7", "7", "9", "J")][:25]
    rest = Counter(c.code for c in new_deck(2))
    for cards in piles.values():
        rest.subtract(cards)
    rest.subtract(tops)
    buried = sorted(rest.elements())
    for i, top in enumerate(tops):
        piles[f"T{i}"] = buried[i::25] + [top]
    return piles


def test_chequers_lost_without_a_move():
    """Lost: every pile is topped by one of A 3 5 7 7 9 J of its suit (no two a rank apart,
    even across the K–A wrap), none of them is the 6 or 8 the foundations want, and the
    foundation tops (5 up, 9 down) fit on no top (they would need a 4, 6, 8 or 10).  The
    reserve is empty and no pile is empty: there is no legal move at all."""
    g = sn.Game.from_position("chequers", _chequers_stuck())
    assert g.legal_moves() == []
    assert solve(g).status == "lost"


def _moving_left_home(spade_top: int, other_top: int) -> dict[str, list[str]]:
    piles = {}
    for k, s in enumerate("SHDC"):
        top = spade_top if s == "S" else other_top
        piles[f"F{2 * k}"] = _suit_run(s, 1, top)
        piles[f"F{2 * k + 1}"] = _suit_run(s, 1, top)
    return piles


def test_moving_left_won_and_lost():
    """Lost: ♠ foundations stop at 9 and both J♠ lie on both 10♠; the other foundations
    stop at 10.  Every other pile is a Q under its own-suit King (with the Jacks of ♥ ♦ ♣).
    A King can leave only for a hole (no pile ever empties: each bottom card is covered by a
    card that cannot move first) or its foundation (which needs its Q, buried under a King);
    J♠ only for a red Q on top (none ever) or home (needs the 10♠ below it).  Take-backs put
    10s and 9s back on the J♠ piles but never free anything.  Won: each suit misses one Q
    and both Ks; a Q lies on one K, the other K is alone: Q home, K home, K home, per suit."""
    piles = _moving_left_home(9, 10)
    piles.update(
        {
            "T0": ["QS", "KS"],
            "T1": ["QS", "KS"],
            "T2": ["QH", "JH", "KH"],
            "T3": ["QH", "JH", "KH"],
            "T4": ["QD", "JD", "KD"],
            "T5": ["QD", "JD", "KD"],
            "T6": ["QC", "JC", "KC"],
            "T7": ["QC", "JC", "KC"],
            "T8": ["TS", "JS"],
            "T9": ["TS", "JS"],
        }
    )
    g = sn.Game.from_position("moving_left", piles)
    r = solve(g, max_states=20_000)  # the rollouts take 3/4 of it; the search proves the loss with the rest
    assert r.status == "lost"
    assert verdict_text(r, g).endswith(THOUGHTFUL)
    won = _moving_left_home(13, 13)
    for k in range(4):
        won[f"F{2 * k}"] = won[f"F{2 * k}"][:-2]
    won.update({"T0": ["KS", "QS"], "T1": ["KH", "QH"], "T2": ["KD", "QD"], "T3": ["KC", "QC"]})
    won.update({"T4": ["KS"], "T5": ["KH"], "T6": ["KD"], "T7": ["KC"]})
    won["F1"] = won["F1"][:-1]
    won["F3"] = won["F3"][:-1]
    won["F5"] = won["F5"][:-1]
    won["F7"] = won["F7"][:-1]
    g = sn.Game.from_position("moving_left", won)
    r = solve(g)
    assert r.status == "won" and len(r.moves) == 12


def test_moving_left_sees_face_down_cards():
    """Thoughtful: K♠ in a hole-less position lies face down under Q♥; the solver plans with
    it (it finds a win whose first moves uncover it)."""
    won = _moving_left_home(13, 13)
    won["F0"] = won["F0"][:-1]  # K♠ missing
    won["F2"] = won["F2"][:-1]  # K♥ missing
    won["T0"] = ["KS", "KH"]
    g = sn.Game.from_position("moving_left", won, face_down={"T0": 1})
    r = solve(g)
    assert r.status == "won" and [str(m) for m in r.moves] == ["T0>F2", "T0>F0"]


# ---------------------------------------------------------------------- symmetry
SYMMETRIC = [
    ("beleaguered_castle", {"takeback": False}),
    ("beleaguered_castle", {}),
    ("citadel", {}),
    ("bakers_dozen", {}),
    ("scotch", {}),
    ("moving_left", {}),
    ("chequers", {}),
]


def _permuted(game: sn.Game, rng: random.Random) -> sn.Game:
    """The same position with the tableau piles (and face-down counts) shuffled."""
    tab = [p for p in game.pile_ids if p.startswith("T")]
    order = tab[:]
    rng.shuffle(order)
    piles = {p: [c.code for c in game.piles[p]] for p in game.pile_ids}
    fd = {p: game.face_down(p) for p in game.pile_ids}
    new_piles = dict(piles)
    new_fd = dict(fd)
    for src, dst in zip(tab, order, strict=True):
        new_piles[dst] = piles[src]
        new_fd[dst] = fd[src]
    return sn.Game.from_position(game.name, new_piles, new_fd, **game.variant)


@pytest.mark.parametrize(("name", "flags"), SYMMETRIC, ids=[f"{n}-{f}" for n, f in SYMMETRIC])
def test_verdict_survives_pile_permutation(name, flags):
    """Under a fixed max_states, permuting interchangeable tableau piles (random positions
    reached by random play) gives the same verdict and the same number of states."""
    rng = random.Random(99)
    cap = 600 if name in ("chequers", "moving_left", "scotch") else 1500
    for seed in range(1, 5):
        g = sn.new_game(name, seed=seed, **flags)
        for _ in range(rng.randrange(0, 25)):
            legal = g.legal_moves()
            if not legal:
                break
            g.move(rng.choice(legal))
        a = solve(g, max_states=cap)
        b = solve(_permuted(g, rng), max_states=cap)
        assert (a.status, a.states) == (b.status, b.states)


# ---------------------------------------------------------------------- hints and texts
def test_hint_gives_first_move_of_a_solution():
    piles = {**_castle_home(12), "T0": ["QS", "KS"]}
    g = sn.Game.from_position("beleaguered_castle", piles)
    h = hint(g, time_limit=1.0)
    assert h.proven and h.status == "won" and h.move in g.legal_moves()


def test_hint_falls_back_to_a_heuristic_move():
    g = sn.Game.from_position("beleaguered_castle", STUCK_CASTLE)
    h = hint(g, time_limit=1.0)
    assert not h.proven and h.status == "lost" and str(h.move) == "T7>T6"
    g.move("T7>T6")
    assert hint(g, 0.5) == Hint(None, False, "lost")


def test_verdict_texts_are_spanish():
    g = sn.new_game("citadel", seed=5)
    assert verdict_text(SolveResult("unknown", [], 10, 0.1), g).startswith("Sin decidir")
    won = SolveResult("won", [sn.Move("T0", "F0")], 3, 0.1)
    assert "Tiene solución" in verdict_text(won, g)
    assert "1 movimiento." in verdict_text(won, g)


def test_verdicts_say_when_the_solver_sees_hidden_cards():
    """Games that deal cards face down (Moving Left's tableau and stock, Chequers' reserve):
    every verdict says the solver plays «con ventaja»; the others never do."""
    for name in sn.GAMES:
        g = sn.new_game(name, seed=3)
        text = verdict_text(solve(g, max_states=50), g)
        assert text.endswith(THOUGHTFUL) == (name in ("moving_left", "chequers")), name
        assert g.hides_cards == (name in ("moving_left", "chequers"))
    assert "boca abajo" in THOUGHTFUL and "con ventaja" in THOUGHTFUL


def test_lazy_access():
    assert sn.solve is solve


def test_bakers_dozen_dead_end_rule():
    """Rule 6: 4♠ over 3♠ with every 5 of another suit home is a dead end at once; with 5♥
    still in play (not under 4♠) it is not."""
    spades_high = list(reversed(_suit_run("S", 5, 13)))
    lost = {**_bakers_home(), "T0": ["3S", "4S"], "T1": ["2S"], "T2": spades_high, "F0": ["AS"]}
    g = sn.Game.from_position("bakers_dozen", lost)
    fast = _Fast(_Spec(g), g)
    assert fast.dead()
    assert solve(g).states == 1
    alive = dict(lost)
    alive["F1"] = _suit_run("H", 1, 4)
    alive["T3"] = list(reversed(_suit_run("H", 5, 13)))  # 5♥ on top: 4♠ may go onto it
    g2 = sn.Game.from_position("bakers_dozen", alive)
    assert not _Fast(_Spec(g2), g2).dead()
    assert solve(g2).status == "won"


def _bakers_cycle() -> dict[str, list[str]]:
    """6♠ over 2♠ can go only onto 7♥, which lies under 4♥; 4♥ over 2♥ can go only onto 5♠,
    which lies under 6♠ (♦ and ♣ are home).  Neither card ever moves, yet each has a parent
    in play outside its own pile, so rule 6 does not see it."""
    return {
        "F0": ["AS"], "F1": ["AH"], "F2": _suit_run("D", 1, 13), "F3": _suit_run("C", 1, 13),
        "T0": ["2S", "5S", "6S"], "T1": ["2H", "7H", "4H"],
        "T2": list(reversed(_suit_run("S", 7, 13))), "T3": list(reversed(_suit_run("H", 8, 13))),
        "T4": ["4S"], "T5": ["3S"], "T6": ["6H"], "T7": ["5H"], "T8": ["3H"],
    }


@pytest.mark.parametrize("flags", [{}, {"kings_to_bottom": False}, {"any_suit": True}])
def test_bakers_dozen_stuck_rule_8(flags):
    """Rule 8 sees the two-pile cycle that rule 6 misses: the position is dropped as soon as
    it is taken from the queue.  With ``any_suit`` 6♠ may go onto 7♠ and 4♥ onto 5♥: won."""
    g = sn.Game.from_position("bakers_dozen", _bakers_cycle(), **flags)
    fast = _Fast(_Spec(g), g)
    assert not fast.dead()
    r = solve(g)
    if flags.get("any_suit"):
        assert not fast.stuck()
        assert r.status == "won"
    else:
        assert fast.stuck()
        assert r.status == "lost" and r.states == 1


@pytest.mark.parametrize("flags", [{}, {"any_suit": True}, {"kings_to_bottom": False}])
def test_bakers_dozen_rule_8_never_drops_a_win(flags):
    """Random endgames of 6–9 cards in four piles, decided by plain breadth-first search:
    rule 8 drops none that can be won, and (where holes take no card) most that cannot.
    Holes that take Kings make the plain search slow, so that variant gets fewer endgames."""
    rng = random.Random(8)
    counts: Counter = Counter()
    samples = 80 if flags.get("kings_to_bottom", True) else 25
    for _ in range(samples):
        heights = {s: 13 for s in "SHDC"}
        for _ in range(rng.randrange(6, 10)):
            s = rng.choice([x for x in "SHDC" if heights[x] > 1])
            heights[s] -= 1
        in_play = [r + s for s in "SHDC" for r in RANKS[heights[s]:]]
        rng.shuffle(in_play)
        piles = {f"F{k}": _suit_run(s, 1, heights[s]) for k, s in enumerate("SHDC")}
        piles.update({f"T{i}": [] for i in range(13)})
        for c in in_play:
            piles[f"T{rng.randrange(4)}"].append(c)
        g = sn.Game.from_position("bakers_dozen", piles, **flags)
        truth = _brute_force_won(g, 5000)
        assert truth is not None
        stuck = _Fast(_Spec(g), g).stuck()
        assert not (stuck and truth), piles
        counts[stuck, truth] += 1
    assert counts[False, True] >= samples // 4
    if flags.get("kings_to_bottom", True):
        assert counts[True, False] > 10 * counts[False, False], counts


def test_bakers_dozen_rule_8_passes_winning_lines():
    """No position on a winning line the solver found is dropped by rule 8."""
    for flags in ({}, {"any_suit": True}, {"kings_to_bottom": False}):
        for seed in (7, 12, 13):
            g = sn.new_game("bakers_dozen", seed=seed, **flags)
            r = solve(g, max_states=10_000)
            assert r.status == "won"
            for m in r.moves:
                assert not _Fast(_Spec(g), g).stuck()
                g.move(m)


@pytest.mark.parametrize("seed, search", [(154, 1), (170, 2), (181, 11)])
def test_bakers_dozen_portfolio(seed, search):
    """Baker's Dozen's searches share the budget: deal 154 leads the first order astray (no
    win in its 2,820 states of 6,000) and the second wins it at once; deal 170 is won by the
    first order that also weighs the disorder (`heuristics._disorder`); deal 181 only by a
    late one, whose window covers 10 ranks.  The shares are used whole, in order (counted
    in the shared ledger), the last gets what is left, and the run is deterministic."""
    cap = 6000
    shares = [share for *_, share in BAKERS_PORTFOLIO]
    assert abs(sum(shares) - 1) < 1e-9
    g = sn.new_game("bakers_dozen", seed=seed)
    r = solve(g, max_states=cap)
    assert r.status == "won"
    before = sum(int(cap * share) for share in shares[:search])
    after = before + int(cap * shares[search]) if search < len(shares) - 1 else cap
    assert before < r.states <= after
    assert solve(g, max_states=cap)[:3] == r[:3]


def _run_alone(search, budget: int) -> tuple[str, list, int]:
    """Run one fast search (`_fast_search` or `_fast_dfs`) alone: status, line, states."""
    next(search)
    states, verdict = _advance(search, budget)
    search.close()
    return verdict if verdict else ("unknown", [], states)


@pytest.mark.parametrize("name, flags, seeds", [
    ("beleaguered_castle", {"takeback": False}, range(1, 13)),
    ("citadel", {"takeback": False, "autoplay": False}, range(1, 13)),
    ("citadel", {}, (1, 6, 9, 25, 80)),
])
def test_depth_first_agrees_with_best_first(name, flags, seeds):
    """The depth-first searches are complete: every complete search must examine exactly the
    same states to prove a deal lost (the canonical states reachable from it), so a "lost"
    from either depth-first order comes after as many states as the best-first search's, and
    every verdict both decide is the same; a depth-first "won" line replays to a win."""
    lost = 0
    for seed in seeds:
        g = sn.new_game(name, seed=seed, **flags)
        spec = _Spec(g)
        best, _, best_states = _run_alone(_fast_search(_Fast(spec, g), None, 10**6), 20_000)
        for order in ("key", "fc"):
            status, line, states = _run_alone(_fast_dfs(_Fast(spec, g), None, 10**6, order), 20_000)
            if status == "unknown":
                continue
            if best != "unknown":
                assert status == best, (seed, order)
            if status == "lost":
                lost += 1
                assert best == "lost" and states == best_states
            else:
                moves = _described_moves(g, spec, line)
                _check_line(g, moves)
    assert lost > 0


def test_depth_first_proves_the_stuck_castle_lost():
    g = sn.Game.from_position("beleaguered_castle", STUCK_CASTLE, takeback=False)
    for order in ("key", "fc"):
        # its only child is dropped by rule 8b before it is entered: one state, the root
        assert _run_alone(_fast_dfs(_Fast(_Spec(g), g), None, 100, order), 100) == ("lost", [], 1)


def test_castle_portfolio_takes_turns(monkeypatch):
    """The castles' four complete searches (`_castle_portfolio`, here without the probe and
    the streamliners, which have tests of their own), with small turns: the usual order
    alone for its first 1,000 states, then turns of 400 (the usual order), 200 (the second
    order), 200 and 200 (the depth-first searches, piles in the key's order, then in
    Freecell Solver's).  In Citadel without take-backs or autoplay, deal 4 is won only by
    the first depth-first search, at its 229th state, in its second turn; deal 129 only by
    the second, at its 743rd, in its fourth turn; deal 5 by the second order at once.
    Budgets are counted exactly (each state once, in the shared ledger) and runs are
    deterministic.  Rule 8b is switched off: these counts test the turns, not the pruning."""
    monkeypatch.setattr(pruning, "hole_dead_ends", lambda *args: False)
    monkeypatch.setattr(portfolio, "CASTLE_ALONE", 1000)
    monkeypatch.setattr(portfolio, "CASTLE_ALONE_SHARE", 1)
    monkeypatch.setattr(portfolio, "CASTLE_TURNS", (400, 200, 200, 200))
    monkeypatch.setattr(portfolio, "CASTLE_PROBE", 0)
    monkeypatch.setattr(portfolio, "CASTLE_STREAM", 0)
    variant = {"takeback": False, "autoplay": False}
    g4 = sn.new_game("citadel", seed=4, **variant)
    assert solve(g4, max_states=1000).status == "unknown"
    r = solve(g4, max_states=10_000)
    assert (r.status, r.states) == ("won", (1000 + 400) + 2 * 200 + 229 + 200)
    g129 = sn.new_game("citadel", seed=129, **variant)
    r = solve(g129, max_states=10_000)
    assert (r.status, r.states) == ("won", (1000 + 3 * 400) + 4 * 200 + 4 * 200 + 743)
    assert solve(g129, max_states=10_000)[:3] == r[:3]  # deterministic
    assert solve(g129, max_states=r.states).status == "won"  # the budget is exact
    assert solve(g129, max_states=r.states - 1).status == "unknown"
    r = solve(sn.new_game("citadel", seed=5, **variant), max_states=10_000)
    assert (r.status, r.states) == ("won", 1000 + 51)


def test_castle_probe_takes_one_turn(monkeypatch):
    """Without automatic actions or take-backs, the probe (`_fast_probe`) takes one turn right
    after the usual order's first `CASTLE_ALONE` states.  Beleaguered Castle deal 7 and
    Citadel deal 47: the usual order has no win within 3,000 states, the probe wins at its
    28th and 32nd.  The budget is exact, the run deterministic, the line checked.  It runs
    only where nothing is automatic and nothing comes back: not with Citadel's autoplay, and
    with take-backs only in the first phase (which forbids them).  Rule 8b is switched off:
    these counts test the turn, not the pruning, and the streamliners (which have tests of
    their own) are left out."""
    monkeypatch.setattr(pruning, "hole_dead_ends", lambda *args: False)
    monkeypatch.setattr(portfolio, "CASTLE_ALONE", 1000)
    monkeypatch.setattr(portfolio, "CASTLE_ALONE_SHARE", 1)
    monkeypatch.setattr(portfolio, "CASTLE_STREAM", 0)
    for name, seed, at in (("beleaguered_castle", 7, 28), ("citadel", 47, 32)):
        g = sn.new_game(name, seed=seed, takeback=False, **({"autoplay": False} if name == "citadel" else {}))
        assert _run_alone(_fast_search(_Fast(_Spec(g), g), None, 10**6), 3000)[0] == "unknown"
        assert solve(g, max_states=1000).status == "unknown"
        r = solve(g, max_states=10_000)
        assert (r.status, r.states) == ("won", 1000 + at)
        _check_line(g, r.moves)
        assert solve(g, max_states=10_000)[:3] == r[:3]
        assert solve(g, max_states=1000 + at - 1).status == "unknown"
    # with Citadel's autoplay or with take-backs (after the first phase) it is not started (the
    # spy watches the Python probe: the compiled core, which would run instead, is turned off)
    monkeypatch.setenv(compiled.CORE_ENV, "python")
    started = []
    real = _fast_probe
    monkeypatch.setattr(portfolio, "_fast_probe", lambda spec, *args: started.append(spec) or real(spec, *args))
    monkeypatch.setattr(portfolio, "CASTLE_ALONE", 10)
    for name, flags in (("citadel", {}), ("citadel", {"takeback": False}), ("beleaguered_castle", {})):
        for seed in range(1, 30):
            solve(sn.new_game(name, seed=seed, **flags), max_states=200)
    assert started and all(not spec.takeback and not spec.autoplay for spec in started)


def test_probe_gives_up_but_never_says_lost():
    """The probe plays only some of the game's moves, so when it has nothing left to try it
    answers "unknown", even on a position that is lost (`STUCK_CASTLE`)."""
    g = sn.Game.from_position("beleaguered_castle", STUCK_CASTLE, takeback=False)
    # its only jump leads to a position rule 8b drops before it is entered
    assert _run_alone(_fast_probe(_Spec(g), g, None, 10**6), 10**6) == ("unknown", [], 0)


@pytest.mark.parametrize("name, flags", [
    ("beleaguered_castle", {"takeback": False}),
    ("citadel", {"takeback": False, "autoplay": False}),
])
def test_probe_jumps_are_legal_single_moves(name, flags):
    """Every jump of the probe (`_jumps`) is a line of legal single moves (replayed here
    through the public engine, which refuses an illegal one); the first group sends exactly
    one more card home; listing them leaves the position as it was.  Positions: every
    position along winning lines of the solver, where holes and long runs occur."""
    from solitaire_nb.core.moves import Move

    jumps_seen = holes_seen = through_holes = dug_out = 0
    for seed in range(1, 9):
        game = sn.new_game(name, seed=seed, **flags)
        r = solve(game, max_states=5000)
        if r.status != "won":
            continue
        g = game.copy()
        for played in r.moves:
            spec = _Spec(g)
            st = _Fast(spec, g)
            before = ([list(q) for q in st.t], list(st.h))
            home, other = _jumps(st)
            assert ([list(q) for q in st.t], list(st.h)) == before
            holes_seen += any(not q for q in st.t)
            through_holes += sum(len(jump) > 2 for jump in other)  # a run parked on the way
            dug_out += sum(len(jump) > 1 for jump in home)
            ids, T = spec.pile_ids, st.T
            for k, jump in enumerate(home + other):
                h = g.copy()
                home_before = sum(len(h.piles[f"F{i}"]) for i in range(4))
                for a, b in jump:
                    src = ids[spec.tab[a]]
                    dst = ids[spec.tab[b]] if b < T else next(ids[f] for f in spec.fnd if h.can_move(src, ids[f]))
                    h.move(Move(src, dst, 1))
                home_after = sum(len(h.piles[f"F{i}"]) for i in range(4))
                assert home_after == home_before + (k < len(home)), (seed, jump)
                jumps_seen += 1
            g.move(played)
    assert jumps_seen > 500 and holes_seen > 40 and through_holes > 10 and dug_out > 50


BRUTE = [  # Beleaguered Castle with take-backs is left out: its brute force is too slow
    ("beleaguered_castle", {"takeback": False}),
    ("citadel", {}),
    ("citadel", {"takeback": False, "autoplay": False}),
    ("bakers_dozen", {}),
    ("bakers_dozen", {"any_suit": True}),
    ("bakers_dozen", {"kings_to_bottom": False}),
]


def _brute_key(game: sn.Game) -> tuple:
    """A position up to the order of the tableau piles (the symmetry every game here has)."""
    tab = sorted(tuple(c.code for c in p) for pid, p in game.piles.items() if pid[0] == "T")
    return tuple(tab), tuple(tuple(c.code for c in p) for pid, p in game.piles.items() if pid[0] != "T")


def _brute_force_won(game: sn.Game, limit: int = 2000) -> bool | None:
    """Whether a won position is reachable, by plain breadth-first search with the engine
    (no pruning but pile symmetry); None if more than `limit` positions would be needed."""
    seen = {_brute_key(game)}
    frontier = [game]
    while frontier:
        nxt = []
        for g in frontier:
            if g.is_won():
                return True
            for m in g.legal_moves():
                child = g.copy()
                child.move(m)
                k = _brute_key(child)
                if k not in seen:
                    seen.add(k)
                    nxt.append(child)
        if len(seen) > limit:
            return None
        frontier = nxt
    return False


@pytest.mark.parametrize(("name", "flags"), BRUTE, ids=[f"{n}-{f}" for n, f in BRUTE])
def test_verdicts_match_brute_force_on_small_endgames(name, flags):
    """Random endgames (4–5 cards left in play): the pruned solver's verdict equals a plain
    breadth-first search through the engine (up to pile order).  This checks rules 2, 3, 6 and 8
    and the fast state's moves where they bite."""
    rng = random.Random(2024)
    piles_n = 13 if name == "bakers_dozen" else 8
    checked = {"won": 0, "lost": 0}
    for _ in range(30):
        left = rng.randrange(4, 6)
        cards = [RANKS[r - 1] + s for s in "SHDC" for r in range(1, 14)]
        # foundations by suit up to a height; the cards above the heights are in play
        heights = {s: 13 for s in "SHDC"}
        for _ in range(left):
            s = rng.choice([x for x in "SHDC" if heights[x] > 1])
            heights[s] -= 1
        in_play = [c for c in cards if RANKS.index(c[0]) + 1 > heights[c[1]]]
        rng.shuffle(in_play)
        piles = {f"F{k}": _suit_run(s, 1, heights[s]) for k, s in enumerate("SHDC")}
        for i in range(piles_n):
            piles[f"T{i}"] = []
        for c in in_play:
            piles[f"T{rng.randrange(piles_n)}"].append(c)
        g = sn.Game.from_position(name, piles, **flags)
        truth = _brute_force_won(g)
        if truth is None:
            continue
        verdict = solve(g).status
        assert verdict == ("won" if truth else "lost"), piles
        checked[verdict] += 1
    assert checked["won"] > 0 and checked["won"] + checked["lost"] >= 5, checked


def test_heuristic_urgency_tables():
    """The best-first order's "needed soon" cards (speed only, but a wrong table would
    quietly slow every search): same-suit foundations by height, Scotch's by colour."""
    from solitaire_nb.core.cards import Card
    from solitaire_nb.solver.heuristics import _urgent
    from solitaire_nb.solver.tables import _ALT_NEXT

    def ids(codes: list[str]) -> set[int]:
        return {Card.parse(c).id for c in codes}

    # a six-rank table: ♠ home up to 4 needs 5♠ now (3), 6♠ next (3), then 7♠, 8♠ (2)...
    w = _urgent([4, 0, 0, 13], (3, 3, 2, 2, 1, 1))
    assert [w[Card.parse(c).id] for c in ("5S", "6S", "7S", "8S", "9S", "TS", "JS", "4S")] == [3, 3, 2, 2, 1, 1, 0, 0]
    assert w[Card.parse("AH").id] == 3 and w[Card.parse("KC").id] == 0  # a finished suit needs nothing
    # Scotch: an empty foundation takes the Aces; on 5♥, a black 6 now and a red 7 next
    assert set(_ALT_NEXT[52]) == ids(["AS", "AH", "AD", "AC"])
    assert set(_ALT_NEXT[Card.parse("5H").id]) == ids(["6S", "6C", "7H", "7D"])
    assert set(_ALT_NEXT[Card.parse("QS").id]) == ids(["KH", "KD"])


# ---------------------------------------------------------------------- the collector, the check
@pytest.mark.parametrize("enabled", [True, False])
def test_solve_leaves_the_garbage_collector_as_it_found_it(enabled, monkeypatch):
    """`solve` pauses the cyclic collector during the search and switches it back on only if
    it was on, also when the search raises."""
    import gc

    seen = []
    real = api._solve

    def spy(*args):
        seen.append(gc.isenabled())
        return real(*args)

    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        monkeypatch.setattr(api, "_solve", spy)
        assert solve(sn.new_game("citadel", seed=76, takeback=False, autoplay=False), max_states=1000).status == "won"
        assert seen == [False] and gc.isenabled() is enabled

        def broken(*args):
            raise RuntimeError("boom")

        monkeypatch.setattr(api, "_solve", broken)
        with pytest.raises(RuntimeError):
            solve(sn.new_game("citadel", seed=1), max_states=10)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_line_that_does_not_win_is_refused():
    """The engine replay that turns a fast line into moves is also its check: a line cut
    short (a solver bug) raises instead of being returned; so does `_check_line`."""
    g = sn.new_game("beleaguered_castle", seed=1, takeback=False)
    spec = _Spec(g)
    status, line, _ = _fast_portfolio(spec, g, None, 5_000, 10**6)
    assert status == "won"
    moves = _described_moves(g, spec, line)
    assert len(moves) == len(line)
    with pytest.raises(AssertionError, match="solver bug"):
        _described_moves(g, spec, line[:-1])
    with pytest.raises(AssertionError, match="solver bug"):
        _check_line(g, moves[:-1])
    _check_line(g, moves)


def test_solve_without_a_thread_clock(monkeypatch):
    # Pyodide (JupyterLite) has no time.thread_time: the solver still answers.
    import time

    monkeypatch.delattr(time, "thread_time")
    result = solve(sn.new_game("citadel", seed=12), max_states=50_000)
    assert result.status == "won" and result.cpu_seconds >= 0


def _fast_won_reachable(fast: _Fast, limit: int) -> bool | None:
    """Whether a won position is reachable on the fast state by its plain moves (no pruning;
    its successors are the engine's, `test_fast_state_successors_equal_engine`), by
    depth-first search over its keys; None past `limit` positions."""
    seen = {fast.key()}
    stack = [fast.key()]
    while stack:
        _restore_fast(fast, stack.pop())
        if fast.won():
            return True
        for a, b in fast.moves():
            auto = fast.play(a, b)
            k = fast.key()
            if k not in seen:
                seen.add(k)
                stack.append(k)
            fast.undo(a, b, auto)
        if len(seen) > limit:
            return None
    return False


@pytest.mark.parametrize("autoplay", [False, True])
def test_castle_rule_8b_never_drops_a_win(autoplay):
    """Rule 8b (holes that take any card): random Beleaguered Castle endgames of 12–40 cards
    with every one of its eight piles holding a card, decided by a plain exhaustive search:
    the test drops none that can be won, and drops some that cannot (no pile can ever empty,
    and some card can never go home); with autoplay too."""
    rng = random.Random(81)
    counts: Counter = Counter()
    for _ in range(160):
        heights = {s: 13 for s in "SHDC"}
        for _ in range(rng.randrange(12, 41)):
            s = rng.choice([x for x in "SHDC" if heights[x] > 1])
            heights[s] -= 1
        in_play = [r + s for s in "SHDC" for r in RANKS[heights[s]:]]
        rng.shuffle(in_play)
        piles = {f"F{k}": _suit_run(s, 1, heights[s]) for k, s in enumerate("SHDC")}
        piles.update({f"T{i}": [in_play[i]] for i in range(8)})
        for c in in_play[8:]:
            piles[f"T{rng.randrange(8)}"].append(c)
        g = sn.Game.from_position("beleaguered_castle", piles, takeback=False, autoplay=autoplay)
        if not all(g.pile(f"T{i}") for i in range(8)):  # the autoplay emptied a pile
            continue
        stuck = _Fast(_Spec(g), g).stuck()
        truth = _fast_won_reachable(_Fast(_Spec(g), g), 5_000)
        if truth is None:
            continue
        assert not (stuck and truth), piles
        counts[stuck, truth] += 1
    assert counts[True, False] >= 3 and counts[False, True] >= 5, counts
    # with a hole, or a pile that could empty, the test never drops anything
    g = sn.Game.from_position("beleaguered_castle", {"F0": ["AS"], "T0": ["3S", "2S"], "T1": ["KH"]}, takeback=False)
    assert not _Fast(_Spec(g), g).stuck()


def test_castle_rule_8b_selected_by_data():
    """Rule 8b needs holes that take any card and no take-backs (autoplay or not)."""
    sel = {flags: _Spec(sn.new_game("beleaguered_castle", seed=1, takeback=flags[0], autoplay=flags[1])).hole_dead_ends
           for flags in [(False, False), (True, False), (False, True)]}
    assert sel == {(False, False): True, (True, False): False, (False, True): True}


def test_heuristic_disorder():
    """The disorder term (speed only): the cards lying above a lower card, and its change when
    a top card moves between two piles, which the best-first search adds up without
    recounting (`_disorder_change`) and must equal the recount."""
    from solitaire_nb.core.cards import Card
    from solitaire_nb.solver.heuristics import _disorder, _disorder_change

    def pile(codes: str) -> bytes:
        return bytes(Card.parse(c).id for c in codes.split())

    assert _disorder(pile("KS QH JC TD")) == 0  # a built run
    assert _disorder(pile("3D 9S 5H 2C")) == 2  # 9♠ and 5♥ lie above the 3♦; the 2♣ on none lower
    assert _disorder(pile("AH KD QS")) == 2  # above the Ace, whatever the suit
    assert _disorder(b"") == 0
    rng = random.Random(31)
    for _ in range(2000):
        cards = rng.sample(range(52), rng.randint(1, 20))
        cut = rng.randint(1, len(cards))
        src, dst = bytes(cards[:cut]), bytes(cards[cut:])
        after = _disorder(src[:-1]) + _disorder(dst + src[-1:])
        assert _disorder_change(src, dst) == after - _disorder(src) - _disorder(dst)
