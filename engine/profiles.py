"""House-rule profiles: named sets of parameters, each citing the rule it comes from.

`tda` is the baseline (TDA 2024 rules v1.0 with its Recommended Procedures and Illustration
Addendum). `bse`, `octobermuck`, `chairperson` and `league` come from the four rule documents in
shared/seeds/ and differ from it where those documents do. A citation quotes the document's
sentence, or gives the TDA rule number and its gist; where a seed document says nothing the
citation says so and repeats the TDA baseline it falls back on.

Every parameter carries its meaning and its scope in the field metadata: `hand` parameters are
applied by engine/hand.py, `table` ones by engine/table.py (button and blinds across hands) and
`tournament` ones by the recorder (entries, levels, color-ups, moves, payouts).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import field, fields, replace
from typing import Any, Literal, TypeVar, get_args, get_origin, get_type_hints

from handlog.engine.site_profiles import SITE_CHANGES, SITE_TITLES
from handlog.engine.values import record

ButtonRule = Literal["dead_button", "moving_button"]
BigBlindAnteOrder = Literal["big_blind_first", "ante_first"]
ColorUp = Literal["race", "round_up", "forfeit_to_next_pot"]
ReopenMeasure = Literal["last_full_raise", "own_bet_total"]
MisdealLimit = Literal["substantial_action", "two_players_acted"]
ExposedDealCard = Literal["replace_as_burn", "misdeal_if_first_two", "misdeal"]
PrematureBoard = Literal[
    "reshuffle_keep_burn", "reshuffle_with_burn", "turn_out_for_the_round",
    "reshuffle_then_top_card",
]
HeadsUpTransition = Literal["next_big_blind_keeps_it", "button_moves_on"]
WaitingPosition = Literal["between_small_blind_and_button", "small_blind", "big_blind", "button"]
BalanceMover = Literal["next_big_blind", "high_card_draw"]
SingleChip = Literal["call_or_bet_its_value", "call", "call_before_the_flop"]
SeveralChips = Literal["tda_45", "raise_for_total"]
StringBet = Literal["first_motion", "call_or_min_raise"]
ShortFirstBet = Literal["a_full_bet_more", "double_the_bet"]
RaiseAfterShortAllIn = Literal["a_full_raise_over_it", "complete_the_raise"]
AllInOddChipPots = Literal["single_chip_pot", "any_split_pot"]
PayoutPercentsNot100 = Literal["scale_to_pool", "last_place_takes_the_rest"]
ButtonAfterButtonAndSmallBlindBust = Literal["to_the_player_before_the_small_blind",
                                             "stays_on_its_seat"]
OutOfTurn = Literal["binding_unless_action_changes", "may_be_pulled_back"]
LateEntryCloses = Literal["structure", "end_of_first_break", "end_of_level_3"]
Scope = Literal["hand", "table", "tournament"]

BlindLevel = tuple[int, int, int]
"""(small blind, big blind, ante)."""

_T = TypeVar("_T")


def _param(default: _T, scope: Scope, meaning: str) -> _T:
    """A profile parameter: its default, who applies it and what it means."""
    return field(default=default, metadata={"scope": scope, "meaning": meaning})


@record(slots=False)
class Profile:
    """One room's house rules. Every parameter has an entry in `citations`."""

    name: str
    title: str
    source: str
    # --- Betting (engine/hand.py) ---------------------------------------------------------
    reopen_percent: int = _param(
        100, "hand", "A short all-in (or several) reopens the betting to a player who already "
        "acted only when what he faces reaches this percent, measured as reopen_measure says.")
    reopen_measure: ReopenMeasure = _param(
        "last_full_raise", "hand", "What reopen_percent is a percent of: the last full bet or "
        "raise (the increase since the player acted must reach it), or the player's own bet "
        "(the bet he faces must exceed his own total by it; a full raise reopens as well).")
    full_big_blind_level: bool = _param(
        True, "hand", "An all-in for part of the big blind: callers still match the full big "
        "blind.")
    big_blind_ante_order: BigBlindAnteOrder = _param(
        "big_blind_first", "hand", "What a short big blind posts first when the table plays a "
        "big-blind ante.")
    preflop_min_raise_multiple: int = _param(
        2, "hand", "The smallest pre-flop raise is to this multiple of the big blind.")
    raise_over_a_short_first_bet: ShortFirstBet = _param(
        "a_full_bet_more", "hand", "After the flop, the first bet an all-in below the big "
        "blind: a raise is to that bet plus a full bet (the big blind), or (double_the_bet) to "
        "twice that bet, which is then a full raise.")
    raise_after_a_short_all_in: RaiseAfterShortAllIn = _param(
        "a_full_raise_over_it", "hand", "After an all-in short of a full raise: a further raise "
        "is a full raise over the all-in's total, or (complete_the_raise) it need only complete "
        "the raise the all-in did not (the last full bet level plus the last full raise).")
    dead_hand_forfeits_chips_in_action: bool = _param(
        False, "hand", "A hand ruled dead (killed) loses every chip it put in, an uncalled bet "
        "too; else its uncalled excess goes back to it like any uncalled bet.")
    # --- What the dealer sees (chips pushed, words said: engine/hand_push.py) ------------------
    single_chip_unannounced: SingleChip = _param(
        "call_or_bet_its_value", "hand", "One chip put out without a word: facing a bet a call "
        "(an oversized chip gets change); not facing one a bet of the chip's full value, or "
        "(call) a call, that is a check, whatever its value, or (call_before_the_flop) before "
        "the flop a call (the big blind's option: a check), after it a bet of its value.")
    several_chips_unannounced: SeveralChips = _param(
        "tda_45", "hand", "Several chips put out in one motion without a word, facing a bet: a "
        "call if every chip is needed to call, else a raise (held to a full raise) once they "
        "reach 50% of the last raise over the call (tda_45); or a raise for the total.")
    string_bet: StringBet = _param(
        "first_motion", "hand", "Chips put out in several motions without a word: only the "
        "first motion counts (then ruled as one motion), or the whole amount is a call when "
        "under or near the bet and a minimum raise when well over it.")
    out_of_turn: OutOfTurn = _param(
        "binding_unless_action_changes", "hand", "An action out of turn is recorded as pending; "
        "when the action reaches the player it binds unless the action changed before him "
        "(a bet or raise since), or (may_be_pulled_back) he may always act anew.")
    bounty_chip_all_in: bool = _param(
        False, "hand", "The bounty chip put in the pot (alone or with chips) is an all-in.")
    # --- Showdown and awards ----------------------------------------------------------------
    odd_chip_all_in_first: bool = _param(
        False, "hand", "A split pot of a single chip of the smallest denomination goes to the "
        "all-in winner (nobody is eliminated by a split), not by seat from the button.")
    all_in_hands_tabled: bool = _param(
        True, "hand", "Once a player is all-in and the betting is over, every hand still in is "
        "turned face up (a muck is refused); else a losing hand may be mucked, as online "
        "sites allow.")
    all_in_odd_chip_pots: AllInOddChipPots = _param(
        "single_chip_pot", "hand", "Where odd_chip_all_in_first holds, which split pots it "
        "speaks of: a pot of a single chip (a larger split's extra chip goes by seat), or "
        "(any_split_pot) the odd chip of any split pot goes to the all-in winner.")
    # --- Irregularities ---------------------------------------------------------------------
    misdeal_limit: MisdealLimit = _param(
        "substantial_action", "hand", "How much action makes a misdeal impossible (the hand "
        "is then played out).")
    exposed_deal_card: ExposedDealCard = _param(
        "misdeal_if_first_two", "hand", "What one card exposed by the dealer during the deal "
        "causes.")
    exposed_both_call_or_fold: bool = _param(
        False, "hand", "A player who exposed both hole cards before the action was complete "
        "may only call or fold.")
    player_exposure_kills_hand: bool = _param(
        False, "hand", "A player who exposes a hole card with action still pending after him "
        "has a dead hand.")
    premature_board_card: PrematureBoard = _param(
        "reshuffle_keep_burn", "hand", "What is done with board card(s) turned before the "
        "betting round was complete.")
    absent_hand_killed_at_deal: bool = _param(
        True, "hand", "A player away from his seat when the deal is complete has his hand "
        "killed at once (else when the action reaches him, so he may still come back).")
    absent_big_blind_checks: bool = _param(
        False, "hand", "An absent big blind is checked through (and stays in until a bet "
        "reaches him) instead of having the hand killed.")
    clock_seconds: int = _param(
        25, "hand", "Seconds a player has once the clock is called.")
    clock_countdown_seconds: int = _param(
        5, "hand", "The final countdown after the clock's time.")
    clock_expired_unbet_hand_checked: bool = _param(
        True, "hand", "When the clock expires on a player not facing a bet his hand is checked "
        "(facing a bet it is dead); else it is dead either way.")
    # --- Across hands (engine/table.py) -----------------------------------------------------
    button_rule: ButtonRule = _param(
        "dead_button", "table", "How the button and blinds move when a player is eliminated.")
    button_when_its_player_and_the_small_blind_bust: ButtonAfterButtonAndSmallBlindBust = _param(
        "to_the_player_before_the_small_blind", "table", "Under a moving button, when the "
        "button and the small blind are eliminated together: the button goes to the player "
        "right of the new small blind, or (stays_on_its_seat) it does not move and is dead on "
        "its empty seat.")
    heads_up_transition: HeadsUpTransition = _param(
        "next_big_blind_keeps_it", "table", "Who takes the big blind when play becomes "
        "heads-up: the player due it (so nobody has it twice running), or whoever the button "
        "moving on makes it (heads-up the button always posts the small blind and acts first "
        "pre-flop).")
    min_players_per_table: int = _param(
        2, "table", "Fewer players than this at a table cannot play hands.")
    new_player_waits_between_blind_and_button: bool = _param(
        True, "table", "A new or moved player seated where he would get the button or a blind "
        "out of turn waits for the button to pass (where: new_player_waiting_positions).")
    new_player_waiting_positions: tuple[WaitingPosition, ...] = _param(
        ("between_small_blind_and_button",), "table", "The positions in which a new or moved "
        "player is not dealt in until the button has passed him.")
    # --- Tournament (the recorder) ----------------------------------------------------------
    color_up: ColorUp = _param(
        "race", "tournament", "What happens to odd chips of a denomination removed from play.")
    color_up_keeps_a_player_in: bool = _param(
        True, "tournament", "Where odd chips are forfeited, a stack made only of odd chips "
        "becomes one chip of the new unit and plays on (else it is forfeited and the player is "
        "out without playing a hand).")
    seats_drawn_at_random: bool = _param(
        True, "tournament", "Seats are drawn at random (else the director assigns them).")
    seat_draw_suit_order: tuple[str, ...] = _param(
        ("s", "h", "d", "c"), "tournament", "Suits from highest to lowest when a card draw "
        "(for the button or a seat) ties on rank.")
    button_redraw_at: tuple[str, ...] = _param(
        (), "tournament", "Stages, besides the start, at which the button is drawn anew.")
    balance_when_short_by: int = _param(
        2, "tournament", "A table this many players short of the fullest table is balanced: "
        "the floor is told and a move is suggested.")
    balance_mover: BalanceMover = _param(
        "next_big_blind", "tournament", "Who moves when a table is balanced.")
    late_entry_penalty_big_blinds: int = _param(
        0, "tournament", "Chips deducted from a late entrant, in big blinds of the current level.")
    late_entry_closes: LateEntryCloses = _param(
        "structure", "tournament", "When late entry ends (a late player not there by then is "
        "out).")
    absent_eliminated_after_full_level: bool = _param(
        False, "tournament", "A player who plays no hand for a whole blind level has his chips "
        "removed and is eliminated (else he is blinded off).")
    bubble_busts_share: bool = _param(
        True, "tournament", "Hand-for-hand at the money: all players busting on the same hand "
        "share the place(s) paid, whatever their stacks.")
    payout_percents_not_100: PayoutPercentsNot100 = _param(
        "scale_to_pool", "tournament", "A payout row the structure accepts although its "
        "percentages do not add up to 100% (scale_to_pool): they are weights of the pool, or "
        "(last_place_takes_the_rest) every place but the last is paid as printed and the last "
        "place gets the rest.")
    deals_allowed: bool = _param(
        False, "tournament", "Players at the final table may agree a deal instead of the "
        "posted payouts.")
    re_entries_and_rebuys: bool = _param(
        True, "tournament", "Re-entries, rebuys and add-ons are sold as the structure offers "
        "them (else none: a player out of chips is out of the tournament).")
    citations: dict[str, str] = field(default_factory=dict, compare=False)
    short: str = ""
    """The document's short name in renderings ("BSE"); empty for the TDA baseline."""
    rule_ids: dict[str, str] = field(default_factory=dict, compare=False)
    """The profile's own rule identifier for a decision the engine cites (see RULE_CONCEPTS);
    a decision it has none for cites the TDA rule."""

    def rule(self, concept: str) -> str:
        """The rule identifier a decision of `concept` cites under this profile."""
        own = self.rule_ids.get(concept)
        return own if own is not None else TDA_RULES[concept]

    def parameters(self) -> list[tuple[str, object, str, str]]:
        """(name, value, what it means, where it comes from) for every rule parameter."""
        docs = parameter_docs()
        return [
            (name, getattr(self, name), docs[name], self.citations.get(name, ""))
            for name in parameter_names()
        ]


