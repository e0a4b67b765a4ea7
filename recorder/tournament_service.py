"""The tournament's write side: registration, the seat and button draws, levels, moves,
eliminations, color-ups and rulings, each through the engine into the log.

Streams: `tournament-<id>` for the tournament, `table-<id>-<table>` for each table. Random
draws happen here (never in the engine): the seed is recorded in the event so that replay can
reproduce the draw.

Retries: every command takes the client's event id (`event_id`; a fresh one when None) and, for
the director's commands, the tournament stream's version the client saw (`expected_version`).
A command's first event carries that id; each further part (the table sides of a move, the
tables a seat draw opens...) carries an id derived from it (uuid5), so a retry of a command that
was recorded, or only partly, records nothing twice: the parts found are returned as they are,
the ones missing are recorded. The same id sent with a different command raises
DuplicateEventConflict naming the field that differs; a stale `expected_version`,
ConcurrencyConflict (the same errors as a table's commands, recorder/service.py).
"""

from __future__ import annotations

import contextlib
import random
import secrets
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from handlog.engine.breaking import (
    BREAK_RULE,
    REASON_BROKEN,
    TableBreak,
    break_table,
    due_big_blind,
    table_to_break,
)
from handlog.engine.cards import FULL_DECK, card_text
from handlog.engine.chip_counts import correct_stack, count_stacks
from handlog.engine.clock import add_time, pause_clock, resume_clock
from handlog.engine.deals import make_deal
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandKilled, HandStarted
from handlog.engine.hand_for_hand import (
    check_hand_start,
    end_hand_for_hand,
    hand_for_hand_rule,
    round_status,
    start_hand_for_hand,
)
from handlog.engine.hand_state import COMPLETE
from handlog.engine.limits import check_name
from handlog.engine.money import (
    HIGH_HAND_RULE,
    NO_POT,
    assign_bounty,
    bounty_for,
    high_hand_proposal,
    high_hands_shown,
    post_high_hands,
)
from handlog.engine.penalties import KILLED_FOR_PENALTY, give_penalty, hands_owed, serving
from handlog.engine.seating import (
    draw_button,
    draw_seats,
    free_seats,
    move_player,
    seating_order,
    suggest_balance,
)
from handlog.engine.structure import Structure
from handlog.engine.table import TableState
from handlog.engine.table_commands import (
    AdjustStack,
    CarryToPot,
    OpenTable,
    PlaceButton,
    RemovePlayer,
    SeatPlayer,
    StartHand,
)
from handlog.engine.tournament import (
    Bust,
    award_high_hand,
    award_prizes,
    color_up,
    color_up_racers,
    create_tournament,
    decide_antes,
    eliminate,
    end_break,
    record_ruling,
    register,
    remove_absent_at_level_end,
    stakes,
    start_break,
    start_level,
    withdraw,
)
from handlog.engine.tournament_events import (
    AntesDecided,
    BountyAssigned,
    BountyReferred,
    BreakEnded,
    BreakStarted,
    ButtonDrawn,
    ChipsColoredUp,
    ClockPaused,
    ClockResumed,
    DealRecorded,
    HandForHandEnded,
    HandForHandStarted,
    HighHandAwarded,
    LevelStarted,
    PenaltyRecorded,
    PlayerEliminated,
    PlayerMoved,
    PlayerRegistered,
    PlayerWithdrew,
    RulingRecorded,
    SeatsDrawn,
    StackCorrected,
    StacksCounted,
    TimeAdded,
    TournamentCreated,
)
from handlog.engine.tournament_state import TournamentState, apply_tournament, fold_tournament
from handlog.engine.words import cite, profile_rule
from handlog.recorder.service import Actor, Recorded, Recorder, StreamChange
from handlog.replay.fold import TableFold
from handlog.schema.errors import ConcurrencyConflict, DuplicateEventConflict


def tournament_stream(tournament: str) -> str:
    return f"tournament-{tournament}"


def table_stream(tournament: str, table: str) -> str:
    return f"table-{tournament}-{table}"


@dataclass(frozen=True)
class _Ids:
    """The event ids of one command's parts: the client's id for the first part, ids derived
    from it for the others. `given`: parts may be recorded already (look them up first)."""

    root: uuid.UUID
    given: bool = False

    def part(self, name: str) -> _Ids:
        # Names with letters: never one of the Recorder's ids for a part's own later events
        # (uuid5(id, "1"), uuid5(id, "2")...).
        return _Ids(uuid.uuid5(self.root, name), self.given)


def _ids(event_id: uuid.UUID | None) -> _Ids:
    return _Ids(uuid.uuid4()) if event_id is None else _Ids(event_id, True)


@dataclass(frozen=True)
class _Intent:
    """What a command's first event must be for a retry with its id to be the same command."""

    type: str
    fields: dict[str, Any] = field(default_factory=dict)

    def check(self, recorded: Recorded) -> None:
        first = recorded.events[0]
        if first.type != self.type:
            raise DuplicateEventConflict(
                first.event_id, f"it is a {first.type!r} of {first.stream_id!r}, not a "
                f"{self.type!r}")
        for name, value in self.fields.items():
            stored = first.payload.get(name)
            if stored != value:
                raise DuplicateEventConflict(
                    first.event_id, f"its {name} is {stored!r}, this command's is {value!r}")


def _given(command: Any) -> Callable[[TableFold], Any]:
    return lambda _fold: command


def _eliminated(player: str, fold: TableFold) -> RemovePlayer:
    state = fold.state
    seat = state.seat_of(player) if state is not None else None
    if seat is None:
        raise RuleViolation("seating", f"{player} is not at {fold.stream}")
    return RemovePlayer(seat.seat, "eliminated")


