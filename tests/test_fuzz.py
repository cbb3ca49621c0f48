"""Hostile and careless input against every public entry point (issue 23).

One rule (docs/entradas.md): bad input raises `ValueError` (or a subclass, such as
`IllegalMove`) with a Spanish message, before any work and without changing any state; limits
are hard limits; caches stay bounded; a study file has one writer and never loses a row a run
reported as done.  Hypothesis throws junk of every type at each entry point; the cases found
by hand (issue 23's list) are written out below.

Runtime: well under a minute on two shared cores (small ``max_examples``, tiny state caps);
the process-pool study is marked ``slow``.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")  # the notebook extra: the study and NumPy seeds

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import solitaire_nb as sn  # noqa: E402
from solitaire_nb import study  # noqa: E402
from solitaire_nb.atlas import executors, intervals, studyfile  # noqa: E402
from solitaire_nb.atlas.executors import InProcessExecutor  # noqa: E402
from solitaire_nb.atlas.studyfile import read_records  # noqa: E402
from solitaire_nb.atlas.winrate import win_rate  # noqa: E402
from solitaire_nb.core import cards  # noqa: E402
from solitaire_nb.core.cards import Card  # noqa: E402
from solitaire_nb.core.checks import SEED_MAX, shown  # noqa: E402
from solitaire_nb.core.moves import Move  # noqa: E402
from solitaire_nb.engine import Game, load_game, new_game  # noqa: E402
from solitaire_nb.solver import SolveResult, hint, solve  # noqa: E402

# SOLITAIRE_HYPOTHESIS=hunt (tests/conftest.py's long profile) or FUZZ_EXAMPLES=2000 tries many
# more inputs (a long hunt); the default profile keeps the README's test command quick
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", settings().max_examples))
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = list(sn.GAMES)
HUGE = 10**5000  # its str() raises in Python ≥ 3.11: a message must never try

# ---------------------------------------------------------------------- the Spanish check
_ENGLISH = re.compile(
    r"\b(the|of|and|is|are|not|must|invalid|expected|expecting|got|argument|object|cannot|should|"
    r"literal|exceeds|digits|unhashable|keyword|multiple|nonetype|traceback|with|for|have|"
    r"list|range|index|string|integer|truth|ambiguous|codec|decode|byte|position|permission|"
    r"denied|file|directory|such|unsupported|operand|attribute|subscriptable|iterable|callable)\b"
    r"|[a-z]Error\b|int\(\)",
    re.IGNORECASE,
)


def spanish(message: str, *shown_values: object) -> bool:
    """No English word or Python phrase outside the quoted values and paths it shows."""
    text = message
    for v in shown_values:
        text = text.replace(shown(v), " ")
    text = re.sub(r"'[^']*'|\"[^\"]*\"|«[^»]*»|\S*/\S*", " ", text)
    return _ENGLISH.search(text) is None and bool(text.strip())


def refused(fn, *args, **kwargs) -> ValueError:
    """Call `fn`; it must raise a ValueError with a Spanish message (returned)."""
    with pytest.raises(ValueError) as info:
        fn(*args, **kwargs)
    exc = info.value
    assert type(exc) is not UnicodeDecodeError and not isinstance(exc, UnicodeError)
    assert spanish(str(exc), *args, *kwargs.values()), str(exc)
    return exc


def answer_or_refuse(fn, *args, **kwargs):
    """Call `fn`; it returns, or raises a Spanish ValueError (returned as such)."""
    try:
        return fn(*args, **kwargs)
    except ValueError as exc:
        assert not isinstance(exc, UnicodeError)
        assert spanish(str(exc), *args, *kwargs.values()), str(exc)
        return exc


# ---------------------------------------------------------------------- junk of every type
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**60, max_value=2**70),
    st.sampled_from([-1, 0, 2**64, 2**64 - 1]),
    st.sampled_from([1, -1]).map(lambda sign: sign * HUGE),  # (a huge int's repr would fail)
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.text(alphabet="AT23QKSHDC♠♥ 10>xF", max_size=8),
    st.binary(max_size=6),
)
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=4), inner, max_size=3),
    ),
    max_leaves=8,
)


def to_json(obj) -> str:
    """json.dumps that also writes thousand-digit ints (as a careless editor would)."""

    def mark(x):
        if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > 10_000:
            return "@HUGE@" if x > 0 else "@-HUGE@"
        if isinstance(x, list | tuple):
            return [mark(v) for v in x]
        if isinstance(x, dict):
            return {k: mark(v) for k, v in x.items()}
        return x

    text = json.dumps(mark(obj), default=repr)
    return text.replace('"@HUGE@"', "9" * 5000).replace('"@-HUGE@"', "-" + "9" * 5000)


def snapshot(g: Game):
    return g.to_json(), g.history, g.position()


# ---------------------------------------------------------------------- seeds and new_game
@pytest.mark.parametrize("seed", [-1, 2**64, HUGE, 1.0, True, "7", [7], float("nan")], ids=lambda v: shown(v)[:20])
def test_new_game_refuses_seeds_out_of_range(seed):
    refused(new_game, "citadel", seed)


def test_seed_range_ends_are_accepted_and_print():
    for seed in (0, SEED_MAX, np.int64(12), np.uint64(SEED_MAX)):
        g = new_game("scotch", seed=seed)
        assert type(g.seed) is int
        assert str(g.seed) in repr(g) and json.loads(g.to_json())["seed"] == g.seed
        assert g._repr_svg_().startswith("<svg")


@FAST
@given(name=st.one_of(st.sampled_from(GAMES), junk), seed=junk, deck=st.one_of(st.none(), junk))
def test_new_game_answers_or_refuses(name, seed, deck):
    g = answer_or_refuse(new_game, name, seed, deck)
    if isinstance(g, Game):
        repr(g), g.to_json()


def test_new_game_refuses_an_endless_deck():
    def endless():
        while True:
            yield "AS"

    refused(new_game, "citadel", deck=endless())


# ---------------------------------------------------------------------- cards and moves
@FAST
@given(text=junk)
def test_card_parse_answers_or_refuses(text):
    c = answer_or_refuse(Card.parse, text)
    assert isinstance(c, Card | ValueError)


def test_card_parse_cache_is_bounded():
    """Only tight spellings are cached (a finite set); padding and refusals leave nothing."""
    for i in range(5000):
        Card.parse(" " * (i % 50) + "qs" + " " * (i // 50))
        answer_or_refuse(Card.parse, "Q" * (i + 3))
    tight = [r + s for r in "A23456789TJQKatjqk" for s in "SHDCshdc♠♥♦♣"]
    for text in tight + ["10H", "10♥", "10s"]:
        Card.parse(text)
    assert len(cards._PARSE_CACHE) <= 2 * len(tight) + 50
    assert all(len(k) <= 3 and k == k.strip() for k in cards._PARSE_CACHE)


@FAST
@given(text=junk)
def test_move_parse_answers_or_refuses(text):
    answer_or_refuse(Move.parse, text)


def test_move_parse_refuses_thousand_digit_counts():
    refused(Move.parse, "T1>T2x" + "9" * 5000)
    refused(Move.parse, "T1>T2x0")
    refused(Move.parse, "T" + "1" * 5000 + ">F0")


@FAST
@given(name=st.sampled_from(GAMES), src=junk, dst=junk, count=junk)
def test_moves_refused_leave_the_game_unchanged(name, src, dst, count):
    g = new_game(name, seed=5)
    before = snapshot(g)
    why = g.why_not(src, dst, count)
    assert why is None or spanish(why, src, dst, count), why
    assert isinstance(g.can_move(src, dst, count), bool)
    if why is not None:
        refused(g.move, src, dst, count)
        assert snapshot(g) == before


@FAST
@given(name=st.sampled_from(GAMES), pile=junk)
def test_pile_lookups_answer_or_refuse(name, pile):
    g = new_game(name, seed=5)
    for method in (g.pile, g.face_down, g.label):
        answer_or_refuse(method, pile)


@pytest.mark.parametrize("count", [HUGE, 2**64, -1, 0, 1.5, True, "2"], ids=lambda v: shown(v)[:20])
def test_move_counts_of_every_kind(count):
    g = new_game("moving_left", seed=3)
    before = snapshot(g)
    why = g.why_not("T0", "T1", count)
    assert why and spanish(why, count)
    refused(g.move, "T0", "T1", count)
    assert snapshot(g) == before


# ---------------------------------------------------------------------- positions and documents
@FAST
@given(name=st.sampled_from(GAMES), piles=junk, face_down=junk)
def test_from_position_answers_or_refuses(name, piles, face_down):
    answer_or_refuse(Game.from_position, name, piles, face_down)


@FAST
@given(text=st.one_of(junk, st.text(max_size=40)))
def test_load_game_answers_or_refuses(text):
    answer_or_refuse(load_game, text)


def test_load_game_refuses_deep_json():
    refused(load_game, "[" * 100_000 + "]" * 100_000)
    refused(load_game, '{"a":' * 50_000 + "1" + "}" * 50_000)


def test_load_game_messages_carry_no_python_english():
    doc = json.loads(new_game("citadel", seed=3).to_json())
    for key, value in [("variant", {"deck": True}), ("variant", {"name": True}), ("moves", [1]),
                       ("seed", 2**64), ("seed", HUGE), ("deal", [1, 2]), ("deal", "AS"),
                       ("position", {"piles": 1})]:
        bad = dict(doc, **{key: value})
        refused(load_game, to_json(bad))
    refused(load_game, "no es json")
    refused(load_game, b"\xff\xfe")
    refused(load_game, 12)


def _mutations(doc: dict):
    """Every field of a saved game, replaced in turn by junk (hypothesis draws the junk)."""
    keys = list(doc) + ["start.piles", "start.face_down", "start.validate", "position.piles"]
    return st.tuples(st.sampled_from(keys), junk)


@FAST
@given(data=st.data())
def test_tampered_documents_load_or_are_refused(data):
    g = new_game("beleaguered_castle", seed=4, takeback=False)
    start = Game.from_position("beleaguered_castle", g.piles, takeback=False)
    doc = json.loads(start.to_json())
    key, value = data.draw(_mutations(doc))
    if "." in key:
        outer, inner = key.split(".")
        doc[outer] = dict(doc[outer] or {}, **{inner: value})
    else:
        doc[key] = value
    loaded = answer_or_refuse(load_game, to_json(doc))
    if isinstance(loaded, Game):
        # whatever loads, the solver answers or refuses in Spanish: never an AssertionError
        r = answer_or_refuse(solve, loaded, max_states=200)
        assert isinstance(r, SolveResult | ValueError)
        answer_or_refuse(hint, loaded, max_states=200)


def test_a_document_never_turns_validation_off():
    """52 Aces of spades with ``validate: false``: refused on loading (or, where the engine
    still takes such a position, refused by the solver), never a solver assertion."""
    doc = {
        "format": "solitaire_nb/partida", "version": 1, "game": "citadel", "variant": {},
        "seed": None, "deal": None, "moves": [],
        "start": {"piles": {f"T{i % 8}": ["AS"] * 7 for i in range(8)} | {"T0": ["AS"] * 3}, "validate": False},
    }
    doc["position"] = {"piles": {}, "face_down": {}}
    try:
        g = load_game(json.dumps(doc))
    except ValueError as exc:
        assert spanish(str(exc))
        return
    refused(solve, g)
    refused(hint, g)


# ---------------------------------------------------------------------- solver limits
BAD_SECONDS = [-1, -0.5, float("nan"), float("inf"), -float("inf"), True, "1", [1], HUGE, 1j]
BAD_STATES = [-1, 1.5, 1.0, float("nan"), True, "10", [10], 10**13, HUGE]


@pytest.mark.parametrize("bad", BAD_SECONDS, ids=lambda v: shown(v)[:20])
def test_solve_refuses_bad_time_limits_before_any_work(bad):
    g = new_game("bakers_dozen", seed=2)
    before = snapshot(g)
    refused(solve, g, time_limit=bad)
    refused(hint, g, time_limit=bad)
    assert snapshot(g) == before


@pytest.mark.parametrize("bad", BAD_STATES, ids=lambda v: shown(v)[:20])
def test_solve_refuses_bad_state_caps(bad):
    g = new_game("citadel", seed=2)
    refused(solve, g, max_states=bad)
    refused(hint, g, max_states=bad)
    refused(solve, g, max_table=bad)
    refused(solve, g, max_table=0)


@pytest.mark.parametrize("bad", [None, "citadel", 3, new_game, object()], ids=["none", "text", "int", "function", "object"])
def test_solve_refuses_what_is_not_a_game(bad):
    refused(solve, bad)
    refused(hint, bad)


CAPS = [0, 1, 2, 3, 5, 7, 15, 16, 17, 100, 257]


@pytest.mark.parametrize("name, flags", [
    ("bakers_dozen", {}), ("bakers_dozen", {"any_suit": True}), ("beleaguered_castle", {}),
    ("beleaguered_castle", {"takeback": False}), ("citadel", {}), ("citadel", {"autoplay": False}),
    ("chequers", {}), ("scotch", {}), ("moving_left", {}),
])
def test_max_states_is_a_hard_exact_cap(name, flags):
    """states ≤ max_states in every game and portfolio (Baker's Dozen's nine searches, the
    castles' turns, the first phase without take-backs); a capped "unknown" has used the cap
    exactly; the same request gives the same answer."""
    for deal in (1, 2):
        g = new_game(name, seed=deal, **flags)
        for k in CAPS:
            r = solve(g, max_states=k)
            assert r.states <= k, (deal, k, r)
            if r.status == "unknown":
                assert r.states == k, (deal, k, r)
            again = solve(g, max_states=k)
            assert (again.status, again.states, again.moves) == (r.status, r.states, r.moves)


VARIANTS = [(name, dict(zip(d.variants, values, strict=True)))
            for name, d in sn.GAMES.items() for values in itertools.product([False, True], repeat=len(d.variants))]


@settings(max_examples=max(40, EXAMPLES // 2), deadline=None)
@given(case=st.sampled_from(VARIANTS), seed=st.integers(0, SEED_MAX), picks=st.lists(st.integers(0, 10**6), max_size=25))
def test_positions_reached_by_play_are_never_refused(case, seed, picks):
    """The solver's door refuses impossible positions only: every position reached by play
    (and the same position given by hand) gets an answer within its cap."""
    name, flags = case
    g = new_game(name, seed=seed, **flags)
    for p in picks:
        legal = g.legal_moves()
        if not legal:
            break
        g.move(legal[p % len(legal)])
    for game in (g, Game.from_position(name, {k: list(v) for k, v in g.piles.items()},
                                       {p: g.face_down(p) for p in g.pile_ids}, **flags)):
        r = solve(game, max_states=30)
        assert r.states <= 30
        assert hint(game, max_states=30).status in ("won", "lost", "unknown")


def test_max_states_zero_examines_nothing():
    for name in GAMES:
        r = solve(new_game(name, seed=8), max_states=0)
        assert (r.status, r.states) == ("unknown", 0)


def test_bakers_dozen_small_caps_stop_at_the_cap():
    """Issue 23: with a cap smaller than its nine shares, Baker's Dozen searched on until its
    time limit (the last search's share came out negative, i.e. unlimited)."""
    for k in range(1, 20):
        r = solve(new_game("bakers_dozen", seed=11), max_states=k)
        assert r.states <= k


def test_castle_portfolio_cap_across_turns():
    """A cap in the middle of the castles' later turns (probe, second order, depth-first
    searches) is honoured exactly."""
    g = new_game("beleaguered_castle", seed=200, takeback=False)
    k = 100_000 + 3_001
    r = solve(g, max_states=k)
    assert r.states <= k and (r.status != "unknown" or r.states == k)


# ---------------------------------------------------------------------- win_rate
BAD_WORKERS = [-1, 0, True, 1.5, "2", 10**9, HUGE]


@pytest.mark.parametrize("bad", BAD_WORKERS, ids=lambda v: shown(v)[:20])
def test_win_rate_refuses_bad_workers_before_any_work(bad, tmp_path):
    out = tmp_path / "estudio.csv"
    refused(win_rate, "citadel", [1], max_states=10, workers=bad, progress=False, out=out)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("kwargs", [
    {"time_limit": float("nan")}, {"time_limit": -1}, {"time_limit": float("inf")},
    {"max_states": -1}, {"max_states": 2.5}, {"max_states": True},
    {"executor": "pool"}, {"progress": "sí"}, {"out": 3}, {"out": ""},
    {"takeback": 1}, {"wrap": True},
], ids=repr)
def test_win_rate_refuses_bad_arguments_before_any_work(kwargs, tmp_path):
    kwargs = {"max_states": 10, "progress": False, "out": tmp_path / "e.csv", **kwargs}
    refused(win_rate, "beleaguered_castle", [1, 2], **kwargs)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("deals", [[-1], [2**64], [HUGE], [1.0], ["3"], [True], 5, "123", None, [[1]]],
                         ids=lambda v: shown(v)[:20])
def test_win_rate_refuses_bad_deals(deals):
    refused(win_rate, "citadel", deals, max_states=10, executor=InProcessExecutor(), progress=False)


@pytest.mark.parametrize("name", [None, 3, ["citadel"], {"a": 1}, "klondike", HUGE], ids=lambda v: shown(v)[:20])
def test_win_rate_refuses_bad_names(name):
    refused(win_rate, name, [1], progress=False)


def test_win_rate_accepts_numpy_deals_and_the_seed_range_end():
    r = win_rate("citadel", np.array([1, 2]), max_states=5, executor=InProcessExecutor(), progress=False)
    assert [x.deal for x in r.records] == [1, 2]
    r = win_rate("citadel", [SEED_MAX], max_states=5, executor=InProcessExecutor(), progress=False)
    assert r.records[0].deal == SEED_MAX


class Recording(InProcessExecutor):
    def __init__(self):
        self.deals: list[int] = []

    def submit(self, fn, /, *args, **kwargs):
        self.deals.append(args[1])
        return super().submit(fn, *args, **kwargs)


def test_a_second_run_on_a_file_in_use_is_refused(tmp_path):
    """Issue 23: two runs on one file lost rows (the second rewrote it while the first kept
    appending to the replaced copy).  Now the second is refused while the first runs, and
    every row the first reported is in the file."""
    out = tmp_path / "estudio.csv"
    seen: list[str] = []

    class Meddling(InProcessExecutor):
        def submit(self, fn, /, *args, **kwargs):
            exc = refused(win_rate, "citadel", [7, 8], max_states=5, executor=InProcessExecutor(),
                          progress=False, out=out)
            seen.append(str(exc))
            return super().submit(fn, *args, **kwargs)

    first = win_rate("citadel", [1, 2, 3], max_states=5, executor=Meddling(), progress=False, out=out)
    assert len(seen) == 3 and all("en uso" in m for m in seen)
    _, rows = read_records(out)
    assert sorted(r.deal for r in rows) == [1, 2, 3] == [r.deal for r in first.records]
    # released at the end: the next run goes ahead, solves only what is new, loses nothing
    rec = Recording()
    win_rate("citadel", [1, 2, 3, 4], max_states=5, executor=rec, progress=False, out=out)
    assert rec.deals == [4]
    assert sorted(r.deal for r in read_records(out)[1]) == [1, 2, 3, 4]
    assert not (tmp_path / "estudio.csv.lock").exists()


def test_the_lock_is_released_when_a_run_fails(tmp_path):
    out = tmp_path / "estudio.csv"

    class Broken(InProcessExecutor):
        def submit(self, fn, /, *args, **kwargs):
            raise RuntimeError("interrumpido")

    with pytest.raises(RuntimeError):
        win_rate("citadel", [1], max_states=5, executor=Broken(), progress=False, out=out)
    win_rate("citadel", [1], max_states=5, executor=InProcessExecutor(), progress=False, out=out)
    assert [r.deal for r in read_records(out)[1]] == [1]


def test_a_study_file_held_elsewhere_is_refused_untouched(tmp_path):
    out = tmp_path / "estudio.csv"
    win_rate("citadel", [1], max_states=5, executor=InProcessExecutor(), progress=False, out=out)
    before = out.read_bytes()
    with studyfile.study_lock(out):
        refused(win_rate, "citadel", [2], max_states=5, executor=InProcessExecutor(), progress=False, out=out)
    assert out.read_bytes() == before


HOLDER = """
import sys
from pathlib import Path
from solitaire_nb.atlas.studyfile import study_lock
with study_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()
"""


@pytest.mark.parametrize("ending", ["exit", "crash"])
def test_another_process_holding_the_file_is_refused_until_it_ends(ending, tmp_path):
    """The lock is the operating system's: a run in another process is refused while it holds
    the file, and the file is free again once that process ends, even by a crash."""
    import signal
    import subprocess
    import sys

    out = tmp_path / "estudio.csv"
    env = dict(os.environ, PYTHONPATH=str(Path(sn.__file__).resolve().parents[1]))
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert holder.stdout.readline().strip() == "held"
        exc = refused(win_rate, "citadel", [1], max_states=5, executor=InProcessExecutor(), progress=False, out=out)
        assert "en uso" in str(exc) and not out.exists()
    finally:
        if ending == "crash":
            holder.send_signal(signal.SIGKILL)
        else:
            holder.stdin.close()
        holder.wait()
    win_rate("citadel", [1], max_states=5, executor=InProcessExecutor(), progress=False, out=out)
    assert [r.deal for r in read_records(out)[1]] == [1]


FORKING_HOLDER = """
import multiprocessing, sys, time
from pathlib import Path
from solitaire_nb.atlas.studyfile import study_lock

def linger(started):
    started.set()  # the fork's own handlers have run by now
    time.sleep(60)

ctx = multiprocessing.get_context("fork")
with study_lock(Path(sys.argv[1])):
    started = ctx.Event()
    child = ctx.Process(target=linger, args=(started,))
    child.start()
    started.wait(30)
    print(child.pid, flush=True)
    sys.stdin.read()
"""


def test_a_crashed_run_leaves_no_lock_behind_in_its_workers(tmp_path):
    """Pool workers forked while a run holds the file close their copy of the lock, so a run
    that crashes (killed) while a worker is still finishing its deal leaves the file free."""
    import signal
    import subprocess
    import sys

    out = tmp_path / "estudio.csv"
    env = dict(os.environ, PYTHONPATH=str(Path(sn.__file__).resolve().parents[1]))
    holder = subprocess.Popen([sys.executable, "-c", FORKING_HOLDER, str(out)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=env)
    worker = int(holder.stdout.readline())
    try:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        with studyfile.study_lock(out):  # the worker is still alive
            pass
    finally:
        os.kill(worker, signal.SIGKILL)


@pytest.mark.slow
def test_process_pool_studies_keep_one_writer(tmp_path):
    out = tmp_path / "estudio.csv"
    r = win_rate("beleaguered_castle", range(1, 7), max_states=50, workers=2, progress=False, out=out,
                 takeback=False)
    assert [x.deal for x in r.records] == list(range(1, 7))
    assert sorted(x.deal for x in read_records(out)[1]) == list(range(1, 7))
    assert not (tmp_path / "estudio.csv.lock").exists()


def _study_file(tmp_path: Path, rows: list[str], max_states: int = 5) -> Path:
    out = tmp_path / "estudio.csv"
    win_rate("citadel", [], max_states=max_states, executor=InProcessExecutor(), progress=False, out=out)
    header = out.read_text(encoding="utf-8")
    out.write_text(header + "".join(r + "\n" for r in rows), encoding="utf-8")
    return out


def test_rows_that_fail_validation_are_solved_again(tmp_path):
    good = win_rate("citadel", [1, 2], max_states=5, executor=InProcessExecutor(), progress=False).records
    rows = [f"{r.deal},{r.status},{r.states},{r.seconds},{r.moves}" for r in good]
    bad = [
        "3,unknown,-5,0.1,0",      # negative count
        "4,unknown,5,nan,0",       # NaN seconds
        "5,lost,3,0.1,12",         # a lost verdict with moves
        "6,won,5,0.1,0",           # a won verdict without moves
        "7,unknown,999,0.1,0",     # more states than the cap
        "8,unknown,5,inf,0",       # endless seconds
        f"{2**64},unknown,5,0.1,0",  # deal out of range
        "9,unknown,1_0,0.1,0",     # Python's digit separators are not the file's
        "10,lost,0,0.1,0",         # lost without examining anything
        "11,unknown," + "9" * 200_000 + ",0.1,0",  # a huge field
        "12,unknown,5,0.1,0\x00",  # a NUL byte
    ]
    out = _study_file(tmp_path, rows + bad)
    _, kept = read_records(out)
    assert sorted(r.deal for r in kept) == [1, 2]
    rec = Recording()
    win_rate("citadel", range(1, 13), max_states=5, executor=rec, progress=False, out=out)
    assert sorted(rec.deals) == list(range(3, 13))
    assert sorted(r.deal for r in read_records(out)[1]) == list(range(1, 13))


@pytest.mark.parametrize("header", [
    "# solitaire_nb win_rate []", "# solitaire_nb win_rate 3", "# solitaire_nb win_rate {",
    "# solitaire_nb win_rate " + "[" * 50_000, '# solitaire_nb win_rate {"variant": 3}', "deal,status",
], ids=lambda h: h[:40])
def test_damaged_headers_are_refused_in_spanish(header, tmp_path):
    out = tmp_path / "estudio.csv"
    out.write_text(header + "\n1,won,3,0.1,5\n", encoding="utf-8")
    before = out.read_bytes()
    if "variant" not in header:  # that one is a header, of another study
        refused(read_records, out)
    refused(win_rate, "citadel", [1], max_states=5, executor=InProcessExecutor(), progress=False, out=out)
    assert out.read_bytes() == before


def test_unreadable_study_files_are_refused_in_spanish(tmp_path):
    refused(read_records, tmp_path / "no_existe.csv")
    refused(read_records, tmp_path)
    binary = tmp_path / "binario.csv"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    refused(read_records, binary)
    refused(win_rate, "citadel", [1], max_states=5, executor=InProcessExecutor(), progress=False, out=tmp_path)


@FAST
@given(successes=junk, n=junk)
def test_wilson_answers_or_refuses(successes, n):
    r = answer_or_refuse(intervals.wilson, successes, n)
    if isinstance(r, tuple):
        assert 0 <= r[0] <= r[1] <= 1


def test_solve_deal_checks_its_arguments():
    refused(executors.solve_deal, "citadel", -1, {}, None, 5)
    refused(executors.solve_deal, "citadel", 1, {}, float("nan"), 5)
    refused(executors.solve_deal, "citadel", 1, {}, None, -5)
    refused(executors.solve_deal, "citadel", 1, [], None, 5)
    refused(executors.solve_deal, "citadel", 1, {"deck": True}, None, 5)
    refused(executors.solve_deal, "citadel", 1, {"seed": True}, None, 5)
    refused(executors.solve_deal, "citadel", 1, {"name": True}, None, 5)
    refused(executors.solve_deal, ["citadel"], 1, {}, None, 5)


# ---------------------------------------------------------------------- study functions
@pytest.mark.parametrize("call", [
    lambda: study.simulate(0), lambda: study.simulate(-5), lambda: study.simulate(2.5),
    lambda: study.simulate(True), lambda: study.simulate("10"), lambda: study.simulate(HUGE),
    lambda: study.simulate(10, seed=-1), lambda: study.simulate(10, seed=2**64),
    lambda: study.simulate(10, seed=1.5), lambda: study.simulate(10, chunk=0),
    lambda: study.simulate(10, keep_decks=-1), lambda: study.simulate(10, progress="sí"),
    lambda: study.draw_decks(-1), lambda: study.draw_decks(3, seed="x"),
    lambda: study.deck_codes([52]), lambda: study.deck_codes([-1]), lambda: study.deck_codes("AS"),
    lambda: study.deck_codes(5), lambda: study.deck_codes([1.5]), lambda: study.deck_ids(["ZZ"]),
    lambda: study.deck_ids(5), lambda: study.deal_decks([[1, 2, 3]]), lambda: study.deal_decks([[0] * 52]),
    lambda: study.deal_decks("x"), lambda: study.deal_decks([list(range(52)), list(range(51)) + [-1]]),
    lambda: study.simulate_engine(5), lambda: study.simulate_engine([[99] * 52]),
    lambda: study.simulate_engine([["AS"] * 52]), lambda: study.deal_games(5),
    lambda: study.deal_games(["AS"]), lambda: study.summary(5),
    lambda: study.cards_home_distribution(suits=0), lambda: study.cards_home_distribution(ranks=10**6),
    lambda: study.expected_cards_home(ranks=-1), lambda: study.home_probability_by_position(suits=1.5),
    lambda: study.expected_column_lengths(columns=0), lambda: study.cards_home_moments(ranks=HUGE),
    lambda: study.chi_square_test([1, 2], [0.5]), lambda: study.chi_square_test([], []),
    lambda: study.chi_square_test(["a"], [1]), lambda: study.chi_square_test([1, 2], [0.5, 0.5], "5"),
    lambda: study.chi_square_test([1, -2], [0.5, 0.5]), lambda: study.chi_square_test([1, 2], [0.5, float("nan")]),
    lambda: study.chi2_sf(float("nan"), 3), lambda: study.chi2_sf(1.0, 0), lambda: study.chi2_sf("x", 2),
    lambda: study.mean_ci([]), lambda: study.mean_ci(["a"]), lambda: study.mean_ci([1, 2], axis=3),
    lambda: study.mean_ci([1, 2], z="x"),
], ids=lambda f: f.__code__.co_firstlineno)
def test_study_functions_refuse_in_spanish(call):
    refused(call)


def test_study_functions_still_work():
    res = study.simulate(20, seed=SEED_MAX, keep_decks=2, chunk=7)
    assert res.n == 20 and len(res.decks) == 2
    assert study.deck_ids(study.deck_codes(res.decks[0])).tolist() == res.decks[0].tolist()
    assert study.summary(res)["on_table"][0] > 0
    assert math.isclose(study.chi2_sf(0.0, 2), 1.0)


# ---------------------------------------------------------------------- the board's messages
def _board(game: Game | None = None):
    from solitaire_nb.board import Board

    return Board(game or new_game("citadel", seed=9), solver_seconds=0.2)  # «Pista» thinks 0.04 s


def _board_state(b):
    return b.game.to_json(), b.game.history


events = st.sampled_from(["click", "double", "text", "button", "escape", "", None, 3, "CLICK"])
buttons = st.sampled_from(["undo", "redo", "new", "hint", "solvable", "solution", "next", "save", "load"])
messages = st.one_of(
    junk,
    st.fixed_dictionaries({"event": events}, optional={"pile": junk, "index": junk, "text": junk, "name": junk}),
    st.fixed_dictionaries({"event": st.just("button"), "name": buttons},
                          optional={"seed": junk, "game": junk, "text": junk}),
)


@settings(max_examples=max(80, EXAMPLES), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(msgs=st.lists(messages, min_size=1, max_size=4))
def test_board_messages_never_escape_and_speak_spanish(msgs):
    b = _board()
    for msg in msgs:
        if isinstance(msg, dict) and msg.get("name") in ("hint", "solvable", "solution"):
            continue  # the solver's buttons take their time limit: covered below
        before = _board_state(b)
        b.handle(msg)
        assert not b.message or spanish(b.message, *(msg.values() if isinstance(msg, dict) else [msg])), b.message
        if b.kind == "error":
            assert _board_state(b) == before


@pytest.mark.parametrize("seed", [2**64, HUGE, -1, "-1", "1e5", "9" * 5000, 1.5, float("nan"), [1], True],
                         ids=lambda v: shown(v)[:20])
def test_board_new_game_refuses_seeds_out_of_range(seed):
    b = _board()
    before = _board_state(b)
    b.handle({"event": "button", "name": "new", "seed": seed})
    assert b.kind == "error" and spanish(b.message, seed), b.message
    assert _board_state(b) == before


@pytest.mark.parametrize("text", [
    "citadel/" + "9" * 5000 + "/", f"citadel/{2**64}/", "citadel/-1/", "citadel", "/", "//", "citadel/1/T1>T2x" + "9" * 5000,
    "citadel;autoplay=2/1/", "citadel;=1/1/", "klondike/1/", "{" * 10_000, "[" * 100_000, '{"format": 1}',
    "citadel/1/" + ",".join(["T1-T2"] * 2000), "\x00", "citadel/p.@@@/", "citadel/d.AAAA/", "citadel/p./",
], ids=lambda t: t[:30])
def test_board_load_refuses_bad_codes(text):
    b = _board()
    before = _board_state(b)
    b.handle({"event": "button", "name": "load", "text": text})
    assert spanish(b.message, text), b.message
    if b.kind == "error":
        assert _board_state(b) == before


@pytest.mark.parametrize("text", ["T1>T2x" + "9" * 5000, "T" + "9" * 5000 + " B1", "T1 T2 " + "9" * 5000,
                                  "T1 T2 -3", "٣ B1", "M D X", "T1 " * 1000], ids=lambda t: t[:20])
def test_board_typed_moves_refuse_in_spanish(text):
    b = _board(new_game("moving_left", seed=2))
    before = _board_state(b)
    b.handle({"event": "text", "text": text})
    assert b.kind == "error" and spanish(b.message, text), b.message
    assert _board_state(b) == before


def test_board_solver_buttons_answer_in_spanish():
    b = _board(new_game("bakers_dozen", seed=3))
    for name in ("hint", "solvable", "solution", "next"):
        b.handle({"event": "button", "name": name})
        assert spanish(b.message), b.message


# ---------------------------------------------------------------------- exercises
@settings(max_examples=max(30, EXAMPLES // 2), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=st.one_of(junk, st.text(alphabet="T0123>F,; xKQS♠", max_size=20)))
def test_exercise_checkers_answer_in_spanish(answer):
    from solitaire_nb.lessons import exercises as ejercicios

    for ident in ejercicios.EJERCICIOS:
        ok, message = ejercicios._verdict(ident, answer)
        assert isinstance(ok, bool) and spanish(message, answer), (ident, message)


@pytest.mark.parametrize("answer", [HUGE, -HUGE, 2**64, np.array([1, 2]), np.int64(3), float("nan"),
                                    "9" * 5000, ["AS"] * 10_000, {"a": 1}, b"AS", object()],
                         ids=lambda v: shown(v)[:20])
def test_exercise_checkers_take_any_answer(answer):
    from solitaire_nb.lessons import exercises as ejercicios

    for ident in ejercicios.EJERCICIOS:
        ok, message = ejercicios._verdict(ident, answer)
        assert isinstance(ok, bool) and spanish(message, answer), (ident, message)


def test_exercise_boxes_take_any_text():
    from solitaire_nb.lessons import exercises as ejercicios

    refused(ejercicios.comprobar, "no_existe", "x")
    refused(ejercicios.comprobar, ["lista"], "x")
    for ident in list(ejercicios.EJERCICIOS)[:3]:
        for text in ("9" * 5000, "-" + "9" * 5000, "   ", "٣"):
            ok, message = ejercicios._verdict(ident, text)
            assert spanish(message, text), message


# ---------------------------------------------------------------------- learner notation, share codes
@FAST
@given(name=st.sampled_from(GAMES), text=st.one_of(junk, st.text(alphabet="TABRMDtabrmd 0123456789-,²٣x", max_size=14)))
def test_learner_notation_answers_or_refuses(name, text):
    from solitaire_nb.games import notation

    g = new_game(name, seed=6)
    move = answer_or_refuse(notation.parse_move, g, text)
    if isinstance(move, Move):
        # what it reads, it writes back the same way, and the engine judges it in Spanish
        assert notation.parse_move(g, notation.format_move(g, move)) == move
        why = g.why_not(move)
        assert why is None or spanish(why)


@pytest.mark.parametrize("text", ["T" + "9" * 5000 + " B1", "T1 T2 " + "9" * 5000, "T1 T2 ٣",
                                  "tablero ٣ a base 1", "x" * 10_000, "T0 B1", "B0 T1", "M D D"],
                         ids=lambda t: t[:20])
def test_learner_notation_refuses_in_spanish(text):
    from solitaire_nb.games import notation

    refused(notation.parse_move, new_game("moving_left", seed=1), text)


@FAST
@given(game=junk, pile=junk)
def test_pile_codes_answer_or_refuse(game, pile):
    from solitaire_nb.games import notation

    answer_or_refuse(notation.pile_code, game, pile)
    answer_or_refuse(notation.pile_name, game, pile)


@FAST
@given(text=st.one_of(junk, st.text(max_size=30), st.text(alphabet="citadel/;=01p.dT-,B", max_size=30)))
def test_share_codes_answer_or_refuse(text):
    from solitaire_nb.engine.share import load_share, share_code

    g = answer_or_refuse(load_share, text)
    if isinstance(g, Game):
        assert load_share(share_code(g)).position() == g.position()


@FAST
@given(case=st.sampled_from(VARIANTS), seed=st.integers(0, SEED_MAX), picks=st.lists(st.integers(0, 99), max_size=12),
       drop=st.sets(st.integers(0, 103), max_size=20))
def test_share_codes_round_trip_deals_and_practice_positions(case, seed, picks, drop):
    """Deals, hand-given and practice positions go out as codes and come back the same; the
    solver answers on each (practice positions are won when their cards are home)."""
    from solitaire_nb.engine.share import load_share, share_code

    name, flags = case
    g = new_game(name, seed=seed, **flags)
    for p in picks:
        legal = g.legal_moves()
        if legal:
            g.move(legal[p % len(legal)])
    assert load_share(share_code(g)).position() == g.position()
    # a practice position: some cards of the tableau taken away
    piles = {k: [c for i, c in enumerate(v) if not (k.startswith("T") and (hash(k) + i) % 104 in drop)]
             for k, v in g.piles.items()}
    fd = {p: min(g.face_down(p), max(0, len(piles[p]) - 1)) for p in g.pile_ids}
    h = answer_or_refuse(Game.from_position, name, piles, fd, **flags)
    if isinstance(h, Game):
        assert load_share(share_code(h)).position() == h.position()
        assert load_game(h.to_json()).position() == h.position()
        r = solve(h, max_states=40)
        assert r.states <= 40 and r.status in ("won", "lost", "unknown")


@pytest.mark.parametrize("code", [
    "citadel/" + "9" * 5000 + "/", f"citadel/{2**64}/", "citadel/²/", "citadel/p.AQE/", "citadel/d." + "A" * 100 + "/",
    "citadel/p." + "_" * 5000 + "/", "citadel;autoplay=1;autoplay=x/1/", "citadel/1/T1-T2x" + "9" * 5000,
    "citadel/1/" + "T1>T2x" + "9" * 5000, 5, None, ["citadel/1/"], "",
    "citadel;seed=1/5/", "citadel;name=1/5/", "citadel;deck=1/5/", "citadel;validate=0/p.AQE/",
], ids=lambda c: shown(c)[:25])
def test_bad_share_codes_are_refused_in_spanish(code):
    from solitaire_nb.engine.share import load_share

    refused(load_share, code)


@pytest.mark.parametrize("piles", [
    {"T0": ["AS", "AS"]},                                  # a card more often than one deck holds
    {"F0": ["2S"]},                                        # a foundation that is not a sequence
    {"T9": ["AS"]},                                        # a pile the game lacks
    {"T0": ["ZZ"]},                                        # a card nobody can read
], ids=repr)
def test_impossible_practice_positions_are_refused(piles):
    refused(Game.from_position, "citadel", piles)


def test_practice_positions_are_solved_or_refused_never_asserted():
    g = Game.from_position("citadel", {"T0": ["2S", "AS"], "T1": ["3S"]})
    assert g.is_practice
    r = solve(g)
    assert r.status == "won"
    assert refused(Game.from_position, "citadel", {"T0": ["AS"]}, {"T0": 5})


@FAST
@given(game=junk, kwargs=st.dictionaries(st.sampled_from(["selected", "highlight"]), junk, max_size=2))
def test_rendering_answers_or_refuses(game, kwargs):
    from solitaire_nb.render import render_html, render_svg

    answer_or_refuse(render_svg, game, **kwargs)
    answer_or_refuse(render_html, game)
    answer_or_refuse(render_svg, new_game("chequers", seed=1), **kwargs)
