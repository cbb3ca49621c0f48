"""What the class challenge reads from the network, checked before it touches anything.

Every request body, text field, number and switch a page or the teacher's page sends goes
through one of these functions first; each refuses with `BadRequest` (a Spanish `ValueError`)
before the caller sets anything in memory or writes anything in the record, so a refused
request changes nothing anywhere.  `BadRequest.kind` names the kind of bad request (one line
per kind on the teacher's terminal, see `challenge_server`, with its `detail`); the message is
plain Spanish for the page.  No web library here.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from ..core.checks import shown

#: nesting a body may have (every route reads one flat object; a little room for the future).
DEPTH_MAX = 8
#: digits a number of the teacher's API may have (seat numbers and steps are small).
DIGITS_MAX = 6
NAME_MAX = 40

_SURROGATE = re.compile("[\ud800-\udfff]")
_STRUCTURE = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)


class BadRequest(ValueError):
    """A request no page of the class sends: refused (400) with its Spanish `kind`; `detail`
    (sizes, limits) is for the teacher's terminal, not the student's page."""

    def __init__(self, message: str, kind: str, detail: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.detail = detail


def _depth(body: bytes) -> int:
    """The deepest nesting of `body`'s arrays and objects (text inside strings skipped), read
    without recursion."""
    deepest = depth = 0
    for m in _STRUCTURE.finditer(body):
        token = m.group()
        if token in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in (b"]", b"}"):
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise BadRequest("La página ha enviado un número que no se puede leer: recárgala y vuelve a intentarlo.",
                     "JSON no válido", name)


def _check_strings(value: Any) -> None:
    """Every text of a parsed body (keys too) is valid Unicode: a lone surrogate («\\ud800» in
    JSON) cannot be stored nor shown."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                raise BadRequest("La página ha enviado un texto con caracteres que no se pueden leer: recarga la página y vuelve a intentarlo.", "texto que no es Unicode válido")
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def parse_body(body: bytes, limit: int) -> dict[str, Any]:
    """The JSON object of a request body of at most `limit` bytes (empty: ``{}``): UTF-8,
    nested at most `DEPTH_MAX` levels, every text valid Unicode, no ``NaN``/``Infinity``."""
    if len(body) > limit:
        raise BadRequest(
            "Lo que ha enviado la página es demasiado grande: recárgala y vuelve a intentarlo.",
            "petición demasiado grande", f"{len(body):,} bytes; como mucho {limit:,}".replace(",", "."),
        )
    if not body.strip():
        return {}
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("La página ha enviado un texto que no se puede leer: recarga la página y vuelve a intentarlo.", "texto que no es UTF-8") from None
    if _depth(body) > DEPTH_MAX:
        raise BadRequest("Los datos de la página no tienen la forma esperada: recárgala y vuelve a intentarlo.",
                         "JSON demasiado anidado", f"más de {DEPTH_MAX} niveles")
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except BadRequest:
        raise
    except (ValueError, RecursionError):  # RecursionError: unreachable after the depth check
        raise BadRequest("La página ha enviado datos que no se entienden: recarga la página y vuelve a intentarlo.", "JSON no válido") from None
    if not isinstance(data, dict):
        raise BadRequest("La página ha enviado los datos con una forma que no se espera: recarga la página y vuelve a intentarlo.", "JSON no válido")
    _check_strings(data)
    return data


def _bad_characters(text: str) -> str | None:
    """Why `text` cannot be kept (a lone surrogate, a control character), or None."""
    if _SURROGATE.search(text):
        return "lleva texto que no es Unicode válido"
    for ch in text:
        if unicodedata.category(ch) == "Cc":
            return f"lleva un carácter de control (U+{ord(ch):04X})"
    return None


