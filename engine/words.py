"""The words handlog says about what its events record: the one table of them.

Events hold facts only (codes, numbers, rule identifiers such as ``tda-35``); a reader turns
them into words here, when it reads. Nothing that decides, folds or verifies reads these
tables, so rewording any text in a later release changes no verdict on a log recorded before
(tests/test_rewording.py replaces every text below and replays the golden logs).

Texts typed by people (a director's reason, a dealer's note) are input, stored as typed, and
never pass through this module.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from handlog.engine.profiles import PROFILES, Profile

# --- hands ------------------------------------------------------------------------------------

HAND_CATEGORIES: tuple[str, ...] = (
    "High card", "Pair", "Two pair", "Three of a kind", "Straight", "Flush", "Full house",
    "Four of a kind", "Straight flush",
)
"""Index: the category code of a hand rank (engine/evaluator.py HIGH_CARD .. STRAIGHT_FLUSH)."""

RANK_NAMES: tuple[str, ...] = (
    "deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
    "king", "ace",
)
RANK_PLURALS: tuple[str, ...] = (
    "deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks",
    "queens", "kings", "aces",
)

HAND_PHRASES: dict[str, str] = {
    "high_card": "{category}, {first}",
    "pair": "{category} of {firsts}",
    "two_pair": "{category}, {firsts} and {seconds}",
    "three_of_a_kind": "{category}, {firsts}",
    "straight": "{category}, {first} high",
    "flush": "{category}, {first} high",
    "full_house": "{category}, {firsts} full of {seconds}",
    "four_of_a_kind": "{category}, {firsts}",
    "straight_flush": "{category}, {first} high",
    "royal_flush": "Royal flush",
}
_PHRASE_OF_CATEGORY = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
                       "full_house", "four_of_a_kind", "straight_flush")
_ACE = 12


def hand_name(hand_rank: tuple[int, ...]) -> str:
    """`hand_rank` (category code, then the ranks the hand is named by: 0 deuce .. 12 ace) in
    words, e.g. (6, 11, 5) "Full house, kings full of sevens"; empty for no hand."""
    if not hand_rank:
        return ""
    category, *ranks = hand_rank
    first = ranks[0] if ranks else 0
    second = ranks[1] if len(ranks) > 1 else 0
    if not (0 <= category < len(_PHRASE_OF_CATEGORY) and 0 <= first < 13 and 0 <= second < 13):
        return f"hand rank {list(hand_rank)}"  # no hand handlog knows: shown as recorded
    key = _PHRASE_OF_CATEGORY[category]
    if key == "straight_flush" and first == _ACE:
        key = "royal_flush"
    return HAND_PHRASES[key].format(
        category=HAND_CATEGORIES[category], first=RANK_NAMES[first], firsts=RANK_PLURALS[first],
        second=RANK_NAMES[second], seconds=RANK_PLURALS[second])


# --- rules --------------------------------------------------------------------------------------

RULES: dict[str, tuple[str, str]] = {
    "satellite": ("the structure's [satellite]", "seats in another event as many as the pool "
                  "buys, the cash left to the next place"),
    "tda-1": ("TDA 1", "floor decisions consider the best interest of the game and fairness"),
    "tda-16": ("TDA 16", "face up for all-ins; cards speak at showdown"),
    "tda-20": ("TDA 20", "odd chips"),
    "tda-21": ("TDA 21", "side pots, each split separately"),
    "tda-29": ("TDA 29", "calling for a clock; facing a bet when time expires the hand is dead"),
    "tda-30": ("TDA 30",
              "players must be at their seats when the last card of the initial deal is dealt"),
    "tda-32": ("TDA 32", "dead button"),
    "tda-35": ("TDA 35", "misdeals"),
    "tda-35-e": ("TDA 35-E", "a fouled deck stops play and all bets are returned"),
    "tda-36": ("TDA 36", "substantial action"),
    "tda-45": ("TDA 45", "methods of betting: verbal and chips"),
    "tda-47": ("TDA 47", "re-opening the bet"),
    "tda-65": ("TDA 65", "dead hands"),
    "tda-68": ("TDA 68", "exposing cards with action pending"),
    "tda-rp-5": ("TDA RP-5", "premature flop, turn or river"),
    "bse-mucked-cards": ("BSE Mucked Cards", "a card exposed with action pending"),
    "bse-misdealt-exposed-cards": ("BSE Misdealt / Exposed Cards", ""),
    "chairperson-misdeal-2": ("Chairperson misdeals 1-2", "two players have acted"),
    "chairperson-premature-board-cards": ("Chairperson premature board cards", ""),
    "chairperson-fouled-deck": ("Chairperson fouled deck",
                               "a different back or a duplicate card voids all action"),
    "league-misdeals": ("League Misdeals", "any card flipped in the initial deal"),
    "league-exposed-cards": ("League Exposed Card(s)", "both cards exposed, call or fold only"),
    "league-accidental-reveals": ("League Accidental Reveals", ""),
    "league-timely-bets": ("League Timely Bets", "the hand is dead when the countdown ends"),
    "tda-11-a": ("TDA 11-A", "the player due the big blind next moves to the shortest table"),
    "bse-drawing-for-dealer": ("BSE Drawing for Dealer",
                              "high card draws the button; suits rank spades, hearts, diamonds, "
                               "clubs"),
    "bse-missing-player": ("BSE Missing Player",
                          "chips of a player who withdraws are removed from play; League: "
                           "chips are never split amongst the players"),
    "octobermuck-seating": ("Octobermuck Seating",
                           "'the players at the table with extra people will draw for high card'"),
    "correction": ("Correction of an entry", ""),
    "tda-23": ("TDA 23", ""),
    "tda-43": ("TDA 43", ""),
    "tda-11": ("TDA 11", ""),
    "bse-seating": ("BSE Seating", ""),
    "bse-photo-finishes": ("BSE Photo Finishes", ""),
    "practice-photo-finish": ("usual practice (TDA 2024 has no rule): more chips at the start of "
                              "the hand places higher, equal stacks share", ""),
    "tda-rp-8": ("TDA RP-8-A", ""),
    "tda-24": ("TDA 24", ""),
    "tda-25": ("TDA 25", ""),
    "tda-40": ("TDA 40", ""),
    "tda-42": ("TDA 42", ""),
    "tda-44": ("TDA 44", ""),
    "tda-53": ("TDA 53", ""),
    "league-out-of-turn": ("League Calling (a bet out of turn)", ""),
    "bse-betting": ("BSE Betting", ""),
    "octobermuck-one-chip": ("Octobermuck one-chip rule", ""),
    "octobermuck-announce": ("Octobermuck General Rules (announce your actions)", ""),
    "octobermuck-bounties": ("Octobermuck Bounties", ""),
    "league-single-chip-bets": ("League Calling (and Single Chip Bets)", ""),
    "league-string-betting": ("League String Betting", ""),
    "octobermuck-buy-downs": ("Octobermuck Chip Buy-downs (odd chips forfeited to the next pot)",
                             ""),
    "tda-8": ("TDA 8", ""),
    "tda-71": ("TDA 71", ""),
    "tda-deals": ("TDA 2024 (no rule on deals: the posted payouts apply)", ""),
    "octobermuck-re-buys": ("Octobermuck Re-Buys", ""),
    "octobermuck-deals": ("Octobermuck deals", ""),
    "league-out-of-chips": ("League (out of chips, out of the tournament)", ""),
    "league-leaving-the-table": ("League Leaving the Table", ""),
    "bse-all-in": ("BSE All-In", ""),
    "bse-blinds": ("BSE Blinds", ""),
    "bse-pre-flop-action": ("BSE Pre-Flop Action", ""),
    "octobermuck-short-all-in": ("Octobermuck General Rules (short all-in)", ""),
    "octobermuck-minimum-bet": ("Octobermuck General Rules (minimum bet)", ""),
    "octobermuck-raises": ("Octobermuck General Rules (raises)", ""),
    "league-raising": ("League Raising", ""),
    "tda-12": ("TDA 12", ""),
    "tda-17": ("TDA 17", ""),
    "octobermuck-high-hand-jackpot": ("Octobermuck High Hand Jackpot",
                                      "only entrants who paid the fee"),
}
"""Every rule identifier the engine, a profile or a ruling cites, with its citation (the
short name a refusal gives, "TDA 47") and its gist (what the report's title adds after a
colon, "re-opening the bet"; empty where the citation says it). The one table of rule words:
an identifier not listed (one a director typed) is shown as it is written."""


def rule_citation(rule: str) -> str:
    """The short name of one rule identifier ("TDA 47"), as a refusal cites it."""
    known = RULES.get(rule)
    if known is not None:
        return known[0]
    if rule.startswith("tda-"):
        return RULE_PATTERNS["tda"].format(number=rule[4:].upper())
    table, _, key = rule.partition(":")
    if table in STRUCTURE_TABLES and key:
        return RULE_PATTERNS["structure"].format(table=table, key=key)
    return rule


def rule_title(rule: str) -> str:
    """The words of one rule identifier: its citation and gist ("TDA 47: re-opening the bet");
    the identifier itself when none are known."""
    known = RULES.get(rule)
    if known is not None:
        citation, gist = known
        return f"{citation}: {gist}" if gist else citation
    profile, _, parameter = rule.partition(":")
    if profile == "payouts" and parameter:
        return RULE_PATTERNS["payouts"].format(players=parameter)
    if profile in STRUCTURE_TABLES and parameter:
        return RULE_PATTERNS["structure"].format(table=profile, key=parameter)
    if parameter:
        # A profile parameter's citation (`octobermuck:color_up`) lives with the parameter.
        found = PROFILES.get(profile)
        if found is not None and parameter in found.citations:
            return found.citations[parameter]
    return rule_citation(rule)


REFUSAL_TOPICS: dict[str, str] = {
    # A field a limit refuses (engine/limits.py) is named by its field name.
    "amount": "amount", "name": "name", "player": "player", "reason": "reason",
    "rule": "rule", "ruling": "ruling", "tournament-id": "tournament id",
    "absent": "player away", "absent-player": "player away from the table", "all-in": "all-in",
    "auth": "authorisation", "award": "awarding the pots", "balancing": "balancing tables",
    "betting-incomplete": "betting not complete", "board": "board cards",
    "button-redraw": "button redraw", "cards": "cards", "chip-count": "chip count",
    "chip-total": "chip total", "clock": "tournament clock", "color-up": "color-up",
    "command": "command", "dead-hand": "dead hand", "dead-money": "dead money", "deal": "deal",
    "demo": "demonstration", "duplicate-card": "duplicate card", "elimination": "elimination",
    "eliminations": "eliminations", "engine": "the engine's decision", "event-id": "event id",
    "hand": "hand", "hand-complete": "hand complete", "hand-in-progress": "hand in progress",
    "high-hand": "high hand", "http": "request", "icm": "ICM", "late-entry": "late entry",
    "level": "level", "log": "log", "moves": "player moves", "muck": "muck", "offline": "offline",
    "penalty": "penalty", "places": "places", "prizes": "prizes", "profile": "rules profile",
    "push": "chips pushed", "record": "record", "registration": "registration",
    "request": "request", "rules": "other rules", "schedule": "schedule", "seat": "seat",
    "seat-count": "seat count", "seating": "seating", "setup": "hand setup", "stack": "stack",
    "stacks-carry-over": "stacks carry over", "stale-version": "stale version", "store": "store",
    "strict-replay": "strict replay", "structure": "tournament structure", "table": "table",
    "table-stakes": "table stakes", "tables": "tables", "tournament": "tournament",
    "turn": "turn to act", "undo": "undo", "whatif": "what-if", "withdrawal": "withdrawal",
    "rebuy": "rebuy", "add-on": "add-on", "re-entry": "re-entry",
    "place": "place in the deal", "money": "money",
}
"""The words of a refusal's code where no rule of a document stands behind it (the code is
kebab-case, like a rule identifier: `chip-count`); render_rule gives them."""


def render_rule(rule_id: str, profile: Profile | None = None) -> str:
    """The words for a rule identifier or a refusal's code (REFUSAL_TOPICS), or for several
    joined by ", "; a TDA rule cited
    under a house profile says that the house document is silent there ("TDA 47 (Octobermuck
    is silent here)")."""
    if ", " in rule_id:
        return ", ".join(render_rule(part, profile) for part in rule_id.split(", "))
    topic = REFUSAL_TOPICS.get(rule_id)
    if topic is not None:
        return topic
    words = rule_citation(rule_id)
    if profile is not None and profile.short and rule_id.startswith("tda-") and \
            rule_id not in profile.rule_ids.values():
        return f"{words} ({profile.short} is silent here)"
    return words


