"""Serve one lesson notebook to a whole class from the teacher's computer, as student pages (Voila).

Usage::

    python -m solitaire_nb.clase 05 --alumnos 30

It listens on the local network and prints the address the students type (this machine's own
LAN addresses, read from its network interfaces: nothing outside the machine is contacted).  What
holds under load, and why:

* **Preheated pages.**  Voila runs a whole notebook before it shows its page, so a class opening
  its pages together waits for all of them (benchmarks/RESULTS.md «Clase de 30»).  The launcher
  starts a pool of kernels (one per student plus a reserve) that run the notebook before the
  class arrives, so each page is sent as soon as it is asked for.  The pool never grows past that size: a page opened when the pool is empty is
  rendered the ordinary way (slower, but complete), and a kernel freed by a closed tab makes room
  for a new one.  Its memory is printed once the pool is ready.
* **Patient execution.**  A long IOPub timeout (outputs are waited for, never dropped) and a long
  kernel-start timeout; kernels talk to the server over local sockets (``ipc``) where the system
  has them, so that thirty kernels starting together never race for the same TCP port.
* **No leaked kernels.**  A kernel whose page is closed is shut down by the page itself, and
  otherwise culled after ``--cierre`` minutes without a connection.
* **Nothing from outside.**  The pages use the ``alumno`` template (solitaire_nb/templates):
  Voila's own, without the Font Awesome and mermaid.js links to public CDNs.
* **Only the student page.**  A temporary folder holds a copy of the one notebook, without the
  cells tagged ``docente`` (Voila's TagRemovePreprocessor removes them too); the guide, the
  sources and every other file stay out of reach.

``--segundos`` sets the class's budget for the boards' solver buttons (environment variable
``SNB_SOLVER_SECONDS``, read by the kernels).
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import json
import math
import os
import socket
import sys
import tempfile
from pathlib import Path

from .numbers_es import decimal

PACKAGE = Path(__file__).resolve().parent
TEMPLATES = PACKAGE / "templates"
NOTEBOOKS = PACKAGE.parent / "notebooks"
TEACHER_TAG = "docente"
DEFAULT_PORT = 8866
#: server memory of one preheated page of notebook 05, for the estimate printed before the pool is
#: ready (the figures are in benchmarks/RESULTS.md «Clase de 30»).
MB_PER_PAGE_ESTIMATE = 65


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
        cells.append(cell)
    target = folder / notebook.name
    target.write_text(json.dumps({**nb, "cells": cells}, indent=1, ensure_ascii=False), encoding="utf-8")
    return target


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


def kernels_memory_mb() -> tuple[int, float]:
    """(kernels, resident MB) of this process's children: the kernels it started."""
    try:
        import psutil
    except ImportError:
        return 0, float("nan")
    children = psutil.Process().children(recursive=True)
    total = 0
    for child in children:
        try:
            total += child.memory_info().rss
        except psutil.Error:
            pass
    return len(children), total / 2**20


# ---------------------------------------------------------------------- Voila's configuration
def voila_config(students: int, cull_minutes: float, preheat: bool = True):
    """The traitlets configuration that holds a class (see the module docstring)."""
    from traitlets.config import Config

    c = Config()
    c.VoilaConfiguration.template = "alumno"
    c.VoilaConfiguration.allow_template_override = "NO"  # ?template=… would skip the pool
    c.VoilaConfiguration.allow_theme_override = "NO"
    c.VoilaConfiguration.show_tracebacks = False
    # Only the extensions the boards need (a JupyterLab extension installed for the teacher,
    # such as jupytext's, would load in every page and fail there).
    c.VoilaConfiguration.extension_allowlist = [
        "anywidget", "@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8",
    ]  # fmt: skip
    if preheat:
        c.VoilaConfiguration.preheat_kernel = True
        c.VoilaConfiguration.default_pool_size = pool_size(students)
    else:
        c.VoilaConfiguration.progressive_rendering = True
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = {TEACHER_TAG}
    # Outputs arrive late on a busy machine: wait for them rather than drop them.
    c.VoilaExecutor.iopub_timeout = 300
    c.VoilaExecutor.startup_timeout = 600
    c.VoilaExecutor.timeout = None
    # A kernel without a page (tab closed without the page's own shutdown) is culled.
    c.MappingKernelManager.cull_idle_timeout = int(cull_minutes * 60)
    c.MappingKernelManager.cull_interval = max(10, min(60, int(cull_minutes * 30)))
    c.MappingKernelManager.cull_connected = False
    c.MappingKernelManager.cull_busy = False
    if os.name == "posix":
        # Local sockets: no TCP port to race for when thirty kernels start together.
        c.KernelManager.transport = "ipc"
    return c


