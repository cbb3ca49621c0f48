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
