"""A choice among a few words that cannot be won by trying them all: the word counts only with
a reason written after it («más, porque …», «más, ya que …», «más: …»), from the first answer on.
The reason is not graded (no program can read it fairly), but a non-reason («no sé», «porque
sí»), one that only points at where the answer is («lo pone en la tabla», «es la que queda») or
one made of chance, hearsay, invention or having seen it («una moneda», «me lo ha dicho mi
compañero», «me lo he inventado», «lo he probado») or one without a real word («x», «qwerty»)
is refused; a word without its reason is not judged at all (a «no» would tell the
rest by elimination).  A right word is not praised: the reader compares their reason.  A wrong
word is told so without naming the right one, a repeated one is told it was tried, and after
`NUDGE_AFTER` refused tries the reader is sent to talk it over with the teacher.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .answers import RemembersTries, _core_words, _plain_word, option_reader

REASON_WORDS = 2
"""The fewest words a reason has («porque ve más cartas»; «porque sí» is not one)."""
NUDGE_AFTER = 3
"""Refused tries after which the reader is told to talk the question over with the teacher."""
# «…, porque …», «… ya que …», «… pues …» (with or without a comma) or «…: …» put the reason after the word
_BECAUSE = re.compile(r"\s*(?:[,;:.]?\s*\b(?:porque|ya\s+que|pues|puesto\s+que)\b|[:;])", re.IGNORECASE)
# Words that, on their own, say no reason at all: «no sé», «porque sí», «ni idea», «es así».
_EMPTY_WORDS = frozenset(
    "no se sé lo la el ni idea si sí por que qué porque pues ya asi así es eso esto creo tengo yo me nada ninguna "
    "verdad sabe sabia pq xq q porq nose nidea ok vale bueno mm hmm obvio obviamente logico lógico".split()
)
# A reason made only of these words says where the answer is, or that it is the one left, not why:
# «lo pone en la tabla», «la tabla lo dice», «es la que queda», «lo dice el enunciado».
_POINTER_WORDS = frozenset(
    "lo la le el los las en de del al que es esa ese eso esta este esto ahi alli aqui asi arriba abajo ya no si se "
    "yo me he ha has hay son sale salen pone ponen puesto dice dicen dicho pide aparece viene indica muestra mira "
    "mirado mire mirar ver veo vi visto leido lei leer estan queda quedan quedaba unica unico sola solo otra otras "
    "otro otros demas dos tres opcion opciones respuesta probe probado probando descarte descartado descartando "
    "mal malas incorrectas tabla tablas enunciado pregunta pantalla pista laboratorio pagina cuaderno atlas "
    "cabecera tablero texto numero dato datos medida profe profesor profesora libro correcta correcto original "
    "grafica graficas grafico ve ven vemos corrector encima debajo primera segunda tercera buena bueno buenas "
    "medido medida".split()
)
_POINTER = re.compile(rf"(?:\b(?:{'|'.join(sorted(_POINTER_WORDS))})\b\s*)+")
# «la tabla dice más»: «más» or «menos» only point too when something is said to say or show it
_SAYS = re.compile(r"\b(?:dice|dicen|pone|ponen|sale|salen|ve|ven|muestra|indica)\b")
# Reasons that say how the answer was come by, not why it must be so (read without accents):
# chance, someone else's word, or having seen or tried it (a prediction may rest on what was seen).
_CHANCE = re.compile(r"\b(?:moneda|cara o cruz|azar|suerte|boleo|adivin\w*|corazonada)\b")
_HEARSAY = re.compile(r"\b(?:me lo (?:ha|han) dicho|me (?:ha|han) dicho|mis? companer[oa]s?|mis? compis?|(?:el|la) profe(?:sor|sora)?|"
                      r"(?:la|una) guia|el libro|"
                      r"lo (?:he leido|lei)|internet|google)\b")
_SEEN = re.compile(r"\b(?:(?:lo )?(?:he|hemos) (?:visto|probado|mirado|comprobado|medido|movido|quitado|cambiado|pulsado)|"
                   r"lo (?:vi|probe|mire|comprobe)|me sale|sale \d|"
                   r"probandolo|(?:al mover|moviendo|movi) (?:las? |los? )?(?:columnas|control|controles|deslizador))\b")
_MADE_UP = re.compile(r"\binvent\w*")  # «me lo he inventado», «me lo invento»
_WHIM = re.compile(r"\b(?:me da la gana|porque quiero|porque si quiero|me apetece|me gusta|se me (?:ha )?ocurri\w*)\b")
_HOW_NOT_WHY = (
    (_CHANCE, "Una moneda o la suerte no son una razón: no hacen que la respuesta sea «{word}»."),
    (_HEARSAY, "Que te lo diga otra persona, o leerlo, no es una razón tuya."),
    (_MADE_UP, "Inventarlo no es una razón: no hace que la respuesta sea «{word}»."),
    (_WHIM, "Que te apetezca no es una razón: no hace que la respuesta sea «{word}»."),
    (_SEEN, "Haberlo visto o probado dice qué ha pasado, no por qué tiene que pasar."),
)
HOW_NOT_WHY_TAIL = " Una razón dice por qué tiene que ser así, a partir de las reglas: «{word}, porque …»."
ASK_REASON = ("Escribe también por qué, con tus palabras, detrás de tu respuesta: «{word}, porque …» "
              "(o «{word}, ya que …», o «{word}: …»).")
NOT_A_REASON = ("«{reason}» no es una razón. Escribe por qué crees que es «{word}», con tus palabras: "
                "«{word}, porque …».")
AFTER_A_HINT = " Si no das con ella, vuelve a leer la pista."
UNSURE = " Una predicción vale aunque no estés seguro o segura: escribe qué te hace pensarlo."
POINTER = ("Esa razón dice dónde está la respuesta, no por qué es «{word}»: escribe por qué, con tus "
           "palabras: «{word}, porque …».")
RIGHT_WORD = "La respuesta es correcta. Compara tu razón con esta:"
"""What a right word with a reason is told: the reason is not graded, so it is not certified."""
ASK_WHY = "¿Por qué «{word}»? Escribe la palabra con tu razón: «{word}, porque …»."
TOO_SHORT = "Explica tu razón con algo más de palabras: «{word}, porque …»."
DEDUCED = "La has encontrado descartando: lee por qué."
NUDGE = " Llevas {n} intentos: antes de seguir probando, habla de esta pregunta con tu profesor o profesora."


def split_reason(respuesta: str) -> tuple[str, str]:
    """(word, reason) of «más, porque …», «más ya que …», «más pues …» or «más: …»; the reason may be empty."""
    parts = _BECAUSE.split(respuesta, maxsplit=1)
    return parts[0].strip(), (parts[1].strip() if len(parts) > 1 else "")


def is_a_reason(reason: str, seen_ok: bool = False, fewest: int = REASON_WORDS) -> bool:
    """Whether `reason` says something: at least `fewest` words, one of them not a word of
    «no sé», «porque sí», «ni idea»…, more than where the answer is («lo pone en la tabla») and
    not chance, hearsay or (unless `seen_ok`) having seen it; what it says is not judged."""
    words = _plain_word(reason).split()
    return (len(words) >= fewest and any(w not in _EMPTY_WORDS and looks_like_a_word(w) for w in words)
            and not points_only(reason) and _how_not_why(reason, seen_ok) is None)


def looks_like_a_word(word: str) -> bool:
    """Whether `word` (lower case, no accents) could be a Spanish word of a reason: 4 letters or
    more, a vowel, «q» only before «u», no letter thrice in a row, not one syllable repeated
    («jajaja», «asdasd»), not ending in two consonants («asdf») and no three consonants together
    unless the last is «l» or «r» («construyen»): «x», «qwerty» and «zzzz» are not."""
    if len(word) < 4 or not re.search("[aeiou]", word) or re.search(r"q(?!u)|(.)\1\1|[^aeiouy]{2}$", word):
        return False
    if (word + word).find(word, 1) < len(word):  # a shorter piece repeated
        return False
    return all(len(run) < 3 or run[-1] in "lr" for run in re.findall("[^aeiouy]+", word))


def _how_not_why(reason: str, seen_ok: bool = False) -> str | None:
    """The refusal of a reason made of chance, hearsay or having seen or tried it; None otherwise."""
    plain = _plain_word(reason)
    for pattern, refusal in _HOW_NOT_WHY[:-1] if seen_ok else _HOW_NOT_WHY:  # _SEEN is last
        if pattern.search(plain):
            return refusal
    return None


def right_word(message: str) -> str:
    """A right answer's «¡Correcto! why» as «La respuesta es correcta. Compara tu razón con esta: why»."""
    return f"{RIGHT_WORD} {message.removeprefix('¡Correcto!').strip()}" if message.startswith("¡Correcto!") else message


