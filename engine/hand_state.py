"""A hand's state: the set-up, the frozen HandState and the values the engine shares.

Positions: 0 is the first player left of the button and the last is the button; heads-up, 0 is
the big blind and 1 the button, who posts the small blind (the PHH convention).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, NamedTuple, TypeVar

from handlog.engine.cards import FULL_DECK, Card, card_text
from handlog.engine.events import (
    PotAwarded,
)
from handlog.engine.profiles import Profile
from handlog.engine.values import fast_init

_T = TypeVar("_T")

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


@dataclass(frozen=True, slots=True, init=False)
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
    # Chips in the pot before anything is posted, nobody's: Octobermuck's odd chips forfeited
    # at a buy-down go "to the next pot" and are "awarded to the winner of the next hand".
    dead_money: int = 0
    # The digest of other rules than today's profile of that name, when the hand was recorded
    # under them (engine.profiles.rules_for); empty: today's.
    rules_digest: str = ""
    # Amounts must be made of the chips in play (TDA 25). A hand recorded before handlog
    # recorded its release with each hand (an older log) was not held to it, and is re-decided
    # as it was played: the rule is not applied after the fact.
    chips_checked: bool = True
    # The values of the chips in play at the hand's level (after every color-up), smallest
    # first: the chips a dealer can see pushed. Empty (a cash-style hand or an older log): any
    # chip worth a multiple of chip_unit. Every one is a multiple of the smallest, which is
    # chip_unit (engine/structure.py checks it after each color-up), so an amount the chips in
    # play can make is a multiple of chip_unit.
    denominations: tuple[int, ...] = ()

    def __init__(self, stacks: tuple[int, ...], blinds: tuple[int, ...], antes: tuple[int, ...],
                 min_bet: int, chip_unit: int = 1, profile: str = "tda",
                 players: tuple[str, ...] = (), seats: tuple[int, ...] = (),
                 hand_number: int = 0, button_seat: int = 0, level: int = 0,
                 small_blind_seat: int = 0, big_blind_seat: int = 0,
                 absent: tuple[int, ...] = (), dead_money: int = 0, rules_digest: str = "",
                 chips_checked: bool = True, denominations: tuple[int, ...] = ()) -> None:
        # The dataclass's __init__ with its fields' defaults, written out: compiled (setup.py),
        # each object.__setattr__ of a field is a native store, where the generated __init__
        # is Python code (a replay makes a set-up per hand). tests/test_hand_setup.py pins the
        # defaults to the fields'.
        n = len(stacks)
        object.__setattr__(self, "stacks", stacks)
        object.__setattr__(self, "blinds", blinds)
        object.__setattr__(self, "antes", antes)
        object.__setattr__(self, "min_bet", min_bet)
        object.__setattr__(self, "chip_unit", chip_unit)
        object.__setattr__(self, "profile", profile)
        # Without names or seats, the ones hand_started records (p1.., 1..): a hand started
        # live then carries the same setup as the one replayed from its events.
        object.__setattr__(self, "players", players or tuple([f"p{i + 1}" for i in range(n)]))
        object.__setattr__(self, "seats", seats or tuple(range(1, n + 1)))
        object.__setattr__(self, "hand_number", hand_number)
        object.__setattr__(self, "button_seat", button_seat)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "small_blind_seat", small_blind_seat)
        object.__setattr__(self, "big_blind_seat", big_blind_seat)
        object.__setattr__(self, "absent", absent)
        object.__setattr__(self, "dead_money", dead_money)
        object.__setattr__(self, "rules_digest", rules_digest)
        object.__setattr__(self, "chips_checked", chips_checked)
        object.__setattr__(self, "denominations", denominations)


@dataclass(frozen=True, slots=True, init=False)
class Pot:
    amount: int
    eligible: tuple[int, ...]

    def __init__(self, amount: int, eligible: tuple[int, ...]) -> None:
        # Written out, as HandSetup's: compiled, native (a replay makes a pot per hand).
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)


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
    binding: bool = False  # the one action left is what he did out of turn (TDA 53)

    def describe(self) -> tuple[str, ...]:
        options = []
        if self.can_check:
            options.append("check")
        if self.call_amount:
            options.append(f"call {self.call_amount}" + (" (all-in)" if self.call_all_in else ""))
        if self.raise_kind and self.binding:
            options.append(f"{self.raise_kind} to {self.max_to}")
        elif self.raise_kind:
            if self.min_to < self.max_to:
                options.append(f"{self.raise_kind} to {self.min_to} up to {self.max_to}")
            else:
                options.append(f"{self.raise_kind} all-in to {self.max_to}")
        if self.can_fold:
            options.append("fold")
        return tuple(options)


fast_init(LegalActions)


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
    dead: int  # in the main pot, nobody's: a big-blind ante (RP-11), the set-up's dead money
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
    exposed: tuple[int, ...]  # each player's own cards the table has seen: bit 1 << card
    absent: tuple[bool, ...]
    returned: tuple[int, ...]  # uncalled chips returned
    awarded: int
    awards: tuple[PotAwarded, ...]
    deal_exposures: int = 0  # cards the dealer exposed in the deal and replaced (TDA 35-A-7)
    known: int = 0  # every card seen in this hand (hole, board, shown): bit 1 << card
    full_bettor: int = -1  # who made the last full bet or raise this street (-1: nobody)
    held_out: int = 0  # board cards out of play for this round (chairperson's early turn): bits
    # Actions out of turn this round: (position, action, to, the bet when he acted) (TDA 53).
    out_of_turn: tuple[tuple[int, str, int, int], ...] = ()
    full_level: int = 0  # the bet after the last full bet or raise this street (pre-flop the blind)

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
_FULL_BETTOR: Final = 31
_HELD_OUT: Final = 32
_OUT_OF_TURN: Final = 33
_FULL_LEVEL: Final = 34
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
    ("_FULL_BETTOR", _FULL_BETTOR),
    ("_HELD_OUT", _HELD_OUT),
    ("_OUT_OF_TURN", _OUT_OF_TURN),
    ("_FULL_LEVEL", _FULL_LEVEL),
))


def min_raise_to(state: HandState) -> int:
    """The smallest raise total over the current bet (before the chips in play round it up):
    a full raise more (TDA 43-A, 47), or what the readings in force make it: after the flop, a
    first bet that is an all-in below the big blind doubled (`raise_over_a_short_first_bet`);
    after an all-in short of a full raise, the raise it left short completed
    (`raise_after_a_short_all_in`).

    >>> from handlog.engine.hand import HandSetup, start_hand
    >>> hand = start_hand(HandSetup((5000,) * 3, (50, 100, 0), (0,) * 3, 100, 1, "tda"))
    >>> min_raise_to(hand)
    200
    """
    current = state.current_bet
    profile = state.profile
    if state.street and 0 < current < state.setup.min_bet and \
            profile.raise_over_a_short_first_bet == "double_the_bet":
        return 2 * current
    if profile.raise_after_a_short_all_in == "complete_the_raise" and \
            (state.street == 0 or state.full_bettor >= 0):
        return state.full_level + state.last_full_raise
    return current + state.last_full_raise


def full_raise_after(state: HandState, to: int) -> int:
    """The size of a full raise once a bet or raise to `to` is made (0: it is not a full one)."""
    increase = to - state.current_bet
    if increase >= state.last_full_raise:
        return increase
    if to < min_raise_to(state):
        return 0
    # A raise a reading makes full: doubling a short first bet raises by that bet; completing
    # a raise an all-in left short raises by the raise completed.
    return increase if state.full_bettor < 0 and state.street else to - state.full_level


_new_tuple: Final = tuple.__new__
_HAND_STATE: Final = HandState  # (compiled, a Final is a constant; a class is a dict lookup)


def _build(values: list[Any]) -> HandState:
    """A state from its values in field order."""
    return _new_tuple(_HAND_STATE, values)


# max(), min() and sum() of a tuple of ints, its two highest, the hands still in: compiled,
# native loops, where the builtins and tuple methods are calls through Python (a hand's start,
# each fold and each street's end take several).


def _largest(values: tuple[int, ...]) -> int:
    """max(values) (values not empty)."""
    largest = values[0]
    for value in values:
        if value > largest:
            largest = value
    return largest


def _smallest(values: tuple[int, ...]) -> int:
    """min(values) (values not empty)."""
    smallest = values[0]
    for value in values:
        if value < smallest:
            smallest = value
    return smallest


def _total(values: tuple[int, ...]) -> int:
    """sum(values)."""
    total = 0
    for value in values:
        total += value
    return total


def _live(folded: tuple[bool, ...]) -> int:
    """folded.count(False): the hands still in."""
    live = 0
    for gone in folded:
        if not gone:
            live += 1
    return live


def _top_two(values: tuple[int, ...]) -> tuple[int, int]:
    """The last two of sorted(values), highest first (at least two values)."""
    high, second = values[0], values[1]
    if second > high:
        high, second = second, high
    for index in range(2, len(values)):
        value = values[index]
        if value > high:
            high, second = value, high
        elif value > second:
            second = value
    return high, second


# A list of a tuple's items: compiled, a comprehension copies them natively, where list() is a
# call through Python (and takes a tuple subclass such as HandState item by item through its
# iterator); in pure Python, list() is the C loop and the comprehension the slow one.
_COMPILED: Final = not __file__.endswith(".py")


def _replaced(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    """`values` with the one at `index` replaced."""
    changed = [item for item in values] if _COMPILED else list(values)
    changed[index] = value
    return tuple(changed)


def _values(state: HandState) -> list[Any]:
    """The state's values in field order, to change some and _build the next state."""
    if _COMPILED:
        return [value for value in state]
    return list(state)


def _evolve(state: HandState, **changes: Any) -> HandState:
    """A copy of `state` with some fields changed (the path of the rarer events)."""
    values = _values(state)
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return _build(values)


# Events without a payload beyond the position are values: the common ones are built once, as
# are the tuples a hand starts with (up to _PREBUILT players; more are built when needed).
_PREBUILT: Final = 32
_ZEROS: Final = tuple((0,) * n for n in range(_PREBUILT))
_FALSES: Final = tuple((False,) * n for n in range(_PREBUILT))
_NONES: Final[tuple[tuple[None, ...], ...]] = tuple((None,) * n for n in range(_PREBUILT))
_NOT_ACTED: Final = tuple((NOT_ACTED,) * n for n in range(_PREBUILT))
