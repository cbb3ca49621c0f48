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
    with pytest.raises(pytest.skip.Exception, match="npm install --prefix build/axe axe-core@4"):
        browser_helpers.require_axe()


def test_missing_axe_core_fails_in_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(browser_helpers, "AXE", tmp_path / "axe.min.js")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="obligatoria"):
        browser_helpers.require_axe()