RULE_PATTERNS: dict[str, str] = {
    "tda": "TDA {number}",
    "payouts": "the structure's payout line for {players} players, rounded down, the remainder "
               "to first place",
    "structure": "the structure's [{table}] {key}",
}
"""Words of the rule identifiers made of a kind and a value (`payouts:24-27`)."""


def render_rules(rules: Iterable[str]) -> str:
    """Several rule identifiers in words, e.g. "TDA 35: misdeals; TDA 36: ..."."""
    return "; ".join(rule_title(rule) for rule in rules)


def rule_words(rule: str) -> str:
    """The words of a `rule` field: one identifier, or several joined by ", "."""
    return render_rules(part for part in rule.split(", ") if part)


_RULE_ID = re.compile(r"[a-z0-9]+(?:[-:_][a-z0-9]+)*")
_TDA_PART = re.compile(r"(?i)^(?:tda\s*(?:2024\s*)?(?:rule\s*)?)?((?:rp-?\s*)?\d+(?:-?[a-z])?)$")


def rule_ids(citation: str) -> tuple[str, ...]:
    """The rule identifiers a citation names: "TDA 35, 36" -> ("tda-35", "tda-36"); "TDA RP-5"
    -> ("tda-rp-5",); identifiers pass through ("tda-65" -> ("tda-65",)); other text becomes one
    identifier of its words ("house rule 7" -> ("house-rule-7",)). Empty for an empty text.

    This is no table of words: it only spells a citation as identifiers, the same way forever
    (old logs are upcast through it)."""
    text = citation.strip()
    if not text:
        return ()
    if _RULE_ID.fullmatch(text):
        return (text,)
    if text[:3].lower() == "tda" and ":" in text:
        # "TDA 1: the dealer pushed early": the citation, then words about it.
        cited = rule_ids(text.partition(":")[0])
        if all(rule.startswith("tda-") for rule in cited):
            return cited
    parts = [p.strip() for p in re.split(r",|\band\b|&", text) if p.strip()]
    if parts and text[:3].lower() == "tda":
        found = []
        for part in parts:
            match = _TDA_PART.match(part)
            if match is None:
                break
            number = re.sub(r"\s+", "", match.group(1).lower())
            number = re.sub(r"^rp-?", "rp-", number)
            number = re.sub(r"(\d)([a-z])$", r"\1-\2", number)
            found.append(f"tda-{number}")
        else:
            return tuple(found)
    if all(_RULE_ID.fullmatch(p) for p in parts):
        return tuple(parts)
    return (re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "rule",)


