"""The format of a study file, apart from any disk: `DealRecord`, its row, the header.

A study file's first line is ``HEADER_PREFIX`` and the study's parameters as JSON (game, full
variant with defaults, limits, package version); then a header row (`COLUMNS`) and one row per
solved deal.  `parse_row` turns a line back into a record, or None for a line cut short,
malformed or not believable; `describe` names a study in a Spanish refusal.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.checks import SEED_MAX, shown

STATUSES = ("won", "lost", "unknown")
COLUMNS = ("deal", "status", "states", "seconds", "moves")
HEADER_PREFIX = "# solitaire_nb win_rate "


@dataclass(frozen=True)
class DealRecord:
    """One solved deal: its number, the solver's status, states expanded, seconds (the
    search's processor time since 2026-12-07, wall time before), and the length of the
    winning line (0 unless won)."""

    deal: int
    status: str
    states: int
    seconds: float
    moves: int

    def same_verdict(self) -> tuple[int, str, int, int]:
        """Everything but the time: equal on every machine under ``max_states``."""
        return self.deal, self.status, self.states, self.moves


def study_params(
    name: str,
    variant: dict[str, bool],
    time_limit: float | None,
    max_states: int | None,
    spec: Mapping[str, Any] | None = None,
) -> dict:
    """A study's header fields; a composed game's `spec` too (built-in games' headers are
    unchanged, so their older files still resume)."""
    params = {"game": name, "variant": dict(sorted(variant.items())), "time_limit": time_limit, "max_states": max_states}
    if spec is not None and spec["changes"]:
        params["spec"] = dict(spec)
    return params


def header_line(params: dict) -> str:
    """The first line of a study file with `params` (the package's version added)."""
    from .. import __version__

    return HEADER_PREFIX + json.dumps({**params, "version": __version__}, ensure_ascii=False)


def row_fields(r: DealRecord) -> list:
    """The CSV fields of a record (never quoted: numbers and statuses)."""
    return [r.deal, r.status, r.states, f"{r.seconds:.4f}", r.moves]


_DIGITS = re.compile(r"[0-9]{1,20}")


def parse_row(line: str, max_states: int | None = None) -> DealRecord | None:
    """A record from a line of the file, or None for a line cut short, malformed or not
    believable, whose deal is then solved again: negative or non-finite numbers, a deal
    number out of range, more states than the study's cap, a lost or unknown verdict with
    moves or a won one without, a lost one without a state examined."""
    row = line.rstrip("\r").split(",")  # the file's rows never quote: numbers and statuses
    if len(row) != len(COLUMNS) or row[1] not in STATUSES:
        return None
    deal_text, status, states_text, seconds_text, moves_text = row
    if not all(_DIGITS.fullmatch(x) for x in (deal_text, states_text, moves_text)):
        return None
    try:
        seconds = float(seconds_text)
    except ValueError:
        return None
    deal, states, moves = int(deal_text), int(states_text), int(moves_text)
    if deal > SEED_MAX or not math.isfinite(seconds) or seconds < 0:
        return None
    if max_states is not None and states > max_states:
        return None
    if (status == "won") != (moves > 0) or (status == "lost" and states < 1):
        return None
    return DealRecord(deal, status, states, seconds, moves)


def describe(params: dict) -> str:
    """A study's game, variant and limits, short, for a Spanish refusal."""
    variant = params.get("variant")
    flags = list(variant.items())[:9] if isinstance(variant, dict) else []
    text = ", ".join(f"{shown(k)}={shown(v)}" for k, v in flags[:8]) or "sin variantes"
    if len(flags) > 8:  # a header written by hand: the message stays short
        text += ", …"
    return (
        f"{shown(params.get('game'))} ({text}; time_limit={shown(params.get('time_limit'))}, "
        f"max_states={shown(params.get('max_states'))})"
    )