def _capped_factory(factory, limit: int):
    """Voila's kernel-manager factory, with the preheated pool refilled only while fewer than
    `limit` kernels run: Voila refills a pool as soon as a page takes a kernel, which would start
    a second class's worth of kernels (CPU and memory) in the middle of the lesson."""

    def make(base_class, preheat_kernel, default_pool_size, page_config_hook=None):
        cls = factory(base_class, preheat_kernel, default_pool_size, page_config_hook=page_config_hook)
        if not preheat_kernel:
            return cls

        class CappedPool(cls):  # type: ignore[misc, valid-type]
            def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
                pools = getattr(self, "_pools", {})
                pending = sum(1 for pool in pools.values() for task in pool if not task.done())
                running = len(self.list_kernel_ids())
                pool = pools.get(notebook_name, [])
                wanted = self.kernel_pools_config.get("default", {}).get("pool_size", 0)
                room = max(0, limit - running - pending)
                target = len(pool) + max(0, min(room, wanted - len(pool)))
                saved = self.kernel_pools_config
                self.kernel_pools_config = {"default": {**saved.get("default", {}), "pool_size": target}}
                try:
                    return super().fill_if_needed(delay=delay, notebook_name=notebook_name, **kwargs)
                finally:
                    self.kernel_pools_config = saved

            async def shutdown_kernel(self, kernel_id, *args, **kwargs):
                result = await super().shutdown_kernel(kernel_id, *args, **kwargs)
                if self.notebook_path is not None:  # a freed place: preheat a page for it
                    self.fill_if_needed(notebook_name=self.notebook_path)
                return result

        return CappedPool

    return make


def _page_handler(base):
    """Voila's page handler, also setting the ``_xsrf`` cookie: the page asks the server to shut
    its kernel down when its tab closes, with that cookie's value, and without the cookie the
    server refuses (every closed tab would leave its kernel running until culled)."""

    class PageHandler(base):  # type: ignore[misc, valid-type]
        async def prepare(self, *args, **kwargs):
            await super().prepare(*args, **kwargs)
            self.xsrf_token  # noqa: B018  (reading it sets the cookie)

    return PageHandler


class _QuietTrust:
    """Drop Voila's "notebook is not trusted" warning, said once per kernel: the page's outputs
    are all produced by running it, so trust does not matter here."""

    def filter(self, record) -> bool:
        return "is not trusted" not in record.getMessage()


def _gb(mb: float) -> str:
    return decimal(mb / 1024, 1)