def cite(citation: str) -> str:
    """A citation a person typed ("TDA 45", "tda-1") as the text of a `rule` field: its rule
    identifiers joined by ", "."""
    return ", ".join(rule_ids(citation))


STRUCTURE_TABLES = ("re_entry", "rebuy", "add_on", "days", "money", "satellite")
"""The structure's tables a decision on an entry cites (`rebuy:stack_at_most`)."""


def structure_rule(table: str, key: str) -> str:
    """The identifier of one key of the structure a decision rests on (`rebuy:per_entry`)."""
    return f"{table}:{key}"


def profile_rule(profile: str, parameter: str) -> str:
    """The identifier of the citation behind one parameter of a profile."""
    return f"{profile}:{parameter}"


# --- irregularities -----------------------------------------------------------------------------

CONSEQUENCES: dict[str, str] = {
    "replaced_as_burn": "replaced by the next card; the exposed card is the burn card",
    "misdeal": "misdeal",
    "play_continues": "shown to the table; play continues",
    "call_or_fold": "both cards exposed: the player may only call or fold",
    "hand_dead": "the hand is dead: a card exposed with action pending",
}
"""What a card exposed (card_exposed.consequence) leads to."""

MISDEAL_CAUSES: dict[str, str] = {
    "declared": "declared by the dealer",
    "card_exposed_in_deal": "a card exposed in the deal",
    "first_two_exposed": "one of the first two cards exposed",
    "second_card_exposed": "a second card exposed in the deal",
}
"""Why a misdeal was declared (misdeal_declared.cause)."""

