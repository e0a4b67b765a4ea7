"""The steps that bring stored payloads of older event versions up to today's classes.

One function per (event type, from version): it takes the payload as stored at that version and
returns it as the next version writes it. The golden fixtures in tests/fixtures/events pin every
version that logs may hold; tests/test_codec.py decodes each of them through these steps.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from handlog.engine.words import rule_ids

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""One step: a payload as stored at version v, in; the same as version v + 1 writes it, out."""


def _event_amended_v1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 did not say which schema version the replacement payload was written at: it
    # was always 1 (every event class was at version 1 while event_amended was).
    payload["replacement_version"] = 1
    return payload


def _hand_started_v1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 had no dead money: every hand started with an empty pot.
    payload["dead_money"] = 0
    return payload


def _hand_started_v2(payload: dict[str, Any]) -> dict[str, Any]:
    # Before version 3 a hand did not record the digest of its rules nor handlog's release:
    # replay re-decides it under today's profile of the name it records.
    payload["rules_digest"] = ""
    payload["handlog_version"] = ""
    return payload


def _hand_started_v3(payload: dict[str, Any]) -> dict[str, Any]:
    # Before version 4 a hand recorded only its smallest chip (chip_unit), not the
    # denominations in play: any multiple of chip_unit counts as a chip.
    payload["denominations"] = []
    return payload


def _table_opened_v1(payload: dict[str, Any]) -> dict[str, Any]:
    # Tables opened before version 2 did not record their parameters.
    payload["parameters"] = ""
    return payload


# --- version 1 sentences, mapped to the codes and rule identifiers of version 2 --------------
# These are the exact texts the engine wrote before events held codes. They are a record of
# what old logs say, not words to show: they never change (engine/words.py may reword freely).

_OLD_RULES: dict[str, tuple[str, ...]] = {
    "TDA 35": ("tda-35",),
    "TDA 35, 36": ("tda-35", "tda-36"),
    "TDA 68": ("tda-68",),
    "TDA 29": ("tda-29",),
    "TDA 30": ("tda-30",),
    "TDA RP-5": ("tda-rp-5",),
    "TDA 35-E: a fouled deck stops play and all bets are returned": ("tda-35-e",),
    "chairperson misdeal rule 2": ("chairperson-misdeal-2",),
    "chairperson premature board cards": ("chairperson-premature-board-cards",),
    "chairperson: different back or duplicate card voids all action":
        ("chairperson-fouled-deck",),
    "league misdeals": ("league-misdeals",),
    "league exposed cards": ("league-exposed-cards",),
    "league accidental reveals": ("league-accidental-reveals",),
    "league timely bets": ("league-timely-bets",),
    "BSE mucked cards": ("bse-mucked-cards",),
    "BSE misdealt / exposed cards": ("bse-misdealt-exposed-cards",),
}


def _old_rules(text: str) -> list[str]:
    # A citation the engine wrote, else one a director typed: spelled as identifiers.
    return list(_OLD_RULES.get(text) or rule_ids(text))


_OLD_CONSEQUENCES: dict[str, str] = {
    "replaced by the next card; the exposed card is the burn card": "replaced_as_burn",
    "misdeal": "misdeal",
    "shown to the table; play continues": "play_continues",
    "both cards exposed: the player may only call or fold": "call_or_fold",
    "the hand is dead: a card exposed with action pending": "hand_dead",
}


def _card_exposed_v1(payload: dict[str, Any]) -> dict[str, Any]:
    text = payload.pop("consequence")
    code = _OLD_CONSEQUENCES.get(text)
    if code is None:
        # What version 1's fold made of any other text (it read the words).
        if "call or fold" in text:
            code = "call_or_fold"
        elif payload["in_deal"] and text != "shown to the table; play continues":
            code = "replaced_as_burn" if text.startswith("replaced") else "misdeal"
        else:
            code = "play_continues"
    payload["consequence"] = code
    payload["rules"] = _old_rules(payload.pop("rule"))
    return payload


def _card_exposed_v2(payload: dict[str, Any]) -> dict[str, Any]:
    # Before version 3 the card's place in the deal was not entered: it was judged by seat.
    payload["place"] = 0
    return payload