def points_only(reason: str) -> bool:
    """Whether `reason` only says where the answer is, or that it is the one left («lo dice la
    tabla», «es la que queda»), and not why."""
    plain = _plain_word(reason)
    if _SAYS.search(plain):
        plain = re.sub(r"\b(?:mas|menos)\b\s*", "", plain).strip()
    return bool(_POINTER.fullmatch(plain + " "))


def reason_refusal(word: str, reason: str, tail: str = AFTER_A_HINT, seen_ok: bool = False) -> str:
    """The Spanish sentence refusing `reason` (empty, too short, saying nothing, or how the answer
    was come by) for `word`; `tail` follows a reason that says nothing."""
    words = _plain_word(reason).split()
    if not words:  # «13 - 1»: something was written, only not in words
        return (TOO_SHORT if reason.strip(" .,;:") else ASK_REASON).format(word=word)
    if all(w in _EMPTY_WORDS for w in words):
        return NOT_A_REASON.format(reason=reason.strip(" .,;:"), word=word) + tail
    how = _how_not_why(reason, seen_ok)
    if how is not None:
        return (how + HOW_NOT_WHY_TAIL).format(word=word)
    if points_only(reason):
        return POINTER.format(word=word)
    return TOO_SHORT.format(word=word)


@dataclass(eq=False)
class ReasonedChoice(RemembersTries):
    """`choice(respuesta)` -> (right?, message) judges the word; this wrapper asks for «…, porque
    …» with a reason from the first answer on, and remembers, per exercise while the kernel runs,
    the wrong words tried and how many tries were refused.  `fewest` words make a reason (1 where
    one verb can say it: «Reyes, porque bajan»)."""

    choice: Callable[[object], tuple[bool, str]]
    fewest: int = REASON_WORDS
    missed: bool = False
    refused: int = 0
    tried: set[str] = field(default_factory=set)

    def __call__(self, respuesta: object) -> tuple[bool, str]:
        ok, message, counted = self._verdict(respuesta)
        if counted:
            if message.startswith(("No.", "Tampoco")):
                self.missed = True
                self.tried.add(_core_words(split_reason(respuesta)[0]) if isinstance(respuesta, str) else "")
            self.refused += 1
            if self.refused >= NUDGE_AFTER:
                message += NUDGE.format(n=self.refused)
        return ok, message

    def _verdict(self, respuesta: object) -> tuple[bool, str, bool]:
        """(right?, message, whether it counts as a refused try)."""
        if not isinstance(respuesta, str):
            ok, message = self.choice(respuesta)
            return ok, message, False
        word, reason = split_reason(respuesta)
        ok, message = self.choice(word)
        if not ok and not message.startswith("No."):  # a word it cannot read: not a try
            return ok, message, False
        if not reason.strip(" .,;:"):
            # a bare word is not judged: right or wrong would make a guess among three pay, and
            # «no» would tell, by elimination, which words are left; it is not a try either
            return False, ASK_WHY.format(word=word), False
        if not is_a_reason(reason, fewest=self.fewest):  # «…, porque no sé», «…, lo pone en la tabla»: a try, refused
            return False, reason_refusal(word, reason), True
        if not ok:
            if _core_words(word) in self.tried:
                return ok, f"«{word}» ya la has probado, y no es. Lee otra vez la pregunta y la pista.", True
            if self.missed:  # another wrong word: told so, with the same hint (never the right one)
                return ok, "Tampoco es esa." + message.removeprefix("No."), True
            return ok, message, True
        if len(self.tried) >= 2 and message.startswith("¡Correcto!"):
            # two words ruled out leave the last one: it is accepted, and the reason is what to read
            return ok, DEDUCED + message.removeprefix("¡Correcto!"), False
        return ok, right_word(message), False

    def forget(self) -> None:
        """Start again, as a new kernel would: no word tried, no try refused."""
        self.missed, self.refused, self.tried = False, 0, set()


@dataclass(eq=False)
class ReasonedPrediction:
    """A prediction, not graded: any of `options` («más», «menos», …) with a reason after it is
    taken down (right, so the box lets the reader go on) and told `after()`, where to compare it
    with the measure; a word without a reason, or with «no sé», is asked for one.  Its box
    says «Apuntar», not «Comprobar» (`exercises.es_prediccion`): nothing is checked."""

    options: Sequence[str]
    after: Callable[[], str]

    def __call__(self, respuesta: object) -> tuple[bool, str]:
        read, ask = option_reader(self.options)
        if not isinstance(respuesta, str):
            return False, ask
        word, reason = split_reason(respuesta)
        chosen = read(word)
        if chosen is None:
            return False, ask
        if not is_a_reason(reason, seen_ok=True):  # a prediction may rest on what was seen
            return False, reason_refusal(chosen, reason, UNSURE, seen_ok=True)
        return True, f"¡Apuntado! «{chosen}», con tu razón. Una predicción no se corrige: {self.after()}"


def reasoned_prediction(options: Sequence[str], after: Callable[[], str]) -> ReasonedPrediction:
    """A `ReasonedPrediction` on `options`, pointing to the measure with `after()`."""
    return ReasonedPrediction(tuple(options), after)
