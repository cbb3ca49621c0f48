"""The rules lab's first phase: the deal as data (games/layout.py) and `custom(like, **changes)`."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_nb as sn
from solitaire_nb.core.cards import CARDS, Card
from solitaire_nb.core.rules import Layout
from solitaire_nb.core.shuffle import deal_order
from solitaire_nb.games import GAMES
from solitaire_nb.games import custom as lab
from solitaire_nb.games.common import row_by_row
from solitaire_nb.games.layout import deal_layout

# ---------------------------------------------------------------- the deal hooks before the change
# Copied from the game modules as they were before the deal became data: the data-driven deal
# must give exactly these layouts.


def old_scotch(order: list[Card], rules) -> Layout:
    piles = row_by_row(order[:34], 17)
    for i, card in enumerate(order[34:]):
        piles.setdefault(f"T{i}", []).append(card)
    return Layout(piles)


def old_bakers_dozen(order: list[Card], rules) -> Layout:
    piles = row_by_row(order, 13)
    if rules.tableau.empty == "none":
        for pid, cards in piles.items():
            piles[pid] = [c for c in cards if c.rank == 13] + [c for c in cards if c.rank != 13]
    return Layout(piles)


def old_castle(order: list[Card], rules) -> Layout:
    to_foundations = rules.deal_to_foundations
    piles: dict[str, list[Card]] = {f"T{i}": [] for i in range(8)}
    piles.update({f"F{i}": [Card(1, s)] for i, s in enumerate("SHDC")})
    next_rank = dict.fromkeys("SHDC", 2)
    layout = Layout(piles)
    for i, card in enumerate(c for c in order if c.rank != 1):
        meant = f"T{i % 8}"
        if to_foundations and next_rank[card.suit] == card.rank:
            piles[f"F{'SHDC'.index(card.suit)}"].append(card)
            next_rank[card.suit] += 1
            layout.to_foundations.append(card)
            layout.meant_for.append(meant)
        else:
            piles[meant].append(card)
    return layout


OLD_DEALS = {
    "scotch": old_scotch,
    "bakers_dozen": old_bakers_dozen,
    "citadel": old_castle,
    "beleaguered_castle": old_castle,
}


def every_variant(name: str):
    definition = GAMES[name]
    keys = list(definition.variants)
    for values in itertools.product((False, True), repeat=len(keys)):
        yield dict(zip(keys, values, strict=True))


@pytest.mark.parametrize("name", list(OLD_DEALS))
def test_the_data_deal_is_the_old_deal_for_every_seed_and_variant(name):
    definition = GAMES[name]
    for variant in every_variant(name):
        rules = definition.rules_for(variant)
        for seed in range(1, 301):
            order = deal_order(seed, 1)
            new, old = definition.deal(list(order), rules), OLD_DEALS[name](list(order), rules)
            assert new.piles == old.piles, (name, variant, seed)
            assert new.to_foundations == old.to_foundations
            assert new.meant_for == old.meant_for
            assert deal_layout(list(order), rules).piles == old.piles


# ---------------------------------------------------------------- playing two games side by side


def dealt(game, seed):
    """A game of a name (with variant flags) or of a GameDef, dealt from deal n.º `seed`."""
    if isinstance(game, tuple):
        name, flags = game
        return sn.new_game(name, seed=seed, **flags)
    return sn.new_game(game, seed=seed)


def play_side_by_side(a, b, rng: random.Random, steps: int = 70) -> None:
    """Random play on both games: the same piles and the same legal moves at every step, and
    now and then an undo."""
    for _ in range(steps):
        assert a.piles == b.piles
        moves = a.legal_moves()
        assert set(moves) == set(b.legal_moves())
        assert a.is_won() == b.is_won()
        if a.moves_played and rng.random() < 0.1:
            assert a.undo() and b.undo()
            continue
        if not moves:
            return
        move = rng.choice(moves)
        step_a, step_b = a.move(move), b.move(move)
        assert step_a.automatic == step_b.automatic


EQUIVALENT = [
    *[((n, {}), lab.custom(n)) for n in lab.LIKES],
    (("citadel", {}), lab.custom("beleaguered_castle", deal_to_foundations=True, autoplay=True)),
    (("bakers_dozen", {"any_suit": True}), lab.custom("bakers_dozen", suits="any")),
    (("bakers_dozen", {"kings_to_bottom": False}), lab.custom("bakers_dozen", kings_to_bottom=False, empty="king")),
    (("beleaguered_castle", {"takeback": False}), lab.custom("beleaguered_castle", takeback=False)),
    (
        ("citadel", {"deal_to_foundations": False, "autoplay": False}),
        lab.custom("citadel", deal_to_foundations=False, autoplay=False),
    ),
    (("beleaguered_castle", {}), lab.custom("citadel", deal_to_foundations=False, autoplay=False)),
    (("citadel", {"deal_to_foundations": False, "autoplay": False}), ("beleaguered_castle", {})),
    (("scotch", {}), lab.custom("scotch", columns=18)),
]


@pytest.mark.parametrize("pair", EQUIVALENT, ids=lambda p: f"{p[0][0]}{p[0][1]}={getattr(p[1], 'name', p[1])}")
def test_equivalent_games_play_alike_step_by_step(pair):
    left, right = pair
    rng = random.Random(24)
    for seed in [1, 2, 3, 77, 1234, *rng.sample(range(5, 10**6), 15)]:
        a, b = dealt(left, seed), dealt(right, seed)
        assert a.deal == b.deal
        if a.deal_report is not None and b.deal_report is not None:
            assert a.deal_report == b.deal_report
        play_side_by_side(a, b, random.Random(seed))


def test_no_change_keeps_the_name_and_the_rules():
    for name in lab.LIKES:
        mine = lab.custom(name)
        assert mine.name == name and mine.display_name == GAMES[name].display_name
        assert mine.spec == {"like": name, "changes": {}}
        assert mine.variants == {}
        assert mine.rules_for() == GAMES[name].rules_for()
        assert dict(mine.rules) == dict(GAMES[name].rules)


# ---------------------------------------------------------------- what a change is


def test_readable_name_display_name_and_spec():
    mine = lab.custom("beleaguered_castle", empty="king", columns=10)
    assert mine.name == "beleaguered_castle+columns=10+empty=king"
    assert mine.display_name == "Beleaguered Castle con 10 columnas y huecos solo para Reyes"
    assert mine.spec == {"like": "beleaguered_castle", "changes": {"columns": 10, "empty": "king"}}
    assert json.loads(json.dumps(mine.spec)) == mine.spec
    assert mine.variants == {}
    r = mine.rules_for()
    assert r.tableau_count == 10 and r.tableau.empty == "king" and r.deal_rows is None
    assert r.aces_out and r.tableau == GAMES["beleaguered_castle"].rules_for().tableau.__class__(empty="king")
    assert mine.empty_pile == "Solo un Rey."
    assert lab.custom("citadel", deal_to_foundations=False, autoplay=False).display_name == (
        "Citadel sin cartas a la base durante el reparto y sin juego automático a la base"
    )
    assert lab.custom("scotch", foundation="same", takeback=False, columns=12).display_name == (
        "Scotch con 12 abanicos, bases por palo y sin devolver cartas de la base al juego"
    )


def test_changes_equal_to_the_like_rule_are_no_changes():
    mine = lab.custom("bakers_dozen", columns=13, suits="different", takeback=False, empty="king")
    assert mine.spec == {"like": "bakers_dozen", "changes": {"empty": "king"}}
    assert mine.name == "bakers_dozen+empty=king"


def test_same_changes_same_definition_and_rebuilt_from_name_and_spec():
    mine = lab.custom("scotch", aces_out=True, runs=True, suits="alt")
    assert lab.custom("scotch", suits="alt", runs=True, aces_out=True) is mine
    assert lab.custom_from_name(mine.name) is mine
    assert lab.from_spec(json.loads(json.dumps(mine.spec))) is mine


def test_each_change_sets_only_its_own_rule():
    base = GAMES["bakers_dozen"].rules_for()
    r = lab.custom("bakers_dozen", kings_to_bottom=False).rules_for()
    assert not r.kings_to_bottom and r.tableau == base.tableau  # the holes still stay empty
    r = lab.custom("beleaguered_castle", aces_out=False, foundation="alt").rules_for()
    assert not r.aces_out and all(f.suits == "alt" and f.start == "any" for f in r.foundations)
    r = lab.custom("beleaguered_castle", foundation="alt").rules_for()
    assert [f.start for f in r.foundations] == list("SHDC")  # the Aces are still put out by suit
    r = lab.custom("scotch", columns=9).rules_for()
    assert r.tableau_count == 9 and r.deal_rows is None and r.tableau == GAMES["scotch"].rules_for().tableau


def test_columns_changed_deal_row_by_row_over_the_new_count():
    g = sn.new_game(lab.custom("scotch", columns=10), seed=3)
    order = list(g.deal)
    for i in range(10):
        assert list(g.piles[f"T{i}"]) == order[i::10]
    g = sn.new_game(lab.custom("beleaguered_castle", columns=20), seed=3)
    non_aces = [c for c in g.deal if c.rank != 1]
    assert [len(g.piles[f"T{i}"]) for i in range(20)] == [3] * 8 + [2] * 12
    assert list(g.piles["T9"]) == non_aces[9::20]


def test_aces_dealt_with_the_rest_go_home_during_the_deal_onto_any_foundation():
    front = ["2D", "AH", "KS", "2S", "AS", "2H"]
    deck = front + [c.code for c in CARDS if c.code not in front]
    mine = lab.custom("beleaguered_castle", aces_out=False, deal_to_foundations=True)
    g = sn.new_game(mine, deck=deck)
    # 2D (meant for T0) finds no foundation; AH (T1) starts one; KS (T2) and 2S (T3) stay, the
    # 2S because no foundation holds the A♠ yet; AS (T4) starts the next; 2H (T5) follows AH.
    assert [c.code for c in g.deal_report.to_foundations][:3] == ["AH", "AS", "2H"]
    assert g.deal_report.meant_for[:3] == ("T1", "T4", "T5")
    assert [c.code for c in g.piles["F1"]] == ["AS"]
    assert g.piles["T0"][0].code == "2D" and g.piles["T3"][0].code == "2S"
    assert [c.code for c in g.piles["F0"]][:3] == ["AH", "2H", "3H"]
    g.validate()


def test_alternating_foundations_during_the_deal():
    deck = ["AS", "2H", "2S", "3C", *[c.code for c in CARDS if c.code not in ("AS", "2H", "2S", "3C")]]
    g = sn.new_game(lab.custom("scotch", deal_to_foundations=True), deck=deck)
    assert [c.code for c in g.piles["F0"]][:4] == ["AS", "2H", "3C", "4H"]  # 4H: red on the 3C
    assert g.piles["T2"][0].code == "2S"
    assert g.deal_report.meant_for == ("T0", "T1", "T3") + g.deal_report.meant_for[3:]


def test_composed_rule_sentences_replace_the_changed_rules():
    mine = lab.custom("beleaguered_castle", empty="king", autoplay=True)
    assert "CB-5" not in mine.rules and "CB-8" not in mine.rules and "CB-7" not in mine.rules
    assert "CB-4" in mine.rules and "CB-1" in mine.rules
    said = lab.changed_rules(mine)
    assert set(said) == {"empty", "autoplay"}
    assert said["empty"] == "Solo un Rey puede ocupar un hueco."
    assert said["autoplay"].startswith("Juego automático a la base")
    assert "LAB-deal_to_foundations" in mine.rules  # CB-8 spoke of both: both are rewritten
    assert lab.refusal_rule_ids(mine)["empty_king"] == "LAB-empty"
    order = list(mine.rules)  # each new sentence where the one it replaces was
    assert order.index("CB-4") < order.index("LAB-empty") < order.index("LAB-takeback") < order.index("LAB-autoplay")
    assert "CB-6" not in mine.rules  # it spoke of holes too
    assert lab.changed_rules(GAMES["citadel"]) == {}


# ---------------------------------------------------------------- any composition deals soundly

CHANGE_VALUES = {
    "columns": st.integers(4, 20),
    **{k: st.sampled_from(v) for k, v in lab.CHOICES.items()},
    **{k: st.booleans() for k in lab.FLAGS},
}


@st.composite
def compositions(draw):
    like = draw(st.sampled_from(lab.LIKES))
    keys = draw(st.sets(st.sampled_from(lab.CHANGES)))
    return like, {k: draw(CHANGE_VALUES[k]) for k in keys}


@settings(max_examples=60, deadline=None)
@given(compositions(), st.integers(1, 10**6))
def test_any_composition_deals_a_position_play_can_reach(composition, seed):
    like, changes = composition
    mine = lab.custom(like, **changes)
    assert lab.custom_from_name(mine.name) is mine
    r = mine.rules_for()
    g = sn.new_game(mine, seed=seed)
    g.validate()  # the whole deck, foundations legal sequences
    assert len(g.tableau_ids) == r.tableau_count
    home = g.foundation_cards()
    assert home >= (4 if r.aces_out else 0)
    if not r.deal_to_foundations and not r.autoplay:
        assert home == (4 if r.aces_out else 0)
    if r.kings_to_bottom and not r.autoplay:
        for pid in g.tableau_ids:
            ranks = [c.rank == 13 for c in g.piles[pid]]
            assert ranks == sorted(ranks, reverse=True)
    for _ in range(5):
        moves = [m for m in g.legal_moves() if m.src != m.dst]  # see the test below
        if moves:
            g.move(moves[0])


def test_an_up_and_down_run_is_never_offered_onto_its_own_pile():
    mine = lab.custom("scotch", columns=4, build="updown", runs=True, empty="any", foundation="same")
    g = sn.new_game(mine, seed=1)
    assert all(m.src != m.dst for m in g.legal_moves())


# ---------------------------------------------------------------- bad input

BAD = [
    ({"columns": 25}, "columns debe ser un entero entre 4 y 20, no 25"),
    ({"columns": 3}, "columns debe ser un entero entre 4 y 20, no 3"),
    ({"columns": "10"}, "columns debe ser un entero entre 4 y 20, no '10'"),
    ({"columns": True}, "columns debe ser un entero entre 4 y 20, no True"),
    ({"build": "up"}, "build debe ser 'down' o 'updown', no 'up'"),
    ({"suits": 1}, "suits debe ser 'any', 'same', 'alt' o 'different', no 1"),
    ({"empty": "kings"}, "empty debe ser 'any', 'king' o 'none', no 'kings'"),
    ({"foundation": "down"}, "foundation debe ser 'same' o 'alt', no 'down'"),
    ({"runs": "yes"}, "runs debe ser True o False, no 'yes'"),
    ({"autoplay": 1}, "autoplay debe ser True o False, no 1"),
    ({"wrap": True}, "custom no tiene el cambio 'wrap' (cambios: columns, build, suits"),
]


@pytest.mark.parametrize(("changes", "message"), BAD)
def test_bad_changes_are_refused_in_spanish_and_create_nothing(changes, message):
    before = dict(lab._CACHE)
    with pytest.raises(ValueError) as exc:
        lab.custom("beleaguered_castle", **{"empty": "king", **changes})
    assert message in str(exc.value)
    assert lab._CACHE == before


@pytest.mark.parametrize("like", ["chequers", "moving_left", "Citadel", None, 3, GAMES["chequers"]])
def test_only_the_four_games_are_bases(like):
    with pytest.raises(
        ValueError, match="like debe ser uno de estos juegos: scotch, bakers_dozen, citadel, beleaguered_castle"
    ):
        lab.custom(like)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("beleaguered_castle+columns", "cada cambio se escribe cambio=valor"),
        ("beleaguered_castle+columns=10+columns=11", "aparece dos veces"),
        ("beleaguered_castle+columns=x", "columns debe ser un entero entre 4 y 20, no 'x'"),
        ("beleaguered_castle+runs=si", "runs debe ser True o False, no 'si'"),
        ("klondike+columns=10", "like debe ser uno de estos juegos"),
        ("citadel+like=scotch", "custom no tiene el cambio 'like'"),
        ("", "El nombre de un juego debe ser un texto"),
    ],
)
def test_bad_names_are_refused(name, message):
    with pytest.raises(ValueError, match=message):
        lab.custom_from_name(name)


@pytest.mark.parametrize(
    "spec",
    [
        None,
        [],
        {"like": "citadel"},
        {"like": "citadel", "changes": []},
        {"like": "citadel", "changes": {1: 2}},
        {"like": "citadel", "changes": {}, "x": 1},
    ],
)
def test_bad_specs_are_refused(spec):
    with pytest.raises(ValueError, match="juego compuesto"):
        lab.from_spec(spec)


def test_a_composed_game_pickles_for_worker_processes():
    import pickle

    mine = lab.custom("bakers_dozen", columns=10, suits="alt")
    back = pickle.loads(pickle.dumps(mine))
    assert back.name == mine.name and back.spec == mine.spec and back.rules_for() == mine.rules_for()


def refused_rule_ids(definition, seeds=range(1, 6)) -> set[str | None]:
    """The rule ids refusals cite over a few deals (every pile to every pile, some play)."""
    out = set()
    for seed in seeds:
        g = sn.new_game(definition, seed=seed)
        rng = random.Random(seed)
        for _ in range(15):
            for src in g.pile_ids:
                for dst in g.pile_ids:
                    if src != dst and not g.can_move(src, dst):
                        try:
                            g.move(src, dst)
                        except sn.IllegalMove as exc:
                            out.add(exc.rule)
            moves = g.legal_moves()
            if not moves:
                break
            g.move(rng.choice(moves))
    return out


@pytest.mark.parametrize(
    "mine",
    [
        lab.custom("bakers_dozen", empty="king", takeback=True),
        lab.custom("scotch", suits="same", empty="any"),
        lab.custom("beleaguered_castle", empty="none", takeback=False, foundation="alt"),
    ],
    ids=lambda d: d.name,
)
def test_every_refusal_on_a_composed_game_cites_one_of_its_rules(mine):
    assert refused_rule_ids(mine) - {None} <= set(mine.rules)
