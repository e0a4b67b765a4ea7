"""Checkpoints within a bounded delay: at once after a ruling, correction, award, deal or
payout (on the signer's own thread, within milliseconds: the tap does not wait for it);
within the room's delay after any other append; `handlog demo` signs as `serve`
does, so its last event is covered; a signed time that runs backwards is a finding."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest_store import covered, new_events

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
        assert covered(store).reason == "ruling_recorded"
        signer.close()


def test_at_most_one_checkpoint_an_interval_and_what_waits_is_signed_when_it_ends(
        sqlite_url: str) -> None:
    """Three rulings in a row: the first is signed at once, the other two wait for the end
    of the interval after it and share one checkpoint."""
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        recorder = Recorder(store)
        summary = run_demo(recorder, players=6, tables=1, seed=3, hands=2)
        signer = sign_checkpoints(recorder, store, ROOM, delay=3600, interval=3)
        rulings = Tournaments(recorder)
        rulings.ruling(summary.tournament, "tda-1", "chips counted", DIRECTOR)
        first = covered(store)
        rulings.ruling(summary.tournament, "tda-1", "clock called", DIRECTOR)
        rulings.ruling(summary.tournament, "tda-1", "deck changed", DIRECTOR)
        second = covered(store)
        signer.close()
        assert [c.number for c in stored_checkpoints(store)] == [first.number, second.number]
        assert second.reason == "ruling_recorded"
        assert (second.created_at - first.created_at).total_seconds() >= 3


def test_a_tap_never_waits_for_the_signature_and_piled_up_requests_share_one(
        db_url: str) -> None:
    """The signer is held inside its first checkpoint (its witnesses' hand-off blocked):
    the rulings after it are answered at once, and the three asked for meanwhile are covered
    by one checkpoint when it is free again."""
    upgrade_database(db_url)
    with open_store(db_url) as store:
        recorder = Recorder(store)
        summary = run_demo(recorder, players=6, tables=1, seed=3, hands=2)
        release, held = threading.Event(), threading.Event()

        def hand_off(_taken: object) -> None:
            held.set()
            release.wait(30)

        signer = sign_checkpoints(recorder, store, ROOM, delay=3600, after=hand_off)
        tournaments = Tournaments(recorder)
        before = len(stored_checkpoints(store))
        try:
            started = time.monotonic()
            tournaments.ruling(summary.tournament, "tda-1", "chips counted", DIRECTOR)
            assert held.wait(10)
            for _ in range(3):
                tournaments.ruling(summary.tournament, "tda-1", "chips counted", DIRECTOR)
            elapsed = time.monotonic() - started
            assert len(stored_checkpoints(store)) == before + 1
        finally:
            release.set()
        assert elapsed < 10, f"the rulings waited {elapsed:.1f} s for the signer"
        assert covered(store).reason == "ruling_recorded"
        assert len(stored_checkpoints(store)) == before + 2
        signer.close()


def test_a_ruling_whose_checkpoint_cannot_be_signed_now_is_recorded_and_signed_later(
        sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The checkpoint's row cannot be written right after a ruling is appended (a full disk
    for that row, here a trigger that refuses it): the ruling is answered as recorded, and
    the checkpoint is tried again within the room's delay."""
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        recorder = Recorder(store)
        summary = run_demo(recorder, players=6, tables=1, seed=3, hands=2)
        with store.connection(write=True) as connection:
            connection.exec_driver_sql(
                "CREATE TRIGGER full_disk BEFORE INSERT ON log_checkpoints "
                "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        signer = sign_checkpoints(recorder, store, ROOM, delay=0.2)
        before = store.tree_head().size
        Tournaments(recorder).ruling(summary.tournament, "tda-1", "chips counted", DIRECTOR)
        assert store.tree_head().size == before + 1
        deadline = time.monotonic() + 10
        said = ""
        while "could not be signed now" not in said and time.monotonic() < deadline:
            said += capsys.readouterr().err
            time.sleep(0.01)
        assert "the checkpoint after ruling_recorded could not be signed now" in said
        with store.connection(write=True) as connection:
            connection.exec_driver_sql("DROP TRIGGER full_disk")
        assert covered(store).reason == "delay_elapsed"
        signer.close()


def test_any_other_append_is_covered_within_the_delay(sqlite_url: str) -> None:
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        recorder = Recorder(store)
        signer = sign_checkpoints(recorder, store, ROOM, delay=0.05)
        store.append("table-1", 0, new_events(3))
        signer.unsigned()
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
    does: a checkpoint of the whole log follows the answer within milliseconds (signed on
    the signer's own thread, without waiting for the delay)."""
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
        assert covered(recorder.store).reason == "ruling_recorded"
    finally:
        signer.close()
        client.__exit__(None, None, None)
        recorder.store.close()
