"""Solvitaire as a peer in `benchmarks/bench_solver.py` (`benchmarks/solvitaire.py`), without its
binary: the deal files it was given and what it printed are stored in tests/solvitaire_samples/.

Recorded with a Release build of its public source (commit 2815238), e.g.
``solvitaire --type beleaguered-castle --streamliners none won.json > won.out``; ``lost.out`` the
same on lost.json, ``timeout.out`` with ``--timeout 0`` on deal1.json, ``deal1_both.out.gz`` with
``--streamliners both`` on deal1.json (deal 1 of Beleaguered Castle without take-backs).  A deal
file it refuses leaves its standard output empty (the error goes to standard error).
"""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

import solitaire_nb as sn
from solitaire_nb.core.moves import Move

REPO = Path(__file__).resolve().parents[1]
SAMPLES = Path(__file__).resolve().parent / "solvitaire_samples"
sys.path.insert(0, str(REPO / "benchmarks"))
try:
    import solvitaire as sv
finally:
    sys.path.remove(str(REPO / "benchmarks"))

R = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


def _run(suit: str, first: str, last: str) -> list[str]:
    return [r + suit for r in R[R.index(first):R.index(last) + 1]]


def _position(found: list[list[str]], tabs: list[list[str]]) -> sn.Game:
    piles = {f"T{i}": tabs[i] if i < len(tabs) else [] for i in range(8)}
    piles.update({f"F{i}": f for i, f in enumerate(found)})
    return sn.Game.from_position("beleaguered_castle", piles, takeback=False)


def won_position() -> sn.Game:
    """Four clubs and the K♦ left; the K♦ covers the 10♣ and must go to an empty pile."""
    return _position([_run("S", "A", "K"), _run("H", "A", "K"), _run("D", "A", "J"), _run("C", "A", "9")],
                     [["TC", "KD"], ["QD", "JC"], ["KC", "QC"]])


def lost_position() -> sn.Game:
    """No empty pile and no move at all: tops K, K, J, J, 9, 9, 7, 7, the 2s buried."""
    return _position([_run("S", "A", "K"), _run("H", "A", "K"), ["AD"], ["AC"]],
                     [["2C", "3C", "KC"], ["4C", "5C", "KD"], ["6C", "8C", "JC"], ["TC", "QC", "JD"],
                      ["2D", "3D", "9C"], ["4D", "5D", "9D"], ["6D", "8D", "7C"], ["TD", "QD", "7D"]])


def deal1() -> sn.Game:
    return sn.new_game("beleaguered_castle", seed=1, takeback=False)


def sample(name: str) -> str:
    path = SAMPLES / name
    return gzip.decompress(path.read_bytes()).decode() if name.endswith(".gz") else path.read_text()


@pytest.mark.parametrize("make, name", [(won_position, "won"), (lost_position, "lost"), (deal1, "deal1")])
def test_deal_files_are_the_ones_solvitaire_read(make, name):
    assert sv.deal_json(make()) + "\n" == sample(f"{name}.json")


@pytest.mark.parametrize("make, out", [(won_position, "won.out"), (deal1, "deal1_both.out.gz"),
                                       (lost_position, "lost.out"), (deal1, "timeout.out")])
def test_solvitaire_read_our_position_card_for_card(make, out):
    """The first position it printed is ours: pile by pile, bottom card first, tens as "10"."""
    assert sv.deal_read(sample(out)) == sv.state_of(make())
    assert sv.deal_read(sample(out)) != sv.state_of(won_position() if make is deal1 else deal1())
    assert sv.deal_read("") is None


def test_verdicts_and_states_from_its_output():
    assert sv.verdict(sample("won.out")) == ("won", 7)
    assert sv.verdict(sample("lost.out")) == ("lost", 1)
    assert sv.verdict(sample("timeout.out")) == ("unknown", 0)
    assert sv.verdict(sample("deal1_both.out.gz")) == ("won", 969)
    with pytest.raises(ValueError, match="Solvitaire no dio veredicto"):
        sv.verdict("")  # a deal file it refused


def test_only_a_solved_run_has_a_line():
    assert sv.states(sample("lost.out")) == [] and sv.states(sample("timeout.out")) == []
    line = sv.states(sample("won.out"))
    assert len(line) == 8 and line[-1] == sv.State(frozenset({"KC", "KH", "KS", "KD"}), ((),) * 8)
    assert line[1].piles[7] == ("KD",) and line[1].piles[0] == ("TC",)


def test_a_printed_line_replays_through_the_engine():
    moves = sv.replay(won_position(), sv.states(sample("won.out")))
    assert moves is not None and len(moves) == 7
    assert moves[0] == Move("T0", "T7", 1) and moves[1].src == "T0" and moves[1].dst.startswith("F")
    long_line = sv.replay(deal1(), sv.states(sample("deal1_both.out.gz")))
    assert long_line is not None and len(long_line) == 199


