"""The learner notation: one formatter and parser of moves as the board labels piles (from 1),
and the guarantee that nothing a student reads shows the Python API's 0-based ids."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from successors import played

import solitaire_nb as sn
from solitaire_nb.core.moves import Move
from solitaire_nb.games import GAMES
from solitaire_nb.games.notation import format_move, format_moves, parse_move, pile_code, pile_name

PACKAGE = Path(sn.__file__).resolve().parent


def test_pile_codes_and_names():
    citadel = sn.new_game("citadel", seed=1)
    assert [pile_code(citadel, p) for p in ("T3", "F0")] == ["T4", "B1"]
    assert [pile_name(citadel, p) for p in ("T3", "F0")] == ["Tablero 4", "Base 1"]
    scotch = sn.new_game("scotch", seed=1)
    assert pile_code(scotch, "T2") == "A3" and pile_name(scotch, "T2") == "Abanico 3"
    chequers = sn.new_game("chequers", seed=1)
    assert (pile_code(chequers, "R"), pile_name(chequers, "R")) == ("R", "Reserva")
    ml = sn.new_game("moving_left", seed=1)
    assert [pile_code(ml, p) for p in ("S", "W")] == ["M", "D"]
    assert [pile_name(ml, p) for p in ("S", "W")] == ["Mazo", "Descarte"]
    # a game's definition or its name will do too
    assert pile_code(GAMES["scotch"], "T0") == pile_code("scotch", "T0") == "A1"
    for name in GAMES:
        g = sn.new_game(name, seed=2)
        assert all(pile_name(g, p) == g.label(p) for p in g.pile_ids)  # one source of names
    with pytest.raises(ValueError, match="no tiene la pila 'T40'"):
        pile_code(citadel, "T40")


def test_format_move():
    g = sn.new_game("citadel", seed=1)
    assert format_move(g, Move("T1", "F0")) == "T2 B1"
    assert format_move(g, Move("T1", "T6", 3)) == "T2 T7 3"
    assert format_move(g, Move("T1", "F0"), sep="-") == "T2-B1"
    assert format_move(g, Move("T1", "T6", 3), sep="-") == "T2-T7-3"
    assert format_move(sn.new_game("moving_left", seed=1), Move("S", "W")) == "M D"
    assert format_moves(g, [Move("T1", "F0"), Move("T0", "T2")]) == "T2 B1, T1 T3"


@pytest.mark.parametrize(
    "text, move",
    [
        ("T2 B1", Move("T1", "F0")),
        ("T2-B1", Move("T1", "F0")),
        ("t2 b1", Move("T1", "F0")),
        ("T2 T7 3", Move("T1", "T6", 3)),
        ("T2-T7-3", Move("T1", "T6", 3)),
        ("T2 T7 x3", Move("T1", "T6", 3)),
        ("tablero 2 a base 1", Move("T1", "F0")),
        ("del tablero 2 a la base 1", Move("T1", "F0")),
        ("Del Tablero 2 a la Base 1", Move("T1", "F0")),
        ("Tablero 2 → Base 1", Move("T1", "F0")),
        ("abanico 3 a base 1", Move("T2", "F0")),
        ("A3 B1", Move("T2", "F0")),
        ("tablero 2 a tablero 7, 3 cartas", Move("T1", "T6", 3)),
        ("tablero 2 a tablero 7, tres cartas", Move("T1", "T6", 3)),
        ("tres cartas del tablero 2 al tablero 7", Move("T1", "T6", 3)),
        ("mueve 3 cartas del tablero dos al tablero siete", Move("T1", "T6", 3)),
        ("base 1 a tablero 2", Move("F0", "T1")),
    ],
)
def test_parse_move_reads_learner_forms(text, move):
    assert parse_move(sn.new_game("citadel", seed=1), text) == move


def test_parse_move_reads_piles_without_numbers():
    ml = sn.new_game("moving_left", seed=1)
    for text in ("M", "mazo", "M D", "m d", "Mazo → Descarte", "del mazo al descarte"):
        assert parse_move(ml, text) == Move("S", "W")
    assert parse_move(ml, "D T3") == Move("W", "T2")
    assert parse_move(ml, "descarte a tablero 3") == Move("W", "T2")
    ch = sn.new_game("chequers", seed=1)
    assert parse_move(ch, "R B1") == parse_move(ch, "reserva a base 1") == Move("R", "F0")
    assert parse_move(ch, "tablero 25 a la base 8") == Move("T24", "F7")
    # accents and case do not matter, and A and T both name the tableau in every game
    assert parse_move(sn.new_game("scotch", seed=1), "TABLERO 2 A BASE 1") == Move("T1", "F0")
    assert parse_move(sn.new_game("citadel", seed=1), "ábanico 2 a básé 1") == Move("T1", "F0")


def test_parse_move_refuses_the_python_notation_explaining_the_learner_one():
    g = sn.new_game("citadel", seed=1)
    for text in ("T3>F0", "T2>T7x3", "S > W", "t3>f0"):
        with pytest.raises(ValueError) as info:
            parse_move(g, text)
        message = str(info.value)
        assert text.strip() in message and "«T4 B1»" in message and "desde 1" in message


@pytest.mark.parametrize(
    "game, text, needle",
    [
        ("citadel", "T9 B1", "Citadel no tiene Tablero 9: las pilas del tablero van del Tablero 1 al Tablero 8."),
        ("citadel", "T0 B1", "Citadel no tiene Tablero 0"),
        ("citadel", "T1 B5", "Citadel no tiene Base 5: las bases van de la Base 1 a la Base 4."),
        ("scotch", "A19 B1", "Scotch no tiene Abanico 19: los abanicos van del Abanico 1 al Abanico 18."),
        ("citadel", "R B1", "Citadel no tiene una reserva"),
        ("citadel", "M", "Citadel no tiene un mazo"),
        ("citadel", "T1 F0", "con B"),
        ("citadel", "T1", "origen y el destino"),
        ("citadel", "T1 T2 3 4", "más de un número"),
        ("citadel", "T1 T2 0", "empieza en 1"),
        ("citadel", "hola mundo", "«hola»"),
        ("citadel", "tablero a base 1", "falta el número"),
    ],
)
def test_parse_move_refuses_in_spanish_naming_the_text(game, text, needle):
    with pytest.raises(ValueError) as info:
        parse_move(sn.new_game(game, seed=1), text)
    assert needle in str(info.value)
    assert f"«{text}»" in str(info.value) or "«" in str(info.value)


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(st.text(max_size=30), st.from_regex(r"[TABFRMDtabx0-9 >\-,]{0,12}", fullmatch=True)))
def test_parse_move_raises_only_spanish_value_errors(text):
    g = sn.new_game("chequers", seed=1)
    try:
        move = parse_move(g, text)
    except ValueError as exc:
        assert str(exc)
    else:
        assert move.src in g.pile_ids and move.dst in g.pile_ids and move.n_cards >= 1


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(1, 10_000), steps=st.integers(0, 40))
def test_format_then_parse_is_the_identity_on_legal_moves(name, seed, steps):
    g = played(name, seed, steps)
    for m in g.legal_moves():
        for sep in (" ", "-"):
            text = format_move(g, m, sep)
            assert ">" not in text
            assert parse_move(g, text) == m
            assert parse_move(g, text.lower()) == m


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), data=st.data())
def test_every_pile_round_trips(name, data):
    g = sn.new_game(name, seed=1)
    src = data.draw(st.sampled_from(g.pile_ids))
    dst = data.draw(st.sampled_from(g.pile_ids))
    count = 1 if "S" in (src, dst) else data.draw(st.integers(1, 13))
    if (src, dst) == ("S", "W"):
        count = 1
    m = Move(src, dst, count)
    if src == "S" and dst != "W":
        return  # "M X" is not a move anyone writes; "M" alone is the stock turn
    for sep in (" ", "-"):
        assert parse_move(g, format_move(g, m, sep)) == m


# ---------------------------------------------------------------------- what students read
ZERO_BASED = re.compile(r">|\b[FSW]\d+\b|\b[TAB]0\b")
QUOTED = re.compile(r"«[^»]*»")  # what the student typed, echoed back


def _readable(lines) -> str:
    return QUOTED.sub("«…»", "\n".join(lines))


def test_students_never_read_0_based_ids(capsys):
    """Over many positions of every game: the board's messages and move list, the status
    line, the deal lines and the exercises' printed lists show no 0-based id and no ">"."""
    pytest.importorskip("anywidget")  # the notebook extra: the board
    from solitaire_nb.board import Board
    from solitaire_nb.lessons.exercises import movimientos, narrar, por_que_no
    from solitaire_nb.render import deal_lines, move_lines, status_text

    seen = []
    for name in GAMES:
        for seed in (1, 2, 3):
            g = sn.new_game(name, seed=seed)
            b = Board(g, solver_seconds=0.25)  # «Pista» thinks 0.05 s
            rng = random.Random(seed)
            for k in range(25):
                legal = g.legal_moves()
                if not legal:
                    break
                m = rng.choice(legal)
                if k % 3 == 0:
                    b.type_move(format_move(g, m))
                elif k % 3 == 1:
                    b.click(m.src, len(g.piles[m.src]) - m.n_cards)
                    b.click(m.dst)
                else:
                    illegal = Move(rng.choice(g.pile_ids), rng.choice(g.pile_ids), 1)
                    b.type_move(format_move(g, illegal))
                    seen.append(b.view["message"])
                    b.type_move(format_move(g, m))
                seen.append(b.view["message"])
            b.press("hint")
            seen.append(b.view["message"])
            b.type_move("T1>B1")
            seen.append(b.view["message"])
            seen += b.view["moves"] + move_lines(g) + deal_lines(g) + [status_text(g)]
            movimientos(g)
            por_que_no(g, *(format_move(g, m) for m in g.legal_moves()[:3]))
            if g.moves_played:
                narrar(g, g.steps()[-1])
    seen.append(capsys.readouterr().out)
    text = _readable(seen)
    bad = [line for line in text.splitlines() if ZERO_BASED.search(line)]
    assert not bad, bad[:5]


# ---------------------------------------------------------------------- one source
LEARNER_CODE_BY_HAND = [
    re.compile(r"""f["'][^"'\n]*\b[TABMDR]\{[^}]*\+\s*1\}"""),  # f"T{n + 1}", f"B{i + 1}"
    re.compile(r"""["'][TABMDR]["']\s*\+\s*str\("""),  # "B" + str(i + 1)
    re.compile(r"""int\([^)]*\)\s*-\s*1\}"""),  # f"F{int(num) - 1}": reading learner codes
    re.compile(r"""_READER_KINDS|_LETTER_KIND"""),
]


def test_only_the_notation_module_builds_learner_codes():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "notation.py":
            continue
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(p.search(line) for p in LEARNER_CODE_BY_HAND):
                offenders.append(f"{path.name}:{lineno}: {line.strip()}")
    assert not offenders, offenders
    board = "".join(p.read_text(encoding="utf-8") for p in sorted((PACKAGE / "board").glob("*.py")))
    board += (PACKAGE / "board" / "board.js").read_text(encoding="utf-8")
    assert "RULES.md" not in board
    assert "T3>F0" not in (PACKAGE / "board" / "board.js").read_text(encoding="utf-8")
