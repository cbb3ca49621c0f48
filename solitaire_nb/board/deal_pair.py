"""The try step of notebook 06: one numbered deal dealt as Citadel and as Beleaguered Castle,
side by side, with what Citadel's deal did counted, a «Otro reparto» button and the running
tally of the deals the student has dealt (`deal_tally.Tally`).

The counting is `deal_tally`'s; this module only draws it and turns the clicks into
`count_deal` calls.  With `widget`, `boxes` and `lab`, one of the modules that import a widget
library (tests/test_widget_imports.py).
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as widgets

from ..render.draw import render_svg
from ..study.tally import COLUMNS, DealCounts, Tally, count_deal, counts_of, deal_both
from .boxes import StaticVBox
from .class_link import Launcher
from .deal_pool import BY_HAND, PoolPanel, class_launcher

PAIR_ROOM = 320  # CSS px: each deal's picture fits a phone held upright


#: the table's scroll box, named as such: on a phone its eight columns scroll sideways.
TABLE_LABEL = "Cartas en cada columna del tablero: en una pantalla estrecha, desliza para ver las ocho"


def pair_html(seed: int) -> tuple[str, DealCounts]:
    """Partida n.º `seed` both ways, side by side (stacked on a narrow screen), with a table of
    column lengths and the cards Citadel's deal sent home, as static HTML (what the widget shows, and its picture without a kernel)."""
    citadel, castle = deal_both(seed)
    # Laid out for a phone's width (two rows of columns): the same picture then reads on a
    # phone and, two side by side, on a wide screen.
    counts = counts_of(citadel)
    boards = "".join(
        f'<figure style="flex:1 1 300px;margin:0;min-width:0"><figcaption style="font-weight:bold">{escape(name)}, '
        f"partida n.º {seed}</figcaption>{render_svg(g, room=PAIR_ROOM)}</figure>"
        for name, g in (("Citadel", citadel), ("Beleaguered Castle", castle))
    )
    pad = "padding:2px 10px"
    head = "".join(f"<th style='{pad}'>Tablero {c + 1}</th>" for c in range(COLUMNS))
    rows = [
        ("Beleaguered Castle", [len(castle.piles[f"T{c}"]) for c in range(COLUMNS)]),
        ("Citadel, tras el reparto", list(counts.after_deal)),
        ("Citadel, tras el juego automático", list(counts.after_autoplay)),
    ]
    body = "".join(
        f"<tr><th style='text-align:left;{pad}'>{escape(name)}</th>" + "".join(f"<td style='{pad}'>{n}</td>" for n in lengths) + "</tr>"
        for name, lengths in rows
    )
    table = (
        f'<div role="region" tabindex="0" aria-label="{TABLE_LABEL}" style="overflow-x:auto;max-width:100%">'
        '<table class="snb-pair-table" style="border-collapse:collapse;text-align:center">'
        f"<caption>Cartas en cada columna del tablero <small>(en una pantalla estrecha, desliza la tabla "
        f"para ver las ocho)</small></caption><tr><th></th>{head}</tr>{body}</table></div>"
    )
    said = (
        f"<p class='snb-pair-counts'>Durante el reparto, Citadel manda <b>{counts.home_in_deal}</b> cartas a la base; "
        f"el juego automático sube <b>{counts.autoplay}</b> más. Cuántas columnas pierden alguna carta "
        "se cuenta en la tabla.</p>"
    )  # the columns are not said: notebook 06's exercise asks the reader to count them there
    html = f'<div lang="es" style="display:flex;flex-wrap:wrap;gap:12px">{boards}</div>{table}{said}'
    return html, counts


# ipywidgets sizes an HTML widget's content to its widest line: let the pictures wrap instead.
# On a phone a row of controls wraps and each button keeps its whole label (ipywidgets shrinks
# a button in a narrow row and cuts its label: «Otro rep…»); this holds for the class panel too.
_STYLE = (
    "<style>.snb-pair-picture > .widget-html-content{flex:1 1 0;min-width:0;width:100%}"
    ".snb-pair .widget-hbox{flex-wrap:wrap;row-gap:4px}"
    ".snb-pair .widget-button{width:auto;flex:0 0 auto}</style>"
)


