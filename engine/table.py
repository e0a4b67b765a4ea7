"""One table across hands: seats, stacks carried over, the button and blinds (dead button).

The table's stream holds table events (seating, leaving, the button draw, adjustments) and the
events of its hands. `apply_table` folds both; `plan_hand` says who posts what in the next hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandEvent, HandStarted
from handlog.engine.hand import (
    COMPLETE,
    HandSetup,
    HandState,
    _started,
    apply,
)
from handlog.engine.profiles import (
    PROFILES,
    get_profile,
    parameters_json,
    profile_ref_problems,
    remember_rules,
)
from handlog.engine.structure import AnteKind
from handlog.engine.table_events import (
    ButtonPlaced,
    HandImported,
    PlayerLeft,
    PlayerSeated,
    PotCarried,
    SeatAbsenceChanged,
    StackAdjusted,
    TableEvent,
    TableOpened,
)


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    player: str
    stack: int
    waits: bool = False  # new or moved in where he must let the button pass first
    absent: bool = False


@dataclass(frozen=True, slots=True)
class Level:
    """The stakes a hand is played at."""

    small_blind: int
    big_blind: int
    ante: int = 0
    ante_kind: AnteKind = "none"
    number: int = 0
    chip_unit: int = 1
    # The values of the chips in play, smallest first (the smallest is chip_unit); empty: any
    # multiple of chip_unit (a table played without a structure).
    denominations: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TableState:
    table: str
    seat_count: int
    profile: str
    tournament: str = ""
    seats: tuple[Seat, ...] = ()
    button: int = 0  # seat of the button (0: not drawn yet); may be an empty seat
    small_blind_seat: int = 0  # seat that was due the small blind last hand (0: none)
    big_blind_seat: int = 0
    hand: HandState | None = None
    hands_played: int = 0
    carry: int = 0  # dead money waiting for the next pot (Octobermuck buy-down odd chips)

    def seat_of(self, player: str) -> Seat | None:
        return next((s for s in self.seats if s.player == player), None)

    def occupant(self, seat: int) -> Seat | None:
        return next((s for s in self.seats if s.seat == seat), None)

    @property
    def hand_in_progress(self) -> bool:
        return self.hand is not None and not self.hand.is_complete

    def chips(self) -> int:
        """Every chip at the table: behind, or in the hand in progress."""
        if self.hand_in_progress:
            assert self.hand is not None
            in_hand = set(self.hand.setup.seats)
            behind = sum(s.stack for s in self.seats if s.seat not in in_hand)
            return behind + self.hand.chips_in_play()
        return sum(s.stack for s in self.seats) + self.carry


def table_opened(table: str, seat_count: int, profile: str, tournament: str = "") -> TableOpened:
    """The event that opens a table under `profile`, with the parameters in force today."""
    return TableOpened(table, seat_count, profile, tournament,
                       parameters_json(get_profile(profile)))


def open_table(event: TableOpened) -> TableState:
    get_profile(event.profile)
    if event.parameters:
        # The rules the table opened under, for its hands that name them by digest.
        remember_rules(event.profile, event.parameters)
    return TableState(table=event.table, seat_count=event.seat_count, profile=event.profile,
                      tournament=event.tournament)


MIN_SEATS, MAX_SEATS = 2, 10
MAX_CHIPS = 10**12  # no stack, bet or adjustment is larger: a keying slip, not a tournament


def check_table_opened(event: TableOpened) -> None:
    """A table opens under a house-rule profile this release knows, with 2 to 10 seats
    (`tdaa` is refused naming the known profiles)."""
    problems = profile_ref_problems(event.profile)  # a known profile, or a room's own
    if problems:
        said = "; ".join(f"{path}: {why}" if path else why for path, why in problems)
        raise RuleViolation("profile", f"profile: {said}; known profiles: "
                            f"{', '.join(PROFILES)}", tuple(PROFILES))
    if not MIN_SEATS <= event.seat_count <= MAX_SEATS:
        raise RuleViolation("seat-count", f"seat_count: {event.seat_count} seats; a table has "
                            f"{MIN_SEATS} to {MAX_SEATS}")


def check_seat(state: TableState, seat: int, field: str = "seat") -> None:
    """`seat` is one of the table's seats (1 to its seat count)."""
    if not 1 <= seat <= state.seat_count:
        raise RuleViolation("seat", f"{field}: seat {seat} does not exist at table "
                            f"{state.table}: its seats are 1 to {state.seat_count}",
                            (f"a seat from 1 to {state.seat_count}",))


def _next_seat(seat: int, seat_count: int) -> int:
    return seat % seat_count + 1


def _clockwise_from(start: int, seat_count: int) -> list[int]:
    """Every seat number after `start`, clockwise, ending with `start`."""
    seats = []
    s = start
    for _ in range(seat_count):
        s = _next_seat(s, seat_count)
        seats.append(s)
    return seats


