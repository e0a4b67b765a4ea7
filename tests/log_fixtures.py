"""The golden logs of tests/fixtures/logs (written by tests/fixtures/make_log_fixtures.py with
an older release) and their import into a fresh database, hashes and all."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from handlog.schema.hashing import parse_recorded_at
from handlog.schema.store import EventStore, NewEvent

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
GOLDEN_LOGS = sorted(LOGS.glob("*.jsonl"))


def import_log(store: EventStore, path: Path) -> int:
    """Append every event of the export at `path` in its global order, as it was first recorded
    (ids, actors, times, the same canonical payloads at their schema versions); returns the
    number of events. The store computes the hashes again, in its own hash format."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    kinds = {r["stream_id"]: r["kind"] for r in records if r["record"] == "stream"}
    events = sorted((r for r in records if r["record"] == "event"), key=lambda r: r["position"])
    run: list[dict[str, Any]] = []

    def flush() -> None:
        if not run:
            return
        stream, first = run[0]["stream_id"], run[0]["version"]
        store.append(stream, first - 1, [
            NewEvent(uuid.UUID(r["event_id"]), r["type"], r["schema_version"],
                     json.loads(r["payload"]), r["actor"], r["device"],
                     parse_recorded_at(r["recorded_at"]))
            for r in run], kind=kinds[stream])
        for record, event in zip(run, store.read(stream, first), strict=True):
            # Stored as it was recorded: the very canonical text, at its old schema version.
            assert (event.payload_json, event.schema_version) == (
                record["payload"], record["schema_version"]), f"{stream} v{event.version}"
        run.clear()

    for record in events:
        if run and run[0]["stream_id"] != record["stream_id"]:
            flush()
        run.append(record)
    flush()
    return len(events)
