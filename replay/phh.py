"""Read PHH (Poker Hand History) files into plain frozen records.

PHH is TOML (see uoftcprg/phh-std, `required.rst` and `optional.rst`). A `.phh` file holds one
hand; a `.phhs` file holds many, as tables `[1]`, `[2]`, ... This module only parses and checks
the format; replaying a hand through the engine is `replay.phh_verify`.

Amounts: chips in the file may be decimals (cash games in dollars and cents). A hand's amounts
are scaled by a power of ten (`PhhHand.scale`) so that every stake, stack and bet is an integer
number of the smallest unit written in the file; recorded results are scaled the same way but
kept exact (`Decimal`), so a record that gives someone half a chip stays visible as such.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, NamedTuple

from handlog.schema.text_limits import TextRefused, check_text

PHH_SUFFIXES = (".phh", ".phhs")
NO_LIMIT_HOLDEM = "NT"
# The fields a no-limit hold'em hand cannot be replayed without (required.rst, NT row).
REQUIRED_FIELDS = ("variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks",
                   "actions")
# Scaling decimals beyond this many places means the file is not in any real currency or chip.
MAX_DECIMAL_PLACES = 4

ActionCode = Literal["dh", "db", "f", "cc", "cbr", "sm", "noop"]
Number = int | Decimal


class PhhFormatError(ValueError):
    """A file or hand that is not valid PHH; `field` names the offending field, if any."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class PhhAction(NamedTuple):
    """One entry of a hand's `actions`, split once.

    `player` counts from 0 (PHH `p1` is 0). `cards` is the card text as written (`"-"` for a
    show of the cards already dealt, None for a muck or an action without cards). `amount` is
    the `cbr` amount in the hand's scaled units; `written` keeps a decimal amount as written
    (its `amount` is only known once the hand's scale is). A NamedTuple: a hand has a dozen or
    two, and one is built several times faster than a frozen dataclass.
    """

    text: str
    code: ActionCode
    player: int | None = None
    cards: str | None = None
    amount: int | None = None
    written: Decimal | None = None


@dataclass(frozen=True, slots=True)
class Finish:
    """A player out of the tournament in this hand (or its winner, place 1), as the hand
    history says: his place, his prize (cents, 0: none) and who won his bounty ("": the
    winners of the last pot share it)."""

    player: str
    place: int
    prize: int = 0
    bounty_to: str = ""


@dataclass(frozen=True, slots=True)
class TournamentFacts:
    """What a hand history says of its tournament beyond the hand (PokerStars' header and
    its place lines): the buy-in in cents of `currency` (`pool` to the prize pool, `bounty`
    to the player's bounty, `fee` to the house), the small blind of the hand's level (owed
    even when the hand's is dead; 0: not given), who finished in the hand, and of an OHH
    file the tournament's name and its levels' minutes."""

    currency: str = "USD"
    pool: int = 0
    bounty: int = 0
    fee: int = 0
    finishes: tuple[Finish, ...] = ()
    small_blind: int = 0
    name: str = ""  # (OHH's tournament_info: "": the tournament's number names it)
    minutes: int = 0  # of a level (OHH's speed.round_time; 0: not given)
    number: str = ""  # OHH's tournament_number (its name in the file may be another log's too)
    started_at: str = ""  # OHH's start_date_utc (UTC, `2026-12-06T22:01:14Z`; "": not given)


