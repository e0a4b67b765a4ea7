"""The steps that bring stored payloads of older event versions up to today's classes.

One function per (event type, from version): it takes the payload as stored at that version and
returns it as the next version writes it. The golden fixtures in tests/fixtures/events pin every
version that logs may hold; tests/test_codec.py decodes each of them through these steps.
"""

from __future__ import annotations

import re
from typing import Any

from engine.words import rule_ids
from schema.codec import Upcaster


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


UPCASTERS: dict[tuple[str, int], Upcaster] = {
    ("event_amended", 1): _event_amended_v1,
    ("hand_started", 1): _hand_started_v1,
    ("hand_started", 2): _hand_started_v2,
    ("table_opened", 1): _table_opened_v1,
    ("card_exposed", 1): _card_exposed_v1,
    ("misdeal_declared", 1): _misdeal_declared_v1,
    ("hand_killed", 1): _hand_killed_v1,
    ("hand_voided", 1): _hand_voided_v1,
    ("board_exposed_early", 1): _board_exposed_early_v1,
    ("pot_awarded", 1): _pot_awarded_v1,
}