def port_free(ip: str, port: int) -> None:
    """Raise a Spanish ValueError when the port is taken (another class, another program)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((ip, port))
        except OSError:
            raise ValueError(
                f"El puerto {port} está ocupado (¿hay otra clase abierta?). Ciérrala o usa otro: --puerto {port + 1}"
            ) from None


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
            f"{_gb(size * MB_PER_PAGE_ESTIMATE)} GB de memoria; aviso cuando estén listas."
        )
    _say("Para terminar la clase: Ctrl+C.\n")


def _watch_pool(app, students: int) -> None:
    """Say once when the pool is ready, with the memory its kernels use."""
    from tornado.ioloop import PeriodicCallback

    def check() -> None:
        km = app.kernel_manager
        pools = getattr(km, "_pools", {})
        tasks = [t for pool in pools.values() for t in pool]
        if not tasks or not all(t.done() for t in tasks):
            return
        failed = sum(1 for t in tasks if t.exception() is not None)
        kernels, mb = kernels_memory_mb()
        per = mb / kernels if kernels else float("nan")
        _say(
            f"Listo: {len(tasks) - failed} páginas preparadas; sus núcleos usan {_gb(mb)} GB "
            f"({per:.0f} MB por página)."
        )
        if failed:
            _say(f"Atención: {failed} núcleos no han arrancado; esas páginas se prepararán al abrirlas.")
        watcher.stop()

    watcher = PeriodicCallback(check, 2000)
    watcher.start()


def serve(
    notebook: Path,
    students: int,
    port: int = DEFAULT_PORT,
    ip: str = "0.0.0.0",
    cull_minutes: float = 10.0,
    solver_seconds: float | None = None,
    preheat: bool = True,
) -> None:
    """Serve the student page of `notebook` until interrupted (Ctrl+C)."""
    import voila.app
    from voila.app import Voila

    if solver_seconds is not None:
        os.environ["SNB_SOLVER_SECONDS"] = str(solver_seconds)
    # Kernels import this very package, and Voila finds the "alumno" template.
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE.parent), os.environ.get("PYTHONPATH")]))
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(TEMPLATES), os.environ.get("JUPYTER_PATH")]))
    os.environ.pop("MPLBACKEND", None)
    voila.app.TornadoVoilaHandler = _page_handler(voila.app.TornadoVoilaHandler)
    voila.app.voila_kernel_manager_factory = _capped_factory(voila.app.voila_kernel_manager_factory, pool_size(students))

    with tempfile.TemporaryDirectory(prefix="snb-clase-") as tmp:
        page = student_copy(notebook, Path(tmp))
        config = voila_config(students, cull_minutes, preheat)
        config.Voila.ip = ip
        config.Voila.port = port
        config.Voila.port_retries = 0
        config.Voila.open_browser = False
        config.Voila.log_level = "WARN"
        app = Voila(config=config)
        app.initialize([str(page)])
        app.log.addFilter(_QuietTrust())
        _announce(port, students, notebook.name, lan_addresses() if ip in ("0.0.0.0", "") else [ip], preheat)
        if preheat:
            _watch_pool(app, students)
        app.start()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire_nb.clase",
        description="Sirve un cuaderno a toda una clase (páginas de alumno, Voila) desde este ordenador.",
    )
    parser.add_argument("cuaderno", help="número o nombre del cuaderno (por ejemplo 05)")
    parser.add_argument("--alumnos", type=int, default=30, help="alumnos de la clase (30)")
    parser.add_argument("--puerto", type=int, default=DEFAULT_PORT, help=f"puerto ({DEFAULT_PORT})")
    parser.add_argument("--ip", default="0.0.0.0", help="dirección en la que escucha (todas)")
    parser.add_argument(
        "--cierre", type=float, default=10.0, help="minutos sin página tras los que se cierra un núcleo (10)"
    )
    parser.add_argument("--segundos", type=float, default=None, help="tiempo de los botones del resolvedor")
    parser.add_argument(
        "--progresivo",
        action="store_true",
        help="sin páginas preparadas: cada página se muestra mientras se ejecuta (menos memoria)",
    )
    parser.add_argument("--carpeta", type=Path, default=NOTEBOOKS, help="carpeta de los cuadernos")
    args = parser.parse_args(argv)
    try:
        notebook = find_notebook(args.cuaderno, args.carpeta)
        pool_size(args.alumnos)
        port_free(args.ip, args.puerto)
    except ValueError as exc:
        parser.error(str(exc))
    if importlib.util.find_spec("voila") is None:
        parser.error('falta Voila; instálalo con el extra «clase»: pip install -e ".[clase]"')
    try:
        serve(notebook, args.alumnos, args.puerto, args.ip, args.cierre, args.segundos, not args.progresivo)
    except KeyboardInterrupt:
        pass
    _say("Clase terminada: núcleos cerrados.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
