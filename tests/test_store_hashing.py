"""The hash chain (schema/hashing.py): its documented definition, and verify_events naming the
first broken event for every kind of tampering."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import uuid
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

import schema.hashing
from schema.codec import canonical_json
from schema.hashing import GENESIS_HASH, ChainProblem, chain_hash, verify_events
from schema.store import StoredEvent, StreamHead

MOMENT = datetime(2025, 1, 1, tzinfo=UTC)


def chain(stream_id: str, payloads: list[dict[str, object]], first_position: int = 1,
          step: int = 1) -> list[StoredEvent]:
    """A valid chain for `stream_id`, built without a database."""
    events = []
    previous = GENESIS_HASH
    for index, payload in enumerate(payloads):
        version = index + 1
        text = canonical_json(payload)
        digest = chain_hash(previous, stream_id, version, "chips_counted", 1, text)
        events.append(StoredEvent(
            position=first_position + index * step, stream_id=stream_id, version=version,
            event_id=uuid.uuid4(), type="chips_counted", schema_version=1, payload=payload,
            payload_json=text, recorded_at=MOMENT, actor="dealer", device="tablet",
            prev_hash=previous, hash=digest,
        ))
        previous = digest
    return events


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


def test_definition_matches_the_docstring_example() -> None:
    """The worked example in the module docstring is what chain_hash computes."""
    digest = chain_hash(GENESIS_HASH, "table-1", 1, "player_folded", 1, '{"player":2}')
    assert digest in (schema.hashing.__doc__ or "")
    text = json.dumps([GENESIS_HASH, "table-1", 1, "player_folded", 1, '{"player":2}'],
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert digest == hashlib.sha256(text.encode("utf-8")).hexdigest()


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
    forged = dataclasses.replace(forged, prev_hash=events[1].hash, hash=chain_hash(
        events[1].hash, "table-1", 3, forged.type, 1, forged.payload_json))
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
