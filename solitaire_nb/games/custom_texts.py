"""The Spanish words of composed games (`custom`): the labels of the rules lab's controls and
choices, the phrase each change adds to a game's name, and the rule sentences written from a
composed game's `Rules`.

Kept apart from `custom`, which decides what a change does; nothing here decides anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import texts
from ..core.rules import Rules

# The labels of the rules lab's controls (one per change) and of the choices of each dropdown.
LABELS: dict[str, str] = {
    "columns": "Columnas",
    "build": "Construcción",
    "suits": "Palos",
    "runs": "Las secuencias se mueven enteras",
    "empty": "Un hueco admite",
    "foundation": "Las bases suben",
    "aces_out": "Los Ases empiezan en las bases",
    "kings_to_bottom": "Los Reyes pasan al fondo de su pila",
    "deal_to_foundations": "Cartas a la base durante el reparto",
    "autoplay": "Juego automático a la base",
    "takeback": "Se pueden devolver cartas de la base al juego",
}
CHOICE_LABELS: dict[str, dict[str, str]] = {
    "build": {"down": "Hacia abajo", "updown": "Hacia arriba o hacia abajo"},
    "suits": {
        "any": "Sin importar el palo",
        "same": "Del mismo palo",
        "alt": "En colores alternos",
        "different": "De otro palo",
    },
    "empty": {"any": "Cualquier carta", "king": "Solo un Rey", "none": "Nada: se queda vacío"},
    "foundation": {"same": "Por palo", "alt": "En colores alternos"},
}


def columns_label(tableau_label: str) -> str:
    """The label of the lab's columns control: «Abanicos» for games whose piles are fans."""
    return "Abanicos" if tableau_label == "Abanico" else LABELS["columns"]


SUIT_WORDS = {
    "any": "sin importar el palo",
    "same": "del mismo palo",
    "alt": "en colores alternos",
    "different": "con una carta de otro palo",
}

# change -> value -> noun phrase for the display name ("Beleaguered Castle con …").
PHRASES: dict[str, dict[object, str]] = {
    "build": {"down": "construcción solo hacia abajo", "updown": "construcción hacia arriba o hacia abajo"},
    "suits": {
        "any": "cualquier palo en el tablero",
        "same": "el mismo palo en el tablero",
        "alt": "colores alternos en el tablero",
        "different": "otro palo en el tablero",
    },
    "runs": {True: "secuencias que se mueven enteras", False: "una carta cada vez"},
    "empty": {
        "any": "huecos para cualquier carta",
        "king": "huecos solo para Reyes",
        "none": "huecos que quedan vacíos",
    },
    "foundation": {"same": "bases por palo", "alt": "bases en colores alternos"},
    "aces_out": {True: "los Ases ya en las bases", False: "los Ases repartidos con las demás cartas"},
    "kings_to_bottom": {True: "los Reyes al fondo de su pila", False: "los Reyes donde caen"},
    "deal_to_foundations": {
        True: "cartas a la base durante el reparto",
        False: "sin cartas a la base durante el reparto",
    },
    "autoplay": {True: "juego automático a la base", False: "sin juego automático a la base"},
    "takeback": {True: "cartas que vuelven de la base al juego", False: "sin devolver cartas de la base al juego"},
}


def change_phrase(change: str, value: object, tableau_label: str) -> str:
    if change == "columns":
        return f"{value} {'abanicos' if tableau_label == 'Abanico' else 'columnas'}"
    return PHRASES[change][value]


def with_phrases(base: str, phrases: Sequence[str]) -> str:
    """ "Beleaguered Castle" + ["10 columnas", "huecos solo para Reyes"] ->
    "Beleaguered Castle con 10 columnas y huecos solo para Reyes" ("sin …" phrases take no
    "con", and a "con" comes back after them)."""
    words = []
    after_sin = True
    for phrase in phrases:
        is_sin = phrase.startswith("sin ")
        words.append(phrase if is_sin or not after_sin else f"con {phrase}")
        after_sin = is_sin
    if not words:
        return base
    joined = texts.joined(words)
    return f"{base} {joined}"


def _piles_word(tableau_label: str) -> str:
    return "abanicos" if tableau_label == "Abanico" else "pilas del tablero"


