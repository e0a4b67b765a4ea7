"""The write side: command -> state (fold) -> decided (replay/decide.py: the engine, or the
log's past for a correction) -> store appends -> cache, read models, listeners.

The CLI, the HTTP API, the tablet pages, the simulation and an import all record through
`Recorder`, and every append goes through one call, `Recorder._write`: the streams a command
touches in one transaction (a hand's end at a tournament table with its settlement).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from handlog.engine.errors import RuleViolation
from handlog.engine.table import TableState
from handlog.engine.table_commands import TableCommand
from handlog.engine.table_decide import TableFacts, apply_event, needs, settles
from handlog.engine.words import render_rule
from handlog.replay.decide import decide, needs_whole_past, state_after, states_after
from handlog.replay.fold import TableFold
from handlog.replay.incremental import LiveTable
from handlog.replay.repository import SNAPSHOT_EVERY, Repository, TableKind
from handlog.schema.checkpoint import StoredCheckpoint
from handlog.schema.codec import encode_event
from handlog.schema.errors import ConcurrencyConflict, DuplicateEventConflict
from handlog.schema.store import EventStore, NewEvent, StoredBefore, StoredEvent


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Actor:
    """Who records: a role, a name and the device they use (every event carries them)."""

    name: str
    role: str = "director"  # director, dealer, viewer or system
    device: str = "cli"


SYSTEM = Actor("handlog", "system", "server")


# Ids looked up at once for a retry: a command's first event and the ones derived from it.
_DERIVED_LOOKUP = 32


@dataclass
class _Stream:
    """What the recorder keeps of one stream: its lock (commands at one table are taken one at
    a time; other tables never wait for it), its head as last seen, and for a table its live
    fold."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    version: int = -1  # -1: not read yet
    live: LiveTable | None = None
    stale: bool = False  # another process appended: read the new events before the next use


@dataclass(frozen=True)
class Recorded:
    """What a command recorded (or found already recorded, for a retry)."""

    stream: str
    version: int
    events: tuple[StoredEvent, ...]
    retried: bool = False
    settled: tuple[Recorded, ...] = ()
    """The settlement the command's hand end recorded with it (each stream's part)."""
    warning: dict[str, Any] | None = None
    """Why the hand's end was recorded without its settlement (the director settles it)."""


@dataclass(frozen=True)
class StreamChange:
    """One stream's part of a command that changes several streams (a move, a table break, a
    carry, a final-table draw): the events, decided at `expected_version`. `times`: when each
    event happened, when not now (an import keeps the order of the hands it reads)."""

    stream: str
    expected_version: int
    events: tuple[Any, ...]
    times: tuple[datetime, ...] = ()
    states: tuple[TableState | None, tuple[TableState | None, ...]] | None = None
    """The table the events were decided on and the table after each of them, when the
    recorder applied them already (the live fold takes them in, not applying them again)."""


Settlement = Callable[[TableState], tuple[StreamChange, dict[str, list[Any]]] | None]
"""The tournament side's settlement of a table's hand (recorder/tournament_service.py): given
the table as the hand left it, the tournament's events and each table's commands, planned and
not recorded (None: nothing to settle)."""


