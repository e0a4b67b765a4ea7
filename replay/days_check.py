"""An event in flights and days checked across its logs (engine.days): each next day took
exactly the survivors its sources bagged, with the stacks the carry rule gives (the engine
decides the day's start again on the sources' logs); the prize pool the flights handed on is
the pool the next day holds; the money of all the logs together is accounted to the cent;
and the places run over the whole event (an entry out on Day 1 below everyone who reached
Day 2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from handlog.engine.days import event_places, start_day
from handlog.engine.errors import RuleViolation
from handlog.engine.money import money_block
from handlog.engine.tournament_events import DayStarted, StackCarried
from handlog.engine.tournament_state import TournamentState
from handlog.replay.fold import Finding

DAYS_RULE = "days:day"


def events_of(states: Iterable[TournamentState]) -> dict[str, list[TournamentState]]:
    """The logs of each multi-day event, by event id, in day then flight order."""
    found: dict[str, list[TournamentState]] = {}
    for state in states:
        if state.structure.days.event:
            found.setdefault(state.structure.days.event, []).append(state)
    return {event: sorted(logs, key=lambda s: (s.structure.days.day,
                                               s.structure.days.flight, s.tournament))
            for event, logs in sorted(found.items())}


def _stream(state: TournamentState) -> str:
    return f"tournament-{state.tournament}"


def _start_findings(day: TournamentState, logs: Mapping[str, TournamentState]) -> list[Finding]:
    started = day.day_started
    assert started is not None
    stream = _stream(day)
    missing = [s for s in started.sources if s not in logs]
    if missing:
        return [Finding(stream, 0, DayStarted.TYPE, DAYS_RULE, "the day takes survivors from "
                        "logs the event does not have", ", ".join(missing), "missing")]
    empty = replace(day, entrants=(), day_started=None, entrant_names=frozenset(),
                    persons=frozenset())
    try:
        again = start_day(empty, [logs[s] for s in started.sources],
                          {e.who: e.player for e in day.entrants if e.carried})
    except RuleViolation as violation:
        return [Finding(stream, 0, DayStarted.TYPE, violation.rule, violation.message,
                        "refused", "recorded")]
    recorded: list[Any] = [started] + [
        StackCarried(e.player, e.name, e.person, e.carried, ()) for e in day.entrants
        if e.carried]
    decided: list[Any] = [again[0]] + [replace(c, bags=()) for c in again[1:]
                                       if isinstance(c, StackCarried)]
    if recorded != decided:
        return [Finding(stream, 0, DayStarted.TYPE, DAYS_RULE, "the day's players and "
                        "stacks differ from the bags of its sources",
                        str(decided), str(recorded))]
    return []


def event_findings(states: Iterable[TournamentState]) -> list[Finding]:
    """Every multi-day event's cross-log findings (see the module)."""
    findings: list[Finding] = []
    for event, logs in events_of(states).items():
        by_name = {s.tournament: s for s in logs}
        taken: dict[str, str] = {}
        for day in logs:
            if day.day_started is None:
                continue
            findings.extend(_start_findings(day, by_name))
            for source in day.day_started.sources:
                if source in taken:
                    findings.append(Finding(_stream(day), 0, DayStarted.TYPE, DAYS_RULE,
                                            f"{source}'s survivors are taken twice",
                                            taken[source], day.tournament))
                taken[source] = day.tournament
        last = logs[-1]
        if not last.winner:
            continue  # the event is still being played: its money is not settled yet
        for s in logs:
            if s.day_ended is not None and s.tournament not in taken:
                findings.append(Finding(_stream(s), 0, "day_ended", DAYS_RULE,
                                        f"{s.tournament}'s survivors never came to a next day",
                                        "a next day", "none"))
        unaccounted = sum(money_block(s).unaccounted for s in logs)
        if unaccounted:
            findings.append(Finding(_stream(last), 0, "tournament", "money",
                                    f"event {event}: money across its logs is not accounted",
                                    "0", str(unaccounted)))
    return findings


def event_report(logs: list[TournamentState]) -> dict[str, Any]:
    """One event's days, bags, money and places over its logs (the JSON report's block)."""
    names = {(s.tournament, e.player): e.name for s in logs for e in s.entrants}
    blocks = [money_block(s) for s in logs]
    money: dict[str, int] = {}
    for block in blocks:
        for key, value in block.as_dict().items():
            money[key] = money.get(key, 0) + value
    return {
        "event": logs[0].structure.days.event,
        "days": [{"tournament": s.tournament, "day": s.structure.days.day,
                  "flight": s.structure.days.flight,
                  "entries": sum(1 for e in s.entrants if not e.carried),
                  "carried_in": sum(1 for e in s.entrants if e.carried),
                  "survivors": list(s.day_ended.survivors) if s.day_ended else [],
                  "from": list(s.day_started.sources) if s.day_started else [],
                  "winner": s.winner, "money": money_block(s).as_dict()} for s in logs],
        "bags": [{"tournament": s.tournament, "player": b.player,
                  "name": names.get((s.tournament, b.player), b.player), "table": b.table,
                  "chips": b.chips, "bag": b.bag, "confirmed_by": b.confirmed_by,
                  "level": b.level} for s in logs for b in s.bags],
        "carried": [{"tournament": s.tournament, "player": e.player, "person": e.person,
                     "chips": e.carried} for s in logs for e in s.entrants if e.carried],
        "places": [{"person": person, "tournament": log, "entry": entry, "place": place,
                    "name": names.get((log, entry), entry)}
                   for person, log, entry, place in event_places(logs)],
        "money": money,
    }
