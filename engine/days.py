"""Flights and days: an event (the structure's `[days]`) played over several logs. Each
starting flight (Day 1A, 1B...) ends without a winner: every survivor's stack is counted and
bagged (`stack_bagged`: chips, bag number, the director who confirmed the count), then the
flight ends (`day_ended`), handing its survivors and its prize pool on. The next day's log
takes them (`day_started`, one `stack_carried` per person, his stack from his bags under
`days.carry`) and its seats are drawn by the engine's seat draw (engine.seating, TDA 2024
Rule 7: random seats) at the carried stacks.

A bag is a count: TDA 25, the chips a player has are the chips the log gives him. A count that
differs from the log is settled first (engine.chip_counts: count, then correct the stack).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from handlog.engine.errors import RuleViolation
from handlog.engine.structure import payouts_for
from handlog.engine.tournament_events import (
    BagSource,
    DayEnded,
    DayStarted,
    StackBagged,
    StackCarried,
)
from handlog.engine.tournament_state import Entrant, TournamentState
from handlog.engine.words import structure_rule

EVENT_RULE = structure_rule("days", "event")
CARRY_RULE = structure_rule("days", "carry")
DAY_RULE = structure_rule("days", "day")
BAG_RULE = "tda-25"


def _multi_day(state: TournamentState) -> None:
    if not state.structure.days.event:
        raise RuleViolation(EVENT_RULE, f"{state.structure.name} is played in one day "
                            "(its structure has no [days] event): nothing to bag")


def bag(state: TournamentState, player: str, chips: int, bag_number: str, confirmed_by: str,
        logged: int) -> StackBagged:
    """`player`'s stack bagged at the end of the day: `chips` counted (must be the log's
    stack `logged`, else count and correct first), bag `bag_number`, confirmed by the director
    `confirmed_by`.

    >>> from handlog.engine.structure import Days, Structure
    >>> s = Structure("t", "tda", 1000, 9, (), (), days=Days(event="main", flight="1A"))
    >>> state = TournamentState("t", s, (Entrant("p1", "Ada", table="1", seat=3),), level=4)
    >>> bag(state, "p1", 2500, "A-001", "td", 2500).chips
    2500
    """
    _multi_day(state)
    if state.finished:
        raise RuleViolation("tournament", f"{state.tournament} is over")
    entrant = state.entrant(player)
    if entrant is None or not entrant.seated:
        raise RuleViolation(BAG_RULE, f"{player} is not a player in play: only a seated "
                            "player's stack is bagged",
                            tuple(e.player for e in state.remaining if e.seated))
    if state.bag_of(player) is not None:
        raise RuleViolation(BAG_RULE, f"{player}'s stack is bagged already "
                            f"(bag {state.bag_of(player).bag})")  # type: ignore[union-attr]
    if not bag_number.strip():
        raise RuleViolation(BAG_RULE, "the bag number must not be empty")
    if any(b.bag == bag_number for b in state.bags):
        raise RuleViolation(BAG_RULE, f"bag {bag_number} holds another player's chips: "
                            "one bag per player")
    if not confirmed_by.strip():
        raise RuleViolation(BAG_RULE, "the director who confirms the count must be named")
    if chips != logged:
        raise RuleViolation(BAG_RULE, f"{player} is counted {chips} chips but the log gives "
                            f"him {logged}: record the count and settle it first",
                            ("tournament count --end-of-day", "tournament correct-stack"))
    return StackBagged(player, entrant.table, chips, bag_number.strip(), confirmed_by,
                       state.level, BAG_RULE)


def end_day(state: TournamentState) -> DayEnded:
    """The day (the flight) ends without a winner: every player in play must be bagged."""
    _multi_day(state)
    if state.finished:
        raise RuleViolation("tournament", f"{state.tournament} is over")
    unbagged = [e.player for e in state.remaining if state.bag_of(e.player) is None]
    if unbagged:
        raise RuleViolation(BAG_RULE, f"{len(unbagged)} player(s) in play have no bag: bag "
                            "every stack before the day ends", tuple(unbagged))
    if not state.remaining:
        raise RuleViolation(BAG_RULE, "nobody is left to advance")
    days = state.structure.days
    survivors = tuple(e.player for e in state.remaining)
    return DayEnded(days.event, days.day, days.flight, survivors,
                    sum(b.chips for b in state.bags if b.player in survivors),
                    state.prize_pool, state.level, DAY_RULE)


def _bags(source: TournamentState) -> list[tuple[Entrant, BagSource]]:
    ended = source.day_ended
    assert ended is not None
    out = []
    for player in ended.survivors:
        entrant = source.entrant(player)
        bagged = source.bag_of(player)
        assert entrant is not None and bagged is not None
        out.append((entrant, BagSource(source.tournament, player, bagged.bag, bagged.chips,
                                       True)))
    return out


def start_day(state: TournamentState, sources: Sequence[TournamentState],
              new_ids: Mapping[str, str] | None = None) -> list[DayStarted | StackCarried]:
    """The next day takes the survivors of `sources` (the earlier flights or day of the same
    event, each ended): one entry per person, his stack by `days.carry` ("larger": his largest
    bag, the others forfeited; "all": his bags added). `new_ids`: person -> entry id here
    (default `p1`, `p2`... in order of the sources' bags)."""
    days = state.structure.days
    _multi_day(state)
    if days.day < 2:
        raise RuleViolation(DAY_RULE, f"{state.tournament} is day {days.day} (a starting "
                            "flight): survivors go to a later day", ("days.day = 2",))
    if state.day_started is not None or state.entrants:
        raise RuleViolation(DAY_RULE, f"{state.tournament} has its players already")
    if not sources:
        raise RuleViolation(DAY_RULE, "name the flights (or the day) whose survivors come "
                            "to this day")
    names = [s.tournament for s in sources]
    if len(set(names)) != len(names):
        raise RuleViolation(DAY_RULE, "a log is named twice")
    for source in sources:
        other = source.structure.days
        if other.event != days.event:
            raise RuleViolation(EVENT_RULE, f"{source.tournament} belongs to event "
                                f"{other.event or '(none)'}, not {days.event}")
        if other.day >= days.day:
            raise RuleViolation(DAY_RULE, f"{source.tournament} is day {other.day}: only an "
                                f"earlier day's survivors come to day {days.day}")
        if source.day_ended is None:
            raise RuleViolation(DAY_RULE, f"{source.tournament} has not ended its day: bag "
                                "its stacks and end it first", (source.tournament,))
    by_person: dict[str, list[tuple[Entrant, BagSource]]] = {}
    for source in sources:
        for entrant, found in _bags(source):
            by_person.setdefault(entrant.who, []).append((entrant, found))
    entries = sum(s.field_size for s in sources)
    pool = sum(s.day_ended.prize_pool for s in sources if s.day_ended is not None)
    paid = len(payouts_for(state.structure, entries, pool)) if state.structure.payouts else 0
    if paid > len(by_person):
        raise RuleViolation(DAY_RULE, f"the payouts for "
                            f"{entries} entries pay {paid} places but {len(by_person)} players "
                            "come to this day: places paid before it are not supported")
    events: list[DayStarted | StackCarried] = [
        DayStarted(days.event, days.day, tuple(names), entries, pool, days.carry, CARRY_RULE)]
    for n, (person, held) in enumerate(by_person.items(), start=1):
        if days.carry == "all":
            kept = [b for _, b in held]
        else:
            # The larger stack (the first when equal); the others are forfeited.
            best = max(held, key=lambda h: h[1].chips)[1]
            kept = [best]
        bags = tuple(BagSource(b.tournament, b.player, b.bag, b.chips, b in kept)
                     for _, b in held)
        player = (new_ids or {}).get(person, f"p{n}")
        events.append(StackCarried(player, held[0][0].name, person,
                                   sum(b.chips for b in kept), bags))
    return events


def event_places(days: Sequence[TournamentState]) -> list[tuple[str, str, str, int]]:
    """(person, log, entry, place in the event) for every entry of an event's logs, the last
    day's places first: an entry out on an earlier day is placed below everyone who reached a
    later one; out the same day, the one out later (a better place in his log, counted from
    the bottom of that log's survivors) higher, equal ranks by the logs' order."""
    ordered = sorted(days, key=lambda s: s.structure.days.day, reverse=True)
    rows: list[tuple[str, str, str, int]] = []
    place = 0
    for day in sorted({s.structure.days.day for s in ordered}, reverse=True):
        logs = [s for s in ordered if s.structure.days.day == day]
        outs: list[tuple[int, int, str, Entrant]] = []
        for i, s in enumerate(logs):
            ahead = len(s.day_ended.survivors) if s.day_ended is not None else 0
            outs.extend((e.place - ahead, i, s.tournament, e) for e in s.entrants if e.place)
        for _rank, _i, log, e in sorted(outs, key=lambda o: (o[0], o[1])):
            place += 1
            rows.append((e.who, log, e.player, place))
    return rows
