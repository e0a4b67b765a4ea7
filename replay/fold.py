"""Fold a table's stream through the engine, applying corrections, checking every event.

The recorder gets a table's live state from `fold_table` too, so live state and replayed state
are the same code and compare with `==`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from handlog.engine.cards import parse_card
from handlog.engine.commands import (
    ActOutOfTurn,
    AwardPots,
    BetRaise,
    CheckCall,
    Command,
    DealBoard,
    DealHole,
    DeclareMisdeal,
    ExpireClock,
    ExposeBoardEarly,
    ExposeCard,
    Fold,
    KillHand,
    MarkAbsent,
    MarkReturned,
    MuckCards,
    PushChips,
    ShowCards,
    VoidHand,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.events import (
    ActedOutOfTurn,
    BetMade,
    BoardDealt,
    BoardExposedEarly,
    CardExposed,
    CardsMucked,
    CardsShown,
    ChipsPushed,
    HandKilled,
    HandStarted,
    HandVoided,
    HoleCardsDealt,
    MisdealDeclared,
    PlayerCalled,
    PlayerChecked,
    PlayerFolded,
    PlayerMarkedAbsent,
    PlayerReturned,
    PotAwarded,
    RaiseMade,
)
from handlog.engine.hand import begin, decide, setup_from_event
from handlog.engine.profiles import profile_digest, rules_for
from handlog.engine.table import Level, TableState, apply_table, open_table, plan_hand
from handlog.engine.table_events import (
    ButtonPlaced,
    EventAmended,
    EventVoided,
    HandImported,
    PlayerLeft,
    PlayerSeated,
    PotCarried,
    SeatAbsenceChanged,
    StackAdjusted,
    TableOpened,
)
from handlog.schema.codec import decode_event
from handlog.schema.store import StoredEvent

OTHER_RULES = "recorded under other rules"
"""The kind of finding for a hand whose recorded rules (their digest) are not today's profile
of that name and cannot be rebuilt: what follows is judged under today's rules, so a difference
may come from a newer release, not from tampering. It does not make a replay unclean."""


DIFFERS_UNDER_TODAYS_RULES = "differs under today's rules"
"""The kind of a finding in a hand recorded under other rules: the recorded event is not what
today's rules decide, which the rules it was recorded under may have."""


@dataclass(frozen=True)
class Finding:
    """Something in the log the engine does not agree with."""

    stream: str
    version: int
    event_type: str
    rule: str
    message: str
    expected: str = ""
    recorded: str = ""
    kind: str = "differs from the engine"

    def as_dict(self) -> dict[str, Any]:
        return {
            "stream": self.stream, "version": self.version, "event": self.event_type,
            "rule": self.rule, "message": self.message, "expected": self.expected,
            "recorded": self.recorded, "kind": self.kind,
        }


@dataclass(frozen=True)
class TableFold:
    stream: str
    version: int  # the last stored version folded
    state: TableState | None
    findings: tuple[Finding, ...]
    # (version, event) that count after corrections: a tuple, or the recorder's live view of
    # its cached list (a Sequence that compares equal to the same tuple).
    effective: Sequence[tuple[int, Any]]
    voided: frozenset[int]


def effective_events(stored: Sequence[StoredEvent]) -> tuple[list[tuple[int, Any]], set[int]]:
    """The events that count, in order: voided ones dropped, amended ones replaced."""
    decoded = [(e.version, e.decode()) for e in stored]
    voided: set[int] = set()
    amended: dict[int, Any] = {}
    for _version, event in decoded:
        if isinstance(event, EventVoided):
            voided.update(event.versions)
        elif isinstance(event, EventAmended):
            amended[event.version] = decode_event(
                event.replacement_type, event.replacement_version,
                json.loads(event.replacement_payload)
            )
    result = []
    for version, event in decoded:
        if isinstance(event, (EventVoided, EventAmended)) or version in voided:
            continue
        result.append((version, amended.get(version, event)))
    return result, voided


