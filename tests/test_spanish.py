"""The Spanish a reader sees: notebook prose and outputs, the teacher's guide, the board's
visible strings, the static pictures and the engine's refusals.

Three checks, each a heuristic kept deliberately small and explicit:
- every ¿ is closed by a ? (and ¡ by !) in the same paragraph, and no ? or ! lacks its opener;
- the GLOSARIO terms are used, not their English or alternative forms ("foundation",
  "tableau", "fundación", "cimiento", "hueco" rather than "columna vacía" in labels…);
- no English prose: a few English stop words ("the", "and", "click"…) outside code.
Game names (Moving Left, Beleaguered Castle…) and program names are removed first.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")  # the test extra: reads the notebooks

import solitaire_nb as sn  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
ALL_NOTEBOOKS = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))

PROPER_NAMES = [
    "Moving Left", "Single Left", "Triple Left", "Beleaguered Castle", "Baker's Dozen", "Baker’s Dozen",
    "Chequers", "Scotch", "Citadel", "PySolFC", "Aisleriot", "JupyterLab", "JupyterLite", "Jupyter",
    "Binder", "Voila", "nbviewer", "GitHub", "Run All Cells", "Run", "Python", "Pyodide", "NumPy",
    "matplotlib", "Chromium", "Klondike", "Streets and Alleys",
]

ENGLISH = re.compile(
    r"\b(the|and|of|with|this|that|you|your|is|are|click|card|cards|move|moves|game|pile|empty|"
    r"won|stuck|new|solution|winnable|shuffle|deal)\b",
    re.IGNORECASE,
)

# English or alternative forms of GLOSARIO terms (case-insensitive), anywhere a reader looks.
FORBIDDEN = re.compile(
    r"\b(foundations?|tableau|stock|waste|undo|redo|hint|fundaci[oó]n|fundaciones|cimientos?|"
    r"montón|montones|naipes?|mazos|autoplay|take-?back|seed|ace|king)\b",
    re.IGNORECASE,
)
# Lower-case "rey"/"as" as card names: the glossary writes Rey and As.
LOWER_CARD_NAMES = re.compile(r"\b(rey|reyes)\b")
# In labels and messages the glossary says "hueco".
LABEL_ONLY = re.compile(r"columna vac[ií]a", re.IGNORECASE)


def strip_code(text: str) -> str:
    """Markdown without fenced code, inline code, link targets, HTML tags and proper names."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]*\$", " ", text, flags=re.S)  # formulas
    text = re.sub(r"(?<=[\d)])!|(?<=\b[a-zA-Z])!", " ", text)  # factorials: 1/(k−1)!, 12!, m!
    text = re.sub(r"\]\([^)]*\)", "] ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"\b\w+=\w+", " ", text)  # variant flags shown in outputs: autoplay=True
    text = re.sub(r"\b\w*[_.]\w+\b", " ", text)  # identifiers: deal_report, sn.play
    for name in PROPER_NAMES:
        text = text.replace(name, " ")
    return text


def punctuation_problems(text: str) -> list[str]:
    """Unbalanced ¿?/¡! per paragraph."""
    out = []
    for para in re.split(r"\n\s*\n", text):
        for opener, closer in (("¿", "?"), ("¡", "!")):
            depth = 0
            for ch in para:
                if ch == opener:
                    depth += 1
                elif ch == closer:
                    if depth == 0:
                        out.append(f"{closer} without {opener}: {para.strip()[:120]!r}")
                        break
                    depth -= 1
            if depth:
                out.append(f"{opener} without {closer}: {para.strip()[:120]!r}")
    return out


def language_problems(text: str, label: bool = False) -> list[str]:
    clean = strip_code(text)
    out = [f"English word {m.group(0)!r} in: …{clean[max(0, m.start() - 40):m.end() + 40]!r}…"
           for m in ENGLISH.finditer(clean)]
    out += [f"non-GLOSARIO term {m.group(0)!r} in: …{clean[max(0, m.start() - 40):m.end() + 40]!r}…"
            for m in FORBIDDEN.finditer(clean)]
    out += [f"lower-case card name {m.group(0)!r}" for m in LOWER_CARD_NAMES.finditer(clean)]
    if label:
        out += [f"label says {m.group(0)!r}, GLOSARIO says 'hueco'" for m in LABEL_ONLY.finditer(clean)]
    return out


def test_the_checker_catches_what_it_should():
    assert punctuation_problems("¿Qué carta va?") == []
    assert punctuation_problems("¿Qué carta va.")
    assert punctuation_problems("Qué carta va?")
    assert punctuation_problems("¡Ganada!") == []
    assert language_problems("Click the card") != []
    assert language_problems("la foundation") != []
    assert language_problems("la fundación") != []
    assert language_problems("el rey de picas") != []
    assert language_problems("Se juega `g.move('T0>F0')` en Moving Left y Beleaguered Castle.") == []
    assert language_problems("Tablero 4: columna vacía", label=True) != []


# ---------------------------------------------------------------------- notebooks and guide
def reader_texts(name: str) -> list[tuple[str, str]]:
    """(where, text) for each markdown cell and each printed output of a notebook."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    out = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            out.append((f"{name} cell {i}", cell.source))
        elif cell.cell_type == "code":
            for o in cell.get("outputs", []):
                if o.output_type == "stream":
                    out.append((f"{name} cell {i} output", o.text))
    return out


@pytest.mark.parametrize("name", ALL_NOTEBOOKS)
def test_notebook_spanish(name):
    problems = []
    for where, text in reader_texts(name):
        problems += [f"{where}: {p}" for p in punctuation_problems(strip_code(text))]
        problems += [f"{where}: {p}" for p in language_problems(text)]
    assert problems == []


def test_teacher_guide_spanish():
    text = (NOTEBOOKS / "guia_docente.md").read_text(encoding="utf-8")
    problems = punctuation_problems(strip_code(text)) + language_problems(text)
    assert problems == []


# ---------------------------------------------------------------------- board and engine texts
def svg_text(svg: str) -> str:
    """The text a reader sees in an SVG: text nodes and aria-labels."""
    labels = re.findall(r'aria-label="([^"]*)"', svg)
    nodes = re.findall(r">([^<>]+)<", svg)
    return html.unescape("\n".join(labels + nodes))


@pytest.mark.parametrize("game", list(sn.GAMES))
def test_static_picture_texts(game):
    g = sn.new_game(game, seed=7)
    for _ in range(3):
        g.move(g.legal_moves()[0])
    text = svg_text(sn.render_svg(g))
    assert "Base 1" in text
    assert language_problems(text, label=True) == []
    assert punctuation_problems(text) == []


def strings(value) -> list[str]:
    """Every string inside a view value (SVG reduced to its visible text)."""
    if isinstance(value, str):
        return [svg_text(value) if value.lstrip().startswith("<") else value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


def test_board_visible_strings():
    """The board's own strings (buttons, titles, labels in board.js) and what it shows after a
    legal move, a refused move and a hint."""
    js = (REPO / "solitaire_nb" / "board" / "board.js").read_text(encoding="utf-8")
    visible = re.findall(r'(?:text|title|placeholder|"aria-label")\s*:\s*"([^"]+)"', js)
    visible += [s for row in re.findall(r'\[\s*"\w+"\s*,\s*"([^"]+)"\s*,\s*"([^"]+)"\s*\]', js) for s in row]
    assert "Deshacer" in visible and "Pista" in visible
    problems = language_problems("\n".join(visible), label=True)

    for game in sn.GAMES:
        board = sn.Board(sn.new_game(game, seed=3))
        board.type_move("T0>F0")  # usually refused: a Spanish reason
        board.type_move(str(board.game.legal_moves()[0]))
        board.press("hint")
        board.press("undo")
        text = "\n".join(strings({k: v for k, v in board.view.items() if k not in ("game", "games", "variant")}))
        problems += [f"{game}: {p}" for p in language_problems(text, label=True)]
        problems += [f"{game}: {p}" for p in punctuation_problems(text)]
    assert problems == []


def test_exercise_boxes_are_spanish():
    pytest.importorskip("anywidget")  # the notebook extra: the board
    from solitaire_nb.board import caja
    from solitaire_nb.lessons.exercises import EJERCICIOS

    problems = []
    for ejercicio in EJERCICIOS:
        box = caja(ejercicio)
        question, row, verdict = box.children
        entry, button = row.children
        entry.value = "9Z"
        button.click()
        text = "\n".join([svg_text(question.value), entry.placeholder, button.description, svg_text(verdict.value)])
        problems += language_problems(text, label=True) + punctuation_problems(text)
    assert problems == []


@pytest.mark.parametrize("game", list(sn.GAMES))
def test_engine_refusals_are_spanish(game):
    """Every refusal the board may show for the first positions of a deal."""
    g = sn.new_game(game, seed=11)
    sentences = set()
    for _ in range(3):
        for src in g.pile_ids:
            for dst in g.pile_ids:
                reason = g.why_not(src, dst)
                if reason:
                    sentences.add(reason)
        legal = g.legal_moves()
        if not legal:
            break
        g.move(legal[-1])
    text = "\n\n".join(sorted(sentences))
    assert language_problems(text, label=True) == []
    assert punctuation_problems(text) == []


PACKAGE = REPO / "solitaire_nb"


def _hub_page_text(path: Path) -> str:
    """What a student reads on one of the hub's pages: the template without its comments,
    scripts, tags and Jinja statements (the strings inside ``{% set … %}`` are shown, so kept)."""
    text = re.sub(r"\{#.*?#\}|<script.*?</script>|<style.*?</style>", " ", path.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", " ", text, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(re.findall(r'"([^"]*)"', text)) + " " + re.sub(r"\{%.*?%\}", " ", text, flags=re.S)


def test_students_read_la_plataforma_de_clase_and_one_word_for_their_teacher():
    """Second review of 00–05: «hub» (the product's word) was on pages students read, and «tu
    profesor» and «tu profesor o profesora» were both used.  The hub's pages and the class
    service's refusals say «la plataforma de clase»; every student-facing string says «tu
    profesor o profesora» (a fourth review: «tu profesor» alone leaves out half the teachers),
    and none asks a student to read an address («?asiento=»).  Teachers' documents may keep
    JupyterHub's name."""
    import ast

    pages = {p.name: _hub_page_text(p) for p in (PACKAGE / "templates" / "hub").glob("*.html")}
    assert "Has salido de la plataforma de clase." in pages["logout.html"]
    tree = ast.parse((PACKAGE / "classroom" / "hub_auth.py").read_text(encoding="utf-8"))
    refusals = {t.id: ast.unparse(n.value) for n in tree.body if isinstance(n, ast.Assign)
                for t in n.targets if isinstance(t, ast.Name) and t.id.isupper() and t.id not in ("FETCH_WITH_XSRF", "SECRET_PREFIX", "TEACHERS")}  # fmt: skip
    said = {**pages, **refusals}
    assert [name for name, text in said.items() if re.search(r"\bhub\b", text, re.I)] == []
    assert "plataforma de clase" in refusals["NOT_ALLOWED"]
    texts = {str(p.relative_to(REPO)): p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*")
             if p.suffix in (".py", ".html", ".js", ".j2")}  # fmt: skip
    texts.update({p.name: p.read_text(encoding="utf-8") for p in (REPO / "notebooks").glob("0[0-5]_*.md")})
    alone = {name: found for name, text in texts.items()
             if (found := re.findall(r"\b(?:[Tt]u|del) profesor\b(?! o profesora)", text))}  # fmt: skip
    assert alone == {}
    assert [name for name, text in texts.items() if "«?asiento=»" in text] == []


def test_de_and_a_before_el_contract():
    """«de el» and «a el» are not Spanish: the phrase helpers contract them, and keep «la»."""
    from solitaire_nb.core import texts

    assert texts.of("el 5 de corazones") == "del 5 de corazones" and texts.of("la Q de picas") == "de la Q de picas"
    assert texts.to("el Tablero 4") == "al Tablero 4" and texts.to("la Base 1") == "a la Base 1"
