"""The HTTP API the tablet and floor pages use: reading a table, recording commands, retries,
conflicts, errors as JSON, server-sent events, OpenAPI, and `handlog serve`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import LEVEL, Client, make_app, make_recorder, open_table, record

from handlog.engine import commands as hand_commands
from handlog.engine.cards import parse_cards
from handlog.engine.errors import RuleViolation
from handlog.engine.table_commands import (
    AdjustStack,
    AmendAmount,
    CarryToPot,
    OpenTable,
    PlaceButton,
    RemovePlayer,
    SeatPlayer,
    SetAbsence,
    StartHand,
    Undo,
    VoidEvents,
    at_level,
)
from handlog.recorder import command_json
from handlog.recorder.auth import CSRF_HEADER
from handlog.recorder.cli_serve import free_port, serve_in_thread
from handlog.recorder.views import event_rows
from handlog.replay.fold import fold_table
from handlog.replay.verify import replay_log

STREAM = "table-1"


@pytest.fixture
def recorder(tmp_path: Path) -> Any:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    yield recorder
    recorder.store.close()


@pytest.fixture
def director(recorder: Any) -> Any:
    app, auth = make_app(recorder)
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        yield client


@pytest.fixture
def dealer(recorder: Any) -> Any:
    app, auth = make_app(recorder)
    with Client(app, auth) as client:
        assert client.login("dealer", STREAM, device="tablet-A", name="Dana").status_code == 200
        yield client


def play_to_showdown(client: Client) -> None:
    """Ann all-in short, Bob and Cy call, Bob bets the flop, Cy calls, checked down."""
    client.ok(STREAM, {"type": "start_hand"})
    client.ok(STREAM, {"type": "bet_raise", "player": 2, "to": 1000})
    client.ok(STREAM, {"type": "check_call", "player": 0})
    client.ok(STREAM, {"type": "check_call", "player": 1})
    client.ok(STREAM, {"type": "deal_board", "cards": "AhKhQd"})
    client.ok(STREAM, {"type": "bet_raise", "player": 0, "to": 500})
    client.ok(STREAM, {"type": "check_call", "player": 1})
    client.ok(STREAM, {"type": "deal_board", "cards": ["2c"]})
    client.ok(STREAM, {"type": "check_call", "player": 0})
    client.ok(STREAM, {"type": "check_call", "player": 1})
    client.ok(STREAM, {"type": "deal_board", "cards": "3c"})
    client.ok(STREAM, {"type": "check_call", "player": 0})
    client.ok(STREAM, {"type": "check_call", "player": 1})


def test_table_view_shows_seats_markers_and_the_legal_actions_with_amounts(
        dealer: Client) -> None:
    """Seats with names and stacks, button and blinds, who is to act, and what is legal."""
    view = dealer.ok(STREAM, {"type": "start_hand"})["table"]
    seats = {s["seat"]: s for s in view["seats"] if s["player"]}
    assert {s["player"]: s["stack"] for s in seats.values()} == {
        "Ann": 1000, "Bob": 2950, "Cy": 2900}
    assert seats[1]["button"] and seats[3]["small_blind"] and seats[5]["big_blind"]
    assert (seats[3]["bet"], seats[5]["bet"]) == (50, 100)
    hand = view["hand"]
    assert hand["phase"] == "betting" and hand["to_act_seat"] == 1 and seats[1]["to_act"]
    legal = hand["legal"]
    assert legal["fold"] and not legal["check"] and legal["call"] == 100
    assert (legal["raise_kind"], legal["min_to"], legal["max_to"]) == ("raise", 200, 1000)
    assert [s["to"] for s in legal["sizes"]] == [200, 250, 300, 400, 1000]  # min, BB multiples
    assert view["level"]["big_blind"] == 100


def test_bet_raise_json_becomes_the_engines_raise(dealer: Client) -> None:
    """{"type": "bet_raise", "player": 2, "to": 600} records raise_made to 600."""
    dealer.ok(STREAM, {"type": "start_hand"})
    body = dealer.ok(STREAM, {"type": "bet_raise", "player": 2, "to": 600})
    assert [e["type"] for e in body["events"]] == ["raise_made"]
    assert body["events"][0]["text"] == "Ann raises to 600"
    assert body["table"]["hand"]["current_bet"] == 600


def test_an_illegal_amount_comes_back_as_json_with_the_rule_and_the_legal_options(
        dealer: Client, recorder: Any) -> None:
    """TDA 43: a raise short of the minimum is refused and nothing is recorded."""
    dealer.ok(STREAM, {"type": "start_hand"})
    before = recorder.table(STREAM).version
    response = dealer.send(STREAM, {"type": "bet_raise", "player": 2, "to": 150})
    assert response.status_code == 422
    body = response.json()
    assert (body["rule"], body["rule_words"]) == ("tda-43", "TDA 43")
    assert "at least 200" in body["message"]
    assert body["legal"] == ["call 100", "raise to 200 up to 1000", "fold"]
    assert body["table"]["version"] == before == recorder.table(STREAM).version


def test_a_stale_version_gets_409_with_the_current_state_and_what_was_recorded(
        dealer: Client, recorder: Any) -> None:
    """A tablet that did not see the last entry gets the conflict, and nothing is recorded."""
    start = dealer.ok(STREAM, {"type": "start_hand"})["version"]
    dealer.ok(STREAM, {"type": "check_call", "player": 2})
    response = dealer.send(STREAM, {"type": "fold", "player": 2}, version=start)
    assert response.status_code == 409
    body = response.json()
    assert (body["rule"], body["expected"], body["actual"]) == ("stale-version", start,
                                                                start + 1)
    assert [e["text"] for e in body["since"]] == ["Ann calls 100"]
    assert body["table"]["version"] == start + 1
    assert body["table"]["hand"]["legal"]["name"] == "Bob"
    assert recorder.table(STREAM).version == start + 1


def test_a_retry_with_the_same_event_id_returns_the_original_result_and_records_nothing(
        dealer: Client, recorder: Any) -> None:
    """A lost answer is retried with the same id: 200 again, still one entry."""
    version = dealer.ok(STREAM, {"type": "start_hand"})["version"]
    event_id = str(uuid.uuid4())
    first = dealer.send(STREAM, {"type": "bet_raise", "player": 2, "to": 300}, version,
                        event_id)
    dealer.ok(STREAM, {"type": "check_call", "player": 0})  # the table moves on meanwhile
    again = dealer.send(STREAM, {"type": "bet_raise", "player": 2, "to": 300}, version,
                        event_id)
    assert first.status_code == again.status_code == 200
    assert again.json()["retried"] is True and first.json()["retried"] is False
    assert again.json()["version"] == first.json()["version"]
    assert again.json()["events"] == first.json()["events"]
    raises = [e for e in recorder.store.read(STREAM) if e.type == "raise_made"]
    assert len(raises) == 1 and raises[0].event_id == uuid.UUID(event_id)


def test_a_taps_event_rows_are_the_rows_made_afresh_from_the_stored_log(
        dealer: Client, recorder: Any) -> None:
    """The answer's `events` (taken from the table view's rows of the same events) are, text
    for text, the rows `event_rows` makes from the stored log read again, for every tap of a
    hand to its showdown, and they are the view's own rows of those versions."""
    answers: list[dict[str, Any]] = []
    sent = dealer.send

    def send(*args: Any, **kwargs: Any) -> Any:
        response = sent(*args, **kwargs)
        answers.append(response.json())
        return response

    dealer.send = send  # type: ignore[method-assign]
    play_to_showdown(dealer)
    assert len(answers) >= 10
    for answer in answers:
        stored = recorder.store.read(STREAM)
        stored = [e for e in stored if e.version <= answer["version"]]
        fold = fold_table(STREAM, stored)
        mine = stored[len(stored) - len(answer["events"]):]
        assert mine and mine[-1].version == answer["version"]
        fresh = event_rows(fold, mine, False, {})
        assert json.dumps(answer["events"]) == json.dumps(fresh)
        shown = {row["version"]: row for row in answer["table"]["events"]}
        assert answer["events"] == [shown[row["version"]] for row in fresh]


