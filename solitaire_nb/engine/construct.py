"""Making games: `new_game` (a numbered or explicit deal) and `load_game` (a saved game,
replayed and checked).  Both build the starting position with `setup` and hand it to `Game`'s
constructor; `Game.from_position` does the same for a position given by hand."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import texts
from ..core.cards import Card
from ..core.checks import CODE_MAX, MAX_MOVES, check_length, shown
from ..core.moves import IllegalMove
from ..core.rules import GameDef
from ..core.shuffle import deal_order
from ..games.custom import from_spec
from .game import Game
from .setup import deal_cards, dealt_position, game_definition
from .values import FORMAT, FORMAT_VERSION


def new_game(
    name: str | GameDef, seed: int | None = None, deck: Sequence[str | Card] | None = None, **variant: bool
) -> Game:
    """A new game of `name` (a game's name, a composed name such as
    "beleaguered_castle+columns=10", or a `GameDef`): numbered deal `seed`, or the explicit
    deal order `deck` (card codes, first dealt first); without either, a numbered deal drawn
    at random."""
    definition = game_definition(name)
    flags = definition.resolve_variant(variant)
    seed, order = deal_cards(definition, seed, deck)
    pos, report = dealt_position(definition, definition.configure(flags), order)
    return Game(definition, flags, pos, seed=seed, deal=order, deal_report=report)


def load_game(text: str) -> Game:
    """Rebuild a game from `Game.to_json` text, replaying and checking its moves (a composed
    game from the document's "spec", which must describe the game its "game" names)."""
    if isinstance(text, str | bytes | bytearray):
        check_length(text, CODE_MAX, "El documento de partida")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"El texto no es un documento JSON de partida (deja de entenderse en la línea {exc.lineno}, "
            f"columna {exc.colno})"
        ) from None
    except (TypeError, ValueError, RecursionError):  # not text, or nested too deep to read
        raise ValueError("El texto no es un documento JSON de partida") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError("El documento no es una partida de solitaire_nb")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version != FORMAT_VERSION:
        raise ValueError(f"Versión de documento no admitida: {shown(doc.get('version'))}")
    for key in ("game", "variant", "seed", "deal", "start", "moves", "position"):
        if key not in doc:
            raise ValueError(f"Al documento le falta el campo {shown(key)}")
    variant, moves = doc["variant"], doc["moves"]
    if not isinstance(variant, dict) or not isinstance(moves, list):
        raise ValueError("Los campos 'variant' y 'moves' del documento no tienen la forma esperada")
    if len(moves) > MAX_MOVES:
        raise ValueError(f"El documento tiene {len(moves)} movimientos; como mucho se leen {MAX_MOVES}")
    definition = _saved_definition(doc)
    try:
        if doc["deal"] is not None:
            game = new_game(definition, deck=doc["deal"], **variant)
            seed = doc["seed"]
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
                raise ValueError(f"Número de partida no válido: {shown(seed)}")
            if seed is not None and deal_order(seed, game.definition.decks) != list(game.deal or ()):
                raise ValueError("El orden de las cartas no corresponde al número de partida")
            game.seed = seed
        else:
            start = doc["start"]
            if not isinstance(start, dict):
                raise ValueError("El documento no trae ni el reparto ni la posición inicial")
            # a document's "validate" (older versions wrote one) is never honoured: partial
            # positions load as practice positions, impossible ones are refused
            game = Game.from_position(definition, start.get("piles", {}), start.get("face_down", {}), **variant)
        for i, text_move in enumerate(moves):
            if not isinstance(text_move, str):
                raise ValueError(f"Movimiento n.º {i + 1} no válido: {shown(text_move)}")
            try:
                game.move(text_move)
            except IllegalMove as exc:
                raise ValueError(
                    f"El movimiento n.º {i + 1} ({shown(text_move, raw=True)}) no es válido: {texts.after_colon(exc.reason)}"
                ) from None
    except IllegalMove as exc:  # pragma: no cover - move errors are converted above
        raise ValueError(exc.reason) from None
    except (TypeError, AttributeError, KeyError, RecursionError):  # Python's words stay out
        raise ValueError("El documento de partida está dañado: algún campo no tiene la forma esperada") from None
    if doc["position"] != game.position():
        raise ValueError("La posición guardada no coincide con la que dan el reparto y los movimientos")
    return game


def _saved_definition(doc: Mapping[str, Any]) -> GameDef:
    """The game a saved document names: its "spec" (a composed game) rebuilt with
    `custom.from_spec` and checked against its "game" name, else the name itself."""
    name = doc["game"]
    if "spec" not in doc:
        return game_definition(name)
    try:
        definition = from_spec(doc["spec"])
    except ValueError as exc:
        raise ValueError(f"El juego compuesto del documento no es válido: {exc}") from None
    except (TypeError, AttributeError, KeyError, RecursionError):
        raise ValueError("El juego compuesto del documento no tiene la forma esperada") from None
    if definition.name != name:
        raise ValueError(
            f"El documento dice que el juego es {shown(name)}, pero su descripción es la de {shown(definition.name)}"
        )
    return definition
