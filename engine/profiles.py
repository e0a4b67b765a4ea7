"""House-rule profiles: named sets of parameters, each citing the rule it comes from.

`tda` is the baseline (TDA 2024 rules v1.0). `bse`, `octobermuck`, `chairperson` and `league`
come from the four rule documents in shared/seeds/ and differ from it where those documents do.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Literal

ButtonRule = Literal["dead_button", "moving_button"]
BigBlindAnteOrder = Literal["big_blind_first", "ante_first"]
ColorUp = Literal["race", "round_up", "forfeit_to_next_pot"]
MisdealLimit = Literal["substantial_action", "two_players_acted"]
ExposedDealCard = Literal["replace_as_burn", "misdeal_if_first_two", "misdeal"]


@dataclass(frozen=True)
class Profile:
    """One room's house rules. Every parameter has an entry in `citations`."""

    name: str
    title: str
    source: str
    # Betting
    reopen_percent: int = 100
    """A short all-in (or several) reopens betting to a player who already acted only when the
    total increase he faces is at least this percent of the last full bet or raise."""
    full_big_blind_level: bool = True
    """An all-in for part of the big blind: callers still match the full big blind."""
    big_blind_ante_order: BigBlindAnteOrder = "big_blind_first"
    """What a short big blind posts first when the table plays a big-blind ante."""
    preflop_min_raise_multiple: int = 2
    """The smallest pre-flop raise is to this multiple of the big blind."""
    # Showdown and awards
    odd_chip_all_in_first: bool = False
    """A split that would leave an all-in winner with nothing gives the lowest chip to him."""
    # Irregularities
    misdeal_limit: MisdealLimit = "substantial_action"
    """How much action makes a misdeal impossible (the hand is then played out)."""
    exposed_deal_card: ExposedDealCard = "misdeal_if_first_two"
    """What a card exposed by the dealer during the deal causes."""
    exposed_both_call_or_fold: bool = False
    """A player who exposed both hole cards before the action was complete may only call or fold."""
    absent_big_blind_checks: bool = False
    """An absent big blind is checked through instead of having the hand killed."""
    clock_seconds: int = 30
    """Seconds a player has once the clock is called."""
    clock_countdown_seconds: int = 10
    """The final countdown after the clock's time."""
    # Across hands
    button_rule: ButtonRule = "dead_button"
    """How the button and blinds move when a player is eliminated."""
    min_players_per_table: int = 2
    """Fewer players than this at a table cannot play hands."""
    new_player_waits_between_blind_and_button: bool = True
    """A new or moved player seated between the small blind and the button waits for the button."""
    # Tournament
    late_entry_penalty_big_blinds: int = 0
    """Chips deducted from a late entrant, in big blinds of the current level."""
    late_entry_posts_while_absent: bool = False
    """A registered player not yet seated is dealt in and loses the blinds as they come round."""
    color_up: ColorUp = "race"
    """What happens to odd chips of a denomination removed from play."""
    citations: dict[str, str] = field(default_factory=dict, compare=False)

    def parameters(self) -> list[tuple[str, object, str, str]]:
        """(name, value, what it means, where it comes from) for every rule parameter."""
        docs = parameter_docs()
        return [
            (f.name, getattr(self, f.name), docs.get(f.name, ""), self.citations.get(f.name, ""))
            for f in fields(self)
            if f.name not in ("name", "title", "source", "citations")
        ]


def parameter_docs() -> dict[str, str]:
    """The one-line meaning of each parameter (the attribute docstrings above)."""
    return dict(_DOCS)


