"""One hand of No-Limit Texas Hold'em: frozen state, `decide` (command -> events) and `apply`.

Positions: 0 is the first player left of the button and the last is the button; heads-up, 0 is
the big blind and 1 the button, who posts the small blind (the PHH convention).

`decide` validates a command against the state and the house-rule profile and returns the events
it causes, or raises RuleViolation naming the rule and the legal options. `apply` is total and
pure: it folds one event into the state. The legal-actions query the tablet uses
(`legal_actions`) is the same code `decide` validates with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, NoReturn

from engine.cards import FULL_DECK, Card, card_text
from engine.commands import (
    AwardPots,
    BetRaise,
    CheckCall,
    Command,
    DealBoard,
    DealHole,
    DeclareMisdeal,
    ExpireClock,
    ExposeBoardEarly,
    ExposeCard,
    Fold,
    KillHand,
    MarkAbsent,
    MarkReturned,
    MuckCards,
    ShowCards,
    VoidHand,
)
from engine.errors import RuleViolation
from engine.evaluator import describe, evaluate
from engine.events import (
    BetMade,
    BoardDealt,
    BoardExposedEarly,
    CardExposed,
    CardsMucked,
    CardsShown,
    ChipsPosted,
    HandEvent,
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
from engine.profiles import PROFILES, Profile, get_profile
from engine.values import fast_init

# Phases of a hand.
POSTING: Final = "posting"
BETTING: Final = "betting"
BOARD: Final = "board"  # the next board card(s) are due
SHOWDOWN: Final = "showdown"  # betting is over and the board complete: shows, mucks, then awards
COMPLETE: Final = "complete"
MISDEALT: Final = "misdealt"
VOID: Final = "void"
_OVER: Final = frozenset((COMPLETE, MISDEALT, VOID))

STREETS: Final = ("preflop", "flop", "turn", "river")
NOT_ACTED: Final = -1

# Events carry cards as text ("As"): both ways through a table built once from the engine's own
# card_text. A card's bit (1 << card) marks it in HandState.known.
_TEXT_OF_CARD: Final[dict[Card, str]] = {c: card_text(c) for c in FULL_DECK}
_CARD_OF_TEXT: Final[dict[str, Card]] = {text: c for c, text in _TEXT_OF_CARD.items()}


def _texts(cards: tuple[Card, ...]) -> tuple[str, ...]:
    """The text of each card (ValueError for a number that is no card, as card_text says)."""
    try:
        return tuple([_TEXT_OF_CARD[c] for c in cards])
    except (KeyError, TypeError):
        return tuple(card_text(c) for c in cards)


@dataclass(frozen=True, slots=True)
class HandSetup:
    """What a hand starts with; blinds and antes are what each position owes."""

    stacks: tuple[int, ...]
    blinds: tuple[int, ...]
    antes: tuple[int, ...]
    min_bet: int
    chip_unit: int = 1
    profile: str = "tda"
    players: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()
    hand_number: int = 0
    button_seat: int = 0
    level: int = 0
    small_blind_seat: int = 0  # the seat due the small blind (0: none); may be a dead seat
    big_blind_seat: int = 0
    absent: tuple[int, ...] = ()  # positions whose player is away from the table

    def __post_init__(self) -> None:
        # Without names or seats, the ones hand_started records (p1.., 1..): a hand started
        # live then carries the same setup as the one replayed from its events.
        if not self.players:
            object.__setattr__(self, "players", tuple(f"p{i + 1}" for i in range(len(self.stacks))))
        if not self.seats:
            object.__setattr__(self, "seats", tuple(range(1, len(self.stacks) + 1)))


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do now: the tablet shows exactly these buttons."""

    player: int
    can_fold: bool
    can_check: bool
    call_amount: int  # chips a call adds (0 when checking is possible)
    call_all_in: bool
    raise_kind: str  # "bet", "raise" or "" when neither is allowed
    min_to: int  # smallest legal bet/raise total (equals max_to for an all-in short of a full one)
    max_to: int  # all-in total

    def describe(self) -> tuple[str, ...]:
        options = []
        if self.can_check:
            options.append("check")
        if self.call_amount:
            options.append(f"call {self.call_amount}" + (" (all-in)" if self.call_all_in else ""))
        if self.raise_kind:
            if self.min_to < self.max_to:
                options.append(f"{self.raise_kind} to {self.min_to} up to {self.max_to}")
            else:
                options.append(f"{self.raise_kind} all-in to {self.max_to}")
        if self.can_fold:
            options.append("fold")
        return tuple(options)


for _value_type in (HandSetup, Pot, LegalActions):
    fast_init(_value_type)


class HandState(NamedTuple):
    """A hand at one moment. A NamedTuple rather than a dataclass: replay folds millions of
    events, and copying a tuple is several times cheaper than dataclasses.replace."""

    setup: HandSetup
    profile: Profile
    phase: str
    street: int
    stacks: tuple[int, ...]  # chips behind
    bets: tuple[int, ...]  # chips in front this street
    committed: tuple[int, ...]  # everything put in this hand (own antes included)
    dead: int  # a big-blind ante: dead money for the main pot, no claim for the poster
    folded: tuple[bool, ...]
    hole: tuple[tuple[Card, ...] | None, ...]
    shown: tuple[tuple[Card, ...] | None, ...]
    board: tuple[Card, ...]
    to_act: int | None
    current_bet: int
    last_full_raise: int
    acted_level: tuple[int, ...]  # the bet level when the player last acted this street
    aggressor: int | None  # last bettor or raiser this street
    final_aggressor: int | None  # last bettor or raiser of the last street with betting
    betting_closed: bool  # no more betting this hand (all-in or one player left)
    posts_due: tuple[tuple[int, str, int], ...]
    actions_in_turn: int
    chip_actions_in_turn: int
    players_acted: int  # a bit (1 << position) for each player who acted pre-flop
    call_only: tuple[bool, ...]
    exposed: tuple[int, ...]
    absent: tuple[bool, ...]
    returned: tuple[int, ...]  # uncalled chips returned
    awarded: int
    awards: tuple[PotAwarded, ...]
    deal_exposures: int = 0  # cards the dealer exposed in the deal and replaced (TDA 35-A-7)
    known: int = 0  # every card seen in this hand (hole, board, shown): bit 1 << card

    # --- queries -------------------------------------------------------------------------
    @property
    def player_count(self) -> int:
        return len(self.stacks)

    @property
    def is_complete(self) -> bool:
        return self.phase in _OVER

    @property
    def contenders(self) -> tuple[int, ...]:
        return tuple(i for i, f in enumerate(self.folded) if not f)

    @property
    def awards_pending(self) -> bool:
        """Betting and the board are done: the pots are ready to be pushed."""
        return self.phase == SHOWDOWN

    @property
    def pot_total(self) -> int:
        return sum(self.committed) + self.dead - self.awarded

    def chips_in_play(self) -> int:
        """Behind plus put in and not yet pushed: constant through the hand."""
        return sum(self.stacks) + sum(self.committed) + self.dead - self.awarded


