"""The rules engine: one `Game` class that plays any game declared as a `GameDef`.

A game's state is one `Position` (card ids per pile, face-down counts) with the game's
compiled rule table; legality, the legal moves, playing a move with its automatic actions
and undoing it are the position's (GEN-2: one undo restores the exact previous position).
`Game` adds what a player and a teacher need around it: pile ids and labels, the history
with undo/redo, `Card` objects in its public views (`CARDS[id]`) and text forms.  It owns
one helper, a `refusals.Referee` that words why a move is refused; its starting positions
come from `setup` (`Game.from_position`, `construct.new_game`, `construct.load_game`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import texts
from ..core.cards import CARDS, Card, new_deck
from ..core.checks import shown
from ..core.moves import IllegalMove, Move
from ..core.rules import GameDef, Rules
from .position import Op, Position
from .refusals import Referee
from .setup import check_position, game_definition, given_position
from .values import FORMAT, FORMAT_VERSION, Action, DealReport, PlayerView, Step


class Game:
    """A game being played.  Create it with `new_game`, `Game.from_position` or `load_game`.

    `Game(definition, variant)` is a game with every pile empty; the factories pass the
    starting `position` (of the rules `definition.configure(variant)` gives) and where it
    came from: a numbered `seed`, the `deal` order, a hand-given `start` (`practice` when it
    has fewer cards than the decks), what the deal did (`deal_report`)."""

    def __init__(
        self,
        definition: GameDef,
        variant: Mapping[str, bool],
        position: Position | None = None,
        *,
        seed: int | None = None,
        deal: Sequence[Card] | None = None,
        start: dict[str, Any] | None = None,
        practice: bool = False,
        deal_report: DealReport | None = None,
    ):
        self.definition = definition
        self.name: str = definition.name
        self.variant: dict[str, bool] = dict(variant)
        if position is None:
            position = Position.empty(definition.configure(self.variant))
        table = position.table
        self.rules: Rules = table.rules
        self.seed: int | None = seed
        self.deal_report: DealReport | None = deal_report
        self._deal: tuple[Card, ...] | None = None if deal is None else tuple(deal)
        self._start = start
        self._practice = practice
        self._pos = position
        self.pile_ids: tuple[str, ...] = table.pile_ids
        self._idx = {p: i for i, p in enumerate(self.pile_ids)}
        self._m1 = [[Move(a, b, 1) for b in self.pile_ids] for a in self.pile_ids]
        self._undo: list[tuple[Move, list[Op]]] = []
        self._redo: list[Move] = []
        # the last `legal_moves` answer and the top undo record it was for (None: the start);
        # a record is a new object for every move, so `is` tells the same position
        self._legal: tuple[Any, tuple[Move, ...]] = (False, ())
        self._referee = Referee(definition, table)

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
        flags = definition.resolve_variant(variant)
        pos, start, practice = given_position(definition, definition.configure(flags), piles, face_down)
        return cls(definition, flags, pos, start=start, practice=practice)

    def validate(self) -> None:
        """Raise a Spanish ValueError if the position is one no play could reach (see
        `setup.check_position`)."""
        check_position(self.definition, self._pos)

    # ------------------------------------------------------------------ public views
    def compact(self) -> Position:
        """An independent copy of the current position as a `Position` (card ids per pile,
        face-down counts, the game's rule table), to search or analyse without touching the
        game."""
        return self._pos.copy()

    @property
    def piles(self) -> dict[str, tuple[Card, ...]]:
        """Pile id -> its cards, bottom to top."""
        get = CARDS.__getitem__
        return {p: tuple(map(get, q)) for p, q in zip(self.pile_ids, self._pos.p, strict=True)}

    def pile(self, pile_id: str) -> tuple[Card, ...]:
        """The cards of `pile_id`, bottom to top."""
        return tuple(map(CARDS.__getitem__, self._pos.p[self._index(pile_id)]))

    def face_down(self, pile_id: str) -> int:
        """How many cards at the bottom of `pile_id` lie face down."""
        return self._pos.fd[self._index(pile_id)]

    @property
    def tableau_ids(self) -> tuple[str, ...]:
        """The tableau piles' ids, left to right ("T0", "T1", …)."""
        return tuple(self.pile_ids[i] for i in self._pos.table.tab)

    @property
    def foundation_ids(self) -> tuple[str, ...]:
        """The foundations' ids, in order ("F0", "F1", …)."""
        return tuple(self.pile_ids[i] for i in self._pos.table.fnd)

    def pile_kind(self, pile_id: str) -> str:
        """What a pile is: "T" tableau, "F" foundation, "R" reserve, "S" stock, "W" waste."""
        return self._pos.table.kind[self._index(pile_id)]

    def run_length(self, pile_id: str) -> int:
        """How many cards from the top of a tableau pile may move together now (0 for an empty
        pile or a face-down top; 1 where the rules move one card at a time)."""
        i = self._index(pile_id)
        return self._pos.run_length(i) if self._pos.table.kind[i] == "T" else 0

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def hides_cards(self) -> bool:
        """Whether this game deals cards face down (see `Rules.hides_cards`)."""
        return self.rules.hides_cards

    def player_view(self) -> PlayerView:
        """What a player sees: every face-up card, and for a face-down card (the stock's, the
        reserve's, Moving Left's tableau) only that it is there (None).  `unseen` lists the
        cards the player cannot see, sorted, which a player can work out by counting; it
        does not say where they lie."""
        pos = self._pos
        piles = {
            p: tuple(None if j < pos.fd[i] else CARDS[c] for j, c in enumerate(pos.p[i]))
            for i, p in enumerate(self.pile_ids)
        }
        if self._practice:  # a practice position's missing cards are not in play at all
            unseen = Counter(CARDS[c] for i, q in enumerate(pos.p) for c in q[: pos.fd[i]])
        else:
            seen = Counter(c for cards in piles.values() for c in cards if c is not None)
            unseen = Counter(new_deck(self.definition.decks)) - seen
        return PlayerView(self.name, dict(self.variant), piles, tuple(sorted(unseen.elements(), key=lambda c: c.id)))

    def _index(self, pile_id: str) -> int:
        try:
            return self._idx[pile_id]
        except (KeyError, TypeError):
            raise ValueError(f"{self.definition.display_name} no tiene la pila {shown(pile_id)}") from None

    def label(self, pile_id: str) -> str:
        """The Spanish label a reader sees for a pile ("Tablero 4", "Base 1", "Abanico 2")."""
        self._index(pile_id)  # a pile this game has, or a Spanish ValueError
        return texts.pile_label(pile_id, self.definition.tableau_label)

    @property
    def display_name(self) -> str:
        return self.definition.display_name

    @property
    def moves_played(self) -> int:
        return len(self._undo)

    @property
    def history(self) -> tuple[Move, ...]:
        """The player's moves so far (automatic actions are inside each move)."""
        return tuple(m for m, _ in self._undo)

    @property
    def deal(self) -> tuple[Card, ...] | None:
        """The deal order this game was dealt from (None for a position given by hand)."""
        return self._deal

    def start_position(self) -> dict[str, Any] | None:
        """The position given by hand this game started from (as `position`'s data, empty
        piles left out), or None for a game dealt from a deck."""
        if self._start is None:
            return None
        return {"piles": {p: list(c) for p, c in self._start["piles"].items()}, "face_down": dict(self._start["face_down"])}

    def steps(self) -> list[Step]:
        """Each move played so far with the cards it moved and its automatic actions."""
        return [self._step(move, ops) for move, ops in self._undo]

    def _step(self, move: Move, ops: list[Op]) -> Step:
        cards = ops[0][2]
        moved = (CARDS[cards[0]],) if len(cards) == 1 else tuple(map(CARDS.__getitem__, cards))
        return Step(move, moved, tuple(map(self._action, ops[1:])) if len(ops) > 1 else ())

    def _action(self, op: Op) -> Action:
        """One operation of an undo record (`position.Op`) as an `Action` with cards."""
        if len(op) == 4:
            si, di, cards, _ = op
            return Action(self.pile_ids[si], self.pile_ids[di], tuple(map(CARDS.__getitem__, cards)))
        pi, _, cid = op
        return Action(self.pile_ids[pi], None, (CARDS[cid],))

    def foundation_cards(self) -> int:
        """How many cards are on the foundations."""
        return sum(len(self._pos.p[i]) for i in self._pos.table.fnd)

    @property
    def is_practice(self) -> bool:
        """A position given by hand with only some of the cards (not a full deal): it is won
        when every card in it is home."""
        return self._practice

    @property
    def total_cards(self) -> int:
        """How many cards are in play: the whole deck(s), or a practice position's cards."""
        return sum(map(len, self._pos.p))

    def is_won(self) -> bool:
        """Every card in play is home (in a full deal: all the deck's cards; in a practice
        position: the cards it has)."""
        return self._pos.is_won()

    def is_stuck(self) -> bool:
        """Not won and no legal move at all (``S>W`` counts as a move)."""
        return not self.is_won() and not self.legal_moves()

    # ------------------------------------------------------------------ legal moves
    def legal_moves(self) -> list[Move]:
        """Every move `move` accepts now, pointless ones included, and nothing else.

        Order (`Position.moves`'s canonical order, i.e. sorted by (source, count,
        destination) as pile indices in `pile_ids` order): sources in pile order (tableau,
        foundations, reserve, stock, waste); for each source its single-card moves with
        destinations in pile order (holes among the other tableau piles), then its runs of
        2, 3, … cards, each with destinations in pile order."""
        out = self._pos._moves(self._m1, self._run_move)
        self._legal = (self._undo[-1] if self._undo else None, tuple(out))
        return out

    def _run_move(self, si: int, di: int, n: int) -> Move:
        return Move(self.pile_ids[si], self.pile_ids[di], n)

    # ------------------------------------------------------------------ playing
    def can_move(self, src: str | Move, dst: str | None = None, count: int = 1) -> bool:
        """Whether `move` would accept this move (same arguments)."""
        return self._referee.check(self._pos, src, dst, count)[1] is None

    def why_not(self, src: str | Move, dst: str | None = None, count: int = 1, fits: bool = True) -> str | None:
        """None if the move is legal, else a Spanish sentence saying which rule refuses it; with
        `fits` False it never names the cards that would fit (an exercise's answer)."""
        refusal = self._referee.check(self._pos, src, dst, count, fits)[1]
        return None if refusal is None else refusal[1]

    def move(self, src: str | Move, dst: str | None = None, count: int = 1) -> Step:
        """Play a move (``g.move("T3", "F0")``, ``g.move("T2>T7x3")`` or a `Move`) with every
        automatic action that follows; raise `IllegalMove` and change nothing if refused.

        0-based pile ids as in the rules document; learners use solitaire_nb.games.notation."""
        at, legal = self._legal
        if (
            src.__class__ is Move
            and at is (self._undo[-1] if self._undo else None)
            and src.n_cards.__class__ is int  # True == 1, but `check` refuses it
            and src in legal
        ):
            move: Move | None = src  # one of the moves `legal_moves` just gave for this position
        else:
            move, refusal = self._referee.check(self._pos, src, dst, count)
            if refusal is not None:
                raise IllegalMove(refusal[1], refusal[0])
        assert move is not None
        self._play(move)
        self._redo.clear()
        return self._step(*self._undo[-1])

    def _play(self, move: Move) -> None:
        si, di = self._idx[move.src], self._idx[move.dst]
        ops = self._pos.play(si, di, move.n_cards)
        self._undo.append((self._m1[si][di] if move.n_cards == 1 else move, ops))

    def undo(self) -> bool:
        """Take back the last move with its automatic actions; False if there is none."""
        if not self._undo:
            return False
        move, ops = self._undo.pop()
        self._pos.undo(ops)
        self._redo.append(move)
        return True

    def redo(self) -> bool:
        """Play again the last move taken back; False if there is none."""
        if not self._redo:
            return False
        self._play(self._redo.pop())
        return True

    def copy(self) -> Game:
        """An independent game with the same position and history."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.variant = dict(self.variant)
        g._pos = self._pos.copy()
        g._undo = list(self._undo)
        g._redo = list(self._redo)
        return g

    # ------------------------------------------------------------------ text forms
    def position(self) -> dict[str, Any]:
        """The position as plain data: card codes per pile and face-down counts."""
        pos = self._pos
        return {
            "piles": {p: [CARDS[c].code for c in pos.p[i]] for i, p in enumerate(self.pile_ids)},
            "face_down": {p: pos.fd[i] for i, p in enumerate(self.pile_ids) if pos.fd[i]},
        }

    def to_json(self) -> str:
        """The game as a JSON document: game, variant, seed, deal, moves and position (and,
        for a composed game, its `spec`)."""
        doc: dict[str, Any] = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": self.name,
            "variant": self.variant,
            "seed": self.seed,
            "deal": [c.code for c in self._deal] if self._deal is not None else None,
            "start": self._start,
            "moves": [str(m) for m in self.history],
            "position": self.position(),
        }
        if self.definition.spec is not None:
            doc["spec"] = self.definition.spec
        return json.dumps(doc, ensure_ascii=False)

    def __repr__(self) -> str:
        if self.seed is not None:
            origin = f"partida n.º {self.seed}"
        else:
            origin = "reparto elegido" if self._deal is not None else "posición preparada"
        played = self.moves_played
        return f"<{self.definition.display_name}: {origin}, {played} movimiento{'' if played == 1 else 's'}>"

    def __str__(self) -> str:
        lines = [repr(self)]
        pos = self._pos
        for i, p in enumerate(self.pile_ids):
            cards = [("##" if j < pos.fd[i] else CARDS[c].code) for j, c in enumerate(pos.p[i])]
            lines.append(f"{p:>3}: {' '.join(cards)}")
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        from ..render.draw import render_svg

        return render_svg(self)
