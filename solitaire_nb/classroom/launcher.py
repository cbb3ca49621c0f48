"""Serve one lesson notebook to a whole class from the teacher's computer, as student pages (Voila).

Usage::

    python -m solitaire_nb.classroom 05 --alumnos 30

It listens on the local network and prints the address the students type (read from this
machine's own interfaces: nothing outside it is contacted).  Every argument, and the memory the
kernel pool needs, is checked before anything starts (`classroom.args`: Spanish messages, exit
status 2).  A pool of preheated kernels runs the notebook before the class arrives; pages use
the offline ``alumno`` template and a copy of the one notebook without its ``docente`` cells;
idle kernels are culled after ``--cierre`` minutes and Ctrl+C stops them all (`server`).
``--reto CÓDIGO`` serves a class challenge instead (`challenge`); ``--segundos`` sets the solver
buttons' budget, and all kernels share one verdict cache.  What holds under load, and why:
docs/desarrollo.md, «El lanzador de clase por dentro».
"""

from __future__ import annotations

import errno
import importlib.util
import ipaddress
import json
import math
import re
import socket
from pathlib import Path

from ..core.numbers_es import decimal
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
    shown,
)
from .record import record_deal

PACKAGE = Path(__file__).resolve().parent.parent
TEMPLATES = PACKAGE / "templates"
NOTEBOOKS = PACKAGE.parent / "notebooks"
TEACHER_TAG = "docente"
DEFAULT_PORT = 8866
#: memory of one student, measured on notebook 05 (benchmarks/bench_clase_memoria.py; figures in
#: benchmarks/RESULTS.md «Memoria de una clase»): its kernel after running the lesson (its
#: proportional share, PSS) plus what the server keeps for its open page.
MB_PER_STUDENT_ESTIMATE = 65
#: the server's own memory for each open page (same section).
SERVER_MB_PER_PAGE = 5
#: the server itself, before any page (same section).
SERVER_BASE_MB = 120
#: at most this share of the memory the machine has free may go to the class.
MEMORY_SHARE = 0.8


# ---------------------------------------------------------------------- the notebook
def find_notebook(which: str, folder: Path = NOTEBOOKS) -> Path:
    """The lesson notebook named by `which`: a path, a file name or its number ("05")."""
    path = Path(which)
    if path.suffix == ".ipynb" and path.exists():
        return path.resolve()
    matches = sorted(p for p in folder.glob("*.ipynb") if p.name.startswith(which) and not p.name.startswith("_"))
    if len(matches) != 1:
        names = ", ".join(p.name for p in sorted(folder.glob("[0-9]*.ipynb")))
        raise ValueError(f"No encuentro un único cuaderno «{which}» en {folder}. Cuadernos: {names}")
    return matches[0].resolve()


def student_copy(notebook: Path, folder: Path) -> Path:
    """Write the student version of `notebook` into `folder`: without the cells tagged
    ``docente`` and without saved outputs (the page runs every cell)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    cells = []
    for cell in nb.get("cells", []):
        if TEACHER_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.get("cell_type") == "code":
            cell = {**cell, "outputs": [], "execution_count": None}
        elif cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            text = "".join(source) if isinstance(source, list) else source
            cell = {**cell, "source": unlink_files(text, notebook.name)}
        cells.append(cell)
    target = folder / notebook.name
    target.write_text(json.dumps({**nb, "cells": cells}, indent=1, ensure_ascii=False), encoding="utf-8")
    return target


_MD_LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^)]*[\"'])?\s*\)")
_HTML_LINK = re.compile(r"<a\b[^>]*\bhref\s*=\s*[\"']([^\"']*)[\"'][^>]*>(.*?)</a>", re.I | re.S)


def _served(target: str) -> bool:
    """Whether a link target opens something on a student page: a place in the page itself or
    another site.  Every other file (the other lessons, the guide) is not served."""
    return target.startswith("#") or re.match(r"[a-z][a-z0-9+.-]*:", target, re.I) is not None


def unlink_files(markdown: str, page: str) -> str:
    """`markdown` with its links to files the launcher does not serve turned into plain text
    (the page serves one lesson: a link to another would open an error).  A link to a place in
    `page` itself keeps only its ``#place``."""

    def fix(target: str, text: str, rebuild) -> str:
        name, _, place = target.partition("#")
        if name == page and place:
            return rebuild(f"#{place}")
        return rebuild(target) if _served(target) else text

    markdown = _MD_LINK.sub(lambda m: fix(m[2], m[1], lambda t: f"[{m[1]}]({t})"), markdown)
    return _HTML_LINK.sub(lambda m: fix(m[1], m[2], lambda t: m[0].replace(m[1], t, 1)), markdown)