def test_every_event_records_the_actor_and_the_device(dealer: Client, recorder: Any) -> None:
    """Who recorded (name, as dealer) and on which tablet is on every stored event."""
    dealer.ok(STREAM, {"type": "start_hand"})
    dealer.ok(STREAM, {"type": "fold", "player": 2})
    mine = recorder.store.read(STREAM)[5:]
    assert mine and {(e.actor, e.device) for e in mine} == {("Dana", "tablet-A")}
    assert dealer.table(STREAM)["events"][0]["device"] == "tablet-A"


def test_side_pot_and_split_pot_at_showdown(dealer: Client) -> None:
    """Showdown order (TDA 16) and the engine's proposed award per pot, then the push."""
    play_to_showdown(dealer)
    view = dealer.table(STREAM)
    assert view["hand"]["phase"] == "showdown"
    assert [p["amount"] for p in view["hand"]["pots"]] == [3000, 1000]
    showdown = view["hand"]["showdown"]
    assert showdown["order_seats"] == [3, 5, 1]
    assert showdown["proposed"] is None and showdown["pending"]["rule"] == "tda-16"
    dealer.ok(STREAM, {"type": "show_cards", "player": 0, "cards": "JhTh"})
    dealer.ok(STREAM, {"type": "show_cards", "player": 1, "cards": "JcTc"})
    view = dealer.ok(STREAM, {"type": "show_cards", "player": 2, "cards": "4d5d"})["table"]
    proposed = view["hand"]["showdown"]["proposed"]
    assert [(a["amount"], a["winner_seats"], a["shares"]) for a in proposed] == [
        (3000, [3, 5], [1500, 1500]), (1000, [3, 5], [500, 500])]
    assert proposed[0]["hand_name"] == "Straight, ace high"
    view = dealer.ok(STREAM, {"type": "award_pots"})["table"]
    assert not view["hand_in_progress"]
    assert {s["player"]: s["stack"] for s in view["seats"] if s["player"]} == {
        "Ann": 0, "Bob": 3500, "Cy": 3500}


