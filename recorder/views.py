"""JSON views of a table (and of the room) for a role: what a tablet, the floor or a viewer sees.

Everything here reads folded state; nothing decides. The legal buttons come from
`engine.hand.legal_actions`, the same query the engine validates with.

Who sees a hole card that was not shown is decided here, in `sees_hole_cards`, and nowhere
else: the directors and the dealers of that table. Everybody else (a viewer, the dealer of
another table) gets the public view: no dealt or exposed cards, and event texts that do not
name them either.
"""

from __future__ import annotations

import bisect
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from handlog.engine import words
from handlog.engine.events import (
    HAND_EVENT_TYPES,
    ActedOutOfTurn,
    BoardExposedEarly,
    CardExposed,
    ChipsPushed,
    HandKilled,
    HandStarted,
    HandVoided,
    MisdealDeclared,
    PotAwarded,
)
from handlog.engine.hand import STREETS
from handlog.engine.profiles import get_profile
from handlog.engine.table import Level
from handlog.engine.table_events import (
    ButtonPlaced,
    EventAmended,
    EventVoided,
    PlayerLeft,
    PlayerSeated,
    SeatAbsenceChanged,
    StackAdjusted,
    TableOpened,
)

# bet_sizes: the tablet's quick sizes, still importable from here since the view code moved.
from handlog.recorder.offline_view import bet_sizes as bet_sizes
from handlog.recorder.offline_view import (
    cards_view,
    level_dict,
    table_body,
    table_snapshot,
)
from handlog.replay.fold import TableFold
from handlog.schema.codec import encode_event
from handlog.schema.store import EventStore, StoredEvent

DIRECTOR = "director"
DEALER = "dealer"
RECENT = 12  # events listed on a tablet
NO_NAMES: dict[str, str] = {}  # the names of a table outside a tournament: none (never changed)
NOTABLE_KEEP = 200  # rulings and corrections kept per table for the floor
NOTABLE_TYPES = frozenset({  # what the floor lists as a table's rulings and corrections
    EventVoided.TYPE, EventAmended.TYPE, HandKilled.TYPE, StackAdjusted.TYPE,
    MisdealDeclared.TYPE, HandVoided.TYPE, CardExposed.TYPE, BoardExposedEarly.TYPE,
})


def sees_hole_cards(role: str, stream: str, dealer_of: str | None = None) -> bool:
    """True when a reader may see the unshown hole cards of table `stream`: a director, or a
    dealer whose session is for that very table (`dealer_of`). The one place this is decided.

    >>> sees_hole_cards("dealer", "table-1", "table-1")
    True
    >>> sees_hole_cards("dealer", "table-1", "table-2"), sees_hole_cards("viewer", "table-1")
    (False, False)
    """
    return role == DIRECTOR or (role == DEALER and dealer_of is not None and dealer_of == stream)


# --- the stored events a view lists (with who recorded them) ------------------------------


@dataclass
class _StreamLog:
    version: int = 0
    recent: deque[StoredEvent] = field(default_factory=lambda: deque(maxlen=RECENT))
    notable: deque[StoredEvent] = field(default_factory=lambda: deque(maxlen=NOTABLE_KEEP))


_MAYBE_NOTABLE = (*sorted(NOTABLE_TYPES), PotAwarded.TYPE)
_NO_RULING = (PotAwarded.TYPE, '"ruling":""')  # (most pushes: not read back at a restart)


def _notable(stored: StoredEvent) -> bool:
    return stored.type in NOTABLE_TYPES or (
        stored.type == PotAwarded.TYPE and bool(stored.payload.get("ruling")))