KILL_CAUSES: dict[str, str] = {
    "ruling": "ruled dead",
    "clock_expired_facing_bet": "clock expired facing a bet",
    "clock_expired": "clock expired",
    "exposed_with_action_pending": "exposed a card with action pending",
    "absent_at_deal": "away from the table when the deal was complete",
}
"""Why a hand was killed (hand_killed.cause)."""

PROCEDURES: dict[str, str] = {
    "reshuffle_keep_burn": "the burn card stays; the premature card(s) go back into the stub, "
                           "the entire stub is reshuffled and the street re-dealt without "
                           "another burn once the betting is done",
    "reshuffle_with_burn": "the premature card(s) and the burn are reshuffled with the rest of "
                           "the deck, the deck is re-cut and the cards re-dealt once the "
                           "betting is done",
    "reshuffle_then_top_card": "burn cards stay in the muck; the exposed card(s) are shuffled "
                               "back into the deck; once betting completes the top card(s) are "
                               "revealed",
    "flop_mixed_back": "the flop is mixed back into the stub, the burn card stays; after the "
                       "betting, shuffle, cut and deal a new flop without burning",
    "turn_out_for_the_round": "the card is taken out of play for this round; the next card "
                              "replaces it after a burn, and the exposed card is shuffled back "
                              "for the river",
    "river_reshuffled": "the burn card stays; the river goes back into the deck, which is "
                        "reshuffled and cut, and the river is dealt without another burn",
}
"""What is done with board cards turned too early (board_exposed_early.procedure)."""

