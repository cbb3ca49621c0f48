"""What the rules lab (`board/lab.py`) computes, without any widget: the games it shows and
their controls' labels (the words are `games.custom_texts`'), the paired deal statistics as
HTML and the compact plot as PNG bytes.  The «¿Cuántas se pueden ganar?» sample is
`lab_sample`'s; its names are re-exported here, so that the lab and notebook 08 import one
module.

Kept apart from the widget so that tests and benchmarks drive the same code the lab runs.
"""

from __future__ import annotations

import dataclasses
import html
import io
import re
from typing import Any

from ..core.rules import GameDef
from ..engine import Game
from ..games import custom_texts as words
from ..games.custom_texts import CHOICE_LABELS, LABELS
from ..study import HAVE_MATPLOTLIB
from .lab_sample import (
    COUNT_HEADS,
    MAX_STATES,
    SAMPLE,
    SAMPLES_FILE,
    WORKERS,
    WORKERS_ENV,
    Sample,
    cached_sample,
    counts_table,
    interval_words,
    paired_counts,
    paired_text,
    rate_text,
    rate_words,
    solve_one,
    solve_sample,
    stored_sample,
    stored_samples,
    stream_samples,
)

__all__ = [
    "CHOICE_LABELS",
    "COUNT_HEADS",
    "GROUPS",
    "LABELS",
    "MAX_STATES",
    "NOTHING_CHANGED",
    "SAMPLE",
    "SAMPLES_FILE",
    "STATS_DEALS",
    "STATS_SEED",
    "WORKERS",
    "WORKERS_ENV",
    "YOURS",
    "Sample",
    "cached_sample",
    "columns_label",
    "comparison",
    "counts_table",
    "interval_words",
    "markdown_html",
    "new_game",
    "paired_counts",
    "paired_text",
    "plot_png",
    "rate_text",
    "rate_words",
    "same_deal",
    "sentences",
    "solve_one",
    "solve_sample",
    "stats_html",
    "stored_sample",
    "stored_samples",
    "stream_samples",
]

STATS_DEALS = 10_000
"""Decks dealt both ways for the lab's statistics."""
STATS_SEED = 1

# The groups of controls the lab shows, each with the rule aspects whose sentences explain it.
GROUPS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("Reparto", ("columns", "aces_out", "kings_to_bottom"), ("deal",)),
    ("Tablero", ("build", "suits", "runs"), ("tableau",)),
    ("Huecos", ("empty",), ("empty",)),
    ("Bases", ("foundation",), ("foundation",)),
    ("Lo automático", ("deal_to_foundations", "autoplay"), ("deal_to_foundations", "autoplay")),
    ("Devolver cartas", ("takeback",), ("takeback",)),
)

def new_game(definition: GameDef, seed: int) -> Game:
    """Deal `seed` of `definition`, composed or built in."""
    from .. import engine

    return engine.new_game(definition, seed=seed)


def columns_label(like: GameDef) -> str:
    return words.columns_label(like.tableau_label)


def sentences(definition: GameDef, aspects: tuple[str, ...]) -> list[str]:
    """The Spanish sentences of `aspects` written from `definition`'s rules."""
    rules = definition.rules_for()
    return [words.ASPECT_SENTENCES[a](rules, definition.tableau_label) for a in aspects]


# ---------------------------------------------------------------------- the deal statistics
YOURS = "tu juego"
"""What the statistics call the composed game (its full name is on the lab's title)."""


_COMPARISONS: dict[tuple[str, str, int, int], Any] = {}
_KEEP = 8  # about 2 MB each; a page of labs holds most of them anyway


def comparison(base: GameDef, game: GameDef, n: int = STATS_DEALS, seed: int = STATS_SEED) -> Any:
    """`compare(base, game)`: both games on the same `n` decks, the composed one named «tu juego»
    (a composed game's name can run to a whole line).  The last few are kept, by the games'
    names: a page with several labs of one game, or a lab asked again for a game it showed,
    computes each comparison once."""
    from ..study import compare

    key = (base.name, game.name, n, seed)
    if key not in _COMPARISONS:
        while len(_COMPARISONS) >= _KEEP:
            _COMPARISONS.pop(next(iter(_COMPARISONS)))
        _COMPARISONS[key] = compare(base, dataclasses.replace(game, display_name=YOURS), n=n, seed=seed)
    return _COMPARISONS[key]


