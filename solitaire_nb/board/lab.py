"""The rules lab: compose a game of the one-deck open family, play it beside the game it comes
from, and measure what the change does (`sn.lab("beleaguered_castle")`).

A control per change `custom` accepts, each group with the Spanish sentences of the rules it
sets; the composed game's name; two boards on the same deal number (the composed game and the
original); the paired statistics of 10,000 deals of both games (`compare`) with a compact plot,
recomputed on each change; and «¿Cuántas se pueden ganar?», the verdicts on deals 1 to 100 of
both games in three columns (with solution, without, undecided) and deal by deal, with a progress
bar and a «Detener» button (`lab_wins`: stored samples read, others solved in a background thread
or, in Pyodide, deal by deal on the page's event loop).  No exception reaches the
reader: a refused change shows its Spanish message and the previous game stays.

The computations live in `atlas.lab_measures`, free of widgets; this module only shows them.
"""

from __future__ import annotations

import threading
from typing import Any

import ipywidgets as widgets

from ..atlas import lab_measures as work
from ..core.numbers_es import thousands
from ..core.rules import GameDef
from ..games import GAMES, custom
from .boxes import StaticVBox
from .buttons import Buttons, typed_seed
from .lab_wins import WinCount, escape
from .widget import Board

SEED_MAX = 999_999_999  # the deal number box; the boards' own box takes any deal number


class _LabButtons(Buttons):
    """«Nueva partida» asks the lab for the deal (the lab's boards offer no other game)."""

    board: _LabBoard

    def new(self, msg: dict) -> None:
        raw = msg.get("seed")
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            self.board._on_new(None)  # no number: a deal chosen at random, as a plain board does
            return
        seed = typed_seed(raw)
        if seed is None or seed > SEED_MAX:
            self.board.say(f"El número de partida debe ser un número entero entre 0 y {thousands(SEED_MAX)}.", "error")
            return
        self.board._on_new(seed)


class _LabBoard(Board):
    """A board whose «Nueva partida» asks the lab for the deal, so that both boards keep showing
    the same deal number."""

    _restores_other_deals = False  # the lab chooses the deal of both boards
    buttons_type = _LabButtons

    def __init__(self, game: Any, on_new: Any, **kwargs: Any):
        self._on_new = on_new
        super().__init__(game, **kwargs)
        self.add_class("snb-lab-board")


# The lab chooses the game (its boards' menus hidden).  On a phone nothing is cut: rows wrap, a
# menu goes under its label (its height grows, so it never covers the next row; its width is its
# longest choice, not ipywidgets' 148 px, which made a short menu leave its label's line), and
# the tables slide sideways in their labelled boxes, words whole.
_STYLE = (
    "<style>.snb-lab-board .snb-game{display:none}.snb-lab-table td,.snb-lab-table th{padding:2px 8px}"
    ".snb-lab .widget-hbox{flex-wrap:wrap;row-gap:4px}.snb-lab .widget-button{width:auto;flex:0 0 auto}"
    ".snb-lab .widget-dropdown{flex-wrap:wrap;width:auto;max-width:100%;height:auto}.snb-lab .widget-dropdown>select"
    "{flex:1 1 auto;min-width:0;max-width:100%}.snb-lab,.snb-lab .widget-vbox,.snb-lab .widget-html{min-width:0;"
    "max-width:100%}.snb-lab .widget-html>.widget-html-content{flex:1 1 0;min-width:0}</style>"  # fmt: skip
)


