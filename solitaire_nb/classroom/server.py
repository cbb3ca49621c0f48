"""The class launcher's Voila server: its configuration, the capped pool of preheated pages, the
«Listo» line, the class's temporary folders and its end (`ending`); see
solitaire_nb/classroom/launcher.py for the whole picture."""

from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..solver.verdict_cache import CACHE_ENV, class_cache_path
from . import console, machine, pages, temp_folders
from .ending import ENDING, interrupt, quiet_end, stop_left_kernels

if TYPE_CHECKING:
    from traitlets.config import Config

#: the page a student gets when one more kernel would leave the machine short of memory.
NO_ROOM = ("<!doctype html><html lang='es'><meta charset='utf-8'><p>El ordenador del profesor o profesora no tiene memoria "
           "libre para abrir otra página. Si ya tienes una pestaña de la clase abierta, vuelve a ella; si no, avisa "
           "a tu profesor o profesora.</p></html>")  # fmt: skip


class NoRoom(RuntimeError):
    """A page's kernel refused: the machine would run short of memory (`machine.kernel_fits`)."""


#: English messages of the libraries that say nothing a teacher can act on.
_SILENCED = (
    "is not trusted",  # Voila, once per kernel: every output comes from running the page
    "websocket_ping_timeout",  # tornado ≥ 6.5 about jupyter_server's default ping timeout
    "Got events for closed stream",  # pyzmq, when a killed kernel's sockets close
)


