"""Lessons a teacher can run and adapt: rules summaries, why a move is legal, narrated games,
the exercises' declarations and the notebooks' lesson structure, and the teacher's guide."""

from __future__ import annotations

import html
import importlib
import re
import sys
import types
from pathlib import Path

import pytest

import solitaire_nb as sn
from solitaire_nb import lessons
from solitaire_nb.lessons import describe_automatic, explain_move, narrated_game, narrated_lines, rules_summary
from solitaire_nb.lessons.summaries import _common_rules

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

# What a student must never read: Python names and values, assignments, rule ids, API moves.
PYTHONISH = re.compile(
    r"=|\bTrue\b|\bFalse\b|\bNone\b|\b[A-Za-z]+_[A-Za-z_]+\b|\b[A-Z]{2,3}-\d+\b|\b[A-Z]\d*>[A-Z]"
)
# The notebook that teaches each game.
NOTEBOOK_OF = {
    "chequers": "01_chequers",
    "moving_left": "02_moving_left",
    "scotch": "03_scotch",
    "bakers_dozen": "04_bakers_dozen",
    "citadel": "05_citadel_y_beleaguered_castle",
    "beleaguered_castle": "05_citadel_y_beleaguered_castle",
}


def pos(name: str, piles: dict[str, str], face_down: dict[str, int] | None = None, **variant) -> sn.Game:
    return sn.Game.from_position(
        name, {p: cards.split() for p, cards in piles.items()}, face_down, validate=False, **variant
    )


@pytest.fixture
def notation(monkeypatch):
    """The learner's notation module, or a stand-in with its API until it exists."""
    try:
        return importlib.import_module("solitaire_nb.games.notation")
    except ImportError:
        letters = {"T": "T", "F": "B", "R": "R", "S": "M", "W": "D"}

        def pile_code(game, pid):
            letter = game.definition.tableau_label[0] if pid[0] == "T" else letters[pid[0]]
            return letter + (str(int(pid[1:]) + 1) if pid[1:] else "")

        def format_move(game, move, sep=" "):
            parts = [pile_code(game, move.src), pile_code(game, move.dst)]
            return sep.join(parts + ([str(move.n_cards)] if move.n_cards != 1 else []))

        module = types.ModuleType("solitaire_nb.games.notation")
        module.format_move = format_move
        module.pile_code = pile_code
        monkeypatch.setitem(sys.modules, "solitaire_nb.games.notation", module)
        monkeypatch.setattr(sn, "notation", module, raising=False)
        return module


# ---------------------------------------------------------------------- texts students see
def test_no_declared_student_text_shows_python_names_or_rule_ids():
    texts = lessons.student_texts()
    assert len(texts) > 60
    bad = {k: t for k, t in texts.items() if PYTHONISH.search(t)}
    assert not bad


def test_a_summary_keeps_only_the_common_rules_that_apply():
    # Third review of 00–05: Scotch's and Baker's Dozen's summaries spoke of a reserve, a stock,
    # a waste and refilling from the reserve, which they do not have.
    for name in ("scotch", "bakers_dozen", "citadel", "beleaguered_castle"):
        text = rules_summary(name, "markdown")
        assert not any(w in text for w in ("reserva", "al mazo", "descarte", "boca arriba una carta descubierta")), name
    assert "Devolver una carta" not in rules_summary("bakers_dozen", "markdown")  # no card comes back
    assert "Lo automático" not in rules_summary("scotch", "markdown")
    assert "rellenar desde la reserva" in rules_summary("chequers", "markdown")
    assert "al mazo ni al descarte" in rules_summary("moving_left", "markdown")


@pytest.mark.parametrize("name", list(sn.GAMES))
@pytest.mark.parametrize("fmt", ["html", "markdown"])
def test_rules_summary_is_generated_from_the_declared_rules(name, fmt):
    d = sn.GAMES[name]
    text = rules_summary(name, fmt)
    plain = html.unescape(re.sub(r"<style>.*?</style>|<[^>]+>", " ", text)) if fmt == "html" else text
    assert d.display_name in plain
    for rid, sentence in d.rules.items():
        if not rid.startswith("GEN-"):  # the common rules are told as far as they apply
            assert sentence in plain, rid
    for sentence in _common_rules(d):
        assert sentence in plain
    for v in d.variants.values():
        assert v.descripcion in plain
    for part in (d.summary, d.tableau_builds, d.empty_pile, d.automatic):
        assert part in plain
    assert "La partida está ganada cuando todas las cartas están en las bases." in plain
    assert ("Dos barajas" if d.decks == 2 else "Una baraja") in plain
    assert not PYTHONISH.search(plain.replace("A4;", ""))
    if not d.variants:
        assert "no tiene variantes" in plain


def test_rules_summary_counts_the_piles_and_rejects_unknown_names():
    assert "Sobre la mesa: 18 abanicos y 4 bases." in rules_summary("scotch", "markdown")
    assert "Sobre la mesa: 25 pilas en el tablero, 8 bases y una reserva." in rules_summary("chequers", "markdown")
    assert "10 pilas en el tablero, 8 bases, un mazo y un descarte." in rules_summary("moving_left", "markdown")
    with pytest.raises(ValueError, match="klondike"):
        rules_summary("klondike")
    with pytest.raises(ValueError, match="pdf"):
        rules_summary("scotch", "pdf")


def test_committed_summaries_equal_the_generated_ones():
    import write_summaries

    files = write_summaries.expected()
    assert len(files) == 2 * len(sn.GAMES)
    for path, text in files.items():
        assert path.exists(), f"falta {path.relative_to(REPO)}: python tools/write_summaries.py"
        assert path.read_text(encoding="utf-8") == text, f"{path.relative_to(REPO)} desactualizado"


def test_printed_summaries_fit_one_a4_sheet(chromium):
    import write_summaries

    page = chromium.new_page()
    try:
        for name in sn.GAMES:
            page.goto((write_summaries.OUT / f"{name}.html").resolve().as_uri())
            pdf = page.pdf(format="A4", prefer_css_page_size=True)
            assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1, name
    finally:
        page.close()


