"""Hands as records: every hand of a table stream, step by step, for disputes and audits.

`table_hands` folds a table's stream through the engine (the same fold replay uses) and cuts it
into hands. Each hand keeps its set-up, and one `Step` per event that counts (corrections
applied), holding the state right after it: stacks, chips in front, the pots with who is
eligible, the board and who acts next. A step also carries the facts a floor person asks about
(was that all-in a full raise, and for whom is the betting reopened), each with the rule the
engine applied. Corrections and rulings are kept with the hand whose events they touch, with
who made them, when and why.

Everything here is facts (numbers, positions, rule identifiers); words are rendered by the
readers (recorder/views.py for the API and pages, the CLI).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from handlog.engine.cards import card_text
from handlog.engine.events import (
    BetMade,
    CardsShown,
    HandKilled,
    HandStarted,
    HandVoided,
    MisdealDeclared,
    PlayerCalled,
    PotAwarded,
    RaiseMade,
)
from handlog.engine.hand import NOT_ACTED, SHOWDOWN, STREETS, HandState, pots
from handlog.engine.hand_decide import reopening
from handlog.engine.table import TableState, apply_table, open_table
from handlog.engine.table_events import EventAmended, EventVoided, TableOpened
from handlog.replay.fold import effective_events
from handlog.schema.store import StoredEvent

_BOARD_STREET = {0: 0, 3: 1, 4: 2, 5: 3}  # cards on the board -> the street being played


@dataclass(frozen=True)
class Step:
    """One event of a hand and the hand right after it."""

    index: int  # 0 is the hand's start
    version: int
    event: Any
    recorded_at: datetime
    actor: str
    device: str
    street: str
    phase: str
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    committed: tuple[int, ...]
    folded: tuple[bool, ...]
    pots: tuple[tuple[int, tuple[int, ...]], ...]  # (amount, eligible positions)
    board: tuple[str, ...]
    to_act: int | None
    # What the engine ruled about this step, as facts: e.g. {"fact": "short_all_in",
    # "rule": "tda-47", "not_reopened_for": [2, 4]}.
    rulings: tuple[dict[str, Any], ...] = ()
    returned: tuple[int, ...] = ()  # uncalled chips given back to each position so far

    @property
    def pot_total(self) -> int:
        return sum(amount for amount, _ in self.pots)


@dataclass(frozen=True)
class Correction:
    """A correction (void or amend) or a director's ruling recorded in the hand."""

    version: int
    kind: str  # event_voided, event_amended, hand_killed, hand_voided, misdeal_declared,
    # award_by_ruling
    versions: tuple[int, ...]  # the versions it touches
    rules: tuple[str, ...]  # rule identifiers (rendered by engine/words.py)
    reason: str  # a code (engine/words.py) or the director's own words
    actor: str
    device: str
    recorded_at: datetime
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class HandRecord:
    """One hand of one table, from its hand_started to the last event before the next."""

    stream: str
    table: str
    tournament: str
    number: int
    level: int
    profile: str
    start: HandStarted
    first_version: int
    last_version: int
    started_at: datetime
    steps: tuple[Step, ...]
    corrections: tuple[Correction, ...]
    outcome: str  # complete, misdealt, void, in_progress

    @property
    def players(self) -> tuple[str, ...]:
        return self.start.players

    @property
    def all_in_players(self) -> tuple[int, ...]:
        """Positions that went all-in in this hand (posts included)."""
        found: list[int] = []
        for step in self.steps:
            player = getattr(step.event, "player", None)
            if getattr(step.event, "all_in", False) and player is not None \
                    and player not in found:
                found.append(player)
        return tuple(found)

    @property
    def showdown(self) -> bool:
        return any(step.phase == SHOWDOWN or isinstance(step.event, CardsShown)
                   for step in self.steps)

    @property
    def rulings(self) -> tuple[Correction, ...]:
        return tuple(c for c in self.corrections if c.kind not in (EventVoided.TYPE,
                                                                  EventAmended.TYPE))

    def step_at(self, version: int) -> Step:
        """The step as the hand stood right after `version` (the last step at or before it)."""
        chosen = self.steps[0]
        for step in self.steps:
            if step.version <= version:
                chosen = step
        return chosen


def _pot_facts(hand: HandState) -> tuple[tuple[int, tuple[int, ...]], ...]:
    return tuple((pot.amount, tuple(pot.eligible)) for pot in pots(hand))


def _step(index: int, item: StoredEvent, version: int, event: Any, hand: HandState,
          rulings: tuple[dict[str, Any], ...]) -> Step:
    return Step(
        index=index, version=version, event=event, recorded_at=item.recorded_at,
        actor=item.actor, device=item.device,
        street=STREETS[_BOARD_STREET.get(len(hand.board), 0)], phase=hand.phase,
        stacks=tuple(hand.stacks), bets=tuple(hand.bets), committed=tuple(hand.committed),
        folded=tuple(hand.folded), pots=_pot_facts(hand),
        board=tuple(card_text(c) for c in hand.board), to_act=hand.to_act, rulings=rulings,
        returned=tuple(hand.returned),
    )


