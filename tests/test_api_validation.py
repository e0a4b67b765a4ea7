"""Input that cannot hurt the log (issue 11): every bad entry is refused before it is appended,
with 422 naming the field and what is allowed; bodies over the limit get 413; one table's bad
entry (recorded by an older release) stays that table's problem; replay names a player seated
at two tables of one tournament."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi import FastAPI
from web_support import Client, make_app, make_recorder, open_table, record

from handlog.engine.errors import RuleViolation
from handlog.engine.table_commands import OpenTable, PlaceButton, SeatPlayer
from handlog.engine.table_events import PlayerSeated, TableOpened
from handlog.recorder.auth import Auth
from handlog.recorder.cli import cli
from handlog.recorder.floor import setup_demo
from handlog.recorder.service import SYSTEM, Recorder, utc_now
from handlog.replay.verify import replay_log
from handlog.schema.store import NewEvent

STREAM = "table-1"
OTHER = "table-2"


@pytest.fixture
def recorder(tmp_path: Path) -> Any:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    open_table(recorder, OTHER, [(2, "Dee", 4000), (6, "Eve", 4000)], button=2)
    yield recorder
    recorder.store.close()


@pytest.fixture
def app_auth(recorder: Recorder) -> tuple[FastAPI, Auth]:
    return make_app(recorder)


@pytest.fixture
def director(app_auth: tuple[FastAPI, Auth]) -> Any:
    app, auth = app_auth
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        yield client


def heads(recorder: Recorder) -> dict[str, int]:
    return {h.stream_id: h.version for h in recorder.store.streams()}


def _empty_seat(recorder: Recorder) -> int:
    state = recorder.table(STREAM).state
    assert state is not None
    return next(s for s in range(1, state.seat_count + 1) if state.occupant(s) is None)


BAD_ENTRIES: list[tuple[str, str, dict[str, Any], str, str]] = [
    # (case, stream, command, field named, what is allowed (a word of the message))
    ("unknown profile", "table-new",
     {"type": "open_table", "table": "new", "seat_count": 9, "profile": "tdaa"},
     "command.profile", "known profiles: tda, bse"),
    ("empty table name", "table-new",
     {"type": "open_table", "table": "", "seat_count": 9}, "command.table", "empty"),
    ("table name too long", "table-new",
     {"type": "open_table", "table": "x" * 81, "seat_count": 9}, "command.table", "80"),
    ("control character in a table name", "table-new",
     {"type": "open_table", "table": "new\x1b[2J", "seat_count": 9}, "command.table",
     "control"),
    ("button seat -1", STREAM, {"type": "place_button", "seat": -1}, "command.seat", "1"),
    ("button seat 0", STREAM, {"type": "place_button", "seat": 0}, "command.seat", "1"),
    ("button seat 11", STREAM, {"type": "place_button", "seat": 11}, "command.seat", "10"),
    ("a stack of 10^30", STREAM,
     {"type": "seat_player", "seat": 2, "player": "Zed", "stack": 10**30}, "command.stack",
     "1000000000000"),
    ("a stack just above 10^12", STREAM,
     {"type": "seat_player", "seat": 2, "player": "Zed", "stack": 10**12 + 1},
     "command.stack", "1000000000000"),
    ("empty player name", STREAM,
     {"type": "seat_player", "seat": 2, "player": " ", "stack": 100}, "command.player",
     "empty"),
    ("player name too long", STREAM,
     {"type": "seat_player", "seat": 2, "player": "Z" * 81, "stack": 100}, "command.player",
     "80"),
    ("control character in a player name", STREAM,
     {"type": "seat_player", "seat": 2, "player": "Zed\x00", "stack": 100}, "command.player",
     "control"),
    ("a reason over 500 characters", STREAM,
     {"type": "void_hand", "reason": "x" * 501}, "command.reason", "500"),
    ("a misdeal reason over 500 characters", STREAM,
     {"type": "declare_misdeal", "reason": "x" * 501}, "command.reason", "500"),
    ("an adjustment above 10^12", STREAM,
     {"type": "adjust_stack", "seat": 1, "amount": -(10**13), "reason": "penalty"},
     "command.amount", "1000000000000"),
]


@pytest.mark.parametrize(("stream", "command", "field", "allowed"),
                         [case[1:] for case in BAD_ENTRIES], ids=[c[0] for c in BAD_ENTRIES])
def test_a_bad_entry_is_refused_with_422_naming_the_field_and_nothing_is_written(
        recorder: Recorder, director: Client, stream: str, command: dict[str, Any], field: str,
        allowed: str) -> None:
    before = heads(recorder)
    response = director.send(stream, command, version=before.get(stream, 0))
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["field"] == field, body
    assert allowed in body["message"], body
    assert heads(recorder) == before


def test_a_button_on_a_seat_the_table_does_not_have_is_the_engines_refusal(
        recorder: Recorder, director: Client) -> None:
    """Seat range is the table's: seat 10 at a 9-seat table is refused by the engine's check
    (rule `seat`, 'seats are 1 to 9'), nothing written."""
    before = heads(recorder)
    response = director.send(STREAM, {"type": "place_button", "seat": 10})
    assert response.status_code == 422
    assert response.json()["rule"] == "seat"
    assert "seat: seat 10 does not exist" in response.json()["message"]
    assert "1 to 9" in response.json()["message"]
    assert heads(recorder) == before


def test_a_player_seated_at_another_table_of_the_tournament_is_refused(tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=6, tables=2)
    first, second = f"table-{tournament}-1", f"table-{tournament}-2"
    seated = recorder.table(first).state
    target = recorder.table(second).state
    assert seated is not None and target is not None
    player = seated.seats[0].player
    free = next(s for s in range(1, target.seat_count + 1) if target.occupant(s) is None)
    app, auth = make_app(recorder)
    with Client(app, auth) as director:
        director.login("director")
        before = heads(recorder)
        response = director.send(second, {"type": "seat_player", "seat": free,
                                          "player": player, "stack": 5000})
        assert response.status_code == 422, response.text
        assert response.json()["rule"] == "seating"
        assert f"{player} is already seated at table 1" in response.json()["message"]
        assert heads(recorder) == before
    recorder.store.close()


def test_the_recorder_refuses_the_same_entries_for_the_cli(recorder: Recorder) -> None:
    """Not only the HTTP models: the recorder's own checks refuse them (CLI, imports)."""
    before = heads(recorder)
    for stream, command, rule in (
        ("table-new", OpenTable("new", 9, "tdaa"), "profile"),
        ("table-new", OpenTable("", 9, "tda"), "table"),
        ("table-new", OpenTable("new\x07", 9, "tda"), "table"),
        (STREAM, PlaceButton(-1), "seat"),
        (STREAM, PlaceButton(0), "seat"),
        (STREAM, SeatPlayer(2, "Zed", 10**30), "stack"),
        (STREAM, SeatPlayer(2, "", 100), "player"),
        (STREAM, SeatPlayer(2, "Zed", 100, reason="x" * 501), "reason"),
    ):
        with pytest.raises(RuleViolation) as refused:
            record(recorder, stream, command)
        assert refused.value.rule == rule, (command, refused.value)
    assert heads(recorder) == before


