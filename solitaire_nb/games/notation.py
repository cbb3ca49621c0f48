"""The learner notation: the one formatter and parser of moves as a student reads and types them.

Piles are numbered from 1 with the letters of the board's labels: ``T4`` (Tablero 4), ``A3``
(Abanico 3, Scotch), ``B1`` (Base 1), ``R`` (Reserva), ``M`` (Mazo), ``D`` (Descarte).  A move
is its source and destination, plus the number of cards when more than one moves:
``T2 B1``, ``T2 T7 3`` (or ``T2-B1``, ``T2-T7-3`` in share codes); turning the stock is ``M D``.
`parse_move` also reads the natural Spanish forms a student writes («del tablero 2 a la base
1», «tablero 2 a tablero 7, 3 cartas», «mazo»).

The Python API (`Move`, `Game.move("T3>F0")`) keeps the rules document's 0-based ids with
``>``; this module is the only bridge between the two, so nothing else builds learner codes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from ..core import texts
from ..core.checks import LEARNER_MOVE_MAX, check_length, shown
from ..core.moves import Move
from ..core.rules import GameDef

__all__ = ["pile_code", "pile_name", "format_move", "format_moves", "parse_move"]

_FIXED_CODES = {"R": "R", "S": "M", "W": "D"}
_LETTER_KIND = {"T": "T", "A": "T", "B": "F", "R": "R", "M": "S", "D": "W"}
_WORD_KIND = {
    "tablero": "T",
    "tableros": "T",
    "abanico": "T",
    "abanicos": "T",
    "base": "F",
    "bases": "F",
    "reserva": "R",
    "mazo": "S",
    "descarte": "W",
}
_NUMBER_WORDS = {
    "un": 1, "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
    "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13,
}  # fmt: skip
_FILLER = {
    "a", "al", "de", "del", "desde", "el", "la", "las", "los", "lo", "en", "sobre", "hasta",
    "hacia", "para", "con", "y", "pila", "mueve", "mover", "muevo", "lleva", "llevar", "pasa",
    "pasar", "juega", "jugar", "movimiento", "cartas", "carta", "arriba",
}  # fmt: skip
_ARROWS = re.compile(r"→|->|=>|⟶|➔|—|–")
_SPLIT = re.compile(r"[\s,;:()\-.]+")
_COMPACT = re.compile(r"^([a-z])([0-9]{1,4})?$")
_COUNT = re.compile(r"^x?([0-9]{1,4})$")
# the form `format_move` writes ("T2 B1", "T2-T7-3"): read at once, without the general reader
_WRITTEN = re.compile(r"([TABRD])([0-9]{1,4})?[ -]([TABRMD])([0-9]{1,4})?(?:[ -]([1-9][0-9]{0,3}))?")

EXAMPLE = "«T4 B1» (del Tablero 4 a la Base 1) o «T2 T7 3» (tres cartas del Tablero 2 al Tablero 7)"


def _definition(game: Any):
    """The `GameDef` behind `game`: a Game, anything with `.definition`, a GameDef or a name."""
    if isinstance(game, str):
        from . import GAMES

        if game not in GAMES:
            raise ValueError(f"No existe el juego {shown(game)}")
        return GAMES[game]
    definition = getattr(game, "definition", game)
    if not isinstance(definition, GameDef):
        raise ValueError(f"Se esperaba una partida o el nombre de un juego, no {shown(game)}")
    return definition


def _pile_ids(game: Any) -> tuple[str, ...]:
    ids = getattr(game, "pile_ids", None)
    if ids is not None:
        return tuple(ids)
    r = _definition(game).rules_for()
    out = [f"T{i}" for i in range(r.tableau_count)] + [f"F{i}" for i in range(len(r.foundations))]
    return tuple(out + [p for p, on in (("R", r.reserve), ("S", r.stock), ("W", r.waste)) if on])


def _tableau_label(game: Any) -> str:
    return _definition(game).tableau_label


def _check_pile(game: Any, pile_id: str) -> None:
    if not isinstance(pile_id, str) or pile_id not in _pile_ids(game):
        raise ValueError(f"{_definition(game).display_name} no tiene la pila {shown(pile_id)}")


def pile_code(game: Any, pile_id: str) -> str:
    """The pile's code as the board reads it: "T3" -> "T4", "F0" -> "B1", Scotch's "T2" ->
    "A3", "R" -> "R", "S" -> "M", "W" -> "D"."""
    _check_pile(game, pile_id)
    if pile_id in _FIXED_CODES:
        return _FIXED_CODES[pile_id]
    letter = _tableau_label(game)[0].upper() if pile_id[0] == "T" else "B"
    return f"{letter}{int(pile_id[1:]) + 1}"


def pile_name(game: Any, pile_id: str) -> str:
    """The pile's Spanish label: "Tablero 4", "Base 1", "Abanico 3", "Reserva", "Mazo", "Descarte"."""
    _check_pile(game, pile_id)
    return texts.pile_label(pile_id, _tableau_label(game))


