"""What the launcher tells the teacher in the terminal."""

from __future__ import annotations

from .machine import gb, needed_memory_mb, pool_size


def say(text: str) -> None:
    print(text, flush=True)


def announce(port: int, students: int, notebook: str, addresses: list[str], preheat: bool) -> None:
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
            f"{gb(needed_memory_mb(students))} GB de memoria; aviso cuando estén listas."
        )
    say("Para terminar la clase: Ctrl+C.\n")
