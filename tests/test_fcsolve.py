"""Cross-check with an independent solver: Debian's fc-solve (freecell-solver-bin).

For 100 Beleaguered Castle deals and 100 Citadel deals, both with ``takeback=False`` and
``autoplay=False`` (fc-solve knows neither; Citadel's board goes to it after our deal-time
plays), our verdict under a fixed ``max_states`` and fc-solve's in proof mode (``-to 0AB``:
single-card moves only, so "I could not solve this game." after a finished search is a proof;
``-sel`` says "Iterations count exceeded." when its ``-mi`` cap stopped it) must be identical on
every deal both decide.  Runtime: about 75 s of CPU (1.5–2 minutes wall on the shared 2-core
machine): ``python -m pytest tests/test_fcsolve.py``.
Skipped when fc-solve is absent, except in CI (CI=true), where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

import solitaire_nb as sn
from solitaire_nb.solver import solve
from solitaire_nb.solver.fcsolve import fc_solve_board

OUR_CAP = 4000
FC_CAP = 400_000
DEALS = range(1, 101)


def _fc_solve() -> str:
    exe = shutil.which("fc-solve") or ("/usr/games/fc-solve" if os.path.exists("/usr/games/fc-solve") else None)
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("fc-solve is missing in CI (apt-get install freecell-solver-bin)")
        pytest.skip("fc-solve not installed (apt-get install freecell-solver-bin)")
    return exe




def fc_verdict(exe: str, game: sn.Game, *args: str) -> str:
    out = subprocess.run(
        [exe, "-g", "beleaguered_castle", *args, "-"],
        input=fc_solve_board(game),
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    if "This game is solveable." in out:
        return "won"
    if "Iterations count exceeded." in out:
        return "unknown"
    if "I could not solve this game." in out:
        return "lost"
    raise AssertionError(f"unexpected fc-solve output: {out[-300:]!r}")


def test_board_format():
    g = sn.new_game("citadel", seed=1, takeback=False, autoplay=False)
    text = fc_solve_board(g)
    assert text.startswith("Foundations: H-")
    assert len(text.splitlines()) == 9
    assert "10" not in text


@pytest.mark.parametrize("name", ["beleaguered_castle", "citadel"])
def test_same_verdicts_as_fc_solve(name):
    exe = _fc_solve()
    both = {"won": 0, "lost": 0}
    for seed in DEALS:
        g = sn.new_game(name, seed=seed, takeback=False, autoplay=False)
        ours = solve(g, max_states=OUR_CAP).status
        theirs = fc_verdict(exe, g, "-to", "0AB", "-sel", "-mi", str(FC_CAP))
        if ours != "unknown" and theirs != "unknown":
            assert ours == theirs, f"{name} deal {seed}: ours {ours}, fc-solve {theirs}"
            both[ours] += 1
    print(f"{name}: both decided {both['won']} won, {both['lost']} lost (of {len(DEALS)})")
    # the check must not be vacuous: both verdicts appear among the deals both decide
    assert both["won"] >= 10 and both["lost"] >= 5, both
