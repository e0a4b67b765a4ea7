"""What an entry may hold before it is recorded: names and reasons of a sane length without
control characters, chip amounts below 10^12. The engine refuses a command that breaks them,
so the CLI, the HTTP API and the tablet's own engine refuse the same entries with the same
words, and nothing reaches the permanent log (or every screen) that a person could not have
meant. The HTTP layer's field types (recorder/limits.py) are built from the same checks.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from handlog.engine.errors import RuleViolation
from handlog.engine.table import MAX_CHIPS

MAX_NAME = 80  # a table's or a player's name
MAX_REASON = 500  # a reason, a ruling's words, a misdeal's cause
MAX_RULE = 200  # a rule reference ("TDA 2024 Rule 1")


def _control(text: str) -> str | None:
    """The first control (or other unprintable) character in `text`, or None."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            return char
    return None


def name_problem(value: str) -> str | None:
    """Why `value` is not a name (None: it is one)."""
    if not value.strip():
        return "must not be empty"
    if len(value) > MAX_NAME:
        return f"at most {MAX_NAME} characters, got {len(value)}"
    char = _control(value)
    if char is not None:
        return f"no control characters (found U+{ord(char):04X})"
    return None


def reason_problem(value: str, required: bool = False) -> str | None:
    """Why `value` is not a reason (None: it is one)."""
    if required and not value.strip():
        return "must not be empty: say why"
    if len(value) > MAX_REASON:
        return f"at most {MAX_REASON} characters, got {len(value)}"
    char = next((c for c in value if c not in "\n\t" and _control(c)), None)
    if char is not None:
        return f"no control characters (found U+{ord(char):04X})"
    return None


def check_name(value: str, field: str) -> None:
    """RuleViolation naming `field` when `value` is no name."""
    problem = name_problem(value)
    if problem:
        raise RuleViolation(field, f"{field}: {problem}", (f"1 to {MAX_NAME} printable "
                            "characters",))


def check_reason(value: str, field: str = "reason", required: bool = False) -> None:
    problem = reason_problem(value, required)
    if problem:
        raise RuleViolation(field, f"{field}: {problem}", (f"up to {MAX_REASON} characters",))


def check_chips(value: int, field: str, negative: bool = False) -> None:
    low = -MAX_CHIPS if negative else 0
    if not low <= value <= MAX_CHIPS:
        raise RuleViolation(field, f"{field}: {value} is out of range; allowed: {low} to "
                            f"{MAX_CHIPS:,}", (f"{low} to {MAX_CHIPS}",))


def check_words(command: Any) -> None:
    """Reasons and rulings are kept forever and shown on every screen: a sane length, no
    control characters."""
    for name in ("reason", "ruling", "rule"):
        value = getattr(command, name, None)
        if isinstance(value, str):
            check_reason(value, name)
