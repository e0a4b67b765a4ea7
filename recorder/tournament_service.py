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

import random
import secrets
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from engine.cards import FULL_DECK, card_text
from engine.errors import RuleViolation
from engine.profiles import get_profile
from engine.seating import (
    close_table,
    draw_button,
    draw_seats,
    free_seats,
    move_player,
    suggest_balance,
)
from engine.structure import Structure
from engine.tournament import (
    Bust,
    award_prizes,
    color_up,
    create_tournament,
    decide_antes,
    eliminate,
    end_break,
    record_penalty,
    record_ruling,
    register,
    stakes,
    start_break,
    start_level,
)
from engine.tournament_events import (
    AntesDecided,
    BreakEnded,
    BreakStarted,
    ChipsColoredUp,
    LevelStarted,
    PenaltyRecorded,
    PlayerEliminated,
    PlayerMoved,
    PlayerRegistered,
    RulingRecorded,
    SeatsDrawn,
    TournamentCreated,
)
from engine.tournament_state import TournamentState, fold_tournament
from engine.words import cite, profile_rule
from recorder.limits import check_name
from recorder.service import (
    Actor,
    AdjustStack,
    CarryToPot,
    OpenTable,
    PlaceButton,
    Recorded,
    Recorder,
    RemovePlayer,
    SeatPlayer,
    StartHand,
)
from replay.fold import TableFold
from schema.errors import ConcurrencyConflict, DuplicateEventConflict


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


def _closing(table: str, state: TournamentState) -> list[Any]:
    return [close_table(state, table)]


