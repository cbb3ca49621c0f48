"""Which rules make a game of the one-deck open family (the games the study's dealers deal), with
no NumPy: the browser's pure-Python path (`pure.py`) checks games with it too."""

from __future__ import annotations

from ..core.cards import SUIT_CODES
from ..core.checks import shown
from ..core.rules import Rules

MIN_COLUMNS, MAX_COLUMNS = 4, 20


def family_problem(rules: object) -> str | None:
    """Why `rules` are not a game of the family, in Spanish, or None if they are."""
    if not isinstance(rules, Rules):
        return f"se esperaban las reglas de un juego (Rules), no {shown(rules)}"
    if rules.reserve or rules.stock or rules.waste or rules.face_down_tableau:
        return "el juego tiene reserva, mazo o cartas boca abajo: no es de una baraja a la vista"
    if not MIN_COLUMNS <= rules.tableau_count <= MAX_COLUMNS:
        return f"el tablero debe tener de {MIN_COLUMNS} a {MAX_COLUMNS} columnas, no {rules.tableau_count}"
    fnds = rules.foundations
    if len(fnds) != 4 or any(f.direction != "up" for f in fnds):
        return "el juego debe tener cuatro bases que suban desde el As"
    if len({f.suits for f in fnds}) != 1 or fnds[0].suits not in ("same", "alt"):
        return "las cuatro bases deben subir todas por palo o todas en colores alternos"
    starts = [f.start for f in fnds]
    if not (all(s == "any" for s in starts) or sorted(starts) == sorted(SUIT_CODES)):
        return "las bases deben empezar todas con cualquier As o cada una con el As de un palo distinto"
    rows = rules.deal_rows
    if rows is not None and (
        not isinstance(rows, tuple)
        or not rows
        or any(isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= rules.tableau_count for k in rows)
    ):
        return f"cada vuelta del reparto debe llegar a entre 1 y {rules.tableau_count} columnas, no {shown(rows)}"
    return None


def check_family(rules: object) -> Rules:
    """`rules` if they are a game of the family, else a Spanish ValueError saying why."""
    problem = family_problem(rules)
    if problem is not None:
        raise ValueError(f"Este reparto es para los juegos de una baraja a la vista: {problem}")
    assert isinstance(rules, Rules)
    return rules
