"""The class server seen from a student's kernel: its routes over HTTP (`Launcher`: the laptop
launcher, or a JupyterHub's class service with the single-user server's token) and what a page
keeps while that server cannot be reached (`Outbox`).

A page that cannot reach the server goes on: what it would have sent waits in its outbox, in
order, and the page says «sin guardar» (`unsaved_line`, the one sentence of the challenge board
and of the lessons' class panel); its poller sends it all, in order, once the server answers
again.  The server checks each event as it checks any other (the challenge derives every move
on the seat's own game); what it refuses is the page's to say.  The same code under the
launcher and under a hub.
"""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TIMEOUT = 5.0
UNSAVED = "sin guardar"  # what a page says of what waits for the class server (and the server of a full disk)
TEACHERS_COMPUTER = "el ordenador de tu profesor o profesora"
SCHOOL_SERVER = "el servidor del centro"


def unreachable(status: int) -> bool:
    """An answer that says nothing of the event: nothing arrived, or the server failed to answer."""
    return status == 0 or status >= 500


def unsaved_line(launcher: Any) -> str:
    """The page's one sentence while something waits: «Sin guardar: no hay conexión con …»."""
    return f"{UNSAVED.capitalize()}: no hay conexión con {where(launcher)}; se mandará solo en cuanto vuelva."


def where(launcher: Any) -> str:
    """The class server as a sentence names it: the teacher's computer, or the school's hub
    (a `Launcher` with a token)."""
    return SCHOOL_SERVER if getattr(launcher, "token", None) else TEACHERS_COMPUTER


class Launcher:
    """The class server's routes, seen from a kernel (JSON over HTTP)."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base.rstrip("/")
        self.token = token  # under a hub: the single-user server's token, which names the user

    def call(self, path: str, data: dict | None = None, query: dict | None = None) -> tuple[int, dict]:
        """(status, JSON answer); (0, {}) when the server cannot be reached."""
        url = f"{self.base}{path}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
        body = json.dumps(data).encode() if data is not None else None
        req = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
        if self.token:
            req.add_header("Authorization", f"token {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"{}")
            except ValueError:
                return e.code, {}
        except (OSError, ValueError):
            return 0, {}


def find_launcher(url_env: str, hub_env: str) -> tuple[Launcher | None, bool]:
    """The class server this kernel sends to, and whether it is a hub's service (`hub_env`, with
    the single-user server's own token); the laptop launcher's (`url_env`) comes first."""
    base, hub, token = (os.environ.get(k) for k in (url_env, hub_env, "JUPYTERHUB_API_TOKEN"))
    if base or not (hub and token):
        return (Launcher(base) if base else None), False
    return Launcher(hub, token), True


@dataclass
class Waiting:
    """One request that waits: its route, its body, and what the page needs to know of it
    (`note`; the challenge board: its line once this event is taken)."""

    path: str
    data: dict
    note: Any = None


class Outbox:
    """What a page could not send yet, in order.  Its lock is the page's poller's and clicks'."""

    def __init__(self) -> None:
        self.items: list[Waiting] = []
        self.lock = threading.RLock()

    def __len__(self) -> int:
        return len(self.items)

    def add(self, path: str, data: dict, note: Any = None) -> None:
        with self.lock:
            self.items.append(Waiting(path, data, note))

    def drop(self, n: int) -> None:
        """Forget the first `n` (the server had them: their answers were lost)."""
        with self.lock:
            del self.items[:n]

    def clear(self) -> None:
        with self.lock:
            self.items.clear()

    def send(self, launcher: Launcher, answered: Callable[[Waiting, int, dict], bool]) -> bool:
        """Send what waits, in order.  Each one the server answers leaves the outbox and is
        told to `answered(item, status, answer)`; False from it stops there (the rest stays for
        the page to decide) and is returned.  A server out of reach stops the sending, that one
        and the rest kept.  True when every item was sent and answered well."""
        with self.lock:
            while self.items:
                item = self.items[0]
                status, answer = launcher.call(item.path, item.data)
                if unreachable(status):
                    return False
                self.items.pop(0)
                if not answered(item, status, answer):
                    return False  # even as the last one: the page must hear of the refusal
            return True
