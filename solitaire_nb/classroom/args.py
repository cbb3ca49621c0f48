"""The class launcher's command line, all in Spanish, every value checked.

`SpanishParser` is argparse with its own texts in Spanish (usage, section titles, help, errors),
exit status 2 on any refusal; the ``check_*`` functions are argparse ``type=`` converters that
refuse with a Spanish message echoing at most the first 60 characters of what was typed.  New
arguments (the class challenge's) reuse both.
"""

from __future__ import annotations

import argparse
import ipaddress
import math
import os
import re
import sys
from typing import NoReturn

from ..core.checks import shown

MAX_STUDENTS = 100
MAX_CULL_MINUTES = 24 * 60
MAX_SOLVER_SECONDS = 60.0


# ---------------------------------------------------------------------- converters (type=)
def _number(text: str, what: str) -> float:
    try:
        if not text.isascii():  # only ASCII digits name a number here, as in moves
            raise ValueError
        value = float(text.strip().replace(",", "."))
    except ValueError:
        raise argparse.ArgumentTypeError(f"«{shown(text, raw=True)}» no es un número ({what}).") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"«{shown(text, raw=True)}» no es un número finito ({what}).")
    return value


def _integer(text: str, what: str) -> int:
    if not re.fullmatch(r"\s*[+-]?[0-9]{1,12}\s*", text):
        raise argparse.ArgumentTypeError(f"«{shown(text, raw=True)}» no es un número entero ({what}).")
    return int(text)


def check_students(text: str) -> int:
    """Students of the class: a whole number from 1 to MAX_STUDENTS."""
    n = _integer(text, "alumnos de la clase")
    if not 1 <= n <= MAX_STUDENTS:
        raise argparse.ArgumentTypeError(
            f"la clase tiene que tener de 1 a {MAX_STUDENTS} alumnos, no {n}; para más, usa la "
            "aplicación sin servidor o reparte la clase entre varios ordenadores."
        )
    return n


def check_port(text: str) -> int:
    """A TCP port a user may open: 1024 to 65535."""
    port = _integer(text, "puerto")
    if not 1024 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"el puerto tiene que estar entre 1024 y 65535, no {port}.")
    return port


def check_minutes(text: str) -> float:
    """Minutes before an abandoned kernel is closed: from 1 to a day."""
    minutes = _number(text, "minutos")
    if not 1 <= minutes <= MAX_CULL_MINUTES:
        raise argparse.ArgumentTypeError(
            f"los minutos tienen que estar entre 1 y {MAX_CULL_MINUTES}, no «{shown(text, raw=True)}»."
        )
    return minutes


def check_seconds(text: str) -> float:
    """The solver buttons' seconds: more than 0, at most a minute."""
    seconds = _number(text, "segundos")
    if not 0 < seconds <= MAX_SOLVER_SECONDS:
        raise argparse.ArgumentTypeError(
            f"los segundos tienen que ser más de 0 y como mucho {MAX_SOLVER_SECONDS:.0f}, no «{shown(text, raw=True)}»."
        )
    return seconds


def check_ip(text: str) -> str:
    """An IP address written as numbers (``0.0.0.0`` for every network of this computer)."""
    if text.strip().lower() == "localhost":
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"«{shown(text, raw=True)}» no es una dirección IP (por ejemplo 127.0.0.1, o 0.0.0.0 para toda la red)."
        ) from None


def check_share_code(text: str) -> str:
    """A class challenge's deal: a share code that loads, without moves (its start is kept)."""
    from .challenge_state import deal_code

    try:
        return deal_code(text.strip())
    except ValueError as exc:
        said = str(exc)
        raise argparse.ArgumentTypeError(f"«{shown(text, raw=True)}» no es un reparto para el reto: {said[:1].lower()}{said[1:]}") from None