_NOT_PARAMETERS = ("name", "title", "source", "citations", "short", "rule_ids")


def parameter_names() -> tuple[str, ...]:
    """Every rule parameter, in declaration order."""
    return tuple(f.name for f in fields(Profile) if f.name not in _NOT_PARAMETERS)


def parameter_docs() -> dict[str, str]:
    """The one-line meaning of each parameter."""
    return {f.name: str(f.metadata["meaning"]) for f in fields(Profile)
            if f.name not in _NOT_PARAMETERS}


GOVERNS: dict[str, str] = {
    "reopen_percent": "engine/hand_decide.py _raise_open: whether a player who already acted "
    "may raise after short all-ins (legal actions and refusals)",
    "reopen_measure": "engine/hand_decide.py _raise_open: what the reopening percent is "
    "measured against, for the original bettor",
    "full_big_blind_level": "engine/hand_apply.py _open_preflop: the bet callers match when the "
    "big blind is all-in for less",
    "big_blind_ante_order": "engine/hand_start.py forced_posts: what a short big blind posts "
    "first",
    "preflop_min_raise_multiple": "engine/hand_apply.py _open_preflop: the smallest pre-flop "
    "raise offered and accepted",
    "dead_hand_forfeits_chips_in_action": "engine/hand_apply.py _close_street: whether a dead "
    "hand's uncalled bet goes back to it",
    "all_in_hands_tabled": "engine/hand_decide.py _decide_muck: whether a hand may be mucked "
    "once a player is all-in and the betting is over",
    "single_chip_unannounced": "engine/hand_push.py: what one chip put out silently is ruled",
    "several_chips_unannounced": "engine/hand_push.py: what several chips put out silently "
    "in one motion are ruled",
    "string_bet": "engine/hand_push.py: what chips put out in several motions are ruled",
    "out_of_turn": "engine/hand_decide.py _binding_out_of_turn: a pending out-of-turn action "
    "binds when the action reaches him, or he acts anew",
    "bounty_chip_all_in": "engine/hand_push.py: the bounty chip pushed is an all-in (else "
    "refused)",
    "odd_chip_all_in_first": "engine/hand_pots.py: who gets the odd chip of a one-chip split",
    "all_in_odd_chip_pots": "engine/hand_pots.py _split: whether the all-in winner comes first "
    "for the odd chip of a one-chip pot only or of any split",
    "raise_over_a_short_first_bet": "engine/hand_decide.py min_raise_to: the smallest raise "
    "over a first bet that is an all-in below the big blind (legal actions and refusals), and "
    "engine/hand_apply.py whether that raise is a full one",
    "raise_after_a_short_all_in": "engine/hand_decide.py min_raise_to: the smallest raise after "
    "an all-in short of a full raise (legal actions and refusals)",
    "misdeal_limit": "engine/hand_decide.py _substantial_action: whether a misdeal may still "
    "be declared",
    "exposed_deal_card": "engine/hand_decide.py _decide_expose: a card exposed in the deal is "
    "replaced or makes a misdeal",
    "exposed_both_call_or_fold": "engine/hand_decide.py _decide_expose: a player who showed "
    "both cards may only call or fold",
    "player_exposure_kills_hand": "engine/hand_decide.py _decide_expose: a card shown with "
    "action pending kills the hand",
    "premature_board_card": "engine/hand_decide.py _decide_board_early and hand_apply.py: the "
    "procedure recorded, and whether the early card may be the next street",
    "absent_hand_killed_at_deal": "engine/hand_start.py: an absent player's hand is killed at "
    "the deal or at his turn",
    "absent_big_blind_checks": "engine/hand_decide.py legal_actions: an absent big blind is "
    "checked through",
    "clock_seconds": "engine/hand_decide.py _decide_clock: when the clock may be ruled expired",
    "clock_countdown_seconds": "engine/hand_decide.py _decide_clock: when the clock may be "
    "ruled expired",
    "clock_expired_unbet_hand_checked": "engine/hand_decide.py _decide_clock: checked or dead "
    "when not facing a bet",
    "button_rule": "engine/table.py plan_hand: where the button goes after an elimination",
    "payout_percents_not_100": "engine/structure.py payouts_for (payouts, the floor, deals and "
    "the report): a row not adding up to 100% scaled, or its last place given the rest",
    "button_when_its_player_and_the_small_blind_bust": "engine/table.py plan_hand: under a "
    "moving button, where the button goes when its player and the small blind are out",
    "heads_up_transition": "engine/table.py plan_hand: who has the big blind going heads-up",
    "min_players_per_table": "engine/table.py plan_hand: a hand refused at a short table",
    "new_player_waits_between_blind_and_button": "engine/table.py plan_hand: a new player "
    "waits for the button",
    "new_player_waiting_positions": "engine/table.py plan_hand: the seats where a new player "
    "waits",
    "color_up": "engine/tournament.py color_up and color_up_racers (the recorder's color-up): "
    "race (who is dealt race cards), round up or forfeit odd chips",
    "color_up_keeps_a_player_in": "engine/colorup.py color_up_adjustments (the recorder's "
    "color-up): a stack of odd chips only gets one chip of the new unit, or is forfeited",
    "seats_drawn_at_random": "engine/seating.py seating_order (the recorder's seat draw): the "
    "players shuffled by a recorded seed, or seated in the director's (registration) order "
    "with no draw; engine/breaking.py table_to_break: the broken table's players drawn or "
    "assigned, and whether the final table is redrawn",
    "seat_draw_suit_order": "engine/seating.py draw_button and the high-card move draw: which "
    "suit wins a tie on rank",
    "button_redraw_at": "engine/breaking.py button_redraw_due, asked by table_to_break (the "
    "recorder's table break): the tables whose button is drawn anew when tables combine",
    "balance_when_short_by": "engine/seating.py needs_balancing: when a move is due",
    "balance_mover": "engine/seating.py suggest_balance: who moves",
    "late_entry_penalty_big_blinds": "engine/tournament.py register: the chips a late entrant "
    "loses",
    "late_entry_closes": "engine/tournament.py late_entry_window: when registration closes",
    "absent_eliminated_after_full_level": "engine/tournament.py remove_absent_at_level_end "
    "(the recorder's start of the next level): a player who played no hand for the whole "
    "level is removed, or blinded off",
    "bubble_busts_share": "engine/tournament.py eliminate: players busting into the money on "
    "one hand share the places",
    "deals_allowed": "engine/deals.py check_deal_allowed, asked by make_deal (the recorder's "
    "deal command): a deal is recorded or refused",
    "re_entries_and_rebuys": "engine/entries.py: a re-entry, a rebuy or an add-on is recorded "
    "as the structure offers it, or refused",
}
"""Where the engine reads each parameter and what decision it changes."""