def _epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def level_clock(timed: Iterable[tuple[datetime, Any]],
                clock: dict[str, Any] | None = None) -> dict[str, Any]:
    """The clock as the tournament's events (with the time each was recorded) leave it:
    `kind` (none, level, break, due), `label`, `minutes`, `started` and `ends` (epoch ms),
    `paused` and, paused, `left_ms`. From `clock` (the clock the earlier events left) on."""
    clock = clock if clock is not None else {"kind": "none"}
    for at, event in timed:
        if isinstance(event, LevelStarted | BreakStarted):
            level = isinstance(event, LevelStarted)
            label = (f"Level {event.level}" if isinstance(event, LevelStarted)
                     else f"Break after level {event.after_level}")
            clock = {"kind": "level" if level else "break", "label": label,
                     "minutes": event.minutes, "started": _epoch_ms(at),
                     "ends": _epoch_ms(at) + event.minutes * 60_000, "paused": False}
        elif isinstance(event, BreakEnded):
            clock = {"kind": "due", "label": f"Break over: start level {event.after_level + 1}"}
        elif isinstance(event, ClockPaused) and "ends" in clock:
            clock = clock | {"paused": True, "left_ms": event.seconds_left * 1000}
        elif isinstance(event, ClockResumed) and "ends" in clock:
            clock = clock | {"paused": False, "ends": _epoch_ms(at) + event.seconds_left * 1000}
            clock.pop("left_ms", None)
        elif isinstance(event, TimeAdded) and "ends" in clock:
            if clock.get("paused"):
                clock = clock | {"left_ms": max(0, clock["left_ms"] + event.seconds * 1000)}
            else:
                clock = clock | {"ends": clock["ends"] + event.seconds * 1000}
    return clock


class _Nothing(Exception):
    """A command that found nothing to record."""