_OLD_MISDEALS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"\S+ exposed in the deal"), "league misdeals", "card_exposed_in_deal"),
    (re.compile(r"\S+, one of the first two cards, exposed"), "TDA 35", "first_two_exposed"),
    (re.compile(r"\S+, a second card exposed in the deal"), "TDA 35", "second_card_exposed"),
)


def _misdeal_declared_v1(payload: dict[str, Any]) -> dict[str, Any]:
    reason, rule = payload.pop("reason"), payload.pop("rule")
    cause = "declared"
    for pattern, engine_rule, code in _OLD_MISDEALS:
        # The engine's own sentence with the rule it cited with it; a dealer's misdeal always
        # cited the substantial-action rule, so his words are never taken for a code.
        if rule == engine_rule and pattern.fullmatch(reason):
            cause, reason = code, ""
            break
    return {"cause": cause, "rules": _old_rules(rule), "reason": reason}


_OLD_KILLS: dict[tuple[str, str], str] = {
    ("clock expired facing a bet", "TDA 29"): "clock_expired_facing_bet",
    ("clock expired", "league timely bets"): "clock_expired",
    ("exposed a card with action pending", "BSE mucked cards"): "exposed_with_action_pending",
    ("away from the table when the deal was complete", "TDA 30"): "absent_at_deal",
}


def _hand_killed_v1(payload: dict[str, Any]) -> dict[str, Any]:
    reason, rule = payload.pop("reason"), payload.pop("rule")
    cause = _OLD_KILLS.get((reason, rule))
    payload["cause"] = cause or "ruling"
    payload["rules"] = _old_rules(rule)
    payload["reason"] = "" if cause else reason
    return payload


def _hand_voided_v1(payload: dict[str, Any]) -> dict[str, Any]:
    payload["rules"] = _old_rules(payload.pop("rule"))
    return payload


_OLD_PROCEDURES: tuple[tuple[str, str], ...] = (
    ("burn cards stay in the muck; the exposed card(s) are shuffled back",
     "reshuffle_then_top_card"),
    ("the flop is mixed back into the stub", "flop_mixed_back"),
    ("the card is taken out of play for this round", "turn_out_for_the_round"),
    ("the burn card stays; the river goes back into the deck", "river_reshuffled"),
    ("the burn card stays; the premature ", "reshuffle_keep_burn"),
)


def _board_exposed_early_v1(payload: dict[str, Any]) -> dict[str, Any]:
    text = payload["procedure"]
    code = next((c for start, c in _OLD_PROCEDURES if text.startswith(start)), None)
    if code is None and text.startswith("the premature ") and "its burn are reshuffled" in text:
        code = "reshuffle_with_burn"
    payload["procedure"] = code or text
    payload["rules"] = _old_rules(payload.pop("rule"))
    return payload


_OLD_RANKS = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
              "queen", "king", "ace")
_OLD_PLURALS = {("sixes" if r == "six" else r + "s"): i for i, r in enumerate(_OLD_RANKS)}
_OLD_SINGULARS = {r: i for i, r in enumerate(_OLD_RANKS)}
_OLD_HANDS: tuple[tuple[re.Pattern[str], int, dict[str, int]], ...] = (
    (re.compile(r"Straight flush, (\w+) high"), 8, _OLD_SINGULARS),
    (re.compile(r"Four of a kind, (\w+)"), 7, _OLD_PLURALS),
    (re.compile(r"Full house, (\w+) full of (\w+)"), 6, _OLD_PLURALS),
    (re.compile(r"Flush, (\w+) high"), 5, _OLD_SINGULARS),
    (re.compile(r"Straight, (\w+) high"), 4, _OLD_SINGULARS),
    (re.compile(r"Three of a kind, (\w+)"), 3, _OLD_PLURALS),
    (re.compile(r"Two pair, (\w+) and (\w+)"), 2, _OLD_PLURALS),
    (re.compile(r"Pair of (\w+)"), 1, _OLD_PLURALS),
    (re.compile(r"High card, (\w+)"), 0, _OLD_SINGULARS),
)


def _old_hand_rank(name: str) -> list[int]:
    if not name:
        return []
    if name == "Royal flush":
        return [8, 12]
    for pattern, category, ranks in _OLD_HANDS:
        match = pattern.fullmatch(name)
        if match and all(g in ranks for g in match.groups()):
            return [category, *(ranks[g] for g in match.groups())]
    # No name handlog ever wrote: the rank is not known (replay then names the difference).
    return []