_CLOCK_CAUSES = frozenset({"clock_expired", "clock_expired_facing_bet"})


def command_for(event: Any) -> Command | None:
    """The dealer's command that records `event` (None for events no command makes)."""
    kind = type(event)
    if kind is PlayerFolded:
        return Fold(event.player)
    if kind in (PlayerChecked, PlayerCalled):
        return CheckCall(event.player)
    if kind in (BetMade, RaiseMade):
        return BetRaise(event.player, event.to)
    if kind is ActedOutOfTurn:
        return ActOutOfTurn(event.player, event.action, event.to)
    if kind is ChipsPushed:
        # Replaying the facts must give the recorded ruling (and then the same action).
        return PushChips(event.player, event.chips, event.motions, event.said, event.said_to,
                         event.bounty_chip)
    if kind is HoleCardsDealt:
        cards = tuple(parse_card(c) for c in event.cards) or None
        return DealHole(event.player, cards)
    if kind is BoardDealt:
        return DealBoard(tuple(parse_card(c) for c in event.cards))
    if kind is CardsShown:
        return ShowCards(event.player, tuple(parse_card(c) for c in event.cards))
    if kind is CardsMucked:
        return MuckCards(event.player)
    if kind is MisdealDeclared:
        return DeclareMisdeal(event.reason)
    if kind is CardExposed:
        return ExposeCard(event.player, parse_card(event.card), event.in_deal, event.place)
    if kind is BoardExposedEarly:
        return ExposeBoardEarly(tuple(parse_card(c) for c in event.cards))
    if kind is HandKilled:
        if event.cause in _CLOCK_CAUSES:
            return ExpireClock(event.player)
        return KillHand(event.player, event.reason, ", ".join(event.rules))
    if kind is PlayerMarkedAbsent:
        return MarkAbsent(event.player)
    if kind is PlayerReturned:
        return MarkReturned(event.player)
    if kind is HandVoided:
        return VoidHand(event.reason)
    return None


def level_of(event: HandStarted) -> Level:
    """The stakes a recorded hand says it was played at."""
    positive = [b for b in event.blinds if b > 0]
    small = min(positive) if len(positive) > 1 else 0
    antes = [a for a in event.antes if a > 0]
    if not antes:
        kind = "none"
    elif len(antes) == 1 and len(event.antes) > 1:
        kind = "big_blind"
    else:
        kind = "uniform"
    return Level(small, event.min_bet, max(antes, default=0), kind,  # type: ignore[arg-type]
                 event.level, event.chip_unit)


def _show(value: Any) -> str:
    return repr(value)


