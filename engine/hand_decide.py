"""`decide`: a command checked against the state and the house-rule profile gives the events it
causes, or RuleViolation naming the rule and the legal options. The legal-actions query the
tablet uses (`legal_actions`) is the same code `decide` validates with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from handlog.engine.cards import FULL_DECK, Card, card_text
from handlog.engine.commands import (
    OUT_OF_TURN_ACTIONS,
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
from handlog.engine.events import (
    ActedOutOfTurn,
    BetMade,
    BoardExposedEarly,
    CardExposed,
    CardsMucked,
    CardsShown,
    ChipsPushed,
    HandEvent,
    HandKilled,
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
from handlog.engine.hand_memo import (
    bet_made,
    board_dealt,
    called,
    checked,
    folded,
    known_hole_deal,
    raise_made,
    remember_hole_deal,
)
from handlog.engine.hand_pots import propose_awards
from handlog.engine.hand_push import check_push, rule_push
from handlog.engine.hand_state import (
    _OVER,
    _TEXT_OF_CARD,
    BETTING,
    BOARD,
    NOT_ACTED,
    POSTING,
    SHOWDOWN,
    STREETS,
    HandState,
    LegalActions,
    _texts,
    full_raise_after,
    min_raise_to,
)
from handlog.engine.profiles import TDA_RULES, Profile
from handlog.engine.words import ordinal, render_rule, rule_ids

_TDA_35: Final = ("tda-35",)


# --- legal actions -------------------------------------------------------------------------


def legal_actions(state: HandState) -> LegalActions | None:
    """What the player to act may do, or None when nobody is to act.

    Three players, blinds 50-100: position 2 (the button) acts first before the flop.

    >>> from handlog.engine.hand import HandSetup, start_hand
    >>> hand = start_hand(HandSetup(stacks=(1000, 1000, 1000), blinds=(50, 100, 0),
    ...                             antes=(0, 0, 0), min_bet=100))
    >>> legal_actions(hand).describe()
    ('call 100', 'raise to 200 up to 1000', 'fold')
    """
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
    if state.out_of_turn:
        binding = _binding_out_of_turn(state, i)
        if binding is not None:
            return _bound(i, binding, owed, call, stack, raise_kind)
    return LegalActions(
        player=i, can_fold=True, can_check=owed <= 0, call_amount=call,
        call_all_in=call > 0 and call == stack, raise_kind=raise_kind, min_to=min_to,
        max_to=max_to,
    )


def _bound(i: int, binding: tuple[str, int], owed: int, call: int, stack: int,
           raise_kind: str) -> LegalActions:
    """What is left to a player bound by his action out of turn (TDA 53): that action."""
    action, to = binding
    if action == "fold":
        return LegalActions(i, True, False, 0, False, "", 0, 0, True)
    if action in ("check", "call"):
        return LegalActions(i, False, owed <= 0, call, call > 0 and call == stack, "", 0, 0,
                            True)
    return LegalActions(i, False, False, 0, False, raise_kind, to, to, True)


def _raise_bounds(state: HandState, i: int) -> tuple[str, int, int] | None:
    """The bet or raise player `i` (to act) may make: (kind, min_to, max_to), or None. The one
    computation both legal_actions and decide use.

    A raise is at least the last full bet or raise again (TDA 43): over a raise of 200 (to
    300), the small blind may raise to 500 at least, 1,000 (all-in) at most.

    >>> from handlog.engine.commands import BetRaise
    >>> from handlog.engine.hand import HandSetup, execute, start_hand
    >>> hand = start_hand(HandSetup(stacks=(1000, 1000, 1000), blinds=(50, 100, 0),
    ...                             antes=(0, 0, 0), min_bet=100))
    >>> _raise_bounds(execute(hand, BetRaise(2, 300)), 0)
    ('raise', 500, 1000)
    """
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
    min_to = min_raise_to(state)
    unit = state.setup.chip_unit
    if unit > 1 and state.setup.chips_checked:
        # Only what the chips in play can make is offered: the chips pushed are a multiple of
        # the smallest chip (every chip in play is a multiple of it), all-in aside.
        short = (min_to - bets[i]) % unit
        if short:
            min_to += unit - short
    return "raise", min(min_to, max_to), max_to


def _raise_open(state: HandState, i: int) -> bool:
    """TDA 47 (and the profile's percent and measure): has the betting been reopened for this
    player? (`reopening` shows a worked case.)"""
    level = state.acted_level[i]
    if level == NOT_ACTED:
        return True
    profile = state.profile
    increase = state.current_bet - level
    if profile.reopen_measure == "own_bet_total":
        if i != state.full_bettor:
            # Octobermuck speaks only of "the original bettor": anyone else who already acted
            # is reopened as the TDA says (47: a full bet or raise).
            return increase >= state.last_full_raise
        # The original bettor: a short all-in reopens for him only at `percent` more than his
        # own total; a full raise reopens as under the TDA.
        return increase >= state.last_full_raise or \
            state.current_bet * 100 >= level * (100 + profile.reopen_percent)
    return increase * 100 >= state.last_full_raise * profile.reopen_percent


def _reopen_rule(state: HandState, i: int) -> str:
    """The rule that closed the betting to player `i`: the profile's own, or TDA 47 where its
    document is silent (Octobermuck speaks only of the original bettor)."""
    profile = state.profile
    if profile.reopen_measure == "own_bet_total" and i != state.full_bettor:
        return TDA_RULES["reopen"]
    return profile.rule("reopen")


def _not_your_turn(state: HandState, player: int) -> RuleViolation:
    la = legal_actions(state)
    if state.phase != BETTING or la is None:
        return RuleViolation("tda-53", f"no betting now: the hand is at {state.phase}",
                             next_steps(state))
    return RuleViolation(
        "tda-53", f"it is position {la.player}'s turn to act, not position {player}'s",
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
        raise RuleViolation("hand-complete", f"the hand is {state.phase}: nothing more can be "
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
    if state.out_of_turn:
        _check_out_of_turn(state, player, "fold", 0)
    if state.absent[player] and state.profile.absent_big_blind_checks and \
            state.current_bet <= state.bets[player]:
        raise RuleViolation("absent-player", "an absent big blind is checked through "
                            f"under the {state.profile.name} profile", ("check",))
    return folded(player)


def _decide_check_call(state: HandState,
                       command: CheckCall) -> tuple[PlayerChecked | PlayerCalled, ...]:
    player = command.player
    if state.to_act != player or state.phase != BETTING:
        raise _out_of_turn(state, player)
    owed = state.current_bet - state.bets[player]
    if state.out_of_turn:
        _check_out_of_turn(state, player, "call" if owed > 0 else "check", 0)
    if state.absent[player] and not (owed <= 0 and state.profile.absent_big_blind_checks):
        raise RuleViolation("tda-30", "the player is absent: his hand is killed when the "
                            "action reaches him", ("fold",))
    if owed <= 0:
        return checked(player)
    stack = state.stacks[player]
    if owed >= stack:
        return called(player, stack, True)
    return called(player, owed, False)


def _decide_bet_raise(state: HandState,
                      command: BetRaise) -> tuple[BetMade | RaiseMade, ...]:
    player = command.player
    if state.to_act != player or state.phase != BETTING:
        raise _out_of_turn(state, player)
    bounds = _raise_bounds(state, player)
    to = command.to
    current = state.current_bet
    if state.out_of_turn:
        _check_out_of_turn(state, player, "bet" if current == 0 else "raise", to)
    if bounds is not None:
        kind, min_to, max_to = bounds
        if min_to <= to <= max_to and to > current:
            if not chips_make(state, player, to, max_to):
                raise _unmakeable(state, player, to, state.setup.chip_unit)
            if kind == "bet":
                return bet_made(player, to, to == max_to)
            return raise_made(player, to, to == max_to, full_raise_after(state, to) > 0)
    raise _refused_bet(state, player, to)


def chips_make(state: HandState, player: int, to: int, max_to: int) -> bool:
    """Can the chips in play make a bet or raise of `player` to `to` (TDA 25)? The chips he
    pushes must be a multiple of the smallest chip in play, unless he is all-in (`max_to`). The
    one test decide and the tablet's offers (engine/offers.py) use."""
    unit = state.setup.chip_unit
    return unit <= 1 or to == max_to or not state.setup.chips_checked \
        or (to - state.bets[player]) % unit == 0


def _unmakeable(state: HandState, player: int, to: int, unit: int) -> RuleViolation:
    """A bet or raise the chips in play cannot make (not all-in)."""
    la = legal_actions(state)
    assert la is not None
    below = to - (to - state.bets[player]) % unit
    options = [o for o in (below, below + unit) if la.min_to <= o <= la.max_to]
    rule = state.profile.rule("chips_in_play")
    return RuleViolation(
        rule, f"{la.raise_kind} to {to} cannot be made with the chips in play: the smallest "
        f"chip is {unit}, so the chips pushed must be a multiple of it unless all-in "
        f"({render_rule(rule, state.profile)})",
        tuple(f"{la.raise_kind} to {o}" for o in options) + la.describe())


def _refused_bet(state: HandState, player: int, to: int) -> RuleViolation:
    """Why a bet or raise to `to` is refused, with the legal options."""
    la = legal_actions(state)
    assert la is not None
    if not la.raise_kind:
        if state.call_only[player]:
            rule, why = "league-exposed-cards", "this player exposed both cards: call or fold only"
        elif state.absent[player]:
            rule, why = "tda-30", "the player is absent"
        elif la.call_all_in or state.stacks[player] <= la.call_amount:
            rule, why = "all-in", "the player has no chips beyond a call"
        elif not _raise_open(state, player):
            rule = _reopen_rule(state, player)
            why = ("a short all-in did not reopen the betting for a player who already acted: "
                   f"call or fold ({render_rule(rule, state.profile)})")
        else:
            rule, why = "tda-43", ("no player left who could call more than the current bet: "
                                   "every other player is all-in or covered")
        return RuleViolation(rule, why, la.describe())
    if to > la.max_to:
        return RuleViolation("table-stakes", f"{la.raise_kind} to {to} is more than the "
                             f"player has: all-in is {la.max_to}", la.describe())
    if to < la.min_to and to != la.max_to:
        profile = state.profile
        if la.raise_kind == "bet":
            rule = profile.rule("min_bet")
            why = f"the minimum bet is {la.min_to} (the big blind)"
        else:
            rule = profile.rule("min_raise")
            why = (f"a raise must be to at least {la.min_to} (the last full raise was "
                   f"{state.last_full_raise}"
                   + (", and the chips in play make no less"
                      if la.min_to != min_raise_to(state) else "")
                   + _reading_in_force(state)
                   + "); less is allowed only all-in")
        why += f" ({render_rule(rule, profile)})"
        return RuleViolation(rule, f"{la.raise_kind} to {to} is too small: {why}", la.describe())
    return RuleViolation("tda-43", f"{to} does not raise the bet of {state.current_bet}",
                         la.describe())


def _reading_in_force(state: HandState) -> str:
    """Which open sentence's reading set the minimum, when one did (words for the refusal)."""
    profile = state.profile
    if state.current_bet + state.last_full_raise == min_raise_to(state):
        return ""
    name = "raise_over_a_short_first_bet" if state.street and state.full_bettor < 0 else \
        "raise_after_a_short_all_in"
    return f"; the reading in force: {name} = {getattr(profile, name)}"


def _binding_out_of_turn(state: HandState, player: int) -> tuple[str, int] | None:
    """The action `player` took out of turn this round and that now binds him (TDA 53: the
    action to him did not change), or None."""
    if state.profile.out_of_turn != "binding_unless_action_changes" or state.absent[player]:
        # League: 'they can pull their chips back'; an absent player's hand is killed.
        return None
    for position, action, to, level in state.out_of_turn:
        if position == player and level == state.current_bet:
            return action, to
    return None


def _check_out_of_turn(state: HandState, player: int, action: str, to: int) -> None:
    binding = _binding_out_of_turn(state, player)
    if binding is None:
        return
    bound, bound_to = binding
    same = bound == action or {bound, action} <= {"check", "call"} or (
        {bound, action} <= {"bet", "raise"} and bound_to == to)
    if not same:
        words = bound + (f" to {bound_to}" if bound in ("bet", "raise") else "")
        raise RuleViolation(
            state.profile.rule("out_of_turn"), f"position {player} acted out of turn ({words}) "
            "and the action to him has not changed: it is binding "
            f"({render_rule(state.profile.rule('out_of_turn'), state.profile)})", (words,))


def _decide_out_of_turn(state: HandState, command: ActOutOfTurn) -> tuple[HandEvent, ...]:
    """An action before the player's turn, recorded as pending (TDA 53)."""
    player = command.player
    _check_player(state, player)
    if state.phase != BETTING or state.to_act is None:
        raise RuleViolation("tda-53", f"no betting now: the hand is at {state.phase}")
    if player == state.to_act:
        raise RuleViolation("tda-53", f"it is position {player}'s turn: record the action")
    if state.folded[player] or state.stacks[player] <= 0:
        raise RuleViolation("tda-53", f"position {player} has no action to take")
    if command.action not in OUT_OF_TURN_ACTIONS:
        raise RuleViolation("tda-53", f"{command.action!r} is not an action; allowed: "
                            f"{', '.join(OUT_OF_TURN_ACTIONS)}")
    if (command.action in ("bet", "raise")) != (command.to > 0):
        raise RuleViolation("tda-53", "a bet or raise out of turn names its total (to), and "
                            "only those do")
    if command.to:
        # It must be an amount that would be legal were it his turn (it binds as it stands).
        bounds = _raise_bounds(state, player)
        kind = "bet" if state.current_bet == 0 else "raise"
        if bounds is None or command.action != kind or not (
                bounds[1] <= command.to <= bounds[2] or command.to == bounds[2]):
            options = (f"{bounds[0]} to {bounds[1]} up to {bounds[2]}",) if bounds else ()
            raise RuleViolation("tda-53", f"{command.action} to {command.to} out of turn would "
                                "not be legal at his turn", options + ("check or call",
                                                                         "fold"))
    return (ActedOutOfTurn(player, command.action, command.to, state.current_bet,
                           state.profile.rule("out_of_turn")),)


def _decide_push(state: HandState, command: PushChips) -> tuple[HandEvent, ...]:
    """The physical facts, ruled under the profile (engine/hand_push.py): the facts and the
    ruling (`chips_pushed`), then the action they are ruled as."""
    player = command.player
    if state.to_act != player or state.phase != BETTING:
        raise _out_of_turn(state, player)
    la = legal_actions(state)
    assert la is not None
    if state.absent[player]:
        raise RuleViolation("tda-30", "the player is absent: his hand is killed when the "
                            "action reaches him", la.describe())
    check_push(state, command, state.setup.chip_unit)
    ruling = rule_push(state, command, la)
    if ruling.ruled in ("check", "call"):
        action: tuple[HandEvent, ...] = _decide_check_call(state, CheckCall(player))
    else:
        action = _decide_bet_raise(state, BetRaise(player, ruling.to))
    pushed = ChipsPushed(player, command.chips, command.motions, command.said, command.said_to,
                         command.bounty_chip, ruling.ruled, ruling.to, ruling.reason,
                         ruling.rule)
    return (pushed, *action)


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
        "duplicate-card", f"{', '.join(dup)} is already in this hand: a duplicate card "
        "voids the hand (all action void, chips returned)", ("void the hand", "re-enter"),
    )


