"""The pure renderer: every game and variant draws a well-formed SVG with each visible card
exactly once under its Spanish name, face-down cards as anonymous backs, Spanish labels, and a
layout no wider than a 1000-px notebook."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from conftest import VARIANT_IDS, VARIANTS
from hypothesis import given, settings
from hypothesis import strategies as st
from successors import played

import solitaire_nb as sn
from solitaire_nb.render import MAX_WIDTH, layout, move_lines, render_html, render_svg, status_text
from solitaire_nb.render import draw as render

SVG = "{http://www.w3.org/2000/svg}"


def visible_cards(g: sn.Game) -> Counter:
    """What a player sees: every face-up card of a fanned pile, the top card of a stacked one
    (foundations, reserve, stock, waste) if it lies face up."""
    seen: Counter = Counter()
    for pid in g.pile_ids:
        cards = g.piles[pid]
        fd = g.face_down(pid)
        if pid[0] == "T":
            seen.update((pid, k, c.code) for k, c in enumerate(cards) if k >= fd)
        elif cards and len(cards) - 1 >= fd:
            seen[(pid, len(cards) - 1, cards[-1].code)] += 1
    return seen


def check_svg(g: sn.Game, svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == SVG + "svg"
    width = float(root.get("viewBox").split()[2])
    assert width <= MAX_WIDTH
    drawn: Counter = Counter()
    for node in root.iter():
        code = node.get("data-card")
        if code is None:
            continue
        card = sn.Card.parse(code)
        pid, k = node.get("data-pile"), int(node.get("data-index"))
        n = len(g.piles[pid])
        assert node.get("aria-label").startswith(f"{card.nombre}, {g.label(pid)}, carta {k + 1} de {n}")
        drawn[(node.get("data-pile"), int(node.get("data-index")), code)] += 1
    assert drawn == visible_cards(g)
    backs = [n for n in root.iter() if "snb-back" in (n.get("class") or "")]
    for back in backs:  # hidden from screen readers, or naming only its pile (a stock)
        pid = back.get("data-pile")
        assert back.get("aria-hidden") == "true" or back.get("aria-label").startswith(g.label(pid) + ",")
        assert back.get("data-card") is None
        assert not "".join(back.itertext()).strip()  # no rank, no suit, no code
    for pid in g.pile_ids:  # each face-down tableau card is drawn as a back at its place
        if pid[0] == "T":
            fd = g.face_down(pid)
            mine = [b for b in backs if b.get("data-pile") == pid]
            assert sorted(int(b.get("data-index")) for b in mine) == list(range(fd))
    piles = {n.get("data-pile") for n in root.iter(SVG + "g") if "snb-pile" in (n.get("class") or "")}
    assert piles == set(g.pile_ids)
    return root


@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=VARIANT_IDS)
def test_every_game_and_variant_renders_its_cards(name, variant):
    for seed, moves in ((1, 0), (2, 40), (3, 150)):
        g = played(name, seed, moves, **variant)
        check_svg(g, render_svg(g))


@pytest.mark.parametrize("name", list(sn.GAMES))
def test_labels_are_spanish_and_numbered_from_one(name):
    g = sn.new_game(name, seed=5)
    texts = " ".join(ET.fromstring(render_svg(g)).itertext())
    tab = g.definition.tableau_label
    assert f"{tab} 1" in texts and f"{tab} {len(g.tableau_ids)}" in texts
    assert "Base 1" in texts and f"Base {len(g.foundation_ids)}" in texts
    for pid, word in (("R", "Reserva"), ("S", "Mazo"), ("W", "Descarte")):
        assert (word in texts) == (pid in g.pile_ids)
    assert "Tablero 0" not in texts and "T0" not in texts


def test_scotch_fans_are_labelled_abanico():
    texts = " ".join(ET.fromstring(render_svg(sn.new_game("scotch", seed=1))).itertext())
    assert "Abanico 18" in texts and "Tablero" not in texts


def test_chequers_is_five_rows_of_five_with_two_foundation_groups():
    g = sn.new_game("chequers", seed=9)
    lay = layout(g)
    assert lay.width <= MAX_WIDTH
    slots = {s.pile: s for s in lay.slots}
    rows = sorted({slots[f"T{i}"].y for i in range(25)})
    assert len(rows) == 5
    for r, y in enumerate(rows):
        assert [slots[f"T{i}"].y for i in range(5 * r, 5 * r + 5)] == [y] * 5
    assert all(s.x + s.w <= lay.width for s in lay.slots)
    texts = " ".join(ET.fromstring(render_svg(g)).itertext())
    assert "Bases que suben" in texts and "Bases que bajan" in texts
    up = max(slots[f"F{i}"].x for i in range(4))
    down = min(slots[f"F{i}"].x for i in range(4, 8))
    assert up < down  # F0-F3 form the left group, F4-F7 the right one


@pytest.mark.parametrize("name", list(sn.GAMES))
def test_long_piles_stay_inside_the_board(name):
    """Cards compress inside their slot: a long game never widens the SVG past 1000 px."""
    g = played(name, 11, 400)
    root = check_svg(g, render_svg(g))
    width = float(root.get("viewBox").split()[2])
    height = float(root.get("viewBox").split()[3])
    lay = layout(g)
    for node in root.iter(SVG + "g"):
        transform = node.get("transform")
        if transform:
            x, y = map(float, transform[len("translate(") : -1].split(","))
            assert 0 <= x and x + lay.card_w <= width + 0.5
            assert 0 <= y and y + lay.card_h <= height + 0.5


def test_moving_left_hides_face_down_cards():
    g = sn.new_game("moving_left", seed=3)
    svg = render_svg(g)
    root = check_svg(g, svg)
    assert len([n for n in root.iter() if n.get("data-card")]) == 10  # the ten tableau tops
    # The stock's cards are drawn as one back, never by name.
    stock = [n for n in root.iter() if n.get("data-pile") == "S" and n.get("data-card")]
    assert stock == []


def test_empty_piles_are_dashed_focusable_holes():
    g = sn.new_game("moving_left", seed=3)
    root = ET.fromstring(render_svg(g, interactive=True))
    holes = {n.get("data-pile"): n for n in root.iter(SVG + "rect") if n.get("class") == "snb-hole"}
    assert holes["W"].get("stroke-dasharray") and holes["W"].get("tabindex") == "-1"
    assert holes["W"].get("role") == "button" and holes["W"].get("aria-label") == "Descarte: hueco"
    assert holes["T3"].get("tabindex") is None  # a pile with cards is reached through its cards
    assert holes["T3"].get("aria-hidden") == "true"
    static = ET.fromstring(render_svg(g))  # a static picture has no buttons, no focus
    assert not [n for n in static.iter() if n.get("tabindex") or n.get("role") == "button"]


def test_cards_are_coloured_by_suit():
    g = sn.new_game("citadel", seed=1)
    root = ET.fromstring(render_svg(g))
    faces = {n.get("id"): n for n in root.iter(SVG + "g") if n.get("id")}
    for node in root.iter():
        code = node.get("data-card")
        if code:
            face = faces[node.find(SVG + "use").get("href")[1:]]  # the card's drawing, in <defs>
            fills = {t.get("fill") for t in face.iter(SVG + "text")}
            assert fills == {"#c0162c" if code[1] in "HD" else "#1a1a1a"}
            assert str(sn.Card.parse(code)) in "".join(face.itertext())
            assert not "".join(node.itertext()).strip()  # a button's only name is its aria-label


def test_selection_and_hint_are_outlined():
    g = sn.new_game("citadel", seed=1234)
    move = g.legal_moves()[0]
    top = len(g.piles[move.src]) - 1
    root = ET.fromstring(render_svg(g, selected=(move.src, top), highlight=move))
    card = next(n for n in root.iter() if n.get("data-pile") == move.src and n.get("data-index") == str(top))
    strokes = {r.get("stroke") for r in card.iter(SVG + "rect")}
    assert {render.SELECT_OUTER, render.SELECT_INNER} <= strokes
    ET.fromstring(render_svg(g, highlight=str(move)))
    ET.fromstring(render_svg(g, highlight=["T0", "F1"]))
    with pytest.raises(ValueError, match="Movimiento no válido"):  # refused, not ignored (issue 32)
        render_svg(g, highlight="nonsense")


def test_repr_svg_is_the_renderer():
    g = sn.new_game("scotch", seed=8)
    assert g._repr_svg_() == render_svg(g)


def test_render_html_and_texts():
    g = played("chequers", 4, 30)
    html = render_html(g)
    ET.fromstring(html)  # the fragment is well-formed too
    assert status_text(g) in html.replace("&#x27;", "'")
    lines = move_lines(g)
    assert lines[0].startswith("1. ")
    assert any("→" in line for line in lines)


_FILLERS = [r + s for s in "DC" for r in "KQJT98765432"]  # 24 cards that take no part


def test_move_lines_name_cards_and_automatic_actions():
    g = sn.Game.from_position(
        "chequers",
        {"T0": ["7S"], "T1": ["8S"], "R": ["2H", "3H"], **{f"T{i}": [c] for i, c in enumerate(_FILLERS[:23], 2)}},
    )
    g.move("T0>T1")
    lines = move_lines(g)
    assert lines[0] == "1. T1 T2 (Tablero 1 → Tablero 2): 7 de picas"
    assert lines[1].strip() == "↳ automático: Reserva → Tablero 1: 3 de corazones"
    assert lines[2].strip() == "↳ se pone boca arriba 2 de corazones (Reserva)"


def test_status_line_outcomes():
    g = sn.new_game("citadel", seed=1)
    assert "0 movimientos" in status_text(g) and "de 52 cartas en las bases" in status_text(g)
    stuck = sn.Game.from_position("bakers_dozen", {"T0": ["2S"], "T1": ["3S"]})
    assert status_text(stuck).endswith("Sin movimientos")
    ranks = "A23456789TJQK"
    won = sn.Game.from_position("citadel", {f"F{i}": [r + s for r in ranks] for i, s in enumerate("SHDC")})
    assert status_text(won).endswith("¡Ganada!")


def test_importing_the_package_or_renderer_loads_no_widget_library():
    code = (
        "import sys, solitaire_nb\n"
        "assert 'solitaire_nb.render' not in sys.modules and 'solitaire_nb.board' not in sys.modules\n"
        "import solitaire_nb.render\n"
        "bad = [m for m in ('ipywidgets', 'anywidget', 'traitlets', 'matplotlib', 'IPython') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(list(sn.GAMES)),
    seed=st.integers(1, 10_000),
    moves=st.integers(0, 120),
)
def test_random_positions_render_consistently(name, seed, moves):
    g = played(name, seed, moves)
    check_svg(g, render_svg(g))
    root = check_svg(g, render_svg(g, interactive=True))
    # Every pile can be reached by the keyboard: its top card, its hole, or its stack of backs.
    reachable = {n.get("data-pile") for n in root.iter() if n.get("tabindex") == "-1"}
    assert reachable == set(g.pile_ids)


# ---------------------------------------------------------------------- accessibility


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two "#rrggbb" colours."""

    def lum(c: str) -> float:
        rgb = [int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_selection_and_hint_marks_contrast_with_table_and_card():
    # The light outer ring touches the table, the dark inner ring the card.
    for outer, inner in ((render.SELECT_OUTER, render.SELECT_INNER), (render.HINT_OUTER, render.HINT_INNER)):
        assert contrast(outer, render.FELT) >= 3, outer
        assert contrast(inner, render.CARD) >= 3, inner
        assert contrast(outer, inner) >= 3


def test_interactive_cards_are_named_in_context_with_their_selected_state():
    g = sn.new_game("moving_left", seed=3)
    root = ET.fromstring(render_svg(g, selected=("T9", 9), interactive=True))
    top = next(n for n in root.iter() if n.get("data-pile") == "T9" and n.get("data-index") == "9")
    assert top.get("aria-label") == f"{g.piles['T9'][9].nombre}, Tablero 10, carta 10 de 10"
    assert top.get("role") == "button" and top.get("aria-pressed") == "true" and top.get("tabindex") == "-1"
    other = next(n for n in root.iter() if n.get("data-pile") == "T0" and n.get("data-card"))
    assert other.get("aria-pressed") == "false"
    piles = {n.get("data-pile"): n.get("aria-label") for n in root.iter(SVG + "g") if n.get("role") == "group"}
    assert piles["T9"] == "Tablero 10: 10 cartas, 9 boca abajo"
    assert piles["W"] == "Descarte: hueco"
    stock = [n for n in root.iter() if n.get("data-pile") == "S" and n.get("role") == "button"]
    assert [n.get("aria-label") for n in stock] == ["Mazo, 49 cartas, todas boca abajo"]
    # Buried backs are hidden from screen readers: the pile's name counts them.
    backs = [n for n in root.iter() if n.get("data-pile") == "T9" and "snb-back" in (n.get("class") or "")]
    assert len(backs) == 9 and all(b.get("aria-hidden") == "true" and b.get("aria-label") is None for b in backs)


def test_stacked_piles_say_how_many_cards_they_hold():
    g = sn.new_game("beleaguered_castle", seed=1)  # the four aces start on the foundations
    root = ET.fromstring(render_svg(g))
    counts = [n for n in root.iter(SVG + "text") if n.get("class") == "snb-count"]
    assert ["".join(n.itertext()) for n in counts] == ["1 carta"] * 4
    g.move(next(m for m in g.legal_moves() if m.dst.startswith("F")))
    root = ET.fromstring(render_svg(g))
    assert "2 cartas" in ["".join(n.itertext()) for n in root.iter(SVG + "text") if n.get("class") == "snb-count"]


def test_a_ten_keeps_its_corner_index_as_narrow_as_the_others():
    ten = sn.Card.parse("TS")
    body = render._face_body(ten, 62.0, 86.0)
    assert 'textLength="22"' in body and "10♠" in body
