"""The class launcher serving a lesson whose page pools into the class (notebooks 06, 07, 08).

The lesson's student page is served as for any lesson (`pages.student_copy`), with the class
core of the challenge (`class_core.ClassHooks`): each page gets a seat and a secret (a page opened
without one is sent to ``/?asiento=SECRET``), the pool's routes are served (`pool_server`), the
record (``--registro``, by default a new dated file) keeps every deal, and the teacher's page and
its token are printed only in the teacher's terminal.  Kernels reach the launcher at
``SNB_CLASE_URL``.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import console, pages
from .class_core import ClassHooks
from .pool_state import POOLED, Pool
from .record import default_path
from .record_queue import events_es

URL_ENV = "SNB_CLASE_URL"
#: what the teacher's terminal says each lesson's pool gathers.
ANNOUNCED = {
    "06": "cada «Repartir» de los alumnos se suma a la clase.",
    "07": "cada partida de Citadel que juegan los alumnos se cuenta (ganada, se rinden o sin terminar), junto al resolvedor.",
    "08": "el juego que inventa cada pareja, con sus cuentas, llega a la tabla de la clase.",
}


def lesson_of(notebook: Path) -> str | None:
    """The lesson number of `notebook` («06» for 06_citadel….ipynb) when its try widget pools
    into the class; None otherwise."""
    number = notebook.name[:2]
    return number if number in POOLED and number.isdigit() else None


class PoolHooks(ClassHooks):
    """What `server.serve` does differently for a lesson with a class pool."""

    def __init__(self, pool: Pool, notebook: Path, record_path: Path | None, students: int = 30) -> None:
        super().__init__(pool, record_path, students)
        self.pool = pool
        self.notebook = notebook
        self.title = notebook.name

    def environ(self, port: int) -> None:
        os.environ[URL_ENV] = f"http://127.0.0.1:{port}"

    def page(self, folder: Path) -> Path:
        return pages.student_copy(self.notebook, folder)

    def handlers(self) -> list[tuple]:
        from .pool_server import handlers

        return handlers(self.pool, self.token)

    def announce_class(self) -> None:
        console.say(f"Clase en común (lección {self.pool.lesson}): {ANNOUNCED[self.pool.lesson]}")


def serve_pool(notebook: Path, record: str | None, students: int, port: int, ip: str, cull_minutes: float,
               solver_seconds: float | None, preheat: bool, sockets: list | None = None) -> None:  # fmt: skip
    """Serve `notebook` with its class pool until Ctrl+C (or SIGTERM, SIGHUP), recording at
    `record` (None: a new dated file in the user's data folder)."""
    from .server import serve

    lesson = lesson_of(notebook)
    assert lesson is not None
    path = Path(record) if record else default_path(kind="clase")
    pool = Pool(lesson, path, say=console.say)
    hooks = PoolHooks(pool, notebook, path, students)
    try:
        serve(notebook, students, port, ip, cull_minutes, solver_seconds, preheat, hooks=hooks, sockets=sockets)
    finally:
        pool.retry_writes(every=0)
        if pool.unsaved:
            fit = "no cabe en el disco y no se ha" if pool.unsaved == 1 else "no caben en el disco y no se han"
            console.say(f"Aviso: {events_es(pool.unsaved)} {fit} guardado en el registro.")
        if pool.record is not None:  # its lock goes with it: --borrar may delete it now
            pool.record.close()
