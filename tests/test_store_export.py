"""The JSON-lines export (schema/export.py) read back without a database: a round trip, and
clear messages for files that are not exports or have broken lines."""

from __future__ import annotations

import json
from pathlib import Path

from conftest_store import new_event, new_events

from schema.export import export_lines, export_store, verify_export, verify_lines
from schema.store import EventStore


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
    assert report.file_errors[1].startswith("line 3: ")
    assert report.summary().startswith("FAILED: ")


def test_files_that_are_not_exports() -> None:
    assert verify_lines([]).messages() == [
        "the file is empty: this is not a handlog log export"
    ]
    other = verify_lines(['{"record":"header","format":"handlog-log","format_version":2}'])
    assert other.messages() == ["line 1: export format version 2 is not 1"]
    garbage = verify_lines(["PK\x03\x04 binary"])
    assert garbage.messages() == ["line 1: this is not a handlog log export"]
