"""benchmarks/compare_verdicts.py on a small sample: a record is resumable and reproducible."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("compare_verdicts", ROOT / "benchmarks" / "compare_verdicts.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_selection_covers_the_castles_the_undecided_and_a_sample():
    tool = _tool()
    chosen = tool.selection(20_000)
    keys = {(k, d) for k, _, _, d, _ in chosen}
    assert len(keys) == len(chosen)  # no deal twice
    for key in ("beleaguered_castle", "citadel"):
        assert {d for k, d in keys if k == key} == set(range(1, 201))
    assert all(cap <= 20_000 for *_, cap in chosen)
    assert tool.selection(20_000) == chosen  # the same on every run


def test_a_small_record_resumes_and_matches_itself(tmp_path):
    tool = _tool()
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert tool.run(a, 4, 2_000) == 4
    assert tool.run(a, 4, 2_000) == 4  # the next four: the first four are not solved again
    assert len(tool.read(a)) == 8
    tool.run(b, 8, 2_000)
    assert tool.diff(a, b) == []
    rows = a.read_text(encoding="utf-8").splitlines()
    key, deal, status, states, moves = rows[1].split(",")
    rows[1] = ",".join([key, deal, "won" if status != "won" else "lost", states, moves])
    a.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert len(tool.diff(a, b)) == 1


def test_progress_accepts_unknown_to_decided_and_flags_the_rest(tmp_path):
    tool = _tool()
    before, after = tmp_path / "before.csv", tmp_path / "after.csv"
    head = "key,deal,status,states,moves\n"
    before.write_text(head + "a,1,unknown,100,0\na,2,won,50,90\na,3,lost,70,0\na,4,won,10,80\na,5,lost,9,0\n",
                      encoding="utf-8")
    after.write_text(head + "a,1,lost,80,0\na,2,won,40,95\na,3,won,60,88\na,4,unknown,100,0\na,5,lost,9,0\n",
                     encoding="utf-8")
    flagged = tool.progress(before, after)
    assert [line.split(":")[0] for line in flagged] == ["a 3", "a 4"]
    assert tool.progress(before, before) == []


def test_atlas_record_holds_the_entry_verdicts(tmp_path):
    tool = _tool()
    out = tmp_path / "scotch.csv"
    n = tool.atlas_record("scotch", out)
    rows = tool.read(out)
    assert n == len(rows) == 2_000  # the entry's deals 1–2,000
    assert {s for s, _, _ in rows.values()} <= {"won", "lost", "unknown"}
    assert [d for _, _, _, d, _ in tool.entry_selection("scotch", tool.parse_deals("3-5"), 10_000)] == [3, 4, 5]
    assert tool.parse_deals("26,30,40-42") == [26, 30, 40, 41, 42]
