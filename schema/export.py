"""The raw log as JSON lines, and its verification with or without the database.

Export format (one canonical-JSON object per line, UTF-8):

* line 1: `{"format":"handlog-log","format_version":2,"record":"header"}`; format version 2 is
  hash format 2 (schema/hashing.py). A version 1 file was hashed without the event id, time,
  actor and device, and is refused by name rather than reported as tampered.
* one line per event in position order: `{"record":"event", "position", "stream_id",
  "version", "event_id", "type", "schema_version", "payload", "recorded_at", "actor", "device",
  "prev_hash", "hash"}`. Every hashed field is written as the exact text that was hashed:
  `payload` is the stored payload text itself (a string), byte for byte; `event_id` is the
  canonical lowercase UUID text; `recorded_at` is the canonical UTC text
  `YYYY-MM-DDTHH:MM:SS.ffffffZ` (six digits of microseconds). A file whose `event_id` or
  `recorded_at` is not in that exact form is refused line by line, so what is verified is
  always what is written.
* one line per stream: `{"record":"stream", "stream_id", "kind", "head_version", "head_hash"}`.
* one line per signed checkpoint the room recorded, oldest first: `{"record":"checkpoint",
  "number", "reason", "created_at", "note"}` (`note`: the C2SP checkpoint text, signature
  included, and under it each witness's cosignature line kept beside it). With the events
  above, they are all an auditor needs to check the file against a checkpoint: every leaf
  of the Merkle log is recomputed from the events (schema/hashing.py, schema/tlog.py).

Verifying recomputes every chain (schema/hashing.py) and compares each stream's last event with
its head line, so a dropped last event or a cut-off file is found too.
"""

from __future__ import annotations

import json
import os
import tempfile
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from handlog.schema.checkpoint import StoredCheckpoint, stored_checkpoints
from handlog.schema.codec import canonical_json
from handlog.schema.hashing import (
    ChainProblem,
    event_id_text,
    parse_recorded_at,
    recorded_at_text,
    verify_events,
)
from handlog.schema.logcheck import LogSource, RawEvent
from handlog.schema.store import EventStore, StoredEvent, StreamHead

FORMAT = "handlog-log"
FORMAT_VERSION = 2

_EVENT_FIELDS = (
    "position", "stream_id", "version", "event_id", "type", "schema_version", "payload",
    "recorded_at", "actor", "device", "prev_hash", "hash",
)
_STREAM_FIELDS = ("stream_id", "kind", "head_version", "head_hash")
_CHECKPOINT_FIELDS = ("number", "reason", "created_at", "note")


@dataclass
class VerifyReport:
    """What a verification saw and every problem it found (the first one first)."""

    events: int = 0
    streams: int = 0
    problems: list[ChainProblem] = field(default_factory=list)
    file_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.file_errors

    def messages(self) -> list[str]:
        return self.file_errors + [str(problem) for problem in self.problems]

    def summary(self) -> str:
        if self.ok:
            return f"ok: {self.events} events in {self.streams} streams verified"
        count = len(self.problems) + len(self.file_errors)
        return (
            f"FAILED: {count} problem(s) found in {self.events} events "
            f"in {self.streams} streams"
        )


def verify_store(store: EventStore) -> VerifyReport:
    """Verify every chain in the database and every stream head against its last event."""
    heads, events = store.snapshot()
    return VerifyReport(len(events), len(heads), verify_events(events, heads))