_FIELD_INDEX: Final = {name: index for index, name in enumerate(HandState._fields)}
# The index of each field: an apply handler copies the state's values into a list, sets what
# the event changes (and what closing the street changes) and builds the new state once.
# (Literal Final ints: compiled, they are constants, not lookups.)
_SETUP: Final = 0
_PROFILE: Final = 1
_PHASE: Final = 2
_STREET: Final = 3
_STACKS: Final = 4
_BETS: Final = 5
_COMMITTED: Final = 6
_DEAD: Final = 7
_FOLDED: Final = 8
_HOLE: Final = 9
_SHOWN: Final = 10
_BOARD: Final = 11
_TO_ACT: Final = 12
_CURRENT_BET: Final = 13
_LAST_FULL_RAISE: Final = 14
_ACTED_LEVEL: Final = 15
_AGGRESSOR: Final = 16
_FINAL_AGGRESSOR: Final = 17
_BETTING_CLOSED: Final = 18
_POSTS_DUE: Final = 19
_ACTIONS_IN_TURN: Final = 20
_CHIP_ACTIONS_IN_TURN: Final = 21
_PLAYERS_ACTED: Final = 22
_CALL_ONLY: Final = 23
_EXPOSED: Final = 24
_ABSENT: Final = 25
_RETURNED: Final = 26
_AWARDED: Final = 27
_AWARDS: Final = 28
_DEAL_EXPOSURES: Final = 29
_KNOWN: Final = 30
assert all(_FIELD_INDEX[name[1:].lower()] == index for name, index in (
    ("_SETUP", _SETUP),
    ("_PROFILE", _PROFILE),
    ("_PHASE", _PHASE),
    ("_STREET", _STREET),
    ("_STACKS", _STACKS),
    ("_BETS", _BETS),
    ("_COMMITTED", _COMMITTED),
    ("_DEAD", _DEAD),
    ("_FOLDED", _FOLDED),
    ("_HOLE", _HOLE),
    ("_SHOWN", _SHOWN),
    ("_BOARD", _BOARD),
    ("_TO_ACT", _TO_ACT),
    ("_CURRENT_BET", _CURRENT_BET),
    ("_LAST_FULL_RAISE", _LAST_FULL_RAISE),
    ("_ACTED_LEVEL", _ACTED_LEVEL),
    ("_AGGRESSOR", _AGGRESSOR),
    ("_FINAL_AGGRESSOR", _FINAL_AGGRESSOR),
    ("_BETTING_CLOSED", _BETTING_CLOSED),
    ("_POSTS_DUE", _POSTS_DUE),
    ("_ACTIONS_IN_TURN", _ACTIONS_IN_TURN),
    ("_CHIP_ACTIONS_IN_TURN", _CHIP_ACTIONS_IN_TURN),
    ("_PLAYERS_ACTED", _PLAYERS_ACTED),
    ("_CALL_ONLY", _CALL_ONLY),
    ("_EXPOSED", _EXPOSED),
    ("_ABSENT", _ABSENT),
    ("_RETURNED", _RETURNED),
    ("_AWARDED", _AWARDED),
    ("_AWARDS", _AWARDS),
    ("_DEAL_EXPOSURES", _DEAL_EXPOSURES),
    ("_KNOWN", _KNOWN),
))
_build: Final = tuple.__new__  # _build(HandState, values): a state from its values in field order


def _evolve(state: HandState, **changes: Any) -> HandState:
    """A copy of `state` with some fields changed (the path of the rarer events)."""
    values = list(state)
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return _build(HandState, values)


# Events without a payload beyond the position are values: the common ones are built once, as
# are the tuples a hand starts with (up to _PREBUILT players; more are built when needed).
_PREBUILT: Final = 32
_ZEROS: Final = tuple((0,) * n for n in range(_PREBUILT))
_FALSES: Final = tuple((False,) * n for n in range(_PREBUILT))
_NONES: Final[tuple[tuple[None, ...], ...]] = tuple((None,) * n for n in range(_PREBUILT))
_NOT_ACTED: Final = tuple((NOT_ACTED,) * n for n in range(_PREBUILT))
_FOLD_EVENTS: Final[tuple[tuple[PlayerFolded], ...]] = tuple(
    (PlayerFolded(i),) for i in range(_PREBUILT))
_CHECK_EVENTS: Final[tuple[tuple[PlayerChecked], ...]] = tuple(
    (PlayerChecked(i),) for i in range(_PREBUILT))
# Hole-card deals seen so far, per position (at most 52 * 51 each): see _decide_deal_hole.
_HOLE_DEALT: Final[tuple[dict[tuple[Card, ...], tuple[HoleCardsDealt]], ...]] = tuple(
    {} for _ in range(_PREBUILT))


# --- start ---------------------------------------------------------------------------------


def forced_posts(setup: HandSetup, profile: Profile) -> tuple[tuple[int, str, int], ...]:
    """Every post (position, kind, amount), capped by the stack, in the order they are made."""
    blinds, antes, stacks = setup.blinds, setup.antes, setup.stacks
    n = len(stacks)
    big = max(blinds) if blinds else 0
    # A blind of the biggest amount is a big blind, a smaller one a small blind.
    if not any(antes):
        posts: list[tuple[int, str, int]] = []
        for i in range(n):
            blind = blinds[i]
            if blind > 0 and stacks[i] > 0:
                posts.append((i, "big_blind" if blind == big else "small_blind",
                              blind if blind < stacks[i] else stacks[i]))
        return tuple(posts)
    blind_positions = [i for i in range(n) if blinds[i] > 0]
    remaining = list(stacks)
    posts = []

    def post(i: int, kind: str, owed: int) -> None:
        amount = min(owed, remaining[i])
        if amount > 0:
            remaining[i] -= amount
            posts.append((i, kind, amount))

    ante_first = profile.big_blind_ante_order == "ante_first"
    blind_first_positions = set()
    if not ante_first:
        # A big-blind ante: the big blind comes before the ante he owes for the table.
        blind_first_positions = {i for i in range(n) if antes[i] and blinds[i]}
    for i in sorted(blind_first_positions):
        post(i, "big_blind" if blinds[i] == big else "small_blind", blinds[i])
    for i in range(n):
        if antes[i]:
            post(i, "ante", antes[i])
    for i in blind_positions:
        if i not in blind_first_positions:
            post(i, "big_blind" if blinds[i] == big else "small_blind", blinds[i])
    return tuple(posts)


def _validate_setup(setup: HandSetup) -> Profile:
    stacks, blinds, antes = setup.stacks, setup.blinds, setup.antes
    n = len(stacks)
    if n < 2 or len(blinds) != n or len(antes) != n or min(stacks) < 0 or min(blinds) < 0 \
            or min(antes) < 0 or setup.min_bet <= 0 or setup.chip_unit <= 0:
        _refuse_setup(setup)
    profile = PROFILES.get(setup.profile)
    return profile if profile is not None else get_profile(setup.profile)


def _refuse_setup(setup: HandSetup) -> NoReturn:
    n = len(setup.stacks)
    if n < 2:
        raise RuleViolation("setup", f"a hand needs at least 2 players, got {n}")
    for name in ("blinds", "antes"):
        if len(getattr(setup, name)) != n:
            raise RuleViolation("setup", f"{name} has {len(getattr(setup, name))} entries "
                                f"for {n} players")
    if min(setup.stacks) < 0 or min(setup.blinds) < 0 or min(setup.antes) < 0:
        raise RuleViolation("setup", "stacks, blinds and antes must not be negative")
    if setup.min_bet <= 0 or setup.chip_unit <= 0:
        raise RuleViolation("setup", "min_bet and chip_unit must be positive")
    raise AssertionError("_refuse_setup called on a valid setup")


def hand_started_event(setup: HandSetup) -> HandStarted:
    n = len(setup.stacks)
    return HandStarted(
        hand_number=setup.hand_number,
        players=setup.players or tuple(f"p{i + 1}" for i in range(n)),
        seats=setup.seats or tuple(range(1, n + 1)),
        stacks=setup.stacks,
        blinds=setup.blinds,
        antes=setup.antes,
        min_bet=setup.min_bet,
        chip_unit=setup.chip_unit,
        profile=setup.profile,
        button_seat=setup.button_seat,
        level=setup.level,
        small_blind_seat=setup.small_blind_seat,
        big_blind_seat=setup.big_blind_seat,
        absent=setup.absent,
    )


def setup_from_event(event: HandStarted) -> HandSetup:
    return HandSetup(
        stacks=event.stacks, blinds=event.blinds, antes=event.antes, min_bet=event.min_bet,
        chip_unit=event.chip_unit, profile=event.profile, players=event.players,
        seats=event.seats, hand_number=event.hand_number, button_seat=event.button_seat,
        level=event.level, small_blind_seat=event.small_blind_seat,
        big_blind_seat=event.big_blind_seat, absent=event.absent,
    )


def begin(setup: HandSetup) -> tuple[HandEvent, ...]:
    """The events that start a hand: what it started with, every forced post, then the hands
    killed at the deal (TDA 30: players away from their seats when the deal is complete)."""
    profile = _validate_setup(setup)
    return _begin_events(setup, _new_hand(setup, profile))


