"""Checks at the door of the public API: limits, counts, seeds (Spanish `ValueError`s).

One rule for bad input (docs/entradas.md): every public entry point refuses a bad value
with a `ValueError` whose Spanish message names it, before any work is done.  These helpers
are shared by the solver, `win_rate` and the studies so that a limit means the same
everywhere.  `shown` prints any value safely: Python's ``repr`` of an int with thousands of
digits raises, and a long text would flood the message; a path is shown as a path (never
``PosixPath('…')``), its file name kept when it is cut.
"""

from __future__ import annotations

import math
import operator
import os
from typing import Any

SEED_MAX = (1 << 64) - 1
"""Deal numbers are 0 … 2**64 − 1 (the SplitMix64 state, see `shuffle`)."""

STATES_MAX = 10**12
"""The largest cap on states accepted (far beyond any search: a bigger one is a mistake)."""

SHOWN = 60
"""Characters of a user's value a message shows at most (then «…»)."""


PATH_SHOWN = 100
"""Characters of a path a message shows at most: the end of its folder is cut, never its name."""


def shown(value: Any, raw: bool = False, path: bool = False) -> str:
    """A short, safe rendering of `value` for a Spanish message: at most `SHOWN` characters
    of it, then «…».  The one way a message echoes what a user gave; `raw` shows a text as it
    is (inside «…» or after a colon) instead of its ``repr``.  A path (any ``os.PathLike``, or
    a text with `path`) is shown as a path: printable, its file name kept when cut."""
    if isinstance(value, os.PathLike) or (path and isinstance(value, (str, bytes))):
        return _path_text(value)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        digits = int(value.bit_length() * 0.30103) + 1
        return f"un entero de unas {digits} cifras"
    if raw and isinstance(value, str):
        text = value if len(value) <= SHOWN + 200 else value[: SHOWN + 200]
        text = text.strip()
        return text if len(text) <= SHOWN else text[:SHOWN] + "…"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - any object: its repr may fail
        kinds: dict[type, str] = {list: "una lista", tuple: "una tupla", dict: "un diccionario", set: "un conjunto"}
        return kinds.get(type(value), "un objeto") + " que no se puede mostrar"
    if len(text) > SHOWN:
        text = text[:SHOWN] + "…"
    return text


def _path_text(value: str | bytes | os.PathLike) -> str:
    """A path as the user would type it: undecodable bytes and control characters escaped
    (nothing reaches the terminal but printable text), at most `PATH_SHOWN` characters with
    the file name whole («/home/ana/clas…/reto.sqlite»), or the end of a name longer than that."""
    try:
        text = os.fsdecode(value)
    except (TypeError, ValueError):
        return "una ruta que no se puede mostrar"
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    if len(text) <= PATH_SHOWN:
        return text
    folder, sep, name = text.rpartition("/")
    if not sep or len(name) > PATH_SHOWN - 5:
        return "…" + text[-(PATH_SHOWN - 1):]
    return folder[: PATH_SHOWN - len(name) - 2] + "…/" + name


MOVE_TEXT_MAX = 64
"""Longest text `Move.parse` reads ("T3>F0" with room for spaces)."""
LEARNER_MOVE_MAX = 200
"""Longest text `notation.parse_move` reads («del tablero 10 a la base 8, 13 cartas» and more)."""
ANSWER_MAX = 2000
"""Longest answer an exercise reads (text characters, or items of a list)."""
MAX_MOVES = 1000
"""Most moves a share code or a saved game replays."""
CODE_MAX = 32_000
"""Longest share code or saved-game document read (1,000 moves fit with room to spare)."""


def check_length(text: str, limit: int, what: str) -> None:
    """Refuse, before any parsing, a text longer than anything `what` can be: parsing stays
    linear and quick whatever is pasted."""
    if len(text) > limit:
        raise ValueError(
            f"{what} tiene demasiados caracteres ({len(text):,}; como mucho {limit:,}): "
            f"empieza por {shown(text, raw=True)}".replace(",", ".")
        )


def integer(value: Any) -> int | None:
    """`value` as an int if it is one (NumPy integers included), else None; bools are not."""
    if isinstance(value, bool) or isinstance(value, float):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def check_int(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    """An integer in low … high (high None: no upper end), else a Spanish ValueError."""
    n = integer(value)
    if n is None:
        raise ValueError(f"{what} debe ser un número entero, no {shown(value)}")
    if n < low or (high is not None and n > high):
        span = f"mayor o igual que {low}" if high is None else f"entre {low} y {high}"
        raise ValueError(f"{what} debe ser un entero {span}, no {shown(value)}")
    return n


def check_seed(value: Any, what: str = "El número de partida") -> int:
    """A deal number: an integer in 0 … 2**64 − 1."""
    n = integer(value)
    if n is None or not 0 <= n <= SEED_MAX:
        raise ValueError(
            f"{what} debe ser un entero entre 0 y 2⁶⁴ − 1 (18446744073709551615), no {shown(value)}"
        )
    return n


def check_states(value: Any, what: str = "max_states") -> int | None:
    """A cap on states: None (no cap) or an integer ≥ 0."""
    if value is None:
        return None
    return check_int(value, what, 0, STATES_MAX)


def check_number(value: Any, what: str, unit: str = "") -> float:
    """A finite real number ≥ 0 (ints, floats, NumPy numbers; not bools), else a Spanish
    ValueError; `unit` ("de segundos") completes the message."""
    kind = f"un número{' ' + unit if unit else ''}"
    if not _is_real(value):
        raise ValueError(f"{what} debe ser {kind}, no {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    except (TypeError, ValueError):
        raise ValueError(f"{what} debe ser {kind}, no {shown(value)}") from None
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{what} debe ser {kind} finito, 0 o más, no {shown(value)}")
    return number


def check_seconds(value: Any, what: str = "time_limit") -> float | None:
    """A time limit: None (no limit) or a finite number of seconds ≥ 0."""
    if value is None:
        return None
    return check_number(value, what, "de segundos")


def _is_real(value: Any) -> bool:
    import numbers

    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_progress(progress: object, call: str, bar: str) -> Any:
    """A computation's progress callback: None (or False) for none, or the caller's function.
    True is refused in Spanish: a computation shows no widget; a notebook passes the board's bar.
    `call` spells the callback's signature and `bar` the bar's label, for the message."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    raise ValueError(
        f"progress debe ser None o una función {call}, no {shown(progress)}; "
        f'para una barra en un cuaderno, pasa progress=progress_bar("{bar}") de solitaire_nb.board'
    )
