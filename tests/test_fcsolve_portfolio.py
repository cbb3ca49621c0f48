"""`solve(..., fc_solve=True)`: fc-solve joins our search where it is installed and plays the
game's rules; its line counts only once replayed to a win through the engine, and its "could
not solve" is never a loss.  The real fc-solve is skipped where absent (a failure in CI); the
fake ones are shell scripts put first on ``PATH``."""

from __future__ import annotations

import os
import shutil
import stat

import pytest

import solitaire_nb as sn
from solitaire_nb.solver import fcsolve, solve, verdict_text

# our search leaves deal 21 undecided within 300 states; fc-solve wins it within 300 of its own
DEAL, CAP = 21, 300


def _real_fc_solve() -> None:
    if fcsolve.find() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("fc-solve is missing in CI (apt-get install freecell-solver-bin)")
        pytest.skip("fc-solve not installed (apt-get install freecell-solver-bin)")


def _castle(seed: int = DEAL) -> sn.Game:
    return sn.new_game("beleaguered_castle", seed=seed, takeback=False)


def _fake(tmp_path, monkeypatch, output: str) -> None:
    """An `fc-solve` first on PATH that prints `output` whatever it is asked."""
    (tmp_path / "out.txt").write_text(output)
    exe = tmp_path / "fc-solve"
    exe.write_text(f"#!/bin/sh\ncat > /dev/null\ncat '{tmp_path / 'out.txt'}'\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    assert shutil.which("fc-solve") == str(exe)


def _won_line(game: sn.Game, moves) -> bool:
    g = game.copy()
    for m in moves:
        g.move(m)
    return g.is_won()


def test_fc_solve_wins_what_our_search_leaves_undecided():
    _real_fc_solve()
    g = _castle()
    before = g.to_json()
    assert solve(g, max_states=CAP).status == "unknown"
    r = solve(g, max_states=CAP, fc_solve=True)
    assert (r.status, r.found_by) == ("won", "fc-solve")
    assert all(m.n_cards == 1 for m in r.moves) and _won_line(g, r.moves)
    assert r.states > CAP  # ours, then fc-solve's own
    assert g.to_json() == before
    assert "resuelta con fc-solve" in verdict_text(r, g)


def test_runs_of_cards_are_replayed_one_card_at_a_time():
    _real_fc_solve()
    g = _castle()
    text, _, _ = fcsolve.run(fcsolve.find() or "", fcsolve.fc_solve_board(g), 10_000, 5, 30)
    assert "Move 2 cards" in text  # fc-solve carries a run through a hole in one step
    moves = fcsolve.replay(g, text)
    assert moves is not None and _won_line(g, moves)
    assert len(moves) > text.count("Move ")


def test_our_own_verdicts_come_first():
    _real_fc_solve()
    for seed in (1, 2):
        ours = solve(_castle(seed), max_states=20_000)
        both = solve(_castle(seed), max_states=20_000, fc_solve=True)
        assert ours.status != "unknown"
        assert (both.status, both.moves, both.found_by) == (ours.status, ours.moves, None)


@pytest.mark.parametrize(
    "output",
    [
        # an illegal first move: stack 0's top, the 7♦, does not go home
        "Move a card from stack 0 to the foundations\n\nThis game is solveable.\n",
        # a legal move (the 2♣ home) that does not win
        "Move a card from stack 1 to the foundations\n\nThis game is solveable.\n",
        # a run of five cards, and no hole to carry it
        "Move 5 cards from stack 3 to stack 1\n\nThis game is solveable.\n",
        # a pile that is not there
        "Move 1 cards from stack 9 to stack 1\n\nThis game is solveable.\n",
        # a claim of no solution, which only our complete search may make
        "I could not solve this game.\nTotal number of states checked is 100.\n",
        "",
    ],
)
def test_a_fake_fc_solve_is_not_trusted(tmp_path, monkeypatch, output):
    _fake(tmp_path, monkeypatch, output)
    g = _castle()
    r = solve(g, max_states=CAP, fc_solve=True)
    assert (r.status, r.moves, r.found_by) == ("unknown", [], None)


def test_games_fc_solve_does_not_play_are_left_to_our_search(tmp_path, monkeypatch):
    # a fake that would claim a win for anything: never asked where the rules differ
    _fake(tmp_path, monkeypatch, "Move a card from stack 0 to the foundations\nThis game is solveable.\n")
    for g in (sn.new_game("citadel", seed=3), sn.new_game("bakers_dozen", seed=3)):
        assert not fcsolve.fits(g)
        r = solve(g, max_states=50, fc_solve=True)
        assert r.found_by is None and r == solve(g, max_states=50)._replace(seconds=r.seconds, cpu_seconds=r.cpu_seconds)
    assert fcsolve.fits(sn.new_game("citadel", seed=3, autoplay=False))


def test_fc_solve_must_be_a_switch():
    with pytest.raises(ValueError, match="fc_solve tiene que ser True o False, no 'sí'"):
        solve(_castle(), max_states=10, fc_solve="sí")  # type: ignore[arg-type]
