"""The write side of a table: command -> state (fold) -> engine decides -> store appends -> views.

The CLI, the HTTP API, the tablet pages and the simulation all record through `Recorder`.
"""

from __future__ import annotations

import bisect
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from handlog.engine import commands as hand_commands
from handlog.engine.errors import RuleViolation
from handlog.engine.events import (
    BetMade,
    ButtonPlaced,
    ChipsPosted,
    ChipsPushed,
    EventAmended,
    EventVoided,
    PlayerLeft,
    PlayerMarkedAbsent,
    PlayerReturned,
    PlayerSeated,
    PotAwarded,
    PotCarried,
    RaiseMade,
    SeatAbsenceChanged,
    StackAdjusted,
    TableOpened,
)
from handlog.engine.hand import begin, decide
from handlog.engine.penalties import KILLED_FOR_PENALTY, PENALTY_RULE
from handlog.engine.table import (
    TableState,
    apply_table,
    check_seat,
    check_table_opened,
    open_table,
    plan_hand,
    table_opened,
)
from handlog.engine.table_commands import (
    DEFAULT_UNDO_REASON,
    AdjustStack,
    AmendAmount,
    AmendEvent,
    CarryToPot,
    DirectorsCorrection,
    OpenTable,
    PlaceButton,
    RemovePlayer,
    SeatPlayer,
    SetAbsence,
    StartHand,
    TableCommand,
    Undo,
    VoidEvents,
    directors_event,
)
from handlog.engine.words import cite
from handlog.recorder.limits import check_chips, check_name, check_reason
from handlog.replay.fold import TableFold
from handlog.replay.incremental import LiveTable
from handlog.replay.repository import SNAPSHOT_EVERY, Repository, TableKind
from handlog.replay.whatif import follow_amendment
from handlog.schema.codec import canonical_json, encode_event
from handlog.schema.errors import ConcurrencyConflict, DuplicateEventConflict
from handlog.schema.store import EventStore, NewEvent, StoredEvent


def utc_now() -> datetime:
    return datetime.now(UTC)



@dataclass(frozen=True)
class Actor:
    """Who records: a role, a name and the device they use (every event carries them)."""

    name: str
    role: str = "director"  # director, dealer, viewer or system
    device: str = "cli"


SYSTEM = Actor("handlog", "system", "server")


# Events that follow from the one before them in the same command (undone together).
_DERIVED = (ChipsPosted,)
# Ids looked up at once for a retry: a command's first event and the ones derived from it.
_DERIVED_LOOKUP = 32
_CORRECTIONS = (Undo, VoidEvents, AmendEvent, AmendAmount)


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


CHECKPOINT_EVENTS = frozenset({
    "level_started", "break_started", "table_closed", "tournament_finished", "prizes_awarded",
})
"""A signed checkpoint of the log is taken right after each of these is recorded."""


