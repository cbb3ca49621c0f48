"""The README is a short front door, and every link in it and in docs/ leads somewhere."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_readme_is_a_short_front_door():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text) <= 6000, len(text)
    for doc in ("docs/api.md", "docs/reglas.md", "docs/solver.md", "docs/atlas.md",
                "docs/jupyterlite.md", "docs/desarrollo.md", "docs/entradas.md",
                "notebooks/guia_docente.md"):
        assert f"({doc})" in text, doc


def test_relative_links_lead_to_files():
    broken = []
    for doc in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        for target in LINK.findall(doc.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            if not (doc.parent / target).exists():
                broken.append(f"{doc.relative_to(REPO)} -> {target}")
    assert not broken, broken


PROGRAMS = ("pip", "pip3", "python", "python3", "jupyter", "voila")


def test_commands_a_reader_copies_run_in_the_readme_venv():
    """On Debian the system's pip refuses to install and there is no `python`: every command the
    README and the teacher's guide give calls the programs of the README's .venv, except the
    `python3 -m venv .venv` that makes it."""
    bare = []
    for doc in (REPO / "README.md", REPO / "notebooks" / "guia_docente.md"):
        text = doc.read_text(encoding="utf-8")
        blocks = re.findall(r"```(?:bash)?\n(.*?)```", text, re.S)
        indented = re.findall(r"(?:^|\n\n)((?:(?: {4}|\t)\S.*\n?)+)", text)
        lines = [line.strip() for block in blocks + indented for line in block.splitlines()]
        spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
        for command in lines + spans:
            for part in re.split(r"&&|;|\|", command):
                words = part.split()
                if len(words) > 1 and words[0] in PROGRAMS and words[:4] != ["python3", "-m", "venv", ".venv"]:
                    bare.append(f"{doc.name}: {command}")
    assert not bare, bare


def test_docs_agree_on_which_notebooks_work_offline():
    """JupyterLite and the static app run every lesson, 00 to 08, offline (tests/test_lite.py runs
    03 and 07 there with the network cut, ``SNB_LITE_ALL=1`` each one): every page that says which
    notebooks work without a connection names them all, and none says 06–08 need one."""
    docs = [REPO / "README.md", REPO / "notebooks" / "guia_docente.md", REPO / "notebooks" / "00_indice.md",
            REPO / "docs" / "jupyterlite.md", REPO / "lite" / "README.md"]  # fmt: skip
    claims = []
    for doc in docs:
        for sentence in re.split(r"(?<=[.:;|])\s", doc.read_text(encoding="utf-8")):
            if re.search(r"sin (?:conexión|red)|necesitan (?:internet|red|conexión)", sentence):
                claims += [(str(doc.relative_to(REPO)), *ends)
                           for ends in re.findall(r"\b(\d\d)\*{0,2} ?(?:a|–) ?\*{0,2}(\d\d)\b", sentence)]
            assert not re.search(r"necesitan (?:internet|red|conexión)", sentence), (doc.name, sentence)
    assert len({name for name, *_ in claims}) == len(docs), claims
    assert all(ends == ["00", "08"] for _, *ends in claims), claims
