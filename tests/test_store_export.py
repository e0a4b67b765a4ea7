"""The JSON-lines export (schema/export.py) read back without a database: a round trip, and
clear messages for files that are not exports or have broken lines."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest_store import new_event, new_events

from handlog.schema.export import export_lines, export_store, verify_export, verify_lines
from handlog.schema.hashing import event_hash
from handlog.schema.store import EventStore


def test_export_round_trips_through_offline_verification(store: EventStore) -> None:
    """An export of a good log verifies offline, Unicode payloads included."""
    store.append("table-1", 0, [new_event({"player": "Zoë", "cards": ["A♠", "K♥"]})])
    store.append("table-2", 0, new_events(3))
    heads, events = store.snapshot()
    report = verify_lines(export_lines(heads, events))
    assert report.ok, report.messages()
    assert (report.events, report.streams) == (4, 2)
    assert report.summary() == "ok: 4 events in 2 streams verified"


def test_export_file_is_readable_by_others(store: EventStore, tmp_path: Path) -> None:
    store.append("table-1", 0, new_events(1))
    out = tmp_path / "log.jsonl"
    assert export_store(store, out) == (1, 1)
    assert out.stat().st_mode & 0o777 == 0o644
    assert verify_export(out).ok
    assert not list(tmp_path.glob(".log.jsonl.*"))  # no temporary file left behind


def test_broken_lines_are_reported_with_their_number(store: EventStore) -> None:
    store.append("table-1", 0, new_events(2))
    heads, events = store.snapshot()
    lines = list(export_lines(heads, events))
    record = json.loads(lines[1])
    del record["hash"]
    lines[1] = json.dumps(record)
    lines.insert(2, "{not json")
    report = verify_lines(lines)
    assert not report.ok
    assert report.file_errors[0] == "line 2: missing field(s) hash"
    assert report.file_errors[1].startswith("damaged file at line 3: not JSON ")
    assert report.summary().startswith("FAILED: ")


def test_files_that_are_not_exports() -> None:
    assert verify_lines([]).messages() == [
        "the file is empty: this is not a handlog log export"
    ]
    other = verify_lines(['{"record":"header","format":"handlog-log","format_version":3}'])
    assert other.messages() == ["line 1: export format version 3 is not 2"]
    garbage = verify_lines(["PK\x03\x04 binary"])
    assert garbage.messages() == ["line 1: this is not a handlog log export"]


def test_an_export_of_hash_format_1_is_refused_by_name(store: EventStore) -> None:
    """A file from before hash format 2 is not reported as tampered: it is refused as such."""
    store.append("table-1", 0, new_events(1))
    heads, events = store.snapshot()
    lines = list(export_lines(heads, events))
    assert json.loads(lines[0])["format_version"] == 2
    lines[0] = '{"format":"handlog-log","format_version":1,"record":"header"}'
    (message,) = verify_lines(lines).messages()
    assert message.startswith("line 1: export format version 1 is not 2: it was written with "
                              "hash format 1")


def test_exported_recorded_at_and_event_id_are_the_hashed_text(store: EventStore) -> None:
    """The export writes the canonical text that was hashed, microseconds always included."""
    whole_second = datetime(2025, 3, 14, 19, 30, tzinfo=timezone(timedelta(hours=1)))
    (stored,) = store.append("table-1", 0, [new_event(recorded_at=whole_second)])
    heads, events = store.snapshot()
    record = json.loads(list(export_lines(heads, events))[1])
    assert record["recorded_at"] == "2025-03-14T18:30:00.000000Z"
    assert record["event_id"] == str(stored.event_id) == str(stored.event_id).lower()
    assert record["hash"] == event_hash(stored) == stored.hash


@pytest.mark.parametrize(
    ("field", "respelled"),
    [
        ("event_id", lambda text: text.upper()),
        ("event_id", lambda text: text.replace("-", "")),
        ("recorded_at", lambda text: text.replace(".123456Z", ".123456+00:00")),
        ("recorded_at", lambda text: text.replace(".123456Z", ".1234560Z")),
        ("recorded_at", lambda text: text.replace("T", " ")),
    ],
)
def test_another_spelling_of_a_hashed_field_is_refused(
    store: EventStore, field: str, respelled: Callable[[str], str]
) -> None:
    """The same id or instant written another way is refused, naming the line and the event,
    rather than verified as text that was never hashed."""
    store.append("table-1", 0, new_events(2))
    heads, events = store.snapshot()
    lines = list(export_lines(heads, events))
    record = json.loads(lines[2])
    original = record[field]
    record[field] = respelled(original)
    assert record[field] != original
    lines[2] = json.dumps(record)
    report = verify_lines(lines)
    assert not report.ok
    (message,) = report.file_errors
    assert message.startswith(f"line 3: stream 'table-1' version 2: {field} ")
    assert "canonical" in message
