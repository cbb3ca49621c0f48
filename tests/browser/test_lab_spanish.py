"""JupyterLab in Spanish, as a teacher sees it: the environment the README's first command
builds with the system's Python (tests/readme_command.py, shared with tests/test_install.py),
JupyterLab started the README's way (the same settings Binder's postBuild writes), and
Chromium reading the menu bar and the index notebook's tab."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("nbformat")  # the test extra: browser_helpers reads notebooks
pytest.importorskip("playwright")  # the test extra: drives Chromium

from browser_helpers import BOARD_TIMEOUT_MS, screenshot  # noqa: E402
from playwright.sync_api import expect  # noqa: E402
from readme_command import REPO, SAME_VENV, lab_server, opened_path, readme_install  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow, SAME_VENV]

TOKEN = "lab-spanish"
# The menus the language pack translates (jupyterlab-language-pack-es-ES 4.5 has no "menu"
# context entries for Run, Kernel and Tabs, so those stay in English, as the README says; an
# overlay of the missing strings cannot be added the way JupyterLab merges translations, as the
# pack's version field, "jupyterlab", is no version and the merge raises on it).
MENUS = ["Archivo", "Editar", "Ver", "Configuración", "Ayuda"]
# What the README says stays English and this test sees on the page: the kernel's status and the
# notebook's mode in the status bar, and a command of the Run menu.
SEEN_ENGLISH = ["Idle", "Modo: Command", "Run Selected Cell"]


def readme_english() -> tuple[set[str], set[str]]:
    """What the README says stays in English (the sentence «… siguen en inglés …»): the menus
    (in bold) and the other names (in «»)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    sentence = re.search(r"[^.]*siguen en inglés[^.]*", text, re.I)
    assert sentence, "README.md no dice qué queda en inglés en JupyterLab"
    said = re.sub(r"\s+", " ", sentence.group(0))
    return set(re.findall(r"\*\*([^*]+)\*\*", said)), set(re.findall(r"«([^»]+)»", said))


def test_readme_names_what_this_test_sees_in_english():
    _menus, names = readme_english()
    assert set(SEEN_ENGLISH) <= names, names


def test_jupyterlab_menus_in_spanish(page, tmp_path_factory):
    done = readme_install(tmp_path_factory)
    with lab_server(done, TOKEN) as base:
        page.goto(f"{base}/lab/tree/{opened_path()}?token={TOKEN}&reset")
        menubar = page.locator("#jp-menu-panel .lm-MenuBar-content")
        menubar.get_by_text("Archivo", exact=True).wait_for(timeout=BOARD_TIMEOUT_MS)
        items = [t.strip() for t in menubar.locator(".lm-MenuBar-itemLabel").all_inner_texts()]
        assert set(MENUS) <= set(items), items
        assert not {"File", "Edit", "View", "Settings", "Help"} & set(items), items
        assert set(items) - set(MENUS) == readme_english()[0], items  # what the README promises
        # The index opens (in Spanish, its own text), and no pop-up asks anything in English.
        expect(page.locator(".jp-Notebook").first).to_contain_text("Tablero", timeout=BOARD_TIMEOUT_MS)
        expect(page.get_by_text("Would you like")).to_have_count(0)
        # A menu opened by a click lists its commands in Spanish too.
        menubar.get_by_text("Archivo", exact=True).click()
        expect(page.locator(".lm-Menu").first).to_contain_text("Guardar")
        page.keyboard.press("Escape")
        # The rest of what the README says stays English is really there (so the list is exact).
        status = page.locator("#jp-main-statusbar")
        expect(status).to_contain_text("Idle", timeout=BOARD_TIMEOUT_MS)
        page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
        page.keyboard.press("Escape")  # command mode
        expect(status).to_contain_text("Modo: Command")
        menubar.get_by_text("Run", exact=True).click()
        expect(page.locator(".lm-Menu").first).to_contain_text("Run Selected Cell")
        page.keyboard.press("Escape")
        screenshot(page, "jupyterlab-spanish.png")
