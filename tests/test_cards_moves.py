"""Cards and moves: text forms that round-trip, Spanish names, clear errors."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solitaire_nb import Card, IllegalMove, Move
from solitaire_nb.core.cards import CARDS


@pytest.mark.parametrize(
    "text, code, shown, nombre",
    [
        ("QS", "QS", "Q♠", "Q de picas"),
        ("10H", "TH", "10♥", "10 de corazones"),
        ("10♥", "TH", "10♥", "10 de corazones"),
        ("TH", "TH", "10♥", "10 de corazones"),
        ("AS", "AS", "A♠", "As de picas"),
        ("as", "AS", "A♠", "As de picas"),
        ("KD", "KD", "K♦", "K de diamantes"),
        ("A♣", "AC", "A♣", "As de tréboles"),
        ("JD", "JD", "J♦", "J de diamantes"),
    ],
)
def test_card_parse_and_names(text, code, shown, nombre):
    card = Card.parse(text)
    assert card.code == code
    assert str(card) == shown
    assert card.nombre == nombre


def test_card_fields():
    card = Card.parse("10H")
    assert (card.rank, card.suit, card.is_red) == (10, "H", True)
    assert Card.parse("QS").rank == 12 and not Card.parse("QS").is_red
    assert Card.parse("AD").rank == 1 and Card.parse("AD").is_red
    assert Card.parse("KC").articulo == "la K de tréboles"
    assert Card.parse("7S").articulo == "el 7 de picas"


@pytest.mark.parametrize("bad", ["", "Q", "ZS", "1H", "11H", "QX", "QSS", "10", "♥", 12, None])
def test_bad_card_code_raises_value_error_quoting_it(bad):
    with pytest.raises(ValueError) as err:
        Card.parse(bad)
    assert repr(bad) in str(err.value)


@given(st.sampled_from(CARDS))
def test_card_round_trips(card):
    assert Card.parse(card.code) is card
    assert Card.parse(str(card)) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert Card(card.rank, card.suit) is card


@pytest.mark.parametrize(
    "text, move",
    [
        ("T3>F0", Move("T3", "F0", 1)),
        ("T2>T7x3", Move("T2", "T7", 3)),
        ("S>W", Move("S", "W", 1)),
        ("F2>T5x1", Move("F2", "T5", 1)),
        ("t2 > t7 x3", Move("T2", "T7", 3)),
    ],
)
def test_move_parse(text, move):
    assert Move.parse(text) == move


@pytest.mark.parametrize("bad", ["", "T3", "T3>", ">F0", "T3>F0x0", "T3-F0", "T3>F0x", None])
def test_bad_move_text(bad):
    with pytest.raises(ValueError):
        Move.parse(bad)


@given(
    st.sampled_from(["T0", "T12", "F3", "R", "S", "W"]),
    st.sampled_from(["T1", "T24", "F7", "W"]),
    st.integers(1, 13),
)
def test_move_text_round_trips(src, dst, count):
    move = Move(src, dst, count)
    assert Move.parse(str(move)) == move
    assert ("x" in str(move)) == (count > 1)


def test_illegal_move_is_value_error_with_reason():
    err = IllegalMove("No se puede.", "CB-4")
    assert isinstance(err, ValueError) and err.reason == "No se puede." and err.rule == "CB-4"
