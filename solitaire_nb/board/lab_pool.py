"""Notebook 08's «Inventa tu juego» for a class: the rules lab with a class panel.

The lab (`lab.Lab`) as it is, and below it the pair's name for their game and «Mandar a la
clase»: once «¿Cuántas se pueden ganar?» has counted both games' sample, the composed game's
name and the three counts of each go to the launcher (`classroom.pool_invent`), which composes
the game again and shows one row per pair in the class table, on the teacher's page and here.
Without a launcher: how to pool by hand (`deal_pool.BY_HAND`).
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as widgets

from ..atlas import lab_measures as work
from .class_link import Launcher, unsaved_line
from .deal_pool import BY_HAND, PoolPanel, class_launcher
from .lab import Lab


class ClassLab(Lab):
    """`Lab` with the class's panel (`launcher`: by default the class launcher that started this
    kernel, if any)."""

    def __init__(self, like: Any, seed: int = 1, launcher: Launcher | None | bool = True, **changes: Any) -> None:
        super().__init__(like, seed, **changes)
        self.pool = PoolPanel(class_launcher(launcher, "08"), lambda _answer: None, lesson="08")
        parts: list[Any] = [widgets.HTML("<b>Vuestro juego, a la clase</b>")]
        if self.pool.launcher is not None:
            self.game_name = widgets.Text(placeholder="El nombre de vuestro juego", layout=widgets.Layout(width="18em"))
            self.send_button = widgets.Button(description="Mandar a la clase", button_style="primary")
            self.sent = widgets.HTML()
            self.send_button.on_click(lambda _b: self.send())
            parts += [widgets.HBox([self.game_name, self.send_button], layout=widgets.Layout(flex_flow="row wrap")), self.sent]
        self.children = (*tuple(self.children), *parts, self.pool)  # type: ignore[has-type]
        self.static_html += f"<p>{BY_HAND['08']}</p>"

    def counts(self) -> tuple[list[int], list[int]] | None:
        """The three counts of the composed game and of the original, once both samples are known."""
        samples = [work.cached_sample(g, self.sample, self.max_states) for g in (self.game, self.base)]
        if not all(samples):
            return None
        return [[s.won, s.lost, s.unknown] for s in samples]  # type: ignore[return-value,union-attr]

    def send(self) -> bool:
        """«Mandar a la clase»: the pair's game and its counts; True when the launcher took them."""
        try:
            if self.game.name == self.base.name:
                self.sent.value = "<p role='status'>Cambia antes alguna regla: la clase recoge juegos inventados.</p>"
                return False
            counted = self.counts()
            if counted is None:
                self.sent.value = (f"<p role='status'>Pulsa antes «¿Cuántas se pueden ganar?» y espera a que cuente las "
                                   f"{self.sample} partidas de los dos juegos.</p>")  # fmt: skip
                return False
            data = {"juego": self.game.name, "nombre_juego": self.game_name.value, "cuentas": counted[0], "original": counted[1]}
            answer = self.pool.send("juego", data, "Vuestro juego no ha llegado a la clase")
        except Exception as exc:  # noqa: BLE001 - a reader never sees a traceback
            self.sent.value = f"<p role='status'>No se ha podido mandar: {escape(str(exc))}</p>"
            return False
        waiting = "" if answer or not len(self.pool.outbox) else f"<p role='status'>{unsaved_line(self.pool.launcher)}</p>"
        self.sent.value = "<p role='status'>Mandado: ya está en la tabla de la clase.</p>" if answer else waiting
        return answer is not None


def class_lab(like: Any = "scotch", seed: int = 1, **changes: Any) -> ClassLab:
    """The lab of «Inventa tu juego» (notebook 08), with the class's table."""
    return ClassLab(like, seed, **changes)