REASONS: dict[str, str] = {
    "draw": "seat draw",
    "moved": "moved",
    "late_entry": "late entry",
    "eliminated": "eliminated",
    "withdrawn": "withdrawn",
    "button_draw": "draw for the button",
    "undo": "dealer undo",
    "initial_draw": "initial draw",
    "assigned": "seat assigned by the director",
    "final_table_redraw": "final table redraw",
    "table_broken": "table broken",
    "final_table": "final table drawn",
    "balance": "balance",
    "due_big_blind": "due the big blind next",
    "high_card": "high card",
    "no_odd_chips": "no odd chips",
    "rounded_up": "odd chips rounded up to one chip",
    "forfeited_to_next_pot": "odd chips forfeited to the next pot",
    "all_forfeited": "every chip was odd: all forfeited",
    "won_race": "won a chip in the race",
    "given_one_chip": "cannot be raced out: given one chip",
    "lost_race": "lost the race",
    "color_up": "color-up",
    "color_up_carry": "odd chips of the color-up, changed up",
    "handed_on": "handed on between tables: a table breaks",
    "count_correction": "stack corrected after a chip count",
    "rebuy": "chips bought with a rebuy",
    "add_on": "chips bought with the add-on",
    "break": "break",
    "end_of_day": "end of the day",
    "imported": "imported from another system's hand history",
}
"""The reasons the engine and the recorder give on their own (a person's reason is kept as he
typed it and shown as it is)."""