def deal_sentence(r: Rules, tableau_label: str) -> str:
    n = r.tableau_count
    word = _piles_word(tableau_label)
    cards = 48 if r.aces_out else 52
    if r.aces_out:
        text = "Reparto: los cuatro Ases empiezan en las bases, uno en cada una; las otras 48 cartas, en su orden, se reparten"
    else:
        text = "Reparto: las 52 cartas, en su orden, se reparten"
    if r.deal_rows:
        text += f" en vueltas de izquierda a derecha que llegan a {texts.joined([str(k) for k in r.deal_rows])} {word}"
        if sum(r.deal_rows) < cards:
            text += f" (las siguientes, a los {n})"
    else:
        rounds, last = divmod(cards, n)
        text += f" fila a fila en {n} {word}, "
        text += f"{rounds} vueltas" if not last else f"{rounds} vueltas completas y una más que llega a {last}"
    text += ", boca arriba"
    if r.kings_to_bottom:
        pile = "abanico" if tableau_label == "Abanico" else "pila"
        text += (
            f"; después, en cada {pile}, los Reyes pasan al fondo, sin cambiar el orden entre ellos "
            "ni el de las demás cartas"
        )
    return text + "."


def tableau_sentence(r: Rules, tableau_label: str) -> str:
    where = "en los abanicos" if tableau_label == "Abanico" else "en el tablero"
    how = "una secuencia que sigue esa regla se mueve entera" if r.tableau.runs else "se mueve una carta cada vez"
    return f"{texts.capitalize(texts.tableau_rule_phrase(r.tableau, where))}; {how}."


def empty_sentence(r: Rules, tableau_label: str) -> str:
    runs = r.tableau.runs
    if r.tableau.empty == "any":
        return "Cualquier carta" + (" o secuencia" if runs else "") + " puede ocupar un hueco."
    if r.tableau.empty == "king":
        what = "un Rey o una secuencia encabezada por un Rey" if runs else "un Rey"
        return f"Solo {what} puede ocupar un hueco."
    return "Un hueco queda vacío el resto de la partida, ni siquiera lo ocupa una carta que vuelve de la base."


def foundation_sentence(r: Rules, tableau_label: str) -> str:
    f = r.foundations[0]
    how = "por palo" if f.suits == "same" else "en colores alternos, con cualquier palo del otro color"
    text = f"Las bases suben {how} desde el As hasta el Rey"
    if r.aces_out:
        text += "; los cuatro Ases empiezan en ellas"
    if f.start == "any":
        text += "; una base vacía admite cualquier As"
    else:
        text += "; cada base es la de un palo y, vacía, solo admite el As de ese palo"
    return text + "."


def deal_to_foundations_sentence(r: Rules, tableau_label: str) -> str:
    if r.deal_to_foundations:
        return (
            "Durante el reparto, una carta que su base admita en ese momento va a la base, y la "
            "pila a la que iba se queda esa vuelta sin carta."
        )
    return "Durante el reparto ninguna carta va a la base: cada carta va a su pila."


def autoplay_sentence(r: Rules, tableau_label: str) -> str:
    if r.autoplay:
        return (
            "Juego automático a la base: tras el reparto y tras cada movimiento, las cartas de arriba "
            "que admite su base van a ella, salvo la que el jugador acaba de mover y las que ya "
            "podían ir antes de ese movimiento."
        )
    return "Sin juego automático a la base: una carta solo va a la base si la lleva el jugador."


def takeback_sentence(r: Rules, tableau_label: str) -> str:
    if not r.takeback:
        return "No se devuelven cartas: lo que llega a la base se queda en la base."
    pile = "un abanico" if tableau_label == "Abanico" else "una pila del tablero"
    hole = {"any": " o a un hueco", "king": " (un Rey, también a un hueco)", "none": " (nunca a un hueco)"}
    return f"Se puede devolver una carta de la base al juego, sobre {pile} que la acepte{hole[r.tableau.empty]}."


ASPECT_SENTENCES = {
    "deal": deal_sentence,
    "foundation": foundation_sentence,
    "tableau": tableau_sentence,
    "empty": empty_sentence,
    "deal_to_foundations": deal_to_foundations_sentence,
    "autoplay": autoplay_sentence,
    "takeback": takeback_sentence,
}


def tableau_builds(r: Rules) -> str:
    way = CHOICE_LABELS["build"][r.tableau.build]
    how = "las secuencias se mueven enteras" if r.tableau.runs else "una carta cada vez"
    return f"{way} {SUIT_WORDS[r.tableau.suits]}; {how}."


def empty_pile(r: Rules) -> str:
    return {"any": "Cualquier carta.", "king": "Solo un Rey.", "none": "Nada: un hueco queda vacío."}[r.tableau.empty]


def automatic(r: Rules) -> str:
    parts = []
    if r.deal_to_foundations:
        parts.append("cartas a la base durante el reparto")
    if r.autoplay:
        parts.append("juego automático a la base tras el reparto y tras cada movimiento")
    if r.kings_to_bottom:
        parts.append("los Reyes van al fondo de su pila al repartir")
    return texts.capitalize(texts.joined(parts)) + "." if parts else "Nada."
