"""What an entry may hold before it is recorded: names and reasons of a sane length without
control characters, chip amounts below 10^12. The engine refuses a command that breaks them,
so the CLI, the HTTP API and the tablet's own engine refuse the same entries with the same
words, and nothing reaches the permanent log (or every screen) that a person could not have
meant.

The same limits ride on the commands' own fields for whoever reads commands from outside (the
HTTP API validates the tournament's commands with pydantic): `Limit` speaks pydantic's published
protocol by name (`__get_pydantic_core_schema__`, `__get_pydantic_json_schema__`, whose core
schemas are plain dictionaries), so the engine imports no pydantic and a field reads
`Annotated[str, Limit(max_length=80)]` while staying a plain str to the engine.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from handlog.engine.errors import RuleViolation
from handlog.engine.table import MAX_CHIPS, MAX_SEATS

MAX_NAME = 80  # a table's or a player's name
MAX_REASON = 500  # a reason, a ruling's words, a misdeal's cause
MAX_RULE = 200  # a rule reference ("TDA 2024 Rule 1")
MAX_NAME_KEY = 80  # the longest player id a command names


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


TOURNAMENT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,60}$"
"""A tournament's id: its streams are tournament-ID and table-ID-N (the same in the CLI and the
API)."""


def check_tournament_id(value: str) -> None:
    """RuleViolation naming the id when it is not 1 to 61 letters, digits, '.', '_', '-'."""
    if not re.fullmatch(TOURNAMENT_ID_PATTERN, value):
        shown = value if len(value) <= 40 else f"{value[:40]}... ({len(value):,} characters)"
        raise RuleViolation("tournament-id", f"the tournament id {shown!r} is not allowed",
                            ("1 to 61 letters, digits, '.', '_' or '-', starting with a letter "
                             "or a digit",))


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


_BOUNDS = ("min_length", "max_length", "ge", "le")


@dataclass(frozen=True, slots=True)
class Limit:
    """Bounds of one field (lengths of a text, a list or a mapping; an integer's range), a
    check that says what is wrong with a value (None: nothing), and the words the API's
    document gives it."""

    min_length: int | None = None
    max_length: int | None = None
    ge: int | None = None
    le: int | None = None
    problem: Callable[[str], str | None] | None = None
    description: str = ""

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        schema = _bounded(handler(source), {b: getattr(self, b) for b in _BOUNDS
                                            if getattr(self, b) is not None})
        if self.problem is None:
            return schema
        problem = self.problem

        def checked(value: str) -> str:
            said = problem(value)
            if said:
                raise ValueError(said)
            return value

        return {"type": "function-after", "schema": schema,
                "function": {"type": "no-info", "function": checked}}

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> Any:
        json_schema = handler(core_schema)
        if self.description:
            json_schema = dict(json_schema) | {"description": self.description}
        return json_schema


def _bounded(schema: dict[str, Any], bounds: dict[str, int]) -> dict[str, Any]:
    """`schema` with `bounds` on the value it checks (inside the checks another Limit wrapped
    around it)."""
    if schema.get("type") in ("function-after", "nullable"):
        return schema | {"schema": _bounded(schema["schema"], bounds)}
    return schema | bounds


def described(text: str) -> Limit:
    """Words for the API's document, no bound."""
    return Limit(description=text)


Name = Annotated[str, Limit(max_length=MAX_NAME, problem=name_problem,
                            description=f"1 to {MAX_NAME} printable characters")]
Reason = Annotated[str, Limit(max_length=MAX_REASON, problem=reason_problem,
                              description=f"up to {MAX_REASON} characters")]
Rule = Annotated[str, Limit(max_length=MAX_RULE, problem=reason_problem)]
Chips = Annotated[int, Limit(ge=0, le=MAX_CHIPS)]
PlayerKey = Annotated[str, Limit(max_length=MAX_NAME_KEY)]
SeatOrNone = Annotated[int, Limit(ge=0, le=MAX_SEATS, description="0: the seat the engine "
                                  "picks")]