FLIP_TEST = "tests/test_profile_flips.py::test_flipping_a_parameter_changes_a_decision"
"""The test case that proves a parameter changes a decision: FLIP_TEST[parameter]."""


def parameter_scopes() -> dict[str, str]:
    """Who applies each parameter: "hand", "table" or "tournament"."""
    return {f.name: str(f.metadata["scope"]) for f in fields(Profile)
            if f.name not in _NOT_PARAMETERS}


# --- Rule identifiers ----------------------------------------------------------------------
# What a decision cites: a stable identifier (never a sentence), rendered into words when read.
# Each concept is a kind of decision the engine cites a rule for; TDA_RULES gives the baseline
# rule, a profile's `rule_ids` its own document's rule where the document speaks.

TDA_RULES: dict[str, str] = {
    "min_bet": "tda-43",
    "balance": "tda-11-a",
    "min_raise": "tda-43",
    "reopen": "tda-47",
    "misdeal": "tda-35",
    "void": "tda-35-e",
    "straddle": "tda-23",
    "dead_hand": "tda-68",
    "premature_board": "tda-rp-5",
    "clock": "tda-29",
    "min_players": "tda-11",
    "photo_finish": "practice-photo-finish",
    "bubble": "tda-rp-8",
    "re_entry": "tda-8",
    "deal": "tda-deals",
    "absent_level": "tda-71",
    "carry": "tda-24",
    "chips_in_play": "tda-25",
    "declared": "tda-40",
    "one_chip": "tda-44",
    "several_chips": "tda-45",
    "string_bet": "tda-42",
    "bounty_chip": "tda-40",
    "out_of_turn": "tda-53",
}
RULE_CONCEPTS: tuple[str, ...] = tuple(TDA_RULES)

# --- TDA 2024 (the baseline) ---------------------------------------------------------------
# Rule numbers and gists from "Poker TDA Rules 2024, Version 1.0, Oct 9, 2024" (longform, with
# the Recommended Procedures "RP-n" and the Illustration Addendum).

