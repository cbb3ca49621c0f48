"""Shared fixtures: the project's rules document (docs/reglas.md), every (game, variant)
combination to test, the browser, and what keeps tests apart when pytest-xdist runs them in
several processes (the README's test command: ``-n auto --dist loadgroup``; see tests/parallel.py
and docs/desarrollo.md, «Pruebas en paralelo»)."""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

import pytest

import solitaire_nb as sn

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))
RULES_MD = REPO / "docs" / "reglas.md"
# No shared verdict cache in tests (a verdict stored by one test would answer the next one's
# board); tests/test_verdict_cache.py opens its own files.
os.environ["SNB_VERDICT_CACHE"] = "off"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from parallel import free_port, group_for_xdist, once_per_run, run_dir, run_lock  # noqa: E402  (tests/parallel.py)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    group_for_xdist(config, items)


@pytest.fixture
def port() -> int:
    """A free TCP port on 127.0.0.1 for a server the test starts (never a fixed one: the
    xdist workers run at the same time)."""
    return free_port()


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every xdist worker of this run shares (for what is built once per run)."""
    return run_dir(tmp_path_factory)


@pytest.fixture(scope="session")
def build_once(tmp_path_factory: pytest.TempPathFactory):
    """`build_once(name, make)` runs `make(folder)` once per run, whichever worker asks first,
    and returns (folder, what make returned); see `parallel.once_per_run`."""
    return lambda name, make, timeout=1800: once_per_run(tmp_path_factory, name, make, timeout)


@pytest.fixture(scope="session")
def run_wide_lock(tmp_path_factory: pytest.TempPathFactory):
    """`with run_wide_lock("lite-cache"): …` holds a lock across the run's workers."""
    return lambda name, timeout=1800: run_lock(tmp_path_factory, name, timeout)


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
    return RULES_MD.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def playwright_session():
    """The one Playwright instance of the test session: its sync API allows one per thread, so
    every browser test (board, notebooks, JupyterLite) shares it."""
    pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
    pytest.importorskip("playwright")  # the test extra: drives Chromium
    from browser_helpers import require_chromium

    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium(playwright_session):
    """A headless Debian Chromium for the whole session (one launch, many pages)."""
    from browser_helpers import launch_chromium

    browser = launch_chromium(playwright_session)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def page(chromium):
    # has_touch: the same page can be clicked and tapped (tablets play by taps).
    context = chromium.new_context(viewport={"width": 1280, "height": 1000}, locale="es-ES", has_touch=True)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def pos(name: str, piles: dict[str, str], face_down: dict[str, int] | None = None, **variant):
    """A teaching position from space-separated card codes per pile (a practice position when it lacks cards)."""
    return sn.Game.from_position(
        name, {p: cards.split() for p, cards in piles.items()}, face_down, **variant
    )


def codes(cards) -> list[str]:
    return [c.code for c in cards]


# Hypothesis: a small profile by default (the README's test command stays quick) and a long
# hunt on demand: SOLITAIRE_HYPOTHESIS=hunt python -m pytest tests/test_fuzz*.py
try:
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover - the test extra brings it
    pass
else:
    _QUIET = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
    settings.register_profile("small", max_examples=60, **_QUIET)
    settings.register_profile("hunt", max_examples=2000, **_QUIET)
    settings.load_profile(os.environ.get("SOLITAIRE_HYPOTHESIS", "small"))
