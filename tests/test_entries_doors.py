"""Re-entries, rebuys and add-ons through their doors (issue 25): `handlog demo --re-entries N`
and `--rebuys` (replay exit 0, money unaccounted 0), the floor's steps from the CLI (the same
write path as the floor page), the player registry across events, and the report's `entries`;
on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from handlog.engine.tournament_events import AddOnPurchased, PlayerRegistered, RebuyPurchased
from handlog.recorder.cli import cli
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Recorder
from handlog.recorder.tournament_service import Tournaments
from handlog.replay.report import build_report
from handlog.replay.tournament_check import entry_findings
from handlog.replay.verify import replay_log
from handlog.schema.store import EventStore, open_store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
T = "rb"


def handlog(url: str, *args: str, ok: bool = True) -> Result:
    result = CliRunner().invoke(cli, [*args, "--db", url])
    if ok:
        assert result.exit_code == 0, (args, result.output)
    return result


def _replay_clean(url: str) -> dict[str, object]:
    replayed = handlog(url, "replay", "--json")
    data: dict[str, object] = json.loads(replayed.output)
    assert data["clean"] and data["findings"] == []
    return data


def test_demo_re_entries_replays_clean_with_every_cent_accounted(db_url: str) -> None:
    """`handlog demo --re-entries 2`: players out re-enter (a new entry of the same person)
    until re-entry closes; replay exits 0, the report lists each person's entries and the
    money block carries the re-entries with nothing unaccounted."""
    out = handlog(db_url, "demo", "--re-entries", "2", "--players", "12", "--tables", "2",
                  "--seed", "5").output
    assert "re-entries " in out and "re-entries 0" not in out
    _replay_clean(db_url)
    with open_store(db_url) as store:
        (t,) = build_report(store).data["tournaments"]
    money = t["money"]
    assert money["unaccounted"] == 0 and money["re_entries"] > 0
    re_entered = [p for p in t["entries"] if len(p["entries"]) > 1]
    assert re_entered
    for person in t["entries"]:
        kinds = [e["kind"] for e in person["entries"]]
        assert kinds[0] == "entry" and set(kinds[1:]) <= {"re_entry"} and len(kinds) <= 3
        assert all(e["paid"] == (2000 if e["kind"] == "entry" else 2200)
                   for e in person["entries"])
    assert money["re_entries"] == 2200 * sum(len(p["entries"]) - 1 for p in t["entries"])
    assert money["prizes_paid"] == 2000 * len(t["entrants"])


def test_demo_rebuys_and_the_add_on_replay_clean_with_every_cent_accounted(
        db_url: str) -> None:
    """`handlog demo --rebuys`: rebuys during levels 1-4, the add-on at the break after
    level 4; replay exits 0; the money block carries rebuys and add-ons to the cent."""
    out = handlog(db_url, "demo", "--rebuys", "--players", "12", "--tables", "2",
                  "--seed", "4").output
    assert "rebuys " in out and "add-ons " in out
    _replay_clean(db_url)
    with open_store(db_url) as store:
        (t,) = build_report(store).data["tournaments"]
    money = t["money"]
    rebuys = sum(e["rebuys"] for p in t["entries"] for e in p["entries"])
    add_ons = sum(e["add_on"] for p in t["entries"] for e in p["entries"])
    assert rebuys and add_ons
    assert (money["rebuys"], money["add_ons"]) == (rebuys * 2200, add_ons * 2500)
    assert money["fees"] == rebuys * 200 + add_ons * 500
    assert money["prizes_paid"] == 12 * 2000 + rebuys * 2000 + add_ons * 2000
    assert money["unaccounted"] == 0
    assert t["chip_ledger"]["bought"] == rebuys * 5000 + add_ons * 10000


def test_demo_refuses_re_entries_where_the_house_rules_sell_none(tmp_path: Path) -> None:
    """Octobermuck 'Re-Buys: None': --re-entries is refused before anything is recorded,
    naming the parameter and the rule."""
    url = f"sqlite:///{tmp_path / 'log.db'}"
    refused = handlog(url, "demo", "--re-entries", "1", "--structure",
                      str(EXAMPLES / "octobermuck.toml"), ok=False)
    assert refused.exit_code == 1
    assert "re_entries_and_rebuys is false" in refused.output
    assert "Octobermuck Re-Buys" in refused.output
    plain = handlog(url, "demo", "--rebuys", "--structure", str(EXAMPLES / "tda-demo.toml"),
                    ok=False)
    assert "offers no rebuys" in plain.output


def _ready(url: str, structure: str, players: int = 4) -> None:
    handlog(url, "tournament", "create", str(EXAMPLES / structure), "--id", T)
    for k in range(players):
        handlog(url, "tournament", "register", T, f"Player {k + 1}", "--person", f"R{k + 1}")
    handlog(url, "tournament", "draw", T, "--seed", "1", "--tables", "1")
    handlog(url, "tournament", "level", T)


def test_cli_rebuy_and_add_on_through_the_floor_path(db_url: str) -> None:
    """`handlog tournament rebuy|add-on`: recorded with the chips at the table in one
    transaction; a refusal names the rule (exit 1)."""
    _ready(db_url, "tda-rebuy.toml")
    out = handlog(db_url, "tournament", "rebuy", T, "Player 1").output
    assert "rebuy USD 22.00, 5000 chips" in out and "prize pool USD 100.00" in out
    early = handlog(db_url, "tournament", "add-on", T, "Player 1", ok=False)
    assert early.exit_code == 1 and "break after level 4" in early.output
    assert "[add_on] after_level" in early.output
    with open_store(db_url) as store:
        t = Tournaments(Recorder(store))
        seat = t.table(T, "1").state.seat_of("p1")  # type: ignore[union-attr]
        assert seat is not None and seat.stack == 10000
        over = handlog(db_url, "tournament", "rebuy", T, "Player 1", ok=False)
        assert "has 10000 chips: a rebuy needs 5000 or fewer" in over.output
        assert "[rebuy] stack_at_most" in over.output
        assert t.state(T).entrant("p1").rebuys == 1  # type: ignore[union-attr]


def test_cli_re_enter_is_the_same_person_and_a_second_live_entry_is_refused(
        db_url: str) -> None:
    """A live person cannot register again (under any name); once his entry is out,
    `handlog tournament re-enter` makes a new entry of the same person; the registry lists
    his entries across events and shows no card."""
    _ready(db_url, "tda-re-entry.toml")
    twice = handlog(db_url, "tournament", "register", T, "Someone", "--person", "R1", ok=False)
    assert twice.exit_code == 1 and "R1 already holds a live entry (p1)" in twice.output
    still_in = handlog(db_url, "tournament", "re-enter", T, "Player 1", ok=False)
    assert still_in.exit_code == 1
    out_entry = _play_until_one_is_out(db_url)
    person = f"R{out_entry[1:]}"
    out = handlog(db_url, "tournament", "re-enter", T, out_entry).output
    assert f"as p5 (re-entry 1 of {person}) (late)" in out
    with open_store(db_url) as store:
        state = Tournaments(Recorder(store)).state(T)
    entry = state.entrant("p5")
    assert entry is not None and (entry.who, entry.entry) == (person, 2)
    listed = json.loads(handlog(db_url, "tournament", "players", person, "--json").output)
    (row,) = listed["people"]
    assert [(e["entry"], e["kind"], e["paid"]) for e in row["entries"]] == \
        [(out_entry, "entry", 2000), ("p5", "re_entry", 2200)]
    assert row["entries"][0]["place"] == 4
    _replay_clean(db_url)
    text = handlog(db_url, "tournament", "players", f"Player {out_entry[1:]}").output
    assert "p5 re-entry: paid 22.00" in text
    assert not any(key in json.dumps(listed) for key in ("cards", "hole", "shown"))


def _play_until_one_is_out(url: str) -> str:
    """Hands at table 1 as the tablets record them (each settled with its end) until an
    entry is out: its id."""
    from handlog.recorder.demo import DemoSummary, _Demo, _play_hand

    with open_store(url) as store:
        demo = _Demo(Recorder(store), T, 11)
        summary = DemoSummary(T, 4, 1)
        for _ in range(500):
            state = demo.tournaments.state(T)
            out = [e.player for e in state.entrants if not e.alive]
            if out:
                return out[0]
            _play_hand(demo, "1", summary)
    raise AssertionError("nobody went out in 500 hands")


def test_the_registry_follows_a_person_across_events(store: EventStore) -> None:
    """Two demos in one database: the room's ids (R001...) are the same persons in both."""
    from handlog.replay.registry import find_person, registry

    recorder = Recorder(store)
    run_demo(recorder, players=6, tables=1, seed=2, hands=5)
    run_demo(recorder, players=6, tables=1, seed=3, hands=5)
    t = Tournaments(recorder)
    people = registry(t.state(name) for name in t.tournaments())
    (ada,) = find_person(people, "R001")
    assert ada["names"] == ["Ada"]
    assert sorted(e["tournament"] for e in ada["entries"]) == ["demo-2", "demo-3"]