_DOCS: tuple[tuple[str, str], ...] = (
    ("reopen_percent", "A short all-in reopens betting to a player who already acted only when "
     "the increase he faces is at least this percent of the last full bet or raise."),
    ("full_big_blind_level", "An all-in for part of the big blind: callers still match the full "
     "big blind."),
    ("big_blind_ante_order", "What a short big blind posts first with a big-blind ante."),
    ("preflop_min_raise_multiple", "The smallest pre-flop raise is to this multiple of the big "
     "blind."),
    ("odd_chip_all_in_first", "A split that would leave an all-in winner with nothing gives the "
     "lowest chip to him."),
    ("misdeal_limit", "How much action makes a misdeal impossible."),
    ("exposed_deal_card", "What a card exposed by the dealer during the deal causes."),
    ("exposed_both_call_or_fold", "A player who exposed both hole cards may only call or fold."),
    ("absent_big_blind_checks", "An absent big blind is checked through instead of killed."),
    ("clock_seconds", "Seconds a player has once the clock is called."),
    ("clock_countdown_seconds", "The final countdown after the clock's time."),
    ("button_rule", "How the button and blinds move when a player is eliminated."),
    ("min_players_per_table", "Fewer players than this at a table cannot play hands."),
    ("new_player_waits_between_blind_and_button", "A new or moved player between the small blind "
     "and the button waits for the button to pass."),
    ("late_entry_penalty_big_blinds", "Chips deducted from a late entrant, in big blinds."),
    ("late_entry_posts_while_absent", "A late player is dealt in and loses blinds until he "
     "arrives."),
    ("color_up", "What happens to odd chips of a denomination removed from play."),
)

TDA_CITATIONS: dict[str, str] = {
    "reopen_percent": "TDA 2024 Rule 47: an all-in wager (or cumulative short all-ins) totaling "
    "less than a full raise does not reopen the betting to a player who has already acted",
    "full_big_blind_level": "TDA 2024 Rule 43 / Illustration Addendum: the big blind sets the "
    "bet to call pre-flop",
    "big_blind_ante_order": "TDA 2024 Rule 33 (big blind ante): if the big blind cannot cover "
    "both, the blind is posted first",
    "preflop_min_raise_multiple": "TDA 2024 Rule 43: a raise must be at least the size of the "
    "largest previous bet or raise of the current round (the big blind pre-flop)",
    "odd_chip_all_in_first": "TDA 2024 Rule 20: odd chips go to the first seat left of the button",
    "misdeal_limit": "TDA 2024 Rules 35 and 36: no misdeal once substantial action has occurred",
    "exposed_deal_card": "TDA 2024 Rule 35: exposure of the first or second card dealt is a "
    "misdeal",
    "exposed_both_call_or_fold": "TDA 2024: no such restriction (exposure is penalised, Rule 65)",
    "absent_big_blind_checks": "TDA 2024 Rule 30: a player must be at his seat to have a live "
    "hand",
    "clock_seconds": "TDA 2024 Rule 29: a clock gives up to 30 seconds",
    "clock_countdown_seconds": "TDA 2024 Rule 29: a 10-second countdown follows",
    "button_rule": "TDA 2024 Rule 32: dead button; the big blind always moves forward",
    "min_players_per_table": "TDA 2024 Rule 34: play continues down to heads-up",
    "new_player_waits_between_blind_and_button": "TDA 2024 Rule 31: a new player may not be "
    "dealt in between the small blind and the button",
    "late_entry_penalty_big_blinds": "TDA 2024 Rule 9: late entrants receive a full stack",
    "late_entry_posts_while_absent": "TDA 2024 Rule 9: late entrants are seated when they arrive",
    "color_up": "TDA 2024 Rule 24: odd chips are raced off",
}

TDA = Profile(
    name="tda",
    title="TDA 2024 (baseline)",
    source="Poker TDA Rules 2024 v1.0, with Recommended Procedures and Illustration Addendum",
    citations=TDA_CITATIONS,
)


def _derive(base: Profile, name: str, title: str, source: str,
            changes: dict[str, tuple[object, str]]) -> Profile:
    citations = dict(base.citations)
    values: dict[str, object] = {}
    for key, (value, cite) in changes.items():
        values[key] = value
        citations[key] = cite
    return replace(base, name=name, title=title, source=source, citations=citations, **values)