def _begin_events(setup: HandSetup, state: HandState) -> tuple[HandEvent, ...]:
    events: list[HandEvent] = [hand_started_event(setup)]
    events.extend(_post_events(setup, state.posts_due))
    events.extend(_deal_kills(setup, state.profile))
    return tuple(events)


def _post_events(setup: HandSetup,
                 posts: tuple[tuple[int, str, int], ...]) -> list[ChipsPosted]:
    remaining = list(setup.stacks)
    events = []
    for i, kind, amount in posts:
        remaining[i] -= amount
        events.append(ChipsPosted(i, kind, amount, remaining[i] == 0))
    return events


def _deal_kills(setup: HandSetup, profile: Profile) -> list[HandKilled]:
    return [HandKilled(i, "away from the table when the deal was complete", "TDA 30")
            for i in _killed_at_deal(setup, profile)]


def _killed_at_deal(setup: HandSetup, profile: Profile) -> list[int]:
    """TDA 30 (`absent_hand_killed_at_deal`): the hand of a player away from his seat when the
    deal is complete is killed at once, and his posts forfeit to the pot. A deal with fewer
    than two players at their seats kills nobody (there would be no hand to play): the absent
    hands are then killed when the action reaches them, as for a player who leaves later."""
    if not setup.absent or not profile.absent_hand_killed_at_deal:
        return []
    n = len(setup.stacks)
    away = sorted({i for i in setup.absent if 0 <= i < n})
    return away if n - len(away) >= 2 else []


def initial_state(event: HandStarted) -> HandState:
    """The state right after hand_started, before the posts (replay's starting point)."""
    return new_hand(setup_from_event(event))


def new_hand(setup: HandSetup) -> HandState:
    return _new_hand(setup, get_profile(setup.profile))


def _new_hand(setup: HandSetup, profile: Profile) -> HandState:
    return _build(HandState, _new_values(setup, profile))


def _new_values(setup: HandSetup, profile: Profile) -> list[Any]:
    """A new hand's state values, in field order (a HandState with keywords costs as much as the
    hand's first few events)."""
    n = len(setup.stacks)
    if n < _PREBUILT:
        zeros, falses, nones, not_acted = _ZEROS[n], _FALSES[n], _NONES[n], _NOT_ACTED[n]
    else:
        zeros, falses, nones, not_acted = (0,) * n, (False,) * n, (None,) * n, (NOT_ACTED,) * n
    absent = tuple(i in setup.absent for i in range(n)) if setup.absent else falses
    return [
        setup, profile, POSTING, 0, setup.stacks, zeros,  # setup .. bets
        zeros, 0, falses, nones, nones, (),  # committed .. board
        None, 0, setup.min_bet, not_acted,  # to_act .. acted_level
        None, None, False, forced_posts(setup, profile),  # aggressor .. posts_due
        0, 0, 0, falses, zeros, absent,  # actions_in_turn .. absent
        zeros, 0, (), 0, 0,  # returned .. known
    ]


def start_hand(setup: HandSetup) -> HandState:
    """A hand with its antes and blinds posted, ready for the deal and the first action: the
    events of `begin` after hand_started, applied."""
    profile = _validate_setup(setup)
    v = _new_values(setup, profile)
    _post(v, v[_POSTS_DUE])  # what applying the chips_posted events one by one does
    state = _build(HandState, v)
    if setup.absent:
        for kill in _deal_kills(setup, profile):
            state = _apply_fold(state, kill)
    return state


# --- legal actions -------------------------------------------------------------------------


def legal_actions(state: HandState) -> LegalActions | None:
    """What the player to act may do, or None when nobody is to act."""
    i = state.to_act
    if i is None or state.phase != BETTING:
        return None
    stack = state.stacks[i]
    owed = state.current_bet - state.bets[i]
    call = min(owed, stack) if owed > 0 else 0
    if state.absent[i]:
        # Nobody acts for an absent player: his hand is killed when the action reaches him,
        # unless the profile checks an absent big blind through.
        can_check = owed <= 0 and state.profile.absent_big_blind_checks
        return LegalActions(i, not can_check, can_check, 0, False, "", 0, 0)
    bounds = _raise_bounds(state, i)
    raise_kind, min_to, max_to = bounds if bounds is not None else ("", 0, 0)
    return LegalActions(
        player=i, can_fold=True, can_check=owed <= 0, call_amount=call,
        call_all_in=call > 0 and call == stack, raise_kind=raise_kind, min_to=min_to,
        max_to=max_to,
    )


def _raise_bounds(state: HandState, i: int) -> tuple[str, int, int] | None:
    """The bet or raise player `i` (to act) may make: (kind, min_to, max_to), or None. The one
    computation both legal_actions and decide use."""
    if state.absent[i] or state.call_only[i]:
        return None
    stacks, bets = state.stacks, state.bets
    stack = stacks[i]
    current = state.current_bet
    if stack <= current - bets[i] or stack <= 0:
        return None  # no chips beyond a call
    # A bet or raise needs an opponent who could put in more than the current bet: when every
    # other live player is all-in or covered by it, the raise could only come back uncalled.
    folded = state.folded
    for j in range(len(stacks)):
        if j != i and not folded[j] and stacks[j] + bets[j] > current:
            break
    else:
        return None
    if state.acted_level[i] != NOT_ACTED and not _raise_open(state, i):
        return None
    max_to = bets[i] + stack
    if current == 0:
        return "bet", min(state.setup.min_bet, max_to), max_to
    return "raise", min(current + state.last_full_raise, max_to), max_to


def _raise_open(state: HandState, i: int) -> bool:
    """TDA 47 (and the profile's percent and measure): has the betting been reopened for this
    player?"""
    level = state.acted_level[i]
    if level == NOT_ACTED:
        return True
    profile = state.profile
    increase = state.current_bet - level
    if profile.reopen_measure == "own_bet_total":
        # Octobermuck: a short all-in reopens for a player who already acted only at `percent`
        # more than his own total; a full raise reopens as under the TDA.
        return increase >= state.last_full_raise or \
            state.current_bet * 100 >= level * (100 + profile.reopen_percent)
    return increase * 100 >= state.last_full_raise * profile.reopen_percent


def _reopen_rule(profile: Profile) -> str:
    if profile.reopen_measure == "own_bet_total":
        return (f"{profile.name}: a short all-in reopens for a player who already acted only "
                f"at {profile.reopen_percent}% more than his own bet (TDA 47 varied)")
    if profile.reopen_percent == 100:
        return "TDA 47"
    return f"{profile.name}: short all-in reopens at {profile.reopen_percent}% (TDA 47 varied)"


def _not_your_turn(state: HandState, player: int) -> RuleViolation:
    la = legal_actions(state)
    if state.phase != BETTING or la is None:
        return RuleViolation("TDA 53", f"no betting now: the hand is at {state.phase}",
                             next_steps(state))
    return RuleViolation(
        "TDA 53", f"it is position {la.player}'s turn to act, not position {player}'s",
        tuple(f"position {la.player}: {o}" for o in la.describe()),
    )


def next_steps(state: HandState) -> tuple[str, ...]:
    """A person's description of what may be recorded next."""
    if state.phase == POSTING:
        return ("post the forced bets",)
    if state.phase == BETTING:
        la = legal_actions(state)
        return tuple(f"position {state.to_act}: {o}" for o in la.describe()) if la else ()
    if state.phase == BOARD:
        count = 3 if not state.board else 1
        return (f"deal {count} board card{'s' if count > 1 else ''}",) + (
            ("show or muck cards",) if state.betting_closed else ()
        )
    if state.phase == SHOWDOWN:
        return ("show or muck cards", "award the pots")
    return ()


# --- decide --------------------------------------------------------------------------------


def decide(state: HandState, command: Command) -> tuple[HandEvent, ...]:
    """The events `command` causes in `state`, or RuleViolation."""
    if state.phase in _OVER:
        raise RuleViolation("hand complete", f"the hand is {state.phase}: nothing more can be "
                            "recorded in it", ("start the next hand",))
    try:
        handler = _DECIDERS[type(command)]
    except KeyError:
        raise RuleViolation("command", f"unknown command {type(command).__name__}") from None
    return handler(state, command)