def export_lines(heads: Iterable[StreamHead], events: Iterable[StoredEvent],
                 checkpoints: Iterable[StoredCheckpoint] = ()) -> Iterator[str]:
    """The export, line by line (without newlines)."""
    yield canonical_json({"record": "header", "format": FORMAT, "format_version": FORMAT_VERSION})
    for event in events:
        yield canonical_json({
            "record": "event",
            "position": event.position,
            "stream_id": event.stream_id,
            "version": event.version,
            "event_id": event_id_text(event.event_id),
            "type": event.type,
            "schema_version": event.schema_version,
            "payload": event.payload_json,
            "recorded_at": recorded_at_text(event.recorded_at),
            "actor": event.actor,
            "device": event.device,
            "prev_hash": event.prev_hash,
            "hash": event.hash,
        })
    for head in heads:
        yield canonical_json({
            "record": "stream",
            "stream_id": head.stream_id,
            "kind": head.kind,
            "head_version": head.version,
            "head_hash": head.hash,
        })
    for checkpoint in checkpoints:
        yield canonical_json({
            "record": "checkpoint",
            "number": checkpoint.number,
            "reason": checkpoint.reason,
            "created_at": recorded_at_text(checkpoint.created_at),
            "note": checkpoint.cosigned_text,
        })


def export_store(store: EventStore, out: Path) -> tuple[int, int]:
    """Write the whole log to `out` (replaced atomically); returns (events, streams).

    The events are streamed from one snapshot to the file (one batch in memory)."""
    checkpoints = stored_checkpoints(store)
    out = Path(out)
    handle, temporary = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    counted = [0]

    def count(events: Iterable[StoredEvent]) -> Iterator[StoredEvent]:
        for event in events:
            counted[0] += 1
            yield event

    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            with store.reader() as log:
                heads = list(log.heads().values())
                write_lines(export_lines(heads, count(log.events(by_stream=False,
                                                                 strict=False)),
                                         checkpoints), stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it private; an export is meant to be shared
        os.replace(temporary, out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return counted[0], len(heads)


def write_lines(lines: Iterable[str], stream: TextIO) -> None:
    for line in lines:
        stream.write(line)
        stream.write("\n")


MAX_LINE = 16 * 1024 * 1024
"""The longest line an export may hold (a payload is a few kilobytes): a longer one is damage."""


class DamagedLine(ValueError):
    """A line that is not UTF-8, not JSON, or not a JSON object: the file was damaged there."""


def read_lines(path: Path) -> Iterator[tuple[int, str | DamagedLine]]:
    """The file's lines, numbered from 1, each decoded as UTF-8 on its own, so one bad byte
    names its line instead of ending the read (a DamagedLine in place of the text)."""
    with open(path, "rb") as stream:
        number = 0
        while True:
            raw = stream.readline(MAX_LINE + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                yield number, DamagedLine(f"longer than {MAX_LINE} bytes")
                while raw and not raw.endswith(b"\n"):  # skip the rest of that line
                    raw = stream.readline(MAX_LINE + 1)
                continue
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield number, DamagedLine(
                    f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})")


def parse_line(line: str) -> dict[str, Any]:
    """One JSON object; DamagedLine (never RecursionError) for anything else."""
    try:
        record = json.loads(line)
    except RecursionError:
        raise DamagedLine("nested too deeply to be a log record") from None
    except json.JSONDecodeError as exc:
        raise DamagedLine(f"not JSON ({exc.msg} at column {exc.colno})") from None
    except ValueError as exc:
        raise DamagedLine(f"not JSON ({exc})") from None
    if not isinstance(record, dict):
        raise DamagedLine("not a JSON object")
    return record


def verify_export(path: Path) -> VerifyReport:
    """Verify an export file offline, with no database."""
    return verify_lines(read_lines(path))


def verify_lines(lines: Iterable[str] | Iterable[tuple[int, str | DamagedLine]]) -> VerifyReport:
    report = VerifyReport()
    events: list[StoredEvent] = []
    heads: list[StreamHead] = []
    header_seen = False
    for number, line in _numbered(lines):
        if isinstance(line, DamagedLine):
            report.file_errors.append(f"damaged file at line {number}: {line}")
            if not header_seen:
                return report
            continue
        if not line.strip():
            continue
        try:
            record = parse_line(line)
            kind = record.get("record")
            if not header_seen:
                if kind != "header" or record.get("format") != FORMAT:
                    report.file_errors.append(
                        f"line {number}: this is not a handlog log export (no header line)"
                    )
                    return report
                if record.get("format_version") != FORMAT_VERSION:
                    older = (
                        ": it was written with hash format 1, before the event id, time, actor "
                        "and device were hashed, and cannot be verified by this handlog"
                        if record.get("format_version") == 1 else ""
                    )
                    report.file_errors.append(
                        f"line {number}: export format version "
                        f"{record.get('format_version')!r} is not {FORMAT_VERSION}{older}"
                    )
                    return report
                header_seen = True
            elif kind == "event":
                events.append(_event(record))
            elif kind == "stream":
                heads.append(_stream(record))
            elif kind == "checkpoint":
                _fields(record, _CHECKPOINT_FIELDS)
            else:
                raise ValueError(f"unknown record {kind!r}")
        except ValueError as exc:
            if not header_seen:
                report.file_errors.append(f"line {number}: this is not a handlog log export")
                return report
            damaged = "damaged file at " if isinstance(exc, DamagedLine) else ""
            report.file_errors.append(f"{damaged}line {number}: {exc}")
    if not header_seen:
        report.file_errors.append("the file is empty: this is not a handlog log export")
        return report
    report.events = len(events)
    report.streams = len({head.stream_id for head in heads} | {e.stream_id for e in events})
    report.problems = verify_events(events, heads)
    return report


def _numbered(lines: Iterable[str] | Iterable[tuple[int, str | DamagedLine]],
              ) -> Iterator[tuple[int, str | DamagedLine]]:
    for number, line in enumerate(lines, start=1):
        yield line if isinstance(line, tuple) else (number, line)


def _fields(record: dict[str, Any], names: tuple[str, ...]) -> None:
    missing = [name for name in names if name not in record]
    if missing:
        raise ValueError(f"missing field(s) {', '.join(missing)}")
    unknown = sorted(set(record) - set(names) - {"record"})
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)}")