@dataclass
class Tournaments:
    """Tournament commands; every append goes through the Recorder."""

    recorder: Recorder

    # --- reading --------------------------------------------------------------------------

    def _read(self, tournament: str) -> tuple[TournamentState, int]:
        """The state and the version it was folded at (decisions append after it)."""
        stored = self.recorder.events(tournament_stream(tournament))
        if not stored:
            raise RuleViolation("tournament", f"no tournament {tournament!r}")
        return fold_tournament(e.decode() for e in stored), stored[-1].version

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
                 event_id: uuid.UUID | None = None,
                 expected_version: int | None = None) -> tuple[str, Recorded]:
        """An entry; once play has started the late entrant is drawn into a seat at once."""
        check_name(name, "name")
        ids = _ids(event_id)

        def decide(state: TournamentState) -> list[Any]:
            return [register(state, player or f"p{len(state.entrants) + 1}", name)]

        fields = {"name": name} | ({"player": player} if player else {})
        recorded = self._step(tournament, ids, decide, actor, expected_version,
                              _Intent(PlayerRegistered.TYPE, fields))
        event = recorded.events[0].decode()
        assert isinstance(event, PlayerRegistered)
        if event.late:
            self._seat_late(tournament, event.player, self._rest(ids, recorded).part("late"),
                            actor)
        return event.player, recorded

    def _seat_late(self, tournament: str, player: str, ids: _Ids, actor: Actor) -> None:
        """A late entrant takes the free seat at the shortest table."""

        def decide(state: TournamentState) -> list[Any]:
            counts = {t: len(state.seated_at(t)) for t in state.tables}
            table = min(state.tables, key=lambda t: counts[t])
            return [draw_seats(state, [table], [player], seed="late entry")]

        drawn = self._step(tournament, ids, decide, actor)
        event = drawn.events[0].decode()
        assert isinstance(event, SeatsDrawn)
        self._seat_at_tables(tournament, event.assignments, self._rest(ids, drawn), actor,
                             waits=True, reason="late_entry")

    def draw_seats(self, tournament: str, tables: int, seed: int | None, actor: Actor, *,
                   event_id: uuid.UUID | None = None,
                   expected_version: int | None = None) -> Recorded:
        """The random seat draw over `tables` tables (the seed goes into the event; a random
        one when None), then each table opened with its players and the draw for the button."""
        ids = _ids(event_id)
        names = [str(n) for n in range(1, tables + 1)]
        chosen = secrets.randbelow(2**31) if seed is None else seed

        def decide(state: TournamentState) -> list[Any]:
            order = sorted(e.player for e in state.remaining if not e.table)
            random.Random(chosen).shuffle(order)
            return [draw_seats(state, names, order, seed=str(chosen))]

        fields: dict[str, Any] = {"tables": names}
        if seed is not None:
            fields["seed"] = str(seed)
        recorded = self._step(tournament, ids, decide, actor, expected_version,
                              _Intent(SeatsDrawn.TYPE, fields))
        event = recorded.events[0].decode()
        assert isinstance(event, SeatsDrawn)
        rest = self._rest(ids, recorded)
        structure = self.state(tournament).structure
        for name in event.tables:
            opened = OpenTable(name, structure.seats_per_table, structure.profile, tournament)
            self._table_step(tournament, name, rest.part(f"open:{name}"),
                             _given(opened), actor)
        self._seat_at_tables(tournament, event.assignments, rest, actor)
        rng = random.Random(int(event.seed) + 1)
        for name in event.tables:
            self._draw_button(tournament, name, rng, actor, rest.part(f"button:{name}"))
        return recorded

    def _seat_at_tables(self, tournament: str, assignments: Sequence[Any], ids: _Ids,
                        actor: Actor, waits: bool = False, reason: str = "draw") -> None:
        state = self.state(tournament)
        for a in assignments:
            entrant = state.entrant(a.player)
            assert entrant is not None
            stack = state.structure.starting_stack - entrant.chips_deducted
            seated = SeatPlayer(a.seat, a.player, stack, waits, reason)
            self._table_step(tournament, a.table, ids.part(f"seat:{a.player}"),
                             _given(seated), actor)

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
        return self._step(tournament, _ids(event_id), lambda s: [start_level(s, ruling)],
                          actor, expected_version, _Intent(LevelStarted.TYPE, {"ruling": ruling}))

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
        """A penalty (warning, missed hands...) with the rule it rests on and who gave it."""
        return self._step(
            tournament, _ids(event_id),
            lambda s: [record_penalty(s, player, penalty, rule, text, actor.name, hands)],
            actor, expected_version, _Intent(PenaltyRecorded.TYPE, {
                "player": player, "penalty": penalty, "rule": cite(rule), "text": text,
                "hands": hands}))

    def start_hand(self, tournament: str, table: str, actor: Actor) -> Recorded:
        """The next hand at `table` at the stakes in force."""
        state = self.state(tournament)
        command = StartHand(stakes(state), 0, len(state.tables) == 1)
        return self._table_step(tournament, table, _ids(None), lambda _fold: command, actor)

    def settle_hand(self, tournament: str, table: str, actor: Actor, *,
                    event_id: uuid.UUID | None = None) -> list[PlayerEliminated]:
        """After a hand: players left with no chips are eliminated, with their places (then
        the prizes, when one player is left). With an event id, a retry returns the
        eliminations recorded under it and completes what is missing."""
        ids = _ids(event_id)
        busts = self._busts(tournament, table)
        if not busts and not ids.given:
            return []
        recorded = self._found(tournament_stream(tournament), ids)
        if recorded is None:
            if not busts:
                return []
            recorded = self._step(tournament, replace(ids, given=False),
                                  lambda s: eliminate(s, busts), actor)
        if recorded.retried:
            _Intent(PlayerEliminated.TYPE).check(recorded)
        rest = self._rest(ids, recorded)
        events = [e.decode() for e in recorded.events]
        out = [e for e in events if isinstance(e, PlayerEliminated)]
        for e in out:
            self._table_step(
                tournament, e.table, rest.part(f"remove:{e.player}"),
                partial(_eliminated, e.player), actor)
        final = self.state(tournament)
        if final.finished and final.structure.payouts:
            # A league without a payout table (BSE plays for points) has no prizes to award.
            self._step(tournament, rest.part("prizes"), lambda s: [award_prizes(s)], actor)
        return out

    def _busts(self, tournament: str, table: str) -> list[Bust]:
        tstate = self.table(tournament, table).state
        if tstate is None or tstate.hand_in_progress:
            return []
        out = [s for s in tstate.seats if s.stack == 0]
        hand = tstate.hand
        started = dict(zip(hand.setup.seats, hand.setup.stacks, strict=True)) if hand else {}
        number = hand.setup.hand_number if hand else 0
        return [Bust(s.player, started.get(s.seat, 0), table, number) for s in out]

    def move(self, tournament: str, player: str, to_table: str, actor: Actor,
             to_seat: int = 0, reason: str = "balance", rule: str = "", *,
             event_id: uuid.UUID | None = None, expected_version: int | None = None) -> Recorded:
        """A player moves with his exact stack; he waits if he lands between the blinds and
        the button."""
        fields: dict[str, Any] = {"player": player, "to_table": to_table, "reason": reason,
                                  "rule": cite(rule)}
        if to_seat:
            fields["to_seat"] = to_seat
        return self._move(tournament, player, to_table, actor, to_seat, reason, rule,
                          _ids(event_id), expected_version, _Intent(PlayerMoved.TYPE, fields))

    def _move(self, tournament: str, player: str, to_table: str, actor: Actor, to_seat: int,
              reason: str, rule: str, ids: _Ids, expected: int | None = None,
              intent: _Intent | None = None) -> Recorded:
        def decide(state: TournamentState) -> list[Any]:
            entrant = state.entrant(player)
            if entrant is None or not entrant.seated:
                raise RuleViolation("moves", f"{player} is not seated")
            source = self.table(tournament, entrant.table).state
            assert source is not None
            seat = source.seat_of(player)
            if seat is None:
                raise RuleViolation("moves", f"{player} is not at table {entrant.table}")
            seat_to = to_seat or free_seats(state, to_table)[0]
            return [move_player(state, player, to_table, seat_to, seat.stack, reason, rule)]

        recorded = self._step(tournament, ids, decide, actor, expected, intent)
        self._finish_move(tournament, recorded, ids, actor)
        return recorded

    def _finish_move(self, tournament: str, recorded: Recorded, ids: _Ids,
                     actor: Actor) -> None:
        """The move's table sides: out of the old seat, into the new one (waiting)."""
        event = recorded.events[0].decode()
        assert isinstance(event, PlayerMoved)
        rest = self._rest(ids, recorded)
        self._table_step(tournament, event.from_table, rest.part("leave"),
                         lambda _fold: RemovePlayer(event.from_seat, "moved"), actor)
        self._table_step(
            tournament, event.to_table, rest.part("arrive"),
            lambda _fold: SeatPlayer(event.to_seat, event.player, event.stack, True, "moved"),
            actor)

    def balance(self, tournament: str, actor: Actor, *, event_id: uuid.UUID | None = None,
                expected_version: int | None = None) -> list[Recorded]:
        """Break a table when the others can take its players; else even the tables out.

        Each move (and the closing of a broken table) is a part of this one command. A retry
        completes the parts already begun and returns their moves; it decides no new move (the
        floor view says when the tables still need balancing)."""
        ids = _ids(event_id)
        stream = tournament_stream(tournament)

        def part(k: int) -> _Ids:
            return ids if k == 0 else ids.part(f"balance:{k}")

        if self._found(stream, ids) is not None:
            done: list[Recorded] = []
            k = 0
            while (found := self._found(stream, part(k))) is not None:
                if k == 0:
                    _Intent(PlayerMoved.TYPE).check(found)
                if found.events[0].type == PlayerMoved.TYPE:
                    self._finish_move(tournament, found, part(k), actor)
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
                   for t in tables):
                return done
            players = sum(len(state.seated_at(t)) for t in tables)
            seats = state.structure.seats_per_table
            if len(tables) > 1 and players <= seats * (len(tables) - 1):
                smallest = min(tables, key=lambda t: (len(state.seated_at(t)), t))
                target = ""
                for entrant in state.seated_at(smallest):
                    state = self.state(tournament)
                    others = [t for t in tables if t != smallest]
                    target = min(others, key=lambda t: (len(state.seated_at(t)), t))
                    done.append(self._move(tournament, entrant.player, target, actor, 0,
                                           "table broken", "", part(k)))
                    k += 1
                self._carry_on(tournament, smallest, target, part(k), actor)
                self._step(tournament, part(k), partial(_closing, smallest), actor)
                k += 1
                continue
            due = {t: self._due_big_blind(tournament, t) for t in tables}
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

    def _carry_on(self, tournament: str, closing: str, target: str, ids: _Ids,
                  actor: Actor) -> None:
        """Odd chips still waiting for the next pot of a table that breaks go to the next pot
        of the table its last player went to (Octobermuck: 'forfeited to the next pot')."""
        state = self.table(tournament, closing).state
        carry = state.carry if state is not None else 0
        if not carry or not target:
            return
        rule = profile_rule(self.state(tournament).structure.profile, "color_up")
        self._table_step(tournament, closing, ids.part("carry-out"), _given(CarryToPot(
            -carry, "handed_on", rule, target)), actor)
        self._table_step(tournament, target, ids.part("carry-in"), _given(CarryToPot(
            carry, "handed_on", rule, closing)), actor)

    def _high_cards(self, state: TournamentState, table: str) -> dict[str, str]:
        rng = random.Random(f"{state.tournament}-{table}-{len(state.entrants)}")
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        return {e.player: card_text(deck.pop()) for e in state.seated_at(table)}

    def _due_big_blind(self, tournament: str, table: str) -> str:
        fold = self.table(tournament, table)
        tstate = fold.state
        if tstate is None or not tstate.seats:
            return ""
        last = tstate.big_blind_seat or tstate.button
        order = sorted(tstate.seats, key=lambda s: ((s.seat - last - 1) % tstate.seat_count))
        return order[0].player

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
            step = state.structure.color_up_after(state.level)
            left = [d.value for d in state.structure.denominations
                    if d.colour in state.in_play
                    and (step is None or d.colour not in step.remove)]
            new_unit = min(left) if left else state.chip_unit
            # TDA 24: only players holding odd chips race (one card each here: the engine
            # ranks racers by their best card). Round-ups (BSE) and Octobermuck's forfeits
            # deal no cards.
            race_cards = {p: [card_text(deck.pop())]
                          for p, stack in sorted(stacks.items()) if stack % new_unit}
            if get_profile(state.structure.profile).color_up != "race":
                race_cards = {}
            return [color_up(state, stacks, race_cards=race_cards)]

        ids = _ids(event_id)
        recorded = self._step(tournament, ids, decide, actor, expected_version,
                              _Intent(ChipsColoredUp.TYPE))
        event = recorded.events[0].decode()
        assert isinstance(event, ChipsColoredUp)
        rest = self._rest(ids, recorded)
        state = self.state(tournament)
        for adjustment in event.adjustments:
            if adjustment.amount == 0:
                continue
            entrant = state.entrant(adjustment.player)
            assert entrant is not None
            adjusted = AdjustStack(entrant.seat, adjustment.amount, "color_up", event.rule)
            self._table_step(tournament, entrant.table, rest.part(f"adjust:{entrant.player}"),
                             _given(adjusted), actor)
        for carry in event.next_pots:
            # Octobermuck: "All odd green chips in the pot will be replaced with black chips
            # and awarded to the winner of the next hand."
            carried = CarryToPot(carry.amount, "color_up_carry", event.rule)
            self._table_step(tournament, carry.table, rest.part(f"carry:{carry.table}"),
                             _given(carried), actor)
        return recorded
