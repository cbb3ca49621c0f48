"""Why a move is refused: the Spanish sentence, with the id of the rule it cites
(`GameDef.rule_ids`), behind `Game.why_not`, `can_move` and `move`.

Legality itself is `Position.accepts`; `Referee` only asks it and, when it says no, says
which rule refuses the move and why, in the words of the rules document."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import texts
from ..core.cards import CARDS
from ..core.checks import shown
from ..core.moves import Move
from ..core.rules import ALL
from ..games import notation

if TYPE_CHECKING:
    from ..core.rules import GameDef
    from .position import Position
    from .table import RuleTable

GEN_TAKEBACK = "GEN-1"  # a foundation card goes back to the tableau only (every game)
GEN_FULL = "GEN-4"  # a foundation holds at most 13 cards (every game)

Refusal = tuple[str | None, str]
"""(id of the rule that refuses a move, or None for a malformed move; the Spanish sentence)."""


def _cards_word(n: int) -> str:
    return "una carta" if n == 1 else f"{n} cartas"


def _the(label: str) -> str:
    """A pile's label with its article: "el Tablero 4", "la Base 1", "el mazo" (a pile without a
    number is a common noun in prose; the board keeps its capital)."""
    feminine = label.startswith(("Base", "Reserva"))
    return ("la " if feminine else "el ") + (label if any(ch.isdigit() for ch in label) else label.lower())


def _empty(label: str) -> str:
    return "vacía" if _the(label).startswith("la ") else "vacío"


def empty_pile_text(label: str) -> str:
    """«El mazo está vacío», «La Base 1 está vacía»: a pile's label as a sentence's subject."""
    the = _the(label)
    return f"{the[0].upper()}{the[1:]} está {_empty(label)}"


def _of_the(label: str) -> str:
    """"de" with a pile's label and article: "del Tablero 4", "de la Base 1"."""
    return texts.of(_the(label))


