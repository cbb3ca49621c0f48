"""The class core: what every class the launcher serves with seats has in common, the class
challenge (`challenge_state.Challenge`) and a lesson's class pool (`pool_state.Pool`).

Seats with a secret per page (an address holds few seats no page has joined), optional names
checked by `inbound.name_field`, the record (`record.Record`, one versioned format, the launcher
its only writer) behind the full-disk queue (`record_queue.Writer`), and a class that goes on
without the record when the database fails.  A subclass says what a seat holds (`_seat`) and
replays its own events (`_replay`).  `ClassHooks` is the launcher's side of the same core: the
teacher's token, the seat limit and the redirect that gives a page its seat.  No web library.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import console, inbound
from .record import Record, RecordError
from .record_queue import Writer

#: seats an address may hold that no page has joined yet (a plain ``GET /`` makes one): a loop of
#: requests does not fill the class; joined seats do not count (a class behind one address fits).
IDLE_SEATS_PER_ADDRESS = 3
#: seats a class may take, per student (a student who opens the bare address again gets a new
#: seat); a hard limit, so that nothing can fill the record with seats.
MAX_SEATS_PER_STUDENT = 3


class NotYourSeat(PermissionError):
    """The secret names no seat of this class."""


class Closed(RuntimeError):
    """The class takes nothing now (a challenge paused or ended)."""


class ClassCore:
    """Seats, names and the record of one class (`identity`: the challenge's deal or the
    lesson's pool, as its record says; `record_path` None: not recording)."""

    #: what a page without a seat is told (`seat_of`).
    no_seat = "Esta página no tiene asiento en la clase: recárgala desde la dirección de la clase."

    def __init__(self, identity: str, record_path: Path | None, say: Callable[[str], None] = print) -> None:
        self.identity = identity
        self.say = say
        self.seats: dict[int, Any] = {}
        self._secrets: dict[str, int] = {}
        self.record: Record | None = None
        self._writer: Writer | None = None
        self.version = 0  # grows with every change the teacher's page shows
        self._joined: set[int] = set()  # seats a page has joined (asked its state or sent an event)
        self._opened_by: dict[int, str] = {}  # seat -> the address that made it, until a page joins it
        if record_path is not None:
            try:
                self.record = Record(record_path, identity)
                self._writer = Writer(self.record, say)
                self._reload_seats()
                self._replay()
            except RecordError as exc:
                self._lose_record(exc)

    # ------------------------------------------------------------------ what a subclass says
    def _seat(self, seat: int, secret: str) -> Any:
        """A new seat object (with ``seat``, ``secret`` and ``name``)."""
        raise NotImplementedError

    def _replay(self) -> None:
        """Take back the events of a class that was already running (a restart)."""

    def _check_open(self) -> None:
        """Raise `Closed` when the class takes no change now."""

    # ------------------------------------------------------------------ record
    def _lose_record(self, exc: Exception) -> None:
        if self.record is not None:
            try:
                self.record.close()
            except Exception:
                pass
        self.record = self._writer = None
        self.say(f"Aviso: {exc} La clase sigue sin registro.")

    def _write(self, method: str, *args: Any) -> Any:
        """Write through the queue (`record_queue`): the result, or None when not written now."""
        if self._writer is None:
            return None
        try:
            return self._writer.write(method, *args)
        except RecordError as exc:
            self._lose_record(exc)
            return None

    def retry_writes(self, every: float | None = None) -> None:
        """Write what waits for room on the disk (at most every `every` seconds)."""
        if self._writer is not None and self._writer.waiting:
            try:
                self._writer.retry(every=every)
            except RecordError as exc:
                self._lose_record(exc)
            if self._writer is None or not self._writer.waiting:
                self.version += 1  # the teacher's page says recording is back

    @property
    def unsaved(self) -> int:
        """Writes waiting for room on the disk."""
        return len(self._writer.waiting) if self._writer is not None else 0

    @property
    def recording(self) -> bool:
        return self.record is not None

    def record_text(self) -> str:
        """The teacher's page's words for the record."""
        return self._writer.text() if self._writer is not None else "sin registro"

    def _reload_seats(self) -> None:
        assert self.record is not None
        for seat, secret, who in self.record.seats():
            if isinstance(seat, int) and isinstance(secret, str) and secret not in self._secrets:
                self._add_seat(seat, secret).name = " ".join(str(who or "").split())[: inbound.NAME_MAX]

    # ------------------------------------------------------------------ seats
    def _add_seat(self, seat: int, secret: str) -> Any:
        s = self._seat(seat, secret)
        self.seats[seat] = s
        self._secrets[secret] = seat
        return s

    def new_seat(self, address: str | None = None, secret: str | None = None) -> tuple[int, str]:
        """A new seat and its page's secret; `address` (who asked) is kept until a page joins
        the seat, for `idle_seats`; `secret` is given by a host that names seats itself (`hub`)."""
        made = (max(self.seats, default=0) + 1, secret or secrets.token_urlsafe(12))
        self._write("new_seat", *made)  # chosen here: a seat waiting for room on the disk is the same one
        self._add_seat(*made)
        if address is not None:
            self._opened_by[made[0]] = address
        self.version += 1
        return made

    def idle_seats(self, address: str) -> int:
        """Seats made for `address` that no page has joined yet."""
        return sum(1 for seat, who in self._opened_by.items() if who == address and seat not in self._joined)

    def joined(self, secret: Any) -> None:
        """The page holding `secret` is on its seat (its widget asked for it)."""
        if self.has_seat(secret):
            seat = self._secrets[secret]
            self._joined.add(seat)
            self._opened_by.pop(seat, None)

    def seat_of(self, secret: Any) -> Any:
        """The seat of the page holding `secret`; NotYourSeat otherwise."""
        if not isinstance(secret, str) or secret not in self._secrets:
            raise NotYourSeat(self.no_seat)
        return self.seats[self._secrets[secret]]

    def has_seat(self, secret: Any) -> bool:
        return isinstance(secret, str) and secret in self._secrets

    def set_name(self, secret: Any, name: Any) -> str:
        """Keep the name of the page holding `secret` (`inbound.name_field`: checked before
        anything changes); `Closed` when the class takes no change now."""
        s = self.seat_of(secret)
        clean = inbound.name_field(name)
        self._check_open()
        s.name = clean
        self._write("set_name", s.seat, clean)
        self.version += 1
        return clean


FULL = ("La clase ya tiene todos sus asientos ocupados. Si ya tenías uno, vuelve a la pestaña de la "
        "clase que ya tenías abierta; si no, avisa a tu profesor o profesora.")  # fmt: skip
IDLE = ("Desde este ordenador ya se han abierto varios asientos que ninguna página ha ocupado todavía. "
        "Vuelve a la pestaña de la clase que ya tenías abierta o espera a que cargue; si no, "
        "avisa a tu profesor o profesora.")  # fmt: skip


class ClassHooks:
    """What `server.serve` does differently for a class with seats: its routes, the redirect that
    gives each page a seat, and the teacher's lines.  A subclass sets `title`, `page`,
    `handlers`, `environ` and `announce_class`."""

    title = "Clase"
    full = FULL
    record_label = "Registro de la clase"

    def __init__(self, core: ClassCore, record_path: Path | None, students: int = 30) -> None:
        self.core = core
        self.max_seats = max(MAX_SEATS_PER_STUDENT * students, students + 10)
        self.record_path = record_path
        self.token = secrets.token_urlsafe(18)

    def redirect(self, handler) -> bool:
        """Send a page opened without a seat of this class to a new seat; True when it did."""
        if handler.request.method != "GET" or handler.request.path != "/":
            return False
        given = handler.request.query_arguments.get("asiento") or [b""]
        if self.core.has_seat(given[0].decode("latin-1")):  # secrets are ASCII
            return False
        address = handler.request.remote_ip or ""
        c = self.core
        refused = self.full if len(c.seats) >= self.max_seats else None
        if refused is None and c.idle_seats(address) >= IDLE_SEATS_PER_ADDRESS:
            refused = IDLE  # a loop of plain requests, not pages: they would fill the class
        if refused is not None:
            handler.set_status(403)
            handler.set_header("Content-Type", "text/html; charset=utf-8")
            handler.finish(f"<!doctype html><html lang='es'><meta charset='utf-8'><p>{refused}</p></html>")
            return True
        _, secret = c.new_seat(address)
        handler.redirect(f"/?asiento={secret}")
        return True

    def announce_class(self) -> None:
        """The class's own first lines on the teacher's terminal."""

    def announce(self, port: int) -> None:
        self.announce_class()
        c = self.core
        if c.recording:
            console.say(f"{self.record_label}: {c.record.path}  (para seguir esta clase tras un corte, vuelve a usar "  # type: ignore[union-attr]
                        "--registro con este archivo)")  # fmt: skip
        console.say("Página del docente (solo para ti, no la compartas):")
        console.say(f"    http://127.0.0.1:{port}/docente?token={self.token}")
