"""The floor's commands over HTTP are safe to retry, like a tablet's: each carries the event id
the floor page made for the click (and the tournament's version it saw). A retry after a lost
answer records nothing twice, even for a command that was only partly written; the same id
with a different command, or a stale version, gets a 409 that says what to do. On SQLite and
PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from web_support import Client, make_app

from handlog.recorder.floor import setup_demo
from handlog.recorder.service import Recorder
from handlog.schema.errors import DatabaseError
from handlog.schema.store import open_store

Site = tuple[Recorder, str, Client]


@pytest.fixture
def site(db_url: str) -> Iterator[Site]:
    """A demo tournament (10 players on tables 1 and 2, level 1 running) and a director."""
    recorder = Recorder(open_store(db_url, upgrade=True))
    tournament = setup_demo(recorder, players=10, tables=2, seed=5)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        yield recorder, tournament, client
    recorder.store.close()


def post(client: Client, tournament: str, command: dict[str, Any], event_id: str | None = None,
         expected_version: int | None = None) -> Any:
    body: dict[str, Any] = {"command": command}
    if event_id is not None:
        body["event_id"] = event_id
    if expected_version is not None:
        body["expected_version"] = expected_version
    return client.http.post(f"/api/tournaments/{tournament}/commands",
                            headers={"X-CSRF-Token": client.csrf}, json=body)


def shown(client: Client, tournament: str) -> dict[str, Any]:
    """The tournament as the floor view shows it now."""
    views = client.http.get("/api/floor").json()["tournaments"]
    view: dict[str, Any] = next(t for t in views if t["id"] == tournament)
    return view


def heads(recorder: Recorder) -> dict[str, int]:
    """Every stream's version: what a retry must leave as it is."""
    return {h.stream_id: h.version for h in recorder.store.streams()}


def moved_player(client: Client, tournament: str) -> tuple[str, str]:
    """A player at table 1 and the table he can move to."""
    view = shown(client, tournament)
    player = next(p for p in view["players"] if p["table"] == "1")
    return player["player"], "2"


