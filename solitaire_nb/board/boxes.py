"""Small widgets the notebooks display besides the board: boxes with a static picture for
pages where no kernel runs, the progress bar long computations take as their ``progress``
callback (`progress_bar`), the exercises' answer box and board (`caja`, `tablero`) and a
study's controls.

With `widget` this is one of the two modules of the package that import a widget library
(tests/test_widget_imports.py).
"""

from __future__ import annotations

import re
from html import escape, unescape
from typing import Any

import ipywidgets as widgets

from ..core.checks import shown
from ..core.numbers_es import thousands
from ..engine import Game
from ..lessons import exercises as ejercicios
from ..render.draw import render_html
from .buttons import Buttons
from .widget import Board

EXERCISE_ONLY = ("Este tablero es el del ejercicio: aquí no se cambia de partida. Para volver a empezar, "
                 "pulsa «Deshacer» hasta el principio.")


class _ExerciseButtons(Buttons):
    deal_fixed = EXERCISE_ONLY


class ExerciseBoard(Board):
    """An exercise's board: its position only, no «Nueva partida» nor «Cargar» (another deal
    would be judged against the exercise's question); «Deshacer» goes back to the start."""

    _restores_other_deals = False
    buttons_type = _ExerciseButtons


class _Static:
    """Mixin for boxes the notebooks display: their mimebundle also carries a static HTML
    picture, so GitHub, nbviewer and a notebook opened before running show the question or
    the picture instead of ``VBox(children=…)``."""

    static_html = ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict) and self.static_html:
            data["text/html"] = self.static_html
            data["text/plain"] = _plain(self.static_html)
        return bundle


class StaticVBox(_Static, widgets.VBox):
    """A VBox with a static HTML fallback (`static_html`)."""


class StaticHBox(_Static, widgets.HBox):
    """An HBox with a static HTML fallback (`static_html`)."""


