"""A small on-disk cache of the solver's verdicts, shared by every kernel of a class.

The board's solver buttons ask `cached_solve` instead of `solve`.  One SQLite file in WAL mode
holds two tables: ``verdicts`` (a position's verdict keyed by the rules and its canonical text,
`position_key`, with its winning line and time budget) and ``claims`` (who is computing a
position now, and until when).  The first kernel to ask about a position claims it and solves;
the others wait, sleeping, for its answer within their own budget.  A claim is a lease ending at
its budget plus `LEASE_GRACE`, so a kernel that dies while solving blocks nobody for longer.

Nothing returned is trusted blindly: a ``won`` line is replayed through `Game.move`, and an
``unknown`` answers only requests with the same budget or less.  Any failure of the cache itself
falls back to solving without it: the cache can only save time, never show an error.

Where the file lives: ``SNB_VERDICT_CACHE`` (a path; ``off`` for no cache), else the user's data
folder (``platformdirs``; ``~/.local/share/solitaire_nb`` without it); the class launcher sets it.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

from ..core.moves import Move
from ..engine import Game

CACHE_ENV = "SNB_VERDICT_CACHE"
"""Environment variable with the cache file's path (``off``: no cache)."""
FILE_NAME = "veredictos.sqlite"
SCHEMA = 1
"""Bumped when the tables or the key change: an older file's rows are then never read."""
LEASE_GRACE = 2.0
"""Seconds a claim outlives its budget (replaying and storing the line, a slow start)."""
WAIT_GRACE = 1.0
"""Seconds a waiting request waits past its own budget for an answer already being computed."""
POLL = 0.05
"""Seconds between two looks at the cache while waiting."""
UNKNOWN_SHARE = 0.9
"""A stored undecided verdict answers a request whose budget is at most its own over this share
(a search started a moment later than the one it waited for has a little more time left)."""
LOCK_TIMEOUT = 2.0
"""Seconds SQLite waits for another writer before the cache gives up (and solves without it)."""

_OWNER = uuid.uuid4().hex  # this process, in the claims table


def default_path() -> Path | None:
    """The cache file: ``SNB_VERDICT_CACHE`` if set (None for ``off`` or empty), else
    ``veredictos.sqlite`` in the user's data folder."""
    raw = os.environ.get(CACHE_ENV)
    if raw is not None:
        raw = raw.strip()
        return None if raw.lower() in ("", "off", "0", "no") else Path(raw).expanduser()
    try:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("solitaire_nb", appauthor=False))
    except ImportError:
        folder = Path.home() / ".local" / "share" / "solitaire_nb"
    return folder / FILE_NAME


def rules_text(game: Game) -> str:
    """The rules the position is played by, as text: the game's name, variant and composition
    and its `Rules` value (every rule the engine and the solver read)."""
    spec = game.definition.spec
    return json.dumps(
        {"game": game.name, "variant": dict(sorted(game.variant.items())), "spec": spec, "rules": repr(game.rules)},
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )


def position_text(game: Game) -> str:
    """The position's canonical text: each pile's id, face-down count and card codes (bottom
    to top).  Two games with the same text are the same position (the history plays no part
    in a verdict)."""
    pos = game.position()
    down = pos["face_down"]
    return "\n".join(f"{p}/{down.get(p, 0)}: {' '.join(cards)}" for p, cards in pos["piles"].items())


