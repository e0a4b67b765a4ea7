"""A tournament's structure: chips, levels, breaks, color-ups, late entry, payouts, money.

The structure is data (a TOML file read by recorder.structure, then stored whole in the
tournament's first event). `structure_problems` is the one place its rules are checked; the
loader turns each problem into an error naming the file and the field, and `create_tournament`
refuses a structure that has any.

Money is in cents of `currency`; chips are tournament chips. Percentages are basis points
(1/100 of a percent) so that 12.5% stays an integer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, get_args

from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import get_profile, profile_ref_problems

AnteKind = Literal["none", "uniform", "big_blind"]

ANTE_KINDS: tuple[str, ...] = get_args(AnteKind)
FULL_PERCENT = 10_000
"""100% in basis points."""
MAX_SEATS_PER_TABLE = 12


@dataclass(frozen=True, slots=True)
class Denomination:
    """One chip colour; `count` is how many of them a starting stack holds (0: not stated)."""

    colour: str
    value: int
    count: int = 0


@dataclass(frozen=True, slots=True)
class BlindLevel:
    """One level of the schedule; levels are numbered from 1 in the order they are listed."""

    number: int
    small_blind: int
    big_blind: int
    minutes: int
    ante: int = 0
    ante_kind: AnteKind = "none"


@dataclass(frozen=True, slots=True)
class Break:
    after_level: int
    minutes: int


@dataclass(frozen=True, slots=True)
class ColorUpStep:
    """Denominations leaving play once `after_level` is over; `unless_antes`: only when the
    ante checkpoint decided against antes (Octobermuck: 'Buy Down Black Chips if no antes')."""

    after_level: int
    remove: tuple[str, ...]
    unless_antes: bool = False


@dataclass(frozen=True, slots=True)
class AnteCheckpoint:
    """Antes of the levels after `after_level` are played only if at least `players_at_least`
    players remain when that level is over (Octobermuck: 16 or more after round 6)."""

    after_level: int
    players_at_least: int


@dataclass(frozen=True, slots=True)
class LateEntry:
    """Entries are taken until `last_level` is over (0: no late entry), and through the break
    that follows it when `through_break`. What a late entrant loses comes from the profile."""

    last_level: int = 0
    through_break: bool = False


@dataclass(frozen=True, slots=True)
class PayoutBracket:
    """Places paid for a field of `min_players`..`max_players`, in basis points of the pool.

    `scale_to_pool`: the percentages do not add up to 100% and are used as weights of the pool
    (the Octobermuck table's 7-place line adds up to 101%)."""

    min_players: int
    max_players: int
    basis_points: tuple[int, ...]
    scale_to_pool: bool = False


@dataclass(frozen=True, slots=True)
class Money:
    """What an entry costs and where it goes, in cents of `currency`."""

    currency: str = "USD"
    buy_in: int = 0
    prize_pool_per_entry: int = 0
    bounty: int = 0
    high_hand_fee: int = 0
    payout_rounding: int = 100
    guarantee: int = 0
    """The prize pool the house guarantees (0: none): when the pool collected falls short,
    the house adds the difference (the overlay) and the payouts are on the guaranteed pool."""


@dataclass(frozen=True, slots=True)
class ReEntry:
    """Re-entries: a person whose entry is out buys a new entry (a full starting stack, TDA
    2024 Rule 8-A), at most `per_person` times (0: no re-entry), while late entry is open and,
    when `last_level` is set, until that level is over. `cost` is what he pays (cents), of
    which `prize_pool` goes to the pool, the bounty (if any) to his new bounty chip, the rest
    to the house."""

    per_person: int = 0
    last_level: int = 0
    cost: int = 0
    prize_pool: int = 0


@dataclass(frozen=True, slots=True)
class Rebuy:
    """Rebuys: from `first_level` until `last_level` is over (0: no rebuys), an entry whose
    stack is `stack_at_most` or less (0: the starting stack) buys `chips` for `cost` cents, of
    which `prize_pool` goes to the pool and the rest to the house; `per_entry` at most (0:
    no limit)."""

    first_level: int = 1
    last_level: int = 0
    stack_at_most: int = 0
    per_entry: int = 0
    cost: int = 0
    prize_pool: int = 0
    chips: int = 0


@dataclass(frozen=True, slots=True)
class AddOn:
    """An add-on: once per entry, during the break after `after_level` (0: none), `chips`
    for `cost` cents, of which `prize_pool` goes to the pool and the rest to the house."""

    after_level: int = 0
    cost: int = 0
    prize_pool: int = 0
    chips: int = 0


CARRY_RULES = ("larger", "all")
REDRAWS = ("random",)


@dataclass(frozen=True, slots=True)
class Days:
    """A multi-day event: each starting flight (Day 1A, 1B...) and each next day is its own
    tournament log, all with the same `event` id ("": a one-day tournament). `day` is this
    log's day (1 for a flight), `flight` its name ("1A"). A person who bags a stack in two
    flights carries the `carry` rule's chips to the next day: "larger" (the larger stack, the
    others forfeited: the room practice of the big series) or "all" (the stacks added). The
    next day's seats are drawn by `redraw` ("random": the engine's seat draw)."""

    event: str = ""
    day: int = 1
    flight: str = ""
    carry: str = "larger"
    redraw: str = "random"


@dataclass(frozen=True, slots=True)
class Satellite:
    """Prizes are seats in another event (`target`), each worth `seat_value` cents: as many
    as the pool buys, at most `seats` (0: no limit); what is left of the pool (the remainder)
    is paid in cash to the next place. `seat_value` 0: not a satellite. `share_equally`: the
    seats are equal prizes, so the tournament ends when as many players remain as there are
    seats, and they all win one."""

    seat_value: int = 0
    seats: int = 0
    target: str = ""
    share_equally: bool = False


@dataclass(frozen=True, slots=True)
class Structure:
    name: str
    profile: str
    starting_stack: int
    seats_per_table: int
    denominations: tuple[Denomination, ...]
    levels: tuple[BlindLevel, ...]
    breaks: tuple[Break, ...] = ()
    color_ups: tuple[ColorUpStep, ...] = ()
    ante_checkpoint: AnteCheckpoint | None = None
    late_entry: LateEntry = LateEntry()
    payouts: tuple[PayoutBracket, ...] = ()
    money: Money = Money()
    re_entry: ReEntry = ReEntry()
    rebuy: Rebuy = Rebuy()
    add_on: AddOn = AddOn()
    days: Days = Days()
    satellite: Satellite = Satellite()

    def level(self, number: int) -> BlindLevel:
        for level in self.levels:
            if level.number == number:
                return level
        raise RuleViolation(
            "structure", f"{self.name} has no level {number}",
            tuple(f"level {lv.number}" for lv in self.levels),
        )

    def break_after(self, level: int) -> Break | None:
        return next((b for b in self.breaks if b.after_level == level), None)

    def color_up_after(self, level: int) -> ColorUpStep | None:
        return next((c for c in self.color_ups if c.after_level == level), None)

    def ante_is_conditional(self, level: int) -> bool:
        """Whether the ante of `level` depends on the checkpoint's decision."""
        checkpoint = self.ante_checkpoint
        return checkpoint is not None and level > checkpoint.after_level

    def denomination(self, colour: str) -> Denomination | None:
        return next((d for d in self.denominations if d.colour == colour), None)

    def chip_unit_at(self, level: int, antes_used: bool) -> int:
        """The smallest chip in play during `level` if every scheduled color-up before it ran."""
        removed = {
            colour
            for step in self.color_ups
            if step.after_level < level and not (step.unless_antes and antes_used)
            for colour in step.remove
        }
        values = [d.value for d in self.denominations if d.colour not in removed]
        return min(values) if values else 0


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a structure: the field path (`levels[3].big_blind`) and why."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _level_path(index: int, field: str = "") -> str:
    return f"levels[{index}]" + (f".{field}" if field else "")


def structure_problems(structure: Structure) -> tuple[Problem, ...]:
    """Everything wrong with `structure`, each naming its field; empty when it is usable."""
    return tuple(_problems(structure))


def _problems(s: Structure) -> Iterator[Problem]:
    if not s.name.strip():
        yield Problem("name", "must not be empty")
    for path, message in profile_ref_problems(s.profile):
        yield Problem(f"profile.{path}" if path else "profile", message)
    if s.starting_stack <= 0:
        yield Problem("starting_stack", "must be a positive number of chips")
    if not 2 <= s.seats_per_table <= MAX_SEATS_PER_TABLE:
        yield Problem("seats_per_table", f"must be 2 to {MAX_SEATS_PER_TABLE}")
    yield from _denomination_problems(s)
    yield from _level_problems(s)
    yield from _schedule_problems(s)
    yield from _payout_problems(s)
    yield from _money_problems(s.money)
    yield from _entry_problems(s)
    yield from _days_problems(s)
    yield from _satellite_problems(s.satellite)


def _satellite_problems(satellite: Satellite) -> Iterator[Problem]:
    if satellite.seat_value < 0:
        yield Problem("satellite.seat_value", "must not be negative")
    if satellite.seats < 0:
        yield Problem("satellite.seats", "must not be negative (0: as many as the pool buys)")
    if satellite.seat_value and not satellite.target.strip():
        yield Problem("satellite.target", "name the event the seats are in")
    if satellite.share_equally and not satellite.seats:
        yield Problem("satellite.seats", "share_equally needs the number of seats: the "
                      "tournament ends when that many players remain")


def _denomination_problems(s: Structure) -> Iterator[Problem]:
    if not s.denominations:
        yield Problem("denominations", "at least one chip denomination is needed")
        return
    seen_colours: set[str] = set()
    seen_values: set[int] = set()
    for i, d in enumerate(s.denominations):
        path = f"denominations[{i}]"
        if not d.colour.strip():
            yield Problem(f"{path}.colour", "must not be empty")
        if d.colour in seen_colours:
            yield Problem(f"{path}.colour", f"colour {d.colour!r} is listed twice")
        if d.value <= 0:
            yield Problem(f"{path}.value", "must be a positive number of chips")
        elif d.value in seen_values:
            yield Problem(f"{path}.value", f"two colours are worth {d.value}")
        if d.count < 0:
            yield Problem(f"{path}.count", "must not be negative")
        seen_colours.add(d.colour)
        seen_values.add(d.value)
    smallest = min(d.value for d in s.denominations)
    if smallest > 0 and s.starting_stack > 0 and s.starting_stack % smallest:
        yield Problem("starting_stack", f"{s.starting_stack} is not a multiple of the smallest "
                      f"chip ({smallest})")
    if any(d.count for d in s.denominations):
        total = sum(d.count * d.value for d in s.denominations)
        if total != s.starting_stack:
            yield Problem("denominations", f"the chip counts make {total}, not the starting "
                          f"stack of {s.starting_stack}")


def _level_problems(s: Structure) -> Iterator[Problem]:
    if not s.levels:
        yield Problem("levels", "at least one level is needed")
        return
    for i, lv in enumerate(s.levels):
        if lv.number != i + 1:
            yield Problem(_level_path(i, "number"), f"level {i + 1} is numbered {lv.number}")
        if lv.small_blind <= 0:
            yield Problem(_level_path(i, "small_blind"), "must be positive")
        if lv.big_blind < lv.small_blind:
            yield Problem(_level_path(i, "big_blind"), f"{lv.big_blind} is less than the small "
                          f"blind {lv.small_blind}")
        if lv.minutes <= 0:
            yield Problem(_level_path(i, "minutes"), "must be positive")
        if lv.ante < 0:
            yield Problem(_level_path(i, "ante"), "must not be negative")
        if lv.ante_kind not in ANTE_KINDS:
            yield Problem(_level_path(i, "ante_kind"), f"allowed: {', '.join(ANTE_KINDS)}")
        elif (lv.ante > 0) != (lv.ante_kind != "none"):
            yield Problem(_level_path(i, "ante_kind"), "an ante needs ante_kind 'uniform' or "
                          "'big_blind', and ante_kind 'none' needs ante 0")
        # The blinds must be payable in the chips still in play; the ante only matters when
        # antes are played, which keeps the color-ups that happen only without antes.
        unit = s.chip_unit_at(lv.number, antes_used=False)
        for name, amount in (("small_blind", lv.small_blind), ("big_blind", lv.big_blind)):
            if unit and amount > 0 and amount % unit:
                yield Problem(_level_path(i, name), f"{amount} cannot be paid with the chips in "
                              f"play at level {lv.number} (smallest {unit})")
        ante_unit = s.chip_unit_at(lv.number, antes_used=True)
        if ante_unit and lv.ante > 0 and lv.ante % ante_unit:
            yield Problem(_level_path(i, "ante"), f"{lv.ante} cannot be paid with the chips in "
                          f"play at level {lv.number} (smallest {ante_unit})")


def _schedule_problems(s: Structure) -> Iterator[Problem]:
    last = len(s.levels)
    seen: set[int] = set()
    for i, b in enumerate(s.breaks):
        if not 1 <= b.after_level <= last:
            yield Problem(f"breaks[{i}].after_level", f"must be a level from 1 to {last}")
        if b.after_level in seen:
            yield Problem(f"breaks[{i}].after_level", f"two breaks after level {b.after_level}")
        if b.minutes <= 0:
            yield Problem(f"breaks[{i}].minutes", "must be positive")
        seen.add(b.after_level)
    yield from _color_up_problems(s)
    checkpoint = s.ante_checkpoint
    if checkpoint is not None:
        if not 1 <= checkpoint.after_level < last:
            yield Problem("ante_checkpoint.after_level", f"must be a level from 1 to {last - 1}")
        if checkpoint.players_at_least < 2:
            yield Problem("ante_checkpoint.players_at_least", "must be at least 2")
        if not any(lv.ante for lv in s.levels if lv.number > checkpoint.after_level):
            yield Problem("ante_checkpoint", f"no level after level {checkpoint.after_level} "
                          "has an ante to decide on")
    late = s.late_entry
    if not 0 <= late.last_level <= last:
        yield Problem("late_entry.last_level", f"must be 0 (no late entry) to {last}")
    elif late.through_break and s.break_after(late.last_level) is None:
        yield Problem("late_entry.through_break", f"there is no break after level "
                      f"{late.last_level}; add one or set through_break = false")


def _color_up_problems(s: Structure) -> Iterator[Problem]:
    last = len(s.levels)
    removed: set[str] = set()
    colours = {d.colour for d in s.denominations}
    seen: set[int] = set()
    ordered = sorted(enumerate(s.color_ups), key=lambda pair: pair[1].after_level)
    for i, step in ordered:
        path = f"color_ups[{i}]"
        if not 1 <= step.after_level <= last:
            yield Problem(f"{path}.after_level", f"must be a level from 1 to {last}")
        if step.after_level in seen:
            yield Problem(f"{path}.after_level", f"two color-ups after level {step.after_level}")
        seen.add(step.after_level)
        if not step.remove:
            yield Problem(f"{path}.remove", "name at least one colour")
        for j, colour in enumerate(step.remove):
            if colour not in colours:
                yield Problem(f"{path}.remove[{j}]", f"unknown colour {colour!r}; allowed: "
                              f"{', '.join(d.colour for d in s.denominations)}")
            elif colour in removed:
                yield Problem(f"{path}.remove[{j}]", f"{colour!r} already left play")
        if step.unless_antes:
            checkpoint = s.ante_checkpoint
            if checkpoint is None or step.after_level < checkpoint.after_level:
                yield Problem(f"{path}.unless_antes", "needs an ante_checkpoint at or before "
                              f"level {step.after_level}")
        removed.update(step.remove)
        # (a chip worth nothing is named where the denominations are checked)
        left = [d.value for d in s.denominations if d.colour not in removed and d.value > 0]
        if not left:
            yield Problem(f"{path}.remove", "would leave no chips in play")
        elif any(v % min(left) for v in left):
            yield Problem(f"{path}.remove", f"the chips left ({', '.join(map(str, left))}) are "
                          f"not all multiples of the smallest ({min(left)})")
    values = [d.value for d in s.denominations if d.value > 0]
    if values and any(v % min(values) for v in values):
        yield Problem("denominations", f"every chip must be worth a multiple of the smallest "
                      f"({min(values)})")


def _payout_problems(s: Structure) -> Iterator[Problem]:
    ranges: list[tuple[int, int, int]] = []
    for i, bracket in enumerate(s.payouts):
        path = f"payouts[{i}]"
        if bracket.min_players < 2:
            yield Problem(f"{path}.min_players", "must be at least 2")
        if bracket.max_players < bracket.min_players:
            yield Problem(f"{path}.max_players", f"{bracket.max_players} is less than "
                          f"min_players {bracket.min_players}")
        if not bracket.basis_points:
            yield Problem(f"{path}.percents", "name at least one paid place")
        elif len(bracket.basis_points) > bracket.min_players:
            yield Problem(f"{path}.percents", f"{len(bracket.basis_points)} places paid but the "
                          f"field may be only {bracket.min_players}")
        if any(bp <= 0 for bp in bracket.basis_points):
            yield Problem(f"{path}.percents", "every paid place needs a positive percentage")
        total = sum(bracket.basis_points)
        if total != FULL_PERCENT and not bracket.scale_to_pool:
            yield Problem(f"{path}.percents", f"add up to {_percent_text(total)}%, not 100%; "
                          "fix them, or set scale_to_pool = true to use them as weights")
        for j, (low, high, _) in enumerate(ranges):
            if bracket.min_players <= high and low <= bracket.max_players:
                yield Problem(f"{path}", f"players {bracket.min_players}-"
                              f"{bracket.max_players} overlap payouts[{j}] ({low}-{high})")
        ranges.append((bracket.min_players, bracket.max_players, i))


def _money_problems(money: Money) -> Iterator[Problem]:
    for name in ("buy_in", "prize_pool_per_entry", "bounty", "high_hand_fee", "guarantee"):
        if getattr(money, name) < 0:
            yield Problem(f"money.{name}", "must not be negative")
    if money.payout_rounding <= 0:
        yield Problem("money.payout_rounding", "must be positive (1 cent at least)")
    if money.buy_in and money.prize_pool_per_entry + money.bounty > money.buy_in:
        yield Problem("money.buy_in", "is less than prize_pool_per_entry + bounty")
    if not money.currency.strip():
        yield Problem("money.currency", "must not be empty")


def _entry_problems(s: Structure) -> Iterator[Problem]:
    """Re-entry, rebuy and add-on keys: levels that exist, money that adds up, chips that
    can be paid in the structure's chips."""
    last = len(s.levels)
    smallest = min((d.value for d in s.denominations if d.value > 0), default=0)
    re_entry, rebuy, add_on = s.re_entry, s.rebuy, s.add_on
    for path, value in (("re_entry.per_person", re_entry.per_person),
                        ("re_entry.cost", re_entry.cost),
                        ("re_entry.prize_pool", re_entry.prize_pool),
                        ("rebuy.per_entry", rebuy.per_entry), ("rebuy.cost", rebuy.cost),
                        ("rebuy.prize_pool", rebuy.prize_pool), ("rebuy.chips", rebuy.chips),
                        ("rebuy.stack_at_most", rebuy.stack_at_most),
                        ("add_on.cost", add_on.cost), ("add_on.prize_pool", add_on.prize_pool),
                        ("add_on.chips", add_on.chips)):
        if value < 0:
            yield Problem(path, "must not be negative")
    if re_entry.per_person:
        if not 0 <= re_entry.last_level <= last:
            yield Problem("re_entry.last_level", f"must be 0 (as late entry closes) to {last}")
        if (re_entry.cost or re_entry.prize_pool) and \
                re_entry.prize_pool + s.money.bounty > re_entry.cost:
            yield Problem("re_entry.cost", "is less than prize_pool + the money's bounty")
    if rebuy.last_level:
        if not 1 <= rebuy.first_level <= rebuy.last_level <= last:
            yield Problem("rebuy.last_level", f"first_level..last_level must be levels from 1 "
                          f"to {last}, first_level not after last_level")
        yield from _bought_chips_problems("rebuy.chips", rebuy.chips, smallest)
        if rebuy.prize_pool > rebuy.cost:
            yield Problem("rebuy.cost", "is less than prize_pool")
    if add_on.after_level:
        if s.break_after(add_on.after_level) is None:
            yield Problem("add_on.after_level", f"there is no break after level "
                          f"{add_on.after_level}: the add-on is taken at a break")
        yield from _bought_chips_problems("add_on.chips", add_on.chips, smallest)
        if add_on.prize_pool > add_on.cost:
            yield Problem("add_on.cost", "is less than prize_pool")


def _bought_chips_problems(path: str, chips: int, smallest: int) -> Iterator[Problem]:
    """The chips a rebuy or an add-on sells: a positive multiple of the smallest chip."""
    if chips <= 0:
        yield Problem(path, "must be a positive number of chips")
    elif smallest and chips % smallest:
        yield Problem(path, f"{chips} is not a multiple of the smallest chip ({smallest})")


def _days_problems(s: Structure) -> Iterator[Problem]:
    days = s.days
    if days.day < 1:
        yield Problem("days.day", "must be 1 (a starting flight) or more")
    if days.carry not in CARRY_RULES:
        yield Problem("days.carry", f"must be one of {', '.join(CARRY_RULES)}")
    if days.redraw not in REDRAWS:
        yield Problem("days.redraw", f"must be one of {', '.join(REDRAWS)}")
    if (days.flight or days.day > 1) and not days.event.strip():
        yield Problem("days.event", "must name the event the flights and days belong to")
    if days.event and s.money.bounty:
        yield Problem("days.event", "an event in flights and days with bounties is not "
                      "supported: set money.bounty to 0")


def _percent_text(basis_points: int) -> str:
    whole, part = divmod(basis_points, 100)
    return f"{whole}" if not part else f"{whole}.{part:02d}".rstrip("0")


def re_entry_price(structure: Structure) -> tuple[int, int]:
    """(cost, share to the prize pool) of a re-entry in cents: the structure's `re_entry`
    cost, or the buy-in's when it names neither.

    >>> s = Structure("t", "tda", 100, 9, (), (), money=Money(buy_in=5000,
    ...               prize_pool_per_entry=4500), re_entry=ReEntry(per_person=1))
    >>> re_entry_price(s)
    (5000, 4500)
    """
    offered = structure.re_entry
    if not offered.cost and not offered.prize_pool:
        return structure.money.buy_in, structure.money.prize_pool_per_entry
    return offered.cost, offered.prize_pool


# --- payouts -----------------------------------------------------------------------------


def payout_bracket(structure: Structure, field_size: int) -> PayoutBracket:
    """The payout line for a field of `field_size` entries."""
    for bracket in structure.payouts:
        if bracket.min_players <= field_size <= bracket.max_players:
            return bracket
    covered = tuple(f"{b.min_players}-{b.max_players} players" for b in structure.payouts)
    raise RuleViolation(
        "structure",
        f"the payout table of {structure.name} has no line for {field_size} players",
        covered or ("add a payout table to the structure",),
    )


def place_amounts(basis_points: tuple[int, ...], pool: int, rounding: int) -> tuple[int, ...]:
    """What each paid place wins: its share of `pool` rounded down to `rounding`, the
    remainder (rounding and the odd cents) to first place, so the amounts add up to the pool."""
    weight = sum(basis_points)
    if pool < 0 or rounding <= 0 or weight <= 0:
        raise ValueError("pool must not be negative; rounding and percentages must be positive")
    amounts = [pool * bp // weight // rounding * rounding for bp in basis_points]
    amounts[0] += pool - sum(amounts)
    return tuple(amounts)


def payouts_for(structure: Structure, field_size: int, pool: int) -> tuple[int, ...]:
    """Amount per place (index 0 is first place) for a field of `field_size` and a `pool`;
    in a satellite, each seat's value then the cash remainder (see satellite_seats)."""
    seats, remainder = satellite_seats(structure, field_size, pool)
    if structure.satellite.seat_value:
        return (structure.satellite.seat_value,) * seats + ((remainder,) if remainder else ())
    return place_amounts(paid_basis_points(structure, field_size), pool,
                         structure.money.payout_rounding)


def paid_basis_points(structure: Structure, field_size: int) -> tuple[int, ...]:
    """Each place's share of the pool (basis points, or weights when they do not add up to
    100%): the payout row as printed, or, where it does not add up to 100% and the reading in
    force is last_place_takes_the_rest (`payout_percents_not_100`), with the last place's
    share made the rest of 100%."""
    basis_points = payout_bracket(structure, field_size).basis_points
    if sum(basis_points) != FULL_PERCENT and get_profile(structure.profile).\
            payout_percents_not_100 == "last_place_takes_the_rest":
        rest = FULL_PERCENT - sum(basis_points[:-1])
        if rest > 0:  # else the places before it take the whole pool: weights, as scaled
            basis_points = basis_points[:-1] + (rest,)
    return basis_points


def satellite_seats(structure: Structure, field_size: int, pool: int) -> tuple[int, int]:
    """(seats won, cash remainder in cents) of a satellite's `pool`: as many seats as the
    pool buys, at most the structure's `seats` and one per player; (0, 0) when the
    structure is no satellite.

    >>> s = Structure("sat", "tda", 100, 9, (), (), satellite=Satellite(
    ...     seat_value=50000, target="Main"))
    >>> satellite_seats(s, 27, 27 * 6000)
    (3, 12000)
    """
    satellite = structure.satellite
    if not satellite.seat_value:
        return 0, 0
    seats = min(pool // satellite.seat_value, field_size)
    if satellite.seats:
        seats = min(seats, satellite.seats)
    remainder = pool - seats * satellite.seat_value
    if seats >= field_size and remainder:
        # Nobody would be left to take the cash: the last seat is paid in cash instead.
        seats -= 1
        remainder += satellite.seat_value
    return seats, remainder
