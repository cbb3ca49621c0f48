"""Writes to a class's record that survive a full disk.

`Writer` passes each write to the `Record` at once (committed before the event is acknowledged,
as before).  A write that finds no room (`RecordFull`: the disk or the file's size limit) is kept
in memory, in order, and the event is answered «sin guardar» (``registrado`` false); every later
write goes behind it, and the queue is written again on the next write and on `retry` (the
launcher calls it as pages poll), so recording resumes by itself once space is freed.  The
teacher's terminal is told once when recording stops and once when it is back.  Any other
failure (a damaged or locked file) is the caller's (`RecordError`).  No web library here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..core.numbers_es import thousands
from .record import Record, RecordError, RecordFull
from .record_file import name

RETRY_SECONDS = 2.0  # how often page polls retry a waiting queue (each retry is one failed write)
QUEUE_MAX = 200_000  # writes kept in memory while the disk is full (a class makes a few thousand)


def events_es(n: int) -> str:
    """«1 suceso», «1.234 sucesos»."""
    return "1 suceso" if n == 1 else f"{thousands(n)} sucesos"


class Writer:
    """The queue in front of one `Record`."""

    def __init__(self, record: Record, say: Callable[[str], None]) -> None:
        self.record = record
        self.say = say
        self.waiting: list[tuple[str, tuple[Any, ...]]] = []  # (Record method, its arguments), in order
        self._tried = 0.0  # monotonic time of the last retry

    def write(self, method: str, *args: Any) -> Any:
        """Write now, or keep the write behind the queue: its result, or None when it waits."""
        if method == "add" and len(args) < 6:
            args = (*args, *[""] * (5 - len(args)), time.time())  # the event's time, not the retry's
        elif method == "new_seat":
            args = (*args, time.time())
        if self.waiting and not self._flush():
            self._keep(method, args)
            return None
        try:
            return getattr(self.record, method)(*args)
        except RecordFull as exc:
            self._keep(method, args, exc)
            return None

    def retry(self, now: float | None = None, every: float | None = None) -> bool:
        """Write the waiting queue if `every` seconds (default `RETRY_SECONDS`) have passed since
        the last try; True when nothing waits."""
        now = time.monotonic() if now is None else now
        if self.waiting and now - self._tried >= (RETRY_SECONDS if every is None else every):
            self._tried = now
            self._flush()
        return not self.waiting

    def text(self) -> str:
        """The teacher's page's words for the record."""
        if not self.waiting:
            return "se está registrando"
        n = len(self.waiting)
        wait = "espera y se guardará solo" if n == 1 else "esperan y se guardarán solos"
        return f"sin guardar: no queda espacio en el disco; {events_es(n)} {wait} cuando haya sitio"

    # ------------------------------------------------------------------ the queue
    def _keep(self, method: str, args: tuple[Any, ...], exc: RecordFull | None = None) -> None:
        if not self.waiting:
            self.say(f"Aviso: no queda espacio en el disco para el registro {name(self.record.path)}. La clase "
                     "sigue y lo que pasa se guarda en cuanto haya sitio: libera espacio en el disco (se vuelve a "
                     "intentar solo).")  # fmt: skip
            self._tried = time.monotonic()
        if len(self.waiting) >= QUEUE_MAX:  # a class this long with the disk full: stop keeping
            raise RecordError(f"No queda espacio en el disco para el registro {name(self.record.path)} y ya esperan "
                              f"{events_es(len(self.waiting))}.")  # fmt: skip
        self.waiting.append((method, args))

    def _flush(self) -> bool:
        """Write the queue in order, each write committed before the next; True when it is empty."""
        done = 0
        try:
            for method, args in self.waiting:
                getattr(self.record, method)(*args)
                done += 1
        except RecordFull:
            pass
        finally:
            del self.waiting[:done]
        if not self.waiting and done:
            self.say(f"El registro {name(self.record.path)} vuelve a guardarse: se han guardado {events_es(done)} "
                     "que esperaban.")  # fmt: skip
        return not self.waiting
