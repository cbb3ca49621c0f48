"""The shared verdict cache of the board's solver buttons (solitaire_nb/solver/verdict_cache.py): keys,
stored lines replayed through the engine, budgets, claims that expire, several processes at once,
and a broken cache that falls back to solving without it."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time

import pytest

import solitaire_nb as sn
from solitaire_nb.solver import solve
from solitaire_nb.solver import verdict_cache as vc

QUICK = ("citadel", 3)  # won in a few hundred states


@pytest.fixture
def cache(tmp_path):
    c = vc.VerdictCache(tmp_path / "v.sqlite")
    yield c
    c.close()


def quick_game():
    return sn.new_game(QUICK[0], seed=QUICK[1])


def test_the_key_is_the_position_under_its_rules():
    a = sn.new_game("citadel", seed=5)
    b = sn.new_game("citadel", seed=5)
    assert vc.position_key(a) == vc.position_key(b)
    m = a.legal_moves()[0]
    a.move(m)
    assert vc.position_key(a) != vc.position_key(b)
    a.undo()  # the same position by another history
    assert vc.position_key(a) == vc.position_key(b)
    other = sn.new_game("citadel", seed=5, takeback=False)
    assert [c.code for c in other.deal] == [c.code for c in b.deal]
    assert vc.position_key(other) != vc.position_key(b)
    composed = sn.new_game("citadel+columns=10", seed=5)
    assert vc.position_key(composed) != vc.position_key(b)


def test_a_cached_won_line_replays_through_the_engine(cache):
    g = quick_game()
    first = vc.cached_solve(g, 5.0, cache)
    assert first.status == "won"
    stored = cache.get(vc.position_key(g))
    assert stored is not None and stored[0] == "won" and stored[1] == [str(m) for m in first.moves]
    again = vc.cached_solve(g, 5.0, cache)
    assert again.status == "won" and again.moves == first.moves and g.moves_played == 0
    replay = g.copy()
    for m in again.moves:
        replay.move(m)
    assert replay.is_won()


def test_a_stored_line_that_does_not_win_is_never_shown(cache):
    g = quick_game()
    key = vc.position_key(g)
    cache.put(key, "won", [str(g.legal_moves()[0])], 5.0, 1)
    result = vc.cached_solve(g, 5.0, cache)
    assert result.status == "won" and len(result.moves) > 1
    replay = g.copy()
    for m in result.moves:
        replay.move(m)
    assert replay.is_won()
    assert cache.get(key)[1] == [str(m) for m in result.moves]  # the bad line was replaced


def test_an_unknown_answers_only_budgets_it_covers(cache):
    g = quick_game()
    key = vc.position_key(g)
    cache.put(key, "unknown", [], 10.0, 1234)
    covered = vc.cached_solve(g, 5.0, cache)
    assert covered.status == "unknown" and covered.states == 1234 and not covered.busy
    cache.forget(key)
    cache.put(key, "unknown", [], 0.2, 99)  # a hint's short search
    larger = vc.cached_solve(g, 5.0, cache)
    assert larger.status == "won"  # solved again with the larger budget
    assert cache.get(key)[0] == "won"


def test_a_decided_verdict_is_never_replaced_by_an_unknown(cache):
    cache.put("k", "lost", [], 1.0, 5)
    cache.put("k", "unknown", [], 100.0, 5)
    assert cache.get("k")[0] == "lost"
    cache.put("u", "unknown", [], 1.0, 5)
    cache.put("u", "unknown", [], 0.5, 5)
    assert cache.get("u")[2] == 1.0
    cache.put("u", "unknown", [], 3.0, 5)
    assert cache.get("u")[2] == 3.0


def _foreign_claim(path, key, seconds):
    """A claim held by another process (another owner) for `seconds` from now."""
    db = sqlite3.connect(str(path))
    db.execute("INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?)", (key, "another-kernel", 5.0, time.time() + seconds))
    db.commit()
    db.close()


def test_a_waiting_request_gets_the_holders_answer(cache, monkeypatch):
    g = quick_game()
    key = vc.position_key(g)
    answer = solve(g.copy(), time_limit=10)
    _foreign_claim(cache.path, key, 10.0)
    import solitaire_nb.solver as solver_module

    def no_search(*_a, **_k):
        raise AssertionError("it should have waited, not solved")

    monkeypatch.setattr(solver_module, "solve", no_search)

    def holder():
        time.sleep(0.4)
        other = vc.VerdictCache(cache.path)
        other.put(key, "won", [str(m) for m in answer.moves], 5.0, answer.states)
        other.close()

    t = threading.Thread(target=holder)
    t.start()
    t0 = time.perf_counter()
    result = vc.cached_solve(g, 5.0, cache)
    t.join()
    assert result.status == "won" and result.moves == answer.moves
    assert 0.3 < time.perf_counter() - t0 < 3.0


def test_a_dead_holders_claim_expires(cache):
    g = quick_game()
    key = vc.position_key(g)
    _foreign_claim(cache.path, key, 0.5)  # a kernel that died while solving
    t0 = time.perf_counter()
    result = vc.cached_solve(g, 5.0, cache)
    waited = time.perf_counter() - t0
    assert result.status == "won"
    assert waited >= 0.45  # it waited for the lease, then solved itself
    assert cache.holder(key) is None and cache.get(key)[0] == "won"


def test_waiting_past_the_budget_is_undecided_and_busy(cache):
    g = quick_game()
    _foreign_claim(cache.path, vc.position_key(g), 30.0)
    result = vc.cached_solve(g, 0.3, cache)
    assert result.status == "unknown" and result.busy
    assert result.seconds < 0.3 + vc.WAIT_GRACE + 1.0


def test_a_corrupted_cache_falls_back_to_solving(tmp_path, monkeypatch):
    path = tmp_path / "roto.sqlite"
    path.write_bytes(b"esto no es una base de datos " * 200)
    monkeypatch.setenv(vc.CACHE_ENV, str(path))
    assert vc.open_cache() is None
    assert vc.cached_solve(quick_game(), 5.0).status == "won"
    assert vc.cached_hint(quick_game(), 5.0).proven
    assert vc.class_cache_path(tmp_path / "clase") == tmp_path / "clase" / vc.FILE_NAME


def test_a_cache_corrupted_while_open_falls_back(tmp_path):
    path = tmp_path / "v.sqlite"
    c = vc.VerdictCache(path)
    c.close()
    path.write_bytes(b"\0garbage" * 1000)
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"v.sqlite{suffix}").unlink(missing_ok=True)
    broken = vc.VerdictCache.__new__(vc.VerdictCache)
    broken.path = path
    broken._db = sqlite3.connect(str(path), isolation_level=None)
    assert vc.cached_solve(quick_game(), 5.0, broken).status == "won"


def test_a_locked_cache_falls_back_to_solving(tmp_path):
    path = tmp_path / "v.sqlite"
    c = vc.VerdictCache(path, lock_timeout=0.1)
    locker = sqlite3.connect(str(path), isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        t0 = time.perf_counter()
        assert vc.cached_solve(quick_game(), 5.0, c).status == "won"
        assert time.perf_counter() - t0 < 3.0
    finally:
        locker.execute("ROLLBACK")
        locker.close()
        c.close()


def test_the_class_shares_the_users_cache_when_it_opens(tmp_path, monkeypatch):
    mine = tmp_path / "datos" / "v.sqlite"
    monkeypatch.setenv(vc.CACHE_ENV, str(mine))
    assert vc.class_cache_path(tmp_path / "clase") == mine and mine.exists()
    monkeypatch.setenv(vc.CACHE_ENV, "off")
    assert vc.class_cache_path(tmp_path / "clase") is None


def test_off_means_no_cache(monkeypatch):
    monkeypatch.setenv(vc.CACHE_ENV, "off")
    assert vc.default_path() is None and vc.open_cache() is None
    monkeypatch.delenv(vc.CACHE_ENV)
    assert vc.default_path().name == vc.FILE_NAME


def test_the_board_buttons_read_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(vc.CACHE_ENV, str(tmp_path / "clase.sqlite"))
    b = sn.play("citadel", seed=2026)
    cache = vc.open_cache()
    cache.put(vc.position_key(b.game), "lost", [], 5.0, 36934)  # what another kernel found
    b._handle_custom_msg({"event": "button", "name": "solvable"}, [])
    assert b.view["message"].startswith("No tiene solución")
    b._handle_custom_msg({"event": "button", "name": "hint"}, [])
    assert "Ojo: esta partida no tiene solución" in b.view["message"]


def _press(args):
    """One kernel's «¿Tiene solución?» through the cache; the solver is slowed so that every
    process asks while the first one is still solving.  Returns (status, line, solved here)."""
    path, start_at = args
    import os

    os.environ[vc.CACHE_ENV] = path
    import solitaire_nb.solver as solver_module

    real = solver_module.solve
    calls = []

    def slow(game, time_limit=None, max_states=None):
        calls.append(1)
        time.sleep(1.0)
        return real(game, time_limit=time_limit)

    solver_module.solve = slow
    while time.time() < start_at:
        time.sleep(0.005)
    g = sn.new_game(*QUICK[:1], seed=QUICK[1])
    r = vc.cached_solve(g, 8.0)
    return r.status, [str(m) for m in r.moves], bool(calls)


def test_several_processes_solve_once(tmp_path):
    # A process whose cache access fails solves without the cache, by design; on a starved machine
    # that happened once in a fresh-clone run (two solves of four).  So a round may solve twice, but
    # a claim that does not hold (every round solving more than once) fails: up to three rounds.
    solved = []
    for attempt in range(3):
        path = str(tmp_path / f"clase{attempt}.sqlite")
        vc.VerdictCache(path).close()  # as the launcher does before any kernel starts
        k = 4
        with multiprocessing.get_context("spawn").Pool(k) as pool:
            start_at = time.time() + 2.5
            rows = pool.map(_press, [(path, start_at)] * k)
        assert [r[0] for r in rows] == ["won"] * k
        assert len({tuple(r[1]) for r in rows}) == 1
        solved.append(sum(r[2] for r in rows))
        if solved[-1] == 1:  # one process solved, the others waited for it
            break
    assert solved[-1] == 1, solved



def test_a_new_file_locked_while_another_process_makes_it_is_opened(tmp_path, monkeypatch):
    # Switching a new file to WAL may answer "database is locked" at once (no busy wait) while
    # another process makes the same file: about one open in 700 with four processes at once.
    real_connect = sqlite3.connect
    refused = []

    class Busy:
        def __init__(self, db):
            self.db = db

        def execute(self, sql, *args):
            if sql.startswith("PRAGMA journal_mode") and len(refused) < 3:
                refused.append(sql)
                raise sqlite3.OperationalError("database is locked")
            return self.db.execute(sql, *args)

        def close(self):
            self.db.close()

    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: Busy(real_connect(*a, **k)))
    path = tmp_path / "nueva.sqlite"
    cache = vc.VerdictCache(path, lock_timeout=2.0)
    cache.put("k", "won", ["1-2"], 1.0, 10)
    assert len(refused) == 3 and cache.get("k") is not None and cache.get("k")[0] == "won"
    cache.close()
    monkeypatch.setattr(sqlite3, "connect", real_connect)
    db = sqlite3.connect(str(path))
    assert {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")} == {"verdicts", "claims"}
    db.close()


def test_a_lock_that_does_not_end_is_reported_not_waited_forever(tmp_path, monkeypatch):
    class Locked:
        def __init__(self, db):
            self.db = db

        def execute(self, sql, *args):
            if sql.startswith("PRAGMA journal_mode"):
                raise sqlite3.OperationalError("database is locked")
            return self.db.execute(sql, *args)

        def close(self):
            self.db.close()

    real_connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: Locked(real_connect(*a, **k)))
    with pytest.raises(sqlite3.OperationalError):
        vc.VerdictCache(tmp_path / "bloqueada.sqlite", lock_timeout=0.2)