TDA_CITATIONS: dict[str, str] = {
    "reopen_percent": "TDA 2024 Rule 47-A: in no-limit an all-in wager (or cumulative short "
    "all-ins) totaling less than a full bet or raise does not reopen the betting for players "
    "who have already acted and are not facing at least a full bet or raise",
    "reopen_measure": "TDA 2024 Rule 47-A: reopening is measured against 'a full bet or "
    "raise': the increase a player who already acted faces since his action, against the "
    "last full bet or raise of the round (Rule 43-A)",
    "full_big_blind_level": "TDA 2024 has no no-limit rule saying so in words: Rule 51-B makes "
    "the posted big blind the pre-flop opener, and Rule 54-B (pot limit) has pre-flop bets "
    "'assume full blinds were posted' when a blind is dead or short all-in; callers match the "
    "full big blind",
    "big_blind_ante_order": "TDA 2024 RP-11: 'If a single-payer ante is used, the big blind "
    "ante format (BBA) with big-blind-first calculation is recommended.'",
    "single_chip_unannounced": "TDA 2024 Rule 44: 'Placing a single oversized chip in the "
    "pot is a call if the player is facing a bet, unless a raise is first declared'; "
    "unopened, 'a single oversized chip put in pre-flop is a call; post-flop ... is a bet of "
    "the full value of the chip'",
    "several_chips_unannounced": "TDA 2024 Rule 45: facing a bet, multiple chips put in "
    "without declaring a raise are a call if every chip is needed to call (removing one chip "
    "leaves less than the call); otherwise the 50% standard of Rule 43 decides a call or a "
    "raise, and a raise is held to a full raise",
    "string_bet": "TDA 2024 Rule 42: a raise is made in one motion (or declared); chips put "
    "out in more than one motion without a declaration are a string bet: the first motion "
    "stands",
    "out_of_turn": "TDA 2024 Rule 53: action out of turn is binding if the action to the "
    "out-of-turn player does not change; if it changes, he may change his action (his chips "
    "come back)",
    "bounty_chip_all_in": "TDA 2024 has no bounty chip: an all-in is declared or made of "
    "chips",
    "all_in_hands_tabled": "TDA 2024 Rule 16: 'All cards will be tabled without delay once a "
    "player is all-in and all betting action by all other players in the hand is complete.'",
    "dead_hand_forfeits_chips_in_action": "TDA 2024 states no forfeit of a dead hand's "
    "uncalled bet: like any uncalled bet, the excess goes back to the player who bet it",
    "preflop_min_raise_multiple": "TDA 2024 Rule 43-A: a raise must be at least the largest "
    "prior full bet or raise of the round, and Rule 51-B: the posted big blind is the "
    "pre-flop opener; so the smallest pre-flop raise is to twice the big blind",
    "raise_over_a_short_first_bet": "TDA 2024 Rule 43-A: a raise must be at least the largest "
    "prior full bet or raise of the round; an all-in below the minimum bet (the big blind) is "
    "not a full bet, so a raise over it is a full bet (the big blind) more",
    "raise_after_a_short_all_in": "TDA 2024 Rules 43-A and 47: an all-in short of a full raise "
    "does not change the size of a full raise; a further raise is at least a full raise over "
    "the all-in's total",
    "all_in_odd_chip_pots": "TDA 2024 Rule 20-A gives the all-in player no odd chip; the "
    "parameter matters only where odd_chip_all_in_first holds (a pot of a single chip)",
    "odd_chip_all_in_first": "TDA 2024 Rule 20-A: odd chips are first broken into the smallest "
    "denomination in play; in board games the odd chip goes to the first seat left of the "
    "button (no all-in exception)",
    "misdeal_limit": "TDA 2024 Rule 35-D: once substantial action occurs a misdeal cannot be "
    "declared; Rule 36: SA is any 2 actions in turn at least one putting chips in, or any 3 "
    "actions in turn; posted blinds do not count",
    "exposed_deal_card": "TDA 2024 Rule 35-A(7): in flop games a misdeal if 1 of the first 2 "
    "cards dealt off the deck or any other 2 downcards are exposed by dealer error",
    "exposed_both_call_or_fold": "TDA 2024 Rule 68: exposing cards with action pending may "
    "result in a penalty but not a dead hand; no betting restriction follows",
    "player_exposure_kills_hand": "TDA 2024 Rule 68: exposing cards with action pending may "
    "result in a penalty (from the end of the hand) but not a dead hand",
    "premature_board_card": "TDA 2024 RP-5 A-C: a premature flop, turn or river: the burn "
    "stays, the premature card(s) go back into the stub, the entire stub is reshuffled and "
    "the street re-dealt without another burn",
    "absent_hand_killed_at_deal": "TDA 2024 Rule 30: 'To have a live hand, players must be at "
    "their seats when the last card is dealt to all players on the initial deal. Players not "
    "then at their seats may not look at their cards which are killed immediately.'",
    "absent_big_blind_checks": "TDA 2024 Rule 30: the absent player's hand is killed; 'Their "
    "posted blinds and antes forfeit to the pot'",
    "clock_seconds": "TDA 2024 Rule 29: 'A player on the clock has up to 25 seconds plus a 5 "
    "second countdown to act.'",
    "clock_countdown_seconds": "TDA 2024 Rule 29: 'up to 25 seconds plus a 5 second "
    "countdown'",
    "clock_expired_unbet_hand_checked": "TDA 2024 Rule 29: 'If the player faces a bet and time "
    "expires, the hand is dead; if not facing a bet, the hand is checked.'",
    "button_rule": "TDA 2024 Rule 32: 'Tournament play will use a dead button.'",
    "payout_percents_not_100": "TDA 2024 says nothing of payout tables: percentages that do "
    "not add up to 100% (accepted by the structure's scale_to_pool) are weights of the pool",
    "button_when_its_player_and_the_small_blind_bust": "TDA 2024 Rule 32 uses a dead button; "
    "the parameter matters only under a moving button (the button kept on a player)",
    "heads_up_transition": "TDA 2024 Rule 34-B: heads-up the small blind is the button, is "
    "dealt the last card and acts first pre-flop; 'Starting heads-up play, the button may "
    "need to be adjusted to ensure no player has the big blind twice in a row.'",
    "min_players_per_table": "TDA 2024 sets no minimum: Rule 34-B provides for heads-up play "
    "and short tables are balanced or halted under Rule 11",
    "new_player_waits_between_blind_and_button": "TDA 2024 Rules 8-A and 10-A: new players, "
    "late registrants and players from broken tables can get any seat 'and be dealt in except "
    "between the SB and button'",
    "new_player_waiting_positions": "TDA 2024 Rule 10-A: dealt in 'except between the SB and "
    "button'",
    "color_up": "TDA 2024 Rule 24-A: at scheduled color-ups chips are raced off starting in "
    "seat 1, at most one chip to a player, and nobody is raced out (he gets one chip of the "
    "lowest denomination still in play); 24-C: leftovers worth less than that chip are "
    "removed without compensation",
    "color_up_keeps_a_player_in": "TDA 2024 Rule 24-A: 'No player can be raced out of a "
    "tournament': a player left with no chips gets one chip of the lowest denomination still "
    "in play",
    "seats_drawn_at_random": "TDA 2024 Rule 7: 'Tournament and satellite seats will be "
    "randomly assigned.'",
    "seat_draw_suit_order": "TDA 2024 Illustration Addendum, Rule 10: the first seat card "
    "goes 'to the player with the highest playing card by suit showing'; the suit order is "
    "not stated (spades, hearts, diamonds, clubs is the usual order)",
    "button_redraw_at": "TDA 2024 has no rule on drawing for the button after the start; "
    "players from broken tables join the running button order (Rule 10)",
    "balance_when_short_by": "TDA 2024 Rule 11: tables are balanced as players are eliminated, "
    "a move being due once a table is 2 short of the fullest (one move then evens them); "
    "11-D: 'Play will halt on tables 3 or more players short ... once the blinds are "
    "impacted'",
    "balance_mover": "TDA 2024 Rule 11-A: in flop games 'the player to be big blind next "
    "moves to the worst position'",
    "late_entry_penalty_big_blinds": "TDA 2024 Rule 8-A: 'Alternates, players registering "
    "late, and re-entries will be sold full stacks.'",
    "late_entry_closes": "TDA 2024 Rule 8-A: late registration is as the event sets it",
    "absent_eliminated_after_full_level": "TDA 2024 Rule 71-A: 'Players away from the table "
    "or on penalty may be anted or blinded out of a tournament.'",
    "bubble_busts_share": "TDA 2024 RP-8-A: hand-for-hand, 'If enough players bust on the "
    "current hand to break into the money, the busting players will be eligible for a share "
    "of the place(s) paid on the current hand.'",
    "deals_allowed": "TDA 2024 has no rule on deals: the posted payouts apply",
    "re_entries_and_rebuys": "TDA 2024 Rule 8-A: 'Alternates, players registering late, and "
    "re-entries will be sold full stacks.' (re-entries, rebuys and add-ons as the event "
    "offers them)",
}

TDA = Profile(
    name="tda",
    title="TDA 2024 (baseline)",
    source="Poker TDA Rules 2024 v1.0, with Recommended Procedures and Illustration Addendum",
    citations=TDA_CITATIONS,
)


