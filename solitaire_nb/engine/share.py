"""Share codes: a short text that rebuilds a game, written in the learner notation.

``citadel/1234/T1-T2,T4-B1``: the game (with its non-default variant flags,
``chequers;wrap=0``; a composed game by its name, ``like+change=value…``, so the head's
grammar is ``like(+change=value)*(;flag=0|1)*`` with values as `custom.custom_from_name`
reads them: digits, ``true``/``false`` or a word such as ``king``), where it starts, and the moves played (`notation.format_move` with
``-``).  The start is a deal number, ``p.<…>`` for a position given by hand (practice
positions included) or ``d.<…>`` for an explicit deal order, both as base64url of a compact
byte encoding.  Codes written before the learner notation (moves like ``T3>F0``, 0-based) are
still read.  Rules side: no widget or IO library.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from ..core import texts
from ..core.cards import CARDS, Card
from ..core.checks import CODE_MAX, MAX_MOVES, check_length, shown
from ..core.moves import IllegalMove, Move
from ..core.rules import GameDef
from ..games import GAMES, notation
from . import Game, game_definition, load_game, new_game

__all__ = ["share_code", "load_share"]

_POSITION_FORMAT = 1
"""First byte of a ``p.`` code: the layout of the bytes that follow (see `_encode_position`)."""
_HAS_FACE_DOWN = 0x80


def share_code(g: Game) -> str:
    """A short text that rebuilds `g` with its moves: "citadel/1234/T1-T2,T4-B1", with
    non-default variant flags after the name ("chequers;wrap=0/77/…"); a position given by
    hand starts with ``p.`` ("citadel/p.AQAB…/T1-B1")."""
    defaults = g.definition.defaults
    flags = "".join(f";{k}={int(v)}" for k, v in g.variant.items() if defaults.get(k) != v)
    start = g.start_position()
    if g.seed is not None:
        origin = str(g.seed)
    elif start is not None:
        origin = "p." + _b64(_encode_position(g, start))
    else:
        origin = "d." + _b64(bytes(c.id for c in g.deal or ()))
    moves = ",".join(notation.format_move(g, m, sep="-") for m in g.history)
    return f"{g.name}{flags}/{origin}/{moves}"


def load_share(text: str) -> Game:
    """A game from a share code or from `Game.to_json` text (Spanish ValueError otherwise).

    Moves written with ">" are read as the old 0-based form, so codes shared before the
    learner notation still load."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("pega un código de partida, como citadel/1234/T1-T2,T4-B1")
    check_length(text, CODE_MAX, "El código de partida")
    text = text.strip()
    if text.startswith("{"):
        return load_game(text)
    parts = text.split("/")
    if len(parts) not in (2, 3):
        raise ValueError(
            f"«{_short(text)}» no es un código de partida: se escribe como juego/número/movimientos, "
            "por ejemplo citadel/1234/T1-T2,T4-B1"
        )
    head, origin = parts[0].split(";"), parts[1].strip()
    definition = _game(head[0].strip())
    variant: dict[str, bool] = {}
    for flag in head[1:]:
        key, _, value = flag.partition("=")
        if value not in ("0", "1"):
            raise ValueError(f"la variante {shown(flag)} debe escribirse como nombre=0 o nombre=1")
        if key.strip() in variant:
            raise ValueError(f"la variante {shown(key.strip())} aparece más de una vez en el código")
        variant[key.strip()] = value == "1"
    definition.resolve_variant(variant)  # unknown flags (even "seed") refused in Spanish first
    game = _start(definition, origin, variant)
    moves = [m.strip() for m in parts[2].split(",") if m.strip()] if len(parts) == 3 else []
    if len(moves) > MAX_MOVES:
        raise ValueError(f"el código tiene {len(moves)} movimientos; como mucho se leen {MAX_MOVES}")
    for k, written in enumerate(moves, 1):
        try:
            move = _old_move(game, written) if ">" in written else notation.parse_move(game, written)
            game.move(move)
        except (IllegalMove, ValueError) as exc:
            reason = getattr(exc, "reason", str(exc))
            raise ValueError(f"el movimiento n.º {k} ({shown(written, raw=True)}) no es válido: {texts.after_colon(reason)}") from None
    return game


