"""What the launcher tells the teacher in the terminal."""

from __future__ import annotations

import os
import sys

from .machine import gb, needed_memory_mb, pool_size


def say(text: str) -> None:
    """Print a line for the teacher; once the terminal is gone (closed: SIGHUP), the class still
    ends cleanly and later lines go nowhere."""
    try:
        print(text, flush=True)
    except (OSError, ValueError):  # EIO or a broken pipe; ValueError: stdout already closed
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115  (for the rest of the run)


def announce(
    port: int, students: int, notebook: str, addresses: list[str], preheat: bool, lesson: str | None = None
) -> None:
    """The class's first lines: its addresses and, with `preheat`, the pages being prepared and
    the memory they will take, estimated for `lesson` (the notebook's file name)."""
    say(f"\nClase: «{notebook}» para {students} {'alumno' if students == 1 else 'alumnos'}.")
    if addresses:
        say("Los alumnos escriben en el navegador:")
        for a in addresses:
            say(f"    http://{a}:{port}/")
    else:
        say(f"No encuentro la dirección de este ordenador en la red local; el puerto es {port}.")
    say(f"En este ordenador: http://127.0.0.1:{port}/")
    if preheat:
        size = pool_size(students)
        say(
            f"Preparando {size} páginas ({students} y {size - students} de reserva), unos "
            f"{gb(needed_memory_mb(students, lesson))} GB de memoria; aviso cuando estén listas."
        )
    say("Para terminar la clase: Ctrl+C (o cierra esta ventana).\n")