def _check_player(state: HandState, player: int) -> None:
    if not 0 <= player < state.player_count:
        raise RuleViolation("seat", f"position {player} is not in this hand "
                            f"(positions 0 to {state.player_count - 1})")


def _out_of_turn(state: HandState, player: int) -> RuleViolation:
    _check_player(state, player)
    return _not_your_turn(state, player)


# Fold, check/call and bet/raise are decided directly (the hot path of every replay); the rules
# are the ones legal_actions states, and a bet or raise is checked against _raise_bounds.


def _decide_fold(state: HandState, command: Fold) -> tuple[PlayerFolded, ...]:
    player = command.player
    if state.to_act != player or state.phase != BETTING:
        raise _out_of_turn(state, player)
    if state.absent[player] and state.profile.absent_big_blind_checks and \
            state.current_bet <= state.bets[player]:
        raise RuleViolation("absent player", "an absent big blind is checked through "
                            f"under the {state.profile.name} profile", ("check",))
    return _FOLD_EVENTS[player] if player < _PREBUILT else (PlayerFolded(player),)


def _decide_check_call(state: HandState,
                       command: CheckCall) -> tuple[PlayerChecked | PlayerCalled, ...]:
    player = command.player
    if state.to_act != player or state.phase != BETTING:
        raise _out_of_turn(state, player)
    owed = state.current_bet - state.bets[player]
    if state.absent[player] and not (owed <= 0 and state.profile.absent_big_blind_checks):
        raise RuleViolation("TDA 30", "the player is absent: his hand is killed when the "
                            "action reaches him", ("fold",))
    if owed <= 0:
        return _CHECK_EVENTS[player] if player < _PREBUILT else (PlayerChecked(player),)
    stack = state.stacks[player]
    if owed >= stack:
        return _called(player, stack, True)
    return _called(player, owed, False)


def _decide_bet_raise(state: HandState,
                      command: BetRaise) -> tuple[BetMade | RaiseMade, ...]:
    player = command.player
    if state.to_act != player or state.phase != BETTING:
        raise _out_of_turn(state, player)
    bounds = _raise_bounds(state, player)
    to = command.to
    current = state.current_bet
    if bounds is not None:
        kind, min_to, max_to = bounds
        if min_to <= to <= max_to and to > current:
            if kind == "bet":
                return _bet_made(player, to, to == max_to)
            return _raise_made(player, to, to == max_to, to - current >= state.last_full_raise)
    raise _refused_bet(state, player, to)


# Events are values, and the betting events of the usual amounts (and the flops) recur from
# hand to hand: finding one costs less than building it. Each memo is emptied when it fills.
_MEMO_LIMIT: Final = 1 << 16
_CALLS: Final[dict[tuple[int, int, bool], tuple[PlayerCalled]]] = {}
_BETS_MADE: Final[dict[tuple[int, int, bool], tuple[BetMade]]] = {}
_RAISES_MADE: Final[dict[tuple[int, int, bool, bool], tuple[RaiseMade]]] = {}
_BOARDS_DEALT: Final[dict[tuple[str, ...], tuple[BoardDealt]]] = {}


def _called(player: int, amount: int, all_in: bool) -> tuple[PlayerCalled]:
    key = (player, amount, all_in)
    event = _CALLS.get(key)
    if event is None:
        if len(_CALLS) >= _MEMO_LIMIT:
            _CALLS.clear()
        event = _CALLS[key] = (PlayerCalled(player, amount, all_in),)
    return event


def _bet_made(player: int, to: int, all_in: bool) -> tuple[BetMade]:
    key = (player, to, all_in)
    event = _BETS_MADE.get(key)
    if event is None:
        if len(_BETS_MADE) >= _MEMO_LIMIT:
            _BETS_MADE.clear()
        event = _BETS_MADE[key] = (BetMade(player, to, all_in),)
    return event


def _raise_made(player: int, to: int, all_in: bool, full: bool) -> tuple[RaiseMade]:
    key = (player, to, all_in, full)
    event = _RAISES_MADE.get(key)
    if event is None:
        if len(_RAISES_MADE) >= _MEMO_LIMIT:
            _RAISES_MADE.clear()
        event = _RAISES_MADE[key] = (RaiseMade(player, to, all_in, full),)
    return event


def _refused_bet(state: HandState, player: int, to: int) -> RuleViolation:
    """Why a bet or raise to `to` is refused, with the legal options."""
    la = legal_actions(state)
    assert la is not None
    if not la.raise_kind:
        if state.call_only[player]:
            rule, why = "league exposed cards", "this player exposed both cards: call or fold only"
        elif state.absent[player]:
            rule, why = "TDA 30", "the player is absent"
        elif la.call_all_in or state.stacks[player] <= la.call_amount:
            rule, why = "all-in", "the player has no chips beyond a call"
        elif not _raise_open(state, player):
            rule = _reopen_rule(state.profile)
            why = ("a short all-in did not reopen the betting for a player who already acted: "
                   "call or fold")
        else:
            rule, why = "TDA 43", ("no player left who could call more than the current bet: "
                                   "every other player is all-in or covered")
        return RuleViolation(rule, why, la.describe())
    if to > la.max_to:
        return RuleViolation("table stakes", f"{la.raise_kind} to {to} is more than the "
                             f"player has: all-in is {la.max_to}", la.describe())
    if to < la.min_to and to != la.max_to:
        if la.raise_kind == "bet":
            rule, why = "TDA 43", f"the minimum bet is {la.min_to} (the big blind)"
        else:
            rule = "TDA 43"
            why = (f"a raise must be to at least {la.min_to} (the last full raise was "
                   f"{state.last_full_raise}); less is allowed only all-in")
        return RuleViolation(rule, f"{la.raise_kind} to {to} is too small: {why}", la.describe())
    return RuleViolation("TDA 43", f"{to} does not raise the bet of {state.current_bet}",
                         la.describe())


def _known_cards(state: HandState) -> set[Card]:
    known = state.known
    return {c for c in FULL_DECK if known >> c & 1}


def _check_duplicates(state: HandState, cards: tuple[Card, ...]) -> tuple[str, ...]:
    """The text of `cards` once they are known to be new to this hand (a duplicate card is
    refused: it voids the hand)."""
    known = state.known
    bits = 0
    try:
        for c in cards:
            bit = 1 << c
            if (known | bits) & bit:
                break
            bits |= bit
        else:
            return _texts(cards)
    except (TypeError, ValueError):  # not a card number: _texts says so
        return _texts(cards)
    seen = _known_cards(state)
    dup = [card_text(c) for c in cards if c in seen or cards.count(c) > 1]
    raise RuleViolation(
        "duplicate card", f"{', '.join(dup)} is already in this hand: a duplicate card "
        "voids the hand (all action void, chips returned)", ("void the hand", "re-enter"),
    )


def _decide_deal_hole(state: HandState, command: DealHole) -> tuple[HoleCardsDealt, ...]:
    player = command.player
    cards = command.cards
    if cards and len(cards) == 2 and 0 <= player < len(state.stacks) and \
            state.hole[player] is None:
        # The usual deal: two cards new to the hand. Its event is a value: the same deal
        # (player, cards) gives the same event, built once.
        known = _HOLE_DEALT[player].get(cards) if player < _PREBUILT else None
        if known is not None:
            first, second = cards
            if not state.known & (1 << first | 1 << second):
                return known
        else:
            first, second = cards
            first_text, second_text = _TEXT_OF_CARD.get(first), _TEXT_OF_CARD.get(second)
            if first_text and second_text and first != second and \
                    not state.known & (1 << first | 1 << second):
                dealt = (HoleCardsDealt(player, (first_text, second_text)),)
                if player < _PREBUILT:
                    _HOLE_DEALT[player][cards] = dealt
                return dealt
    _check_player(state, player)
    if state.hole[player] is not None:
        raise RuleViolation("deal", f"position {player} already has hole cards")
    cards = command.cards
    if not cards:
        return (HoleCardsDealt(player, ()),)
    if len(cards) != 2:
        raise RuleViolation("deal", f"Hold'em hole cards are two, got {len(cards)}")
    return (HoleCardsDealt(player, _check_duplicates(state, cards)),)


