"""Git's clean filter for the lessons' notebooks, set up by binder/postBuild in that clone only.

postBuild writes the environment's ``language_info`` (its Python version) into every
``notebooks/*.ipynb``, so that JupyterLab does not mark a lesson modified as soon as it opens.
Where that Python is not the one the notebooks were built with, the files then differ from the
commit by that key alone: this filter hands git the indexed copy of such a file, so ``git status``
and ``git diff`` show nothing (postBuild refreshes the index entries of the files it rewrote: git
takes a file of another size as changed without filtering it) and a ``git pull`` can replace it.  Any other difference passes
through unchanged.

Usage (by git, from the work tree's top): ``python tools/notebook_language.py PATH < file``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path


def without_language_info(content: bytes) -> object:
    """The notebook's JSON without ``metadata.language_info`` (None when it is not JSON)."""
    try:
        nb = json.loads(content)
    except ValueError:
        return None
    if isinstance(nb, dict) and isinstance(nb.get("metadata"), dict):
        nb["metadata"].pop("language_info", None)
    return nb


def clean(content: bytes, indexed: bytes | None) -> bytes:
    """What git stores for `content`: the indexed bytes when only language_info differs."""
    if indexed is None or indexed == content:
        return content
    mine = without_language_info(content)
    if mine is not None and mine == without_language_info(indexed):
        return indexed
    return content


def indexed_copy(path: str, cwd: Path | None = None) -> bytes | None:
    """The file's bytes in the index (None for a new or conflicted file, or without git)."""
    try:
        proc = subprocess.run(["git", "cat-file", "blob", f":{path}"], cwd=cwd, capture_output=True, check=False)
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Git's clean filter for notebooks/*.ipynb: reads the "
                                     "notebook on stdin, writes what git stores on stdout.")
    parser.add_argument("path", nargs="?", help="the notebook's path in the repository (as git passes %%f)")
    args = parser.parse_args(argv)
    content = sys.stdin.buffer.read()
    sys.stdout.buffer.write(clean(content, indexed_copy(args.path)) if args.path else content)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