# ---------------------------------------------------------------------- explain_move
EXPLAINED = [
    ("bakers_dozen", {"F0": "AS 2S 3S 4S", "T0": "5S", "T1": "8C", "T2": "7H"}, "T0>F0",
     "El 5 de picas va a la Base 1: la base se construye hacia arriba por palo, y tiene arriba el 4 de picas."),
    ("bakers_dozen", {"F0": "AS 2S 3S 4S", "T0": "5S", "T1": "8C", "T2": "7H"}, "T2>T1",
     "El 7 de corazones va sobre el 8 de tréboles: en el tablero se construye hacia abajo con una carta de "
     "otro palo, una unidad menos."),
    ("moving_left", {"T0": "8C", "T1": "7H", "T2": "KS QH JC", "T3": ""}, "T1>T0",
     "El 7 de corazones va sobre el 8 de tréboles: en el tablero se construye hacia abajo en colores alternos, "
     "una unidad menos."),
    ("moving_left", {"T0": "8C", "T1": "7H", "T2": "KS QH JC", "T3": ""}, "T2>T3x3",
     "La secuencia de la K de picas a la J de tréboles (3 cartas) va al hueco del Tablero 4: un hueco solo "
     "admite un Rey o una secuencia encabezada por un Rey."),
    ("moving_left", {"S": "4H 9D", "W": "AD"}, "S>W", "Del mazo pasa una carta al descarte, boca arriba: el 9 de diamantes."),
    ("moving_left", {"S": "4H 9D", "W": "AD"}, "W>F2",
     "El As de diamantes, del descarte, va a la Base 3: una base vacía solo admite un As."),
    ("chequers", {"T0": "QC", "T1": "KC", "T2": "AC", "R": ""}, "T0>T1",
     "La Q de tréboles va sobre la K de tréboles: en el tablero se construye hacia arriba o hacia abajo del "
     "mismo palo, y la secuencia da la vuelta (Rey sobre As y As sobre Rey)."),
    ("chequers", {"T0": "QC", "T1": "KC", "T2": "AC", "R": ""}, "T1>T2",
     "La K de tréboles va sobre el As de tréboles: en el tablero se construye hacia arriba o hacia abajo del "
     "mismo palo, y la secuencia da la vuelta (Rey sobre As y As sobre Rey)."),
    ("chequers", {"T0": "QC", "T1": "KC", "T2": "AC", "R": ""}, "T1>T3",
     "La K de tréboles va al hueco del Tablero 4: con la reserva agotada, cualquier carta puede ocupar un hueco."),
    ("chequers", {"T0": "5D", "R": "2D KS", "F4": "KC"}, "R>F5",
     "La K de picas, de la reserva, va a la Base 6: una base vacía de las que bajan solo admite un Rey de un "
     "palo que aún no tenga una base que baje."),
    ("scotch", {"T0": "9D", "T1": "3S", "F0": "AS 2H"}, "T1>F0",
     "El 3 de picas va a la Base 1: la base se construye hacia arriba en colores alternos, y tiene arriba el "
     "2 de corazones."),
    ("scotch", {"T0": "4D", "T1": "3S", "F0": "AS 2H"}, "F0>T1",
     "El 2 de corazones vuelve de la Base 1 al juego, sobre el 3 de picas: en este juego se puede devolver "
     "una carta de la base al juego, y en los abanicos se construye hacia abajo sin importar el palo, una "
     "unidad menos."),
    ("citadel", {"F0": "AS 2S 3S", "F1": "AH", "F2": "AD", "F3": "AC", "T0": "9C 4H"}, "F0>T1",
     "El 3 de picas vuelve de la Base 1 al juego, al hueco del Tablero 2: en este juego se puede devolver una "
     "carta de la base al juego, y cualquier carta puede ocupar un hueco."),
    ("beleaguered_castle", {"F0": "AS", "F1": "AH", "F2": "AD", "F3": "AC", "T0": "9C", "T1": "8H", "T2": "2S"},
     "T2>F0",
     "El 2 de picas va a la Base 1: la base se construye hacia arriba por palo, y tiene arriba el As de picas."),
    ("beleaguered_castle", {"F1": "AH", "F2": "AD", "F3": "AC", "T0": "AS"}, "T0>F0",
     "El As de picas va a la Base 1: esta base es la de picas: vacía, solo admite el As de picas."),
]


@pytest.mark.parametrize("name,piles,move,sentence", EXPLAINED)
def test_explain_move_names_the_rule_that_makes_a_move_legal(name, piles, move, sentence):
    g = pos(name, piles)
    before = g.position()
    assert explain_move(g, move) == sentence
    assert g.position() == before  # explaining plays nothing


def test_explain_move_of_a_hole_in_bakers_dozen_variant_and_a_reserve_card():
    g = pos("bakers_dozen", {"T0": "", "T1": "QD KS"}, kings_to_bottom=False)
    assert explain_move(g, "T1>T0") == "La K de picas va al hueco del Tablero 1: un hueco solo admite un Rey."
    g = pos("chequers", {"T0": "5D", "T1": "7H", "R": "2D 6D"})
    assert explain_move(g, "R>T0") == (
        "El 6 de diamantes, de la reserva, va sobre el 5 de diamantes: en el tablero se construye hacia arriba "
        "o hacia abajo del mismo palo."  # no King or Ace: the wrap is not told
    )


def test_explain_move_refuses_an_illegal_move_with_the_engines_reason():
    g = pos("bakers_dozen", {"T0": "9H", "T1": "TH"})
    with pytest.raises(ValueError, match="no está permitido: el 9 de corazones no puede ir sobre el 10 de corazones"):
        explain_move(g, "T0>T1")
    with pytest.raises(ValueError, match="Movimiento no válido"):
        explain_move(g, "T0-T1")


def test_automatic_actions_are_told_in_sentences():
    g = pos("chequers", {"T0": "5H JC", "T1": "QC", "R": "2D KS"})
    step = g.move("T1>T0")
    assert describe_automatic(g, step) == [
        "La reserva rellena el hueco del Tablero 2 con la K de picas.",
        "Se pone boca arriba el 2 de diamantes en la reserva.",
    ]
    g = pos("moving_left", {"T0": "9S", "T3": "5S 8H"}, face_down={"T3": 1})
    step = g.move("T3>T0")
    assert describe_automatic(g, step) == ["Se pone boca arriba el 5 de picas en el Tablero 4."]
    g = pos("moving_left", {"T0": "KH", "T1": "QS", "T2": "9D"}, shift_left=True)
    step = g.move("T1>T0")
    assert describe_automatic(g, step) == [
        "La parte boca arriba del Tablero 3 pasa al Tablero 2, que se había vaciado: el 9 de diamantes."
    ]
    g = pos("citadel", {"F0": "AS", "F1": "AH", "F2": "AD", "F3": "AC", "T0": "2S 5C", "T1": "6H", "T2": "3S"})
    step = g.move("T0>T1")
    assert describe_automatic(g, step) == [
        "El juego automático sube a su base el 2 y el 3 de picas."
    ]
    g = pos("citadel", {"F0": "AS", "F1": "AH", "F2": "AD", "F3": "AC", "T0": "2S 5C", "T1": "6H"})
    assert describe_automatic(g, g.move("T0>T1")) == ["El juego automático sube a su base el 2 de picas."]