class _Quiet(logging.Filter):
    """Drops the libraries' English notices a teacher cannot act on; says in Spanish the one
    that matters (a student's kernel died and was restarted)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if re.fullmatch(r"kernel \S+ restarted", message):
            console.say("Aviso: el núcleo de un alumno se ha parado y se ha vuelto a arrancar; su página le pide que la recargue.")
            return False
        if re.fullmatch(r"kernel \S+ restarted failed!", message):
            console.say("Aviso: el núcleo de un alumno se ha parado y no ha podido arrancar otra vez; que recargue la página.")
            return False
        if re.match(r"\d{3} [A-Z]+ /", message):  # a refused request (a page asked for a file it may not see)
            return False
        return not any(text in message for text in _SILENCED)


# ---------------------------------------------------------------------- configuration
def voila_config(students: int, cull_minutes: float, preheat: bool = True) -> Config:
    """The traitlets configuration that holds a class (see solitaire_nb/classroom/launcher.py)."""
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
        c.VoilaConfiguration.default_pool_size = machine.pool_size(students)
    else:
        c.VoilaConfiguration.progressive_rendering = True
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = {pages.TEACHER_TAG}
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


def _capped_factory(factory, limit: int, start_mb: float | None = None, lesson: str | None = None):
    """Voila's kernel-manager factory, with the preheated pool refilled only while fewer than
    `limit` kernels run (Voila refills a pool as soon as a page takes a kernel, which would start
    a second class's worth of kernels in the middle of the lesson), kernels whose own output
    goes nowhere (ipykernel prints English notices on the teacher's terminal when it is stopped;
    what a student needs to know reaches the page), and each kernel a page starts beyond the
    pool counted against the memory free when the class started (`start_mb`): refused
    (`NoRoom`) when the machine would run short, said once on the teacher's terminal."""
    said: list[bool] = []

    def make(base_class, preheat_kernel, default_pool_size, page_config_hook=None):
        cls = factory(base_class, preheat_kernel, default_pool_size, page_config_hook=page_config_hook)

        class QuietKernels(cls):  # type: ignore[misc, valid-type]
            starting = 0  # page kernels being started (not listed yet)

            async def start_kernel(self, *args, **kwargs):
                # Checked and counted with no await in between: pages arriving together are
                # counted one by one.  (Voila starts pool kernels through the base class.)
                kernels = len(self.list_kernel_ids()) + self.starting
                now = machine.available_memory_mb()
                if not machine.kernel_fits(kernels, start_mb, now, lesson):
                    if not said:
                        said.append(True)
                        console.say(
                            f"Aviso: una página nueva no se ha abierto: con otro núcleo el ordenador se quedaría sin "
                            f"memoria ({kernels} núcleos abiertos, {machine.gb(now or 0)} GB libres). Quien ya juega "
                            "sigue; cierra otros programas o pide que se cierren las pestañas que sobran. "
                            "Si se repite no se vuelve a avisar."
                        )
                    raise NoRoom
                kwargs.setdefault("stdout", subprocess.DEVNULL)
                kwargs.setdefault("stderr", subprocess.DEVNULL)
                self.starting += 1
                try:
                    return await super().start_kernel(*args, **kwargs)
                finally:
                    self.starting -= 1

        if not preheat_kernel:
            return QuietKernels

        class CappedPool(QuietKernels):
            kernel_pools_config: dict[str, dict[str, Any]]  # Voila's setting (a trait), changed for one refill

            def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
                # Voila starts pool kernels through the base class: their output goes here.
                kwargs.setdefault("stdout", subprocess.DEVNULL)
                kwargs.setdefault("stderr", subprocess.DEVNULL)
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
                if self.notebook_path is not None and not getattr(self, "closing", False):
                    self.fill_if_needed(notebook_name=self.notebook_path)  # a freed place
                return result

        return CappedPool

    return make


def _page_handler(base, hooks=None):
    """Voila's page handler, also setting the ``_xsrf`` cookie: the page asks the server to shut
    its kernel down when its tab closes, with that cookie's value, and without the cookie the
    server refuses (every closed tab would leave its kernel running until culled).  A class
    challenge's `hooks` may answer first (a page without its seat is sent to a new one).  A page
    whose kernel is refused for memory (`NoRoom`) gets a Spanish page (503)."""

    class PageHandler(base):  # type: ignore[misc, valid-type]
        async def prepare(self, *args, **kwargs):
            await super().prepare(*args, **kwargs)
            if self._finished or (hooks is not None and hooks.redirect(self)):
                return
            self.xsrf_token  # noqa: B018  (reading it sets the cookie)

        def _handle_request_exception(self, e: BaseException) -> None:
            if not isinstance(e, NoRoom) or self._headers_written or self._finished:
                return super()._handle_request_exception(e)
            self.clear()
            self.set_status(503)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(NO_ROOM)

    return PageHandler


# ---------------------------------------------------------------------- «Listo»
def pool_state(km) -> tuple[int, int, int]:
    """(pages ready, pages failed, pages still running their notebook) of the preheated pool: a
    page is ready when its kernel has started AND its notebook has run to the end."""
    ready = failed = running = 0
    for pool in getattr(km, "_pools", {}).values():
        for task in pool:
            if not task.done():
                running += 1
            elif task.cancelled() or task.exception() is not None:
                failed += 1
            else:
                render = task.result().get("task")
                if render is not None and not render.done():
                    running += 1
                elif render is not None and (render.cancelled() or render.exception() is not None):
                    failed += 1
                else:
                    ready += 1
    return ready, failed, running


def class_memory_mb(pages: int, students: int) -> tuple[float, float]:
    """(total MB, MB per student) the class will use: its kernels and the server measured now,
    plus the server's measured cost of each page once it is open (the reserve included)."""
    _, kernels = machine.kernels_memory_mb()
    total = kernels + machine.server_memory_mb() + pages * machine.SERVER_MB_PER_PAGE
    return total, total / max(1, students)


def _watch_pool(app, students: int) -> None:
    """Say once, when every preheated page has run its notebook, that the class can come in, and
    the memory it will use."""
    from tornado.ioloop import PeriodicCallback

    def check() -> None:
        ready, failed, running = pool_state(app.kernel_manager)
        if running or not (ready or failed):
            return
        total, per = class_memory_mb(ready + failed, students)
        console.say(
            f"Listo: {ready} páginas preparadas; ya se abren al momento. La clase usa unos "
            f"{machine.gb(total)} GB de memoria ({per:.0f} MB por alumno, con las páginas abiertas y la reserva)."
        )
        if failed:
            console.say(f"Atención: {failed} núcleos no han arrancado; esas páginas se prepararán al abrirlas.")
        watcher.stop()

    watcher = PeriodicCallback(check, 1000)
    watcher.start()


def serve(
    notebook: Path,
    students: int,
    port: int = machine.DEFAULT_PORT,
    ip: str = "0.0.0.0",
    cull_minutes: float = 10.0,
    solver_seconds: float | None = None,
    preheat: bool = True,
    hooks=None,
    sockets: list | None = None,
) -> None:
    """Serve the student page of `notebook` until Ctrl+C (or SIGTERM, or SIGHUP), then stop
    every kernel and remove the class's temporary folders.  `sockets`: the port, already taken
    (`machine.reserve_port`; taken here otherwise, before any address is printed).  A class
    challenge passes `hooks` (solitaire_nb/classroom/challenge.py): its own page, its routes and
    its lines for the teacher."""
    import voila.app
    from tornado.httpserver import HTTPServer
    from tornado.ioloop import IOLoop
    from voila.app import Voila

    for signum in ENDING[1:]:
        signal.signal(signum, interrupt)
    if sockets is None:
        sockets = machine.reserve_port(ip, port)
    if temp_folders.remove_stale():
        console.say("Se han borrado las carpetas temporales de una clase anterior que no se cerró del todo.")
    if solver_seconds is not None:
        os.environ["SNB_SOLVER_SECONDS"] = str(solver_seconds)
    # the rules lab solves in its own kernel: thirty kernels already share the processor
    os.environ.setdefault("SNB_LAB_WORKERS", "1")
    # Kernels import this very package, and Voila finds the "alumno" template.
    package = pages.PACKAGE
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(package.parent), os.environ.get("PYTHONPATH")]))
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(pages.TEMPLATES), os.environ.get("JUPYTER_PATH")]))
    os.environ.pop("MPLBACKEND", None)
    if hooks is not None:
        hooks.environ(port)
    voila.app.TornadoVoilaHandler = _page_handler(voila.app.TornadoVoilaHandler, hooks)
    voila.app.voila_kernel_manager_factory = _capped_factory(
        voila.app.voila_kernel_manager_factory, machine.pool_size(students), machine.available_memory_mb(), notebook.name
    )
    for name in ("tornado.general", "tornado.application", "tornado.access", "Voila", "ServerApp"):
        logging.getLogger(name).addFilter(_Quiet())

    tmp = temp_folders.make_class_folder()
    try:
        # One verdict cache for every kernel of the class (verdict_cache): the user's own, or a
        # fresh one for this class when that one cannot be opened.
        cache = class_cache_path(tmp)
        if cache is not None:
            os.environ[CACHE_ENV] = str(cache)
        page = hooks.page(tmp) if hooks is not None else pages.student_copy(notebook, tmp)
        config = voila_config(students, cull_minutes, preheat)
        config.Voila.ip = ip
        config.Voila.port = port
        config.Voila.open_browser = False
        config.Voila.log_level = "WARN"
        app = Voila(config=config)
        app.initialize([str(page)])
        signal.signal(signal.SIGTERM, interrupt)  # Voila's own handler needs a loop that runs
        app.log.addFilter(_Quiet())
        voila_routes = app.init_handlers

        def routes() -> list:
            temp_folders.claim(app.connection_dir)  # Voila has just made it (kernels' connection files)
            return [*(hooks.handlers() if hooks is not None else []), *voila_routes()]

        app.init_handlers = routes
        app.ioloop = IOLoop.current()
        ending = quiet_end(app)
        for signum in ENDING:
            app.ioloop.asyncio_loop.add_signal_handler(signum, ending, signum)
        # Voila's own stop removes the kernels' sockets before stopping them (ZMQ errors on the
        # terminal); the kernels are already stopped here.
        app.stop = lambda: shutil.rmtree(app.connection_dir, ignore_errors=True)

        def listen() -> None:  # Voila's own, on the sockets taken before the addresses were printed
            HTTPServer(app.app).add_sockets(sockets)
            try:
                app.ioloop.start()
            finally:
                app.stop()

        app.listen = listen
        addresses = machine.lan_addresses() if ip in ("0.0.0.0", "::", "") else [ip]
        console.announce(port, students, page.name if hooks is None else hooks.title, addresses, preheat, notebook.name)
        if hooks is not None:
            hooks.announce(port)
        if preheat:
            _watch_pool(app, students)
        try:
            app.start()
        finally:
            stop_left_kernels(app)
            if app.connection_dir:  # also when a signal came before the loop ran
                shutil.rmtree(app.connection_dir, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