class EventLog:
    """The last events of each stream and its rulings and corrections, read incrementally."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._streams: dict[str, _StreamLog] = {}
        self._lock = threading.Lock()

    def _caught_up(self, stream: str, version: int) -> _StreamLog:
        with self._lock:
            log = self._streams.setdefault(stream, _StreamLog())
            if log.version == 0 and version > 2 * RECENT:
                self._first_read(log, stream, version)
            elif version > log.version:
                for stored in self._store.read(stream, log.version + 1):
                    self._take(log, stored)
            return log

    def _first_read(self, log: _StreamLog, stream: str, version: int) -> None:
        """A long stream read for the first time (after a restart): its last events, and the
        rulings and corrections before them by their types (not every event of the stream)."""
        last = self._store.read(stream, version - RECENT + 1)
        for stored in self._store.read(stream, 1, version - RECENT, types=_MAYBE_NOTABLE,
                                       unless=_NO_RULING):
            if _notable(stored):
                log.notable.append(stored)
        for stored in last:
            self._take(log, stored)

    def add(self, stored: Sequence[StoredEvent]) -> None:
        """Events just appended (or read whole) by this process: taken in without reading
        them back."""
        with self._lock:
            for event in stored:
                log = self._streams.get(event.stream_id)
                if log is None and event.version == 1:
                    log = self._streams.setdefault(event.stream_id, _StreamLog())
                if log is not None and event.version == log.version + 1:
                    self._take(log, event)

    def _take(self, log: _StreamLog, stored: StoredEvent) -> None:
        log.recent.append(stored)
        if _notable(stored):
            log.notable.append(stored)
        log.version = stored.version

    def recent(self, stream: str, version: int) -> list[StoredEvent]:
        return list(self._caught_up(stream, version).recent)

    def notable(self, stream: str, version: int) -> list[StoredEvent]:
        return list(self._caught_up(stream, version).notable)


# --- event texts -------------------------------------------------------------------------


class _Names:
    """Who position `p` was in the hand a given version belongs to."""

    def __init__(self, fold: TableFold, names: dict[str, str] | None = None,
                 since: int = 0) -> None:
        """`since`: the earliest version asked about (older hands are not looked at)."""
        self.names = names or {}
        state = fold.state
        self.seats = {s.seat: s.player for s in state.seats} if state is not None else {}
        self.versions: list[int] = []
        self.players: list[tuple[str, ...]] = []
        for version, event in reversed(fold.effective):
            if isinstance(event, HandStarted):
                self.versions.insert(0, version)
                self.players.insert(0, event.players)
                if version <= since:
                    break

    def of(self, version: int, position: int) -> str:
        index = bisect.bisect_right(self.versions, version) - 1
        if index >= 0 and 0 <= position < len(self.players[index]):
            player = self.players[index][position]
            return self.names.get(player, player)
        return f"position {position}"

    def name(self, player: str) -> str:
        return self.names.get(player, player)

    def at_seat(self, seat: int) -> str:
        player = self.seats.get(seat)
        return f"{self.name(player)} (seat {seat})" if player else f"seat {seat}"


def _join(cards: tuple[str, ...]) -> str:
    return " ".join(cards)


PUSH_REASONS: dict[str, str] = {
    "declared": "as declared",
    "declared_raise": "\"raise\" said: the chips put out are the amount",
    "held_to_minimum": "short of the minimum: held to it",
    "raise_not_open": "the betting is not open to him",
    "one_chip": "one chip, nothing said",
    "every_chip_needed": "several chips, every one needed to call, nothing said",
    "fifty_percent": "several chips reaching 50% of the last raise, nothing said: a full raise",
    "under_fifty_percent": "several chips short of 50% of the last raise, nothing said",
    "raise_for_total": "several chips, nothing said: a raise for the total",
    "several_chips_bet": "several chips, nothing said: a bet of the total",
    "string_bet": "chips in several motions, nothing said",
    "bounty_chip": "the bounty chip put in",
}
"""Words for engine.hand_push.REASONS (the events keep the codes)."""

_SAID_WORDS = {"nothing": "nothing said", "call": "said call", "raise": "said raise",
               "raise_to": "said raise to", "raise_by": "said raise", "all_in": "said all-in"}


def push_text(event: ChipsPushed) -> str:
    """'ruled a call: one chip, nothing said (TDA 44)': the ruling, why, and the rule."""
    verb = {"check": "a check", "call": "a call", "bet": f"a bet of {event.to}",
            "raise": f"a raise to {event.to}"}.get(event.ruled, event.ruled)
    why = PUSH_REASONS.get(event.reason, event.reason)
    return f"ruled {verb}: {why} ({words.render_rule(event.rule)})"


def pushed_chips_text(event: ChipsPushed) -> str:
    """What was put out: '3 x 500 in 2 motions, said raise 1500, bounty chip'."""
    counts: dict[int, int] = {}
    for chip in event.chips:
        counts[chip] = counts.get(chip, 0) + 1
    parts = [", ".join(f"{n} x {value}" for value, n in sorted(counts.items(), reverse=True))
             or "no chips"]
    if len(event.motions) > 1:
        parts.append(f"in {len(event.motions)} motions")
    said = _SAID_WORDS.get(event.said, event.said)
    parts.append(f"{said} {event.said_to}" if event.said_to else said)
    if event.bounty_chip:
        parts.append("the bounty chip")
    return ", ".join(parts)


def event_text(event: Any, version: int, names: _Names, public: bool) -> str:
    """One line a person reads: "Bob raises to 600". `public` hides unshown hole cards."""

    def who(position: int) -> str:
        return names.of(version, position)

    if isinstance(event, ActedOutOfTurn):
        said = event.action + (f" to {event.to}" if event.action in ("bet", "raise") else "")
        return (f"{who(event.player)} acted out of turn: {said} (pending until the action "
                f"reaches him; {words.render_rule(event.rule)})")
    if isinstance(event, ChipsPushed):
        return f"{who(event.player)} puts out {pushed_chips_text(event)}: {push_text(event)}"
    text = words.action_text(event, who, public)
    if text is not None:
        return text
    if isinstance(event, TableOpened):
        try:
            rules = get_profile(event.profile).name  # a room's own profile: its name
        except KeyError:
            rules = event.profile  # one this release does not know (the table says why)
        return f"table {event.table} opened ({event.seat_count} seats, {rules} rules)"
    if isinstance(event, PlayerSeated):
        return (f"{names.name(event.player)} seated in seat {event.seat} with {event.stack} "
                f"({words.reason(event.reason)})")
    if isinstance(event, PlayerLeft):
        return (f"{names.name(event.player)} left seat {event.seat} with {event.stack} "
                f"({words.reason(event.reason)})")
    if isinstance(event, ButtonPlaced):
        return f"button on seat {event.seat} ({words.reason(event.reason)})"
    if isinstance(event, StackAdjusted):
        return f"{names.name(event.player)} stack {event.amount:+d}: {words.reason(event.reason)}"
    if isinstance(event, SeatAbsenceChanged):
        return f"{names.at_seat(event.seat)} " + ("away from the table" if event.absent
                                                  else "back at the table")
    if isinstance(event, EventVoided):
        versions = ", ".join(f"#{v}" for v in event.versions)
        return f"correction: {versions} voided ({words.reason(event.reason)})"
    if isinstance(event, EventAmended):
        return f"correction: #{event.version} amended ({event.reason})"
    return str(getattr(event, "TYPE", type(event).__name__)).replace("_", " ")


def event_rows(fold: TableFold, stored: list[StoredEvent], public: bool,
               player_names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The events newest first, each with its text, rule and who recorded it on what device.
    An event's words are worked out once per audience and names table and kept with the stored
    event (a live table's answer lists its last events at every tap), and so is its row while
    it is not voided or voided still: the rows are shared, read and never changed."""
    names: _Names | None = None
    rows = []
    voided = fold.voided
    for item in reversed(stored):
        is_voided = item.version in voided
        made: dict[bool, tuple[object, bool, dict[str, Any]]] = item.__dict__.setdefault(
            "_rows", {})
        row = made.get(public)
        if row is not None and row[0] is player_names and row[1] is is_voided:
            rows.append(row[2])
            continue
        kept: dict[bool, tuple[object, str, str]] = item.__dict__.setdefault("_said", {})
        said = kept.get(public)
        if said is None or said[0] is not player_names:
            if names is None:
                # Back to the oldest of the events whose words are missing (at a tap, the
                # current hand's start: an older hand's are not looked at again).
                names = _Names(fold, player_names, min(
                    e.version for e in stored
                    if (s := e.__dict__.get("_said", {}).get(public)) is None
                    or s[0] is not player_names))
            event = item.decode()
            said = (player_names, event_text(event, item.version, names, public),
                    words.render_rules(getattr(event, "rules", ()))
                    or words.rule_words(getattr(event, "rule", ""))
                    or getattr(event, "ruling", ""))
            kept[public] = said
        at = item.__dict__.get("_at")
        if at is None:  # (written once an event, as its words)
            at = item.__dict__["_at"] = item.recorded_at.isoformat()
        made[public] = (player_names, is_voided, {
            "version": item.version,
            "type": item.type,
            "text": said[1],
            "rule": said[2],
            "actor": item.actor,
            "device": item.device,
            "at": at,
            "voided": is_voided,
            "correction": item.type in (EventVoided.TYPE, EventAmended.TYPE),
        })
        rows.append(made[public][2])
    return rows