def _decide_deal_hole(state: HandState, command: DealHole) -> tuple[HoleCardsDealt, ...]:
    return _hole_dealt(state, command.player, command.cards)


def _hole_dealt(state: HandState, player: int,
                cards: tuple[Card, ...] | None) -> tuple[HoleCardsDealt, ...]:
    """The events of DealHole(player, cards)."""
    if cards and len(cards) == 2 and 0 <= player < len(state.stacks) and \
            state.hole[player] is None:
        # The usual deal: two cards new to the hand. Its event is a value: the same deal
        # (player, cards) gives the same event, built once.
        known = known_hole_deal(player, cards)
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
                remember_hole_deal(player, cards, dealt)
                return dealt
    _check_player(state, player)
    if state.hole[player] is not None:
        raise RuleViolation("deal", f"position {player} already has hole cards")
    if not cards:
        return (HoleCardsDealt(player, ()),)
    if len(cards) != 2:
        raise RuleViolation("deal", f"Hold'em hole cards are two, got {len(cards)}")
    return (HoleCardsDealt(player, _check_duplicates(state, cards)),)


def _decide_board(state: HandState, command: DealBoard) -> tuple[HandEvent, ...]:
    if state.phase != BOARD:
        if state.phase == BETTING:
            raise RuleViolation(
                "betting-incomplete", f"the {STREETS[state.street]} betting is not complete: "
                "a card turned early is handled as a premature board card",
                next_steps(state) + ("record the premature card",),
            )
        raise RuleViolation("board", f"no board card is due at {state.phase}", next_steps(state))
    due = 3 if not state.board else 1
    if len(command.cards) != due:
        raise RuleViolation("board", f"the next street takes {due} card(s), got "
                            f"{len(command.cards)}", (f"deal {due}",))
    if state.held_out:
        _refuse_held_out(state, command.cards)
    texts = _check_duplicates(state, command.cards)
    return board_dealt(texts)


