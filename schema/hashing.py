"""The hash chain that makes each stream tamper-evident, and its verification.

Definition, hash format 2 (everything an auditor needs to recompute a chain offline from an
export):

    GENESIS = "0" * 64
    hash    = sha256(utf8(canonical_json([prev_hash, stream_id, version, event_id, type,
                                          schema_version, payload_json, recorded_at,
                                          actor, device]))).hexdigest()

* `prev_hash` is the `hash` of the same stream's previous version, GENESIS for version 1;
* `stream_id`, `type`, `actor` (who recorded the event) and `device` (on which device) are
  text, exactly as stored; `version` (1, 2, 3... per stream) and `schema_version` are integers;
* `event_id` is the event's UUID as canonical text: lowercase hex with hyphens,
  `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (Python's `str(uuid)`);
* `payload_json` is the event's payload exactly as stored (a string; itself canonical JSON),
  so the hash covers the payload byte for byte;
* `recorded_at` is when the event was recorded, as the canonical UTC text the store and the
  export write (schema.codec.format_utc): `YYYY-MM-DDTHH:MM:SS.ffffffZ`, always six digits of
  microseconds, e.g. `2025-03-14T19:30:00.123456Z`;
* `canonical_json(v)` is `json.dumps(v, sort_keys=True, separators=(",", ":"),
  ensure_ascii=False)`, encoded as UTF-8; the digest is written in lowercase hex.

Example: version 1 of stream "table-1", event id `6f1c0a52-3b7e-4d2a-9c4e-1a2b3c4d5e6f`, type
"player_folded", schema version 1, payload `{"player":2}`, recorded at
2025-03-14 19:30:00.123456 UTC by actor "dealer-7" on device "tablet-3" hashes the text
`["0000...0000","table-1",1,"6f1c0a52-3b7e-4d2a-9c4e-1a2b3c4d5e6f","player_folded",1,
"{\\"player\\":2}","2025-03-14T19:30:00.123456Z","dealer-7","tablet-3"]` (64 zeros, one line) to
`811be1a29565ceaef7a9fc03798043c65b6923e30f97fab066f69a3718c6bb34`.

So who recorded an event, on which device, when, and under which id are as tamper-evident as
its content. Hash format 1 (before this definition) hashed only
`[prev_hash, stream_id, version, type, schema_version, payload_json]`; a log written with it
fails verification under format 2 (there is no real log of that format to carry over). Only
the global position is stored next to the chain without being hashed: verification checks that
positions increase instead. A chain only proves the log was not altered after its head hash was
written down elsewhere (a printed slip, a published export): anyone can recompute a whole
forged chain, so the stream heads are part of every check.

Each event is also a leaf of one Merkle log over every stream, in global position order
(RFC 9162 hashing, schema/tlog.py):

    entry = utf8(canonical_json([stream_id, version, hash]))   # hash: the chain hash above
    leaf  = SHA-256(0x00 || entry)

The chain hash already covers the event's id, type, payload, time, actor, device and the hash
before it, so a leaf commits to the whole event and to its stream's history.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from json.encoder import encode_basestring as _encode_text  # the one JSONEncoder uses
from typing import Any, Protocol

from handlog.schema.codec import canonical_json, format_utc
from handlog.schema.errors import ChainBroken
from handlog.schema.tlog import leaf_hash

GENESIS_HASH = "0" * 64


def event_id_text(event_id: uuid.UUID) -> str:
    """The canonical text of an event id that is hashed: lowercase, with hyphens."""
    return str(event_id)


def recorded_at_text(recorded_at: datetime) -> str:
    """The canonical UTC text of a recorded-at time that is hashed (and stored and exported).

    An aware time in another zone is converted to UTC first (the instant is what counts); a
    naive time is refused with schema.errors.CanonicalJsonError.
    """
    if recorded_at.tzinfo is not UTC and recorded_at.utcoffset() is not None:
        recorded_at = recorded_at.astimezone(UTC)
    return format_utc(recorded_at)


def parse_recorded_at(text: str) -> datetime:
    """The UTC time of a canonical recorded-at text; ValueError unless the text is canonical
    (so that hashing the parsed time hashes exactly this text)."""
    moment = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    if recorded_at_text(moment) != text:
        raise ValueError(f"{text!r} is not canonical")
    return moment


def chain_hash(
    prev_hash: str,
    stream_id: str,
    version: int,
    *,
    event_id: uuid.UUID,
    event_type: str,
    schema_version: int,
    payload_json: str,
    recorded_at: datetime,
    actor: str,
    device: str,
) -> str:
    """The hash of one event given the hash before it (hash format 2, see the module docstring).

    `event_id` and `recorded_at` are hashed as their canonical text (event_id_text,
    recorded_at_text); everything else as given.
    """
    return chain_hash_of_texts(prev_hash, stream_id, version, event_id_text(event_id),
                               event_type, schema_version, payload_json,
                               recorded_at_text(recorded_at), actor, device)


def chain_hash_of_texts(prev_hash: str, stream_id: str, version: int, id_text: str,
                        event_type: str, schema_version: int, payload_json: str,
                        time_text: str, actor: str, device: str) -> str:
    """chain_hash given the event id's and the time's canonical text already (event_id_text,
    recorded_at_text: an append that stores them too makes each once)."""
    if (type(prev_hash) is str and type(stream_id) is str and type(version) is int
            and type(event_type) is str and type(schema_version) is int
            and type(payload_json) is str and type(actor) is str and type(device) is str):
        # Plain text and whole numbers: their canonical JSON is what the encoder writes, each
        # text through its own C string encoder and each number as its repr (every append
        # hashes each event; canonical_json's walk cost a third of a batched append).
        text = (f"[{_encode_text(prev_hash)},{_encode_text(stream_id)},{version},"
                f"{_encode_text(id_text)},{_encode_text(event_type)},"
                f"{schema_version},{_encode_text(payload_json)},{_encode_text(time_text)},"
                f"{_encode_text(actor)},{_encode_text(device)}]")
        try:
            return hashlib.sha256(text.encode("utf-8")).hexdigest()
        except UnicodeEncodeError:
            pass  # (not valid Unicode: canonical_json names the field)
    fields = [prev_hash, stream_id, version, id_text, event_type, schema_version,
              payload_json, time_text, actor, device]
    return hashlib.sha256(canonical_json(fields).encode("utf-8")).hexdigest()


# One encoder for every entry (json.dumps with options builds a new one per call).
_ENTRY = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def leaf_entry(stream_id: str, version: int, event_hash: str) -> bytes:
    """The bytes an event's leaf hashes: the canonical JSON of [stream_id, version, hash]."""
    if type(version) is int and type(stream_id) is str and type(event_hash) is str:
        # What the encoder writes, spelled out with its own C string encoder (faster).
        return f"[{_encode_text(stream_id)},{version},{_encode_text(event_hash)}]".encode()
    return _ENTRY.encode([stream_id, version, event_hash]).encode("utf-8")