def check_record_path(text: str) -> str:
    """Where a class's record is written: a regular file (new, empty, or a record of a class
    challenge that no running class is writing) in a folder that exists and can be written;
    checked without writing anything (`record_file.check_record`)."""
    from pathlib import Path

    from .record_file import RecordError, check_record

    if not text.strip() or "\x00" in text:
        raise argparse.ArgumentTypeError("falta el nombre del archivo del registro.")
    path = Path(os.path.expanduser(text.strip()))
    try:
        folder, parent = path.is_dir(), path.parent.is_dir()
    except (OSError, ValueError):  # a name too long for the system
        folder, parent = False, False
    if folder:
        raise argparse.ArgumentTypeError(f"«{shown(path, path=True)}» es una carpeta; el registro es un archivo (por ejemplo clase.sqlite).")
    if not parent:
        raise argparse.ArgumentTypeError(f"la carpeta de «{shown(path, path=True)}» no existe.")
    try:
        check_record(path, write=True)
    except RecordError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return str(path)


def check_existing_record(text: str) -> str:
    """A class's record that exists (for --borrar): a regular file, or a symbolic link to one,
    holding a record of a class challenge."""
    from pathlib import Path

    from .record_file import RecordError, read_meta, real_file, record_path

    path = Path(os.path.expanduser(text.strip()))
    try:
        exists = "\x00" not in text and bool(text.strip()) and os.path.lexists(path)
    except (OSError, ValueError):
        exists = False
    if not exists:
        raise argparse.ArgumentTypeError(f"no existe el registro «{shown(path, path=True)}».")
    try:
        real = real_file(record_path(path), new_ok=False)
        assert real is not None
        read_meta(real)
    except RecordError as exc:
        said = str(exc)
        if "no es un registro" in said:
            said = said.rstrip(".") + ": no lo borro."
        raise argparse.ArgumentTypeError(said) from None
    return str(path)


# ---------------------------------------------------------------------- the parser
class _SpanishFormatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        return super().add_usage(usage, actions, groups, prefix="uso: " if prefix is None else prefix)


#: argparse's own error messages, as Spanish sentences (the names stay as typed).
_ERRORS: list[tuple[str, str]] = [
    (r"the following arguments are required: (.*)", "falta el argumento {0}."),
    (r"unrecognized arguments: (.*)", "no conozco estos argumentos: {0}"),
    (r"argument (\S+): expected one argument", "{0} necesita un valor."),
    (r"argument (\S+): expected at most one argument", "{0} lleva como mucho un valor."),
    (r"argument (\S+): expected at least one argument", "{0} necesita al menos un valor."),
    (r"argument (\S+): ignored explicit argument (.*)", "{0} no lleva valor (se ha escrito {1})."),
    (r"argument (\S+): invalid choice: (.*?) \(choose from (.*)\)", "{0}: {1} no es ninguno de {2}."),
    (r"argument (\S+): invalid \S+ value: (.*)", "{0}: el valor {1} no vale."),
    (r"argument (\S+): not allowed with argument (\S+)", "{0} no se puede usar junto con {1}."),
    (r"argument (\S+): (.*)", "{0}: {1}"),  # our converters' messages, already short
    (r"ambiguous option: (\S+) could match (.*)", "{0} puede ser {1}: escríbelo entero."),
    (r"one of the arguments (.*) is required", "falta uno de estos argumentos: {0}."),
]


def spanish_error(message: str) -> str:
    """argparse's `message` in Spanish; messages already in Spanish pass unchanged."""
    for pattern, text in _ERRORS:
        m = re.fullmatch(pattern, message, re.S)
        if m:
            ours = text == "{0}: {1}"  # a converter's message: already Spanish and short
            return text.format(*(g if ours else shown(g, raw=True) for g in m.groups()))
    if re.search(r"\b(?:the|argument|invalid|expected|error)\b", message):
        return "la orden no es válida."
    return message


class SpanishParser(argparse.ArgumentParser):
    """argparse speaking Spanish: «uso:», «opciones», ``-h/--ayuda``, and every refusal a Spanish
    line on stderr with exit status 2."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _SpanishFormatter)
        kwargs["add_help"] = False
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self._positionals.title = "argumentos"
        self._optionals.title = "opciones"
        self.add_argument(
            "-h", "--ayuda", "--help", action="help", default=argparse.SUPPRESS, help="muestra esta ayuda y termina"
        )

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {spanish_error(message)}\n")