@dataclass
class Recorder:
    """Records commands into the store through the engine; keeps folded tables in memory.

    Each stream has its own lock and its own cached head and fold: a command at one table
    never waits for another table, and it costs one append (no head query, no re-read).
    Appends by other processes reach the cache through `observe` (the live hub calls it on a
    PostgreSQL notification or a poll of the heads), and an append that finds the stream moved
    on catches up and answers the conflict as before.
    """

    store: EventStore
    clock: Callable[[], datetime] = utc_now
    _streams: dict[str, _Stream] = field(default_factory=dict)
    _streams_lock: threading.Lock = field(default_factory=threading.Lock)
    _listeners: list[Callable[[str, int], None]] = field(default_factory=list)
    signer: CheckpointSigner | None = None
    """Signs the log's checkpoints (recorder/signing.py sets it for a server); told of every
    append, it never makes a tap wait for a signature."""
    _appended: list[Callable[[Sequence[StoredEvent]], None]] = field(default_factory=list)
    snapshot_every: int = SNAPSHOT_EVERY
    """Events between two stored snapshots of a table (0: none kept or read; each table
    folded from its first event on a first read)."""
    _repository: Repository[LiveTable] | None = field(default=None, repr=False)

    @property
    def tables(self) -> Repository[LiveTable]:
        """Where the tables are loaded from: their snapshots and the events after them."""
        if self._repository is None:
            self._repository = Repository(self.store, TableKind(), self.snapshot_every)
        return self._repository
    settlement: Settlement | None = None
    """Set by the tournament side: a hand's end at a tournament table and its settlement
    (eliminations, places, bounties, high hands, prizes) are recorded in one transaction."""

    def _entry(self, stream: str) -> _Stream:
        entry = self._streams.get(stream)
        if entry is None:
            with self._streams_lock:
                entry = self._streams.setdefault(stream, _Stream())
        return entry

    # --- reading ------------------------------------------------------------------------

    def table(self, stream: str) -> TableFold:
        """The table's folded state, as far as this process knows the stream (appends by
        another process arrive through `observe`)."""
        entry = self._entry(stream)
        live = entry.live
        if live is not None and not entry.stale:
            return live.fold()
        with entry.lock:
            return self._live(stream, entry).fold()

    def preload(self, streams: Sequence[str], batch: int = 200) -> None:
        """Fold the tables not held yet, reading `batch` streams per query (the floor's
        first read after a start: one query per 200 tables, not one per table)."""
        missing = [s for s in streams if (e := self._streams.get(s)) is None or e.live is None]
        for start in range(0, len(missing), batch):
            chunk = missing[start:start + batch]
            for stream, (live, stored) in self.tables.get_many(chunk).items():
                entry = self._entry(stream)
                with entry.lock:
                    if entry.live is None:
                        entry.live = live
                        entry.version = max(entry.version, live.version)
                        self._feed(stored)

    def _feed(self, stored: Sequence[StoredEvent]) -> None:
        for read_model in list(self._appended):
            read_model(stored)

    def is_open_table(self, stream: str) -> bool:
        """Whether this process already holds `stream` as an open table (no query)."""
        entry = self._streams.get(stream)
        return entry is not None and entry.live is not None and entry.live.state is not None

    def _live(self, stream: str, entry: _Stream) -> LiveTable:
        """The stream's live fold, read from the store on first use or when stale (the
        caller holds the stream's lock)."""
        live = entry.live
        if live is None:
            live, stored = self.tables.get(stream)
            self._feed(stored)
            entry.live = live
            entry.version = max(entry.version, live.version)
            entry.stale = False
        elif entry.stale or entry.version > live.version:
            entry.stale = False
            new = self.tables.fast_forward(live, stream)
            self._feed(new)
            entry.version = max(entry.version, live.version)
        return live

    def observe(self, stream: str, version: int) -> None:
        """Another process recorded `stream` up to `version`: the next read catches up."""
        entry = self._streams.get(stream)
        if entry is not None and version > entry.version:
            entry.stale = True

    def head_version(self, stream: str) -> int:
        """The stream's version as this process knows it (read once from the store)."""
        entry = self._entry(stream)
        if entry.version < 0 or entry.stale:
            with entry.lock:
                self._refresh_head(stream, entry)
        return entry.version

    def _refresh_head(self, stream: str, entry: _Stream) -> int:
        head = self.store.head(stream)
        entry.version = max(entry.version, head.version if head else 0)
        if entry.live is not None and entry.version > entry.live.version:
            entry.stale = True
        elif entry.live is None:
            entry.stale = False
        return entry.version

    def subscribe(self, listener: Callable[[str, int], None]) -> Callable[[], None]:
        """Call `listener(stream, version)` after every append; returns the unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def on_appended(self, listener: Callable[[Sequence[StoredEvent]], None]) -> Callable[[], None]:
        """Call `listener(stored events)` after every append by this recorder (read models
        are kept from them without reading the store again)."""
        self._appended.append(listener)
        return lambda: self._appended.remove(listener)


    # --- writing ------------------------------------------------------------------------

    def submit(
        self,
        stream: str,
        command: TableCommand,
        expected_version: int,
        event_id: uuid.UUID,
        actor: Actor,
    ) -> Recorded:
        """Record `command` if the table is still at `expected_version`; a hand it ends at a
        tournament table is settled in the same transaction.

        A retry of a command already recorded (same event id) returns what was recorded and
        adds nothing. A stale version raises ConcurrencyConflict; an illegal command raises
        RuleViolation; nothing is written in either case.
        """
        entry = self._entry(stream)
        with entry.lock:
            live = self._live(stream, entry)
            if expected_version > live.version:
                # A tablet served by another process may have seen more than this one has.
                self._refresh_head(stream, entry)
                live = self._live(stream, entry)
            self._check_version(stream, expected_version, live.version)
            retried = self._retry_of(stream, expected_version, live.version, event_id)
            if retried is not None:
                if not self._check_same_command(stream, live, expected_version, command,
                                                retried, actor) or self.settlement is None:
                    return retried
                after = None
            else:
                events = self._decide(stream, live, command, actor)
                states = states_after(live, command, events)
                change = StreamChange(stream, expected_version, tuple(events), states=None
                                      if states is None else (live.state, states))
                after = None if states is None else states[-1] if states else live.state
                if self.settlement is None or not settles(live.state, after):
                    return self._write([(change, _ids(event_id, len(events)))], actor)[0]
        if retried is not None:
            return self._settled_retry(retried, event_id, actor)
        # Planned outside the table's lock (the settlement reads the tournament and, in a
        # hand-for-hand round, the other tables); the store's version checks keep it exact.
        assert after is not None
        return self._settle(change, after, event_id, actor)

    def _settle(self, change: StreamChange, after: TableState, event_id: uuid.UUID,
                actor: Actor) -> Recorded:
        """The hand's events and its settlement in one transaction. The settlement's ids
        derive from the command's (a retry finds them); planned again when another command
        recorded at the tournament first; a settlement the rules refuse is left to the
        director (the hand's events are recorded, with the warning)."""
        own = _ids(event_id, len(change.events))
        settle_id = uuid.uuid5(event_id, "settle")
        for _attempt in range(8):
            try:
                plan = self.settlement(after) if self.settlement is not None else None
                if plan is None:
                    return self._write([(change, own)], actor)[0]
                parts = self._settlement_parts(change, own, after, plan, settle_id)
            except RuleViolation as refused:
                return _warned(self._write([(change, own)], actor)[0], refused.as_dict())
            try:
                first, *rest = self._write(parts, actor)
            except ConcurrencyConflict as conflict:
                if conflict.stream_id == change.stream:
                    raise
                continue  # the tournament (or another table) moved on: plan it again
            tap = first.events[:len(change.events)]
            if len(first.events) > len(tap):
                rest.insert(1, Recorded(first.stream, first.version,
                                        first.events[len(tap):]))
            return Recorded(first.stream, first.version, tap, settled=tuple(rest))
        return _warned(self._write([(change, own)], actor)[0], {
            "rule": "settle", "legal": [],
            "message": "the tournament kept moving on: settle the table again"})

    def _settlement_parts(self, change: StreamChange, own: list[uuid.UUID], after: TableState,
                          plan: tuple[StreamChange, dict[str, list[Any]]],
                          settle_id: uuid.UUID) -> list[tuple[StreamChange, list[uuid.UUID]]]:
        """The table's part (the hand's events, then the seats the settlement empties there),
        the tournament's and the other tables' parts, with the settlement's ids as a director's
        settle command gives them (recorder/tournament_service.py settle_hand)."""
        tournament, commands = plan
        trial = LiveTable.at(change.stream, change.expected_version + len(change.events), after)
        tables = self.plan_tables(commands, {change.stream: trial})
        parts = [(tournament, _ids(settle_id, len(tournament.events)))]
        table_events: tuple[Any, ...] = ()
        table_ids: list[uuid.UUID] = []
        for planned in tables:
            root = uuid.uuid5(settle_id, f"stream:{planned.stream}")
            if planned.stream == change.stream:
                table_events, table_ids = planned.events, _ids(root, len(planned.events))
            else:
                parts.append((planned, _ids(root, len(planned.events))))
        mine = StreamChange(change.stream, change.expected_version,
                            change.events + table_events)
        return [(mine, own + table_ids), *parts]

    def _settled_retry(self, retried: Recorded, event_id: uuid.UUID,
                       actor: Actor) -> Recorded:
        """A retry of a command, with the settlement recorded with it (found by its id). One
        never recorded (a log written before a hand's end was settled with it) is recorded
        now when the table still needs it."""
        settle_id = uuid.uuid5(event_id, "settle")
        found = self.store.find([settle_id])
        if found:
            tournament = found[0].stream_id
            roots = {uuid.uuid5(settle_id, f"stream:{h.stream_id}"): h.stream_id
                     for h in self.store.streams() if h.kind == "table"}
            parts = [self._find_retry(tournament, 0, settle_id)]
            parts.extend(self._find_retry(e.stream_id, 0, e.event_id)
                         for e in self.store.find(list(roots)) if roots[e.event_id] == e.stream_id)
            settled = tuple(p for p in parts if p is not None)
            return Recorded(retried.stream, retried.version, retried.events, True, settled)
        fold = self.table(retried.stream)
        if self.settlement is None or fold.state is None:
            return retried
        try:
            plan = self.settlement(fold.state)
            if plan is None:
                return retried
            written = self._write(self._settlement_parts(
                StreamChange(retried.stream, fold.version, ()), [], fold.state, plan,
                settle_id), actor)
        except RuleViolation as refused:
            return _warned(retried, refused.as_dict())
        except (ConcurrencyConflict, DuplicateEventConflict) as conflict:
            return _warned(retried, {"rule": "settle", "message": str(conflict), "legal": []})
        return Recorded(retried.stream, retried.version, retried.events, True, tuple(written))

    def _check_same_command(self, stream: str, live: LiveTable, expected_version: int,
                            command: TableCommand, retried: Recorded,
                            actor: Actor | None = None) -> bool:
        """A retry is the same command only if, decided where it was first sent, it gives the
        events recorded under its id; otherwise its id was reused for another entry. True
        when the command left the table to be settled (a hand's end)."""
        first = retried.events[0]
        if live.corrected_since(expected_version) or needs_whole_past(command):
            # The table as it stood then is not the live one's past (or a correction needs
            # that past's whole log): fold the stream up to there, as it was.
            before = LiveTable.load(stream, self.store.read(stream, 1, expected_version))
        else:
            before = LiveTable.at(stream, expected_version,
                                  live.state_before(expected_version + 1))
        try:
            events = self._decide(stream, before, command, actor)
        except RuleViolation as refused:
            raise DuplicateEventConflict(
                first.event_id, f"it recorded {first.type!r}; this command is refused there "
                f"({render_rule(refused.rule)}: {refused.message})") from None
        mine = [encode_event(event) for event in events]
        recorded = [(e.type, e.schema_version, e.payload) for e in retried.events]
        if mine != recorded:
            theirs = ", ".join(t for t, _v, _p in recorded)
            ours = ", ".join(t for t, _v, _p in mine)
            detail = (f"it recorded {theirs}; this command gives {ours}" if theirs != ours else
                      f"it recorded {first.type} {first.payload}; this command gives "
                      f"{mine[0][2]}")
            raise DuplicateEventConflict(first.event_id, detail)
        return settles(before.state, state_after(before, command, events))

    def record(self, stream: str, expected_version: int, events: Sequence[Any],
               event_id: uuid.UUID, actor: Actor) -> Recorded:
        """Append events already decided by the engine (the tournament's decisions)."""
        entry = self._entry(stream)
        with entry.lock:
            current = self.head_version(stream)
            if expected_version > current:
                current = self._refresh_head(stream, entry)
            retried = self._retry_of(stream, expected_version, current, event_id)
            if retried is not None:
                return retried
            self._check_version(stream, expected_version, current)
            change = StreamChange(stream, expected_version, tuple(events))
            return self._write([(change, _ids(event_id, len(events)))], actor)[0]

    def plan_tables(self, commands: Mapping[str, Sequence[TableCommand]],
                    trials: Mapping[str, LiveTable] | None = None) -> list[StreamChange]:
        """`plan_table` for several tables of one change (a move, a table break, a draw): a
        player whom the same change takes out of one table may be seated at another.
        `trials`: tables as the change finds them, not recorded yet (a hand just decided)."""
        trials = trials or {}
        leaving: set[str] = set()
        tournaments: set[str] = set()
        seating = False
        for stream, table_commands in commands.items():
            trial = trials.get(stream)
            state = trial.state if trial is not None else self.table(stream).state
            for command in table_commands:
                wanted = needs(state, command)
                if wanted.tournament:
                    tournaments.add(wanted.tournament)
                if wanted.leaving:
                    leaving.add(wanted.leaving)
                seating = seating or wanted.seating
        # Who is seated where at the tournaments' tables, read once for the whole change (a
        # draw over 1,000 tables checks each seat against it, not against every table).
        seated = self._seated(tournaments) if seating else {}
        return [self.plan_table(stream, c, frozenset(leaving), seated, trials.get(stream))
                for stream, c in commands.items() if c]

    def _seated(self, tournaments: set[str]) -> dict[str, tuple[str, str, int]]:
        """player -> (stream, table, seat) at the tables of `tournaments` as they stand."""
        seated: dict[str, tuple[str, str, int]] = {}
        if not tournaments:
            return seated
        heads = [h.stream_id for h in self.store.streams() if h.kind == "table"]
        self.preload(heads)
        for stream in heads:
            other = self.table(stream).state
            if other is None or other.tournament not in tournaments:
                continue
            for seat in other.seats:
                seated[seat.player] = (stream, other.table, seat.seat)
        return seated

    def plan_table(self, stream: str, commands: Sequence[TableCommand],
                   leaving: frozenset[str] = frozenset(),
                   seated: Mapping[str, tuple[str, str, int]] | None = None,
                   start: LiveTable | None = None) -> StreamChange:
        """The events `commands` give at the table, each decided on the table as the ones
        before it leave it; nothing is recorded (for `record_many`). `leaving`: players the
        same change takes out of their other tables; `start`: the table as the change finds
        it, when that is not as recorded."""
        entry = self._entry(stream)
        with entry.lock:
            live = start if start is not None else self._live(stream, entry)
            trial = live
            events: list[Any] = []
            for command in commands:
                decided = self._decide(stream, trial, command, leaving=leaving, seated=seated)
                state = trial.state
                for event in decided:
                    state = apply_event(state, event)
                trial = LiveTable.at(stream, trial.version + len(decided), state)
                events.extend(decided)
            return StreamChange(stream, live.version, tuple(events))

    def record_many(self, changes: Sequence[StreamChange], event_id: uuid.UUID,
                    actor: Actor) -> list[Recorded]:
        """Append every stream's change in one transaction: all of it or none. The first
        change's first event carries `event_id`; every other event an id derived from it, so
        a retry with the same id finds the whole command and adds nothing."""
        changes = [c for c in changes if c.events]
        roots = [event_id if k == 0 else uuid.uuid5(event_id, f"stream:{c.stream}")
                 for k, c in enumerate(changes)]
        try:
            return self._write([(c, _ids(root, len(c.events)))
                                for c, root in zip(changes, roots, strict=True)], actor)
        except DuplicateEventConflict:
            # Sent again after it was recorded (the stream has moved on since): what was
            # recorded under these ids, if it is all there; else the conflict stands.
            found = [self._find_retry(c.stream, 0, root)
                     for c, root in zip(changes, roots, strict=True)]
            if any(f is None for f in found):
                raise
            return [f for f in found if f is not None]

    def _write(self, parts: Sequence[tuple[StreamChange, Sequence[uuid.UUID]]],
               actor: Actor) -> list[Recorded]:
        """The recorder's one append: every stream's part in one transaction (a stream's
        events after its `expected_version`, each with its id), then the cached tables and
        heads, the read models, the checkpoint when one is due, and the listeners. The
        streams' locks are taken in id order (a caller's own lock is re-entrant)."""
        parts = [(c, ids) for c, ids in parts if c.events]
        if not parts:
            return []
        entries = [self._entry(stream) for stream in sorted({c.stream for c, _i in parts})]
        for entry in entries:
            entry.lock.acquire()
        try:
            now = self.clock()
            appends = []
            encodings = []
            for change, ids in parts:
                times = change.times or (now,) * len(change.events)
                # Each event encoded once: for the store and, kept with the stored event, for
                # the dealer's offline hand (views.offline_hand), which would encode it again.
                encoded = [encode_event(event) for event in change.events]
                new = [NewEvent(event_id, *triple, actor.name, actor.device, at)
                       for triple, event_id, at in zip(encoded, ids, times, strict=True)]
                kind = "tournament" if change.stream.startswith("tournament-") else "table"
                appends.append((change.stream, change.expected_version, new, kind))
                encodings.append(encoded)
            try:
                stored = self.store.append_many(appends)
            except ConcurrencyConflict:
                # Another process recorded first: catch up, so that the answer (and the next
                # command) sees the streams as they are.
                for change, _i in parts:
                    self._refresh_head(change.stream, self._entry(change.stream))
                raise
            for (change, _i), events, encoded in zip(parts, stored, encodings, strict=True):
                if not isinstance(events, StoredBefore):
                    _known(events, change.events, encoded)
                self._learn(change, events)
            every = [e for events in stored for e in events]
            for read_model in list(self._appended):
                read_model(every)
        finally:
            for entry in reversed(entries):
                entry.lock.release()
        if self.signer is not None:
            reason = _checkpoint_reason(every)
            if reason is None:
                self.signer.unsigned()
            else:
                self.signer.soon(reason)
        for events in stored:
            for listener in list(self._listeners):
                listener(events[-1].stream_id, events[-1].version)
        # (every part stored before by the same ids: another server recorded this command
        # first, and this answer is a retry's)
        again = all(isinstance(events, StoredBefore) for events in stored)
        return [Recorded(events[-1].stream_id, events[-1].version, tuple(events), again)
                for events in stored]

    def _learn(self, change: StreamChange, stored: Sequence[StoredEvent]) -> None:
        """The stream's cached head and table take in what this process just appended (the
        decided events as they are: nothing is decoded again)."""
        entry = self._entry(change.stream)
        live = entry.live
        if live is not None and live.version == change.expected_version:
            same = len(change.events) == len(stored)
            live.extend(stored, change.events if same else None,
                        change.states if same else None)
        entry.version = max(entry.version, stored[-1].version)
        if live is not None and live.version < entry.version:
            entry.stale = True

    def recorded(self, stream: str, event_id: uuid.UUID) -> Recorded | None:
        """What was recorded in `stream` under `event_id` (with the events derived from it), as
        a retry of it returns it; None when nothing was. For a retry that does not know the
        version it was first sent at (the tournament's commands and their parts)."""
        return self._find_retry(stream, 0, event_id)

    def _check_version(self, stream: str, expected_version: int, current: int) -> None:
        if expected_version > current:
            raise ConcurrencyConflict(stream, expected_version, current)

    def _retry_of(self, stream: str, expected_version: int, current: int,
                  event_id: uuid.UUID) -> Recorded | None:
        if expected_version >= current:
            return None
        previous = self._find_retry(stream, expected_version, event_id)
        if previous is None:
            raise ConcurrencyConflict(stream, expected_version, current)
        return previous

    def _find_retry(self, stream: str, expected_version: int,
                    event_id: uuid.UUID) -> Recorded | None:
        """The events recorded under `event_id` and derived from it, found through the unique
        index on event ids (one query for a command of up to 32 events; nothing is folded)."""
        mine: list[StoredEvent] = []
        while True:
            start = len(mine)
            ids = [event_id if k == 0 else _derived_id(event_id, k)
                   for k in range(start, start + _DERIVED_LOOKUP)]
            found = {e.event_id: e for e in self.store.find(ids)}
            for wanted in ids:
                event = found.get(wanted)
                if event is None or event.stream_id != stream or (
                        mine and event.version != mine[-1].version + 1):
                    break
                mine.append(event)
            if len(mine) < start + _DERIVED_LOOKUP:
                break
        if not mine or mine[0].version <= expected_version:
            return None
        return Recorded(stream, mine[-1].version, tuple(mine), retried=True)

    def events(self, stream: str) -> list[StoredEvent]:
        """Every stored event of a stream (tournament streams are read whole)."""
        return self.store.read(stream)

    def _decide(self, stream: str, live: LiveTable, command: TableCommand,
                actor: Actor | None = None, leaving: frozenset[str] = frozenset(),
                seated: Mapping[str, tuple[str, str, int]] | None = None) -> list[Any]:
        """The read side's one decision (replay/decide.py), with the facts it needs from the
        tournament's other tables gathered here."""
        if seated is None:
            wanted = needs(live.state, command)
            seated = self._seated({wanted.tournament}) if wanted.seating and \
                wanted.tournament else {}
        facts = TableFacts(stream, seated, leaving,
                           by_director=actor is not None and actor.role == "director")
        return decide(live, command, facts)


def _known(stored: Sequence[StoredEvent], events: Sequence[Any],
           encoded: Sequence[tuple[str, int, dict[str, Any]]]) -> None:
    """What the recorder holds of the events it just stored, kept with them: the domain
    event it decided (`StoredEvent.decode`'s own cache: the codec decodes the stored event
    to an equal object, tests/test_recorder_known_events.py) and the encoding the store
    wrote, `_encoded` (views.offline_hand's, by the event's identity)."""
    if len(stored) != len(events):
        return
    for item, event, triple in zip(stored, events, encoded, strict=True):
        object.__setattr__(item, "_decoded", event)
        item.__dict__["_encoded"] = (event, triple)


def _derived_id(event_id: uuid.UUID, k: int) -> uuid.UUID:
    return uuid.uuid5(event_id, str(k))


def _ids(root: uuid.UUID, count: int) -> list[uuid.UUID]:
    """A command's event ids: its own first, then ids derived from it."""
    return [root if k == 0 else _derived_id(root, k) for k in range(count)]


def _warned(recorded: Recorded, warning: dict[str, Any]) -> Recorded:
    return Recorded(recorded.stream, recorded.version, recorded.events, recorded.retried,
                    recorded.settled, warning)


def _checkpoint_reason(stored: Sequence[StoredEvent]) -> str | None:
    """Why a checkpoint is signed at once after these events, if one is: the weightiest of
    them (the finish over the prizes recorded with it, a table closing over a level
    starting)."""
    if all(e.type not in _AT_ONCE for e in stored):
        return None
    return weightiest({e.type for e in stored})


def weightiest(reasons: Iterable[str]) -> str:
    """The reason of CHECKPOINT_PRIORITY that comes first among `reasons` (else any of them:
    one signed on demand, or when the delay elapsed)."""
    given = set(reasons)
    return next((kind for kind in CHECKPOINT_PRIORITY if kind in given), None) or min(given)


CHECKPOINT_PRIORITY = ("tournament_finished", "table_closed", "break_started", "level_started",
                       "prizes_awarded", "deal_recorded", "high_hand_awarded", "bounty_assigned",
                       "ruling_recorded", "penalty_recorded", "event_voided", "event_amended",
                       "stack_corrected", "hand_voided")
"""Events after which a checkpoint is signed at once (every ruling, correction, award, deal
and payout among them); after any other, one is signed within the room's delay."""
_AT_ONCE = frozenset(CHECKPOINT_PRIORITY)


class CheckpointSigner(Protocol):
    """What signs the room's checkpoints (recorder/signing.py's Checkpointer)."""

    def soon(self, reason: str) -> None:
        """A checkpoint is due at once (`reason`: the weightiest event appended): signed by
        the signer's own thread within milliseconds, or at the end of the room's interval
        after the last checkpoint; the caller does not wait for it."""

    def unsigned(self) -> None:
        """An append that needs no checkpoint at once: one is signed within the room's
        delay."""

    def sign(self, reason: str) -> StoredCheckpoint:
        """A checkpoint signed now (the director's, a sign-off's): the caller waits for it."""
