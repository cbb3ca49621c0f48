"""The win-rate atlas as pictures (notebook 07): `plot_win_rates`, `plot_bracket`.

The words on each row come from `view`; the look (fonts, decimal commas) is the study's
(`solitaire_nb.study.plots`).  matplotlib is imported here and in the study's plot modules only.
"""

from __future__ import annotations

import base64
import io

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..core.numbers_es import percent, thousands
from ..games import GAMES
from ..study.plots import LEGEND, TICKS, new_axes, style_axes
from .view import NOTHING_DECIDED, PLAYER, SOLVER_PEEKS, entry_label, rows_with_players, who


def plot_win_rates(
    entries: list[dict], ax: Axes | None = None, reference: dict | None = None, players: list[dict] | None = None
) -> Figure:
    """Win rate of each atlas entry (notebook 07) as the data allows: a point where every deal
    was decided, the range from «undecided lost» to «undecided won» where some were not, «—»
    where none was; a thin line for the 95 % interval.  A solver that sees face-down cards is
    said so on its row's label and drawn hatched (a range) or with a cross (a point); each such
    row is preceded by the no-peek player's row from `players` (the atlas's ``players``), drawn
    as a square.  `reference`: the atlas's ``blake_gent`` record, drawn on its entry's row.  The
    x axis runs from 0 to 100 %."""
    rows = rows_with_players(entries, players or [])
    fig, ax = new_axes(ax, (14, 0.75 * len(rows) + 3.5))
    seen: set[str] = set()

    def once(label: str) -> str | None:
        if label in seen:
            return None
        seen.add(label)
        return label

    for y, e in enumerate(rows):
        won, lost, unknown = e["won"], e["lost"], e["unknown"]
        n = won + lost + unknown
        peeks = who(e) == SOLVER_PEEKS
        if won + lost == 0:
            ax.text(50, y, f"{NOTHING_DECIDED}  ninguna partida decidida  {NOTHING_DECIDED}", ha="center",
                    va="center", fontsize=TICKS - 1, color="0.35")
            continue
        ax.plot([100 * e["interval_low"], 100 * e["interval_high"]], [y, y], color="0.35", lw=1.5,
                label=once("intervalo de confianza del 95 %"))
        if who(e) == PLAYER:
            ax.plot(100 * won / n, y, "s", color="tab:green", ms=10, label=once("jugador que no mira"))
        elif unknown:
            label = "margen de las partidas sin decidir" + (": el resolvedor ve las cartas boca abajo" if peeks else "")
            ax.barh(y, 100 * unknown / n, left=100 * won / n, height=0.45, color="tab:orange",
                    hatch="///" if peeks else None, edgecolor="black" if peeks else "tab:orange", label=once(label))
        elif peeks:
            ax.plot(100 * won / n, y, "X", color="black", ms=11,
                    label=once("todas decididas: el resolvedor ve las cartas boca abajo"))
        else:
            ax.plot(100 * won / n, y, "o", color="tab:blue", ms=9, label=once("todas decididas"))
    if reference is not None:
        y_ref = next((y for y, e in enumerate(rows) if e["key"] == reference["entry"]), None)
        if y_ref is not None:
            ax.plot(100 * reference["published_rate"], y_ref, "D", color="tab:red", ms=8,
                    label="Blake y Gent (2019)")
    ax.set_xlim(0, 100)
    style_axes(ax, "Porcentaje de victorias por juego y variante", "Porcentaje de victorias (%)", "")
    labels = []
    for e in rows:
        base = f"{entry_label(e)}, {thousands(e['computed_deals'])} partidas"
        labels.append(base if who(e) not in (PLAYER, SOLVER_PEEKS) else f"{base}\n{who(e)}")
    ax.set_yticks(range(len(rows)), labels)
    ax.set_ylim(len(rows) - 0.5, -0.5)  # first entry on top
    ax.tick_params(axis="y", labelsize=TICKS - 1)
    ax.grid(axis="x", alpha=0.3)
    ax.grid(axis="y", visible=False)
    fig.legend(fontsize=LEGEND, loc="outside lower center", ncol=2, frameon=False)
    return fig


def plot_bracket(player: dict, solver: dict, page_rate: float, ax: Axes | None = None) -> Figure:
    """Where a rate quoted by a rules page (`page_rate`, a fraction) falls between the no-peek
    player's 95 % interval (`player`, an atlas ``players`` row) and the 95 % interval of a solver
    that sees face-down cards (`solver`, an atlas entry; its undecided deals bracketed): two
    bars on a 0-100 % axis and a dashed line at the page's rate."""
    fig, ax = new_axes(ax, (11, 3.6))
    low, high = 100 * player["interval_low"], 100 * player["interval_high"]
    ax.barh(1, high - low, left=low, height=0.35, color="tab:green")
    low, high = 100 * solver["interval_low"], 100 * solver["interval_high"]
    ax.barh(0, high - low, left=low, height=0.35, color="tab:orange", hatch="///", edgecolor="black")
    ax.axvline(100 * page_rate, color="black", ls="--")
    ax.text(100 * page_rate + 1, 0.5, f"{percent(page_rate, 0)} de la página", va="center", fontsize=LEGEND)
    ax.set_xlim(0, 100)
    ax.set_ylim(-0.6, 1.6)
    style_axes(ax, f"{GAMES[player['game']].display_name}: entre el {PLAYER}\ny el {SOLVER_PEEKS}",
               "partidas ganadas (%), intervalo de confianza del 95 %", "")
    ax.set_yticks([0, 1], ["resolvedor que ve las\ncartas boca abajo", PLAYER])
    ax.grid(axis="y", visible=False)
    ax.grid(axis="x", alpha=0.3)
    return fig


def inline_image(figure: Figure) -> str:
    """The figure as an ``<img>`` (a PNG) inside a text (a folded part of a page); the figure is
    closed."""
    import matplotlib.pyplot as plt

    data = io.BytesIO()
    figure.savefig(data, format="png", dpi=80, bbox_inches="tight")
    plt.close(figure)
    return f'<img alt="gráfica" src="data:image/png;base64,{base64.b64encode(data.getvalue()).decode()}"/>'