def _derive(base: Profile, name: str, title: str, source: str, short: str,
            changes: dict[str, tuple[Any, str]], rules: dict[str, str] | None = None) -> Profile:
    """A profile from `base`: `changes` gives (value, citation) for what the document says,
    `rules` the document's own rule identifiers (see RULE_CONCEPTS); every other parameter
    keeps the baseline value, cited as such."""
    unknown = set(changes) - set(parameter_names())
    if unknown:
        raise ValueError(f"{name}: unknown parameter(s) {sorted(unknown)}")
    unknown = set(rules or {}) - set(RULE_CONCEPTS)
    if unknown:
        raise ValueError(f"{name}: unknown rule concept(s) {sorted(unknown)}")
    citations = {key: f"{short} does not say; TDA baseline: {cite}"
                 for key, cite in base.citations.items()}
    values: dict[str, Any] = {}
    for key, (value, cite) in changes.items():
        values[key] = value
        citations[key] = cite
    return replace(base, name=name, title=title, source=source, citations=citations,
                   short=short, rule_ids=dict(rules or {}), **values)


BSE = _derive(TDA, "bse", "BSE league", "shared/seeds/bse-tournament-rules.txt", "BSE", {
    "reopen_percent": (100, "BSE All-In: 'If a Member's All-In bet does not complete a RAISE, "
                       "the remaining players may CALL the All-In. ... If however, there are "
                       "additional raises, then they must at least complete the RAISE.'"),
    "full_big_blind_level": (True, "BSE Pre-Flop Action: 'Minimum pre-flop CALL must be equal "
                             "to the big blind.'"),
    "preflop_min_raise_multiple": (2, "BSE Pre-Flop Action: 'Any pre-flop RAISE must at least "
                                   "double the big blind. A Re-RAISE must be equal to or "
                                   "greater than the previous raise (not bet).'"),
    "raise_over_a_short_first_bet": ("a_full_bet_more", "BSE Post Flop Action: 'the first "
                                     "raise must at least double the first bet, unless player "
                                     "is all in.' is open when the first bet is an all-in below "
                                     "the big blind: by default a full bet more (TDA 43-A); "
                                     "double_the_bet reads 'double the first bet' as written"),
    "raise_after_a_short_all_in": ("a_full_raise_over_it", "BSE: 'A Re-RAISE must be equal to "
                                   "or greater than the previous raise (not bet).' and All-In: "
                                   "'If however, there are additional raises, then they must at "
                                   "least complete the RAISE.' are open after a short all-in: "
                                   "by default a full raise over the all-in (TDA 47); "
                                   "complete_the_raise reads 'complete the RAISE' as the raise "
                                   "the all-in left short"),
    "odd_chip_all_in_first": (False, "BSE Side / Split Pots: 'In case of an uneven split pot, "
                              "the extra chip goes to the winning player seated closest to the "
                              "left of the dealer.'"),
    "exposed_deal_card": ("replace_as_burn", "BSE Misdealt / Exposed Cards: 'If two or more "
                          "cards are exposed while dealing hole cards, it is considered a "
                          "misdeal. ... If only one card is exposed the dealer should continue "
                          "to deal all the hole cards, then replace the exposed card with a "
                          "new card and the exposed card becomes the first burn card.'"),
    "player_exposure_kills_hand": (True, "BSE Mucked Cards: 'A hand must be declared dead "
                                   "(mucked) when: ... or if a Member exposes one or both of "
                                   "their cards to players in the hand, with action still "
                                   "pending after them.'"),
    "single_chip_unannounced": ("call", "BSE Betting: 'If intentions are not stated, then any "
                                "single chip put out will be considered a call and any change "
                                "necessary will be provided by the dealer when all action is "
                                "complete.'"),
    "several_chips_unannounced": ("raise_for_total", "BSE Betting: 'If multiple chips are put "
                                  "out, this will be considered a raise for the total amount "
                                  "put out.'"),
    "string_bet": ("first_motion", "BSE Betting: 'No string bets. ... place all chips "
                   "required to satisfy their intentions in one motion.'"),
    "dead_hand_forfeits_chips_in_action": (True, "BSE Mucked Cards: 'Once a player's hole "
                                           "cards are considered dead and mucked, all the "
                                           "player's chips in action on that hand are "
                                           "lost.'"),
    "premature_board_card": ("reshuffle_with_burn", "BSE Misdealt / Exposed Cards: 'If the "
                             "flop, turn, or river cards are exposed too early, the card(s) "
                             "and the respective burn card must be reshuffled along with the "
                             "rest of the deck, the deck re-cut, and the necessary cards "
                             "re-dealt.'"),
    "absent_hand_killed_at_deal": (False, "BSE Missing Player: 'Once seated, players walking "
                                   "away from the table must be dealt in and post blinds if in "
                                   "a blind position. If the member is not back by their turn "
                                   "at action, the hand must be mucked (folded).'"),
    "absent_big_blind_checks": (False, "BSE Missing Player: 'If the member is not back by "
                                "their turn at action, the hand must be mucked (folded).'"),
    "button_rule": ("dead_button", "BSE Dead Positions: 'if a player in the big blind gets "
                    "out, in the next hand the Small Blind position is \"dead\" and only the "
                    "big blind is posted. If a player in the Small Blind gets out, in the next "
                    "hand there is a \"dead\" dealer position and the previous dealer must "
                    "deal again.'"),
    "heads_up_transition": ("next_big_blind_keeps_it", "BSE Heads Up: 'When the last two "
                            "Members remain, the player to post the Big Blind will do so, and "
                            "the Small Blind will deal. The Small Blind acts first before the "
                            "flop and second after the flop.'"),
    "min_players_per_table": (5, "BSE Seating: 'As Members get out, each table can play down "
                              "to five players. Four players or less cannot play hands.'"),
    "new_player_waits_between_blind_and_button": (True, "BSE Seating: 'If a member sits down "
                                                  "in the Small Blind or the dealer position "
                                                  "they must wait until the deal passes.'"),
    "new_player_waiting_positions": (("small_blind", "button"), "BSE Seating: 'If a member "
                                     "sits down in the Small Blind or the dealer position they "
                                     "must wait until the deal passes.'"),
    "color_up": ("round_up", "BSE Coloring Up: 'All remaining odd chips at color up will be "
                 "rounded up to the next chip denomination when coloring up.'"),
    "seats_drawn_at_random": (False, "BSE Seating: 'EDs will assign seats to all members "
                              "signed in prior to the start of a tournament. Members joining "
                              "the tournament after it starts will be assigned an available "
                              "seat by the ED'"),
    "seat_draw_suit_order": (("s", "h", "d", "c"), "BSE Drawing for Dealer: 'The member "
                             "drawing the highest card will start the deal. ... The suits rank "
                             "in descending order of, spades, hearts, diamonds and clubs.'"),
    "button_redraw_at": (("final_two_tables", "final_table"), "BSE Drawing for Dealer: "
                         "'Members will draw for the dealer position at the commencement of "
                         "the tournament, at the start of the final 2 tables and at the start "
                         "of the final table.'"),
    "late_entry_penalty_big_blinds": (5, "BSE Playing Chips: 'Members arriving late will be "
                                      "deducted chips at five (5) times the big blind at the "
                                      "time. ... Those arriving during break will be deducted "
                                      "chips according to blinds after break.'"),
    "late_entry_closes": ("end_of_first_break", "BSE Playing Chips: 'Members are allowed in up "
                          "until the end of the break.'"),
    "bubble_busts_share": (False, "BSE Photo Finishes: the most chips in the hand places "
                           "higher whenever two or more get out on the same hand (no "
                           "bubble exception)"),
}, rules={
    "min_raise": "bse-pre-flop-action", "reopen": "bse-all-in", "straddle": "bse-blinds",
    "dead_hand": "bse-mucked-cards", "premature_board": "bse-misdealt-exposed-cards",
    "min_players": "bse-seating", "photo_finish": "bse-photo-finishes",
    "one_chip": "bse-betting", "several_chips": "bse-betting", "string_bet": "bse-betting",
})

