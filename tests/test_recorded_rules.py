"""Each hand records the rules that decided it (profile, parameter digest, handlog release);
replay re-decides it under them, and says so when it cannot rather than calling it tampering."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest
from click.testing import CliRunner

from handlog.engine import HANDLOG_VERSION, profiles
from handlog.engine import commands as hc
from handlog.engine import table_decide as deciding_module
from handlog.engine.events import HandKilled, HandStarted
from handlog.engine.hand import legal_actions
from handlog.engine.profiles import PROFILES, TDA, profile_digest
from handlog.engine.table import Level
from handlog.engine.table_commands import OpenTable, PlaceButton, SeatPlayer, StartHand
from handlog.engine.table_events import TableOpened
from handlog.recorder.cli import cli
from handlog.recorder.service import Actor, Recorder
from handlog.replay.fold import DIFFERS_UNDER_TODAYS_RULES, OTHER_RULES
from handlog.replay.verify import replay_log
from handlog.schema.store import EventStore

DEALER = Actor("dealer-1", "dealer", "tablet-1")
STREAM = "table-rules"
# An older release whose TDA profile killed an unbet hand when the clock ran out (today's
# checks it): a difference in one parameter, under the same profile name.
OLD_TDA = replace(TDA, clock_expired_unbet_hand_checked=False)


@pytest.fixture(autouse=True)
def no_rules_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no recorded rules known (they are remembered by digest, per
    process, as tables that record them are folded)."""
    monkeypatch.setattr(profiles, "_RECORDED", {})


def submit(recorder: Recorder, command: object) -> None:
    fold = recorder.table(STREAM)
    recorder.submit(STREAM, command, fold.version, uuid.uuid4(), DEALER)  # type: ignore[arg-type]


def record_clock_kill(recorder: Recorder) -> None:
    """Three players check to the flop; the clock runs out on the first to act (no bet)."""
    submit(recorder, OpenTable("1", 9, "tda"))
    for seat in (1, 2, 3):
        submit(recorder, SeatPlayer(seat, f"P{seat}", 1000))
    submit(recorder, PlaceButton(1))
    submit(recorder, StartHand(Level(10, 20)))
    while (hand := recorder.table(STREAM).state.hand).phase == "betting":  # type: ignore[union-attr]
        submit(recorder, hc.CheckCall(legal_actions(hand).player))
    submit(recorder, hc.DealBoard((0, 21, 30)))
    submit(recorder, hc.ExpireClock(legal_actions(recorder.table(STREAM).state.hand).player))  # type: ignore[arg-type, union-attr]


def stored(store: EventStore, cls: type) -> list[object]:
    return [e.decode() for e in store.read(STREAM) if e.type == cls.TYPE]  # type: ignore[attr-defined]


def test_hand_started_records_profile_digest_and_release(store: EventStore) -> None:
    """hand_started names its rules: the profile, the SHA-256 of its parameters, the release."""
    recorder = Recorder(store)
    record_clock_kill(recorder)
    (started,) = stored(store, HandStarted)
    assert isinstance(started, HandStarted)
    assert (started.profile, started.rules_digest, started.handlog_version) == (
        "tda", profile_digest(TDA), HANDLOG_VERSION)
    assert len(started.rules_digest) == 64
    (opened,) = stored(store, TableOpened)
    assert isinstance(opened, TableOpened) and '"clock_expired_unbet_hand_checked":true' in \
        opened.parameters


def test_digest_changes_with_any_parameter_and_not_with_the_words() -> None:
    """The digest is of the parameters only: a citation reworded keeps it, a value changed
    does not."""
    assert profile_digest(OLD_TDA) != profile_digest(TDA)
    reworded = replace(TDA, title="another title", citations={"clock_seconds": "other words"})
    assert profile_digest(reworded) == profile_digest(TDA)


def test_old_rules_recorded_with_the_table_are_used_to_re_decide(
        store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log of a release with other TDA parameters replays clean, re-decided under the
    parameters its table recorded, without any note."""
    with monkeypatch.context() as old_release:
        old_release.setitem(PROFILES, "tda", OLD_TDA)
        record_clock_kill(Recorder(store))
    (killed,) = stored(store, HandKilled)
    assert isinstance(killed, HandKilled) and killed.cause == "clock_expired"
    report = replay_log(store)
    assert report.findings == []


def test_unknown_old_rules_are_said_as_such_not_as_tampering(
        store: EventStore, monkeypatch: pytest.MonkeyPatch, db_url: str) -> None:
    """When the log does not hold the rules a hand names (a table opened before tables
    recorded them), replay says the hand was recorded under other rules and marks what differs
    under today's rules as such."""
    with monkeypatch.context() as old_release:
        old_release.setitem(PROFILES, "tda", OLD_TDA)
        old_release.setattr(deciding_module, "table_opened",
                            lambda *a: TableOpened(*a))  # no parameters recorded
        record_clock_kill(Recorder(store))
    report = replay_log(store)
    kinds = [f.kind for f in report.findings]
    assert kinds == [OTHER_RULES, DIFFERS_UNDER_TODAYS_RULES]
    assert "recorded under other tda rules" in report.findings[0].message
    assert "not from tampering" in report.findings[0].message
    result = CliRunner().invoke(cli, ["replay", "--db", db_url])
    assert "RECORDED UNDER OTHER RULES table-rules v" in result.output
    assert result.exit_code == 1 and "1 finding(s)" in result.output