@pytest.mark.parametrize("name", list(sn.GAMES))
def test_every_legal_move_of_a_dealt_game_is_explained_in_plain_spanish(name):
    g = sn.new_game(name, seed=7)
    for _ in range(25):
        moves = g.legal_moves()
        if not moves:
            break
        for m in moves:
            text = explain_move(g, m)
            assert text.endswith(".") and text[0].isupper(), text
            assert not PYTHONISH.search(text), text
        step = g.move(moves[len(moves) // 2])
        for text in describe_automatic(g, step):
            assert text.endswith(".") and not PYTHONISH.search(text), text


# ---------------------------------------------------------------------- narrated games
def test_one_stored_line_per_game_notebook_and_each_replays_to_a_win():
    lines = narrated_lines()
    assert sorted(e["game"] for e in lines) == sorted(sn.GAMES)  # Citadel and Beleaguered Castle both
    assert {NOTEBOOK_OF[e["game"]] for e in lines} == set(NOTEBOOK_OF.values())
    for entry in lines:
        g = sn.new_game(entry["game"], seed=entry["seed"], **entry["variant"])
        assert g.variant == entry["variant"]
        for move in entry["moves"]:
            g.move(move)
        assert g.is_won(), entry["game"]
        assert isinstance(entry["max_states"], int)


@pytest.mark.parametrize("name", list(sn.GAMES))
def test_a_stored_line_is_what_the_solver_finds_with_its_fixed_budget(name):
    """The lines come from today's solver: re-solving each stored deal with its fixed budget
    gives the same line (after a solver change, `tools/find_narrated_games.py` rewrites them)."""
    from solitaire_nb.solver import solve

    entry = next(e for e in narrated_lines() if e["game"] == name)
    g = sn.new_game(entry["game"], seed=entry["seed"], **entry["variant"])
    result = solve(g, max_states=entry["max_states"])
    assert [str(m) for m in result.moves] == entry["moves"]


@pytest.mark.parametrize("name", list(sn.GAMES))
def test_narrated_game_replays_the_line_with_a_sentence_per_move(name, notation, monkeypatch):
    import solitaire_nb.solver as solver

    monkeypatch.setattr(solver, "solve", lambda *a, **k: pytest.fail("a page must not solve"))
    entry = next(e for e in narrated_lines() if e["game"] == name)
    page = narrated_game(name, **entry["variant"])
    rows = re.findall(r"<tr><td>(\d+)</td><td><code>([^<]*)</code></td><td>([^<]*)</td><td>([^<]*)</td></tr>", page)
    assert [int(r[0]) for r in rows] == list(range(1, len(entry["moves"]) + 1))
    g = sn.new_game(name, seed=entry["seed"], **entry["variant"])
    first = sn.Move.parse(entry["moves"][0])
    assert html.unescape(rows[0][1]) == notation.format_move(g, first)
    assert html.unescape(rows[0][2]) == explain_move(g, first)
    assert f"Partida n.º {entry['seed']} de" in page and "¡Ganada!" in page
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    assert not PYTHONISH.search(text)
    hidden = "ve también las cartas boca abajo" in page
    assert hidden == any(g.face_down(p) for p in g.pile_ids)
    if name == "moving_left":
        assert hidden


def test_narrated_citadel_tells_what_the_deal_sent_home(notation):
    page = narrated_game("citadel")
    assert "Durante el reparto van a la base:" in page or "Tras el reparto" in page
    assert "El juego automático sube a su" in page


def test_narrated_game_without_a_stored_line_says_so_in_spanish():
    with pytest.raises(ValueError, match="No hay ninguna partida narrada de Scotch|variante"):
        narrated_game("scotch", sin_variante=True)
    with pytest.raises(ValueError, match="No hay ninguna partida narrada de Baker's Dozen"):
        narrated_game("bakers_dozen", any_suit=True, kings_to_bottom=False)


# ---------------------------------------------------------------------- the notebooks' lessons
# Conventions (documented in the guide, «Cómo editar una lección»):
# - An exercise is a code cell tagged `ejercicio` whose source calls `caja("<id>")`; the cells
#   tagged `ejercicio` right before it (its statement) belong to it.  Nothing before that block
#   may show one of the exercise's declared cards, in any spelling.
# - A rule section is a Markdown heading (## or ###) opening a Markdown cell tagged `regla` (the
#   heading names the topic, never the rule); it runs to the next heading of the same or a higher
#   level.  It holds a prediction question with its answer in a
#   closed `<details><summary>Ver respuesta</summary>…</details>` and a practice board.
NOTEBOOKS = REPO / "notebooks"
GAME_NOTEBOOKS = sorted(set(NOTEBOOK_OF.values()))
CAJA = re.compile(r"""\bcaja\(\s*["']([\w-]+)["']""")
RANK_SPELLINGS = {
    1: (["A"], ["As", "uno"]),
    2: (["2"], ["2", "dos"]),
    3: (["3"], ["3", "tres"]),
    4: (["4"], ["4", "cuatro"]),
    5: (["5"], ["5", "cinco"]),
    6: (["6"], ["6", "seis"]),
    7: (["7"], ["7", "siete"]),
    8: (["8"], ["8", "ocho"]),
    9: (["9"], ["9", "nueve"]),
    10: (["T", "10"], ["10", "diez"]),
    11: (["J"], ["J", "Jota", "Sota"]),
    12: (["Q"], ["Q", "Reina", "Dama"]),
    13: (["K"], ["K", "Rey"]),
}
WHOLE_DEAL_CARDS = 30  # a picture of this many cards is a whole deal, not a hint at one card


def card_pattern(code: str) -> re.Pattern:
    """Every spelling of a card: 8S, 8♠, «8 de picas», «ocho de picas»; 10 as T or 10."""
    from solitaire_nb.core.cards import SUIT_NAMES, SUIT_SYMBOLS

    card = sn.Card.parse(code)
    codes, words = RANK_SPELLINGS[card.rank]
    rank_codes = "|".join(codes)
    parts = [
        rf"(?<![\w])(?:{rank_codes}){card.suit}(?![\w])",
        rf"(?<![\w])(?:{rank_codes})\s?{SUIT_SYMBOLS[card.suit]}",
        rf"(?i:(?<![\w])(?:{'|'.join(words)})\s+de\s+{SUIT_NAMES[card.suit]}\b)",
    ]
    return re.compile("|".join(parts))


def _notebook_cells(stem: str) -> tuple[list, list]:
    """(cells of the .md source, cells of the executed .ipynb)."""
    jupytext = pytest.importorskip("jupytext")  # the notebook extra
    nbformat = pytest.importorskip("nbformat")  # the test extra

    md = jupytext.read(NOTEBOOKS / f"{stem}.md")
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    return md.cells, nb.cells


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _output_text(cell) -> str:
    """What a cell's saved outputs show as text (a whole deal's picture left out)."""
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(o.get("text", ""))
            continue
        data = o.get("data", {})
        for mime in ("text/plain", "text/markdown", "text/html", "image/svg+xml"):
            text = data.get(mime, "")
            text = "".join(text) if isinstance(text, list) else text
            if mime in ("text/html", "image/svg+xml"):
                text = re.sub(
                    r"<svg.*?</svg>",
                    lambda m: "" if m.group(0).count("data-card=") >= WHOLE_DEAL_CARDS else m.group(0),
                    text,
                    flags=re.S,
                )
            out.append(text)
    return "\n".join(out)


def _exercise_blocks(cells) -> list[tuple[str, int]]:
    """(exercise id, index of the first cell of its block) for each exercise cell."""
    found = []
    for i, cell in enumerate(cells):
        if cell.cell_type == "code" and "ejercicio" in _tags(cell):
            for ex in CAJA.findall(cell.source):
                start = i
                while start > 0 and "ejercicio" in _tags(cells[start - 1]) and not CAJA.search(cells[start - 1].source):
                    start -= 1
                found.append((ex, start))
    return found


def _shown_before(cells, stop: int, with_outputs: bool) -> str:
    from solitaire_nb.lessons.exercises import enunciado

    parts = []
    for cell in cells[:stop]:
        parts.append(cell.source)
        parts.extend(enunciado(ex) for ex in CAJA.findall(cell.source))  # earlier boxes' questions
        if with_outputs:
            parts.append(_output_text(cell))
    return "\n".join(parts)


def test_card_spellings_are_all_recognised():
    p = card_pattern("8S")
    for text in ("8S", '"8S"', "8♠", "8 ♠", "el 8 de picas", "Ocho de picas"):
        assert p.search(text), text
    for text in ("18S", "8SH", "8 de corazones", "88 de picas", "8♥"):
        assert not p.search(text), text
    ten = card_pattern("TH")
    assert all(ten.search(t) for t in ("TH", "10H", "10♥", "T♥", "el 10 de corazones", "diez de corazones"))
    queen = card_pattern("QS")
    assert all(queen.search(t) for t in ("QS", "Q♠", "la Q de picas", "la Reina de picas", "dama de picas"))
    ace = card_pattern("AC")
    assert ace.search("el As de tréboles") and not ace.search("cartas de tréboles")


def test_every_exercise_declares_its_cards_kind_and_position():
    from solitaire_nb.lessons.exercises import EJERCICIOS

    for ex_id, ex in EJERCICIOS.items():
        cards = getattr(ex, "cards", ())
        assert isinstance(cards, tuple), ex_id
        # an exercise asks about some cards, a whole numbered deal, a game it transfers to, or (in
        # a study) a figure its notebook measured
        assert cards or getattr(ex, "deal", None) or getattr(ex, "variant", None) or ex_id in _study_exercises(), (
            f"{ex_id}: declara sus cartas (cards)")
        for code in cards:
            sn.Card.parse(code)
        assert getattr(ex, "kind", None) in ("cards", "number", "choice", "board"), ex_id
        shown = ex.pregunta + " " + (getattr(ex, "position", None) or "")
        for code in cards:  # a declared card is one the exercise shows
            assert card_pattern(code).search(shown), f"{ex_id}: {code} no está en la pregunta ni en la posición"
        assert not PYTHONISH.search(ex.pregunta), ex_id


def _study_exercises() -> set[str]:
    """The exercises the study notebooks ask (their sources)."""
    return {ex for stem in STUDY_NOTEBOOKS for ex, _ in _exercise_blocks(_notebook_cells(stem)[0])}


@pytest.mark.parametrize("stem", GAME_NOTEBOOKS)
def test_each_game_notebook_has_three_exercises_one_played_on_a_board(stem):
    from solitaire_nb.lessons.exercises import EJERCICIOS

    md_cells, _ = _notebook_cells(stem)
    ids = [ex for ex, _ in _exercise_blocks(md_cells)]
    assert len(ids) >= 3, f"{stem}: {len(ids)} ejercicios"
    assert any(getattr(EJERCICIOS[ex], "kind", None) == "board" for ex in ids), stem


@pytest.mark.parametrize("stem", GAME_NOTEBOOKS)
def test_no_exercise_card_is_shown_before_its_exercise(stem):
    from solitaire_nb.lessons.exercises import EJERCICIOS

    md_cells, nb_cells = _notebook_cells(stem)
    problems = []
    for cells, with_outputs, where in ((md_cells, False, ".md"), (nb_cells, True, ".ipynb")):
        assert _exercise_blocks(cells), f"{stem}{where}: ninguna celda «ejercicio» con caja(\"id\")"
        for ex, start in _exercise_blocks(cells):
            before = _shown_before(cells, start, with_outputs)
            for code in getattr(EJERCICIOS[ex], "cards", ()):
                m = card_pattern(code).search(before)
                if m:
                    problems.append(f"{ex}: {code} aparece antes en {stem}{where} («{m.group(0)}»)")
    assert not problems, "\n".join(problems)


TYPED_MOVE = r"[TABRMD]\d* [TABRMD]\d*(?: \d+)?"


@pytest.mark.parametrize("stem", GAME_NOTEBOOKS)
def test_every_move_a_lesson_explains_says_yes_or_no(stem):
    """A move shown with the engine's sentence reads «**T2 B1: sí.** …» or «**T2 B1: no.** …» in
    every lesson (a move played on, «**T1 T2.** …», says what it did)."""
    _, nb_cells = _notebook_cells(stem)
    shown = [m for cell in nb_cells for m in re.findall(rf"\*\*({TYPED_MOVE})([^*]*)\*\*", _output_text(cell))]
    assert shown, stem
    bad = [f"{move}{rest}" for move, rest in shown if rest not in (": sí.", ": no.", ".")]
    assert not bad, f"{stem}: {bad}"


@pytest.mark.parametrize("stem", GAME_NOTEBOOKS)
def test_every_pile_letter_of_a_typed_move_is_explained_before_its_first_use(stem):
    """Second review of 00–05: «R T1» was an answer, and R, M, D were never explained.  Each
    letter a lesson's moves use (T, A, B, R, M, D) is shown in bold, **R**, in its text before
    the first cell that plays or explains a move with it."""
    md_cells, _ = _notebook_cells(stem)
    text_so_far, missing = "", set()
    for cell in md_cells:
        if cell.cell_type == "markdown":
            text_so_far += cell.source
            continue
        for move in re.findall(rf"\"({TYPED_MOVE})\"", cell.source):  # a move the cell plays or explains
            for letter in re.findall(r"[TABRMD](?=\d| |$)", move):
                if f"**{letter}**" not in text_so_far:
                    missing.add(f"{letter} ({move})")
    assert not missing, f"{stem}: letras sin explicar antes de usarlas: {sorted(missing)}"


TABLE = re.compile(r"<table\b|^\|[-: |]+\|\s*$", re.M)  # an HTML table, or a Markdown table's rule row
SCROLL_BOX = re.compile(r"""<div\b(?=[^>]*role=["']region)(?=[^>]*aria-label=["'][^"']*desliza)(?=[^>]*overflow-x:\s*auto)""")


@pytest.mark.parametrize("stem", [p.stem for p in sorted(NOTEBOOKS.glob("0[0-8]_*.ipynb"))])
def test_every_table_a_student_reads_is_in_a_labelled_scroll_box(stem):
    """On a phone the student pages let a table break its words anywhere to fit («(siempr/e)»,
    «mo/vi/mi/en/to»); in a labelled box that slides sideways its words stay whole.  Every table of
    a lesson's text and saved outputs comes in one (tests/browser/phone_fit.py checks the words
    on the pages)."""
    _, nb_cells = _notebook_cells(stem)
    loose = []
    for i, cell in enumerate(nb_cells):
        if "docente" in _tags(cell):
            continue
        texts = [cell.source] if cell.cell_type == "markdown" else []
        for out in cell.get("outputs", []):
            texts += ["".join(out.get("data", {}).get(kind, "")) for kind in ("text/html", "text/markdown")]
        for text in texts:
            if len(TABLE.findall(text)) > len(SCROLL_BOX.findall(text)):
                loose.append(f"celda {i}: {text[:60]!r}")
    assert not loose, f"{stem}: tablas fuera de una caja deslizable: {loose}"


def _rule_sections(cells) -> list[tuple[str, list]]:
    """(heading, cells) for each rule section of a notebook: a heading opening a Markdown cell
    tagged `regla` (the heading names the topic, not the rule, so it gives no answer away)."""
    sections = []
    current: tuple[str, int, list] | None = None
    for cell in cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                m = re.match(r"^(#{1,6})\s+(.*)$", line)
                if not m:
                    continue
                level, title = len(m.group(1)), m.group(2).strip()
                if current is not None and level <= current[1]:
                    sections.append((current[0], current[2]))
                    current = None
                if "regla" in _tags(cell) and level in (2, 3):
                    current = (title, level, [])
        if current is not None:
            current[2].append(cell)
    if current is not None:
        sections.append((current[0], current[2]))
    return sections


PRACTICE_BOARD = re.compile(r"\b(?:play|Board)\(")
# «Ver respuesta», or a labelled one: «Ver respuesta (Ejercicio 4)»
CLOSED_ANSWER = re.compile(r"<details(?P<attrs>[^>]*)>\s*<summary>\s*Ver respuesta(?: \([^)<]*\))?\s*</summary>", re.S)


@pytest.mark.parametrize("stem", GAME_NOTEBOOKS)
def test_every_rule_section_predicts_hides_its_answer_and_has_a_practice_board(stem):
    md_cells, _ = _notebook_cells(stem)
    sections = _rule_sections(md_cells)
    assert len(sections) >= 3, f"{stem}: {len(sections)} secciones de regla"
    problems = []
    for title, cells in sections:
        text = "\n".join(c.source for c in cells if c.cell_type == "markdown")
        answers = list(CLOSED_ANSWER.finditer(text))
        if not answers:
            problems.append(f"{title}: sin «Ver respuesta»")
        elif any("open" in a.group("attrs") for a in answers):
            problems.append(f"{title}: la respuesta empieza abierta")
        elif "?" not in text[: answers[0].start()]:
            problems.append(f"{title}: no hay pregunta antes de la respuesta")
        if not any(c.cell_type == "code" and PRACTICE_BOARD.search(c.source) for c in cells):
            problems.append(f"{title}: sin tablero para practicar")
    assert not problems, "\n".join(problems)


def test_rule_sections_and_exercise_blocks_are_found_as_documented():
    """The two conventions on a small hand-made notebook."""
    pytest.importorskip("nbformat")  # the test extra
    import nbformat.v4 as v4

    def md(text, tags=()):
        c = v4.new_markdown_cell(text)
        c.metadata["tags"] = list(tags)
        return c

    def code(text, tags=()):
        c = v4.new_code_cell(text)
        c.metadata["tags"] = list(tags)
        return c

    cells = [
        md("## La base\n¿Qué va sobre el 4♠?\n<details><summary>Ver respuesta</summary>El 5♠.</details>", tags=["regla"]),
        code('sn.play("scotch", position=p)'),
        md("### Un detalle"),
        md("## Otra cosa"),
        md("### Ejercicio 1\n¿Y sobre el 8 de picas?", tags=["ejercicio"]),
        code('caja("scotch-1")', tags=["ejercicio"]),
    ]
    sections = _rule_sections(cells)
    assert [(t, len(c)) for t, c in sections] == [("La base", 3)]
    assert _exercise_blocks(cells) == [("scotch-1", 4)]
    assert "8 de picas" not in _shown_before(cells, 4, with_outputs=False)


# ---------------------------------------------------------------------- the studies (06–08)
# Conventions (documented in the guide, «Cómo editar una lección»):
# - A prediction is a cell tagged `prediccion:ID` (every Markdown cell that says «Predice» is one);
#   its answer is hidden in a closed «Ver respuesta» (in a Markdown cell, or in what a code cell
#   shows) before the next prediction or measure, and no answer starts open.
# - A measured result is a code cell tagged `medida:ID` (one or more), and the prediction ID comes
#   before it with its hidden answer.  A code cell whose output the tests check
#   (`nbval-check-output`) and that is not a hidden answer is a measured result; so is any code
#   cell but an exercise's box whose saved output shows an estimate with its interval («(de A a
#   B)», «intervalo de confianza») outside a closed answer.
# - At least three exercises, each a question («¿…?») with a checker.  A transfer exercise
#   declares the game or variant it transfers to (`variant`): a composed name («citadel+columns=10»,
#   named on the page by its display name) or, for a player or variant only the win-rate atlas
#   measures, its atlas row's key (named by its label, «Moving Left (desplazamiento a la
#   izquierda)»).  No code cell before its block (other exercises' boxes aside) runs or shows
#   that game, a prediction comes before it and a measure of it after.
STUDY_NOTEBOOKS = ["06_citadel_vs_beleaguered_castle", "07_probabilidades", "08_laboratorio"]
PREDICTION, MEASURE = "prediccion:", "medida:"
ESTIMATE = re.compile(r"\(de [−\-]?\d[\d.,]*(?: %)? a [−\-]?\d[\d.,]*(?: %)?\)|intervalo de confianza")
HIDDEN = re.compile(r"<details[^>]*>.*?</details>", re.S)
CHECKED_OUTPUT = "nbval-check-output"


def _ids(cell, prefix: str) -> list[str]:
    return [t[len(prefix):] for t in _tags(cell) if t.startswith(prefix)]


def _answers(cell, with_outputs: bool) -> list[re.Match]:
    texts = [cell.source] + ([_output_text(cell)] if with_outputs and cell.cell_type == "code" else [])
    return [m for t in texts for m in CLOSED_ANSWER.finditer(t)]


def _hides_an_answer(cell, with_outputs: bool) -> bool:
    found = _answers(cell, with_outputs)
    calls = cell.cell_type == "code" and re.search(r"\brespuesta\(", cell.source)
    return bool(calls or found) and not any("open" in m.group("attrs") for m in found)


def transfer_names(variant: str) -> list[str]:
    """How a page names a transfer's game or variant: the composed name and its display name, or
    the atlas row's key and its label."""
    from solitaire_nb.atlas.summary import atlas
    from solitaire_nb.atlas.view import entry_label
    from solitaire_nb.games.custom import custom_from_name

    data = atlas()
    rows = {e["key"]: e for e in data["entries"] + data.get("players", [])}
    if variant in rows:
        return [variant, entry_label(rows[variant])]
    return [variant, custom_from_name(variant).display_name]


def study_problems(cells, with_outputs: bool = True) -> list[str]:
    """What a study notebook's cells break of the conventions above (empty when none)."""
    from solitaire_nb.lessons.exercises import EJERCICIOS

    problems, answered, asked = [], set(), {}
    open_prediction = None

    def unanswered(where: str) -> None:
        if open_prediction is not None and open_prediction not in answered:
            problems.append(f"{where}: la predicción «{open_prediction}» no tiene respuesta escondida")

    for i, cell in enumerate(cells):
        if any("open" in m.group("attrs") for m in _answers(cell, with_outputs)):
            problems.append(f"celda {i}: una respuesta empieza abierta")
        if cell.cell_type == "markdown" and "Predice" in cell.source and not _ids(cell, PREDICTION):
            problems.append(f"celda {i}: dice «Predice» sin la etiqueta «{PREDICTION}ID»")
        for pid in _ids(cell, PREDICTION):
            unanswered(f"celda {i}")
            asked[pid] = i
            open_prediction = pid
        if open_prediction is not None and (not _ids(cell, PREDICTION) or cell.cell_type == "code"):
            if _hides_an_answer(cell, with_outputs):
                answered.add(open_prediction)
                open_prediction = None
        for mid in _ids(cell, MEASURE):
            if mid not in asked:
                problems.append(f"celda {i}: la medida «{mid}» no tiene antes su predicción")
            elif mid not in answered:
                problems.append(f"celda {i}: la predicción «{mid}» no tiene respuesta escondida antes de medirla")
        if cell.cell_type == "code" and not _ids(cell, MEASURE):
            if CHECKED_OUTPUT in _tags(cell) and not _hides_an_answer(cell, with_outputs):
                problems.append(f"celda {i}: un resultado medido ({CHECKED_OUTPUT}) sin la etiqueta «{MEASURE}ID»")
            elif with_outputs and "ejercicio" not in _tags(cell) and ESTIMATE.search(HIDDEN.sub("", _output_text(cell))):
                problems.append(f"celda {i}: enseña una cifra medida sin la etiqueta «{MEASURE}ID»")
    unanswered("al final")
    blocks = _exercise_blocks(cells)
    for ex, _ in blocks:
        if ex not in EJERCICIOS or not callable(EJERCICIOS[ex].check):
            problems.append(f"{ex}: no es un ejercicio con corrección")
        elif "¿" not in EJERCICIOS[ex].pregunta:
            problems.append(f"{ex}: la pregunta no lleva «¿…?»")
    checked = [ex for ex, _ in blocks if ex in EJERCICIOS and callable(EJERCICIOS[ex].check)]
    if len(checked) < 3:
        problems.append(f"{len(checked)} ejercicios con corrección; hacen falta al menos tres")
    transfers = 0
    for ex, start in blocks:
        variant = getattr(EJERCICIOS.get(ex), "variant", None)
        if not variant:
            continue
        names = transfer_names(variant)
        ran = "\n".join(c.source + (_output_text(c) if with_outputs else "")  # an earlier box's question runs nothing
                        for c in cells[:start] if c.cell_type == "code" and "ejercicio" not in _tags(c))
        end = next((j for j in range(start, len(cells)) if CAJA.search(cells[j].source)), start)
        predicted = {m for c in cells[:start] for m in _ids(c, PREDICTION)}
        measured = [c for c in cells[end + 1:] if set(_ids(c, MEASURE)) & predicted]
        if any(n in ran for n in names):
            problems.append(f"{ex}: {variant} ya se mide antes del ejercicio")
        elif not measured:
            problems.append(f"{ex}: no hay una predicción antes y su medida después")
        elif with_outputs and not any(n in _output_text(c) for c in measured for n in names):
            problems.append(f"{ex}: la medida de después no es de {names[1]}")
        else:
            transfers += 1
    if not transfers:
        problems.append("ningún ejercicio de transferencia a un juego o variante que no se haya medido antes")
    return problems


@pytest.mark.parametrize("stem", STUDY_NOTEBOOKS)
def test_a_study_predicts_before_it_measures_and_ends_in_a_transfer(stem):
    md_cells, nb_cells = _notebook_cells(stem)
    problems = [f".md {p}" for p in study_problems(md_cells, with_outputs=False)]
    problems += [f".ipynb {p}" for p in study_problems(nb_cells)]
    assert not problems, "\n".join(problems)


def test_07s_optional_parts_are_folded_shut_and_each_predicts_before_it_answers_and_measures():
    """07's «Para saber más» parts are closed folds (a click opens each, nothing shows before);
    inside each, the prediction comes first, then its closed «Ver respuesta», then «Ver lo medido»;
    and the class's own questions (why 95 %, a badly shuffled deck, …) are closed folds too."""
    _, cells = _notebook_cells("07_probabilidades")
    start = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith("## Para saber más"))
    folds = []
    for c in cells[start + 1:]:
        if "docente" in _tags(c):
            continue
        assert c.cell_type == "code", f"texto visible en una parte opcional: {c.source[:60]}"
        markdown = [o.get("data", {}).get("text/markdown", "") for o in c.get("outputs", [])]
        assert len(markdown) == 1 and all(o.get("output_type") == "display_data" for o in c.outputs), c.source[:60]
        shown = "".join(markdown[0]).strip()
        assert shown.startswith("<details><summary>Para saber más: ") and shown.endswith("</details>"), shown[:80]
        folds.append(shown)
    assert len(folds) >= 4
    for shown in folds:
        order = [shown.index(w) for w in ("**Predice.**", "<details><summary>Ver respuesta</summary>")]
        assert order == sorted(order), shown[:80]
        if "Ver lo medido" in shown:
            assert shown.index("Ver lo medido") > order[-1], shown[:80]
    questions = [_output_text(c) for c in cells[:start] if c.cell_type == "code"]
    summaries = re.findall(r"<details><summary>(¿[^<]*\?)</summary>", "\n".join(questions + folds))
    for asked in ("95 %", "mal mezclada", "al azar", "unos juegos tienen"):
        assert any(asked in q for q in summaries), (asked, summaries)


def test_07s_measured_answers_stay_folded_until_the_student_has_predicted():
    """Issue 44: in 07's student view, after each «Predice» no code cell shows a measured figure
    (a percentage other than the 95 % of confidence, «N de M», a table's count) unfolded before the next «Predice» or section: the
    atlas table after the ranking, Chequers without the «vuelta», the pairs Citadel / Beleaguered
    Castle are each in a closed «Ver lo medido»."""
    _, cells = _notebook_cells("07_probabilidades")
    figure = re.compile(r"\d[\d.,]* ?%|\b\d[\d.]* de \d[\d.]*\b|\|\s*\d[\d.]*\s*\|")
    checked = set()
    for i, c in enumerate(cells):
        predicted = _ids(c, PREDICTION)
        if not predicted:
            continue
        for later in cells[i + 1:]:
            if _ids(later, PREDICTION) or (later.cell_type == "markdown" and later.source.startswith("## ")):
                break
            board = any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in later.get("outputs", []))
            if later.cell_type == "code" and "ejercicio" not in _tags(later) and not board:  # a board counts its bases
                shown = HIDDEN.sub("", _output_text(later)).replace("95 %", "")  # the confidence, no measure
                found = figure.search(shown)
                assert found is None, (predicted, found and found.group(), shown[:200])
        checked.update(predicted)
    assert {"orden", "vuelta", "pares"} <= checked
    folded = [_output_text(c) for c in cells if set(_ids(c, MEASURE)) & {"orden", "vuelta", "pares"}]
    assert sum("<summary>Ver lo medido</summary>" in t for t in folded) >= 3


