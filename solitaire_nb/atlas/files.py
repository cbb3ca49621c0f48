"""Careful file primitives for study and atlas files: every byte they read or write passes here.

Before a byte is read or written, anything but a regular file with one name and at most
`MAX_STUDY_BYTES` is refused in Spanish (`check_study_file`): no FIFO blocks, no device
streams, no link is written through.  Operating-system errors become Spanish ValueErrors
(`os_error`); a whole file is replaced through a temporary file (`replace_file`), and
`write_all` is the one place bytes reach the disk.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

from ..core.checks import shown


def study_path(path: Any, what: str = "El archivo de estudio") -> Path:
    """`path` (non-empty text or a path-like) as a `Path`, else a Spanish ValueError."""
    if isinstance(path, str) and path.strip():
        return Path(path)
    if isinstance(path, os.PathLike) and not isinstance(path, str):
        try:
            return Path(path)
        except TypeError:
            pass
    raise ValueError(f"{what} debe ser una ruta (texto o Path), no {shown(path)}")


MAX_STUDY_BYTES = 256 * 2**20
"""The largest study file read or resumed (about six million rows; a longer study is split
over several files)."""

_OS_REASONS = {
    errno.ENOENT: "no existe",
    errno.EACCES: "no hay permiso",
    errno.EPERM: "no hay permiso",
    errno.EISDIR: "es una carpeta",
    errno.ENOTDIR: "una parte de la ruta no es una carpeta",
    errno.ENOSPC: "no queda espacio en el disco",
    errno.EDQUOT: "no queda espacio en el disco",
    errno.EROFS: "el disco es de solo lectura",
    errno.ENAMETOOLONG: "el nombre es demasiado largo",
    errno.ELOOP: "es un enlace simbólico",
}
_FULL_DISK = (errno.ENOSPC, errno.EDQUOT)


def os_reason(exc: OSError) -> str:
    """Why an operating-system call failed, in Spanish (its own text is in English)."""
    return _OS_REASONS.get(exc.errno or 0, f"error del sistema n.º {exc.errno}")


def os_error(exc: OSError, path: Path, doing: str) -> ValueError:
    """An operating-system error as a Spanish ValueError (its own text is in English); a full
    disk says what to do."""
    text = f"No se puede {doing} el archivo {shown(path, path=True)}: {os_reason(exc)}."
    if exc.errno in _FULL_DISK:
        text += (
            " Las filas ya guardadas siguen en el archivo: libera espacio y vuelve a lanzar el mismo "
            "cálculo con el mismo archivo, que seguirá donde se quedó."
        )
    return ValueError(text)


_lstat = os.lstat  # module-level so a test can present a device without touching one
_os_write = os.write  # and inject a full disk
NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in after the check cannot block (not on Windows)


def kind_refused(mode: int) -> str | None:
    """Why a file of this mode cannot be a study file, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "es un enlace simbólico: usa la ruta del archivo de verdad"
    if stat.S_ISDIR(mode):
        return "es una carpeta"
    if stat.S_ISFIFO(mode):
        return "es una tubería (FIFO), no un archivo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "es un dispositivo, no un archivo"
    return "no es un archivo normal"


def check_study_file(path: Path, follow: bool = False) -> bool:
    """Whether `path` exists, after refusing in Spanish (before any byte is read or written)
    anything but a regular file with one name and at most `MAX_STUDY_BYTES`.  `follow`
    (reading only) lets a symbolic link to such a file through."""
    try:
        st = _lstat(path)
        if follow and stat.S_ISLNK(st.st_mode):
            st = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise os_error(exc, path, "leer") from None
    why = kind_refused(st.st_mode)
    if why is None and st.st_nlink > 1 and not follow:  # two names, two lock files: refused
        why = ("tiene más de un nombre (enlaces duros): dos cálculos podrían escribirlo a la vez "
               "con nombres distintos; cópialo a un archivo propio")
    if why is None and st.st_size > MAX_STUDY_BYTES:
        why = f"es demasiado grande para un estudio (más de {MAX_STUDY_BYTES // 2**20} MB)"
    if why is not None:
        raise ValueError(f"El archivo de estudio {shown(path, path=True)} {why}.")
    return True


def read_text(path: Path, head: int | None = None) -> str:
    """The text of a study file, checked before it is opened (no FIFO blocks, no device
    streams) and read to at most `MAX_STUDY_BYTES` (only its first `head` bytes if given)."""
    if not check_study_file(path, follow=True):
        raise os_error(FileNotFoundError(errno.ENOENT, "missing"), path, "leer")
    try:
        fd = os.open(path, os.O_RDONLY | NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise os_error(exc, path, "leer") from None
    try:
        if kind_refused(os.fstat(fd).st_mode):  # swapped since the check: refuse, unread
            raise ValueError(f"El archivo de estudio {shown(path, path=True)} no es un archivo normal.")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_STUDY_BYTES + 1 if head is None else head)
    except OSError as exc:
        raise os_error(exc, path, "leer") from None
    finally:
        os.close(fd)
    if head is not None:
        return data.decode("utf-8", errors="replace")
    if len(data) > MAX_STUDY_BYTES:
        raise ValueError(f"El archivo de estudio {shown(path, path=True)} es demasiado grande para un estudio.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(
            f"El archivo {shown(path, path=True)} no es un archivo de estudio de solitaire_nb (no es texto UTF-8)."
        ) from None


def write_all(fd: int, data: bytes, path: Path) -> None:
    """Write every byte of `data` to `fd` (the one place study and atlas bytes reach the disk);
    an operating-system error, a full disk included, as a Spanish ValueError."""
    view = memoryview(data)
    try:
        while view:
            view = view[_os_write(fd, view):]
    except OSError as exc:
        raise os_error(exc, path, "escribir") from None



def replace_file(path: Path, text: str) -> None:
    """Write `text` as the whole of `path` through a temporary file beside it, so a crash or a
    full disk leaves the old file whole.  `path` must be a regular file with one name, or
    missing (`check_study_file`)."""
    check_study_file(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        if os.path.lexists(tmp):
            os.unlink(tmp)  # a link or leftover is removed, never written through
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        raise os_error(exc, path, "escribir") from None
    try:
        write_all(fd, text.encode("utf-8"), path)
    except BaseException:
        os.close(fd)
        _quiet_unlink(tmp)
        raise
    os.close(fd)
    try:
        os.replace(tmp, path)
    except OSError as exc:
        _quiet_unlink(tmp)
        raise os_error(exc, path, "escribir") from None


def _quiet_unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass

