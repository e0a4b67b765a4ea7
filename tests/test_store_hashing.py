"""The hash chain (schema/hashing.py): its documented definition (hash format 2), and
verify_events naming the first broken event for every kind of tampering, including who recorded
an event, on which device, when and under which id."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import handlog.schema.hashing
from handlog.schema.codec import canonical_json
from handlog.schema.errors import CanonicalJsonError
from handlog.schema.hashing import (
    GENESIS_HASH,
    ChainProblem,
    chain_hash,
    event_hash,
    parse_recorded_at,
    recorded_at_text,
    verify_events,
)
from handlog.schema.store import StoredEvent, StreamHead

MOMENT = datetime(2025, 1, 1, tzinfo=UTC)


def chain(stream_id: str, payloads: list[dict[str, object]], first_position: int = 1,
          step: int = 1) -> list[StoredEvent]:
    """A valid chain for `stream_id`, built without a database."""
    events = []
    previous = GENESIS_HASH
    for index, payload in enumerate(payloads):
        version = index + 1
        event = rehashed(StoredEvent(
            position=first_position + index * step, stream_id=stream_id, version=version,
            event_id=uuid.uuid4(), type="chips_counted", schema_version=1, payload=payload,
            payload_json=canonical_json(payload), recorded_at=MOMENT + timedelta(seconds=index),
            actor="dealer", device="tablet", prev_hash=previous, hash="",
        ))
        events.append(event)
        previous = event.hash
    return events


def rehashed(event: StoredEvent) -> StoredEvent:
    """`event` with the hash its fields give (a forger's rewrite of one link)."""
    return dataclasses.replace(event, hash=chain_hash(
        event.prev_hash, event.stream_id, event.version, event_id=event.event_id,
        event_type=event.type, schema_version=event.schema_version,
        payload_json=event.payload_json, recorded_at=event.recorded_at, actor=event.actor,
        device=event.device,
    ))


def heads_of(events: list[StoredEvent]) -> list[StreamHead]:
    last: dict[str, StoredEvent] = {}
    for event in events:
        last[event.stream_id] = event
    return [StreamHead(s, "table", e.version, e.hash) for s, e in sorted(last.items())]


def five() -> list[StoredEvent]:
    return chain("table-1", [{"amount": 100 * n, "seat": n} for n in range(1, 6)])


def only_problem(
    events: list[StoredEvent], heads: list[StreamHead] | None = None
) -> ChainProblem:
    problems = verify_events(events, heads_of(events) if heads is None else heads)
    assert len(problems) == 1, problems
    return problems[0]


EXAMPLE_ID = uuid.UUID("6f1c0a52-3b7e-4d2a-9c4e-1a2b3c4d5e6f")
EXAMPLE_AT = datetime(2025, 3, 14, 19, 30, 0, 123456, tzinfo=UTC)
EXAMPLE_DIGEST = "811be1a29565ceaef7a9fc03798043c65b6923e30f97fab066f69a3718c6bb34"


def example_hash(**changes: Any) -> str:
    fields: dict[str, Any] = {
        "event_id": EXAMPLE_ID, "event_type": "player_folded", "schema_version": 1,
        "payload_json": '{"player":2}', "recorded_at": EXAMPLE_AT, "actor": "dealer-7",
        "device": "tablet-3",
    }
    return chain_hash(GENESIS_HASH, "table-1", 1, **{**fields, **changes})


def test_definition_matches_the_docstring_example() -> None:
    """The worked example in the module docstring is what chain_hash computes (hash format 2),
    and what sha256 gives over the documented text, recomputed here without handlog."""
    digest = example_hash()
    assert digest == EXAMPLE_DIGEST
    assert f"`{digest}`" in (handlog.schema.hashing.__doc__ or "")
    assert "hash format 2" in (handlog.schema.hashing.__doc__ or "")
    text = json.dumps(
        [GENESIS_HASH, "table-1", 1, "6f1c0a52-3b7e-4d2a-9c4e-1a2b3c4d5e6f", "player_folded", 1,
         '{"player":2}', "2025-03-14T19:30:00.123456Z", "dealer-7", "tablet-3"],
        sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert digest == hashlib.sha256(text.encode("utf-8")).hexdigest()


any_text = st.text(st.characters(codec=None, categories=None), max_size=20)


@given(prev_hash=any_text, stream_id=any_text, version=st.integers(min_value=1),
       event_id=st.uuids(), event_type=any_text, schema_version=st.integers(min_value=1),
       payload_json=any_text, recorded_at=st.datetimes(timezones=st.timezones()),
       actor=any_text, device=any_text)
def test_chain_hash_is_the_definition_for_any_text(prev_hash: str, stream_id: str,
                                                   version: int, event_id: uuid.UUID,
                                                   event_type: str, schema_version: int,
                                                   payload_json: str, recorded_at: datetime,
                                                   actor: str, device: str) -> None:
    """Quotes, backslashes, control characters, any script: chain_hash (which spells the
    encoder's text out itself) hashes the documented text, recomputed with json.dumps; text
    that is not valid Unicode is refused with a named error."""
    fields = [prev_hash, stream_id, version, str(event_id), event_type, schema_version,
              payload_json, recorded_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
              actor, device]
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    given_fields = {"event_id": event_id, "event_type": event_type,
                    "schema_version": schema_version, "payload_json": payload_json,
                    "recorded_at": recorded_at, "actor": actor, "device": device}
    try:
        expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
    except UnicodeEncodeError:
        with pytest.raises(CanonicalJsonError, match="is not valid Unicode text"):
            chain_hash(prev_hash, stream_id, version, **given_fields)
        return
    assert chain_hash(prev_hash, stream_id, version, **given_fields) == expected


@pytest.mark.parametrize(
    "change",
    [
        {"event_id": uuid.UUID("6f1c0a52-3b7e-4d2a-9c4e-1a2b3c4d5e70")},
        {"event_type": "player_checked"},
        {"schema_version": 2},
        {"payload_json": '{"player":3}'},
        {"recorded_at": EXAMPLE_AT + timedelta(microseconds=1)},
        {"actor": "dealer-8"},
        {"device": "tablet-4"},
    ],
    ids=lambda change: next(iter(change)),
)
def test_every_recorded_field_is_hashed(change: dict[str, Any]) -> None:
    """Who, on which device, when and under which id are hashed like the content."""
    assert example_hash(**change) != EXAMPLE_DIGEST


def test_the_same_instant_in_another_zone_hashes_the_same() -> None:
    """The hashed text is the UTC instant: an aware time in another zone is converted first."""
    paris = EXAMPLE_AT.astimezone(timezone(timedelta(hours=1)))
    assert recorded_at_text(paris) == "2025-03-14T19:30:00.123456Z"
    assert example_hash(recorded_at=paris) == EXAMPLE_DIGEST
    with pytest.raises(CanonicalJsonError, match="no time zone"):
        example_hash(recorded_at=EXAMPLE_AT.replace(tzinfo=None))


def test_recorded_at_text_always_has_six_digits_of_microseconds() -> None:
    whole_second = datetime(2025, 3, 14, 19, 30, tzinfo=UTC)
    assert recorded_at_text(whole_second) == "2025-03-14T19:30:00.000000Z"
    assert parse_recorded_at("2025-03-14T19:30:00.000000Z") == whole_second
    assert parse_recorded_at("2025-03-14T19:30:00.123456Z") == EXAMPLE_AT


@pytest.mark.parametrize(
    "text",
    ["2025-03-14T19:30:00Z", "2025-03-14T19:30:00.5Z", "2025-03-14T19:30:00.123456",
     "2025-03-14 19:30:00.123456Z", "2025-3-14T19:30:00.123456Z",
     "2025-03-14T19:30:00.123456+00:00"],
)
def test_only_the_canonical_recorded_at_text_parses(text: str) -> None:
    """Another spelling of the same time would hash differently from what it looks like."""
    with pytest.raises(ValueError):
        parse_recorded_at(text)


def test_intact_log_has_no_problems() -> None:
    events = five() + chain("table-2", [{"a": 1}], first_position=10)
    assert verify_events(events, heads_of(events)) == []


def test_changed_payload_byte_is_named() -> None:
    """One digit changed in a stored payload: that event's hash no longer matches."""
    events = five()
    target = events[2]
    tampered_text = target.payload_json.replace("300", "900")
    events[2] = dataclasses.replace(target, payload_json=tampered_text,
                                    payload=json.loads(tampered_text))
    problem = only_problem(events, heads_of(five()))
    assert (problem.stream_id, problem.version, problem.event_id) == (
        "table-1", 3, target.event_id)
    assert "hash does not match" in problem.reason
    assert f"stream 'table-1' version 3, event {target.event_id}" in str(problem)


def test_payload_that_disagrees_with_its_text_is_named() -> None:
    events = five()
    events[1] = dataclasses.replace(events[1], payload={"amount": 1})
    problem = only_problem(events)
    assert problem.version == 2 and "payload does not match" in problem.reason


def test_dropped_event_is_named() -> None:
    events = five()
    after = events[3]
    del events[2]
    problem = only_problem(events)
    assert (problem.version, problem.event_id) == (4, after.event_id)
    assert "version 3 missing" in problem.reason


def test_reordered_events_are_named() -> None:
    events = five()
    events[1], events[2] = events[2], events[1]
    problem = only_problem(events)
    assert problem.version == 3
    assert "missing" in problem.reason


def test_inserted_event_is_named() -> None:
    """A forged event slotted in as version 3 breaks the link of the real version 3."""
    events = five()
    forged = chain("table-1", [{"amount": 100, "seat": 1}, {"amount": 200, "seat": 2},
                               {"amount": 5000, "seat": 9}])[2]
    forged = rehashed(dataclasses.replace(forged, prev_hash=events[1].hash))
    events.insert(2, forged)
    problem = only_problem(events)
    assert (problem.version, problem.event_id) == (3, events[3].event_id)
    assert "appears again" in problem.reason


def test_copied_event_is_named() -> None:
    events = five()
    events.insert(3, events[1])
    problem = only_problem(events)
    assert problem.event_id == events[1].event_id and "already used" in problem.reason


def test_replaced_prev_hash_is_named() -> None:
    events = five()
    events[3] = dataclasses.replace(events[3], prev_hash="f" * 64)
    assert "prev_hash" in only_problem(events).reason


def test_wrong_head_hash_is_named() -> None:
    events = five()
    heads = [StreamHead("table-1", "table", 5, "e" * 64)]
    problem = only_problem(events, heads)
    assert problem.version == 5 and "head hash" in problem.reason


def test_truncated_log_is_found_by_the_head() -> None:
    """Dropping the last event leaves a valid chain: only the head shows it."""
    events = five()
    heads = heads_of(events)
    problem = only_problem(events[:-1], heads)
    assert "ends at version 4" in problem.reason


def test_events_past_the_head_are_found() -> None:
    events = five()
    problem = only_problem(events, heads_of(events[:3]))
    assert "past the stream head" in problem.reason


def test_stream_without_head_and_head_without_events() -> None:
    events = five()
    problems = verify_events(events, [StreamHead("table-9", "table", 2, "a" * 64)])
    reasons = sorted(problem.reason for problem in problems)
    assert reasons == [
        "stream head says version 2 but the log has no events for this stream",
        "the stream has events but no stream head",
    ]


def test_positions_out_of_commit_order_are_named() -> None:
    first = chain("table-1", [{"a": 1}, {"a": 2}], first_position=1, step=2)
    second = chain("table-2", [{"b": 1}], first_position=2)
    events = [first[0], first[1], second[0]]
    problem = only_problem(events)
    assert problem.stream_id == "table-2" and "commit order" in problem.reason


def test_each_broken_stream_is_reported_once() -> None:
    one, two = five(), chain("table-2", [{"a": n} for n in range(4)], first_position=10)
    del one[1]
    two[2] = dataclasses.replace(two[2], payload_json='{"a":7}', payload={"a": 7})
    problems = verify_events(one + two, heads_of(five()) + heads_of(two))
    assert [(p.stream_id, p.version) for p in problems] == [("table-1", 3), ("table-2", 3)]


@pytest.mark.parametrize(
    "change",
    [
        {"actor": "floor-1"},
        {"device": "laptop-9"},
        {"recorded_at": MOMENT + timedelta(seconds=2, microseconds=1)},
        {"event_id": uuid.UUID(int=7)},
    ],
    ids=lambda change: next(iter(change)),
)
def test_changed_actor_device_time_or_id_is_named(change: dict[str, Any]) -> None:
    """Who recorded an event, on which device, when, under which id: a change is named."""
    events = five()
    heads = heads_of(events)
    events[2] = dataclasses.replace(events[2], **change)
    problem = only_problem(events, heads)
    assert (problem.stream_id, problem.version, problem.event_id) == (
        "table-1", 3, events[2].event_id)
    assert problem.reason.startswith("hash does not match the event's content")
    assert "actor or device" in problem.reason


def test_rehashing_one_changed_event_breaks_the_next_link() -> None:
    """A forger who also rewrites the hash of the changed event breaks the following link."""
    events = five()
    heads = heads_of(events)
    events[2] = rehashed(dataclasses.replace(events[2], actor="floor-1"))
    assert event_hash(events[2]) == events[2].hash
    problem = only_problem(events, heads)
    assert (problem.version, problem.event_id) == (4, events[3].event_id)
    assert "prev_hash" in problem.reason


def test_text_that_cannot_be_hashed_is_named_not_raised() -> None:
    """A lone surrogate (possible in a JSON export) names the event instead of crashing."""
    events = five()
    events[1] = dataclasses.replace(events[1], actor="dealer\udc80")
    problem = only_problem(events)
    assert problem.version == 2 and "cannot be hashed" in problem.reason


@given(st.data())
def test_any_changed_byte_of_any_payload_is_found(data: st.DataObject) -> None:
    """Whatever payload byte changes, verification names exactly that event."""
    events = chain("table-1", [{"seat": n, "amount": 25 * n, "note": "x" * n} for n in range(6)])
    heads = heads_of(events)
    index = data.draw(st.integers(0, len(events) - 1))
    text = events[index].payload_json
    at = data.draw(st.integers(0, len(text) - 1))
    replacement = data.draw(st.characters(codec="utf-8").filter(lambda c: c != text[at]))
    tampered = text[:at] + replacement + text[at + 1:]
    events[index] = dataclasses.replace(events[index], payload_json=tampered)
    problem = only_problem(events, heads)
    assert (problem.version, problem.event_id) == (index + 1, events[index].event_id)
