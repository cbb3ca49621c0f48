"""This computer, as a class needs it: its addresses on the local network, a free port, and the
memory the pool of preheated kernels takes (figures in benchmarks/RESULTS.md «Memoria de una clase»)."""

from __future__ import annotations

import errno
import ipaddress
import math
import socket

from ..core.checks import shown
from ..core.numbers_es import decimal

DEFAULT_PORT = 8866
#: memory of one student, measured on notebook 05 (benchmarks/bench_clase_memoria.py; figures in
#: benchmarks/RESULTS.md «Memoria de una clase»): its kernel after running the lesson (its
#: proportional share, PSS) plus what the server keeps for its open page.
MB_PER_STUDENT_ESTIMATE = 65
#: each lesson's kernel alone after running its student page (PSS, MB; the cells tagged "docente"
#: left out), by benchmarks/bench_lesson_memory.py (RESULTS.md «Memoria de una clase»): 06-08
#: load NumPy and matplotlib. A student of lesson NN counts MB_PER_STUDENT_ESTIMATE plus what
#: NN's kernel takes beyond 05's (`mb_per_student`).
KERNEL_MB = {"00": 46, "01": 50, "02": 48, "03": 47, "04": 47, "05": 48, "06": 125, "07": 105, "08": 124}
#: the server's own memory for each open page (same section).
SERVER_MB_PER_PAGE = 5
#: the server itself, before any page (same section).
SERVER_BASE_MB = 120
#: at most this share of the memory the machine has free may go to the class.
MEMORY_SHARE = 0.8


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
            found.update(str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
        except OSError:
            pass
    usable = [ipaddress.ip_address(a) for a in found]
    usable = [a for a in usable if not (a.is_loopback or a.is_link_local or a.is_unspecified)]
    usable.sort(key=lambda a: (not a.is_private, a))
    return [str(a) for a in usable]


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


def mb_per_student(lesson: str | None = None) -> float:
    """Estimated memory of one student of `lesson` (a notebook's file name, «06_….ipynb», or
    its number), measured per lesson (KERNEL_MB); MB_PER_STUDENT_ESTIMATE for any other page."""
    kernel = KERNEL_MB.get((lesson or "")[:2])
    return MB_PER_STUDENT_ESTIMATE if kernel is None else MB_PER_STUDENT_ESTIMATE + kernel - KERNEL_MB["05"]


def needed_memory_mb(students: int, lesson: str | None = None) -> float:
    """Estimated memory of a class of `students` of `lesson` (its whole pool, every page open)."""
    return SERVER_BASE_MB + pool_size(students) * mb_per_student(lesson)


def check_memory(students: int, available_mb: float | None, lesson: str | None = None) -> None:
    """Refuse, in Spanish, a class of `lesson` whose pool would not fit in `available_mb` (at
    most MEMORY_SHARE of it); None (unknown) accepts."""
    if available_mb is None:
        return
    need = needed_memory_mb(students, lesson)
    room = available_mb * MEMORY_SHARE
    if need <= room:
        return
    fits = students
    while fits > 0 and needed_memory_mb(fits, lesson) > room:
        fits -= 1
    advice = f"usa --alumnos {fits} como mucho" if fits else "cierra otros programas"
    raise ValueError(
        f"Para {students} alumnos harían falta unos {gb(need)} GB de memoria ({pool_size(students)} "
        f"páginas de unos {mb_per_student(lesson):.0f} MB), y este ordenador tiene libres {gb(available_mb)} GB: "
        f"{advice}, o reparte la clase entre varios ordenadores."
    )


def kernel_fits(kernels: int, start_mb: float | None, now_mb: float | None, lesson: str | None = None) -> bool:
    """Whether one more kernel may start beside `kernels`: each counted at `mb_per_student(lesson)`
    with the server, the class stays within MEMORY_SHARE of the memory free when it started
    (`start_mb`: the start-up check's budget, which a pool of `pool_size` kernels fits), and the
    memory free now (`now_mb`) still keeps the rest of it after the kernel.  Unknown: accepted."""
    if start_mb is None:
        return True
    per = mb_per_student(lesson)
    if SERVER_BASE_MB + (kernels + 1) * per > start_mb * MEMORY_SHARE:
        return False
    return now_mb is None or now_mb - per >= start_mb * (1 - MEMORY_SHARE)


def gb(mb: float) -> str:
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
            raise port_refusal(ip, port, exc) from None


def reserve_port(ip: str, port: int) -> list[socket.socket]:
    """The listening sockets of the class at `ip`:`port`, taken now, before any address is
    printed: of two launchers started at once on one port, the one that loses is told here (the
    same Spanish ValueError as `port_free`) and prints no address.  The server is handed these."""
    from tornado.netutil import bind_sockets

    try:
        return bind_sockets(port, ip or None)
    except OSError as exc:
        raise port_refusal(ip, port, exc) from None


def port_refusal(ip: str, port: int, exc: OSError) -> ValueError:
    """The Spanish refusal of a port this computer cannot listen on (`exc`: the system's error)."""
    if exc.errno == errno.EADDRINUSE:
        return ValueError(f"El puerto {port} está ocupado (¿hay otra clase abierta?). Ciérrala o usa otro: --puerto {port + 1}")
    if exc.errno == errno.EACCES:
        return ValueError(f"Este ordenador no deja usar el puerto {port}: usa otro, como --puerto {DEFAULT_PORT}.")
    if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EINVAL):
        mine = ", ".join(["127.0.0.1", *lan_addresses()])
        return ValueError(f"La dirección {shown(ip, raw=True)} no es de este ordenador. Usa una de las suyas ({mine}) o 0.0.0.0 para todas.")
    return ValueError(f"No se puede escuchar en {shown(ip, raw=True)}, puerto {port} (error del sistema {exc.errno}).")
