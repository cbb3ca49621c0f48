"""Careless and hostile input, round three (issue 32): no study row lost through any path,
nothing blocks a kernel, every refusal in Spanish and short.

Each test that could block on today's code (a FIFO, an endless iterator) runs under
`time_guard`, a SIGALRM alarm, so a regression fails instead of hanging the suite.  FIFOs,
links and "devices" are made in a temporary folder; a device is only ever simulated (the
study module's `_lstat` is patched), never touched.  The tiny-tmpfs test mounts one where the
machine allows it (root, mount permitted) and is skipped otherwise.
"""

from __future__ import annotations

import concurrent.futures as cf
import errno
import inspect
import io
import itertools
import os
import re
import shutil
import signal
import stat
import subprocess
import threading
from contextlib import contextmanager, redirect_stdout
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")  # the notebook extra: the study and NumPy seeds

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_fuzz import FAST, refused, spanish  # noqa: E402

import solitaire_nb as sn  # noqa: E402
from solitaire_nb.atlas import files, intervals, studyfile  # noqa: E402
from solitaire_nb.atlas.executors import InProcessExecutor  # noqa: E402
from solitaire_nb.atlas.records import DealRecord  # noqa: E402
from solitaire_nb.atlas.studyfile import read_records  # noqa: E402
from solitaire_nb.atlas.winrate import win_rate  # noqa: E402
from solitaire_nb.core import checks, texts  # noqa: E402
from solitaire_nb.core.cards import CARDS, Card  # noqa: E402
from solitaire_nb.core.moves import Move  # noqa: E402
from solitaire_nb.engine import Game, load_game, new_game  # noqa: E402
from solitaire_nb.engine.share import load_share, share_code  # noqa: E402
from solitaire_nb.games import custom, notation  # noqa: E402
from solitaire_nb.lessons import exercises as ej  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
MESSAGE_MAX = 500


@contextmanager
def time_guard(seconds: float = 20):
    """Fail (TimeoutError) instead of hanging when the body blocks longer than `seconds`."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def boom(signum, frame):
        raise TimeoutError(f"bloqueado más de {seconds} s")

    old = signal.signal(signal.SIGALRM, boom)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if outer:  # an enclosing guard keeps its own deadline
            signal.setitimer(signal.ITIMER_REAL, max(outer - seconds, 0.001))


@pytest.fixture(autouse=True)
def _every_test_has_a_timeout():
    """Every test of this file fails, instead of hanging, past two minutes."""
    with time_guard(120):
        yield


def study(out, deals=(1, 2), **kwargs):
    kwargs = {"max_states": 5, "executor": InProcessExecutor(), "progress": False, **kwargs}
    return win_rate("citadel", list(deals), out=out, **kwargs)


def short(exc: BaseException, given: str = "") -> str:
    """The message, checked: under MESSAGE_MAX characters, and echoing at most the first
    `checks.SHOWN` characters of `given`."""
    text = str(exc)
    assert len(text) < MESSAGE_MAX, len(text)
    if len(given) > checks.SHOWN + 5:
        assert given[: checks.SHOWN + 5] not in text
    return text


# ====================================================================== 1, 2, 6, 8: study files
def test_every_study_and_atlas_write_goes_through_studyfile():
    """Issue 32, 1: `retry_unknown` rewrote a CSV without the lock.  Now the modules that make
    study and atlas files write nothing themselves: every byte goes through `atlas.files`
    (`write_all`, reached by `studyfile` and `files.replace_file`)."""
    for path in ("solitaire_nb/atlas/winrate.py", "benchmarks/atlas.py"):
        code = (REPO / path).read_text(encoding="utf-8")
        for call in ("write_text(", "os.replace(", "open(", "write_clean(", ".writerow("):
            assert call not in code, (path, call)
    atlas = (REPO / "benchmarks/atlas.py").read_text(encoding="utf-8")
    assert "update_study(" in atlas and "replace_file(" in atlas
    code = (REPO / "solitaire_nb/atlas/files.py").read_text(encoding="utf-8")
    assert code.count("_os_write(") == 1  # `write_all`, the one writer


def test_update_study_is_refused_while_a_run_holds_the_file(tmp_path):
    out = tmp_path / "estudio.csv"
    study(out, [1, 2, 3])
    before = out.read_bytes()
    with studyfile.study_lock(out):
        exc = refused(studyfile.update_study, out, lambda params, records: records[:1])
    assert "en uso" in str(exc) and out.read_bytes() == before
    # free again: the change is applied under the lock, and the header stays the study's
    studyfile.update_study(out, lambda params, records: [r for r in records if r.deal != 2])
    assert sorted(r.deal for r in read_records(out)[1]) == [1, 3]
    study(out, [1, 2, 3])  # the same study resumes: deal 2 is solved again
    assert sorted(r.deal for r in read_records(out)[1]) == [1, 2, 3]


def test_retry_unknown_loses_no_row_of_a_run_appending(tmp_path, monkeypatch):
    """Issue 32, 1: the retry's rewrite and a run's appends are serialised by the lock."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("atlas_script", REPO / "benchmarks" / "atlas.py")
    atlas = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, atlas)  # dataclasses look their module up there
    spec.loader.exec_module(atlas)
    entry = atlas.Entry("prueba", "citadel", {}, 1, 6, 5, "")
    monkeypatch.setattr(atlas, "CSV_DIR", tmp_path)
    monkeypatch.setattr(atlas, "write_summary", lambda: {})
    csv_path = entry.csv
    study(csv_path, [1, 2, 3, 4])
    params, rows = read_records(csv_path)
    params.pop("version")
    fake = [DealRecord(r.deal, "unknown", 5, 0.0, 0) for r in rows]
    studyfile.write_clean(csv_path, params, fake)
    with studyfile.study_lock(csv_path):  # a run is writing: the retry must not rewrite now
        with pytest.raises(ValueError, match="en uso"):
            atlas.retry_unknown([entry], 1, float("inf"), 20)
    assert sorted(r.deal for r in read_records(csv_path)[1]) == [1, 2, 3, 4]
    atlas.retry_unknown([entry], 1, float("inf"), 20)
    assert sorted(r.deal for r in read_records(csv_path)[1]) == [1, 2, 3, 4]


