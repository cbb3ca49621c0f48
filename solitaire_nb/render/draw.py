"""Pure renderer: a game's position as an SVG (or HTML) string; the Spanish texts a board
shows beside it are `captions`'.

Nothing here imports a widget, plot or IO library: the same strings serve a notebook's static
output (``Game._repr_svg_``, nbconvert, GitHub) and the live board, whose front end only
draws what it receives and reports clicks.  Every card is an element carrying
``data-card`` (its code), ``data-pile`` and ``data-index`` (its place) and a Spanish
``aria-label``; a face-down card carries no code at all, so nothing leaks through the DOM.
Colours are presentation attributes rather than CSS, so the SVG looks right where no
stylesheet is loaded (GitHub, an exported page).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from html import escape
from typing import TYPE_CHECKING

from ..core.moves import Move
from .captions import move_lines, origin_text, plural, status_text, summary_text
from .layout import COUNT_H, LABEL_H, MAX_WIDTH, Layout, Slot, card_positions, layout

if TYPE_CHECKING:  # the renderer only reads a Game; no import cycle at run time
    from ..core.cards import Card
    from ..engine import Game

__all__ = ["MAX_WIDTH", "Layout", "Slot", "layout", "render_svg", "render_html"]

RED = "#c0162c"
BLACK = "#1a1a1a"
FELT = "#0b6b3a"
CARD = "#fffdf7"
LABEL = "#f3f3e8"
# Marks are two rings, a light one against the table and a dark one against the card: each
# keeps a contrast of at least 3:1 with what it touches (tests/test_render.py checks it).
SELECT_OUTER, SELECT_INNER = "#ffd23f", "#7a4a00"
HINT_OUTER, HINT_INNER = "#7fe3ff", "#00508f"

# ---------------------------------------------------------------------- drawing
_GAME_SURFACE = ("definition", "pile_ids", "piles", "label", "face_down", "moves_played")


def _check_args(game: object, selected: object = None, highlight: object = None, room: object = None) -> None:
    """Spanish ValueErrors for what cannot be drawn (docs/entradas.md)."""
    from ..core.checks import shown

    # The engine stands above the renderer (Game._repr_svg_ calls it): a Game is known by its surface.
    if not all(hasattr(game, name) for name in _GAME_SURFACE):
        raise ValueError(f"Solo se dibuja una partida (Game), no {shown(game)}")
    if room is not None and (
        isinstance(room, bool) or not isinstance(room, (int, float)) or not 1 <= room <= 100_000
    ):
        raise ValueError(f"room debe ser un ancho en píxeles entre 1 y 100000, no {shown(room)}")
    if selected is not None and not (
        isinstance(selected, tuple) and len(selected) == 2 and isinstance(selected[0], str)
        and isinstance(selected[1], int) and not isinstance(selected[1], bool)
    ):
        raise ValueError(f"selected debe ser (pila, índice), no {shown(selected)}")
    if highlight is None or isinstance(highlight, Move):
        return
    if isinstance(highlight, str):
        Move.parse(highlight)  # "T3>F0"; anything else is refused, not ignored
        return
    if not isinstance(highlight, Iterable) or not all(isinstance(p, str) for p in highlight):
        raise ValueError(f"highlight debe ser un movimiento o una lista de pilas, no {shown(highlight)}")


def render_svg(
    game: Game,
    *,
    selected: tuple[str, int] | None = None,
    highlight: Move | str | Iterable[str] | None = None,
    interactive: bool = False,
    room: float | None = None,
) -> str:
    """The position as an SVG document (a string), legible without any stylesheet.

    selected: (pile id, index of the first selected card) draws those cards outlined.
    highlight: a `Move` (or "T3>F0") outlines its moving cards and its target pile, as the
    board's hint does; an iterable of pile ids outlines those piles.
    interactive: the board's drawing: cards a reader can pick (and empty piles) become buttons
    with ``tabindex="-1"`` (the front end makes one of them the board's single Tab stop) and
    ``aria-pressed``; otherwise they are images, for a static page.
    room: the width (CSS px) the drawing will be shown at, when known: a drawing too wide for
    it is laid out again to fit (narrower cards, piles in more rows; see `layout`)."""
    _check_args(game, selected, highlight, room)
    piles = game.piles  # the position, read once for the whole drawing
    down = {pid: min(game.face_down(pid), len(cards)) for pid, cards in piles.items()}
    lay = layout(game, piles, room)
    hint_src: tuple[str, int] | None = None
    hint_piles: set[str] = set()
    if isinstance(highlight, str):
        highlight = Move.parse(highlight)  # checked in `_check_args`
    if isinstance(highlight, Move):
        hint_src = (highlight.src, highlight.n_cards)
        hint_piles.add(highlight.dst)
    elif highlight is not None:
        hint_piles.update(highlight)
    title = f"{game.definition.display_name}, {origin_text(game).lower()}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="snb-svg" role="group" '
        f'aria-label="{escape(title)}" viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" '
        f'width="{lay.width:.0f}" height="{lay.height:.0f}" style="max-width:100%;height:auto" '
        f'data-game="{game.name}" data-seed="{"" if game.seed is None else game.seed}" '
        f'data-moves="{game.moves_played}" data-card-width="{lay.card_w:.0f}" '
        f'font-family="DejaVu Sans, Arial, sans-serif">',
        _faces(piles, down, lay),
        f'<rect width="{lay.width:.0f}" height="{lay.height:.0f}" rx="8" fill="{FELT}" aria-hidden="true"/>',
    ]
    for text, gx, gy, gw in lay.groups:
        out.append(
            f'<g aria-hidden="true"><text x="{gx + gw / 2:.1f}" y="{gy + 2:.1f}" fill="{LABEL}" font-size="12" '
            f'font-weight="bold" text-anchor="middle">{escape(text)}</text>'
            f'<line x1="{gx:.1f}" y1="{gy + 6:.1f}" x2="{gx + gw:.1f}" y2="{gy + 6:.1f}" stroke="{LABEL}" '
            f'stroke-width="1" opacity="0.6"/></g>'
        )
    for slot in lay.slots:
        cards = piles[slot.pile]
        _draw_pile(out, game, slot, lay, cards, down[slot.pile], selected, hint_src, slot.pile in hint_piles, interactive)
    out.append("</svg>")
    return "".join(out)


def _draw_pile(
    out: list[str],
    game: Game,
    slot: Slot,
    lay: Layout,
    cards: tuple[Card, ...],
    fd: int,
    selected: tuple[str, int] | None,
    hint_src: tuple[str, int] | None,
    hinted: bool,
    interactive: bool,
) -> None:
    pid = slot.pile
    n = len(cards)
    cw, ch = lay.card_w, lay.card_h
    whole = summary_text(slot.label, n, fd)
    summary = whole + (", destino de la pista" if hinted else "")
    out.append(f'<g class="snb-pile" data-pile="{pid}" role="group" aria-label="{escape(summary)}">')
    # An invisible hit area over the whole slot: a click anywhere there targets the pile.
    hit_h = max(slot.h, ch) + LABEL_H + (COUNT_H if slot.fan == "stack" else 0)
    out.append(
        f'<rect class="snb-hit" x="{slot.x - 3:.1f}" y="{slot.y - LABEL_H:.1f}" width="{slot.w + 6:.1f}" '
        f'height="{hit_h:.1f}" fill="#000" fill-opacity="0" aria-hidden="true"/>'
    )
    anchor_x = slot.x if slot.fan == "right" else slot.x + cw / 2
    anchor = "start" if slot.fan == "right" else "middle"
    out.append(
        f'<text x="{anchor_x:.1f}" y="{slot.y - 5:.1f}" fill="{LABEL}" font-size="11" '
        f'text-anchor="{anchor}" pointer-events="none" aria-hidden="true">{escape(slot.shown_label)}</text>'
    )
    if slot.fan == "stack" and n:
        # A stacked pile shows one card: the count under it says what the label's pile holds.
        out.append(
            f'<text class="snb-count" x="{anchor_x:.1f}" y="{slot.y + ch + 12:.1f}" fill="{LABEL}" '
            f'font-size="11" text-anchor="middle" pointer-events="none" aria-hidden="true">'
            f"{plural(n, 'carta')}</text>"
        )
    outline = HINT_OUTER if hinted else "#cfe8d6"
    width = 3 if hinted else 1.2
    if n:
        hole_attrs = ' aria-hidden="true"'
    elif interactive:
        hole_attrs = f' tabindex="-1" role="button" aria-label="{escape(summary)}"'
    else:
        hole_attrs = f' role="img" aria-label="{escape(summary)}"'
    out.append(
        f'<rect class="snb-hole" data-pile="{pid}"{hole_attrs} x="{slot.x:.1f}" y="{slot.y:.1f}" '
        f'width="{cw:.0f}" height="{ch:.0f}" rx="5" fill="#000" fill-opacity="0.12" stroke="{outline}" '
        f'stroke-width="{width}" stroke-dasharray="5 4"/>'
    )
    if n:
        _draw_cards(out, slot, lay, cards, fd, whole, selected, hint_src, hinted, interactive)
    out.append("</g>")


def _draw_cards(out, slot, lay, cards, fd, summary, selected, hint_src, hinted, interactive) -> None:
    pid = slot.pile
    n = len(cards)
    cw, ch = lay.card_w, lay.card_h
    sel_from = selected[1] if selected is not None and selected[0] == pid else None
    hint_from = n - hint_src[1] if hint_src is not None and hint_src[0] == pid else None
    if slot.fan == "stack":
        # Draw only the top card, with one back peeking out below it when more cards lie
        # underneath: the face-down reserve and stock keep their order secret, and a
        # foundation's lower cards are covered anyway.  The count under the pile says how many.
        if n > 1:
            out.append(_back(pid, None, slot.x + 3, slot.y + 3, cw, ch, None))
        first = n - 1
        positions = {first: (slot.x, slot.y)}
    else:
        first = 0
        positions = dict(enumerate(card_positions(slot, n, fd, cw, ch)))
    focus_top_only = slot.fan == "stack"
    for k in range(first, n):
        x, y = positions[k]
        mark = None
        if sel_from is not None and k >= sel_from:
            mark = "select"
        elif hint_from is not None and k >= hint_from:
            mark = "hint"
        elif hinted and k == n - 1:
            mark = "hint"
        if k < fd:
            name = None
            if k == n - 1:  # a pile of backs only (stock, reserve): its top stands for the pile
                name = summary.replace(":", ",", 1)
            out.append(_back(pid, k, x, y, cw, ch, name, mark, interactive))
        else:
            name = f"{cards[k].nombre}, {slot.label}, carta {k + 1} de {n}"
            if mark == "hint":
                name += ", señalada por la pista"
            if interactive and (not focus_top_only or k == n - 1):
                role = f' role="button" tabindex="-1" aria-pressed="{"true" if mark == "select" else "false"}"'
            else:
                role = ' role="img"'
            out.append(
                f'<g class="snb-card" data-card="{cards[k].code}" data-pile="{pid}" data-index="{k}" '
                f'aria-label="{escape(name)}"{role} transform="translate({x:.1f},{y:.1f})">'
                f'<use href="#{_face_id(cards[k], cw)}"/>{_ring(cw, ch, mark)}{_focus_rect(cw, ch)}</g>'
            )


def _ring(cw: float, ch: float, mark: str | None) -> str:
    """A selection or hint mark: a light ring outside (seen against the table) around a dark
    one on the card's edge (seen against the card); the hint's dark ring is dashed, so the
    two marks differ without colour too."""
    if mark is None:
        return ""
    outer, inner, dash = (
        (SELECT_OUTER, SELECT_INNER, "") if mark == "select" else (HINT_OUTER, HINT_INNER, ' stroke-dasharray="6 3"')
    )
    return (
        f'<rect x="-2.5" y="-2.5" width="{cw + 5:.0f}" height="{ch + 5:.0f}" rx="7" fill="none" stroke="{outer}" '
        f'stroke-width="3"/>'
        f'<rect x="1.5" y="1.5" width="{cw - 3:.0f}" height="{ch - 3:.0f}" rx="4" fill="none" stroke="{inner}" '
        f'stroke-width="3"{dash}/>'
    )


def _focus_rect(cw: float, ch: float) -> str:
    """An invisible edge that board.css draws when the card has the keyboard's focus."""
    return f'<rect class="snb-focus" width="{cw:.0f}" height="{ch:.0f}" rx="5" fill="none" stroke="none"/>'


def _face_id(card, cw: float) -> str:
    return f"snb-face-{cw:.0f}-{card.code}"


def _faces(piles: dict[str, tuple[Card, ...]], down: dict[str, int], lay: Layout) -> str:
    """Each face-up card's drawing, once, in <defs>: a card on the table is a <use> of it.  The
    rank and suit are thus no text inside the card's button, whose accessible name
    («9 de picas, Tablero 1, carta 5 de 5») says more than the corner «9♠»; and the SVG a
    board sends on every click stays short.  Boards of the same card size on one
    page share ids, harmlessly: their definitions are identical."""
    seen = {}
    for pid, cards in piles.items():
        for card in cards[down[pid] :]:
            seen[card.code] = card
    bodies = "".join(
        f'<g id="{_face_id(card, lay.card_w)}">{_face_body(card, lay.card_w, lay.card_h)}</g>' for card in seen.values()
    )
    return f'<defs aria-hidden="true">{bodies}</defs>'


@lru_cache(maxsize=1024)
def _face_body(card, cw: float, ch: float) -> str:
    """A card's drawing (the same for every place it lies): cached, since a board redraws
    every card on every click."""
    colour = RED if card.is_red else BLACK
    text = str(card)
    big = cw * 0.48
    # «10♠» is a glyph wider than the others: squeeze it to their width so an overlapping card
    # never covers it.
    squeeze = ' textLength="22" lengthAdjust="spacingAndGlyphs"' if len(text) > 2 else ""
    small = ' textLength="18" lengthAdjust="spacingAndGlyphs"' if len(text) > 2 else ""
    return (
        f'<rect width="{cw:.0f}" height="{ch:.0f}" rx="5" fill="{CARD}" stroke="#6b6b6b" stroke-width="1"/>'
        f'<text x="3" y="15" fill="{colour}" font-size="14" font-weight="bold"{squeeze}>{text}</text>'
        f'<text x="{cw / 2:.1f}" y="{ch / 2 + big * 0.55:.1f}" fill="{colour}" font-size="{big:.0f}" '
        f'text-anchor="middle">{text[-1]}</text>'
        f'<text x="{cw - 4:.1f}" y="{ch - 6:.1f}" fill="{colour}" font-size="11" text-anchor="end"{small}>{text}</text>'
    )


def _back(
    pid: str,
    k: int | None,
    x: float,
    y: float,
    cw: float,
    ch: float,
    name: str | None,
    mark: str | None = None,
    interactive: bool = False,
) -> str:
    """A face-down card: hidden from screen readers (the pile's name counts them), unless it
    is the top of a pile of backs, which stands for the pile (the stock: «Mazo, 49 cartas»)."""
    index = f' data-index="{k}"' if k is not None else ""
    if name is None:
        a11y = ' aria-hidden="true"'
    elif interactive:
        a11y = f' role="button" tabindex="-1" aria-label="{escape(name)}"'
    else:
        a11y = f' role="img" aria-label="{escape(name)}"'
    return (
        f'<g class="snb-card snb-back" data-pile="{pid}"{index}{a11y} transform="translate({x:.1f},{y:.1f})">'
        f'<rect width="{cw:.0f}" height="{ch:.0f}" rx="5" fill="#24489a" stroke="#f4f4f4" stroke-width="1.5"/>'
        f'<rect x="5" y="5" width="{cw - 10:.0f}" height="{ch - 10:.0f}" rx="3" fill="none" stroke="#9db4ea" '
        f'stroke-width="1.2" stroke-dasharray="3 2"/>'
        f"{_ring(cw, ch, mark)}{_focus_rect(cw, ch) if name else ''}</g>"
    )


def render_html(game: Game) -> str:
    """A static HTML fragment: the status line, the SVG and the move list (no script)."""
    _check_args(game)
    lines = move_lines(game)
    moves = "".join(f"<li>{escape(line.strip())}</li>" for line in lines if not line.startswith(" "))
    moves_block = (
        f'<details><summary>Movimientos ({game.moves_played})</summary><ul style="margin:0;list-style:none;padding-left:1em">{moves}</ul></details>'
        if lines
        else ""
    )
    return (
        '<div class="snb-static" lang="es" style="font-family:DejaVu Sans, Arial, sans-serif;max-width:1000px">'
        f'<p class="snb-status" style="margin:4px 0">{escape(status_text(game))}</p>'
        f"{render_svg(game)}{moves_block}</div>"
    )
