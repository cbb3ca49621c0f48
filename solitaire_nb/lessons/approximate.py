"""An expected count read the way a reader says it: «unas 21», «unos 21», «más o menos 21» or
«aproximadamente 21» are read as 21 (a mean is approximate anyway), and a range («entre 20 y
22», «de 20 a 22») is asked for one number of it, without counting as a try."""

from __future__ import annotations

import re

from .answers import DirectionOnce

ONE_NUMBER = "Escribe un solo número de tu margen."
"""What a range given for an expected count is told (it is not a try)."""
# «unas 21», «unos 21», «más o menos 21», «aproximadamente 21», «alrededor de 21»
_ABOUT = re.compile(r"\s*(?:unas|unos|m[aá]s\s+o\s+menos|aproximadamente|aprox\.?|alrededor\s+de|cerca\s+de)\s+(?=\S)",
                    re.IGNORECASE)
_NUMBER = r"\d+(?:[.,]\d+)?"
# «entre 20 y 22», «de 20 a 22», «entre 20,9 y 22 partidas»
_RANGE = re.compile(rf"\s*(?:entre\s+{_NUMBER}\s+y|de\s+{_NUMBER}\s+a)\s+{_NUMBER}\b.*", re.IGNORECASE | re.DOTALL)


def about_a_number(check: DirectionOnce) -> DirectionOnce:
    """`check`, an expected count's `DirectionOnce`, reading «unas N» as N and answering a range
    with `ONE_NUMBER` (no direction told, nothing used up)."""
    judge = check.judge

    def read(respuesta: object) -> tuple[bool, str, str, str]:
        if isinstance(respuesta, str):
            if _RANGE.fullmatch(respuesta):
                return False, ONE_NUMBER, "", ""
            respuesta = _ABOUT.sub("", respuesta, count=1) if _ABOUT.match(respuesta) else respuesta
        return judge(respuesta)

    check.judge = read
    return check