OCTOBERMUCK = _derive(TDA, "octobermuck", "Octobermuck charity tournament",
                      "shared/seeds/octobermuck-rules.txt", "Octobermuck", {
    "reopen_percent": (50, "Octobermuck General Rules: 'A short All-In bet does not open the "
                       "action for the original bettor to re-raise unless the All-In is at "
                       "least 50% more than the original bet. Example: Player A opens for "
                       "2000. Player B goes All-In for 2800. Player A may not re-raise based "
                       "on that action.'"),
    "reopen_measure": ("own_bet_total", "Octobermuck General Rules: 'A short All-In bet does "
                       "not open the action for the original bettor to re-raise unless the "
                       "All-In is at least 50% more than the original bet.' (the all-in total "
                       "against the total the original bettor put in: a pre-flop open to 2000 "
                       "needs an all-in to 3000) and 'other players may have raised enough to "
                       "allow Player A to re-raise.'"),
    "absent_hand_killed_at_deal": (False, "Octobermuck Getting Started: 'If you are late "
                                   "we'll assign you a seat and you will lose blinds as your "
                                   "turn comes around.' (an absent player is dealt in and "
                                   "posts; his hand is lost when the action reaches him)"),
    "preflop_min_raise_multiple": (2, "Octobermuck General Rules: 'Minimum bet is equal to "
                                   "that round's BB.' and 'Raises can be no less then the "
                                   "previous bet (unless all-in)'"),
    "single_chip_unannounced": ("call_or_bet_its_value", "Octobermuck General Rules: 'If you "
                                "put a $500 chip in the pot to call a $100 bet and do not "
                                "announce any other intention, it is a call and you'll get "
                                "change. If you open the action by placing a $500 chip into "
                                "the pot and do not announce otherwise, the full amount of the "
                                "chip is in play, regardless of the minimum bet of that "
                                "round.'"),
    "string_bet": ("first_motion", "Octobermuck General Rules: 'No string raises. If you don't "
                   "announce your amount, you can not raise anymore than the amount of chips "
                   "you take with you into the pot.'"),
    "bounty_chip_all_in": (True, "Octobermuck Bounties: 'The Bounty chip will also be used to "
                           "signify an All-In bet. If the player has too many chips too easily "
                           "put in the pot, simply placing the Bounty chip in the pot is "
                           "considered an All-In bet.'"),
    "exposed_deal_card": ("replace_as_burn", "Octobermuck General Rules: 'If a card is exposed "
                          "during the deal, the card is taken out of play and the player is "
                          "dealt the top card after everyone has been dealt. The exposed card "
                          "becomes the first burn card.'"),
    "exposed_both_call_or_fold": (False, "Octobermuck General Rules: 'If a player exposes his "
                                  "own cards(s), everyone has the opportunity to see the "
                                  "card(s). PROTECT YOUR CARDS!'"),
    "player_exposure_kills_hand": (False, "Octobermuck General Rules: 'If a player exposes his "
                                   "own cards(s), everyone has the opportunity to see the "
                                   "card(s).' (the hand plays)"),
    "button_rule": ("dead_button", "Octobermuck General Procedures: 'When blinds or button "
                    "positions are interrupted by bust outs, a \"dead button\" will be "
                    "implemented and players will post their blinds per their regularly "
                    "scheduled turn. This means that there may only be one blind in some "
                    "rounds.'"),
    "heads_up_transition": ("button_moves_on", "Octobermuck General Procedures: 'When play "
                            "becomes heads up, the button moves. Button posts the small blind "
                            "(SB) and the other player is the big blind (BB), regardless of "
                            "who had what blind position on the previous hand.'"),
    "color_up": ("forfeit_to_next_pot", "Octobermuck Chip Buy-downs: 'At end of buy down "
                 "rounds, players will receive higher denomination chips for smaller chips in "
                 "even amounts. Any odd chips are forfeited to the next pot.'"),
    "payout_percents_not_100": ("scale_to_pool", "Octobermuck Payout Structure: '28-32: 7 "
                                "places' adds up to 101% as printed: by default the "
                                "percentages are weights of the pool; last_place_takes_the_rest "
                                "pays the others as printed and the last place the rest (7%)"),
    "color_up_keeps_a_player_in": (True, "Octobermuck Chip Buy-downs ('Any odd chips are "
                                   "forfeited to the next pot') is silent on a stack that is "
                                   "all odd chips; TDA 2024 Rule 24-A keeps him in (no "
                                   "player can be raced out of a tournament) (the other "
                                   "reading, false, forfeits it and the player is out)"),
    "seats_drawn_at_random": (True, "Octobermuck Seating: 'Seats will be assigned randomly.'"),
    "button_redraw_at": (("final_table",), "Octobermuck Seating: 'When combining for the final "
                         "table, all players except the dealer (if he is still playing) will "
                         "be reseated randomly and a new button will be randomly assigned.'"),
    "balance_when_short_by": (2, "Octobermuck Seating: 'When it is discovered that a table "
                              "needs balancing (one table has 2 or more fewer players than "
                              "another), the players at the table with extra people will draw "
                              "for high card.'"),
    "balance_mover": ("high_card_draw", "Octobermuck Seating: 'the players at the table with "
                      "extra people will draw for high card. ... The chosen player will move "
                      "to the empty seat. ... Dealers are exempt from relocation.'"),
    "late_entry_closes": ("end_of_level_3", "Octobermuck Getting Started: 'You'll be picked up "
                          "after the third round (unless you have made specific arrangements "
                          "regarding late arrival).'"),
    "re_entries_and_rebuys": (False, "Octobermuck: 'Re-Buys: None (When you are out of chips, "
                              "you are out of the tourney.)'"),
    "deals_allowed": (True, "Octobermuck: 'Players at the final table may make deals (agreeing "
                      "to a result without finishing the tourney) if they like.'"),
}, rules={
    "min_bet": "octobermuck-minimum-bet", "min_raise": "octobermuck-raises",
    "reopen": "octobermuck-short-all-in", "re_entry": "octobermuck-re-buys",
    "deal": "octobermuck-deals", "carry": "octobermuck-buy-downs",
    "one_chip": "octobermuck-one-chip", "string_bet": "octobermuck-announce",
    "declared": "octobermuck-announce", "bounty_chip": "octobermuck-bounties",
    "balance": "octobermuck-seating",
})

