"""Issue 44: every whole deal a lesson, the guide, the README or docs/ asks people to play can be
won, as the solver proves it (`atlas.won_deals.deal_verdict`: the atlas records, else a bounded
solve).

Scanned: the lessons' sources (``notebooks/*.md``) and their notebooks (``.ipynb``), the guide
(it is one of those sources), README.md and docs/*.md.  A deal is the one of each ``sn.play(…)``
with a seed, of each ``sn.Board(…)`` of a numbered deal (``sn.new_game(…)``, directly or through
a name assigned earlier in the same file; a position given by hand is not a whole deal), and of
each ``--reto CÓDIGO``.  A page may show a lost deal on purpose: the words of `ON_PURPOSE` on the
line of the call or the two before it leave that one out.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import solitaire_nb as sn
from solitaire_nb.atlas.won_deals import deal_verdict, stored_verdict
from solitaire_nb.engine.share import load_share
from solitaire_nb.lessons import narrated_lines

REPO = Path(__file__).resolve().parents[1]
ON_PURPOSE = "sin solución a propósito"
CALL = re.compile(r"(?:\bsn\.|(?<![\w.]))(play|Board)\(")  # not game.play(…), a move
RETO = re.compile(r"--reto[ =]+[`'\"]?([A-Za-z_][^\s`'\"]*/[^\s`'\"]+)")
BOARD_OPTIONS = {"hints", "solution", "solver_seconds", "seed", "game", "deck"}
Deal = tuple[str, int, tuple[tuple[str, bool], ...]]  # (game, seed, variant)


def pages() -> list[Path]:
    return sorted([*(REPO / "notebooks").glob("*.md"), *(REPO / "notebooks").glob("*.ipynb"), REPO / "README.md",
                   *(REPO / "docs").glob("*.md")])  # fmt: skip


def page_text(path: Path) -> str:
    """The text to scan: a notebook's cells one after the other, a Markdown file as it is."""
    if path.suffix != ".ipynb":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells)


def _call_at(text: str, start: int) -> str:
    """The text of the call whose name starts at `start` (balanced brackets, strings skipped)."""
    depth, i, quote = 0, text.index("(", start), ""
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
        i += 1
    raise AssertionError(f"unbalanced call: {text[start : start + 80]!r}")


_NAMES: dict[str, Any] = {"sn": sn, "narrated_lines": narrated_lines, "next": next}


def _value(node: ast.expr) -> Any:
    return eval(compile(ast.Expression(node), "<deal>", "eval"), dict(_NAMES))  # noqa: S307 - our own pages


def _deal_of_call(call: ast.Call) -> Deal | None:
    """The deal of ``play("game", seed=N, …)`` or ``new_game("game", seed=N, …)``; None without
    a seed (a random deal)."""
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    game_node = call.args[0] if call.args else kw.get("game")
    seed_node = call.args[1] if len(call.args) > 1 else kw.get("seed")
    if game_node is None or seed_node is None:
        return None
    variant = tuple(sorted((k, bool(_value(v))) for k, v in kw.items() if k not in BOARD_OPTIONS))
    return str(_value(game_node)), int(_value(seed_node)), variant


def _assigned(text: str, name: str, before: int) -> str | None:
    """The right-hand side of the last ``name = …`` before `before`, as far as its first line."""
    found = None
    for m in re.finditer(rf"^[ \t]*{re.escape(name)}[ \t]*=[ \t]*(?!=)(.*)$", text[:before], re.M):
        found = (m.group(1), m.start(1))
    if found is None:
        return None
    first, start = found
    return _call_at(text, start) if re.match(r"(?:sn\.)?new_game\(", first) else first


