"""What a board offers (hints, the solver's buttons, the solver's time budget): the page's
defaults, which a teacher sets once per notebook, and the check of a value given."""

from __future__ import annotations

from typing import Any

from ..core.checks import check_number, shown

# What a board offers unless told otherwise; a teacher changes it once per notebook with
# `set_board_defaults`.  «Pista» thinks a fifth of `solver_seconds`.
_DEFAULTS: dict[str, Any] = {"hints": True, "solution": True, "solver_seconds": 5.0}


def set_board_defaults(
    hints: bool | None = None, solution: bool | None = None, solver_seconds: float | None = None
) -> None:
    """What every board made afterwards offers, unless it says otherwise: a teacher calls it
    once at the top of a notebook, e.g. ``sn.set_board_defaults(solution=False)`` for an
    exam.  None leaves a setting as it is."""
    _DEFAULTS.update(checked_settings(hints=hints, solution=solution, solver_seconds=solver_seconds))


def checked_settings(**given: Any) -> dict[str, Any]:
    """The page defaults overridden by the non-None values given, checked (Spanish ValueError)."""
    out = dict(_DEFAULTS)
    for key, value in given.items():
        if value is None:
            continue
        if key == "solver_seconds":
            wrong = ValueError(
                f"solver_seconds debe ser un número de segundos mayor que 0 y como mucho 600, no {shown(value)}"
            )
            try:
                seconds = check_number(value, "solver_seconds", "de segundos")
            except ValueError:
                raise wrong from None
            if not 0 < seconds <= 600:
                raise wrong
            out[key] = seconds
        elif isinstance(value, bool):
            out[key] = value
        else:
            raise ValueError(f"{key} debe ser True o False, no {shown(value)}")
    return out