def _typed(record: dict[str, Any], name: str, expected: type) -> Any:
    value = record[name]
    if type(value) is not expected:
        raise ValueError(f"{name} should be {expected.__name__}, not {type(value).__name__}")
    if isinstance(value, str) and not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise DamagedLine(f"{name} holds {value[exc.start]!r}, a lone surrogate escape that "
                              "is not Unicode text") from None
    return value


def _event(record: dict[str, Any]) -> StoredEvent:
    _fields(record, _EVENT_FIELDS)
    stream_id = _typed(record, "stream_id", str)
    version = _typed(record, "version", int)
    where = f"stream {stream_id!r} version {version}"
    payload_json = _typed(record, "payload", str)
    try:
        payload = json.loads(payload_json)
    except (ValueError, RecursionError):
        payload = None
    event_id_field = _typed(record, "event_id", str)
    try:
        event_id = uuid.UUID(event_id_field)
    except ValueError:
        raise ValueError(f"{where}: event_id {event_id_field!r} is not a UUID") from None
    if event_id_text(event_id) != event_id_field:
        # Hashed is the canonical text: another spelling would verify as something it is not.
        raise ValueError(
            f"{where}: event_id {event_id_field!r} is not a canonical UUID "
            f"(lowercase with hyphens: {event_id_text(event_id)!r})"
        )
    recorded_at_field = _typed(record, "recorded_at", str)
    try:
        recorded_at = parse_recorded_at(recorded_at_field)
    except ValueError:
        raise ValueError(
            f"{where}: recorded_at {recorded_at_field!r} is not a UTC time in the canonical "
            "form YYYY-MM-DDTHH:MM:SS.ffffffZ"
        ) from None
    return StoredEvent(
        position=_typed(record, "position", int),
        stream_id=stream_id,
        version=version,
        event_id=event_id,
        type=_typed(record, "type", str),
        schema_version=_typed(record, "schema_version", int),
        # Unparsable payload text still gets verified: its hash no longer matches.
        payload=payload if isinstance(payload, dict) else {},
        payload_json=payload_json,
        recorded_at=recorded_at,
        actor=_typed(record, "actor", str),
        device=_typed(record, "device", str),
        prev_hash=_typed(record, "prev_hash", str),
        hash=_typed(record, "hash", str),
    )


