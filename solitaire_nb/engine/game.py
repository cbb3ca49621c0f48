"""The rules engine: one `Game` class that plays any game declared as a `GameDef`.

State is a list of piles (lists of `Card`, bottom to top) and a face-down count per pile.
Every change is a recorded atomic operation, so undo replays a move's operations backwards
and restores the exact previous position; automatic actions (turning a card up, refilling
from the reserve, Moving Left's shift, Citadel's autoplay) are recorded inside the move that
caused them (GEN-2).

Legality has one source: `_accepted(pile)`, the set of card ids a pile takes right now (built
from the game's accept tables).  `legal_moves` inverts those sets to stay fast; `_refusal`
checks one move against the same sets and, only when it fails, builds the Spanish sentence.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from typing import Any, NamedTuple

from .. import notation, texts
from ..cards import CARDS, Card, new_deck, same_rank_ids
from ..checks import check_seed, shown
from ..moves import IllegalMove, Move
from ..rules import ALL, GameDef, Layout, Rules
from ..shuffle import deal_order

FORMAT = "solitaire_nb/partida"
FORMAT_VERSION = 1

KINGS = same_rank_ids(13)
ACES = same_rank_ids(1)


class Action(NamedTuple):
    """One thing that happened in a move: cards going from `src` to `dst`, or, with `dst`
    None, the card `cards[0]` turning face up on `src`."""

    src: str
    dst: str | None
    cards: tuple[Card, ...]


class Step(NamedTuple):
    """A player's move with the cards it moved and the automatic actions that followed it."""

    move: Move
    cards: tuple[Card, ...]
    automatic: tuple[Action, ...]


class PlayerView(NamedTuple):
    """A position as a player sees it (`Game.player_view`)."""

    game: str
    variant: dict[str, bool]
    piles: dict[str, tuple[Card | None, ...]]
    """Pile id -> its cards bottom to top, None for each face-down card."""
    unseen: tuple[Card, ...]
    """The cards not visible anywhere, sorted by card id (not by where they lie)."""


class DealReport(NamedTuple):
    """What Citadel's (or Beleaguered Castle's) deal did before the first move."""

    to_foundations: tuple[Card, ...]
    """Cards that went to the foundations during the deal (CB-2), in deal order."""
    meant_for: tuple[str, ...]
    """For each of those cards, the tableau pile it was meant for."""
    autoplay: tuple[Card, ...]
    """Cards the autoplay moved right after the deal (CB-7), in the order they moved."""
    autoplay_from: tuple[str, ...]
    """For each of those cards, the tableau pile it came from."""


def _definition(name: str) -> GameDef:
    from ..games import GAMES

    if not isinstance(name, str) or name not in GAMES:
        known = ", ".join(GAMES)
        raise ValueError(f"No existe el juego {shown(name)} (juegos: {known})")
    return GAMES[name]