@dataclass(frozen=True, slots=True)
class PhhHand:
    """One no-limit hold'em hand from a PHH file, amounts in scaled integer units.

    Positions are PHH's: index 0 is `p1` (first left of the button), the last is the button.
    `antes` and `blinds_or_straddles` are as written (PHH reverse-assigns them heads-up).
    `finishing_stacks` are the recorded ones in scaled units, exact; `recorded_finishing_stacks`
    are the same values as written in the file.
    """

    source: str
    hand: int | str | None
    variant: str
    ante_trimming_status: bool
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int
    starting_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    players: tuple[str, ...]
    finishing_stacks: tuple[Decimal, ...] | None
    recorded_finishing_stacks: tuple[Number, ...] | None
    has_winnings: bool
    rules: str | None
    chip_unit: int
    scale: int
    dead_hands: frozenset[int] = frozenset()  # `_dead_hands`: these `sm` are dead-hand rulings
    dead_money: int = 0  # `_dead_money`: in the pot before the posts (a color-up's odd chips)
    absent: tuple[int, ...] = ()  # `_absent` (p1 = 1): away from the table at the deal (TDA 30)
    line: int | None = None  # where the hand starts in its file (1 for the first line)
    seats: tuple[int, ...] = ()  # `seats`: each player's seat at the table (optional field)
    seat_count: int = 0  # `seat_count`: the table's seats (0: not given)
    table: str = ""  # `table`: the table's name or number (optional field)
    level: int = 0  # `level`: the tournament level the hand was played at (0: not given)
    event: str = ""  # `event`: the tournament or event the hand was played in (optional)
    played_at: str = ""  # `year`..`time` in `time_zone`, as UTC `2026-12-06T22:01:14Z` ("": none)
    tournament: TournamentFacts | None = None  # the buy-in and places its format gives
    # The hand's coordinates in the log that recorded it (`_stream`; `_versions`, then the
    # version each of `_notes` begins with), and its rulings PHH has no action for:
    # `_killed` (index of a `pN f`, the hand_killed's cause, reason and rules: a hand ruled
    # dead in the betting) and `_out_of_turn` (the indexes of those killed out of turn).
    stream: str = ""
    versions: tuple[int, ...] = ()
    killed: tuple[tuple[int, str, str, tuple[str, ...]], ...] = ()
    out_of_turn: frozenset[int] = frozenset()
    # `_misdeals`: the deals declared misdeals at the table just before the hand (its first
    # and last versions in the recording log, the misdeal's cause and the dealer's words).
    misdeals: tuple[tuple[int, int, str, str], ...] = ()

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    def label(self, player: int) -> str:
        """`p3` or `p3 (Name)`, for messages."""
        name = self.players[player] if player < len(self.players) else ""
        return f"p{player + 1} ({name})" if name else f"p{player + 1}"


@dataclass(frozen=True, slots=True)
class PhhProblem:
    """A hand (or whole file) that cannot be replayed as no-limit hold'em.

    `kind` is "error" for malformed input and "unsupported" for valid PHH of another variant
    (or with unknown stacks). `message` already names the file and the field.
    """

    source: str
    hand: int | str | None
    kind: Literal["error", "unsupported"]
    field: str | None
    message: str
    line: int | None = None  # where the hand (or the fault) is in its file, when known


PhhEntry = PhhHand | PhhProblem


# ---------------------------------------------------------------------------------------------
# Finding files


def find_phh_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Every `.phh`/`.phhs` file under the given files and folders (recursively), in order.

    A file named explicitly is taken whatever its suffix; folders are walked in sorted order so
    that runs are reproducible.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            inner: list[Path] = []
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                inner.extend(Path(folder, name) for name in files
                             if name.endswith(PHH_SUFFIXES))
            found.extend(sorted(inner, key=_natural_key))
        else:
            found.append(path)
    return found


def _natural_key(path: Path) -> tuple[tuple[int, int | str], ...]:
    # pluribus/100/9.phh before pluribus/100/10.phh, as a person reads them.
    return tuple((0, int(part)) if part.isdigit() else (1, part)
                 for part in re.split(r"(\d+)", path.as_posix()) if part)


# ---------------------------------------------------------------------------------------------
# Reading files


def load_file(path: str | os.PathLike[str]) -> list[PhhEntry]:
    """Every hand of one `.phh` or `.phhs` file; problems are returned, never raised."""
    source = os.fspath(path)
    try:
        # Bytes then decode: a third faster than a text-mode read on thousands of small files.
        with open(path, "rb") as file:
            text = file.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return [PhhProblem(source, None, "error", None, f"{source}: cannot read the file: {error}")]
    return loads_file(text, source, many=source.endswith(".phhs"))