def _decide_board(state: HandState, command: DealBoard) -> tuple[HandEvent, ...]:
    if state.phase != BOARD:
        if state.phase == BETTING:
            raise RuleViolation(
                "betting incomplete", f"the {STREETS[state.street]} betting is not complete: "
                "a card turned early is handled as a premature board card",
                next_steps(state) + ("record the premature card",),
            )
        raise RuleViolation("board", f"no board card is due at {state.phase}", next_steps(state))
    due = 3 if not state.board else 1
    if len(command.cards) != due:
        raise RuleViolation("board", f"the next street takes {due} card(s), got "
                            f"{len(command.cards)}", (f"deal {due}",))
    texts = _check_duplicates(state, command.cards)
    dealt = _BOARDS_DEALT.get(texts)
    if dealt is None:
        dealt = _BOARDS_DEALT[texts] = (BoardDealt(texts),)
        if len(_BOARDS_DEALT) > _MEMO_LIMIT:
            _BOARDS_DEALT.clear()
    return dealt


def _decide_show(state: HandState, command: ShowCards) -> tuple[HandEvent, ...]:
    player = command.player
    _check_player(state, player)
    if state.folded[player]:
        raise RuleViolation("TDA 16", f"position {player} has folded: a dead hand cannot be "
                            "shown for the pot")
    if not (state.phase == SHOWDOWN or state.betting_closed):
        raise RuleViolation("TDA 16", "cards are shown once the betting is over",
                            next_steps(state))
    if state.shown[player] is not None:
        raise RuleViolation("TDA 16", f"position {player} has already shown")
    cards = command.cards
    if len(cards) != 2:
        raise RuleViolation("TDA 16", "a hand must show both cards to win (cards speak)")
    known = state.hole[player]
    if known:
        if set(known) != set(cards):
            raise RuleViolation("cards", "the shown cards differ from the cards dealt to "
                                f"position {player} ({' '.join(card_text(c) for c in known)})")
        return (CardsShown(player, _texts(cards)),)
    return (CardsShown(player, _check_duplicates(state, cards)),)


def _decide_muck(state: HandState, command: MuckCards) -> tuple[HandEvent, ...]:
    player = command.player
    _check_player(state, player)
    if state.folded[player]:
        raise RuleViolation("muck", f"position {player} has no live hand")
    if not (state.phase == SHOWDOWN or state.betting_closed):
        raise RuleViolation("muck", "folding during the betting is recorded as a fold",
                            next_steps(state))
    _refuse_last_live_hand(state, player, "mucked")
    return (CardsMucked(player),)


def _refuse_last_live_hand(state: HandState, player: int, what: str) -> None:
    """TDA 17-B: the last player with live cards wins; his hand cannot be given up, or the
    pots would have nobody to go to."""
    if sum(1 for f in state.folded if not f) <= 1:
        raise RuleViolation("TDA 17", f"position {player} holds the last live hand: it wins "
                            f"the pot without showing and cannot be {what}",
                            ("award the pots",))


def _decide_award(state: HandState, command: AwardPots) -> tuple[HandEvent, ...]:
    if state.phase != SHOWDOWN:
        raise RuleViolation("award", f"pots are pushed after the showdown, not at {state.phase}",
                            next_steps(state))
    if command.winners is not None and not command.ruling:
        raise RuleViolation("TDA 1", "overriding the engine's award needs a director's ruling "
                            "citing the rule", ("confirm the proposed award",))
    return propose_awards(state, command.winners, command.ruling)


def _substantial_action(state: HandState) -> bool:
    if state.profile.misdeal_limit == "two_players_acted":
        return state.players_acted.bit_count() >= 2
    # TDA 36: two actions in turn with at least one putting chips in, or three actions.
    return state.actions_in_turn >= 3 or (
        state.actions_in_turn >= 2 and state.chip_actions_in_turn >= 1
    )


def _misdeal_rule(profile: Profile) -> str:
    if profile.misdeal_limit == "two_players_acted":
        return "chairperson misdeal rule 2"
    return "TDA 35, 36"


def _decide_misdeal(state: HandState, command: DeclareMisdeal) -> tuple[HandEvent, ...]:
    if state.street > 0 or state.phase not in (POSTING, BETTING) or _substantial_action(state):
        raise RuleViolation(
            _misdeal_rule(state.profile),
            "a misdeal can no longer be declared: substantial action has occurred and the hand "
            "is played to conclusion", next_steps(state),
        )
    return (MisdealDeclared(command.reason, _misdeal_rule(state.profile)),)


def _decide_expose(state: HandState, command: ExposeCard) -> tuple[HandEvent, ...]:
    _check_player(state, command.player)
    text = card_text(command.card)
    profile = state.profile
    if command.in_deal and state.street == 0 and not _substantial_action(state):
        if profile.exposed_deal_card == "misdeal":
            rule = "league misdeals"
            return (
                CardExposed(command.player, text, True, "misdeal", rule),
                MisdealDeclared(f"{text} exposed in the deal", rule),
            )
        dealt = sum(1 for h in state.hole if h is not None)
        if profile.exposed_deal_card == "misdeal_if_first_two" and dealt == 0 and \
                command.player in (0, 1):
            rule = "TDA 35"
            return (
                CardExposed(command.player, text, True, "misdeal", rule),
                MisdealDeclared(f"{text}, one of the first two cards, exposed", rule),
            )
        if state.deal_exposures:
            # TDA 35-A-7 ("any other 2 downcards"), chairperson misdeal 1(b), BSE: two cards
            # exposed by the dealer in the deal are a misdeal.
            rule = "TDA 35"
            return (
                CardExposed(command.player, text, True, "misdeal", rule),
                MisdealDeclared(f"{text}, a second card exposed in the deal", rule),
            )
        return (CardExposed(command.player, text, True,
                            "replaced by the next card; the exposed card is the burn card",
                            "TDA 35"),)
    if profile.player_exposure_kills_hand and not command.in_deal and \
            not state.folded[command.player] and _action_pending_after(state, command.player):
        rule = "BSE mucked cards"
        return (
            CardExposed(command.player, text, False,
                        "the hand is dead: a card exposed with action pending", rule),
            HandKilled(command.player, "exposed a card with action pending", rule),
        )
    consequence = "shown to the table; play continues"
    rule = "TDA 68"
    if profile.exposed_both_call_or_fold and state.exposed[command.player] >= 1 \
            and not state.betting_closed:
        consequence = "both cards exposed: the player may only call or fold"
        rule = "league exposed cards"
    return (CardExposed(command.player, text, command.in_deal, consequence, rule),)


def _action_pending_after(state: HandState, player: int) -> bool:
    """Someone other than `player` still has to act in this betting round."""
    if state.phase != BETTING:
        return False
    for j in range(state.player_count):
        if j != player and not state.folded[j] and state.stacks[j] > 0 and (
                state.acted_level[j] == NOT_ACTED or state.bets[j] < state.current_bet):
            return True
    return False


def _decide_board_early(state: HandState, command: ExposeBoardEarly) -> tuple[HandEvent, ...]:
    if state.phase != BETTING:
        raise RuleViolation("board", "a board card can be premature only during betting")
    street = STREETS[state.street + 1] if state.street < 3 else "river"
    kind = state.profile.premature_board_card
    if kind == "reshuffle_then_top_card":
        procedure = ("burn cards stay in the muck; the exposed card(s) are shuffled back into "
                     "the deck; once betting completes the top card(s) are revealed")
        rule = "league accidental reveals"
    elif kind == "reshuffle_with_burn":
        procedure = (f"the premature {street} and its burn are reshuffled with the rest of the "
                     "deck, the deck is re-cut and the cards re-dealt once the betting is done")
        rule = "BSE misdealt / exposed cards"
    elif kind == "turn_out_for_the_round":
        rule = "chairperson premature board cards"
        if street == "flop":
            procedure = ("the flop is mixed back into the stub, the burn card stays; after the "
                         "betting, shuffle, cut and deal a new flop without burning")
        elif street == "turn":
            procedure = ("the card is taken out of play for this round; the next card replaces "
                         "it after a burn, and the exposed card is shuffled back for the river")
        else:
            procedure = ("the burn card stays; the river goes back into the deck, which is "
                         "reshuffled and cut, and the river is dealt without another burn")
    else:
        procedure = (f"the burn card stays; the premature {street} goes back into the stub, "
                     f"the entire stub is reshuffled and the {street} re-dealt without another "
                     "burn once the betting is done")
        rule = "TDA RP-5"
    return (BoardExposedEarly(tuple(card_text(c) for c in command.cards), procedure, rule),)