def _betting_rulings(before: HandState, after: HandState, event: Any) -> tuple[dict[str, Any],
                                                                              ...]:
    """The engine's ruling on a bet, raise or call, as facts with the rule it rests on."""
    if isinstance(event, (BetMade, RaiseMade)):
        increase = event.to - before.current_bet
        full = increase >= before.last_full_raise if isinstance(event, RaiseMade) else True
        if isinstance(event, RaiseMade):
            full = event.full
        fact: dict[str, Any] = {
            "fact": "full_raise" if full else "short_all_in",
            "to": event.to, "increase": increase,
            "full_raise_needed": before.current_bet + before.last_full_raise,
            "all_in": event.all_in,
        }
        if not full:
            closed: list[int] = []
            opened: list[int] = []
            rule = ""
            for position in range(len(after.stacks)):
                if position == event.player or after.folded[position] or \
                        after.stacks[position] == 0 or after.acted_level[position] == NOT_ACTED:
                    continue
                is_open, rule = reopening(after, position)
                (opened if is_open else closed).append(position)
            fact["not_reopened_for"] = closed
            fact["reopened_for"] = opened
            fact["rule"] = rule or reopening(after, event.player)[1]
        else:
            fact["rule"] = "tda-43"
        return (fact,)
    if isinstance(event, PlayerCalled) and event.all_in:
        return ({"fact": "all_in_call", "amount": event.amount, "rule": "tda-47"},)
    return ()


class _HandBuilder:
    def __init__(self, stream: str, table: str, tournament: str, item: StoredEvent,
                 version: int, start: HandStarted, hand: HandState) -> None:
        self.stream, self.table, self.tournament = stream, table, tournament
        self.start = start
        self.first_version = version
        self.last_version = version
        self.started_at = item.recorded_at
        self.steps = [_step(0, item, version, start, hand, ())]
        self.corrections: list[Correction] = []

    def add(self, item: StoredEvent, version: int, event: Any, before: HandState,
            after: HandState) -> None:
        rulings = _betting_rulings(before, after, event)
        self.steps.append(_step(len(self.steps), item, version, event, after, rulings))
        self.last_version = max(self.last_version, version)
        if isinstance(event, (HandKilled, HandVoided, MisdealDeclared)):
            detail: dict[str, Any] = {}
            if isinstance(event, HandKilled):
                detail["player"] = event.player
            if isinstance(event, (HandKilled, MisdealDeclared)):
                detail["cause"] = event.cause
            self.corrections.append(Correction(
                version, event.TYPE, (version,), tuple(event.rules), event.reason, item.actor,
                item.device, item.recorded_at, detail))
        if isinstance(event, PotAwarded) and event.ruling:
            self.corrections.append(Correction(
                version, "award_by_ruling", (version,), (), event.ruling, item.actor,
                item.device, item.recorded_at,
                {"pot": event.pot, "winners": list(event.winners),
                 "shares": list(event.shares)}))

    def build(self, outcome: str) -> HandRecord:
        self.corrections.sort(key=lambda c: c.version)
        return HandRecord(
            stream=self.stream, table=self.table, tournament=self.tournament,
            number=self.start.hand_number, level=self.start.level, profile=self.start.profile,
            start=self.start, first_version=self.first_version, last_version=self.last_version,
            started_at=self.started_at, steps=tuple(self.steps),
            corrections=tuple(self.corrections), outcome=outcome,
        )


def hand_labels(hands: Sequence[HandRecord]) -> list[str]:
    """Each hand's own name at its table, in the order given (the table's order): its number,
    or for a misdealt or voided hand, whose number the redeal takes again, the number and what
    became of it ("2-misdealt", a second one "2-misdealt-2"), so the misdealt hand and its
    redeal are two names that stay the same whatever comes after."""
    labels = []
    taken: set[str] = set()
    for hand in hands:
        base = str(hand.number)
        if hand.outcome in ("misdealt", "void"):
            base += f"-{hand.outcome}"
        label, k = base, 1
        while label in taken:
            k += 1
            label = f"{base}-{k}"
        taken.add(label)
        labels.append(label)
    return labels


def _outcome(state: TableState | None) -> str:
    if state is None or state.hand is None:
        return "complete"
    phase = state.hand.phase
    if phase in ("complete", "misdealt", "void"):
        return phase
    return "in_progress"


