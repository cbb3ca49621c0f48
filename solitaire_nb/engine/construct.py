"""Making games: `new_game` (a numbered or explicit deal), `Game.from_position` (a position
given by hand, checked), `load_game` (a saved game, replayed and checked) and the checks that
refuse, in Spanish, a position no play could reach."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..core.cards import CARDS, Card, new_deck
from ..core.checks import CODE_MAX, MAX_MOVES, check_length, check_seed, shown
from ..core.moves import IllegalMove
from ..core.rules import GameDef, Layout, Rules
from ..core.shuffle import deal_order
from .values import FORMAT, FORMAT_VERSION, DealReport

if TYPE_CHECKING:
    from .game import Game
    from .position import Position


def game_definition(name: str | GameDef) -> GameDef:
    """A `GameDef` as it is; the composed game a name with "+" describes
    ("beleaguered_castle+columns=10"); the registered game `name`; or a Spanish ValueError
    naming the known games."""
    from ..games import GAMES

    if isinstance(name, GameDef):
        return name
    if isinstance(name, str) and "+" in name:
        from ..games.custom import custom_from_name

        return custom_from_name(name)
    if not isinstance(name, str) or name not in GAMES:
        known = ", ".join(GAMES)
        raise ValueError(f"No existe el juego {shown(name)} (juegos: {known})")
    return GAMES[name]


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


class Setup:
    """`Game`'s construction and validation methods (a mixin: `Game` provides the fields)."""

    definition: GameDef
    rules: Rules
    pile_ids: tuple[str, ...]
    _idx: dict[str, int]
    _kind: tuple[str, ...]
    _pos: Position
    _practice: bool
    _start: dict[str, Any] | None

    def label(self, pile_id: str) -> str:  # pragma: no cover - defined by Game
        raise NotImplementedError

    @classmethod
    def from_position(
        cls,
        name: str | GameDef,
        piles: Mapping[str, Sequence[str | Card]],
        face_down: Mapping[str, int] | None = None,
        validate: bool | None = None,
        **variant: bool,
    ) -> Game:
        """A game set up from a position (pile id -> card codes, bottom to top; 0-based pile
        ids as in the rules document).

        With exactly the game's deck(s) the position must be one play can reach: foundations
        legal sequences and face-down cards only where play can put them.  With fewer cards it
        is a *practice position* (`is_practice`): no card more often than the decks hold,
        foundations legal sequences, face-down counts within their piles; it is won when every
        card in it is home.  Anything else is refused with a Spanish ValueError.  `validate`
        is ignored (older notebooks pass it): every position is checked.  No automatic action
        runs on loading."""
        del validate  # kept only so that older calls still run; it no longer skips checks
        definition = game_definition(name)
        game = cls(definition, definition.resolve_variant(variant))  # type: ignore[call-arg]
        pos = game._pos
        if not isinstance(piles, Mapping):
            raise ValueError("La posición debe ser un diccionario de pila -> lista de cartas")
        for pid, cards in piles.items():
            i = game._position_index(pid)
            if isinstance(cards, str) or not isinstance(cards, Iterable):
                raise ValueError(f"La pila {shown(pid)} debe ser una lista de cartas, no {shown(cards)}")
            pos.p[i] = [Card.parse(c).id for c in cards]
        default = []
        for i, kind in enumerate(game._kind):
            n = len(pos.p[i])
            default.append(n if kind == "S" else max(0, n - 1) if kind == "R" else 0)
            pos.fd[i] = default[i]
        if face_down is not None and not isinstance(face_down, Mapping):
            raise ValueError(f"Las cartas boca abajo se dan como pila -> número, no {shown(face_down)}")
        for pid, count in (face_down or {}).items():
            i = game._position_index(pid)
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= len(pos.p[i]):
                raise ValueError(f"Cartas boca abajo en {shown(pid)}: {shown(count)} no está entre 0 y {len(pos.p[i])}")
            pos.fd[i] = count
        have = game._card_counts()
        game._practice = sum(have.values()) < 52 * definition.decks
        if game._practice:
            game._validate_practice(have)
        else:
            game._validate_position()
        game._start = {
            "piles": {p: [CARDS[c].code for c in pos.p[i]] for i, p in enumerate(game.pile_ids) if pos.p[i]},
            # every count that is not 0, and a 0 where the default is not (a stock or reserve
            # turned face up): loading the start again gives this very position
            "face_down": {p: pos.fd[i] for i, p in enumerate(game.pile_ids) if pos.fd[i] or default[i]},
        }
        return game

    def validate(self) -> None:
        """Raise a Spanish ValueError if the position is one no play could reach: with the
        whole deck(s), foundations that are legal sequences and face-down cards only where
        play puts them; in a practice position, no card more often than the decks hold it
        and legal foundations."""
        have = self._card_counts()
        if any(not 0 <= f <= len(p) for f, p in zip(self._pos.fd, self._pos.p, strict=True)):
            raise ValueError("Posición imposible: hay más cartas boca abajo que cartas en alguna pila")
        if sum(have.values()) >= 52 * self.definition.decks:
            self._validate_position()
        else:
            self._validate_practice(have)

    def _card_counts(self) -> Counter:
        return Counter(CARDS[c] for q in self._pos.p for c in q)

    def _validate_practice(self, have: Counter) -> None:
        """A practice position must be one that could exist: each card at most as often as
        the decks hold it, and foundations that are legal sequences."""
        decks = self.definition.decks
        extra = sorted(c for c, n in have.items() if n > decks)
        if extra:
            times = "una vez" if decks == 1 else f"{decks} veces"
            raise ValueError(
                f"Posición imposible: {' '.join(c.code for c in extra)} aparece más de {times} "
                f"({_decks_word(decks)} en {self.definition.display_name})"
            )
        self._validate_foundations()

    def _position_index(self, pid: Any) -> int:
        if not isinstance(pid, str) or pid not in self._idx:
            raise ValueError(
                f"{self.definition.display_name} no tiene la pila {shown(pid)}; sus pilas son {', '.join(self.pile_ids)}"
            )
        return self._idx[pid]

    def _validate_position(self) -> None:
        _check_cards(self._card_counts(), self.definition)
        self._validate_foundations()
        pos = self._pos
        for i, pid in enumerate(self.pile_ids):
            n, fd, kind = len(pos.p[i]), pos.fd[i], self._kind[i]
            if kind == "S":
                allowed = fd == n
            elif kind == "R":
                allowed = fd == max(0, n - 1)
            elif kind == "T" and self.rules.face_down_tableau:
                allowed = fd == 0 if n == 0 else fd <= n - 1
            else:
                allowed = fd == 0
            if not allowed:
                raise ValueError(
                    f"{self.label(pid)} no puede tener {fd} cartas boca abajo en {self.definition.display_name} "
                    "(solo la reserva, el mazo y el tablero de Moving Left las tienen, y la carta de arriba "
                    "de una pila del tablero o de la reserva está boca arriba)"
                )
        if self.rules.refill_from_reserve and pos.p[pos.table.r]:
            holes = [self.label(self.pile_ids[i]) for i in pos.table.tab if not pos.p[i]]
            if holes:
                raise ValueError(
                    f"Posición imposible: {', '.join(holes)} está vacío mientras la reserva tiene cartas "
                    "(un hueco se rellena al instante desde la reserva)"
                )

    def _validate_foundations(self) -> None:
        """Each foundation must be a sequence its rule builds: rebuilt card by card, asking
        `Position.accepts` (the one source of legality) at each step."""
        pos = self._pos
        fnd = pos.table.fnd
        saved = [pos.p[fi] for fi in fnd]
        for fi in fnd:
            pos.p[fi] = []
        try:
            for k, fi in enumerate(fnd):
                for cid in saved[k]:
                    if not pos.accepts(fi, cid):
                        raise ValueError(
                            f"{self.label(self.pile_ids[fi])} no es una secuencia válida: "
                            f"{CARDS[cid].articulo} no puede estar ahí"
                        )
                    pos.p[fi].append(cid)
        finally:
            for k, fi in enumerate(fnd):
                pos.p[fi] = saved[k]

    def _apply_layout(self, layout: Layout) -> None:
        for pid, cards in layout.piles.items():
            self._pos.p[self._idx[pid]] = [c.id for c in cards]
        for pid, n in layout.face_down.items():
            self._pos.fd[self._idx[pid]] = n