def same_deal(cmp: Any) -> bool:
    """Whether the two games deal every deck the same way (every measure equal in every deal)."""
    if cmp.a.deal.columns != cmp.b.deal.columns:
        return False
    return all(cmp.differences[key] == (0.0, 0.0, 0.0) for key in cmp.differences) and cmp.a.columns == cmp.b.columns


def _inline(text: str) -> str:
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(text, quote=False))


#: where each table goes: a box that slides sideways when the table is wider than the page (a
#: phone), labelled for the reader, so that its words and numbers stay whole (the lab's CSS)
TABLE_BOX = ('<div class="snb-table-box" role="region" tabindex="0" aria-label="Tabla: en una pantalla '
             'estrecha, desliza para ver todas las columnas" style="overflow-x:auto;max-width:100%">')


def markdown_html(markdown: str) -> str:
    """The small Markdown `compare` writes (paragraphs, **bold**, pipe tables) as HTML, each
    table in its `TABLE_BOX`."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = block.splitlines()
        if lines and lines[0].startswith("|"):
            rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
            head, body = rows[0], rows[2:]
            right = [c.endswith(":") for c in rows[1]] if len(rows) > 1 else []
            cells = "".join(f"<th>{_inline(c[:1].upper() + c[1:])}</th>" for c in head)
            table = [f'<table class="snb-lab-table"><thead><tr>{cells}</tr></thead><tbody>']
            for row in body:
                tds = "".join(
                    f'<td style="text-align:{"right" if i < len(right) and right[i] else "left"}">{_inline(c)}</td>'
                    for i, c in enumerate(row)
                )
                table.append(f"<tr>{tds}</tr>")
            out.append(TABLE_BOX + "".join(table) + "</tbody></table></div>")
        else:
            out.append(f"<p>{_inline(' '.join(lines))}</p>")
    return "\n".join(out)


NOTHING_CHANGED = "Todavía no has cambiado ninguna regla: elige una arriba."
"""What the lab's statistics say first while the composed game is still the original."""


def stats_html(cmp: Any, changed: bool = True) -> str:
    """The comparison as the lab shows it: a sentence when no rule has changed yet (`changed`
    False) or when the change does not touch the deal, the table of measures, and each
    column's length folded away."""
    md = cmp._repr_markdown_()
    title = cmp.lengths_title
    main, _, columns = md.partition(f"\n\n{title}")
    parts = []
    if not changed:  # the same game twice: «no toca el reparto» would answer a question not asked
        parts.append(f"<p><b>{html.escape(NOTHING_CHANGED)}</b></p>")
    elif same_deal(cmp):
        parts.append(
            "<p><b>Este cambio no toca el reparto:</b> las dos partidas empiezan exactamente igual en "
            "cada baraja. Lo que cambia es cómo se juega; para medirlo, pulsa «¿Cuántas se pueden ganar?».</p>"
        )
    parts.append(markdown_html(main))
    if columns:
        parts.append(
            f"<details><summary>{html.escape(title)}</summary>"
            + markdown_html(title + columns)
            + "</details>"
        )
    return "\n".join(parts)


_PNGS: dict[int, tuple[Any, bytes]] = {}
#: the picture `plot_png` draws: a PNG by matplotlib, or an SVG where matplotlib is absent.
PLOT_FORMAT = "png" if HAVE_MATPLOTLIB else "svg+xml"


def plot_png(cmp: Any) -> bytes:
    """The compact plot: each column's mean length in both games, with its 95 % band (drawn
    once per comparison `comparison` keeps)."""
    kept = _PNGS.get(id(cmp))
    if kept is not None and kept[0] is cmp:
        return kept[1]
    png = _draw_png(cmp)
    while len(_PNGS) >= _KEEP:
        _PNGS.pop(next(iter(_PNGS)))
    _PNGS[id(cmp)] = (cmp, png)
    return png


def _draw_png(cmp: Any) -> bytes:
    if not HAVE_MATPLOTLIB:
        from ..study.svg_comparison_plots import close
        from ..study.svg_comparison_plots import plot_column_lengths as svg_lengths

        chart = svg_lengths(cmp)
        close(chart)  # it is the lab's picture: not shown again under the cell
        return chart.svg().encode()
    from matplotlib.figure import Figure  # no pyplot: no backend, no figure left open

    from ..study.comparison_plots import plot_column_lengths

    fig = Figure(figsize=(10, 4.6))
    fig.subplots_adjust(left=0.08, right=0.985, bottom=0.16, top=0.9)  # fixed margins: a third faster than "constrained"
    plot_column_lengths(cmp, fig.add_subplot())
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=64)
    return buffer.getvalue()