class _Checker:
    """Checks each event of a table stream against what the engine decides."""

    def __init__(self, stream: str) -> None:
        self.stream = stream
        self.queue: list[Any] = []
        self.findings: list[Finding] = []
        self.kind = Finding.kind  # of the findings in the hand being checked

    def finding(self, version: int, event: Any, rule: str, message: str,
                expected: Any = "", recorded: Any = "") -> None:
        self.findings.append(Finding(
            self.stream, version, getattr(event, "TYPE", type(event).__name__), rule, message,
            _show(expected) if expected != "" else "", _show(recorded) if recorded != "" else "",
            self.kind,
        ))

    def check(self, state: TableState | None, effective: Sequence[tuple[int, Any]],
              index: int) -> None:
        version, event = effective[index]
        if self.queue:
            expected = self.queue.pop(0)
            if expected != event:
                self.finding(version, event, "engine", "the recorded event differs from what "
                             "the engine computes", expected, event)
            return
        if state is None:
            if not isinstance(event, TableOpened):
                self.finding(version, event, "log", "a table stream starts with table_opened")
            return
        if isinstance(event, HandStarted):
            self._check_hand_start(state, version, event)
            return
        if isinstance(event, PlayerSeated):
            if state.occupant(event.seat) is not None or not 1 <= event.seat <= state.seat_count:
                self.finding(version, event, "seating", f"seat {event.seat} is not free")
            return
        if isinstance(event, PlayerLeft):
            seat = state.occupant(event.seat)
            if seat is None or seat.player != event.player:
                self.finding(version, event, "seating", f"{event.player} is not in seat "
                             f"{event.seat}")
            elif seat.stack != event.stack:
                self.finding(version, event, "stacks-carry-over", "the player left with a "
                             "different stack than the table holds", seat.stack, event.stack)
            return
        if isinstance(event, PotCarried) and (
                event.amount == 0 or state.carry + event.amount < 0 or state.hand_in_progress):
            self.finding(version, event, "dead-money", "a carry into (or out of) the next pot "
                         "is recorded between hands and never takes more than the table "
                         "carries", f"between -{state.carry} and any positive amount",
                         event.amount)
            return
        if isinstance(event, HandImported) and state.hand_in_progress:
            self.finding(version, event, "log", "an imported hand is marked before the "
                         "previous one ended")
            return
        if isinstance(event, (ButtonPlaced, StackAdjusted, SeatAbsenceChanged, TableOpened,
                              PotCarried, HandImported)):
            return
        if state.hand is None or state.hand.is_complete:
            self.finding(version, event, "log", f"{event.TYPE} outside a hand")
            return
        if isinstance(event, PotAwarded):
            self._check_awards(state, effective, index)
            return
        command = command_for(event)
        if command is None:
            self.finding(version, event, "log", f"{event.TYPE} is not a hand event")
            return
        try:
            decided = list(decide(state.hand, command))
        except RuleViolation as violation:
            self.finding(version, event, violation.rule, violation.message,
                         "; ".join(violation.legal), event)
            return
        if decided[0] != event:
            self.finding(version, event, "engine", "the recorded event differs from what the "
                         "engine decides", decided[0], event)
        self.queue = decided[1:]

    def _check_hand_start(self, state: TableState, version: int, event: HandStarted) -> None:
        self.kind = Finding.kind
        if event.rules_digest:
            rules = rules_for(event.profile, event.rules_digest)
            if profile_digest(rules) != event.rules_digest:
                self.findings.append(Finding(
                    self.stream, version, event.TYPE, "rules",
                    f"hand {event.hand_number} was recorded under other {event.profile} rules "
                    f"(handlog {event.handlog_version or 'unknown'}) than this release's and "
                    "the log does not hold them; it is re-decided under today's "
                    f"{event.profile} rules, so a difference in it may come from the newer "
                    "release, not from tampering",
                    profile_digest(rules), event.rules_digest, kind=OTHER_RULES))
                self.kind = DIFFERS_UNDER_TODAYS_RULES
        if state.hand_in_progress:
            self.finding(version, event, "log", "a hand started before the previous one ended")
        stacks = {s.seat: s.stack for s in state.seats}
        for seat, stack in zip(event.seats, event.stacks, strict=True):
            if stacks.get(seat) != stack:
                self.finding(version, event, "stacks-carry-over", f"seat {seat} starts the hand "
                             "with a different stack than it ended the last one",
                             stacks.get(seat), stack)
        if event.dead_money != state.carry:
            self.finding(version, event, "dead-money", "the hand starts with other dead money "
                         "than the table carries to its next pot", state.carry,
                         event.dead_money)
        try:
            planned = plan_hand(state, level_of(event), event.hand_number, final_table=True)
        except RuleViolation as violation:
            self.finding(version, event, violation.rule, violation.message)
        else:
            recorded = setup_from_event(event)
            for name in ("seats", "blinds", "antes", "button_seat", "big_blind_seat"):
                if getattr(planned, name) != getattr(recorded, name):
                    self.finding(version, event, "tda-32", f"{name} differ from the engine's "
                                 "button and blinds", getattr(planned, name),
                                 getattr(recorded, name))
        self.queue = list(begin(setup_from_event(event))[1:])

    def _check_awards(self, state: TableState, effective: Sequence[tuple[int, Any]],
                      index: int) -> None:
        version, first = effective[index]
        assert state.hand is not None
        awards = []
        for _v, e in effective[index:]:
            if not isinstance(e, PotAwarded):
                break
            awards.append(e)
        override = None
        if first.ruling:
            override = tuple(a.winners for a in awards)
        try:
            expected = list(decide(state.hand, AwardPots(override, first.ruling)))
        except RuleViolation as violation:
            self.finding(version, first, violation.rule, violation.message)
            return
        if expected[0] != first:
            self.finding(version, first, "tda-20, tda-21",
                         "the pot award differs from the engine's", expected[0], first)
        self.queue = expected[1:]


