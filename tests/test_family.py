"""The vectorised dealer of the one-deck open family (solitaire_nb/study/family.py) and the deal
layout as Rules data: the built-in games' Rules describe their deals exactly, the dealer agrees
with the rules engine deck by deck, and composed combinations of the layout flags agree with a
slow reference dealer written here in plain Python (itself checked against the engine)."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import solitaire_nb as sn
from solitaire_nb import study
from solitaire_nb.core.cards import CARDS, SUIT_CODES
from solitaire_nb.core.rules import FoundationRule
from solitaire_nb.study.family import NO_CARD, check_family, deal_family, deal_targets, family_problem

FAMILY = ("scotch", "bakers_dozen", "citadel", "beleaguered_castle")


def family_variants() -> list[tuple[str, dict[str, bool]]]:
    out = []
    for name in FAMILY:
        flags = list(sn.GAMES[name].variants)
        for values in itertools.product([False, True], repeat=len(flags)):
            out.append((name, dict(zip(flags, values, strict=True))))
    return out


VARIANTS = family_variants()
VARIANT_IDS = [name + "".join(f"-{k}={int(v)}" for k, v in flags.items()) for name, flags in VARIANTS]


def special_decks() -> np.ndarray:
    """Orders that stress the deal: new-deck order (every card goes home in turn), its reverse,
    ranks dealt in rounds, and that reversed."""
    new_deck = np.arange(52, dtype=np.uint8)
    by_rank = np.array([s * 13 + r for r in range(13) for s in range(4)], dtype=np.uint8)
    return np.stack([new_deck, new_deck[::-1], by_rank, by_rank[::-1]])


@pytest.fixture(scope="module")
def decks() -> np.ndarray:
    return np.concatenate([special_decks(), study.draw_decks(200, seed=2024)])


# ----------------------------------------------------------------------------- the reference
def _accepts(rule: FoundationRule, pile: list[int], cid: int) -> bool:
    card = CARDS[cid]
    if not pile:
        return card.rank == 1 and rule.start in ("any", card.suit)
    top = CARDS[pile[-1]]
    if card.rank != top.rank + 1:
        return False
    return card.suit == top.suit if rule.suits == "same" else card.color != top.color


def _home(rules, foundations: list[list[int]], cid: int) -> bool:
    """The engine's choice: the first foundation that takes the card."""
    for rule, pile in zip(rules.foundations, foundations, strict=True):
        if _accepts(rule, pile, cid):
            pile.append(cid)
            return True
    return False


def reference_deal(order: list[int], rules) -> dict:
    """The deal of `order` (card ids) under `rules`, one card at a time, as the Rules fields'
    comments describe it: Aces out, the rounds, deal-time plays, Kings to the bottom, autoplay."""
    foundations: list[list[int]] = [[] for _ in rules.foundations]
    if rules.aces_out:
        free = [s for s in SUIT_CODES if s not in {f.start for f in rules.foundations}]
        for pile, rule in zip(foundations, rules.foundations, strict=True):
            suit = rule.start if rule.start in SUIT_CODES else free.pop(0)
            pile.append(SUIT_CODES.index(suit) * 13)
        order = [c for c in order if c % 13]
    piles: list[list[int]] = [[] for _ in range(rules.tableau_count)]
    targets = []
    rows = list(rules.deal_rows or ())
    while len(targets) < len(order):
        reach = rows.pop(0) if rows else rules.tableau_count
        targets += list(range(reach))
    home = 0
    for cid, target in zip(order, targets, strict=False):
        if rules.deal_to_foundations and _home(rules, foundations, cid):
            home += 1
        else:
            piles[target].append(cid)
    if rules.kings_to_bottom:
        piles = [[c for c in p if c % 13 == 12] + [c for c in p if c % 13 != 12] for p in piles]
    after_deal = [list(p) for p in piles]
    moved = 0
    going = rules.autoplay
    while going:  # the engine's autoplay: passes left to right until one moves nothing
        going = False
        for p in piles:
            if p and _home(rules, foundations, p[-1]):
                p.pop()
                moved += 1
                going = True
    return {"after_deal": after_deal, "piles": piles, "home": home, "moved": moved, "foundations": foundations}


