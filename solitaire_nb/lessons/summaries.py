"""A printable one-page rules summary per game, in Spanish (`rules_summary`), built from what
the game declares (`GAMES`: rule sentences, piles, variants and its rule flags), so it cannot
drift from the rules the engine plays.  The rules common to every game are kept only as far as
they apply to the game.
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..core import texts
from ..core.rules import GameDef
from ..engine import Game
from .narration import _GEN_WIN, _count_word, _definition

__all__ = ["rules_summary"]


def _layout_sentence(definition: GameDef) -> str:
    counts = definition.pile_counts
    if definition.tableau_label == "Abanico":
        parts = [_count_word(counts["tablero"], "abanico", "abanicos")]
    else:
        parts = [_count_word(counts["tablero"], "pila en el tablero", "pilas en el tablero", feminine=True)]
    parts.append(_count_word(counts["base"], "base", "bases", feminine=True))
    for key, word in (("reserva", "reserva"), ("mazo", "mazo"), ("descarte", "descarte")):
        if counts[key]:
            parts.append(("una " if key == "reserva" else "un ") + word)
    return f"Sobre la mesa: {texts.joined(parts)}."


def _needs_sentence(definition: GameDef) -> str:
    if definition.decks == 1:  # the collection's games use one deck or two
        return "Una baraja francesa de 52 cartas, sin comodines."
    return f"Dos barajas francesas de 52 cartas, sin comodines ({definition.cards} cartas en total)."


def _and_list(items: list[str], last: str = "y") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def _common_rules(definition: GameDef) -> list[str]:
    """The rules common to every game, only as far as they apply to this one (read from its
    definition): no taking back where no card returns, no reserve, stock or waste where there
    is none, no automatic action the game does not have."""
    r = definition.rules_for({})
    out = []
    for rid, text in definition.rules.items():
        if not rid.startswith("GEN-") or rid == _GEN_WIN:
            continue
        if rid == "GEN-1" and ", nunca a otra base" in text:
            if not r.takeback:
                continue
            head = text.split(", nunca a otra base", 1)[0]
            others = ["a otra base"] + [w for on, w in ((r.reserve, "a la reserva"), (r.stock, "al mazo"),
                                                        (r.waste, "al descarte")) if on]
            text = f"{head}, nunca {_and_list(others, 'ni')}."
        elif rid == "GEN-2" and text.startswith("Lo automático (") and ") " in text:
            acts = [w for on, w in ((r.face_down_tableau, "poner boca arriba una carta descubierta"),
                                    (r.reserve and r.refill_from_reserve, "rellenar desde la reserva"),
                                    (r.autoplay, "el juego automático a la base")) if on]
            if not acts:
                continue
            text = f"Lo automático ({_and_list(acts)}) {text.split(') ', 1)[1]}"
        out.append(text)
    return out


def _summary_parts(definition: GameDef) -> dict[str, Any]:
    """The summary's content as plain strings, shared by the HTML and Markdown forms."""
    own = [text for rid, text in definition.rules.items() if not rid.startswith("GEN-")]
    common = _common_rules(definition)
    variants = [v.descripcion for v in definition.variants.values()]
    return {
        "title": f"{definition.display_name}: resumen de las reglas",
        "intro": definition.summary,
        "needs": _needs_sentence(definition),
        "layout": _layout_sentence(definition),
        "win": definition.rules[_GEN_WIN],
        "glance": [
            ("Cómo se construye", definition.tableau_builds),
            ("Qué ocupa un hueco", definition.empty_pile),
            ("Qué es automático", definition.automatic),
        ],
        "rules": own,
        "common": common,
        "variants": variants,
    }


_VARIANTS_INTRO = (
    "La partida normal se juega como arriba. Para comparar, se puede proponer alguno de estos cambios:"
)
_NO_VARIANTS = "Este juego no tiene variantes: se juega siempre como arriba."

_PRINT_CSS = (  # one A4 sheet when printed from a browser
    "@page{size:A4;margin:1.2cm}"
    ".snb-resumen{font-family:'DejaVu Sans',Arial,sans-serif;font-size:9.5pt;line-height:1.25;max-width:18.5cm}"
    ".snb-resumen h1{font-size:14pt;margin:0 0 .2em}.snb-resumen h2{font-size:11pt;margin:.55em 0 .15em}"
    ".snb-resumen p{margin:.2em 0}.snb-resumen ol,.snb-resumen ul{margin:.1em 0;padding-left:1.4em}"
    ".snb-resumen li{margin:.08em 0}.snb-resumen table{border-collapse:collapse}"
    ".snb-resumen td,.snb-resumen th{border:1px solid #999;padding:1px 6px;text-align:left!important;vertical-align:top}"
)


def rules_summary(game: str | GameDef | Game, fmt: str = "html") -> str:
    """A one-page printable summary of a game's rules, in Spanish, generated from its
    declared rules (what you need, the layout, how to win, each rule, the variants in words).

    `fmt` is "html" (a standalone fragment with its print style) or "markdown"."""
    definition = _definition(game)
    if fmt not in ("html", "markdown"):
        raise ValueError(f"Formato de resumen no válido: {fmt!r} (se admite 'html' o 'markdown')")
    s = _summary_parts(definition)
    if fmt == "markdown":
        return _summary_markdown(s)
    return _summary_html(s)


def _summary_markdown(s: dict[str, Any]) -> str:
    out = [f"# {s['title']}", "", s["intro"], "", "## Qué se necesita", "", s["needs"], "", s["layout"], ""]
    out += ["## Cómo se gana", "", s["win"], "", "## De un vistazo", "", "| | |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in s["glance"]]
    out += ["", "## Las reglas", ""]
    out += [f"{i}. {text}" for i, text in enumerate(s["rules"], 1)]
    out += ["", "## Reglas comunes a todos los juegos", ""]
    out += [f"- {text}" for text in s["common"]]
    out += ["", "## Variantes", ""]
    if s["variants"]:
        out += [_VARIANTS_INTRO, ""] + [f"- {text}" for text in s["variants"]]
    else:
        out.append(_NO_VARIANTS)
    return "\n".join(out) + "\n"


def _summary_html(s: dict[str, Any]) -> str:
    e = escape
    rows = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in s["glance"])
    rules = "".join(f"<li>{e(t)}</li>" for t in s["rules"])
    common = "".join(f"<li>{e(t)}</li>" for t in s["common"])
    if s["variants"]:
        variants = f"<p>{e(_VARIANTS_INTRO)}</p><ul>" + "".join(f"<li>{e(t)}</li>" for t in s["variants"]) + "</ul>"
    else:
        variants = f"<p>{e(_NO_VARIANTS)}</p>"
    return (
        f'<section class="snb-resumen"><style>{_PRINT_CSS}</style>'
        f"<h1>{e(s['title'])}</h1><p>{e(s['intro'])}</p>"
        f"<h2>Qué se necesita</h2><p>{e(s['needs'])}</p><p>{e(s['layout'])}</p>"
        f"<h2>Cómo se gana</h2><p>{e(s['win'])}</p>"
        f"<h2>De un vistazo</h2>{texts.scroll_box('Resumen de un vistazo')}<table>{rows}</table></div>"
        f"<h2>Las reglas</h2><ol>{rules}</ol>"
        f"<h2>Reglas comunes a todos los juegos</h2><ul>{common}</ul>"
        f"<h2>Variantes</h2>{variants}</section>"
    )