@dataclass
class Tournaments:
    """Tournament commands; every append goes through the Recorder."""

    recorder: Recorder
    _cache: dict[str, tuple[TournamentState, int]] = field(default_factory=dict)
    _served: dict[str, tuple[int, dict[str, int]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        # A hand's end at a tournament table is settled with it, whoever ends the hand.
        if self.recorder.settlement is None:
            self.recorder.settlement = self.plan_settlement

    # --- reading --------------------------------------------------------------------------

    def _read(self, tournament: str) -> tuple[TournamentState, int]:
        """The state and the version it was folded at (decisions append after it). The state
        is kept and extended with the events appended since (a tournament stream is never
        corrected in place), so no command re-folds the whole stream."""
        stream = tournament_stream(tournament)
        head = self.recorder.store.head(stream)
        if head is None:
            raise RuleViolation("tournament", f"no tournament {tournament!r}")
        with self._lock:
            cached = self._cache.get(stream)
        if cached is not None and cached[1] == head.version:
            return cached
        if cached is not None and cached[1] < head.version:
            state = cached[0]
            new = self.recorder.store.read(stream, cached[1] + 1)
            for stored in new:
                state = apply_tournament(state, stored.decode())
            result = (state, new[-1].version if new else cached[1])
        else:
            stored_all = self.recorder.events(stream)
            result = (fold_tournament(e.decode() for e in stored_all), stored_all[-1].version)
        with self._lock:
            current = self._cache.get(stream)
            if current is None or current[1] < result[1]:
                self._cache[stream] = result
        return result

    def state(self, tournament: str) -> TournamentState:
        return self._read(tournament)[0]

    def version(self, tournament: str) -> int:
        head = self.recorder.store.head(tournament_stream(tournament))
        return head.version if head else 0

    def table(self, tournament: str, table: str) -> TableFold:
        return self.recorder.table(table_stream(tournament, table))

    def tournaments(self) -> list[str]:
        return [h.stream_id.removeprefix("tournament-") for h in self.recorder.store.streams()
                if h.kind == "tournament"]

    # --- the parts of a command -----------------------------------------------------------

    def _found(self, stream: str, ids: _Ids) -> Recorded | None:
        return self.recorder.recorded(stream, ids.root) if ids.given else None

    def _step(self, tournament: str, ids: _Ids,
              decide: Callable[[TournamentState], Sequence[Any]], actor: Actor,
              expected: int | None = None, intent: _Intent | None = None) -> Recorded:
        """One part on the tournament stream: found (a retry) or decided on the state now and
        appended after the version it was decided at."""
        stream = tournament_stream(tournament)
        recorded = self._found(stream, ids)
        if recorded is None:
            state, version = self._read(tournament)
            if expected is not None and expected != version:
                raise ConcurrencyConflict(stream, expected, version)
            recorded = self.recorder.record(stream, version, decide(state), ids.root, actor)
        if recorded.retried and intent is not None:
            intent.check(recorded)
        return recorded

    def _table_step(self, tournament: str, table: str, ids: _Ids,
                    command: Callable[[TableFold], Any], actor: Actor) -> Recorded:
        """One part at a table: found (a retry) or the command recorded at the table now."""
        stream = table_stream(tournament, table)
        found = self._found(stream, ids)
        if found is not None:
            return found
        fold = self.recorder.table(stream)
        return self.recorder.submit(stream, command(fold), fold.version, ids.root, actor)

    @staticmethod
    def _rest(ids: _Ids, first: Recorded) -> _Ids:
        """The ids of the parts after the first: looked up only when the first was a retry."""
        return replace(ids, given=first.retried)

    def _atomic(self, tournament: str, ids: _Ids, expected: int | None,
                intent: _Intent | None,
                decide: Callable[[TournamentState, int], tuple[Sequence[Any],
                                                               dict[str, list[Any]]]],
                actor: Actor) -> Recorded:
        """A command over several streams in one transaction: `decide(state, version)` gives
        the tournament's events and each table's commands (decided in order on the table as
        it stands). A retry (its id found) returns what was recorded and adds nothing."""
        stream = tournament_stream(tournament)
        found = self._found(stream, ids)
        if found is not None:
            if intent is not None:
                intent.check(found)
            return found
        state, version = self._read(tournament)
        if expected is not None and expected != version:
            raise ConcurrencyConflict(stream, expected, version)
        events, commands = decide(state, version)
        changes = [StreamChange(stream, version, tuple(events))]
        changes.extend(self.recorder.plan_tables(
            {table_stream(tournament, t): c for t, c in commands.items() if c}))
        return self.recorder.record_many(changes, ids.root, actor)[0]

    # --- writing --------------------------------------------------------------------------

    def create(self, tournament: str, structure: Structure, actor: Actor, *,
               event_id: uuid.UUID | None = None) -> Recorded:
        ids = _ids(event_id)
        stream = tournament_stream(tournament)
        found = self._found(stream, ids)
        if found is None:
            if self.version(tournament):
                raise RuleViolation("tournament", f"tournament {tournament!r} already exists")
            found = self.recorder.record(stream, 0, [create_tournament(tournament, structure)],
                                         ids.root, actor)
        if found.retried:
            _Intent(TournamentCreated.TYPE, {"tournament": tournament}).check(found)
        return found

    def register(self, tournament: str, name: str, actor: Actor, player: str = "", *,
                 high_hand: bool = False, event_id: uuid.UUID | None = None,
                 expected_version: int | None = None) -> tuple[str, Recorded]:
        """An entry; once play has started the late entrant is drawn into the free seat at
        the shortest table at once (one transaction)."""
        check_name(name, "name")

        def decide(state: TournamentState, _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            entry = register(state, player or f"p{len(state.entrants) + 1}", name, high_hand)
            if not entry.late or not state.tables:
                return [entry], {}
            after = apply_tournament(state, entry)
            counts = {t: len(after.seated_at(t)) for t in after.tables}
            table = min(after.tables, key=lambda t: counts[t])
            drawn = draw_seats(after, [table], [entry.player], seed="late entry")
            (seat,) = drawn.assignments
            return [entry, drawn], {table: [SeatPlayer(seat.seat, entry.player, entry.stack,
                                                       True, "late_entry")]}

        fields = {"name": name} | ({"player": player} if player else {})
        recorded = self._atomic(tournament, _ids(event_id), expected_version,
                                _Intent(PlayerRegistered.TYPE, fields), decide, actor)
        event = recorded.events[0].decode()
        assert isinstance(event, PlayerRegistered)
        return event.player, recorded

    def draw_seats(self, tournament: str, tables: int, seed: int | None, actor: Actor, *,
                   event_id: uuid.UUID | None = None,
                   expected_version: int | None = None) -> Recorded:
        """The random seat draw over `tables` tables (the seed goes into the event; a random
        one when None), each table opened with its players and the draw for the button: one
        transaction."""
        names = [str(n) for n in range(1, tables + 1)]
        chosen = secrets.randbelow(2**31) if seed is None else seed

        def decide(state: TournamentState, _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            drawn_order = sorted(e.player for e in state.remaining if not e.table)
            random.Random(chosen).shuffle(drawn_order)
            order, seed_recorded = seating_order(state, drawn_order, str(chosen))
            drawn = draw_seats(state, names, order, seed=seed_recorded)
            after = apply_tournament(state, drawn)
            events: list[Any] = [drawn]
            commands: dict[str, list[Any]] = {name: [] for name in drawn.tables}
            structure = state.structure
            # Which tables are open already, from the heads read once (not a query a table).
            opened = {h.stream_id for h in self.recorder.store.streams() if h.kind == "table"}
            for name in drawn.tables:
                stream = table_stream(tournament, name)
                if stream not in opened or self.table(tournament, name).state is None:
                    commands[name].append(OpenTable(name, structure.seats_per_table,
                                                    structure.profile, tournament))
            deducted = {e.player: e.chips_deducted for e in after.entrants}
            by_table: dict[str, list[Any]] = {name: [] for name in drawn.tables}
            for a in drawn.assignments:
                commands[a.table].append(SeatPlayer(
                    a.seat, a.player, structure.starting_stack - deducted[a.player]))
                by_table.setdefault(a.table, []).append(a)
            rng = random.Random(chosen + 1)
            for name in drawn.tables:
                deck = list(FULL_DECK)
                rng.shuffle(deck)
                # Seat order, as the cards are dealt: the players drawn there and any
                # already seated.
                seated = sorted({a.seat for a in by_table[name]} | set(state.occupied(name)))
                if len(seated) < 2:
                    continue
                button = draw_button(after, name, {seat: card_text(deck.pop())
                                                   for seat in seated})
                events.append(button)
                commands[name].append(PlaceButton(button.seat, "draw for the button"))
            return events, commands

        fields: dict[str, Any] = {"tables": names}
        if seed is not None:
            fields["seed"] = str(seed)
        return self._atomic(tournament, _ids(event_id), expected_version,
                            _Intent(SeatsDrawn.TYPE, fields), decide, actor)

    def draw_button(self, tournament: str, table: str, rng: random.Random, actor: Actor, *,
                    event_id: uuid.UUID | None = None) -> None:
        """High card for the button, suits ranking spades, hearts, diamonds, clubs."""
        self._draw_button(tournament, table, rng, actor, _ids(event_id))

    def _draw_button(self, tournament: str, table: str, rng: random.Random, actor: Actor,
                     ids: _Ids) -> None:
        deck = list(FULL_DECK)
        rng.shuffle(deck)  # even when found: the next table's draw takes the same cards

        def decide(state: TournamentState) -> list[Any]:
            cards = {e.seat: card_text(deck.pop()) for e in state.seated_at(table)}
            return [draw_button(state, table, cards)]

        drawn = self._step(tournament, ids, decide, actor)
        seat = drawn.events[0].decode().seat
        self._table_step(tournament, table, self._rest(ids, drawn).part("place"),
                         lambda _fold: PlaceButton(seat, "button_draw"), actor)

    def start_level(self, tournament: str, actor: Actor, ruling: str = "", *,
                    event_id: uuid.UUID | None = None,
                    expected_version: int | None = None) -> Recorded:
        """The next level, and (where the house removes a player who played no hand for a whole
        level: League) each such player's chips turned in and his seat emptied, in one
        transaction. A player whose table is in a hand is left to the next level's end."""

        def decide(state: TournamentState, _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            events: list[Any] = [start_level(state, ruling)]
            hands: dict[str, list[HandStarted]] = {}
            stacks: dict[str, int] = {}
            seats: dict[str, tuple[str, int]] = {}
            for table in state.tables:
                fold = self.table(tournament, table)
                if fold.state is None or fold.state.hand_in_progress:
                    continue
                hands[table] = [e for _, e in fold.effective if isinstance(e, HandStarted)]
                for seat in fold.state.seats:
                    stacks[seat.player] = seat.stack
                    seats[seat.player] = (table, seat.seat)
            removed = remove_absent_at_level_end(state, hands, stacks)
            commands: dict[str, list[Any]] = {}
            for event in removed:
                if isinstance(event, PlayerWithdrew):
                    table, seat_number = seats[event.player]
                    commands.setdefault(table, []).append(RemovePlayer(seat_number, "withdrawn"))
            return events + list(removed), commands

        return self._atomic(tournament, _ids(event_id), expected_version,
                            _Intent(LevelStarted.TYPE, {"ruling": ruling}), decide, actor)

    def start_break(self, tournament: str, actor: Actor, minutes: int = 0, *,
                    event_id: uuid.UUID | None = None,
                    expected_version: int | None = None) -> Recorded:
        fields = {"minutes": minutes} if minutes else {}
        return self._step(tournament, _ids(event_id), lambda s: [start_break(s, minutes)],
                          actor, expected_version, _Intent(BreakStarted.TYPE, fields))

    def decide_antes(self, tournament: str, actor: Actor, *,
                     event_id: uuid.UUID | None = None,
                     expected_version: int | None = None) -> Recorded:
        return self._step(tournament, _ids(event_id), lambda s: [decide_antes(s)], actor,
                          expected_version, _Intent(AntesDecided.TYPE))

    def end_break(self, tournament: str, actor: Actor, *, event_id: uuid.UUID | None = None,
                  expected_version: int | None = None) -> Recorded:
        return self._step(tournament, _ids(event_id), lambda s: [end_break(s)], actor,
                          expected_version, _Intent(BreakEnded.TYPE))

    def ruling(self, tournament: str, rule: str, text: str, actor: Actor, stream: str = "",
               version: int = 0, *, event_id: uuid.UUID | None = None,
               expected_version: int | None = None) -> Recorded:
        return self._step(
            tournament, _ids(event_id),
            lambda s: [record_ruling(s, rule, text, actor.name, stream, version)], actor,
            expected_version, _Intent(RulingRecorded.TYPE, {
                "rule": cite(rule), "text": text, "stream": stream, "version": version}))

    def penalty(self, tournament: str, player: str, penalty: str, rule: str, text: str,
                actor: Actor, hands: int = 0, *, event_id: uuid.UUID | None = None,
                expected_version: int | None = None) -> Recorded:
        """A penalty (`penalty`: warning, hands, rounds or disqualification; `hands`: how many
        hands or rounds) with the rule it rests on and who gave it. Missed hands are served at
        the table: dealt in, posting, hand killed. A disqualified player's chips leave play
        with him (one transaction with his seat emptied)."""

        def decide(state: TournamentState, _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            given = give_penalty(state, player, penalty, cite(rule), text, actor.name, hands)
            if penalty != "disqualification":
                return [given], {}
            entrant = state.entrant(player)
            assert entrant is not None
            tstate = self.table(tournament, entrant.table).state if entrant.table else None
            seat = tstate.seat_of(player) if tstate is not None else None
            if tstate is not None and tstate.hand_in_progress:
                raise RuleViolation("hand in progress", "disqualify him when the hand is over",
                                    ("finish the hand first",))
            chips = seat.stack if seat is not None else 0
            after = apply_tournament(state, given)
            out = withdraw(after, player, chips)
            commands = ({entrant.table: [RemovePlayer(seat.seat, "withdrawn")]}
                        if seat is not None else {})
            return [given, *out], commands

        return self._atomic(tournament, _ids(event_id), expected_version, _Intent(
            PenaltyRecorded.TYPE, {"player": player, "penalty": penalty, "rule": cite(rule),
                                   "text": text}), decide, actor)

    def assign_bounty(self, tournament: str, player: str, to: str, actor: Actor, *,
                      event_id: uuid.UUID | None = None,
                      expected_version: int | None = None) -> Recorded:
        """The director settles a bounty the rules left open (a split pot); once none is
        left open at the end, the prizes and bounties are paid (one transaction)."""

        def decide(state: TournamentState, _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            assigned = assign_bounty(state, player, to, actor.name)
            after = apply_tournament(state, assigned)
            events: list[Any] = [assigned]
            if after.finished and after.structure.payouts and not after.bounties_referred \
                    and after.prizes is None:
                events.append(award_prizes(after))
            return events, {}

        return self._atomic(tournament, _ids(event_id), expected_version,
                            _Intent(BountyAssigned.TYPE, {"player": player, "to": to}),
                            decide, actor)

    def award_high_hand(self, tournament: str, actor: Actor, players: Sequence[str] = (), *,
                        event_id: uuid.UUID | None = None,
                        expected_version: int | None = None) -> Recorded:
        """The director confirms the high-hand jackpot: the engine's proposal (the holders of
        the best hand shown; equal hands split), or the players he names."""

        def decide(state: TournamentState) -> list[Any]:
            proposed, hand = high_hand_proposal(state)
            chosen = tuple(players) or proposed
            if not chosen:
                raise RuleViolation(HIGH_HAND_RULE, "no flush or better has been shown by a "
                                    "jackpot entrant", ("name the players",))
            return [award_high_hand(state, chosen, hand or "named by the director")]

        return self._step(tournament, _ids(event_id), decide, actor, expected_version,
                          _Intent(HighHandAwarded.TYPE))

    def deal(self, tournament: str, method: str, consents: Mapping[str, str], actor: Actor,
             kept: int = 0, amounts: Mapping[str, int] | None = None, *,
             event_id: uuid.UUID | None = None,
             expected_version: int | None = None) -> Recorded:
        """A deal among the players left at the final table, their stacks read from it; the
        engine computes the amounts (ICM, chip chop...) and checks every consent."""

        def decide(state: TournamentState) -> list[Any]:
            stacks: dict[str, int] = {}
            for table in state.tables:
                tstate = self.table(tournament, table).state
                if tstate is None:
                    continue
                if tstate.hand_in_progress:
                    raise RuleViolation("deal", f"a hand is in progress at table {table}",
                                        ("finish the hand first",))
                stacks.update({s.player: s.stack for s in tstate.seats})
            return [make_deal(state, method, stacks, consents, actor.name, kept, amounts)]

        return self._step(tournament, _ids(event_id), decide, actor, expected_version,
                          _Intent(DealRecorded.TYPE, {"method": method, "kept": kept}))

    def _timed(self, tournament: str) -> list[tuple[datetime, Any]]:
        return [(e.recorded_at, e.decode())
                for e in self.recorder.events(tournament_stream(tournament))]

    def pause_clock(self, tournament: str, actor: Actor, reason: str = "", *,
                    event_id: uuid.UUID | None = None,
                    expected_version: int | None = None) -> Recorded:
        """Stop the level (or break) clock; the seconds left are read off the clock now."""

        def decide(state: TournamentState) -> list[Any]:
            clock = level_clock(self._timed(tournament))
            left = (int(clock["ends"]) - _epoch_ms(self.recorder.clock())) // 1000 \
                if "ends" in clock else 0
            return [pause_clock(state, left, reason)]

        return self._step(tournament, _ids(event_id), decide, actor, expected_version,
                          _Intent(ClockPaused.TYPE))

    def resume_clock(self, tournament: str, actor: Actor, *,
                     event_id: uuid.UUID | None = None,
                     expected_version: int | None = None) -> Recorded:
        return self._step(tournament, _ids(event_id), lambda s: [resume_clock(s)], actor,
                          expected_version, _Intent(ClockResumed.TYPE))

    def add_time(self, tournament: str, seconds: int, actor: Actor, reason: str = "", *,
                 event_id: uuid.UUID | None = None,
                 expected_version: int | None = None) -> Recorded:
        return self._step(tournament, _ids(event_id), lambda s: [add_time(s, seconds, reason)],
                          actor, expected_version, _Intent(TimeAdded.TYPE, {"seconds": seconds}))

    def served(self, tournament: str, state: TournamentState | None = None) -> dict[str, int]:
        """Hands each player has had killed for a penalty, over every table of the
        tournament (read only when someone owes penalty hands)."""
        state = state or self.state(tournament)
        if not hands_owed(state):
            return {}
        counts: dict[str, int] = {}
        prefix = f"table-{tournament}-"
        for head in self.recorder.store.streams():
            if not head.stream_id.startswith(prefix):
                continue
            # Counted once per version of each table, not re-read at every look.
            with self._lock:
                cached = self._served.get(head.stream_id)
            if cached is None or cached[0] != head.version:
                fold = self.recorder.table(head.stream_id)
                mine: dict[str, int] = {}
                players: tuple[str, ...] = ()
                for _version, event in fold.effective:
                    if isinstance(event, HandStarted):
                        players = event.players
                    elif isinstance(event, HandKilled) and event.reason == KILLED_FOR_PENALTY:
                        who = players[event.player]
                        mine[who] = mine.get(who, 0) + 1
                cached = (fold.version, mine)
                with self._lock:
                    self._served[head.stream_id] = cached
            for who, n in cached[1].items():
                counts[who] = counts.get(who, 0) + n
        return counts

    def serving(self, tournament: str, state: TournamentState | None = None) -> dict[str, int]:
        """Players still serving a penalty and the hands each has left."""
        state = state or self.state(tournament)
        return serving(state, self.served(tournament, state))

    def start_hand(self, tournament: str, table: str, actor: Actor) -> Recorded:
        """The next hand at `table` at the stakes in force; players serving a penalty are
        dealt in and their hands killed."""
        state = self.state(tournament)
        self.check_hand_start(tournament, table, state)
        command = StartHand(stakes(state), 0, len(state.tables) == 1,
                            tuple(sorted(self.serving(tournament, state))))
        return self._table_step(tournament, table, _ids(None), lambda _fold: command, actor)

    def settle_hand(self, tournament: str, table: str, actor: Actor, *,
                    event_id: uuid.UUID | None = None) -> list[PlayerEliminated]:
        """The director's settle of a table (a hand's end settles itself, recorded with it:
        Recorder.submit): in one transaction, what `_settlement` decides. With an event id, a
        retry returns the eliminations recorded under it."""
        recorded = self._atomic_or_none(tournament, _ids(event_id),
                                        self._settlement(tournament, table), actor)
        if recorded is None:
            return []
        return [e for e in (s.decode() for s in recorded.events)
                if isinstance(e, PlayerEliminated)]

    def plan_settlement(self, after: TableState
                        ) -> tuple[StreamChange, dict[str, list[Any]]] | None:
        """The settlement of a tournament's table as a hand left it (`after`, not recorded
        yet), planned and not recorded: the tournament's events at the version they were
        decided at and each table's commands (None: nothing to settle). The Recorder appends
        them with the hand's events (Recorder.settlement)."""
        tournament = after.tournament
        if not self.recorder.head_version(tournament_stream(tournament)):
            return None  # a table opened for a tournament never created: nothing to settle
        state, version = self._read(tournament)
        if after.table not in state.tables:
            return None
        events, commands = self._settlement(tournament, after.table, {after.table: after})(
            state, version)
        if not events:
            return None
        return (StreamChange(tournament_stream(tournament), version, tuple(events)),
                {table_stream(tournament, t): c for t, c in commands.items() if c})

    def _settlement(self, tournament: str, table: str,
                    pending: Mapping[str, TableState] | None = None,
                    ) -> Callable[[TournamentState, int], tuple[list[Any], dict[str, list[Any]]]]:
        """After a hand: the high hands it showed (a jackpot's flushes or better that beat or
        equal the best so far), the players left with no chips eliminated with their places
        and bounties (the engine names the collector, or refers the bounty to the director),
        their seats emptied; the prizes when one player is left. `pending`: tables as a hand
        left them, not recorded yet."""
        pending = pending or {}

        def decide(state: TournamentState,
                   _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            tstate = self._table_state(tournament, table, pending)
            if tstate is None or tstate.hand_in_progress:
                return [], {}
            events: list[Any] = []
            hand = tstate.hand
            if hand is not None and hand.phase == COMPLETE and \
                    state.structure.money.high_hand_fee:
                entered = {e.player for e in state.entrants if e.high_hand}
                posted = {(h.player, h.table, h.hand_number) for h in state.high_hands}
                shown = [h for h in high_hands_shown(hand, table, entered)
                         if (h.player, h.table, h.hand_number) not in posted]
                events.extend(post_high_hands(state, shown))
            tables = [table]
            if state.hand_for_hand is not None:
                # Hand-for-hand: the players out in a round are placed together once every
                # table has finished the round's hand (TDA RP-8-A, photo finish).
                progress = self.progress(tournament, state, pending)
                if not round_status(state, progress).complete:
                    return events, {}
                tables = [t for t in state.tables if state.seated_at(t)]
            busts, referred, commands = self._busts(tournament, state, tables, pending)
            if not busts:
                return events, {}
            after = state
            for event in events:
                after = apply_tournament(after, event)
            events.extend(eliminate(after, busts))
            events.extend(referred)
            events.extend(self._prizes_if_over(state, events))
            return events, commands

        return decide

    def _table_state(self, tournament: str, table: str,
                     pending: Mapping[str, TableState] | None = None) -> TableState | None:
        """The table's state: as a hand left it when `pending` holds it, else as recorded."""
        if pending and table in pending:
            return pending[table]
        return self.table(tournament, table).state

    def _busts(self, tournament: str, state: TournamentState, tables: Sequence[str],
               pending: Mapping[str, TableState] | None = None,
               ) -> tuple[list[Bust], list[BountyReferred], dict[str, list[Any]]]:
        """The players left without chips at `tables` after their last hands: each with his
        chips at the start of that hand and his bounty's collector (or the referral), and the
        seats to empty."""
        busts: list[Bust] = []
        referred: list[BountyReferred] = []
        commands: dict[str, list[Any]] = {}
        bounty = bool(state.structure.money.bounty)
        for t in tables:
            tstate = self._table_state(tournament, t, pending)
            if tstate is None or tstate.hand_in_progress:
                continue
            out = [s for s in tstate.seats if s.stack == 0]
            if not out:
                continue
            hand = tstate.hand
            started = (dict(zip(hand.setup.seats, hand.setup.stacks, strict=True))
                       if hand else {})
            number = hand.setup.hand_number if hand else 0
            for seat in out:
                call = bounty_for(hand, seat.player) if bounty else None
                busts.append(Bust(seat.player, started.get(seat.seat, 0), t, number,
                                  call.to if call is not None else ""))
                if call is not None and not call.to:
                    referred.append(BountyReferred(seat.player, t, number, call.proposal,
                                                   call.code))
            commands[t] = [RemovePlayer(s.seat, "eliminated") for s in out]
        return busts, referred, commands

    def count_stacks(self, tournament: str, table: str, occasion: str,
                     counted: Mapping[str, int], actor: Actor, *,
                     event_id: uuid.UUID | None = None,
                     expected_version: int | None = None) -> Recorded:
        """The floor's counted stacks at `table` (at a break or the end of a day); the engine
        sets each beside the stack the log computes (the table's, now)."""

        def decide(state: TournamentState) -> list[Any]:
            tstate = self.table(tournament, table).state if table in state.tables else None
            if tstate is not None and tstate.hand_in_progress:
                raise RuleViolation("chip count", f"a hand is in progress at table {table}: "
                                    "count the stacks when it is over",
                                    ("finish the hand first",))
            computed = {s.player: s.stack for s in tstate.seats} if tstate is not None else {}
            return [count_stacks(state, table, occasion, counted, computed)]

        return self._step(tournament, _ids(event_id), decide, actor, expected_version,
                          _Intent(StacksCounted.TYPE, {"table": table, "occasion": occasion}))

    def correct_stack(self, tournament: str, player: str, reason: str, actor: Actor,
                      stack: int | None = None, *, event_id: uuid.UUID | None = None,
                      expected_version: int | None = None) -> Recorded:
        """The director settles a count that differs from the log: the player's stack is ruled
        to be `stack` (the counted one when None), the change recorded at his table as a
        stack adjustment (one transaction)."""

        def decide(state: TournamentState, _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            entrant = state.entrant(player)
            tstate = (self.table(tournament, entrant.table).state
                      if entrant is not None and entrant.seated else None)
            seat = tstate.seat_of(player) if tstate is not None else None
            if tstate is not None and tstate.hand_in_progress:
                raise RuleViolation("chip count", f"a hand is in progress at table "
                                    f"{tstate.table}: correct the stack when it is over",
                                    ("finish the hand first",))
            corrected = correct_stack(state, player, reason, actor.name,
                                      seat.stack if seat is not None else 0, stack)
            if not corrected.amount or entrant is None or seat is None:
                return [corrected], {}
            return [corrected], {entrant.table: [AdjustStack(
                seat.seat, corrected.amount, "count_correction", corrected.rule)]}

        return self._atomic(tournament, _ids(event_id), expected_version,
                            _Intent(StackCorrected.TYPE, {"player": player}), decide, actor)

    def progress(self, tournament: str, state: TournamentState,
                 pending: Mapping[str, TableState] | None = None,
                 ) -> dict[str, tuple[int, bool]]:
        """Each table in play: (hands played, a hand in progress)."""
        result = {}
        for t in state.tables:
            tstate = self._table_state(tournament, t, pending)
            if tstate is not None:
                result[t] = (tstate.hands_played, tstate.hand_in_progress)
        return result

    def hand_for_hand(self, tournament: str, on: bool, actor: Actor, *,
                      event_id: uuid.UUID | None = None,
                      expected_version: int | None = None) -> Recorded:
        """Turn hand-for-hand on (from the next hand at every table) or off; turned off, the
        players out in the round so far are placed together (one transaction)."""

        def decide(state: TournamentState, _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            if on:
                return [start_hand_for_hand(state, self.progress(tournament, state))], {}
            ended = end_hand_for_hand(state)
            events: list[Any] = [ended]
            tables = [t for t in state.tables if state.seated_at(t)]
            busts, referred, commands = self._busts(tournament, state, tables)
            if busts:
                events.extend(eliminate(apply_tournament(state, ended), busts))
                events.extend(referred)
                events.extend(self._prizes_if_over(state, events))
            return events, commands

        kind = HandForHandStarted.TYPE if on else HandForHandEnded.TYPE
        return self._atomic(tournament, _ids(event_id), expected_version, _Intent(kind),
                            decide, actor)

    def check_hand_start(self, tournament: str, table: str,
                         state: TournamentState | None = None) -> None:
        """Refuse the next hand at `table` while hand-for-hand waits for another table."""
        state = state or self.state(tournament)
        if state.hand_for_hand is not None:
            check_hand_start(state, table, self.progress(tournament, state))

    @staticmethod
    def _prizes_if_over(state: TournamentState, events: Sequence[Any]) -> list[Any]:
        """The prizes, when `events` finish the tournament and no bounty waits. A league
        without a payout table (BSE plays for points) has no prizes; a field the payout table
        does not cover gets none either, and the replay reports the prizes missing."""
        after = state
        for event in events:
            after = apply_tournament(after, event)
        if after.finished and after.structure.payouts and not after.bounties_referred:
            with contextlib.suppress(RuleViolation):
                return [award_prizes(after)]
        return []

    def _atomic_or_none(self, tournament: str, ids: _Ids,
                        decide: Callable[[TournamentState, int],
                                         tuple[Sequence[Any], dict[str, list[Any]]]],
                        actor: Actor) -> Recorded | None:
        """`_atomic` for a command that may have nothing to record (None then)."""
        decided: list[tuple[Sequence[Any], dict[str, list[Any]]]] = []

        def remember(state: TournamentState,
                     version: int) -> tuple[Sequence[Any], dict[str, list[Any]]]:
            decided.append(decide(state, version))
            if not decided[-1][0]:
                raise _Nothing
            return decided[-1]

        try:
            return self._atomic(tournament, ids, None, None, remember, actor)
        except _Nothing:
            return None

    def move(self, tournament: str, player: str, to_table: str, actor: Actor,
             to_seat: int = 0, reason: str = "balance", rule: str = "", *,
             event_id: uuid.UUID | None = None, expected_version: int | None = None) -> Recorded:
        """A player moves with his exact stack; he waits if he lands between the blinds and
        the button. The move, his leaving and his arrival are one transaction."""
        fields: dict[str, Any] = {"player": player, "to_table": to_table, "reason": reason,
                                  "rule": cite(rule)}
        if to_seat:
            fields["to_seat"] = to_seat
        return self._move(tournament, player, to_table, actor, to_seat, reason, rule,
                          _ids(event_id), expected_version, _Intent(PlayerMoved.TYPE, fields))

    def _move(self, tournament: str, player: str, to_table: str, actor: Actor, to_seat: int,
              reason: str, rule: str, ids: _Ids, expected: int | None = None,
              intent: _Intent | None = None) -> Recorded:
        """The move, his leaving and his arrival, in one transaction (through `_atomic`)."""

        def decide(state: TournamentState, _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            entrant = state.entrant(player)
            if entrant is None or not entrant.seated:
                raise RuleViolation("moves", f"{player} is not seated")
            source = self.table(tournament, entrant.table).state
            assert source is not None
            seat = source.seat_of(player)
            if seat is None:
                raise RuleViolation("moves", f"{player} is not at table {entrant.table}")
            seat_to = to_seat or next(iter(free_seats(state, to_table)), 0)
            moved = move_player(state, player, to_table, seat_to, seat.stack, reason, rule)
            return [moved], {
                moved.from_table: [RemovePlayer(moved.from_seat, "moved")],
                moved.to_table: [SeatPlayer(moved.to_seat, moved.player, moved.stack, True,
                                            "moved")]}

        return self._atomic(tournament, ids, expected, intent, decide, actor)

    def break_plan(self, tournament: str) -> TableBreak | None:
        """The table the field lets break now (the engine's decision), or None."""
        return table_to_break(self.state(tournament))

    def break_table(self, tournament: str, actor: Actor, seed: int | None = None, *,
                    event_id: uuid.UUID | None = None,
                    expected_version: int | None = None) -> Recorded:
        """Break the table the engine names, in one transaction over every stream it touches:
        the tournament's moves (or the final table's redraw) and button draws, each player
        leaving the broken table and taking his seat at the receiving one, the broken table's
        chips waiting for a next pot handed on, the new buttons placed."""
        ids = _ids(event_id)
        stream = tournament_stream(tournament)
        found = self._found(stream, ids)
        if found is not None:
            return found
        state, version = self._read(tournament)
        if expected_version is not None and expected_version != version:
            raise ConcurrencyConflict(stream, expected_version, version)
        plan = table_to_break(state)
        if plan is None:
            raise RuleViolation(BREAK_RULE, "every table is still needed: no table breaks now")
        return self._break(tournament, state, version, plan, seed, ids, actor)

    def _round_open(self, tournament: str, state: TournamentState) -> bool:
        """Hand-for-hand with the round not finished everywhere (its busts not yet out)."""
        return state.hand_for_hand is not None and not round_status(
            state, self.progress(tournament, state)).complete

    def _break(self, tournament: str, state: TournamentState, version: int, plan: TableBreak,
               seed: int | None, ids: _Ids, actor: Actor) -> Recorded:
        if self._round_open(tournament, state):
            raise RuleViolation(hand_for_hand_rule(state), "hand-for-hand: break the table "
                                "when every table has finished the round's hand",
                                ("finish the round first",))
        involved = (plan.table,) + plan.to_tables
        folds = {t: self.table(tournament, t) for t in involved}
        busy = [t for t, f in folds.items() if f.state is not None and f.state.hand_in_progress]
        if busy:
            raise RuleViolation("hand in progress", f"a hand is in progress at table "
                                f"{busy[0]}: break the table when it is over",
                                ("finish the hand first",))
        stacks = {s.player: s.stack for f in folds.values() if f.state is not None
                  for s in f.state.seats}
        chosen = secrets.randbelow(2**31) if seed is None else seed
        rng = random.Random(f"{tournament}-break-{plan.table}-{chosen}")
        players = [e.player for t in (involved if plan.redraw else (plan.table,))
                   for e in state.seated_at(t)]
        rng.shuffle(players)
        deck = [card_text(c) for c in FULL_DECK]
        rng.shuffle(deck)
        events = break_table(state, plan, players, stacks, deck, str(chosen))
        table_commands: dict[str, list[Any]] = {t: [] for t in involved}
        for e in state.seated_at(plan.table):
            table_commands[plan.table].append(RemovePlayer(e.seat, "moved"))
        last_to = plan.to_tables[0]
        for event in events:
            if isinstance(event, SeatsDrawn):
                for t in plan.to_tables:
                    table_commands[t].extend(RemovePlayer(e.seat, "moved")
                                             for e in state.seated_at(t))
                for a in event.assignments:
                    table_commands[a.table].append(
                        SeatPlayer(a.seat, a.player, stacks[a.player], False, "moved"))
                    last_to = a.table
            elif isinstance(event, PlayerMoved):
                table_commands[event.to_table].append(
                    SeatPlayer(event.to_seat, event.player, event.stack, True, "moved"))
                last_to = event.to_table
        broken = folds[plan.table].state
        carry = broken.carry if broken is not None else 0
        carry_rule = profile_rule(state.structure.profile, "color_up")
        if carry:
            # Octobermuck: odd chips waiting for the broken table's next pot go to the next pot
            # of the table its last player went to ('forfeited to the next pot').
            table_commands[plan.table].append(
                CarryToPot(-carry, REASON_BROKEN, carry_rule, last_to))
            table_commands[last_to].append(
                CarryToPot(carry, REASON_BROKEN, carry_rule, plan.table))
        for event in events:
            if isinstance(event, ButtonDrawn):
                table_commands[event.table].append(PlaceButton(event.seat, "button_draw"))
        changes = [StreamChange(tournament_stream(tournament), version, events)]
        changes.extend(self.recorder.plan_tables(
            {table_stream(tournament, t): c for t, c in table_commands.items() if c}))
        return self.recorder.record_many(changes, ids.root, actor)[0]

    def balance(self, tournament: str, actor: Actor, *, event_id: uuid.UUID | None = None,
                expected_version: int | None = None) -> list[Recorded]:
        """Break a table when the others can take its players; else even the tables out.

        Each break and each move is one transaction (a part of this command). A retry returns
        the parts recorded under its id and decides no new one (the floor view says when the
        tables still need balancing)."""
        ids = _ids(event_id)
        stream = tournament_stream(tournament)

        def part(k: int) -> _Ids:
            return ids if k == 0 else ids.part(f"balance:{k}")

        if self._found(stream, ids) is not None:
            done: list[Recorded] = []
            k = 0
            while (found := self._found(stream, part(k))) is not None:
                done.append(found)
                k += 1
            return done
        return self._balance(tournament, actor, replace(ids, given=False), part,
                             expected_version)

    def _balance(self, tournament: str, actor: Actor, ids: _Ids,
                 part: Callable[[int], _Ids], expected: int | None) -> list[Recorded]:
        done: list[Recorded] = []
        k = 0
        while True:
            state, version = self._read(tournament)
            if k == 0 and expected is not None and expected != version:
                raise ConcurrencyConflict(tournament_stream(tournament), expected, version)
            tables = [t for t in state.tables if state.seated_at(t)]
            if any(self.table(tournament, t).state.hand_in_progress  # type: ignore[union-attr]
                   for t in tables) or self._round_open(tournament, state):
                return done
            plan = table_to_break(state)
            if plan is not None:
                seed = random.Random(f"{tournament}-{version}").randrange(2**31)
                done.append(self._break(tournament, state, version, plan, seed, part(k),
                                        actor))
                k += 1
                continue
            due: dict[str, str] = {}
            for t in tables:
                tstate = self.table(tournament, t).state
                due[t] = due_big_blind(tstate) if tstate is not None else ""
            counts = {t: len(state.seated_at(t)) for t in tables}
            fullest = max(counts.values()) if counts else 0
            source = min(t for t in tables if counts[t] == fullest) if tables else ""
            try:
                suggestion = suggest_balance(state, due_big_blind=due, from_table=source,
                                             high_cards=self._high_cards(state, source))
            except RuleViolation:
                return done
            if suggestion is None:
                return done
            done.append(self._move(tournament, suggestion.player, suggestion.to_table, actor,
                                   suggestion.to_seat, "balance", suggestion.rule, part(k)))
            k += 1

    def _high_cards(self, state: TournamentState, table: str) -> dict[str, str]:
        rng = random.Random(f"{state.tournament}-{table}-{len(state.entrants)}")
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        return {e.player: card_text(deck.pop()) for e in state.seated_at(table)}

    def color_up(self, tournament: str, actor: Actor, *, event_id: uuid.UUID | None = None,
                 expected_version: int | None = None) -> Recorded:
        """The scheduled color-up: the engine computes every stack's change; each table
        records it as a stack adjustment."""

        def decide(state: TournamentState) -> list[Any]:
            stacks: dict[str, int] = {}
            for table in state.tables:
                tstate = self.table(tournament, table).state
                if tstate is None:
                    continue
                if tstate.hand_in_progress:
                    raise RuleViolation("color-up", f"a hand is in progress at table {table}")
                stacks.update({s.player: s.stack for s in tstate.seats})
            rng = random.Random(f"{tournament}-colorup-{state.level}")
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            # TDA 24: only players holding odd chips race (one card each here: the engine
            # ranks racers by their best card); the engine names them (none where the house
            # rounds up or forfeits odd chips).
            race_cards = {p: [card_text(deck.pop())] for p in color_up_racers(state, stacks)}
            return [color_up(state, stacks, race_cards=race_cards)]

        def decide_all(state: TournamentState,
                       _v: int) -> tuple[list[Any], dict[str, list[Any]]]:
            (event,) = decide(state)
            assert isinstance(event, ChipsColoredUp)
            commands: dict[str, list[Any]] = {}
            for adjustment in event.adjustments:
                if adjustment.amount == 0:
                    continue
                entrant = state.entrant(adjustment.player)
                assert entrant is not None
                commands.setdefault(entrant.table, []).append(AdjustStack(
                    entrant.seat, adjustment.amount, "color_up", event.rule))
            for carry in event.next_pots:
                # Octobermuck: "All odd green chips in the pot will be replaced with black
                # chips and awarded to the winner of the next hand."
                commands.setdefault(carry.table, []).append(CarryToPot(
                    carry.amount, "color_up_carry", event.rule))
            events: list[Any] = [event]
            # A stack of nothing but odd chips forfeited is out (Octobermuck: 'manage your
            # stack accordingly'), in the same transaction: outside a hand, so nobody's pot
            # took his bounty and the director decides it.
            out = [a for a in event.adjustments if a.stack_before + a.amount == 0]
            if out:
                after = apply_tournament(state, event)
                busts = [Bust(a.player, a.stack_before, a.table, 0) for a in out]
                events.extend(eliminate(after, busts))
                if state.structure.money.bounty:
                    events.extend(BountyReferred(a.player, a.table, 0, (), NO_POT)
                                  for a in out)
                for a in out:
                    entrant = state.entrant(a.player)
                    assert entrant is not None
                    commands.setdefault(a.table, []).append(
                        RemovePlayer(entrant.seat, "eliminated"))
                events.extend(self._prizes_if_over(state, events))
            return events, commands

        return self._atomic(tournament, _ids(event_id), expected_version,
                            _Intent(ChipsColoredUp.TYPE), decide_all, actor)