class Game:
    """A game being played.  Create it with `new_game`, `Game.from_position` or `load_game`."""

    def __init__(self, definition: GameDef, variant: Mapping[str, bool]):
        self.definition = definition
        self.name: str = definition.name
        self.variant: dict[str, bool] = dict(variant)
        self.rules: Rules = definition.configure(self.variant)
        self.seed: int | None = None
        self.deal_report: DealReport | None = None
        self._deal: tuple[Card, ...] | None = None
        self._start: dict[str, Any] | None = None
        self._layout_piles()
        self._undo: list[tuple[Move, list[tuple]]] = []
        self._redo: list[Move] = []
        self._practice = False

    # ------------------------------------------------------------------ layout
    def _layout_piles(self) -> None:
        r = self.rules
        ids = [f"T{i}" for i in range(r.tableau_count)]
        ids += [f"F{i}" for i in range(len(r.foundations))]
        ids += [p for p, present in (("R", r.reserve), ("S", r.stock), ("W", r.waste)) if present]
        self.pile_ids: tuple[str, ...] = tuple(ids)
        self._idx = {p: i for i, p in enumerate(ids)}
        self._kind = [p[0] for p in ids]
        self._tab = tuple(i for i, k in enumerate(self._kind) if k == "T")
        self._fnd = tuple(i for i, k in enumerate(self._kind) if k == "F")
        self._dests = self._tab + self._fnd
        self._r = self._idx.get("R", -1)
        self._s = self._idx.get("S", -1)
        self._w = self._idx.get("W", -1)
        self._piles: list[list[Card]] = [[] for _ in ids]
        self._fd: list[int] = [0] * len(ids)
        self._tab_table = _tables_for(r.tableau)
        # legal_moves indexes tableau piles by what their rule looks at: the rank alone where
        # any suit of the rank below goes (Beleaguered Castle, Citadel, Scotch), else the card.
        by_rank = r.tableau.suits == "any" and r.tableau.build == "down" and r.tableau.empty in ("any", "none")
        self._tab_key = [c.rank if by_rank else c.id for c in CARDS]
        self._tab_wanted_keys = (
            [(c.rank - 1,) if c.rank > 1 else () for c in CARDS] if by_rank else list(self._tab_table)
        )
        self._fnd_tables = [_tables_for(f) for f in r.foundations]
        self._fnd_empty_static = [_static_foundation_start(f) for f in r.foundations]
        self._empty_tab = {"any": ALL, "king": KINGS, "none": ()}.get(r.tableau.empty, "reserve")
        self._m1 = [[Move(a, b, 1) for b in ids] for a in ids]
        self._stock_move = Move("S", "W", 1)

    # ------------------------------------------------------------------ public views
    @property
    def piles(self) -> dict[str, tuple[Card, ...]]:
        """Pile id -> its cards, bottom to top."""
        return {p: tuple(self._piles[i]) for i, p in enumerate(self.pile_ids)}

    def pile(self, pile_id: str) -> tuple[Card, ...]:
        return tuple(self._piles[self._index(pile_id)])

    def face_down(self, pile_id: str) -> int:
        """How many cards at the bottom of `pile_id` lie face down."""
        return self._fd[self._index(pile_id)]

    @property
    def tableau_ids(self) -> tuple[str, ...]:
        """The tableau piles' ids, left to right ("T0", "T1", …)."""
        return tuple(self.pile_ids[i] for i in self._tab)

    @property
    def foundation_ids(self) -> tuple[str, ...]:
        """The foundations' ids, in order ("F0", "F1", …)."""
        return tuple(self.pile_ids[i] for i in self._fnd)

    def pile_kind(self, pile_id: str) -> str:
        """What a pile is: "T" tableau, "F" foundation, "R" reserve, "S" stock, "W" waste."""
        return self._kind[self._index(pile_id)]

    def run_length(self, pile_id: str) -> int:
        """How many cards from the top of a tableau pile may move together now (0 for an empty
        pile or a face-down top; 1 where the rules move one card at a time)."""
        i = self._index(pile_id)
        return self._run_length(i) if self._kind[i] == "T" else 0

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

    def validate(self) -> None:
        """Raise a Spanish ValueError if the position is one no play could reach: with the
        whole deck(s), foundations that are legal sequences and face-down cards only where
        play puts them; in a practice position, no card more often than the decks hold it
        and legal foundations."""
        have = Counter(c for p in self._piles for c in p)
        if any(not 0 <= f <= len(p) for f, p in zip(self._fd, self._piles, strict=True)):
            raise ValueError("Posición imposible: hay más cartas boca abajo que cartas en alguna pila")
        if sum(have.values()) >= 52 * self.definition.decks:
            self._validate_position()
        else:
            self._validate_practice(have)

    def player_view(self) -> PlayerView:
        """What a player sees: every face-up card, and for a face-down card (the stock's, the
        reserve's, Moving Left's tableau) only that it is there (None).  `unseen` lists the
        cards the player cannot see, sorted, which a player can work out by counting; it
        does not say where they lie."""
        piles = {
            p: tuple(None if j < self._fd[i] else c for j, c in enumerate(self._piles[i]))
            for i, p in enumerate(self.pile_ids)
        }
        seen = Counter(c for cards in piles.values() for c in cards if c is not None)
        unseen = Counter(new_deck(self.definition.decks)) - seen if not self._practice else Counter()
        if self._practice:
            hidden = Counter(c for i, p in enumerate(self._piles) for c in p[: self._fd[i]])
            unseen = hidden  # a practice position's missing cards are not in play at all
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
        out = []
        for move, ops in self._undo:
            actions = [self._action(op) for op in ops]
            out.append(Step(move, actions[0].cards, tuple(actions[1:])))
        return out

    def _action(self, op: tuple) -> Action:
        if len(op) == 4:
            si, di, cards, _ = op
            return Action(self.pile_ids[si], self.pile_ids[di], tuple(cards))
        pi, _, card = op
        return Action(self.pile_ids[pi], None, (card,))

    def foundation_cards(self) -> int:
        return sum(len(self._piles[i]) for i in self._fnd)

    @property
    def is_practice(self) -> bool:
        """A position given by hand with only some of the cards (not a full deal): it is won
        when every card in it is home."""
        return self._practice

    @property
    def total_cards(self) -> int:
        """How many cards are in play: the whole deck(s), or a practice position's cards."""
        return sum(len(p) for p in self._piles)

    def is_won(self) -> bool:
        """Every card in play is home (in a full deal: all the deck's cards; in a practice
        position: the cards it has)."""
        return all(not self._piles[i] for i in range(len(self._piles)) if self._kind[i] != "F")

    def is_stuck(self) -> bool:
        """Not won and no legal move at all (``S>W`` counts as a move)."""
        return not self.is_won() and not self.legal_moves()

    # ------------------------------------------------------------------ accept sets
    def _accepted(self, di: int):
        """Card ids pile `di` takes now (ALL for any card); the single source of legality."""
        p = self._piles[di]
        kind = self._kind[di]
        if kind == "T":
            if p:
                return self._tab_table[p[-1].id]
            if self._empty_tab != "reserve":
                return self._empty_tab
            return ALL if not self._piles[self._r] else ()
        if kind == "F":
            fi = di - self._fnd[0]
            if p:
                return self._fnd_tables[fi][p[-1].id]
            static = self._fnd_empty_static[fi]
            return static if static is not None else self._new_suit_starts(fi)
        return ()

    def _new_suit_starts(self, fi: int) -> tuple[int, ...]:
        rule = self.rules.foundations[fi]
        taken = {
            self._piles[self._fnd[j]][0].suit
            for j, other in enumerate(self.rules.foundations)
            if other.direction == rule.direction and self._piles[self._fnd[j]]
        }
        return tuple(cid for cid in same_rank_ids(rule.base_rank) if CARDS[cid].suit not in taken)

    def _run_length(self, si: int) -> int:
        """How many cards from the top of tableau pile `si` may move together."""
        p = self._piles[si]
        up = len(p) - self._fd[si]
        if up <= 0:
            return 0
        if not self.rules.tableau.runs:
            return 1
        table = self._tab_table
        k = 1
        while k < up and p[-k].id in table[p[-k - 1].id]:
            k += 1
        return k

    # ------------------------------------------------------------------ legal moves
    def legal_moves(self) -> list[Move]:
        """Every move `move` accepts now, pointless ones included, and nothing else.

        Order: sources in pile order (tableau, foundations, reserve, stock, waste); for each
        source, single cards first (tableau, then foundations, then holes), then longer runs.

        The accept sets are inverted once (card id -> piles wanting it), so the work grows
        with the number of legal moves, not with sources x destinations.  A pile never
        appears as its own destination: no tableau rule accepts a card on itself (the accepted
        ranks differ from the top's), and a hole has no card to move."""
        piles = self._piles
        wanted_keys = self._tab_wanted_keys
        key = self._tab_key
        want_t: dict[int, list[int]] = {}  # tableau key -> tableau piles taking such a card
        want_f: dict[int, list[int]] = {}  # card id -> foundations taking it
        holes: list[int] = []
        for di in self._tab:
            p = piles[di]
            acc = wanted_keys[p[-1].id] if p else self._accepted(di)
            if acc is ALL:
                holes.append(di)
                continue
            for cid in acc:
                lst = want_t.get(cid)
                if lst is None:
                    want_t[cid] = [di]
                else:
                    lst.append(di)
        fnd_tables = self._fnd_tables
        for fi, di in enumerate(self._fnd):
            p = piles[di]
            for cid in fnd_tables[fi][p[-1].id] if p else self._accepted(di):
                lst = want_f.get(cid)
                if lst is None:
                    want_f[cid] = [di]
                else:
                    lst.append(di)
        out: list[Move] = []
        append = out.append
        m1 = self._m1
        fd = self._fd
        for si in self._tab:
            p = piles[si]
            if not p or fd[si] >= len(p):
                continue
            row = m1[si]
            cid = p[-1].id
            lst = want_t.get(key[cid])
            if lst:
                for di in lst:
                    append(row[di])
            lst = want_f.get(cid)
            if lst:
                for di in lst:
                    append(row[di])
            for di in holes:
                append(row[di])
        if self.rules.tableau.runs:
            out += self._run_moves(want_t, holes)
        if self.rules.takeback:
            for si in self._fnd:
                p = piles[si]
                if p:
                    row = m1[si]
                    lst = want_t.get(key[p[-1].id])
                    if lst:
                        for di in lst:
                            append(row[di])
                    for di in holes:
                        append(row[di])
        for si in (self._r, self._s, self._w):
            if si < 0 or not piles[si]:
                continue
            if si == self._s:
                append(self._stock_move)
            elif si != self._r or self.rules.reserve_playable:
                row = m1[si]
                cid = piles[si][-1].id
                for di in (*want_t.get(key[cid], ()), *want_f.get(cid, ()), *holes):
                    append(row[di])
        return out

    def _run_moves(self, want_t: dict[int, list[int]], holes: list[int]) -> list[Move]:
        """Moves of two or more cards (ML-4): only onto tableau piles."""
        out = []
        ids = self.pile_ids
        for si in self._tab:
            p = self._piles[si]
            for n in range(2, self._run_length(si) + 1):
                for di in want_t.get(self._tab_key[p[-n].id], []) + holes:
                    out.append(Move(ids[si], ids[di], n))
        return out

    def can_move(self, src: str | Move, dst: str | None = None, count: int = 1) -> bool:
        return self.why_not(src, dst, count) is None

    def why_not(self, src: str | Move, dst: str | None = None, count: int = 1) -> str | None:
        """None if the move is legal, else a Spanish sentence saying which rule refuses it."""
        refusal = self._check(src, dst, count)[1]
        return None if refusal is None else refusal[1]

    def _check(self, src, dst, count) -> tuple[Move | None, tuple[str | None, str] | None]:
        if isinstance(src, Move):
            move = src
        elif isinstance(src, str) and dst is None:
            try:
                move = Move.parse(src)
            except ValueError as exc:
                return None, (None, str(exc))
        else:
            move = Move(src, dst, count)  # type: ignore[arg-type]
        return move, self._refusal(move.src, move.dst, move.count)

    # ------------------------------------------------------------------ refusals
    def _refusal(self, src: Any, dst: Any, count: Any) -> tuple[str | None, str] | None:
        """None if legal, else (rule id, Spanish sentence)."""
        name = self.definition.display_name
        si = self._idx.get(src) if isinstance(src, str) else None
        di = self._idx.get(dst) if isinstance(dst, str) else None
        if si is None or di is None:
            bad = src if si is None else dst
            return None, (
                f"{name} no tiene la pila {shown(bad)}; sus pilas son {', '.join(self.pile_ids)}."
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            return None, f"El número de cartas que se mueven debe ser un entero positivo, no {shown(count)}."
        if si == di:
            return None, f"El origen y el destino son la misma pila ({self.label(src)})."
        ks, kd = self._kind[si], self._kind[di]
        p = self._piles[si]
        if ks == "S":
            if kd != "W":
                return "ML-7", (
                    "Del mazo solo se voltea una carta al descarte "
                    f"(movimiento «{notation.format_move(self, self._stock_move)}»)."
                )
            if count != 1:
                return "ML-7", "Del mazo se voltea una sola carta cada vez."
            if not p:
                return "ML-7", "El mazo está vacío, y solo hay una pasada: no se vuelve a repartir."
            return None
        if kd in ("S", "W", "R"):
            rule = {"S": "ML-7", "W": "ML-7", "R": "CH-1"}[kd]
            return rule, f"No se puede poner ninguna carta en {_the(self.label(dst))}."
        if not p:
            return None, f"{texts.capitalize(_the(self.label(src)))} está vacío: no hay ninguna carta que mover."
        if ks == "F":
            if not self.rules.takeback:
                rule = "BD-6" if self.name == "bakers_dozen" else "CB-6"
                return rule, f"En {name} una carta de la base no vuelve al juego."
            if kd == "F":
                where = "en los abanicos" if self.definition.tableau_label == "Abanico" else "en el tablero"
                return "GEN-1", f"Una carta de la base solo vuelve al juego {where}, nunca a otra base."
        if ks == "R" and not self.rules.reserve_playable:
            return "CH-7", "En esta variante la reserva solo rellena huecos: no se juega a mano."
        if count > 1:
            if not self.rules.tableau.runs or ks != "T":
                return _one_card_rule(self.name), f"En {name} solo se mueve una carta cada vez."
            if kd == "F":
                return "ML-2", "A la base las cartas van de una en una."
            up = len(p) - self._fd[si]
            if count > len(p):
                return "ML-4", f"{self.label(src)} solo tiene {len(p)} cartas."
            if count > up:
                return "ML-4", f"Solo {_cards_word(up)} de {self.label(src)} están boca arriba."
            if count > self._run_length(si):
                return "ML-4", (
                    f"Las {count} cartas de arriba de {self.label(src)} no forman una secuencia "
                    "descendente de colores alternos, que es lo único que se mueve en grupo."
                )
        elif self._fd[si] >= len(p):
            return "ML-6", f"La carta de arriba de {self.label(src)} está boca abajo."
        card = p[-count]
        acc = self._accepted(di)
        if acc is ALL or card.id in acc:
            return None
        return self._explain(di, card, acc)

    def _explain(self, di: int, card: Card, acc) -> tuple[str | None, str]:
        """Why pile `di` refuses `card` (acc is what it would take)."""
        pid = self.pile_ids[di]
        p = self._piles[di]
        label = self.label(pid)
        gid = _rule_prefix(self.name)
        if self._kind[di] == "F":
            fi = di - self._fnd[0]
            rule = self.rules.foundations[fi]
            found_id = {"CH": "CH-2", "ML": "ML-2", "SC": "SC-2", "BD": "BD-3", "CB": "CB-3"}[gid]
            if not p:
                why = texts.empty_foundation_phrase(rule)
                if acc and rule.start == "new_suit" and card.rank == rule.base_rank:
                    why = f"ya hay una base de {texts.SUIT_NAMES[card.suit]} en ese grupo, y {why}"
                return found_id, f"{texts.capitalize(card.articulo)} no puede ir a {_the(label)}: {why}."
            top = p[-1]
            if not acc:
                return "GEN-4", f"{texts.capitalize(_the(label))} ya está completa: una base tiene como máximo 13 cartas."
            return found_id, (
                f"{texts.capitalize(card.articulo)} no puede ir a {_the(label)}: "
                f"{texts.foundation_rule_phrase(rule)}, y sobre {top.articulo} solo va "
                f"{texts.card_list(acc)}."
            )
        if not p:
            empty = self.rules.tableau.empty
            if empty == "none":
                if gid == "SC":
                    return "SC-4", "Un abanico vacío no se vuelve a llenar nunca, con ninguna carta."
                return "BD-5", f"En {self.definition.display_name} un hueco del tablero queda vacío para el resto de la partida."
            if empty == "king":
                rule = "ML-5" if gid == "ML" else "BD-5"
                what = "un Rey o una secuencia encabezada por un Rey" if self.rules.tableau.runs else "un Rey"
                return rule, f"Solo {what} puede ocupar un hueco; {card.articulo} no."
            return "CH-5", (
                "Mientras la reserva tenga cartas, cada hueco se rellena con su carta de arriba; "
                f"{card.articulo} no puede ocuparlo."
            )
        top = p[-1]
        where = "en los abanicos" if self.definition.tableau_label == "Abanico" else "en el tablero"
        tab_id = {"CH": "CH-3", "ML": "ML-3", "SC": "SC-3", "BD": "BD-4", "CB": "CB-4"}[gid]
        return tab_id, (
            f"{texts.capitalize(card.articulo)} no puede ir sobre {top.articulo}: "
            f"{texts.tableau_rule_phrase(self.rules.tableau, where)}, así que sobre "
            f"{top.articulo} solo puede ir {texts.card_list(acc)}."
        )

    # ------------------------------------------------------------------ playing
    def move(self, src: str | Move, dst: str | None = None, count: int = 1) -> Step:
        """Play a move (``g.move("T3", "F0")``, ``g.move("T2>T7x3")`` or a `Move`) with every
        automatic action that follows; raise `IllegalMove` and change nothing if refused.

        0-based pile ids as in the rules document; learners use solitaire_nb.notation."""
        move, refusal = self._check(src, dst, count)
        if refusal is not None:
            raise IllegalMove(refusal[1], refusal[0])
        assert move is not None
        self._play(move)
        self._redo.clear()
        played, ops = self._undo[-1]
        automatic = tuple(self._action(op) for op in ops[1:]) if len(ops) > 1 else ()
        return Step(played, tuple(ops[0][2]), automatic)

    def _play(self, move: Move) -> None:
        idx = self._idx
        si, di = idx[move.src], idx[move.dst]
        excluded = self._autoplay_candidates() if self.rules.autoplay else None
        ops: list[tuple] = []
        self._transfer(si, di, move.count, ops)
        self._after_move(si, ops)
        if excluded is not None:
            excluded.add(self._piles[di][-move.count])
            self._autoplay(ops, excluded)
        self._undo.append((self._m1[si][di] if move.count == 1 else move, ops))

    def _transfer(self, si: int, di: int, n: int, ops: list[tuple]) -> None:
        src = self._piles[si]
        moved = src[-n:]
        del src[-n:]
        self._piles[di].extend(moved)
        fd_before = self._fd[si]
        if fd_before > len(src):
            self._fd[si] = len(src)
        ops.append((si, di, moved, fd_before))

    def _turn_up(self, pi: int, ops: list[tuple]) -> None:
        """ML-6 and the reserve's face-up top: an exposed face-down card turns face up."""
        p = self._piles[pi]
        if p and self._fd[pi] >= len(p) and self._kind[pi] in ("T", "R"):
            ops.append((pi, self._fd[pi], p[-1]))
            self._fd[pi] = len(p) - 1

    def _after_move(self, si: int, ops: list[tuple]) -> None:
        self._turn_up(si, ops)
        if self._kind[si] != "T" or self._piles[si]:
            return
        r = self.rules
        if r.refill_from_reserve and self._piles[self._r]:
            self._transfer(self._r, si, 1, ops)  # CH-5
            self._turn_up(self._r, ops)
        elif r.shift_left:
            self._shift_left(si, ops)

    def _shift_left(self, si: int, ops: list[tuple]) -> None:
        """Moving Left's `shift_left` variant: the face-up part of each pile to the right of an
        emptied pile moves into it, on to the right while piles keep emptying."""
        tab = self._tab
        pos = tab.index(si)
        while pos + 1 < len(tab):
            right = tab[pos + 1]
            up = len(self._piles[right]) - self._fd[right]
            if up <= 0:
                return  # nothing to shift: the chain stops at an empty neighbour
            self._transfer(right, tab[pos], up, ops)
            self._turn_up(right, ops)
            if self._piles[right]:
                return
            pos += 1

    def _foundation_wants(self) -> dict[int, int]:
        """Card id -> the first foundation that takes it now."""
        wants: dict[int, int] = {}
        for fi in self._fnd:
            for cid in self._accepted(fi):
                wants.setdefault(cid, fi)
        return wants

    def _autoplay_candidates(self) -> set[Card]:
        """Tableau tops that a foundation accepts right now (CB-7 leaves these alone)."""
        wants = self._foundation_wants()
        return {p[-1] for p in map(self._piles.__getitem__, self._tab) if p and p[-1].id in wants}

    def _autoplay(self, ops: list[tuple], excluded: set[Card]) -> None:
        """Citadel's autoplay (CB-7): tableau tops go home, left to right, until none can."""
        moved = True
        while moved:
            moved = False
            wants = self._foundation_wants()
            for ti in self._tab:
                p = self._piles[ti]
                if p and p[-1].id in wants and p[-1] not in excluded:
                    self._transfer(ti, wants[p[-1].id], 1, ops)
                    wants = self._foundation_wants()
                    moved = True

    def undo(self) -> bool:
        """Take back the last move with its automatic actions; False if there is none."""
        if not self._undo:
            return False
        move, ops = self._undo.pop()
        self._revert(ops)
        self._redo.append(move)
        return True

    def _revert(self, ops: list[tuple]) -> None:
        piles, fd = self._piles, self._fd
        for op in reversed(ops):
            if len(op) == 4:
                si, di, cards, fd_before = op
                dst = piles[di]
                del dst[-len(cards):]
                piles[si].extend(cards)
                fd[si] = fd_before
            else:
                fd[op[0]] = op[1]

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
        g._piles = [list(p) for p in self._piles]
        g._fd = list(self._fd)
        g._undo = list(self._undo)
        g._redo = list(self._redo)
        return g

    # ------------------------------------------------------------------ text forms
    def position(self) -> dict[str, Any]:
        """The position as plain data: card codes per pile and face-down counts."""
        return {
            "piles": {p: [c.code for c in self._piles[i]] for i, p in enumerate(self.pile_ids)},
            "face_down": {p: self._fd[i] for i, p in enumerate(self.pile_ids) if self._fd[i]},
        }

    def to_json(self) -> str:
        """The game as a JSON document: game, variant, seed, deal, moves and position."""
        doc = {
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
        return json.dumps(doc, ensure_ascii=False)

    def __repr__(self) -> str:
        if self.seed is not None:
            origin = f"partida nº {self.seed}"
        else:
            origin = "reparto elegido" if self._deal is not None else "posición preparada"
        played = self.moves_played
        return f"<{self.definition.display_name}: {origin}, {played} movimiento{'' if played == 1 else 's'}>"

    def __str__(self) -> str:
        lines = [repr(self)]
        for i, p in enumerate(self.pile_ids):
            cards = [("##" if j < self._fd[i] else c.code) for j, c in enumerate(self._piles[i])]
            lines.append(f"{p:>3}: {' '.join(cards)}")
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        from ..render import render_svg

        return render_svg(self)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_position(
        cls,
        name: str,
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
        definition = _definition(name)
        game = cls(definition, definition.resolve_variant(variant))
        if not isinstance(piles, Mapping):
            raise ValueError("La posición debe ser un diccionario de pila -> lista de cartas")
        for pid, cards in piles.items():
            i = game._position_index(pid)
            if isinstance(cards, str) or not isinstance(cards, Iterable):
                raise ValueError(f"La pila {shown(pid)} debe ser una lista de cartas, no {shown(cards)}")
            game._piles[i] = [Card.parse(c) for c in cards]
        for i, kind in enumerate(game._kind):
            n = len(game._piles[i])
            game._fd[i] = n if kind == "S" else max(0, n - 1) if kind == "R" else 0
        if face_down is not None and not isinstance(face_down, Mapping):
            raise ValueError(f"Las cartas boca abajo se dan como pila -> número, no {shown(face_down)}")
        for pid, count in (face_down or {}).items():
            i = game._position_index(pid)
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= len(game._piles[i]):
                raise ValueError(
                    f"Cartas boca abajo en {shown(pid)}: {shown(count)} no está entre 0 y {len(game._piles[i])}"
                )
            game._fd[i] = count
        have = Counter(c for p in game._piles for c in p)
        game._practice = sum(have.values()) < 52 * definition.decks
        if game._practice:
            game._validate_practice(have)
        else:
            game._validate_position()
        game._start = {
            "piles": {p: [c.code for c in game._piles[i]] for i, p in enumerate(game.pile_ids) if game._piles[i]},
            "face_down": {p: game._fd[i] for i, p in enumerate(game.pile_ids) if game._fd[i]},
        }
        return game

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
        have = Counter(c for p in self._piles for c in p)
        _check_cards(have, self.definition)
        self._validate_foundations()
        for i, pid in enumerate(self.pile_ids):
            n, fd, kind = len(self._piles[i]), self._fd[i], self._kind[i]
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
        if self.rules.refill_from_reserve and self._piles[self._r]:
            holes = [self.label(self.pile_ids[i]) for i in self._tab if not self._piles[i]]
            if holes:
                raise ValueError(
                    f"Posición imposible: {', '.join(holes)} está vacío mientras la reserva tiene cartas "
                    "(un hueco se rellena al instante desde la reserva)"
                )

    def _validate_foundations(self) -> None:
        saved = [list(self._piles[fi]) for fi in self._fnd]
        for fi in self._fnd:
            self._piles[fi] = []
        try:
            for k, fi in enumerate(self._fnd):
                for card in saved[k]:
                    acc = self._accepted(fi)
                    if acc is not ALL and card.id not in acc:
                        raise ValueError(
                            f"{self.label(self.pile_ids[fi])} no es una secuencia válida: "
                            f"{card.articulo} no puede estar ahí"
                        )
                    self._piles[fi].append(card)
        finally:
            for k, fi in enumerate(self._fnd):
                self._piles[fi] = saved[k]

    def _apply_layout(self, layout: Layout) -> None:
        for pid, cards in layout.piles.items():
            self._piles[self._idx[pid]] = list(cards)
        for pid, n in layout.face_down.items():
            self._fd[self._idx[pid]] = n


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
        raise ValueError(
            f"Las cartas no son exactamente {_decks_word(definition.decks)}: " + "; ".join(parts)
        )


def _decks_word(decks: int) -> str:
    return "una baraja" if decks == 1 else f"{decks} barajas"


def _cards_word(n: int) -> str:
    return "una carta" if n == 1 else f"{n} cartas"


def _the(label: str) -> str:
    """A pile's label with its article: "el Tablero 4", "la Base 1", "el Mazo"."""
    feminine = label.startswith(("Base", "Reserva"))
    return ("la " if feminine else "el ") + label


def _rule_prefix(name: str) -> str:
    return {
        "chequers": "CH",
        "moving_left": "ML",
        "scotch": "SC",
        "bakers_dozen": "BD",
        "citadel": "CB",
        "beleaguered_castle": "CB",
    }.get(name, "CB")


def _one_card_rule(name: str) -> str:
    return {"chequers": "CH-3", "scotch": "SC-3", "bakers_dozen": "BD-4"}.get(name, "CB-4")


_TABLE_CACHE: dict[Any, Any] = {}


def _tables_for(rule) -> tuple[tuple[int, ...], ...]:
    table = _TABLE_CACHE.get(rule)
    if table is None:
        table = _TABLE_CACHE[rule] = rule.accepts_table()
    return table


def _static_foundation_start(rule) -> tuple[int, ...] | None:
    """What an empty foundation takes when that doesn't depend on the others (else None)."""
    if rule.start == "any":
        return same_rank_ids(rule.base_rank)
    if rule.start == "new_suit":
        return None
    return (Card(rule.base_rank, rule.start).id,)


# ---------------------------------------------------------------------- module functions
def new_game(name: str, seed: int | None = None, deck: Sequence[str | Card] | None = None, **variant: bool) -> Game:
    """A new game of `name`: numbered deal `seed`, or the explicit deal order `deck` (card
    codes, first dealt first); without either, a numbered deal drawn at random."""
    definition = _definition(name)
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
    layout = definition.deal(list(order), game.rules)
    game._apply_layout(layout)
    if "deal_to_foundations" in definition.variants:  # Citadel and Beleaguered Castle
        ops: list[tuple] = []
        if game.rules.autoplay:
            game._autoplay(ops, set())
        game.deal_report = DealReport(
            tuple(layout.to_foundations),
            tuple(layout.meant_for),
            tuple(op[2][0] for op in ops),
            tuple(game.pile_ids[op[0]] for op in ops),
        )
    return game


def load_game(text: str) -> Game:
    """Rebuild a game from `Game.to_json` text, replaying and checking its moves."""
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
    if doc.get("version") != FORMAT_VERSION:
        raise ValueError(f"Versión de documento no admitida: {shown(doc.get('version'))}")
    for key in ("game", "variant", "seed", "deal", "start", "moves", "position"):
        if key not in doc:
            raise ValueError(f"Al documento le falta el campo {shown(key)}")
    variant, moves = doc["variant"], doc["moves"]
    if not isinstance(variant, dict) or not isinstance(moves, list):
        raise ValueError("Los campos 'variant' y 'moves' del documento no tienen la forma esperada")
    try:
        if doc["deal"] is not None:
            game = new_game(doc["game"], deck=doc["deal"], **variant)
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
            game = Game.from_position(doc["game"], start.get("piles", {}), start.get("face_down", {}), **variant)
        for i, text_move in enumerate(moves):
            if not isinstance(text_move, str):
                raise ValueError(f"Movimiento nº {i + 1} no válido: {shown(text_move)}")
            try:
                game.move(text_move)
            except IllegalMove as exc:
                raise ValueError(f"El movimiento nº {i + 1} ({text_move}) no es válido: {exc.reason}") from None
    except IllegalMove as exc:  # pragma: no cover - move errors are converted above
        raise ValueError(exc.reason) from None
    except (TypeError, AttributeError, KeyError, RecursionError):  # Python's words stay out
        raise ValueError("El documento de partida está dañado: algún campo no tiene la forma esperada") from None
    if doc["position"] != game.position():
        raise ValueError("La posición guardada no coincide con la que dan el reparto y los movimientos")
    return game
