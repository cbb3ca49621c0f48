"""Serve one lesson notebook to a whole class from the teacher's computer, as student pages (Voila).

Usage::

    python -m solitaire_nb.classroom 05 --alumnos 30

It listens on the local network and prints the address the students type (read from this
machine's own interfaces: nothing outside it is contacted).  Every argument, and the memory the
kernel pool needs, is checked before anything starts (`classroom.args`: Spanish messages, exit
status 2).  A pool of preheated kernels runs the notebook before the class arrives; pages use
the offline ``alumno`` template and a copy of the one notebook without its ``docente`` cells;
idle kernels are culled after ``--cierre`` minutes; Ctrl+C, SIGTERM or SIGHUP stops them all
(`ending`).  The port is taken before any address is printed.  ``--reto CÓDIGO`` serves a class
challenge (`challenge`); a lesson that pools into the class (06, 07, 08) gets seats, ``--registro`` and a
teacher's page (`pool`).  What holds under load, and why: docs/desarrollo.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
from pathlib import Path

from ..core.checks import shown
from . import machine
from .args import (
    SpanishParser,
    check_existing_record,
    check_ip,
    check_minutes,
    check_port,
    check_record_path,
    check_seconds,
    check_share_code,
    check_students,
)
from .challenge import LostDeal, check_deal
from .console import say
from .pages import NOTEBOOKS, find_notebook
from .pool import lesson_of
from .pool_state import POOLED, pool_id
from .record import record_deal


def parser() -> SpanishParser:
    """The launcher's command line (every value checked by `classroom.args`, Spanish throughout)."""
    p = SpanishParser(
        prog="python -m solitaire_nb.classroom",
        description="Sirve un cuaderno a toda una clase (páginas de alumno, Voila) desde este ordenador.",
    )
    p.add_argument("cuaderno", nargs="?", help="número o nombre del cuaderno (por ejemplo 05); no con --reto")
    p.add_argument("--alumnos", type=check_students, default=30, metavar="N", help="alumnos de la clase (30)")
    p.add_argument("--puerto", type=check_port, default=machine.DEFAULT_PORT, metavar="N", help=f"puerto ({machine.DEFAULT_PORT})")
    p.add_argument("--ip", type=check_ip, default="0.0.0.0", metavar="DIRECCIÓN",
                   help="dirección de este ordenador en la que escucha (0.0.0.0: todas)")  # fmt: skip
    p.add_argument("--cierre", type=check_minutes, default=10.0, metavar="MINUTOS",
                   help="minutos sin página tras los que se cierra un núcleo (10)")  # fmt: skip
    p.add_argument("--segundos", type=check_seconds, default=None, metavar="S",
                   help="tiempo máximo de los botones del resolvedor en toda la clase")  # fmt: skip
    p.add_argument("--progresivo", action="store_true",
                   help="sin páginas preparadas: cada página se muestra mientras se ejecuta (menos memoria)")  # fmt: skip
    p.add_argument("--carpeta", type=Path, default=NOTEBOOKS, metavar="CARPETA", help="carpeta de los cuadernos")
    p.add_argument("--reto", type=check_share_code, default=None, metavar="CÓDIGO",
                   help="reto de clase: todos juegan este reparto (un código de partida, como citadel/2026)")  # fmt: skip
    p.add_argument("--registro", type=check_record_path, default=None, metavar="ARCHIVO",
                   help="archivo del registro del reto o de la clase (por defecto, uno nuevo con la fecha)")  # fmt: skip
    p.add_argument("--borrar", type=check_existing_record, default=None, metavar="ARCHIVO",
                   help="borra el registro de un reto o de una clase y termina")  # fmt: skip
    p.add_argument("--hub", action="store_true",
                   help="como servicio de JupyterHub: solo el reto o la clase en común (docs/hub.md)")  # fmt: skip
    p.add_argument("--paginas", type=Path, default=None, metavar="CARPETA",
                   help="con --hub: escribe en CARPETA las páginas de los alumnos (sin celdas del docente) y termina")  # fmt: skip
    return p


