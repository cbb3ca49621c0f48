"""Small counts written in words («tres», «doce», «dieciséis cartas»), read as figures, so a
reader who writes a count in words is not sent back to type it again.  Only 0 to 20 and only
as the whole answer, perhaps with a unit: «unas tres» or «tres o cuatro» stay unread.
"""

from __future__ import annotations

import re
import unicodedata

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
