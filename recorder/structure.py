"""Load a tournament structure from a TOML file (see examples/*.toml).

Every error names the file, the field (`levels[3].big_blind`, level numbers counting from 1
are added for levels) and what is allowed; unknown keys are errors, so a typo never silently
falls back to a default. The checks that are about the structure's meaning (blinds payable in
the chips in play, breaks after existing levels, payouts adding up...) are the engine's
`structure_problems`, reported the same way.

Money is written in currency units (`buy_in = 50`, `bounty = 2.50`) and kept in cents;
percentages may have two decimals (`12.5`) and are kept in basis points.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, TypeVar

from handlog.engine.limits import name_problem
from handlog.engine.profiles import profile_problems, room_profile_ref
from handlog.engine.structure import (
    ANTE_KINDS,
    AddOn,
    AnteCheckpoint,
    AnteKind,
    BlindLevel,
    Break,
    ColorUpStep,
    Days,
    Denomination,
    LateEntry,
    Money,
    PayoutBracket,
    Rebuy,
    ReEntry,
    Satellite,
    Structure,
    structure_problems,
)
from handlog.schema.text_limits import TextRefused, check_text

T = TypeVar("T")

_LEVEL_PATH = re.compile(r"^levels\[(\d+)\]")


class StructureError(Exception):
    """A structure file that cannot be used: every problem with its field path."""

    def __init__(self, file: str, problems: list[tuple[str, str]]) -> None:
        self.file = file
        self.problems = tuple(problems)
        super().__init__("\n".join(_line(file, path, message) for path, message in problems))


def _line(file: str, path: str, message: str) -> str:
    match = _LEVEL_PATH.match(path)
    if match:
        path += f" (level {int(match.group(1)) + 1})"
    return f"{file}: {path}: {message}" if path else f"{file}: {message}"


class _Reader:
    """Reads typed fields of one TOML table, collecting problems instead of stopping."""

    def __init__(self, problems: list[tuple[str, str]], data: dict[str, Any], path: str,
                 allowed: tuple[str, ...]) -> None:
        self.problems = problems
        self.data = data
        self.path = path
        for key in data:
            if key not in allowed:
                self.problem(key, f"unknown key {key!r}; allowed: {', '.join(allowed)}")

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def problem(self, key: str, message: str) -> None:
        self.problems.append((self.where(key), message))

    def _get(self, key: str, required: bool) -> Any:
        if key not in self.data:
            if required:
                self.problem(key, "is required")
            return None
        return self.data[key]

    def integer(self, key: str, default: int = 0, required: bool = False) -> int:
        value = self._get(key, required)
        if value is None:
            return default
        if type(value) is not int:
            self.problem(key, f"must be a whole number, got {_show(value)}")
            return default
        if abs(value) > MAX_NUMBER:
            self.problem(key, f"must be at most {MAX_NUMBER:,}, got {Decimal(value):.3g}")
            return default
        return value

    def text(self, key: str, default: str = "", required: bool = False) -> str:
        value = self._get(key, required)
        if value is None:
            return default
        if not isinstance(value, str):
            self.problem(key, f"must be text in quotes, got {_show(value)}")
            return default
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._get(key, False)
        if value is None:
            return default
        if type(value) is not bool:
            self.problem(key, f"must be true or false, got {_show(value)}")
            return default
        return value

    def hundredths(self, key: str, what: str, default: int = 0, required: bool = False) -> int:
        """A number with at most two decimals, times 100 (cents, basis points)."""
        value = self._get(key, required)
        if value is None:
            return default
        return self._hundredths_of(value, self.where(key), what, default)

    def _hundredths_of(self, value: Any, path: str, what: str, default: int) -> int:
        if type(value) is bool or not isinstance(value, int | Decimal):
            self.problems.append((path, f"must be {what}, got {_show(value)}"))
            return default
        number = Decimal(value)
        if not number.is_finite() or abs(number) > MAX_NUMBER:
            self.problems.append((path, f"must be {what} of at most {MAX_NUMBER:,}, got "
                                  f"{_show(value)}"))
            return default
        try:
            scaled = Decimal(value) * 100
            if scaled != scaled.to_integral_value():
                raise InvalidOperation
        except InvalidOperation:
            self.problems.append((path, f"must be {what} with at most two decimals, "
                                  f"got {_show(value)}"))
            return default
        return int(scaled)

    def texts(self, key: str) -> tuple[str, ...]:
        value = self._get(key, True)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problem(key, f"must be a list of texts, e.g. [\"red\"], got {_show(value)}")
            return ()
        return tuple(value)

    def percents(self, key: str) -> tuple[int, ...]:
        value = self._get(key, True)
        if value is None:
            return ()
        if not isinstance(value, list):
            self.problem(key, f"must be a list of percentages, e.g. [50, 30, 20], got "
                         f"{_show(value)}")
            return ()
        return tuple(self._hundredths_of(v, f"{self.where(key)}[{i}]", "a percentage", 0)
                     for i, v in enumerate(value))

    def table(self, key: str, allowed: tuple[str, ...]) -> _Reader | None:
        value = self._get(key, False)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.problem(key, f"must be a table ([{self.where(key)}]), got {_show(value)}")
            return None
        return _Reader(self.problems, value, self.where(key), allowed)

    def tables(self, key: str, allowed: tuple[str, ...], required: bool = False,
               ) -> list[_Reader]:
        value = self._get(key, required)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.problem(key, f"must be an array of tables ([[{self.where(key)}]]), got "
                         f"{_show(value)}")
            return []
        return [_Reader(self.problems, v, f"{self.where(key)}[{i}]", allowed)
                for i, v in enumerate(value)]


def _show(value: Any) -> str:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)


_TOP = ("name", "profile", "starting_stack", "seats_per_table", "denominations", "levels",
        "breaks", "color_ups", "ante_checkpoint", "late_entry", "payouts", "money", "re_entry",
        "rebuy", "add_on", "days", "satellite")
_DENOMINATION = ("colour", "value", "count")
_LEVEL = ("small_blind", "big_blind", "ante", "ante_kind", "minutes")
_BREAK = ("after_level", "minutes")
_COLOR_UP = ("after_level", "remove", "unless_antes")
_CHECKPOINT = ("after_level", "players_at_least")
_LATE = ("last_level", "through_break")
_PAYOUT = ("min_players", "max_players", "percents", "scale_to_pool")
_RE_ENTRY = ("per_person", "last_level", "cost", "prize_pool")
_REBUY = ("first_level", "last_level", "stack_at_most", "per_entry", "cost", "prize_pool",
          "chips")
_ADD_ON = ("after_level", "cost", "prize_pool", "chips")
_DAYS = ("event", "day", "flight", "carry", "redraw")
_MONEY = ("currency", "buy_in", "prize_pool_per_entry", "bounty", "high_hand_fee",
          "payout_rounding", "guarantee")
_SATELLITE = ("seat_value", "seats", "target", "share_equally")


_ANTE_KIND: dict[str, AnteKind] = {"none": "none", "uniform": "uniform",
                                   "big_blind": "big_blind"}


def _ante_kind(r: _Reader, ante: int) -> AnteKind:
    kind = r.text("ante_kind", "uniform" if ante else "none")
    if kind in _ANTE_KIND:
        return _ANTE_KIND[kind]
    r.problem("ante_kind", f"{kind!r} is not an ante kind; allowed: {', '.join(ANTE_KINDS)}")
    return "none"


def _levels(top: _Reader) -> tuple[BlindLevel, ...]:
    levels = []
    for i, r in enumerate(top.tables("levels", _LEVEL, required=True)):
        ante = r.integer("ante")
        levels.append(BlindLevel(
            number=i + 1,
            small_blind=r.integer("small_blind", required=True),
            big_blind=r.integer("big_blind", required=True),
            minutes=r.integer("minutes", required=True),
            ante=ante,
            ante_kind=_ante_kind(r, ante),
        ))
    return tuple(levels)


def _optional(reader: _Reader | None, build: Callable[[_Reader], T], default: T) -> T:
    return default if reader is None else build(reader)


MAX_NUMBER = 10**15  # any number of a structure (chips, cents, minutes): a bound, not a rule


def _name(top: _Reader) -> str:
    """The tournament's name, held to a name's limits (as a player's or a table's, at every
    door)."""
    name = top.text("name", required=True)
    problem = name_problem(name) if name else None
    if problem:
        top.problem("name", problem)
    return name


def parse_structure(data: dict[str, Any], file: str = "<structure>") -> Structure:
    """The Structure described by parsed TOML `data` (floats as Decimal); raises
    StructureError naming `file` and every bad field."""
    problems: list[tuple[str, str]] = []
    top = _Reader(problems, data, "", _TOP)
    money_reader = top.table("money", _MONEY)
    structure = Structure(
        name=_name(top),
        profile=_profile(top),
        starting_stack=top.integer("starting_stack", required=True),
        seats_per_table=top.integer("seats_per_table", required=True),
        denominations=tuple(
            Denomination(r.text("colour", required=True), r.integer("value", required=True),
                         r.integer("count"))
            for r in top.tables("denominations", _DENOMINATION, required=True)
        ),
        levels=_levels(top),
        breaks=tuple(
            Break(r.integer("after_level", required=True), r.integer("minutes", required=True))
            for r in top.tables("breaks", _BREAK)
        ),
        color_ups=tuple(
            ColorUpStep(r.integer("after_level", required=True), r.texts("remove"),
                        r.flag("unless_antes"))
            for r in top.tables("color_ups", _COLOR_UP)
        ),
        ante_checkpoint=_optional(
            top.table("ante_checkpoint", _CHECKPOINT),
            lambda r: AnteCheckpoint(r.integer("after_level", required=True),
                                     r.integer("players_at_least", required=True)),
            None,
        ),
        late_entry=_optional(
            top.table("late_entry", _LATE),
            lambda r: LateEntry(r.integer("last_level", required=True),
                                r.flag("through_break")),
            LateEntry(),
        ),
        payouts=tuple(
            PayoutBracket(r.integer("min_players", required=True),
                          r.integer("max_players", required=True), r.percents("percents"),
                          r.flag("scale_to_pool"))
            for r in top.tables("payouts", _PAYOUT)
        ),
        money=_optional(money_reader, _money, Money()),
        re_entry=_optional(top.table("re_entry", _RE_ENTRY), _re_entry, ReEntry()),
        rebuy=_optional(top.table("rebuy", _REBUY), _rebuy, Rebuy()),
        add_on=_optional(top.table("add_on", _ADD_ON), _add_on, AddOn()),
        days=_optional(top.table("days", _DAYS), _days, Days()),
        satellite=_optional(top.table("satellite", _SATELLITE), _satellite, Satellite()),
    )
    if problems:
        # Meaning is checked only on a well-formed file, so each mistake is reported once.
        raise StructureError(file, problems)
    problems.extend((p.path, p.message) for p in structure_problems(structure))
    if problems:
        raise StructureError(file, problems)
    return structure


_PROFILE = ("name", "base", "set")


def _profile(top: _Reader) -> str:
    """`profile = "tda"`, or a room's own profile: a table with its name, the profile it is
    based on and the parameters it sets (`[profile.set]`), each checked by name and type."""
    value = top.data.get("profile")
    if not isinstance(value, dict):
        return top.text("profile", required=True)
    room = top.table("profile", _PROFILE)
    assert room is not None
    name = room.text("name", required=True)
    base = room.text("base", required=True)
    overrides = room.data.get("set", {})
    if not isinstance(overrides, dict):
        room.problem("set", f"must be a table ([profile.set]) of parameters, got "
                     f"{_show(overrides)}")
        return ""
    values = {key: int(v) if isinstance(v, Decimal) and v == int(v) else v
              for key, v in overrides.items()}
    for path, message in profile_problems(base, values):
        if path != "base" or base:
            room.problem(path, message)
    return room_profile_ref(name, base, values)


def _money(r: _Reader) -> Money:
    amount = "an amount of money"
    return Money(
        currency=r.text("currency", "USD"),
        buy_in=r.hundredths("buy_in", amount),
        prize_pool_per_entry=r.hundredths("prize_pool_per_entry", amount),
        bounty=r.hundredths("bounty", amount),
        high_hand_fee=r.hundredths("high_hand_fee", amount),
        payout_rounding=r.hundredths("payout_rounding", amount, default=100),
        guarantee=r.hundredths("guarantee", amount),
    )


def _satellite(r: _Reader) -> Satellite:
    return Satellite(seat_value=r.hundredths("seat_value", "an amount of money",
                                             required=True),
                     seats=r.integer("seats"), target=r.text("target", required=True),
                     share_equally=r.flag("share_equally"))


def _re_entry(r: _Reader) -> ReEntry:
    amount = "an amount of money"
    return ReEntry(per_person=r.integer("per_person", required=True),
                   last_level=r.integer("last_level"), cost=r.hundredths("cost", amount),
                   prize_pool=r.hundredths("prize_pool", amount))


def _rebuy(r: _Reader) -> Rebuy:
    amount = "an amount of money"
    return Rebuy(first_level=r.integer("first_level", default=1),
                 last_level=r.integer("last_level", required=True),
                 stack_at_most=r.integer("stack_at_most"), per_entry=r.integer("per_entry"),
                 cost=r.hundredths("cost", amount), prize_pool=r.hundredths("prize_pool", amount),
                 chips=r.integer("chips", required=True))


def _days(r: _Reader) -> Days:
    return Days(event=r.text("event", required=True), day=r.integer("day", default=1),
                flight=r.text("flight"), carry=r.text("carry", "larger"),
                redraw=r.text("redraw", "random"))


def _add_on(r: _Reader) -> AddOn:
    amount = "an amount of money"
    return AddOn(after_level=r.integer("after_level", required=True),
                 cost=r.hundredths("cost", amount), prize_pool=r.hundredths("prize_pool", amount),
                 chips=r.integer("chips", required=True))


STRUCTURE_BYTES = 200_000  # characters of a structure file, in the CLI and over HTTP (6 kB is
# the largest example)


def load_structure(path: str | Path) -> Structure:
    """Read and check a structure TOML file; raises StructureError."""
    file = str(path)
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8")
    except OSError as exc:
        raise StructureError(file, [("", f"cannot read the file: {exc.strerror or exc}")]) from None
    except UnicodeDecodeError as exc:
        raise StructureError(file, [("", f"not UTF-8 text: {exc}")]) from None
    return loads_structure(text, file)


def loads_structure(text: str, file: str = "<structure>") -> Structure:
    """Check a structure given as TOML text (`file` names it in the errors)."""
    try:
        check_text(text, "toml", "its text", max_bytes=STRUCTURE_BYTES)
    except TextRefused as exc:
        raise StructureError(file, [("", str(exc))]) from None
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise StructureError(file, [("", f"not valid TOML: {exc}")]) from None
    return parse_structure(data, file)