def table_hands(stream: str, stored: Sequence[StoredEvent]) -> list[HandRecord]:
    """Every hand of a table stream, in order, with its steps and its corrections."""
    effective, _voided = effective_events(stored)
    by_version = {item.version: item for item in stored}
    state: TableState | None = None
    table, tournament = stream, ""
    hands: list[HandRecord] = []
    current: _HandBuilder | None = None
    owner: dict[int, _HandBuilder] = {}  # version -> the hand it belongs to
    builders: list[_HandBuilder] = []
    for version, event in effective:
        item = by_version[version]
        before = state
        try:
            if isinstance(event, TableOpened):
                state = open_table(event)
                table, tournament = event.table, event.tournament
            elif state is not None:
                state = apply_table(state, event)
        except Exception:  # noqa: BLE001 - a broken event is replay's finding, not ours
            continue
        if state is None:
            continue
        if isinstance(event, HandStarted) and state.hand is not None:
            if current is not None:
                hands.append(current.build(_outcome(before)))
            current = _HandBuilder(stream, table, tournament, item, version, event, state.hand)
            builders.append(current)
            owner[version] = current
            continue
        if current is not None and before is not None and before.hand is not None \
                and state.hand is not None and before.hand_in_progress:
            current.add(item, version, event, before.hand, state.hand)
            owner[version] = current
    if current is not None:
        hands.append(current.build(_outcome(state)))
    _attach_corrections(stored, owner, builders)
    # Rebuild the records so that corrections found afterwards are in them.
    return [_with_corrections(record, builders) for record in hands]


def _attach_corrections(stored: Sequence[StoredEvent], owner: dict[int, _HandBuilder],
                        builders: list[_HandBuilder]) -> None:
    for item in stored:
        if item.type not in (EventVoided.TYPE, EventAmended.TYPE):
            continue
        event = item.decode()
        touched = tuple(event.versions) if isinstance(event, EventVoided) else (event.version,)
        target = next((owner[v] for v in touched if v in owner), None)
        if target is None:
            # A voided event is not in the fold: give it to the hand it was recorded in.
            target = _hand_around(builders, touched[0])
        if target is None:
            continue
        detail: dict[str, Any] = {}
        if isinstance(event, EventAmended):
            detail = {"replacement_type": event.replacement_type,
                      "replacement": json.loads(event.replacement_payload)}
        rules = tuple(part for part in event.rule.split(", ") if part)
        target.corrections.append(Correction(
            item.version, item.type, touched, rules, event.reason, item.actor,
            item.device, item.recorded_at, detail))


def _hand_around(builders: list[_HandBuilder], version: int) -> _HandBuilder | None:
    chosen = None
    for builder in builders:
        if builder.first_version <= version:
            chosen = builder
    return chosen


def _with_corrections(record: HandRecord, builders: list[_HandBuilder]) -> HandRecord:
    for builder in builders:
        if builder.first_version == record.first_version:
            corrections = tuple(sorted(builder.corrections, key=lambda c: c.version))
            if corrections != record.corrections:
                from dataclasses import replace

                return replace(record, corrections=corrections)
    return record


@dataclass(frozen=True)
class HandFilter:
    """Which hands `find_hands` keeps; None or empty means any."""

    player: str | None = None  # an id or a name (names: the tournament's registrations)
    table: str | None = None
    level: int | None = None
    number: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    all_in: bool = False
    showdown: bool = False
    rulings: bool = False
    corrections: bool = False

    def keeps(self, hand: HandRecord, names: dict[str, str]) -> bool:
        if self.table and self.table not in (hand.stream, hand.table):
            return False
        if self.level is not None and hand.level != self.level:
            return False
        if self.number is not None and hand.number != self.number:
            return False
        if self.since is not None and hand.started_at < self.since:
            return False
        if self.until is not None and hand.started_at > self.until:
            return False
        positions = range(len(hand.players))
        if self.player:
            wanted = self.player.casefold()
            matches = [p for p in positions
                       if wanted in (hand.players[p].casefold(),
                                     names.get(hand.players[p], "").casefold())]
            if not matches:
                return False
            if self.all_in and not set(matches) & set(hand.all_in_players):
                return False
        elif self.all_in and not hand.all_in_players:
            return False
        if self.showdown and not hand.showdown:
            return False
        if self.rulings and not hand.rulings:
            return False
        corrected = any(c.kind in (EventVoided.TYPE, EventAmended.TYPE)
                        for c in hand.corrections)
        return not (self.corrections and not corrected)


def find_hands(tables: Iterable[tuple[str, Sequence[StoredEvent]]], wanted: HandFilter,
               names: dict[str, str] | None = None) -> list[HandRecord]:
    """The hands of every table that `wanted` keeps, table by table, in order."""
    found: list[HandRecord] = []
    for stream, stored in tables:
        found.extend(h for h in table_hands(stream, stored) if wanted.keeps(h, names or {}))
    return found
