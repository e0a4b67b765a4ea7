"""The write side of a table: command -> state (fold) -> engine decides -> store appends -> views.

The CLI, the HTTP API, the tablet pages and the simulation all record through `Recorder`.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from engine import commands as hand_commands
from engine.errors import RuleViolation
from engine.events import (
    BetMade,
    ButtonPlaced,
    ChipsPosted,
    EventAmended,
    EventVoided,
    HandKilled,
    HandVoided,
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
from engine.hand import begin, decide
from engine.table import (
    Level,
    TableState,
    apply_table,
    check_seat,
    check_table_opened,
    open_table,
    plan_hand,
    table_opened,
)
from engine.words import cite
from recorder.limits import check_chips, check_name, check_reason
from replay.fold import TableFold, fold_table
from replay.whatif import follow_amendment
from schema.codec import canonical_json, encode_event
from schema.errors import ConcurrencyConflict, DuplicateEventConflict
from schema.store import EventStore, NewEvent, StoredEvent


def utc_now() -> datetime:
    return datetime.now(UTC)



@dataclass(frozen=True)
class Actor:
    """Who records: a role, a name and the device they use (every event carries them)."""

    name: str
    role: str = "director"  # director, dealer, viewer or system
    device: str = "cli"


SYSTEM = Actor("handlog", "system", "server")


# --- table commands that are not hand commands --------------------------------------------


@dataclass(frozen=True)
class OpenTable:
    table: str
    seat_count: int
    profile: str
    tournament: str = ""


@dataclass(frozen=True)
class SeatPlayer:
    seat: int
    player: str
    stack: int
    waits: bool = False
    reason: str = "draw"


@dataclass(frozen=True)
class RemovePlayer:
    seat: int
    reason: str  # eliminated, moved, withdrawn


@dataclass(frozen=True)
class PlaceButton:
    seat: int
    reason: str = "button_draw"


@dataclass(frozen=True)
class AdjustStack:
    seat: int
    amount: int
    reason: str
    rule: str = ""


@dataclass(frozen=True)
class AmendAmount:
    """A director's correction of a bet or raise keyed wrong: the entry at `version` counts as
    a bet or raise to `to` (the engine decides it as at that moment); later entries are
    re-validated, the original stays in the log."""

    version: int
    to: int
    reason: str
    rule: str


@dataclass(frozen=True)
class CarryToPot:
    """Chips for the table's next pot, nobody's (Octobermuck: a buy-down's odd chips); a
    negative amount takes them away to another table's next pot (the table breaks)."""

    amount: int
    reason: str
    rule: str = ""
    other_table: str = ""  # a hand-on from (or to) a broken table


@dataclass(frozen=True)
class SetAbsence:
    seat: int
    absent: bool


@dataclass(frozen=True)
class StartHand:
    level: Level
    hand_number: int = 0  # 0: the next number at this table
    final_table: bool = False


@dataclass(frozen=True)
class Undo:
    """Void the last entry of the hand in progress (a correction; the original stays). An entry
    that is a director's (a killed or voided hand, an award by a ruling, an amended entry) is
    reversed by a director only, with his reason."""

    reason: str = "undo"  # a code (engine/words.py REASONS), or the dealer's own words


DEFAULT_UNDO_REASON = Undo.reason


class DirectorsCorrection(RuleViolation):
    """A correction only a director may record: a dealer's undo would reverse a director's
    event (the API answers 403)."""


def directors_event(event: Any) -> str:
    """What makes `event` a director's ruling ("" for an observation a dealer records)."""
    if isinstance(event, HandKilled):
        return "a killed hand"
    if isinstance(event, HandVoided):
        return "a voided hand"
    if isinstance(event, PotAwarded) and event.ruling:
        return "an award by a ruling"
    if isinstance(event, StackAdjusted):
        return "a chip adjustment (penalty)"
    return ""


@dataclass(frozen=True)
class VoidEvents:
    """A director's correction: earlier events stop counting; later ones are re-validated."""

    versions: tuple[int, ...]
    reason: str
    rule: str


@dataclass(frozen=True)
class AmendEvent:
    """A director's correction: an earlier event counts as `replacement` from now on; the
    original stays in the log and every later event is re-validated."""

    version: int
    replacement: Any
    reason: str
    rule: str


TableCommand = (
    OpenTable | SeatPlayer | RemovePlayer | PlaceButton | AdjustStack | CarryToPot | SetAbsence
    | StartHand | Undo | VoidEvents | AmendEvent | AmendAmount | hand_commands.Command
)

# Events that follow from the one before them in the same command (undone together).
_DERIVED = (ChipsPosted,)


@dataclass
class _Cached:
    stored: list[StoredEvent]
    fold: TableFold


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


@dataclass
class Recorder:
    """Records commands into the store through the engine; keeps folded tables in memory."""

    store: EventStore
    clock: Callable[[], datetime] = utc_now
    _cache: dict[str, _Cached] = field(default_factory=dict)
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _listeners: list[Callable[[str, int], None]] = field(default_factory=list)
    checkpoint: Callable[[str], object] | None = None
    """Signs a checkpoint of the log, given why (recorder/signing.py sets it for a server)."""

    # --- reading ------------------------------------------------------------------------

    def table(self, stream: str) -> TableFold:
        """The table's folded state, brought up to the store's head."""
        with self._lock:
            cached = self._cache.get(stream)
            if cached is None:
                stored = self.store.read(stream)
                cached = _Cached(stored, fold_table(stream, stored, verify=False))
                self._cache[stream] = cached
                return cached.fold
            head = self.store.head(stream)
            if head is not None and head.version > cached.fold.version:
                self._extend(stream, cached, self.store.read(stream, cached.fold.version + 1))
            return cached.fold

    def _extend(self, stream: str, cached: _Cached, new: Sequence[StoredEvent]) -> None:
        cached.stored.extend(new)
        if any(e.type in ("event_voided", "event_amended") for e in new):
            cached.fold = fold_table(stream, cached.stored, verify=False)
            return
        state = cached.fold.state
        effective = list(cached.fold.effective)
        try:
            for stored in new:
                event = stored.decode()
                effective.append((stored.version, event))
                state = _apply(state, event)
        except (RuleViolation, KeyError, IndexError, ValueError):
            # An entry this release cannot apply (say, a profile an older release allowed):
            # the full fold keeps the rest of the table and names that entry as a finding,
            # and the table stays readable (and correctable) instead of failing every read.
            cached.fold = fold_table(stream, cached.stored, verify=False)
            return
        cached.fold = TableFold(stream, cached.stored[-1].version, state, cached.fold.findings,
                                tuple(effective), cached.fold.voided)

    def subscribe(self, listener: Callable[[str, int], None]) -> Callable[[], None]:
        """Call `listener(stream, version)` after every append; returns the unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

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
        with self._lock:
            fold = self.table(stream)
            self._check_version(stream, expected_version, fold.version)
            retried = self._retry_of(stream, expected_version, fold.version, event_id)
            if retried is not None:
                self._check_same_command(stream, expected_version, command, retried, actor)
                return retried
            events = self._decide(stream, fold, command, actor)
            return self._record(stream, expected_version, events, event_id, actor)

    def _check_same_command(self, stream: str, expected_version: int, command: TableCommand,
                            retried: Recorded, actor: Actor | None = None) -> None:
        """A retry is the same command only if, decided where it was first sent, it gives the
        events recorded under its id; otherwise its id was reused for another entry."""
        first = retried.events[0]
        before = fold_table(stream, self.store.read(stream)[:expected_version], verify=False)
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
        with self._lock:
            head = self.store.head(stream)
            current = head.version if head else 0
            retried = self._retry_of(stream, expected_version, current, event_id)
            if retried is not None:
                return retried
            self._check_version(stream, expected_version, current)
            return self._record(stream, expected_version, events, event_id, actor)

    def recorded(self, stream: str, event_id: uuid.UUID) -> Recorded | None:
        """What was recorded in `stream` under `event_id` (with the events derived from it), as
        a retry of it returns it; None when nothing was. For a retry that does not know the
        version it was first sent at (the tournament's commands and their parts)."""
        with self._lock:
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

    def _record(self, stream: str, expected_version: int, events: Sequence[Any],
                event_id: uuid.UUID, actor: Actor) -> Recorded:
        stored = self._append(stream, expected_version, events, event_id, actor)
        if self.checkpoint is not None:
            reason = next((e.type for e in stored if e.type in CHECKPOINT_EVENTS), None)
            if reason is not None:
                self.checkpoint(reason)
        for listener in list(self._listeners):
            listener(stream, stored[-1].version)
        return Recorded(stream, stored[-1].version, tuple(stored))

    def _find_retry(self, stream: str, expected_version: int,
                    event_id: uuid.UUID) -> Recorded | None:
        later = self.store.read(stream, expected_version + 1)
        first = next((i for i, e in enumerate(later) if e.event_id == event_id), None)
        if first is None:
            return None
        mine = [later[first]]
        for k, e in enumerate(later[first + 1:], start=1):
            if e.event_id != _derived_id(event_id, k):
                break
            mine.append(e)
        return Recorded(stream, mine[-1].version, tuple(mine), retried=True)

    def _append(self, stream: str, expected_version: int, events: Sequence[Any],
                event_id: uuid.UUID, actor: Actor) -> list[StoredEvent]:
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
        cached = self._cache.get(stream)
        if cached is not None and cached.fold.version == expected_version:
            self._extend(stream, cached, stored)
        return stored

    def events(self, stream: str) -> list[StoredEvent]:
        """Every stored event of a stream (tournament streams are read whole)."""
        return self.store.read(stream)

    def _decide(self, stream: str, fold: TableFold, command: TableCommand,
                actor: Actor | None = None) -> list[Any]:
        state = fold.state
        _check_words(command)
        if isinstance(command, OpenTable):
            check_name(command.table, "table")
            if state is not None:
                raise RuleViolation("table", f"table stream {stream} is already open")
            check_table_opened(TableOpened(command.table, command.seat_count, command.profile,
                                           command.tournament))
            return [table_opened(command.table, command.seat_count, command.profile,
                                 command.tournament)]
        if isinstance(command, VoidEvents) and state is None and fold.version:
            # A table whose opening cannot be applied (recorded by an older release): the
            # director can still void it.
            check_reason(command.reason, "reason", required=True)
            self._check_void(stream, command.versions)
            return [EventVoided(command.versions, command.reason, cite(command.rule))]
        if state is None:
            raise RuleViolation("table", f"no table {stream}: open it first", ("open the table",))
        if isinstance(command, StartHand):
            number = command.hand_number or state.hands_played + 1
            if state.hand is not None and state.hand.phase in ("misdealt", "void"):
                # The exact re-deal: same hand number, button and limits.
                number = state.hand.setup.hand_number
            setup = plan_hand(state, command.level, number, command.final_table)
            return list(begin(setup))
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
            self._check_not_seated_elsewhere(stream, state, command.player)
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
            versions = self._undo_versions(fold, by_director)
            self._check_undo(fold, versions, command, by_director)
            return [EventVoided(versions, command.reason, "correction")]
        if isinstance(command, VoidEvents):
            check_reason(command.reason, "reason", required=True)
            self._check_void(stream, command.versions)
            return [EventVoided(command.versions, command.reason, cite(command.rule))]
        if isinstance(command, AmendAmount):
            replacement = _bet_as_amended(fold, command)
            # The later entries of the hand follow the new amount where they still fit (a
            # call follows it, folds stay folds); only an entry that no longer fits is named.
            later = follow_amendment(fold.effective, command.version, replacement)
            amendments = [self._amendment(AmendEvent(version, event, command.reason,
                                                     command.rule))
                          for version, event in [(command.version, replacement), *later]]
            self._check_correction(stream, amendments)
            return amendments
        if isinstance(command, AmendEvent):
            amended = self._amendment(command)
            self._check_correction(stream, [amended])
            return [amended]
        hand = state.hand
        if hand is None:
            raise RuleViolation("hand", "no hand in progress: start a hand first",
                                ("start a hand",))
        return list(decide(hand, command))

    def _check_not_seated_elsewhere(self, stream: str, state: TableState, player: str) -> None:
        """A tournament's player has one seat: refused while he is seated at another of its
        tables (a move takes him out there first)."""
        if not state.tournament:
            return
        for head in self.store.streams():
            if head.kind != "table" or head.stream_id == stream:
                continue
            cached = self._cache.get(head.stream_id)
            # One read of the heads; a table is folded again only when it has grown.
            other = (cached.fold if cached is not None and cached.fold.version == head.version
                     else self.table(head.stream_id)).state
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
        for version, event in reversed(fold.effective):
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
            break
        if not versions:
            raise RuleViolation("undo", "nothing to undo")
        return tuple(sorted(versions))

    def _check_undo(self, fold: TableFold, versions: tuple[int, ...], command: Undo,
                    by_director: bool) -> None:
        """A director's event ends the dealer's undo: reversing it is a director's correction,
        recorded with his reason."""
        amended = {e.decode().version for e in self._cache[fold.stream].stored
                   if e.type == EventAmended.TYPE}
        events = dict(fold.effective)
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

    def _check_void(self, stream: str, versions: tuple[int, ...]) -> None:
        """Re-derive the table without those events; every later event must still be legal."""
        self._check_correction(stream, [EventVoided(versions, "trial")])

    def _check_correction(self, stream: str, corrections: list[Any]) -> None:
        """Re-derive the table with the correction; every later event must still be legal."""
        cached = self._cache[stream]
        known = {e.version for e in cached.stored}
        targets: list[int] = []
        for correction in corrections:
            targets.extend(correction.versions if isinstance(correction, EventVoided)
                           else [correction.version])
        missing = [v for v in targets if v not in known]
        if missing:
            raise RuleViolation("correction", f"version {missing[0]} is not in {stream}")
        now = self.clock()
        trial = list(cached.stored) + [
            _unsaved(stream, cached.stored[-1].version + k + 1, correction, now)
            for k, correction in enumerate(corrections)
        ]
        result = fold_table(stream, trial, verify=True)
        before = {(f.version, f.message) for f in fold_table(stream, cached.stored).findings}
        new = [f for f in result.findings if (f.version, f.message) not in before]
        if new:
            first = new[0]
            raise RuleViolation(
                first.rule, f"that correction makes version {first.version} "
                f"({first.event_type}) invalid: {first.message}",
                ("void the later events too",),
            )


def _bet_as_amended(fold: TableFold, command: AmendAmount) -> Any:
    """The bet or raise at `command.version` re-decided by the engine with the corrected
    amount, on the table as it stood just before it."""
    original = next((e for v, e in fold.effective if v == command.version), None)
    if not isinstance(original, BetMade | RaiseMade):
        raise RuleViolation("correction", f"version {command.version} is not a bet or a raise "
                            "that counts: only their amounts are amended",
                            ("void the entry instead",))
    before: TableState | None = None
    for version, event in fold.effective:
        if version >= command.version:
            break
        before = open_table(event) if before is None else apply_table(before, event)
    assert before is not None and before.hand is not None
    decided = decide(before.hand, hand_commands.BetRaise(original.player, command.to))
    return decided[0]


def _unsaved(stream: str, version: int, event: Any, now: datetime) -> StoredEvent:
    """A correction as it would be stored, to fold it before it is appended."""
    event_type, schema_version, payload = encode_event(event)
    return StoredEvent(0, stream, version, uuid.uuid4(), event_type, schema_version, payload,
                       canonical_json(payload), now, "", "", "", "")


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