def _refuse_held_out(state: HandState, cards: tuple[Card, ...]) -> None:
    held = [c for c in cards if isinstance(c, int) and 0 <= c < 64 and state.held_out >> c & 1]
    if held:
        raise RuleViolation(
            state.profile.rule("premature_board"),
            f"{card_text(held[0])} was turned before the betting was complete and is out of "
            "play for this round: burn and turn the next card in its place (it is shuffled "
            "back for the river)", ("deal the next card as the turn",))


def _decide_show(state: HandState, command: ShowCards) -> tuple[HandEvent, ...]:
    player = command.player
    _check_player(state, player)
    if state.folded[player]:
        raise RuleViolation("tda-16", f"position {player} has folded: a dead hand cannot be "
                            "shown for the pot")
    if not (state.phase == SHOWDOWN or state.betting_closed):
        raise RuleViolation("tda-16", "cards are shown once the betting is over",
                            next_steps(state))
    if state.shown[player] is not None:
        raise RuleViolation("tda-16", f"position {player} has already shown")
    cards = command.cards
    if len(cards) != 2:
        raise RuleViolation("tda-16", "a hand must show both cards to win (cards speak)")
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
    if state.phase == BETTING and not state.betting_closed:
        # Cards thrown into the muck during the betting are a fold (League Mucking Your Cards:
        # 'If you throw your cards into the "muck" ... then your hand is folded'; TDA 2024
        # alike): at his turn the fold, before it a fold out of turn (TDA 53, pending).
        if state.to_act == player:
            return _decide_fold(state, Fold(player))
        return _decide_out_of_turn(state, ActOutOfTurn(player, "fold"))
    if not (state.phase == SHOWDOWN or state.betting_closed):
        raise RuleViolation("muck", "folding during the betting is recorded as a fold",
                            next_steps(state))
    _refuse_last_live_hand(state, player, "mucked")
    if state.profile.all_in_hands_tabled and any(
            not folded and stack == 0
            for folded, stack in zip(state.folded, state.stacks, strict=True)):
        # TDA 16 (and every house document: BSE all-in, league, Octobermuck): once a player is
        # all-in and the betting is over, every hand still in is tabled face up.
        raise RuleViolation("tda-16", f"position {player} cannot muck: a player is all-in and "
                            "the betting is over, so every hand still in is turned face up",
                            ("show the cards", "a director may rule the hand dead"))
    return (CardsMucked(player),)


