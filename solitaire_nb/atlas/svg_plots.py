"""The atlas's pictures drawn as SVG, for where matplotlib is absent (the serverless sites): the
same names, arguments, titles and marks as `atlas.plots`, one row per entry with its label
above its bar so that it reads on a phone.  ``from solitaire_nb.atlas import plots`` gives this
module when matplotlib is missing (`study.HAVE_MATPLOTLIB`)."""

from __future__ import annotations

import html
import textwrap
from urllib.parse import quote

from ..core.numbers_es import percent, thousands
from ..games import GAMES
from .view import NOTHING_DECIDED, PLAYER, SOLVER_PEEKS, entry_label, rows_with_players, who

WIDTH, MARGIN, ROW, LINE = 720, 24, 30, 20
GREEN, ORANGE, BLUE, RED, GREY = "#2ca02c", "#ff7f0e", "#1f77b4", "#d62728", "#595959"


class Picture:
    """An SVG drawing a page shows as itself (``_repr_svg_``) or inside a text (`inline_image`)."""

    def __init__(self, title: str, body: list[str], height: float):
        self.title, self.body, self.height = title, body, height

    def svg(self) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {self.height:.0f}" role="img" '
                f'aria-label="{html.escape(self.title)}" style="width:100%;max-width:{WIDTH}px;height:auto" '
                f'font-family="DejaVu Sans, Arial, sans-serif"><rect width="100%" height="100%" fill="white"/>'
                + "".join(self.body) + "</svg>")

    def _repr_svg_(self) -> str:
        return self.svg()


def _x(rate: float) -> float:
    return MARGIN + rate * (WIDTH - 2 * MARGIN)


