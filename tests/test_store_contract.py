"""The event store's contract (schema/store.py docstring), run on SQLite and on PostgreSQL."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from conftest_store import driver_connect, new_event, new_events
from sqlalchemy.engine import make_url

from handlog.engine.events import PlayerCalled, PotAwarded
from handlog.schema import database
from handlog.schema.codec import format_utc
from handlog.schema.errors import (
    CanonicalJsonError,
    ConcurrencyConflict,
    DuplicateEventConflict,
    SchemaAhead,
    SchemaBehind,
    SchemaMissing,
)
from handlog.schema.hashing import GENESIS_HASH, chain_hash, verify_events
from handlog.schema.store import EventStore, NewEvent, open_store, upgrade_database

# --- 1. append and read ---------------------------------------------------------------------


def test_append_returns_the_events_as_stored(store: EventStore) -> None:
    """Versions count from 1 per stream, positions are global, payloads keep their content."""
    stored = store.append("table-1", 0, new_events(3))
    assert [event.version for event in stored] == [1, 2, 3]
    assert [event.payload for event in stored] == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert [event.payload_json for event in stored] == ['{"n":1}', '{"n":2}', '{"n":3}']
    positions = [event.position for event in stored]
    assert positions == sorted(positions) and len(set(positions)) == 3
    assert store.read("table-1") == stored


def test_read_returns_every_stored_column(store: EventStore) -> None:
    """What is read back equals what was appended, field by field."""
    event = new_event({"player": 3, "amount": 1200, "note": "Zoë ♠"}, event_type="bet_made")
    (stored,) = store.append("table-1", 0, [event])
    (read,) = store.read("table-1")
    assert read == stored
    assert read.event_id == event.event_id
    assert read.type == "bet_made"
    assert read.schema_version == 1
    assert read.payload == {"player": 3, "amount": 1200, "note": "Zoë ♠"}
    assert read.payload_json == '{"amount":1200,"note":"Zoë ♠","player":3}'
    assert read.recorded_at == event.recorded_at
    assert read.recorded_at.tzinfo is not None and read.recorded_at.utcoffset() == timedelta(0)
    assert (read.actor, read.device) == ("dealer-7", "tablet-3")


def test_append_returns_what_read_returns(store: EventStore) -> None:
    """The returned events equal what is read back, even for a tuple payload or a later edit."""
    payload: dict[str, Any] = {"winners": (2, 5), "shares": [(1201, 1200)]}
    stored = store.append("table-1", 0, [new_event(payload)])
    payload["winners"] = (9,)
    assert stored == store.read("table-1")
    assert stored[0].payload == {"winners": [2, 5], "shares": [[1201, 1200]]}


def test_recorded_at_in_another_zone_is_stored_as_utc(store: EventStore) -> None:
    """An aware time is converted to UTC; the instant is kept."""
    paris = datetime(2025, 6, 1, 21, 0, 0, 5, tzinfo=timezone(timedelta(hours=2)))
    (stored,) = store.append("table-1", 0, [new_event(recorded_at=paris)])
    (read,) = store.read("table-1")
    assert read.recorded_at == paris
    assert read.recorded_at.utcoffset() == timedelta(0)
    assert stored.recorded_at == read.recorded_at


def test_read_from_version(store: EventStore) -> None:
    """read(stream, from_version) starts at that version."""
    store.append("table-1", 0, new_events(5))
    assert [event.version for event in store.read("table-1", from_version=4)] == [4, 5]
    assert store.read("table-1", from_version=6) == []


def test_read_of_types_unless_a_payload_holds_a_text(store: EventStore) -> None:
    """read(types=..., unless=(type, text)) leaves out the events of that type whose canonical
    payload holds the text (wildcards of LIKE taken as themselves), and no others."""
    store.append("table-1", 0, [
        new_event({"ruling": ""}, event_type="pot_awarded"),
        new_event({"ruling": "TDA 40"}, event_type="pot_awarded"),
        new_event({"ruling": ""}, event_type="stack_adjusted"),
        new_event({"ruling": "%_"}, event_type="pot_awarded"),
    ])
    read = store.read("table-1", types=("pot_awarded", "stack_adjusted"),
                      unless=("pot_awarded", '"ruling":""'))
    assert [event.version for event in read] == [2, 3, 4]
    assert [e.version for e in store.read("table-1", unless=("pot_awarded", '"%_"'))] == [1, 2, 3]


def test_unknown_stream_reads_empty(store: EventStore) -> None:
    """A stream nobody wrote to has no events and no head."""
    assert store.read("nowhere") == []
    assert store.head("nowhere") is None


def test_read_all_is_in_commit_order_across_streams(store: EventStore) -> None:
    """read_all interleaves streams in the order their appends committed."""
    store.append("table-1", 0, new_events(2))
    store.append("tournament", 0, new_events(1), kind="tournament")
    store.append("table-1", 2, new_events(1, start=3))
    every = store.read_all()
    assert [(event.stream_id, event.version) for event in every] == [
        ("table-1", 1), ("table-1", 2), ("tournament", 1), ("table-1", 3),
    ]
    positions = [event.position for event in every]
    assert positions == sorted(positions)
    assert store.read_all(from_position=positions[2]) == every[2:]
    assert store.read_all(from_position=positions[1], limit=2) == every[1:3]
    assert store.read_all(from_position=positions[-1] + 1) == []


def test_head_and_streams(store: EventStore) -> None:
    """A head holds the last version and hash; the kind is the one given at creation."""
    last = store.append("table-1", 0, new_events(2))[-1]
    store.append("tournament", 0, new_events(1), kind="tournament")
    store.append("table-1", 2, new_events(1, start=3), kind="ignored-after-creation")
    head = store.head("table-1")
    assert head is not None
    assert (head.stream_id, head.kind, head.version) == ("table-1", "table", 3)
    assert head.hash == store.read("table-1")[-1].hash != last.hash
    assert [(h.stream_id, h.kind, h.version) for h in store.streams()] == [
        ("table-1", "table", 3), ("tournament", "tournament", 1),
    ]


def test_empty_append_is_a_no_op(store: EventStore) -> None:
    assert store.append("table-1", 0, []) == []
    assert store.head("table-1") is None


# --- 1. optimistic concurrency ----------------------------------------------------------------


def test_conflict_names_expected_and_actual_versions(store: EventStore) -> None:
    """A stale expected_version is refused with both versions and what to do."""
    store.append("table-1", 0, new_events(3))
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("table-1", 1, new_events(1))
    conflict = caught.value
    assert (conflict.stream_id, conflict.expected, conflict.actual) == ("table-1", 1, 3)
    message = str(conflict)
    assert "version 3" in message and "expected version 1" in message
    assert "Reload the stream and retry" in message


def test_conflict_adds_nothing(store: EventStore) -> None:
    """A refused append leaves the stream and its head as they were."""
    store.append("table-1", 0, new_events(2))
    before = (store.read_all(), store.head("table-1"))
    for expected in (0, 1, 3, 10):
        with pytest.raises(ConcurrencyConflict):
            store.append("table-1", expected, new_events(2))
    assert (store.read_all(), store.head("table-1")) == before


def test_appending_to_a_missing_stream_needs_version_zero(store: EventStore) -> None:
    """expected_version > 0 on a stream that does not exist is a conflict (actual 0)."""
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("table-9", 2, new_events(1))
    assert caught.value.actual == 0
    assert store.streams() == []


def test_creating_an_existing_stream_is_a_conflict(store: EventStore) -> None:
    store.append("table-1", 0, new_events(1))
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("table-1", 0, new_events(1))
    assert (caught.value.expected, caught.value.actual) == (0, 1)


# --- 2. idempotency ---------------------------------------------------------------------------


def test_retried_append_succeeds_and_adds_nothing(store: EventStore) -> None:
    """The same events re-sent (a client retry) return the stored events; nothing is added."""
    batch = new_events(3)
    first = store.append("table-1", 0, batch)
    again = store.append("table-1", 0, batch)
    assert again == first
    assert store.read_all() == first
    head = store.head("table-1")
    assert head is not None and head.version == 3


def test_retry_after_the_stream_moved_on_still_succeeds(store: EventStore) -> None:
    """A late retry is recognised by its event ids, even with a stale expected_version."""
    batch = new_events(2)
    first = store.append("table-1", 0, batch)
    store.append("table-1", 2, new_events(3, start=3))
    assert store.append("table-1", 0, batch) == first
    assert len(store.read_all()) == 5


def test_retry_with_a_new_recorded_at_still_succeeds(store: EventStore) -> None:
    """Only content counts for a retry: the first write's time, actor and device are kept."""
    event = new_event({"player": 4})
    (first,) = store.append("table-1", 0, [event])
    retry = NewEvent(event.event_id, event.type, event.schema_version, {"player": 4},
                     "dealer-8", "tablet-9", event.recorded_at + timedelta(seconds=5))
    assert store.append("table-1", 0, [retry]) == [first]


