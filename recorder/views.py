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

from engine import offers, words
from engine.cards import card_text
from engine.errors import RuleViolation
from engine.events import (
    HAND_EVENT_TYPES,
    ActedOutOfTurn,
    BoardExposedEarly,
    ButtonPlaced,
    CardExposed,
    ChipsPushed,
    EventAmended,
    EventVoided,
    HandKilled,
    HandStarted,
    HandVoided,
    MisdealDeclared,
    PlayerLeft,
    PlayerSeated,
    PotAwarded,
    SeatAbsenceChanged,
    StackAdjusted,
    TableOpened,
)
from engine.hand import (
    BETTING,
    SHOWDOWN,
    STREETS,
    HandState,
    LegalActions,
    legal_actions,
    next_steps,
    pots,
    propose_awards,
    showdown_order,
)
from engine.profiles import get_profile, render_rule
from engine.table import Level, TableState, plan_hand, start_hold
from replay.fold import TableFold
from schema.codec import encode_event
from schema.store import EventStore, StoredEvent

VIEWER = "viewer"
DIRECTOR = "director"
DEALER = "dealer"
RECENT = 12  # events listed on a tablet
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


class EventLog:
    """The last events of each stream and its rulings and corrections, read incrementally."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._streams: dict[str, _StreamLog] = {}
        self._lock = threading.Lock()

    def _caught_up(self, stream: str, version: int) -> _StreamLog:
        with self._lock:
            log = self._streams.setdefault(stream, _StreamLog())
            if version > log.version:
                for stored in self._store.read(stream, log.version + 1):
                    self._take(log, stored)
            return log

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
        if stored.type in NOTABLE_TYPES or (
            stored.type == PotAwarded.TYPE and stored.payload.get("ruling")
        ):
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
               "raise_to": "said raise", "all_in": "said all-in"}


def push_text(event: ChipsPushed) -> str:
    """'ruled a call: one chip, nothing said (TDA 44)': the ruling, why, and the rule."""
    verb = {"check": "a check", "call": "a call", "bet": f"a bet of {event.to}",
            "raise": f"a raise to {event.to}"}.get(event.ruled, event.ruled)
    why = PUSH_REASONS.get(event.reason, event.reason)
    return f"ruled {verb}: {why} ({render_rule(event.rule)})"


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
    parts.append(f"{said} {event.said_to}" if event.said == "raise_to" else said)
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
                f"reaches him; {render_rule(event.rule)})")
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
    """The events newest first, each with its text, rule and who recorded it on what device."""
    names = _Names(fold, player_names, min((e.version for e in stored), default=0))
    rows = []
    for item in reversed(stored):
        event = item.decode()
        rows.append({
            "version": item.version,
            "type": item.type,
            "text": event_text(event, item.version, names, public),
            "rule": (words.render_rules(getattr(event, "rules", ()))
                     or words.rule_words(getattr(event, "rule", ""))
                     or getattr(event, "ruling", "")),
            "actor": item.actor,
            "device": item.device,
            "at": item.recorded_at.isoformat(),
            "voided": item.version in fold.voided,
            "correction": item.type in (EventVoided.TYPE, EventAmended.TYPE),
        })
    return rows


# --- a table -----------------------------------------------------------------------------


def _cards(cards: tuple[int, ...] | None) -> list[str] | None:
    return None if cards is None else [card_text(c) for c in cards]


def bet_sizes(hand: HandState, legal: LegalActions) -> list[dict[str, Any]]:
    """The quick sizes a tablet offers (engine/offers.py): each a legal total the chips in play
    make, with its size in big blinds; the all-in says which presets it caps."""
    return [{"label": size.label, "to": size.to, "big_blinds": size.big_blinds,
             "all_in": size.all_in, "capped": list(size.capped)}
            for size in offers.bet_sizes(hand, legal)]


def _legal(hand: HandState, seat_of: tuple[int, ...],
           names: dict[str, str]) -> dict[str, Any] | None:
    legal = legal_actions(hand)
    if legal is None:
        return None
    return {
        "player": legal.player,
        "seat": seat_of[legal.player],
        "name": names.get(hand.setup.players[legal.player], hand.setup.players[legal.player])
        if hand.setup.players else f"position {legal.player}",
        "fold": legal.can_fold,
        "check": legal.can_check,
        "call": legal.call_amount,
        "call_all_in": legal.call_all_in,
        "raise_kind": legal.raise_kind,
        "min_to": legal.min_to,
        "max_to": legal.max_to,
        "all_in_to": legal.max_to if legal.raise_kind else 0,
        "sizes": bet_sizes(hand, legal),
        # What the keypad may send: totals from min_to to max_to whose chips (the total less
        # the player's bet) are a multiple of `step`, the smallest chip in play, or all-in.
        "step": hand.setup.chip_unit if hand.setup.chips_checked else 1,
        "bet": hand.bets[legal.player],
        "big_blind": hand.setup.min_bet,
        "describe": list(legal.describe()),
    }


def _hand_view(hand: HandState, public: bool, names: dict[str, str]) -> dict[str, Any]:
    seats = hand.setup.seats or tuple(range(1, hand.player_count + 1))
    # The pots in the middle: what was collected from earlier streets (this street's bets are
    # still in front of the players; the pots gather them when the street ends).
    collected = hand._replace(committed=tuple(
        c - b for c, b in zip(hand.committed, hand.bets, strict=True)))
    pot_list = [
        {"amount": p.amount, "eligible": list(p.eligible),
         "eligible_seats": [seats[i] for i in p.eligible],
         "name": words.pot_name(k)}
        for k, p in enumerate(pots(collected))
    ] if not hand.is_complete else []
    view: dict[str, Any] = {
        "number": hand.setup.hand_number,
        "phase": hand.phase,
        "street": STREETS[min(hand.street, 3)],
        "complete": hand.is_complete,
        "board": _cards(hand.board) or [],
        "pots": pot_list,
        "pot_total": hand.pot_total if not hand.is_complete else 0,
        "current_bet": hand.current_bet,
        "to_act": hand.to_act,
        "to_act_seat": seats[hand.to_act] if hand.to_act is not None else None,
        "legal": _legal(hand, seats, names) if hand.phase == BETTING else None,
        "board_due": 0,
        "betting_closed": hand.betting_closed,
        "next_steps": list(next_steps(hand)),
        "showdown": None,
        "awards": [_award(a, seats) for a in hand.awards],
        "button_seat": hand.setup.button_seat,
        "small_blind_seat": hand.setup.small_blind_seat,
        "big_blind_seat": hand.setup.big_blind_seat,
        "known_cards": _known(hand, public),
        "level": hand.setup.level,
        "min_bet": hand.setup.min_bet,
        "chip_unit": hand.setup.chip_unit,
        # The chips in play at this level (after its color-ups), smallest first: the chip tray
        # offers these and no others (empty: the table has no structure; any multiple of
        # chip_unit is a chip).
        "denominations": list(hand.setup.denominations),
    }
    if hand.phase == "board":
        view["board_due"] = 3 if not hand.board else 1
    if hand.phase == SHOWDOWN or (hand.betting_closed and not hand.is_complete):
        view["showdown"] = _showdown(hand, seats, names)
    return view


def _award(award: PotAwarded, seats: tuple[int, ...]) -> dict[str, Any]:
    return {
        "pot": award.pot, "amount": award.amount, "winners": list(award.winners),
        "winner_seats": [seats[w] for w in award.winners], "shares": list(award.shares),
        "odd_chips": list(award.odd_chips), "hand_rank": list(award.hand_rank),
        "hand_name": words.hand_name(award.hand_rank),
        "ruling": award.ruling,
    }


def _showdown(hand: HandState, seats: tuple[int, ...],
              names: dict[str, str]) -> dict[str, Any]:
    """Who shows in what order, the engine's proposed awards or what is still pending (said
    with names: "Main pot is contested: Bob has not shown both cards"), and whether the pots
    go without a tap (`awards_by_itself`: nobody is left to contest them)."""
    result: dict[str, Any] = {
        "order": list(showdown_order(hand)),
        "order_seats": [seats[i] for i in showdown_order(hand)],
        "proposed": None,
        "pending": None,
        "awards_by_itself": False,
    }
    if hand.phase != SHOWDOWN:
        return result
    try:
        result["proposed"] = [_award(a, seats) for a in propose_awards(hand)]
        result["awards_by_itself"] = offers.awards_by_itself(hand)
    except RuleViolation as violation:
        players = hand.setup.players

        def who(position: int) -> str:
            player = players[position] if 0 <= position < len(players) else ""
            return names.get(player, player) or f"seat {seats[position]}"

        pending = violation.as_dict()
        pending["message"] = (words.violation_text(violation.code, violation.facts, who)
                              or violation.message)
        result["pending"] = pending
    return result


def _known(hand: HandState, public: bool) -> list[str]:
    """Cards the picker greys out: the board, shown cards, and (not for viewers) dealt ones."""
    seen = set(hand.board)
    groups = list(hand.shown) + ([] if public else list(hand.hole))
    for cards in groups:
        if cards:
            seen.update(cards)
    return sorted(card_text(c) for c in seen)


def _next_plan(state: TableState, level: Level | None,
               due: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """Who has the button and the blinds next hand, or why no hand can start; and whether it
    starts by itself after the push (`starts_by_itself`) or why the dealer starts it (`hold`,
    engine.table.start_hold, and its words)."""
    try:
        plan = plan_hand(state, level or Level(1, 2), state.hands_played + 1)
    except RuleViolation as violation:
        return {"ready": False, "why": violation.as_dict(), "starts_by_itself": False}
    hold = start_hold(state, level, due)
    return {"ready": True, "button_seat": plan.button_seat,
            "small_blind_seat": plan.small_blind_seat, "big_blind_seat": plan.big_blind_seat,
            "seats": list(plan.seats), "starts_by_itself": not hold, "hold": hold,
            "hold_text": words.START_HOLDS.get(hold, hold)}


def _level_dict(level: Level | None) -> dict[str, Any] | None:
    if level is None:
        return None
    return {"number": level.number, "small_blind": level.small_blind,
            "big_blind": level.big_blind, "ante": level.ante, "ante_kind": level.ante_kind,
            "chip_unit": level.chip_unit, "denominations": list(level.denominations)}


def offline_hand(fold: TableFold) -> list[list[Any]]:
    """The hand in progress as the engine's own events, [type, schema version, payload] each
    (the canonical codec), from its hand_started on: what the dealer's tablet replays with the
    same engine (run by Pyodide) to decide the entries it makes while offline."""
    events: list[Any] = []
    for _version, event in reversed(fold.effective):
        if isinstance(event, HAND_EVENT_TYPES):
            events.append(event)
            if isinstance(event, HandStarted):
                break
    return [list(encode_event(e)) for e in reversed(events)]


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
    names = names or {}
    state = fold.state
    base: dict[str, Any] = {"stream": fold.stream, "version": fold.version, "role": role,
                            "events": event_rows(fold, recent, public, names)}
    if state is None:
        return base | {"open": False, "problem": table_problem(fold)}
    profile = get_profile(state.profile)
    hand = state.hand
    in_hand = hand is not None and not hand.is_complete
    position = {s: i for i, s in enumerate(hand.setup.seats)} if hand is not None else {}
    seats = []
    for number in range(1, state.seat_count + 1):
        seat = state.occupant(number)
        row: dict[str, Any] = {"seat": number, "player": None}
        if seat is not None:
            row |= {"player": names.get(seat.player, seat.player), "id": seat.player,
                    "stack": seat.stack, "absent": seat.absent,
                    "waits": seat.waits, "position": None, "bet": 0, "in_hand": False,
                    "folded": False, "all_in": False, "hole": None, "shown": None,
                    "to_act": False}
            p = position.get(number)
            if hand is not None and p is not None:
                row |= {
                    "position": p, "in_hand": True, "folded": hand.folded[p],
                    "shown": _cards(hand.shown[p]),
                    "hole": None if public else _cards(hand.hole[p] or None),
                }
                if in_hand:
                    row |= {"stack": hand.stacks[p], "bet": hand.bets[p],
                            "committed": hand.committed[p], "absent": hand.absent[p],
                            "all_in": hand.stacks[p] == 0 and not hand.folded[p],
                            "to_act": hand.to_act == p}
        seats.append(row)
    plan = None
    if in_hand:
        assert hand is not None
        markers = (hand.setup.button_seat, hand.setup.small_blind_seat,
                   hand.setup.big_blind_seat)
    else:
        plan = _next_plan(state, level, due)
        if plan is not None and plan["ready"]:
            markers = (plan["button_seat"], plan["small_blind_seat"], plan["big_blind_seat"])
        else:
            markers = (state.button, state.small_blind_seat, state.big_blind_seat)
    for row in seats:
        row["button"] = row["seat"] == markers[0]
        row["small_blind"] = row["seat"] == markers[1]
        row["big_blind"] = row["seat"] == markers[2]
    if in_hand and not public:
        base["offline_hand"] = offline_hand(fold)
    return base | {
        "open": True,
        "table": state.table,
        "tournament": state.tournament,
        "carry": state.carry,  # chips waiting for the next pot (Octobermuck color-up)
        "seat_count": state.seat_count,
        "profile": {"name": profile.name, "title": profile.title,
                    "clock_seconds": profile.clock_seconds,
                    "clock_countdown_seconds": profile.clock_countdown_seconds},
        "hands_played": state.hands_played,
        "seats": seats,
        "hand": _hand_view(hand, public, names) if hand is not None else None,
        "hand_in_progress": in_hand,
        "level": _level_dict(level),
        "next_hand": None if in_hand else plan,
        "chips": state.chips(),
    }


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
        "chips": state.chips(), "level": _level_dict(level), "hand": None,
        "findings": len(fold.findings),
        "carry": state.carry if not in_hand else 0,  # waiting for the next pot
    }
    if in_hand and hand is not None:
        to_act = hand.to_act
        summary["hand"] = {
            "number": hand.setup.hand_number, "phase": hand.phase,
            "street": STREETS[min(hand.street, 3)], "pot_total": hand.pot_total,
            "board": _cards(hand.board) or [],
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
    return {"rule": finding.rule if finding else "log", "message": message,
            "version": finding.version if finding else 0,
            "legal": ["void the entry (director)", "open the table again"]}


def broken_summary(stream: str, version: int, error: Exception) -> dict[str, Any]:
    """The floor's card of a table that cannot be shown: the other tables are shown anyway."""
    return {"stream": stream, "version": version, "open": False,
            "problem": {"rule": "log", "message": f"this table cannot be shown: {error}",
                        "version": 0, "legal": ["void the entry (director)"]}}


def notable_rows(fold: TableFold, stored: list[StoredEvent],
                 names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Rulings and corrections (and seat changes) at a table, newest first, for the floor."""
    rows = event_rows(fold, stored, True, names)
    for row in rows:
        row["stream"] = fold.stream
        row["table"] = fold.state.table if fold.state is not None else fold.stream
    return rows