def format_move(game: Any, move: Move, sep: str = " ") -> str:
    """A move in learner notation: "T2 B1", "T2 T7 3" (three cards), "M D" (turn the stock);
    with ``sep="-"``: "T2-B1", "T2-T7-3"."""
    if isinstance(move, str):
        move = Move.parse(move)
    if not isinstance(move, Move):
        raise ValueError(f"Se esperaba un movimiento (como 'T3>F0' o un Move), no {shown(move)}")
    parts = [pile_code(game, move.src), pile_code(game, move.dst)]
    if move.n_cards != 1:
        parts.append(str(move.n_cards))
    return sep.join(parts)


def format_moves(game: Any, moves: Iterable[Move], sep: str = ", ") -> str:
    """Several moves in learner notation, separated by `sep`: "T2 B1, T4 T1"."""
    return sep.join(format_move(game, m) for m in moves)


def _plain(text: str) -> str:
    """Lower case without accents, so «Túnel» and «tunel» read the same.  Canonical
    decomposition only (NFD): «³», «①» or full-width «１» stay what they are and are refused,
    since only ASCII digits name piles."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _refuse(text: str, why: str) -> ValueError:
    return ValueError(f"No entiendo el movimiento «{shown(text, raw=True)}»: {why}")


def parse_move(game: Any, text: str) -> Move:
    """Read a move written in learner notation ("T2 B1", "t2-b1", "T2 T7 3", "del tablero 2 a
    la base 1", "tablero 2 a tablero 7, 3 cartas", "M", "mazo", "reserva a base 1"); A and T
    both mean the tableau.  Spanish ValueError naming the text otherwise; the Python notation
    with ">" ("T3>F0") is refused with a sentence explaining the learner one."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"Escribe un movimiento, como {EXAMPLE}.")
    check_length(text, LEARNER_MOVE_MAX, "El movimiento")
    if m := _WRITTEN.fullmatch(text):
        src = _pile(game, text, _LETTER_KIND[m[1]], int(m[2]) if m[2] else None, m[1] + (m[2] or ""))
        dst = _pile(game, text, _LETTER_KIND[m[3]], int(m[4]) if m[4] else None, m[3] + (m[4] or ""))
        return Move(src, dst, int(m[5] or 1))
    plain = _ARROWS.sub(" ", _plain(text))
    if ">" in plain:
        raise ValueError(
            f"«{shown(text, raw=True)}» no se entiende aquí: escribe el movimiento con las etiquetas del "
            f"tablero, contando desde 1, como {EXAMPLE}."
        )
    tokens = [t for t in _SPLIT.split(plain) if t]
    piles: list[str] = []
    counts: list[int] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok in _WORD_KIND:
            kind = _WORD_KIND[tok]
            if kind in "TF":
                if nxt is None or not (_digits(nxt) or nxt in _NUMBER_WORDS):
                    raise _refuse(text, f"falta el número de «{tok}» (se cuenta desde 1, como en «{tok} 2»).")
                piles.append(_pile(game, text, kind, _number(nxt), f"{tok} {nxt}"))
                i += 2
                continue
            piles.append(_pile(game, text, kind, None, tok))
        elif (m := _COMPACT.match(tok)) and m.group(1).upper() in _LETTER_KIND and tok not in _FILLER:
            kind = _LETTER_KIND[m.group(1).upper()]
            num = int(m.group(2)) if m.group(2) else None
            piles.append(_pile(game, text, kind, num, tok.upper()))
        elif m and m.group(1) == "f" and m.group(2):
            raise _refuse(text, "las bases se escriben con B y se cuentan desde 1: B1 es la Base 1.")
        elif (c := _COUNT.match(tok)) or tok in _NUMBER_WORDS:
            counts.append(int(c.group(1)) if c else _NUMBER_WORDS[tok])
        elif tok not in _FILLER:
            word = shown(_as_written(text, tok), raw=True)
            raise _refuse(text, f"«{word}» no es el nombre de una pila. {_letters(game)}")
        i += 1
    if len(counts) > 1:
        if not piles:  # «3 4»: the piles' numbers without their letters
            raise _refuse(text, f"escribe cada pila con su letra y su número, como {EXAMPLE}.")
        raise _refuse(text, "hay más de un número de cartas.")
    count = counts[0] if counts else 1
    if count < 1:
        raise _refuse(text, "el número de cartas empieza en 1.")
    if piles in (["S"], ["S", "W"]):
        if count != 1:
            raise _refuse(text, "el mazo se gira de carta en carta.")
        return Move("S", "W", 1)
    if len(piles) != 2:
        raise _refuse(text, f"escribe el origen y el destino, como {EXAMPLE}.")
    return Move(piles[0], piles[1], count)


def _as_written(text: str, tok: str) -> str:
    """The part of `text` a lower-cased, accent-free token was read from («J♠», not «j♠»)."""
    for start in range(len(text)):
        for end in range(start + len(tok), min(len(text), start + 2 * len(tok)) + 1):
            if _plain(text[start:end]) == tok:
                return text[start:end]
    return tok


def _digits(tok: str) -> bool:
    """A pile or card number as learners type it: one to four ASCII digits."""
    return bool(re.fullmatch(r"[0-9]{1,4}", tok))


def _number(tok: str) -> int:
    return int(tok) if _digits(tok) else _NUMBER_WORDS[tok]


def _pile(game: Any, text: str, kind: str, num: int | None, written: str) -> str:
    """The pile id for a kind and a 1-based number, refusing numbers the game lacks."""
    definition = _definition(game)
    ids = _pile_ids(game)
    if kind in "TF":
        if num is None:
            raise _refuse(text, f"«{written}» necesita un número desde 1, como T4 o B1.")
        pid = f"{kind}{num - 1}"
        if num < 1 or pid not in ids:
            label = texts.pile_label(f"{kind}0", definition.tableau_label).rsplit(" ", 1)[0]
            last = sum(1 for p in ids if p[0] == kind)
            article = "la " if kind == "F" else "el "
            first, final = (article + texts.pile_label(f"{kind}{k}", definition.tableau_label) for k in (0, last - 1))
            # GLOSARIO: one «tablero» whose piles are «Tablero 1»…; Scotch's piles are «abanicos»
            whole = "las bases" if kind == "F" else "las pilas del tablero" if label == "Tablero" else f"los {label.lower()}s"
            raise _refuse(
                text,
                f"{definition.display_name} no tiene {label} {num}: {whole} van {texts.of(first)} {texts.to(final)}.",
            )
        return pid
    if num is not None:
        raise _refuse(text, f"«{written}» no lleva número: solo hay {_one(kind)}.")
    if kind not in ids:
        raise _refuse(text, f"{definition.display_name} no tiene {_one(kind)}.")
    return kind


def _letters(game: Any) -> str:
    """The letters of this game's piles, as its board writes them: «En Chequers las pilas se escriben
    T (tablero), B (base) y R (reserva).» (never a pile the game lacks)."""
    definition = _definition(game)
    codes: dict[str, str] = {}
    for pid in _pile_ids(game):
        code = pile_code(game, pid)
        kind = pile_name(game, pid).split(" ")[0].lower()
        codes.setdefault(code[0], f"{code[0]} ({kind})")
    named = list(codes.values())
    listed = texts.joined(named)
    return f"En {definition.display_name} las pilas se escriben {listed}."


def _one(kind: str) -> str:
    """ "una reserva", "un mazo", "un descarte" (the piles a game has at most one of)."""
    label = texts.FIXED_LABELS[kind].lower()
    return ("una " if label.endswith("a") else "un ") + label
