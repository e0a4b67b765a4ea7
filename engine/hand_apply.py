"""`apply`: total and pure, it folds one event into the state (the fold of replay and of the
live table). Each handler copies the state's values into a list, sets what the event changes
(and, through _advance and _close_street, who acts next or what closing the street changes) and
builds the new state once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from handlog.engine.cards import Card
from handlog.engine.events import (
    ActedOutOfTurn,
    BetMade,
    BoardDealt,
    BoardExposedEarly,
    CardExposed,
    CardsMucked,
    CardsShown,
    ChipsPosted,
    ChipsPushed,
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
from handlog.engine.hand_start import _killed_at_deal, initial_state
from handlog.engine.hand_state import (
    _ACTED_LEVEL,
    _ACTIONS_IN_TURN,
    _AGGRESSOR,
    _AWARDED,
    _AWARDS,
    _BETS,
    _BETTING_CLOSED,
    _BOARD,
    _CARD_OF_TEXT,
    _CHIP_ACTIONS_IN_TURN,
    _COMMITTED,
    _CURRENT_BET,
    _DEAD,
    _FINAL_AGGRESSOR,
    _FOLDED,
    _FULL_BETTOR,
    _FULL_LEVEL,
    _HELD_OUT,
    _HOLE,
    _KNOWN,
    _LAST_FULL_RAISE,
    _NOT_ACTED,
    _OUT_OF_TURN,
    _PHASE,
    _PLAYERS_ACTED,
    _POSTS_DUE,
    _PREBUILT,
    _PROFILE,
    _RETURNED,
    _SETUP,
    _SHOWN,
    _STACKS,
    _STREET,
    _TO_ACT,
    _ZEROS,
    BETTING,
    BOARD,
    COMPLETE,
    MISDEALT,
    NOT_ACTED,
    SHOWDOWN,
    VOID,
    HandSetup,
    HandState,
    _build,
    _evolve,
    _largest,
    _live,
    _replaced,
    _top_two,
    _total,
    _values,
    full_raise_after,
)

# --- apply ---------------------------------------------------------------------------------
# Each handler copies the state's values into a list, sets what the event changes (and, through
# _advance and _close_street, who acts next or what closing the street changes) and builds the
# new state once.


def apply(state: HandState, event: HandEvent) -> HandState:
    """The state after `event`: total and pure (the fold of replay and of the live table)."""
    return _APPLIERS[type(event)](state, event)


def _apply_post(state: HandState, event: ChipsPosted) -> HandState:
    v = _values(state)
    _post(v, ((event.player, event.kind, event.amount),))
    return _build(v)


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
    v = _values(state)
    _open_preflop(v)
    return _build(v)


def _open_preflop(v: list[Any]) -> None:
    setup: HandSetup = v[_SETUP]
    blinds = setup.blinds
    n = len(blinds)
    big = _largest(blinds) if blinds else 0
    posted = _largest(v[_BETS])
    level = max(big, posted) if v[_PROFILE].full_big_blind_level else posted
    first = 0
    if big:
        bb_position = n - 1 - blinds[::-1].index(big)  # the last position posting the big blind
        first = (bb_position + 1) % n
    v[_PHASE] = BETTING
    v[_CURRENT_BET] = level
    v[_FULL_LEVEL] = level
    # The smallest pre-flop raise is to preflop_min_raise_multiple big blinds (TDA 43: twice).
    v[_LAST_FULL_RAISE] = setup.min_bet * (v[_PROFILE].preflop_min_raise_multiple - 1) or \
        setup.min_bet
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
    high, second = _top_two(bets)
    if high > second:
        top = bets.index(high)
        # Only a hand ruled dead can have folded with the highest bet in front of it.
        if not (folded[top] and (v[_PROFILE].dead_hand_forfeits_chips_in_action
                                 or top in _killed_at_deal(v[_SETUP], v[_PROFILE]))):
            # An uncalled bet goes back to its bettor, but not the blind of a hand killed at
            # the deal: TDA 30, "Their posted blinds and antes forfeit to the pot"; nor, under
            # BSE, any bet of a dead hand ("all the player's chips in action ... are lost").
            excess = high - second
            s = list(stacks)
            c = list(committed)
            r = list(v[_RETURNED])
            s[top] += excess
            c[top] -= excess
            r[top] += excess
            stacks, committed = tuple(s), tuple(c)
            v[_STACKS], v[_COMMITTED], v[_RETURNED] = stacks, committed, tuple(r)
    live = _live(folded)
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
        if not _total(committed) and not v[_DEAD]:
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
    v[_FULL_BETTOR] = -1
    v[_FULL_LEVEL] = 0
    if v[_OUT_OF_TURN]:
        v[_OUT_OF_TURN] = ()  # an action out of turn speaks for its betting round only
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


_PLAYER_FOLDED: Final = PlayerFolded  # (compiled, a constant; the class, a dict lookup)


def _apply_fold(state: HandState, event: PlayerFolded | HandKilled) -> HandState:
    i = event.player
    v = _values(state)
    folded = v[_FOLDED] = _replaced(state.folded, i, True)
    if state.street == 0 and type(event) is _PLAYER_FOLDED:
        _count_action(v, state, i, False)
    phase = state.phase
    if phase == BETTING:
        to_act = state.to_act
        if to_act == i:
            _advance(v, i)
        elif _live(folded) <= 1:
            _close_street(v)  # a hand killed out of turn can end the street (or the hand)
        elif to_act is not None and folded[to_act]:
            _advance(v, to_act)
    elif (phase == BOARD or phase == SHOWDOWN) and _live(folded) <= 1:
        v[_PHASE] = SHOWDOWN
    return _build(v)


def _apply_check(state: HandState, event: PlayerChecked) -> HandState:
    i = event.player
    v = _values(state)
    v[_ACTED_LEVEL] = _replaced(state.acted_level, i, state.current_bet)
    if state.street == 0:
        _count_action(v, state, i, False)
    _advance(v, i)
    return _build(v)


def _put_in(v: list[Any], state: HandState, i: int, amount: int, level: int) -> None:
    """Position i puts `amount` more in front of him and has acted at bet `level` (a call or
    a bet/raise; v: the new state's values)."""
    v[_STACKS] = _replaced(state.stacks, i, state.stacks[i] - amount)
    v[_BETS] = _replaced(state.bets, i, state.bets[i] + amount)
    v[_COMMITTED] = _replaced(state.committed, i, state.committed[i] + amount)
    v[_ACTED_LEVEL] = _replaced(state.acted_level, i, level)


def _apply_call(state: HandState, event: PlayerCalled) -> HandState:
    i = event.player
    v = _values(state)
    _put_in(v, state, i, event.amount, state.current_bet)
    if state.street == 0:
        _count_action(v, state, i, True)
    _advance(v, i)
    return _build(v)


def _apply_bet(state: HandState, event: BetMade | RaiseMade) -> HandState:
    i = event.player
    to = event.to
    v = _values(state)
    _put_in(v, state, i, to - state.bets[i], to)
    full = full_raise_after(state, to)
    if full:
        v[_LAST_FULL_RAISE] = full
        v[_FULL_BETTOR] = i
        v[_FULL_LEVEL] = to
    v[_CURRENT_BET] = to
    v[_AGGRESSOR] = i
    if state.street == 0:
        _count_action(v, state, i, True)
    _advance(v, i)
    return _build(v)


def _cards_and_bits(texts: tuple[str, ...]) -> tuple[tuple[Card, ...], int]:
    cards = tuple([_CARD_OF_TEXT[t] for t in texts])
    bits = 0
    for c in cards:
        bits |= 1 << c
    return cards, bits


def _apply_hole(state: HandState, event: HoleCardsDealt) -> HandState:
    v = _values(state)
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
    return _build(v)


def _apply_board(state: HandState, event: BoardDealt) -> HandState:
    cards, bits = _cards_and_bits(event.cards)
    v = _values(state)
    board = v[_BOARD] = state.board + cards
    v[_KNOWN] = state.known | bits
    if state.held_out:
        # Chairperson: a turn card turned early was out of play for that round only; once the
        # turn is dealt it is shuffled back for the river.
        v[_KNOWN] = (state.known & ~state.held_out) | bits
        v[_HELD_OUT] = 0
    if state.betting_closed:
        v[_PHASE] = SHOWDOWN if len(board) == 5 else BOARD
    else:
        v[_STREET] = state.street + 1
        v[_PHASE] = BETTING
        _advance(v, -1)
    return _build(v)


def _apply_shown(state: HandState, event: CardsShown) -> HandState:
    v = _values(state)
    shown = list(state.shown)
    shown[event.player], bits = _cards_and_bits(event.cards)
    v[_SHOWN] = tuple(shown)
    v[_KNOWN] = state.known | bits
    return _build(v)


def _apply_mucked(state: HandState, event: CardsMucked) -> HandState:
    v = _values(state)
    folded = v[_FOLDED] = _replaced(state.folded, event.player, True)
    if _live(folded) <= 1 and state.phase == BOARD:
        v[_PHASE] = SHOWDOWN
    return _build(v)


def _apply_award(state: HandState, event: PotAwarded) -> HandState:
    stacks = list(state.stacks)
    for w, share in zip(event.winners, event.shares, strict=True):
        stacks[w] += share
    awarded = state.awarded + event.amount
    v = _values(state)
    v[_STACKS] = tuple(stacks)
    v[_AWARDED] = awarded
    if awarded >= _total(state.committed) + state.dead:
        v[_PHASE] = COMPLETE
    v[_AWARDS] = state.awards + (event,)
    return _build(v)


def _apply_misdeal(state: HandState, event: MisdealDeclared) -> HandState:
    n = state.player_count
    # Everything goes back; the set-up's dead money waits for the exact re-deal.
    return _evolve(state, phase=MISDEALT, stacks=state.setup.stacks, bets=(0,) * n,
                   committed=(0,) * n, dead=state.setup.dead_money, to_act=None)


def _apply_void(state: HandState, event: HandVoided) -> HandState:
    n = state.player_count
    # Bets returned; the set-up's dead money stays for the table's next pot.
    return _evolve(state, phase=VOID, stacks=state.setup.stacks, bets=(0,) * n,
                   committed=(0,) * n, dead=state.setup.dead_money, to_act=None)


def _apply_exposed(state: HandState, event: CardExposed) -> HandState:
    # Branches on the consequence's code, never on words (engine/words.py renders them).
    consequence = event.consequence
    if consequence == "replaced_as_burn":
        return _evolve(state, deal_exposures=state.deal_exposures + 1)
    if consequence == "misdeal":
        return state
    exposed = list(state.exposed)
    exposed[event.player] |= 1 << _CARD_OF_TEXT[event.card]
    call_only = state.call_only
    if consequence == "call_or_fold":
        c = list(call_only)
        c[event.player] = True
        call_only = tuple(c)
    return _evolve(state, exposed=tuple(exposed), call_only=call_only)


def _apply_absent(state: HandState, event: PlayerMarkedAbsent | PlayerReturned) -> HandState:
    absent = list(state.absent)
    absent[event.player] = isinstance(event, PlayerMarkedAbsent)
    return _evolve(state, absent=tuple(absent))


def _apply_out_of_turn(state: HandState, event: ActedOutOfTurn) -> HandState:
    entry = (event.player, event.action, event.to, event.level)
    return _evolve(state, out_of_turn=state.out_of_turn + (entry,))


def _apply_board_early(state: HandState, event: BoardExposedEarly) -> HandState:
    if state.profile.premature_board_card == "turn_out_for_the_round" and state.street == 1:
        # Chairperson: "the card is taken out of play for that round": it cannot be the turn.
        _, bits = _cards_and_bits(event.cards)
        return _evolve(state, held_out=state.held_out | bits, known=state.known | bits)
    return state


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
    BoardExposedEarly: _apply_board_early, HandKilled: _apply_fold,
    PlayerMarkedAbsent: _apply_absent, PlayerReturned: _apply_absent, HandVoided: _apply_void,
    ChipsPushed: _apply_noop,  # the facts and the ruling; the action event follows
    ActedOutOfTurn: _apply_out_of_turn,
}
