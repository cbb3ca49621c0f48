"""A real JupyterHub on loopback for the hub tests (tests/test_hub.py) and benchmarks/bench_hub.py.

The hub runs the project's own configuration (docs/hub/jupyterhub_config.py, its values at the
top changed to this run's ports, record and deal; one lesson's class pool, 06's) beside what only a test needs: every port free
on 127.0.0.1, the dummy authenticator (any password), `SimpleLocalProcessSpawner` with homes in
the test's folder, a service «pruebas» whose token can make users and their tokens, and services
polled every second (a hub polls them every 30 s: a killed service would wait that long).  The
proxy is Debian's configurable-http-proxy (`NODE_PATH` lets a Node.js not Debian's find its
modules).  `HubClient` is a student's board without a kernel: the service's routes with a token.
Every process of a test hub (the hub, its proxy, services and users' servers, in sessions of their
own) carries ``SNB_HUB_PRUEBA=<test process>:<folder>``: `close` ends this hub's, and a new hub
first ends those of a test process that is gone (`sweep`: an interrupted run leaves nothing running).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

from parallel import free_port

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "docs" / "hub" / "jupyterhub_config.py"
ADMIN_TOKEN = "pruebas-" + "0123456789abcdef" * 2
SERVICE = "clase"
PROXY = shutil.which("configurable-http-proxy")

MARK = "SNB_HUB_PRUEBA"

TEST_CONFIG = """\
import os
import jupyterhub.services.service as _service
from traitlets import Integer

class _PolledEverySecond(_service._ServiceSpawner):
    poll_interval = Integer(1)

    def get_env(self):
        return {{**super().get_env(), {mark!r}: os.environ[{mark!r}]}}  # tests/hub_server.py's sweep finds it

_service._ServiceSpawner = _PolledEverySecond
c = get_config()
load_subconfig({shipped!r})
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.pid_file = {pid_file!r}
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {homes!r} + "/{{username}}"
c.JupyterHub.db_url = "sqlite:///" + {db!r}
c.JupyterHub.cookie_secret_file = {cookie!r}
c.Spawner.http_timeout = 120  # a busy 2-core machine starts a JupyterLab server slowly
c.Spawner.start_timeout = 180
c.Spawner.env_keep.append({mark!r})
if os.getuid() == 0:  # a container's root: Jupyter refuses to run so unless told
    c.Spawner.args.append("--allow-root")
c.JupyterHub.services.append({{"name": "pruebas", "api_token": {token!r}}})
c.JupyterHub.load_roles.append({{"name": "pruebas", "services": ["pruebas"],
                                 "scopes": ["admin:users", "tokens", "admin:groups", "admin:servers", "access:servers"]}})