# ---------------------------------------------------------------------- module functions
def new_game(
    name: str | GameDef, seed: int | None = None, deck: Sequence[str | Card] | None = None, **variant: bool
) -> Game:
    """A new game of `name` (a game's name, a composed name such as
    "beleaguered_castle+columns=10", or a `GameDef`): numbered deal `seed`, or the explicit
    deal order `deck` (card codes, first dealt first); without either, a numbered deal drawn
    at random."""
    from .game import Game

    definition = game_definition(name)
    flags = definition.resolve_variant(variant)
    if seed is not None and deck is not None:
        raise ValueError("Indica un número de partida (seed) o un orden de cartas (deck), no los dos")
    if deck is not None:
        if isinstance(deck, str) or not isinstance(deck, Iterable):
            raise ValueError("deck debe ser una lista de códigos de carta, como ['AS', '10H', …]")
        order = [Card.parse(c) for c in islice(deck, 52 * definition.decks + 1)]
        _check_cards(Counter(order), definition)
    else:
        seed = random.randrange(1, 1_000_000) if seed is None else check_seed(seed)
        order = deal_order(seed, definition.decks)
    game = Game(definition, flags)
    game.seed = seed
    game._deal = tuple(order)
    rules = game.rules
    layout = definition.deal(list(order), rules)
    game._apply_layout(layout)
    ops = game._pos.autoplay()  # CB-7 after the deal (nothing without autoplay)
    if definition.reports_deal or rules.deal_to_foundations or rules.autoplay or layout.to_foundations:
        moved = [op for op in ops if len(op) == 4]
        game.deal_report = DealReport(
            tuple(layout.to_foundations),
            tuple(layout.meant_for),
            tuple(CARDS[op[2][0]] for op in moved),
            tuple(game.pile_ids[op[0]] for op in moved),
        )
    return game


def load_game(text: str) -> Game:
    """Rebuild a game from `Game.to_json` text, replaying and checking its moves (a composed
    game from the document's "spec", which must describe the game its "game" names)."""
    from .game import Game

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
            if seed is not None and deal_order(seed, game.definition.decks) != list(game._deal or ()):
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
                raise ValueError(f"Movimiento nº {i + 1} no válido: {shown(text_move)}")
            try:
                game.move(text_move)
            except IllegalMove as exc:
                raise ValueError(
                    f"El movimiento nº {i + 1} ({shown(text_move, raw=True)}) no es válido: {exc.reason}"
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
    from ..games.custom import from_spec

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
