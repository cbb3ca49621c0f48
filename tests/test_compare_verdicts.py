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
