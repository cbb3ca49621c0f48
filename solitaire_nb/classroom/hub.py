"""The class server as a JupyterHub service: ``python -m solitaire_nb.classroom --hub --reto CÓDIGO``.

A second host for the launcher's class core, not a copy of it: the same `challenge_state.Challenge`
(or a lesson's `pool_state.Pool`), the same routes (`challenge_server`, `pool_server`) under the
service's prefix (``/services/<name>/``), the single writer of the record; only who is asking
comes from the hub (`hub_auth`).  Students' pages and kernels run in their own single-user servers;
a board there reaches this service at ``SNB_HUB_RETO_URL`` (``SNB_HUB_CLASE06_URL``… for a
lesson's pool) with its server's token.  The hub starts it (a managed service, ``JUPYTERHUB_SERVICE_URL``
gives its address) and starts it again if it stops: the record, which ``--registro`` must name
(a file on the hub's disk), brings every acknowledged event back.  docs/hub.md: how to set it up.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import signal
import urllib.parse
from pathlib import Path

from ..core.checks import shown
from . import console

#: the environment a hub gives a managed service (jupyterhub.services.service).
SERVICE_ENV = ("JUPYTERHUB_SERVICE_URL", "JUPYTERHUB_SERVICE_PREFIX", "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_API_URL")
NOT_A_SERVICE = ("--hub solo funciona como servicio de JupyterHub (el hub lo arranca y le da su dirección); "
                 "mira docs/hub.md para añadirlo a jupyterhub_config.py.")  # fmt: skip


def check_hub_args(args: argparse.Namespace) -> str | None:
    """The lesson whose pool this service serves (None: a class challenge), once the command
    line makes sense for a hub (Spanish ValueError otherwise): a record named, of this class."""
    from .pages import find_notebook
    from .pool import lesson_of
    from .pool_state import POOLED, pool_id
    from .record import record_deal

    missing = [name for name in SERVICE_ENV if not os.environ.get(name)]
    if missing:
        raise ValueError(NOT_A_SERVICE)
    if args.registro is None:
        raise ValueError("con --hub hace falta --registro ARCHIVO: el hub vuelve a arrancar el servicio si se para, "
                         "y el registro es lo que lo devuelve todo.")  # fmt: skip
    recorded = record_deal(args.registro)
    if args.reto is not None:
        if args.cuaderno is not None:
            raise ValueError("con --reto no se indica cuaderno: el reto tiene su propia página.")
        if recorded is not None and recorded != args.reto:
            raise ValueError(f"el registro «{shown(args.registro, path=True)}» es de otra clase ({shown(recorded, raw=True)}): "
                             "para esta, otro archivo.")  # fmt: skip
        if recorded is None:
            from .challenge import check_deal

            check_deal(args.reto)
        return None
    if args.cuaderno is None:
        raise ValueError("falta --reto CÓDIGO o el cuaderno cuya clase en común se sirve (por ejemplo 06).")
    lesson = lesson_of(find_notebook(args.cuaderno, args.carpeta))
    if lesson is None:
        raise ValueError(f"con --hub se sirve un reto o la clase en común de una lección ({', '.join(POOLED)}); "
                         "las páginas de las lecciones las abre cada alumno en su propio servidor.")  # fmt: skip
    if recorded is not None and recorded != pool_id(lesson):
        raise ValueError(f"el registro «{shown(args.registro, path=True)}» es de otra clase ({shown(recorded, raw=True)}), "
                         f"no de la lección {lesson}: para esta clase usa otro archivo.")  # fmt: skip
    return lesson


def bind_address(host: str | None) -> str:
    """Where the service listens: the host of its URL when it is this machine's (an IP address
    or localhost, as on one server); every interface when it is a name other machines resolve
    (``http://hub:10101`` on Kubernetes: the proxy and the students' pods reach it there)."""
    import ipaddress

    if not host or host == "localhost":
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return ""  # tornado: every interface


def cookie_secret() -> bytes:
    """The service's cookie key, the same after a restart (the teacher stays logged in): made
    from its hub token, which only the hub and this service know."""
    return hashlib.sha256(b"solitaire_nb-hub:" + os.environ["JUPYTERHUB_API_TOKEN"].encode()).digest()


def make_app(core, routes_of, prefix: str):
    """The service's tornado application: the launcher's routes for `core` (`routes_of`:
    `challenge_server.handlers` or `pool_server.handlers`) behind the hub's identity, the OAuth
    callback, and the bare prefix sent to the teacher's page."""
    import tornado.web
    from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler

    from .hub_auth import HubSeats, hub_routes

    auth = HubOAuth.instance()
    routes = hub_routes(routes_of(core, secrets.token_urlsafe(18), prefix), HubSeats(core))
    callback = urllib.parse.urlparse(auth.oauth_redirect_uri).path or f"{prefix.rstrip('/')}/oauth_callback"
    routes += [
        (callback, HubOAuthCallbackHandler),
        (prefix.rstrip("/") + "/?", tornado.web.RedirectHandler, {"url": prefix.rstrip("/") + "/docente"}),
    ]
    return tornado.web.Application(routes, cookie_secret=cookie_secret(), xsrf_cookies=False)


def serve_hub(args: argparse.Namespace, lesson: str | None) -> None:
    """Serve the class until the hub stops the service (SIGTERM) or Ctrl+C."""
    from tornado.ioloop import IOLoop

    address = urllib.parse.urlparse(os.environ["JUPYTERHUB_SERVICE_URL"])
    prefix = os.environ["JUPYTERHUB_SERVICE_PREFIX"]
    path = Path(args.registro)
    if lesson is None:
        from .challenge_server import handlers
        from .challenge_state import Challenge

        core = Challenge(args.reto, path, say=console.say)
        what = f"el reto {core.deal}"
    else:
        from .pool_server import handlers  # type: ignore[assignment]
        from .pool_state import Pool

        core = Pool(lesson, path, say=console.say)  # type: ignore[assignment]
        what = f"la clase en común de la lección {lesson}"
    app = make_app(core, handlers, prefix)
    server = app.listen(address.port or 80, address=bind_address(address.hostname), xheaders=True)
    loop = IOLoop.current()
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda *_: loop.add_callback_from_signal(loop.stop))
    console.say(f"Servicio de la clase en el hub: {what}, en {prefix} (registro: {shown(path, path=True)}).")
    try:
        loop.start()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        core.retry_writes(every=0)
        if core.record is not None:  # its lock goes with it
            core.record.close()