CHAIRPERSON = _derive(TDA, "chairperson", "Event chairperson's dealer procedures",
                      "shared/seeds/event-chairperson-rules.txt", "Chairperson", {
    "full_big_blind_level": (True, "Chairperson: 'If a player goes all-in for a portion of the "
                             "big blind, then subsequent action shall be made as if the player "
                             "had posted the full big blind.'"),
    "odd_chip_all_in_first": (False, "Chairperson: 'If two or more hands tie, any odd chip "
                              "will be awarded to the first hand clockwise from the button.'"),
    "misdeal_limit": ("two_players_acted", "Chairperson misdeals 1: 'provided attention is "
                      "called to the error before two players have acted on their hands'; 2: "
                      "'Action is considered to occur when two players after the blinds have "
                      "acted on their hands. Once action occurs, a misdeal can no longer be "
                      "declared.'"),
    "exposed_deal_card": ("misdeal_if_first_two", "Chairperson: 'If the first or second pocket "
                          "card dealt is exposed, a misdeal results.' and 'If any other pocket "
                          "card is exposed due to dealer error, the deal continues. ... the "
                          "exposed card is then used for the burncard.'"),
    "player_exposure_kills_hand": (False, "Chairperson: 'A card that is flashed by a dealer is "
                                   "treated as an exposed card. A card that is flashed by a "
                                   "player will play.'"),
    "premature_board_card": ("turn_out_for_the_round", "Chairperson: a premature flop: 'the "
                             "boardcards are mixed with the remainder of the deck. The "
                             "burncard remains on the table.'; 'If the dealer turns the fourth "
                             "card on the board before the betting round is complete, the card "
                             "is taken out of play for that round ... The dealer burns and "
                             "turns what would have been the fifth card in the fourth card's "
                             "place.'"),
    "clock_expired_unbet_hand_checked": (True, "Chairperson dead hands: '(e) You have the "
                                         "clock on you when facing a bet or raise and exceed "
                                         "the specified time limit.' (only facing a bet)"),
    "button_rule": ("moving_button", "Chairperson: 'If the Small Blind is eliminated, the "
                    "player who was the big blind now posts the small blind and the player to "
                    "his left posts the big blind. The button does not move and the player who "
                    "was the button, will be the button once again.'"),
    "button_when_its_player_and_the_small_blind_bust": (
        "to_the_player_before_the_small_blind", "Chairperson: 'The button does not move and "
        "the player who was the button, will be the button once again.' is open when that "
        "player is out too: by default the button goes to the player right of the new small "
        "blind (the button stays with a player); stays_on_its_seat leaves it, dead, on the "
        "empty seat"),
    "heads_up_transition": ("next_big_blind_keeps_it", "Chairperson: 'When going from three "
                            "to two players, determine which player would have been the next "
                            "big blind if no player had been eliminated ... that player is the "
                            "big blind and the other player is the small blind and button.'"),
    "new_player_waits_between_blind_and_button": (True, "Chairperson: 'The button must move "
                                                  "past the moved player before the moved "
                                                  "player is dealt any cards.'"),
    "new_player_waiting_positions": (("small_blind", "big_blind"), "Chairperson: 'If the "
                                     "button is to the moved player's right, or the right of "
                                     "the player to the right of the moved player, the moved "
                                     "player is not dealt any cards.'"),
    "seats_drawn_at_random": (True, "Chairperson: 'Seats numbers are determined by a random "
                              "drawing of the seat cards.'"),
    "color_up": ("race", "Chairperson: 'The Dealer shall remove lower denomination chips from "
                 "play at the beginning of every intermission Color Up. The Color Up procedure "
                 "is defined in a separate document.' (not given: the TDA race applies)"),
}, rules={
    "misdeal": "chairperson-misdeal-2", "void": "chairperson-fouled-deck",
    "premature_board": "chairperson-premature-board-cards",
})

LEAGUE = _derive(TDA, "league", "Self-dealt league", "shared/seeds/league-self-dealt-rules.txt",
                 "League", {
    "reopen_percent": (100, "League Raising: 'If a player raises all in but their bet is less "
                       "than a full raise, raising action is closed to anyone who has already "
                       "acted.'"),
    "full_big_blind_level": (True, "League Betting: 'If a player goes all-in pre-flop for less "
                             "than the big blind, anyone who calls must still match the big "
                             "blind.'"),
    "preflop_min_raise_multiple": (2, "League Raising: 'the minimum initial raise before the "
                                   "flop is always double the big blind, and the minimum "
                                   "initial raise after the flop is double the previous bet.'"),
    "odd_chip_all_in_first": (True, "League Tied hands: 'a player cannot be eliminated as a "
                              "result of a split pot. A split pot containing a single chip of "
                              "the lowest denomination in play will be awarded to the all-in "
                              "player regardless of seat position.'"),
    "all_in_odd_chip_pots": ("single_chip_pot", "League Tied hands: 'A split pot containing a "
                             "single chip of the lowest denomination in play will be awarded to "
                             "the all-in player' is open: by default a pot of one chip (the "
                             "extra chip of a larger split goes 'to the Player closest to the "
                             "puck/button'); any_split_pot gives the all-in player the odd chip "
                             "of any split"),
    "raise_over_a_short_first_bet": ("a_full_bet_more", "League Raising: 'the minimum initial "
                                     "raise after the flop is double the previous bet.' is open "
                                     "when that bet is an all-in below the big blind: by "
                                     "default a full bet more (TDA 43-A); double_the_bet reads "
                                     "it as written"),
    "single_chip_unannounced": ("call_before_the_flop", "League Calling (and Single Chip "
                                "Bets): 'Before the flop, if a player bets a single chip "
                                "greater than the big blind without announcing a raise, then "
                                "this is only a call.' and 'After the flop, if a player bets a "
                                "single chip that is more than the minimum bet without "
                                "announcing their intent, then the bet is the value of that "
                                "chip.'"),
    "out_of_turn": ("may_be_pulled_back", "League Calling: 'If a player bets out of turn, they "
                    "can pull their chips back, provided it was an honest mistake.'"),
    "string_bet": ("call_or_min_raise", "League String Betting: 'The first motion of the "
                   "Chips into the betting area within reason will be considered the bet. If "
                   "it is an amount under or near the current bet amount, it will be judged a "
                   "call. If the amount is over the current bet by a reasonable amount, the "
                   "bet will be considered a minimum raise.'"),
    "exposed_deal_card": ("misdeal", "League Misdeals: 'Any card flipped over during the "
                          "initial deal is an automatic misdeal.'"),
    "exposed_both_call_or_fold": (True, "League Exposed Card(s): 'If a player accidentally "
                                  "exposes BOTH of their cards before all players have acted, "
                                  "the cards are shown to the table, and that player can NO "
                                  "LONGER bet or raise. Their only options are to call or "
                                  "fold.'"),
    "player_exposure_kills_hand": (False, "League Exposed Card(s): 'If a player accidentally "
                                   "exposes ONE of their hole cards before all players have "
                                   "acted, the card is shown to the table. Play continues.'"),
    "premature_board_card": ("reshuffle_then_top_card", "League Accidental Reveals: 'leave any "
                             "burn cards in the muck pile, take the exposed community card(s), "
                             "and re-shuffle them into the deck. Once betting completes, the "
                             "top card(s) on the deck are then revealed.'"),
    "absent_hand_killed_at_deal": (False, "League Leaving the Table: 'they are still dealt "
                                   "into hands. If they have not returned by the time it is "
                                   "their turn to act, their cards are mucked and their blinds "
                                   "placed in the pot.'"),
    "absent_big_blind_checks": (True, "League Leaving the Table: 'In the event a player is "
                                "absent and is in the Big Blind, and everyone checks around, "
                                "they will also be auto checked. They remain the hand until "
                                "another player's bet forces their hand to be folded - even if "
                                "it goes to showdown.'"),
    "clock_seconds": (25, "League Timely Bets: 'a Player will be given up to twenty five (25) "
                      "seconds to make a decision'"),
    "clock_countdown_seconds": (5, "League Timely Bets: 'If action is not taken before time "
                                "expires, there will be a five (5) second countdown.'"),
    "clock_expired_unbet_hand_checked": (False, "League Timely Bets: 'If the Player has not "
                                         "acted by the end of the (5) second countdown, the "
                                         "hand is dead.'"),
    "re_entries_and_rebuys": (False, "League: 'Once a player is out of chips, they are out "
                              "of the tournament.'"),
    "absent_eliminated_after_full_level": (True, "League Leaving the Table, Long Term: 'If a "
                                           "player does not play a hand for an entire blind "
                                           "level, their chips will be turned in to the TD, "
                                           "eliminating them from the tournament.'"),
}, rules={
    "min_raise": "league-raising", "reopen": "league-raising",
    "premature_board": "league-accidental-reveals", "clock": "league-timely-bets",
    "re_entry": "league-out-of-chips", "absent_level": "league-leaving-the-table",
    "one_chip": "league-single-chip-bets", "string_bet": "league-string-betting",
    "out_of_turn": "league-out-of-turn",
})

PROFILES: dict[str, Profile] = {p.name: p for p in (TDA, BSE, OCTOBERMUCK, CHAIRPERSON, LEAGUE)}
# Online sites' rules, for hands imported from their files (engine/site_profiles.py): found by
# name like the others, but not house profiles a room can choose.
SITE_PROFILES: dict[str, Profile] = {
    name: _derive(TDA, name, f"{SITE_TITLES[name]} (online)", f"{SITE_TITLES[name]} hand "
                  "histories", SITE_TITLES[name], changes)
    for name, changes in SITE_CHANGES.items()}


