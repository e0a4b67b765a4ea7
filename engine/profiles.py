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
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, TypeVar

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
AnteFormat = Literal["big_blind_ante", "per_player"]
PhotoFinish = Literal["start_stack_order", "start_stack_order_ties_higher"]
HeadsUpTransition = Literal["no_big_blind_twice", "next_big_blind_keeps_it", "button_moves_on"]
WaitingPosition = Literal["between_small_blind_and_button", "small_blind", "big_blind", "button"]
BalanceMover = Literal["next_big_blind", "high_card_draw"]
LateEntryCloses = Literal["structure", "end_of_first_break", "end_of_level_3"]
Scope = Literal["hand", "table", "tournament"]

BlindLevel = tuple[int, int, int]
"""(small blind, big blind, ante)."""
PayoutRow = tuple[int, int, tuple[int, ...]]
"""(fewest entrants, most entrants, percent of the prize pool for 1st, 2nd, ...)."""

_T = TypeVar("_T")


def _param(default: _T, scope: Scope, meaning: str) -> _T:
    """A profile parameter: its default, who applies it and what it means."""
    return field(default=default, metadata={"scope": scope, "meaning": meaning})


@dataclass(frozen=True)
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
    straddle_allowed: bool = _param(
        False, "hand", "A voluntary straddle may be posted. False in every profile: a hand "
        "set up with more than two blinds is refused (rule 'straddle').")
    # --- Showdown and awards ----------------------------------------------------------------
    odd_chip_all_in_first: bool = _param(
        False, "hand", "A split pot of a single chip of the smallest denomination goes to the "
        "all-in winner (nobody is eliminated by a split), not by seat from the button.")
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
    heads_up_transition: HeadsUpTransition = _param(
        "no_big_blind_twice", "table", "Who takes the big blind when play becomes heads-up "
        "(heads-up the button always posts the small blind and acts first pre-flop).")
    min_players_per_table: int = _param(
        2, "table", "Fewer players than this at a table cannot play hands.")
    new_player_waits_between_blind_and_button: bool = _param(
        True, "table", "A new or moved player seated where he would get the button or a blind "
        "out of turn waits for the button to pass (where: new_player_waiting_positions).")
    new_player_waiting_positions: tuple[WaitingPosition, ...] = _param(
        ("between_small_blind_and_button",), "table", "The positions in which a new or moved "
        "player is not dealt in until the button has passed him.")
    # --- Tournament (the recorder) ----------------------------------------------------------
    starting_stack: int = _param(
        0, "tournament", "Chips each entrant starts with (0: set by the tournament).")
    chip_denominations: tuple[int, ...] = _param(
        (), "tournament", "The chip values in play at the start, smallest first (empty: set by "
        "the tournament).")
    level_minutes: int = _param(
        0, "tournament", "Length of a blind level in minutes (0: set by the tournament).")
    blind_structure: tuple[BlindLevel, ...] = _param(
        (), "tournament", "(small blind, big blind, ante) of each level in order (empty: set "
        "by the tournament).")
    breaks: tuple[tuple[int, int], ...] = _param(
        (), "tournament", "(after level, minutes) of each scheduled break.")
    ante_format: AnteFormat = _param(
        "big_blind_ante", "tournament", "Who pays the ante: the big blind for the whole table, "
        "or every player.")
    ante_checkpoint_level: int = _param(
        0, "tournament", "Antes of the structure start after this level only if enough players "
        "remain (ante_checkpoint_min_players); 0: antes simply follow the structure.")
    ante_checkpoint_min_players: int = _param(
        0, "tournament", "Players who must still be in at the ante checkpoint for the antes to "
        "start.")
    color_up: ColorUp = _param(
        "race", "tournament", "What happens to odd chips of a denomination removed from play.")
    color_up_schedule: tuple[tuple[int, int], ...] = _param(
        (), "tournament", "(after level, denomination) of each scheduled color-up (empty: set "
        "by the tournament).")
    seats_drawn_at_random: bool = _param(
        True, "tournament", "Seats are drawn at random (else the director assigns them).")
    seat_draw_suit_order: tuple[str, ...] = _param(
        ("s", "h", "d", "c"), "tournament", "Suits from highest to lowest when a card draw "
        "(for the button or a seat) ties on rank.")
    button_redraw_at: tuple[str, ...] = _param(
        (), "tournament", "Stages, besides the start, at which the button is drawn anew.")
    balance_when_short_by: int = _param(
        3, "tournament", "A table this many players short of the fullest table is balanced "
        "(play halts there until it is).")
    balance_mover: BalanceMover = _param(
        "next_big_blind", "tournament", "Who moves when a table is balanced.")
    late_entry_penalty_big_blinds: int = _param(
        0, "tournament", "Chips deducted from a late entrant, in big blinds of the current level.")
    late_entry_posts_while_absent: bool = _param(
        False, "tournament", "A registered player not yet seated is dealt in and loses the "
        "blinds as they come round.")
    late_entry_closes: LateEntryCloses = _param(
        "structure", "tournament", "When late entry ends (a late player not there by then is "
        "out).")
    re_entry_allowed: bool = _param(
        True, "tournament", "A player out of chips may buy in again where the event offers it.")
    absent_eliminated_after_full_level: bool = _param(
        False, "tournament", "A player who plays no hand for a whole blind level has his chips "
        "removed and is eliminated (else he is blinded off).")
    photo_finish: PhotoFinish = _param(
        "start_stack_order", "tournament", "Players eliminated on the same hand are placed by "
        "the chips they started it with, more chips higher; equal stacks split the prizes of "
        "their places (ties_higher: both take the higher place).")
    bubble_busts_share: bool = _param(
        True, "tournament", "Hand-for-hand at the money: all players busting on the same hand "
        "share the place(s) paid, whatever their stacks.")
    payout_table: tuple[PayoutRow, ...] = _param(
        (), "tournament", "Places paid and their percentages by number of entrants (empty: set "
        "by the tournament).")
    deals_allowed: bool = _param(
        False, "tournament", "Players at the final table may agree a deal instead of the "
        "posted payouts.")
    citations: dict[str, str] = field(default_factory=dict, compare=False)

    def parameters(self) -> list[tuple[str, object, str, str]]:
        """(name, value, what it means, where it comes from) for every rule parameter."""
        docs = parameter_docs()
        return [
            (name, getattr(self, name), docs[name], self.citations.get(name, ""))
            for name in parameter_names()
        ]


