"""The level clock: pause, resume and added time are events; the floor shows the time left, the
next level and the next break."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from test_tournament import example, started
from web_support import Client, apply_changes, make_app, make_recorder

from handlog.engine.clock import add_time, pause_clock, resume_clock
from handlog.engine.errors import RuleViolation
from handlog.recorder.floor import setup_demo


def test_the_clock_pauses_resumes_and_takes_added_time() -> None:
    log = started(example("tda-demo"), 4, tables=("A",))
    log.add(pause_clock(log.state, 300, "dispute"))
    assert log.state.clock_paused and log.state.clock_left == 300
    with pytest.raises(RuleViolation, match="already paused"):
        pause_clock(log.state, 10)
    log.add(add_time(log.state, 60))
    resumed = resume_clock(log.state)
    assert resumed.seconds_left == 360
    log.add(resumed)
    with pytest.raises(RuleViolation, match="is running"):
        resume_clock(log.state)
    with pytest.raises(RuleViolation):
        add_time(log.state, 0)


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def test_the_floor_pauses_the_clock_adds_a_minute_and_resumes(tmp_path: Path) -> None:
    """Paused 4 minutes into a 10-minute level, a minute added: 7 minutes left, still 7 when
    resumed later; the floor shows the next level and the next break."""
    recorder = make_recorder(tmp_path)
    clock = FakeClock()
    recorder.clock = clock
    tournament = setup_demo(recorder, players=6, tables=1, seed=2)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None, clock=clock)

    def send(client: Client, command: dict[str, Any]) -> dict[str, Any]:
        answer = client.http.post(f"/api/tournaments/{tournament}/commands",
                                  headers={"X-CSRF-Token": client.csrf},
                                  json={"command": command})
        assert answer.status_code == 200, answer.text
        # The answer is what changed, against the view of version `base`: applied to it, it
        # is the floor's view now.
        shown.update(apply_changes(shown, answer.json()["tournament"]))
        whole = client.http.get("/api/floor").json()["tournaments"][0]
        assert shown | {"now": 0} == whole | {"now": 0}
        return shown

    shown: dict[str, Any] = {}
    with Client(app, auth) as client:
        assert client.login("director").status_code == 200
        shown.update(client.http.get("/api/floor").json()["tournaments"][0])
        clock.now += timedelta(minutes=4)
        view = send(client, {"type": "clock", "action": "pause", "reason": "dispute"})
        assert view["clock"]["paused"] and view["clock"]["left_ms"] == 6 * 60_000
        view = send(client, {"type": "clock", "action": "add_time", "seconds": 60})
        assert view["clock"]["left_ms"] == 7 * 60_000
        clock.now += timedelta(minutes=30)
        view = send(client, {"type": "clock", "action": "resume"})
        assert not view["clock"]["paused"]
        assert view["clock"]["ends"] - int(clock.now.timestamp() * 1000) == 7 * 60_000
        assert view["upcoming"]["level"]["number"] == 2 and view["upcoming"]["break_after"]
    types = [e.type for e in recorder.store.read(f"tournament-{tournament}")]
    assert types[-3:] == ["clock_paused", "time_added", "clock_resumed"]
    recorder.store.close()
