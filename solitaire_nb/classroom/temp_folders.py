"""The class launcher's temporary folders (``snb-clase-*``, its own, and ``voila_*``, Voila's
kernel connection files), each holding a note of the process that made it.

A class ended by Ctrl+C, SIGTERM or SIGHUP removes its folders itself (`server`); one ended by
kill -9 or a crash cannot, so the next launcher removes every such folder whose owner is gone:
its process does not exist, or the process with that number started at another time (the number
was reused).  A folder without a readable note (another program's ``voila_*``, an older
version's, or one being made this very moment), one written on another host (a container sharing
the folder: its numbers are not ours) and one of a class still running are never touched.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
from pathlib import Path

PREFIXES = ("snb-clase-", "voila_")
OWNER_NOTE = "snb-owner.json"


def process_start(pid: int) -> float | None:
    """When process `pid` started (seconds since the epoch); None if it does not exist or is a
    zombie (it runs nothing), or the time cannot be read (no psutil)."""
    try:
        import psutil
    except ImportError:
        return None
    try:
        p = psutil.Process(pid)
        return None if p.status() == psutil.STATUS_ZOMBIE else p.create_time()
    except psutil.Error:
        return None


def alive(pid: int, started: float | None) -> bool:
    """Whether the process that wrote a note (its `pid` and start time) still runs."""
    try:
        import psutil  # noqa: F401  (psutil comes with ipykernel; without it, only the number is checked)
    except ImportError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except OSError:  # another user's process: it exists
            return True
        return True
    now = process_start(pid)
    if now is None:
        return False
    return started is None or abs(now - started) < 1.0  # same number, other start: reused


def claim(folder: Path | str) -> None:
    """Write this process's note in `folder` (atomically: a reader never sees half a note)."""
    folder = Path(folder)
    note = {"pid": os.getpid(), "started": process_start(os.getpid()), "host": socket.gethostname()}
    part = folder / (OWNER_NOTE + ".part")
    part.write_text(json.dumps(note), encoding="utf-8")
    os.replace(part, folder / OWNER_NOTE)


def owner(folder: Path) -> tuple[int, float | None] | None:
    """(pid, start time) of the note in `folder`; None when it has no readable note, or one
    written on another host."""
    try:
        note = json.loads((folder / OWNER_NOTE).read_text(encoding="utf-8"))
        pid, started = note["pid"], note.get("started")
        here = note.get("host", socket.gethostname()) == socket.gethostname()
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    if not here or not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return None
    return pid, float(started) if isinstance(started, (int, float)) and not isinstance(started, bool) else None


def remove_stale(root: Path | str | None = None) -> int:
    """Remove the launcher's folders in `root` (by default the system's temporary folder) whose
    owner has ended; the number removed.  Only this user's folders, never one without a note."""
    root = Path(tempfile.gettempdir() if root is None else root)
    removed = 0
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0
    for entry in entries:
        try:
            if not entry.name.startswith(PREFIXES) or not entry.is_dir(follow_symlinks=False):
                continue
            if hasattr(os, "getuid") and entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
        except OSError:
            continue
        note = owner(Path(entry.path))
        if note is None or alive(*note):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += not os.path.lexists(entry.path)
    return removed


def make_class_folder() -> Path:
    """A new ``snb-clase-*`` folder with this process's note."""
    folder = Path(tempfile.mkdtemp(prefix=PREFIXES[0]))
    claim(folder)
    return folder
