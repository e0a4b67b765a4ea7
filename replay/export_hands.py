"""The recorded hands, as the replay sees them: the common ground of reports and exports.

Every hand is rebuilt from the log's effective events (voided ones dropped, amended ones
replaced: replay/fold.py) through the engine's own `apply`, one event at a time, so each step
knows the chips it moved, what it returned uncalled and whether it closed the betting. Nothing
here is taken from anything but the log: names come from the tournament's registrations, pots
and shares from the recorded awards (which replay checks against the engine).

The format writers (replay/export_phh.py, export_pokerstars.py, export_ohh.py) and the audit
report (replay/report.py) all read `RecordedHand`s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from handlog.engine import words
from handlog.engine.cards import card_text
from handlog.engine.errors import RuleViolation
from handlog.engine.events import (
    HAND_EVENT_TYPES,
    BetMade,
    BoardExposedEarly,
    CardExposed,
    CardsMucked,
    CardsShown,
    ChipsPosted,
    HandKilled,
    HandStarted,
    HandVoided,
    HoleCardsDealt,
    MisdealDeclared,
    PlayerCalled,
    PlayerChecked,
    PlayerFolded,
    PlayerMarkedAbsent,
    PlayerReturned,
    PotAwarded,
    RaiseMade,
)
from handlog.engine.hand import BETTING, COMPLETE, MISDEALT, VOID, HandState, apply, initial_state
from handlog.engine.table_events import HandImported, TableOpened
from handlog.engine.tournament_state import TournamentState, fold_tournament
from handlog.replay.fold import TableFold, fold_table
from handlog.schema.store import EventStore, StoredEvent, StreamHead

HandStatus = Literal["complete", "misdealt", "voided", "in progress"]
_STREET_OF_BOARD = {0: 0, 3: 1, 4: 2, 5: 3}


@dataclass(frozen=True, slots=True)
class Step:
    """One effective event of a hand and what it did to the chips.

    `added` is what the event put in front of its player (posts, calls, bets and raises: the
    difference to what he had in this street); `street_total` his street total after it;
    `facing` the bet he faced; `returned` the uncalled chips handed back when this event closed
    a street ((position, chips), usually none). `to_act` is who was to act before the event.
    `all_in_runout`: this event closed the betting with two or more hands still live and board
    cards to come (the showdown then starts before the run-out, as PHH readers expect).
    """

    version: int
    event: Any
    board: int
    to_act: int | None = None
    added: int = 0
    street_total: int = 0
    facing: int = 0
    returned: tuple[tuple[int, int], ...] = ()
    all_in_runout: bool = False
    in_betting: bool = False

    @property
    def player(self) -> int | None:
        player = getattr(self.event, "player", None)
        return player if isinstance(player, int) else None

    @property
    def street(self) -> int:
        """0 preflop, 1 flop, 2 turn, 3 river: the street the event happened on."""
        return _STREET_OF_BOARD.get(self.board, 0)


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """Whose view an export writes: the table's (cards shown) by default, one player's
    (`hero`: his own cards too) or every recorded card (`all_cards`: the director's or an
    auditor's copy, issue 11)."""

    hero: str = ""
    all_cards: bool = False

    @property
    def cards(self) -> str:
        """What the file holds, as the files say it: `all`, `hero` or `shown`."""
        return "all" if self.all_cards else ("hero" if self.hero else "shown")


# The events `RecordedHand.notes` words (a pot award only when a ruling gave it).
_NOTED = (MisdealDeclared, HandVoided, HandKilled, CardExposed, BoardExposedEarly,
          PlayerMarkedAbsent, PlayerReturned, PotAwarded)
_BETTING_ACTIONS = (PlayerFolded, PlayerChecked, PlayerCalled, BetMade, RaiseMade, HandKilled)


@dataclass(frozen=True)
class RecordedHand:
    """One hand as it counts after corrections, replayed through the engine."""

    stream: str
    table: str
    tournament: str
    seat_count: int
    started: HandStarted
    first_version: int
    last_version: int
    position: int  # the store's global position of hand_started (a unique hand id)
    recorded_at: datetime | None
    steps: tuple[Step, ...]
    final: HandState
    names: tuple[str, ...]  # display name of each position
    problem: str = ""  # set when an event could not be applied
    level_small_blind: int = 0  # the structure's small blind at this level (0: unknown)
    event_id: str = ""  # the client-made UUID of hand_started: unique across logs
    # An imported hand's number in the PokerStars or OHH file it came from ("": none).
    imported_number: str = ""
    # An imported hand's coordinates in the log that recorded it, as its file gave them
    # (hand_imported's stream and versions: first, last, then its notes'; "": none given).
    imported_stream: str = ""
    imported_versions: tuple[int, ...] = ()

    # --- what the hand is --------------------------------------------------------------
    @property
    def number(self) -> int:
        return self.started.hand_number

    def steps_in_turn(self) -> tuple[Step, ...]:
        """The steps with each hand killed out of turn moved to where the action reached its
        player (a fold in turn there, `to_act` his), as every hand-history reader replays it.

        The live table skipped the dead hand; a reader that does not know of the ruling asks
        him to act when the action passes his seat, so his fold is written just before the
        first action after his seat in the betting order (or before the street's end). The
        chips are the same either way; `out_of_turn_kills` gives the versions moved."""
        moving = self.out_of_turn_kills()
        if not moving:
            return self.steps
        size = self.size
        out: list[Step] = []
        pending: list[Step] = []
        cursor = 0

        def flush(before: int | None) -> None:
            # The dead hands the action passes between `cursor` and `before` (all: None).
            reach = size if before is None else ((before - cursor) % size or size)
            due = sorted((s for s in pending if 0 < ((s.player or 0) - cursor) % size < reach),
                         key=lambda s: ((s.player or 0) - cursor) % size)
            for step in due:
                pending.remove(step)
                out.append(replace(step, to_act=step.player))

        for step in self.steps:
            event = step.event
            if step.version in moving:
                if not pending and step.to_act is not None:
                    cursor = (step.to_act - 1) % size  # as if the one before him had acted
                pending.append(step)
                continue
            if pending:
                if step.in_betting and isinstance(event, _BETTING_ACTIONS) \
                        and step.player is not None:
                    flush(step.player)
                    cursor = step.player
                else:
                    flush(None)
            out.append(step)
        flush(None)
        return tuple(out)

    def out_of_turn_kills(self) -> frozenset[int]:
        """The versions of the hands killed out of turn in the betting (see steps_in_turn);
        not a hand killed at the deal because its player was away (TDA 30)."""
        versions: set[int] = set()
        dealing = True  # only posts and kills at the deal so far
        for step in self.steps:
            event = step.event
            at_deal = dealing and isinstance(event, HandKilled) and \
                event.player in self.started.absent
            dealing = at_deal or isinstance(event, ChipsPosted)
            if isinstance(event, HandKilled) and not at_deal and step.in_betting \
                    and step.to_act != event.player:
                versions.add(step.version)
        return frozenset(versions)

    def coordinates(self) -> tuple[str, int, int]:
        """Where the hand is: its stream and first and last versions; of a hand imported from
        handlog's own export, where the log that recorded it had it (its file says so)."""
        if self.imported_stream and len(self.imported_versions) >= 2:
            return self.imported_stream, self.imported_versions[0], self.imported_versions[1]
        return self.stream, self.first_version, self.last_version

    @property
    def size(self) -> int:
        return len(self.started.stacks)

    @property
    def status(self) -> HandStatus:
        phase = self.final.phase
        if phase == COMPLETE:
            return "complete"
        if phase == MISDEALT:
            return "misdealt"
        if phase == VOID:
            return "voided"
        return "in progress"

    @property
    def exportable(self) -> bool:
        return self.status == "complete" and not self.problem

    @property
    def seats(self) -> tuple[int, ...]:
        return self.started.seats

    @property
    def players(self) -> tuple[str, ...]:
        return self.started.players

    @property
    def small_blind(self) -> int:
        """The level's small blind (what the small blind seat owes, whether posted or dead:
        a dead small blind is taken from the tournament's structure)."""
        big = max(self.started.blinds, default=0)
        smaller = [b for b in self.started.blinds if 0 < b < big]
        return min(smaller) if smaller else self.level_small_blind

    @property
    def big_blind(self) -> int:
        return self.started.min_bet

    @property
    def ante(self) -> int:
        return max(self.started.antes, default=0)

    @property
    def ante_kind(self) -> str:
        paying = sum(1 for a in self.started.antes if a)
        if not paying:
            return "none"
        return "big_blind" if paying == 1 else "uniform"

    @property
    def board(self) -> tuple[str, ...]:
        return tuple(card_text(c) for c in self.final.board)

    @property
    def awards(self) -> tuple[PotAwarded, ...]:
        return self.final.awards

    @property
    def award_versions(self) -> tuple[int, ...]:
        return tuple(s.version for s in self.steps if isinstance(s.event, PotAwarded))

    @property
    def stacks_start(self) -> tuple[int, ...]:
        return self.started.stacks

    @property
    def stacks_end(self) -> tuple[int, ...]:
        return self.final.stacks

    def role(self, position: int) -> str:
        """"button", "small blind", "big blind", "button, small blind" (heads-up) or ""."""
        seat = self.seats[position]
        roles = []
        if seat == self.started.button_seat:
            roles.append("button")
        if seat == self.started.small_blind_seat:
            roles.append("small blind")
        if seat == self.started.big_blind_seat:
            roles.append("big blind")
        return ", ".join(roles)

    # --- chips ---------------------------------------------------------------------------
    def put_in(self) -> tuple[int, ...]:
        """Chips each position put into the pots, counted from the steps: posts, calls, bets
        and raises, less what came back uncalled (a voided or misdealt hand: nothing)."""
        if self.status in ("misdealt", "voided"):
            return (0,) * self.size
        totals = [0] * self.size
        for step in self.steps:
            player = step.player
            if player is not None and step.added:
                totals[player] += step.added
            for who, chips in step.returned:
                totals[who] -= chips
        return tuple(totals)

    def returned(self) -> tuple[int, ...]:
        """Uncalled chips handed back to each position."""
        totals = [0] * self.size
        for step in self.steps:
            for who, chips in step.returned:
                totals[who] += chips
        return tuple(totals)

    def won(self) -> tuple[int, ...]:
        totals = [0] * self.size
        for award in self.awards:
            for winner, share in zip(award.winners, award.shares, strict=False):
                totals[winner] += share
        return tuple(totals)

    def pot_total(self) -> int:
        return sum(a.amount for a in self.awards)

    # --- cards and actions -----------------------------------------------------------------
    def hole_cards(self) -> tuple[tuple[str, ...], ...]:
        """Each position's hole cards as far as the log knows them (dealt face up, or shown)."""
        known: list[tuple[str, ...]] = [()] * self.size
        for step in self.steps:
            event = step.event
            if isinstance(event, HoleCardsDealt) and event.cards:
                known[event.player] = tuple(event.cards)
            elif isinstance(event, CardsShown):
                known[event.player] = tuple(event.cards)
        return tuple(known)

    def seen_hole_cards(self, options: ExportOptions | None = None
                        ) -> tuple[tuple[str, ...], ...]:
        """The hole cards an export may hold: by default only what the table saw (cards
        shown); the hero's own cards with `options.hero`; every recorded card with
        `options.all_cards` (the director's or an auditor's copy)."""
        options = options or ExportOptions()
        known = self.hole_cards()
        if options.all_cards:
            return known
        hero = self.hero_position(options.hero)
        shown = self.shown()
        return tuple(known[i] if i == hero else shown.get(i, ()) for i in range(self.size))

    def hero_position(self, hero: str) -> int | None:
        """The position of the player named `hero` (his id or his name), if he is in."""
        if not hero:
            return None
        for i, (player, name) in enumerate(zip(self.players, self.names, strict=True)):
            if hero in (player, name):
                return i
        return None

    def shown(self) -> dict[int, tuple[str, ...]]:
        return {s.event.player: tuple(s.event.cards) for s in self.steps
                if isinstance(s.event, CardsShown)}

    def mucked(self) -> set[int]:
        return {s.event.player for s in self.steps if isinstance(s.event, CardsMucked)}

    def folded_on(self) -> dict[int, int]:
        """Street (0-3) on which each position folded (or had his hand killed)."""
        out: dict[int, int] = {}
        for step in self.steps:
            if isinstance(step.event, (PlayerFolded, HandKilled)) and step.in_betting:
                out.setdefault(step.event.player, step.street)
        return out

    def voluntary(self) -> set[int]:
        """Positions that put chips in by choice or by a blind (not only an ante)."""
        out: set[int] = set()
        for step in self.steps:
            event = step.event
            if isinstance(event, (PlayerCalled, BetMade, RaiseMade)):
                out.add(event.player)
            elif isinstance(event, ChipsPosted) and event.kind != "ante":
                out.add(event.player)
        return out

    def notes(self) -> list[str]:
        """The irregularities a standard format has no action for, in words."""
        out: list[str] = []
        # (an imported hand's notes keep the versions its file gave them, in their order)
        given = iter(self.imported_versions[2:])
        for step in self.steps:
            event = step.event
            label = f"v{step.version}"
            if isinstance(event, _NOTED) and not (isinstance(event, PotAwarded)
                                                  and not event.ruling):
                label = f"v{next(given, step.version)}"
            if isinstance(event, MisdealDeclared):
                said = words.render(event)
                out.append(f"{label} misdeal: {said['cause']} ({said['rules']})")
            elif isinstance(event, HandVoided):
                out.append(f"{label} hand voided: {event.reason} "
                           f"({words.render_rules(event.rules)})")
            elif isinstance(event, HandKilled):
                said = words.render(event)
                out.append(f"{label} {self.names[event.player]}'s hand killed: {said['cause']} "
                           f"({said['rules']})")
            elif isinstance(event, CardExposed):
                said = words.render(event)
                out.append(f"{label} {self.names[event.player]}'s {event.card} exposed: "
                           f"{said['consequence']} ({said['rules']})")
            elif isinstance(event, BoardExposedEarly):
                said = words.render(event)
                out.append(f"{label} board card(s) {' '.join(event.cards)} exposed early: "
                           f"{said['procedure']} ({said['rules']})")
            elif isinstance(event, PlayerMarkedAbsent):
                out.append(f"{label} {self.names[event.player]} away from the table")
            elif isinstance(event, PlayerReturned):
                out.append(f"{label} {self.names[event.player]} back at the table")
            elif isinstance(event, PotAwarded) and event.ruling:
                out.append(f"{label} pot {event.pot} awarded by a ruling: {event.ruling}")
        if self.problem:
            out.append(self.problem)
        return out

    def short_forced_bet(self) -> bool:
        """Some blind or ante was posted all-in (for less than it owes, or with nothing left:
        the order of the posts then decides how much goes where, and rules differ on it)."""
        return any(isinstance(s.event, ChipsPosted) and s.event.all_in for s in self.steps)

    def label(self) -> str:
        stream, first, last = self.coordinates()
        return f"{stream} hand {self.number} (v{first}-v{last})"


@dataclass
class TableHands:
    """One table's stream and its hands."""

    stream: str
    table: str
    tournament: str
    seat_count: int
    profile: str
    fold: TableFold
    hands: list[RecordedHand] = field(default_factory=list)
    # The hand_imported mark of each imported hand, by its hand_started version.
    imported: dict[int, HandImported] = field(default_factory=dict)


def played_at(text: str) -> datetime | None:
    """The time an imported hand (or tournament) was played (`2026-12-06T22:01:14Z`), or
    None."""
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None
    except ValueError:
        return None


@dataclass
class TournamentRecord:
    """A tournament's stream, folded (`state` is None when the stream cannot be folded)."""

    stream: str
    tournament: str
    stored: list[StoredEvent]
    state: TournamentState | None
    problem: str = ""

    def names(self) -> dict[str, str]:
        if self.state is None:
            return {}
        return {e.player: e.name for e in self.state.entrants}

    def small_blinds(self) -> dict[int, int]:
        if self.state is None:
            return {}
        return {level.number: level.small_blind for level in self.state.structure.levels}


@dataclass
class LogSnapshot:
    """One consistent read of the whole log, grouped by stream."""

    heads: list[StreamHead]
    events: list[StoredEvent]
    by_stream: dict[str, list[StoredEvent]]

    @classmethod
    def read(cls, store: EventStore) -> LogSnapshot:
        heads, events = store.snapshot()
        by_stream: dict[str, list[StoredEvent]] = {}
        for event in events:
            by_stream.setdefault(event.stream_id, []).append(event)
        return cls(list(heads), list(events), by_stream)

    def snapshot(self) -> tuple[list[StreamHead], list[StoredEvent]]:
        """The same answer as EventStore.snapshot (so that replay can read this snapshot)."""
        return self.heads, self.events

    def kind(self, stream: str) -> str:
        return next((h.kind for h in self.heads if h.stream_id == stream), "")

    def streams_of_kind(self, kind: str) -> list[str]:
        return sorted(h.stream_id for h in self.heads if h.kind == kind)


def tournament_id(value: str) -> str:
    """`demo-3` from `demo-3` or `tournament-demo-3`."""
    return value.removeprefix("tournament-")


def read_tournaments(log: LogSnapshot, tournament: str | None = None) -> list[TournamentRecord]:
    """Every tournament stream (or the one asked for), folded."""
    wanted = tournament_id(tournament) if tournament else None
    records = []
    for stream in log.streams_of_kind("tournament"):
        stored = log.by_stream.get(stream, [])
        name = tournament_id(stream)
        try:
            state: TournamentState | None = fold_tournament(e.decode() for e in stored)
        except (RuleViolation, TypeError, KeyError, ValueError) as error:
            state, problem = None, f"the tournament stream cannot be folded: {error}"
        else:
            problem = ""
            name = state.tournament if state is not None else name
        if wanted and name != wanted:
            continue
        records.append(TournamentRecord(stream, name, stored, state, problem))
    return records


def unique_names(players: Iterable[str], names: Mapping[str, str]) -> dict[str, str]:
    """A display name per player id: the registered name, made unique with the id if two
    players share one (hand-history readers key players by name)."""
    ids = list(dict.fromkeys(players))
    shown = {p: (names.get(p) or p) for p in ids}
    counts: dict[str, int] = {}
    for name in shown.values():
        counts[name] = counts.get(name, 0) + 1
    return {p: (n if counts[n] == 1 or n == p else f"{n} ({p})") for p, n in shown.items()}


def table_hands(fold: TableFold, stored: Sequence[StoredEvent],
                names: Mapping[str, str] | None = None,
                small_blinds: Mapping[int, int] | None = None) -> TableHands:
    """Every hand of one table's stream, replayed step by step through the engine.

    `names` gives players' display names by id, `small_blinds` the small blind of each level
    (for hands whose small blind is dead); a level it does not give (a table without a
    tournament: an imported one) takes the small blind posted at that level at this table."""
    opened = next((e for _v, e in fold.effective if isinstance(e, TableOpened)), None)
    state = fold.state
    table = state.table if state else (opened.table if opened else fold.stream)
    tournament = state.tournament if state else (opened.tournament if opened else "")
    seat_count = state.seat_count if state else (opened.seat_count if opened else 0)
    profile = state.profile if state else (opened.profile if opened else "")
    result = TableHands(fold.stream, table, tournament, seat_count, profile, fold)
    meta = {e.version: e for e in stored}
    every_player = [p for _v, e in fold.effective if isinstance(e, HandStarted)
                    for p in e.players]
    posted: dict[int, int] = {}
    for _v, e in fold.effective:
        if isinstance(e, HandStarted) and e.level and e.level not in posted:
            big = max(e.blinds, default=0)
            smaller = [b for b in e.blinds if 0 < b < big]
            if smaller:
                posted[e.level] = min(smaller)
    small_blinds = {**posted, **(small_blinds or {})}
    display = unique_names(every_player, names or {})
    current: list[tuple[int, Any]] = []
    imported: HandImported | None = None  # the mark of the next hand, when it is imported
    for version, event in fold.effective:
        if isinstance(event, HandImported):
            imported = event
        elif isinstance(event, HandStarted):
            if current:
                result.hands.append(_replay_hand(result, current, meta, display,
                                                 small_blinds or {}))
            current = [(version, event)]
            if imported is not None:
                result.imported[version], imported = imported, None
        elif current and isinstance(event, HAND_EVENT_TYPES):
            current.append((version, event))
    if current:
        result.hands.append(_replay_hand(result, current, meta, display, small_blinds or {}))
    return result


def _replay_hand(table: TableHands, events: list[tuple[int, Any]],
                 meta: Mapping[int, StoredEvent], display: Mapping[str, str],
                 small_blinds: Mapping[int, int]) -> RecordedHand:
    first_version, started = events[0]
    state = apply(initial_state(started), started)
    steps: list[Step] = []
    problem = ""
    last_version = first_version
    for version, event in events[1:]:
        if state.is_complete:
            break
        before = state
        try:
            state = apply(state, event)
        except (RuleViolation, KeyError, IndexError, ValueError, TypeError) as error:
            problem = f"v{version} {getattr(event, 'TYPE', '?')} cannot be applied: {error}"
            break
        last_version = version
        steps.append(_step(version, event, before, state))
    stored = meta.get(first_version)
    mark = table.imported.get(first_version)
    return RecordedHand(
        stream=table.stream, table=table.table, tournament=table.tournament,
        seat_count=table.seat_count, started=started, first_version=first_version,
        last_version=last_version, position=stored.position if stored else 0,
        recorded_at=played_at(mark.played_at if mark else "") or (
            stored.recorded_at if stored else None), steps=tuple(steps), final=state,
        names=tuple(display.get(p, p) for p in started.players), problem=problem,
        level_small_blind=small_blinds.get(started.level, 0),
        event_id=str(stored.event_id) if stored else "",
        imported_number=mark.hand_id if mark and mark.format in ("pokerstars", "ohh")
        and mark.hand_id.isdigit() else "",
        imported_stream=mark.stream if mark else "",
        imported_versions=mark.versions if mark else (),
    )


def _step(version: int, event: Any, before: HandState, after: HandState) -> Step:
    added = 0
    player = getattr(event, "player", None)
    total = 0
    if isinstance(event, (ChipsPosted, PlayerCalled)):
        added = event.amount
    elif isinstance(event, (BetMade, RaiseMade)):
        added = event.to - before.bets[event.player]
    if isinstance(player, int) and 0 <= player < len(after.bets):
        total = before.bets[player] + added
    returned = tuple(
        (k, a - b) for k, (a, b) in enumerate(zip(after.returned, before.returned, strict=True))
        if a > b
    )
    live = sum(1 for f in after.folded if not f)
    runout = (after.betting_closed and not before.betting_closed and live > 1
              and len(after.board) < 5)
    return Step(
        version=version, event=event, board=len(before.board), to_act=before.to_act,
        added=added, street_total=total, facing=before.current_bet, returned=returned,
        all_in_runout=runout, in_betting=before.phase == BETTING,
    )


@dataclass
class HandsExport:
    """What the exports read: the tables asked for, their hands, and the tournaments."""

    log: LogSnapshot
    tables: list[TableHands]
    tournaments: dict[str, TournamentRecord]
    load: Callable[[TableHands], TableHands] | None = None
    """Given (stream_hands): the tables are placeholders without hands, each read and replayed
    by this when its hands are wanted (`each_hand`)."""

    def hands(self) -> list[RecordedHand]:
        return list(self.each_hand())

    def each_hand(self) -> Iterator[RecordedHand]:
        """Every hand, table after table; a streamed export holds one table's at a time."""
        for table in self.tables:
            yield from (self.load(table) if self.load is not None else table).hands


def load_hands(store: EventStore, table: str | None = None,
               tournament: str | None = None) -> HandsExport:
    """The hands of every table stream (or of `table`, a stream id, or of `tournament`)."""
    log = LogSnapshot.read(store)
    return hands_of_log(log, table, tournament)


def stream_hands(store: EventStore, table: str | None = None,
                 tournament: str | None = None) -> HandsExport:
    """`load_hands` in memory that does not grow with the log: the small streams (the
    tournaments) are read whole, each table stream only when its hands are wanted (one table
    at a time, `HandsExport.each_hand`). The tables' events are read up to their heads as they
    stand now (a table recorded meanwhile is exported as far as it was)."""
    heads = store.streams()
    small: dict[str, list[StoredEvent]] = {}
    with store.reader() as log_reader:
        others = [h.stream_id for h in heads if h.kind != "table" and h.version > 0]
        for event in log_reader.events(streams=others):
            small.setdefault(event.stream_id, []).append(event)
    wanted = tournament_id(tournament) if tournament else None
    placeholders: list[TableHands] = []
    versions: dict[str, int] = {}
    for head in sorted(heads, key=lambda h: h.stream_id):
        if head.kind != "table" or (table and head.stream_id != table):
            continue
        first = store.read(head.stream_id, 1, 1)
        small[head.stream_id] = first  # the first event only (the PokerStars export's id)
        opened = first[0].decode() if first else None
        if not isinstance(opened, TableOpened):
            opened = None
        owner = opened.tournament if opened else ""
        if wanted and owner != wanted:
            continue
        versions[head.stream_id] = head.version
        placeholders.append(TableHands(
            head.stream_id, opened.table if opened else head.stream_id, owner,
            opened.seat_count if opened else 0, opened.profile if opened else "",
            TableFold(head.stream_id, head.version, None, (), (), frozenset())))
    log = LogSnapshot(list(heads), [e for s in sorted(small) for e in small[s]], small)
    tournaments = {t.tournament: t for t in read_tournaments(log)}

    def load(placeholder: TableHands) -> TableHands:
        stream = placeholder.stream
        stored = store.read(stream, 1, versions[stream])
        fold = fold_table(stream, stored, verify=False)
        record = tournaments.get(placeholder.tournament)
        return table_hands(fold, stored, record.names() if record else {},
                           record.small_blinds() if record else {})

    return HandsExport(log, placeholders, tournaments, load)


def hands_of_log(log: LogSnapshot, table: str | None = None,
                 tournament: str | None = None,
                 folds: Mapping[str, TableFold] | None = None) -> HandsExport:
    tournaments = {t.tournament: t for t in read_tournaments(log)}
    wanted = tournament_id(tournament) if tournament else None
    tables: list[TableHands] = []
    for stream in log.streams_of_kind("table"):
        if table and stream != table:
            continue
        stored = log.by_stream.get(stream, [])
        fold = folds[stream] if folds and stream in folds else fold_table(stream, stored,
                                                                            verify=False)
        owner = fold.state.tournament if fold.state else ""
        if wanted and owner != wanted:
            continue
        record = tournaments.get(owner)
        tables.append(table_hands(fold, stored, record.names() if record else {},
                                  record.small_blinds() if record else {}))
    return HandsExport(log, tables, tournaments)


def odd_chip_split(hand: RecordedHand) -> bool:
    """Some pot was split with chips that did not divide evenly."""
    return any(len(a.winners) > 1 and len(set(a.shares)) > 1 for a in hand.awards)
