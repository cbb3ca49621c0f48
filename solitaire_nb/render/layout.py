"""Where the renderer draws each pile: one row of "top" piles (reserve, stock, waste,
foundations) above the tableau, drawn as columns, or as a grid of row fans when a game has
too many piles for columns; and where each card of a pile lies inside its slot.

Pure geometry from the game's public view (its piles, their sizes and face-down counts, and
the foundations' directions); `render` draws on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only reads a Game; no import cycle at run time
    from ..core.cards import Card
    from ..engine import Game

MAX_WIDTH = 1000
"""Every layout fits a notebook this many pixels wide (two-deck games included)."""

@dataclass(frozen=True)
class Slot:
    """Where one pile is drawn: its box, how its cards overlap, and its label."""

    pile: str
    x: float
    y: float
    w: float  # the area the pile may use (cards compress to stay inside it)
    h: float
    fan: str  # "down" (column), "right" (row fan) or "stack" (only the top shows)
    label: str
    short: str = ""  # the label drawn when the full one is wider than the pile ("T10")

    @property
    def shown_label(self) -> str:
        return self.short or self.label


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    card_w: float
    card_h: float
    slots: tuple[Slot, ...]
    groups: tuple[tuple[str, float, float, float], ...]  # (text, x, y, width) over pile groups


LABEL_H = 16  # room above a pile for its label
COUNT_H = 14  # room under a stacked pile (foundation, stock) for its card count
MARGIN = 10


MIN_CARD = 40.0
"""The narrowest card a layout made for a given room draws (CSS px when shown unscaled)."""
COMFORT_CARD = 50.0
"""The usual layout is kept, scaled down, while its cards stay at least this wide on screen."""


def layout(
    game: Game, piles: Mapping[str, tuple[Card, ...]] | None = None, room: float | None = None
) -> Layout:
    """Choose a layout from the game's piles: one row of "top" piles (reserve, stock, waste,
    foundations) above the tableau, drawn as columns, or as a grid of row fans when there are
    too many piles for columns (Chequers' 25, Scotch's 18).  `piles` is ``game.piles`` when
    the caller has read it already.

    `room` is the width (CSS px) the drawing will have, when known (a live board measures it).
    Where the usual layout, scaled down to it, would show cards narrower than COMFORT_CARD,
    the layout is made for that width instead: narrower cards (never under MIN_CARD), and the
    piles wrapped into as few rows as keep every pile in view."""
    tableau = game.tableau_ids
    per_row = 5 if len(tableau) == 25 else 6
    if piles is None:
        piles = {pid: game.pile(pid) for pid in tableau}
    usual = _grid_layout(game, tableau, per_row) if len(tableau) > 13 else _column_layout(game, tableau, piles)
    if room is None or usual.card_w * min(1.0, room / usual.width) >= COMFORT_CARD:
        return usual
    if len(tableau) > 13:
        return _narrow_grid(game, tableau, per_row, room)
    return _narrow_columns(game, tableau, piles, room)


def _top_row(game: Game, cw: float, ch: float, step: float, x0: float) -> tuple[list[Slot], list, float]:
    """Reserve / stock / waste then the foundations, left to right, from x0; foundations going
    up and down (Chequers) as two labelled groups."""
    slots: list[Slot] = []
    groups = []
    y = MARGIN + LABEL_H + 14
    x = x0
    for pid in ("R", "S", "W"):
        if pid in game.pile_ids:
            slots.append(Slot(pid, x, y, cw, ch, "stack", game.label(pid)))
            x += step
    fnd = game.foundation_ids
    directions = [rule.direction for rule in game.rules.foundations]
    two_groups = len(set(directions)) > 1
    if slots:
        x += step * 0.35
    for k, pid in enumerate(fnd):
        if two_groups and k > 0 and directions[k] != directions[k - 1]:
            x += step * 0.35
        slots.append(Slot(pid, x, y, cw, ch, "stack", game.label(pid)))
        x += step
    if two_groups:
        for direction, text in (("up", "que suben"), ("down", "que bajan")):
            members = [s for s, d in zip(slots[-len(fnd) :], directions, strict=True) if d == direction]
            gx = members[0].x
            groups.append((f"Bases {text}", gx, MARGIN + 10, members[-1].x + cw - gx))
    return slots, groups, y + ch + COUNT_H


def _pile_extent(n: int, fd: int, fan_step: float, down_step: float) -> float:
    fd = min(fd, n)
    return max(0, fd) * down_step + max(0, n - fd - 1) * fan_step if n else 0


def _column_layout(game: Game, tableau: tuple[str, ...], piles: Mapping[str, tuple[Card, ...]]) -> Layout:
    cw, ch = 62.0, 86.0
    n_tab = len(tableau)
    gap = 12.0 if n_tab <= 10 else 8.0
    step = cw + gap
    n_fnd = len(game.foundation_ids)
    top_count = sum(p in game.pile_ids for p in "RSW") + n_fnd
    top_w = top_count * step - gap + (step * 0.35 if top_count > n_fnd else 0)
    tab_w = n_tab * step - gap
    width = 2 * MARGIN + max(tab_w, top_w, 9 * step)
    tab_x0 = (width - tab_w) / 2
    top_x0 = (width - top_w) / 2
    slots, groups, bottom = _top_row(game, cw, ch, step, top_x0)
    y = bottom + 14 + LABEL_H
    # Each column may grow down as far as its cards need (the page scrolls vertically, never
    # horizontally); very long columns compress so the board stays under a screen's height.
    need = max([_pile_extent(len(piles[p]), game.face_down(p), FAN_DOWN, BACK_DOWN) for p in tableau] + [0])
    col_h = ch + min(need, 560)
    for k, pid in enumerate(tableau):
        slots.append(Slot(pid, tab_x0 + k * step, y, cw, col_h, "down", game.label(pid)))
    return Layout(width, y + col_h + MARGIN, cw, ch, tuple(slots), tuple(groups))


def _grid_layout(game: Game, tableau: tuple[str, ...], per_row: int) -> Layout:
    cw, ch = 50.0, 70.0
    width = float(MAX_WIDTH - 2 * MARGIN)
    step_top = cw + 12
    top_count = sum(p in game.pile_ids for p in "RSW") + len(game.foundation_ids)
    top_w = top_count * step_top + step_top * 0.7
    top = _top_row(game, cw, ch, step_top, max(MARGIN, (width - top_w) / 2))
    return _fan_rows(game, tableau, per_row, top, width, MARGIN, (width - 2 * MARGIN) / per_row, 12, cw, ch)


def _fan_rows(
    game: Game, tableau: tuple[str, ...], per_row: int, top: tuple[list, list, float],
    width: float, left: float, slot_w: float, gap: float, cw: float, ch: float,
) -> Layout:
    """The row fans `per_row` to a row under the top row (`top`: its slots, groups and bottom),
    each `slot_w` wide less `gap`, from `left`."""
    slots, groups, bottom = top
    y = bottom + 14
    row_h = LABEL_H + ch + 10
    for k, pid in enumerate(tableau):
        r, c = divmod(k, per_row)
        slots.append(Slot(pid, left + c * slot_w, y + r * row_h + LABEL_H, slot_w - gap, ch, "right", game.label(pid)))
    rows = -(-len(tableau) // per_row)
    return Layout(width, y + rows * row_h + MARGIN, cw, ch, tuple(slots), tuple(groups))


# ---------------------------------------------------------------------- a given width
NARROW_GAP = 6.0
NARROW_MARGIN = 6.0


LABEL_CHAR_W = 6.8  # a generous width of one character of an 11-px label


def _shorts(labels: list[str], room: float) -> list[str]:
    """The labels as the typed notation writes the piles ("Tablero 10" → "T10", "Mazo" → "M")
    when any of them would not fit in `room` px (all alike, so a row reads evenly); else ""."""
    if all(len(label) * LABEL_CHAR_W <= room for label in labels):
        return [""] * len(labels)
    return [_short(label) for label in labels]


def _short(label: str) -> str:
    words = label.split()
    return words[0][0].upper() + (words[-1] if len(words) > 1 and words[-1].isdigit() else "")


def _narrow_top(game: Game, cw: float, ch: float, width: float) -> tuple[list[Slot], list, float]:
    """The top piles for a narrow drawing: reserve / stock / waste, then the foundations (as
    two labelled groups when they go up and down), flowing into as many lines as `width` needs."""
    fnd = game.foundation_ids
    directions = [rule.direction for rule in game.rules.foundations]
    two_groups = len(set(directions)) > 1
    blocks: list[tuple[str | None, list[str]]] = []
    extra: list[str] = [pid for pid in ("R", "S", "W") if pid in game.pile_ids]
    if extra:
        blocks.append((None, extra))
    if two_groups:
        for direction, towards in (("up", "que suben"), ("down", "que bajan")):
            blocks.append((f"Bases {towards}", [p for p, d in zip(fnd, directions, strict=True) if d == direction]))
    elif fnd:
        blocks.append((None, list(fnd)))
    step = cw + NARROW_GAP
    right = width - NARROW_MARGIN
    lines: list[list[tuple[str | None, str, float]]] = [[]]  # (group, pile, x) per line
    x = NARROW_MARGIN
    for text, members in blocks:
        if lines[-1]:
            x += step * 0.35
            if x + len(members) * step - NARROW_GAP > right:  # a block starts on a fresh line if it can
                lines.append([])
                x = NARROW_MARGIN
        for pid in members:
            if lines[-1] and x + cw > right:
                lines.append([])
                x = NARROW_MARGIN
            lines[-1].append((text, pid, x))
            x += step
    head = 14 if two_groups else 0
    line_h = head + LABEL_H + ch + COUNT_H + 6
    slots: list[Slot] = []
    groups = []
    top = [pid for line in lines for _, pid, _ in line]
    shorts = dict(zip(top, _shorts([game.label(pid) for pid in top], step - 2), strict=True))
    for k, line in enumerate(lines):
        if not line:
            continue
        shift = (right - (line[-1][2] + cw)) / 2  # centred
        y0 = MARGIN + k * line_h
        for _group, pid, x in line:
            slots.append(Slot(pid, x + shift, y0 + head + LABEL_H, cw, ch, "stack", game.label(pid), shorts[pid]))
        for text in dict.fromkeys(t for t, _, _ in line if t):
            xs = [x + shift for t, _, x in line if t == text]
            groups.append((text, xs[0], y0 + 10, xs[-1] + cw - xs[0]))
    used = sum(1 for line in lines if line)
    return slots, groups, MARGIN + used * line_h - 6


def _narrow_columns(game: Game, tableau: tuple[str, ...], piles: Mapping[str, tuple[Card, ...]], room: float) -> Layout:
    """The tableau's columns in as few rows as keep cards at least MIN_CARD wide in `room`."""
    width = float(int(room))
    n = len(tableau)
    inner = width - 2 * NARROW_MARGIN
    per_row, cw = 1, MIN_CARD
    for rows in range(1, n + 1):
        k = -(-n // rows)
        fit = (inner - (k - 1) * NARROW_GAP) / k
        if fit >= MIN_CARD:
            per_row, cw = k, min(62.0, float(int(fit)))
            break
    ch = float(round(cw * 86 / 62))
    slots, groups, bottom = _narrow_top(game, cw, ch, width)
    need = max([_pile_extent(len(piles[p]), game.face_down(p), FAN_DOWN, BACK_DOWN) for p in tableau] + [0])
    col_h = ch + min(need, 560)
    row_h = LABEL_H + col_h + 10
    y = bottom + 14 + LABEL_H
    step = cw + NARROW_GAP
    shorts = _shorts([game.label(pid) for pid in tableau], step - 2)
    for k, pid in enumerate(tableau):
        r, c = divmod(k, per_row)
        in_row = min(per_row, n - r * per_row)
        x0 = (width - (in_row * step - NARROW_GAP)) / 2
        slots.append(Slot(pid, x0 + c * step, y + r * row_h, cw, col_h, "down", game.label(pid), shorts[k]))
    rows = -(-n // per_row)
    return Layout(width, y + (rows - 1) * row_h + col_h + MARGIN, cw, ch, tuple(slots), tuple(groups))


def _narrow_grid(game: Game, tableau: tuple[str, ...], per_row: int, room: float) -> Layout:
    """The row fans of a many-pile game in as many fans per row as `room` has space for."""
    cw, ch = 50.0, 70.0
    width = float(int(room))
    inner = width - 2 * NARROW_MARGIN
    per_row = max(1, min(per_row, int(inner // 130)))
    top = _narrow_top(game, cw, ch, width)
    return _fan_rows(game, tableau, per_row, top, width, NARROW_MARGIN, inner / per_row, 10, cw, ch)


FAN_DOWN = 24.0  # vertical overlap of face-up cards in a column (the corner index stays visible)
BACK_DOWN = 9.0  # face-down cards overlap more: there is nothing to read on them
FAN_RIGHT = 33.0


def card_positions(slot: Slot, n: int, fd: int, cw: float, ch: float) -> list[tuple[float, float]]:
    """Top-left corner of each card of a pile, bottom to top, compressed to fit the slot."""
    if n == 0:
        return []
    if slot.fan == "stack":
        return [(slot.x, slot.y)] * n
    if slot.fan == "right":
        step = FAN_RIGHT if n == 1 else min(FAN_RIGHT, (slot.w - cw) / (n - 1))
        return [(slot.x + i * step, slot.y) for i in range(n)]
    down = [BACK_DOWN if i < fd else FAN_DOWN for i in range(n - 1)]
    total = sum(down)
    room = slot.h - ch
    scale = 1.0 if total <= room or total == 0 else room / total
    out, y = [], slot.y
    for i in range(n):
        out.append((slot.x, y))
        if i < n - 1:
            y += down[i] * scale
    return out