def _refuse_last_live_hand(state: HandState, player: int, what: str) -> None:
    """TDA 17-B: the last player with live cards wins; his hand cannot be given up, or the
    pots would have nobody to go to."""
    if sum(1 for f in state.folded if not f) <= 1:
        raise RuleViolation("tda-17", f"position {player} holds the last live hand: it wins "
                            f"the pot without showing and cannot be {what}",
                            ("award the pots",))


def _decide_award(state: HandState, command: AwardPots) -> tuple[PotAwarded, ...]:
    if state.phase != SHOWDOWN:
        raise RuleViolation("award", f"pots are pushed after the showdown, not at {state.phase}",
                            next_steps(state))
    if command.winners is not None and not command.ruling:
        raise RuleViolation("tda-1", "overriding the engine's award needs a director's ruling "
                            "citing the rule", ("confirm the proposed award",))
    return propose_awards(state, command.winners, command.ruling)


def _substantial_action(state: HandState) -> bool:
    if state.profile.misdeal_limit == "two_players_acted":
        # Chairperson: "Action is considered to occur when two players after the blinds have
        # acted on their hands": what the blinds do does not count.
        blinds = state.setup.blinds
        after_blinds = state.players_acted
        for i in range(len(blinds)):
            if blinds[i]:
                after_blinds &= ~(1 << i)
        return after_blinds.bit_count() >= 2
    # TDA 36: two actions in turn with at least one putting chips in, or three actions.
    return state.actions_in_turn >= 3 or (
        state.actions_in_turn >= 2 and state.chip_actions_in_turn >= 1
    )