def test_06_states_its_columns_shortened_with_their_interval():
    """A fresh reader: Predice 3's answer gave «4,93 de las 8» with no interval; it gives the
    table's figure, with its 95 % interval (ends rounded outward), before the interval is used."""
    from solitaire_nb import study
    from solitaire_nb.core.numbers_es import interval

    _, cells = _notebook_cells("06_citadel_vs_beleaguered_castle")
    (shown,) = [_output_text(c) for c in cells if "Ver respuesta (Predice 3)" in _output_text(c)]
    shortened = study.column_shortening(study.simulate(50_000, seed=2026).after_deal)["columns_shortened"]
    assert f"de media, {interval(shortened, 3)} de las 8 tras el reparto" in shown, shown[:300]


def test_07s_pair_tables_say_when_their_rows_have_different_position_limits():
    """Each deal-by-deal table whose two atlas rows were solved with different caps says so, in
    the students' words, with both caps and what it means for the rows."""
    from solitaire_nb.atlas.summary import atlas
    from solitaire_nb.core.numbers_es import thousands

    data = atlas()
    rows = {e["key"]: e for e in data["entries"]}
    _, cells = _notebook_cells("07_probabilidades")
    (shown,) = [_output_text(c) for c in cells if "pares" in _ids(c, MEASURE)]
    tables = shown.split("frente a")
    differing = [p for p in data["pairs"] if rows[p["a"]]["max_states"] != rows[p["b"]]["max_states"]]
    assert differing  # today: both pairs
    assert shown.count("**límite de posiciones**") == len(differing), tables[0][:200]
    for p in differing:
        caps = f"{thousands(rows[p['a']]['max_states'])} por partida en "
        assert caps in shown and f"y {thousands(rows[p['b']]['max_states'])} en " in shown
    assert "**esas partidas o más**" in shown