def loads_file(text: str, source: str, *, many: bool) -> list[PhhEntry]:
    """The hands of a file's text: one for `.phh`, one per table for `.phhs` (`many`)."""
    try:
        document = loads_toml(text, source)
    except TextRefused as error:
        return [PhhProblem(source, None, "error", None, str(error))]
    except ValueError as error:  # tomllib.TOMLDecodeError (or a number past int's digits)
        return [PhhProblem(source, None, "error", None, f"{source}: invalid TOML: {error}")]
    if not many:
        tables = [key for key, value in document.items()
                  if key.isdigit() and isinstance(value, dict)]
        if tables and "variant" not in document:
            return [PhhProblem(source, None, "error", None,
                               f"{source}: holds hand tables ([{tables[0]}], ...) like a .phhs "
                               "file: a file of many hands must be named .phhs")]
        return [hand_from_mapping(document, source, None)]
    entries: list[PhhEntry] = []
    lines = _table_lines(text)
    for key, table in document.items():
        hand: int | str = int(key) if key.isdigit() else key
        if not isinstance(table, dict):
            entries.append(PhhProblem(source, hand, "error", key,
                                      f"{source}: [{key}]: a .phhs file holds only hand tables"
                                      f" ([1], [2], ...), found {type(table).__name__} {key!r}",
                                      lines.get(key)))
            continue
        entries.append(hand_from_mapping(table, source, hand, lines.get(key)))
    if not entries:
        entries.append(PhhProblem(source, None, "error", None, f"{source}: no hand tables"))
    return entries


_TABLE_HEADER = re.compile(r"^\[\s*['\"]?([^\]'\"]+?)['\"]?\s*\]\s*$", re.MULTILINE)


def _table_lines(text: str) -> dict[str, int]:
    """The line of each `[key]` table header of a .phhs file's text."""
    lines: dict[str, int] = {}
    line, position = 1, 0
    for match in _TABLE_HEADER.finditer(text):
        line += text.count("\n", position, match.start())
        position = match.start()
        lines.setdefault(match.group(1), line)
    return lines


def hand_from_mapping(data: Mapping[str, object], source: str,
                      hand: int | str | None, line: int | None = None) -> PhhEntry:
    """Check one hand's fields and build its record (or the problem that stops it); `line`
    is where the hand starts in its file."""
    where = source if hand is None else f"{source} [{hand}]"
    try:
        built = _build_hand(data, source, hand)
        return built if line is None else replace(built, line=line)
    except PhhFormatError as error:
        if error.field == "variant" and isinstance(data.get("variant"), str):
            return PhhProblem(source, hand, "unsupported", "variant", error.message, line)
        if error.field == "starting_stacks" and "unknown" in error.message:
            return PhhProblem(source, hand, "unsupported", error.field, error.message, line)
        named = f"field '{error.field}': " if error.field else ""
        return PhhProblem(source, hand, "error", error.field, f"{where}: {named}{error.message}",
                          line)


