"""Flights and days (issue 25 item 3): a main event in two starting flights (Day 1A, 1B) and a
Day 2, each its own log linked by the structure's [days] event. The survivors' stacks are
bagged (a bag record each: chips, bag number, the director's confirmation), each flight ends
without a winner, Day 2 takes the bags (a person in both flights carries the larger stack, or
all of them) and redraws its seats with the engine's draw; the whole event's money, entries
and places are verified over all three logs. The floor steps run from the CLI (the floor's
write path); the hands are recorded as the tablets record them. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from handlog.engine.days import end_day, event_places, start_day
from handlog.engine.errors import RuleViolation
from handlog.engine.structure import Days
from handlog.engine.tournament_events import StackBagged, StackCarried
from handlog.engine.tournament_state import Entrant, TournamentState
from handlog.recorder.cli import cli
from handlog.recorder.demo import DIRECTOR, DemoSummary, _Demo, _next_level, _play_hand
from handlog.recorder.service import Recorder
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments
from handlog.replay.report import build_report
from handlog.schema.store import open_store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FLIGHTS = EXAMPLES / "tda-flights.toml"


def handlog(url: str, *args: str, ok: bool = True) -> Result:
    result = CliRunner().invoke(cli, [*args, "--db", url])
    if ok:
        assert result.exit_code == 0, (args, result.output)
    return result


def tournament(url: str, *args: str, ok: bool = True) -> Result:
    return handlog(url, "tournament", *args, ok=ok)


def _states(url: str, *names: str) -> list[TournamentState]:
    with open_store(url) as store:
        t = Tournaments(Recorder(store))
        return [t.state(n) for n in names]


def _stacks(url: str, name: str) -> dict[str, int]:
    with open_store(url) as store:
        t = Tournaments(Recorder(store))
        return {s.player: s.stack for table in t.state(name).tables
                for s in t.table(name, table).state.seats}  # type: ignore[union-attr]


def _play(url: str, name: str, seed: int, until: int) -> None:
    """Hands as the tablets record them, levels as the schedule wants, until `until` players
    are left (1: the winner)."""
    with open_store(url) as store:
        demo = _Demo(Recorder(store), name, seed)
        summary = DemoSummary(name, 0, 0)
        t = demo.tournaments
        hands = 0
        while len(t.state(name).remaining) > until and not t.state(name).finished:
            state = t.state(name)
            for table in [x for x in state.tables if len(state.seated_at(x)) >= 2]:
                _play_hand(demo, table, summary)
                hands += 1
                if len(t.state(name).remaining) <= until or t.state(name).finished:
                    break
            t.balance(name, DIRECTOR)
            if hands % 8 == 0:
                _next_level(demo, summary)
            assert hands < 4000


def _flight(url: str, name: str, persons: range, seed: int) -> None:
    out = tournament(url, "create", str(FLIGHTS), "--id", name, "--flight", name).output
    assert f"created tournament {name!r}" in out
    for n in persons:
        tournament(url, "register", name, f"Player {n:02d}", "--person", f"R{n:03d}")
    tournament(url, "draw", name, "--seed", str(seed))
    tournament(url, "level", name)
    _play(url, name, seed, until=4)


def _bag_all(url: str, name: str) -> None:
    (state,) = _states(url, name)
    stacks = _stacks(url, name)
    survivors = [e for e in state.remaining]
    first = survivors[0]
    # The day cannot end with a stack not bagged; a count that is not the log's is refused.
    refused = tournament(url, "end-day", name, ok=False)
    assert refused.exit_code == 1 and "no bag" in refused.output and "TDA 25" in refused.output
    wrong = tournament(url, "bag", name, first.player, "--chips",
                       str(stacks[first.player] + 25), "--bag", f"{name}-1", ok=False)
    assert wrong.exit_code == 1 and "the log gives him" in wrong.output
    for n, e in enumerate(survivors, start=1):
        out = tournament(url, "bag", name, e.player, "--chips", str(stacks[e.player]),
                         "--bag", f"{name}-{n}", "--by", "TD Kim").output
        assert f"bag {name}-{n}" in out and "confirmed by TD Kim" in out
    again = tournament(url, "bag", name, first.player, "--chips", str(stacks[first.player]),
                       "--bag", f"{name}-9", ok=False)
    assert again.exit_code == 1 and "bagged already" in again.output
    out = tournament(url, "end-day", name).output
    assert f"{len(survivors)} survivor(s) bagged {sum(stacks.values())} chips" in out
    late = tournament(url, "register", name, "Too Late", ok=False)
    assert late.exit_code == 1
    # No hand is dealt at a table of an ended flight: the bags stand.
    with open_store(url) as store:
        t = Tournaments(Recorder(store))
        with pytest.raises(RuleViolation, match="no further hand"):
            t.start_hand(name, state.tables[0], DIRECTOR)


def test_two_flights_and_day_2_from_the_cli_verified_over_all_three_logs(db_url: str) -> None:
    """Day 1A and Day 1B (persons R003-R009 play both), every survivor bagged, each flight
    ended without a winner; Day 2 takes the bags (the larger stack of a person in both, the
    structure's days.carry), redraws the seats with the engine's draw at the bagged stacks
    and plays to a winner; `handlog replay` exits clean over the three logs, the event's
    money is accounted to the cent and its places run over both days."""
    _flight(db_url, "1A", range(1, 10), seed=11)
    _bag_all(db_url, "1A")
    _flight(db_url, "1B", range(3, 12), seed=12)
    _bag_all(db_url, "1B")
    a, b = _states(db_url, "1A", "1B")
    assert a.finished and not a.winner and a.day_ended is not None
    bags = {(s.tournament, x.player): x for s in (a, b) for x in s.bags}

    tournament(db_url, "create", str(FLIGHTS), "--id", "d2", "--day", "2")
    early = tournament(db_url, "draw", "d2", ok=False)
    assert early.exit_code == 1
    out = tournament(db_url, "next-day", "d2", "--from", "1A", "--from", "1B",
                     "--seed", "5").output
    assert "from 1A, 1B" in out and "carry: larger" in out and "seats redrawn" in out
    (d2,) = _states(db_url, "d2")
    assert d2.prize_pool == 18 * 2000 and d2.field_size == 18
    stacks = _stacks(db_url, "d2")
    by_person: dict[str, list[int]] = {}
    for (log, player), bagged in bags.items():
        who = next(x for x in (a, b) if x.tournament == log).entrant(player)
        assert who is not None
        by_person.setdefault(who.who, []).append(bagged.chips)
    assert any(len(v) == 2 for v in by_person.values()), "no person survived both flights"
    assert {e.who: stacks[e.player] for e in d2.entrants} == {
        p: max(v) for p, v in by_person.items()}
    assert all(e.seated for e in d2.entrants)

    assert "level 1" in tournament(db_url, "level", "d2").output
    _play(db_url, "d2", 21, until=1)
    (d2,) = _states(db_url, "d2")
    assert d2.winner and d2.prizes is not None

    replayed = json.loads(handlog(db_url, "replay", "--json").output)
    assert replayed["clean"] and replayed["findings"] == []
    report = json.loads(tournament(db_url, "event", "main", "--json").output)
    assert [d["tournament"] for d in report["days"]] == ["1A", "1B", "d2"]
    assert len(report["bags"]) == len(bags)
    assert report["money"]["unaccounted"] == 0
    assert report["money"]["buy_ins"] == 18 * 2000
    assert report["money"]["prizes_paid"] == 18 * 2000
    places = report["places"]
    day2 = len(d2.entrants)
    # A person who bagged in both flights is one Day 2 entry: his place is that entry's.
    assert [p["place"] for p in places] == list(range(1, 18 - (len(bags) - day2) + 1))
    assert {p["tournament"] for p in places[:day2]} == {"d2"}
    assert {p["tournament"] for p in places[day2:]} == {"1A", "1B"}
    assert places[0]["entry"] == d2.winner
    # The audit report: each log's day and bags, and the event over its logs.
    with open_store(db_url) as store:
        data = build_report(store).data
    logs = {t["id"]: t for t in data["tournaments"]}
    assert logs["1A"]["days"]["flight"] == "1A" and logs["1A"]["days"]["handed_on"] == 18000
    assert logs["d2"]["days"]["from"] == ["1A", "1B"] and logs["d2"]["days"]["taken_in"] == 36000
    assert len(logs["1A"]["bags"]) + len(logs["1B"]["bags"]) == len(bags)
    assert all(b["confirmed_by"] == "TD Kim" for b in logs["1B"]["bags"])
    (event,) = data["events"]
    assert event["money"]["unaccounted"] == 0 and event["places"] == places


def _state(name: str, day: int, entrants: tuple[Entrant, ...], carry: str = "larger",
           ) -> TournamentState:
    structure = load_structure(FLIGHTS)
    structure = replace(structure, days=Days(event="main", day=day, flight=name, carry=carry))
    return TournamentState(name, structure, entrants, level=5)


def _ended(name: str, stacks: dict[str, int]) -> TournamentState:
    state = _state(name, 1, tuple(Entrant(f"{name}-{p}", p, person=p, table="1", seat=k + 1)
                                  for k, p in enumerate(stacks)))
    for k, (p, chips) in enumerate(stacks.items()):
        state = replace(state, bags=state.bags + (StackBagged(
            f"{name}-{p}", "1", chips, f"{name}{k}", "td", 5, "tda-25"),))
    return replace(state, day_ended=end_day(state))


@pytest.mark.parametrize(("carry", "expected"), [("larger", 9000), ("all", 12000)])
def test_a_person_in_two_flights_carries_the_larger_stack_or_all_as_the_structure_says(
        carry: str, expected: int) -> None:
    """days.carry: "larger" keeps the larger bag (the other forfeited, recorded as such);
    "all" adds them."""
    a = _ended("1A", {"R1": 9000, "R2": 4000})
    b = _ended("1B", {"R1": 3000, "R3": 7000})
    events = start_day(_state("d2", 2, (), carry), [a, b])
    carried = {e.person: e for e in events if isinstance(e, StackCarried)}
    assert set(carried) == {"R1", "R2", "R3"}
    assert carried["R1"].chips == expected
    assert [x.carried for x in carried["R1"].bags] == (
        [True, False] if carry == "larger" else [True, True])


def test_a_next_day_refuses_a_flight_not_ended_or_of_another_event() -> None:
    """Day 2 takes only ended logs of its own event, each refusal naming the days key."""
    a = _ended("1A", {"R1": 9000, "R2": 4000})
    with pytest.raises(RuleViolation) as open_flight:
        start_day(_state("d2", 2, ()), [replace(a, day_ended=None)])
    assert open_flight.value.rule == "days:day"
    other = replace(a, structure=replace(a.structure, days=Days(event="side", flight="1A")))
    with pytest.raises(RuleViolation) as foreign:
        start_day(_state("d2", 2, ()), [other])
    assert foreign.value.rule == "days:event"


def test_event_places_put_every_flight_bust_below_every_day_2_player() -> None:
    """A flight's bust is placed below all who reached Day 2; within a day, later out is
    higher."""
    a = _ended("1A", {"R1": 9000})
    a = replace(a, entrants=a.entrants + (Entrant("1A-x", "x", person="X", place=2),
                                          Entrant("1A-y", "y", person="Y", place=3)))
    d2 = _state("d2", 2, (Entrant("p1", "R1", person="R1", place=1, carried=9000),))
    rows = event_places([a, d2])
    assert [(r[0], r[3]) for r in rows] == [("R1", 1), ("X", 2), ("Y", 3)]


def test_replay_finds_a_day_2_stack_that_is_not_its_bag_and_money_not_handed_on() -> None:
    """The event check decides Day 2's start again from the flights' bags: a stack carried
    that differs from the bag is a finding; so is a flight's pool taken twice."""
    from handlog.engine.tournament_state import apply_tournament
    from handlog.replay.days_check import event_findings

    a = _ended("1A", {"R1": 9000, "R2": 4000})
    b = _ended("1B", {"R1": 3000, "R3": 7000})
    day2 = _state("d2", 2, ())
    honest = day2
    forged = day2
    for event in start_day(day2, [a, b]):
        honest = apply_tournament(honest, event)
        if isinstance(event, StackCarried) and event.person == "R2":
            event = replace(event, chips=event.chips + 1000)
        forged = apply_tournament(forged, event)
    assert event_findings([a, b, honest]) == []
    (found,) = event_findings([a, b, forged])
    assert found.rule == "days:day" and "differ from the bags" in found.message
    twice = replace(_state("d3", 3, ()), entrants=honest.entrants,
                    day_started=honest.day_started)
    assert any("taken twice" in f.message for f in event_findings([a, b, honest, twice]))


def test_demo_flights_and_days_replays_clean_with_the_event_accounted(db_url: str) -> None:
    """`handlog demo --flights 2 --days 3`: two flights bagged, a Day 2 bagged again, a
    Day 3 to a winner; replay exits 0 over the four logs and the event's money is accounted
    to the cent, its places running over every day."""
    out = handlog(db_url, "demo", "--flights", "2", "--days", "3", "--players", "12",
                  "--seed", "3").output
    assert "4 logs" in out and "winner: " in out
    replayed = json.loads(handlog(db_url, "replay", "--json").output)
    assert replayed["clean"] and replayed["findings"] == []
    report = json.loads(tournament(db_url, "event", "main-3", "--json").output)
    assert [d["day"] for d in report["days"]] == [1, 1, 2, 3]
    assert report["money"]["unaccounted"] == 0
    assert report["money"]["prizes_paid"] == report["money"]["buy_ins"] == 24 * 2000
    assert len(report["bags"]) == sum(len(d["survivors"]) for d in report["days"])
    last = report["days"][-1]
    assert last["winner"] and report["places"][0]["entry"] == last["winner"]


def test_a_bag_retried_with_its_event_id_records_nothing_twice(db_url: str) -> None:
    """The floor's retry of a bag (same event id) is answered from the log; the same id
    sent with another bag number is refused naming the field."""
    import uuid

    from handlog.schema.errors import DuplicateEventConflict

    tournament(db_url, "create", str(FLIGHTS), "--id", "1A", "--flight", "1A")
    for n in range(1, 4):
        tournament(db_url, "register", "1A", f"Player {n}")
    tournament(db_url, "draw", "1A", "--seed", "1")
    with open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        sent = uuid.uuid4()
        first = t.bag_stack("1A", "p1", 5000, "A-1", DIRECTOR, event_id=sent)
        again = t.bag_stack("1A", "p1", 5000, "A-1", DIRECTOR, event_id=sent)
        assert not first.retried and again.retried and len(t.state("1A").bags) == 1
        with pytest.raises(DuplicateEventConflict, match="bag"):
            t.bag_stack("1A", "p1", 5000, "A-2", DIRECTOR, event_id=sent)