def _decide_kill(state: HandState, command: KillHand) -> tuple[HandEvent, ...]:
    _check_player(state, command.player)
    if state.folded[command.player]:
        raise RuleViolation("dead hand", f"position {command.player} has no live hand")
    if state.phase not in (BETTING, BOARD, SHOWDOWN, POSTING):
        raise RuleViolation("dead hand", f"no live hands at {state.phase}")
    _refuse_last_live_hand(state, command.player, "killed")
    return (HandKilled(command.player, command.reason, command.rule),)


def _decide_clock(state: HandState, command: ExpireClock) -> tuple[HandEvent, ...]:
    if state.phase != BETTING or state.to_act != command.player:
        raise _not_your_turn(state, command.player)
    if state.current_bet > state.bets[command.player]:
        return (HandKilled(command.player, "clock expired facing a bet", "TDA 29"),)
    if not state.profile.clock_expired_unbet_hand_checked:
        return (HandKilled(command.player, "clock expired", "league timely bets"),)
    return (PlayerChecked(command.player),)


def _decide_absent(state: HandState, command: MarkAbsent) -> tuple[HandEvent, ...]:
    _check_player(state, command.player)
    if state.absent[command.player]:
        raise RuleViolation("absent", f"position {command.player} is already marked absent")
    return (PlayerMarkedAbsent(command.player),)


def _decide_returned(state: HandState, command: MarkReturned) -> tuple[HandEvent, ...]:
    _check_player(state, command.player)
    if not state.absent[command.player]:
        raise RuleViolation("absent", f"position {command.player} is not marked absent")
    return (PlayerReturned(command.player),)


def _decide_void(state: HandState, command: VoidHand) -> tuple[HandEvent, ...]:
    if state.profile.name == "chairperson":
        rule = "chairperson: different back or duplicate card voids all action"
    else:
        rule = "TDA 35-E: a fouled deck stops play and all bets are returned"
    return (HandVoided(command.reason, rule),)


_DECIDERS: Final[dict[type, Callable[[HandState, Any], tuple[HandEvent, ...]]]] = {
    Fold: _decide_fold, CheckCall: _decide_check_call, BetRaise: _decide_bet_raise,
    DealHole: _decide_deal_hole, DealBoard: _decide_board, ShowCards: _decide_show,
    MuckCards: _decide_muck, AwardPots: _decide_award, DeclareMisdeal: _decide_misdeal,
    ExposeCard: _decide_expose, ExposeBoardEarly: _decide_board_early, KillHand: _decide_kill,
    ExpireClock: _decide_clock, MarkAbsent: _decide_absent, MarkReturned: _decide_returned,
    VoidHand: _decide_void,
}


# --- pots and awards -----------------------------------------------------------------------


def pots(state: HandState) -> tuple[Pot, ...]:
    """Main pot and side pots in layers; folded chips and antes are dead money in them."""
    committed = state.committed
    folded = state.folded
    if folded.count(False) == 1:
        # Everyone else folded (the usual end): one pot, all of it, to the last live hand.
        total = sum(committed) + state.dead
        return (Pot(total, (folded.index(False),)),) if total else ()
    live = [i for i in range(state.player_count) if not folded[i]]
    levels = sorted({committed[i] for i in live if committed[i] > 0})
    result: list[Pot] = []
    previous = 0
    dead = state.dead
    for index, level in enumerate(levels):
        top = index == len(levels) - 1
        amount = 0
        for c in committed:
            # Dead money above the highest live level stays in the last pot.
            upper = c if top else min(c, level)
            if upper > previous:
                amount += upper - previous
        eligible = tuple(i for i in live if committed[i] >= level)
        amount += dead
        dead = 0
        if amount:
            if result and result[-1].eligible == eligible:
                result[-1] = Pot(result[-1].amount + amount, eligible)
            else:
                result.append(Pot(amount, eligible))
        previous = level
    if not levels and sum(committed) + state.dead:
        result.append(Pot(sum(committed) + state.dead, tuple(live)))
    return tuple(result)


def showdown_order(state: HandState) -> tuple[int, ...]:
    """TDA 16: the last aggressor of the final betting round shows first, else the first
    player left of the button; then clockwise."""
    n = state.player_count
    start = state.final_aggressor if state.final_aggressor is not None else 0
    return tuple(
        (start + k) % n for k in range(n) if not state.folded[(start + k) % n]
    )


def _split(state: HandState, amount: int, winners: list[int]) -> tuple[list[int], list[int]]:
    """Shares in the smallest chip in play, odd chips clockwise from the button (TDA 20)."""
    unit = state.setup.chip_unit
    n = len(winners)
    if n == 1:
        return [amount], (winners if amount % unit else [])
    units, rest = divmod(amount, unit)
    base, odd = divmod(units, n)
    shares = [base * unit] * n
    order = sorted(range(n), key=lambda k: winners[k])  # positions run clockwise from button
    if state.profile.odd_chip_all_in_first and base == 0:
        # League: nobody is eliminated by a split; the single chip goes to the all-in player.
        busted = [k for k in order if state.stacks[winners[k]] == 0]
        order = busted + [k for k in order if k not in busted]
    odd_to: list[int] = []
    for k in order[:odd]:
        shares[k] += unit
        odd_to.append(winners[k])
    if rest:
        # Less than one chip of the smallest denomination (only when the chip unit does not
        # divide the pot): it goes with the first odd chip.
        shares[order[0]] += rest
        if winners[order[0]] not in odd_to:
            odd_to.append(winners[order[0]])
    return shares, odd_to


def propose_awards(
    state: HandState,
    override: tuple[tuple[int, ...], ...] | None = None,
    ruling: str = "",
) -> tuple[PotAwarded, ...]:
    """The award of every pot as the engine computes it (or with the director's winners)."""
    result: list[PotAwarded] = []
    board = state.board
    values: dict[int, int] = {}
    for index, pot in enumerate(pots(state)):
        hand_name = ""
        if override is not None:
            if index >= len(override) or not override[index]:
                raise RuleViolation("award", f"the ruling gives no winner for pot {index}")
            winners = sorted(set(override[index]))
            bad = [w for w in winners if w not in pot.eligible]
            if bad:
                raise RuleViolation("TDA 21", f"position {bad[0]} is not eligible for pot "
                                    f"{index}", tuple(f"position {e}" for e in pot.eligible))
        elif len(pot.eligible) == 1:
            winners = [pot.eligible[0]]
        else:
            unshown = [i for i in pot.eligible if state.shown[i] is None]
            if unshown:
                raise RuleViolation(
                    "TDA 16", f"pot {index} is contested and position {unshown[0]} has not "
                    "shown both cards", ("show the cards", "muck", "award by a ruling"),
                )
            if len(board) != 5:
                raise RuleViolation("board", "the board is not complete", ("deal the board",))
            for i in pot.eligible:
                if i not in values:
                    shown = state.shown[i]
                    assert shown is not None
                    values[i] = evaluate(shown + board)
            best = max(values[i] for i in pot.eligible)
            winners = [i for i in pot.eligible if values[i] == best]
            hand_name = describe(best)
        shares, odd_to = _split(state, pot.amount, winners)
        result.append(PotAwarded(index, pot.amount, pot.eligible, tuple(winners),
                                 tuple(shares), tuple(odd_to), hand_name, ruling))
    return tuple(result)


# --- apply ---------------------------------------------------------------------------------
# Each handler copies the state's values into a list, sets what the event changes (and, through
# _advance and _close_street, who acts next or what closing the street changes) and builds the
# new state once.


def apply(state: HandState, event: HandEvent) -> HandState:
    """The state after `event`: total and pure (the fold of replay and of the live table)."""
    return _APPLIERS[type(event)](state, event)