# --- a table -----------------------------------------------------------------------------



def offline_hand(fold: TableFold, recent: Sequence[StoredEvent] = ()) -> list[list[Any]]:
    """The hand in progress as the engine's own events, [type, schema version, payload] each
    (the canonical codec), from its hand_started on: what the dealer's tablet replays with the
    same engine (run by Pyodide) to decide the entries it makes while offline. `recent`: the
    stream's last stored events; those this process recorded carry the encoding the store
    wrote (recorder/service.py `_known`), taken for the very event it encoded."""
    events: list[Any] = []
    for _version, event in reversed(fold.effective):
        if isinstance(event, HAND_EVENT_TYPES):
            events.append(event)
            if isinstance(event, HandStarted):
                break
    if not events:
        return []
    # Each event is encoded once per hand (an answer at every tap carries the hand so far):
    # kept by identity, for the hand of this table being played (its hand_started).
    started = events[-1]
    kept = _ENCODED.get(fold.stream)
    if kept is None or kept[0] is not started:
        kept = (started, {})
        _ENCODED[fold.stream] = kept
    encoded = kept[1]
    for item in recent:
        written = item.__dict__.get("_encoded")
        if written is not None and id(written[0]) not in encoded:
            encoded[id(written[0])] = (written[0], list(written[1]))
    rows = []
    for event in reversed(events):
        known = encoded.get(id(event))
        if known is None or known[0] is not event:
            known = (event, list(encode_event(event)))
            encoded[id(event)] = known
        rows.append(known[1])
    return [list(row) for row in rows]