def engine_piles(game) -> list[list[int]]:
    return [[c.id for c in game.pile(pid)] for pid in game.tableau_ids]


def codes(deck) -> list[str]:
    return study.deck_codes(deck)


# ----------------------------------------------------------------------------- Rules as data
def test_the_games_declare_their_layout():
    assert sn.GAMES["scotch"].rules_for().deal_rows == (17, 17, 18)
    for name in ("citadel", "beleaguered_castle"):
        assert sn.GAMES[name].rules_for().aces_out
    bd = sn.GAMES["bakers_dozen"]
    assert bd.rules_for().kings_to_bottom
    assert not bd.rules_for({"kings_to_bottom": False}).kings_to_bottom
    for name in ("chequers", "moving_left"):  # defaults leave the other games unchanged
        r = sn.GAMES[name].rules_for()
        assert (r.deal_rows, r.aces_out, r.kings_to_bottom) == (None, False, False)


def test_deal_targets_follow_the_rounds():
    piles, slots = deal_targets(sn.GAMES["scotch"].rules_for())
    assert np.bincount(piles).tolist() == [3] * 17 + [1]
    assert piles[:17].tolist() == list(range(17)) and piles[34:].tolist() == list(range(18))
    assert slots[34:].tolist() == [2] * 17 + [0]
    bc = sn.GAMES["beleaguered_castle"].rules_for()
    piles, slots = deal_targets(bc)
    assert len(piles) == 48 and piles.tolist() == [i % 8 for i in range(48)]
    assert slots.tolist() == [i // 8 for i in range(48)]
    # rounds past the listed ones reach every pile; the deal stops when the cards run out
    piles, _ = deal_targets(dataclasses.replace(bc, deal_rows=(2,), aces_out=False))
    assert piles[:2].tolist() == [0, 1] and piles[2:10].tolist() == list(range(8)) and len(piles) == 52


@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=VARIANT_IDS)
def test_reference_dealer_is_the_engine(name, variant, decks):
    rules = sn.GAMES[name].rules_for(variant)
    for deck in decks[:60]:
        game = sn.new_game(name, deck=codes(deck), **variant)
        ref = reference_deal(deck.tolist(), rules)
        assert ref["piles"] == engine_piles(game)
        assert ref["foundations"] == [[c.id for c in game.pile(f)] for f in game.foundation_ids]


# ----------------------------------------------------------------------------- against the engine
@pytest.mark.rule("SC-1")
@pytest.mark.rule("BD-1")
@pytest.mark.rule("BD-2")
@pytest.mark.rule("CB-1")
@pytest.mark.rule("CB-2")
@pytest.mark.rule("CB-7")
@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=VARIANT_IDS)
def test_vectorised_dealer_is_the_engine_deal_by_deal(name, variant, decks):
    rules = sn.GAMES[name].rules_for(variant)
    deal = deal_family(decks, rules)
    no_autoplay = {**variant, "autoplay": False} if "autoplay" in variant else None
    for d, deck in enumerate(decks):
        game = sn.new_game(name, deck=codes(deck), **variant)
        assert list(deal.piles(d).values()) == engine_piles(game), d
        assert deal.foundation_cards[d] == sum(len(game.pile(f)) for f in game.foundation_ids)
        report = game.deal_report
        if report is not None:
            assert deal.home_in_deal[d] == len(report.to_foundations)
            assert deal.autoplay_moved[d] == len(report.autoplay)
        if no_autoplay is not None:
            dealt = sn.new_game(name, deck=codes(deck), **no_autoplay)
            assert list(deal.piles(d, after_autoplay=False).values()) == engine_piles(dealt), d


def test_citadel_agrees_with_the_study(decks):
    """The study's own vectorised deal of Citadel and Beleaguered Castle gives the same records."""
    records = study.deal_decks(decks)
    citadel = deal_family(decks, sn.GAMES["citadel"].rules_for())
    castle = deal_family(decks, sn.GAMES["beleaguered_castle"].rules_for())
    np.testing.assert_array_equal(citadel.lengths, records.citadel.lengths)
    np.testing.assert_array_equal(citadel.after_deal, records.after_deal.lengths)
    np.testing.assert_array_equal(citadel.home_in_deal, records.home_in_deal)
    np.testing.assert_array_equal(citadel.autoplay_moved, records.autoplay_moved)
    np.testing.assert_array_equal(castle.lengths, records.beleaguered.lengths)


