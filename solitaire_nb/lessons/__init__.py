"""What the lessons read: printable rules summaries, the sentence explaining a move, narrated
games (`narration`) and the exercises with their checkers (`exercises`, `answers`)."""

from __future__ import annotations

from .narration import (
    describe_automatic,
    explain_move,
    narrated_game,
    narrated_lines,
    student_texts,
)
from .summaries import rules_summary

__all__ = [
    "rules_summary",
    "explain_move",
    "describe_automatic",
    "narrated_game",
    "narrated_lines",
    "student_texts",
]