def _misdeal_rule(profile: Profile) -> str:
    return profile.rule("misdeal")


def _misdeal_rules(profile: Profile) -> tuple[str, ...]:
    """What a misdeal event cites: the profile's own misdeal rule, else TDA 35 and 36."""
    own = profile.rule_ids.get("misdeal")
    return (own,) if own else ("tda-35", "tda-36")


def _decide_misdeal(state: HandState, command: DeclareMisdeal) -> tuple[HandEvent, ...]:
    if state.street > 0 or state.phase not in (POSTING, BETTING) or _substantial_action(state):
        raise RuleViolation(
            _misdeal_rule(state.profile),
            "a misdeal can no longer be declared: substantial action has occurred and the hand "
            "is played to conclusion", next_steps(state),
        )
    return (MisdealDeclared("declared", _misdeal_rules(state.profile), command.reason),)


def _dealt_to(state: HandState, command: ExposeCard) -> int:
    """The position the exposed card went to: the one its place in the deal names (the deal
    goes round from position 0, the first player left of the button, twice), which must be
    the player entered when one is."""
    place = command.place
    if not place:
        _check_player(state, command.player)
        return command.player
    n = state.player_count
    if not command.in_deal or not 1 <= place <= 2 * n:
        raise RuleViolation("place", f"place: {place} is not a card of this deal" + (
            "" if command.in_deal else " (a place is for a card exposed in the deal)"),
            (f"1 to {2 * n}: the 1st card dealt goes to position 0 (left of the button), the "
             f"{ordinal(n + 1)} is his second",))
    player = (place - 1) % n
    if command.player not in (-1, player):
        raise RuleViolation("place", f"place: the {ordinal(place)} card dealt goes to position "
                            f"{player}, not {command.player}",
                            (f"player {player}", "player -1: the one the place names"))
    return player