# ---------------------------------------------------------------------- the address
def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its local networks (private ranges first), read from
    its own interfaces; never by contacting another machine."""
    found: set[str] = set()
    try:
        import psutil

        stats = psutil.net_if_stats()
        for name, addrs in psutil.net_if_addrs().items():
            if name in stats and not stats[name].isup:
                continue
            found.update(a.address for a in addrs if a.family == socket.AF_INET)
    except ImportError:  # psutil comes with ipykernel; without it, the host name's addresses
        try:
            found.update(info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
        except OSError:
            pass
    usable = [ipaddress.ip_address(a) for a in found]
    usable = [a for a in usable if not (a.is_loopback or a.is_link_local or a.is_unspecified)]
    usable.sort(key=lambda a: (not a.is_private, a))
    return [str(a) for a in usable]


# ---------------------------------------------------------------------- pool size and memory
def pool_size(students: int) -> int:
    """One preheated page per student plus a reserve for reloads (a tenth, at least two)."""
    if students < 1:
        raise ValueError(f"El número de alumnos tiene que ser al menos 1, no {students}.")
    return students + max(2, math.ceil(students / 10))


def _memory_mb(process) -> float:
    """A process's own share of memory in MB: PSS where the system gives it (shared libraries
    counted once across the kernels), else its resident size."""
    import psutil

    try:
        info = process.memory_full_info()
        return getattr(info, "pss", info.rss) / 2**20
    except psutil.AccessDenied:
        return process.memory_info().rss / 2**20


def kernels_memory_mb() -> tuple[int, float]:
    """(kernels, MB) of this process's children, the kernels it started (their PSS)."""
    try:
        import psutil
    except ImportError:
        return 0, float("nan")
    count, total = 0, 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            total += _memory_mb(child)
            count += 1
        except psutil.Error:
            pass
    return count, total


def server_memory_mb() -> float:
    """This process's memory in MB (the server of the class)."""
    try:
        import psutil
    except ImportError:
        return float("nan")
    return _memory_mb(psutil.Process())


def available_memory_mb() -> float | None:
    """Memory the machine has free for new programs, in MB (None when it cannot be read)."""
    try:
        import psutil
    except ImportError:
        return None
    return psutil.virtual_memory().available / 2**20


def needed_memory_mb(students: int) -> float:
    """Estimated memory of a class of `students` (its whole pool, every page open)."""
    return SERVER_BASE_MB + pool_size(students) * MB_PER_STUDENT_ESTIMATE


def check_memory(students: int, available_mb: float | None) -> None:
    """Refuse, in Spanish, a class whose pool would not fit in `available_mb` (at most
    MEMORY_SHARE of it); None (unknown) accepts."""
    if available_mb is None:
        return
    need = needed_memory_mb(students)
    room = available_mb * MEMORY_SHARE
    if need <= room:
        return
    fits = students
    while fits > 0 and needed_memory_mb(fits) > room:
        fits -= 1
    advice = f"usa --alumnos {fits} como mucho" if fits else "cierra otros programas"
    raise ValueError(
        f"Para {students} alumnos harían falta unos {_gb(need)} GB de memoria ({pool_size(students)} "
        f"páginas de unos {MB_PER_STUDENT_ESTIMATE} MB), y este ordenador tiene libres {_gb(available_mb)} GB: "
        f"{advice}, o reparte la clase entre varios ordenadores."
    )


def _gb(mb: float) -> str:
    return decimal(mb / 1024, 1)


