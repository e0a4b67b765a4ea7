"""What the dealer sees, ruled under the profile: chips pushed and words said become an action.

The dealer enters the physical facts (`PushChips`: each chip put out, in how many motions, what
was said, the bounty chip); `rule_push` turns them into the action the house rules make of them
(a check, a call, or a bet or raise to a total) with the reason and the rule, from the legal
actions of the moment, so a ruling is always one of the legal actions. engine/hand_decide.py
records the facts and the ruling (`chips_pushed`) and then the action itself.

    facing 1,100 (a raise of 600), fifteen 100 chips in one motion, nothing said:
    TDA 45: not every chip is needed to call, and 400 over the call reaches 50% of 600:
    a raise, held to a full raise to 1,700. Thirteen 100 chips: 200 over, short of 50%: a call.
"""

from __future__ import annotations

from handlog.engine.commands import SAID, PushChips
from handlog.engine.errors import RuleViolation
from handlog.engine.hand_state import HandState, LegalActions
from handlog.engine.values import record
from handlog.engine.words import render_rule

REASONS: tuple[str, ...] = (
    "declared",  # what was said decides (a call, "raise N", all-in)
    "declared_raise",  # "raise" said: the chips pushed are the amount
    "held_to_minimum",  # a declared or chip-made raise or bet short of the minimum: held to it
    "raise_not_open",  # a raise declared or pushed where the betting is closed to him: a call
    "one_chip",  # a single chip, nothing said (TDA 44: a call facing a bet, else a bet)
    "every_chip_needed",  # several chips, each needed to call (TDA 45): a call
    "fifty_percent",  # several chips reaching 50% of the last raise over the call: a raise
    "under_fifty_percent",  # several chips short of that: a call
    "raise_for_total",  # several chips are a raise for the total (BSE)
    "several_chips_bet",  # several chips, no bet to face: a bet of the total
    "string_bet",  # several motions, nothing said: ruled per the profile's string_bet
    "bounty_chip",  # the bounty chip put in: an all-in (Octobermuck)
)
"""The reason codes of a ruling (`chips_pushed.reason`); words are rendered when read."""


@record
class PushRuling:
    """The action the facts are ruled as: `ruled` is "check", "call", "bet" or "raise"."""

    ruled: str
    to: int
    reason: str
    rule: str


def check_push(state: HandState, command: PushChips, unit: int) -> None:
    """Facts that cannot be: refused, naming the field and what is allowed."""
    if command.said not in SAID:
        raise RuleViolation("push", f"said {command.said!r} is not one of the words the "
                            f"tablet knows; allowed: {', '.join(SAID)}")
    if (command.said in ("raise_to", "raise_by")) != (command.said_to > 0):
        raise RuleViolation("push", "said_to: the number said with 'raise to N' (raise_to) or "
                            "'raise N' (raise_by), and only with those",
                            ("said raise_to or raise_by with said_to N", "said_to 0"))
    in_play = state.setup.denominations
    if in_play:
        # The structure's chips at this level (after its color-ups): no other chip exists.
        wrong = [chip for chip in command.chips if chip not in in_play]
        if wrong:
            raise RuleViolation(state.profile.rule("chips_in_play"), f"a chip of {wrong[0]} is "
                                "not in play at this level: every chip pushed must be one of "
                                "the chips in play", tuple(str(v) for v in in_play))
    elif any(chip <= 0 or chip % unit for chip in command.chips):
        raise RuleViolation(state.profile.rule("chips_in_play"), "every chip pushed must be a "
                            f"chip in play (a multiple of the smallest chip, {unit})")
    if command.motions and (sum(command.motions) != len(command.chips)
                            or min(command.motions) <= 0):
        raise RuleViolation("push", f"motions count the chips of each motion: they must add "
                            f"up to the {len(command.chips)} chip(s) pushed")
    if sum(command.chips) > state.stacks[command.player]:
        raise RuleViolation("table-stakes", f"{sum(command.chips)} pushed but the player has "
                            f"{state.stacks[command.player]} behind")
    if not command.chips and not command.bounty_chip and command.said == "nothing":
        raise RuleViolation("push", "nothing pushed and nothing said: record a check or a fold",
                            ("check", "fold"))