def _decide_expose(state: HandState, command: ExposeCard) -> tuple[HandEvent, ...]:
    player = _dealt_to(state, command)
    place = command.place
    text = card_text(command.card)
    profile = state.profile
    if command.in_deal and state.street == 0 and not _substantial_action(state):
        if profile.exposed_deal_card == "misdeal":
            rules: tuple[str, ...] = ("league-misdeals",)
            return (
                CardExposed(player, text, True, "misdeal", rules, place),
                MisdealDeclared("card_exposed_in_deal", rules),
            )
        # TDA 35-A-7, chairperson: the first or second card dealt. Entered by its place, that
        # is places 1 and 2; entered by seat alone, positions 0 and 1 before any hole card is
        # recorded (the blinds' second cards cannot be told from their first).
        first_two = place in (1, 2) if place else \
            not any(h is not None for h in state.hole) and player in (0, 1)
        if profile.exposed_deal_card == "misdeal_if_first_two" and first_two:
            return (
                CardExposed(player, text, True, "misdeal", _TDA_35, place),
                MisdealDeclared("first_two_exposed", _TDA_35),
            )
        if state.deal_exposures:
            # TDA 35-A-7 ("any other 2 downcards"), chairperson misdeal 1(b), BSE: two cards
            # exposed by the dealer in the deal are a misdeal.
            return (
                CardExposed(player, text, True, "misdeal", _TDA_35, place),
                MisdealDeclared("second_card_exposed", _TDA_35),
            )
        return (CardExposed(player, text, True, "replaced_as_burn", _TDA_35, place),)
    if profile.player_exposure_kills_hand and not command.in_deal and \
            not state.folded[player] and _action_pending_after(state, player):
        rules = ("bse-mucked-cards",)
        return (
            CardExposed(player, text, False, "hand_dead", rules),
            HandKilled(player, "exposed_with_action_pending", rules),
        )
    consequence = "play_continues"
    rules = ("tda-68",)
    seen_before = state.exposed[player] & ~(1 << command.card)
    if profile.exposed_both_call_or_fold and seen_before and not state.betting_closed:
        # League: the second of his two cards (the same card shown again does not count).
        consequence = "call_or_fold"
        rules = ("league-exposed-cards",)
    return (CardExposed(player, text, command.in_deal, consequence, rules, place),)


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
    procedure: str = kind
    if kind == "reshuffle_then_top_card":
        rules: tuple[str, ...] = ("league-accidental-reveals",)
    elif kind == "reshuffle_with_burn":
        rules = ("bse-misdealt-exposed-cards",)
    elif kind == "turn_out_for_the_round":
        rules = ("chairperson-premature-board-cards",)
        procedure = {"flop": "flop_mixed_back", "turn": "turn_out_for_the_round"}.get(
            street, "river_reshuffled")
    else:
        rules = ("tda-rp-5",)
    return (BoardExposedEarly(tuple(card_text(c) for c in command.cards), procedure, rules),)


