"""Texts for lessons: a printable rules summary per game, the sentence saying why a legal move
is legal, and a won numbered deal narrated move by move.

Everything is built from what the games declare (`GAMES`: rule sentences, piles, variants) and
from the engine's public surface, so a summary or a narration cannot drift from the rules the
engine plays.  Pure: no widgets, no plots; the narrated lines are read from the package data
written once by ``tools/find_narrated_games.py`` (pages never run the solver).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from html import escape
from importlib import resources
from typing import Any

from ..core import texts
from ..core.cards import Card
from ..core.moves import Move
from ..core.rules import GameDef
from ..engine import Action, Game, Step, new_game
from ..games import GAMES

__all__ = ["explain_move", "describe_automatic", "narrated_game", "narrated_lines", "student_texts"]

NARRATED_FILE = "narrated.json"
NARRATED_FORMAT = "solitaire_nb/narradas"

_GEN_WIN = "GEN-3"  # the rule that says how a game is won, shared by every game


# ---------------------------------------------------------------------- small Spanish helpers
def _definition(game: str | GameDef | Game) -> GameDef:
    if isinstance(game, Game):
        return game.definition
    if isinstance(game, GameDef):
        return game
    if isinstance(game, str) and game in GAMES:
        return GAMES[game]
    raise ValueError(f"No existe el juego {game!r} (juegos: {', '.join(GAMES)})")


def _the(label: str) -> str:
    """A pile's label with its article: "el Tablero 4", "la Base 1", "la reserva" (a pile without a
    number is a common noun in prose; the board keeps its capital)."""
    prose = label if any(ch.isdigit() for ch in label) else label.lower()
    return ("la " if label.startswith(("Base", "Reserva")) else "el ") + prose


def _of_the(label: str) -> str:
    """ "del Tablero 4", "de la Base 1"."""
    return texts.of(_the(label))


def _to_the(label: str) -> str:
    """ "al Tablero 4", "a la Base 1"."""
    return texts.to(_the(label))


def _card_of(card: Card) -> str:
    """ "del 7 de picas", "de la Q de picas"."""
    return "del " + card.articulo[3:] if card.rank <= 10 else "de " + card.articulo


def _card_to(card: Card) -> str:
    """ "al 5 de tréboles", "a la J de tréboles"."""
    return "al " + card.articulo[3:] if card.rank <= 10 else "a " + card.articulo


def _names(cards: Sequence[Card]) -> str:
    names = [c.articulo for c in cards]
    return texts.joined(names)


def _count_word(n: int, one: str, many: str, feminine: bool = False) -> str:
    if n == 1:
        return ("una " if feminine else "un ") + one
    return f"{n} {many}"


def _where(definition: GameDef) -> str:
    return "en los abanicos" if definition.tableau_label == "Abanico" else "en el tablero"


def student_texts() -> dict[str, str]:
    """Every declared text a student may see, keyed by where it comes from (for tests)."""
    out: dict[str, str] = {}
    for name, d in GAMES.items():
        out[f"{name}.summary"] = d.summary
        out[f"{name}.tableau_builds"] = d.tableau_builds
        out[f"{name}.empty_pile"] = d.empty_pile
        out[f"{name}.automatic"] = d.automatic
        for rid, text in d.rules.items():
            out[f"{name}.rules[{rid}]"] = text
        for flag, v in d.variants.items():
            out[f"{name}.variants[{flag}]"] = v.descripcion
    return out


# ---------------------------------------------------------------------- why a legal move is legal
def _hole_phrase(game: Game) -> str:
    """Why a card may fill an empty tableau pile now (only called when it may)."""
    rule = game.rules.tableau
    if rule.empty == "any":
        return "cualquier carta puede ocupar un hueco"
    if rule.empty == "king":
        if rule.runs:
            return "un hueco solo admite un Rey o una secuencia encabezada por un Rey"
        return "un hueco solo admite un Rey"
    # "reserve": a hole is refilled at once while the reserve has cards, so a legal move into
    # one means the reserve is empty.
    return "con la reserva agotada, cualquier carta puede ocupar un hueco"


def explain_move(game: Game, move: Move | str) -> str:
    """The Spanish sentence saying which rule makes a LEGAL move legal, for the position before
    it is played; a refused move raises ValueError with the engine's reason."""
    m = Move.parse(move) if isinstance(move, str) else move
    if not isinstance(m, Move):
        raise ValueError(f"Movimiento no válido: {move!r}")
    reason = game.why_not(m)
    if reason is not None:
        raise ValueError(f"Ese movimiento no está permitido: {texts.after_colon(reason)}")
    if m.src == "S":
        card = game.pile("S")[-1]
        return f"Del mazo pasa una carta al descarte, boca arriba: {card.articulo}."
    cards = game.pile(m.src)[-m.n_cards:]
    first = cards[0]
    if m.n_cards == 1:
        subject = texts.capitalize(first.articulo)
    else:
        subject = f"La secuencia {_card_of(first)} {_card_to(cards[-1])} ({m.n_cards} cartas)"
    dst_label = game.label(m.dst)
    target = game.pile(m.dst)
    if m.dst.startswith("F"):
        rule = game.rules.foundations[int(m.dst[1:])]
        place = _to_the(dst_label)
        if target:
            why = f"{texts.foundation_rule_phrase(rule)}, y tiene arriba {target[-1].articulo}"
        else:
            why = texts.empty_foundation_phrase(rule)
    elif target:
        place = f"sobre {target[-1].articulo}"
        why = texts.tableau_rule_phrase(game.rules.tableau, _where(game.definition), [*cards, target[-1]])
        if m.n_cards > 1:
            why += ", y una secuencia así se mueve en grupo"
    else:
        place = f"al hueco {_of_the(dst_label)}"
        why = _hole_phrase(game)
    if m.src.startswith("F"):
        return (
            f"{subject} vuelve {_of_the(game.label(m.src))} al juego, {place}: en este juego se puede "
            f"devolver una carta de la base al juego, y {why}."
        )
    origin = {"R": ", de la reserva,", "W": ", del descarte,"}.get(m.src[0], "")
    return f"{subject}{origin} va {place}: {why}."