@dataclass(frozen=True)
class StreamChange:
    """One stream's part of a command that changes several streams (a move, a table break, a
    carry, a final-table draw): the events, decided at `expected_version`."""

    stream: str
    expected_version: int
    events: tuple[Any, ...]


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
    checkpoint: Callable[[str], object] | None = None
    """Signs a checkpoint of the log, given why (recorder/signing.py sets it for a server)."""
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

    def learn(self, stored: Sequence[StoredEvent]) -> None:
        """Events this process appended without `submit` or `record` (one transaction over
        several streams): the cached heads and tables take them in, as if recorded here."""
        for stream in dict.fromkeys(e.stream_id for e in stored):
            mine = [e for e in stored if e.stream_id == stream]
            entry = self._entry(stream)
            with entry.lock:
                live = entry.live
                if live is not None and live.version == mine[0].version - 1:
                    live.extend(mine)
                entry.version = max(entry.version, mine[-1].version)
                if live is not None and live.version < entry.version:
                    entry.stale = True
        for read_model in list(self._appended):
            read_model(stored)
        for stream in dict.fromkeys(e.stream_id for e in stored):
            version = max(e.version for e in stored if e.stream_id == stream)
            for listener in list(self._listeners):
                listener(stream, version)

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
        """Record `command` if the table is still at `expected_version`.

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
                self._check_same_command(stream, live, expected_version, command, retried,
                                         actor)
                return retried
            events = self._decide(stream, live, command, actor)
            return self._record(stream, entry, expected_version, events, event_id, actor)

    def _check_same_command(self, stream: str, live: LiveTable, expected_version: int,
                            command: TableCommand, retried: Recorded,
                            actor: Actor | None = None) -> None:
        """A retry is the same command only if, decided where it was first sent, it gives the
        events recorded under its id; otherwise its id was reused for another entry."""
        first = retried.events[0]
        if live.corrected_since(expected_version) or isinstance(command, _CORRECTIONS):
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
                f"({refused.rule}: {refused.message})") from None
        mine = [encode_event(event) for event in events]
        recorded = [(e.type, e.schema_version, e.payload) for e in retried.events]
        if mine != recorded:
            theirs = ", ".join(t for t, _v, _p in recorded)
            ours = ", ".join(t for t, _v, _p in mine)
            detail = (f"it recorded {theirs}; this command gives {ours}" if theirs != ours else
                      f"it recorded {first.type} {first.payload}; this command gives "
                      f"{mine[0][2]}")
            raise DuplicateEventConflict(first.event_id, detail)

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
            return self._record(stream, entry, expected_version, events, event_id, actor)

    def plan_tables(self, commands: Mapping[str, Sequence[TableCommand]]) -> list[StreamChange]:
        """`plan_table` for several tables of one change (a move, a table break, a draw): a
        player whom the same change takes out of one table may be seated at another."""
        leaving: set[str] = set()
        tournaments: set[str] = set()
        for stream, table_commands in commands.items():
            state = self.table(stream).state
            if state is not None and state.tournament:
                tournaments.add(state.tournament)
            for command in table_commands:
                if isinstance(command, RemovePlayer) and state is not None:
                    seat = state.occupant(command.seat)
                    if seat is not None:
                        leaving.add(seat.player)
                if isinstance(command, OpenTable) and command.tournament:
                    tournaments.add(command.tournament)
        # Who is seated where at the tournaments' tables, read once for the whole change (a
        # draw over 1,000 tables checks each seat against it, not against every table).
        seated = self._seated(tournaments) if any(
            isinstance(c, SeatPlayer) for cs in commands.values() for c in cs) else {}
        return [self.plan_table(stream, c, frozenset(leaving), seated)
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
                   seated: Mapping[str, tuple[str, str, int]] | None = None) -> StreamChange:
        """The events `commands` give at the table, each decided on the table as the ones
        before it leave it; nothing is recorded (for `record_many`). `leaving`: players the
        same change takes out of their other tables."""
        entry = self._entry(stream)
        with entry.lock:
            live = self._live(stream, entry)
            trial = live
            events: list[Any] = []
            for command in commands:
                decided = self._decide(stream, trial, command, leaving=leaving, seated=seated)
                state = trial.state
                for event in decided:
                    state = _apply(state, event)
                trial = LiveTable.at(stream, trial.version + len(decided), state)
                events.extend(decided)
            return StreamChange(stream, live.version, tuple(events))

    def record_many(self, changes: Sequence[StreamChange], event_id: uuid.UUID,
                    actor: Actor) -> list[Recorded]:
        """Append every stream's change in one transaction (store.append_many): all of it or
        none. The first change's first event carries `event_id`; every other event an id
        derived from it, so a retry with the same id finds the whole command and adds
        nothing. The streams' locks are taken in id order (no two such commands deadlock)."""
        changes = [c for c in changes if c.events]
        if not changes:
            return []
        roots = [event_id if k == 0 else uuid.uuid5(event_id, f"stream:{c.stream}")
                 for k, c in enumerate(changes)]
        entries = [self._entry(stream) for stream in sorted({c.stream for c in changes})]
        for entry in entries:
            entry.lock.acquire()
        try:
            now = self.clock()
            parts = []
            for change, root in zip(changes, roots, strict=True):
                new = [NewEvent.from_domain(
                    event, event_id=root if k == 0 else _derived_id(root, k),
                    actor=actor.name, device=actor.device, recorded_at=now)
                    for k, event in enumerate(change.events)]
                kind = "tournament" if change.stream.startswith("tournament-") else "table"
                parts.append((change.stream, change.expected_version, new, kind))
            try:
                stored = self.store.append_many(parts)
            except DuplicateEventConflict:
                # Sent again after it was recorded (the stream has moved on since): what was
                # recorded under these ids, if it is all there; else the conflict stands.
                found = [self._find_retry(c.stream, 0, root)
                         for c, root in zip(changes, roots, strict=True)]
                if any(f is None for f in found):
                    raise
                return [f for f in found if f is not None]
            except ConcurrencyConflict:
                for change in changes:
                    self._refresh_head(change.stream, self._entry(change.stream))
                raise
            # The locks are re-entrant: the caches take the events in before anyone else
            # decides at these streams.
            self.learn([e for events in stored for e in events])
        finally:
            for entry in reversed(entries):
                entry.lock.release()
        if self.checkpoint is not None:
            reason = _checkpoint_reason([e for events in stored for e in events])
            if reason is not None:
                self.checkpoint(reason)
        return [Recorded(events[-1].stream_id, events[-1].version, tuple(events))
                for events in stored]

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

    def _record(self, stream: str, entry: _Stream, expected_version: int,
                events: Sequence[Any], event_id: uuid.UUID, actor: Actor) -> Recorded:
        try:
            stored = self._append(stream, entry, expected_version, events, event_id, actor)
        except ConcurrencyConflict:
            # Another process recorded first: catch up, so that the answer (and the next
            # command) sees the table as it is.
            self._refresh_head(stream, entry)
            raise
        for read_model in list(self._appended):
            read_model(stored)
        if self.checkpoint is not None:
            reason = _checkpoint_reason(stored)
            if reason is not None:
                self.checkpoint(reason)
        for listener in list(self._listeners):
            listener(stream, stored[-1].version)
        return Recorded(stream, stored[-1].version, tuple(stored))

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

    def _append(self, stream: str, entry: _Stream, expected_version: int,
                events: Sequence[Any], event_id: uuid.UUID, actor: Actor) -> list[StoredEvent]:
        now = self.clock()
        new = [
            NewEvent.from_domain(
                event, event_id=event_id if k == 0 else _derived_id(event_id, k),
                actor=actor.name, device=actor.device, recorded_at=now,
            )
            for k, event in enumerate(events)
        ]
        kind = "tournament" if stream.startswith("tournament-") else "table"
        stored = self.store.append(stream, expected_version, new, kind=kind)
        live = entry.live
        if live is not None and live.version == expected_version:
            live.extend(stored, events if len(events) == len(stored) else None)
        entry.version = max(entry.version, stored[-1].version)
        if live is not None and live.version < entry.version:
            entry.stale = True
        return stored

    def events(self, stream: str) -> list[StoredEvent]:
        """Every stored event of a stream (tournament streams are read whole)."""
        return self.store.read(stream)

    def _decide(self, stream: str, live: LiveTable, command: TableCommand,
                actor: Actor | None = None, leaving: frozenset[str] = frozenset(),
                seated: Mapping[str, tuple[str, str, int]] | None = None) -> list[Any]:
        state = live.state
        _check_words(command)
        if isinstance(command, OpenTable):
            check_name(command.table, "table")
            if state is not None:
                raise RuleViolation("table", f"table stream {stream} is already open")
            check_table_opened(TableOpened(command.table, command.seat_count, command.profile,
                                           command.tournament))
            return [table_opened(command.table, command.seat_count, command.profile,
                                 command.tournament)]
        if isinstance(command, VoidEvents) and state is None and live.version:
            # A table whose opening cannot be applied (recorded by an older release): the
            # director can still void it.
            check_reason(command.reason, "reason", required=True)
            self._check_void(stream, live, command.versions)
            return [EventVoided(command.versions, command.reason, cite(command.rule))]
        if state is None:
            raise RuleViolation("table", f"no table {stream}: open it first", ("open the table",))
        if isinstance(command, StartHand):
            number = command.hand_number or state.hands_played + 1
            if state.hand is not None and state.hand.phase in ("misdealt", "void"):
                # The exact re-deal: same hand number, button and limits.
                number = state.hand.setup.hand_number
            setup = plan_hand(state, command.level, number, command.final_table)
            started = list(begin(setup))
            return started + _penalty_kills(state, started, command.penalized)
        if isinstance(command, SeatPlayer):
            check_name(command.player, "player")
            check_chips(command.stack, "stack")
            _between_hands(state, "seat a player")
            if not 1 <= command.seat <= state.seat_count:
                raise RuleViolation("seating", f"seat {command.seat} does not exist (1 to "
                                    f"{state.seat_count})")
            if state.occupant(command.seat) is not None:
                free = [s for s in range(1, state.seat_count + 1) if state.occupant(s) is None]
                raise RuleViolation("seating", f"seat {command.seat} is taken",
                                    tuple(f"seat {s}" for s in free))
            if state.seat_of(command.player) is not None:
                raise RuleViolation("seating", f"{command.player} is already seated here")
            if command.player not in leaving:
                self._check_not_seated_elsewhere(stream, state, command.player, seated)
            return [PlayerSeated(command.seat, command.player, command.stack, command.waits,
                                 command.reason)]
        if isinstance(command, RemovePlayer):
            _between_hands(state, "remove a player")
            seat = _occupant(state, command.seat)
            if command.reason == "eliminated" and seat.stack != 0:
                raise RuleViolation("elimination", f"{seat.player} still has {seat.stack} chips")
            return [PlayerLeft(seat.seat, seat.player, seat.stack, command.reason)]
        if isinstance(command, PlaceButton):
            check_seat(state, command.seat)
            _between_hands(state, "move the button")
            return [ButtonPlaced(command.seat, command.reason)]
        if isinstance(command, AdjustStack):
            check_chips(command.amount, "amount", negative=True)
            _between_hands(state, "adjust a stack")
            seat = _occupant(state, command.seat)
            if seat.stack + command.amount < 0:
                raise RuleViolation("stack", f"{seat.player} has only {seat.stack} chips")
            return [StackAdjusted(seat.seat, seat.player, command.amount, command.reason,
                                  cite(command.rule))]
        if isinstance(command, CarryToPot):
            _between_hands(state, "carry chips into the next pot")
            if command.amount == 0 or state.carry + command.amount < 0:
                raise RuleViolation("dead money", f"the table carries {state.carry} into its "
                                    f"next pot: {command.amount} cannot be added to it")
            return [PotCarried(command.amount, command.reason, cite(command.rule),
                               command.other_table)]
        if isinstance(command, SetAbsence):
            seat = _occupant(state, command.seat)
            events: list[Any] = [SeatAbsenceChanged(seat.seat, command.absent)]
            hand = state.hand
            if hand is not None and not hand.is_complete and seat.seat in hand.setup.seats:
                position = hand.setup.seats.index(seat.seat)
                if hand.absent[position] != command.absent and not hand.folded[position]:
                    events.append(PlayerMarkedAbsent(position) if command.absent
                                  else PlayerReturned(position))
            return events
        if isinstance(command, Undo):
            by_director = actor is not None and actor.role == "director"
            fold = live.fold()
            versions = self._undo_versions(fold, by_director)
            self._check_undo(live, versions, command, by_director)
            return [EventVoided(versions, command.reason, "correction")]
        if isinstance(command, VoidEvents):
            check_reason(command.reason, "reason", required=True)
            self._check_void(stream, live, command.versions)
            return [EventVoided(command.versions, command.reason, cite(command.rule))]
        if isinstance(command, AmendAmount):
            replacement = _bet_as_amended(live, command)
            # The later entries of the hand follow the new amount where they still fit (a
            # call follows it, folds stay folds); only an entry that no longer fits is named.
            later = follow_amendment(live.fold().effective, command.version, replacement)
            amendments = [self._amendment(AmendEvent(version, event, command.reason,
                                                     command.rule))
                          for version, event in [(command.version, replacement), *later]]
            self._check_correction(stream, live, amendments)
            return amendments
        if isinstance(command, AmendEvent):
            amended = self._amendment(command)
            self._check_correction(stream, live, [amended])
            return [amended]
        hand = state.hand
        if hand is None:
            raise RuleViolation("hand", "no hand in progress: start a hand first",
                                ("start a hand",))
        return list(decide(hand, command))

    def _check_not_seated_elsewhere(self, stream: str, state: TableState, player: str,
                                    seated: Mapping[str, tuple[str, str, int]] | None = None
                                    ) -> None:
        """A tournament's player has one seat: refused while he is seated at another of its
        tables (a move takes him out there first). `seated`: where the tournament's players
        sit, read once for a change over several tables."""
        if not state.tournament:
            return
        if seated is not None:
            found = seated.get(player)
            if found is not None and found[0] != stream:
                raise RuleViolation(
                    "seating", f"player: {player} is already seated at table {found[1]} of "
                    f"tournament {state.tournament} (seat {found[2]})",
                    ("move the player instead",))
            return
        for head in self.store.streams():
            if head.kind != "table" or head.stream_id == stream:
                continue
            other = self.table(head.stream_id).state  # held in memory after its first read
            if other is None or other.tournament != state.tournament:
                continue
            seat = other.seat_of(player)
            if seat is not None:
                raise RuleViolation(
                    "seating", f"player: {player} is already seated at table {other.table} of "
                    f"tournament {state.tournament} (seat {seat.seat})",
                    ("move the player instead",))

    def _undo_versions(self, fold: TableFold, by_director: bool = False) -> tuple[int, ...]:
        """The last entry of the hand in progress, with the events derived from it."""
        state = fold.state
        if state is None or state.hand is None:
            raise RuleViolation("undo", "nothing to undo: no hand at this table")
        versions: list[int] = []
        effective = fold.effective
        for index in range(len(effective) - 1, -1, -1):
            version, event = effective[index]
            if isinstance(event, PotAwarded) and event.pot > 0:
                versions.append(version)
                continue
            if isinstance(event, _DERIVED):
                versions.append(version)
                continue
            if isinstance(event, (TableOpened, PlayerSeated, PlayerLeft, ButtonPlaced,
                                  StackAdjusted, SeatAbsenceChanged, PotCarried)):
                what = directors_event(event)
                if what and not by_director:
                    raise DirectorsCorrection(
                        "undo", f"#{version} is {what}, a director's ruling: a dealer's undo "
                        "does not reverse it; a director must do it (void events, with the "
                        "reason)", ("call the director",))
                raise RuleViolation("undo", "nothing to undo in the current hand; a director "
                                    "corrects earlier events", ("void events (director)",))
            versions.append(version)
            if index > 0 and isinstance(effective[index - 1][1], ChipsPushed):
                # The chips pushed and the action they were ruled as are one entry.
                versions.append(effective[index - 1][0])
            break
        if not versions:
            raise RuleViolation("undo", "nothing to undo")
        return tuple(sorted(versions))

    def _check_undo(self, live: LiveTable, versions: tuple[int, ...], command: Undo,
                    by_director: bool) -> None:
        """A director's event ends the dealer's undo: reversing it is a director's correction,
        recorded with his reason."""
        amended = live.amended_versions()
        events = dict(live.fold().effective)
        for version in versions:
            what = "an amended entry" if version in amended else directors_event(
                events.get(version))
            if not what:
                continue
            if not by_director:
                raise DirectorsCorrection(
                    "undo", f"#{version} is {what}, a director's ruling: a dealer's undo does "
                    "not reverse it; a director must do it (void events, with the reason)",
                    ("call the director",))
            if not command.reason.strip() or command.reason == DEFAULT_UNDO_REASON:
                raise RuleViolation("correction", f"#{version} is {what}: reversing a "
                                    "director's ruling records why", ("give the reason",))

    def _amendment(self, command: AmendEvent) -> EventAmended:
        if not command.reason.strip() or not command.rule.strip():
            raise RuleViolation("correction", "an amendment records why and the rule cited",
                                ("give a reason and a rule",))
        event_type, version, payload = encode_event(command.replacement)
        return EventAmended(command.version, event_type, canonical_json(payload),
                            command.reason, cite(command.rule), version)

    def _check_void(self, stream: str, live: LiveTable, versions: tuple[int, ...]) -> None:
        """Re-derive the table without those events; every later event must still be legal."""
        self._check_correction(stream, live, [EventVoided(versions, "trial")])

    def _check_correction(self, stream: str, live: LiveTable, corrections: list[Any]) -> None:
        """Re-derive the table with the correction (from the snapshot at the start of the hand
        it touches); every later event must still be legal."""
        targets: list[int] = []
        for correction in corrections:
            targets.extend(correction.versions if isinstance(correction, EventVoided)
                           else [correction.version])
        missing = [v for v in targets if not 1 <= v <= live.version]
        if missing:
            raise RuleViolation("correction", f"version {missing[0]} is not in {stream}")
        new = live.trial_findings(corrections)
        if new:
            first = new[0]
            raise RuleViolation(
                first.rule, f"that correction makes version {first.version} "
                f"({first.event_type}) invalid: {first.message}",
                ("void the later events too",),
            )