def test_same_id_with_a_different_payload_is_refused(store: EventStore) -> None:
    """An event id reused for different content is a DuplicateEventConflict naming the id."""
    event = new_event({"player": 1})
    store.append("table-1", 0, [event])
    changed = NewEvent(event.event_id, event.type, 1, {"player": 2}, "d", "t", event.recorded_at)
    with pytest.raises(DuplicateEventConflict) as caught:
        store.append("table-1", 0, [changed])
    assert caught.value.event_id == event.event_id
    assert str(event.event_id) in str(caught.value)
    assert "payload differs" in str(caught.value)
    assert len(store.read_all()) == 1


def test_same_id_with_a_different_type_is_refused(store: EventStore) -> None:
    event = new_event({"player": 1})
    store.append("table-1", 0, [event])
    changed = NewEvent(event.event_id, "player_checked", 1, {"player": 1}, "d", "t",
                       event.recorded_at)
    with pytest.raises(DuplicateEventConflict, match="player_checked"):
        store.append("table-1", 0, [changed])


def test_same_id_on_another_stream_is_refused(store: EventStore) -> None:
    event = new_event()
    store.append("table-1", 0, [event])
    with pytest.raises(DuplicateEventConflict, match="in stream 'table-1', not 'table-2'"):
        store.append("table-2", 0, [event])
    assert store.head("table-2") is None