def _apply_post(state: HandState, event: ChipsPosted) -> HandState:
    v = list(state)
    _post(v, ((event.player, event.kind, event.amount),))
    return _build(HandState, v)


def _post(v: list[Any], posts: tuple[tuple[int, str, int], ...]) -> None:
    """Forced posts (position, kind, amount) in the values `v` of the state being built; once
    none is due, the betting opens."""
    stacks: list[int] = list(v[_STACKS])
    committed: list[int] = list(v[_COMMITTED])
    bets: list[int] = list(v[_BETS])
    dead: int = v[_DEAD]
    for i, kind, amount in posts:
        stacks[i] -= amount
        if kind != "ante":
            committed[i] += amount
            bets[i] += amount
        elif sum(1 for a in v[_SETUP].antes if a) == 1:
            # TDA RP-11: a big-blind ante is paid for the whole table; it is dead money in the
            # main pot and gives the big blind no claim beyond his own bets.
            dead += amount
        else:
            committed[i] += amount
    v[_STACKS] = tuple(stacks)
    v[_COMMITTED] = tuple(committed)
    v[_BETS] = tuple(bets)
    v[_DEAD] = dead
    posts_due = v[_POSTS_DUE] = v[_POSTS_DUE][len(posts):]
    if not posts_due:
        _open_preflop(v)


def _open_preflop_state(state: HandState) -> HandState:
    v = list(state)
    _open_preflop(v)
    return _build(HandState, v)


def _open_preflop(v: list[Any]) -> None:
    setup: HandSetup = v[_SETUP]
    blinds = setup.blinds
    n = len(blinds)
    big = max(blinds) if blinds else 0
    posted = max(v[_BETS])
    level = max(big, posted) if v[_PROFILE].full_big_blind_level else posted
    first = 0
    if big:
        bb_position = n - 1 - blinds[::-1].index(big)  # the last position posting the big blind
        first = (bb_position + 1) % n
    v[_PHASE] = BETTING
    v[_CURRENT_BET] = level
    v[_LAST_FULL_RAISE] = setup.min_bet
    _advance(v, first - 1)


def _advance(v: list[Any], after: int) -> None:
    """Give the action to the first player after position `after` (clockwise, `after` itself
    last) who must act, or close the street when nobody must (v: the new state's values)."""
    # (Typed locals: compiled, the checks below are native tuple and int operations.)
    folded: tuple[bool, ...] = v[_FOLDED]
    stacks: tuple[int, ...] = v[_STACKS]
    bets: tuple[int, ...] = v[_BETS]
    acted: tuple[int, ...] = v[_ACTED_LEVEL]
    current: int = v[_CURRENT_BET]
    n = len(stacks)
    rotation = _ROTATIONS[n][after] if n < _PREBUILT else _rotation(n, after)
    i = 0
    for i in rotation:
        if not folded[i] and stacks[i] > 0 and (acted[i] == NOT_ACTED or bets[i] < current):
            break
    else:
        _close_street(v)
        return
    # He acts only if another hand is live, and, when he owes nothing, only if someone else
    # could still bet against him (a live player with chips behind).
    other_live = other_able = False
    for j in range(n):
        if j != i and not folded[j]:
            other_live = True
            if stacks[j] > 0:
                other_able = True
                break
    if not other_live or (bets[i] >= current and not other_able):
        _close_street(v)
        return
    v[_TO_ACT] = i


def _rotation(n: int, after: int) -> tuple[int, ...]:
    """The positions of an n-handed hand clockwise from the one after `after` (-1: from 0),
    `after` itself last."""
    return tuple((after + k) % n for k in range(1, n + 1))


_ROTATIONS: Final = tuple(
    tuple(_rotation(n, after) for after in range(n)) for n in range(_PREBUILT))


def _close_street(v: list[Any]) -> None:
    """The betting round is over: an uncalled bet goes back, the street's bets are reset and
    the hand moves on to the board, the showdown or its end (v: the new state's values)."""
    bets: tuple[int, ...] = v[_BETS]
    stacks: tuple[int, ...] = v[_STACKS]
    committed: tuple[int, ...] = v[_COMMITTED]
    folded: tuple[bool, ...] = v[_FOLDED]
    n = len(bets)
    ordered = sorted(bets)
    high, second = ordered[-1], ordered[-2]
    if high > second:
        top = bets.index(high)
        if not (folded[top] and top in _killed_at_deal(v[_SETUP], v[_PROFILE])):
            # An uncalled bet goes back to its bettor, but not the blind of a hand killed at
            # the deal: TDA 30, "Their posted blinds and antes forfeit to the pot".
            excess = high - second
            s = list(stacks)
            c = list(committed)
            r = list(v[_RETURNED])
            s[top] += excess
            c[top] -= excess
            r[top] += excess
            stacks, committed = tuple(s), tuple(c)
            v[_STACKS], v[_COMMITTED], v[_RETURNED] = stacks, committed, tuple(r)
    live = folded.count(False)
    able = live - _all_in(folded, stacks) if 0 in stacks else live
    aggressor: int | None = v[_AGGRESSOR]
    street: int = v[_STREET]
    final_aggressor = aggressor if aggressor is not None else v[_FINAL_AGGRESSOR]
    if aggressor is None and street == 3:
        final_aggressor = None
    betting_closed = v[_BETTING_CLOSED] or live <= 1 or able <= 1
    if live <= 1 or (street == 3 and not betting_closed) or (
        betting_closed and len(v[_BOARD]) == 5
    ):
        phase = SHOWDOWN
        if not sum(committed) and not v[_DEAD]:
            # Everyone folded to an unopposed blind with no ante and no small blind: his
            # chips came back uncalled and there is no pot to push.
            phase = COMPLETE
    else:
        phase = BOARD
    v[_PHASE] = phase
    v[_TO_ACT] = None
    v[_BETS] = _ZEROS[n] if n < _PREBUILT else (0,) * n
    v[_CURRENT_BET] = 0
    v[_LAST_FULL_RAISE] = v[_SETUP].min_bet
    v[_ACTED_LEVEL] = _NOT_ACTED[n] if n < _PREBUILT else (NOT_ACTED,) * n
    v[_AGGRESSOR] = None
    v[_FINAL_AGGRESSOR] = final_aggressor
    v[_BETTING_CLOSED] = betting_closed




def _all_in(folded: tuple[bool, ...], stacks: tuple[int, ...]) -> int:
    """Live players without chips behind."""
    return sum(1 for i in range(len(stacks)) if not folded[i] and stacks[i] <= 0)


def _count_action(v: list[Any], state: HandState, player: int, chips: bool) -> None:
    """Pre-flop actions in turn, for the misdeal rules (TDA 36; the chairperson's two players)."""
    v[_ACTIONS_IN_TURN] = state.actions_in_turn + 1
    if chips:
        v[_CHIP_ACTIONS_IN_TURN] = state.chip_actions_in_turn + 1
    v[_PLAYERS_ACTED] = state.players_acted | 1 << player


def _apply_fold(state: HandState, event: PlayerFolded | HandKilled) -> HandState:
    i = event.player
    v = list(state)
    folded_list = list(state.folded)
    folded_list[i] = True
    folded = v[_FOLDED] = tuple(folded_list)
    if state.street == 0 and isinstance(event, PlayerFolded):
        _count_action(v, state, i, False)
    phase = state.phase
    if phase == BETTING:
        to_act = state.to_act
        if to_act == i:
            _advance(v, i)
        elif folded.count(False) <= 1:
            _close_street(v)  # a hand killed out of turn can end the street (or the hand)
        elif to_act is not None and folded[to_act]:
            _advance(v, to_act)
    elif (phase == BOARD or phase == SHOWDOWN) and folded.count(False) <= 1:
        v[_PHASE] = SHOWDOWN
    return _build(HandState, v)


def _apply_check(state: HandState, event: PlayerChecked) -> HandState:
    i = event.player
    v = list(state)
    acted = list(state.acted_level)
    acted[i] = state.current_bet
    v[_ACTED_LEVEL] = tuple(acted)
    if state.street == 0:
        _count_action(v, state, i, False)
    _advance(v, i)
    return _build(HandState, v)