def test_atlas_2_sends_the_student_to_a_fold_on_the_path():
    """atlas-2's message names the fold with its reasons by its title, and in 07 that fold is a
    top-level closed fold right under the measure, not inside an optional «Para saber más»."""
    from solitaire_nb.lessons.atlas_exercises import ATLAS_2_REASONS
    from solitaire_nb.lessons.exercises import verdict_of_text

    ok, message = verdict_of_text("atlas-2", "más, porque destapa cartas")
    assert ok and ATLAS_2_REASONS in message, message
    title = ATLAS_2_REASONS.strip("«»")
    _, cells = _notebook_cells("07_probabilidades")
    start = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith("## Para saber más"))
    found = [(i, o) for i, c in enumerate(cells) for o in c.get("outputs", [])
             if f"<summary>{title}</summary>" in o.get("data", {}).get("text/markdown", "")]
    assert len(found) == 1, found
    i, output = found[0]
    text = output["data"]["text/markdown"]
    before = text[: text.index(f"<summary>{title}</summary>")]
    assert i < start and "desplazar" in _ids(cells[i], MEASURE)
    assert before.count("<details") - before.count("</details>") == 1  # its own fold only, at the top


def test_the_study_check_can_fail():
    """The conventions on small hand-made notebooks: each break is reported."""
    pytest.importorskip("nbformat")  # the test extra
    import nbformat.v4 as v4

    def cell(kind, text, tags=(), shows=None):
        c = v4.new_markdown_cell(text) if kind == "md" else v4.new_code_cell(text)
        c.metadata["tags"] = list(tags)
        if shows is not None:
            c.outputs = [v4.new_output("display_data", {"text/markdown": shows})]
        return c

    exercises = [cell("code", f'caja("estudio-{k}")', ["ejercicio"]) for k in (2, 4)]  # no transfer among them
    good = [
        cell("md", "**Predice.** ¿Cuántas?", ["prediccion:a"]),
        cell("md", "<details><summary>Ver respuesta</summary>Seis.</details>"),
        cell("code", "x", ["medida:a"], shows="6,87 (de 6,85 a 6,89)"),
        *exercises,
        cell("md", "**Predice.** ¿Y con diez columnas?", ["prediccion:diez"]),
        cell("code", 'respuesta("Las mismas.")'),
        cell("code", 'caja("estudio-3")', ["ejercicio"]),
        cell("code", "y", ["medida:diez"], shows="Citadel con 10 columnas: 6,87 (de 6,85 a 6,89)"),
    ]
    assert study_problems(good) == []
    unanswered = [good[0], good[2]]
    assert any("respuesta escondida" in p for p in study_problems(unanswered))
    untagged = good[:2] + [cell("code", "x", shows="0,35 (de 0,34 a 0,36)")]
    assert any("sin la etiqueta" in p for p in study_problems(untagged))
    measured_first = [cell("code", "z", shows="Citadel con 10 columnas: 6,9"), *good]
    assert any("ya se mide antes" in p for p in study_problems(measured_first))
    assert any("al menos tres" in p for p in study_problems(good[:3]))
    opened = [good[0], cell("md", "<details open><summary>Ver respuesta</summary>Seis.</details>"), *good[2:]]
    assert any("empieza abierta" in p for p in study_problems(opened))
    untagged_prediction = [cell("md", "**Predice.** ¿Y con seis columnas?"), *good]
    assert any("sin la etiqueta «prediccion:ID»" in p for p in study_problems(untagged_prediction))
    never_answered = [*good, cell("md", "**Predice.** ¿Y con cuatro?", ["prediccion:cuatro"])]
    assert any("«cuatro» no tiene respuesta escondida" in p for p in study_problems(never_answered))
    checked = [*good[:2], cell("code", "x", ["nbval-check-output"], shows="6 de 8")]
    assert any("(nbval-check-output) sin la etiqueta" in p for p in study_problems(checked, with_outputs=False))