def test_an_append_on_a_head_another_store_moved_is_a_conflict(
        store: EventStore, db_url: str) -> None:
    """This store remembers the head it wrote (its next append there is one round trip on
    PostgreSQL); another store (another server process) appended since: the append is refused
    with the actual version and adds nothing, a retry of the other's events through this
    store succeeds, and an id already stored is refused as before."""
    store.append("table-1", 0, new_events(2))
    theirs = new_events(1, start=3)
    with open_store(db_url) as other:
        other.append("table-1", 2, theirs)
    before = (store.read_all(), store.tree_head())
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("table-1", 2, new_events(1, start=4))
    assert (caught.value.expected, caught.value.actual) == (2, 3)
    assert (store.read_all(), store.tree_head()) == before
    assert [e.event_id for e in store.append("table-1", 2, theirs)] == [
        e.event_id for e in theirs]
    assert store.append("table-1", 3, new_events(1, start=5))[0].version == 4
    with pytest.raises(DuplicateEventConflict):
        store.append("table-1", 4, [theirs[0]])
    assert store.tree_head().size == 4


def test_same_id_at_another_version_is_refused(store: EventStore) -> None:
    batch = new_events(2)
    store.append("table-1", 0, batch)
    with pytest.raises(DuplicateEventConflict, match="version 2 of the stream, not version 1"):
        store.append("table-1", 0, [batch[1]])


def test_partly_stored_batch_is_refused_atomically(store: EventStore) -> None:
    """A batch mixing a stored id with new ones adds none of them."""
    stored = new_event()
    store.append("table-1", 0, [stored])
    fresh = new_event()
    with pytest.raises(DuplicateEventConflict):
        store.append("table-1", 1, [fresh, stored])
    with pytest.raises(DuplicateEventConflict):
        store.append("table-1", 0, [stored, fresh])
    assert [event.event_id for event in store.read_all()] == [stored.event_id]