def _pot_awarded_v1(payload: dict[str, Any]) -> dict[str, Any]:
    payload["hand_rank"] = _old_hand_rank(payload.pop("hand_name", ""))
    return payload


# --- table and tournament events: version 1 sentences to codes and rule identifiers ----------

# Citations the engine copied from a profile (color-up, photo finish, late entry), known by the
# SHA-256 (first 16 hex digits) of their version 1 text, so that the texts themselves can be
# reworded in engine/profiles.py without losing old logs.
_OLD_CITATIONS: dict[str, str] = {
    "3e88e0a390e0f01f": "tda:color_up",
    "62116116ab19ee1d": "tda:photo_finish",
    "5f2ebe5f1a48f308": "tda:late_entry_penalty_big_blinds",
    "daa5231e372f61e3": "tda:late_entry_posts_while_absent",
    "af0fb0a2f1ed5a05": "bse:color_up",
    "9197acf00dd7dfd7": "bse:photo_finish",
    "3a6565cadd1197fe": "bse:late_entry_penalty_big_blinds",
    "5709bf24fbcd6fdc": "bse:late_entry_posts_while_absent",
    "2a922fd54b2c51fd": "octobermuck:color_up",
    "fcd5e06f3194d1e3": "octobermuck:photo_finish",
    "615f24fc1059d352": "octobermuck:late_entry_penalty_big_blinds",
    "d504156690df29b1": "octobermuck:late_entry_posts_while_absent",
    "4e2cbc2017b92812": "chairperson:color_up",
    "d1059c2cfdc49295": "chairperson:photo_finish",
    "1a891e9b47ef8ae5": "chairperson:late_entry_penalty_big_blinds",
    "11c726a769bcb4e6": "chairperson:late_entry_posts_while_absent",
    "b0e14caa451d5264": "league:color_up",
    "3df2509d2d7ccd33": "league:photo_finish",
    "e3b89116dc99987d": "league:late_entry_penalty_big_blinds",
    "6c964ff34c1cce11": "league:late_entry_posts_while_absent",
}
_OLD_PROFILE_NAMES = ("tda", "bse", "octobermuck", "chairperson", "league")
_OLD_TABLE_RULES: dict[str, str] = {
    "high card draws the button; suits rank spades, hearts, diamonds, clubs (BSE Drawing for "
    "Dealer)": "bse-drawing-for-dealer",
    "TDA: the player due the big blind next moves to the shortest table": "tda-11-a",
    "Octobermuck Seating: 'the players at the table with extra people will draw for high "
    "card'": "octobermuck-seating",
    "BSE Missing Player: chips of a player who withdraws are removed from play; League: chips "
    "are never split amongst the players": "bse-missing-player",
    "BSE Photo Finishes: 'the player with the most chips in the hand will get the higher "
    "finishing position. If Members have equal amounts of chips, they tie for the higher "
    "position.'": "bse:photo_finish",
    "TDA: players out in the same hand finish by their chips at the start of the hand; equal "
    "chips share the place": "tda:photo_finish",
    "correction": "correction",
}
_OLD_PAYOUTS = re.compile(r"payouts for (\d+)-(\d+) players: .*")


def _old_rule(text: str) -> str:
    """A version 1 `rule` text as the identifier(s) version 2 holds."""
    if not text:
        return ""
    known = _OLD_TABLE_RULES.get(text) or _OLD_CITATIONS.get(
        hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])
    if known:
        return known
    if text in _OLD_PROFILE_NAMES:  # a hand-on between tables cited the profile's color-up
        return f"{text}:color_up"
    payouts = _OLD_PAYOUTS.fullmatch(text)
    if payouts:
        return f"payouts:{payouts[1]}-{payouts[2]}"
    return ", ".join(_OLD_RULES.get(text) or rule_ids(text))


def _rule_v1(payload: dict[str, Any]) -> dict[str, Any]:
    payload["rule"] = _old_rule(payload.get("rule", ""))
    return payload