def _plain(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


def static_box(children: list[Any], static_html: str, horizontal: bool = False, **kwargs: Any) -> Any:
    """A box of `children` whose static fallback is `static_html` (for the study's controls and
    any other group of widgets a notebook displays)."""
    box = (StaticHBox if horizontal else StaticVBox)(children, **kwargs)
    box.static_html = static_html
    return box


class ProgressBar:
    """A progress bar with a Spanish label, as the callback long computations take:
    ``bar(done, total, text="")`` (`study.simulate` calls it with two numbers, `win_rate` with
    the Spanish summary too).  It appears at its first call; outside a Jupyter kernel (plain
    Python, tests) it shows nothing."""

    def __init__(self, description: str, in_kernel: bool | None = None):
        if not isinstance(description, str):
            raise ValueError(f"La etiqueta de la barra debe ser un texto, no {shown(description)}")
        self.description = description
        self.in_kernel = _kernel_running() if in_kernel is None else bool(in_kernel)
        self._parts: tuple[Any, Any, Any] | None = None

    def __call__(self, done: int, total: int, text: str = "") -> None:
        if not self.in_kernel:
            return
        if not text:
            text = f"{thousands(done)} de {thousands(total)}"
        if self._parts is None:
            from IPython.display import display

            bar = widgets.IntProgress(value=0, min=0, max=max(total, 1), description=self.description)
            # the count keeps its whole width («10.000 de 10.000»), wrapping under a phone's bar
            count = widgets.Label(layout=widgets.Layout(width="auto", flex="0 0 auto"))
            box = static_box([bar, count], "", horizontal=True)
            box.layout.flex_flow = "row wrap"
            self._parts = (bar, box.children[1], box)
            display(box)
        bar, label, box = self._parts
        bar.max = max(total, 1)
        bar.value = done
        label.value = text
        box.static_html = f"<p>{escape(self.description)}: {escape(text)}</p>"
        bar.bar_style = "success" if done >= total else ""


def _kernel_running() -> bool:
    """Whether this runs in a Jupyter kernel (IPython running one)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def progress_bar(description: str, in_kernel: bool | None = None) -> ProgressBar:
    """A progress bar labelled `description` to pass as a computation's ``progress``:
    ``study.simulate(n, progress=progress_bar("Repartos"))``, ``win_rate(…,
    progress=progress_bar("Partidas"))``.  `in_kernel` overrides the kernel detection."""
    return ProgressBar(description, in_kernel)


def _verdict_html(ok: bool, message: str, graded: bool = True) -> str:
    colour = ("#1a7f37" if graded else "#1f4e79") if ok else "#b3261e"  # a prediction taken down is not «right»
    return f'<span role="status" style="color:{colour}">{escape(message)}</span>'


def answer_box(question: str, check: Any, button_label: str = "Comprobar", graded: bool = True) -> Any:
    """A question, a text box, a «Comprobar» button and the verdict: `check(text)` returns
    (ok, Spanish message).  For a prediction (`graded` False) the button reads `button_label`
    («Apuntar») and a taken-down answer is not shown in the colour of a right one.  For readers
    who write no code, in Voila too; its static fallback shows the question."""
    # a text area wraps a long answer («más, porque …») instead of hiding its start on a phone
    entry = widgets.Textarea(placeholder="Escribe aquí tu respuesta", rows=2,
                             layout=widgets.Layout(width="24em", max_width="100%"))
    button = widgets.Button(description=button_label, button_style="primary")
    verdict = widgets.HTML()

    judged: list[str | None] = [None]  # the text last checked

    def on_check(_event: object = None) -> None:
        judged[0] = entry.value
        try:
            ok, message = check(entry.value)
        except Exception:  # noqa: BLE001 - a reader's answer never shows a traceback
            ok, message = False, "No he entendido la respuesta; prueba a escribirla de otra forma."
        verdict.value = _verdict_html(ok, message, graded)

    def on_click(_event: object = None) -> None:
        # typing and then clicking sends the text on blur (checked then) and the click after it:
        # checking twice would count one answer as two tries (a wrong word «ya probada»)
        if entry.value != judged[0]:
            on_check()

    button.on_click(on_click)
    entry.continuous_update = False
    entry.observe(lambda change: on_check() if change["new"].strip() else None, names="value")
    question_html = f"<p><b>{escape(question)}</b></p>"
    static = f'{question_html}<p><i>Abre el cuaderno en marcha para responder aquí.</i></p>'
    # the button goes under the text area where a phone has no room beside it
    row = widgets.Box([entry, button], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
    return static_box([widgets.HTML(question_html), row, verdict], static)


def exercise_board(question: str, game: Game, check: Any, **board_args: Any) -> Any:
    """A question answered by playing: a board on `game` and a verdict line under it.

    After each move the reader plays, ``check(game, move)`` returns (ok, Spanish message)
    saying whether the move played is the one asked for; the verdict shows that message.
    The board is an `ExerciseBoard`: its position only (Deshacer lets the reader try again)."""
    board = ExerciseBoard(game, **board_args)
    verdict = widgets.HTML()
    start = game.moves_played
    last = [start]  # moves played when the board was last drawn

    def on_view(_change: object) -> None:
        g = board.game
        played, before = g.moves_played, last[0]
        last[0] = played
        if played < before or played <= start:
            verdict.value = ""  # an undo or a new game: the last verdict no longer holds
        if played <= before or played <= start:
            return  # nothing new to judge
        try:
            ok, message = check(g, g.history[-1])
        except Exception:  # noqa: BLE001 - never a traceback for a reader
            ok, message = False, "No he podido comprobar ese movimiento."
        verdict.value = _verdict_html(ok, message)

    board.observe(on_view, names="view")
    question_html = f"<p><b>{escape(question)}</b></p>"
    static = question_html + render_html(game)
    return static_box([widgets.HTML(question_html), board, verdict], static)


def caja(ejercicio: str) -> Any:
    """An exercise of `solitaire_nb.lessons.exercises` as a widget (question, text box, «Comprobar»
    button, or «Apuntar» for a prediction, verdict), for readers who write no code, in Voila too."""
    question = ejercicios.enunciado(ejercicio)  # an unknown exercise: ValueError now, not on click
    prediction = ejercicios.es_prediccion(ejercicio)
    return answer_box(question, lambda texto: ejercicios.verdict_of_text(ejercicio, texto),
                      "Apuntar" if prediction else "Comprobar", graded=not prediction)


def tablero(ejercicio: str, **board_args: Any) -> Any:
    """A board exercise (kind "board") answered by playing: its position on a board and, after
    each move, the verdict `caja` would give for the moves played so far.  `board_args` go
    to the board (e.g. ``hints=False``)."""
    game = ejercicios.start_position(ejercicio)
    question = ejercicios.enunciado(ejercicio)
    return exercise_board(question, game, lambda g, _move: ejercicios.verdict_of_game(ejercicio, g), **board_args)


# ---------------------------------------------------------------------- a study's controls
def study_controls(
    run: Any,
    sizes: tuple[int, ...] = (1_000, 10_000, 100_000, 1_000_000),
    value: int = 10_000,
    description: str = "Repartos",
    button: str = "Simular",
) -> Any:
    """A slider to choose how many deals to simulate, a button and an output area.

    A click calls ``run(size)`` inside the output area (whatever it prints or displays shows
    there, replacing the previous run).  An exception is reported in one Spanish sentence, never
    as a traceback.  The static fallback names the choices."""
    if value not in sizes:
        raise ValueError(f"El valor inicial {value} no está entre los tamaños {list(sizes)}")

    slider = widgets.SelectionSlider(
        options=[(thousands(n), n) for n in sizes], value=value, description=description
    )
    go = widgets.Button(description=button, button_style="primary")
    out = widgets.Output()

    def on_click(_event: object = None) -> None:
        with out:
            out.clear_output(wait=True)
            try:
                run(slider.value)
            except Exception as exc:  # noqa: BLE001 - a reader never sees a traceback
                print(f"No se ha podido completar la simulación: {exc}")

    go.on_click(on_click)
    choices = ", ".join(thousands(n) for n in sizes)
    static = (
        f"<p><b>{escape(description)}:</b> {escape(choices)} · botón «{escape(button)}». "
        "<i>Abre el cuaderno en marcha para usar estos controles.</i></p>"
    )
    return static_box([widgets.HBox([slider, go]), out], static)