def test_one_id_twice_in_one_append_is_refused(store: EventStore) -> None:
    event = new_event()
    with pytest.raises(DuplicateEventConflict, match="twice in one append"):
        store.append("table-1", 0, [event, event])
    assert store.read_all() == []


# --- input checks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload",
    [{"amount": 12.5}, {"nested": [1, 2.0]}, {1: "not a text key"}],
    ids=["float", "nested-float", "int-key"],
)
def test_payload_without_canonical_json_is_refused(store: EventStore, payload: Any) -> None:
    """Floats (chips are ints) and non-text keys have no canonical form: nothing is stored."""
    with pytest.raises(CanonicalJsonError):
        store.append("table-1", 0, [new_event(payload)])
    assert store.head("table-1") is None


def test_naive_recorded_at_is_refused(store: EventStore) -> None:
    with pytest.raises(ValueError, match="time zone"):
        store.append("table-1", 0, [new_event(recorded_at=datetime(2025, 1, 1))])


@pytest.mark.parametrize(
    "moment",
    [datetime(999, 12, 31, 23, 59, tzinfo=UTC), datetime(9999, 1, 1, tzinfo=UTC),
     datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=2)))],
    ids=["year-999", "year-9999", "before-year-1-in-utc"],
)
def test_recorded_at_without_a_stable_text_is_refused(store: EventStore, moment: datetime) -> None:
    """The hashed time must have a four-digit year and read back on PostgreSQL in any zone."""
    with pytest.raises(ValueError, match="recorded_at"):
        store.append("table-1", 0, [new_event(recorded_at=moment)])
    assert store.head("table-1") is None


@pytest.mark.parametrize("expected", [-1, 1.0, True])
def test_bad_expected_version_is_refused(store: EventStore, expected: Any) -> None:
    with pytest.raises(ValueError, match="expected_version"):
        store.append("table-1", expected, new_events(1))


# --- 4. hash chain ----------------------------------------------------------------------------


def test_events_form_a_hash_chain_per_stream(store: EventStore) -> None:
    """prev_hash links each version to the one before, from GENESIS; hashes recompute from what
    is read back, event id, time, actor and device included (hash format 2)."""
    store.append("table-1", 0, new_events(2))
    store.append("table-2", 0, new_events(2))
    store.append("table-1", 2, new_events(2, start=3))
    for stream_id in ("table-1", "table-2"):
        previous = GENESIS_HASH
        for event in store.read(stream_id):
            assert event.prev_hash == previous
            assert event.hash == chain_hash(
                previous, stream_id, event.version, event_id=event.event_id,
                event_type=event.type, schema_version=event.schema_version,
                payload_json=event.payload_json, recorded_at=event.recorded_at,
                actor=event.actor, device=event.device,
            )
            previous = event.hash
    assert verify_events(store.read_all(), store.streams()) == []


