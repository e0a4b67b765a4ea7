"""Checkpoints within a bounded delay: at once after a ruling, correction, award, deal or
payout; within the room's delay after any other append; `handlog demo` signs as `serve`
does, so its last event is covered; a signed time that runs backwards is a finding."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner, Result
from conftest_store import new_events

from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.signing import sign_checkpoints
from handlog.recorder.tournament_service import Tournaments
from handlog.schema.checkpoint import (
    SigningKey,
    latest_checkpoint,
    record_checkpoint,
    stored_checkpoints,
)
from handlog.schema.store import open_store, upgrade_database

ROOM = SigningKey("casino.example/poker-room", bytes(range(32)))
DIRECTOR = Actor("director", "director")


def handlog(*arguments: str) -> Result:
    from handlog.recorder.cli import cli

    return CliRunner().invoke(cli, list(arguments), catch_exceptions=False)


def test_a_ruling_is_covered_by_a_checkpoint_at_once(db_url: str) -> None:
    upgrade_database(db_url)
    with open_store(db_url) as store:
        recorder = Recorder(store)
        signer = sign_checkpoints(recorder, store, ROOM, delay=3600)
        summary = run_demo(recorder, players=6, tables=1, seed=3, hands=4)
        Tournaments(recorder).ruling(summary.tournament, "tda-1", "chips counted", DIRECTOR)
        latest = latest_checkpoint(store)
        assert latest is not None and latest.reason == "ruling_recorded"
        assert latest.checkpoint.size == store.tree_head().size
        signer.close()


def test_a_ruling_whose_checkpoint_cannot_be_signed_now_is_recorded_and_signed_later(
        sqlite_url: str) -> None:
    """The signer fails right after a ruling is appended (a full disk for the checkpoint's
    row, a key file gone): the ruling is answered as recorded, not as an error, and the tail
    is left to the room's delay."""
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        recorder = Recorder(store)
        summary = run_demo(recorder, players=6, tables=1, seed=3, hands=2)
        left: list[str] = []

        def failing(reason: str) -> None:
            raise OSError(f"cannot write the checkpoint after {reason}")

        recorder.checkpoint = failing
        recorder.unsigned = lambda: left.append("unsigned")
        before = store.tree_head().size
        Tournaments(recorder).ruling(summary.tournament, "tda-1", "chips counted", DIRECTOR)
        assert store.tree_head().size == before + 1 and left == ["unsigned"]


def test_any_other_append_is_covered_within_the_delay(sqlite_url: str) -> None:
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        recorder = Recorder(store)
        signer = sign_checkpoints(recorder, store, ROOM, delay=0.05)
        store.append("table-1", 0, new_events(3))
        assert recorder.unsigned is not None
        recorder.unsigned()
        deadline = time.monotonic() + 30
        while latest_checkpoint(store) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        latest = latest_checkpoint(store)
        assert latest is not None and latest.reason == "delay_elapsed"
        assert latest.checkpoint.size == 3
        signer.close()


def test_demo_leaves_its_last_event_covered_and_verify_says_clean(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    result = handlog("demo", "--db", str(db), "--players", "6", "--tables", "1", "--hands", "5")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "handlog.signing-key").exists()
    key = tmp_path / "room.pub"
    key.write_text(handlog("log", "key", "--signing-key",
                           str(tmp_path / "handlog.signing-key")).output)
    verified = handlog("log", "verify", "--db", str(db), "--key", str(key))
    assert verified.exit_code == 0, verified.output
    assert verified.output.splitlines()[-1].startswith("CLEAN: all ")


def test_a_signed_time_that_runs_backwards_is_a_finding(sqlite_url: str, tmp_path: Path) -> None:
    upgrade_database(sqlite_url)
    now = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    with open_store(sqlite_url) as store:
        store.append("table-1", 0, new_events(2))
        record_checkpoint(store, ROOM, "on_demand", now=now)
        store.append("table-1", 2, new_events(2, start=3))
        record_checkpoint(store, ROOM, "on_demand", now=now - timedelta(hours=1))
        assert [c.checkpoint.signed_at for c in stored_checkpoints(store)] == [
            now, now - timedelta(hours=1)]
    key = tmp_path / "room.pub"
    key.write_text(ROOM.verifier.text())
    result = handlog("log", "verify", "--db", sqlite_url, "--key", str(key))
    assert result.exit_code == 1
    assert "BREAK signed time runs backwards 2: checkpoint 2 of size 4 was signed at " \
        "2026-12-02T11:00:00Z, before checkpoint 1 of size 2 (2026-12-02T12:00:00Z)" \
        in result.output
    assert "checkpoint 1 (size 2): signed at 2026-12-02T12:00:00Z" in result.output


def test_a_ruling_recorded_through_the_api_is_covered_at_once(tmp_path: Path) -> None:
    """The director's ruling posted to the floor API, on a server that signs as `serve`
    does: a checkpoint of the whole log is there when the answer comes back."""
    from web_support import Client, make_app, make_recorder

    from handlog.recorder.floor import setup_demo

    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=4, tables=1, seed=9)
    signer = sign_checkpoints(recorder, recorder.store, ROOM, delay=3600)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    client = Client(app, auth)
    client.__enter__()
    try:
        assert client.login("director").status_code == 200
        response = client.http.post(
            f"/api/tournaments/{tournament}/commands", headers={"X-CSRF-Token": client.csrf},
            json={"command": {"type": "ruling", "rule": "TDA 45",
                              "text": "verbal raise binding"}})
        assert response.status_code == 200, response.text
        latest = latest_checkpoint(recorder.store)
        assert latest is not None and latest.reason == "ruling_recorded"
        assert latest.checkpoint.size == recorder.store.tree_head().size
    finally:
        signer.close()
        client.__exit__(None, None, None)
        recorder.store.close()