def test_a_body_over_the_limit_gets_413_and_nothing_is_written(
        recorder: Recorder, director: Client) -> None:
    """A 5 MB misdeal reason never reaches the log (or any screen)."""
    director.ok(STREAM, {"type": "start_hand"})
    before = heads(recorder)
    for size in (65 * 1024, 5 * 1024 * 1024):
        response = director.send(STREAM, {"type": "declare_misdeal", "reason": "x" * size})
        assert response.status_code == 413, response.status_code
        assert response.json()["rule"] == "request" and "KB" in response.json()["message"]
    assert heads(recorder) == before
    assert director.send(STREAM, {"type": "declare_misdeal", "reason": "x" * 500}
                         ).status_code == 200


# --- one table's problem stays that table's ------------------------------------------------


def _recorded_by_an_older_release(recorder: Recorder, stream: str) -> None:
    """An open_table with profile `tdaa`, as a release that did not check it recorded it."""
    recorder.table(stream)  # the server has already read (and cached) the empty stream
    event = NewEvent.from_domain(TableOpened("old", 9, "tdaa"), event_id=uuid.uuid4(),
                                 actor="director", device="old-release", recorded_at=utc_now())
    recorder.store.append(stream, 0, [event], kind="table")
    recorder.observe(stream, 1)  # as the live hub tells it of another process's append


