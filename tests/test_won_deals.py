"""The shipped index of decided deals (data/won_deals.json) and «una partida con solución»."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from solitaire_nb.atlas import won_deals as w

REPO = Path(__file__).resolve().parents[1]


def test_index_agrees_with_the_atlas_records() -> None:
    done = subprocess.run([sys.executable, "tools/won_deals.py", "--check"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_stored_verdicts_match_the_records() -> None:
    assert w.stored_verdict("citadel", 1234) == "won"
    assert w.stored_verdict("scotch", 1234) == "lost"
    assert w.stored_verdict("citadel", 2026) is None  # outside the atlas's deals 1…2000
    assert w.stored_verdict("beleaguered_castle", 2026, takeback=False) == "lost"


def test_nearest_won_is_a_stored_win() -> None:
    near = w.nearest_won("scotch", 1234)
    assert near is not None and w.stored_verdict("scotch", near) == "won" and near != 1234


def test_a_winnable_deal_is_proved_won() -> None:
    from solitaire_nb.solver import solve

    g = w.winnable_game("citadel", rng=1)
    assert w.stored_verdict("citadel", g.seed) == "won"
    composed = w.winnable_game("citadel+columns=11", rng=3)
    assert solve(composed.copy(), max_states=w.ATTEMPT_STATES).status == "won"


def test_none_found_says_so_in_spanish(monkeypatch: pytest.MonkeyPatch) -> None:
    import solitaire_nb.solver as solver

    monkeypatch.setattr(solver, "solve", lambda g, **k: solver.SolveResult("unknown", [], 1, 0.0))
    with pytest.raises(w.NoWinnableDeal, match="No se ha encontrado ninguna partida con solución"):
        w.winnable_game("citadel+columns=11", attempts=2, rng=1)