"""


def shipped_config(port: int, record: Path, deal: str, pool_port: int) -> str:
    """docs/hub/jupyterhub_config.py with this run's service ports (lesson 06's pool only), record and deal."""
    text = SHIPPED.read_text(encoding="utf-8")
    for name, value in (("PUERTO", port), ("REGISTRO", str(record)), ("RETO", deal), ("CLASES", {"06": pool_port})):
        text, n = re.subn(rf"^{name} = .*$", f"{name} = {value!r}", text, count=1, flags=re.M)
        assert n == 1, name
    return text


class Hub:
    """One JupyterHub and its proxy, stopped by `close`."""

    def __init__(self, folder: Path, deal: str) -> None:
        self.folder = folder
        self.deal = deal
        self.record = folder / "reto.sqlite"
        self.port, self.service_port, self.pool_port = free_port(), free_port(), free_port()
        self.pool_record = folder / "clase06.sqlite"  # the shipped configuration's: beside the challenge's
        self.pid_file = folder / "proxy.pid"
        (folder / "clase.py").write_text(shipped_config(self.service_port, self.record, deal, self.pool_port), encoding="utf-8")
        (folder / "homes").mkdir()
        config = folder / "jupyterhub_config.py"
        config.write_text(TEST_CONFIG.format(
            shipped=str(folder / "clase.py"), port=self.port, hub_port=free_port(), api_port=free_port(),
            pid_file=str(self.pid_file), homes=str(folder / "homes"), db=str(folder / "hub.sqlite"),
            cookie=str(folder / "cookie"), token=ADMIN_TOKEN, mark=MARK), encoding="utf-8")  # fmt: skip
        sweep()  # what an interrupted run left
        self.mark = f"{os.getpid()}:{folder}"
        env = {**os.environ, MARK: self.mark, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
               "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
               "NODE_PATH": os.pathsep.join(filter(None, ["/usr/share/nodejs", os.environ.get("NODE_PATH")]))}  # fmt: skip
        self.log = folder / "hub.log"
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=folder, env=env,
                                         stdout=out, stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        try:
            self.wait_for_service(120)
        except Exception:
            self.close()
            raise

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def service_url(self) -> str:
        """The service's address as the students' kernels have it (the shipped configuration's)."""
        return f"http://127.0.0.1:{self.service_port}/services/{SERVICE}"

    @property
    def pool_url(self) -> str:
        """Lesson 06's pool service as the students' kernels have it (``SNB_HUB_CLASE06_URL``)."""
        return f"http://127.0.0.1:{self.pool_port}/services/clase06"

    def request(self, method: str, path: str, data: dict | None = None, token: str | None = None,
                port: int | None = None) -> tuple[int, dict | str]:  # fmt: skip
        """(status, JSON answer, or the text of another answer); status 0 when nothing answers."""
        c = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=30)
        headers = {"Authorization": f"token {token}"} if token else {}
        try:
            c.request(method, path, body=None if data is None else json.dumps(data), headers=headers)
            r = c.getresponse()
            body = r.read().decode("utf-8", "replace")
        except OSError:
            return 0, {}
        try:
            return r.status, json.loads(body or "{}")
        except ValueError:
            return r.status, body

    def api(self, method: str, path: str, data: dict | None = None) -> dict | list:
        status, answer = self.request(method, f"/hub/api{path}", data, ADMIN_TOKEN)
        assert 200 <= status < 300, (method, path, status, answer)
        return answer  # type: ignore[return-value]

    def user(self, user: str) -> None:
        """Make `user` a user of the hub, if not yet."""
        if self.request("GET", f"/hub/api/users/{user}", token=ADMIN_TOKEN)[0] == 404:
            self.api("POST", f"/users/{user}")

    def token(self, user: str, scopes: list[str] | None = None) -> str:
        """A new token of `user` (made if missing), with `scopes` (default: the user's own)."""
        self.user(user)
        body = {"note": "prueba"} | ({"scopes": scopes} if scopes is not None else {})
        answer = self.api("POST", f"/users/{user}/tokens", body)
        return answer["token"]  # type: ignore[index,call-overload]

    def home(self, user: str) -> Path:
        """`user`'s folder (their single-user server's), with the students' pages in it."""
        from solitaire_nb.classroom.hub import write_pages
        from solitaire_nb.classroom.pages import NOTEBOOKS

        folder = self.folder / "homes" / user
        write_pages(folder, self.deal, NOTEBOOKS)  # as `--hub --paginas` writes them
        return folder

    def service_pid(self) -> int | None:
        """The pid of the service this hub started (its command names this run's record)."""
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    cmd = (entry / "cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if b"--hub" in cmd and str(self.record).encode() in cmd:
                    return int(entry.name)
        return None

    def wait_for_service(self, seconds: float) -> int:
        """Wait until the service answers through the proxy; its pid."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the hub stopped:\n" + self.log.read_text()[-4000:])
            status, _ = self.request("GET", f"/services/{SERVICE}/reto/api/estado")
            pid = self.service_pid()
            if status == 403 and pid is not None:  # the service's own refusal: it is up, behind the proxy
                return pid
            time.sleep(0.3)
        raise RuntimeError("the service did not start:\n" + self.log.read_text()[-4000:])

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the hub stops its servers, services and proxy
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        sweep(self.mark)  # whatever of this hub's outlived it (its users' servers, a service)

    def server(self, user: str, seconds: float = 300) -> None:
        """Start `user`'s own server unless it runs, and wait until it is ready."""
        self.user(user)
        deadline = time.monotonic() + seconds
        while True:
            server = self.api("GET", f"/users/{user}").get("servers", {}).get("")  # type: ignore[union-attr]
            if server and server.get("ready"):
                return
            if not server:
                self.request("POST", f"/hub/api/users/{user}/server", token=ADMIN_TOKEN)
            assert time.monotonic() < deadline, self.log.read_text()[-3000:]
            time.sleep(0.5)


def _marked() -> dict[int, str]:
    """{pid: its ``SNB_HUB_PRUEBA``} of every process of this machine's user that has one."""
    out = {}
    prefix = MARK.encode() + b"="
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        for item in environ.split(b"\0"):
            if item.startswith(prefix):
                out[int(entry.name)] = item[len(prefix) :].decode(errors="replace")
    return out


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def sweep(mark: str | None = None) -> list[int]:
    """End (SIGKILL) the processes of the test hub marked `mark`; with None, those of every
    test hub whose test process is gone.  The pids ended."""
    ended = []
    for pid, value in _marked().items():
        owner = value.split(":", 1)[0]
        gone = value == mark if mark is not None else owner.isdigit() and not _alive(int(owner))
        if gone and pid != os.getpid():
            try:
                os.kill(pid, signal.SIGKILL)
                ended.append(pid)
            except OSError:
                pass
    return ended


class HubClient:
    """A student's board seen from the service: its routes with the user's token (through the
    proxy, as a browser; or at the service's own address, as a kernel on this machine)."""

    def __init__(self, hub: Hub, token: str) -> None:
        self.hub = hub
        self.token = token
        self.acked: list[str] = []  # moves the service acknowledged, in order

    def call(self, path: str, data: dict | None = None, query: dict | None = None) -> tuple[int, dict]:
        target = f"/services/{SERVICE}{path}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
        status, answer = self.hub.request("POST" if data is not None else "GET", target, data, self.token)
        return status, answer if isinstance(answer, dict) else {"texto": answer}

    def state(self) -> tuple[int, dict]:
        return self.call("/reto/api/estado", query={"asiento": "hub"})

    def move(self, text: str) -> int:
        status, answer = self.call("/reto/api/evento", {"asiento": "otro", "suceso": "move", "movimiento": text})
        if status == 200 and answer.get("registrado"):
            self.acked.append(text)
        return status

    def play(self, deal: str, events: int, seed: int = 0) -> list[float]:
        """`events` events on the user's line (legal moves, an undo now and then), each sent
        once; the seconds each acknowledged one took (`acked` keeps the line acknowledged)."""
        from solitaire_nb.engine.share import load_share
        from solitaire_nb.games.notation import format_move

        rng, game, took = random.Random(seed), load_share(deal), []
        for _ in range(events):
            legal = game.legal_moves()
            undo = game.moves_played and (rng.random() < 0.1 or not legal)
            start = time.perf_counter()
            if undo:
                status, answer = self.call("/reto/api/evento", {"asiento": "hub", "suceso": "undo"})
                if status == 200 and answer.get("registrado"):
                    game.undo()
                    self.acked.pop()
            elif legal:
                m = rng.choice(legal)
                status = self.move(format_move(game, m, sep="-"))
                if status == 200:
                    game.move(m)
            else:
                break
            if status == 200:
                took.append(time.perf_counter() - start)
        return took


def load(hub: Hub, students: int, events: int, prefix: str = "carga") -> dict:
    """`students` users of the hub, each with a token of their own, playing `events` events at
    once; what was acknowledged and what the record holds, per student."""
    import threading

    clients = {f"{prefix}{k}": HubClient(hub, hub.token(f"{prefix}{k}")) for k in range(students)}
    took: dict[str, list[float]] = {}
    threads = [threading.Thread(target=lambda u=u, c=c, k=k: took.__setitem__(u, c.play(hub.deal, events, seed=k)))
               for k, (u, c) in enumerate(clients.items())]  # fmt: skip
    start = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "took": took, "acked": {u: len(t) for u, t in took.items()},
            "lines": {u: c.acked for u, c in clients.items()}, "recorded": recorded_events(hub.record, set(clients))}  # fmt: skip


def recorded_events(record: Path, users: set[str]) -> dict[str, int]:
    """{user: moves and undos in the record} (read-only, beside the running service)."""
    from solitaire_nb.classroom.record import Record

    rec = Record(record, None, readonly=True)
    try:
        names = {seat: name for seat, _, name in rec.seats()}
        out = dict.fromkeys(users, 0)
        for e in rec.events():
            who = names.get(e["seat"])
            if who in out and e["kind"] in ("move", "undo"):
                out[who] += 1
        return out
    finally:
        rec.close()