def student_server(templates: Path | None = None) -> tuple[list[str], dict[str, str]]:
    """The command-line options and environment of a student's own server under the hub (the
    shipped jupyterhub_config.py gives them to the spawner): Voila with the launcher's own
    student settings (`server.voila_config`: the «alumno» template, no code, no tracebacks, no
    ``docente`` cells, no template from the address, outputs waited for on a busy machine), the
    template found in `templates` (by default this package's, as the hub sees it)."""
    from .pages import TEMPLATES
    from .server import voila_config

    config = voila_config(1, 10, preheat=False)
    options = []
    for section in ("VoilaConfiguration", "TagRemovePreprocessor", "VoilaExecutor"):
        for key, value in config[section].items():
            if key in ("progressive_rendering",) or value is None:  # the launcher's way of opening pages; a default
                continue
            for one in sorted(value) if isinstance(value, (list, set, tuple)) else [value]:
                options.append(f"--{section}.{key}={one}")
    return options, {"JUPYTER_PATH": str(templates or TEMPLATES)}


def write_pages(folder: Path, deal: str | None, notebooks: Path) -> list[Path]:
    """The students' pages for their own servers, written into `folder` (a hub's template of the
    users' folders): every lesson without its ``docente`` cells, and the challenge's page when
    `deal` is given (what its service serves)."""
    import json

    from .challenge import PAGE_NAME, challenge_notebook
    from .pages import student_copy

    folder.mkdir(parents=True, exist_ok=True)
    written = [student_copy(nb, folder) for nb in sorted(notebooks.glob("[0-9]*.ipynb"))]
    if deal is not None:
        page = folder / PAGE_NAME
        page.write_text(json.dumps(challenge_notebook(deal), ensure_ascii=False), encoding="utf-8")
        written.append(page)
    return written


def main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--hub``: check the command line (exit status 2, Spanish), then serve; with
    ``--paginas``, write the students' pages and end."""
    if args.paginas is not None:
        if not args.carpeta.is_dir():
            parser.error(f"La carpeta «{shown(args.carpeta, path=True)}» no existe.")
        try:
            written = write_pages(args.paginas, args.reto, args.carpeta)
        except OSError as exc:
            parser.error(f"no se pueden escribir las páginas en «{shown(args.paginas, path=True)}» ({exc.strerror or exc}).")
        console.say(f"{len(written)} páginas de alumno escritas en {shown(args.paginas, path=True)}.")
        return 0
    try:
        lesson = check_hub_args(args)
    except ValueError as exc:
        parser.error(str(exc))
    serve_hub(args, lesson)
    return 0
