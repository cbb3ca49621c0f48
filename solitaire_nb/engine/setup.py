"""Starting positions and their checks: `game_definition` (a name to its `GameDef`),
`deal_cards` (the deal order of a numbered or explicit deal), `dealt_position` (a deal laid
out), `given_position` (a position given by hand) and `check_position`, which refuses in
Spanish a position no play could reach.  Everything here works on a `Position`; `Game` and
its factories (`construct`) build games from what it returns."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from typing import Any

from ..core import texts
from ..core.cards import CARDS, Card, new_deck
from ..core.checks import check_seed, shown
from ..core.rules import GameDef, Rules
from ..core.shuffle import deal_order
from ..games import GAMES
from ..games.custom import custom_from_name
from .position import Position
from .values import DealReport


def game_definition(name: str | GameDef) -> GameDef:
    """A `GameDef` as it is; the composed game a name with "+" describes
    ("beleaguered_castle+columns=10"); the registered game `name`; or a Spanish ValueError
    naming the known games."""
    if isinstance(name, GameDef):
        return name
    if isinstance(name, str) and "+" in name:
        return custom_from_name(name)
    if not isinstance(name, str) or name not in GAMES:
        known = ", ".join(GAMES)
        raise ValueError(f"No existe el juego {shown(name)} (juegos: {known})")
    return GAMES[name]


def deal_cards(
    definition: GameDef, seed: int | None, deck: Sequence[str | Card] | None
) -> tuple[int | None, list[Card]]:
    """(seed, deal order): numbered deal `seed`, the explicit order `deck` (checked to be
    exactly the game's deck(s); seed None), or without either a numbered deal at random."""
    if seed is not None and deck is not None:
        raise ValueError("Indica un número de partida (seed) o un orden de cartas (deck), no los dos")
    if deck is not None:
        if isinstance(deck, str) or not isinstance(deck, Iterable):
            raise ValueError("deck debe ser una lista de códigos de carta, como ['AS', '10H', …]")
        order = [Card.parse(c) for c in islice(deck, 52 * definition.decks + 1)]
        _check_cards(Counter(order), definition)
        return None, order
    seed = random.randrange(1, 1_000_000) if seed is None else check_seed(seed)
    return seed, deal_order(seed, definition.decks)


def dealt_position(definition: GameDef, rules: Rules, order: list[Card]) -> tuple[Position, DealReport | None]:
    """The position `order` is dealt to (the game's deal, then its autoplay), and what the
    deal did beyond laying out cards (None when the game reports nothing)."""
    pos = Position.empty(rules)
    index = {p: i for i, p in enumerate(pos.table.pile_ids)}
    layout = definition.deal(list(order), rules)
    for pid, cards in layout.piles.items():
        pos.p[index[pid]] = [c.id for c in cards]
    for pid, n in layout.face_down.items():
        pos.fd[index[pid]] = n
    ops = pos.autoplay()  # CB-7 after the deal (nothing without autoplay)
    if not (definition.reports_deal or rules.deal_to_foundations or rules.autoplay or layout.to_foundations):
        return pos, None
    moved = [op for op in ops if len(op) == 4]
    report = DealReport(
        tuple(layout.to_foundations),
        tuple(layout.meant_for),
        tuple(CARDS[op[2][0]] for op in moved),
        tuple(pos.table.pile_ids[op[0]] for op in moved),
    )
    return pos, report


def given_position(
    definition: GameDef, rules: Rules, piles: Any, face_down: Any
) -> tuple[Position, dict[str, Any], bool]:
    """(position, start, practice) for a position given by hand (see `Game.from_position`):
    `start` is its text form (loading it again gives this very position) and `practice`
    whether it has fewer cards than the game's deck(s).  A position no play could reach is
    a Spanish ValueError."""
    pos = Position.empty(rules)
    ids = pos.table.pile_ids
    if not isinstance(piles, Mapping):
        raise ValueError("La posición debe ser un diccionario de pila -> lista de cartas")
    for pid, cards in piles.items():
        i = _pile_index(definition, ids, pid)
        if isinstance(cards, str) or not isinstance(cards, Iterable):
            raise ValueError(f"La pila {shown(pid)} debe ser una lista de cartas, no {shown(cards)}")
        pos.p[i] = [Card.parse(c).id for c in cards]
    default = []
    for i, kind in enumerate(pos.table.kind):
        n = len(pos.p[i])
        default.append(n if kind == "S" else max(0, n - 1) if kind == "R" else 0)
        pos.fd[i] = default[i]
    if face_down is not None and not isinstance(face_down, Mapping):
        raise ValueError(f"Las cartas boca abajo se dan como pila -> número, no {shown(face_down)}")
    for pid, count in (face_down or {}).items():
        i = _pile_index(definition, ids, pid)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= len(pos.p[i]):
            raise ValueError(f"Cartas boca abajo en {shown(pid)}: {shown(count)} no está entre 0 y {len(pos.p[i])}")
        pos.fd[i] = count
    practice = check_position(definition, pos)
    start = {
        "piles": {p: [CARDS[c].code for c in pos.p[i]] for i, p in enumerate(ids) if pos.p[i]},
        # every count that is not 0, and a 0 where the default is not (a stock or reserve
        # turned face up): loading the start again gives this very position
        "face_down": {p: pos.fd[i] for i, p in enumerate(ids) if pos.fd[i] or default[i]},
    }
    return pos, start, practice


def check_position(definition: GameDef, pos: Position) -> bool:
    """Raise a Spanish ValueError if `pos` is one no play could reach; return whether it is a
    practice position.  With the whole deck(s): foundations that are legal sequences and
    face-down cards only where play puts them.  With fewer cards (practice): no card more
    often than the decks hold it, and legal foundations."""
    if any(not 0 <= f <= len(p) for f, p in zip(pos.fd, pos.p, strict=True)):
        raise ValueError("Posición imposible: hay más cartas boca abajo que cartas en alguna pila")
    have = Counter(CARDS[c] for q in pos.p for c in q)
    practice = sum(have.values()) < 52 * definition.decks
    if practice:
        _check_practice(definition, have)
        _check_foundations(definition, pos)
    else:
        _check_cards(have, definition)
        _check_foundations(definition, pos)
        _check_face_down(definition, pos)
    return practice


def _label(definition: GameDef, pile_id: str) -> str:
    return texts.pile_label(pile_id, definition.tableau_label)


def _pile_index(definition: GameDef, ids: tuple[str, ...], pid: Any) -> int:
    if not isinstance(pid, str) or pid not in ids:
        raise ValueError(f"{definition.display_name} no tiene la pila {shown(pid)}; sus pilas son {', '.join(ids)}")
    return ids.index(pid)


def _check_cards(have: Counter, definition: GameDef) -> None:
    want = Counter(new_deck(definition.decks))
    missing = sorted((want - have).elements())
    extra = sorted((have - want).elements())
    if missing or extra:
        parts = []
        if missing:
            parts.append("faltan " + " ".join(c.code for c in missing))
        if extra:
            parts.append("sobran " + " ".join(c.code for c in extra))
        raise ValueError(f"Las cartas no son exactamente {_decks_word(definition.decks)}: " + "; ".join(parts))


def _decks_word(decks: int) -> str:
    return "una baraja" if decks == 1 else f"{decks} barajas"


def _check_practice(definition: GameDef, have: Counter) -> None:
    """Each card at most as often as the decks hold it."""
    decks = definition.decks
    extra = sorted(c for c, n in have.items() if n > decks)
    if extra:
        times = "una vez" if decks == 1 else f"{decks} veces"
        raise ValueError(
            f"Posición imposible: {' '.join(c.code for c in extra)} aparece más de {times} "
            f"({_decks_word(decks)} en {definition.display_name})"
        )


def _check_face_down(definition: GameDef, pos: Position) -> None:
    """Face-down cards only where play puts them, and no hole while the reserve refills."""
    table, rules = pos.table, pos.table.rules
    for i, pid in enumerate(table.pile_ids):
        n, fd, kind = len(pos.p[i]), pos.fd[i], table.kind[i]
        if kind == "S":
            allowed = fd == n
        elif kind == "R":
            allowed = fd == max(0, n - 1)
        elif kind == "T" and rules.face_down_tableau:
            allowed = fd == 0 if n == 0 else fd <= n - 1
        else:
            allowed = fd == 0
        if not allowed:
            raise ValueError(
                f"{_label(definition, pid)} no puede tener {fd} cartas boca abajo en {definition.display_name} "
                "(solo la reserva, el mazo y el tablero de Moving Left las tienen, y la carta de arriba "
                "de una pila del tablero o de la reserva está boca arriba)"
            )
    if rules.refill_from_reserve and pos.p[table.r]:
        holes = [_label(definition, table.pile_ids[i]) for i in table.tab if not pos.p[i]]
        if holes:
            raise ValueError(
                f"Posición imposible: {', '.join(holes)} está vacío mientras la reserva tiene cartas "
                "(un hueco se rellena al instante desde la reserva)"
            )


def _check_foundations(definition: GameDef, pos: Position) -> None:
    """Each foundation must be a sequence its rule builds: rebuilt card by card, asking
    `Position.accepts` (the one source of legality) at each step."""
    fnd = pos.table.fnd
    saved = [pos.p[fi] for fi in fnd]
    for fi in fnd:
        pos.p[fi] = []
    try:
        for k, fi in enumerate(fnd):
            for cid in saved[k]:
                if not pos.accepts(fi, cid):
                    raise ValueError(
                        f"{_label(definition, pos.table.pile_ids[fi])} no es una secuencia válida: "
                        f"{CARDS[cid].articulo} no puede estar ahí"
                    )
                pos.p[fi].append(cid)
    finally:
        for k, fi in enumerate(fnd):
            pos.p[fi] = saved[k]