def test_undo_is_recorded_as_a_correction(dealer: Client, recorder: Any) -> None:
    """The mis-tap stays in the log, voided; the table is as before it."""
    dealer.ok(STREAM, {"type": "start_hand"})
    folded = dealer.ok(STREAM, {"type": "fold", "player": 2})["version"]
    view = dealer.ok(STREAM, {"type": "undo"})["table"]
    assert view["hand"]["legal"]["name"] == "Ann"
    assert view["events"][0]["correction"] and view["events"][0]["text"] == (
        f"correction: #{folded} voided (dealer undo)")
    assert next(e for e in view["events"] if e["version"] == folded)["voided"]
    assert recorder.store.read(STREAM)[folded - 1].type == "player_folded"


def test_bad_requests_come_back_as_json_with_a_rule(dealer: Client) -> None:
    response = dealer.send(STREAM, {"type": "bet_raise", "player": 2})
    assert response.status_code == 422 and response.json()["rule"] == "request"
    assert response.json()["field"] == "command.to"
    response = dealer.send(STREAM, {"type": "no_such_thing"})
    assert response.status_code == 422
    not_json = dealer.http.post(f"/api/tables/{STREAM}/commands", content=b"{", headers={
        "content-type": "application/json", CSRF_HEADER: dealer.csrf})
    assert not_json.status_code == 400 and not_json.json()["rule"] == "request"
    dealer.ok(STREAM, {"type": "start_hand"})
    dealer.ok(STREAM, {"type": "check_call", "player": 2})
    dealer.ok(STREAM, {"type": "check_call", "player": 0})
    dealer.ok(STREAM, {"type": "check_call", "player": 1})
    response = dealer.send(STREAM, {"type": "deal_board", "cards": "AhKhZz"})
    assert response.status_code == 422 and response.json()["rule"] == "cards"
    assert dealer.http.get("/api/tables/table-9").status_code == 404
    assert dealer.http.get("/api/tables/bad%20name").status_code == 400


