"""Reading a number answer (`read_number`: «8», «8,5», «8 cartas», «100 %»).  Small counts
written in words («tres», «doce», «dieciséis cartas») are read as figures, so a reader who
writes a count in words is not sent back to type it again.  Only 0 to 20 and only as the whole
answer, perhaps with a unit: «unas tres» or «tres o cuatro» stay unread.
"""

from __future__ import annotations

import re
import unicodedata

from ..core.checks import ANSWER_MAX, check_length, shown
from ..core.numbers_es import parse_number

_WORDS = (
    "cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once",
    "doce", "trece", "catorce", "quince", "dieciseis", "diecisiete", "dieciocho", "diecinueve", "veinte",
)  # fmt: skip
NUMBER_WORDS = {word: n for n, word in enumerate(_WORDS)} | {"un": 1, "una": 1, "ninguna": 0, "ninguno": 0}
_WORD_ANSWER = re.compile(rf"\s*({'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))})\b(\s+[^\W\d_][^\d]*)?\s*[.!]?\s*")


def figures_for_words(text: str) -> str:
    """`text` with a leading number word 0–20 written in figures («tres cartas» → «3 cartas»),
    accents and capitals ignored; any other text unchanged."""
    plain = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).lower()
    found = _WORD_ANSWER.fullmatch(plain)
    if found is None or set(re.findall(r"\w+", found.group(2) or "")) & NUMBER_WORDS.keys():
        return text  # «tres o cuatro»: two numbers, read as none
    return f"{NUMBER_WORDS[found.group(1)]}{found.group(2) or ''}"


# A number followed by what it counts, in brackets or after a colon: the number is the answer.
_EXPLAINED = re.compile(r"\s*(.*?\S)\s*(?:\([^()]*\)|:\s.*)\s*[.!]?\s*", re.S)
_LEADING_NUMBER = re.compile(r"\s*([+\-−]?(?:\d[\d.,]*|[.,]\d+))\s*(%?)\s*([^\W\d_][^\d]*)?\s*[.!]?\s*", re.UNICODE)

# «el 2 y el 3», «2♣ y 3♣», «el 2, el 3 de tréboles»: the cards a count question counts, not how many.
_CARD_ITEM = r"(?:(?:el|la)\s+)?(?:\d{1,2}|[AJQK])\s*[♠♥♦♣]?"
_CARD_LIST = re.compile(rf"\s*{_CARD_ITEM}(?:\s*(?:,|\by\b)\s*{_CARD_ITEM})+(?:\s+de\s+\w+)?\s*[.!]?\s*", re.I)


def read_number(respuesta: object, count: bool = False) -> float:
    """A number a reader gave, or a text with a leading number and perhaps a unit («8», «8,5», «8.5»,
    «8 cartas», «100 %», «3.», and 0 to 20 in words: «ocho»), perhaps followed by what it counts in
    brackets or after a colon («2 (el 2 y el 3)», «2: el 2 y el 3»); a Spanish ValueError otherwise
    («unas 8», «3 4»), its example a whole number for a `count`."""
    example = "8" if count else "8 o 8,5"
    if isinstance(respuesta, bool):
        raise ValueError(f"la respuesta es un número, por ejemplo {example}.")
    if isinstance(respuesta, int):
        if abs(respuesta) > 10**12:
            raise ValueError("la respuesta es un número no tan grande, por ejemplo 8.")
        return float(respuesta)
    if isinstance(respuesta, float):
        if respuesta != respuesta or abs(respuesta) > 10**12:
            raise ValueError("la respuesta es un número no tan grande, por ejemplo 8.")
        return respuesta
    if not isinstance(respuesta, str):
        raise ValueError(f"la respuesta es un número, por ejemplo {example}.")
    check_length(respuesta, ANSWER_MAX, "el texto")
    text = re.sub(r"(?<=\d)\s*[.!]+\s*$", "", figures_for_words(respuesta))  # «3.»: the stop ends it
    found = _LEADING_NUMBER.fullmatch(text)
    said = _EXPLAINED.fullmatch(text)
    if found is None and said is not None:  # «2 (el 2 y el 3)», «dos: el 2 y el 3»: the number, then why
        found = _LEADING_NUMBER.fullmatch(figures_for_words(said.group(1)))
    if found is None:
        if count and _CARD_LIST.fullmatch(text) and re.search(r"\b(?:el|la)\b|[♠♥♦♣]|\bde\s", text, re.I):
            raise ValueError("has nombrado las cartas, y la pregunta es cuántas son. Cuéntalas y escribe el número.")
        if re.fullmatch(r"\s*\d+(?:[.,]\d+)?(?:\s*(?:,|;|y|o|\s)\s*\d+(?:[.,]\d+)?)+\s*", text):
            raise ValueError(f"has escrito más de un número; escribe uno solo, por ejemplo {example}.")
        raise ValueError(f"escribe la respuesta con cifras, por ejemplo {example} (puedes añadir la unidad: «8 cartas»).")
    try:
        value = parse_number(found.group(1))
    except ValueError:
        raise ValueError(f"«{shown(respuesta, raw=True)}» no es un número: escríbelo con cifras, por ejemplo {example}.") from None
    if abs(value) > 10**12:
        raise ValueError("la respuesta es un número no tan grande, por ejemplo 8.")
    return value