def _apply_call(state: HandState, event: PlayerCalled) -> HandState:
    i = event.player
    amount = event.amount
    v = list(state)
    stacks = list(state.stacks)
    bets = list(state.bets)
    committed = list(state.committed)
    acted = list(state.acted_level)
    stacks[i] -= amount
    bets[i] += amount
    committed[i] += amount
    acted[i] = state.current_bet
    v[_STACKS] = tuple(stacks)
    v[_BETS] = tuple(bets)
    v[_COMMITTED] = tuple(committed)
    v[_ACTED_LEVEL] = tuple(acted)
    if state.street == 0:
        _count_action(v, state, i, True)
    _advance(v, i)
    return _build(HandState, v)


def _apply_bet(state: HandState, event: BetMade | RaiseMade) -> HandState:
    i = event.player
    to = event.to
    v = list(state)
    stacks = list(state.stacks)
    bets = list(state.bets)
    committed = list(state.committed)
    acted = list(state.acted_level)
    add = to - bets[i]
    stacks[i] -= add
    bets[i] = to
    committed[i] += add
    acted[i] = to
    v[_STACKS] = tuple(stacks)
    v[_BETS] = tuple(bets)
    v[_COMMITTED] = tuple(committed)
    v[_ACTED_LEVEL] = tuple(acted)
    increase = to - state.current_bet
    if increase >= state.last_full_raise:
        v[_LAST_FULL_RAISE] = increase
    v[_CURRENT_BET] = to
    v[_AGGRESSOR] = i
    if state.street == 0:
        _count_action(v, state, i, True)
    _advance(v, i)
    return _build(HandState, v)


def _cards_and_bits(texts: tuple[str, ...]) -> tuple[tuple[Card, ...], int]:
    cards = tuple([_CARD_OF_TEXT[t] for t in texts])
    bits = 0
    for c in cards:
        bits |= 1 << c
    return cards, bits


def _apply_hole(state: HandState, event: HoleCardsDealt) -> HandState:
    v = list(state)
    hole = list(state.hole)
    texts = event.cards
    if len(texts) == 2:
        first, second = _CARD_OF_TEXT[texts[0]], _CARD_OF_TEXT[texts[1]]
        hole[event.player] = (first, second)
        v[_KNOWN] = state.known | 1 << first | 1 << second
    elif texts:
        hole[event.player], bits = _cards_and_bits(texts)
        v[_KNOWN] = state.known | bits
    else:
        hole[event.player] = ()
    v[_HOLE] = tuple(hole)
    return _build(HandState, v)


def _apply_board(state: HandState, event: BoardDealt) -> HandState:
    cards, bits = _cards_and_bits(event.cards)
    v = list(state)
    board = v[_BOARD] = state.board + cards
    v[_KNOWN] = state.known | bits
    if state.betting_closed:
        v[_PHASE] = SHOWDOWN if len(board) == 5 else BOARD
    else:
        v[_STREET] = state.street + 1
        v[_PHASE] = BETTING
        _advance(v, -1)
    return _build(HandState, v)


def _apply_shown(state: HandState, event: CardsShown) -> HandState:
    v = list(state)
    shown = list(state.shown)
    shown[event.player], bits = _cards_and_bits(event.cards)
    v[_SHOWN] = tuple(shown)
    v[_KNOWN] = state.known | bits
    return _build(HandState, v)


def _apply_mucked(state: HandState, event: CardsMucked) -> HandState:
    folded = list(state.folded)
    folded[event.player] = True
    v = list(state)
    v[_FOLDED] = tuple(folded)
    if folded.count(False) <= 1 and state.phase == BOARD:
        v[_PHASE] = SHOWDOWN
    return _build(HandState, v)


def _apply_award(state: HandState, event: PotAwarded) -> HandState:
    stacks = list(state.stacks)
    for w, share in zip(event.winners, event.shares, strict=True):
        stacks[w] += share
    awarded = state.awarded + event.amount
    v = list(state)
    v[_STACKS] = tuple(stacks)
    v[_AWARDED] = awarded
    if awarded >= sum(state.committed) + state.dead:
        v[_PHASE] = COMPLETE
    v[_AWARDS] = state.awards + (event,)
    return _build(HandState, v)


def _apply_misdeal(state: HandState, event: MisdealDeclared) -> HandState:
    n = state.player_count
    return _evolve(state, phase=MISDEALT, stacks=state.setup.stacks, bets=(0,) * n,
                   committed=(0,) * n, dead=0, to_act=None)


def _apply_void(state: HandState, event: HandVoided) -> HandState:
    n = state.player_count
    return _evolve(state, phase=VOID, stacks=state.setup.stacks, bets=(0,) * n,
                   committed=(0,) * n, dead=0, to_act=None)


def _apply_exposed(state: HandState, event: CardExposed) -> HandState:
    if event.in_deal and event.consequence != "shown to the table; play continues" and \
            "call or fold" not in event.consequence:
        if event.consequence.startswith("replaced"):
            return _evolve(state, deal_exposures=state.deal_exposures + 1)
        return state
    exposed = list(state.exposed)
    exposed[event.player] += 1
    call_only = state.call_only
    if "call or fold" in event.consequence:
        c = list(call_only)
        c[event.player] = True
        call_only = tuple(c)
    return _evolve(state, exposed=tuple(exposed), call_only=call_only)


def _apply_absent(state: HandState, event: PlayerMarkedAbsent | PlayerReturned) -> HandState:
    absent = list(state.absent)
    absent[event.player] = isinstance(event, PlayerMarkedAbsent)
    return _evolve(state, absent=tuple(absent))


def _apply_noop(state: HandState, event: HandEvent) -> HandState:
    return state


def _started(event: HandStarted) -> HandState:
    new = initial_state(event)
    return new if new.posts_due else _open_preflop_state(new)


def _apply_started(state: HandState, event: HandStarted) -> HandState:
    return _started(event)


_APPLIERS: Final[dict[type, Callable[[HandState, Any], HandState]]] = {
    HandStarted: _apply_started, ChipsPosted: _apply_post, HoleCardsDealt: _apply_hole,
    PlayerFolded: _apply_fold, PlayerChecked: _apply_check, PlayerCalled: _apply_call,
    BetMade: _apply_bet, RaiseMade: _apply_bet, BoardDealt: _apply_board,
    CardsShown: _apply_shown, CardsMucked: _apply_mucked, PotAwarded: _apply_award,
    MisdealDeclared: _apply_misdeal, CardExposed: _apply_exposed,
    BoardExposedEarly: _apply_noop, HandKilled: _apply_fold, PlayerMarkedAbsent: _apply_absent,
    PlayerReturned: _apply_absent, HandVoided: _apply_void,
}


def execute(state: HandState, command: Command) -> HandState:
    """Decide and apply: the state after a legal command."""
    # The commands of every hand call their decider and applier directly (compiled, a direct
    # call; see setup.py); the events are the ones those deciders can return.
    kind = type(command)
    if state.phase not in _OVER:
        if kind is Fold:
            assert isinstance(command, Fold)
            return _apply_fold(state, _decide_fold(state, command)[0])
        if kind is CheckCall:
            assert isinstance(command, CheckCall)
            answer = _decide_check_call(state, command)[0]
            if isinstance(answer, PlayerChecked):
                return _apply_check(state, answer)
            return _apply_call(state, answer)
        if kind is BetRaise:
            assert isinstance(command, BetRaise)
            return _apply_bet(state, _decide_bet_raise(state, command)[0])
        if kind is DealHole:
            assert isinstance(command, DealHole)
            return _apply_hole(state, _decide_deal_hole(state, command)[0])
    for event in decide(state, command):
        state = _APPLIERS[type(event)](state, event)
    return state


def replay_events(events: list[HandEvent] | tuple[HandEvent, ...]) -> HandState:
    """Fold a hand's events, starting from its HandStarted."""
    first = events[0]
    if not isinstance(first, HandStarted):
        raise RuleViolation("log", "a hand's events start with hand_started")
    state = _started(first)
    for event in events[1:]:
        state = apply(state, event)
    return state