def test_a_bad_entry_in_the_log_does_not_take_the_floor_down(
        recorder: Recorder, director: Client) -> None:
    """The floor and the table list show every other table; the broken table's card says why;
    the director voids the entry and opens the table again."""
    _recorded_by_an_older_release(recorder, "table-old")
    tables = director.http.get("/api/tables")
    assert tables.status_code == 200, tables.text
    cards = {t["stream"]: t for t in tables.json()}
    assert cards[STREAM]["open"] and cards[OTHER]["open"]
    problem = cards["table-old"]["problem"]
    assert problem, cards["table-old"]
    assert not cards["table-old"]["open"] and "'tdaa'" in problem["message"]
    floor = director.http.get("/api/floor")
    assert floor.status_code == 200, floor.text
    floor_cards = {t["stream"]: t for t in floor.json()["tables"]}
    assert floor_cards[STREAM]["open"] and "'tdaa'" in floor_cards["table-old"]["problem"][
        "message"]
    read = director.http.get("/api/tables/table-old")
    assert read.status_code == 200 and read.json()["problem"]["version"] == 1
    voided = director.ok("table-old", {"type": "void_events", "versions": [1],
                                       "reason": "recorded with a profile that does not exist",
                                       "rule": "TDA 1"})
    assert voided["events"][0]["type"] == "event_voided"
    reopened = director.ok("table-old", {"type": "open_table", "table": "old", "seat_count": 9,
                                         "profile": "tda"})
    assert reopened["table"]["open"] and reopened["table"]["profile"]["name"] == "tda"
    assert director.http.get("/api/floor").status_code == 200


def test_a_bad_entry_of_one_table_leaves_the_other_tables_recording(
        recorder: Recorder, director: Client) -> None:
    _recorded_by_an_older_release(recorder, "table-old")
    assert director.http.get("/api/tables").status_code == 200
    director.ok(STREAM, {"type": "start_hand"})
    assert director.http.get(f"/api/tables/{STREAM}").json()["hand_in_progress"]


# --- replay names a player seated at two tables ---------------------------------------------


def test_replay_reports_a_player_seated_at_two_tables_of_one_tournament(tmp_path: Path) -> None:
    """A log where a tournament's player sits at a second table while still at the first (as
    an older release let through) is not clean: replay names the player and both tables."""
    db = tmp_path / "handlog.db"
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=6, tables=2)
    first, second = f"table-{tournament}-1", f"table-{tournament}-2"
    seated, target = recorder.table(first).state, recorder.table(second).state
    assert seated is not None and target is not None
    player = seated.seats[0]
    free = next(s for s in range(1, target.seat_count + 1) if target.occupant(s) is None)
    assert replay_log(recorder.store).clean
    recorder.store.append(second, recorder.table(second).version, [NewEvent.from_domain(
        PlayerSeated(free, player.player, 0, True, "draw"), event_id=uuid.uuid4(),
        actor="director", device="old-release", recorded_at=utc_now())], kind="table")
    report = replay_log(recorder.store)
    doubled = [f for f in report.findings if f.rule == "seating"]
    assert len(doubled) == 1, report.findings
    assert player.player in doubled[0].message
    assert "table 1" in doubled[0].message and "table 2" in doubled[0].message
    recorder.store.close()
    result = CliRunner().invoke(cli, ["replay", "--db", f"sqlite:///{db}"])
    assert result.exit_code == 1 and "seated at two tables" in result.output, result.output


