"""The rules lab's «¿Cuántas se pueden ganar?»: the verdicts on deals 1 to n of both games, shown
as they arrive (counts in three columns, then deal by deal), with a progress bar and «Detener».

A stored sample is read at once (`atlas.lab_sample`); any other is solved deal by deal in a
background thread (the kernel stays responsive).  Where no thread can start (Pyodide, in the
JupyterLite site and the static student app) the same steps run as a task on the page's event
loop, yielding after every deal: the page redraws the counts, and a click on «Detener» or a
control is handled between two deals.  With no event loop either, the sample is solved before
the button's handler returns.  `WinCount` is the part of `lab.Lab` that does this.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import sys
import threading
from collections.abc import Iterator
from typing import Any

from ..atlas import lab_measures as work
from ..core.numbers_es import thousands
from ..core.rules import GameDef

STOPPED = "<p>Cálculo detenido. Pulsa el botón para empezar de nuevo.</p>"

def escape(text: str) -> str:
    return html.escape(text, quote=False)  # text only, never inside an attribute: «Baker's» stays



class _Done:
    """What `WinCount.count_wins` returns where the sample was solved before it returned."""

    def join(self, timeout: float | None = None) -> None:
        return None

    def is_alive(self) -> bool:
        return False


class _Chunks:
    """What `WinCount.count_wins` returns where the sample is solved on the page's event loop:
    `task` is the asyncio task (await it; blocking on it would stop the very loop it runs on)."""

    def __init__(self, task: asyncio.Task[None]) -> None:
        self.task = task

    def join(self, timeout: float | None = None) -> None:
        if not self.task.done():
            raise RuntimeError("the count runs on this event loop: await count.task instead of join()")

    def is_alive(self) -> bool:
        return not self.task.done()


def _page_loop() -> asyncio.AbstractEventLoop | None:
    """Pyodide's event loop, which runs on the browser's own loop between the page's messages;
    None elsewhere (a loop that merely looks running there, such as a driver's own, may never run
    the task)."""
    if sys.platform != "emscripten":
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.get_event_loop()


class WinCount:
    """«¿Cuántas se pueden ganar?» of the lab: needs the lab's games, sample settings and widgets."""

    game: GameDef
    base: GameDef
    sample: int
    max_states: int
    workers: int
    win_text: Any
    win_button: Any
    stop_button: Any
    progress: Any
    _stop: threading.Event
    _thread: Any  # threading.Thread | _Chunks | None

    def _show_wins(self, note: str = "", partial: tuple[tuple[str, ...], ...] | None = None,
                   stopped: bool = False) -> None:
        """The win counts: of the whole sample when both games' samples are known, else of the
        deals solved so far (`partial`: each game's verdicts, the composed game's first), else
        `note` or the invitation to press the button."""
        if partial is None:
            samples = [work.cached_sample(g, self.sample, self.max_states) for g in (self.game, self.base)]
            verdicts = None if not all(samples) else tuple(s.verdicts for s in samples)  # type: ignore[union-attr]
        else:
            verdicts = partial if len(partial) == 2 else (partial[0], partial[0])
        k = 0 if verdicts is None else min(len(v) for v in verdicts)
        if not k:
            self.win_text.value = note or (
                f"<p>Pulsa el botón para que el resolvedor intente ganar las partidas n.º 1 a {self.sample} "
                "de los dos juegos.</p>"
            )
            return
        mine_v, base_v = (v[:k] for v in verdicts)  # type: ignore[union-attr]
        base = work.Sample(self.base.display_name, base_v)
        words = self._sample_words(k, stopped)
        if self.game.name == self.base.name:  # no rule changed: one game, one row
            self.win_text.value = words + work.markdown_html(work.counts_table([base]))
            return
        mine = work.Sample(work.YOURS.capitalize(), mine_v)
        table = work.markdown_html(work.counts_table([mine, base]))
        paired = f"<p>{escape(work.paired_text(mine, base, work.YOURS, 'el original'))}</p>"
        self.win_text.value = words + table + paired

    def _sample_words(self, solved: int | None = None, stopped: bool = False) -> str:
        solved = self.sample if solved is None else solved
        head = f"Partidas n.º 1 a {solved} de cada juego"
        if stopped:  # the deals solved before «Detener», kept for the reader to copy
            head = f"Las partidas resueltas antes de detener el cálculo, n.º 1 a {solved} de cada juego"
        elif solved < self.sample:
            head += f" (de {self.sample}: el resolvedor sigue; el intervalo se estrecha con cada partida)"
        return (f"<p>{head}, con el mismo límite de búsqueda "
                f"para el resolvedor en cada partida ({thousands(self.max_states)} posiciones).</p>")

    def count_wins(self) -> threading.Thread | _Chunks | _Done | None:
        """Solve the sample of both games in a background thread (what the button does); returns
        the thread (None when a count is already running).  Where no thread can start (Pyodide)
        it returns a `_Chunks` whose task solves the sample deal by deal on the event loop, or,
        with no event loop, solves it before returning (a `_Done`)."""
        if self._thread is not None and self._thread.is_alive():
            return None
        self._stop = threading.Event()
        stop, games = self._stop, (self.game, self.base)
        self.win_button.disabled, self.stop_button.disabled = True, False
        self.progress.value, self.progress.max = 0, 2 * self.sample
        self.progress.layout.visibility = "visible"
        self.win_text.value = "<p>Resolviendo…</p>"
        thread = threading.Thread(target=self._work, args=(games, stop), daemon=True)
        try:
            if sys.platform == "emscripten":  # Pyodide starts no threads
                raise RuntimeError("sin hilos")
            thread.start()
        except RuntimeError:
            loop = _page_loop()
            if loop is None:
                self._thread = None
                self._work(games, stop, 1)  # here and now, no processes: the page waits, but the answer comes
                return _Done()
            self._thread = _Chunks(loop.create_task(self._work_in_chunks(games, stop)))
            return self._thread
        self._thread = thread
        return thread

    def stop(self) -> None:
        """Stop the sample being solved (between two deals)."""
        self._stop.set()

    def _work(self, games: tuple[GameDef, GameDef], stop: threading.Event, workers: int | None = None) -> None:
        for _shown in self._steps(games, stop, workers):
            pass

    async def _work_in_chunks(self, games: tuple[GameDef, GameDef], stop: threading.Event) -> None:
        for _shown in self._steps(games, stop, 1):  # one process: Pyodide starts none
            await asyncio.sleep(0)  # the page's messages (a click on «Detener») between two deals

    def _steps(self, games: tuple[GameDef, GameDef], stop: threading.Event, workers: int | None) -> Iterator[None]:
        """The count, one step per deal solved (after its counts are shown); never raises."""
        unique = games if games[0].name != games[1].name else games[:1]
        workers = self.workers if workers is None else workers
        done, last = 0, None
        try:
            stream = work.stream_samples(unique, self.sample, self.max_states, stop, workers)
            with contextlib.closing(stream):  # closing it stops its worker processes
                for partial in stream:
                    if self.game not in games or self.base not in games:
                        break  # the reader changed the game
                    self.progress.value = done = sum(len(v) for v in partial) * len(games) // len(unique)
                    self._show_wins(partial=partial)
                    last = partial
                    yield
            if self.game not in games or self.base not in games:
                self._show_wins("<p>Has cambiado el juego mientras se calculaba. Pulsa el botón otra vez.</p>")
            elif stop.is_set() and done < 2 * self.sample:
                # the deals solved so far stay on screen: a pair copies them before going on
                if last is None:
                    self._show_wins(STOPPED)
                else:
                    self._show_wins(partial=last, stopped=True)
                    self.win_text.value = STOPPED + self.win_text.value
            else:
                self._show_wins()
        except Exception as exc:  # noqa: BLE001 - a reader never sees a traceback
            self.win_text.value = f"<p>No se ha podido terminar el cálculo: {escape(str(exc))}</p>"
        finally:
            self.win_button.disabled, self.stop_button.disabled = False, True
            self.progress.layout.visibility = "hidden"
