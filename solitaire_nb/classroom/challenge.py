"""The class launcher in challenge mode (``python -m solitaire_nb.classroom --reto citadel/2026``).

The launcher writes a page of its own (one board with the deal, `board.challenge.challenge_page`), which the
preheated pool runs before the students arrive; it gives each page a seat and a secret (a page
opened without one is sent to ``/?asiento=SECRET``, and a reload keeps it), serves the challenge's
routes (`challenge_server`) and prints, only in the teacher's terminal, the address of the teacher's
page with its token.  Kernels reach the launcher at ``SNB_RETO_URL``.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable
from pathlib import Path

from . import console
from .challenge_state import Challenge
from .class_core import ClassHooks
from .record import default_path
from .record_queue import events_es

URL_ENV = "SNB_RETO_URL"
PAGE_NAME = "reto.ipynb"
FULL = ("El reto ya tiene todos sus asientos ocupados. Si ya tenías uno, vuelve a la pestaña del reto "
        "que ya tenías abierta; si no, avisa a tu profesor o profesora.")  # fmt: skip


def challenge_notebook(deal: str) -> dict:
    """The challenge page: a title and one code cell that shows the board (Voila hides the code).
    Its cells carry ids, as nbformat 4.5 requires (else nbformat warns in English on the
    teacher's terminal when Voila reads the page)."""
    code = f"from solitaire_nb.board.challenge import challenge_page\nboard = challenge_page({deal!r})"
    return {
        "cells": [
            # ids: nbformat 4.5 wants them, and warns in English on the teacher's terminal without
            {"id": "reto-titulo", "cell_type": "markdown", "metadata": {}, "source": "# Reto de clase"},
            {"id": "reto-tablero", "cell_type": "code", "metadata": {}, "source": code, "outputs": [], "execution_count": None},
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


class LostDeal(ValueError):
    """The challenge's deal is proved lost (the message is one Spanish line with a won one)."""


def check_deal(code: str, say: Callable[[str], None] = console.say) -> None:
    """Before a class starts, the deal's verdict: the atlas records first, else a bounded solve
    (`atlas.won_deals.deal_verdict`).  A deal proved lost is refused (a Spanish ValueError of one
    line naming the nearest won deal, `LostDeal`); an undecided one is allowed with a warning."""
    from ..atlas.won_deals import CHECK_STATES, deal_verdict, nearest_won, stored_verdict
    from ..engine import new_game
    from ..engine.share import load_share, share_code

    game = load_share(code)
    seed = None if game.is_practice else game.seed  # None: a position given by hand
    if seed is None or stored_verdict(game.definition, seed, **game.variant) in (None, "unknown"):
        say(f"Comprobando con el resolvedor si el reparto {code} tiene solución…")
    if seed is not None:
        status = deal_verdict(game.definition, seed, **game.variant).status
    else:  # a position given by hand: nothing stored, the same bounded solve
        from ..solver import solve

        status = solve(game.copy(), max_states=CHECK_STATES).status
    states = f"{CHECK_STATES:,}".replace(",", ".")
    if status == "unknown":
        say(f"Aviso: el resolvedor no ha podido decidir en {states} estados si el reparto {code} tiene solución; "
            "el reto empieza igualmente, pero puede que nadie lo gane.")  # fmt: skip
    if status != "lost":
        return
    near = nearest_won(game.definition, seed, **game.variant) if seed is not None else None
    other = "elige otro reparto (uno que «¿Tiene solución?» dé como ganable)"
    if near is not None:
        won = share_code(new_game(game.definition, seed=near, deck=None, **game.variant)).rsplit("/", 1)[0]
        other = f"prueba con --reto {shlex.quote(won)}, que sí la tiene"
    raise LostDeal(f"el reparto {code} no tiene solución (el resolvedor lo ha demostrado): nadie podría ganar el reto; {other}.")


class ChallengeHooks(ClassHooks):
    """What clase_server.serve does differently for a challenge."""

    title = "Reto de clase"
    full = FULL
    record_label = "Registro del reto"

    def __init__(self, challenge: Challenge, record_path: Path | None, students: int = 30) -> None:
        super().__init__(challenge, record_path, students)
        self.challenge = challenge

    def environ(self, port: int) -> None:
        os.environ[URL_ENV] = f"http://127.0.0.1:{port}"

    def page(self, folder: Path) -> Path:
        target = folder / PAGE_NAME
        target.write_text(json.dumps(challenge_notebook(self.challenge.deal), ensure_ascii=False), encoding="utf-8")
        return target

    def handlers(self) -> list[tuple]:
        from .challenge_server import handlers

        return handlers(self.challenge, self.token)

    def announce_class(self) -> None:
        console.say(f"Reto: todos juegan el reparto {self.challenge.deal}.")


def serve_challenge(deal: str, record: str | None, students: int, port: int, ip: str, cull_minutes: float,
                    solver_seconds: float | None, preheat: bool, sockets: list | None = None) -> None:  # fmt: skip
    """Serve the class challenge on `deal` until Ctrl+C (or SIGTERM, SIGHUP), recording at
    `record` (None: a new dated file in the user's data folder); `sockets` as in `server.serve`."""
    from .server import serve

    path = Path(record) if record else default_path()
    challenge = Challenge(deal, path, say=console.say)
    hooks = ChallengeHooks(challenge, path, students)
    try:
        serve(Path(PAGE_NAME), students, port, ip, cull_minutes, solver_seconds, preheat, hooks=hooks, sockets=sockets)
    finally:
        challenge.retry_writes(every=0)
        if challenge.unsaved:
            fit = "no cabe en el disco y no se ha" if challenge.unsaved == 1 else "no caben en el disco y no se han"
            console.say(f"Aviso: {events_es(challenge.unsaved)} {fit} guardado en el registro; "
                        "al retomar la clase con este registro, cada página vuelve a mandar sus movimientos.")  # fmt: skip
        if challenge.record is not None:  # its lock goes with it: --borrar may delete it now
            challenge.record.close()
