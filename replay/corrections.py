"""The corrections a table's log takes (undo, void, amend): decided on the log's past, not
only on the table's state. An undo takes back the last entry of the hand in progress (with the
events derived from it); a void or an amendment is tried on the table re-derived from the hand
it touches, and refused when a later event would no longer be legal."""

from __future__ import annotations

import bisect
from typing import Any

from handlog.engine import commands as hand_commands
from handlog.engine.errors import RuleViolation
from handlog.engine.events import BetMade, ChipsPosted, ChipsPushed, PotAwarded, RaiseMade
from handlog.engine.hand import decide
from handlog.engine.limits import check_reason, check_words
from handlog.engine.table_commands import (
    DEFAULT_UNDO_REASON,
    AmendAmount,
    AmendEvent,
    DirectorsCorrection,
    Undo,
    VoidEvents,
    directors_event,
)
from handlog.engine.table_decide import TableFacts, no_table
from handlog.engine.table_events import (
    ButtonPlaced,
    EventAmended,
    EventVoided,
    PlayerLeft,
    PlayerSeated,
    PotCarried,
    SeatAbsenceChanged,
    StackAdjusted,
    TableOpened,
)
from handlog.engine.words import cite
from handlog.replay.fold import TableFold
from handlog.replay.incremental import LiveTable
from handlog.replay.whatif import follow_amendment
from handlog.schema.codec import canonical_json, encode_event

CORRECTIONS = (Undo, VoidEvents, AmendEvent, AmendAmount)
# Events that follow from the one before them in the same command (undone together).
_DERIVED = (ChipsPosted,)
_TABLE_EVENTS = (TableOpened, PlayerSeated, PlayerLeft, ButtonPlaced, StackAdjusted,
                 SeatAbsenceChanged, PotCarried)


def decide_correction(live: LiveTable, command: Any, facts: TableFacts) -> list[Any]:
    """The events of a correction (one of CORRECTIONS) at the table `live`."""
    check_words(command)
    if live.state is None and not (isinstance(command, VoidEvents) and live.version):
        # A table whose opening cannot be applied (recorded by an older release) can still
        # be voided by the director; nothing else is corrected at no table.
        raise no_table(facts.stream)
    if isinstance(command, Undo):
        versions = _undo_versions(live.fold(), facts.by_director)
        _check_undo(live, versions, command, facts.by_director)
        return [EventVoided(versions, command.reason, "correction")]
    if isinstance(command, VoidEvents):
        check_reason(command.reason, "reason", required=True)
        _check_correction(facts.stream, live, [EventVoided(command.versions, "trial")])
        return [EventVoided(command.versions, command.reason, cite(command.rule))]
    if isinstance(command, AmendAmount):
        replacement = _bet_as_amended(live, command)
        # The later entries of the hand follow the new amount where they still fit (a call
        # follows it, folds stay folds); only an entry that no longer fits is named.
        later = follow_amendment(live.fold().effective, command.version, replacement)
        amendments = [_amendment(AmendEvent(version, event, command.reason, command.rule))
                      for version, event in [(command.version, replacement), *later]]
        _check_correction(facts.stream, live, amendments)
        return amendments
    assert isinstance(command, AmendEvent)
    amended = _amendment(command)
    _check_correction(facts.stream, live, [amended])
    return [amended]


def _undo_versions(fold: TableFold, by_director: bool) -> tuple[int, ...]:
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
        if isinstance(event, _TABLE_EVENTS):
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


def _check_undo(live: LiveTable, versions: tuple[int, ...], command: Undo,
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


def _amendment(command: AmendEvent) -> EventAmended:
    if not command.reason.strip() or not command.rule.strip():
        raise RuleViolation("correction", "an amendment records why and the rule cited",
                            ("give a reason and a rule",))
    event_type, version, payload = encode_event(command.replacement)
    return EventAmended(command.version, event_type, canonical_json(payload),
                        command.reason, cite(command.rule), version)


def _check_correction(stream: str, live: LiveTable, corrections: list[Any]) -> None:
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
