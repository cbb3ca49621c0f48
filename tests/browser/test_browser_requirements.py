"""Without Chromium the browser tests skip with a reason, except in CI, where they fail."""

from __future__ import annotations

import pytest

pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks

import browser_helpers  # noqa: E402


def test_missing_chromium_skips_outside_ci(monkeypatch):
    monkeypatch.setattr(browser_helpers, "CHROMIUM", "/no/such/chromium")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium"):
        browser_helpers.require_chromium()


def test_missing_chromium_fails_in_ci(monkeypatch):
    monkeypatch.setattr(browser_helpers, "CHROMIUM", "/no/such/chromium")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="obligatorias"):
        browser_helpers.require_chromium()


def test_missing_axe_core_skips_outside_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(browser_helpers, "AXE", tmp_path / "axe.min.js")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"pip install -e \"\.\[test\]\""):
        browser_helpers.require_axe()


def test_missing_axe_core_fails_in_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(browser_helpers, "AXE", tmp_path / "axe.min.js")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="obligatoria"):
        browser_helpers.require_axe()


def test_axe_core_comes_with_the_test_extra():
    """The README's test command installs axe-core (a pinned Python package that carries its
    script), so the audit runs for anyone who runs it: nothing to fetch by hand."""
    import importlib.metadata
    import re

    tomllib = pytest.importorskip("tomllib")  # Python ≥ 3.11
    from browser_helpers import REPO

    test_extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert "axe-playwright-python==0.1.8" in test_extra
    assert browser_helpers.AXE.name == "axe.min.js" and browser_helpers.AXE.exists()
    assert re.match(r"/\*! axe v4\.", browser_helpers.AXE.read_text()[:20])
    assert importlib.metadata.version("axe-playwright-python") == "0.1.8"