def test_a_move_is_not_a_player_at_two_tables(tmp_path: Path) -> None:
    """A move (out of one seat, into another) leaves the log clean."""
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=6, tables=2)
    from handlog.recorder.tournament_service import Tournaments

    seated = recorder.table(f"table-{tournament}-1").state
    assert seated is not None
    Tournaments(recorder).move(tournament, seated.seats[0].player, "2", SYSTEM)
    assert replay_log(recorder.store).clean
    recorder.store.close()


def test_floor_commands_refuse_bad_names_and_reasons_too(tmp_path: Path) -> None:
    """Registration and moves: the same 422 naming the field; the CLI's path (the tournament
    service) refuses the name as well; nothing written."""
    from handlog.recorder.auth import CSRF_HEADER
    from handlog.recorder.tournament_service import Tournaments

    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=6, tables=2)
    app, auth = make_app(recorder)
    with Client(app, auth) as director:
        director.login("director")
        before = heads(recorder)
        for command, field in (
            ({"type": "register", "name": "Eve\u202e"}, "command.name"),
            ({"type": "register", "name": ""}, "command.name"),
            ({"type": "move", "player": "p1", "to_table": "2", "reason": "x" * 501},
             "command.reason"),
            ({"type": "ruling", "rule": "TDA 1", "text": "x" * 501}, "command.text"),
        ):
            response = director.http.post(f"/api/tournaments/{tournament}/commands",
                                          headers={CSRF_HEADER: director.csrf},
                                          json={"command": command})
            assert response.status_code == 422, (command, response.text)
            assert response.json()["field"] == field
        with pytest.raises(RuleViolation) as refused:
            Tournaments(recorder).register(tournament, "Eve\x07", SYSTEM)
        assert refused.value.rule == "name"
        assert heads(recorder) == before
    recorder.store.close()


def test_a_tournament_whose_log_cannot_be_folded_leaves_the_floor_up(
        recorder: Recorder, director: Client) -> None:
    """A tournament stream that does not start with tournament_created: the floor answers 200
    with the tables and names that tournament's problem."""
    from handlog.engine.tournament_events import RulingRecorded

    recorder.store.append("tournament-bad", 0, [NewEvent.from_domain(
        RulingRecorded("TDA 1", "orphan", "director"), event_id=uuid.uuid4(), actor="director",
        device="old-release", recorded_at=utc_now())], kind="tournament")
    floor = director.http.get("/api/floor")
    assert floor.status_code == 200, floor.text
    body = floor.json()
    assert {t["stream"] for t in body["tables"]} >= {STREAM, OTHER}
    assert [p["tournament"] for p in body["problems"]] == ["bad"]
    assert "before tournament_created" in body["problems"][0]["message"]


def test_a_chunked_body_over_the_limit_gets_413_too(
        recorder: Recorder, director: Client) -> None:
    """No Content-Length to trust: the bytes are counted as they come."""
    from handlog.recorder.auth import CSRF_HEADER

    before = heads(recorder)

    def chunks() -> Any:
        yield b'{"event_id": "' + str(uuid.uuid4()).encode() + b'", "expected_version": 0, '
        yield b'"command": {"type": "declare_misdeal", "reason": "' + b"x" * (70 * 1024)
        yield b'"}}'

    response = director.http.post(f"/api/tables/{STREAM}/commands", content=chunks(),
                                  headers={"content-type": "application/json",
                                           CSRF_HEADER: director.csrf})
    assert response.status_code == 413, response.text
    assert heads(recorder) == before


