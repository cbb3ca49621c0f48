"""The memory the launcher announces for a class («Preparando 3 páginas…, unos 0,5 GB») is the
lesson's: a study (06-08) loads NumPy and matplotlib and its kernel takes more than twice a game
lesson's, so «Listo», which measures the kernels, must not then report far more than announced."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from solitaire_nb.classroom import console, machine

REPO = Path(__file__).resolve().parents[1]
LESSONS = sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def announced_gb(capsys, students: int, lesson: str) -> str:
    console.announce(8866, students, lesson, ["127.0.0.1"], True, lesson=lesson)
    found = re.search(r"unos (\d+,\d) GB de memoria", capsys.readouterr().out)
    assert found
    return found[1]


def listo_mb(students: int, kernel_mb: float) -> float:
    """What «Listo» adds up (server.class_memory_mb) for a pool of kernels of `kernel_mb` each."""
    pages = machine.pool_size(students)
    return machine.SERVER_BASE_MB + pages * (kernel_mb + machine.SERVER_MB_PER_PAGE)


def test_every_lesson_has_a_measured_kernel():
    assert sorted(machine.KERNEL_MB) == sorted(name[:2] for name in LESSONS)


@pytest.mark.parametrize("lesson", LESSONS)
def test_announced_memory_covers_what_listo_will_report(capsys, lesson):
    for students in (1, 3, 30):
        announced = announced_gb(capsys, students, lesson)
        listo = machine.gb(listo_mb(students, machine.KERNEL_MB[lesson[:2]]))
        assert float(announced.replace(",", ".")) >= float(listo.replace(",", ".")), (lesson, students)


def test_a_study_announces_more_than_a_game_lesson(capsys):
    assert announced_gb(capsys, 1, "06_citadel_vs_beleaguered_castle.ipynb") == "0,5"
    assert announced_gb(capsys, 1, "05_citadel_y_beleaguered_castle.ipynb") == "0,3"
    # The start-up check refuses by the lesson's figure too.
    room = machine.needed_memory_mb(30, "05_citadel_y_beleaguered_castle.ipynb") / machine.MEMORY_SHARE
    machine.check_memory(30, room, "05_citadel_y_beleaguered_castle.ipynb")
    with pytest.raises(ValueError, match=r"páginas de unos 1\d\d MB"):
        machine.check_memory(30, room, "06_citadel_vs_beleaguered_castle.ipynb")


@pytest.mark.slow
def test_the_studys_kernel_is_what_the_table_says():
    """Lesson 06 run as a student's page runs it, in a fresh kernel: its memory (PSS) is the
    table's, within a third (the table is measured, not guessed)."""
    pytest.importorskip("nbclient")
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import bench_lesson_memory
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    name = next(n for n in LESSONS if n.startswith("06"))
    measured = bench_lesson_memory.measure(REPO / "notebooks" / name)
    assert measured * 0.67 <= machine.KERNEL_MB["06"] <= measured * 1.5, measured