def get_profile(name: str) -> Profile:
    """The profile called `name`, or the room profile a `room_profile_ref` describes; the
    error lists the known ones (or says which override is wrong)."""
    profile = PROFILES.get(name) or _ROOMS.get(name) or SITE_PROFILES.get(name)
    if profile is not None:
        return profile
    if name.startswith("{"):
        return _room_profile(name)
    known = ", ".join(PROFILES)
    raise KeyError(f"unknown house-rule profile {name!r}; known profiles: {known}")


def action_clock(name: str) -> tuple[int, int]:
    """The seconds a player put on the clock has under profile `name`, and the countdown that
    follows (TDA 29: 25 plus 5), as the tablet shows them.

    >>> action_clock("tda")
    (25, 5)
    """
    profile = get_profile(name)
    return profile.clock_seconds, profile.clock_countdown_seconds


# --- A room's own profile -------------------------------------------------------------------
# A structure file may carry its room's profile: a named base plus overrides. It travels (in
# the structure, the table and every hand) as one canonical JSON text, so a hand replays on its
# own and the overrides cannot drift from what decided it.

_ROOMS: dict[str, Profile] = {}


def room_profile_ref(name: str, base: str, overrides: Mapping[str, object]) -> str:
    """The canonical text naming a room profile: `base` with `overrides`, called `name`."""
    values = {key: list(value) if isinstance(value, tuple) else value
              for key, value in sorted(overrides.items())}
    return json.dumps({"base": base, "name": name, "set": values}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False)


def profile_problems(base: str, overrides: Mapping[str, object]) -> list[tuple[str, str]]:
    """(field, what is wrong) for each bad part of a room profile: the base must be a known
    profile, each override a parameter with a value of its type."""
    problems: list[tuple[str, str]] = []
    if base not in PROFILES:
        problems.append(("base", f"unknown profile {base!r}; allowed: {', '.join(PROFILES)}"))
    hints = _parameter_types()
    for key, value in overrides.items():
        if key not in hints:
            problems.append((f"set.{key}", f"unknown parameter {key!r}; allowed: "
                             f"{', '.join(parameter_names())}"))
            continue
        wrong = _type_problem(hints[key], value)
        if wrong:
            problems.append((f"set.{key}", wrong))
    return problems


def profile_ref_problems(ref: str) -> list[tuple[str, str]]:
    """What is wrong with a structure's `profile` (a profile name or a room profile text)."""
    if ref in PROFILES or ref in _ROOMS:
        return []
    if not ref.startswith("{"):
        return [("", f"unknown profile {ref!r}; allowed: {', '.join(PROFILES)}")]
    try:
        data = json.loads(ref)
    except ValueError:
        return [("", "a room profile must be a JSON object with base, name and set")]
    if not isinstance(data, dict) or set(data) != {"base", "name", "set"} or \
            not isinstance(data["set"], dict) or not isinstance(data["base"], str) or \
            not isinstance(data["name"], str) or not data["name"].strip():
        return [("", "a room profile needs a name, a base profile and a table of overrides")]
    return profile_problems(data["base"], data["set"])


def _room_profile(ref: str) -> Profile:
    problems = profile_ref_problems(ref)
    if problems:
        raise KeyError("room profile: " + "; ".join(
            f"{path}: {message}" if path else message for path, message in problems))
    data = json.loads(ref)
    base = PROFILES[data["base"]]
    hints = _parameter_types()
    values: dict[str, Any] = {key: tuple(value) if get_origin(hints[key]) is tuple else value
                              for key, value in data["set"].items()}
    citations = dict(base.citations)
    for key in values:
        citations[key] = f"room profile {data['name']}: set by the structure file " \
                         f"(over {base.name}: {base.citations[key]})"
    profile = replace(base, name=data["name"], title=f"{data['name']} (on {base.name})",
                      citations=citations, **values)
    _ROOMS[ref] = profile
    return profile


def _parameter_types() -> dict[str, Any]:
    hints = get_type_hints(Profile)
    return {name: hints[name] for name in parameter_names()}


def _type_problem(hint: Any, value: object) -> str:
    """Why `value` is not of the parameter type `hint` ("" when it is)."""
    origin = get_origin(hint)
    if hint is bool:
        return "" if type(value) is bool else f"must be true or false, got {value!r}"
    if hint is int:
        if type(value) is not int or value < 0:
            return f"must be a whole number, 0 or more, got {value!r}"
        return ""
    if origin is Literal:
        allowed = get_args(hint)
        return "" if value in allowed else \
            f"{value!r} is not allowed; allowed: {', '.join(map(str, allowed))}"
    if origin is tuple:
        item = get_args(hint)[0]
        if not isinstance(value, list | tuple):
            return f"must be a list, got {value!r}"
        for element in value:
            wrong = _type_problem(item, element) if item is not str else (
                "" if isinstance(element, str) else f"must be a list of texts, got {value!r}")
            if wrong:
                return wrong
        return ""
    return ""



# --- the rules that decided a hand: parameters, digest, rebuilt profiles ----------------------


def profile_parameters(profile: Profile) -> dict[str, Any]:
    """Every rule parameter of `profile` by name, as JSON values (tuples become lists)."""
    return {name: _json_value(getattr(profile, name)) for name in parameter_names()}


def _json_value(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_json_value(item) for item in value]
    return value


def parameters_json(profile: Profile) -> str:
    """The canonical JSON text of the profile's parameters (sorted keys, no spaces, UTF-8):
    the text its digest is taken of, and the one table_opened records."""
    return json.dumps(profile_parameters(profile), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)


_DIGESTS: dict[int, tuple[Profile, str]] = {}


def profile_digest(profile: Profile) -> str:
    """SHA-256 (hex) of the canonical JSON of the profile's parameters: which rules decided a
    hand, whatever the profile is called and however its citations are worded."""
    known = _DIGESTS.get(id(profile))
    if known is not None and known[0] is profile:
        return known[1]
    digest = hashlib.sha256(parameters_json(profile).encode("utf-8")).hexdigest()
    _DIGESTS[id(profile)] = (profile, digest)
    return digest


def profile_from_parameters(name: str, parameters: str) -> Profile:
    """The profile `name` with the parameters recorded as `parameters` (canonical JSON, as
    parameters_json writes it); its citations are today's for that name. Raises ValueError
    naming the parameter that is not one handlog knows."""
    values = json.loads(parameters)
    if not isinstance(values, dict):
        raise ValueError("recorded parameters are not a JSON object")
    unknown = sorted(set(values) - set(parameter_names()))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)} in the recorded rules")
    base = PROFILES.get(name, TDA)
    return replace(base, name=name, **{key: _tuple_value(v) for key, v in values.items()})


def _tuple_value(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuple_value(item) for item in value)
    return value


_RECORDED: dict[str, Profile] = {}


def remember_rules(name: str, parameters: str) -> str:
    """Make the rules recorded as `parameters` (canonical JSON, as a table records them when it
    opens) known by their digest, under which its hands name them; returns the digest. The memo
    is addressed by content, so what is remembered never changes what a digest means, and it
    holds one entry per distinct set of rules."""
    digest = hashlib.sha256(parameters.encode("utf-8")).hexdigest()
    today = PROFILES.get(name)
    if digest in _RECORDED or (today is not None and profile_digest(today) == digest):
        return digest
    profile = profile_from_parameters(name, parameters)
    digest = profile_digest(profile)
    _RECORDED.setdefault(digest, profile)
    return digest


def rules_for(name: str, digest: str = "") -> Profile:
    """The rules a hand recorded as (profile name, parameter digest): today's profile of that
    name when the digest is its own (or not recorded), else the recorded parameters when they
    are known (remember_rules), else today's profile (replay then says the hand was recorded
    under other rules)."""
    profile = PROFILES.get(name)
    if profile is None:
        profile = get_profile(name)
    if not digest or digest == profile_digest(profile):
        return profile
    return _RECORDED.get(digest, profile)