def _bet_as_amended(live: LiveTable, command: AmendAmount) -> Any:
    """The bet or raise at `command.version` re-decided by the engine with the corrected
    amount, on the table as it stood just before it."""
    effective = live.fold().effective
    at = bisect.bisect_left(effective, command.version, key=lambda item: item[0])
    original = effective[at][1] if at < len(effective) and effective[at][0] == command.version \
        else None
    if not isinstance(original, BetMade | RaiseMade):
        raise RuleViolation("correction", f"version {command.version} is not a bet or a raise "
                            "that counts: only their amounts are amended",
                            ("void the entry instead",))
    before = live.state_before(command.version)
    assert before is not None and before.hand is not None
    decided = decide(before.hand, hand_commands.BetRaise(original.player, command.to))
    return decided[0]


def _penalty_kills(state: TableState, started: list[Any],
                   penalized: tuple[str, ...]) -> list[Any]:
    """TDA 71: a player serving a penalty is dealt in, posts, and has his hand killed at once
    (never the last live hand: that one wins the pot)."""
    if not penalized:
        return []
    trial: TableState | None = state
    for event in started:
        trial = _apply(trial, event)
    kills: list[Any] = []
    for player in penalized:
        hand = trial.hand if trial is not None else None
        if hand is None or hand.is_complete or player not in hand.setup.players:
            continue
        position = hand.setup.players.index(player)
        try:
            decided = decide(hand, hand_commands.KillHand(position, KILLED_FOR_PENALTY,
                                                          PENALTY_RULE))
        except RuleViolation:
            continue
        for event in decided:
            trial = _apply(trial, event)
        kills.extend(decided)
    return kills


