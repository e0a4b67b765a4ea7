"""The tournament's write side: registration, the seat and button draws, levels, moves,
eliminations, color-ups and rulings, each through the engine into the log.

Streams: `tournament-<id>` for the tournament, `table-<id>-<table>` for each table. Random
draws happen here (never in the engine): the seed is recorded in the event so that replay can
reproduce the draw.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import FULL_DECK, card_text
from engine.errors import RuleViolation
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
    eliminate,
    end_break,
    record_penalty,
    record_ruling,
    register,
    stakes,
    start_break,
    start_level,
)
from engine.tournament_events import PlayerEliminated
from engine.tournament_state import TournamentState, fold_tournament
from recorder.service import (
    Actor,
    AdjustStack,
    OpenTable,
    PlaceButton,
    Recorded,
    Recorder,
    RemovePlayer,
    SeatPlayer,
    StartHand,
)
from replay.fold import TableFold


def tournament_stream(tournament: str) -> str:
    return f"tournament-{tournament}"


def table_stream(tournament: str, table: str) -> str:
    return f"table-{tournament}-{table}"


@dataclass
class Tournaments:
    """Tournament commands; every append goes through the Recorder."""

    recorder: Recorder

    # --- reading --------------------------------------------------------------------------

    def state(self, tournament: str) -> TournamentState:
        stored = self.recorder.events(tournament_stream(tournament))
        if not stored:
            raise RuleViolation("tournament", f"no tournament {tournament!r}")
        return fold_tournament(e.decode() for e in stored)

    def version(self, tournament: str) -> int:
        head = self.recorder.store.head(tournament_stream(tournament))
        return head.version if head else 0

    def table(self, tournament: str, table: str) -> TableFold:
        return self.recorder.table(table_stream(tournament, table))

    def tournaments(self) -> list[str]:
        return [h.stream_id.removeprefix("tournament-") for h in self.recorder.store.streams()
                if h.kind == "tournament"]

    # --- writing --------------------------------------------------------------------------

    def _record(self, tournament: str, events: Sequence[Any], actor: Actor,
                expected: int | None = None, event_id: uuid.UUID | None = None) -> Recorded:
        version = self.version(tournament) if expected is None else expected
        return self.recorder.record(tournament_stream(tournament), version, events,
                                    event_id or uuid.uuid4(), actor)

    def _table_command(self, tournament: str, table: str, command: Any, actor: Actor) -> Recorded:
        stream = table_stream(tournament, table)
        fold = self.recorder.table(stream)
        return self.recorder.submit(stream, command, fold.version, uuid.uuid4(), actor)

    def create(self, tournament: str, structure: Structure, actor: Actor) -> Recorded:
        if self.version(tournament):
            raise RuleViolation("tournament", f"tournament {tournament!r} already exists")
        return self._record(tournament, [create_tournament(tournament, structure)], actor, 0)

    def register(self, tournament: str, name: str, actor: Actor,
                 player: str = "") -> tuple[str, Recorded]:
        state = self.state(tournament)
        player = player or f"p{len(state.entrants) + 1}"
        event = register(state, player, name)
        recorded = self._record(tournament, [event], actor)
        if state.level > 0:
            self._seat_late(tournament, player, actor)
        return player, recorded

    def _seat_late(self, tournament: str, player: str, actor: Actor) -> None:
        """A late entrant takes the free seat at the shortest table."""
        state = self.state(tournament)
        counts = {t: len(state.seated_at(t)) for t in state.tables}
        table = min(state.tables, key=lambda t: counts[t])
        order = [player]
        event = draw_seats(state, [table], order, seed="late entry")
        self._record(tournament, [event], actor)
        self._seat_at_tables(tournament, event.assignments, actor, waits=True, reason="late entry")

    def draw_seats(self, tournament: str, tables: int, seed: int, actor: Actor) -> Recorded:
        """The random seat draw over `tables` tables (the seed goes into the event), then each
        table opened with its players and the draw for the button."""
        state = self.state(tournament)
        unseated = sorted(e.player for e in state.remaining if not e.table)
        order = list(unseated)
        random.Random(seed).shuffle(order)
        names = [str(n) for n in range(1, tables + 1)]
        event = draw_seats(state, names, order, seed=str(seed))
        recorded = self._record(tournament, [event], actor)
        profile = state.structure.profile
        seats = state.structure.seats_per_table
        for name in names:
            self._table_command(tournament, name, OpenTable(name, seats, profile, tournament),
                                actor)
        self._seat_at_tables(tournament, event.assignments, actor)
        rng = random.Random(seed + 1)
        for name in names:
            self.draw_button(tournament, name, rng, actor)
        return recorded

    def _seat_at_tables(self, tournament: str, assignments: Sequence[Any], actor: Actor,
                        waits: bool = False, reason: str = "draw") -> None:
        state = self.state(tournament)
        for a in assignments:
            entrant = state.entrant(a.player)
            assert entrant is not None
            stack = state.structure.starting_stack - entrant.chips_deducted
            self._table_command(tournament, a.table,
                                SeatPlayer(a.seat, a.player, stack, waits, reason), actor)

    def draw_button(self, tournament: str, table: str, rng: random.Random,
                    actor: Actor) -> None:
        """High card for the button, suits ranking spades, hearts, diamonds, clubs."""
        state = self.state(tournament)
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        cards = {e.seat: card_text(deck.pop()) for e in state.seated_at(table)}
        event = draw_button(state, table, cards)
        self._record(tournament, [event], actor)
        self._table_command(tournament, table, PlaceButton(event.seat, "draw for the button"),
                            actor)

    def start_level(self, tournament: str, actor: Actor, ruling: str = "") -> Recorded:
        return self._record(tournament, [start_level(self.state(tournament), ruling)], actor)

    def start_break(self, tournament: str, actor: Actor, minutes: int = 0) -> Recorded:
        return self._record(tournament, [start_break(self.state(tournament), minutes)], actor)

    def end_break(self, tournament: str, actor: Actor) -> Recorded:
        return self._record(tournament, [end_break(self.state(tournament))], actor)

    def ruling(self, tournament: str, rule: str, text: str, actor: Actor, stream: str = "",
               version: int = 0) -> Recorded:
        event = record_ruling(self.state(tournament), rule, text, actor.name, stream, version)
        return self._record(tournament, [event], actor)

    def penalty(self, tournament: str, player: str, penalty: str, rule: str, text: str,
                actor: Actor, hands: int = 0) -> Recorded:
        """A penalty (warning, missed hands...) with the rule it rests on and who gave it."""
        event = record_penalty(self.state(tournament), player, penalty, rule, text, actor.name,
                               hands)
        return self._record(tournament, [event], actor)

    def start_hand(self, tournament: str, table: str, actor: Actor) -> Recorded:
        """The next hand at `table` at the stakes in force."""
        state = self.state(tournament)
        level = stakes(state)
        final_table = len(state.tables) == 1
        return self._table_command(tournament, table, StartHand(level, 0, final_table), actor)

    def settle_hand(self, tournament: str, table: str, actor: Actor) -> list[PlayerEliminated]:
        """After a hand: players left with no chips are eliminated, with their places."""
        fold = self.table(tournament, table)
        tstate = fold.state
        if tstate is None or tstate.hand_in_progress:
            return []
        out = [s for s in tstate.seats if s.stack == 0]
        if not out:
            return []
        hand = tstate.hand
        started = dict(zip(hand.setup.seats, hand.setup.stacks, strict=True)) if hand else {}
        number = hand.setup.hand_number if hand else 0
        busts = [Bust(s.player, started.get(s.seat, 0), table, number) for s in out]
        events = eliminate(self.state(tournament), busts)
        self._record(tournament, events, actor)
        for seat in out:
            self._table_command(tournament, table, RemovePlayer(seat.seat, "eliminated"), actor)
        if self.state(tournament).finished:
            self._record(tournament, [award_prizes(self.state(tournament))], actor)
        return [e for e in events if isinstance(e, PlayerEliminated)]

    def move(self, tournament: str, player: str, to_table: str, actor: Actor,
             to_seat: int = 0, reason: str = "balance", rule: str = "") -> Recorded:
        """A player moves with his exact stack; he waits if he lands between the blinds and
        the button."""
        state = self.state(tournament)
        entrant = state.entrant(player)
        if entrant is None or not entrant.seated:
            raise RuleViolation("moves", f"{player} is not seated")
        source = self.table(tournament, entrant.table).state
        assert source is not None
        seat = source.seat_of(player)
        if seat is None:
            raise RuleViolation("moves", f"{player} is not at table {entrant.table}")
        to_seat = to_seat or free_seats(state, to_table)[0]
        event = move_player(state, player, to_table, to_seat, seat.stack, reason, rule)
        recorded = self._record(tournament, [event], actor)
        self._table_command(tournament, entrant.table, RemovePlayer(seat.seat, "moved"), actor)
        self._table_command(tournament, to_table,
                            SeatPlayer(to_seat, player, seat.stack, True, "moved"), actor)
        return recorded

    def balance(self, tournament: str, actor: Actor) -> list[Recorded]:
        """Break a table when the others can take its players; else even the tables out."""
        done: list[Recorded] = []
        while True:
            state = self.state(tournament)
            tables = [t for t in state.tables if state.seated_at(t)]
            if any(self.table(tournament, t).state.hand_in_progress  # type: ignore[union-attr]
                   for t in tables):
                return done
            players = sum(len(state.seated_at(t)) for t in tables)
            seats = state.structure.seats_per_table
            if len(tables) > 1 and players <= seats * (len(tables) - 1):
                smallest = min(tables, key=lambda t: (len(state.seated_at(t)), t))
                for entrant in state.seated_at(smallest):
                    state = self.state(tournament)
                    others = [t for t in tables if t != smallest]
                    target = min(others, key=lambda t: (len(state.seated_at(t)), t))
                    done.append(self.move(tournament, entrant.player, target, actor,
                                          reason="table broken"))
                self._record(tournament, [close_table(self.state(tournament), smallest)], actor)
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
            done.append(self.move(tournament, suggestion.player, suggestion.to_table, actor,
                                  suggestion.to_seat, "balance", suggestion.rule))

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

    def color_up(self, tournament: str, actor: Actor) -> Recorded:
        """The scheduled color-up: the engine computes every stack's change; each table
        records it as a stack adjustment."""
        state = self.state(tournament)
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
                if d.colour in state.in_play and (step is None or d.colour not in step.remove)]
        new_unit = min(left) if left else state.chip_unit
        # TDA 24: only players holding odd chips race (one card each here: the engine ranks
        # racers by their best card).
        race_cards = {p: [card_text(deck.pop())]
                      for p, stack in sorted(stacks.items()) if stack % new_unit}
        event = color_up(state, stacks, race_cards=race_cards)
        recorded = self._record(tournament, [event], actor)
        for adjustment in event.adjustments:
            if adjustment.amount == 0:
                continue
            entrant = state.entrant(adjustment.player)
            assert entrant is not None
            self._table_command(
                tournament, entrant.table,
                AdjustStack(entrant.seat, adjustment.amount, f"color-up ({event.method})",
                            event.rule), actor,
            )
        return recorded