RECORDED_AT_CASES = [
    datetime(2025, 3, 14, 19, 30, 0, 123456, tzinfo=UTC),
    datetime(2025, 3, 14, 19, 30, tzinfo=UTC),  # no microseconds: still six digits
    datetime(2025, 3, 14, 19, 30, 0, 1, tzinfo=UTC),
    datetime(2025, 10, 26, 2, 30, 0, 999999, tzinfo=timezone(timedelta(hours=2))),
    datetime(2024, 2, 29, 23, 59, 59, 500000, tzinfo=timezone(-timedelta(hours=9, minutes=30))),
    datetime(1000, 1, 1, tzinfo=UTC),
    datetime(9998, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
]


def _in_session_time_zone(url: str, zone: str) -> str:
    """`url` with its PostgreSQL sessions in time zone `zone` (SQLite has none: unchanged)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return url
    options = f"{parsed.query.get('options', '')} -ctimezone={zone}".strip()
    return parsed.update_query_dict({"options": options}).render_as_string(hide_password=False)


def test_recorded_at_text_round_trips_exactly(db_url: str) -> None:
    """The canonical text of every recorded time (hashed at append) is exactly the text of the
    time read back, from a fresh connection, so recomputing a hash is stable on both backends,
    whatever time zone a PostgreSQL session is in (written at -12, read at +14)."""
    upgrade_database(db_url)
    events = [new_event({"n": index}, recorded_at=moment, actor=f"dealer-{index}",
                        device=f"tablet-{index}")
              for index, moment in enumerate(RECORDED_AT_CASES)]
    with open_store(_in_session_time_zone(db_url, "Etc/GMT+12")) as first:
        stored = first.append("table-1", 0, events)
    with open_store(_in_session_time_zone(db_url, "Pacific/Kiritimati")) as second:
        read = second.read_all()
        heads, snapshot = second.snapshot()
    expected = [format_utc(moment.astimezone(UTC)) for moment in RECORDED_AT_CASES]
    assert [format_utc(event.recorded_at) for event in stored] == expected
    assert [format_utc(event.recorded_at) for event in read] == expected
    assert [format_utc(event.recorded_at) for event in snapshot] == expected
    assert expected[1] == "2025-03-14T19:30:00.000000Z"
    assert expected[3] == "2025-10-26T00:30:00.999999Z"
    assert read == stored == snapshot
    assert verify_events(snapshot, heads) == []


def test_snapshot_verifies(store: EventStore) -> None:
    store.append("table-1", 0, new_events(4))
    heads, events = store.snapshot()
    assert len(events) == 4 and len(heads) == 1
    assert verify_events(events, heads) == []


# --- 5. append-only in the database -----------------------------------------------------------


def _refused(db_url: str, statement: str) -> str:
    connection = driver_connect(db_url)
    try:
        with pytest.raises(Exception) as caught:  # noqa: B017 - any driver's error type
            connection.execute(statement)
        return str(caught.value)
    finally:
        connection.close()


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET payload = '{\"n\":99}' WHERE version = 1",
        "UPDATE events SET actor = 'someone else'",
        "DELETE FROM events WHERE version = 2",
        "DELETE FROM events",
    ],
)
def test_database_refuses_update_and_delete_of_events(
    store: EventStore, db_url: str, statement: str
) -> None:
    """Triggers refuse UPDATE and DELETE on events even for raw SQL through the driver."""
    stored = store.append("table-1", 0, new_events(2))
    assert "handlog events are append-only" in _refused(db_url, statement)
    assert store.read("table-1") == stored


def test_postgresql_refuses_truncate(pg_url: str) -> None:
    """TRUNCATE (PostgreSQL only) would bypass row triggers: a statement trigger refuses it."""
    with open_store(pg_url, upgrade=True) as store:
        stored = store.append("table-1", 0, new_events(1))
        assert "append-only" in _refused(pg_url, "TRUNCATE events CASCADE")
        assert store.read_all() == stored


# --- domain events through the store ----------------------------------------------------------


def test_domain_events_round_trip_through_the_store(store: EventStore) -> None:
    """NewEvent.from_domain + StoredEvent.decode give back the same engine event."""
    domain = [
        PlayerCalled(player=2, amount=400, all_in=True),
        PotAwarded(pot=0, amount=2401, eligible=(0, 2, 5), winners=(2, 5), shares=(1201, 1200),
                   odd_chips=(2,), hand_rank=(2, 9, 3)),
    ]
    moment = datetime(2025, 1, 1, tzinfo=UTC)
    appended = [
        NewEvent.from_domain(event, event_id=uuid.uuid4(), actor="dealer", device="tab",
                             recorded_at=moment)
        for event in domain
    ]
    store.append("table-1", 0, appended)
    assert [event.decode() for event in store.read("table-1")] == domain


# --- opening a database -----------------------------------------------------------------------


def test_reopened_store_reads_the_same_log(db_url: str) -> None:
    upgrade_database(db_url)
    with open_store(db_url) as first:
        stored = first.append("table-1", 0, new_events(3))
    with open_store(db_url) as second:
        assert second.read_all() == stored


def test_store_on_an_empty_database_says_to_upgrade(db_url: str) -> None:
    """No schema: SchemaMissing with the exact command to run (and no SQLite file created)."""
    with pytest.raises(SchemaMissing) as caught:
        open_store(db_url)
    assert "has no handlog schema: run `handlog db upgrade --db " in str(caught.value)
    if db_url.startswith("sqlite"):
        assert not database.sqlite_file(db_url).exists()  # type: ignore[union-attr]


def test_store_behind_or_ahead_of_the_code_says_what_to_do(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database at an older revision names both revisions and the upgrade command."""
    from handlog.schema import revisions as migrations  # what the store reads

    upgrade_database(db_url)
    current = migrations.HEAD_REVISION
    monkeypatch.setattr(migrations, "HEAD_REVISION", "0002_from_the_future")
    with pytest.raises(SchemaBehind) as behind:
        open_store(db_url)
    message = str(behind.value)
    assert f"is at revision {current}, head is 0002_from_the_future" in message
    assert "run `handlog db upgrade --db " in message
    monkeypatch.setattr(migrations, "is_known_revision", lambda revision: False)
    with pytest.raises(SchemaAhead, match="upgrade handlog"):
        open_store(db_url)


def test_open_store_can_upgrade_first(db_url: str) -> None:
    with open_store(db_url, upgrade=True) as opened:
        assert opened.streams() == []


# --- 7. several streams in one transaction ----------------------------------------------------


def test_append_many_lands_every_stream_in_one_transaction(store: EventStore) -> None:
    """A move touches three streams: each gets its events, versions continue per stream."""
    store.append("table-a", 0, new_events(2))
    parts = store.append_many([
        ("tournament-t", 0, new_events(1), "tournament"),
        ("table-a", 2, new_events(1, start=3), "table"),
        ("table-b", 0, new_events(2), "table"),
    ])
    assert [[e.version for e in part] for part in parts] == [[1], [3], [1, 2]]
    assert store.read("table-a")[-1] == parts[1][0]
    assert {h.stream_id: h.kind for h in store.streams()}["tournament-t"] == "tournament"
    positions = [e.position for part in parts for e in part]
    assert len(set(positions)) == 4


def test_append_many_conflict_in_one_stream_writes_none(store: EventStore) -> None:
    """A stale version in any part refuses the whole: the other streams get nothing."""
    store.append("table-a", 0, new_events(2))
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append_many([
            ("tournament-t", 0, new_events(1), "tournament"),
            ("table-b", 0, new_events(1), "table"),
            ("table-a", 1, new_events(1), "table"),
        ])
    assert (caught.value.stream_id, caught.value.expected, caught.value.actual) == (
        "table-a", 1, 2)
    assert store.head("tournament-t") is None and store.head("table-b") is None
    assert len(store.read("table-a")) == 2


def test_append_many_duplicate_in_one_stream_writes_none(store: EventStore) -> None:
    """An id stored with another payload refuses every part of the transaction."""
    (first,) = store.append("table-a", 0, new_events(1))
    reused = new_event({"n": 99}, event_id=first.event_id)
    with pytest.raises(DuplicateEventConflict):
        store.append_many([
            ("table-b", 0, new_events(1), "table"),
            ("table-a", 0, [reused], "table"),
        ])
    assert store.head("table-b") is None


def test_append_many_retried_returns_what_was_stored(store: EventStore) -> None:
    """The same parts sent again (same ids) succeed and add nothing."""
    parts = [("table-a", 0, new_events(2), "table"), ("table-b", 0, new_events(1), "table")]
    first = store.append_many(parts)
    again = store.append_many(parts)
    assert again == first
    assert len(store.read_all()) == 3


def test_append_many_refuses_a_stream_twice(store: EventStore) -> None:
    with pytest.raises(ValueError, match="appears twice"):
        store.append_many([("table-a", 0, new_events(1), "table"),
                           ("table-a", 1, new_events(1), "table")])
    assert store.head("table-a") is None