START_HOLDS = ("first_hand", "redeal", "level", "break", "move")
"""Why the dealer starts the next hand himself (engine/words.py says each in words)."""


def start_hold(table: TableState, level: Level | None, due: tuple[str, ...] = ()) -> str:
    """After the push the next hand starts by itself (the tablet sends start_hand at once),
    unless something the dealer must see to first is due: '' when it starts by itself, else
    why not, one of START_HOLDS. `due`: what the tournament says is due at this table now
    ("level": the level's time is up; "break": a break is; "move": players move from it).

    The first hand and a re-deal (after a misdeal or a void hand) wait for the tap; so does a
    hand at new stakes (the dealer announces the new level), a break and a move."""
    hand = table.hand
    if hand is None:
        return "first_hand"
    if hand.phase != "complete":
        return "redeal"
    for hold in ("break", "move"):
        if hold in due:
            return hold
    if "level" in due or (level is not None and level.number != hand.setup.level):
        return "level"
    return ""


def plan_hand(table: TableState, level: Level, hand_number: int,
              final_table: bool = False) -> HandSetup:
    """Who is dealt in, the button, and who posts what (TDA 32 dead button, 34 heads-up)."""
    if table.hand_in_progress:
        raise RuleViolation("hand-in-progress", "finish the current hand first")
    profile = get_profile(table.profile)
    active = {s.seat: s for s in table.seats if s.stack > 0}
    minimum = 2 if final_table else max(2, profile.min_players_per_table)
    if len(active) < minimum:
        raise RuleViolation(
            profile.rule("min_players"),
            f"{len(active)} player(s) at table {table.table}: a hand needs at least {minimum}",
            ("move players to this table", "break the table"),
        )
    if not table.button:
        raise RuleViolation("tda-32", "the button has not been placed: draw for the button",
                            ("draw for the button",))
    n = table.seat_count
    waits_at_bb = "big_blind" in profile.new_player_waiting_positions
    # Chairperson: a moved player is not dealt in the big blind; the big blind goes on.
    bb_candidates = {s for s, seat in active.items() if not (seat.waits and waits_at_bb)}
    if not table.big_blind_seat:
        # First hand after the draw: the blinds follow the button.
        button = table.button
        order = [s for s in _clockwise_from(button, n) if s in active]
        if len(active) == 2:
            small_blind: int = button if button in active else order[-1]
            big_blind = next(s for s in order if s != small_blind)
        else:
            small_blind, big_blind = order[0], order[1]
    elif len(active) == 2 and profile.heads_up_transition == "button_moves_on":
        # Octobermuck: heads-up the button simply moves on and posts the small blind.
        button = next(s for s in _clockwise_from(table.button, n) if s in active)
        small_blind = button
        big_blind = next(s for s in active if s != button)
    else:
        # TDA 32: the big blind always moves forward to the next player; the small blind and
        # the button follow, dead when their seat is empty.
        big_blind = next(
            s for s in _clockwise_from(table.big_blind_seat, n)
            if s in bb_candidates or (not bb_candidates and s in active)
        )
        if len(active) == 2:
            # TDA 34: heads-up, the player due the big blind gets it (so nobody has it twice
            # in a row); the other is the button and posts the small blind.
            small_blind = next(s for s in active if s != big_blind)
            button = small_blind
        else:
            # The small blind is the last big blind's seat, dead (and recorded on the empty
            # seat) when that player is out; the button follows the small blind's seat, so a
            # dead small blind makes a dead button on that empty seat the next hand.
            small_blind = table.big_blind_seat
            button = table.small_blind_seat or table.button
            if profile.button_rule == "moving_button" and button not in active:
                # Chairperson: the button does not move onto an empty seat; it stays with the
                # player who had it.
                if table.button in active:
                    button = table.button
                elif profile.button_when_its_player_and_the_small_blind_bust == \
                        "stays_on_its_seat":
                    button = table.button  # dead on the seat its player left
                else:
                    behind = [s for s in _clockwise_from(small_blind or big_blind, n)
                              if s in active]
                    button = behind[-2] if len(behind) > 1 else behind[-1]
            if small_blind == big_blind:
                small_blind = 0
    waiting_seats = _waiting_seats(profile.new_player_waiting_positions, button, small_blind,
                                   big_blind, n)
    dealt: list[int] = []
    for s in _clockwise_from(button, n):
        seat = active.get(s)
        if seat is None:
            continue
        if seat.waits and profile.new_player_waits_between_blind_and_button and \
                s in waiting_seats:
            continue
        dealt.append(s)
    if len(dealt) < 2:
        # TDA 10-A's wait exists so that nobody gets the button or a blind out of turn; it
        # never leaves a table unable to deal (a player moved into a heads-up table): everyone
        # with chips is dealt in.
        dealt = [s for s in _clockwise_from(button, n) if s in active]
    blinds = tuple(
        level.big_blind if s == big_blind else level.small_blind if s == small_blind else 0
        for s in dealt
    )
    if level.ante_kind == "uniform":
        antes = tuple(level.ante for _ in dealt)
    elif level.ante_kind == "big_blind":
        antes = tuple(level.ante if s == big_blind else 0 for s in dealt)
    else:
        antes = tuple(0 for _ in dealt)
    return HandSetup(
        stacks=tuple(active[s].stack for s in dealt),
        blinds=blinds,
        antes=antes,
        min_bet=level.big_blind,
        chip_unit=level.chip_unit,
        denominations=level.denominations,
        profile=table.profile,
        players=tuple(active[s].player for s in dealt),
        seats=tuple(dealt),
        hand_number=hand_number,
        button_seat=button,
        level=level.number,
        small_blind_seat=small_blind,
        big_blind_seat=big_blind,
        absent=tuple(i for i, s in enumerate(dealt) if active[s].absent),
        dead_money=table.carry,
    )


