"""The pure renderer: a game's position as an SVG or HTML string (`render_svg`, `render_html`)
and the Spanish texts a board shows beside it (`captions`); `layout` places the piles."""

from __future__ import annotations

from .captions import deal_lines, move_lines, move_text, pile_summary, status_text, step_lines
from .draw import MAX_WIDTH, Layout, Slot, layout, render_html, render_svg

__all__ = [
    "MAX_WIDTH",
    "Layout",
    "Slot",
    "layout",
    "render_svg",
    "render_html",
    "pile_summary",
    "status_text",
    "move_text",
    "step_lines",
    "move_lines",
    "deal_lines",
]