def describe_automatic(game: Game, step: Step) -> list[str]:
    """Spanish sentences for the automatic actions that followed a move: one per action, with
    a run of cards sent home by the autoplay told in one sentence."""
    out: list[str] = []
    home: list[Card] = []
    for action in step.automatic:
        if action.dst is not None and action.dst.startswith("F") and action.src.startswith("T"):
            home.extend(action.cards)
            continue
        if home:
            out.append(_home_sentence(home))
            home = []
        out.append(_automatic_sentence(game, action))
    if home:
        out.append(_home_sentence(home))
    return out


def _home_sentence(cards: list[Card]) -> str:
    """«El juego automático sube a su base el 3 y el 4 de picas»: one suit named once."""
    suits = {c.articulo.rsplit(" de ", 1)[1] for c in cards}
    if len(suits) > 1:
        return f"El juego automático sube a sus bases {_names(cards)}."
    ranks = [c.articulo.rsplit(" de ", 1)[0] for c in cards]
    named = texts.joined(ranks)
    return f"El juego automático sube a su base {named} de {suits.pop()}."


def _automatic_sentence(game: Game, action: Action) -> str:
    src = game.label(action.src)
    if action.dst is None:
        return f"Se pone boca arriba {action.cards[0].articulo} en {_the(src)}."
    dst = game.label(action.dst)
    names = _names(action.cards)
    if action.src == "R":
        return f"La reserva rellena el hueco {_of_the(dst)} con {names}."
    if action.src.startswith("T") and action.dst.startswith("T"):
        return f"La parte boca arriba {_of_the(src)} pasa {_to_the(dst)}, que se había vaciado: {names}."
    return f"{texts.capitalize(names)} pasa{'n' if len(action.cards) > 1 else ''} {_of_the(src)} {_to_the(dst)}."


