"""A table's fold kept live: extended event by event, corrected from snapshots.

A table is loaded whole (`load`) or resumed from a stored snapshot of a hand's start (`resume`,
replay/repository.py): then the hands before it are read from the store only when a reader walks
back to them, and a correction reaching before it folds the whole stream once.

The recorder holds one `LiveTable` per table stream it serves. An append extends it by the new
events (no re-read, no re-fold); a correction (void, amend, undo) folds again only from the
snapshot of the table at the start of the hand it touches, so its cost is one hand's events
whatever the table's history. Snapshots are a cache of `fold_effective`'s own states, never
evidence: tests/test_incremental.py checks them against the full fold of the stream.
"""

from __future__ import annotations

import bisect
import itertools
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted
from handlog.engine.table import TableState, apply_table, open_table
from handlog.engine.table_events import EventAmended, EventVoided, TableOpened
from handlog.replay.fold import Finding, TableFold, effective_events, fold_effective
from handlog.schema.codec import canonical_json, decode_event, encode_event
from handlog.schema.errors import EventCodecError
from handlog.schema.state_codec import from_json, to_json
from handlog.schema.store import StoredEvent

ReadStream = Callable[[int, int], Sequence[StoredEvent]]
"""Reads a stream's stored events from the first given version to the second."""

_MATERIALIZING = threading.Lock()  # (a table resumed from its latest state made whole: rare)

RECENT_SNAPSHOTS = 16  # hand starts kept for the last hands (where corrections land)
SPARSE_EVERY = 32  # and one hand start in this many further back


class History:
    """The effective events before a table resumed from a snapshot: `count` of them, read from
    the store only when a reader walks that far back (once; safe from any thread)."""

    def __init__(self, count: int, read: Callable[[], Sequence[StoredEvent]]) -> None:
        self.count = count
        self._read = read
        self._events: list[tuple[int, Any]] | None = None
        self._lock = threading.Lock()

    def events(self) -> list[tuple[int, Any]]:
        with self._lock:
            if self._events is None:
                events, _voided = effective_events(self._read())
                if len(events) != self.count:
                    raise ValueError(f"the snapshot counted {self.count} events before it, "
                                     f"the log has {len(events)}")
                self._events = events
            return self._events


