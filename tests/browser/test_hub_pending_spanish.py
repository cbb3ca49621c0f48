"""The page a student waits on while the hub starts their server (solitaire_nb/templates/hub/
spawn_pending.html): the hub's script writes its progress and a failed start's reason in English,
and the template's script puts each of them in Spanish as it appears.  The script runs here in
Chromium on a bare page, with the messages the installed JupyterHub sends."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright")  # the test extra: drives Chromium

pytestmark = [pytest.mark.browser]

TEMPLATE = Path(__file__).resolve().parents[2] / "solitaire_nb" / "templates" / "hub" / "spawn_pending.html"

# What JupyterHub writes (jupyterhub/spawner.py, apihandlers/users.py, utils.py, handlers/base.py).
ENGLISH = {
    "Server requested": "Has pedido tu servidor",
    "Spawning server...": "Arrancando el servidor…",
    "Server ready at /user/ana/": "Servidor listo en /user/ana/",
    "Spawn cancelled": "Arranque cancelado",
    "Spawn failed: Server at http://127.0.0.1:45123/user/ana/ didn't respond in 30 seconds":
        "No se ha podido arrancar el servidor: el servidor de http://127.0.0.1:45123/user/ana/ no ha "
        "respondido en 30 segundos",
    "Spawn failed: Timeout": "No se ha podido arrancar el servidor: se ha agotado el tiempo de espera",
}


def test_the_hubs_messages_appear_in_spanish(page):
    script = re.search(r"<script>(.*?)</script>", TEMPLATE.read_text(encoding="utf-8"), re.S).group(1)
    page.set_content('<main><details id="progress-details"><summary>Event log</summary>'
                     '<div id="progress-log"></div></details><p id="progress-message"></p>'
                     '<button id="stop-server-btn">Stop Server</button></main>')
    page.add_script_tag(content=script)
    assert page.inner_text("summary") == "Detalles" and page.inner_text("#stop-server-btn") == "Parar el servidor"
    for english, spanish in ENGLISH.items():
        page.evaluate("(t) => { document.querySelector('#progress-message').textContent = t; }", english)
        page.wait_for_function("(t) => document.querySelector('#progress-message').textContent === t", arg=spanish)
        page.evaluate("(t) => { const d = document.createElement('div'); d.textContent = t;"
                      " document.querySelector('#progress-log').append(d); }", english)
        page.wait_for_function("(t) => document.querySelector('#progress-log').lastChild.textContent === t",
                               arg=spanish)
