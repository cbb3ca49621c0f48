"""The class challenge's server in this process, for the request tests (tests/test_reto_fuzz.py).

`InProcessServer` serves every route of `challenge_server.handlers` and the launcher's page
route (``GET /``, where `ChallengeHooks.redirect` gives seats) on a tornado server in a thread
of its own, with a real record in a temporary folder.  Everything that touches the challenge or
its record runs on the server's thread (`on_server`: SQLite connections belong to one thread).
The lines the teacher's terminal gets (`lines`) and every log record of the libraries
(`logged`, tracebacks included) are kept, so a test can assert that nothing a request sends
puts a traceback on the teacher's terminal.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.client
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tornado.web
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.netutil import bind_sockets

from solitaire_nb.classroom.challenge import ChallengeHooks
from solitaire_nb.classroom.challenge_state import Challenge

DEAL = "citadel/2026"
DROPPED = 499  # the status `request` gives a connection closed without an answer
PAGE = "/"  # the launcher's student page (Voila's handler in a class; here a stand-in)


class _Page(tornado.web.RequestHandler):
    """Voila's page handler as the launcher wraps it (server._page_handler): the challenge's
    hooks answer first (a page without its seat is sent to a new one)."""

    def initialize(self, hooks: Any) -> None:
        self.hooks = hooks

    def get(self) -> None:
        if not self.hooks.redirect(self):
            self.finish("<!doctype html><p>Reto de clase</p>")


class _Log(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
        self.texts: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.texts.append(self.format(record))  # with its traceback, if the record has one


class InProcessServer:
    """A class challenge on `folder / "r.sqlite"` (with `pool`, a lesson's class pool instead:
    True for 06, or the lesson's number), its routes served on 127.0.0.1."""

    def __init__(self, folder: Path, students: int = 5, pool: bool | str = False) -> None:
        self.pool = pool
        self.lesson = ("06" if pool is True else pool) if pool else None
        #: what the teacher's view names the class by (its key and value)
        self.identity = ("leccion", self.lesson) if pool else ("reparto", DEAL)
        self.lines: list[str] = []
        self._log = _Log()
        logging.getLogger().addHandler(self._log)  # every library's records reach the root
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(folder, students), daemon=True)
        self._thread.start()
        self._ready.wait(60)
        if self._failed is not None:
            raise self._failed

    def _run(self, folder: Path, students: int) -> None:
        asyncio.set_event_loop(asyncio.new_event_loop())
        try:
            if self.pool:
                from solitaire_nb.classroom.pool import PoolHooks
                from solitaire_nb.classroom.pool_state import Pool

                self.challenge = Pool(self.lesson, folder / "r.sqlite", say=self.lines.append)
                self.hooks = PoolHooks(self.challenge, Path(f"{self.lesson}.ipynb"), folder / "r.sqlite", students)
            else:
                self.challenge = Challenge(DEAL, folder / "r.sqlite", say=self.lines.append)
                self.hooks = ChallengeHooks(self.challenge, folder / "r.sqlite", students)
            self.routes = self.hooks.handlers()
            app = tornado.web.Application([*self.routes, (PAGE, _Page, {"hooks": self.hooks})])
            sockets = bind_sockets(0, "127.0.0.1")
            self.port = sockets[0].getsockname()[1]
            self._server = HTTPServer(app)
            self._server.add_sockets(sockets)
            self.loop = IOLoop.current()
        except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
            self._failed = exc
            self._ready.set()
            return
        self._ready.set()
        self.loop.start()

    @property
    def token(self) -> str:
        return self.hooks.token

    @property
    def logged(self) -> str:
        return "\n".join(self._log.texts)

    def on_server(self, fn: Callable[[], Any]) -> Any:
        """`fn()` run on the server's thread, between requests; its result."""
        done: concurrent.futures.Future = concurrent.futures.Future()

        def call() -> None:
            try:
                done.set_result(fn())
            except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
                done.set_exception(exc)

        self.loop.add_callback(call)
        return done.result(timeout=120)

    def snapshot(self) -> tuple:
        """What a refused request must leave as it was: the teacher's view, the switches, and
        the record's seats, events and state."""

        def take() -> tuple:
            c = self.challenge
            rec = c.record
            return (c.view(), dict(getattr(c, "state", {})), [(s.seat, s.name) for s in c.seats.values()],
                    None if rec is None else (rec.seats(), rec.events(), rec.state()))  # fmt: skip

        return self.on_server(take)

    def request(self, method: str, target: str, body: bytes | None = None,
                headers: list[tuple[str, bytes]] = ()) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
        """One request as sent (`target`: path and query, already encoded); (status, headers,
        body).  A request tornado's HTTP layer drops before any handler (a head over 64 KB, two
        ``Host`` lines…) closes the connection: `DROPPED`."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            conn.putrequest(method, target, skip_accept_encoding=True)
            for name, value in headers:
                conn.putheader(name, value)
            if body is not None:
                conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        except ConnectionError:
            return DROPPED, {}, b""
        finally:
            conn.close()

    def teacher_view(self) -> tuple[int, bytes]:
        status, _, body = self.request("GET", "/docente/api/clase", headers=[("X-Token", self.token.encode())])
        return status, body

    def close(self) -> None:
        def stop() -> None:
            self._server.stop()
            if self.challenge.record is not None:
                self.challenge.record.close()
            self.loop.stop()

        self.loop.add_callback(stop)
        self._thread.join(60)
        logging.getLogger().removeHandler(self._log)