PAPER: dict[str, str] = {
    "seat-cards": "Seat card",
    "receipts": "Payout receipt",
    "vouchers": "Chip-count voucher",
    "bag-sheet": "Bag sheet",
    "player": "Player",
    "entry": "Entry",
    "table": "Table",
    "seat": "Seat",
    "why": "Why",
    "level": "Level",
    "stack": "Chips",
    "recorded": "Recorded",
    "place": "Place",
    "prize": "Prize",
    "bounties": "Bounties",
    "high_hand": "High-hand jackpot",
    "total": "Total paid",
    "counted": "Chips counted",
    "ruled": "Stack as ruled",
    "occasion": "Counted at",
    "bag": "Bag no.",
    "sign_player": "Player's signature",
    "sign_director": "Director's signature",
    "sign_paid_by": "Paid by (director)",
    "sign_witness": "Witness",
    "from_counts": "from the end-of-day chip counts",
    "from_bags": "the bags recorded",
    "confirmed_by": "Count confirmed by",
    "total_chips": "Total chips",
    "print_hint": "Print this page (Ctrl+P): each card prints whole.",
}
"""The words printed on the room's paper (replay/paper.py): titles, labels, signature lines."""


def reason(code: str) -> str:
    """The words of a reason code; a person's own words are shown as they are."""
    return REASONS.get(code, code)


# --- a refusal's facts ----------------------------------------------------------------------------

VIOLATIONS: dict[str, str] = {
    "unshown": "{pot} is contested: {player} has not shown both cards",
}
"""Words for RuleViolation codes whose facts a reader names: {pot} (its name), {player}."""


START_HOLDS: dict[str, str] = {
    "first_hand": "the first hand: start it when the table is ready",
    "redeal": "re-deal: start it when the cards are shuffled",
    "level": "a new level: announce the blinds, then start",
    "break": "a break is due: no hand until the floor says",
    "move": "players move from this table: start when the floor has moved them",
}
"""Why the next hand waits for the dealer's tap (engine.table.START_HOLDS)."""


def pot_name(index: int) -> str:
    """"Main pot", "Side pot 1", ...: the name a person knows a pot by (never "pot 0")."""
    return "Main pot" if index == 0 else f"Side pot {index}"


def violation_text(code: str, facts: tuple[int, ...], who: Callable[[int], str]) -> str | None:
    """A refusal said with names: the words of `code` with its facts (for "unshown": the pot
    and the position, named by `who`); None for a code without words here."""
    text = VIOLATIONS.get(code)
    if text is None:
        return None
    if code == "unshown":
        pot, player = facts
        return text.format(pot=pot_name(pot), player=who(player))
    return text  # pragma: no cover - every code above has its facts


# --- one event ----------------------------------------------------------------------------------