COMMANDS = {
    "start level": lambda _c, _t: {"type": "start_level"},
    "register": lambda _c, _t: {"type": "register", "name": "Zelda"},
    "ruling": lambda _c, _t: {"type": "ruling", "rule": "TDA 45", "text": "verbal raise binding",
                              "stream": "", "version": 0},
    "move": lambda c, t: dict(zip(("player", "to_table"), moved_player(c, t), strict=True))
    | {"type": "move", "reason": "floor move"},
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_floor_command_sent_twice_with_the_same_event_id_is_recorded_once(
        site: Site, name: str) -> None:
    """The answer to the first send is lost; the page sends again with the same id and the
    version it saw: 200 with `retried`, the same floor, not one event more in any stream."""
    recorder, tournament, client = site
    command = COMMANDS[name](client, tournament)
    event_id = str(uuid.uuid4())
    version = shown(client, tournament)["version"]
    first = post(client, tournament, command, event_id, version)
    assert first.status_code == 200, first.text
    after_first = heads(recorder)
    again = post(client, tournament, command, event_id, version)
    assert again.status_code == 200, again.text
    assert (first.json()["retried"], again.json()["retried"]) == (False, True)
    # The answer is what the command changed: a retry changes nothing.
    assert again.json()["tournament"]["version"] == first.json()["tournament"]["version"]
    assert set(again.json()["tournament"]) <= {"id", "version", "base", "now", "round"}
    assert again.json()["tables"] == []
    assert heads(recorder) == after_first
    stream = f"tournament-{tournament}"
    mine = [e for e in recorder.store.read(stream) if e.event_id == uuid.UUID(event_id)]
    assert len(mine) == 1 and mine[0].version == version + 1


def test_a_move_cut_off_by_the_database_leaves_nothing_and_its_retry_records_it_whole(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move, the player leaving table 1 and his seat at table 2 are one transaction: the
    database going away leaves none of them; the retry (same id) records all three once."""
    recorder, tournament, client = site
    player, target = moved_player(client, tournament)
    target_stream = f"table-{tournament}-{target}"
    before = heads(recorder)

    def failing(self: Any, *_args: Any, **_kwargs: Any) -> Any:
        raise DatabaseError("the database went away")

    command = {"type": "move", "player": player, "to_table": target, "reason": "floor move"}
    event_id = str(uuid.uuid4())
    with monkeypatch.context() as patch:
        patch.setattr(type(recorder.store), "append_many", failing)
        cut = post(client, tournament, command, event_id)
    assert cut.status_code == 500
    assert heads(recorder) == before
    assert [p["table"] for p in shown(client, tournament)["players"]
            if p["player"] == player] == ["1"]
    retry = post(client, tournament, command, event_id)
    assert retry.status_code == 200, retry.text
    assert retry.json()["retried"] is False
    again = post(client, tournament, command, event_id)
    assert again.status_code == 200 and again.json()["retried"] is True

    def events(stream: str, kind: str) -> list[Any]:
        return [e for e in recorder.store.read(stream) if e.type == kind
                and e.payload.get("player") == player and e.version > 1]

    assert len(events(f"tournament-{tournament}", "player_moved")) == 1
    assert len(events(f"table-{tournament}-1", "player_left")) == 1
    assert len(events(target_stream, "player_seated")) == 1
    name = next(p["name"] for p in shown(client, tournament)["players"] if p["player"] == player)
    assert [s["seat"] for s in client.table(target_stream)["seats"] if s["player"] == name] == [
        events(target_stream, "player_seated")[0].payload["seat"]]


def test_the_same_event_id_with_a_different_command_is_refused_naming_what_differs(
        site: Site) -> None:
    """An id is one command: sent with another text, or for another command, it gets a 409
    naming the field, and nothing is recorded."""
    recorder, tournament, client = site
    event_id = str(uuid.uuid4())
    ruling = {"type": "ruling", "rule": "TDA 45", "text": "verbal raise binding"}
    assert post(client, tournament, ruling, event_id).status_code == 200
    before = heads(recorder)
    changed = post(client, tournament, ruling | {"text": "string bet"}, event_id)
    assert changed.status_code == 409
    body = changed.json()
    assert body["rule"] == "event-id" and body["legal"] == ["make a new event id"]
    assert event_id in body["message"]
    assert "its text is 'verbal raise binding', this command's is 'string bet'" in body["message"]
    other = post(client, tournament, {"type": "start_level"}, event_id)
    assert other.status_code == 409 and other.json()["rule"] == "event-id"
    assert "'ruling_recorded'" in other.json()["message"]
    assert "'level_started'" in other.json()["message"]
    assert heads(recorder) == before


def test_a_stale_expected_version_gets_409_saying_what_to_do(site: Site) -> None:
    """Two directors both see level 1 and both press "Start level 2": the second gets a 409
    (check the floor, send again if it still holds) and level 3 is not started."""
    recorder, tournament, client = site
    seen = shown(client, tournament)["version"]
    first = post(client, tournament, {"type": "start_level"}, str(uuid.uuid4()), seen)
    assert first.status_code == 200
    stale = post(client, tournament, {"type": "start_level"}, str(uuid.uuid4()), seen)
    assert stale.status_code == 409
    body = stale.json()
    assert (body["rule"], body["expected"], body["actual"]) == ("stale-version", seen, seen + 1)
    assert body["stream"] == f"tournament-{tournament}" and body["resend"] is False
    assert "someone recorded first" in body["message"]
    assert "Check the floor as it is now and send the command again" in body["message"]
    assert body["floor"]["tournaments"][0]["level"] == 2
    assert shown(client, tournament)["level"] == 2
    assert recorder.store.head(f"tournament-{tournament}").version == seen + 1  # type: ignore[union-attr]