def test_start_hand_without_a_known_level_says_what_to_do(tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    with Client(app, auth) as client:
        client.login("dealer", STREAM)
        response = client.send(STREAM, {"type": "start_hand"})
    assert response.status_code == 422 and response.json()["rule"] == "level"


COMMAND_EXAMPLES: list[tuple[dict[str, Any], object]] = [
    ({"type": "fold", "player": 1}, hand_commands.Fold(1)),
    ({"type": "check_call", "player": 0}, hand_commands.CheckCall(0)),
    ({"type": "bet_raise", "player": 2, "to": 600}, hand_commands.BetRaise(2, 600)),
    ({"type": "deal_hole", "player": 1}, hand_commands.DealHole(1, None)),
    ({"type": "deal_hole", "player": 1, "cards": ["As", "Kd"]},
     hand_commands.DealHole(1, parse_cards("AsKd"))),
    ({"type": "deal_board", "cards": "AhKhQd"}, hand_commands.DealBoard(parse_cards("AhKhQd"))),
    ({"type": "show_cards", "player": 0, "cards": "JhTh"},
     hand_commands.ShowCards(0, parse_cards("JhTh"))),
    ({"type": "muck_cards", "player": 0}, hand_commands.MuckCards(0)),
    ({"type": "award_pots"}, hand_commands.AwardPots()),
    ({"type": "award_pots", "winners": [[0, 1]], "ruling": "TDA 1"},
     hand_commands.AwardPots(((0, 1),), "TDA 1")),
    ({"type": "declare_misdeal", "reason": "two cards exposed"},
     hand_commands.DeclareMisdeal("two cards exposed")),
    ({"type": "expose_card", "player": 1, "card": "9h", "in_deal": False},
     hand_commands.ExposeCard(1, parse_cards("9h")[0], False)),
    ({"type": "expose_board_early", "cards": "5s"},
     hand_commands.ExposeBoardEarly(parse_cards("5s"))),
    ({"type": "kill_hand", "player": 1, "reason": "foul", "rule": "TDA 66"},
     hand_commands.KillHand(1, "foul", "TDA 66")),
    ({"type": "expire_clock", "player": 1}, hand_commands.ExpireClock(1)),
    ({"type": "expire_clock", "player": 1, "seconds": 31}, hand_commands.ExpireClock(1, 31)),
    ({"type": "act_out_of_turn", "player": 2, "action": "raise", "to": 400},
     hand_commands.ActOutOfTurn(2, "raise", 400)),
    ({"type": "push_chips", "player": 1, "motions": [[500, 500], [100]], "said": "nothing"},
     hand_commands.PushChips(1, (500, 500, 100), (2, 1))),
    ({"type": "push_chips", "player": 1, "motions": [[500]], "said": "raise_to",
      "said_to": 1500, "bounty_chip": True},
     hand_commands.PushChips(1, (500,), (), "raise_to", 1500, True)),
    ({"type": "mark_absent", "player": 1}, hand_commands.MarkAbsent(1)),
    ({"type": "mark_returned", "player": 1}, hand_commands.MarkReturned(1)),
    ({"type": "void_hand", "reason": "foreign card"}, hand_commands.VoidHand("foreign card")),
    ({"type": "open_table", "table": "2", "seat_count": 9, "profile": "bse"},
     OpenTable("2", 9, "bse")),
    ({"type": "seat_player", "seat": 2, "player": "Dee", "stack": 5000},
     SeatPlayer(2, "Dee", 5000)),
    ({"type": "remove_player", "seat": 2, "reason": "moved"}, RemovePlayer(2, "moved")),
    ({"type": "place_button", "seat": 4}, PlaceButton(4)),
    ({"type": "adjust_stack", "seat": 2, "amount": -25, "reason": "color-up", "rule": "TDA 24"},
     AdjustStack(2, -25, "color-up", "TDA 24")),
    ({"type": "set_absence", "seat": 3, "absent": True}, SetAbsence(3, True)),
    ({"type": "start_hand"}, StartHand(LEVEL)),
    ({"type": "start_hand", "level": {"small_blind": 100, "big_blind": 200}},
     StartHand(type(LEVEL)(100, 200))),
    ({"type": "undo"}, Undo()),
    ({"type": "void_events", "versions": [7, 8], "reason": "wrong seat", "rule": "TDA 1"},
     VoidEvents((7, 8), "wrong seat", "TDA 1")),
    ({"type": "amend_amount", "version": 9, "to": 400, "reason": "keyed 300", "rule": "TDA 1"},
     AmendAmount(9, 400, "keyed 300", "TDA 1")),
]


@pytest.mark.parametrize(("data", "expected"), COMMAND_EXAMPLES,
                         ids=[f"{d['type']}-{i}" for i, (d, _) in enumerate(COMMAND_EXAMPLES)])
def test_command_json_maps_to_the_command_dataclass(data: dict[str, Any],
                                                    expected: object) -> None:
    """The one mapping from command JSON to the engine's commands (a start_hand without a
    level plays at the level the table is given)."""
    command = command_json.COMMAND.validate_python(data)
    assert at_level(command, LEVEL) == expected


def test_every_command_type_has_an_example_and_a_role() -> None:
    """A new command type cannot be added without deciding who may send it."""
    types = {d["type"] for d, _ in COMMAND_EXAMPLES}
    assert types == set(command_json.DIRECTOR_COMMANDS)
    assert command_json.DEALER_COMMANDS < command_json.DIRECTOR_COMMANDS


def test_every_engine_command_has_its_json_tag() -> None:
    """The HTTP layer validates the engine's own command classes: each one a tablet or the
    floor sends has a JSON tag (the corrections the recorder makes itself have none)."""
    from typing import get_args

    from handlog.engine.table_commands import AmendEvent, CarryToPot, TableCommand

    sent = set(get_args(TableCommand)) - {AmendEvent, CarryToPot}
    assert set(command_json.TAGS.values()) == sent


def test_openapi_describes_the_commands(director: Client) -> None:
    schema = director.http.get("/openapi.json").json()
    assert "/api/tables/{stream}/commands" in schema["paths"]
    text = json.dumps(schema)
    for name in ("bet_raise", "expected_version", "event_id", "award_pots"):
        assert name in text
    assert director.http.get("/docs").status_code == 404  # no page that pulls a CDN


def test_pages_are_served_without_a_cdn(director: Client) -> None:
    for path in ("/floor", "/dealer/table-1", "/view/table-1", "/view", "/join"):
        response = director.http.get(path)
        assert response.status_code == 200
        assert "http://" not in response.text and "https://" not in response.text
        assert "default-src 'self'" in response.headers["content-security-policy"]
    static = Path(__file__).resolve().parent.parent / "recorder" / "static"
    names = [p.relative_to(static).as_posix() for p in sorted(static.rglob("*"))
             if p.suffix in (".js", ".css", ".html") and "vendor" not in p.parts]
    assert "dealer/main.js" in names and "dealer/outbox.js" in names
    for name in names:
        text = director.http.get(f"/static/{name}").text
        assert not re.search(r"https?://", text), name


def _sse_states(response: httpx.Response, count: int, into: list[tuple[float, Any]]) -> None:
    event = ""
    for line in response.iter_lines():
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event in ("state", "changes"):  # (the floor)
            into.append((time.monotonic(), json.loads(line[5:])))
            if len(into) >= count:
                return


@pytest.mark.parametrize("path", ["/api/tables/table-1/events", "/api/floor/events"])
def test_other_screens_hear_of_an_append_pushed_not_polled(recorder: Any, path: str) -> None:
    """Server-sent events: the state now, then the new state right after an append: pushed
    by the recorder's notice (well inside the 30-second poll this app is given; on an idle
    machine it takes milliseconds: benchmarks/tablet_latency.py measures the screens)."""
    app, auth = make_app(recorder, poll_seconds=30)  # the recorder's notice, not the poller
    with serve_in_thread(app) as base, httpx.Client(base_url=base, timeout=10) as http:
        http.post("/api/session", json={"role": "viewer"})
        states: list[tuple[float, Any]] = []
        with http.stream("GET", path) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            reader = threading.Thread(target=_sse_states, args=(response, 2, states))
            reader.start()
            deadline = time.monotonic() + 5
            while not states and time.monotonic() < deadline:
                time.sleep(0.01)
            appended = time.monotonic()
            record(recorder, STREAM, StartHand(LEVEL))
            reader.join(timeout=5)
        assert len(states) == 2
        assert states[1][0] - appended < 5.0
        after = states[1][1]
        if path.startswith("/api/tables"):
            assert after["hand"]["phase"] == "betting"
        else:
            assert after["tables"][0]["hand"]["number"] == 1


def test_appends_by_another_process_reach_the_screens_through_the_poller(
        recorder: Any, tmp_path: Path) -> None:
    """A command recorded by another Recorder on the same file still updates the screens."""
    app, auth = make_app(recorder, poll_seconds=0.2)
    other = make_recorder(tmp_path)
    with serve_in_thread(app) as base, httpx.Client(base_url=base, timeout=10) as http:
        http.post("/api/session", json={"role": "viewer"})
        states: list[tuple[float, Any]] = []
        with http.stream("GET", "/api/tables/table-1/events") as response:
            reader = threading.Thread(target=_sse_states, args=(response, 2, states))
            reader.start()
            while not states:
                time.sleep(0.01)
            record(other, STREAM, StartHand(LEVEL))
            reader.join(timeout=5)
        assert len(states) == 2 and states[1][1]["hand_in_progress"]
    other.store.close()


def test_serve_upgrades_the_database_and_prints_the_pages_and_pins(tmp_path: Path) -> None:
    """`handlog serve` on an empty database: a demo, the URLs, the director and dealer PINs."""
    port = free_port()
    db = tmp_path / "serve.db"
    env = dict(os.environ, HANDLOG_DIRECTOR_PIN="97531")
    process = subprocess.Popen(
        [sys.executable, "-m", "handlog.recorder.cli", "serve", "--db", str(db),
         "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip())
            if line.startswith("dealer page:"):
                break
        text = "\n".join(lines)
        assert f"http://localhost:{port}/floor" in text, text
        assert f"http://localhost:{port}/view" in text
        assert "director PIN: 97531" in text
        dealer = re.search(r"dealer page:\s+(\S+)\s+PIN (\d{10})\b", text)
        assert dealer, text
        stream = dealer.group(1).rsplit("/", 1)[1]
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            for _ in range(100):
                try:
                    if http.get("/floor").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            login = http.post("/api/session", json={
                "role": "dealer", "table": stream, "pin": dealer.group(2)})
            assert login.status_code == 200, login.text
            view = http.get(f"/api/tables/{stream}").json()
            assert view["open"] and sum(1 for s in view["seats"] if s["player"]) >= 2
            assert view["next_hand"]["ready"], view["next_hand"]
            start = http.post(f"/api/tables/{stream}/commands", headers={
                "X-CSRF-Token": login.json()["csrf"]}, json={
                "event_id": str(uuid.uuid4()), "expected_version": view["version"],
                "command": {"type": "start_hand"}})
            assert start.status_code == 200, start.text
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_serve_is_a_handlog_command() -> None:
    from handlog.recorder.commands import all_groups

    assert "serve" in {command.name for command in all_groups()}


def _tournament_client(tmp_path: Path, players: int, tables: int) -> tuple[Any, str, Client]:
    from handlog.recorder.floor import setup_demo

    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=players, tables=tables, seed=9)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    client = Client(app, auth)
    client.__enter__()
    client.login("director")
    return recorder, tournament, client


def _floor_command(client: Client, tournament: str, command: dict[str, Any]) -> Any:
    return client.http.post(f"/api/tournaments/{tournament}/commands",
                            headers={"X-CSRF-Token": client.csrf}, json={"command": command})


def test_a_bust_at_a_tournament_table_is_an_elimination_with_its_place(tmp_path: Path) -> None:
    """Heads-up: the pot push that leaves a player without chips eliminates him (place 2),
    the tournament has its winner and pays its prizes; the floor shows it all."""
    recorder, tournament, director = _tournament_client(tmp_path, players=2, tables=1)
    stream = f"table-{tournament}-1"
    view = director.ok(stream, {"type": "start_hand"})["table"]
    assert view["level"]["big_blind"] == 50  # the tournament's stakes, not a default
    names = {s["position"]: s["player"] for s in view["seats"] if s["player"]}
    first = view["hand"]["legal"]["player"]
    director.ok(stream, {"type": "bet_raise", "player": first, "to": view["hand"]["legal"][
        "max_to"]})
    director.ok(stream, {"type": "check_call", "player": 1 - first})
    for cards in ("2c7d9h", "Js", "3s"):
        director.ok(stream, {"type": "deal_board", "cards": cards})
    director.ok(stream, {"type": "show_cards", "player": 0, "cards": "AhAd"})
    director.ok(stream, {"type": "show_cards", "player": 1, "cards": "KhKd"})
    body = director.ok(stream, {"type": "award_pots"})
    loser = names[1]
    assert len(body["eliminated"]) == 1
    assert [s["player"] for s in body["table"]["seats"] if s["player"]] == [names[0]]
    floor = director.http.get("/api/floor").json()["tournaments"][0]
    assert floor["finished"] and floor["winner"] == names[0]
    assert [(e["place"], e["name"]) for e in floor["eliminations"]] == [(2, loser)]
    assert [p["place"] for p in floor["prizes"]] == [1, 2]
    assert director.send(stream, {"type": "start_hand"}).json()["rule"] == "tournament"
    director.__exit__(None, None, None)
    recorder.store.close()


def test_the_floor_runs_registration_moves_levels_breaks_color_ups_and_rulings(
        tmp_path: Path) -> None:
    recorder, tournament, director = _tournament_client(tmp_path, players=6, tables=2)
    ok = lambda command: _floor_command(director, tournament, command)  # noqa: E731
    response = ok({"type": "register", "name": "Zelda"})
    assert response.status_code == 200, response.text
    t = response.json()["tournament"]
    assert t["entries"] == 7 and any(p["name"] == "Zelda"
                                     for p in t["lists"]["players"]["changed"])
    mover = next(p for p in director.http.get("/api/floor").json()["tournaments"][0][
        "players"] if p["table"] == "1")
    t = ok({"type": "move", "player": mover["player"], "to_table": "2",
            "reason": "floor move"}).json()["tournament"]
    assert t["moves"][0]["name"] == mover["name"] and t["moves"][0]["to_table"] == "2"
    t = ok({"type": "ruling", "rule": "TDA 45", "text": "verbal raise binding",
            "stream": f"table-{tournament}-1"}).json()["tournament"]
    assert t["rulings"][0]["rule"] == "TDA 45: methods of betting: verbal and chips"
    for _ in range(3):
        assert ok({"type": "start_level"}).status_code == 200
    blocked = ok({"type": "start_level"})
    assert blocked.status_code == 422 and blocked.json()["rule"] == "schedule"
    assert "do the break after level 4" in blocked.json()["legal"]
    for table in ("1", "2"):  # a hand with antes at each table: odd chips for the race
        stream = f"table-{tournament}-{table}"
        hand = director.ok(stream, {"type": "start_hand"})["table"]["hand"]
        while hand["legal"]:
            hand = director.ok(stream, {"type": "fold", "player": hand["legal"]["player"]})[
                "table"]["hand"]
        director.ok(stream, {"type": "award_pots"})
    t = ok({"type": "start_break"}).json()["tournament"]
    assert t["on_break"] and t["clock"]["kind"] == "break" and t["clock"]["minutes"] == 5
    stream = f"table-{tournament}-1"
    assert director.send(stream, {"type": "start_hand"}).json()["rule"] == "schedule"
    ok({"type": "end_break"})
    response = ok({"type": "color_up"})
    assert response.status_code == 200, response.text
    t = response.json()["tournament"]
    assert t["color_ups"][0]["colours"] == ["white"] and t["chip_unit"] == 100
    t = ok({"type": "start_level"}).json()["tournament"]
    assert t["level"] == 5 and t["stakes"]["big_blind"] == 400
    assert director.ok(stream, {"type": "start_hand"})["table"]["hand"]["chip_unit"] == 100
    director.__exit__(None, None, None)
    recorder.store.close()


def test_chips_carried_into_the_next_pot_show_on_the_tablet_then_in_the_pot(
        recorder: Any) -> None:
    """Octobermuck's odd chips from a color-up: the tablet shows them waiting between hands,
    then in the next hand's pot; a carry out of more than the table holds is refused."""
    record(recorder, STREAM, CarryToPot(25, "odd chips of the color-up, changed up"))
    with pytest.raises(RuleViolation, match="carries 25 into its next pot"):
        record(recorder, STREAM, CarryToPot(-50, "to table 2", other_table="2"))
    app, auth = make_app(recorder)
    with Client(app, auth) as dealer:
        dealer.login("dealer", STREAM)
        assert dealer.table(STREAM)["carry"] == 25
        (card,) = [t for t in dealer.http.get("/api/floor").json()["tables"]
                   if t["stream"] == STREAM]
        assert card["carry"] == 25  # the floor sees it too
        assert dealer.send(STREAM, {"type": "start_hand"}).status_code == 200
        view = dealer.table(STREAM)
        assert view["hand"]["pot_total"] == 25 + 50 + 100  # the carry and the blinds
        assert view["carry"] == 25  # until the hand is won


def test_the_director_amends_a_raise_keyed_wrong(recorder: Any, director: Client) -> None:
    """'The dealer keyed 300; 400 was raised': the director amends the amount (the engine
    decides the raise as at that moment); later entries follow the new amount where they still
    fit (a call is amended with it), and an amendment that makes a later entry impossible is
    refused naming it; only bets and raises have amounts to amend; a dealer may not amend."""
    director.ok(STREAM, {"type": "start_hand"})
    raised = director.ok(STREAM, {"type": "bet_raise", "player": 2, "to": 300})["version"]
    why = {"reason": "the dealer keyed 300; 400 was raised", "rule": "TDA 2024 Rule 1"}
    body = director.ok(STREAM, {"type": "amend_amount", "version": raised, "to": 400} | why)
    assert body["events"][0]["type"] == "event_amended"
    hand = body["table"]["hand"]
    assert hand["current_bet"] == 400 and hand["legal"]["call"] == 350  # Bob, small blind
    director.ok(STREAM, {"type": "check_call", "player": 0})  # Bob calls 400
    reraised = director.ok(STREAM, {"type": "bet_raise", "player": 1, "to": 1200})["version"]
    # Amended again to 500: Bob's call follows the new amount (one step, his call amended
    # too); Cy's re-raise to 1,200 is still a full raise.
    again = director.ok(STREAM, {"type": "amend_amount", "version": raised, "to": 500} | why)
    assert [e["type"] for e in again["events"]] == ["event_amended", "event_amended"]
    hand = again["table"]["hand"]
    assert hand["current_bet"] == 1200 and hand["pot_total"] == 500 + 500 + 1200
    # To 800, Cy's 1,200 is a raise of 400, short of the full 700: refused, naming it.
    later = director.send(STREAM, {"type": "amend_amount", "version": raised, "to": 800} | why)
    assert later.status_code == 422
    assert f"entry at version {reraised} (raise_made) no longer fits" in \
        later.json()["message"]
    assert later.json()["legal"][0] == "void that entry too"
    post = director.send(STREAM, {"type": "amend_amount", "version": raised - 1, "to": 200}
                         | why)
    assert post.status_code == 422 and "only their amounts" in post.json()["message"]
    app, auth = make_app(recorder)
    with Client(app, auth) as dealer:
        dealer.login("dealer", STREAM)
        refused = dealer.send(STREAM, {"type": "amend_amount", "version": raised, "to": 400}
                              | why)
        assert refused.status_code == 403
    assert replay_log(recorder.store).findings == []