def render(event: Any) -> dict[str, str]:
    """The words for the coded fields of `event` (a domain event), by field name: e.g. a
    pot_awarded gives {"hand_name": ...}, a card_exposed {"consequence": ..., "rules": ...}.
    Fields that hold no code are not in it."""
    words: dict[str, str] = {}
    values: Mapping[str, Any] = {name: getattr(event, name) for name in _CODED
                                 if hasattr(event, name)}
    if "hand_rank" in values:
        words["hand_name"] = hand_name(values["hand_rank"])
    if "rules" in values:
        words["rules"] = render_rules(values["rules"])
    if "rule" in values and isinstance(values["rule"], str):
        words["rule"] = rule_words(values["rule"])
    if "consequence" in values:
        words["consequence"] = CONSEQUENCES.get(values["consequence"], values["consequence"])
    if "procedure" in values:
        words["procedure"] = PROCEDURES.get(values["procedure"], values["procedure"])
    if "cause" in values:
        table = MISDEAL_CAUSES if getattr(event, "TYPE", "") == "misdeal_declared" else KILL_CAUSES
        text = table.get(values["cause"], values["cause"])
        typed = getattr(event, "reason", "")
        words["cause"] = typed if typed and values["cause"] in ("declared", "ruling") else text
    if "reason" in values and isinstance(values["reason"], str):
        words["reason"] = reason(values["reason"])
    return words


_CODED = ("hand_rank", "rules", "rule", "consequence", "procedure", "cause", "reason")


# --- one hand event as a sentence ---------------------------------------------------------------


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _cards(cards: Iterable[str]) -> str:
    return " ".join(cards)


def action_text(event: Any, who: Callable[[int], str], public: bool) -> str | None:
    """One line a person reads of a hand event: "Bob raises to 600"; `who(position)` names a
    player; `public` hides unshown hole cards (and an exposed card's face). None for an event
    that is not a hand's (the readers say those themselves)."""
    kind = getattr(event, "TYPE", "")
    if kind == "hand_started":
        return f"hand #{event.hand_number} started (button seat {event.button_seat})"
    if kind == "chips_posted":
        post = event.kind.replace("_", " ")
        return f"{who(event.player)} posts {post} {event.amount}" + (
            " (all-in)" if event.all_in else "")
    if kind == "hole_cards_dealt":
        if public or not event.cards:
            return f"{who(event.player)} dealt in"
        return f"{who(event.player)} dealt {_cards(event.cards)}"
    if kind == "player_folded":
        return f"{who(event.player)} folds"
    if kind == "player_checked":
        return f"{who(event.player)} checks"
    if kind == "player_called":
        return f"{who(event.player)} calls {event.amount}" + (" (all-in)" if event.all_in else "")
    if kind == "bet_made":
        return f"{who(event.player)} bets {event.to}" + (" (all-in)" if event.all_in else "")
    if kind == "raise_made":
        extra = " (all-in)" if event.all_in else ""
        if not event.full:
            extra += ", not a full raise"
        return f"{who(event.player)} raises to {event.to}{extra}"
    if kind == "board_dealt":
        return f"board: {_cards(event.cards)}"
    if kind == "cards_shown":
        return f"{who(event.player)} shows {_cards(event.cards)}"
    if kind == "cards_mucked":
        return f"{who(event.player)} mucks"
    if kind == "pot_awarded":
        pot = "main pot" if event.pot == 0 else f"side pot {event.pot}"
        shares = ", ".join(f"{who(w)} {s}" for w, s in zip(event.winners, event.shares,
                                                             strict=True))
        text = f"{pot} {event.amount}: {shares}"
        if event.hand_rank:
            text += f" ({hand_name(event.hand_rank)})"
        if event.ruling:
            text += f"; ruling: {event.ruling}"
        return text
    if kind == "misdeal_declared":
        return f"misdeal: {render(event)['cause']}"
    if kind == "card_exposed":
        card = "a card" if public else event.card
        place = f" (the {ordinal(event.place)} card dealt)" if event.place else ""
        return f"{who(event.player)}: {card}{place} exposed; {render(event)['consequence']}"
    if kind == "board_exposed_early":
        return (f"premature board card {_cards(event.cards)}: "
                f"{render(event)['procedure']}")
    if kind == "hand_killed":
        return f"{who(event.player)}'s hand killed: {render(event)['cause']}"
    if kind == "player_marked_absent":
        return f"{who(event.player)} absent"
    if kind == "player_returned":
        return f"{who(event.player)} returned"
    if kind == "hand_voided":
        return f"hand void: {event.reason}"
    return None