def _fifo(path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("sin FIFOs en este sistema")
    os.mkfifo(path)
    return path


def test_the_guard_stops_a_blocked_open(tmp_path):
    """What a regression would do (open a FIFO and wait for a writer) ends in TimeoutError."""
    fifo = _fifo(tmp_path / "tubo")
    with pytest.raises(TimeoutError), time_guard(0.3):
        open(fifo, encoding="utf-8").close()


def test_a_symlink_is_refused_and_the_real_study_keeps_its_rows(tmp_path):
    real = tmp_path / "real.csv"
    study(real, [1, 2, 3])
    before = real.read_bytes()
    link = tmp_path / "enlace.csv"
    link.symlink_to(real)
    with time_guard():
        exc = refused(study, link, [4, 5, 6])
    assert "enlace simbólico" in str(exc)
    assert link.is_symlink() and real.read_bytes() == before
    assert not (tmp_path / "enlace.csv.lock").exists()


def test_two_hard_links_to_one_study_are_refused(tmp_path):
    real = tmp_path / "real.csv"
    study(real, [1, 2])
    other = tmp_path / "otro.csv"
    os.link(real, other)
    before = real.read_bytes()
    for name in (real, other):
        exc = refused(study, name, [3])
        assert "más de un nombre" in str(exc)
    assert real.read_bytes() == before and os.stat(real).st_nlink == 2


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = _fifo(tmp_path / "tubo.csv")
    with time_guard():
        assert "tubería" in str(refused(read_records, fifo))
        assert "tubería" in str(refused(study, fifo, [1]))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tubo.csv"]


def test_a_folder_is_refused(tmp_path):
    folder = tmp_path / "carpeta.csv"
    folder.mkdir()
    assert "carpeta" in str(refused(read_records, folder))
    assert "carpeta" in str(refused(study, folder, [1]))
    assert not any(folder.iterdir()) and not (tmp_path / "carpeta.csv.lock").exists()


@pytest.mark.parametrize("kind", [stat.S_IFCHR, stat.S_IFBLK, stat.S_IFSOCK])
def test_a_device_is_refused_before_it_is_opened(kind, tmp_path, monkeypatch):
    """A device node is simulated: `_lstat` says so for one path, which is never opened
    (a real one would be /dev/null or /dev/zero, which a test must not touch)."""
    fake = tmp_path / "dispositivo"
    real_lstat = os.lstat

    def lstat(path, *args, **kwargs):
        st = real_lstat(path, *args, **kwargs) if Path(path) != fake else None
        if st is None:
            return os.stat_result((kind | 0o666, 1, 1, 1, 0, 0, 0, 0, 0, 0))
        return st

    opened: list = []
    real_open = os.open
    monkeypatch.setattr(files, "_lstat", lstat)
    monkeypatch.setattr(files.os, "open", lambda p, *a, **k: opened.append(p) or real_open(p, *a, **k))
    with time_guard():
        refused(read_records, fake)
        refused(study, fake, [1])
    assert Path(fake) not in map(Path, opened) and not fake.exists()
    assert list(tmp_path.iterdir()) == []


def test_a_huge_file_is_refused_unread(tmp_path):
    big = tmp_path / "grande.csv"
    with open(big, "wb") as fh:  # sparse: no disk used
        fh.truncate(files.MAX_STUDY_BYTES + 1)
    with time_guard():
        assert "demasiado grande" in str(refused(read_records, big))


def test_a_lock_or_temporary_file_planted_as_a_link_writes_nothing_through_it(tmp_path):
    victim = tmp_path / "victima.txt"
    victim.write_text("intacto", encoding="utf-8")
    out = tmp_path / "estudio.csv"
    (tmp_path / "estudio.csv.tmp").symlink_to(victim)
    study(out, [1])  # the stale temporary link is removed, never written through
    assert victim.read_text(encoding="utf-8") == "intacto"
    (tmp_path / "estudio.csv.lock").symlink_to(victim)
    refused(study, out, [2])
    assert victim.read_text(encoding="utf-8") == "intacto"
    assert [r.deal for r in read_records(out)[1]] == [1]


@pytest.mark.parametrize("make", ["thread", "process"])
def test_a_shut_down_executor_is_refused_before_any_file(make, tmp_path):
    pool = cf.ThreadPoolExecutor(1) if make == "thread" else cf.ProcessPoolExecutor(1)
    pool.shutdown()
    out = tmp_path / "estudio.csv"
    exc = refused(win_rate, "citadel", [1], max_states=5, executor=pool, progress=False, out=out)
    assert "cerrado" in str(exc) and list(tmp_path.iterdir()) == []


# ====================================================================== 4: a full disk
def test_a_full_disk_keeps_the_rows_and_says_what_to_do(tmp_path, monkeypatch):
    """ENOSPC injected into the one writer after three rows, the fourth half written."""
    out = tmp_path / "estudio.csv"
    real_write = os.write
    calls = {"n": 0}

    def write(fd, data):
        calls["n"] += 1
        if calls["n"] == 5:  # the header, three rows, then half of the fourth
            return real_write(fd, bytes(data[: len(data) // 2]))
        if calls["n"] >= 6:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(files, "_os_write", write)
    exc = refused(study, out, range(1, 9))
    text = short(exc)
    assert "no queda espacio" in text and "libera espacio" in text and "mismo archivo" in text
    assert sorted(r.deal for r in read_records(out)[1]) == [1, 2, 3]
    monkeypatch.setattr(files, "_os_write", real_write)
    seen: list[int] = []

    class Recording(InProcessExecutor):
        def submit(self, fn, /, *args, **kwargs):
            seen.append(args[1])
            return super().submit(fn, *args, **kwargs)

    study(out, range(1, 9), executor=Recording())
    assert seen == [4, 5, 6, 7, 8]
    assert sorted(r.deal for r in read_records(out)[1]) == list(range(1, 9))


def test_a_full_disk_during_the_clean_rewrite_leaves_the_old_file_whole(tmp_path, monkeypatch):
    out = tmp_path / "estudio.csv"
    study(out, [1, 2])
    before = out.read_bytes()

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files, "_os_write", full)
    assert "libera espacio" in str(refused(study, out, [3]))
    assert out.read_bytes() == before and not (tmp_path / "estudio.csv.tmp").exists()


@pytest.fixture
def tiny_disk(tmp_path):
    """A 64 KB tmpfs, where the machine allows mounting one (else the test is skipped)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("montar un tmpfs pide ser root")
    disk = tmp_path / "disco"
    disk.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                          capture_output=True, timeout=20)
    if done.returncode:
        pytest.skip("esta máquina no deja montar un tmpfs")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True, timeout=20)


def test_a_real_full_tmpfs_keeps_the_rows_and_resumes(tiny_disk):
    out = tiny_disk / "estudio.csv"
    study(out, [1, 2, 3])
    filler = tiny_disk / "relleno"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:  # fill every free byte
        while os.write(fd, b"x" * 512):
            pass
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    text = short(refused(study, out, [1, 2, 3, 4, 5]))
    assert "no queda espacio" in text and "libera espacio" in text
    assert sorted(r.deal for r in read_records(out)[1]) == [1, 2, 3]
    filler.unlink()
    study(out, [1, 2, 3, 4, 5])
    assert sorted(r.deal for r in read_records(out)[1]) == [1, 2, 3, 4, 5]


# ====================================================================== 7: endless iterables
FOLLOWED = 3_000_000  # far past every cap: an entry point that gets here is following it


def endless(items):
    """An endless iterator (as `itertools.repeat`/`count`) that, should an entry point follow it
    without end, stops with an error instead of filling the memory: a C loop such as
    ``list(itertools.repeat(x))`` cannot be interrupted, and would take the machine down."""
    for k, item in enumerate(items):
        if k >= FOLLOWED:
            raise RuntimeError("siguió un iterador sin fin")
        yield item


@pytest.mark.parametrize("deals", [lambda: itertools.repeat(5), itertools.count, lambda: itertools.cycle([1, 2])],
                         ids=["repeat", "count", "cycle"])
def test_win_rate_refuses_endless_deals(deals, tmp_path):
    with time_guard(60):
        exc = refused(win_rate, "citadel", endless(deals()), max_states=5, executor=InProcessExecutor(),
                      progress=False, out=tmp_path / "e.csv")
    assert "como mucho" in str(exc) and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("ejercicio, answer", [
    ("citadel-3", itertools.count), ("chequers-1", lambda: itertools.repeat("T1 T2")),
    ("chequers-1", lambda: itertools.repeat("7S")), ("citadel-3", lambda: itertools.cycle(["T1 B1"])),
])
def test_comprobar_refuses_endless_answers(ejercicio, answer):
    out = io.StringIO()
    with time_guard(), redirect_stdout(out):
        ej.comprobar(ejercicio, endless(answer()))
    assert "No entiendo la respuesta" in out.getvalue() and len(out.getvalue()) < MESSAGE_MAX


# ====================================================================== 3: practice positions
PRACTICE = [
    ("moving_left", {"S": ["AS", "2S"]}, {"S": 0}),
    ("moving_left", {"S": ["AS", "2S", "3S"]}, {"S": 1}),
    ("moving_left", {"S": ["AS", "2S"], "T0": ["3S", "4S"]}, {"S": 2, "T0": 1}),
    ("chequers", {"R": ["AS", "2S", "3S"]}, {"R": 0}),
    ("chequers", {"R": ["AS", "2S", "3S"]}, {"R": 1}),
    ("chequers", {"R": ["AS", "2S", "3S"], "T0": ["KH"]}, None),
]


def _same_after_saving(g: Game) -> None:
    for again in (load_game(g.to_json()), load_share(share_code(g))):
        assert again.position() == g.position()
        assert again.is_practice == g.is_practice
        assert [again.face_down(p) for p in g.pile_ids] == [g.face_down(p) for p in g.pile_ids]


@pytest.mark.parametrize("name, piles, face_down", PRACTICE, ids=lambda v: str(v)[:30])
def test_practice_positions_with_face_down_cards_survive_saving(name, piles, face_down):
    _same_after_saving(Game.from_position(name, piles, face_down))


@FAST
@given(data=st.data())
def test_practice_face_down_counts_round_trip(data):
    name = data.draw(st.sampled_from(["moving_left", "chequers", "scotch", "bakers_dozen"]))
    g0 = new_game(name, seed=1)
    pile = data.draw(st.sampled_from([p for p in g0.pile_ids if p[0] in "TRS"]))
    cards = data.draw(st.lists(st.sampled_from(CARDS[13:]), min_size=1, max_size=6, unique=True))
    fd = data.draw(st.integers(0, len(cards)))
    try:
        g = Game.from_position(name, {pile: [c.code for c in cards]}, {pile: fd})
    except ValueError:
        return  # a count the pile cannot have: refused, which is fine
    _same_after_saving(g)


# ====================================================================== 5, 10: parsers and echoes
BIG = 100_000


@pytest.mark.parametrize("make", [
    lambda n: "T3>F0" + " " * n + "x",
    lambda n: "T1 " * (n // 3),
    lambda n: "x" * n,
    lambda n: " " * n + "T1 B1",
    lambda n: "del tablero 2 a la base 1 " * (n // 26),
], ids=["spaces", "repeat", "one-token", "padding", "words"])
def test_every_parser_refuses_long_text_before_parsing(make, monkeypatch):
    """Issue 32, 5: linear work however long the text: the patterns and the tokenizer never see
    more than a move or a code can hold (recorded, not timed)."""
    seen: list[int] = []

    class Recording:
        def __init__(self, pattern):
            self.pattern = pattern

        def __getattr__(self, name):
            method = getattr(self.pattern, name)

            def call(text, *args, **kwargs):
                seen.append(len(text))
                return method(text, *args, **kwargs)

            return call

    import solitaire_nb.core.moves as moves_module

    monkeypatch.setattr(moves_module, "_MOVE_RE", Recording(moves_module._MOVE_RE))
    monkeypatch.setattr(notation, "_SPLIT", Recording(notation._SPLIT))
    text = make(BIG)
    g = new_game("citadel", seed=1)
    assert "demasiados caracteres" in short(refused(notation.parse_move, g, text), text)
    short(refused(Move.parse, text), text)
    short(refused(Card.parse, text), text)
    short(refused(load_share, "citadel/1/" + text), text)
    short(refused(load_game, '{"moves": ["' + text + '"]}'), text)
    assert isinstance(g.why_not(text), str) and len(g.why_not(text)) < MESSAGE_MAX
    for ejercicio in ("citadel-3", "chequers-1", "citadel-1"):
        ok, said = ej.verdict_of_text(ejercicio, text)
        assert not ok and len(said) < MESSAGE_MAX
    assert max(seen, default=0) <= checks.LEARNER_MOVE_MAX


def test_share_codes_and_documents_have_a_move_cap():
    code = "citadel/1/" + ",".join(["T1-T2"] * (checks.MAX_MOVES + 1))
    assert "como mucho" in str(refused(load_share, code))
    g = new_game("citadel", seed=1)
    doc = g.to_json().replace('"moves": []', '"moves": [' + ",".join(['"T0>T1"'] * (checks.MAX_MOVES + 1)) + "]")
    assert "como mucho" in str(refused(load_game, doc))


@pytest.mark.parametrize("call", [
    lambda s: notation.parse_move(new_game("citadel", seed=1), "T1 " * 60 + s),
    lambda s: notation.parse_move(new_game("citadel", seed=1), "zzzz" + s),
    lambda s: load_share("citadel/1/T1-T2," + s),
    lambda s: load_share("citadel/" + s),
    lambda s: load_share(s + "/1/"),
    lambda s: load_game(new_game("citadel", seed=1).to_json().replace('"moves": []', f'"moves": ["{s}"]')),
    lambda s: new_game(s),
    lambda s: sn.custom(s),
    lambda s: Card.parse(s),
    lambda s: Move.parse(s),
], ids=range(10))
def test_messages_echo_at_most_sixty_characters(call):
    """Issue 32, 10: a message shows the first characters of what was given, then «…»."""
    given = "Q" + "ab" * 80
    with pytest.raises(ValueError) as info:
        call(given)
    short(info.value, given)


@FAST
@given(text=st.one_of(st.text(max_size=300), st.text(min_size=300, max_size=5000),
                      st.text(alphabet="T1B2 -,>x³①１ſ", min_size=100, max_size=40_000)))
def test_every_message_a_text_can_trigger_is_short(text):
    """Issue 32, 10: whatever is typed or pasted, the answer stays under ~500 characters."""
    g = new_game("citadel", seed=1)
    calls = [
        lambda: notation.parse_move(g, text), lambda: Move.parse(text), lambda: Card.parse(text),
        lambda: load_share(text), lambda: load_share("citadel/1/" + text), lambda: load_game(text),
    ]
    for call in calls:
        try:
            call()
        except ValueError as exc:
            short(exc, text)
    assert len(g.why_not(text) or "") < MESSAGE_MAX
    for ejercicio in ("citadel-3", "chequers-1", "citadel-1"):
        assert len(ej.verdict_of_text(ejercicio, text)[1]) < MESSAGE_MAX


@FAST
@given(text=st.text(min_size=61, max_size=3000))
def test_shown_is_short_for_any_text(text):
    for raw in (True, False):
        out = checks.shown(text, raw=raw)
        assert len(out) <= checks.SHOWN + 3
    assert checks.shown("a" * 100, raw=True) == "a" * 60 + "…"


# ====================================================================== 11, 12: kinds of refusal
def _board():
    pytest.importorskip("anywidget")
    return sn.Board(new_game("citadel", seed=1))


def _set_game(board, value):
    board.game = value


WRONG_TYPES = [
    ("format_move None", lambda: notation.format_move(new_game("citadel", seed=1), None)),
    ("Board(5)", lambda: (pytest.importorskip("anywidget"), sn.Board(5))),
    ("board.game = 5", lambda: _set_game(_board(), 5)),
    ("solver_seconds huge", lambda: (pytest.importorskip("anywidget"), sn.Board(solver_seconds=10**5000))),
    ("solve_seconds huge", lambda: (pytest.importorskip("anywidget"), sn.Board(solve_seconds=10**5000))),
    ("solver_seconds nan", lambda: (pytest.importorskip("anywidget"), sn.Board(solver_seconds=float("nan")))),
    ("accepts 99", lambda: new_game("citadel", seed=1).compact().accepts(99, 5)),
    ("accepts -1", lambda: new_game("citadel", seed=1).compact().accepts(-1, 5)),
    ("accepts card 99", lambda: new_game("citadel", seed=1).compact().accepts(0, 99)),
    ("T³ B1", lambda: notation.parse_move(new_game("citadel", seed=1), "T³ B1")),
    ("T① B①", lambda: notation.parse_move(new_game("citadel", seed=1), "T① B①")),
    ("full width", lambda: notation.parse_move(new_game("citadel", seed=1), "Ｔ１ Ｂ１")),
    ("arabic digits", lambda: notation.parse_move(new_game("citadel", seed=1), "T٣ B1")),
    ("Qſ", lambda: Card.parse("Qſ")),
    ("K with dotless i", lambda: Card.parse("Kı")),
    ("wilson(1, 0)", lambda: intervals.wilson(1, 0)),
    ("mean_ci nan", lambda: sn.study.mean_ci([float("nan")])),
    ("mean_ci inf", lambda: sn.study.mean_ci([1.0, float("inf")])),
    ("version true", lambda: load_game(new_game("citadel", seed=1).to_json().replace('"version": 1', '"version": true'))),
    ("version 1.0", lambda: load_game(new_game("citadel", seed=1).to_json().replace('"version": 1', '"version": 1.0'))),
    ("flag twice", lambda: load_share("citadel;autoplay=1;autoplay=0/1/")),
    ("change twice", lambda: load_share("beleaguered_castle+columns=9+columns=10/1/")),
    ("highlight garbage", lambda: sn.render_svg(new_game("citadel", seed=1), highlight="garbage")),
]


@pytest.mark.parametrize("name, call", WRONG_TYPES, ids=[n for n, _ in WRONG_TYPES])
def test_wrong_input_is_a_spanish_value_error(name, call):
    with pytest.raises(ValueError) as info:
        call()
    assert spanish(str(info.value)), str(info.value)
    short(info.value)


def test_accepted_where_the_docs_say_so():
    assert notation.parse_move(new_game("citadel", seed=1), "T1 B1") == Move("T0", "F0")
    assert Card.parse("q♠") is Card.parse("QS")
    assert intervals.wilson(0, 0) == (0.0, 1.0)
    assert ej.verdict_of_text("citadel-3", None)[0] is False  # an answer, not an AttributeError


def test_the_board_takes_numpy_seeds_and_refuses_floats():
    board = _board()
    board.press("new", seed=np.int64(7))
    assert board.game.seed == 7 and board.kind == "ok"
    board.press("new", seed=7.0)
    assert board.game.seed == 7 and board.kind == "error"


def test_position_play_says_it_trusts_its_caller():
    from solitaire_nb.engine.position import Position

    assert "trusts its caller" in Position.play.__doc__
    assert "confía en quien lo llama" in (REPO / "docs" / "api.md").read_text(encoding="utf-8")


def test_study_functions_take_the_parameters_their_docs_name():
    """Issue 32, 11: the docs promised ``columns`` to functions that do not take it."""
    docs = (REPO / "docs" / "entradas.md").read_text(encoding="utf-8")
    for line in docs.splitlines():
        names = re.findall(r"`(\w+)`", line.split("|")[1]) if line.startswith("| `") else []
        for param in ("columns", "suits", "ranks"):
            if f"`{param}`" not in line:
                continue
            for name in names:
                fn = getattr(sn.study, name, None)
                if callable(fn):
                    assert param in inspect.signature(fn).parameters, (name, param)


# ====================================================================== 13, 14, 15: texts, caches
@pytest.mark.parametrize("suits", ["any", "same", "alt", "different"])
def test_a_composed_games_run_refusal_cites_its_own_rule(suits):
    d = sn.custom("beleaguered_castle", runs=True, suits=suits)
    g = Game.from_position(d, {"T0": ["QS", "KH"], "T1": []})
    said = g.why_not("T0", "T1", 2)
    assert texts.tableau_rule_phrase(g.rules.tableau) in said
    if suits != "alt":
        assert "colores alternos" not in said


def test_customs_cache_is_bounded():
    values = itertools.product(range(4, 21), ["down", "updown"], ["any", "same", "alt", "different"], [True, False])
    for columns, build, suits, runs in itertools.islice(values, custom.CACHE_SIZE + 40):
        sn.custom("beleaguered_castle", columns=columns, build=build, suits=suits, runs=runs)
    assert len(custom._CACHE) <= custom.CACHE_SIZE
    import gc

    gc.collect()
    assert len(custom._LIVE) <= custom.CACHE_SIZE + 50  # the dropped ones are freed
    a = sn.custom("beleaguered_castle", columns=10)
    assert sn.custom("beleaguered_castle", columns=10) is a  # a game in use keeps its identity


def test_custom_of_a_game_resumes_that_games_study(tmp_path):
    out = tmp_path / "citadel.csv"
    study(out, [1, 2])
    before = out.read_text(encoding="utf-8").split("\n", 1)[0]
    r = win_rate(sn.custom("citadel"), [1, 2, 3], max_states=5, executor=InProcessExecutor(),
                 progress=False, out=out)
    assert [x.deal for x in r.records] == [1, 2, 3]
    assert out.read_text(encoding="utf-8").split("\n", 1)[0] == before  # still Citadel's study
    study(out, [1, 2, 3])
    assert sorted(x.deal for x in read_records(out)[1]) == [1, 2, 3]
    # a game that plays otherwise is still another study
    refused(win_rate, sn.custom("citadel", takeback=False), [4], max_states=5,
            executor=InProcessExecutor(), progress=False, out=out)