def _board_deal(text: str, call: ast.Call, at: int) -> Deal | None:
    """The numbered deal a ``Board(…)`` shows, None for a position or anything else."""
    if not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "copy":
        arg = arg.func.value  # g.copy()
    if isinstance(arg, ast.Name):
        rhs = _assigned(text, arg.id, at)
        if rhs is None or not re.match(r"(?:sn\.)?new_game\(", rhs):
            return None
        arg = ast.parse(rhs, mode="eval").body  # type: ignore[assignment]
    if isinstance(arg, ast.Call) and getattr(arg.func, "attr", getattr(arg.func, "id", "")) == "new_game":
        return _deal_of_call(arg)
    return None


def deals_in(text: str) -> tuple[dict[Deal, int], list[str]]:
    """{deal: the offset of its first call} of the calls and ``--reto`` codes in `text`, and the
    calls that could not be read (a test failure: the scan must understand every page)."""
    found: dict[Deal, int] = {}
    unread: list[str] = []

    def keep(deal: Deal | None, at: int) -> None:
        lines = text[:at].split("\n")[-3:]  # the call's line (up to it) and the two before
        if deal is not None and not any(ON_PURPOSE in line for line in lines):
            found.setdefault(deal, at)

    for m in CALL.finditer(text):
        source = _call_at(text, m.start())
        if re.fullmatch(r"[^(]*\(\s*(…|\.\.\.)\s*\)", source):  # «sn.play(…)»: said, not called
            continue
        try:
            call = ast.parse(source.split("(", 1)[0].split(".")[-1] + "(" + source.split("(", 1)[1], mode="eval").body
            assert isinstance(call, ast.Call)
            deal = _deal_of_call(call) if m.group(1) == "play" else _board_deal(text, call, m.start())
        except Exception as exc:  # noqa: BLE001 - said as a failure below
            if not source.startswith("sn.") and isinstance(exc, (NameError, SyntaxError)):
                continue  # a signature in prose: «play(origen, destino, cartas)», «Board(partida, hints=…)»
            unread.append(f"{source[:80]} ({type(exc).__name__}: {exc})")
            continue
        keep(deal, m.start())
    for m in RETO.finditer(text):
        code = m.group(1).rstrip(".,;:»)")  # a code quoted in a sentence
        game = load_share(code)
        assert game.seed is not None, code
        keep((game.name.split(";")[0], game.seed, tuple(sorted(game.variant.items()))), m.start())
    return found, unread


@cache
def verdict(deal: Deal) -> str:
    game, seed, variant = deal
    return deal_verdict(game, seed, **dict(variant)).status


def test_the_scan_finds_every_kind_of_deal_and_a_lost_one() -> None:
    """The scan itself: without it the test below could pass by finding nothing."""
    text = """
```{code-cell} ipython3
sn.play("scotch", seed=1234)
```
castillo = sn.new_game("beleaguered_castle", seed=2026, takeback=False)
sn.Board(castillo.copy())
g = sn.Game.from_position("citadel", {"T0": ["AS"]})
sn.Board(g)
    .venv/bin/python -m solitaire_nb.classroom --reto citadel/1234 --alumnos 30
# sin solución a propósito
sn.play("citadel", seed=2026)
llama a `sn.play(…)` o a `Board(partida, hints=…, solution=…)`; `play(origen, destino)` mueve.
"""
    found, unread = deals_in(text)
    assert unread == []
    assert set(found) == {("scotch", 1234, ()), ("beleaguered_castle", 2026, (("takeback", False),)),
                          ("citadel", 1234, (("autoplay", True), ("deal_to_foundations", True), ("takeback", True)))}  # fmt: skip
    assert verdict(("scotch", 1234, ())) == "lost"


def test_the_pages_ask_for_deals_the_scan_can_read() -> None:
    seen: dict[Deal, list[str]] = {}
    for path in pages():
        found, unread = deals_in(page_text(path))
        assert unread == [], f"{path.name}: calls the scan cannot read: {unread}"
        for deal in found:
            seen.setdefault(deal, []).append(path.name)
    # the lessons' whole games are there (a scan that finds nothing proves nothing)
    assert ("citadel", 1234, ()) in seen and ("scotch", 1233, ()) in seen and ("citadel", 2000, ()) in seen
    assert any(deal[0] == "citadel" and deal[1] == 2000 and deal[2] for deal in seen)  # the guide's --reto