def fold_table(stream: str, stored: Sequence[StoredEvent], verify: bool = True) -> TableFold:
    """The table's state after its stream, with every finding when `verify`."""
    effective, voided = effective_events(stored)
    last_version = stored[-1].version if stored else 0
    state, findings = fold_effective(stream, effective, None, last_version, verify)
    return TableFold(
        stream=stream,
        version=last_version,
        state=state,
        findings=findings,
        effective=tuple(effective),
        voided=frozenset(voided),
    )


HandStartSeen = Callable[[int, TableState | None], None]


def fold_effective(
    stream: str,
    effective: Sequence[tuple[int, Any]],
    state: TableState | None,
    last_version: int,
    verify: bool = True,
    on_hand_start: HandStartSeen | None = None,
) -> tuple[TableState | None, tuple[Finding, ...]]:
    """Fold effective events onto `state` (None: from the table's opening), with the findings
    when `verify`. `on_hand_start(index, state)` hears the state just before each hand_started
    (the recorder keeps those as snapshots, so a correction folds from the last one before it
    instead of from the table's first event: a fold from there checks the same way)."""
    folder = StreamFolder(stream, state, verify, on_hand_start)
    folder.feed(effective)
    return folder.finish(last_version)


class StreamFolder:
    """`fold_effective` in pieces: the effective events fed in any number of runs, each ending
    before a hand_started (or at the stream's end: a run of pot awards is checked as a whole),
    so a replay holds one hand of a stream, not the stream."""

    def __init__(self, stream: str, state: TableState | None = None, verify: bool = True,
                 on_hand_start: HandStartSeen | None = None) -> None:
        self.stream = stream
        self.state = state
        self.verify = verify
        self._checker = _Checker(stream)
        self._on_hand_start = on_hand_start
        self._fed = 0

    def feed(self, effective: Sequence[tuple[int, Any]]) -> None:
        checker, on_hand_start, verify = self._checker, self._on_hand_start, self.verify
        state = self.state
        base = self._fed
        for index, (version, event) in enumerate(effective):
            if on_hand_start is not None and isinstance(event, HandStarted):
                on_hand_start(base + index, state)
            if verify:
                checker.check(state, effective, index)
            try:
                if isinstance(event, TableOpened):
                    state = open_table(event)
                elif state is not None:
                    state = apply_table(state, event)
            except (RuleViolation, KeyError, IndexError, ValueError) as error:
                checker.finding(version, event, "log", f"cannot apply: {error}")
        self.state = state
        self._fed = base + len(effective)

    @property
    def findings(self) -> list[Finding]:
        """The findings so far (a list the folder keeps adding to)."""
        return self._checker.findings

    def finish(self, last_version: int) -> tuple[TableState | None, tuple[Finding, ...]]:
        """The state after everything fed, and the findings (with the log's end checked)."""
        checker, state = self._checker, self.state
        if self.verify and state is not None and checker.queue:
            pending = checker.queue[0]
            if not (state.hand_in_progress and isinstance(pending, PotAwarded)):
                checker.findings.append(Finding(self.stream, last_version,
                                                getattr(pending, "TYPE", ""), "log",
                                                "the log ends before the events the engine "
                                                "expects", _show(pending)))
        return state, tuple(checker.findings)