def _build_hand(data: Mapping[str, object], source: str, hand: int | str | None) -> PhhHand:
    variant = data.get("variant")
    if variant is None:
        raise PhhFormatError("variant", "missing (required)")
    if not isinstance(variant, str):
        raise PhhFormatError("variant", f"expected a string, got {_show(variant)}")
    if variant != NO_LIMIT_HOLDEM:
        raise PhhFormatError("variant", f"variant {variant} is not No-Limit Texas Hold'em")
    for name in REQUIRED_FIELDS:
        if name not in data:
            raise PhhFormatError(name, "missing (required for No-Limit Texas Hold'em)")

    raw_stacks = data["starting_stacks"]
    if not isinstance(raw_stacks, list) or not raw_stacks:
        raise PhhFormatError("starting_stacks",
                             f"expected a non-empty array of numbers, got {_show(raw_stacks)}")
    count = len(raw_stacks)
    if count < 2:
        raise PhhFormatError("starting_stacks", "a hand needs at least two players")
    stacks = _numbers(raw_stacks, "starting_stacks", count, unknown=True)
    if Decimal in map(type, stacks) and any(
            isinstance(value, Decimal) and not value.is_finite() for value in stacks):
        raise PhhFormatError("starting_stacks",
                             "a starting stack is unknown (inf); the hand cannot be replayed")
    if min(stacks) <= 0:
        raise PhhFormatError("starting_stacks", "every starting stack must be positive")
    antes = _numbers(data["antes"], "antes", count)
    blinds = _numbers(data["blinds_or_straddles"], "blinds_or_straddles", count)
    min_bet = _number(data["min_bet"], "min_bet")
    if min_bet <= 0:
        raise PhhFormatError("min_bet", f"must be positive, got {min_bet}")
    trimming = data.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise PhhFormatError("ante_trimming_status",
                             f"expected true or false, got {_show(trimming)}")

    raw_actions = data["actions"]
    if not isinstance(raw_actions, list):
        raise PhhFormatError("actions", f"expected an array of strings, got {_show(raw_actions)}")
    try:
        actions = [parse_action(text) for text in raw_actions]
        highest = max((a.player for a in actions if a.player is not None), default=-1)
    except (PhhFormatError, TypeError, AttributeError):
        highest = count  # find the culprit below
    if highest >= count:
        _raise_for_actions(raw_actions, count)

    players = _strings(data.get("players"), "players", count)
    finishing = data.get("finishing_stacks")
    recorded = None if finishing is None else _numbers(finishing, "finishing_stacks", count)
    if "winnings" in data and data["winnings"] is not None:
        _numbers(data["winnings"], "winnings", count)
    rules = data.get("_rules")
    if rules is not None and not (isinstance(rules, str) and rules):
        raise PhhFormatError("_rules", f"expected a profile name (string), got {_show(rules)}")
    dead_hands = _dead_hands(data.get("_dead_hands", []), actions)
    raw_unit = data.get("_chip_unit", 1)
    chip_unit_value = _number(raw_unit, "_chip_unit")
    if chip_unit_value <= 0:
        raise PhhFormatError("_chip_unit", f"must be positive, got {chip_unit_value}")
    dead_money_value = _number(data.get("_dead_money", 0), "_dead_money")
    absent = _absent(data.get("_absent", []), count)
    seats, seat_count, table = _table_fields(data, count)
    level = data.get("level", 0)
    if type(level) is not int or level < 0:
        raise PhhFormatError("level", f"expected a level number, got {_show(level)}")
    event = data.get("event", "")
    if not isinstance(event, str):
        raise PhhFormatError("event", f"expected the event's name (string), got {_show(event)}")
    played_at = _played_at(data)
    stream, versions = _coordinates(data)
    killed = _killed(data.get("_killed", []), actions)
    out_of_turn = _folds(data.get("_out_of_turn", []), actions, "_out_of_turn")
    misdeals = _misdeals(data.get("_misdeals", []))

    # The scale makes every input amount an integer; recorded results do not take part, since
    # a record may well give out half chips that were never in play.
    amounts: list[Number] = [*stacks, *antes, *blinds, min_bet, chip_unit_value,
                             dead_money_value]
    amounts.extend(action.written for action in actions if action.written is not None)
    scale = _scale_for(amounts) if Decimal in map(type, amounts) else 1
    if scale != 1:
        actions = [_rescaled(action, scale) for action in actions]

    def scaled(values: Sequence[Number]) -> tuple[int, ...]:
        if scale == 1 and Decimal not in map(type, values):
            return tuple(values)  # type: ignore[arg-type]  # ints: nothing to scale
        return tuple(int(value * scale) for value in values)

    return PhhHand(
        source=source,
        hand=hand,
        variant=variant,
        ante_trimming_status=trimming,
        antes=scaled(antes),
        blinds_or_straddles=scaled(blinds),
        min_bet=int(min_bet * scale),
        starting_stacks=scaled(stacks),
        actions=tuple(actions),
        players=players,
        finishing_stacks=(None if recorded is None
                          else tuple(Decimal(value) * scale for value in recorded)),
        recorded_finishing_stacks=None if recorded is None else tuple(recorded),
        has_winnings=data.get("winnings") is not None,
        rules=rules,
        # Without `_chip_unit` the smallest chip is the file's smallest unit of account (a
        # cent once cash amounts are scaled), not a whole dollar the blinds could not be in.
        chip_unit=int(chip_unit_value * scale) if "_chip_unit" in data else 1,
        scale=scale,
        dead_hands=dead_hands,
        dead_money=int(dead_money_value * scale),
        absent=absent,
        seats=seats,
        seat_count=seat_count,
        table=table,
        level=level,
        event=event,
        played_at=played_at,
        stream=stream,
        versions=versions,
        killed=killed,
        out_of_turn=out_of_turn,
        misdeals=misdeals,
    )


