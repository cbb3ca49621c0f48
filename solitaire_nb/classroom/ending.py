"""How a class ends: Ctrl+C, SIGTERM and SIGHUP (the teacher closed the terminal) all stop every
kernel at once, quietly, and let the server remove the class's temporary folders
(`temp_folders`) and say «Clase terminada» (`launcher`)."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable

#: the signals that end a class as Ctrl+C does (SIGHUP: the teacher closed the terminal).
ENDING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def interrupt(signum, frame) -> None:
    """The handler of `ENDING` until the event loop runs: the class ends as on Ctrl+C."""
    raise KeyboardInterrupt


def quiet_end(app) -> Callable[[int], None]:
    """The handler of `ENDING` for the event loop (it is given the signal): silence the
    libraries' logs, stop every kernel at once (no interrupt, so no kernel prints anything) and
    stop the server.  A second Ctrl+C stops at once; a repeated SIGHUP or SIGTERM (a closing
    terminal may send more than one) lets the end finish."""
    state: dict[str, object] = {"ending": False}

    async def finish() -> None:
        km = app.kernel_manager
        km.closing = True
        kill_kernels()  # before the manager's own shutdown, which would interrupt them first
        try:
            await km.shutdown_all(now=True)
        except Exception:  # a kernel already gone: nothing left to stop
            pass
        app.ioloop.stop()

    def handler(signum: int) -> None:
        if state["ending"]:
            if signum == signal.SIGINT:  # the teacher insists
                kill_kernels()
                app.ioloop.stop()
            return
        state["ending"] = True
        logging.disable(logging.CRITICAL)  # the libraries' notices about closing sockets
        state["task"] = asyncio.ensure_future(finish())

    return handler


def kill_kernels() -> None:
    """Kill this process's children (the kernels it started) at once: a class that ends needs
    nothing more from them."""
    try:
        import psutil
    except ImportError:
        return
    for child in psutil.Process().children(recursive=True):
        try:
            child.kill()
        except psutil.Error:
            pass


def stop_left_kernels(app) -> None:
    """Kernels still running after the server stopped (it ended another way than Ctrl+C)."""
    try:
        ids = list(app.kernel_manager.list_kernel_ids())
    except Exception:
        return
    if ids:
        try:
            asyncio.get_event_loop().run_until_complete(app.kernel_manager.shutdown_all(now=True))
        except Exception:
            pass