def _deal_sentences(game: Game) -> list[str]:
    report = game.deal_report
    if report is None:
        return []
    out = []
    if report.to_foundations:
        out.append(f"Durante el reparto van a la base: {_names(report.to_foundations)}.")
    if report.autoplay:
        out.append(f"Tras el reparto, el juego automático a la base manda a su base: {_names(report.autoplay)}.")
    return out


# ---------------------------------------------------------------------- narrated games
@lru_cache(maxsize=1)
def _narrated_doc() -> dict[str, Any]:
    text = (resources.files("solitaire_nb") / "data" / NARRATED_FILE).read_text(encoding="utf-8")
    doc = json.loads(text)
    if doc.get("format") != NARRATED_FORMAT:
        raise ValueError(f"{NARRATED_FILE} no es un fichero de partidas narradas")
    return doc


def narrated_lines() -> list[dict[str, Any]]:
    """The stored won lines: dicts with game, variant, seed, moves (engine notation)."""
    return [dict(entry) for entry in _narrated_doc()["lines"]]


def _find_line(name: str, variant: Mapping[str, bool]) -> dict[str, Any]:
    definition = _definition(name)
    flags = definition.resolve_variant(variant)
    for entry in _narrated_doc()["lines"]:
        if entry["game"] == definition.name and definition.resolve_variant(entry["variant"]) == flags:
            return entry
    raise ValueError(f"No hay ninguna partida narrada de {definition.display_name} con esa variante.")


def _variant_sentences(definition: GameDef, flags: Mapping[str, bool]) -> list[str]:
    return [v.descripcion for k, v in definition.variants.items() if flags[k] != v.default]


def _has_hidden_cards(game: Game) -> bool:
    return any(game.face_down(p) for p in game.pile_ids)


def narrated_game(name: str, **variant: bool) -> str:
    """A won numbered deal replayed move by move, as a static HTML fragment: for each move its
    number, the move as typed on the board, the sentence saying why it is legal and what the
    game did by itself.  The line is the one stored in the package data (no solving here)."""
    entry = _find_line(name, variant)
    from ..games.notation import format_move

    game = new_game(entry["game"], seed=entry["seed"], **entry["variant"])
    definition = game.definition
    e = escape
    head = [f"<p><strong>Partida n.º {entry['seed']} de {e(definition.display_name)}</strong>, ganada en "
            f"{len(entry['moves'])} movimientos.</p>"]
    head += [f"<p>Variante: {e(t)}</p>" for t in _variant_sentences(definition, game.variant)]
    if _has_hidden_cards(game):
        head.append(
            "<p><em>Esta línea la encontró un programa que ve también las cartas boca abajo; quien "
            "juega no las ve, así que no podría saber de antemano que estos movimientos ganan.</em></p>"
        )
    head += [f"<p>{e(t)}</p>" for t in _deal_sentences(game)]
    rows = []
    for number, text in enumerate(entry["moves"], 1):
        move = Move.parse(text)
        typed = format_move(game, move)
        why = explain_move(game, move)
        step = game.move(move)
        auto = " ".join(describe_automatic(game, step)) or "—"
        rows.append(
            f"<tr><td>{number}</td><td><code>{e(typed)}</code></td><td>{e(why)}</td><td>{e(auto)}</td></tr>"
        )
    if not game.is_won():  # the stored line is checked by the tests; never show a false claim
        raise ValueError(f"La partida narrada de {definition.display_name} no termina ganada.")
    table = (  # in a labelled scroll box: on a phone its cells keep their words whole; a long game scrolls down
        texts.scroll_box("Partida comentada", max_height="28em")
        + '<table class="snb-narrada-tabla"><thead><tr><th>n.º</th><th>movimiento</th><th>por qué se puede</th>'
        "<th>lo que hace el juego solo</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>"
    )
    end = "<p><strong>¡Ganada!</strong> Todas las cartas están en las bases.</p>"
    # Notebook front ends right-align table cells; a narration reads left to right.
    style = (
        "<style>.snb-narrada-tabla td,.snb-narrada-tabla th{text-align:left!important;vertical-align:top}"
        ".snb-narrada-tabla code{white-space:nowrap}</style>"
    )
    return '<div class="snb-narrada">' + style + "".join(head) + table + end + "</div>"
