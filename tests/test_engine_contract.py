"""One contract for every game and variant (random play, undo, JSON, copies), run over the
registry, plus the API's error handling."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import VARIANT_IDS, VARIANTS, pos
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solitaire_nb as sn
from solitaire_nb.core.cards import new_deck


def all_cards(g: sn.Game) -> Counter:
    return Counter(c for cards in g.piles.values() for c in cards)


def play_randomly(g: sn.Game, actions: list[int]) -> None:
    """Play the legal move each action picks, until the actions or the legal moves run out."""
    for a in actions:
        legal = g.legal_moves()
        if not legal:
            break
        g.move(legal[a % len(legal)])


def brute_force_legal(g: sn.Game) -> set[str]:
    """Every (src, dst, count) `can_move` accepts, tried exhaustively."""
    out = set()
    for src in g.pile_ids:
        for dst in g.pile_ids:
            for count in range(1, max(1, len(g.piles[src])) + 1):
                if g.can_move(src, dst, count):
                    out.add(str(sn.Move(src, dst, count)))
    return out


@pytest.mark.parametrize("name, variant", VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), actions=st.lists(st.integers(0, 10_000), min_size=5, max_size=60))
def test_random_play_conserves_cards_and_undo_is_exact(name, variant, seed, actions):
    g = sn.new_game(name, seed=seed, **variant)
    deck = Counter(new_deck(g.definition.decks))
    history: list[dict] = [g.position()]
    for a in actions:
        assert all_cards(g) == deck
        legal = g.legal_moves()
        assert len(set(legal)) == len(legal), "duplicate moves"
        if a % 7 == 0 and g.moves_played:
            assert g.undo()
            history.pop()
            assert g.position() == history[-1]
        elif a % 11 == 0 and g.redo():
            history.append(g.position())
        elif legal:
            move = legal[a % len(legal)]
            assert g.can_move(move.src, move.dst, move.n_cards) and g.why_not(move) is None
            g.move(move)
            history.append(g.position())
        assert g.moves_played == len(history) - 1
        assert g.is_stuck() == (not g.is_won() and not g.legal_moves())
    # Undo everything: back to the deal.
    while g.undo():
        history.pop()
        assert g.position() == history[-1]
    assert g.undo() is False and g.moves_played == 0


@pytest.mark.parametrize("name, variant", VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), actions=st.lists(st.integers(0, 10_000), min_size=0, max_size=25))
def test_legal_moves_are_exactly_what_move_accepts(name, variant, seed, actions):
    g = sn.new_game(name, seed=seed, **variant)
    play_randomly(g, actions)
    assert {str(m) for m in g.legal_moves()} == brute_force_legal(g)


@pytest.mark.parametrize("name, variant", VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    actions=st.lists(st.integers(0, 10_000), max_size=40),
    undos=st.integers(0, 5),
)
def test_json_round_trip_gives_same_position_and_history(name, variant, seed, actions, undos):
    g = sn.new_game(name, seed=seed, **variant)
    play_randomly(g, actions)
    for _ in range(undos):
        g.undo()
    h = sn.load_game(g.to_json())
    assert h.position() == g.position()
    assert h.history == g.history
    assert (h.name, h.seed, h.variant) == (g.name, g.seed, g.variant)
    assert h.legal_moves() == g.legal_moves()
    assert json.loads(h.to_json()) == json.loads(g.to_json())
    assert_renders(h)


def assert_renders(g: sn.Game) -> None:
    """The static picture (what a bare `g` shows) parses, shows every face-up tableau card and
    no card that is face down (foundations, reserve and waste show their top card only)."""
    import xml.etree.ElementTree as ET

    svg = g._repr_svg_()
    root = ET.fromstring(svg)
    shown = Counter(el.get("data-card") for el in root.iter() if el.get("data-card"))
    face_up = Counter(
        c.code for p in g.pile_ids for i, c in enumerate(g.piles[p]) if i >= g.face_down(p)
    )
    tableau = Counter(
        c.code for p in g.pile_ids if p[0] == "T" for i, c in enumerate(g.piles[p]) if i >= g.face_down(p)
    )
    assert not tableau - shown, "a face-up tableau card is missing from the picture"
    assert not shown - face_up, "the picture shows a card that is not face up"


@pytest.mark.parametrize("name, variant", VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    src=st.sampled_from(["T0", "T3", "T9", "T17", "T24", "F0", "F3", "F7", "R", "S", "W", "X", "T99", "", "t0"]),
    dst=st.sampled_from(["T1", "T2", "T12", "F0", "F1", "F5", "R", "S", "W", "Z9"]),
    count=st.one_of(st.integers(-2, 15), st.sampled_from([None, "2", 1.5, True])),
)
def test_random_moves_are_refused_cleanly_unless_legal(name, variant, seed, src, dst, count):
    g = sn.new_game(name, seed=seed, **variant)
    before = g.position()
    legal = {str(m) for m in g.legal_moves()}
    reason = g.why_not(src, dst, count)
    try:
        g.move(src, dst, count)
    except sn.IllegalMove as exc:
        assert exc.reason == reason and isinstance(reason, str) and reason
        assert g.position() == before and g.moves_played == 0
    else:
        assert reason is None
        assert str(sn.Move(src, dst, count)) in legal


@pytest.mark.parametrize("name, variant", VARIANTS, ids=VARIANT_IDS)
def test_copy_is_independent(name, variant):
    g = sn.new_game(name, seed=42, **variant)
    c = g.copy()
    legal = c.legal_moves()
    if legal:
        c.move(legal[0])
        assert c.position() != g.position() or c.moves_played != g.moves_played
        assert g.moves_played == 0
    assert g.position() == sn.new_game(name, seed=42, **variant).position()


@pytest.mark.parametrize("name, variant", VARIANTS, ids=VARIANT_IDS)
def test_numbered_deals_are_reproducible_and_recorded(name, variant):
    a = sn.new_game(name, seed=1234, **variant)
    b = sn.new_game(name, seed=1234, **variant)
    assert a.position() == b.position() and a.seed == 1234
    c = sn.new_game(name, **variant)
    assert isinstance(c.seed, int)
    assert sn.new_game(name, seed=c.seed, **variant).position() == c.position()
    d = sn.new_game(name, deck=[x.code for x in a.deal], **variant)
    assert d.position() == a.position()


def test_numbered_deal_is_stable_across_versions():
    """Deal 1's first cards are fixed forever (the shuffle is documented in shuffle.py)."""
    order = [c.code for c in sn.new_game("beleaguered_castle", seed=1).deal]
    assert order[:10] == ["7H", "9S", "4H", "8D", "8H", "5C", "JH", "6H", "9C", "JS"]
    assert len(set(order)) == 52
    two = [c.code for c in sn.new_game("chequers", seed=1).deal]
    assert two[:10] == ["6D", "7D", "JS", "8S", "KC", "7H", "6C", "8S", "6S", "9S"]
    assert [c.code for c in sn.new_game("citadel", seed=1).deal] == order