_OLD_REASONS: dict[str, str] = {
    "late entry": "late_entry",
    "draw for the button": "button_draw",
    "dealer undo": "undo",
    "initial draw": "initial_draw",
    "final table redraw": "final_table_redraw",
    "table broken": "table_broken",
    "odd chips of the color-up, changed up": "color_up_carry",
    "no odd chips": "no_odd_chips",
    "odd chips rounded up to one chip": "rounded_up",
    "odd chips forfeited to the next pot": "forfeited_to_next_pot",
    "every chip was odd: all forfeited": "all_forfeited",
    "won a chip in the race": "won_race",
    "cannot be raced out: given one chip": "given_one_chip",
    "lost the race": "lost_race",
}
_OLD_REASON_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"color-up \((race|round_up|forfeit_to_next_pot)\)"), "color_up"),
    (re.compile(r"to the next pot of table .+: this table breaks"), "handed_on"),
    (re.compile(r"from table .+, broken: odd chips of the color-up"), "handed_on"),
)


def _old_reason(text: str) -> str:
    code = _OLD_REASONS.get(text)
    if code is not None:
        return code
    return next((c for pattern, c in _OLD_REASON_PATTERNS if pattern.fullmatch(text)), text)


def _reason_v1(payload: dict[str, Any]) -> dict[str, Any]:
    if "reason" in payload:
        payload["reason"] = _old_reason(payload["reason"])
    return payload


def _button_placed_v2(payload: dict[str, Any]) -> dict[str, Any]:
    # The seat draw wrote its button's reason as the words until version 3; the table break
    # and the single table's draw wrote the code. Both read as the code.
    if payload.get("reason") == "draw for the button":
        payload["reason"] = "button_draw"
    return payload


def _reason_and_rule_v1(payload: dict[str, Any]) -> dict[str, Any]:
    return _rule_v1(_reason_v1(payload))


def _chips_colored_up_v1(payload: dict[str, Any]) -> dict[str, Any]:
    payload["adjustments"] = [_reason_v1(dict(a)) for a in payload.get("adjustments", [])]
    return _rule_v1(payload)


UPCASTERS: dict[tuple[str, int], Upcaster] = {
    ("player_seated", 1): _reason_v1,
    ("button_placed", 1): _reason_v1,
    ("button_placed", 2): _button_placed_v2,
    ("stack_adjusted", 1): _reason_and_rule_v1,
    ("pot_carried", 1): _reason_and_rule_v1,
    ("event_voided", 1): _reason_and_rule_v1,
    ("event_amended", 2): _rule_v1,
    ("player_registered", 1): _rule_v1,
    # v3 added person and entry, v2 the structure's re_entry, rebuy and add_on: their
    # defaults (the entry is its own person, a first entry; none offered) are what old logs mean.
    ("player_registered", 2): dict,
    ("tournament_created", 1): dict,
    # v3 added the structure's days (the default, a one-day tournament, is what old logs mean),
    # the guarantee and the satellite; v3 of prizes_awarded the overlay and the seats: none,
    # as before.
    ("tournament_created", 2): dict,
    ("tournament_created", 3): dict,  # v4 an imported tournament's number and start: none
    ("prizes_awarded", 2): dict,
    ("tournament_finished", 1): dict,
    ("hand_imported", 1): dict,  # v2 added played_at: "" (the file's time not kept) by default
    ("hand_imported", 2): dict,  # v3 the recording log's stream and versions: none given
    ("seats_drawn", 1): _reason_v1,
    ("seats_drawn", 2): _reason_v1,  # a random draw's "initial draw", written as words
    ("table_closed", 1): _reason_v1,
    ("button_drawn", 1): _rule_v1,
    ("chips_colored_up", 1): _chips_colored_up_v1,
    ("player_moved", 1): _rule_v1,
    ("player_eliminated", 1): _rule_v1,
    ("player_withdrew", 1): _rule_v1,
    ("prizes_awarded", 1): _rule_v1,
    ("ruling_recorded", 1): _rule_v1,
    ("penalty_recorded", 1): _rule_v1,
    ("event_amended", 1): _event_amended_v1,
    ("hand_started", 1): _hand_started_v1,
    ("hand_started", 2): _hand_started_v2,
    ("hand_started", 3): _hand_started_v3,
    ("table_opened", 1): _table_opened_v1,
    ("card_exposed", 1): _card_exposed_v1,
    ("card_exposed", 2): _card_exposed_v2,
    ("misdeal_declared", 1): _misdeal_declared_v1,
    ("hand_killed", 1): _hand_killed_v1,
    ("hand_voided", 1): _hand_voided_v1,
    ("board_exposed_early", 1): _board_exposed_early_v1,
    ("pot_awarded", 1): _pot_awarded_v1,
}
