"""Recorded hands as PHH (Poker Hand History, uoftcprg/phh-std): a `.phhs` file, one TOML
table per hand (`[1]`, `[2]`, ...).

Positions are PHH's and the engine's: p1 is the first player left of the button, the last one
the button; heads-up p1 is the big blind and `antes` and `blinds_or_straddles` are written
reversed (PHH reverse-assigns them heads-up). Posts are implied by those fields. `cbr` amounts
are street totals. Hole cards are written as the table saw them (cards shown; `????` for
the rest) unless a hero (his own too) or all cards are asked for, and `_cards` says which;
a shown hand is `pN sm <cards>` and a mucked one `pN sm`. When the betting closes all-in
with board cards to come, the shows are written before the run-out (the showdown happens
then, as PHH readers expect; the chips do not depend on it).

House rules and the chip unit go in the user fields `_rules` (the profile) and `_chip_unit`
(the smallest chip in play: odd chips are split in it), which `handlog phh verify` reads, as it
reads `_dead_hands`: the indexes of the `pN sm` actions that are a director's ruling that the
hand is dead at the showdown (a hand mucked unseen while a player was all-in: TDA 16), and
`_dead_money`: chips in the pot before the posts that belong to nobody (Octobermuck's odd chips
carried from a color-up into the next pot), and `_absent`: the players (1 for p1) away from the
table at the deal, whose hands the profile may kill then (TDA 30), and `_out_of_turn`: the
indexes of the `pN f` actions that stand for a hand killed out of turn (the live table skipped
it; PHH readers ask each player in turn, so the fold is written where the action reached
him, and the chips are the same), and `_killed`: each `pN f` that is a hand ruled dead in the
betting, with the ruling's cause, reason and rules (`handlog import` records the ruling). The
log's coordinates are in `_stream` and `_versions` (of a hand imported from handlog's own
export, those its file gave); what PHH has no action for (misdeal before a re-deal, exposed
cards, a ruling on an award) is in `_notes`, in words. A hand that did not complete
(misdealt, voided, cut off) is not written; a TOML comment in its place says why, and the
deals declared misdeals before a hand are listed in its `_misdeals` (first and last
version, cause, the dealer's words), which `handlog import` records again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from datetime import time
from typing import Any, TextIO

from handlog.engine.events import (
    BetMade,
    BoardDealt,
    CardsMucked,
    CardsShown,
    ChipsPosted,
    HandKilled,
    MisdealDeclared,
    PlayerCalled,
    PlayerChecked,
    PlayerFolded,
    RaiseMade,
)
from handlog.replay.export_hands import ExportOptions, HandsExport, RecordedHand

_BARE_LITERAL = re.compile(r"[^'\x00-\x08\x0a-\x1f\x7f]*")


class NotExportable(ValueError):
    """A hand the format has no way to write (the reason says why)."""


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if _BARE_LITERAL.fullmatch(value):
            return f"'{value}'"
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    if isinstance(value, time):
        return value.isoformat()  # a TOML local time
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def phh_actions(hand: RecordedHand, options: ExportOptions | None = None) -> list[str]:
    """The hand's actions in PHH notation."""
    return _actions_and_dead_hands(hand, options)[0]


def _actions_and_dead_hands(hand: RecordedHand, options: ExportOptions | None = None
                            ) -> tuple[list[str], list[int], list[int], list[list[Any]]]:
    """The actions, the indexes of the `pN sm` that stand for a hand the director ruled
    dead at the showdown (PHH has no action for it: the user field `_dead_hands` lists them),
    those of the `pN f` that stand for a hand killed out of turn, written where the action
    reached him (`_out_of_turn`), and of every `pN f` that is a hand ruled dead in the
    betting, with the ruling's cause, reason and rules (`_killed`). Hole cards are those
    the table saw (shown), the hero's, or all (`options`)."""
    out_of_turn = hand.out_of_turn_kills()
    moved: list[int] = []
    rulings: list[list[Any]] = []
    hole = ["".join(cards) or "????" for cards in hand.seen_hole_cards(options)]
    actions = [f"d dh p{i + 1} {cards}" for i, cards in enumerate(hole)]
    dead = [False] * len(actions)
    showdown_at: int | None = None
    dealing = True  # only posts and kills at the deal so far
    for step in hand.steps_in_turn():
        event = step.event
        at_deal = dealing and isinstance(event, HandKilled) and \
            event.player in hand.started.absent
        dealing = at_deal or isinstance(event, ChipsPosted)
        text = ""
        show = False
        killed = False
        if isinstance(event, PlayerFolded):
            text = f"p{event.player + 1} f"
        elif isinstance(event, (PlayerChecked, PlayerCalled)):
            text = f"p{event.player + 1} cc"
        elif isinstance(event, (BetMade, RaiseMade)):
            text = f"p{event.player + 1} cbr {event.to}"
        elif isinstance(event, BoardDealt):
            text = "d db " + "".join(event.cards)
        elif isinstance(event, CardsShown):
            text, show = f"p{event.player + 1} sm " + "".join(event.cards), True
        elif isinstance(event, CardsMucked):
            text, show = f"p{event.player + 1} sm", True
        elif isinstance(event, HandKilled):
            if at_deal:
                continue  # TDA 30: killed at the deal; `_absent` and the profile imply it
            if step.in_betting and step.to_act == event.player:
                text = f"p{event.player + 1} f"
                if step.version in out_of_turn:
                    moved.append(len(actions))
                rulings.append([len(actions), event.cause, event.reason, list(event.rules)])
            elif not step.in_betting:
                text, show, killed = f"p{event.player + 1} sm", True, True
            else:  # steps_in_turn moves a kill out of turn to its player's turn
                raise NotExportable(f"v{step.version}: a hand killed out of turn that the "
                                    "action never reached")
        if text:
            if show and showdown_at is not None:
                actions.insert(showdown_at, text)
                dead.insert(showdown_at, killed)
                showdown_at += 1
            else:
                actions.append(text)
                dead.append(killed)
        if step.all_in_runout:
            showdown_at = len(actions)
    return actions, [index for index, ruled in enumerate(dead) if ruled], moved, rulings