def position_key(game: Game) -> str:
    """The cache key of `game`'s position under its rules (a SHA-256 in hex)."""
    text = f"{SCHEMA}\n{rules_text(game)}\n{position_text(game)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class VerdictCache:
    """One cache file.  Every method may raise `sqlite3.Error` or `OSError`, and opening a file
    that is not new, empty or a cache raises `cache_file.NotACache`; `cached_solve` turns those
    into solving without the cache."""

    def __init__(self, path: str | os.PathLike, lock_timeout: float = LOCK_TIMEOUT):
        import sqlite3

        from .cache_file import check_cache_file, quoted_uri

        self.path = Path(path).absolute()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        check_cache_file(self.path, lock_timeout)  # only a new, empty or cache file is touched
        self._db = sqlite3.connect(quoted_uri(self.path, "rwc"), uri=True, timeout=lock_timeout,
                                   isolation_level=None, check_same_thread=False)  # fmt: skip
        try:
            self._setup(sqlite3, lock_timeout)
        except Exception:
            self._db.close()
            raise

    def _setup(self, sqlite3: Any, lock_timeout: float) -> None:
        """WAL mode and both tables, in one transaction.  Switching a new file to WAL can answer
        "database is locked" at once, without SQLite's busy wait, while another process makes
        the same file: that is retried until `lock_timeout`."""
        deadline = time.monotonic() + lock_timeout
        while True:
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("BEGIN IMMEDIATE")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, status TEXT NOT NULL, "
            "line TEXT NOT NULL, budget REAL NOT NULL, states INTEGER NOT NULL, stored REAL NOT NULL)"
        )
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, "
            "budget REAL NOT NULL, expires REAL NOT NULL)"
        )
        self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------------ verdicts
    def get(self, key: str) -> tuple[str, list[str], float, int] | None:
        """(status, line as move texts, budget, states) stored for `key`, or None."""
        row = self._db.execute("SELECT status, line, budget, states FROM verdicts WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        line = json.loads(row[1])
        if row[0] not in ("won", "lost", "unknown") or not isinstance(line, list):
            return None
        return row[0], [str(m) for m in line], float(row[2]), int(row[3])

    def put(self, key: str, status: str, line: list[str], budget: float, states: int) -> None:
        """Store a verdict: a decided one replaces an undecided one (and a won line a longer
        won line); an undecided one replaces only an undecided one with a smaller budget."""
        with_line = json.dumps(list(line))
        self._db.execute("BEGIN IMMEDIATE")
        try:
            old = self._db.execute("SELECT status, line, budget FROM verdicts WHERE key = ?", (key,)).fetchone()
            if old is None or _better(status, len(line), budget, old[0], len(json.loads(old[1])), old[2]):
                self._db.execute(
                    "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?, ?)",
                    (key, status, with_line, budget, states, time.time()),
                )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def forget(self, key: str) -> None:
        """Drop the verdict stored for `key` (one that failed its check)."""
        self._db.execute("DELETE FROM verdicts WHERE key = ?", (key,))

    # ------------------------------------------------------------------ claims (leases)
    def claim(self, key: str, budget: float, now: float | None = None) -> tuple[bool, float, float]:
        """Try to claim `key` for a search of `budget` seconds: (True, budget, expiry) when this
        process holds it now, else (False, the holder's budget, its expiry).  An expired claim is
        taken over."""
        now = time.time() if now is None else now
        expires = now + budget + LEASE_GRACE
        self._db.execute("BEGIN IMMEDIATE")
        try:
            row = self._db.execute("SELECT owner, budget, expires FROM claims WHERE key = ?", (key,)).fetchone()
            if row is not None and row[0] != _OWNER and row[2] > now:
                self._db.execute("COMMIT")
                return False, float(row[1]), float(row[2])
            self._db.execute("INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?)", (key, _OWNER, budget, expires))
            self._db.execute("COMMIT")
            return True, budget, expires
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def holder(self, key: str, now: float | None = None) -> tuple[float, float] | None:
        """(budget, expiry) of a live claim on `key` by another process, or None."""
        now = time.time() if now is None else now
        row = self._db.execute("SELECT owner, budget, expires FROM claims WHERE key = ?", (key,)).fetchone()
        if row is None or row[0] == _OWNER or row[2] <= now:
            return None
        return float(row[1]), float(row[2])

    def release(self, key: str) -> None:
        """Give up this process's claim on `key`."""
        self._db.execute("DELETE FROM claims WHERE key = ? AND owner = ?", (key, _OWNER))


_RANK = {"unknown": 0, "lost": 1, "won": 1}


def _better(status: str, length: int, budget: float, old_status: str, old_length: int, old_budget: float) -> bool:
    if _RANK.get(status, -1) != _RANK.get(old_status, -1):
        return _RANK.get(status, -1) > _RANK.get(old_status, -1)
    if status == "unknown":
        return budget > old_budget
    if status == "won" and old_status == "won":
        return length < old_length
    return False  # a decided verdict stays as it was first stored


# ---------------------------------------------------------------------- the solver through the cache
_OPEN: dict[str, VerdictCache] = {}


def open_cache(path: Path | None = None) -> VerdictCache | None:
    """The cache at `path` (default: `default_path`), opened once per process; None when there is
    no cache or it cannot be opened (then the buttons solve without it; a file that is no cache
    is said once, in Spanish, on stderr)."""
    path = default_path() if path is None else path
    if path is None:
        return None
    name = str(path)
    if name not in _OPEN:
        from .cache_file import NotACache, say_once

        try:
            _OPEN[name] = VerdictCache(path)  # ImportError where there is no sqlite3 (the browser)
        except NotACache as exc:
            say_once(str(exc))
            return None
        except Exception:
            return None
    return _OPEN[name]


def _replayed(game: Game, line: list[str]) -> list[Move] | None:
    """`line` as engine moves when it wins `game` played through the engine, else None."""
    try:
        moves = [Move.parse(m) for m in line]
        g = game.copy()
        for m in moves:
            g.move(m)
        return moves if g.is_won() else None
    except Exception:
        return None


def _answer(
    game: Game,
    got: tuple[str, list[str], float, int] | None,
    budget: float | None,
    cache: VerdictCache,
    key: str,
    t0: float,
) -> Any:
    """A `SolveResult` from a stored verdict that answers a request of `budget` seconds, or None."""
    from . import SolveResult

    if got is None:
        return None
    status, line, stored_budget, states = got
    if status == "unknown" and (budget is None or stored_budget < UNKNOWN_SHARE * budget):
        return None
    moves: list[Move] = []
    if status == "won":
        replayed = _replayed(game, line)
        if replayed is None:  # a line that does not win here is never shown
            cache.forget(key)
            return None
        moves = replayed
    wall = time.perf_counter() - t0
    # an undecided answer read from the cache is not "busy": it had its whole budget
    return SolveResult(status, moves, states, wall, cpu_seconds=wall if status != "unknown" else stored_budget)


def cached_solve(game: Game, time_limit: float | None, cache: VerdictCache | None | bool = True) -> Any:
    """`solve(game, time_limit)` through the shared cache: the stored verdict when there is one
    for this position (a won line replayed through the engine first), the answer of another
    kernel solving it right now (waited for within `time_limit` plus `WAIT_GRACE`), else solved
    here and stored.  ``cache=True`` opens the default cache; None or False solves without one.
    The request is checked as `solve` checks it (Spanish `ValueError`)."""
    from . import solve

    if cache is True:
        cache = open_cache()
    if not cache or time_limit is None:
        return solve(game, time_limit=time_limit)
    from . import SolveResult
    from .api import _check_request, _class_budget

    _check_request(game)  # a position no play could reach is refused before it is looked up
    budget = _class_budget(time_limit)
    t0 = time.perf_counter()
    try:
        key = position_key(game)
        deadline = t0 + budget
        while True:
            found = _answer(game, cache.get(key), budget, cache, key, t0)
            if found is not None:
                return found
            now = time.perf_counter()
            left = deadline - now
            held = cache.holder(key)  # a read: waiting kernels take no write lock
            if held is None:
                claimed, their_budget, expires = cache.claim(key, max(left, 0.0))
                if claimed:
                    break
            else:
                their_budget, expires = held
            if their_budget < 0.5 * left:
                break  # a much shorter search is running (a hint's): do not wait for it
            wait_until = min(deadline + WAIT_GRACE, now + (expires - time.time()))
            if now >= wait_until:  # waited its whole budget and got no processor time: "busy"
                return SolveResult("unknown", [], 0, now - t0, cpu_seconds=0.0)
            time.sleep(min(POLL, wait_until - now))
    except Exception:  # the cache failed: solve without it
        return solve(game, time_limit=time_limit)
    remaining = max(deadline - time.perf_counter(), 0.0)
    try:
        result = solve(game, time_limit=remaining)
        try:  # stored before the claim is released: a waiter must find the verdict, not a free key
            stored_budget = (result.cpu_seconds or 0.0) if result.busy else remaining
            cache.put(key, result.status, [str(m) for m in result.moves], stored_budget, result.states)
        except Exception:
            pass
    finally:
        try:
            cache.release(key)
        except Exception:
            pass
    return result._replace(seconds=time.perf_counter() - t0)


def cached_hint(game: Game, time_limit: float, cache: VerdictCache | None | bool = True) -> Any:
    """`hint(game, time_limit)` through the shared cache: the first move of a cached or found
    winning line (proven), else the solver's heuristic move with the verdict found."""
    from . import hint

    if cache is True:
        cache = open_cache()
    if not cache:
        return hint(game, time_limit=time_limit)
    from . import Hint

    result = cached_solve(game, time_limit, cache)
    if result.status == "won" and result.moves:
        return Hint(result.moves[0], True, "won")
    plain = hint(game, time_limit=0, max_states=0)  # the heuristic move, no search
    return Hint(plain.move, False, result.status, result.busy)


def class_cache_path(folder: Path) -> Path | None:
    """The cache file a class's kernels share: the default one (`default_path`) when it opens,
    else a fresh one in `folder` (the class's own temporary folder); None when the teacher
    switched the cache off (``SNB_VERDICT_CACHE=off``)."""
    path = default_path()
    if path is None:
        return None
    if open_cache(path) is not None:
        return path
    return folder / FILE_NAME