_NOT_PARAMETERS = ("name", "title", "source", "citations")


def parameter_names() -> tuple[str, ...]:
    """Every rule parameter, in declaration order."""
    return tuple(f.name for f in fields(Profile) if f.name not in _NOT_PARAMETERS)


def parameter_docs() -> dict[str, str]:
    """The one-line meaning of each parameter."""
    return {f.name: str(f.metadata["meaning"]) for f in fields(Profile)
            if f.name not in _NOT_PARAMETERS}


def parameter_scopes() -> dict[str, str]:
    """Who applies each parameter: "hand", "table" or "tournament"."""
    return {f.name: str(f.metadata["scope"]) for f in fields(Profile)
            if f.name not in _NOT_PARAMETERS}


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
    "preflop_min_raise_multiple": "TDA 2024 Rule 43-A: a raise must be at least the largest "
    "prior full bet or raise of the round, and Rule 51-B: the posted big blind is the "
    "pre-flop opener; so the smallest pre-flop raise is to twice the big blind",
    "straddle_allowed": "TDA 2024 has no straddle rule: the forced bets are the blinds and "
    "antes of the posted structure (Rule 23 levels); no straddles",
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
    "starting_stack": "TDA 2024 leaves the starting stack to the event (Rule 8-A: late "
    "entrants are sold full stacks)",
    "chip_denominations": "TDA 2024 Rule 25-B: TDs control the number and denominations of "
    "chips in play",
    "level_minutes": "TDA 2024 Rule 23: a new level starts on announcement or the clock's "
    "signal; level lengths are the event's structure",
    "blind_structure": "TDA 2024 Rule 23: 'The new level applies to the next hand'; the "
    "structure itself is the event's",
    "breaks": "TDA 2024 leaves breaks to the event's structure (RP-7: hold the dealer push 90 "
    "seconds before a scheduled break)",
    "ante_format": "TDA 2024 RP-11: the big blind ante format (BBA) is recommended when a "
    "single-payer ante is used",
    "ante_checkpoint_level": "TDA 2024 RP-11: 'Antes should not be reduced ... as play "
    "progresses'; antes follow the posted structure, with no conditional start",
    "ante_checkpoint_min_players": "TDA 2024: no conditional antes (RP-11; structure as "
    "posted)",
    "color_up": "TDA 2024 Rule 24-A: at scheduled color-ups chips are raced off starting in "
    "seat 1, at most one chip to a player, and nobody is raced out (he gets one chip of the "
    "lowest denomination still in play); 24-C: leftovers worth less than that chip are "
    "removed without compensation",
    "color_up_schedule": "TDA 2024 Rule 24: scheduled color-ups are the event's; Rule 25-B: "
    "discretionary color-ups are announced",
    "seats_drawn_at_random": "TDA 2024 Rule 7: 'Tournament and satellite seats will be "
    "randomly assigned.'",
    "seat_draw_suit_order": "TDA 2024 Illustration Addendum, Rule 10: the first seat card "
    "goes 'to the player with the highest playing card by suit showing'; the suit order is "
    "not stated (spades, hearts, diamonds, clubs is the usual order)",
    "button_redraw_at": "TDA 2024 has no rule on drawing for the button after the start; "
    "players from broken tables join the running button order (Rule 10)",
    "balance_when_short_by": "TDA 2024 Rule 11-D: 'Play will halt on tables 3 or more players "
    "short (by elimination) than the table with the most players once the blinds are "
    "impacted'; tighter balancing later at TD's discretion",
    "balance_mover": "TDA 2024 Rule 11-A: in flop games 'the player to be big blind next "
    "moves to the worst position'",
    "late_entry_penalty_big_blinds": "TDA 2024 Rule 8-A: 'Alternates, players registering "
    "late, and re-entries will be sold full stacks.'",
    "late_entry_posts_while_absent": "TDA 2024 Rule 8-A: late registrants draw a seat when "
    "they register and are dealt in from then; nothing is posted for them before",
    "late_entry_closes": "TDA 2024 Rule 8-A: late registration is as the event sets it",
    "re_entry_allowed": "TDA 2024 Rules 8-A/8-B and 27 provide for re-entries and re-buys "
    "where the event offers them",
    "absent_eliminated_after_full_level": "TDA 2024 Rule 71-A: 'Players away from the table "
    "or on penalty may be anted or blinded out of a tournament.'",
    "photo_finish": "TDA 2024 has no general rule (RP-8-A covers only the money bubble); the "
    "usual practice: the player who started the hand with more chips finishes higher, equal "
    "stacks share",
    "bubble_busts_share": "TDA 2024 RP-8-A: hand-for-hand, 'If enough players bust on the "
    "current hand to break into the money, the busting players will be eligible for a share "
    "of the place(s) paid on the current hand.'",
    "payout_table": "TDA 2024 leaves payouts to the event",
    "deals_allowed": "TDA 2024 has no rule on deals: the posted payouts apply",
}