def test_a_recorded_rebuy_the_engine_refuses_is_a_replay_finding() -> None:
    """The replay decides each rebuy, add-on and re-entry again: one over the stack limit, an
    add-on outside its break and a second live entry of one person are findings naming the
    rule."""
    from test_tournament import Log, example, started

    log: Log = started(example("tda-rebuy"), 3, tables=("A",))
    events = list(log.events)
    events.append(RebuyPurchased("p01", 5000, 2200, 2000, 9000, 1, 1))
    events.append(AddOnPurchased("p02", 10000, 2500, 2000, 4))
    events.append(PlayerRegistered("p9", "Again", True, 0, 5000, 1, person="t1.p03"))
    found = entry_findings("tournament-t1", list(range(1, len(events) + 1)), events)
    assert [f.rule for f in found] == ["rebuy:stack_at_most", "add_on:after_level",
                                       "registration"]


@pytest.mark.parametrize("kind", ["rebuy", "add_on"])
def test_entry_events_fold_into_the_chip_ledger(kind: str) -> None:
    """Chips bought count in the tournament's chip total (the tables must hold them)."""
    from test_tournament import example, started

    log = started(example("tda-rebuy"), 2, tables=("A",))
    before = log.state.ledger.total
    event = (RebuyPurchased("p01", 5000, 2200, 2000, 100, 1, 1) if kind == "rebuy"
             else AddOnPurchased("p01", 10000, 2500, 2000, 4))
    log.add(event)
    assert log.state.ledger.total == before + event.chips