# ---------------------------------------------------------------------- the teacher's guide
GUIDE = NOTEBOOKS / "guia_docente.md"
ALL_NOTEBOOKS = sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
LINKED_NOTEBOOK = re.compile(r"\]\((\d\d_\w+)\.ipynb\)")


def _guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """The text under a Markdown heading, up to the next heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    start = text.index(heading + "\n") + len(heading) + 1
    nxt = re.search(rf"^#{{1,{level}}} ", text[start:], flags=re.M)
    return text[start: start + nxt.start()] if nxt else text[start:]


def _notebook_sections(text: str) -> dict[str, str]:
    """Notebook number ("05") -> its section of «Cuaderno por cuaderno»."""
    part = _section(text, "## Cuaderno por cuaderno")
    heads = list(re.finditer(r"^### (\d\d) · .*$", part, flags=re.M))
    return {
        h.group(1): part[h.end(): heads[i + 1].start() if i + 1 < len(heads) else len(part)]
        for i, h in enumerate(heads)
    }


def guide_order() -> list[str]:
    return LINKED_NOTEBOOK.findall(_section(_guide(), "## Orden que proponemos"))


def index_order() -> list[str]:
    text = (NOTEBOOKS / "00_indice.md").read_text(encoding="utf-8")
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if "Orden que proponemos" in p]
    assert len(paragraphs) == 1, "el índice tiene un párrafo «Orden que proponemos»"
    return LINKED_NOTEBOOK.findall(paragraphs[0])


def test_the_index_and_the_guide_share_one_teaching_order():
    order = guide_order()
    assert sorted(order) == ALL_NOTEBOOKS  # every notebook once, under its own file name
    assert index_order() == order
    # the table «Los cuadernos», in number order, gives each its place in class: the same order
    text = (NOTEBOOKS / "00_indice.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \[\d\d · [^\]]+\]\((\S+)\.ipynb\) \| (\d)\.º \|", text, flags=re.M)
    assert [stem for stem, _ in sorted(rows, key=lambda row: int(row[1]))] == order


def test_the_guide_has_a_lesson_plan_per_notebook_in_the_teaching_order():
    sections = _notebook_sections(_guide())
    assert list(sections) == [stem[:2] for stem in guide_order()]
    for number, text in sections.items():
        for part in ("**Objetivos.**", "**Antes de empezar.**", "**Plan de 50 minutos.**", "**Respuestas.**",
                     "**Errores frecuentes.**"):
            assert part in text, f"{number}: falta {part}"
        assert "<!--" not in text, f"{number}: la guía muestra un comentario de quien la escribe"  # read as text
        if number != "00":
            answers = text.split("**Respuestas.**")[1].split("**Errores frecuentes.**")[0]
            assert re.search(r"^\| *\d\.", answers, re.M), f"{number}: sin respuestas"
        misconceptions = _section("#### x\n" + text.split("**Errores frecuentes.**")[1], "#### x")
        assert misconceptions.count("\n- ") >= 2, number


def test_each_lesson_plan_adds_up_to_fifty_minutes():
    for number, text in _notebook_sections(_guide()).items():
        plan = text.split("**Plan de 50 minutos.**")[1].split("**Respuestas.**")[0]
        minutes = [int(m) for m in re.findall(r"^\| (\d+) \|", plan, flags=re.M)]
        assert len(minutes) >= 3, number
        assert sum(minutes) == 50, f"{number}: {minutes} suman {sum(minutes)}"


def test_the_guide_links_each_games_printable_summary():
    sections = _notebook_sections(_guide())
    for game, stem in NOTEBOOK_OF.items():
        text = sections[stem[:2]]
        for ext in ("html", "md"):
            assert f"(resumenes/{game}.{ext})" in text, f"{stem}: falta el resumen de {game}"
            assert (NOTEBOOKS / "resumenes" / f"{game}.{ext}").exists()


def _answer_rows(plan: str) -> dict[str, str]:
    """Exercise id -> the answer cell of its row in a plan's «Respuestas» table («| 1 (`id`) … | `8` | …»)."""
    answers = plan.split("**Respuestas.**")[1].split("**Errores frecuentes.**")[0]
    rows = {}
    for line in answers.splitlines():
        m = re.match(r"^\| [^|]*\(`([\w-]+)`\)[^|]*\| ([^|]+) \|", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


@pytest.mark.parametrize("stem", STUDY_NOTEBOOKS)
def test_the_guide_answers_every_exercise_of_a_study_as_its_checker_does(stem):
    from solitaire_nb.lessons.exercises import es_correcta

    rows = _answer_rows(_notebook_sections(_guide())[stem[:2]])
    for ex, _ in _exercise_blocks(_notebook_cells(stem)[0]):
        assert ex in rows, f"la guía no responde {ex}"
        given = re.findall(r"`([^`]+)`", rows[ex])
        assert given, ex
        for value in given:
            answer = int(value) if value.isdigit() else value.strip('"')
            assert es_correcta(ex, answer), f"{ex}: la guía dice {value!r}, el corrector no lo acepta"


def test_the_guide_plans_07_and_08_with_every_section_and_no_claim_beyond_their_data():
    sections = _notebook_sections(_guide())
    plan = sections["07"].split("**Respuestas.**")[0]
    for part in ("Moving Left", "Blake y Gent", "devoluciones", "Chequers"):
        assert part in plan, f"07: el plan no trae {part}"
    assert "casi todas las partidas tienen solución, con seis casi ninguna" not in sections["08"]
    assert "tarda alrededor de un minuto" not in sections["08"]
    # every lesson runs in the app without a server; the served pages are for pooling 06–08's results
    assert re.search(r"se junten solos\s+\(la clase en común de 06,\s+07 y 08", _guide())