def test_a_sign_in_name_with_control_characters_is_refused(
        app_auth: tuple[FastAPI, Auth]) -> None:
    """The name and device of a session are recorded with every event: printable only."""
    app, auth = app_auth
    with Client(app, auth) as client:
        response = client.login("dealer", STREAM, name="Dana\x1b[31m")
        assert response.status_code == 422 and response.json()["field"] == "name"
        response = client.login("viewer", device="tab\x00let")
        assert response.status_code == 422 and response.json()["field"] == "device"
        assert client.login("dealer", STREAM, name="Dana").status_code == 200


def test_a_tap_is_answered_the_same_with_or_without_the_fast_route(
        recorder: Recorder) -> None:
    """`POST /api/tables/{stream}/commands` is served by `TapRoute`, past FastAPI's
    per-request work (recorder/routes/tables.py): every answer, refusals included, is the one
    FastAPI's own route gives (status, body and headers), and what it does not take (a stream
    name FastAPI refuses, another method) still reaches FastAPI."""
    from handlog.recorder.routes.tables import TapRoute

    fast, auth = make_app(recorder)
    plain, _ = make_app(recorder, auth=auth)
    plain.router.routes[:] = [r for r in plain.router.routes if not isinstance(r, TapRoute)]
    assert any(isinstance(r, TapRoute) for r in fast.router.routes)
    start = {"type": "start_hand"}
    with Client(fast, auth) as one, Client(plain, auth) as other:
        assert one.login("director").status_code == 200
        other.http.cookies = one.http.cookies
        other.csrf = one.csrf
        version = one.table(STREAM)["version"]
        event_id = str(uuid.uuid4())
        requests: list[tuple[str, str, dict[str, Any]]] = [
            ("POST", f"/api/tables/{STREAM}/commands", {"json": {
                "event_id": event_id, "expected_version": version - 1, "command": start}}),
            ("POST", f"/api/tables/{STREAM}/commands", {"json": {
                "event_id": event_id, "expected_version": version,
                "command": {"type": "fold", "player": 1}}}),
            ("POST", f"/api/tables/{STREAM}/commands", {"json": {
                "event_id": event_id, "expected_version": version,
                "command": {"type": "seat_player", "seat": 99, "player": "Zed",
                            "chips": 100}}}),
            ("POST", f"/api/tables/{STREAM}/commands", {"content": b"{not json"}),
            ("POST", "/api/tables/no%20such/commands", {"json": {}}),
            ("POST", "/api/tables/table-none/commands", {"json": {
                "event_id": event_id, "expected_version": 0, "command": start}}),
            ("GET", f"/api/tables/{STREAM}/commands", {}),
            ("POST", f"/api/tables/{STREAM}/commands", {"json": {}, "csrf": False}),
        ]
        for method, path, options in requests:
            csrf = options.pop("csrf", True)
            headers = {"X-CSRF-Token": one.csrf} if csrf else {}
            answers = [client.http.request(method, path, headers=headers, **options)
                       for client in (one, other)]
            assert answers[0].status_code == answers[1].status_code != 200, (path, options)
            assert answers[0].content == answers[1].content, (path, options)
            assert {k: v for k, v in answers[0].headers.items() if k != "date"} == \
                {k: v for k, v in answers[1].headers.items() if k != "date"}
        anonymous = [Client(app, auth) for app in (fast, plain)]
        answers = [c.http.post(f"/api/tables/{STREAM}/commands", json={}) for c in anonymous]
        assert answers[0].status_code == answers[1].status_code == 401
        assert answers[0].content == answers[1].content
        # And a tap recorded through each (the hand's start, then a fold): the same answer.
        started = one.send(STREAM, start)
        assert started.status_code == 200, started.text
        legal = started.json()["table"]["hand"]["legal"]
        folded = other.send(STREAM, {"type": "fold", "player": legal["player"]})
        assert folded.status_code == 200, folded.text
        assert started.json().keys() == folded.json().keys()
        assert folded.json()["version"] > started.json()["version"]