def rule_push(state: HandState, command: PushChips, la: LegalActions) -> PushRuling:
    """The action `command`'s facts are under the profile (one of `la`'s options)."""
    profile = state.profile
    i = command.player
    if command.bounty_chip:
        if not profile.bounty_chip_all_in:
            rule = profile.rule("bounty_chip")
            raise RuleViolation(rule, "no bounty chip stands for an all-in under these house "
                                f"rules ({render_rule(rule, profile)}): record what was said "
                                "or the chips pushed", la.describe())
        return _all_in(la, "bounty_chip", profile.rule("bounty_chip"))
    said = command.said
    if said == "all_in":
        return _all_in(la, "declared", profile.rule("declared"))
    if said == "call":
        return _call(la, "declared", profile.rule("declared"))
    if said == "raise_to":
        return _raise(la, command.said_to, "declared", profile.rule("declared"), state)
    if said == "raise_by":
        # "Raise N" (Octobermuck: 'say "raise" followed by "X$" and you can raise the amount
        # you state'): N more than the bet he faces.
        return _raise(la, state.current_bet + command.said_to, "declared",
                      profile.rule("declared"), state)
    chips = command.chips
    if said == "raise":
        # "Raise" said: the chips put out are the amount, at least a minimum raise (a raise
        # said over the chips of a call is held to the minimum).
        to = max(state.bets[i] + sum(chips), state.current_bet + 1)
        return _raise(la, to, "declared_raise", profile.rule("declared"), state)
    if len(command.motions) > 1:
        rule = profile.rule("string_bet")
        if profile.string_bet == "call_or_min_raise" and la.call_amount:
            # League: "The first motion of the Chips ... will be considered the bet": under or
            # near the bet a call; over it by a reasonable amount (taken as half a raise, the
            # 50% standard) a minimum raise. The second motion never counts (issue 24: the
            # call and then more was ruled a raise).
            over = state.bets[i] + sum(chips[:command.motions[0]]) - state.current_bet
            if over * 2 >= state.last_full_raise and la.raise_kind:
                return PushRuling("raise", la.min_to, "string_bet", rule)
            return _call(la, "string_bet", rule)
        # The first motion is the bet (TDA 42; Octobermuck: no more than the chips taken
        # into the pot): what follows it does not count.
        first = chips[:command.motions[0]]
        ruling = _silent(state, first, la)
        return PushRuling(ruling.ruled, ruling.to, "string_bet", rule)
    return _silent(state, chips, la)


def _silent(state: HandState, chips: tuple[int, ...], la: LegalActions) -> PushRuling:
    """Chips put out in one motion without a word.

    Facing the big blind of 100: one 500 chip is a call (TDA 44); three 100 chips, not all
    needed to call and at least half a raise over it, a raise, held to a full one (TDA 45).

    >>> from handlog.engine.commands import PushChips
    >>> from handlog.engine.hand import HandSetup, legal_actions, start_hand
    >>> hand = start_hand(HandSetup(stacks=(1000, 1000, 1000), blinds=(50, 100, 0),
    ...                             antes=(0, 0, 0), min_bet=100))
    >>> rule_push(hand, PushChips(2, (500,)), legal_actions(hand))
    PushRuling(ruled='call', to=0, reason='one_chip', rule='tda-44')
    >>> rule_push(hand, PushChips(2, (100, 100, 100)), legal_actions(hand))
    PushRuling(ruled='raise', to=300, reason='fifty_percent', rule='tda-45')
    """
    profile = state.profile
    i = la.player
    total = state.bets[i] + sum(chips)
    if len(chips) == 1:
        rule = profile.rule("one_chip")
        # BSE: "any single chip ... a call"; League: "Before the flop, if a player bets a
        # single chip greater than the big blind without announcing a raise, then this is only
        # a call" (the big blind's option included: a check).
        before_the_flop = profile.single_chip_unannounced == "call_before_the_flop" \
            and not state.board
        if la.call_amount or profile.single_chip_unannounced == "call" or before_the_flop:
            return _call(la, "one_chip", rule)
        return _raise(la, total, "one_chip", rule, state)  # a bet of the chip's full value
    rule = profile.rule("several_chips")
    if not la.call_amount:
        return _raise(la, total, "several_chips_bet", rule, state)
    if profile.several_chips_unannounced == "raise_for_total":
        if total > state.current_bet:
            return _raise(la, total, "raise_for_total", rule, state, held_by_rule=True)
        return _call(la, "raise_for_total", rule)
    # TDA 45: a call if every chip is needed to call (removing one leaves less than the call).
    if sum(chips) - min(chips) < la.call_amount:
        return _call(la, "every_chip_needed", rule)
    # Else the 50% standard (TDA 43-B): 50% of the last raise over the call makes a raise,
    # held to a full raise.
    if (total - state.current_bet) * 2 >= state.last_full_raise:
        return _raise(la, total, "fifty_percent", rule, state, held_by_rule=True)
    return _call(la, "under_fifty_percent", rule)


def _call(la: LegalActions, reason: str, rule: str) -> PushRuling:
    return PushRuling("call" if la.call_amount else "check", 0, reason, rule)


def _all_in(la: LegalActions, reason: str, rule: str) -> PushRuling:
    if la.raise_kind:
        return PushRuling(la.raise_kind, la.max_to, reason, rule)
    return _call(la, reason, rule)


def _raise(la: LegalActions, to: int, reason: str, rule: str, state: HandState,
           held_by_rule: bool = False) -> PushRuling:
    """A bet or raise to `to`, held to the legal minimum and capped at all-in; a call where
    the betting is closed to him. `held_by_rule`: the rule itself holds it to a full raise
    (TDA 45's 50% standard), so the ruling keeps its reason."""
    if not la.raise_kind:
        ruling = _call(la, "raise_not_open", state.profile.rule("reopen"))
        return ruling if to > state.current_bet else _call(la, reason, rule)
    if to >= la.max_to:
        return PushRuling(la.raise_kind, la.max_to, reason, rule)
    if to <= state.current_bet:
        return _call(la, reason, rule)
    if to < la.min_to and held_by_rule:
        return PushRuling(la.raise_kind, la.min_to, reason, rule)
    if to < la.min_to:
        return PushRuling(la.raise_kind, la.min_to, "held_to_minimum",
                          state.profile.rule("min_raise" if la.raise_kind == "raise"
                                             else "min_bet"))
    return PushRuling(la.raise_kind, to, reason, rule)
