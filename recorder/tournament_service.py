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
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from handlog.engine import tournament_commands as tc
from handlog.engine.breaking import BREAK_RULE, TableBreak, table_to_break
from handlog.engine.cards import FULL_DECK, card_text
from handlog.engine.clock import add_time, pause_clock_now, post_message, resume_clock
from handlog.engine.deals import DealPreview, deal_preview
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandKilled, HandStarted
from handlog.engine.hand_for_hand import check_hand_start
from handlog.engine.limits import check_name
from handlog.engine.money import record_high_hand_fee
from handlog.engine.penalties import KILLED_FOR_PENALTY, hands_owed, serving
from handlog.engine.structure import Structure
from handlog.engine.table import TableState
from handlog.engine.tournament import (
    create_tournament,
    decide_antes,
    end_break,
    record_ruling,
    start_break,
)
from handlog.engine.tournament_commands import TournamentCommand
from handlog.engine.tournament_decide import (
    Decision,
    decide_add_on,
    decide_assign_bounty,
    decide_award_high_hand,
    decide_bag,
    decide_correct_stack,
    decide_count_stacks,
    decide_deal,
    decide_draw_seats,
    decide_end_day,
    decide_hand_for_hand,
    decide_penalty,
    decide_rebuy,
    decide_register,
    decide_settlement,
    decide_start_day,
    decide_start_level,
    hand_start,
    progress,
    stacks_at,
    unseated,
)
from handlog.engine.tournament_events import (
    AddOnPurchased,
    AntesDecided,
    BountyAssigned,
    BreakEnded,
    BreakStarted,
    ChipsColoredUp,
    ClockPaused,
    ClockResumed,
    DayEnded,
    DayStarted,
    DealRecorded,
    HandForHandEnded,
    HandForHandStarted,
    HighHandAwarded,
    HighHandFeeRecorded,
    LevelStarted,
    MessagePosted,
    PenaltyRecorded,
    PlayerEliminated,
    PlayerMoved,
    PlayerRegistered,
    RebuyPurchased,
    RulingRecorded,
    SeatsDrawn,
    StackBagged,
    StackCorrected,
    StacksCounted,
    TimeAdded,
    TournamentCreated,
)
from handlog.engine.tournament_moves import (
    balance_step,
    break_drawers,
    decide_break,
    decide_color_up,
    decide_move,
)
from handlog.engine.tournament_state import TournamentState, apply_tournament, fold_tournament
from handlog.engine.words import cite
from handlog.recorder.service import Actor, Recorded, Recorder, StreamChange
from handlog.replay.fold import TableFold
from handlog.schema.errors import ConcurrencyConflict, DuplicateEventConflict
from handlog.schema.store import StoredEvent


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


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _deck(rng: random.Random) -> list[str]:
    """A deck shuffled by `rng`, as card texts."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return [card_text(c) for c in deck]


class _Tables(Mapping[str, TableState]):
    """A tournament's tables by name as the engine reads them, each folded when first asked
    for (a command reads the few tables it touches, not all of them). `opened`: the table
    streams known to exist (then no other is read)."""

    def __init__(self, tournaments: Tournaments, tournament: str,
                 opened: Set[str] | None = None,
                 pending: Mapping[str, TableState] | None = None) -> None:
        self._tournaments = tournaments
        self._tournament = tournament
        self._opened = opened
        # `pending`: tables as a hand left them, not recorded yet (a hand's end is settled in
        # its own transaction: Recorder.settlement).
        self._read: dict[str, TableState | None] = dict(pending or {})

    def _state(self, table: str) -> TableState | None:
        if table not in self._read:
            stream = table_stream(self._tournament, table)
            known = self._opened is None or stream in self._opened
            self._read[table] = (self._tournaments.table(self._tournament, table).state
                                 if known else None)
        return self._read[table]

    def __getitem__(self, table: str) -> TableState:
        state = self._state(table)
        if state is None:
            raise KeyError(table)
        return state

    def __iter__(self) -> Iterator[str]:
        state = self._tournaments.state(self._tournament)
        return iter([t for t in state.tables if self._state(t) is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)


Follower = Callable[[str, TournamentState | None, TournamentState, Sequence[StoredEvent], int],
                    None]
"""A read model fed by the tournament cache: (tournament, the state before the events or
None when folded from the start, the state after, the events, the version after)."""


class _Nothing(Exception):
    """A command that found nothing to record."""


@dataclass
class Tournaments:
    """Tournament commands; every append goes through the Recorder."""

    recorder: Recorder
    _cache: dict[str, tuple[TournamentState, int]] = field(default_factory=dict)
    _followers: list[Follower] = field(default_factory=list)
    _served: dict[str, tuple[int, dict[str, int]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        # A hand's end at a tournament table is settled with it, whoever ends the hand.
        if self.recorder.settlement is None:
            self.recorder.settlement = self.plan_settlement

    # --- reading --------------------------------------------------------------------------

    def follow(self, follower: Follower) -> None:
        """Feed a read model (the floor's) with each tournament's events as this cache takes
        them in, in order, so that it never folds a tournament stream itself."""
        self._followers.append(follower)

    def _read(self, tournament: str, version: int | None = None) -> tuple[TournamentState, int]:
        """The state and the version it was folded at (decisions append after it), as of
        the stream's head (`version`: the head as the caller knows it, else read from the
        store). The state is kept and extended with the events appended since (a tournament
        stream is never corrected in place), so no command re-folds the whole stream; the
        followers get each extension."""
        stream = tournament_stream(tournament)
        if version is None:
            head = self.recorder.store.head(stream)
            if head is None:
                raise RuleViolation("tournament", f"no tournament {tournament!r}")
            version = head.version
        with self._lock:  # one extension at a time: followers see the events once, in order
            cached = self._cache.get(stream)
            if cached is not None and cached[1] >= version:
                return cached
            if cached is not None:
                before: TournamentState | None = cached[0]
                stored = self.recorder.store.read(stream, cached[1] + 1)
                state = cached[0]
                for item in stored:
                    state = apply_tournament(state, item.decode())
            else:
                before = None
                stored = self.recorder.events(stream)
                state = fold_tournament(e.decode() for e in stored)
            result = (state, stored[-1].version if stored else version)
            if cached is not None and not stored:
                result = cached
            self._cache[stream] = result
            for follower in self._followers:
                follower(tournament, before, result[0], stored, result[1])
        return result

    def read_at(self, tournament: str, version: int) -> TournamentState:
        """The state as of `version` at least (the head as the caller knows it)."""
        return self._read(tournament, version)[0]

    def state(self, tournament: str) -> TournamentState:
        return self._read(tournament)[0]

    def version(self, tournament: str) -> int:
        head = self.recorder.store.head(tournament_stream(tournament))
        return head.version if head else 0

    def table(self, tournament: str, table: str) -> TableFold:
        return self.recorder.table(table_stream(tournament, table))

    def _tables(self, tournament: str, opened: Set[str] | None = None,
                pending: Mapping[str, TableState] | None = None) -> _Tables:
        """The facts a decision reads from the tables: each table's state, by name."""
        return _Tables(self, tournament, opened, pending)

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

    def execute(self, tournament: str, command: TournamentCommand, actor: Actor,
                event_id: uuid.UUID | None = None, expected_version: int | None = None) -> bool:
        """Record one of the floor's tournament commands; True when it was a retry of a
        command already recorded under `event_id` (nothing new written).
        `expected_version`: the tournament stream's version the floor saw (else: now)."""
        if not self.recorder.head_version(tournament_stream(tournament)):
            raise RuleViolation("tournament", f"no tournament {tournament!r}")
        return _EXECUTE[type(command)](self, tournament, command, actor,
                                       {"event_id": event_id,
                                        "expected_version": expected_version})

    def _balance_command(self, tournament: str, actor: Actor, ids: dict[str, Any]) -> bool:
        moves = self.balance(tournament, actor, **ids)
        if not moves:
            raise RuleViolation("balancing", "no move is due (or a hand is in progress at a "
                                "table that would move)")
        return moves[0].retried

    def _settle_command(self, tournament: str, table: str, actor: Actor,
                        ids: dict[str, Any]) -> bool:
        """Settle the hand just ended at `table` (a retry with its id completes it); never a
        retry to the floor (what was missing is recorded)."""
        expected = ids["expected_version"]
        if expected is not None and expected != self.version(tournament):
            raise ConcurrencyConflict(tournament_stream(tournament), expected,
                                      self.version(tournament))
        if self.table(tournament, table).state is None:
            raise RuleViolation("tables", f"no table {table} in {tournament}")
        self.settle_hand(tournament, table, actor, event_id=ids["event_id"])
        return False


    def create(self, tournament: str, structure: Structure, actor: Actor, *,
               event_id: uuid.UUID | None = None) -> Recorded:
        ids = _ids(event_id)
        created = create_tournament(tournament, structure)  # (the id checked first)
        stream = tournament_stream(tournament)
        found = self._found(stream, ids)
        if found is None:
            if self.version(tournament):
                raise RuleViolation("tournament", f"tournament {tournament!r} already exists")
            found = self.recorder.record(stream, 0, [created], ids.root, actor)
        if found.retried:
            _Intent(TournamentCreated.TYPE, {"tournament": tournament}).check(found)
        return found

    def register(self, tournament: str, name: str, actor: Actor, player: str = "", *,
                 high_hand: bool = False, person: str = "", event_id: uuid.UUID | None = None,
                 expected_version: int | None = None) -> tuple[str, Recorded]:
        """An entry of `person` (the room's id; generated when empty); once play has started
        the late entrant is drawn into the free seat at the shortest table at once (one
        transaction). A person whose entry is out re-enters (engine.entries)."""
        if name:
            check_name(name, "name")
        fields = ({"name": name} if name else {}) | ({"player": player} if player else {})
        fields |= {"person": person} if person else {}
        recorded = self._atomic(
            tournament, _ids(event_id), expected_version, _Intent(PlayerRegistered.TYPE, fields),
            lambda state, _v: decide_register(state, player, name, high_hand, person), actor)
        event = recorded.events[0].decode()
        assert isinstance(event, PlayerRegistered)
        return event.player, recorded

    def re_enter(self, tournament: str, player: str, actor: Actor, *,
                 event_id: uuid.UUID | None = None,
                 expected_version: int | None = None) -> tuple[str, Recorded]:
        """A re-entry of the person whose entry `player` is out: his new entry id."""
        state = self.state(tournament)
        out = state.entrant(player)
        if out is None:
            raise RuleViolation("re-entry", f"no entry {player!r}",
                                tuple(e.player for e in state.entrants if not e.alive))
        return self.register(tournament, "", actor, player, person=out.who,
                             event_id=event_id, expected_version=expected_version)

    def rebuy(self, tournament: str, player: str, actor: Actor, *,
              event_id: uuid.UUID | None = None,
              expected_version: int | None = None) -> Recorded:
        """A rebuy, the chips added at his table in the same transaction."""
        return self._atomic(
            tournament, _ids(event_id), expected_version,
            _Intent(RebuyPurchased.TYPE, {"player": player}),
            lambda state, _v: decide_rebuy(state, player, self._tables(tournament)), actor)

    def add_on(self, tournament: str, player: str, actor: Actor, *,
               event_id: uuid.UUID | None = None,
               expected_version: int | None = None) -> Recorded:
        """The add-on, the chips added at his table in the same transaction."""
        return self._atomic(
            tournament, _ids(event_id), expected_version,
            _Intent(AddOnPurchased.TYPE, {"player": player}),
            lambda state, _v: decide_add_on(state, player, self._tables(tournament)), actor)

    def draw_seats(self, tournament: str, tables: int, seed: int | None, actor: Actor, *,
                   event_id: uuid.UUID | None = None,
                   expected_version: int | None = None) -> Recorded:
        """The random seat draw over `tables` tables (the seed goes into the event; a random
        one when None), each table opened with its players and the draw for the button: one
        transaction."""
        names = [str(n) for n in range(1, tables + 1)]
        chosen = secrets.randbelow(2**31) if seed is None else seed

        def decide(state: TournamentState, _v: int) -> Decision:
            drawn_order = unseated(state)
            random.Random(chosen).shuffle(drawn_order)
            rng = random.Random(chosen + 1)
            decks = [_deck(rng) for _ in names]
            # Which tables are open already, from the heads read once (not a query a table).
            opened = {h.stream_id for h in self.recorder.store.streams() if h.kind == "table"}
            return decide_draw_seats(state, names, drawn_order, str(chosen),
                                     self._tables(tournament, opened), decks)

        fields: dict[str, Any] = {"tables": names}
        if seed is not None:
            fields["seed"] = str(seed)
        return self._atomic(tournament, _ids(event_id), expected_version,
                            _Intent(SeatsDrawn.TYPE, fields), decide, actor)

    def start_level(self, tournament: str, actor: Actor, ruling: str = "", *,
                    event_id: uuid.UUID | None = None,
                    expected_version: int | None = None) -> Recorded:
        """The next level, and (where the house removes a player who played no hand for a whole
        level: League) each such player's chips turned in and his seat emptied, in one
        transaction. A player whose table is in a hand is left to the next level's end."""

        def decide(state: TournamentState, _v: int) -> Decision:
            hands = {}
            for table in state.tables:
                fold = self.table(tournament, table)
                if fold.state is not None and not fold.state.hand_in_progress:
                    hands[table] = [e for _, e in fold.effective if isinstance(e, HandStarted)]
            return decide_start_level(state, ruling, self._tables(tournament), hands)

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
        return self._atomic(tournament, _ids(event_id), expected_version, _Intent(
            PenaltyRecorded.TYPE, {"player": player, "penalty": penalty, "rule": cite(rule),
                                   "text": text}),
            lambda state, _v: decide_penalty(state, player, penalty, cite(rule), text,
                                             actor.name, hands, self._tables(tournament)),
            actor)

    def assign_bounty(self, tournament: str, player: str, to: str, actor: Actor, *,
                      event_id: uuid.UUID | None = None,
                      expected_version: int | None = None) -> Recorded:
        """The director settles a bounty the rules left open (a split pot); once none is
        left open at the end, the prizes and bounties are paid (one transaction)."""
        return self._atomic(tournament, _ids(event_id), expected_version,
                            _Intent(BountyAssigned.TYPE, {"player": player, "to": to}),
                            lambda state, _v: decide_assign_bounty(state, player, to,
                                                                   actor.name), actor)

    def award_high_hand(self, tournament: str, actor: Actor, players: Sequence[str] = (), *,
                        event_id: uuid.UUID | None = None,
                        expected_version: int | None = None) -> Recorded:
        """The director confirms the high-hand jackpot: the engine's proposal (the holders of
        the best hand shown; equal hands split), or the players he names."""
        return self._step(tournament, _ids(event_id),
                          lambda state: decide_award_high_hand(state, players).events, actor,
                          expected_version, _Intent(HighHandAwarded.TYPE))

    def high_hand_fee(self, tournament: str, player: str, paid: bool, actor: Actor, *,
                      event_id: uuid.UUID | None = None,
                      expected_version: int | None = None) -> Recorded:
        """The director records a player's high-hand fee after his entry (or takes back a
        tick given in error): the jackpot's pool follows."""
        return self._step(tournament, _ids(event_id),
                          lambda state: [record_high_hand_fee(state, player, paid, actor.name)],
                          actor, expected_version,
                          _Intent(HighHandFeeRecorded.TYPE, {"player": player, "paid": paid}))

    def deal(self, tournament: str, method: str, consents: Mapping[str, str], actor: Actor,
             kept: int = 0, amounts: Mapping[str, int] | None = None, *,
             event_id: uuid.UUID | None = None,
             expected_version: int | None = None) -> Recorded:
        """A deal among the players left at the final table, their stacks read from it; the
        engine computes the amounts (ICM, chip chop...) and checks every consent."""
        return self._step(
            tournament, _ids(event_id),
            lambda state: decide_deal(state, method, consents, actor.name, kept, amounts,
                                      self._tables(tournament)).events, actor,
            expected_version, _Intent(DealRecorded.TYPE, {"method": method, "kept": kept}))

    def deal_preview(self, tournament: str, kept: int = 0) -> DealPreview:
        """Every deal method's amounts for the players left, their stacks read from the final
        table now: shown before anyone consents (refused while a hand is on)."""
        state = self.state(tournament)
        return deal_preview(state, stacks_at(state, self._tables(tournament), "deal"), kept)

    def _timed(self, tournament: str) -> list[tuple[int, Any]]:
        return [(epoch_ms(e.recorded_at), e.decode())
                for e in self.recorder.events(tournament_stream(tournament))]

    def pause_clock(self, tournament: str, actor: Actor, reason: str = "", *,
                    event_id: uuid.UUID | None = None,
                    expected_version: int | None = None) -> Recorded:
        """Stop the level (or break) clock; the seconds left are read off the clock now."""

        return self._step(
            tournament, _ids(event_id),
            lambda state: [pause_clock_now(state, self._timed(tournament),
                                           epoch_ms(self.recorder.clock()), reason)],
            actor, expected_version, _Intent(ClockPaused.TYPE))

    def resume_clock(self, tournament: str, actor: Actor, *,
                     event_id: uuid.UUID | None = None,
                     expected_version: int | None = None) -> Recorded:
        return self._step(tournament, _ids(event_id), lambda s: [resume_clock(s)], actor,
                          expected_version, _Intent(ClockResumed.TYPE))

    def message(self, tournament: str, text: str, actor: Actor, *,
                event_id: uuid.UUID | None = None,
                expected_version: int | None = None) -> Recorded:
        """The director's message to the room, on every clock screen of the tournament."""
        posted = " ".join(text.split())
        return self._step(tournament, _ids(event_id),
                          lambda s: [post_message(s, text, actor.name)], actor,
                          expected_version, _Intent(MessagePosted.TYPE, {"text": posted}))

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
        command = hand_start(state, table, self._tables(tournament),
                             tuple(self.serving(tournament, state)))
        return self._table_step(tournament, table, _ids(None), lambda _fold: command, actor)

    def settle_hand(self, tournament: str, table: str, actor: Actor, *,
                    event_id: uuid.UUID | None = None) -> list[PlayerEliminated]:
        """The director's settle of a table (a hand's end settles itself, recorded with it:
        Recorder.submit): in one transaction, what the engine's `decide_settlement` decides.
        With an event id, a retry returns the eliminations recorded under it."""
        recorded = self._atomic_or_none(
            tournament, _ids(event_id),
            lambda state, _v: decide_settlement(state, table, self._tables(tournament)), actor)
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
        decided = decide_settlement(state, after.table,
                                    self._tables(tournament, pending={after.table: after}))
        if not decided.events:
            return None
        return (StreamChange(tournament_stream(tournament), version, tuple(decided.events)),
                {table_stream(tournament, t): list(c) for t, c in decided.commands.items() if c})

    def count_stacks(self, tournament: str, table: str, occasion: str,
                     counted: Mapping[str, int], actor: Actor, *,
                     event_id: uuid.UUID | None = None,
                     expected_version: int | None = None) -> Recorded:
        """The floor's counted stacks at `table` (at a break or the end of a day); the engine
        sets each beside the stack the log computes (the table's, now)."""
        return self._step(
            tournament, _ids(event_id),
            lambda state: decide_count_stacks(state, table, occasion, counted,
                                              self._tables(tournament)).events,
            actor, expected_version,
            _Intent(StacksCounted.TYPE, {"table": table, "occasion": occasion}))

    def correct_stack(self, tournament: str, player: str, reason: str, actor: Actor,
                      stack: int | None = None, *, event_id: uuid.UUID | None = None,
                      expected_version: int | None = None) -> Recorded:
        """The director settles a count that differs from the log: the player's stack is ruled
        to be `stack` (the counted one when None), the change recorded at his table as a
        stack adjustment (one transaction)."""
        return self._atomic(
            tournament, _ids(event_id), expected_version,
            _Intent(StackCorrected.TYPE, {"player": player}),
            lambda state, _v: decide_correct_stack(state, player, reason, actor.name, stack,
                                                   self._tables(tournament)), actor)

    def bag_stack(self, tournament: str, player: str, chips: int, bag: str, actor: Actor, *,
                  event_id: uuid.UUID | None = None,
                  expected_version: int | None = None) -> Recorded:
        """At the end of a day: `player`'s counted stack (`chips`, the log's) put in bag
        `bag`, confirmed by the director `actor`."""
        return self._atomic(
            tournament, _ids(event_id), expected_version,
            _Intent(StackBagged.TYPE, {"player": player, "bag": bag}),
            lambda state, _v: decide_bag(state, player, chips, bag, actor.name,
                                         self._tables(tournament)), actor)

    def end_day(self, tournament: str, actor: Actor, *, event_id: uuid.UUID | None = None,
                expected_version: int | None = None) -> Recorded:
        """The day (a flight) ends without a winner, its survivors bagged."""
        return self._atomic(
            tournament, _ids(event_id), expected_version, _Intent(DayEnded.TYPE),
            lambda state, _v: decide_end_day(state, self._tables(tournament)), actor)

    def start_day(self, tournament: str, sources: Sequence[str], actor: Actor, *,
                  event_id: uuid.UUID | None = None,
                  expected_version: int | None = None) -> Recorded:
        """A next day takes the survivors of the logs `sources` with their bags (its seats
        are drawn next, by draw_seats)."""
        for source in sources:
            if not self.recorder.head_version(tournament_stream(source)):
                raise RuleViolation("tournament", f"no tournament {source!r}")
        states = [self.state(source) for source in sources]
        return self._atomic(
            tournament, _ids(event_id), expected_version, _Intent(DayStarted.TYPE),
            lambda state, _v: decide_start_day(state, states), actor)

    def progress(self, tournament: str, state: TournamentState) -> dict[str, tuple[int, bool]]:
        """Each table in play: (hands played, a hand in progress)."""
        return progress(state, self._tables(tournament))

    def hand_for_hand(self, tournament: str, on: bool, actor: Actor, *,
                      event_id: uuid.UUID | None = None,
                      expected_version: int | None = None) -> Recorded:
        """Turn hand-for-hand on (from the next hand at every table) or off; turned off, the
        players out in the round so far are placed together (one transaction)."""
        kind = HandForHandStarted.TYPE if on else HandForHandEnded.TYPE
        return self._atomic(
            tournament, _ids(event_id), expected_version, _Intent(kind),
            lambda state, _v: decide_hand_for_hand(state, on, self._tables(tournament)), actor)

    def check_hand_start(self, tournament: str, table: str,
                         state: TournamentState | None = None) -> None:
        """Refuse the next hand at `table` while hand-for-hand waits for another table."""
        state = state or self.state(tournament)
        if state.hand_for_hand is not None:
            check_hand_start(state, table, self.progress(tournament, state))

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
        return self._atomic(
            tournament, ids, expected, intent,
            lambda state, _v: decide_move(state, player, to_table, to_seat, reason, rule,
                                          self._tables(tournament)), actor)

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

    def _break(self, tournament: str, state: TournamentState, version: int, plan: TableBreak,
               seed: int | None, ids: _Ids, actor: Actor) -> Recorded:
        """`plan` decided by the engine with the draw made here from the seed (a random one
        when None), appended in one transaction."""
        chosen = secrets.randbelow(2**31) if seed is None else seed
        rng = random.Random(f"{tournament}-break-{plan.table}-{chosen}")
        players = break_drawers(state, plan)
        rng.shuffle(players)
        deck = _deck(rng)
        events, commands = decide_break(state, plan, self._tables(tournament), players, deck,
                                        str(chosen))
        changes = [StreamChange(tournament_stream(tournament), version, tuple(events))]
        changes.extend(self.recorder.plan_tables(
            {table_stream(tournament, t): c for t, c in commands.items()}))
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

            def deck_for(table: str, state: TournamentState = state) -> list[str]:
                return _deck(random.Random(f"{state.tournament}-{table}-{len(state.entrants)}"))

            step = balance_step(state, self._tables(tournament), deck_for)
            if isinstance(step, TableBreak):
                seed = random.Random(f"{tournament}-{version}").randrange(2**31)
                done.append(self._break(tournament, state, version, step, seed, part(k), actor))
            elif step is not None:
                done.append(self._move(tournament, step.player, step.to_table, actor,
                                       step.to_seat, "balance", step.rule, part(k)))
            else:
                return done
            k += 1

    def color_up(self, tournament: str, actor: Actor, *, event_id: uuid.UUID | None = None,
                 expected_version: int | None = None) -> Recorded:
        """The scheduled color-up: the engine computes every stack's change; each table
        records it as a stack adjustment."""

        def decide(state: TournamentState, _v: int) -> Decision:
            deck = _deck(random.Random(f"{tournament}-colorup-{state.level}"))
            return decide_color_up(state, self._tables(tournament), deck)

        return self._atomic(tournament, _ids(event_id), expected_version,
                            _Intent(ChipsColoredUp.TYPE), decide, actor)


