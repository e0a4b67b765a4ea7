"""What-if: re-run a table from a moment with another ruling, and see what would follow.

A director asks "what if the pot had been awarded to Bob?", "what if the raise was 450?", "what
if the hand had not been killed?". `what_if` takes the table's log, makes one change (award a
hand's pots otherwise, correct a bet or raise, or drop an entry such as a kill or a misdeal)
and re-decides every later entry through the engine with the entries the dealer made (the same
commands, in the same order): new hands start with the new stacks (the engine plans the button
and blinds again), awards follow the engine with the new cards and pots. Where a recorded entry
no longer fits (a player would no longer have the chips to call, a folded player could not
act), the what-if stops there and says so: from that moment the players would have played
differently and nothing can be known. An entry the engine can still decide but not as it was
recorded (a call of 1,000 that is now an all-in for less, a check that is now a call) is
named (`unfit`): the what-if goes on, but that player faced something else. Nothing is written
anywhere.

The table's state after each hand is compared with what was recorded: stacks, and who was
eliminated in which hand; `tournament_outcome` turns that into places and prizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from handlog.engine.commands import AwardPots, BetRaise, Command
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted, PotAwarded
from handlog.engine.hand import begin, decide, setup_from_event
from handlog.engine.table import TableState, apply_table, open_table, plan_hand
from handlog.engine.table_events import PlayerLeft, TableOpened
from handlog.replay.fold import command_for, effective_events, level_of
from handlog.schema.store import StoredEvent

ChangeKind = Literal["award", "amount", "drop"]


@dataclass(frozen=True)
class Change:
    """One other ruling: at the entry recorded at `version`.

    - award: the pots of the hand whose award is at `version` go to `winners` (one tuple of
      positions per pot, in pot order);
    - amount: the bet or raise at `version` was to `amount`;
    - drop: the entry at `version` (a kill, a misdeal, any action) did not happen.
    """

    kind: ChangeKind
    version: int
    winners: tuple[tuple[int, ...], ...] = ()
    amount: int = 0


@dataclass(frozen=True)
class Unfit:
    """A later entry the engine decides otherwise than recorded: another kind of action, or an
    all-in where there was none (or none where there was one)."""

    version: int
    hand_number: int
    players: tuple[str, ...]  # the hand's players by position
    recorded: Any  # the recorded event
    whatif: Any  # what the engine makes of the same entry in the what-if


def _unfit(recorded: Any, whatif: Any) -> bool:
    return type(recorded) is not type(whatif) or \
        getattr(recorded, "all_in", False) != getattr(whatif, "all_in", False)


@dataclass(frozen=True)
class HandOutcome:
    number: int
    players: tuple[str, ...]
    recorded_end: tuple[int, ...] | None  # None: the hand is not in the what-if's reach
    whatif_end: tuple[int, ...] | None


@dataclass(frozen=True)
class WhatIf:
    stream: str
    change: Change
    hands: tuple[HandOutcome, ...]
    recorded_stacks: dict[str, int]  # player -> chips at the end of the stream as recorded
    whatif_stacks: dict[str, int]  # ... and in the what-if (up to where it could follow)
    recorded_out: dict[str, int]  # player -> the hand he was eliminated in
    whatif_out: dict[str, int]
    stopped_at: int | None = None  # the version of the first entry that no longer fits
    stop_rule: str = ""
    stop_message: str = ""
    whatif_events: tuple[Any, ...] = field(default=(), repr=False)
    hand_times: dict[int, Any] = field(default_factory=dict, repr=False)
    unfit: tuple[Unfit, ...] = ()  # later entries decided otherwise than recorded

    @property
    def complete(self) -> bool:
        return self.stopped_at is None

    @property
    def all_fit(self) -> bool:
        """Followed to the end with every later entry decided as it was recorded."""
        return self.complete and not self.unfit


def _roles(effective: Sequence[tuple[int, Any]]) -> dict[int, str]:
    """For each recorded version: "start" (a hand's start), "command" (a dealer's entry),
    "award" (a hand's first award), "follow" (made by the engine after one of those) or
    "table" (seating, button, adjustments). Walks the recorded log as replay does."""
    roles: dict[int, str] = {}
    state: TableState | None = None
    queue = 0
    for version, event in effective:
        if queue:
            roles[version] = "follow"
            queue -= 1
        elif isinstance(event, HandStarted):
            roles[version] = "start"
            queue = len(begin(setup_from_event(event))) - 1
        elif isinstance(event, PotAwarded):
            roles[version] = "award"
            hand = state.hand if state is not None else None
            if hand is not None:
                winners = None
                group = [e for v, e in effective if v >= version and isinstance(e, PotAwarded)]
                if event.ruling:
                    winners = tuple(a.winners for a in group)
                try:
                    queue = len(decide(hand, AwardPots(winners, event.ruling))) - 1
                except RuleViolation:
                    queue = 0
        elif command_for(event) is not None and state is not None and state.hand is not None \
                and state.hand_in_progress:
            roles[version] = "command"
            try:
                queue = len(decide(state.hand, command_for(event))) - 1  # type: ignore[arg-type]
            except RuleViolation:
                queue = 0
        else:
            roles[version] = "table"
        try:
            if isinstance(event, TableOpened):
                state = open_table(event)
            elif state is not None:
                state = apply_table(state, event)
        except (RuleViolation, KeyError, IndexError, ValueError):
            pass
    return roles


def _stacks(state: TableState) -> dict[str, int]:
    return {s.player: s.stack for s in state.seats}


def what_if(stream: str, stored: Sequence[StoredEvent], change: Change) -> WhatIf:
    """Re-decide the table from `change.version` on with `change` made (see the module)."""
    effective, _voided = effective_events(stored)
    versions = [v for v, _ in effective]
    if change.version not in versions:
        raise RuleViolation("whatif", f"{stream} has no entry that counts at version "
                            f"{change.version} (voided, or not there)",
                            (f"a version between {versions[0]} and {versions[-1]}",)
                            if versions else ())
    roles = _roles(effective)
    recorded_hands: dict[int, tuple[tuple[str, ...], tuple[int, ...]]] = {}
    recorded_out: dict[str, int] = {}
    whatif_out: dict[str, int] = {}
    state: TableState | None = None
    recorded: TableState | None = None
    produced: list[Any] = []
    hands: dict[int, tuple[tuple[str, ...], tuple[int, ...] | None]] = {}
    stopped: tuple[int, str, str] | None = None
    hand_times: dict[int, Any] = {}
    unfit: list[Unfit] = []

    def note_end(target: dict[int, Any], table: TableState, out: dict[str, int]) -> None:
        hand = table.hand
        if hand is None or not hand.is_complete:
            return
        number = hand.setup.hand_number
        if number in target and target[number][1] is not None:
            return
        target[number] = (hand.setup.players, tuple(hand.stacks))
        for position, player in enumerate(hand.setup.players):
            if hand.stacks[position] == 0 and hand.phase == "complete":
                out.setdefault(player, number)

    at_version = {item.version: item.recorded_at for item in stored}
    for version, event in effective:
        if isinstance(event, HandStarted):
            hand_times.setdefault(event.hand_number, at_version[version])
        # The recorded table, for the comparison.
        try:
            if isinstance(event, TableOpened):
                recorded = open_table(event)
            elif recorded is not None:
                recorded = apply_table(recorded, event)
        except (RuleViolation, KeyError, IndexError, ValueError):
            pass
        if recorded is not None:
            note_end(recorded_hands, recorded, recorded_out)
        if stopped is not None:
            continue
        if version < change.version or state is None and not isinstance(event, TableOpened):
            if isinstance(event, TableOpened):
                state = open_table(event)
            elif state is not None:
                state = apply_table(state, event)
            if state is not None:
                note_end(hands, state, whatif_out)
            continue
        if isinstance(event, TableOpened):
            state = open_table(event)
            continue
        assert state is not None
        role = roles.get(version, "table")
        if version == change.version and change.kind == "drop":
            continue
        try:
            new_events = _redecide(state, version, event, role, change, effective)
        except RuleViolation as violation:
            stopped = (version, violation.rule, violation.message)
            continue
        if role == "command" and new_events and version != change.version and \
                _unfit(event, new_events[0]) and state.hand is not None:
            unfit.append(Unfit(version, state.hand.setup.hand_number, state.hand.setup.players,
                               event, new_events[0]))
        for new in new_events:
            state = apply_table(state, new)
            produced.append(new)
        note_end(hands, state, whatif_out)
    assert recorded is not None and state is not None
    numbers = sorted(set(recorded_hands) | set(hands))
    outcomes = []
    for number in numbers:
        players, recorded_end = recorded_hands.get(number, ((), None))
        whatif_players, whatif_end = hands.get(number, ((), None))
        outcomes.append(HandOutcome(number, players or whatif_players, recorded_end, whatif_end))
    return WhatIf(
        stream=stream, change=change, hands=tuple(outcomes),
        recorded_stacks=_stacks(recorded), whatif_stacks=_stacks(state),
        recorded_out=recorded_out, whatif_out=whatif_out,
        stopped_at=stopped[0] if stopped else None,
        stop_rule=stopped[1] if stopped else "", stop_message=stopped[2] if stopped else "",
        whatif_events=tuple(produced), hand_times=hand_times, unfit=tuple(unfit),
    )


def _redecide(state: TableState, version: int, event: Any, role: str, change: Change,
              effective: Sequence[tuple[int, Any]]) -> list[Any]:
    """The events the engine makes of the recorded entry at `version` in the what-if state."""
    if role == "follow":
        return []  # the engine makes its own follow-ups with the entry before
    if role == "start":
        assert isinstance(event, HandStarted)
        setup = plan_hand(state, level_of(event), event.hand_number, final_table=True)
        return list(begin(setup))
    hand = state.hand
    if role == "award":
        assert isinstance(event, PotAwarded)
        if hand is None or not hand.is_complete and hand.phase != "showdown" and \
                not hand.betting_closed and hand.to_act is not None:
            raise RuleViolation("whatif", "the hand is not over where the pots were awarded")
        if version == change.version and change.kind == "award":
            return list(decide(hand, AwardPots(change.winners, "whatif")))
        winners = None
        if event.ruling:
            group = [e for v, e in effective if v >= version and isinstance(e, PotAwarded)]
            winners = tuple(a.winners for a in group)
            if len(winners) != len(decide(hand, AwardPots())):
                raise RuleViolation(event.ruling, "the director's award by ruling does not "
                                    "fit the pots of the what-if")
        return list(decide(hand, AwardPots(winners, event.ruling)))
    if role == "command":
        command: Command | None = command_for(event)
        assert command is not None
        if version == change.version and change.kind == "amount":
            if not isinstance(command, BetRaise):
                raise RuleViolation("whatif", f"version {version} is not a bet or raise")
            command = BetRaise(command.player, change.amount)
        if hand is None or not state.hand_in_progress:
            raise RuleViolation("whatif", "the hand this entry belongs to is over in the "
                                "what-if")
        return list(decide(hand, command))
    # Table events as recorded; a player leaves with the chips he has in the what-if.
    if isinstance(event, PlayerLeft):
        seat = state.occupant(event.seat)
        if seat is not None and event.stack == 0 and seat.stack > 0:
            return []  # eliminated as recorded, still playing in the what-if: he stays
        return [replace(event, stack=seat.stack if seat is not None else event.stack)]
    if version == change.version and change.kind != "drop":
        raise RuleViolation("whatif", f"version {version} is neither an award nor a bet")
    return [event]


@dataclass(frozen=True)
class Place:
    player: str
    recorded_place: int  # 0: not out as recorded
    recorded_prize: int
    whatif_place: int  # 0: still playing in the what-if (place open)
    whatif_prize: int
    whatif_stack: int | None  # chips in the what-if when still playing at this table
    at_this_table: bool = True  # False: at another table, whose play the what-if leaves as is


def tournament_outcome(tournament: Sequence[StoredEvent], result: WhatIf) -> list[Place]:
    """The tournament's places and prizes as recorded and as the what-if would have them.

    Eliminations at other tables stay as recorded; this table's follow the what-if, placed in
    time by the start of the hand they happened in (two in one hand: the bigger stack at the
    start of the hand places higher, TDA 2024 Rule 10's photo finish aside). A player still
    playing at the end of the what-if has no place yet, unless he is the last one left."""
    from handlog.engine.tournament_events import PlayerEliminated, PlayerRegistered, PrizesAwarded

    entrants: list[str] = []
    eliminated: list[tuple[Any, int, str, int]] = []  # (when, order, player, place)
    prizes: dict[int, int] = {}
    paid_place: dict[str, int] = {}
    for item in tournament:
        event = item.decode()
        if isinstance(event, PlayerRegistered):
            entrants.append(event.player)
        elif isinstance(event, PlayerEliminated):
            eliminated.append((item.recorded_at, -event.place, event.player, event.place))
        elif isinstance(event, PrizesAwarded):
            for award in event.awards:
                prizes[award.place] = award.amount
                paid_place[award.player] = award.place
    recorded_place = {player: place for _w, _o, player, place in eliminated} | paid_place
    here = set(result.recorded_stacks) | set(result.whatif_out) | set(result.recorded_out)
    order: list[tuple[Any, int, str]] = [(when, o, p) for when, o, p, _place in eliminated
                                         if p not in here]
    for player, number in result.whatif_out.items():
        when = result.hand_times.get(number)
        if when is None:
            continue
        # Out in the same hand as recorded: the recorded order of that hand stands.
        same = result.recorded_out.get(player) == number
        order.append((when, -recorded_place.get(player, 0) if same else 0, player))
    # A player out at this table as recorded, after the what-if stopped, stays out then.
    for player, number in result.recorded_out.items():
        if player in result.whatif_out:
            continue
        if result.stopped_at is not None and player not in result.whatif_stacks:
            when = result.hand_times.get(number)
            if when is not None:
                order.append((when, 0, player))
    order.sort(key=lambda item: (item[0], item[1]))
    field_size = len(entrants)
    whatif_place: dict[str, int] = {}
    for index, (_when, _o, player) in enumerate(order):
        whatif_place[player] = field_size - index
    left = [p for p in entrants if p not in whatif_place]
    if len(left) == 1 and result.complete:
        whatif_place[left[0]] = 1
    places = []
    for player in entrants:
        got = whatif_place.get(player, 0)
        was = recorded_place.get(player, 0)
        stack = result.whatif_stacks.get(player) if player not in whatif_place else None
        places.append(Place(player, was, prizes.get(was, 0), got, prizes.get(got, 0), stack,
                            player in here))
    places.sort(key=lambda p: (p.whatif_place == 0, p.whatif_place or 0, p.recorded_place))
    return places


def follow_amendment(effective: Sequence[tuple[int, Any]], version: int,
                     replacement: Any) -> list[tuple[int, Any]]:
    """The later entries of the same hand re-decided after the entry at `version` counts as
    `replacement`: (version, new event) for each recorded event that now comes out otherwise
    (a call follows the new amount when the caller has the chips; folds stay folds; the award
    follows the new pots). Raises RuleViolation naming the first recorded entry that no longer
    fits (the director voids it, or it is re-keyed)."""
    roles = _roles(effective)
    state: TableState | None = None
    changed: list[tuple[int, Any]] = []
    pending: list[Any] = []  # the engine's own follow-ups of the last re-decided entry
    hand_number: int | None = None
    for recorded_version, event in effective:
        if recorded_version < version:
            state = open_table(event) if isinstance(event, TableOpened) else (
                apply_table(state, event) if state is not None else None)
            continue
        assert state is not None
        role = roles.get(recorded_version, "table")
        if recorded_version == version:
            hand_number = state.hand.setup.hand_number if state.hand is not None else None
            decided = [replacement, *_follow_ups(state, replacement)]
        elif role == "follow" and pending:
            new = pending.pop(0)
            if new != event:
                changed.append((recorded_version, new))
            state = apply_table(state, new)
            continue
        elif role in ("start", "table") or state.hand is None or \
                state.hand.setup.hand_number != hand_number:
            break  # the hand is over: later hands are checked as recorded
        else:
            try:
                decided = _redecide(state, recorded_version, event, role,
                                    Change("drop", 0), effective)
            except RuleViolation as violation:
                raise RuleViolation(
                    violation.rule, f"after the amendment the entry at version "
                    f"{recorded_version} ({event.TYPE}) no longer fits: {violation.message}",
                    ("void that entry too", *violation.legal)) from None
            if decided and decided[0] != event:
                changed.append((recorded_version, decided[0]))
        if pending:
            raise RuleViolation("correction", f"after the amendment the engine makes other "
                                f"events before version {recorded_version}",
                                ("void the later entries",))
        state = apply_table(state, decided[0])
        pending = list(decided[1:])
    if pending:
        raise RuleViolation("correction", "after the amendment the engine makes events the "
                            "log does not hold", ("void the later entries",))
    return changed


def _follow_ups(state: TableState, replacement: Any) -> list[Any]:
    """What the engine makes right after `replacement` (e.g. the board is due, an award)."""
    hand = state.hand
    if hand is None:
        return []
    command = command_for(replacement)
    if command is None:
        return []
    try:
        return list(decide(hand, command))[1:]
    except RuleViolation:
        return []