def event_leaf(stream_id: str, version: int, event_hash: str) -> bytes:
    """The Merkle leaf hash of one event."""
    return leaf_hash(leaf_entry(stream_id, version, event_hash))


def event_hash(event: ChainedEvent) -> str:
    """What the hash of a stored event should be, recomputed from its own fields."""
    return chain_hash(
        event.prev_hash,
        event.stream_id,
        event.version,
        event_id=event.event_id,
        event_type=event.type,
        schema_version=event.schema_version,
        payload_json=event.payload_json,
        recorded_at=event.recorded_at,
        actor=event.actor,
        device=event.device,
    )


class ChainedEvent(Protocol):
    """What verification reads of a stored event (schema.store.StoredEvent has it all)."""

    @property
    def position(self) -> int: ...
    @property
    def stream_id(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def event_id(self) -> uuid.UUID: ...
    @property
    def type(self) -> str: ...
    @property
    def schema_version(self) -> int: ...
    @property
    def payload(self) -> dict[str, Any]: ...
    @property
    def payload_json(self) -> str: ...
    @property
    def recorded_at(self) -> datetime: ...
    @property
    def actor(self) -> str: ...
    @property
    def device(self) -> str: ...
    @property
    def prev_hash(self) -> str: ...
    @property
    def hash(self) -> str: ...


class ChainHead(Protocol):
    """What verification reads of a stream head (schema.store.StreamHead has it)."""

    @property
    def stream_id(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def hash(self) -> str: ...


@dataclass(frozen=True)
class ChainProblem:
    """The first broken event of one stream and what is wrong with it."""

    stream_id: str
    version: int
    event_id: uuid.UUID | None
    reason: str

    def as_error(self) -> ChainBroken:
        return ChainBroken(self.stream_id, self.version, self.event_id, self.reason)

    def __str__(self) -> str:
        return str(self.as_error())


@dataclass
class _StreamState:
    version: int = 0
    hash: str = GENESIS_HASH
    broken: bool = False


def verify_events(
    events: Iterable[ChainedEvent], heads: Iterable[ChainHead] | None = None
) -> list[ChainProblem]:
    """Every problem in a log given in position order: at most one per stream (its first).

    Detects a changed byte (hash mismatch), a dropped, inserted or reordered event (versions and
    prev_hash links), an event id stored twice, positions out of order and, when `heads` are
    given, a stream whose head does not match its last event (a truncated or extended log).
    """
    problems: list[ChainProblem] = []
    streams: dict[str, _StreamState] = {}
    seen_ids: dict[uuid.UUID, tuple[str, int]] = {}
    last_position: int | None = None
    position_reported = False

    for event in events:
        stream = streams.setdefault(event.stream_id, _StreamState())
        out_of_order = last_position is not None and event.position <= last_position
        last_position = event.position if last_position is None else max(
            last_position, event.position
        )
        if stream.broken:
            continue
        reason = _link_problem(event, stream, seen_ids)
        if reason is None and out_of_order and not position_reported:
            position_reported = True
            reason = (f"position {event.position} comes after position {last_position}: "
                      "the log is out of commit order")
        if reason is not None:
            stream.broken = True
            problems.append(ChainProblem(event.stream_id, event.version, event.event_id, reason))
        else:
            seen_ids[event.event_id] = (event.stream_id, event.version)
            stream.version = event.version
            stream.hash = event.hash

    if heads is not None:
        headed: set[str] = set()
        for head in heads:
            headed.add(head.stream_id)
            problem = _head_problem(head, streams.get(head.stream_id))
            if problem is not None:
                problems.append(problem)
        for stream_id in sorted(set(streams) - headed):
            state = streams[stream_id]
            if not state.broken:
                problems.append(ChainProblem(
                    stream_id, state.version, None, "the stream has events but no stream head"
                ))
    return problems


def _link_problem(
    event: ChainedEvent, stream: _StreamState, seen_ids: dict[uuid.UUID, tuple[str, int]]
) -> str | None:
    """What is wrong with `event` as the next link of `stream` (None: nothing)."""
    expected = stream.version + 1
    earlier = seen_ids.get(event.event_id)
    if earlier is not None:
        return (f"event id already used by stream {earlier[0]!r} version {earlier[1]} "
                "(a copied or inserted event)")
    if event.version < expected:
        return (f"version {event.version} appears again after version {stream.version} "
                "(an inserted or reordered event)")
    if event.version > expected:
        missing = (
            f"version {expected}" if event.version == expected + 1
            else f"versions {expected} to {event.version - 1}"
        )
        return f"{missing} missing before it (a dropped or reordered event)"
    if event.prev_hash != stream.hash:
        return ("prev_hash does not match the hash of the version before it "
                "(an event was dropped, inserted or replaced)")
    try:
        recomputed = event_hash(event)
    except ValueError as exc:  # CanonicalJsonError: text that cannot be hashed at all
        return f"the event cannot be hashed: {exc}"
    if event.hash != recomputed:
        return ("hash does not match the event's content (its event id, type, version, "
                "payload, recorded-at time, actor or device changed)")
    if not _payload_matches(event):
        return "payload does not match its stored JSON text"
    return None


def _payload_matches(event: ChainedEvent) -> bool:
    try:
        return bool(json.loads(event.payload_json) == event.payload)
    except ValueError:
        return False


def _head_problem(head: ChainHead, state: _StreamState | None) -> ChainProblem | None:
    if state is None:
        if head.version == 0:
            return None
        return ChainProblem(head.stream_id, head.version, None,
                            f"stream head says version {head.version} but the log has no events "
                            "for this stream")
    if state.broken:
        return None
    if head.version > state.version:
        return ChainProblem(head.stream_id, head.version, None,
                            f"stream head says version {head.version} but the log ends at "
                            f"version {state.version} (events missing at the end)")
    if head.version < state.version:
        return ChainProblem(head.stream_id, state.version, None,
                            f"the log goes on to version {state.version} past the stream head "
                            f"(version {head.version})")
    if head.hash != state.hash:
        return ChainProblem(head.stream_id, head.version, None,
                            "stream head hash does not match the hash of the last event")
    return None


def raise_first(problems: list[ChainProblem]) -> None:
    """Raise the first problem as ChainBroken (no-op when the list is empty)."""
    if problems:
        raise problems[0].as_error()


__all__ = [
    "GENESIS_HASH",
    "ChainHead",
    "ChainProblem",
    "ChainedEvent",
    "chain_hash",
    "event_hash",
    "event_id_text",
    "parse_recorded_at",
    "raise_first",
    "recorded_at_text",
    "verify_events",
]