class DealPair(StaticVBox):
    """«Partida n.º», «Repartir» and «Otro reparto» (the next number), the two deals side by side
    and the tally of every deal the student dealt with those buttons (each number counted once;
    the deal shown when the widget opens is not counted until the student deals it).  Below it,
    the class (`deal_pool.PoolPanel`): with `launcher` (by default the class launcher that
    started this kernel, if any) every deal counted is added to the class pool; without one, how
    the class pools by hand.

    With `counted=False` (an exercise's own board, one deal every student looks at) there is
    no tally, no class and no «Otro reparto»: dealing there never reaches «Tu cuenta» nor the
    class pool, so the class still deals different deals on the try board."""

    def __init__(self, seed: int = 1, launcher: Launcher | None | bool = True, counted: bool = True,
                 **kwargs: Any) -> None:
        self.counted = counted
        self.tally = Tally()
        # An uncounted board takes no seat: its PoolPanel would join the class as a second page.
        self.pool: PoolPanel | None = PoolPanel(class_launcher(launcher), self._seated) if counted else None
        self.number = widgets.BoundedIntText(value=seed, min=0, max=10**9, description="Partida n.º",
                                             layout=widgets.Layout(width="14em"))
        self.deal_button = widgets.Button(description="Repartir", button_style="primary")
        self.next_button = widgets.Button(description="Otro reparto", button_style="primary")
        self.picture = widgets.HTML()
        self.picture.add_class("snb-pair-picture")
        self.tally_html = widgets.HTML()
        self.deal_button.on_click(lambda _e: self._click(self.number.value))
        self.next_button.on_click(lambda _e: self._click(self.number.value + 1))
        if self.pool is not None:
            controls = widgets.HBox([self.number, self.deal_button, self.next_button])
            children = [widgets.HTML(_STYLE), controls, self.picture, self.tally_html, self.pool]
        else:
            children = [widgets.HTML(_STYLE), widgets.HBox([self.number, self.deal_button]), self.picture]
        super().__init__(children, **kwargs)
        self.add_class("snb-pair")
        if not counted:
            self.add_class("snb-pair-exercise")  # an exercise's board: the page tells the two apart
        self.deal(seed, count=False)

    def _click(self, seed: int) -> None:
        try:
            self.deal(min(seed, self.number.max))
        except Exception:  # noqa: BLE001 - a reader never sees a traceback
            self.tally_html.value = "<p role='status'>No he podido repartir esa partida; prueba con otro número.</p>"

    def deal(self, seed: int, count: bool = True) -> DealCounts:
        """Show partida n.º `seed` both ways and, with `count`, count it in the tally (once)."""
        html, counts = pair_html(seed)
        self.number.value = seed
        self.picture.value = html
        if self.pool is None:
            self.static_html = html
            return counts
        if count and self.tally.add(counts):
            self.pool.send_deal(seed)
        self.tally_html.value = f"<p class='snb-tally' role='status'><b>Tu cuenta.</b> {escape(self.tally.text())}</p>"
        self.static_html = f"{html}<p><i>Abre el cuaderno en marcha para repartir otras partidas.</i></p><p>{BY_HAND['06']}</p>"
        return counts


    def _seated(self, answer: dict) -> None:
        """The class gave this page a seat: its deals come back into the tally (a reload), and
        the widget moves to the seat's first deal number (seats deal different deals)."""
        start, mine = int(answer.get("inicio", 0)), [n for n in answer.get("mias", []) if isinstance(n, int)]
        for number in mine:
            self.tally.add(count_deal(number))
        self.deal(max(mine) + 1 if mine else start, count=False)


def deal_pair(seed: int = 1, counted: bool = True) -> DealPair:
    """The try widget of notebook 06, starting at partida n.º `seed`; with `counted=False`, an
    exercise's board that counts nothing (see `DealPair`)."""
    return DealPair(seed, counted=counted)