def _played_at(data: Mapping[str, Any]) -> str:
    """When the hand was played, in UTC, from PHH `year`, `month`, `day`, `time` and
    `time_zone` ("" unless all are given and make a time)."""
    parts = [data.get(k) for k in ("year", "month", "day")]
    clock, zone = data.get("time"), data.get("time_zone")
    numbers = [v for v in parts if type(v) is int]
    if not (isinstance(clock, time) and isinstance(zone, str) and len(numbers) == 3):
        return ""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # (only for a hand that gives a time)

    try:
        local = datetime.combine(date(numbers[0], numbers[1], numbers[2]),
                                 clock.replace(tzinfo=None),
                                 ZoneInfo(zone))
    except (ValueError, ZoneInfoNotFoundError):
        return ""
    return local.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _table_fields(data: Mapping[str, object], count: int) -> tuple[tuple[int, ...], int, str]:
    """The optional fields that place the hand at its table: `seats`, `seat_count`, `table`
    ((), 0 and "" when not given; a value of the wrong shape is named)."""
    raw_seats = data.get("seats")
    seats: tuple[int, ...] = ()
    if raw_seats is not None:
        if not isinstance(raw_seats, list) or len(raw_seats) != count or not all(
                type(s) is int and s >= 1 for s in raw_seats) or len(set(raw_seats)) != count:
            raise PhhFormatError("seats", f"expected {count} different seat numbers (one per "
                                 f"player, from 1), got {_show(raw_seats)}")
        seats = tuple(raw_seats)
    raw_count = data.get("seat_count")
    seat_count = 0
    if raw_count is not None:
        if type(raw_count) is not int or raw_count < max((count, *seats)):
            raise PhhFormatError("seat_count", "expected the number of seats at the table (at "
                                 f"least every seat given), got {_show(raw_count)}")
        seat_count = raw_count
    raw_table = data.get("table")
    table = ""
    if raw_table is not None:
        if isinstance(raw_table, bool) or not isinstance(raw_table, str | int):
            raise PhhFormatError("table", f"expected a name or number, got {_show(raw_table)}")
        table = str(raw_table)
    return seats, seat_count, table


def _absent(value: object, count: int) -> tuple[int, ...]:
    """The user field `_absent`: the players (1 for p1) away from the table when the cards
    were dealt, as positions (0 for p1)."""
    if not isinstance(value, list) or not all(type(i) is int and 1 <= i <= count
                                              for i in value):
        raise PhhFormatError("_absent", f"expected an array of player numbers 1 to {count}, "
                             f"got {_show(value)}")
    return tuple(sorted({i - 1 for i in value}))