def port_free(ip: str, port: int) -> None:
    """Raise a Spanish ValueError when this computer cannot listen at `ip`:`port`: the port is
    taken (another class, another program), needs an administrator, or `ip` is not one of this
    computer's addresses."""
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    with socket.socket(family) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((ip, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ValueError(
                    f"El puerto {port} está ocupado (¿hay otra clase abierta?). Ciérrala o usa otro: --puerto {port + 1}"
                ) from None
            if exc.errno == errno.EACCES:
                raise ValueError(f"Este ordenador no deja usar el puerto {port}: usa otro, como --puerto {DEFAULT_PORT}.") from None
            if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EINVAL):
                mine = ", ".join(["127.0.0.1", *lan_addresses()])
                raise ValueError(
                    f"La dirección {shown(ip)} no es de este ordenador. Usa una de las suyas ({mine}) "
                    "o 0.0.0.0 para todas."
                ) from None
            raise ValueError(f"No se puede escuchar en {shown(ip)}, puerto {port} (error del sistema {exc.errno}).") from None


def _say(text: str) -> None:
    print(text, flush=True)


def _announce(port: int, students: int, notebook: str, addresses: list[str], preheat: bool) -> None:
    _say(f"\nClase: «{notebook}» para {students} alumnos.")
    if addresses:
        _say("Los alumnos escriben en el navegador:")
        for a in addresses:
            _say(f"    http://{a}:{port}/")
    else:
        _say(f"No encuentro la dirección de este ordenador en la red local; el puerto es {port}.")
    _say(f"En este ordenador: http://127.0.0.1:{port}/")
    if preheat:
        size = pool_size(students)
        _say(
            f"Preparando {size} páginas ({students} y {size - students} de reserva), unos "
            f"{_gb(needed_memory_mb(students))} GB de memoria; aviso cuando estén listas."
        )
    _say("Para terminar la clase: Ctrl+C.\n")


def parser() -> SpanishParser:
    """The launcher's command line (every value checked by `classroom.args`, Spanish throughout)."""
    p = SpanishParser(
        prog="python -m solitaire_nb.classroom",
        description="Sirve un cuaderno a toda una clase (páginas de alumno, Voila) desde este ordenador.",
    )
    p.add_argument("cuaderno", nargs="?", help="número o nombre del cuaderno (por ejemplo 05); no con --reto")
    p.add_argument("--alumnos", type=check_students, default=30, metavar="N", help="alumnos de la clase (30)")
    p.add_argument("--puerto", type=check_port, default=DEFAULT_PORT, metavar="N", help=f"puerto ({DEFAULT_PORT})")
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
                   help="archivo del registro del reto (por defecto, uno nuevo con la fecha)")  # fmt: skip
    p.add_argument("--borrar", type=check_existing_record, default=None, metavar="ARCHIVO",
                   help="borra el registro de un reto y termina")  # fmt: skip
    return p


def check_args(args, available_mb: float | None = None) -> Path | None:
    """The lesson to serve, once everything the command line asks for is possible here
    (Spanish ValueError otherwise): the notebook exists, the address and port can be used, and the
    pool fits in memory (`available_mb`, by default what the machine has free now).  None for a
    class challenge (--reto), which has a page of its own."""
    if args.reto is not None:
        if args.cuaderno is not None:
            raise ValueError("con --reto no se indica cuaderno: el reto tiene su propia página.")
        recorded = record_deal(args.registro) if args.registro is not None else None
        if recorded is not None and recorded != args.reto:
            raise ValueError(
                f"el registro «{shown(args.registro)}» es de otro reto ({shown(recorded)}): para seguir esa "
                f"clase usa --reto {shown(recorded)}; para un reto nuevo, otro archivo."
            )
        notebook = None
    else:
        if args.registro is not None:
            raise ValueError("--registro solo sirve con --reto.")
        if args.cuaderno is None:
            raise ValueError("falta el cuaderno (por ejemplo 05) o --reto CÓDIGO.")
        if not args.carpeta.is_dir():
            raise ValueError(f"La carpeta «{shown(args.carpeta)}» no existe.")
        notebook = find_notebook(args.cuaderno, args.carpeta)
    port_free(args.ip, args.puerto)
    if not args.progresivo:
        check_memory(args.alumnos, available_memory_mb() if available_mb is None else available_mb)
    return notebook


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if args.borrar is not None:
        if args.cuaderno is not None or args.reto is not None:
            p.error("--borrar se usa solo: borra un registro y termina.")
        from .record import delete_record

        try:
            delete_record(args.borrar)
        except ValueError as exc:
            p.error(str(exc))
        _say(f"Registro borrado: {args.borrar}")
        return 0
    try:
        notebook = check_args(args)
    except ValueError as exc:
        p.error(str(exc))
    if importlib.util.find_spec("voila") is None:
        p.error('falta Voila; instálalo con el extra «clase»: pip install -e ".[clase]"')
    from .server import serve

    try:
        if args.reto is not None:
            from .challenge import serve_challenge

            serve_challenge(args.reto, args.registro, args.alumnos, args.puerto, args.ip, args.cierre,
                            args.segundos, not args.progresivo)  # fmt: skip
        else:
            serve(notebook, args.alumnos, args.puerto, args.ip, args.cierre, args.segundos, not args.progresivo)
    except KeyboardInterrupt:
        pass
    _say("Clase terminada: núcleos cerrados.")
    return 0