def test_splitmix64_matches_the_published_reference_values():
    from solitaire_nb.core.shuffle import splitmix64

    draws = splitmix64(1234567)
    assert [next(draws), next(draws)] == [6457827717110365317, 3203168211198807973]


def test_api_errors_name_the_problem():
    with pytest.raises(ValueError, match="klondike"):
        sn.new_game("klondike")
    with pytest.raises(ValueError, match="colour"):
        sn.new_game("citadel", colour=True)
    with pytest.raises(ValueError, match="True o False"):
        sn.new_game("citadel", autoplay="yes")
    with pytest.raises(ValueError, match="faltan AS"):
        sn.new_game("scotch", deck=[c.code for c in new_deck()][1:])
    with pytest.raises(ValueError, match="sobran"):
        sn.new_game("scotch", deck=[c.code for c in new_deck()] + ["QS"])
    with pytest.raises(ValueError, match="faltan"):
        sn.new_game("chequers", deck=[c.code for c in new_deck()])
    with pytest.raises(ValueError, match="'ZZ'"):
        sn.new_game("scotch", deck=["ZZ"] + [c.code for c in new_deck()][1:])
    with pytest.raises(ValueError):
        sn.new_game("scotch", seed=-1)


def test_from_position_validation():
    full = {f"T{i}": [] for i in range(13)}
    deck = [c.code for c in new_deck()]
    for i, code in enumerate(deck):
        full[f"T{i % 13}"].append(code)
    g = sn.Game.from_position("bakers_dozen", full)
    assert g.moves_played == 0 and sorted(c.code for p in g.piles.values() for c in p) == sorted(deck)
    broken = dict(full, T0=full["T0"][1:])
    assert sn.Game.from_position("bakers_dozen", broken).is_practice  # a card short: practice
    assert not g.is_practice
    swapped = dict(full, T0=[full["T1"][0]] + full["T0"][1:])
    with pytest.raises(ValueError, match="faltan"):
        sn.Game.from_position("bakers_dozen", swapped)
    with pytest.raises(ValueError, match="T99"):
        sn.Game.from_position("bakers_dozen", dict(full, T99=[]))
    bad_found = dict(full, T0=full["T0"][1:], F0=[full["T0"][0]])
    if not full["T0"][0].startswith("A"):
        with pytest.raises(ValueError, match="Base 1"):
            sn.Game.from_position("bakers_dozen", bad_found)
    with pytest.raises(ValueError, match="boca abajo"):
        sn.Game.from_position("bakers_dozen", full, face_down={"T0": 1})
    # Partial teaching positions are practice positions.
    assert pos("bakers_dozen", {"T0": "9H"}).piles["T0"][0].code == "9H"