def _clock(t: Tournaments, tournament: str, c: tc.Clock, actor: Actor,
           ids: dict[str, Any]) -> bool:
    if c.action == "pause":
        return t.pause_clock(tournament, actor, c.reason, **ids).retried
    if c.action == "resume":
        return t.resume_clock(tournament, actor, **ids).retried
    return t.add_time(tournament, c.seconds, actor, c.reason, **ids).retried


_EXECUTE: dict[type, Callable[[Tournaments, str, Any, Actor, dict[str, Any]], bool]] = {
    tc.Register: lambda t, tournament, c, actor, ids: t.register(
        tournament, c.name, actor, high_hand=c.high_hand, person=c.person, **ids)[1].retried,
    tc.ReEnter: lambda t, tournament, c, actor, ids: t.re_enter(
        tournament, c.player, actor, **ids)[1].retried,
    tc.Rebuy: lambda t, tournament, c, actor, ids: t.rebuy(
        tournament, c.player, actor, **ids).retried,
    tc.AddOn: lambda t, tournament, c, actor, ids: t.add_on(
        tournament, c.player, actor, **ids).retried,
    tc.DrawSeats: lambda t, tournament, c, actor, ids: t.draw_seats(
        tournament, c.tables, c.seed, actor, **ids).retried,
    tc.StartLevel: lambda t, tournament, c, actor, ids: t.start_level(
        tournament, actor, c.ruling, **ids).retried,
    tc.StartBreak: lambda t, tournament, c, actor, ids: t.start_break(
        tournament, actor, c.minutes, **ids).retried,
    tc.EndBreak: lambda t, tournament, c, actor, ids: t.end_break(
        tournament, actor, **ids).retried,
    tc.DecideAntes: lambda t, tournament, c, actor, ids: t.decide_antes(
        tournament, actor, **ids).retried,
    tc.ColorUp: lambda t, tournament, c, actor, ids: t.color_up(
        tournament, actor, **ids).retried,
    tc.Move: lambda t, tournament, c, actor, ids: t.move(
        tournament, c.player, c.to_table, actor, c.to_seat, c.reason, c.rule, **ids).retried,
    tc.Balance: lambda t, tournament, c, actor, ids: t._balance_command(tournament, actor, ids),
    tc.BreakTable: lambda t, tournament, c, actor, ids: t.break_table(
        tournament, actor, c.seed, **ids).retried,
    tc.AssignBounty: lambda t, tournament, c, actor, ids: t.assign_bounty(
        tournament, c.player, c.to, actor, **ids).retried,
    tc.AwardHighHand: lambda t, tournament, c, actor, ids: t.award_high_hand(
        tournament, actor, c.players, **ids).retried,
    tc.HighHandFee: lambda t, tournament, c, actor, ids: t.high_hand_fee(
        tournament, c.player, c.paid, actor, **ids).retried,
    tc.Deal: lambda t, tournament, c, actor, ids: t.deal(
        tournament, c.method, c.consents, actor, c.kept, c.amounts, **ids).retried,
    tc.Penalty: lambda t, tournament, c, actor, ids: t.penalty(
        tournament, c.player, c.penalty, c.rule, c.reason, actor, c.count, **ids).retried,
    tc.Clock: _clock,
    tc.Message: lambda t, tournament, c, actor, ids: t.message(
        tournament, c.text, actor, **ids).retried,
    tc.Ruling: lambda t, tournament, c, actor, ids: t.ruling(
        tournament, c.rule, c.text, actor, c.stream, c.version, **ids).retried,
    tc.CountStacks: lambda t, tournament, c, actor, ids: t.count_stacks(
        tournament, c.table, c.occasion, c.stacks, actor, **ids).retried,
    tc.CorrectStack: lambda t, tournament, c, actor, ids: t.correct_stack(
        tournament, c.player, c.reason, actor, c.stack, **ids).retried,
    tc.HandForHand: lambda t, tournament, c, actor, ids: t.hand_for_hand(
        tournament, c.on, actor, **ids).retried,
    tc.Settle: lambda t, tournament, c, actor, ids: t._settle_command(
        tournament, c.table, actor, ids),
    tc.BagStack: lambda t, tournament, c, actor, ids: t.bag_stack(
        tournament, c.player, c.chips, c.bag, actor, **ids).retried,
    tc.EndDay: lambda t, tournament, c, actor, ids: t.end_day(tournament, actor, **ids).retried,
    tc.StartDay: lambda t, tournament, c, actor, ids: t.start_day(
        tournament, c.sources, actor, **ids).retried,
}
"""Each tournament command's method: the one dispatch from a command to what records it."""
