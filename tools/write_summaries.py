"""Write the one-page rules summary of each game, generated from its declared rules.

    python tools/write_summaries.py           # rewrite notebooks/resumenes/<juego>.md and .html
    python tools/write_summaries.py --check   # exit 1 if a committed summary is out of date

The Markdown reads well on GitHub and in JupyterLab; the HTML page prints on one A4 sheet
(open it in a browser and print).  Both come from `solitaire_nb.lessons.rules_summary`, so a
change to a game's rules changes its summary the next time this runs (a test checks it did).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from solitaire_nb.games import GAMES
from solitaire_nb.lessons import rules_summary

OUT = Path(__file__).resolve().parents[1] / "notebooks" / "resumenes"


def page(name: str) -> str:
    """A standalone printable HTML page around the summary fragment."""
    title = f"{GAMES[name].display_name}: resumen de las reglas"
    return (
        '<!DOCTYPE html>\n<html lang="es">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n</head>\n<body>\n{rules_summary(name, 'html')}\n</body>\n</html>\n"
    )


def expected() -> dict[Path, str]:
    """Every summary file and the text it must hold."""
    out: dict[Path, str] = {}
    for name in GAMES:
        out[OUT / f"{name}.md"] = rules_summary(name, "markdown")
        out[OUT / f"{name}.html"] = page(name)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    stale = [p for p, text in expected().items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if args.check:
        for p in stale:
            print(f"desactualizado: {p}")
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for p, text in expected().items():
        p.write_text(text, encoding="utf-8")
    print(f"escritos {len(expected())} resúmenes en {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