class Lab(WinCount, StaticVBox):
    """The lab's widget.  `lab.game` is the composed game (a `GameDef`), `lab.base` the game it
    comes from; `lab.board` and `lab.base_board` show deal n.º `lab.seed.value` of each."""

    def __init__(
        self,
        like: str | GameDef,
        seed: int = 1,
        *,
        sample: int = work.SAMPLE,
        max_states: int = work.MAX_STATES,
        stats_deals: int = work.STATS_DEALS,
        workers: int = work.WORKERS,
        **changes: Any,
    ):
        self.base: GameDef = custom.custom(like)  # a bad name: Spanish ValueError, before any widget
        if self.base.spec is not None and not self.base.spec["changes"]:
            self.base = GAMES[self.base.spec["like"]]
        self.game: GameDef = custom.custom(self.base, **changes)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= SEED_MAX:
            raise ValueError(f"seed debe ser un número de partida entre 0 y {SEED_MAX}, no {seed!r}")
        self.sample, self.max_states, self.stats_deals = sample, max_states, stats_deals
        self.workers = workers
        self.comparison: Any = None
        self._busy = False  # set while the lab itself moves controls: no refresh then
        self._stop = threading.Event()
        self._thread = None

        self.controls: dict[str, Any] = {}
        values = custom.current(self.game.rules_for())
        self.controls["columns"] = widgets.IntSlider(
            value=values["columns"], min=custom.MIN_COLUMNS, max=custom.MAX_COLUMNS,
            description=work.columns_label(self.base), continuous_update=False,
            style={"description_width": "initial"},
        )  # fmt: skip
        for key, labels in work.CHOICE_LABELS.items():
            self.controls[key] = widgets.Dropdown(
                options=[(labels[v], v) for v in custom.CHOICES[key]], value=values[key],
                description=work.LABELS[key], style={"description_width": "initial"},
            )  # fmt: skip
        for key in custom.FLAGS:
            self.controls[key] = widgets.Checkbox(
                value=values[key], description=work.LABELS[key], indent=False,
                layout=widgets.Layout(width="auto"),
            )  # fmt: skip
        for control in self.controls.values():
            control.observe(self._on_control, names="value")

        self.title = widgets.HTML()
        self.message = widgets.HTML()
        self.explanations: dict[str, widgets.HTML] = {}
        groups = []
        for heading, keys, _aspects in work.GROUPS:
            self.explanations[heading] = widgets.HTML()
            row = widgets.HBox([self.controls[k] for k in keys], layout=widgets.Layout(flex_flow="row wrap"))
            groups.append(widgets.VBox([widgets.HTML(f"<b>{escape(heading)}</b>"), row, self.explanations[heading]]))

        self.seed = widgets.BoundedIntText(
            value=seed, min=0, max=SEED_MAX, description="Partida n.º", style={"description_width": "initial"}
        )
        self.seed.observe(self._on_seed, names="value")
        self.board = _LabBoard(work.new_game(self.game, seed), self._board_new)
        self.base_board = _LabBoard(work.new_game(self.base, seed), self._board_new)
        self.board_title = widgets.HTML()
        self.base_title = widgets.HTML()
        half = widgets.Layout(flex="1 1 480px", min_width="0")
        boards = widgets.HBox(
            [widgets.VBox([self.board_title, self.board], layout=half),
             widgets.VBox([self.base_title, self.base_board], layout=half)],
            layout=widgets.Layout(flex_flow="row wrap"),
        )  # fmt: skip

        self.stats = widgets.HTML()
        self.plot = widgets.Image(format=work.PLOT_FORMAT, layout=widgets.Layout(max_width="100%", height="auto"))
        self.win_button = widgets.Button(description="¿Cuántas se pueden ganar?", button_style="primary",
                                         layout=widgets.Layout(width="auto"))  # fmt: skip
        self.stop_button = widgets.Button(description="Detener", disabled=True)
        self.progress = widgets.IntProgress(value=0, min=0, max=2 * sample, layout=widgets.Layout(visibility="hidden"))
        self.win_text = widgets.HTML()
        self.win_button.on_click(lambda _b: self.count_wins())
        self.stop_button.on_click(lambda _b: self.stop())
        wins = widgets.VBox([widgets.HBox([self.win_button, self.stop_button, self.progress]), self.win_text])

        super().__init__([
            widgets.HTML(_STYLE), self.title, self.message, *groups, self.seed, boards,
            widgets.HTML("<b>Qué cambia en el reparto</b>"), self.stats, self.plot,
            widgets.HTML("<b>¿Cuántas se pueden ganar?</b>"), wins,
        ], _dom_classes=["snb-lab"])  # fmt: skip
        self._show_game()
        self._show_deal()

    # ------------------------------------------------------------------ the controls
    def values(self) -> dict[str, Any]:
        """Every control's value, by the name of the change `custom` takes."""
        return {key: control.value for key, control in self.controls.items()}

    def change(self, **changes: Any) -> bool:
        """Set some controls as a reader would (e.g. ``lab.change(columns=10)``) and compose the
        game; a refused change shows its Spanish message, keeps the game and puts the controls
        back.  Returns whether the game was composed.  Never raises."""
        try:
            wanted = {**self.values(), **changes}
            game = custom.custom(self.base, **wanted)
        except ValueError as exc:
            self._say(f"No se puede componer ese juego: {exc}. Sigue el juego anterior.", "error")
            return False
        except Exception as exc:  # noqa: BLE001 - a reader never sees a traceback
            self._say(f"Algo ha fallado al componer el juego ({exc}). Sigue el juego anterior.", "error")
            return False
        self._set_controls(custom.current(game.rules_for()))
        self._use(game)
        return True

    def _on_control(self, _change: Any) -> None:
        if self._busy:
            return
        try:
            game = custom.custom(self.base, **self.values())
        except ValueError as exc:
            self._say(f"No se puede componer ese juego: {exc}. Sigue el juego anterior.", "error")
            self._set_controls(custom.current(self.game.rules_for()))
            return
        except Exception as exc:  # noqa: BLE001
            self._say(f"Algo ha fallado al componer el juego ({exc}). Sigue el juego anterior.", "error")
            self._set_controls(custom.current(self.game.rules_for()))
            return
        self._use(game)

    def _set_controls(self, values: dict[str, Any]) -> None:
        self._busy = True
        try:
            for key, control in self.controls.items():
                if control.value != values[key]:
                    control.value = values[key]
        finally:
            self._busy = False

    def _use(self, game: GameDef) -> None:
        self._say("")
        if game.name == self.game.name:
            return
        self.stop()
        self.game = game
        try:
            self.board.game = work.new_game(game, self.seed.value)
        except Exception as exc:  # noqa: BLE001
            self._say(f"No se ha podido repartir la partida: {exc}", "error")
        self._show_game()

    # ------------------------------------------------------------------ the deal number
    def _on_seed(self, _change: Any) -> None:
        self._show_deal()

    def _board_new(self, seed: int | None) -> None:
        import random

        value = random.randrange(1, 1_000_000) if seed is None else seed
        if value == self.seed.value:
            self._show_deal()  # the same number again: deal it afresh
        else:
            self.seed.value = value

    def _show_deal(self) -> None:
        seed = self.seed.value
        try:
            games = work.new_game(self.game, seed), work.new_game(self.base, seed)
        except Exception as exc:  # noqa: BLE001
            self._say(f"No se ha podido repartir la partida n.º {seed}: {exc}", "error")
            return
        for board, game in zip((self.board, self.base_board), games, strict=True):
            board.say(f"Partida n.º {seed}.", "info")
            board.game = game  # redraws, with the message

    # ------------------------------------------------------------------ what is shown
    def _say(self, text: str, kind: str = "info") -> None:
        colour = {"error": "#b3261e", "ok": "#1a7f37"}.get(kind, "inherit")
        self.message.value = f'<p role="status" style="color:{colour}">{escape(text)}</p>' if text else ""

    def _show_game(self) -> None:
        game, base = self.game, self.base
        changed = game.display_name != base.display_name
        name = escape(game.display_name)
        self.title.value = (
            f"<h3>Laboratorio de reglas: tu juego es <i>{name}</i></h3>"
            + ("" if changed else f"<p>Todavía no has cambiado ninguna regla de {escape(base.display_name)}.</p>")
        )
        for heading, _keys, aspects in work.GROUPS:
            now, before = work.sentences(game, aspects), work.sentences(base, aspects)
            lines = []
            for new, old in zip(now, before, strict=True):
                if new == old:
                    lines.append(f"<div>{escape(new)}</div>")
                else:
                    lines.append(f"<div><b>Tu juego:</b> {escape(new)}</div>"
                                 f'<div style="color:#666"><b>{escape(base.display_name)}:</b> {escape(old)}</div>')
            self.explanations[heading].value = "".join(lines)
        self.board_title.value = f"<b>Tu juego:</b> {name}"
        self.base_title.value = f"<b>El original:</b> {escape(base.display_name)}"
        self._show_wins()  # first: the stats take a moment, and the last game's counts must not linger
        self._show_stats()
        self.static_html = (
            f"<p><b>Laboratorio de reglas</b>: {name}, comparado con {escape(base.display_name)}. "
            "<i>Abre el cuaderno en marcha para cambiar las reglas y jugar.</i></p>" + self.stats.value
        )

    def _show_stats(self) -> None:
        try:
            self.comparison = work.comparison(self.base, self.game, n=self.stats_deals)
            self.stats.value = work.stats_html(self.comparison, changed=self.game.name != self.base.name)
            self.plot.value = work.plot_png(self.comparison)
            self.plot.layout.display = None
        except Exception as exc:  # noqa: BLE001 - a reader never sees a traceback
            self.comparison = None
            self.stats.value = f"<p>No se han podido calcular las estadísticas del reparto: {escape(str(exc))}</p>"
            self.plot.layout.display = "none"


def lab(like: str | GameDef, seed: int = 1, **changes: Any) -> Lab:
    """The rules lab for a game of the family (``"scotch"``, ``"bakers_dozen"``, ``"citadel"``,
    ``"beleaguered_castle"``), showing deal n.º `seed`; `changes` (as `custom` takes them) set
    the controls' starting values.  A bad name or value is a Spanish ValueError."""
    return Lab(like, seed, **changes)
