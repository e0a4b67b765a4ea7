"""A simulated event in flights and days (`handlog demo --flights N --days N`): each starting
flight is its own log, played down to about a third of its field, every survivor's stack
counted and bagged, the flight ended; each next day takes the survivors of the day before
(Day 2: of every flight), redraws its seats with the engine's draw and plays on; the last day
plays to a winner. Some persons play two flights (the structure's days.carry decides their
Day 2 stack). Every step goes through the same service commands the floor and the tablets use.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from handlog.engine.errors import RuleViolation
from handlog.engine.structure import Structure
from handlog.engine.words import structure_rule
from handlog.recorder.demo import DIRECTOR, DemoSummary, _Demo, _next_level, _play_hand, player_name
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments

FLIGHTS_STRUCTURE = Path(__file__).resolve().parent.parent / "examples" / "tda-flights.toml"
BAGGER = Actor("TD", "director", "demo-floor")


@dataclass
class DaysSummary:
    event: str
    logs: list[str] = field(default_factory=list)
    bags: int = 0
    hands: int = 0
    winner: str = ""
    seconds: float = 0.0


def _play_down(demo: _Demo, until: int, summary: DemoSummary) -> None:
    """Hands at every table, levels as the schedule wants, until `until` players are left
    (1: a winner)."""
    t = demo.tournaments
    name = demo.tournament
    hands_per_level = max(6, 4 * len(t.state(name).tables))
    at_level = 0
    while len(t.state(name).remaining) > until and not t.state(name).finished:
        state = t.state(name)
        for table in [x for x in state.tables if len(state.seated_at(x)) >= 2]:
            _play_hand(demo, table, summary)
            summary.hands += 1
            at_level += 1
            if len(t.state(name).remaining) <= until or t.state(name).finished:
                break
        if t.state(name).finished:
            break
        t.balance(name, DIRECTOR)
        if at_level >= hands_per_level:
            at_level = 0
            _next_level(demo, summary)


def _bag_and_end(t: Tournaments, name: str) -> int:
    """Every survivor's stack bagged (the count is the log's), then the day ends."""
    state = t.state(name)
    bags = 0
    for table in state.tables:
        fold = t.table(name, table).state
        assert fold is not None
        for seat in fold.seats:
            bags += 1
            t.bag_stack(name, seat.player, seat.stack, f"{name}-{bags:03d}", BAGGER)
    t.end_day(name, DIRECTOR)
    return bags


def run_days_demo(recorder: Recorder, flights: int = 2, days: int = 2, players: int = 18,
                  seed: int = 7, structure: Structure | None = None) -> DaysSummary:
    """Flights 1A, 1B... of `players` each, then days 2..`days` (see the module)."""
    if flights < 1 or days < 2:
        raise RuleViolation(structure_rule("days", "day"), "an event in flights and days has 1 "
                            "flight or more and 2 days or more", ("--flights 2 --days 2",))
    started = time.perf_counter()
    base = structure or load_structure(FLIGHTS_STRUCTURE)
    if not base.days.event:
        raise RuleViolation(structure_rule("days", "event"), f"{base.name} has no [days] event: "
                            "try examples/tda-flights.toml")
    rng = random.Random(seed)
    t = Tournaments(recorder)
    existing = set(t.tournaments())
    event = f"{base.days.event}-{seed}"
    suffix = 2
    while f"{event}-1A" in existing:
        event = f"{base.days.event}-{seed}-{suffix}"
        suffix += 1
    result = DaysSummary(event)
    per_table = base.seats_per_table
    # About one person in four of a later flight played an earlier one too.
    pool = list(range(players * flights))
    previous: list[str] = []
    for f in range(flights):
        flight = f"1{chr(ord('A') + f)}"
        name = f"{event}-{flight}"
        s = replace(base, days=replace(base.days, event=event, day=1, flight=flight))
        t.create(name, s, DIRECTOR)
        again = rng.sample(range(f * players), min(f * players, players // 4)) if f else []
        persons = again + pool[f * players + len(again):(f + 1) * players]
        for index in persons:
            t.register(name, player_name(index), DIRECTOR, person=f"R{index + 1:03d}")
        tables = -(-players // per_table)
        t.draw_seats(name, tables, seed + f, DIRECTOR)
        t.start_level(name, DIRECTOR)
        summary = DemoSummary(name, players, tables)
        _play_down(_Demo(recorder, name, seed + f), max(2, players // 3), summary)
        result.hands += summary.hands
        result.bags += _bag_and_end(t, name)
        result.logs.append(name)
        previous.append(name)
    for day in range(2, days + 1):
        name = f"{event}-d{day}"
        t.create(name, replace(base, days=replace(base.days, event=event, day=day, flight="")),
                 DIRECTOR)
        t.start_day(name, previous, DIRECTOR)
        field_now = len(t.state(name).remaining)
        t.draw_seats(name, max(1, -(-field_now // per_table)), seed + 100 + day, DIRECTOR)
        t.start_level(name, DIRECTOR)
        summary = DemoSummary(name, field_now, 0)
        last = day == days
        paid = 5  # the example's payouts pay at most 5 places: keep them for the last day
        until = 1 if last else max(paid, field_now // 2)
        _play_down(_Demo(recorder, name, seed + 100 + day), until, summary)
        result.hands += summary.hands
        result.logs.append(name)
        if not last:
            result.bags += _bag_and_end(t, name)
            previous = [name]
    final = t.state(result.logs[-1])
    winner = final.entrant(final.winner)
    result.winner = winner.name if winner is not None else ""
    result.seconds = time.perf_counter() - started
    return result
