"""Shared Hypothesis strategies for the engine: hand setups, decks and whole hands played out.

One module for every property test (the attrs way). A generated hand is played through the
engine's own front door: each step is a command chosen from what `legal_actions` (or the phase)
allows, decided and applied, and the hand keeps every command, event and state on the way so
that a test can check an invariant at each step. The few plain builders the golden tests share
(a table with its blinds posted, a run of commands) live at the end.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hypothesis import strategies as st

from handlog.engine.cards import Card, parse_cards
from handlog.engine.commands import (
    ActOutOfTurn,
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
    PushChips,
    ShowCards,
    VoidHand,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandEvent
from handlog.engine.hand import (
    BETTING,
    BOARD,
    SHOWDOWN,
    HandSetup,
    HandState,
    apply,
    begin,
    decide,
    execute,
    legal_actions,
    showdown_order,
    start_hand,
)
from handlog.engine.profiles import PROFILES

PROFILE_NAMES: tuple[str, ...] = tuple(PROFILES)
ANTE_KINDS = ("none", "uniform", "big_blind")


def big_blind_position(player_count: int) -> int:
    """Heads-up the big blind is position 0; otherwise position 1 (0 is the small blind)."""
    return 0 if player_count == 2 else 1


def small_blind_position(player_count: int) -> int:
    return 1 if player_count == 2 else 0


@st.composite
def hand_setups(
    draw: st.DrawFn,
    *,
    min_players: int = 2,
    max_players: int = 10,
    profiles: Sequence[str] = PROFILE_NAMES,
    ante_kinds: Sequence[str] = ANTE_KINDS,
    chip_units: Sequence[int] = (1, 5, 25),
    short_stacks: bool = True,
    absent_seats: bool = True,
    dead_money: bool = True,
    denominations: bool = True,
) -> HandSetup:
    """Blinds, antes and stacks of one hand, every amount a multiple of the chip unit.

    With `short_stacks`, some stacks are a few big blinds or less (a big blind or an ante may
    be posted all-in); without, every player covers his forced bets with chips to spare. With
    `absent_seats`, now and then a player or two are away from the table at the deal. With
    `dead_money`, now and then the pot starts with chips carried from a color-up (Octobermuck).
    With `denominations`, half the hands carry the chips in play of a tournament level (the
    smallest, 4 and 20 times it); the others only the smallest chip (any multiple a chip).
    """
    n = draw(st.integers(min_players, max_players))
    unit = draw(st.sampled_from(chip_units))
    big_units = draw(st.integers(1, 20))
    small_units = draw(st.integers(0, big_units))
    big, small = big_units * unit, small_units * unit
    blinds = [0] * n
    blinds[big_blind_position(n)] = big
    blinds[small_blind_position(n)] = small
    antes = [0] * n
    kind = draw(st.sampled_from(ante_kinds))
    if kind == "uniform":
        antes = [draw(st.integers(1, max(1, big_units // 2))) * unit] * n
    elif kind == "big_blind":
        antes[big_blind_position(n)] = draw(st.integers(1, big_units)) * unit
    stacks = []
    for i in range(n):
        forced = blinds[i] + antes[i]
        if short_stacks and draw(st.integers(0, 4)) == 0:
            stack = draw(st.integers(1, 3 * big_units + 1)) * unit
        else:
            stack = forced + draw(st.integers(1, 200 * big_units)) * unit
        stacks.append(stack)
    absent: tuple[int, ...] = ()
    if absent_seats and draw(st.integers(0, 5)) == 0:
        absent = tuple(sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=2))))
    carried = 0
    if dead_money and draw(st.integers(0, 5)) == 0:
        carried = draw(st.integers(1, 20)) * unit
    return HandSetup(
        stacks=tuple(stacks), blinds=tuple(blinds), antes=tuple(antes), min_bet=big,
        chip_unit=unit, profile=draw(st.sampled_from(list(profiles))),
        button_seat=n, hand_number=draw(st.integers(0, 10_000)), absent=absent,
        dead_money=carried,
        denominations=(unit, 4 * unit, 20 * unit) if denominations and draw(st.booleans())
        else (),
    )


def decks() -> st.SearchStrategy[tuple[Card, ...]]:
    """A shuffled deck: hole cards from the top, then burn and board cards."""
    return st.permutations(range(52)).map(tuple)


class PlayedHand:
    """A hand played to the end: its commands, the events they caused and every state.

    `states[0]` is the state after the forced posts; `states[k]` the state after
    `commands[k - 1]`, when the first `event_counts[k]` events had been recorded. (A plain
    class, not a dataclass, so that a failing example prints what reproduces it, not every
    state with its profile.)
    """

    __slots__ = ("setup", "deck", "commands", "events", "states", "event_counts")

    def __init__(self, setup: HandSetup, deck: tuple[Card, ...], commands: tuple[Command, ...],
                 events: tuple[HandEvent, ...], states: tuple[HandState, ...],
                 event_counts: tuple[int, ...]) -> None:
        self.setup = setup
        self.deck = deck
        self.commands = commands
        self.events = events
        self.states = states
        self.event_counts = event_counts

    @property
    def final(self) -> HandState:
        return self.states[-1]

    def __repr__(self) -> str:
        return (f"PlayedHand(setup={self.setup!r}, deck={self.deck!r}, "
                f"commands={self.commands!r}, final_stacks={self.final.stacks!r})")


def hole_cards(deck: Sequence[Card], player: int) -> tuple[Card, Card]:
    return deck[2 * player], deck[2 * player + 1]


def board_cards(deck: Sequence[Card], player_count: int, board_size: int) -> tuple[Card, ...]:
    """The next board card(s) after `board_size` are out: one burn before each street."""
    top = 2 * player_count
    if board_size == 0:
        return tuple(deck[top + 1:top + 4])
    burned = 2 if board_size == 3 else 3
    position = top + board_size + burned
    return (deck[position],)


def action_choices(state: HandState) -> list[str]:
    """The kinds of action the player to act may take (a fold when a check is free is rare)."""
    la = legal_actions(state)
    assert la is not None
    kinds: list[str] = []
    if la.can_check or la.call_amount:
        kinds += ["checkcall"] * 3
    if la.can_fold:
        kinds += ["fold"] * (1 if la.can_check else 2)
    if la.raise_kind:
        kinds += ["min", "max", "between"] if la.min_to < la.max_to else ["max"]
    return kinds


@st.composite
def betting_commands(draw: st.DrawFn, state: HandState, unit: int,
                     folds_when_free: bool = True) -> Command:
    """One legal action for the player to act: fold, check or call, or a bet or raise of the
    minimum, the maximum (all-in) or an amount in between."""
    la = legal_actions(state)
    assert la is not None
    kinds = action_choices(state)
    if not folds_when_free and la.can_check:
        kinds = [k for k in kinds if k != "fold"]
    kind = draw(st.sampled_from(kinds))
    player = la.player
    if kind == "fold":
        return Fold(player)
    if kind == "checkcall":
        return CheckCall(player)
    if kind == "min":
        return BetRaise(player, la.min_to)
    if kind == "max":
        return BetRaise(player, la.max_to)
    steps = (la.max_to - la.min_to) // unit
    return BetRaise(player, la.min_to + unit * draw(st.integers(0, steps)))


@st.composite
def pushes(draw: st.DrawFn, state: HandState) -> PushChips:
    """What a dealer may see the player to act do: chips of the denominations in play (the
    hand's, else 1, 4 and 20 times the smallest chip) put out in one motion or several, something
    said or not, the bounty chip now and then; never more chips than he has."""
    la = legal_actions(state)
    assert la is not None
    unit = state.setup.chip_unit
    in_play = state.setup.denominations or (unit, 4 * unit, 20 * unit)
    stack = state.stacks[la.player]
    chips: list[int] = []
    for value in draw(st.lists(st.sampled_from(in_play), max_size=12)):
        if sum(chips) + value <= stack:
            chips.append(value)
    motions: tuple[int, ...] = ()
    if len(chips) > 1 and draw(st.booleans()):
        cut = draw(st.integers(1, len(chips) - 1))
        motions = (cut, len(chips) - cut)
    said = draw(st.sampled_from(("nothing", "nothing", "nothing", "call", "raise", "raise_to",
                                 "all_in")))
    said_to = 0
    if said == "raise_to":
        said_to = draw(st.integers(1, max(1, la.max_to // unit))) * unit
    return PushChips(la.player, tuple(chips), motions, said, said_to,
                     bounty_chip=draw(st.integers(0, 9)) == 0)


def irregular_commands(state: HandState, deck: Sequence[Card]) -> list[Command]:
    """Irregular commands the engine accepts in this state: a hand killed, the clock expiring,
    a player marked absent or back, a card exposed by a player or in the deal, a premature
    board card, and (rarely listed, since they end the hand) a misdeal or a void hand."""
    n = state.player_count
    live = [i for i in range(n) if not state.folded[i]]
    options: list[Command] = []
    if len(live) > 1:
        options += [KillHand(i, "fouled hand", "TDA 65") for i in live]
    if state.phase == BETTING and state.to_act is not None:
        options.append(ExpireClock(state.to_act))
        # With the time counted: refused before the clock's seconds and countdown are over.
        options.append(ExpireClock(state.to_act, 29))
        options.append(ExpireClock(state.to_act, 30))
        options.append(ExposeBoardEarly(tuple(deck[-3:] if not state.board else deck[-1:])))
        # An action out of turn by a live player who is not to act: pending, then binding.
        options += [ActOutOfTurn(i, "call") for i in live if i != state.to_act][:1]
    options += [MarkReturned(i) if state.absent[i] else MarkAbsent(i) for i in live]
    if not state.betting_closed:
        options += [ExposeCard(i, hole_cards(deck, i)[0], in_deal=False) for i in live]
    if state.street == 0:
        options.append(ExposeCard(live[-1], hole_cards(deck, live[-1])[1], in_deal=True))
        options.append(DeclareMisdeal("wrong number of cards"))
    options.append(VoidHand("a card with a different back"))
    return [c for c in options if _accepted(state, c)]


def _accepted(state: HandState, command: Command) -> bool:
    try:
        decide(state, command)
    except RuleViolation:
        return False
    return True


@st.composite
def played_hands(
    draw: st.DrawFn,
    setups: st.SearchStrategy[HandSetup] | None = None,
    *,
    irregular: bool = False,
    muck: bool = True,
    folds_when_free: bool = True,
    physical: bool = False,
) -> PlayedHand:
    """A hand dealt from a shuffled deck and played with random legal commands to the end.

    Boards are dealt when due; once betting is closed by an all-in some hands are tabled at
    once (TDA 16); at showdown every contender shows (or, with `muck` and nobody all-in, some
    muck while another hand is still live), then the pots are pushed. With `irregular`, the
    commands of `irregular_commands` are mixed in (so a hand may also end in a misdeal or a
    void). With `physical`, about half the betting entries are what the dealer saw (`pushes`:
    chips pushed, words said) for the engine to rule, where the facts can be (else the declared
    action).
    """
    setup = draw(setups if setups is not None else hand_setups())
    deck = draw(decks())
    n = len(setup.stacks)
    events: list[HandEvent] = list(begin(setup))
    state = start_hand(setup)
    states = [state]
    event_counts = [len(events)]
    commands: list[Command] = []

    def run(command: Command) -> None:
        nonlocal state
        for event in decide(state, command):
            state = apply(state, event)
            events.append(event)
        commands.append(command)
        states.append(state)
        event_counts.append(len(events))

    for i in range(n):
        run(DealHole(i, hole_cards(deck, i)))
    while not state.is_complete:
        if irregular and draw(st.integers(0, 9)) == 0:
            options = irregular_commands(state, deck)
            if options:
                run(draw(st.sampled_from(options)))
                continue
        if state.phase == BETTING:
            if physical and draw(st.booleans()):
                push = draw(pushes(state))
                if _accepted(state, push):
                    run(push)
                    continue
            run(draw(betting_commands(state, setup.chip_unit, folds_when_free)))
        elif state.phase == BOARD:
            if state.betting_closed and draw(st.booleans()):
                for i in state.contenders:
                    if state.shown[i] is None:
                        run(ShowCards(i, hole_cards(deck, i)))
            run(DealBoard(board_cards(deck, n, len(state.board))))
        else:
            assert state.phase == SHOWDOWN, state.phase
            for i in showdown_order(state):
                if state.folded[i] or state.shown[i] is not None:
                    continue
                all_in = any(state.stacks[j] == 0 for j in state.contenders)
                if muck and not all_in and len(state.contenders) > 1 and \
                        draw(st.integers(0, 3)) == 0:
                    run(MuckCards(i))
                else:
                    run(ShowCards(i, hole_cards(deck, i)))
            run(AwardPots())
    return PlayedHand(setup, deck, tuple(commands), tuple(events), tuple(states),
                      tuple(event_counts))


# --- plain builders for the golden tests ---------------------------------------------------


def new_hand(stacks: Sequence[int], small: int = 50, big: int = 100, *, ante: int = 0,
             big_blind_ante: int = 0, profile: str = "tda", chip_unit: int = 1) -> HandState:
    """A hand with its forced bets posted: blinds `small`/`big` (heads-up the big blind is
    position 0), a uniform `ante` or a `big_blind_ante`; the minimum bet is the big blind."""
    n = len(stacks)
    blinds = [0] * n
    blinds[small_blind_position(n)] = small
    blinds[big_blind_position(n)] = big
    antes = [ante] * n
    if big_blind_ante:
        antes[big_blind_position(n)] = big_blind_ante
    return start_hand(HandSetup(
        stacks=tuple(stacks), blinds=tuple(blinds), antes=tuple(antes), min_bet=big,
        chip_unit=chip_unit, profile=profile,
    ))


def play(state: HandState, *commands: Command) -> HandState:
    """The state after each command in turn (each decided and applied)."""
    for command in commands:
        state = execute(state, command)
    return state


def call_around(state: HandState) -> HandState:
    """Everybody still to act on this street checks or calls."""
    street = state.street
    while state.phase == BETTING and state.street == street:
        assert state.to_act is not None
        state = execute(state, CheckCall(state.to_act))
    return state


def deal(state: HandState, cards: str) -> HandState:
    """The next board card(s), given as text ("2c7d9h")."""
    return execute(state, DealBoard(parse_cards(cards)))


# ---------------------------------------------------------------------------------------------
# Hostile files: a real file damaged the ways an attacker or a broken disk would (the parsers'
# fuzz tests, tests/test_fuzz_parsers.py)

HOSTILE_NUMBERS = ("inf", "-inf", "+inf", "nan", "Infinity", "NaN", "1e400", "-1e400", "1e-400",
                   "1" + "0" * 400, "9" * 5000, "1e15", "1000000000000001", "-0", "0.5",
                   "0x7f", "1_000", "99999999999999999999.99999999999999999999", "-1")
_NUMBER = re.compile(r"(?<![\w.#'-])-?\d+(?:\.\d+)?(?![\w.'-])")
_DEPTHS = (1, 2, 63, 64, 65, 1000, 100_000)


@st.composite
def hostile_bytes(draw: st.DrawFn, seed: str, kind: str) -> bytes:
    """`seed` (a TOML, JSON or plain text file) with one to three of: a number swapped for an
    infinite, not-a-number or enormous one; a value nested 1 to 100,000 levels deep (arrays, or
    tables/objects); the text cut short; stray characters put in; then encoded as UTF-8, with
    a BOM, as UTF-16, as cp1252, or with bytes that are no encoding's."""
    text = seed
    for _ in range(draw(st.integers(1, 3))):
        numbers = list(_NUMBER.finditer(text))
        mutation = draw(st.sampled_from(("number", "nest", "cut", "insert")))
        if mutation in ("number", "nest") and numbers:
            found = numbers[draw(st.integers(0, len(numbers) - 1))]
            value = (draw(st.sampled_from(HOSTILE_NUMBERS)) if mutation == "number"
                     else _nested(found.group(), draw(st.sampled_from(_DEPTHS)),
                                  draw(st.booleans()), kind))
            text = text[:found.start()] + value + text[found.end():]
        elif mutation == "cut":
            text = text[:draw(st.integers(0, len(text)))]
        else:
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.text(alphabet='[]{}"\'=,:#\\\n \x00é€1e9.-', max_size=30)
                                    ) + text[at:]
    encoding = draw(st.sampled_from(("utf-8", "utf-8", "bom", "utf-16", "cp1252", "junk")))
    if encoding == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    if encoding in ("utf-16", "cp1252"):
        return text.encode(encoding, errors="replace")
    raw = text.encode("utf-8")
    if encoding == "junk":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.binary(min_size=1, max_size=8)) + b"\xff\xfe\xc3" + raw[at:]
    return raw


def _nested(value: str, depth: int, tables: bool, kind: str) -> str:
    if not tables or kind == "text":
        return "[" * depth + value + "]" * depth
    opener = "{a = " if kind == "toml" else '{"a": '
    return opener * depth + value + "}" * depth
