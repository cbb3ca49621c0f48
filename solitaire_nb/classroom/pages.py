"""The student's page of a class: which lesson notebook is served, and the copy a student sees
(without the teacher's cells, its links to files that are not served shown as plain text)."""

from __future__ import annotations

import json
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
TEMPLATES = PACKAGE / "templates"
NOTEBOOKS = PACKAGE.parent / "notebooks"
TEACHER_TAG = "docente"


def find_notebook(which: str, folder: Path = NOTEBOOKS) -> Path:
    """The lesson notebook named by `which`: a path, a file name or its number ("05")."""
    path = Path(which)
    if path.suffix == ".ipynb" and path.exists():
        return path.resolve()
    matches = sorted(p for p in folder.glob("*.ipynb") if p.name.startswith(which) and not p.name.startswith("_"))
    if len(matches) != 1:
        names = ", ".join(p.name for p in sorted(folder.glob("[0-9]*.ipynb")))
        raise ValueError(f"No encuentro un único cuaderno «{which}» en {folder}. Cuadernos: {names}")
    return matches[0].resolve()


def student_copy(notebook: Path, folder: Path) -> Path:
    """Write the student version of `notebook` into `folder`: without the cells tagged
    ``docente`` and without saved outputs (the page runs every cell)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    cells = []
    for cell in nb.get("cells", []):
        if TEACHER_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.get("cell_type") == "code":
            cell = {**cell, "outputs": [], "execution_count": None}
        elif cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            text = "".join(source) if isinstance(source, list) else source
            cell = {**cell, "source": unlink_files(text, notebook.name)}
        cells.append(cell)
    target = folder / notebook.name
    target.write_text(json.dumps({**nb, "cells": cells}, indent=1, ensure_ascii=False), encoding="utf-8")
    return target
_MD_LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^)]*[\"'])?\s*\)")
_HTML_LINK = re.compile(r"<a\b[^>]*\bhref\s*=\s*[\"']([^\"']*)[\"'][^>]*>(.*?)</a>", re.I | re.S)


def _served(target: str) -> bool:
    """Whether a link target opens something on a student page: a place in the page itself or
    another site.  Every other file (the other lessons, the guide) is not served."""
    return target.startswith("#") or re.match(r"[a-z][a-z0-9+.-]*:", target, re.I) is not None


def unlink_files(markdown: str, page: str) -> str:
    """`markdown` with its links to files the launcher does not serve turned into plain text
    (the page serves one lesson: a link to another would open an error).  A link to a place in
    `page` itself keeps only its ``#place``."""

    def fix(target: str, text: str, rebuild) -> str:
        name, _, place = target.partition("#")
        if name == page and place:
            return rebuild(f"#{place}")
        return rebuild(target) if _served(target) else text

    markdown = _MD_LINK.sub(lambda m: fix(m[2], m[1], lambda t: f"[{m[1]}]({t})"), markdown)
    return _HTML_LINK.sub(lambda m: fix(m[1], m[2], lambda t: m[0].replace(m[1], t, 1)), markdown)