def test_from_position_rejects_unreachable_chequers_and_moving_left_positions():
    g = sn.new_game("chequers", seed=2)
    piles = {p: [c.code for c in cards] for p, cards in g.piles.items()}
    assert sn.Game.from_position("chequers", piles).position() == g.position()
    hole = dict(piles, T0=[], T1=piles["T1"] + piles["T0"])
    with pytest.raises(ValueError, match="reserva"):
        sn.Game.from_position("chequers", hole)
    with pytest.raises(ValueError, match="boca abajo"):
        sn.Game.from_position("chequers", piles, face_down={"R": 0})
    m = sn.new_game("moving_left", seed=2)
    mp = {p: [c.code for c in cards] for p, cards in m.piles.items()}
    fd = {p: m.face_down(p) for p in m.pile_ids}
    assert sn.Game.from_position("moving_left", mp, fd).position() == m.position()
    with pytest.raises(ValueError, match="boca abajo"):
        sn.Game.from_position("moving_left", mp, dict(fd, T3=4))  # top card face down
    with pytest.raises(ValueError, match="boca abajo"):
        sn.Game.from_position("moving_left", mp, dict(fd, S=3))


def test_from_position_runs_no_automatic_action():
    g = pos("citadel", {"F0": "AS", "T0": "2S"})
    assert [c.code for c in g.piles["T0"]] == ["2S"]


@pytest.mark.parametrize(
    "mangle",
    [
        lambda d: "not json",
        lambda d: json.dumps([1, 2]),
        lambda d: json.dumps({**d, "format": "other"}),
        lambda d: json.dumps({**d, "moves": d["moves"] + ["T0>T0"]}),
        lambda d: json.dumps({**d, "moves": ["__import__('os')"]}),
        lambda d: json.dumps({**d, "position": {"piles": {}}}),
        lambda d: json.dumps({**d, "seed": d["seed"] + 1}),
        lambda d: json.dumps({k: v for k, v in d.items() if k != "deal"}),
        lambda d: json.dumps({**d, "variant": {"autoplay": "no"}}),
        lambda d: json.dumps({**d, "game": "klondike"}),
        lambda d: json.dumps({**d, "deal": d["deal"][:-1]}),
        lambda d: json.dumps(d)[:-20],
    ],
)
def test_tampered_documents_raise_value_error(mangle):
    g = sn.new_game("citadel", seed=9)
    for _ in range(3):
        g.move(g.legal_moves()[0])
    with pytest.raises(ValueError):
        sn.load_game(mangle(json.loads(g.to_json())))


def test_load_game_of_a_hand_built_position():
    g = pos("scotch", {"F0": "AS 2H", "T0": "3C", "T1": "4D"})
    g.move("T0", "F0")
    h = sn.load_game(g.to_json())
    assert h.position() == g.position() and h.history == g.history


def test_steps_and_history_describe_every_move():
    g = pos("chequers", {"T0": "AS", "T1": "9D", "R": "3D 9C"}, {"R": 1})
    g.move("T0", "F0")
    (step,) = g.steps()
    assert str(step.move) == "T0>F0" and [c.code for c in step.cards] == ["AS"]
    assert step.automatic[0] == sn.Action("R", "T0", (sn.Card.parse("9C"),))
    assert g.history == (sn.Move("T0", "F0"),)


def test_new_move_after_undo_drops_the_redo_branch():
    g = sn.new_game("beleaguered_castle", seed=3)
    first, second = g.legal_moves()[:2]
    g.move(first)
    g.undo()
    g.move(second)
    assert g.redo() is False
    assert g.history == (second,)


def test_games_registry_describes_each_game():
    expected = {
        "chequers": ("Chequers", 2),
        "moving_left": ("Moving Left", 2),
        "scotch": ("Scotch", 1),
        "bakers_dozen": ("Baker's Dozen", 1),
        "citadel": ("Citadel", 1),
        "beleaguered_castle": ("Beleaguered Castle", 1),
    }
    assert {n: (d.display_name, d.decks) for n, d in sn.GAMES.items()} == expected
    assert sn.GAMES["chequers"].pile_counts == {"tablero": 25, "base": 8, "reserva": 1, "mazo": 0, "descarte": 0}
    assert sn.GAMES["moving_left"].defaults == {"shift_left": False}
    assert sn.GAMES["bakers_dozen"].defaults == {"any_suit": False, "kings_to_bottom": True}
    assert sn.GAMES["citadel"].defaults == {"deal_to_foundations": True, "autoplay": True, "takeback": True}
    assert sn.GAMES["beleaguered_castle"].defaults == {
        "deal_to_foundations": False,
        "autoplay": False,
        "takeback": True,
    }
    for d in sn.GAMES.values():
        assert d.tableau_builds and d.empty_pile and d.automatic


def test_import_stays_light():
    import subprocess
    import sys

    code = (
        "import sys, solitaire_nb as s; s.new_game('citadel', seed=1);"
        "heavy = [m for m in ('numpy', 'ipywidgets', 'anywidget', 'matplotlib', 'traitlets') if m in sys.modules];"
        "print(heavy); sys.exit(1 if heavy else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