class EffectiveView(Sequence[tuple[int, Any]]):
    """The first `length` items of a list that only grows at its end: a fold's effective
    events, shared with the live table instead of copied on every append; after `history`
    (the events before the list, for a table resumed from a snapshot) when there is one."""

    __slots__ = ("_items", "_length", "_history", "_before")

    def __init__(self, items: list[tuple[int, Any]], length: int,
                 history: History | None = None) -> None:
        self._items = items
        self._length = length
        self._history = history
        self._before = history.count if history is not None else 0

    def __len__(self) -> int:
        return self._before + self._length

    @overload
    def __getitem__(self, index: int) -> tuple[int, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("effective event index out of range")
        if index < self._before:
            assert self._history is not None
            return self._history.events()[index]
        return self._items[index - self._before]

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        held = itertools.islice(self._items, self._length)
        if self._history is None:
            return held
        return itertools.chain(self._lazy_history(), held)

    def _lazy_history(self) -> Iterator[tuple[int, Any]]:
        assert self._history is not None
        yield from self._history.events()

    def __reversed__(self) -> Iterator[tuple[int, Any]]:
        # (a C iterator, not a generator: a walk back that stops early, as most do, closes
        # no generator frame)
        held = map(self._items.__getitem__, range(self._length - 1, -1, -1))
        if self._history is None:
            return held
        # A walk back that stops in the held events (the current hand) reads no history.
        return itertools.chain(held, self._lazy_history_reversed())

    def _lazy_history_reversed(self) -> Iterator[tuple[int, Any]]:
        assert self._history is not None
        yield from reversed(self._history.events())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EffectiveView({len(self)} events)"


_LATEST, _START = '{"latest":', ',"start":'  # (canonical JSON: keys sorted, no spaces)
_DECODER = json.JSONDecoder()


def _start_of(body: dict[str, Any]) -> dict[str, Any]:
    """The hand-start part of a between-hands snapshot's body."""
    text = json.loads(body["start_literal"]) if "start_literal" in body else body["start"]
    start: dict[str, Any] = json.loads(text)
    return start


class _PendingEffective(Sequence[tuple[int, Any]]):
    """The effective events of a table resumed from its latest state: read (the table made
    whole) on first use."""

    __slots__ = ("_live",)

    def __init__(self, live: LiveTable) -> None:
        self._live = live

    def _view(self) -> EffectiveView:
        self._live._ready()
        assert self._live._pending_view is not None
        return self._live._pending_view

    def __len__(self) -> int:
        return len(self._view())

    @overload
    def __getitem__(self, index: int) -> tuple[int, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self._view()[index]

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        return iter(self._view())

    def __reversed__(self) -> Iterator[tuple[int, Any]]:
        return reversed(self._view())

    def __eq__(self, other: object) -> bool:
        return self._view() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "PendingEffective()"


@dataclass(frozen=True)
class _Snapshot:
    index: int  # where the hand_started is in the effective list
    version: int  # its stream version
    state: TableState | None  # the table just before it


def _apply(state: TableState | None, event: Any) -> TableState | None:
    if isinstance(event, TableOpened):
        return open_table(event)
    if state is None:
        return None
    return apply_table(state, event)


def _targets(correction: Any) -> list[int]:
    if isinstance(correction, EventVoided):
        return list(correction.versions)
    return [correction.version]


def _replacement(event: EventAmended) -> Any:
    return decode_event(event.replacement_type, event.replacement_version,
                        json.loads(event.replacement_payload))


class LiveTable:
    """One table stream's fold, kept up to date in memory (not thread-safe: the recorder
    holds the stream's lock around every change)."""

    def __init__(self, stream: str) -> None:
        self.stream = stream
        self.version = 0
        self.state: TableState | None = None
        self.findings: tuple[Finding, ...] = ()
        self._effective: list[tuple[int, Any]] = []
        self._voided: set[int] = set()
        self._voided_frozen: frozenset[int] = frozenset()
        self._amended: dict[int, Any] = {}
        self._corrections: list[int] = []  # versions of the void and amend events
        self._snapshots: list[_Snapshot] = []
        self._hands = 0
        self.folds = 0  # folds from a snapshot or from the start (for tests and benchmarks)
        self._published: TableFold | None = None
        # Resumed from a stored snapshot: the hand start it holds (never thinned out), the
        # effective events before it (read when asked) and the stream's reader (for a
        # correction that reaches further back: then the whole stream is folded).
        self._start: _Snapshot | None = None
        self._history: History | None = None
        self._read: ReadStream | None = None
        self.on_extended: Callable[[LiveTable], None] | None = None
        """Hears every extension (the repository keeps a snapshot now and then)."""
        # Resumed from its latest state only: the snapshot's body and the stream's reader,
        # until `_ready` makes it whole; then the effective events at that version (what the
        # folds handed out before read).
        self._pending: tuple[dict[str, Any], ReadStream] | None = None
        self._pending_view: EffectiveView | None = None

    @classmethod
    def load(cls, stream: str, stored: Sequence[StoredEvent]) -> LiveTable:
        """Fold the whole stream once (a server's first read of a table)."""
        live = cls(stream)
        effective, voided = effective_events(stored)
        for event in stored:
            if event.type == EventAmended.TYPE:
                amended = event.decode()
                live._amended[amended.version] = _replacement(amended)
                live._corrections.append(event.version)
            elif event.type == EventVoided.TYPE:
                live._corrections.append(event.version)
        live._voided = voided
        live._voided_frozen = frozenset(voided)
        live.version = stored[-1].version if stored else 0
        live._refold_from(None, effective)
        return live

    @classmethod
    def at(cls, stream: str, version: int, state: TableState | None) -> LiveTable:
        """A table known only by its state at `version` (to decide one command there)."""
        live = cls(stream)
        live.version = version
        live.state = state
        return live

    @staticmethod
    def parse_snapshot(text: str) -> dict[str, Any]:
        """A snapshot's body from its text: of a between-hands one, only the latest state is
        parsed (the hand start's text, half the body, when a reader needs it: `_start_of`)."""
        if text.startswith(_LATEST):
            latest, end = _DECODER.raw_decode(text, len(_LATEST))
            rest = text[end:]
            if rest.startswith(_START) and rest.endswith("}"):
                return {"latest": latest, "start_literal": rest[len(_START):-1]}
        body: dict[str, Any] = json.loads(text)
        return body

    @classmethod
    def resume(cls, stream: str, body: dict[str, Any], tail: Sequence[StoredEvent],
               read: ReadStream) -> LiveTable:
        """The table from a stored snapshot (`export`'s body) and the events stored after it:
        the hands before it are not folded, and read from the store only when asked for.
        Raises ValueError or EventCodecError for a body this code did not write.

        A body with the table's latest state (`latest`: taken between hands) and no event
        after it gives a table that holds only that state, its findings and its voided
        versions (what the floor's card reads): the last hand is read and folded from the
        hand start the body also holds when anything else is asked of it (`_ready`)."""
        latest = body.get("latest")
        if latest is None:
            return cls._from_hand_start(stream, body, tail, read)
        version = _int(latest["version"])
        if tail and tail[0].version != version + 1:
            raise ValueError("the stored events do not follow the snapshot")
        if tail:
            start = _start_of(body)
            since_start = read(_int(start["version"]), version)
            return cls._from_hand_start(stream, start, [*since_start, *tail], read)
        live = cls(stream)
        live.version = version
        live.state = from_json(TableState | None, latest["state"])
        live.findings = from_json(tuple[Finding, ...], latest["findings"])
        live._voided_frozen = frozenset(from_json(tuple[int, ...], latest["voided"]))
        live._pending = (body, read)
        return live

    @classmethod
    def _from_hand_start(cls, stream: str, body: dict[str, Any], tail: Sequence[StoredEvent],
                         read: ReadStream) -> LiveTable:
        start = _Snapshot(_int(body["index"]), _int(body["version"]),
                          from_json(TableState | None, body["state"]))
        decoded = [(e.version, e.decode()) for e in tail]
        if not decoded or not isinstance(decoded[0][1], HandStarted) or any(
                e.version != start.version + k for k, e in enumerate(tail)):
            raise ValueError("the stored events do not start where the snapshot says")
        if any(isinstance(e, (EventVoided, EventAmended)) and min(_targets(e)) < start.version
               for _v, e in decoded):
            # A correction reaches before the snapshot: the whole stream is folded.
            return cls.load(stream, read(1, tail[-1].version))
        live = cls(stream)
        live.findings = from_json(tuple[Finding, ...], body["findings"])
        live._voided = set(from_json(tuple[int, ...], body["voided"]))
        live._amended = {_int(v): decode_event(t, _int(sv), p)
                         for v, t, sv, p in body["amended"]}
        live._corrections = list(from_json(tuple[int, ...], body["corrections"]))
        live._hands = _int(body["hands"])
        for version, event in decoded:
            if isinstance(event, EventVoided):
                live._voided.update(event.versions)
                live._corrections.append(version)
            elif isinstance(event, EventAmended):
                live._amended[event.version] = _replacement(event)
                live._corrections.append(version)
        live._voided_frozen = frozenset(live._voided)
        live.version = tail[-1].version
        live._start, live._read = start, read
        if start.index:
            live._history = History(start.index, lambda: read(1, start.version - 1))
        tail_effective = [(v, live._amended.get(v, e)) for v, e in decoded
                          if not isinstance(e, (EventVoided, EventAmended))
                          and v not in live._voided]
        live._refold_from(start, tail_effective)
        return live

    def export(self, shared: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """The last hand start held, as a snapshot `resume` takes (JSON values only; `shared`:
        as `to_json`'s); None before the first hand. (At a hand's start, not later: the
        tablet's views and the undo walk back to the start of the last hand, which a resumed
        table then holds.)"""
        self._ready()
        if not self._snapshots:
            return None
        last = self._snapshots[-1]
        amended = sorted((v, *encode_event(e)) for v, e in self._amended.items()
                         if v < last.version)
        body: dict[str, Any] = {
            "version": last.version,
            "index": last.index + (self._history.count if self._history else 0),
            "hands": self._hands - 1,
            "state": to_json(last.state, shared),
            "findings": to_json(tuple(f for f in self.findings if f.version < last.version)),
            "voided": sorted(v for v in self._voided if v < last.version),
            "amended": [list(a) for a in amended],
            "corrections": [v for v in self._corrections if v < last.version],
        }
        if self.between_hands:
            # The floor's cold read takes this alone (nothing folded); every other reader
            # resumes from the hand start, kept as text (parsed only by them).
            return {"latest": {"version": self.version, "state": to_json(self.state, shared),
                               "findings": to_json(self.findings),
                               "voided": sorted(self._voided_frozen)},
                    "start": canonical_json(body)}
        return body

    @property
    def between_hands(self) -> bool:
        """Whether the table is open with no hand in progress, after its first hand."""
        return (self.state is not None and not self.state.hand_in_progress
                and (self._pending is not None or bool(self._snapshots)))

    @property
    def snapshot_point(self) -> int:
        """The version a snapshot taken now is read back from: the table's latest state
        between hands, else the state just before its last hand start (0: none)."""
        if self.between_hands:
            return self.version
        return max(self.last_hand_start - 1, 0)

    def _ready(self) -> None:
        """Make a table resumed from its latest state whole: the last hand read and folded
        from the snapshot's hand start (the whole stream when that cannot be read back)."""
        if self._pending is None:
            return
        with _MATERIALIZING:
            pending = self._pending
            if pending is None:
                return
            body, read = pending
            try:
                start = _start_of(body)
                whole = LiveTable._from_hand_start(
                    self.stream, start, read(_int(start["version"]), self.version), read)
                if whole.version != self.version or whole.state != self.state:
                    raise ValueError("the hand start does not lead to the latest state")
            except Exception:  # noqa: BLE001 - a cache: any fault costs only the fold
                whole = LiveTable.load(self.stream, read(1, self.version))
            whole.folds += self.folds
            whole.on_extended = self.on_extended
            view = EffectiveView(whole._effective, len(whole._effective), whole._history)
            self.__dict__.update(whole.__dict__)
            self._pending_view = view

    def _whole(self) -> None:
        """Fold the whole stream (a correction or a question reaches before the snapshot this
        table was resumed from): from now on it is as if it had been loaded from the start."""
        assert self._read is not None
        whole = LiveTable.load(self.stream, self._read(1, self.version))
        whole.folds += self.folds
        whole.on_extended = self.on_extended
        self.__dict__.update(whole.__dict__)

    # --- reading ------------------------------------------------------------------------

    def fold(self) -> TableFold:
        """The table as of the last change, whole: made once per change, and handed out
        as one object, so that a reader in another thread never sees a version with the
        state of the one before (it reads without the recorder's lock)."""
        published = self._published
        if published is None:
            published = self._publish()
        return published

    def _publish(self) -> TableFold:
        effective: Sequence[tuple[int, Any]] = (
            _PendingEffective(self) if self._pending is not None
            else EffectiveView(self._effective, len(self._effective), self._history))
        published = TableFold(self.stream, self.version, self.state, self.findings,
                              effective, self._voided_frozen)
        self._published = published
        return published

    def state_before(self, version: int) -> TableState | None:
        """The table just before `version`, as the effective events stand now (from the last
        snapshot before it: no fold of the table's history)."""
        self._ready()
        snapshot = self._snapshot_at_or_before(version)
        index, state = (snapshot.index, snapshot.state) if snapshot else (0, None)
        for v, event in itertools.islice(self._effective, index, None):
            if v >= version:
                break
            state = _apply(state, event)
        return state

    def amended_versions(self) -> frozenset[int]:
        """The versions an amendment replaced (a director's corrections)."""
        self._ready()
        return frozenset(self._amended)

    def corrected_since(self, version: int) -> bool:
        """Whether a void or amend was recorded after `version`."""
        self._ready()
        return bool(self._corrections) and self._corrections[-1] > version

    def trial_findings(self, corrections: Sequence[Any]) -> list[Finding]:
        """What the corrections would make wrong: the findings of the fold with them that the
        fold without them does not have, both from the last snapshot before what they touch."""
        self._ready()
        start = min(t for c in corrections for t in _targets(c))
        snapshot = self._snapshot_at_or_before(start)
        index, state = (snapshot.index, snapshot.state) if snapshot else (0, None)
        tail_now = self._effective[index:]
        voided: set[int] = set()
        amended: dict[int, Any] = {}
        for correction in corrections:
            if isinstance(correction, EventVoided):
                voided.update(correction.versions)
            else:
                amended[correction.version] = _replacement(correction)
        tail_trial = [(v, amended.get(v, e)) for v, e in tail_now if v not in voided]
        self.folds += 2
        _, before = fold_effective(self.stream, tail_now, state, self.version, verify=True)
        _, after = fold_effective(self.stream, tail_trial, state, self.version + 1, verify=True)
        known = {(f.version, f.message) for f in before}
        return [f for f in after if (f.version, f.message) not in known]

    # --- extending ----------------------------------------------------------------------

    def extend(self, new: Sequence[StoredEvent], decoded: Sequence[Any] | None = None,
               states: tuple[Any, Sequence[TableState | None]] | None = None) -> None:
        """The events appended after `self.version`, in order. `decoded`: the same events as
        domain objects, when the caller has them (the recorder, which just encoded them:
        the codec gives back equal objects, tests/test_codec.py). `states`: the table the
        events start from and the table after each of them, as the caller applied them
        (the recorder, deciding whether the hand settles); taken while the fold stands at
        that very state and applies each event as it is (apply is pure), else applied."""
        self._ready()
        try:
            self._extend(new, decoded, states)
        finally:
            self._publish()
        if self.on_extended is not None:
            self.on_extended(self)

    @property
    def last_hand_start(self) -> int:
        """The version of the last hand start held (0: none)."""
        self._ready()
        return self._snapshots[-1].version if self._snapshots else 0

    def _extend(self, new: Sequence[StoredEvent], decoded: Sequence[Any] | None,
                states: tuple[Any, Sequence[TableState | None]] | None = None) -> None:
        applied = None
        if states is not None and decoded is not None and states[0] is self.state and \
                len(states[1]) == len(new):
            applied = states[1]
        for index, stored in enumerate(new):
            if stored.version <= self.version:
                applied = None
                continue
            event = decoded[index] if decoded is not None else stored.decode()
            self.version = stored.version
            if isinstance(event, (EventVoided, EventAmended)):
                applied = None
                self._correct(stored.version, event)
                continue
            if stored.version in self._voided or stored.version in self._amended:
                applied = None
            if stored.version in self._voided:
                continue
            event = self._amended.get(stored.version, event)
            if isinstance(event, HandStarted):
                self._add_snapshot(_Snapshot(len(self._effective), stored.version, self.state))
            self._effective.append((stored.version, event))
            if applied is not None:
                self.state = applied[index]
                continue
            try:
                self.state = _apply(self.state, event)
            except (RuleViolation, KeyError, IndexError, ValueError) as error:
                self.findings += (Finding(self.stream, stored.version, event.TYPE, "log",
                                          f"cannot apply: {error}"),)

    def _correct(self, version: int, correction: Any) -> None:
        start = min(_targets(correction), default=version)
        if self._start is not None and start < self._start.version:
            self._whole()  # (the correction is stored: the whole fold takes it in)
            return
        self._corrections.append(version)
        if isinstance(correction, EventVoided):
            self._voided.update(correction.versions)
            self._voided_frozen = frozenset(self._voided)
        else:
            self._amended[correction.version] = _replacement(correction)
        snapshot = self._snapshot_at_or_before(start)
        index = snapshot.index if snapshot else 0
        tail = [(v, self._amended.get(v, e)) for v, e in self._effective[index:]
                if v not in self._voided]
        # A new list: folds handed out before keep seeing the events as they were.
        head = self._effective[:index]
        self._effective = head
        self._snapshots = [s for s in self._snapshots if s.index < index]
        self._hands = len(self._snapshots)
        self._refold_from(snapshot, tail)

    def _refold_from(self, snapshot: _Snapshot | None, tail: list[tuple[int, Any]]) -> None:
        base = len(self._effective)
        state = snapshot.state if snapshot is not None else None

        def seen(index: int, before: TableState | None) -> None:
            self._add_snapshot(_Snapshot(base + index, tail[index][0], before))

        self.folds += 1
        self.state, findings = fold_effective(self.stream, tail, state, self.version,
                                              verify=False, on_hand_start=seen)
        kept = tuple(f for f in self.findings if f.version < (tail[0][0] if tail else 0))
        self.findings = kept + findings if snapshot is not None else findings
        self._effective.extend(tail)

    def _add_snapshot(self, snapshot: _Snapshot) -> None:
        self._hands += 1
        self._snapshots.append(snapshot)
        # Thin out the older ones: the recent hands keep one each, further back one in
        # SPARSE_EVERY, so memory stays small and a correction far back still folds little.
        if len(self._snapshots) > RECENT_SNAPSHOTS:
            old = len(self._snapshots) - RECENT_SNAPSHOTS - 1
            if (self._hands - RECENT_SNAPSHOTS - 1) % SPARSE_EVERY:
                del self._snapshots[old]

    def _snapshot_at_or_before(self, version: int) -> _Snapshot | None:
        if self._start is not None and version < self._start.version:
            self._whole()
        versions = [s.version for s in self._snapshots]
        at = bisect.bisect_right(versions, version) - 1
        return self._snapshots[at] if at >= 0 else self._start


def _int(value: object) -> int:
    if type(value) is not int:
        raise EventCodecError(f"a snapshot holds {value!r} where a version is due")
    return value