def _derived_id(event_id: uuid.UUID, k: int) -> uuid.UUID:
    return uuid.uuid5(event_id, str(k))


def _check_words(command: Any) -> None:
    """Reasons and rulings are kept forever and shown on every screen: a sane length, no
    control characters."""
    for name in ("reason", "ruling", "rule"):
        value = getattr(command, name, None)
        if isinstance(value, str):
            check_reason(value, name)


def _between_hands(state: TableState, what: str) -> None:
    if state.hand_in_progress:
        raise RuleViolation("hand in progress", f"cannot {what} during a hand",
                            ("finish the hand first",))


def _occupant(state: TableState, seat_number: int) -> Any:
    seat = state.occupant(seat_number)
    if seat is None:
        raise RuleViolation("seating", f"seat {seat_number} is empty")
    return seat


def _apply(state: TableState | None, event: Any) -> TableState | None:
    if isinstance(event, TableOpened):
        return open_table(event)
    if state is None:
        return None
    return apply_table(state, event)


def _checkpoint_reason(stored: Sequence[StoredEvent]) -> str | None:
    """Why a checkpoint is signed after these events: the weightiest of them (the finish over
    the prizes recorded with it, a table closing over a level starting)."""
    kinds = {e.type for e in stored}
    return next((kind for kind in CHECKPOINT_PRIORITY if kind in kinds), None)


CHECKPOINT_PRIORITY = ("tournament_finished", "table_closed", "break_started", "level_started",
                       "prizes_awarded")