def _text(x: float, y: float, text: str, size: int = 16, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>{html.escape(text)}</text>'


def _title(title: str) -> tuple[list[str], float]:
    lines = textwrap.wrap(title, 56) or [""]
    return [_text(WIDTH / 2, 30 + 24 * k, line, 19, "middle", ' font-weight="bold"') for k, line in enumerate(lines)], 30 + 24 * len(lines)


def _axis(y: float, label: str) -> list[str]:
    out = [f'<line x1="{_x(0)}" x2="{_x(1)}" y1="{y:.1f}" y2="{y:.1f}" stroke="#333"/>']
    for p in range(0, 101, 20):
        out.append(f'<line x1="{_x(p / 100):.1f}" x2="{_x(p / 100):.1f}" y1="{y:.1f}" y2="{y + 5:.1f}" stroke="#333"/>')
        out.append(_text(_x(p / 100), y + 22, str(p), 14, "middle"))
    return out + [_text(WIDTH / 2, y + 46, label, 16, "middle")]


def _legend(y: float, keys: list[tuple[str, str]]) -> tuple[list[str], float]:
    out = []
    for mark, label in keys:
        out += [mark.format(x=MARGIN + 13, y=y - 5), _text(MARGIN + 34, y, label, 15)]
        y += 24
    return out, y


_DOT = '<circle cx="{x}" cy="{y}" r="6" fill="%s"/>'
_SQUARE = '<rect x="{x}" y="{y}" width="12" height="12" fill="%s" transform="translate(-6 -6)"/>'
_BAR = '<rect x="{x}" y="{y}" width="24" height="12" fill="%s" stroke="%s" transform="translate(-12 -6)"/>'


def plot_win_rates(entries: list[dict], ax: None = None, reference: dict | None = None,
                   players: list[dict] | None = None) -> Picture:
    """Win rate of each atlas entry as the data allows (see `atlas.plots.plot_win_rates`): a
    point, a range for the undecided deals or «—», the 95 % interval as a thin line."""
    rows = rows_with_players(entries, players or [])
    title = "Porcentaje de victorias por juego y variante"
    body, y = _title(title)
    keys: dict[str, str] = {}
    for e in rows:
        label = f"{entry_label(e)}, {thousands(e['computed_deals'])} partidas"
        if who(e) in (PLAYER, SOLVER_PEEKS):
            label += f" ({who(e)})"
        for line in textwrap.wrap(label, 70):
            y += LINE
            body.append(_text(MARGIN, y, line, 15))
        y += ROW / 2 + 4
        won, lost, unknown = e["won"], e["lost"], e["unknown"]
        n = won + lost + unknown
        peeks = who(e) == SOLVER_PEEKS
        if won + lost == 0:
            body.append(_text(WIDTH / 2, y + 5, f"{NOTHING_DECIDED} ninguna partida decidida {NOTHING_DECIDED}", 14,
                              "middle", f' fill="{GREY}"'))
            y += ROW / 2
            continue
        body.append(f'<line x1="{_x(e["interval_low"]):.1f}" x2="{_x(e["interval_high"]):.1f}" y1="{y:.1f}" '
                    f'y2="{y:.1f}" stroke="{GREY}" stroke-width="2"/>')
        keys.setdefault("intervalo de confianza del 95 %", f'<line x1="0" x2="24" y1="0" y2="0" stroke="{GREY}" '
                        'stroke-width="2" transform="translate({x} {y}) translate(-12 0)"/>')
        if who(e) == PLAYER:
            body.append(_SQUARE.replace("{x}", f"{_x(won / n):.1f}").replace("{y}", f"{y:.1f}") % GREEN)
            keys.setdefault("jugador que no mira", _SQUARE % GREEN)
        elif unknown:
            stroke = "black" if peeks else ORANGE
            body.append(f'<rect x="{_x(won / n):.1f}" y="{y - 7:.1f}" width="{max(_x(unknown / n) - MARGIN, 1):.1f}" '
                        f'height="14" fill="{ORANGE}" stroke="{stroke}"/>')
            label = "margen de las partidas sin decidir" + (": el resolvedor ve las cartas boca abajo" if peeks else "")
            keys.setdefault(label, _BAR % (ORANGE, stroke))
        elif peeks:
            body.append(_text(_x(won / n), y + 7, "×", 24, "middle", ' font-weight="bold"'))
            keys.setdefault("todas decididas: el resolvedor ve las cartas boca abajo",
                            '<text x="{x}" y="{y}" font-size="24" text-anchor="middle" dy="8">×</text>')
        else:
            body.append(_DOT.replace("{x}", f"{_x(won / n):.1f}").replace("{y}", f"{y:.1f}") % BLUE)
            keys.setdefault("todas decididas", _DOT % BLUE)
        if reference is not None and e["key"] == reference["entry"]:
            x = _x(reference["published_rate"])
            body.append(f'<rect x="{x - 6:.1f}" y="{y - 6:.1f}" width="12" height="12" fill="{RED}" '
                        f'transform="rotate(45 {x:.1f} {y:.1f})"/>')
            keys.setdefault("Blake y Gent (2019)", f'<rect x="{{x}}" y="{{y}}" width="11" height="11" fill="{RED}" '
                            'transform="translate(-5.5 -5.5) rotate(45 5.5 5.5)"/>')
        y += ROW / 2
    body += _axis(y + 8, "Porcentaje de victorias (%)")
    legend, bottom = _legend(y + 90, [(mark, label) for label, mark in keys.items()])
    return Picture(title, body + legend, bottom)


def plot_bracket(player: dict, solver: dict, page_rate: float, ax: None = None) -> Picture:
    """Where a rate quoted by a rules page falls between the no-peek player's 95 % interval and
    that of a solver that sees face-down cards (see `atlas.plots.plot_bracket`)."""
    title = f"{GAMES[player['game']].display_name}: entre el {PLAYER} y el {SOLVER_PEEKS}"
    body, y = _title(title)
    for row, color, stroke in ((player, GREEN, GREEN), (solver, ORANGE, "black")):
        name = PLAYER if row is player else "resolvedor que ve las cartas boca abajo"
        body.append(_text(MARGIN, y + LINE, name, 15))
        low, high = _x(row["interval_low"]), _x(row["interval_high"])
        body.append(f'<rect x="{low:.1f}" y="{y + 30:.1f}" width="{max(high - low, 1):.1f}" height="16" '
                    f'fill="{color}" stroke="{stroke}"/>')
        y += 60
    x = _x(page_rate)
    top = _title(title)[1]
    body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top:.1f}" y2="{y:.1f}" stroke="black" stroke-width="2" '
                'stroke-dasharray="6 4"/>')
    anchor = "start" if page_rate < 0.6 else "end"
    body.append(_text(x + (6 if anchor == "start" else -6), y - 4, f"{percent(page_rate, 0)} de la página", 15, anchor))
    body += _axis(y + 8, "partidas ganadas (%), intervalo de confianza del 95 %")
    return Picture(title, body, y + 70)


def inline_image(figure: Picture) -> str:
    """The picture as an ``<img>`` inside a text (a folded part of a page)."""
    return f'<img alt="gráfica" style="width:100%;max-width:{WIDTH}px" src="data:image/svg+xml,{quote(figure.svg())}"/>'