@pytest.mark.parametrize("path", pages(), ids=lambda p: p.name)
def test_every_deal_people_are_asked_to_play_can_be_won(path: Path) -> None:
    found, _ = deals_in(page_text(path))
    lost = {f"{g}/{s}{dict(v) or ''}": verdict((g, s, v)) for g, s, v in found if verdict((g, s, v)) != "won"}
    assert lost == {}, f"{path.name} asks to play deals the solver does not prove won: {lost}"


GAME_LESSONS = sorted((REPO / "notebooks").glob("0[0-5]_*.md"))


@pytest.mark.parametrize("path", GAME_LESSONS, ids=lambda p: p.name)
def test_the_game_lessons_deals_are_won_in_the_shipped_index(path: Path) -> None:
    """Lessons 00–05 tell the reader each whole deal «se puede ganar»: that rests on the index
    the package ships (`stored_verdict`), not on a solve run only by this test."""
    found, _ = deals_in(page_text(path))
    assert found, path.name
    unproved = {f"{g}/{s}{dict(v) or ''}": stored_verdict(g, s, **dict(v)) for g, s, v in found
                if stored_verdict(g, s, **dict(v)) != "won"}  # fmt: skip
    assert unproved == {}, f"{path.name}: deals not stored as won: {unproved}"


SAID_WON = re.compile(r"se pueden? ganar|partida ganada", re.I)


@pytest.mark.parametrize("path", GAME_LESSONS, ids=lambda p: p.name)
def test_the_game_lessons_say_each_whole_deal_can_be_won(path: Path) -> None:
    """A reader asked to play a whole deal is told it can be won: the text between the deal's
    heading and its board says «se puede ganar» (or the board replays «una partida ganada»).
    Second review of 00–05: 05's two n.º 1234 boards and 04's n.º 6 did not say so."""
    text = page_text(path)
    found, _ = deals_in(text)
    code = [m.span() for m in re.finditer(r"^```\{code-cell\}.*?^```$", text, re.M | re.S)]
    headings = [m.start() for m in re.finditer(r"^#{1,6} ", text, re.M) if not any(a <= m.start() < b for a, b in code)]
    silent = []
    for (game, seed, _variant), at in found.items():
        heading = max([h for h in headings if h < at], default=0)
        if not SAID_WON.search(text[heading:at]):
            silent.append(f"{game}/{seed}")
    assert silent == [], f"{path.name}: a whole deal not said to be winnable: {silent}"


def test_04s_kings_of_deal_6_are_where_the_page_says() -> None:
    """04 asks where deal n.º 6's Kings are and whether any has another card under it: the
    answer the page gives, checked on the deal."""
    g = sn.new_game("bakers_dozen", seed=6)
    kings = {str(c): (g.label(p), g.piles[p].index(c) + 1) for p in g.pile_ids if p.startswith("T")
             for c in g.piles[p] if c.rank == 13}  # fmt: skip
    assert kings == {"K♦": ("Tablero 1", 1), "K♠": ("Tablero 1", 2), "K♣": ("Tablero 11", 1), "K♥": ("Tablero 12", 1)}
    assert all(c.rank == 13 for p in g.pile_ids if p.startswith("T") for c in g.piles[p][: [x.rank for x in g.piles[p]].count(13)])
    dealt = sn.new_game("bakers_dozen", seed=6, kings_to_bottom=False)
    assert [c.rank for c in dealt.piles["T10"]].index(13) == 1 and dealt.piles["T11"][0].rank == 13
    page = (REPO / "notebooks" / "04_bakers_dozen.md").read_text(encoding="utf-8")
    assert "La K♣ está en el Tablero 11 y la K♥ en el Tablero 12, cada una la primera desde abajo" in page