TDA = Profile(
    name="tda",
    title="TDA 2024 (baseline)",
    source="Poker TDA Rules 2024 v1.0, with Recommended Procedures and Illustration Addendum",
    citations=TDA_CITATIONS,
)


def _derive(base: Profile, name: str, title: str, source: str, short: str,
            changes: dict[str, tuple[Any, str]]) -> Profile:
    """A profile from `base`: `changes` gives (value, citation) for what the document says;
    every other parameter keeps the baseline value, cited as such."""
    unknown = set(changes) - set(parameter_names())
    if unknown:
        raise ValueError(f"{name}: unknown parameter(s) {sorted(unknown)}")
    citations = {key: f"{short} does not say; TDA baseline: {cite}"
                 for key, cite in base.citations.items()}
    values: dict[str, Any] = {}
    for key, (value, cite) in changes.items():
        values[key] = value
        citations[key] = cite
    return replace(base, name=name, title=title, source=source, citations=citations, **values)


BSE = _derive(TDA, "bse", "BSE league", "shared/seeds/bse-tournament-rules.txt", "BSE", {
    "reopen_percent": (100, "BSE All-In: 'If a Member's All-In bet does not complete a RAISE, "
                       "the remaining players may CALL the All-In. ... If however, there are "
                       "additional raises, then they must at least complete the RAISE.'"),
    "full_big_blind_level": (True, "BSE Pre-Flop Action: 'Minimum pre-flop CALL must be equal "
                             "to the big blind.'"),
    "preflop_min_raise_multiple": (2, "BSE Pre-Flop Action: 'Any pre-flop RAISE must at least "
                                   "double the big blind. A Re-RAISE must be equal to or "
                                   "greater than the previous raise (not bet).'"),
    "straddle_allowed": (False, "BSE Blinds: 'Straddle blinds are not allowed.'"),
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
    "starting_stack": (4000, "BSE Playing Chips: 'League members arriving prior to tournament "
                       "start time receive 4,000 in chips and play until one player wins all "
                       "the chips.'"),
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
    "photo_finish": ("start_stack_order_ties_higher", "BSE Photo Finishes: 'When two (or more) "
                     "Members get out on the same hand, the player with the most chips in the "
                     "hand will get the higher finishing position. If Members have equal "
                     "amounts of chips, they tie for the higher position.'"),
    "bubble_busts_share": (False, "BSE Photo Finishes: the most chips in the hand places "
                           "higher whenever two or more get out on the same hand (no "
                           "bubble exception)"),
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
    "starting_stack": (5000, "Octobermuck: 'Starting Stack: 5000T$'"),
    "chip_denominations": ((5, 25, 100, 500), "Octobermuck: 'Red(10 @ 5T$ ea = 50T$', 'Green "
                           "(10 @25T$ ea = 250T$)', 'Black (7 @100T$ ea = 700T$)', 'White "
                           "([email protected]$ ea = 4000T$)'; the white count and value were "
                           "mangled by an e-mail obfuscator in the received text: 500 is the "
                           "value that fits (8 x 500 = 4000, and the 500 small blind of level 7 "
                           "once the blacks are bought down)"),
    "level_minutes": (20, "Octobermuck: 'Blind Structure and Schedule (20 minute rounds)'"),
    "blind_structure": (((5, 10, 0), (10, 25, 0), (25, 50, 0), (50, 100, 0), (100, 200, 0),
                         (200, 500, 0), (500, 1000, 100), (1000, 2000, 200),
                         (2000, 4000, 400)),
                        "Octobermuck Blind Structure: '5/10', '10/25', '25/50', '50/100', "
                        "'100/200', '200/500', '500/1000 + 100 Ante (if used)', '1000/2000 + "
                        "200 ante (if used)', '2000/4000 + 400 ante (if used)'"),
    "breaks": (((3, 10), (6, 40)), "Octobermuck Blind Structure: 'Break-10 minutes' after "
               "25/50 and 'Break-40 Minutes for Food - Determine if antes will be "
               "implemented.' after 200/500; then 'Breaks as needed'"),
    "ante_format": ("per_player", "Octobermuck Blind Structure: '500/1000 + 100 Ante (if "
                    "used)': an ante a tenth of the big blind, the traditional ante every "
                    "player pays (the document does not say who pays it)"),
    "ante_checkpoint_level": (6, "Octobermuck: '*To ensure that the tourney doesn't go longer "
                              "than expected, we'll use the end of round 6 as a checkpoint. If "
                              "there are still 16 or more players active after the sixth "
                              "round, antes will be instituted for the rest of the tourney and "
                              "the black chips will stay in play.'"),
    "ante_checkpoint_min_players": (16, "Octobermuck: 'If there are still 16 or more players "
                                    "active after the sixth round, antes will be instituted "
                                    "for the rest of the tourney'"),
    "color_up": ("forfeit_to_next_pot", "Octobermuck Chip Buy-downs: 'At end of buy down "
                 "rounds, players will receive higher denomination chips for smaller chips in "
                 "even amounts. Any odd chips are forfeited to the next pot.'"),
    "color_up_schedule": (((2, 5), (4, 25), (6, 100)), "Octobermuck Blind Structure: 'Buy "
                          "Down Red Chips' after 10/25, 'Buy Down Green Chips' after 50/100, "
                          "'Buy Down Black Chips if no antes.*' after 200/500"),
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
    "late_entry_posts_while_absent": (True, "Octobermuck Getting Started: 'If you are late "
                                      "we'll assign you a seat and you will lose blinds as "
                                      "your turn comes around.'"),
    "late_entry_closes": ("end_of_level_3", "Octobermuck Getting Started: 'You'll be picked up "
                          "after the third round (unless you have made specific arrangements "
                          "regarding late arrival).'"),
    "re_entry_allowed": (False, "Octobermuck: 'Re-Buys: None (When you are out of chips, you "
                         "are out of the tourney.)'"),
    "payout_table": (((24, 27, (30, 23, 15, 13, 10, 9)),
                      (28, 32, (28, 21, 14, 11, 10, 9, 8))),
                     "Octobermuck Payout Structure (Tentative): '24-27: 6 places - 30%, 23%, "
                     "15%, 13%, 10%, 9%' and '28-32: 7 places - 28 %, 21%, 14%, 11%, 10%, 9%, "
                     "8%' (as printed the 28-32 row adds up to 101%)"),
    "deals_allowed": (True, "Octobermuck: 'Players at the final table may make deals (agreeing "
                      "to a result without finishing the tourney) if they like.'"),
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
    "re_entry_allowed": (False, "League: 'Once a player is out of chips, they are out of the "
                         "tournament.'"),
    "absent_eliminated_after_full_level": (True, "League Leaving the Table, Long Term: 'If a "
                                           "player does not play a hand for an entire blind "
                                           "level, their chips will be turned in to the TD, "
                                           "eliminating them from the tournament.'"),
})

PROFILES: dict[str, Profile] = {p.name: p for p in (TDA, BSE, OCTOBERMUCK, CHAIRPERSON, LEAGUE)}


def get_profile(name: str) -> Profile:
    """The profile called `name`; the error lists the known ones."""
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise KeyError(f"unknown house-rule profile {name!r}; known profiles: {known}") from None


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