def test_a_line_that_is_not_a_game_is_refused():
    line = sv.states(sample("won.out"))
    g = won_position()
    assert sv.replay(g, line[:-1]) is None  # not won at the end
    assert sv.replay(g, line[:2] + line[3:]) is None  # two cards moved in one step
    assert sv.replay(g, line[:2] + line[1:]) is None  # a step with no card moved
    assert sv.replay(deal1(), line) is None  # another game's position first
    bad = line[1]._replace(piles=(("KD",),) + line[1].piles[1:7] + (("TC",),))
    assert sv.replay(g, [line[0], bad] + line[2:]) is None  # the position after the move differs
    assert g.moves_played == 0  # `replay` plays on a copy


def test_games_it_does_not_play_are_refused():
    assert sv.plays(deal1()) and sv.plays(sn.new_game("citadel", seed=1, takeback=False, autoplay=False))
    for g in (sn.new_game("beleaguered_castle", seed=1), sn.new_game("bakers_dozen", seed=1)):
        assert not sv.plays(g)
        with pytest.raises(ValueError, match="Solvitaire no juega"):
            sv.deal_json(g)


@pytest.fixture
def fake(tmp_path):
    """A stand-in binary: `lost.out` for ``--streamliners both``, `won.out` otherwise, and a busy
    loop on deal 1 (its first pile starts with the 7♥), to be stopped by the CPU cap."""
    exe = tmp_path / "solvitaire"
    exe.write_text(f"""#!/bin/sh
if [ "$4" = both ]; then cat {SAMPLES / 'lost.out'}; exit 0; fi
if grep -q '^{{"tableau piles": \\[\\["7H"' "$5"; then while :; do :; done; fi
cat {SAMPLES / 'won.out'}
""")
    exe.chmod(0o755)
    return str(exe)


def test_runs_are_capped_in_cpu_time_and_smart_mode_runs_twice(fake):
    won = sv.deal_json(won_position())
    out, cpu = sv.run(fake, won, "none", 2.0, 1.0)
    assert sv.verdict(out)[0] == "won" and cpu < 1.0
    out, cpu = sv.run(fake, sv.deal_json(deal1()), "none", 0.3, 1.0)  # the busy loop
    assert out == "" and 0.25 <= cpu < 1.5
    out, cpu, states = sv.run_smart(fake, won, 2.0, 1.0, 0.0)
    assert sv.verdict(out)[0] == "won" and states == 1 + 7  # the streamliners' «lost» is not read


def _printed(state: sv.State) -> str:
    """`state` as Solvitaire prints a position (see lost.out)."""
    rows = [["" if len(p) <= i else p[i].replace("T", "10") for p in state.piles]
            for i in range(max(1, *map(len, state.piles)))]
    rows[0] = [c or "[]" for c in rows[0]]
    tab = "\n".join("\t".join(r).rstrip("\t") for r in rows)
    tops = "\t".join(sorted(c.replace("T", "10") for c in state.tops))
    return f"--- Foundations ---------\n{tops}\n--- Tableau Piles -------\n{tab}\n{sv.RULE}\n"


def test_printed_positions_read_back():
    for g in (deal1(), won_position(), lost_position()):
        assert sv.deal_read("Deal:\n" + _printed(sv.state_of(g)) + "Solution Type: timed-out\n") == sv.state_of(g)
    assert _printed(sv.state_of(lost_position())) in sample("lost.out").replace("AC\tKH\tKS\tAD", "AC\tAD\tKH\tKS")


def test_bench_solver_rows_or_the_published_figures(tmp_path, fake):
    script = REPO / "benchmarks" / "bench_solver.py"
    cmd = [sys.executable, str(script), "--deals", "1", "--start", "2", "--limit", "1", "--games", "beleaguered_castle"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120).stdout
    assert "Solvitaire: not run" in out and "68.17 %" in out
    # a stand-in that finds deal 2 (lost, for ours too) «unsolvable»
    deal2 = sv.state_of(sn.new_game("beleaguered_castle", seed=2, takeback=False))
    (tmp_path / "deal2.out").write_text("Deal:\n" + _printed(deal2) + sample("lost.out").split(sv.RULE + "\n")[1])
    exe = tmp_path / "deal2"
    exe.write_text(f"#!/bin/sh\ncat {tmp_path / 'deal2.out'}\n")
    exe.chmod(0o755)
    out = subprocess.run(cmd + ["--solvitaire", str(exe)], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    rows = {line[:22].strip(): line[22:].split() for line in out.splitlines() if line.startswith("Solvitaire")}
    assert rows.keys() == {"Solvitaire", "Solvitaire smart"} and "not run" not in out
    assert all(r[:5] == ["1/1", "0", "1", "0", "1"] and r[-1] == "0" for r in rows.values()), rows
    # one that prints another position's line is stopped, not counted
    run = subprocess.run(cmd + ["--solvitaire", fake], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "read another position than deal 2's" in run.stderr