def text_field(value: Any, what: str, limit: int) -> str:
    """A text a page sends (a move, an order): a string (None: empty) of at most `limit`
    characters, valid Unicode, without control characters."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadRequest(f"{what} debe ser un texto.", "un campo que no es texto")
    if len(value) > limit:
        raise BadRequest(
            f"{what} tiene demasiados caracteres ({len(value):,}; como mucho {limit:,}).".replace(",", "."),
            "texto demasiado largo",
        )
    why = _bad_characters(value)
    if why is not None:
        raise BadRequest(f"{what} {why}.", "texto con caracteres no válidos")
    return value


def name_field(value: Any) -> str:
    """A student's optional name, as kept and shown: NFC, runs of white space as one space,
    format characters (bidirectional overrides, zero-width marks) removed; refused when it is
    not a text, has a control character or a lone surrogate, or is longer than `NAME_MAX`."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadRequest("El nombre debe ser un texto.", "un campo que no es texto")
    if len(value) > 20 * NAME_MAX:  # far more than any name: refused unread
        raise BadRequest(f"El nombre tiene demasiados caracteres (como mucho {NAME_MAX}).", "texto demasiado largo")
    if _SURROGATE.search(value):
        raise BadRequest("El nombre lleva texto que no es Unicode válido.", "texto con caracteres no válidos")
    text = " ".join(unicodedata.normalize("NFC", value).split())  # tabs and line breaks are spaces
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = " ".join(text.split())
    why = _bad_characters(text)
    if why is not None:
        raise BadRequest(f"El nombre {why}.", "texto con caracteres no válidos")
    if len(text) > NAME_MAX:
        raise BadRequest(
            f"El nombre tiene demasiados caracteres ({len(text)}; como mucho {NAME_MAX}).", "texto demasiado largo"
        )
    return text


def ascii_number(text: Any, what: str, default: int | None = None) -> int:
    """A number of a query string: ASCII digits 0–9, at most `DIGITS_MAX` of them (`default`
    when absent or empty)."""
    if (text is None or text == "") and default is not None:
        return default
    if not isinstance(text, str) or not text:
        raise BadRequest(f"Falta {what}.", "un número que falta")
    if len(text) > DIGITS_MAX or not re.fullmatch(r"[0-9]+", text):
        raise BadRequest(
            f"{what[0].upper()}{what[1:]} debe ser un número de 1 a {DIGITS_MAX} cifras (0–9), no "
            f"«{shown(text, raw=True)}».",
            "un número no válido",
        )
    return int(text)


def query_switch(text: Any, what: str) -> bool:
    """A yes/no of a query string: ``1`` or ``0`` (absent or empty: no)."""
    if text in (None, "", "0"):
        return False
    if text == "1":
        return True
    raise BadRequest(f"{what} debe ser 1 o 0, no «{shown(str(text), raw=True)}».", "un interruptor no válido")


def json_switch(value: Any, what: str, default: bool) -> bool:
    """A yes/no of a JSON body: only JSON ``true`` or ``false`` (absent: `default`); the text
    «false», a number or anything else is refused, never read as yes."""
    if value is None:
        return default
    if not isinstance(value, bool):
        raise BadRequest(f"{what} tiene que ser un sí o un no (una casilla marcada o sin marcar).", "un interruptor no válido")
    return value


def shown_kind(value: Any) -> str:
    """A kind or an order a request gave, for a Spanish line (short, printable)."""
    text = value if isinstance(value, str) else shown(value)
    text = "".join(ch if ch.isprintable() else "?" for ch in text[:40])
    return text + ("…" if len(text) == 40 and isinstance(value, str) and len(value) > 40 else "")


#: the largest deal number a lesson's pool takes (the try widget's «Partida n.º» goes as far).
DEAL_NUMBER_MAX = 10**9
#: the largest prediction a lesson's pool takes (cards of the deal: none is above it).
PREDICTION_MAX = 52


def deal_number(value: Any) -> int:
    """A deal number a page sends: a JSON whole number from 0 to `DEAL_NUMBER_MAX` (not a
    text, not true/false, not 5.0)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest("La página no ha enviado bien el número de partida: recárgala y vuelve a intentarlo.",
                         "un número no válido", f"número de partida {shown(value)}")
    if not 0 <= value <= DEAL_NUMBER_MAX:
        raise BadRequest(f"El número de partida debe estar entre 0 y {DEAL_NUMBER_MAX:,}.".replace(",", "."), "un número no válido")
    return value


def prediction_field(value: Any) -> tuple[str, float]:
    """A prediction a student or the teacher writes (cards: «7», «6,5», «6.5»): (the text as kept,
    with a decimal comma, and its value); from 0 to `PREDICTION_MAX`."""
    text = text_field(value, "La predicción", 20).strip()
    if not re.fullmatch(r"[0-9]{1,2}(?:[.,][0-9]{1,2})?", text):
        raise BadRequest(f"La predicción debe ser un número de cartas, como 7 o 6,5; no «{shown(text, raw=True)}».",
                         "una predicción no válida")  # fmt: skip
    number = float(text.replace(",", "."))
    if number > PREDICTION_MAX:
        raise BadRequest(f"La predicción debe estar entre 0 y {PREDICTION_MAX} cartas.", "una predicción no válida")
    return text.replace(".", ","), number