def _old_move(game: Game, written: str) -> Move:
    """A move of a code written before the learner notation (0-based, with ">")."""
    try:
        move = Move.parse(written)
    except ValueError:
        raise ValueError("no se entiende") from None
    if move.src not in game.pile_ids or move.dst not in game.pile_ids:
        raise ValueError(f"nombra una pila que {game.display_name} no tiene")
    return move


def _game(name: str) -> GameDef:
    """The game a code's head names: a registered name, or a composed one
    ("beleaguered_castle+columns=10+empty=king"); a Spanish ValueError otherwise."""
    if "+" not in name:
        if name not in GAMES:
            raise ValueError(f"no existe el juego {shown(name)} (juegos: {', '.join(GAMES)})")
        return GAMES[name]
    try:
        return game_definition(name)
    except ValueError as exc:  # the board says "No se ha podido cargar: <this>"
        said = str(exc)
        raise ValueError(f"el juego compuesto {shown(name)} no es válido: {said[:1].lower()}{said[1:]}") from None


def _start(definition: GameDef, origin: str, variant: dict[str, bool]) -> Game:
    if origin.startswith("p."):
        piles, face_down = _decode_position(definition, _unb64(origin[2:]), variant)
        return Game.from_position(definition, piles, face_down, **variant)
    if origin.startswith("d."):
        order = _unb64(origin[2:])
        if any(b >= len(CARDS) for b in order):
            raise ValueError("el orden de cartas del código está dañado")
        return new_game(definition, deck=[CARDS[b] for b in order], **variant)
    if not re.fullmatch(r"[0-9]{1,20}", origin):
        raise ValueError(f"«{_short(origin)}» no es un número de partida")
    return new_game(definition, seed=int(origin), deck=None, **variant)


def _encode_position(g: Game, start: dict[str, Any]) -> bytes:
    """Format byte, then per pile of the game, in pile order: one byte with the number of
    cards (bit 7 set when a face-down count follows), the face-down count if any, and the
    cards' ids (0–51, bottom to top).  Empty piles at the end are left out."""
    chunks = []
    for pid in g.pile_ids:
        cards = [Card.parse(c) for c in start["piles"].get(pid, ())]
        fd = start["face_down"].get(pid)  # given (0 included) whenever it is not the default
        head = bytes((len(cards) | _HAS_FACE_DOWN, fd)) if fd is not None else bytes((len(cards),))
        chunks.append(head + bytes(c.id for c in cards))
    while chunks and chunks[-1] == b"\x00":
        chunks.pop()
    return bytes((_POSITION_FORMAT,)) + b"".join(chunks)


def _decode_position(definition: GameDef, data: bytes, variant: dict[str, bool]):
    damaged = ValueError("la posición del código está dañada")
    if not data or data[0] != _POSITION_FORMAT:
        raise damaged
    pile_ids = Game(definition, definition.resolve_variant(variant)).pile_ids
    piles: dict[str, list[str]] = {}
    face_down: dict[str, int] = {}
    k = 1
    for pid in pile_ids:
        if k >= len(data):
            break  # the remaining piles are empty
        n, fd = data[k] & ~_HAS_FACE_DOWN, None
        k += 1
        if data[k - 1] & _HAS_FACE_DOWN:
            if k >= len(data):
                raise damaged
            fd, k = data[k], k + 1
        ids = data[k : k + n]
        if len(ids) != n or any(b >= len(CARDS) for b in ids):
            raise damaged
        piles[pid] = [CARDS[b].code for b in ids]
        if fd is not None:
            face_down[pid] = fd
        k += n
    if k != len(data):
        raise damaged
    return piles, face_down


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_\-]*", text):
        raise ValueError(f"«{_short(text)}» no es una posición o un reparto de un código de partida")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("la posición del código está dañada") from None


def _short(text: str) -> str:
    return shown(text, raw=True)
