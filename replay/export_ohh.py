"""Recorded hands as Open Hand History (OHH) JSON: one `{"ohh": {...}}` object per hand,
objects separated by a blank line (see data/hand-histories/ohh for the specification's own
examples).

Players get ids 0, 1, ... in seat order. Rounds are Preflop (posts: `Post Ante`, `Post SB`,
`Post BB`, `Straddle`; `Dealt Cards` when the dealer saw them; then the betting), Flop, Turn
and River with their board cards, and Showdown (`Shows Cards`, `Mucks Cards`). Every `amount`
is the chips that action moved (a raise's amount is what the raiser added, not the total it
raised to), so a reader gets each pot as the sum of the amounts less what came back uncalled
(OHH has no action for that: the top bet of a street above the next highest is returned).
Pots list `player_wins` with the shares; the hand's odd chips (who got them) and the log's
coordinates are in the extension fields `handlog_odd_chips` and `handlog`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from engine.events import (
    BetMade,
    BoardDealt,
    CardsMucked,
    CardsShown,
    ChipsPosted,
    HandKilled,
    HoleCardsDealt,
    PlayerCalled,
    PlayerChecked,
    PlayerFolded,
    RaiseMade,
)
from engine.tournament_state import TournamentState
from replay.export_hands import HandsExport, RecordedHand

SPEC_VERSION = "1.2.2"
_POSTS = {"ante": "Post Ante", "small_blind": "Post SB", "big_blind": "Post BB",
          "straddle": "Straddle"}
_POST_ORDER = {"ante": 0, "small_blind": 1, "big_blind": 2, "straddle": 3}
_ROUNDS = ("Preflop", "Flop", "Turn", "River")


def _utc(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S") if moment else ""


def tournament_info(state: TournamentState | None, created: datetime | None,
                    tables: int) -> dict[str, Any]:
    """OHH's `tournament_info` from the tournament's events."""
    if state is None:
        return {}
    structure = state.structure
    money = structure.money
    minutes = structure.levels[0].minutes if structure.levels else 0
    pool = money.prize_pool_per_entry or money.buy_in
    return {
        "name": structure.name,
        "start_date_utc": _utc(created),
        "type": "MTT" if tables > 1 else "STT",
        "buyin_amount": pool / 100,
        "currency": money.currency,
        "fee_amount": max(money.buy_in - pool, 0) / 100,
        "bounty_fee_amount": money.bounty / 100,
        "tournament_number": state.tournament,
        "flags": "",
        "initial_stack": structure.starting_stack,
        "speed": {"type": "Normal", "round_time": minutes},
    }


def ohh_hand(hand: RecordedHand, tournament: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One complete hand as an OHH object (without the outer `{"ohh": ...}`)."""
    started = hand.started
    by_seat = sorted(range(hand.size), key=lambda i: started.seats[i])
    ids = {position: k for k, position in enumerate(by_seat)}
    players = [{"name": hand.names[i], "id": ids[i], "player_bounty": 0,
                "starting_stack": started.stacks[i], "seat": started.seats[i]}
               for i in by_seat]
    rounds: list[dict[str, Any]] = [{"id": 0, "street": "Preflop", "actions": []}]
    showdown: list[dict[str, Any]] = []

    def add(round_actions: list[dict[str, Any]], player: int, action: str, amount: int = 0,
            all_in: bool = False, cards: Iterable[str] | None = None) -> None:
        entry: dict[str, Any] = {"action_number": len(round_actions) + 1,
                                 "player_id": ids[player]}
        if cards is not None:
            entry["cards"] = list(cards)
        entry.update({"action": action, "amount": amount, "is_allin": all_in})
        round_actions.append(entry)

    preflop = rounds[0]["actions"]
    posts = [s for s in hand.steps if isinstance(s.event, ChipsPosted)]
    for step in sorted(posts, key=lambda s: _POST_ORDER.get(s.event.kind, 4)):
        event = step.event
        add(preflop, event.player, _POSTS.get(event.kind, "Post Dead"), event.amount,
            event.all_in)
    for step in hand.steps:
        if isinstance(step.event, HoleCardsDealt) and step.event.cards:
            add(preflop, step.event.player, "Dealt Cards", cards=step.event.cards)
    for step in hand.steps:
        event = step.event
        current = rounds[-1]["actions"]
        if isinstance(event, PlayerFolded) or (isinstance(event, HandKilled)
                                               and step.in_betting):
            add(current, event.player, "Fold")
        elif isinstance(event, PlayerChecked):
            add(current, event.player, "Check")
        elif isinstance(event, PlayerCalled):
            add(current, event.player, "Call", event.amount, event.all_in)
        elif isinstance(event, BetMade):
            add(current, event.player, "Bet", step.added, event.all_in)
        elif isinstance(event, RaiseMade):
            add(current, event.player, "Raise", step.added, event.all_in)
        elif isinstance(event, BoardDealt):
            street = len(rounds)
            rounds.append({"id": street, "cards": list(event.cards),
                           "street": _ROUNDS[min(street, 3)], "actions": []})
        elif isinstance(event, CardsShown):
            add(showdown, event.player, "Shows Cards", cards=event.cards)
        elif isinstance(event, (CardsMucked, HandKilled)):
            add(showdown, event.player, "Mucks Cards")
    if showdown:
        rounds.append({"id": len(rounds), "street": "Showdown", "actions": showdown})
    pots = [{
        "number": award.pot,
        "amount": award.amount,
        "rake": 0,
        "player_wins": [{"player_id": ids[w], "win_amount": share, "contributed_rake": 0}
                        for w, share in zip(award.winners, award.shares, strict=True)],
    } for award in hand.awards]
    body: dict[str, Any] = {
        "spec_version": SPEC_VERSION,
        "internal_version": SPEC_VERSION,
        "network_name": "handlog",
        "site_name": "handlog (live)",
        "game_type": "Holdem",
        "table_name": f"{hand.tournament} {hand.table}".strip(),
        "table_size": hand.seat_count or hand.size,
        "game_number": str(hand.position),
        "start_date_utc": _utc(hand.recorded_at),
        "currency": "",
        "ante_amount": hand.ante,
        "small_blind_amount": hand.small_blind,
        "big_blind_amount": hand.big_blind,
        "bet_limit": {"bet_cap": 0, "bet_type": "NL"},
        "tournament": bool(hand.tournament),
    }
    if tournament:
        body["tournament_info"] = dict(tournament)
    body.update({
        "dealer_seat": started.button_seat,
        "players": players,
        "rounds": rounds,
        "pots": pots,
        "handlog": {"stream": hand.stream, "hand": hand.number,
                    "versions": [hand.first_version, hand.last_version],
                    "level": started.level, "rules": started.profile,
                    "chip_unit": started.chip_unit, "notes": hand.notes()},
        "handlog_odd_chips": [{"pot": a.pot, "player_ids": [ids[w] for w in a.odd_chips]}
                              for a in hand.awards if a.odd_chips],
    })
    return body


def export_ohh(hands: Iterable[RecordedHand],
               tournaments: Mapping[str, Mapping[str, Any]] | None = None
               ) -> tuple[str, int, list[str]]:
    """The OHH text (objects separated by a blank line), how many, and a note for every hand
    left out."""
    parts: list[str] = []
    notes: list[str] = []
    for hand in hands:
        if not hand.exportable:
            notes.append(f"{hand.label()} not exported: the hand is {hand.status}"
                         + (f": {hand.problem}" if hand.problem else ""))
            continue
        info = (tournaments or {}).get(hand.tournament)
        parts.append(json.dumps({"ohh": ohh_hand(hand, info)}, indent=2, ensure_ascii=False))
    return "\n\n".join(parts) + ("\n" if parts else ""), len(parts), notes


def write_ohh(export: HandsExport) -> tuple[str, int, list[str]]:
    """The OHH export of the hands `export` holds."""
    infos: dict[str, dict[str, Any]] = {}
    for name, record in export.tournaments.items():
        created = record.stored[0].recorded_at if record.stored else None
        tables = len({t for e in (record.state.entrants if record.state else ())
                      for t in (e.table, e.out_table) if t})
        infos[name] = tournament_info(record.state, created, tables)
    return export_ohh(export.hands(), infos)