def _coordinates(data: Mapping[str, Any]) -> tuple[str, tuple[int, ...]]:
    """The user fields `_stream` and `_versions` (handlog's export: the recording log's
    coordinates), with the version each of `_notes` begins with (`v49 ...`)."""
    stream = data.get("_stream", "")
    if not isinstance(stream, str):
        raise PhhFormatError("_stream", f"expected a stream id (string), got {_show(stream)}")
    versions = data.get("_versions", [])
    if not isinstance(versions, list) or not all(type(v) is int and v > 0 for v in versions) \
            or len(versions) not in (0, 2):
        raise PhhFormatError("_versions", f"expected [first, last] versions, got "
                             f"{_show(versions)}")
    notes = data.get("_notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise PhhFormatError("_notes", f"expected an array of strings, got {_show(notes)}")
    noted = [re.match(r"v(\d+) ", note) for note in notes] if versions else []
    return stream, tuple(versions) + tuple(int(m.group(1)) for m in noted if m)


def _folds(value: object, actions: Sequence[PhhAction], name: str) -> frozenset[int]:
    """A user field of indexes into `actions` of folds (`pN f`)."""
    if not isinstance(value, list) or not all(type(i) is int for i in value):
        raise PhhFormatError(name, f"expected an array of action indexes, got {_show(value)}")
    for index in value:
        if not 0 <= index < len(actions) or actions[index].code != "f":
            raise PhhFormatError(name, f"{index} is not the index of a fold ('pN f') among "
                                 f"the {len(actions)} actions")
    return frozenset(value)


def _killed(value: object, actions: Sequence[PhhAction]
            ) -> tuple[tuple[int, str, str, tuple[str, ...]], ...]:
    """The user field `_killed`: [index of a `pN f`, cause, reason, [rules]] of each hand
    ruled dead in the betting."""
    shape = "[action index, cause, reason, [rule ids]] arrays"
    if not isinstance(value, list) or not all(
            isinstance(k, list) and len(k) == 4 and type(k[0]) is int
            and isinstance(k[1], str) and isinstance(k[2], str) and isinstance(k[3], list)
            and all(isinstance(r, str) for r in k[3]) for k in value):
        raise PhhFormatError("_killed", f"expected {shape}, got {_show(value)}")
    _folds([k[0] for k in value], actions, "_killed")
    return tuple((k[0], k[1], k[2], tuple(k[3])) for k in value)


def _misdeals(value: object) -> tuple[tuple[int, int, str, str], ...]:
    """The user field `_misdeals`: [first version, last version, cause, words] arrays."""
    if not isinstance(value, list) or not all(
            isinstance(m, list) and len(m) == 4 and all(type(v) is int for v in m[:2])
            and all(isinstance(v, str) for v in m[2:]) for m in value):
        raise PhhFormatError("_misdeals", "expected [first version, last version, cause, "
                             f"words] arrays, got {_show(value)}")
    return tuple((m[0], m[1], m[2], m[3]) for m in value)


def _dead_hands(value: object, actions: Sequence[PhhAction]) -> frozenset[int]:
    """The user field `_dead_hands`: indexes into `actions` of `pN sm` actions (no cards)."""
    if not isinstance(value, list) or not all(type(i) is int for i in value):
        raise PhhFormatError("_dead_hands", f"expected an array of action indexes, got "
                             f"{_show(value)}")
    for index in value:
        if not 0 <= index < len(actions) or actions[index].code != "sm" or \
                actions[index].cards is not None:
            raise PhhFormatError("_dead_hands", f"{index} is not the index of a muck ('pN sm') "
                                 f"among the {len(actions)} actions")
    return frozenset(value)


def _raise_for_actions(raw_actions: list[object], count: int) -> None:
    """Name the first bad entry of `actions` (the slow path, taken only when one is bad)."""
    for index, text in enumerate(raw_actions):
        if not isinstance(text, str):
            raise PhhFormatError(f"actions[{index}]", f"expected a string, got {_show(text)}")
        try:
            action = parse_action(text)
        except PhhFormatError as error:
            raise PhhFormatError(f"actions[{index}]", error.message) from None
        if action.player is not None and action.player >= count:
            raise PhhFormatError(f"actions[{index}]",
                                 f"{text!r} names p{action.player + 1}, but the hand has "
                                 f"{count} players")


def _show(value: object) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


MAX_AMOUNT = 10**15  # chips in one amount (no game's stacks come near: a bound, not a rule)


def _number(value: object, field: str, unknown: bool = False) -> Number:
    # bool is an int in Python but never a chip amount.
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise PhhFormatError(field, f"expected a number, got {_show(value)}")
    if isinstance(value, Decimal) and not value.is_finite():
        if unknown and value.is_infinite() and value > 0:
            return value  # (`inf`: a starting stack PHH says is unknown)
        raise PhhFormatError(field, f"expected a finite number, got {value}")
    if value < 0:
        raise PhhFormatError(field, f"must not be negative, got {value}")
    if value > MAX_AMOUNT:
        # (a Decimal: a float cannot hold 10**400 to show it)
        raise PhhFormatError(field, f"at most {MAX_AMOUNT:,} chips, got {Decimal(value):.3g}")
    return value


def _numbers(value: object, field: str, count: int, unknown: bool = False) -> list[Number]:
    if not isinstance(value, list):
        raise PhhFormatError(field, f"expected an array of {count} numbers, got {_show(value)}")
    if len(value) != count:
        raise PhhFormatError(field, f"expected {count} values (one per player, as in "
                                    f"starting_stacks), got {len(value)}")
    if all(type(item) is int for item in value) and min(value) >= 0 and max(
            value) <= MAX_AMOUNT:
        return value  # the common case, checked in one pass
    return [_number(item, f"{field}[{index}]", unknown) for index, item in enumerate(value)]


def _strings(value: object, field: str, count: int) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise PhhFormatError(field, f"expected an array of strings, got {_show(value)}")
    if len(value) != count:
        raise PhhFormatError(field, f"expected {count} names (one per player), got {len(value)}")
    return tuple(value)


def _decimal_places(value: Number) -> int:
    if isinstance(value, int):
        return 0
    exponent = value.normalize().as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def _scale_for(amounts: Iterable[Number]) -> int:
    places = max((_decimal_places(value) for value in amounts if isinstance(value, Decimal)),
                 default=0)
    if places > MAX_DECIMAL_PLACES:
        raise PhhFormatError(None, f"amounts with more than {MAX_DECIMAL_PLACES} decimal places "
                                   "are not chips in any currency")
    scale: int = 10**places
    return scale


# ---------------------------------------------------------------------------------------------
# Actions


def _rescaled(action: PhhAction, scale: int) -> PhhAction:
    if action.code != "cbr":
        return action
    written: Number = action.written if action.written is not None else (action.amount or 0)
    return PhhAction(action.text, "cbr", action.player, None, int(written * scale), action.written)


_CARDS = re.compile(r"(?:[2-9TJQKA][cdhs]|\?\?)+")
_AMOUNT = re.compile(r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")
_PLAYER = re.compile(r"p([1-9][0-9]*)")
# What _CARDS and _PLAYER accept most often, as fixed tables: one or two cards (or "??"), and
# p1 to p99. Anything else goes through the regular expressions.
_ONE_CARD = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"] + ["??"]
_FEW_CARDS = frozenset(_ONE_CARD) | frozenset(a + b for a in _ONE_CARD for b in _ONE_CARD)
_PLAYERS = {f"p{number}": number - 1 for number in range(1, 100)}


def _cards_ok(word: str) -> bool:
    return word in _FEW_CARDS or _CARDS.fullmatch(word) is not None


@lru_cache(maxsize=1 << 17)
def parse_action(text: str) -> PhhAction:
    """Split one action string (`d dh p1 AcKd`, `p2 cbr 300`, `p1 sm`, ...).

    Commentary (`# ...`) is dropped; an empty or comment-only string is a no-op. Cached:
    the same strings recur across thousands of hands.
    """
    words = (text.split("#", 1)[0] if "#" in text else text).split()
    if not words:
        return PhhAction(text, "noop")
    actor = words[0]
    if actor == "d":
        if len(words) >= 2 and words[1] == "db":
            if len(words) != 3 or not _cards_ok(words[2]):
                raise PhhFormatError(None, f"{text!r}: expected 'd db <cards>', e.g. 'd db AhKh2c'")
            return PhhAction(text, "db", None, words[2])
        if len(words) >= 2 and words[1] == "dh":
            if len(words) != 4 or not _cards_ok(words[3]):
                raise PhhFormatError(None, f"{text!r}: expected 'd dh pN <cards>', "
                                           "e.g. 'd dh p1 AcKd' or 'd dh p1 ????'")
            return PhhAction(text, "dh", _player(words[2], text), words[3])
        raise PhhFormatError(None, f"{text!r}: the dealer only deals ('d dh ...', 'd db ...')")
    player = _player(actor, text)
    code = words[1] if len(words) >= 2 else ""
    if code in ("f", "cc") and len(words) == 2:
        return PhhAction(text, "f" if code == "f" else "cc", player)
    if code == "cbr" and len(words) == 3 and _AMOUNT.fullmatch(words[2]):
        raw = words[2]
        if "." in raw:
            written = Decimal(raw)
            if written != written.to_integral_value():
                return PhhAction(text, "cbr", player, None, None, written)
            raw = str(int(written))
        return PhhAction(text, "cbr", player, None, int(raw))
    if code == "sm" and len(words) == 2:
        return PhhAction(text, "sm", player)
    if code == "sm" and len(words) == 3 and (words[2] == "-" or _CARDS.fullmatch(words[2])):
        return PhhAction(text, "sm", player, words[2])
    if code in ("sd", "pb"):
        raise PhhFormatError(None, f"{text!r}: '{code}' is not a no-limit hold'em action")
    raise PhhFormatError(None, f"{text!r}: not a PHH action (expected 'pN f', 'pN cc', "
                               "'pN cbr <amount>', 'pN sm [<cards>]', 'd dh pN <cards>' or "
                               "'d db <cards>')")


def _player(word: str, text: str) -> int:
    player = _PLAYERS.get(word)
    if player is not None:
        return player
    match = _PLAYER.fullmatch(word)
    if match is None:
        raise PhhFormatError(None, f"{text!r}: {word!r} is not a player (p1, p2, ...)")
    return int(match.group(1)) - 1


# ---------------------------------------------------------------------------------------------
# TOML


def loads_toml(text: str, source: str = "the text") -> dict[str, object]:
    """Parse TOML, floats as exact `Decimal`s.

    The flat `key = value` layout every PHH writer produces is read by a small exact parser,
    three times faster than `tomllib`; anything else (tables, comments, multi-line arrays,
    dates, escapes) goes to `tomllib`. Both give the same result on what the fast path accepts.
    """
    try:
        return _loads_flat(text)
    except _NotFlat:
        # Imported only for what the fast path leaves: tomllib is a tenth of `phh verify`'s
        # start-up, and every PHH writer's layout is flat.
        import tomllib

        check_text(text, "toml", source)  # (TextRefused: tomllib recurses once per level)
        return tomllib.loads(text, parse_float=Decimal)


class _NotFlat(Exception):
    """The fast path does not handle this document; use tomllib."""


_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*) = (\S.*)")
# TOML strings may hold no control character but tab; quoted strings here have no escapes.
_STRING = r"'[^'\x00-\x08\x0a-\x1f\x7f]*'|\"[^\"\\\x00-\x08\x0a-\x1f\x7f]*\""
_SCALAR = re.compile(rf"(?:{_STRING}|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?|true|false)")
_ITEM = re.compile(rf"[ \t]*({_STRING}|[^,\s\[\]'\"#]+)[ \t]*(?:,|\Z)")
# The two array shapes PHH writers print, read with one regex and a split.
_QUOTED = r"'[^'\x00-\x08\x0a-\x1f\x7f]*'"
_STRING_ARRAY = re.compile(rf"{_QUOTED}(?:, {_QUOTED})*")
_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"
_NUMBER_ARRAY = re.compile(rf"{_NUMBER}(?:, {_NUMBER})*")


def _scalar(token: str) -> object:
    if not _SCALAR.fullmatch(token):
        raise _NotFlat
    first = token[0]
    if first == "'" or first == '"':
        return token[1:-1]
    if token == "true":
        return True
    if token == "false":
        return False
    return Decimal(token) if "." in token else int(token)


def _loads_flat(text: str) -> dict[str, object]:
    document: dict[str, object] = {}
    for line in text.splitlines():
        if not line:
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise _NotFlat
        key, value = match.groups()
        if key in document:
            raise _NotFlat
        if value[0] != "[":
            document[key] = _scalar(value.rstrip(" \t"))
            continue
        value = value.rstrip(" \t")
        if value[-1] != "]":
            raise _NotFlat
        inner = value[1:-1]
        if _STRING_ARRAY.fullmatch(inner):
            document[key] = inner[1:-1].split("', '")
            continue
        if _NUMBER_ARRAY.fullmatch(inner):
            document[key] = [Decimal(item) if "." in item else int(item)
                             for item in inner.split(", ")]
            continue
        items: list[object] = []
        position, end = 0, len(inner)
        if inner.strip(" \t"):
            while position < end:
                item = _ITEM.match(inner, position)
                if item is None:
                    raise _NotFlat
                items.append(_scalar(item.group(1)))
                position = item.end()
        document[key] = items
    return document