def _waiting_seats(positions: tuple[str, ...], button: int, small_blind: int, big_blind: int,
                   seat_count: int) -> set[int]:
    """Where a new or moved player may not be dealt in before the button passes him."""
    seats: set[int] = set()
    for position in positions:
        if position == "between_small_blind_and_button":
            seats |= _waiting_zone(button, big_blind, seat_count)
        elif position == "small_blind":
            seats |= _waiting_zone(button, big_blind, seat_count) - {button}
        elif position == "button":
            seats.add(button)
        elif position == "big_blind":
            seats.add(big_blind)
    return seats


def _waiting_zone(button: int, big_blind: int, seat_count: int) -> set[int]:
    """Seats from the button up to (not including) the big blind: a newcomer there waits."""
    zone = {button}
    s = button
    while True:
        s = _next_seat(s, seat_count)
        if s == big_blind or s == button:
            break
        zone.add(s)
    return zone


def apply_table(state: TableState, event: TableEvent | HandEvent) -> TableState:
    """Fold one event of the table's stream."""
    if isinstance(event, HandStarted):
        return replace(state, hand=_started(event))
    if isinstance(event, TableOpened):
        return open_table(event)
    if isinstance(event, PlayerSeated):
        seat = Seat(event.seat, event.player, event.stack, event.waits)
        seats = tuple(sorted(state.seats + (seat,), key=lambda s: s.seat))
        return replace(state, seats=seats)
    if isinstance(event, PlayerLeft):
        return replace(state, seats=tuple(s for s in state.seats if s.seat != event.seat))
    if isinstance(event, ButtonPlaced):
        return replace(state, button=event.seat, small_blind_seat=0, big_blind_seat=0)
    if isinstance(event, StackAdjusted):
        return replace(state, seats=tuple(
            replace(s, stack=s.stack + event.amount) if s.seat == event.seat else s
            for s in state.seats
        ))
    if isinstance(event, PotCarried):
        return replace(state, carry=state.carry + event.amount)
    if isinstance(event, HandImported):
        return state  # where the next hand was read from: a fact, no change to the table
    if isinstance(event, SeatAbsenceChanged):
        return replace(state, seats=tuple(
            replace(s, absent=event.absent) if s.seat == event.seat else s for s in state.seats
        ))
    if state.hand is None:
        raise RuleViolation("log", f"{event.TYPE} outside a hand")
    hand = apply(state.hand, event)
    new = replace(state, hand=hand)
    if hand.is_complete:
        new = _finish_hand(new, hand)
    return new


def _finish_hand(state: TableState, hand: HandState) -> TableState:
    """Carry the stacks over; a misdealt or voided hand leaves button and blinds where they
    were, for the exact re-deal, and its dead money waiting for the next pot."""
    setup = hand.setup
    final = dict(zip(setup.seats, hand.stacks, strict=True))
    seats = tuple(
        replace(s, stack=final[s.seat], waits=False) if s.seat in final else s
        for s in state.seats
    )
    if hand.phase != COMPLETE:
        return replace(state, seats=seats)
    return replace(
        state, seats=seats, button=setup.button_seat, small_blind_seat=setup.small_blind_seat,
        big_blind_seat=setup.big_blind_seat, hands_played=state.hands_played + 1,
        carry=state.carry - setup.dead_money,
    )


def busted(state: TableState) -> tuple[Seat, ...]:
    """Seated players with no chips left after the last hand (to be recorded as eliminated)."""
    if state.hand_in_progress:
        return ()
    return tuple(s for s in state.seats if s.stack == 0)
