"""A small SVG plotter for the studies' charts where matplotlib is absent (the serverless sites:
Pyodide serves matplotlib only from its CDN).  `Chart` draws bars, lines with points, bands and
reference lines on one pair of axes, with a Spanish title, labels, decimal commas and the legend
under the plot (readable on a phone); the picture scales to its box (``width: 100%``).

A chart shows itself at the end of the cell that made it, as matplotlib's inline backend does
(``graficos.plot_x(r);`` with its semicolon still shows the plot), unless the cell displayed it
already.
"""

from __future__ import annotations

import html
import math
import textwrap
from collections.abc import Sequence
from typing import Any

from ..core.numbers_es import comma_ticks

WIDTH, HEIGHT = 720, 430
LEFT, RIGHT, TOP, BOTTOM = 78, 18, 56, 78
TITLE, LABEL, TICKS, LEGEND = 19, 16, 14, 14


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = span / max(ticks, 1)
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def tick_text(value: float, step: float) -> str:
    """A tick label in Spanish: decimal comma, as many decimals as the step needs."""
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    if step < 1 and round(step * 10**decimals) % 10 != 0 and round(step, decimals) != step:
        decimals += 1
    return comma_ticks(f"{value:.{decimals}f}")


class Chart:
    """One plot: call the drawing methods, then `svg()` (or let the page show it)."""

    def __init__(self, title: str, xlabel: str, ylabel: str, xlim: tuple[float, float], ylim: tuple[float, float]):
        self.title, self.xlabel, self.ylabel = title, xlabel, ylabel
        self.xlim, self.ylim = xlim, ylim
        self.items: list[str] = []
        self.legend: list[tuple[str, str, str]] = []  # (kind, color, label)
        self.xticks: list[tuple[float, str]] | None = None
        self.shown = False
        # a long title wraps, and the plot moves down by its extra lines
        self.title_lines = textwrap.wrap(title, 52) or [""]
        self.top = TOP + 24 * (len(self.title_lines) - 1)
        self.height = HEIGHT + 24 * (len(self.title_lines) - 1)
        _pending(self)

    # ------------------------------------------------------------------ coordinates
    def x(self, v: float) -> float:
        lo, hi = self.xlim
        return LEFT + (v - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT)

    def y(self, v: float) -> float:
        lo, hi = self.ylim
        return self.height - BOTTOM - (v - lo) / (hi - lo) * (self.height - self.top - BOTTOM)

    def _key(self, kind: str, color: str, label: str | None) -> None:
        if label:
            self.legend.append((kind, color, label))

    # ------------------------------------------------------------------ drawing
    def bars(self, xs: Sequence[float], heights: Sequence[float], color: str, label: str | None = None,
             width: float = 0.8, opacity: float = 1.0) -> None:
        for v, h in zip(xs, heights, strict=True):
            if h <= 0 or not self.xlim[0] <= v <= self.xlim[1]:
                continue
            x0, x1 = self.x(v - width / 2), self.x(v + width / 2)
            self.items.append(f'<rect x="{x0:.1f}" y="{self.y(h):.1f}" width="{x1 - x0:.1f}" '
                              f'height="{self.y(0) - self.y(h):.1f}" fill="{color}" fill-opacity="{opacity}"/>')
        self._key("bar", color, label)

    def line(self, xs: Sequence[float], ys: Sequence[float], color: str, label: str | None = None,
             points: bool = True, lines: bool = True, width: float = 3, dash: str | None = None) -> None:
        coords = [(self.x(a), self.y(b)) for a, b in zip(xs, ys, strict=True)]
        if lines and len(coords) > 1:
            path = " ".join(f"{a:.1f},{b:.1f}" for a, b in coords)
            extra = f' stroke-dasharray="{dash}"' if dash else ""
            self.items.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="{width}"{extra}/>')
        if points:
            self.items += [f'<circle cx="{a:.1f}" cy="{b:.1f}" r="5" fill="{color}"/>' for a, b in coords]
        self._key("point" if points and not lines else "line", color, label)

    def band(self, xs: Sequence[float], low: Sequence[float], high: Sequence[float], color: str) -> None:
        upper = [f"{self.x(a):.1f},{self.y(b):.1f}" for a, b in zip(xs, high, strict=True)]
        lower = [f"{self.x(a):.1f},{self.y(b):.1f}" for a, b in zip(reversed(xs), reversed(low), strict=True)]
        self.items.append(f'<polygon points="{" ".join(upper + lower)}" fill="{color}" fill-opacity="0.35"/>')

    def hline(self, y: float, color: str, label: str | None = None, width: float = 3) -> None:
        self.items.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{self.y(y):.1f}" y2="{self.y(y):.1f}" '
                          f'stroke="{color}" stroke-width="{width}"/>')
        self._key("line", color, label)

    def vline(self, x: float, color: str, label: str | None = None, width: float = 3, dash: str | None = None) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(f'<line x1="{self.x(x):.1f}" x2="{self.x(x):.1f}" y1="{self.top}" y2="{self.height - BOTTOM}" '
                          f'stroke="{color}" stroke-width="{width}"{extra}/>')
        self._key("line", color, label)

    def vspan(self, low: float, high: float, color: str, label: str | None = None) -> None:
        self.items.append(f'<rect x="{self.x(low):.1f}" y="{self.top}" width="{max(self.x(high) - self.x(low), 1):.1f}" '
                          f'height="{self.height - self.top - BOTTOM}" fill="{color}" fill-opacity="0.4"/>')
        self._key("bar", color, label)

    # ------------------------------------------------------------------ output
    def _axes(self) -> list[str]:
        out = []
        lo, hi = self.ylim
        step = _nice_step(hi - lo)
        v = math.ceil(lo / step) * step
        while v <= hi + 1e-9:
            y = self.y(v)
            out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{LEFT - 8}" y="{y + 5:.1f}" text-anchor="end" font-size="{TICKS}">'
                       f"{tick_text(v, step)}</text>")
            v += step
        ticks = self.xticks
        if ticks is None:
            xlo, xhi = self.xlim
            xstep = max(1.0, _nice_step(xhi - xlo, 8))
            first = math.ceil(xlo / xstep) * xstep
            ticks = [(first + k * xstep, tick_text(first + k * xstep, xstep))
                     for k in range(int((xhi - first) / xstep) + 1)]
        for v, text in ticks:
            out.append(f'<text x="{self.x(v):.1f}" y="{self.height - BOTTOM + 22}" text-anchor="middle" '
                       f'font-size="{TICKS}">{html.escape(text)}</text>')
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{self.height - BOTTOM}" y2="{self.height - BOTTOM}" stroke="#333"/>')
        out.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{self.top}" y2="{self.height - BOTTOM}" stroke="#333"/>')
        out += [f'<text x="{WIDTH / 2:.0f}" y="{30 + 24 * k}" text-anchor="middle" font-size="{TITLE}" '
                f'font-weight="bold">{html.escape(line)}</text>' for k, line in enumerate(self.title_lines)]
        out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{self.height - BOTTOM + 52}" text-anchor="middle" '
                   f'font-size="{LABEL}">{html.escape(self.xlabel)}</text>')
        out.append(f'<text transform="translate(20 {(self.top + self.height - BOTTOM) / 2:.0f}) rotate(-90)" '
                   f'text-anchor="middle" font-size="{LABEL}">{html.escape(self.ylabel)}</text>')
        return out

    def _legend(self) -> tuple[list[str], int]:
        out, y = [], self.height + 6
        for kind, color, label in self.legend:
            if kind == "bar":
                out.append(f'<rect x="{LEFT}" y="{y - 11}" width="26" height="14" fill="{color}"/>')
            elif kind == "point":
                out.append(f'<circle cx="{LEFT + 13}" cy="{y - 4}" r="5" fill="{color}"/>')
            else:
                out.append(f'<line x1="{LEFT}" x2="{LEFT + 26}" y1="{y - 4}" y2="{y - 4}" stroke="{color}" stroke-width="4"/>')
            out.append(f'<text x="{LEFT + 36}" y="{y + 1}" font-size="{LEGEND}">{html.escape(label)}</text>')
            y += 24
        return out, y

    def svg(self) -> str:
        clip = f'<clipPath id="c"><rect x="{LEFT}" y="{self.top}" width="{WIDTH - LEFT - RIGHT}" height="{self.height - self.top - BOTTOM}"/></clipPath>'
        legend, bottom = self._legend()
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {bottom}" role="img" '
            f'aria-label="{html.escape(self.title)}" style="width:100%;max-width:{WIDTH}px;height:auto" '
            f'font-family="DejaVu Sans, Arial, sans-serif">{clip}<rect width="100%" height="100%" fill="white"/>'
            + "".join(self._axes())
            + f'<g clip-path="url(#c)">{"".join(self.items)}</g>'
            + "".join(legend)
            + "</svg>"
        )

    def _repr_svg_(self) -> str:
        self.shown = True
        return self.svg()

    def __repr__(self) -> str:
        return f"<gráfica: {self.title}>"


# ---------------------------------------------------------------------- shown at the cell's end
_WAITING: list[Chart] = []
_HOOKED: list[Any] = []


def _pending(chart: Chart) -> None:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - no IPython, no page
        return
    shell = get_ipython()
    if shell is None:
        return
    if shell not in _HOOKED:
        shell.events.register("post_execute", _flush)
        _HOOKED.append(shell)
    _WAITING.append(chart)


def _flush() -> None:
    from IPython.display import display

    waiting = list(_WAITING)
    _WAITING.clear()
    for chart in waiting:
        if not chart.shown:
            display(chart)