def check_args(args: argparse.Namespace, available_mb: float | None = None) -> Path | None:
    """The lesson to serve, once everything the command line asks for is possible here
    (Spanish ValueError otherwise): the notebook exists, the address and port can be used, and the
    pool fits in memory (`available_mb`, by default what the machine has free now), and a new
    class challenge's deal is not proved lost (`challenge.check_deal`).  None for a class
    challenge (--reto), which has a page of its own."""
    recorded = None
    if args.reto is not None:
        if args.cuaderno is not None:
            raise ValueError("con --reto no se indica cuaderno: el reto tiene su propia página.")
        recorded = record_deal(args.registro) if args.registro is not None else None
        if recorded is not None and recorded.startswith("leccion/"):
            raise ValueError(
                f"el registro «{shown(args.registro, path=True)}» es de la clase de la lección {shown(recorded[8:], raw=True)}, "
                f"no de un reto: para seguirla usa python -m solitaire_nb.classroom {shown(recorded[8:], raw=True)} --registro; "
                "para un reto, otro archivo."
            )
        if recorded is not None and recorded != args.reto:
            raise ValueError(
                f"el registro «{shown(args.registro, path=True)}» es de otro reto ({shown(recorded, raw=True)}): para seguir esa "
                f"clase usa --reto {shown(recorded, raw=True)}; para un reto nuevo, otro archivo."
            )
        notebook = None
    else:
        if args.cuaderno is None:
            raise ValueError("falta el cuaderno (por ejemplo 05) o --reto CÓDIGO.")
        if not args.carpeta.is_dir():
            raise ValueError(f"La carpeta «{shown(args.carpeta, path=True)}» no existe.")
        notebook = find_notebook(args.cuaderno, args.carpeta)
        lesson = lesson_of(notebook)
        if args.registro is not None and lesson is None:
            raise ValueError(f"--registro solo sirve con --reto o con un cuaderno que junta los datos de la clase ({', '.join(POOLED)}).")
        recorded = record_deal(args.registro) if args.registro is not None else None
        if lesson is not None and recorded is not None and recorded != pool_id(lesson):
            raise ValueError(
                f"el registro «{shown(args.registro, path=True)}» es de otra clase ({shown(recorded, raw=True)}), no de la "
                f"lección {lesson}: para esta clase usa otro archivo."
            )
    machine.port_free(args.ip, args.puerto)
    if not args.progresivo:
        free = machine.available_memory_mb() if available_mb is None else available_mb
        machine.check_memory(args.alumnos, free, notebook.name if notebook is not None else None)
    if args.reto is not None and recorded is None:  # last, maybe a solve; a class under way keeps its deal
        check_deal(args.reto)
    return notebook


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if args.borrar is not None:
        if args.cuaderno is not None or args.reto is not None:
            p.error("--borrar se usa solo: borra un registro y termina.")
        from .record import delete_record

        try:
            gone = delete_record(args.borrar)
        except ValueError as exc:
            p.error(str(exc))
        record, *rest = gone
        link = [g for g in rest if g == Path(os.path.abspath(args.borrar)) and g != record]
        extra = f" (y el enlace {shown(link[0], path=True)}, que apuntaba a él)" if link else ""
        say(f"Registro borrado: {shown(record, path=True)}{extra}.")
        return 0
    if args.hub:  # a second host for the same class core (classroom.hub)
        from .hub import main as serve_under_hub

        return serve_under_hub(p, args)
    try:
        notebook = check_args(args)
    except LostDeal as exc:  # not a mistake in the command: one line, without the usage
        p.exit(2, f"{p.prog}: error: {exc}\n")
    except ValueError as exc:
        p.error(str(exc))
    if importlib.util.find_spec("voila") is None:
        p.error('falta Voila; instálalo con el extra «clase»: pip install -e ".[clase]"')
    try:
        sockets = machine.reserve_port(args.ip, args.puerto)  # before any address is printed
    except ValueError as exc:
        p.error(str(exc))
    from .ending import ENDING, interrupt
    from .server import serve

    for signum in ENDING[1:]:  # from here on, SIGTERM and SIGHUP end the class as Ctrl+C does
        signal.signal(signum, interrupt)
    try:
        if args.reto is not None:
            from .challenge import serve_challenge

            serve_challenge(args.reto, args.registro, args.alumnos, args.puerto, args.ip, args.cierre,
                            args.segundos, not args.progresivo, sockets)  # fmt: skip
        elif notebook is not None and lesson_of(notebook) is not None:
            from .pool import serve_pool

            serve_pool(notebook, args.registro, args.alumnos, args.puerto, args.ip, args.cierre, args.segundos,
                       not args.progresivo, sockets)  # fmt: skip
        else:
            assert notebook is not None  # check_args names the notebook whenever --reto is absent
            serve(notebook, args.alumnos, args.puerto, args.ip, args.cierre, args.segundos, not args.progresivo,
                  sockets=sockets)  # fmt: skip
    except KeyboardInterrupt:
        pass
    say("Clase terminada: núcleos cerrados.")
    return 0
