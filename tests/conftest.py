"""Shared fixtures: where RULES.md lives, and every (game, variant) combination to test."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import solitaire_nb as sn

REPO = Path(__file__).resolve().parents[1]
RULES_MD = REPO.parent / "shared" / "RULES.md"


def variant_combinations() -> list[tuple[str, dict[str, bool]]]:
    """Every game with every combination of its variant flags."""
    out = []
    for name, definition in sn.GAMES.items():
        flags = list(definition.variants)
        for values in itertools.product([False, True], repeat=len(flags)):
            out.append((name, dict(zip(flags, values, strict=False))))
    return out


VARIANTS = variant_combinations()
VARIANT_IDS = [name + "".join(f"-{k}={int(v)}" for k, v in flags.items()) for name, flags in VARIANTS]


@pytest.fixture
def rules_md() -> str:
    if not RULES_MD.exists():
        pytest.skip(f"{RULES_MD} not found (it sits beside the repository in CI)")
    return RULES_MD.read_text(encoding="utf-8")


def pos(name: str, piles: dict[str, str], face_down: dict[str, int] | None = None, **variant):
    """A teaching position from space-separated card codes per pile (validate=False)."""
    return sn.Game.from_position(
        name, {p: cards.split() for p, cards in piles.items()}, face_down, validate=False, **variant
    )


def codes(cards) -> list[str]:
    return [c.code for c in cards]