def _stream(record: dict[str, Any]) -> StreamHead:
    _fields(record, _STREAM_FIELDS)
    return StreamHead(
        stream_id=_typed(record, "stream_id", str),
        kind=_typed(record, "kind", str),
        version=_typed(record, "head_version", int),
        hash=_typed(record, "head_hash", str),
    )


# --- the export as a source for the whole-log check (schema/logcheck.py) ------------------------


def export_source(path: Path, reread: bool = True) -> LogSource:
    """The export at `path` for `check_log`: its events streamed line by line (payloads are
    hashed as the text they are, never parsed), its stream heads and recorded checkpoints
    (filled in as the lines are read). Lines that cannot be read are listed in `errors`.
    `reread`: the check may read the file a second time, to name the breaks it found."""
    heads: dict[str, tuple[int, str]] = {}
    checkpoints: list[tuple[int, str]] = []
    errors: list[str] = []
    return LogSource(events=_export_events(path, heads, checkpoints, errors), heads=heads,
                     stored_checkpoints=checkpoints, errors=errors,
                     reread=(lambda: export_source(path, reread=False)) if reread else None)


def _export_events(path: Path, heads: dict[str, tuple[int, str]],
                   checkpoints: list[tuple[int, str]], errors: list[str]) -> Iterator[RawEvent]:
    try:
        yield from _read_export(path, heads, checkpoints, errors)
    except OSError as exc:
        errors.append(f"cannot read {path}: {exc.strerror}")


def _read_export(path: Path, heads: dict[str, tuple[int, str]],
                 checkpoints: list[tuple[int, str]], errors: list[str]) -> Iterator[RawEvent]:
    header_seen = False
    for number, line in read_lines(path):
        if not isinstance(line, DamagedLine) and not line.strip():
            continue
        try:
            if isinstance(line, DamagedLine):
                raise line
            record = parse_line(line)
        except DamagedLine as exc:
            if not header_seen:
                errors.append(f"damaged file at line {number}: {exc}: this is not a "
                              "handlog log export")
                return
            errors.append(f"damaged file at line {number}: {exc}")
            continue
        kind = record.get("record")
        if not header_seen:
            if kind != "header" or record.get("format") != FORMAT:
                errors.append(f"line {number}: this is not a handlog log export "
                              "(no header line)")
                return
            if record.get("format_version") != FORMAT_VERSION:
                errors.append(f"line {number}: export format version "
                              f"{record.get('format_version')!r} is not {FORMAT_VERSION}")
                return
            header_seen = True
            continue
        try:
            if kind == "event":
                stored = _event(record)
                yield (stored.position, stored.stream_id, stored.version,
                       record["event_id"], stored.type, stored.schema_version,
                       stored.payload_json, record["recorded_at"], stored.actor,
                       stored.device, stored.prev_hash, stored.hash)
            elif kind == "stream":
                head = _stream(record)
                heads[head.stream_id] = (head.version, head.hash)
            elif kind == "checkpoint":
                _fields(record, _CHECKPOINT_FIELDS)
                checkpoints.append((_typed(record, "number", int),
                                    _typed(record, "note", str)))
            else:
                raise ValueError(f"unknown record {kind!r}")
        except ValueError as exc:
            damaged = "damaged file at " if isinstance(exc, DamagedLine) else ""
            errors.append(f"{damaged}line {number}: {exc}")
    if not header_seen:
        errors.append("the file is empty: this is not a handlog log export")