# ----------------------------------------------------------------------------- composed rules
def composed(base: str, **changes):
    return dataclasses.replace(sn.GAMES[base].rules_for(), **changes)


ALT = (FoundationRule("up", "alt", "any"),) * 4
TIED = tuple(FoundationRule("up", "same", s) for s in SUIT_CODES)
ANY = (FoundationRule("up", "same", "any"),) * 4
TIED_ALT = tuple(FoundationRule("up", "alt", s) for s in SUIT_CODES)

COMPOSED = {
    "castle-10-columns": composed("beleaguered_castle", tableau_count=10),
    "citadel-4-columns": composed("citadel", tableau_count=4),
    "citadel-alt-foundations": composed("citadel", foundations=ALT),
    "citadel-bd-columns-kings": composed("citadel", tableau_count=13, kings_to_bottom=True),
    "scotch-deal-and-autoplay": composed("scotch", deal_to_foundations=True, autoplay=True),
    "scotch-aces-out": composed("scotch", aces_out=True, autoplay=True),
    "bd-citadel-deal": composed("bakers_dozen", deal_to_foundations=True, autoplay=True, foundations=TIED),
    "bd-20-columns-alt": composed("bakers_dozen", tableau_count=20, foundations=ALT, deal_to_foundations=True,
                                  autoplay=True),
    "castle-aces-in-deck": composed("citadel", aces_out=False, deal_rows=(3, 8, 5)),
    "castle-tied-alt": composed("citadel", foundations=TIED_ALT, kings_to_bottom=True),
}


@pytest.mark.parametrize("key", list(COMPOSED))
def test_composed_rules_agree_with_the_reference(key):
    rules = COMPOSED[key]
    decks = np.concatenate([special_decks(), study.draw_decks(150, seed=7)])
    deal = deal_family(decks, rules, chunk=64)  # several chunks: the results are stitched
    for d, deck in enumerate(decks):
        ref = reference_deal(deck.tolist(), rules)
        assert list(deal.piles(d).values()) == ref["piles"], d
        assert list(deal.piles(d, after_autoplay=False).values()) == ref["after_deal"], d
        assert (deal.home_in_deal[d], deal.autoplay_moved[d]) == (ref["home"], ref["moved"]), d
        assert deal.foundation_cards[d] == sum(map(len, ref["foundations"]))


def rules_strategy():
    base = hst.sampled_from(FAMILY).map(lambda name: sn.GAMES[name].rules_for())
    columns = hst.integers(4, 20)

    def build(args):
        rules, count, rows, aces, kings, to_f, auto, fnd = args
        rows = tuple(min(r, count) for r in rows) if rows else None
        return dataclasses.replace(rules, tableau_count=count, deal_rows=rows, aces_out=aces, kings_to_bottom=kings,
                                   deal_to_foundations=to_f, autoplay=auto, foundations=fnd)

    return hst.tuples(
        base, columns, hst.none() | hst.lists(hst.integers(1, 20), min_size=1, max_size=6), hst.booleans(),
        hst.booleans(), hst.booleans(), hst.booleans(), hst.sampled_from([ANY, TIED, ALT, TIED_ALT]),
    ).map(build)


@settings(max_examples=120, deadline=None)
@given(rules=rules_strategy(), deck=hst.permutations(range(52)))
def test_any_composition_agrees_with_the_reference(rules, deck):
    deal = deal_family(np.array([deck], dtype=np.uint8), rules)
    ref = reference_deal(list(deck), rules)
    assert list(deal.piles(0).values()) == ref["piles"]
    assert list(deal.piles(0, after_autoplay=False).values()) == ref["after_deal"]
    assert (deal.home_in_deal[0], deal.autoplay_moved[0]) == (ref["home"], ref["moved"])