def phh_fields(hand: RecordedHand, event_name: str = "",
               options: ExportOptions | None = None,
               misdeals: Sequence[RecordedHand] = ()) -> dict[str, Any]:
    """The hand as PHH fields, in the order the specification lists them; `misdeals` are the
    deals of the hand at its table declared misdeals just before it (`_misdeals`)."""
    options = options or ExportOptions()
    if not hand.exportable:
        raise NotExportable(f"the hand is {hand.status}" + (f": {hand.problem}"
                                                             if hand.problem else ""))
    started = hand.started
    antes = list(started.antes)
    blinds = list(started.blinds)
    if hand.size == 2:
        antes.reverse()
        blinds.reverse()
    actions, dead_hands, out_of_turn, killed = _actions_and_dead_hands(hand, options)
    fields: dict[str, Any] = {"variant": "NT"}
    if hand.ante_kind == "uniform":
        fields["ante_trimming_status"] = True  # antes count toward the pots they are in
    fields.update({
        "antes": antes,
        "blinds_or_straddles": blinds,
        "min_bet": started.min_bet,
        "starting_stacks": list(started.stacks),
        "actions": actions,
    })
    if event_name or hand.tournament:
        fields["event"] = event_name or hand.tournament
    fields["hand"] = hand.number
    if started.level:
        fields["level"] = started.level
    fields["seats"] = list(started.seats)
    if hand.seat_count:
        fields["seat_count"] = hand.seat_count
    fields["table"] = hand.table
    fields["players"] = list(hand.names)
    fields["finishing_stacks"] = list(hand.stacks_end)
    if hand.recorded_at is not None:
        moment = hand.recorded_at
        fields.update({"year": moment.year, "month": moment.month, "day": moment.day,
                       "time": moment.time().replace(microsecond=0), "time_zone": "UTC"})
    fields["_rules"] = started.profile
    fields["_chip_unit"] = started.chip_unit
    if started.dead_money:
        fields["_dead_money"] = started.dead_money
    if started.absent:
        fields["_absent"] = [i + 1 for i in started.absent]  # away at the deal (TDA 30)
    if dead_hands:
        fields["_dead_hands"] = dead_hands
    if killed:
        fields["_killed"] = killed  # folds that are hands ruled dead: [index, cause, ...]
    if out_of_turn:
        fields["_out_of_turn"] = out_of_turn  # folds that are hands killed out of turn
    if misdeals:
        fields["_misdeals"] = [[*m.coordinates()[1:], *misdeal_of(m)] for m in misdeals]
    fields["_cards"] = options.cards  # which hole cards the file holds: shown, hero or all
    fields["_stream"], *versions = hand.coordinates()
    fields["_versions"] = versions
    notes = hand.notes()
    if notes:
        fields["_notes"] = notes
    return fields


def misdeal_of(hand: RecordedHand) -> tuple[str, str]:
    """A misdealt hand's misdeal: its cause and the words of the dealer who declared it."""
    return next(((s.event.cause, s.event.reason) for s in hand.steps
                 if isinstance(s.event, MisdealDeclared)), ("", ""))


def dumps_hand(fields: dict[str, Any]) -> str:
    return "".join(f"{key} = {toml_value(value)}\n" for key, value in fields.items())


def export_phhs(hands: Iterable[RecordedHand], events: dict[str, str] | None = None,
                options: ExportOptions | None = None, out: TextIO | None = None
                ) -> tuple[str, int, list[str]]:
    """The `.phhs` text, how many hands it holds, and a note for every hand left out. With
    `out`, the text is written there hand by hand instead (and "" returned)."""
    parts: list[str] = []
    emit = out.write if out is not None else parts.append
    notes: list[str] = []
    count = 0
    misdeals: list[RecordedHand] = []  # the table's deals declared misdeals since its last hand
    for hand in hands:
        if misdeals and misdeals[-1].stream != hand.stream:
            misdeals = []
        try:
            fields = phh_fields(hand, (events or {}).get(hand.tournament, ""), options,
                                misdeals)
        except NotExportable as reason:
            note = f"{hand.label()} not exported: {reason}"
            notes.append(note)
            emit("# " + " ".join(note.split()) + "\n\n")
            if hand.status == "misdealt":
                misdeals.append(hand)
            continue
        misdeals = []
        count += 1
        emit(f"[{count}]\n{dumps_hand(fields)}\n")
    return "".join(parts), count, notes


def write_phh(export: HandsExport, options: ExportOptions | None = None,
              out: TextIO | None = None) -> tuple[str, int, list[str]]:
    """The `.phhs` export of the hands `export` holds (`event` names the tournament)."""
    events = {name: f"{r.state.structure.name} ({name})" if r.state else name
              for name, r in export.tournaments.items()}
    return export_phhs(export.each_hand(), events, options, out)