BSE = _derive(TDA, "bse", "BSE league", "shared/seeds/bse-tournament-rules.txt", {
    "min_players_per_table": (5, "BSE: 'each table can play down to five players. Four players "
                              "or less cannot play hands.'"),
    "late_entry_penalty_big_blinds": (5, "BSE: 'Members arriving late will be deducted chips at "
                                      "five (5) times the big blind at the time.'"),
    "color_up": ("round_up", "BSE: 'All remaining odd chips at color up will be rounded up to "
                 "the next chip denomination'"),
    "button_rule": ("dead_button", "BSE Dead Positions: 'if a player in the big blind gets out, "
                    "in the next hand the Small Blind position is dead'; 'If a player in the "
                    "Small Blind gets out ... there is a dead dealer position'"),
})

OCTOBERMUCK = _derive(TDA, "octobermuck", "Octobermuck charity tournament",
                      "shared/seeds/octobermuck-rules.txt", {
    "reopen_percent": (50, "Octobermuck: 'A short All-In bet does not open the action for the "
                       "original bettor to re-raise unless the All-In is at least 50% more than "
                       "the original bet.'"),
    "late_entry_posts_while_absent": (True, "Octobermuck: 'If you are late we'll assign you a "
                                      "seat and you will lose blinds as your turn comes "
                                      "around.'"),
    "color_up": ("forfeit_to_next_pot", "Octobermuck buy-downs: odd chips of a denomination "
                 "leaving play are forfeited to the next pot"),
})

CHAIRPERSON = _derive(TDA, "chairperson", "Event chairperson's dealer procedures",
                      "shared/seeds/event-chairperson-rules.txt", {
    "misdeal_limit": ("two_players_acted", "Chairperson misdeals 1-2: 'provided attention is "
                      "called to the error before two players have acted on their hands'"),
    "button_rule": ("moving_button", "Chairperson: 'If the Small Blind is eliminated, the player "
                    "who was the big blind now posts the small blind ... The button does not "
                    "move'"),
    "full_big_blind_level": (True, "Chairperson: 'If a player goes all-in for a portion of the "
                             "big blind, then subsequent action shall be made as if the player "
                             "had posted the full big blind.'"),
})

LEAGUE = _derive(TDA, "league", "Self-dealt league", "shared/seeds/league-self-dealt-rules.txt", {
    "odd_chip_all_in_first": (True, "League Tied hands: 'a player cannot be eliminated as a "
                              "result of a split pot. A split pot containing a single chip of "
                              "the lowest denomination in play will be awarded to the all-in "
                              "player regardless of seat position.'"),
    "exposed_deal_card": ("misdeal", "League: 'Any card flipped over during the initial deal is "
                          "an automatic misdeal.'"),
    "exposed_both_call_or_fold": (True, "League: 'If a player accidentally exposes BOTH of their "
                                  "cards before all players have acted ... that player can NO "
                                  "LONGER bet or raise. Their only options are to call or "
                                  "fold.'"),
    "absent_big_blind_checks": (True, "League: an absent player's hand is mucked; an absent big "
                                "blind is checked through"),
    "clock_seconds": (25, "League Timely Bets: 'a Player will be given up to twenty five (25) "
                      "seconds to make a decision'"),
    "clock_countdown_seconds": (5, "League Timely Bets: 'there will be a five (5) second "
                                "countdown'"),
    "full_big_blind_level": (True, "League: 'If a player goes all-in pre-flop for less than the "
                             "big blind, anyone who calls must still match the big blind.'"),
})

PROFILES: dict[str, Profile] = {p.name: p for p in (TDA, BSE, OCTOBERMUCK, CHAIRPERSON, LEAGUE)}


def get_profile(name: str) -> Profile:
    """The profile called `name`; the error lists the known ones."""
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise KeyError(f"unknown house-rule profile {name!r}; known profiles: {known}") from None