_ENCODED: dict[str, tuple[Any, dict[int, tuple[Any, list[Any]]]]] = {}
"""offline_hand's encodings, per table: its current hand's hand_started and each event's."""


def table_view(
    fold: TableFold,
    recent: list[StoredEvent],
    role: str,
    level: Level | None = None,
    names: dict[str, str] | None = None,
    *,
    dealer_of: str | None = None,
    due: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Everything a tablet shows for one table, for `role`; `dealer_of` is the table a dealer's
    session is for. Only `sees_hole_cards` readers get cards that were not shown.
    `names` maps a tournament's player ids to the names people know; `due`: what the
    tournament says is due at this table (engine.table.start_hold)."""
    public = not sees_hole_cards(role, fold.stream, dealer_of)
    names = NO_NAMES if names is None else names
    state = fold.state
    base: dict[str, Any] = {"stream": fold.stream, "version": fold.version, "role": role,
                            "events": event_rows(fold, recent, public, names)}
    if state is None:
        return base | {"open": False, "problem": table_problem(fold)}
    body = table_body(state, level, names, due, public)
    if not public:
        # What the dealer's tablet decides with while offline (recorder/offline_engine.py).
        base["offline_table"] = table_snapshot(state)
        if state.hand is not None:
            base["offline_hand"] = offline_hand(fold, recent)
    return base | body


def table_summary(fold: TableFold, level: Level | None = None,
                  names: dict[str, str] | None = None) -> dict[str, Any]:
    """One table at a glance for the floor: players, stacks, the hand in progress."""
    names = names or {}
    state = fold.state
    if state is None:
        return {"stream": fold.stream, "version": fold.version, "open": False,
                "problem": table_problem(fold)}
    hand = state.hand
    in_hand = hand is not None and not hand.is_complete
    players = []
    for seat in state.seats:
        row: dict[str, Any] = {"seat": seat.seat, "player": names.get(seat.player, seat.player),
                               "id": seat.player, "stack": seat.stack,
                               "absent": seat.absent, "in_hand": False, "folded": False}
        if in_hand and hand is not None and seat.seat in hand.setup.seats:
            p = hand.setup.seats.index(seat.seat)
            row |= {"stack": hand.stacks[p], "in_hand": True, "folded": hand.folded[p],
                    "bet": hand.bets[p], "to_act": hand.to_act == p}
        players.append(row)
    summary: dict[str, Any] = {
        "stream": fold.stream, "version": fold.version, "open": True, "table": state.table,
        "tournament": state.tournament, "seat_count": state.seat_count,
        "profile": state.profile, "hands_played": state.hands_played, "players": players,
        "chips": state.chips(), "level": level_dict(level), "hand": None,
        "findings": len(fold.findings),
        "carry": state.carry if not in_hand else 0,  # waiting for the next pot
    }
    if in_hand and hand is not None:
        to_act = hand.to_act
        summary["hand"] = {
            "number": hand.setup.hand_number, "phase": hand.phase,
            "street": STREETS[min(hand.street, 3)], "pot_total": hand.pot_total,
            "board": cards_view(hand.board) or [],
            "to_act": names.get(hand.setup.players[to_act], hand.setup.players[to_act])
            if to_act is not None else None,
            "level": hand.setup.level, "blinds": f"{max(hand.setup.blinds, default=0)}",
        }
    return summary


def table_problem(fold: TableFold) -> dict[str, Any] | None:
    """Why a table stream with entries has no table to show (its opening cannot be applied,
    say a profile this release does not know), with what the director can do; None when
    there is nothing wrong to say."""
    if fold.state is not None or not fold.version:
        return None
    finding = next((f for f in fold.findings if f.message.startswith("cannot apply")), None)
    message = finding.message if finding else "the stream holds no table_opened that counts"
    rule = finding.rule if finding else "log"
    return {"rule": rule, "rule_words": words.render_rule(rule), "message": message,
            "version": finding.version if finding else 0,
            "legal": ["void the entry (director)", "open the table again"]}


def broken_summary(stream: str, version: int, error: Exception) -> dict[str, Any]:
    """The floor's card of a table that cannot be shown: the other tables are shown anyway."""
    return {"stream": stream, "version": version, "open": False,
            "problem": {"rule": "log", "rule_words": words.render_rule("log"),
                        "message": f"this table cannot be shown: {error}",
                        "version": 0, "legal": ["void the entry (director)"]}}


def notable_rows(fold: TableFold, stored: list[StoredEvent],
                 names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Rulings and corrections (and seat changes) at a table, newest first, for the floor."""
    table = fold.state.table if fold.state is not None else fold.stream
    # (new rows: event_rows' own are shared)
    return [row | {"stream": fold.stream, "table": table}
            for row in event_rows(fold, stored, True, names)]