class Referee:
    """Judges moves for one game definition and rule table; the position judged is an
    argument, so one referee serves a game and all its copies."""

    def __init__(self, definition: GameDef, table: RuleTable):
        self.definition = definition
        self.rules = table.rules
        self.pile_ids = table.pile_ids  # with `definition`, what `notation` needs of a game
        self.index = {p: i for i, p in enumerate(table.pile_ids)}
        self.kind = table.kind

    def label(self, pile_id: str) -> str:
        return texts.pile_label(pile_id, self.definition.tableau_label)

    def check(self, pos: Position, src: Any, dst: Any, count: Any,
              fits: bool = True) -> tuple[Move | None, Refusal | None]:
        """The move `Game.move`'s arguments name (None if they name none) and None if `pos`
        allows it, else why not (`fits`: whether the sentence may name the cards that would fit)."""
        if isinstance(src, Move):
            move = src
        elif isinstance(src, str) and dst is None:
            try:
                move = Move.parse(src)
            except ValueError as exc:
                return None, (None, str(exc))
        else:
            move = Move(src, dst, count)
        return move, self.refusal(pos, move.src, move.dst, move.n_cards, fits)

    def refusal(self, pos: Position, src: Any, dst: Any, count: Any, fits: bool = True) -> Refusal | None:
        """None if legal, else (rule id, Spanish sentence); with `fits` False the sentence says
        which rule refuses the card, never which cards would fit (an exercise's answer)."""
        name = self.definition.display_name
        ids = self.definition.rule_ids
        si = self.index.get(src) if isinstance(src, str) else None
        di = self.index.get(dst) if isinstance(dst, str) else None
        if si is None or di is None:
            bad = src if si is None else dst
            return None, (f"{name} no tiene la pila {shown(bad)}; sus pilas son {', '.join(self.pile_ids)}.")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            return None, f"El número de cartas que se mueven debe ser un entero positivo, no {shown(count)}."
        if si == di:
            return None, f"El origen y el destino son la misma pila ({self.label(src)})."
        ks, kd = self.kind[si], self.kind[di]
        p = pos.p[si]
        if ks == "S":
            if kd != "W":
                stock_move = Move(src, self.pile_ids[pos.table.w], 1)
                return ids.stock, (
                    "Del mazo solo se voltea una carta al descarte "
                    f"(movimiento «{notation.format_move(self, stock_move)}»)."
                )
            if count != 1:
                return ids.stock, "Del mazo se voltea una sola carta cada vez."
            if not p:
                return ids.stock, "El mazo está vacío, y solo hay una pasada: no se vuelve a repartir."
            return None
        if kd in ("S", "W", "R"):
            rule = ids.reserve if kd == "R" else ids.stock
            return rule, f"No se puede poner ninguna carta en {_the(self.label(dst))}."
        if not p:
            return None, (
                f"{texts.capitalize(_the(self.label(src)))} está {_empty(self.label(src))}: "
                "no hay ninguna carta que mover."
            )
        if ks == "F":
            if not self.rules.takeback:
                if self.definition.rules_for().takeback:  # the game allows it, this variant does not
                    return ids.takeback, "En esta variante (sin devolver cartas), una carta de la base no vuelve al juego."
                return ids.takeback, f"En {name} una carta de la base no vuelve al juego."
            if kd == "F":
                return GEN_TAKEBACK, f"Una carta de la base solo vuelve al juego {self._where()}, nunca a otra base."
        if ks == "R" and not self.rules.reserve_playable:
            return ids.reserve_play, "En esta variante la reserva solo rellena huecos: no se juega a mano."
        if count > 1:
            if not self.rules.tableau.runs or ks != "T":
                return ids.one_card, f"En {name} solo se mueve una carta cada vez."
            if kd == "F":
                return ids.foundation, "A la base las cartas van de una en una."
            up = len(p) - pos.fd[si]
            if count > len(p):
                return ids.runs, f"{texts.capitalize(_the(self.label(src)))} solo tiene {len(p)} cartas."
            if count > up:
                return ids.runs, (
                    f"Solo {_cards_word(up)} {_of_the(self.label(src))} "
                    f"{'está' if up == 1 else 'están'} boca arriba."
                )
            if count > pos.run_length(si):
                return ids.runs, texts.run_refusal(
                    count, _of_the(self.label(src)), self.rules.tableau, self._where(), [CARDS[c] for c in p[-count:]]
                )
        elif pos.fd[si] >= len(p):
            return ids.face_down, f"La carta de arriba {_of_the(self.label(src))} está boca abajo."
        cid = p[-count]
        acc = pos.accepted(di)
        if acc is ALL or cid in acc:
            return None
        return self._explain(pos, di, cid, acc, fits)

    def _where(self) -> str:
        return "en los abanicos" if self.definition.tableau_label == "Abanico" else "en el tablero"

    def _explain(self, pos: Position, di: int, cid: int, acc: tuple[int, ...], fits: bool = True) -> Refusal:
        """Why pile `di` refuses card `cid` (acc is what it would take, named if `fits`)."""
        ids = self.definition.rule_ids
        card = CARDS[cid]
        p = pos.p[di]
        label = self.label(self.pile_ids[di])
        if self.kind[di] == "F":
            rule = self.rules.foundations[di - pos.table.fnd[0]]
            if not p:
                why = texts.empty_foundation_phrase(rule)
                if acc and rule.start == "new_suit" and card.rank == rule.base_rank:
                    why = f"ya hay una base de {texts.SUIT_NAMES[card.suit]} en ese grupo, y {why}"
                return ids.foundation, f"{texts.capitalize(card.articulo)} no puede ir {texts.to(_the(label))}: {why}."
            top = CARDS[p[-1]]
            if not acc:
                return GEN_FULL, f"{texts.capitalize(_the(label))} ya está completa: una base tiene como máximo 13 cartas."
            only = f", y sobre {top.articulo} solo va {texts.card_list(acc)}" if fits else ""
            kin = card.suit == top.suit if rule.suits == "same" else card.is_red != top.is_red
            passed = card.rank <= top.rank if rule.direction == "up" else card.rank >= top.rank
            if kin and passed:  # the rule alone would not explain it: the base is past the card
                went = "subido" if rule.direction == "up" else "bajado"
                return ids.foundation, (  # naming no card: the one on top may be an exercise's answer
                    f"{texts.capitalize(card.articulo)} no puede ir {texts.to(_the(label))}: esa base ya ha {went} "
                    f"más allá {texts.of(card.articulo)} ({texts.foundation_rule_phrase(rule)}{only})."
                )
            return ids.foundation, (
                f"{texts.capitalize(card.articulo)} no puede ir {texts.to(_the(label))}: "
                f"{texts.foundation_rule_phrase(rule)}{only}."
            )
        if not p:
            empty = self.rules.tableau.empty
            if empty == "none":
                if self.definition.tableau_label == "Abanico":
                    return ids.empty_none, "Un abanico vacío no se vuelve a llenar nunca, con ninguna carta."
                return ids.empty_none, (
                    f"En {self.definition.display_name} un hueco del tablero queda vacío para el resto de la partida."
                )
            if empty == "king":
                what = "un Rey o una secuencia encabezada por un Rey" if self.rules.tableau.runs else "un Rey"
                return ids.empty_king, f"Solo {what} puede ocupar un hueco; {card.articulo} no."
            # the card may be the reserve's own top: say who fills a hole, not which card may not;
            # a practice position shows empty piles nobody fills: say what they are
            practice = sum(map(len, pos.p)) < self.definition.cards
            return ids.empty_reserve, (
                "Mientras quede reserva, los huecos los rellena la reserva sola: no se ocupan a mano."
                + (" En esta posición de práctica solo están algunas de las cartas: sus pilas vacías son"
                   " las cartas que faltan, no huecos por rellenar." if practice else "")
            )
        top = CARDS[p[-1]]
        only = f", así que sobre {top.articulo} solo puede ir {texts.card_list(acc)}" if fits else ""
        return ids.tableau, (
            f"{texts.capitalize(card.articulo)} no puede ir sobre {top.articulo}: "
            f"{texts.tableau_rule_phrase(self.rules.tableau, self._where(), (card, top))}{only}."
        )