# ----------------------------------------------------------------------------- the records
def test_records_keep_every_card():
    rules = composed("citadel", tableau_count=6, kings_to_bottom=True)
    decks = study.draw_decks(300, seed=4)
    deal = deal_family(decks, rules)
    assert deal.n == 300 and deal.columns == 6
    np.testing.assert_array_equal(deal.on_table + deal.foundation_cards, 52)
    np.testing.assert_array_equal(deal.foundation_cards, 4 + deal.home_in_deal.astype(int) + deal.autoplay_moved)
    np.testing.assert_array_equal(deal.on_table_after_deal, 48 - deal.home_in_deal.astype(int))
    for d in range(20):  # table and foundations hold each card once
        on_table = [c for p in deal.piles(d).values() for c in p]
        assert len(set(on_table)) == len(on_table) and NO_CARD not in on_table
    counts = deal.length_counts()
    np.testing.assert_array_equal(counts.sum(axis=1), 6)
    np.testing.assert_array_equal((counts * np.arange(counts.shape[1])).sum(axis=1), deal.on_table)
    np.testing.assert_array_equal(deal.empty_columns, counts[:, 0])


def test_cards_under_a_king():
    bd = deal_family(special_decks(), sn.GAMES["bakers_dozen"].rules_for({"kings_to_bottom": False}))
    for d in range(len(special_decks())):
        expected = sum(
            sum(1 for i in range(len(p)) if any(c % 13 == 12 for c in p[i + 1 :])) for p in bd.piles(d).values()
        )
        assert bd.under_king[d] == expected
    # new-deck order over 13 piles: each pile holds one rank, the Kings' pile has no card under a King but its own
    assert bd.under_king[0] == 3


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (sn.GAMES["chequers"].rules_for(), "reserva"),
        (sn.GAMES["moving_left"].rules_for(), "boca abajo"),
        (composed("citadel", tableau_count=3), "de 4 a 20 columnas, no 3"),
        (composed("citadel", tableau_count=21), "no 21"),
        (composed("citadel", foundations=ANY[:2] + ALT[:2]), "todas por palo o todas en colores"),
        (composed("citadel", foundations=ANY[:3] + TIED[:1]), "cualquier As"),
        (composed("citadel", foundations=(FoundationRule("down", "same", "any"),) * 4), "suban desde el As"),
        (composed("scotch", deal_rows=(17, 19)), "(17, 19)"),
        (composed("scotch", deal_rows=()), "()"),
        ("citadel", "'citadel'"),
    ],
)
def test_rules_outside_the_family_are_refused_in_spanish(rules, words):
    assert words in family_problem(rules)
    with pytest.raises(ValueError, match="una baraja a la vista") as err:
        deal_family(study.draw_decks(3, seed=1), rules)
    assert words in str(err.value)
    with pytest.raises(ValueError):
        check_family(rules)


@pytest.mark.parametrize(
    "decks",
    [np.zeros((2, 52), dtype=np.uint8), np.arange(51)[None, :], [[1.0] * 52], "barajas",
     np.tile(np.arange(52), (2, 1)) + 1],
)
def test_bad_decks_are_refused_in_spanish(decks):
    with pytest.raises(ValueError, match="52 números de carta"):
        deal_family(decks, sn.GAMES["citadel"].rules_for())


def test_no_decks_deal_nothing():
    deal = deal_family(np.zeros((0, 52), dtype=np.uint8), sn.GAMES["scotch"].rules_for())
    assert deal.n == 0 and deal.lengths.shape == (0, 18)


def test_a_bad_chunk_is_refused_in_spanish():
    with pytest.raises(ValueError, match="chunk debe ser un entero mayor o igual que 1, no 0"):
        deal_family(study.draw_decks(3, seed=1), sn.GAMES["citadel"].rules_for(), chunk=0)


def test_deal_time_plays_match_the_exact_mean_without_aces_out():
    """With the Aces in the deck, a suit sends home m or more cards iff its ranks 1 … m come in
    increasing order (probability 1/m!): 4·(1/1! + … + 1/13!) on average.  A z test at level
    0.001 on 20,000 deals (fixed seed, so deterministic)."""
    from math import factorial, sqrt

    rules = composed("bakers_dozen", deal_to_foundations=True, foundations=ANY)
    home = deal_family(study.draw_decks(20_000, seed=8), rules).home_in_deal.astype(float)
    exact = 4 * sum(1 / factorial(m) for m in range(1, 14))
    z = (home.mean() - exact) / (home.std(ddof=1) / sqrt(len(home)))
    assert abs(z) < 3.2905, (home.mean(), exact)
