"""Share codes: written in the learner notation, old 0-based codes still load, positions given
by hand (practice positions) get a short code too, and a damaged code is a Spanish ValueError."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from successors import walk

import solitaire_nb as sn
from solitaire_nb.engine import share
from solitaire_nb.engine.share import load_share, share_code
from solitaire_nb.games import GAMES
from solitaire_nb.games.notation import format_move


def test_board_reexports_the_share_functions():
    pytest.importorskip("anywidget")  # the board needs the notebook extra
    from solitaire_nb import board

    assert board.share_code is share.share_code and board.load_share is share.load_share


def test_code_of_a_numbered_deal_in_learner_notation():
    g = walk(sn.new_game("citadel", seed=1234), random.Random(1), 6)
    code = share_code(g)
    assert code == "citadel/1234/" + ",".join(format_move(g, m, "-") for m in g.history)
    assert ">" not in code and not re.search(r"\b[FSW]\d", code)
    again = load_share(code)
    assert again.position() == g.position() and again.history == g.history and again.seed == 1234
    assert share_code(sn.new_game("chequers", seed=3, wrap=False)) == "chequers;wrap=0/3/"


def test_a_known_code():
    g = sn.new_game("citadel", seed=1234)
    g.move("T7>T6")
    g.move("T1>T6")
    assert share_code(g) == "citadel/1234/T8-T7,T2-T7"
    ml = sn.new_game("moving_left", seed=7)
    ml.move("T9>T8")
    ml.move("S>W")
    assert share_code(ml) == "moving_left/7/T10-T9,M-D"


# Codes written by the board before the learner notation (0-based ids with ">"), with a
# fingerprint of the position they led to then.
OLD_CODES = {
    "citadel/1234/T7>T6,T1>T6,T0>T6,T0>T4,F0>T0,T0>F0,T5>T6,T1>T5": "5a92aba45d8c40ca",
    "moving_left/7/T9>T8,S>W,W>F4,F4>T9,T9>F1,F1>T9,T9>F5,F5>T9": "97b2565210b4be83",
    "chequers;wrap=0/77/T14>T2,T19>T16,T11>T10,T16>F0,T13>T17,T9>T12,T20>T6,T23>F7": "ec78e7c50df400f2",
}


@pytest.mark.parametrize("code", list(OLD_CODES))
def test_old_codes_still_load(code):
    g = load_share(code)
    fingerprint = hashlib.sha256(json.dumps(g.position(), sort_keys=True).encode()).hexdigest()[:16]
    assert fingerprint == OLD_CODES[code]
    assert load_share(share_code(g)).position() == g.position()  # and their new code too


def test_practice_position_gets_a_short_code():
    g = sn.Game.from_position("citadel", {"T0": ["2S"], "T1": ["AS"], "T2": ["KD", "QC"]})
    code = share_code(g)
    assert code.startswith("citadel/p.") and code.endswith("/") and len(code) < 40
    g.move("T1>F0")
    code = share_code(g)
    assert code.endswith("/T2-B1")
    again = load_share(code)
    assert again.is_practice and again.position() == g.position() and again.history == g.history


def test_explicit_deal_order_gets_a_code():
    deck = [c.code for c in sn.new_game("scotch", seed=9).deal]
    g = walk(sn.new_game("scotch", deck=deck), random.Random(2), 5)
    code = share_code(g)
    assert code.startswith("scotch/d.")
    again = load_share(code)
    assert again.position() == g.position() and again.deal == g.deal


def practice_from(g: sn.Game, rng: random.Random) -> sn.Game:
    """A practice position: `g`'s position with some cards taken out of non-foundation piles."""
    piles = {p: [c.code for c in cards] for p, cards in g.piles.items()}
    face_down = {p: g.face_down(p) for p in g.pile_ids}
    removable = [(p, k) for p in g.pile_ids if p[0] != "F" for k in range(len(piles[p]))]
    drop = set(rng.sample(removable, max(1, len(removable) * rng.randint(1, 9) // 10)))
    for p in g.pile_ids:
        if p[0] != "F":
            kept = [c for k, c in enumerate(piles[p]) if (p, k) not in drop]
            # Only the stock may be all face down; elsewhere play always shows the top card.
            face_down[p] = min(face_down[p], len(kept) if p == "S" else max(0, len(kept) - 1))
            piles[p] = kept
    return sn.Game.from_position(g.name, piles, face_down, **g.variant)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(GAMES)),
    seed=st.integers(1, 5000),
    before=st.integers(0, 30),
    after=st.integers(0, 15),
    flags=st.data(),
)
def test_practice_codes_round_trip(name, seed, before, after, flags):
    variant = {k: flags.draw(st.booleans(), label=k) for k in GAMES[name].variants}
    rng = random.Random(seed)
    g = practice_from(walk(sn.new_game(name, seed=seed, **variant), rng, before), rng)
    assert g.is_practice
    walk(g, rng, after)
    code = share_code(g)
    assert ">" not in code
    again = load_share(code)
    assert again.is_practice and again.variant == g.variant
    assert again.position() == g.position() and again.history == g.history
    assert share_code(again) == code


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(1, 100_000), steps=st.integers(0, 25))
def test_deal_codes_round_trip(name, seed, steps):
    g = walk(sn.new_game(name, seed=seed), random.Random(seed), steps)
    again = load_share(share_code(g))
    assert again.position() == g.position() and again.history == g.history


@pytest.mark.parametrize(
    "code",
    [
        "",
        "   ",
        "citadel",
        "citadel/xx/",
        "nada/1/",
        "citadel/1/T0>F9",
        "citadel/1/T1-B9",
        "citadel/1/T1-B1/otra",
        "citadel;wrap=1/1/",
        "citadel;autoplay=2/1/",
        "citadel/p./",
        "citadel/p.AAA/",
        "citadel/p.!!/",
        "citadel/p.AQE/",
        "citadel/p." + "A" * 200 + "/",
        "citadel/d.AAAA/",
        "citadel/d.____/",
        "{no es json",
    ],
)
def test_malformed_codes_are_spanish_value_errors(code):
    with pytest.raises(ValueError) as info:
        load_share(code)
    assert info.type is ValueError or issubclass(info.type, ValueError)
    assert not re.search(r"\b(invalid|error|index|list|not)\b", str(info.value), re.IGNORECASE)


def test_impossible_position_in_a_code_is_refused():

    g = sn.Game.from_position("citadel", {"T0": ["2S"]})
    piles = {"T0": ["2S"], "T1": ["2S"]}  # the same card twice in a one-deck game
    data = bytearray([1])
    for pid in g.pile_ids:
        cards = piles.get(pid, [])
        data += bytes((len(cards),)) + bytes(sn.Card.parse(c).id for c in cards)
    code = "citadel/p." + base64.urlsafe_b64encode(bytes(data)).decode().rstrip("=") + "/"
    with pytest.raises(ValueError, match="más de una vez"):
        load_share(code)


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=40), st.from_regex(r"(citadel|scotch)(;\w+=[01])?/(p\.|d\.)?[\w\-]{0,12}/[TB0-9,\->]{0,12}", fullmatch=True)))
def test_load_share_never_raises_anything_but_value_error(text):
    try:
        load_share(text)
    except ValueError:
        pass


def test_non_text_is_refused():
    with pytest.raises(ValueError):
        load_share(None)  # type: ignore[arg-type]
