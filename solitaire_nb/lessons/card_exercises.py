"""Exercises answered with a set of cards: which cards may go on a card, or a card on which.

The right set is computed from the rules engine (every card of the deck is tried in a small
practice position), and a wrong card is explained by the engine's own sentence saying which
rule refuses it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.cards import CARDS, Card
from ..core.texts import capitalize, of
from ..engine import Game
from ..games import GAMES


def cartas_sobre(game: str, carta: str, pila: str = "tablero", **variant: bool) -> list[str]:
    """Codes of the cards that may go on `carta` when it is the top of a tableau pile
    (``pila="tablero"``) or of a foundation (``pila="base"``), in new-deck order."""
    if pila == "tablero":
        target, under = "T0", [carta]
    else:
        target, under = _foundation_ending(game, carta, **variant)
    out = []
    for cand in CARDS:
        if cand.code in under:  # it would be two places at once (and none goes on itself)
            continue
        g = Game.from_position(game, {target: under, "T1": [cand.code]}, face_down=None, **variant)
        if g.can_move("T1", target):
            out.append(cand.code)
    return out


def _foundation_ending(game: str, carta: str, **variant: bool) -> tuple[str, list[str]]:
    """A foundation and a legal sequence on it from its first card up to `carta` (a practice
    position's foundations must be sequences play could build)."""
    top = Card.parse(carta)
    for fi, rule in enumerate(GAMES[game].rules_for(variant).foundations):
        follows = rule.accepts_table()
        chain = [top]
        while chain[0].rank != rule.base_rank:
            below = next((c for c in CARDS if chain[0].id in follows[c.id] and c not in chain), None)
            if below is None:
                break
            chain.insert(0, below)
        else:
            codes = [c.code for c in chain]
            try:
                Game.from_position(game, {f"F{fi}": codes}, face_down=None, **variant)
            except ValueError:
                continue
            return f"F{fi}", codes
    raise ValueError(f"{top.articulo} no puede estar en ninguna base de {GAMES[game].display_name}")


def cartas_bajo(game: str, carta: str, **variant: bool) -> list[str]:
    """Codes of the tableau tops that `carta` may be moved onto, in new-deck order."""
    out = []
    for cand in CARDS:
        if cand == Card.parse(carta):
            continue
        g = Game.from_position(game, {"T0": [cand.code], "T1": [carta]}, face_down=None, **variant)
        if g.can_move("T1", "T0"):
            out.append(cand.code)
    return out


def _onto_foundation(game: str, carta: str, top: Card) -> Game | None:
    """A practice position with `top` ending a foundation and `carta` alone on the Tablero 2,
    or None when `top` can end no foundation (a card that is never there)."""
    try:
        target, under = _foundation_ending(game, top.code)
    except ValueError:
        return None
    if Card.parse(carta).code in under:
        return None
    return Game.from_position(game, {target: under, "T1": [carta]}, face_down=None)


def cartas_bajo_base(game: str, carta: str) -> list[str]:
    """Codes of the cards that `carta` may go on when they are the top of a foundation."""
    out = []
    for cand in CARDS:
        g = _onto_foundation(game, carta, cand) if cand != Card.parse(carta) else None
        if g is not None and g.can_move("T1", _target(g)):
            out.append(cand.code)
    return out


def _target(g: Game) -> str:
    return next(p for p in g.pile_ids if p.startswith("F") and g.piles[p])


_SAME_CARD = "Es la misma carta: ninguna carta va sobre sí misma."


def _same_card(game: str, card: Card, **variant: bool) -> str:
    """Why `card` does not go on its twin: with two decks, the rule about ranks (a fourth review
    read «es la misma carta» as wrong there); with one deck, it is the card itself."""
    try:
        g = Game.from_position(game, {"T0": [card.code], "T1": [card.code]}, face_down=None, **variant)
    except ValueError:  # one deck: the same card cannot be in two places
        return _SAME_CARD
    why = g.why_not("T1", "T0", fits=False)
    rule = why.split(": ", 1)[1] if why and ": " in why else None
    article, name = card.articulo.split(" ", 1)
    return f"No va sobre {article} {'otra' if article == 'la' else 'otro'} {name}: {rule}" if rule else _SAME_CARD


def why_not_on(game: str, top: str, **variant: bool) -> Callable[[Card], str | None]:
    def explain(card: Card) -> str | None:
        if card == Card.parse(top):
            return _same_card(game, card, **variant)
        g = Game.from_position(game, {"T0": [top], "T1": [card.code]}, face_down=None, **variant)
        return g.why_not("T1", "T0", fits=False)

    return explain


def why_not_under(game: str, moving: str, **variant: bool) -> Callable[[Card], str | None]:
    def explain(card: Card) -> str | None:
        if card == Card.parse(moving):
            return _same_card(game, card, **variant)
        g = Game.from_position(game, {"T0": [card.code], "T1": [moving]}, face_down=None, **variant)
        return g.why_not("T1", "T0", fits=False)

    return explain


def why_not_foundation(game: str, top: str) -> Callable[[Card], str | None]:
    def explain(card: Card) -> str | None:
        if card == Card.parse(top):
            return _SAME_CARD
        target, under = _foundation_ending(game, top)
        if card.code in under:
            return f"{capitalize(card.articulo)} va antes, debajo {of(Card.parse(top).articulo)}."
        g = Game.from_position(game, {target: under, "T1": [card.code]})
        said = g.why_not("T1", target, fits=False)
        return _no_base_number(said, Card.parse(top)) if said else said

    return explain


def why_not_under_foundation(game: str, moving: str) -> Callable[[Card], str | None]:
    """Why `moving` does not go on a card ending a foundation (the question names no base)."""
    def explain(card: Card) -> str | None:
        if card == Card.parse(moving):
            return _SAME_CARD
        g = _onto_foundation(game, moving, card)
        if g is None:
            return f"{capitalize(card.articulo)} no puede estar arriba de una base con {Card.parse(moving).articulo} fuera."
        said = g.why_not("T1", _target(g), fits=False)
        return _no_base_number(said, card) if said else said

    return explain


def _no_base_number(said: str, top: Card) -> str:
    """The engine's sentence without the practice position's base number: the question names no
    base, so «a la Base 1» is «sobre» its top card, and «la Base 1» is «esa base»."""
    said = re.sub(r"\ba la Base \d+", f"sobre {top.articulo}", said, count=1)
    return re.sub(r"\b([Ll])a Base \d+", lambda m: "Esa base" if m.group(1) == "L" else "esa base", said)
