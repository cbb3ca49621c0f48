"""A drawing laid out for the width it is given (`render_svg(..., room=…)`, a live board's
`room`): every pile inside the drawing, cards never under 40 px, piles never on top of each
other, the usual layout kept where it fits, and bad widths refused in Spanish."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_nb as sn
from solitaire_nb.render import layout, render_svg
from solitaire_nb.render.layout import COMFORT_CARD, MIN_CARD

GAMES = ["citadel", "beleaguered_castle", "bakers_dozen", "scotch", "moving_left", "chequers", "citadel+columns=13"]


def _rows_do_not_overlap(lay) -> None:
    rows: dict[float, list] = {}
    for slot in lay.slots:
        rows.setdefault(round(slot.y), []).append(slot)
    for slots in rows.values():
        slots.sort(key=lambda s: s.x)
        for a, b in zip(slots, slots[1:], strict=False):
            assert a.x + max(a.w, lay.card_w) <= b.x + 0.01, (a, b)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(GAMES), seed=st.integers(0, 10_000), room=st.integers(150, 1400))
def test_a_drawing_fits_the_room_it_is_given(name, seed, room):
    game = sn.new_game(name, seed=seed)
    usual = layout(game)
    lay = layout(game, room=room)
    if lay == usual:  # kept: its cards, scaled to the room, stay comfortable
        assert usual.card_w * min(1, room / usual.width) >= COMFORT_CARD
        return
    assert lay.width <= room
    assert lay.card_w >= MIN_CARD
    for slot in lay.slots:
        assert 0 <= slot.x and slot.x + max(slot.w, lay.card_w) <= lay.width, slot
        assert len(slot.shown_label) * 6.8 <= (lay.card_w + 6 if slot.fan != "right" else slot.w) + 2, slot
    _rows_do_not_overlap(lay)
    assert {s.pile for s in lay.slots} == set(game.pile_ids)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("room", [300, 330, 360, 390])
def test_phone_widths_show_cards_of_forty_px_or_more(name, room):
    lay = layout(sn.new_game(name, seed=3), room=room)
    assert lay.width <= room and lay.card_w >= MIN_CARD


def test_two_rows_for_a_wide_game_on_a_phone_with_labels_as_typed():
    game = sn.new_game("bakers_dozen", seed=3)
    lay = layout(game, room=330)
    tableau = [s for s in lay.slots if s.pile.startswith("T")]
    assert len({s.y for s in tableau}) == 2  # 13 columns in two rows
    assert [s.shown_label for s in tableau][:3] == ["T1", "T2", "T3"]  # as «T4 B1» is typed
    assert [s.label for s in tableau][:1] == ["Tablero 1"]  # screen readers keep the full name
    svg = render_svg(game, room=330)
    assert 'width="330"' in svg and ">T13</text>" in svg and 'aria-label="Tablero 13: 4 cartas"' in svg


def test_the_usual_drawing_where_it_fits():
    game = sn.new_game("citadel", seed=5)
    assert render_svg(game, room=1200) == render_svg(game)
    assert layout(game, room=700) == layout(game)


@pytest.mark.parametrize("room", [0, -5, 10**6, True, "330", 3.5j, float("nan")])
def test_a_bad_room_is_refused_in_spanish(room):
    with pytest.raises(ValueError, match="room debe ser un ancho en píxeles"):
        render_svg(sn.new_game("citadel", seed=1), room=room)


def test_a_board_draws_again_for_the_width_its_page_measures():
    board = sn.Board(sn.new_game("bakers_dozen", seed=3))
    wide = board.view["svg"]
    board.room = 330
    assert re.search(r'<svg [^>]*width="330"', board.view["svg"])
    board.click("T0")  # a click keeps the measured width
    assert re.search(r'<svg [^>]*width="330"', board.view["svg"])
    board.room = 0  # not measured (hidden): the usual drawing
    board.press("undo")
    assert board.view["svg"].split(">", 1)[0] == wide.split(">", 1)[0]


def test_the_deal_pair_pictures_fit_a_phone():
    from solitaire_nb.board.deal_pair import PAIR_ROOM, pair_html

    html, _ = pair_html(1)
    widths = re.findall(r'<svg [^>]*?width="(\d+)"', html)
    assert widths == [str(PAIR_ROOM)] * 2