def _decide_kill(state: HandState, command: KillHand) -> tuple[HandEvent, ...]:
    _check_player(state, command.player)
    if state.folded[command.player]:
        raise RuleViolation("dead-hand", f"position {command.player} has no live hand")
    if state.phase not in (BETTING, BOARD, SHOWDOWN, POSTING):
        raise RuleViolation("dead-hand", f"no live hands at {state.phase}")
    _refuse_last_live_hand(state, command.player, "killed")
    return (HandKilled(command.player, "ruling", rule_ids(command.rule), command.reason),)


def _decide_clock(state: HandState, command: ExpireClock) -> tuple[HandEvent, ...]:
    if state.phase != BETTING or state.to_act != command.player:
        raise _not_your_turn(state, command.player)
    profile = state.profile
    allowed = profile.clock_seconds + profile.clock_countdown_seconds
    if 0 <= command.seconds < allowed:
        raise RuleViolation(
            profile.rule("clock"), f"the clock has not run out: {command.seconds} of "
            f"{profile.clock_seconds} seconds and a {profile.clock_countdown_seconds}-second "
            f"countdown ({render_rule(profile.rule('clock'), profile)})",
            (f"wait {allowed - command.seconds} more seconds",))
    if state.current_bet > state.bets[command.player]:
        return (HandKilled(command.player, "clock_expired_facing_bet", ("tda-29",)),)
    if not state.profile.clock_expired_unbet_hand_checked:
        return (HandKilled(command.player, "clock_expired", ("league-timely-bets",)),)
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
    # A fouled deck (TDA 35-E) or, under the chairperson, a different back or duplicate card.
    if command.in_stub:
        # Chairperson: 'If a card with a different color back is discovered in the stub, all
        # action stands' (the usual rule everywhere: no card in play was fouled).
        rule = state.profile.rule("void")
        raise RuleViolation(rule, "a card with a different back found in the stub voids "
                            "nothing: all action stands (take the card out and play on)",
                            next_steps(state))
    return (HandVoided(command.reason, (state.profile.rule("void"),)),)


_DECIDERS: Final[dict[type, Callable[[HandState, Any], tuple[HandEvent, ...]]]] = {
    Fold: _decide_fold, CheckCall: _decide_check_call, BetRaise: _decide_bet_raise,
    PushChips: _decide_push, ActOutOfTurn: _decide_out_of_turn,
    DealHole: _decide_deal_hole, DealBoard: _decide_board, ShowCards: _decide_show,
    MuckCards: _decide_muck, AwardPots: _decide_award, DeclareMisdeal: _decide_misdeal,
    ExposeCard: _decide_expose, ExposeBoardEarly: _decide_board_early, KillHand: _decide_kill,
    ExpireClock: _decide_clock, MarkAbsent: _decide_absent, MarkReturned: _decide_returned,
    VoidHand: _decide_void,
}


def reopening(state: HandState, player: int) -> tuple[bool, str]:
    """Whether the betting is reopened for `player` now, and the identifier of the rule that
    decides it (`tda-47`, or the profile's own reopen_percent / reopen_measure): what a floor
    person is asked after a short all-in. The same test the engine validates raises with.

    TDA 47: the button raises to 300 (a raise of 200), the small blind goes all-in for 400 (a
    raise of only 100), the big blind calls; back to the button, who already acted, the short
    all-in has not reopened the betting: he may call or fold, not raise.

    >>> from handlog.engine.commands import BetRaise, CheckCall
    >>> from handlog.engine.hand import HandSetup, execute, start_hand
    >>> hand = start_hand(HandSetup(stacks=(400, 1000, 1000), blinds=(50, 100, 0),
    ...                             antes=(0, 0, 0), min_bet=100))
    >>> for command in (BetRaise(2, 300), BetRaise(0, 400), CheckCall(1)):
    ...     hand = execute(hand, command)
    >>> reopening(hand, 2)
    (False, 'tda-47')
    >>> legal_actions(hand).describe()
    ('call 100', 'fold')
    """
    profile = state.profile
    if profile.reopen_measure == "own_bet_total":
        rule = f"{profile.name}:reopen_measure"
    elif profile.reopen_percent != 100:
        rule = f"{profile.name}:reopen_percent"
    else:
        rule = "tda-47"
    return _raise_open(state, player), rule
