"""Streams folded from their last snapshot: one repository for tables and tournaments.

As eventsourcing's `Repository`: an aggregate (a stream's fold) is loaded from the stream's
last stored snapshot and the events stored after it, fast-forwarded from the store's newer
events, and snapshotted again every `every` events. What a fold is (how it starts, takes
events, and what of it a snapshot holds) is a `Kind`: `TableKind` for the recorder's live
tables (replay/incremental.py), `StateKind` for a stream folded by a state and its apply
function (a tournament: `StateKind(TournamentState, apply_tournament)`).

A snapshot is a cache, never evidence (schema/snapshots.py): it is keyed by the code that
wrote it (`Kind.code`: the snapshot's layout, handlog's version and a digest of the fold's
sources), so an upgrade never trusts an older one; one that cannot be read is ignored and the
stream folded from its first event.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import handlog.engine
import handlog.schema
from handlog.engine import HANDLOG_VERSION
from handlog.replay.incremental import LiveTable, ReadStream
from handlog.schema.codec import canonical_json
from handlog.schema.errors import EventCodecError
from handlog.schema.snapshots import SHARED_PREFIX
from handlog.schema.state_codec import from_json, is_shared, share, to_json
from handlog.schema.store import EventStore, StoredEvent

SNAPSHOT_EVERY = 100  # events between two snapshots of a stream (about 3 hands at 6 players)

A = TypeVar("A")
Row = tuple[str, str, int, str]  # a snapshot row: stream (or shared record), code, version, body
S = TypeVar("S")

_log = logging.getLogger(__name__)


def code_digest(*sources: Path) -> str:
    """A digest of handlog's version and of the Python sources named (files, or every file of
    a folder): code that folds or encodes differently makes different snapshots."""
    digest = hashlib.sha256(HANDLOG_VERSION.encode())
    for source in sources:
        for path in sorted(source.glob("*.py")) if source.is_dir() else [source]:
            digest.update(path.name.encode())
            digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()[:24]


_SCHEMA = Path(handlog.schema.__file__).resolve().parent
# The engine and the read side fold; the codecs decode the events and the snapshots.
_FOLD_SOURCES = (Path(handlog.engine.__file__).resolve().parent, Path(__file__).resolve().parent,
                 _SCHEMA / "codec.py", _SCHEMA / "upcasters.py", _SCHEMA / "state_codec.py")


class Kind(Protocol[A]):
    """What a repository needs to know of one kind of stream."""

    code: str  # names the code that writes (and may read) this kind's snapshots

    def load(self, stream: str, stored: Sequence[StoredEvent], read: ReadStream) -> A:
        """The stream folded from its first event (`stored`: all of it)."""
        ...

    def resume(self, stream: str, text: str, tail: Sequence[StoredEvent],
               read: ReadStream) -> A:
        """The stream from a snapshot's text and the events stored after it (raises on a
        body it cannot take)."""
        ...

    def version(self, aggregate: A) -> int: ...

    def extend(self, aggregate: A, new: Sequence[StoredEvent]) -> None: ...

    def point(self, aggregate: A) -> int:
        """The version of the latest point worth keeping (cheap: asked after every change): a
        snapshot there is read back with the events from `point + 1` on; 0 when none."""
        ...

    def snapshot(self, aggregate: A, shared: dict[str, Any]) -> Any:
        """The JSON body of the snapshot at `point(aggregate)`, its large records put in
        `shared` (schema/state_codec.py `to_json`)."""
        ...

    def watch(self, aggregate: A, extended: Callable[[], None]) -> None:
        """Have `extended` called after every extension made without the repository."""
        ...


class TableKind:
    """The recorder's live tables: a snapshot is the table at its last hand start, and at its
    latest state when it is between hands (LiveTable.export)."""

    code = "table-3:" + code_digest(*_FOLD_SOURCES)

    def load(self, stream: str, stored: Sequence[StoredEvent], read: ReadStream) -> LiveTable:
        return LiveTable.load(stream, stored)

    def resume(self, stream: str, text: str, tail: Sequence[StoredEvent],
               read: ReadStream) -> LiveTable:
        return LiveTable.resume(stream, LiveTable.parse_snapshot(text), tail, read)

    def version(self, aggregate: LiveTable) -> int:
        return aggregate.version

    def extend(self, aggregate: LiveTable, new: Sequence[StoredEvent]) -> None:
        aggregate.extend(new)

    def point(self, aggregate: LiveTable) -> int:
        return aggregate.snapshot_point

    def snapshot(self, aggregate: LiveTable, shared: dict[str, Any]) -> Any:
        return aggregate.export(shared)

    def watch(self, aggregate: LiveTable, extended: Callable[[], None]) -> None:
        # (the recorder extends its tables as it appends)
        aggregate.on_extended = lambda _live: extended()


@dataclass
class Folded(Generic[S]):
    """A stream folded by a state and its apply function."""

    stream: str
    version: int
    state: S | None


class StateKind(Generic[S]):
    """A stream folded by `apply(state or None, event) -> state` (a tournament's stream), the
    state a frozen dataclass that schema/state_codec.py keeps: a snapshot is the state."""

    def __init__(self, state_type: type[S], apply: Callable[[S | None, Any], S],
                 name: str) -> None:
        self._state_type = state_type
        self._apply = apply
        self.code = f"{name}-2:" + code_digest(*_FOLD_SOURCES)

    def load(self, stream: str, stored: Sequence[StoredEvent],
             read: ReadStream) -> Folded[S]:
        folded: Folded[S] = Folded(stream, 0, None)
        self.extend(folded, stored)
        return folded

    def resume(self, stream: str, text: str, tail: Sequence[StoredEvent],
               read: ReadStream) -> Folded[S]:
        body = json.loads(text)
        version, state = body["version"], from_json(self._state_type, body["state"])
        if type(version) is not int or (tail and tail[0].version != version + 1):
            raise ValueError("the stored events do not follow the snapshot")
        folded: Folded[S] = Folded(stream, version, state)
        self.extend(folded, tail)
        return folded

    def version(self, aggregate: Folded[S]) -> int:
        return aggregate.version

    def extend(self, aggregate: Folded[S], new: Sequence[StoredEvent]) -> None:
        for stored in new:
            if stored.version > aggregate.version:
                aggregate.state = self._apply(aggregate.state, stored.decode())
                aggregate.version = stored.version

    def point(self, aggregate: Folded[S]) -> int:
        return aggregate.version if aggregate.state is not None else 0

    def snapshot(self, aggregate: Folded[S], shared: dict[str, Any]) -> Any:
        return {"version": aggregate.version, "state": to_json(aggregate.state, shared)}

    def watch(self, aggregate: Folded[S], extended: Callable[[], None]) -> None:
        pass  # (extended through `Repository.extend` only)


@contextlib.contextmanager
def _collector_paused(streams: int) -> Iterator[None]:
    """Python's cycle collector paused while many streams are decoded at once, and what they
    made moved out of its sight (`gc.freeze`): a floor's first read makes 1,000 tables' states,
    many small frozen objects with no cycle among them, kept as long as the server runs, and
    the collections they set off took a third of that read and as much of the next one.
    (Reference counting still frees them when they are replaced.)"""
    if streams < _MANY or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


_MANY = 50  # streams read at once for which the collector is paused


class Repository(Generic[A]):
    """Streams of one kind, loaded from their snapshots (`every`: events between two
    snapshots of a stream; 0 keeps none and reads none: every stream folded from its start)."""

    def __init__(self, store: EventStore, kind: Kind[A], every: int = SNAPSHOT_EVERY) -> None:
        self.store = store
        self.kind = kind
        self.every = every
        self._snapshots = store.snapshot_store()
        self._kept: dict[str, int] = {}  # stream -> version of its snapshot in the database
        self._shared_kept: set[str] = set()  # digests of the shared records in the database
        self.events_read = 0  # (for tests: a restart reads only what follows a snapshot)

    def get(self, stream: str) -> tuple[A, list[StoredEvent]]:
        """The stream's fold and the events read to make it."""
        return self.get_many([stream])[stream]

    def get_many(self, streams: Sequence[str]) -> dict[str, tuple[A, list[StoredEvent]]]:
        """`get` for several streams, one query for their snapshots and one for their events."""
        kept = self._snapshots.load(streams, self.kind.code) if self.every and streams else {}
        self._take_shared(kept)
        since = {s: kept[s][0] + 1 if s in kept else 1 for s in streams}
        stored = self.store.read_streams(list(streams), since)
        result: dict[str, tuple[A, list[StoredEvent]]] = {}
        due: list[Row] = []  # written at once (a floor's first read)
        with _collector_paused(len(streams)):
            self._fold_many(streams, kept, since, stored, result, due)
        self._save(due)
        return result

    def _fold_many(self, streams: Sequence[str], kept: dict[str, tuple[int, str]],
                   since: dict[str, int], stored: dict[str, list[StoredEvent]],
                   result: dict[str, tuple[A, list[StoredEvent]]], due: list[Row]) -> None:
        for stream in streams:
            events = stored[stream]
            aggregate = self._resumed(stream, kept[stream], events) if stream in kept else None
            if aggregate is None:
                if since[stream] > 1:
                    events = self.store.read(stream)
                aggregate = self.kind.load(stream, events, self._reader(stream))
            self.events_read += len(events)
            self._kept.setdefault(stream, kept[stream][0] if stream in kept else 0)
            self.kind.watch(aggregate, self._keeper(aggregate, stream))
            due += self._due(aggregate, stream)
            result[stream] = (aggregate, events)

    def _take_shared(self, kept: dict[str, tuple[int, str]]) -> None:
        """Give state_codec the shared records read with the snapshots (taken out of `kept`)."""
        for name in [name for name in kept if name.startswith(SHARED_PREFIX)]:
            digest, text = name[len(SHARED_PREFIX):], kept.pop(name)[1]
            try:
                if not is_shared(digest):
                    share(digest, json.loads(text))
            except (ValueError, RecursionError, EventCodecError) as error:
                _log.warning("shared snapshot record %s ignored: %s", digest, error)
                continue  # (written again with the next snapshot that holds it)
            self._shared_kept.add(digest)

    def _keeper(self, aggregate: A, stream: str) -> Callable[[], None]:
        return lambda: self.keep(aggregate, stream)

    def _resumed(self, stream: str, snapshot: tuple[int, str],
                 events: list[StoredEvent]) -> A | None:
        try:
            return self.kind.resume(stream, snapshot[1], events,
                                    self._reader(stream))
        except Exception as error:  # noqa: BLE001 - a cache: any fault costs only the fold
            _log.warning("snapshot of %s at %d ignored: %s", stream, snapshot[0], error)
            return None

    def _reader(self, stream: str) -> ReadStream:
        def read(from_version: int, to_version: int) -> list[StoredEvent]:
            stored = self.store.read(stream, from_version, to_version)
            self.events_read += len(stored)
            return stored
        return read

    def fast_forward(self, aggregate: A, stream: str) -> list[StoredEvent]:
        """Extend `aggregate` by the events stored after it; returns them."""
        new = self.store.read(stream, self.kind.version(aggregate) + 1)
        self.events_read += len(new)
        self.extend(aggregate, stream, new)
        return new

    def extend(self, aggregate: A, stream: str, new: Sequence[StoredEvent]) -> None:
        """Extend `aggregate` by events just appended (or read), snapshotting when due."""
        self.kind.extend(aggregate, new)
        self.keep(aggregate, stream)

    def keep(self, aggregate: A, stream: str) -> None:
        """Store a snapshot of `aggregate` if `every` events passed since the last one."""
        self._save(self._due(aggregate, stream))

    def _due(self, aggregate: A, stream: str) -> list[Row]:
        """The snapshot to write (after the shared records it holds that the database has
        not), if `every` events passed since the last one."""
        if not self.every:
            return []
        point = self.kind.point(aggregate)
        if point - self._kept.get(stream, 0) < self.every:
            return []
        self._kept[stream] = point  # (a failed write is not retried before `every` more)
        shared: dict[str, Any] = {}
        try:
            text = canonical_json(self.kind.snapshot(aggregate, shared))
        except Exception as error:  # noqa: BLE001 - a cache: the next one may be written
            _log.warning("snapshot of %s at %d not made: %s", stream, point, error)
            return []
        rows = [(SHARED_PREFIX + digest, self.kind.code, 0, canonical_json(value))
                for digest, value in shared.items() if digest not in self._shared_kept]
        self._shared_kept.update(shared)
        return [*rows, (stream, self.kind.code, point, text)]

    def _save(self, snapshots: list[Row]) -> None:
        try:
            self._snapshots.save_many(snapshots)
        except Exception as error:  # noqa: BLE001 - a cache: the next ones may be written
            _log.warning("%d snapshots not written: %s", len(snapshots), error)
            self._shared_kept.difference_update(
                name[len(SHARED_PREFIX):] for name, *_rest in snapshots
                if name.startswith(SHARED_PREFIX))
