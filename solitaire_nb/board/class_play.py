"""Notebook 07's class play: whole deals of Citadel played by people, pooled beside the solver.

A board without the solver's buttons (the class measures people) and without «Nueva partida» or
«Cargar»: the deal is this widget's, «Otra partida» goes to the next number.  A deal counts as
started at its first move, lost when the student presses «Me rindo», won when the board is won —
the win's line goes to the launcher, which replays it (`classroom.pool_play`).  A deal left
unfinished is never counted as lost.  Served by the class launcher the seat starts at its own
deal and the panel (`deal_pool.PoolPanel`) shows the class's table; without one, how to pool by
hand.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ..engine import new_game
from ..engine.share import share_code
from .boxes import StaticVBox
from .buttons import Buttons
from .class_link import Launcher
from .deal_pool import BY_HAND, PoolPanel, class_launcher
from .widget import Board

GAME = "citadel"  # the same as the launcher's (`classroom.pool_play.GAME`): its atlas rows
OWN = "<b>Tu cuenta.</b> {won} {w}, {lost} en {l} te has rendido y {open} sin terminar (no cuentan como perdidas)."
NOT_HERE = "En esta actividad la partida la elige el botón «Otra partida», debajo del tablero."


def own_text(results: dict[int, str]) -> str:
    won, lost, open_ = (list(results.values()).count(r) for r in ("ganada", "perdida", "empezada"))
    return OWN.format(won=won, w="ganada" if won == 1 else "ganadas", lost=lost, l="la que" if lost == 1 else "las que", open=open_)


class _PlayButtons(Buttons):
    saves_without_solver = True
    deal_fixed = NOT_HERE


class PlayBoard(Board):
    """The class's board: one deal at a time, chosen by `ClassPlay`; `on_change()` is told after
    every event (a first move, a win)."""

    _restores_other_deals = False
    buttons_type = _PlayButtons

    def __init__(self, game: Any, on_change: Any) -> None:
        self._on_change = on_change
        super().__init__(game, hints=False, solution=False)

    def handle(self, msg: Any) -> None:
        if isinstance(msg, dict) and msg.get("event") == "seat":
            return  # the front end of a board without deal controls asks for a seat: the panel has it
        super().handle(msg)
        self._on_change()

    def _view_state(self) -> dict[str, Any]:
        return {**super()._view_state(), "reto": True, "seat": 1}  # a class board: its saved code read-only; seat 1, so the page asks for none


class ClassPlay(StaticVBox):
    """Deals of Citadel from n.º `seed` (or the seat's own first deal), «Me rindo», «Otra partida»,
    the student's own count and the class's (`launcher`: by default the class launcher that
    started this kernel, if any)."""

    def __init__(self, seed: int = 1, launcher: Launcher | None | bool = True) -> None:
        self.results: dict[int, str] = {}  # deal -> "empezada", "perdida" or "ganada"
        self.seed = seed
        self.pool = PoolPanel(class_launcher(launcher, "07"), self._seated, lesson="07")
        self.title = widgets.HTML()
        self.board = PlayBoard(new_game(GAME, seed=seed), self._changed)
        self.give_up = widgets.Button(description="Me rindo", tooltip="No veo cómo ganar esta partida")
        self.next_button = widgets.Button(description="Otra partida", button_style="primary")
        self.own = widgets.HTML()
        self.give_up.on_click(lambda _b: self.surrender())
        self.next_button.on_click(lambda _b: self.deal(self.seed + 1))
        super().__init__([self.title, self.board, widgets.HBox([self.give_up, self.next_button]), self.own, self.pool])
        self.deal(seed)

    # ------------------------------------------------------------------ the deal
    def deal(self, seed: int) -> None:
        """Show partida n.º `seed` from its start (a deal already played is not counted again)."""
        self.seed = seed
        self.board.game = new_game(GAME, seed=seed)
        self.board.say(f"Partida n.º {seed} de Citadel. Mueve cuando quieras: cuenta desde tu primer movimiento.")
        self._show()

    def _show(self) -> None:
        state = self.results.get(self.seed)
        said = {"ganada": " (ganada)", "perdida": " (te has rendido)", "empezada": " (sin terminar)"}.get(state or "", "")
        self.title.value = f"<p><b>Partida n.º {self.seed} de Citadel</b>{said}</p>"
        self.give_up.disabled = state in ("ganada", "perdida")
        self.own.value = f"<p class='snb-tally' role='status'>{own_text(self.results)}</p>"
        self.static_html = (f"<p><b>La clase juega a Citadel.</b> <i>Abre el cuaderno en marcha para jugar.</i></p>"
                            f"<p>{BY_HAND['07']}</p>")  # fmt: skip

    def _mark(self, result: str, line: str | None = None) -> None:
        rank = {"empezada": 0, "perdida": 1, "ganada": 2}
        before = self.results.get(self.seed)
        if before is not None and rank[before] >= rank[result]:
            return
        self.results[self.seed] = result
        data: dict[str, Any] = {"partida": self.seed, "resultado": result}
        if line is not None:
            data["jugada"] = line
        self.pool.send("partida", data, "Esta partida no se ha contado en la clase")
        self._show()

    def _changed(self) -> None:
        try:
            self._check_board()
        except Exception:  # noqa: BLE001 - a reader never sees a traceback; the board goes on
            self.pool.show(None, "Esta partida no se ha podido contar en la clase.")

    def _check_board(self) -> None:
        g = self.board.game
        if g.seed != self.seed or not g.moves_played:
            return
        if g.is_won():
            self._mark("ganada", share_code(g))
            self.board.say("¡Ganada! Cuenta para la clase. Pulsa «Otra partida» para seguir.", "ok")
        elif self.seed not in self.results:
            self._mark("empezada")

    def surrender(self) -> None:
        """«Me rindo»: this deal counts as lost to people (the solver may still win it)."""
        if not self.board.game.moves_played and self.seed not in self.results:
            self.board.say("Juega al menos un movimiento antes de rendirte.", "error")
            return
        self._mark("perdida")
        self.board.say(f"Te has rendido en la partida n.º {self.seed}: cuenta como perdida para una persona. "
                       "Pulsa «Otra partida».")  # fmt: skip

    def _seated(self, answer: dict) -> None:
        """The class gave this page a seat (or started a new group): its results come back (a
        reload) and the widget goes to the seat's deal: the first unfinished one, or the next."""
        mine: dict = answer.get("mias") or {} if isinstance(answer.get("mias"), dict) else {}
        self.results = {int(k): v for k, v in mine.items() if str(k).isdigit() and v in ("empezada", "perdida", "ganada")}
        open_ = [k for k, v in self.results.items() if v == "empezada"]
        start = int(answer.get("inicio", self.seed) or self.seed)
        self.deal(open_[-1] if open_ else max(self.results, default=start - 1) + 1)


def class_play(seed: int = 1) -> ClassPlay:
    """Notebook 07's class play, from partida n.º `seed` without a launcher."""
    return ClassPlay(seed)