def test_replay_of_the_demo_logs_has_no_finding_in_memory(store: EventStore) -> None:
    """The service path (not the CLI): rebuys, the add-on and re-entries in one event."""
    from dataclasses import replace

    from handlog.recorder.structure import load_structure

    rebuy = load_structure(EXAMPLES / "tda-rebuy.toml")
    both = replace(rebuy, re_entry=load_structure(EXAMPLES / "tda-re-entry.toml").re_entry)
    summary = run_demo(Recorder(store), players=9, tables=1, seed=6, structure=both,
                       re_entries=1, rebuys=True)
    assert summary.finished and summary.rebuys and summary.re_entries
    assert replay_log(store).findings == []


def test_two_first_entries_of_one_person_are_a_replay_finding() -> None:
    """Without re-entries in the log the replay checks persons with a set: a second entry of
    one person (a log the engine would have refused) is a finding."""
    from test_tournament import example

    from handlog.engine.tournament_events import TournamentCreated

    events: list[object] = [TournamentCreated("t1", example("tda-demo")),
                            PlayerRegistered("p1", "Ann", False, 0, 5000, person="R1"),
                            PlayerRegistered("p2", "Ann B", False, 0, 5000, person="R1")]
    (found,) = entry_findings("tournament-t1", [1, 2, 3], events)
    assert (found.version, found.rule) == (3, "registration")
