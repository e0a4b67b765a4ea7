"""Recorded hands as Open Hand History (OHH) JSON: one `{"ohh": {...}}` object per hand,
objects separated by a blank line (see data/hand-histories/ohh for the specification's own
examples).

Players get ids 0, 1, ... in seat order. Rounds are Preflop (posts: `Post Ante`, `Post SB`,
`Post BB`, `Straddle`; `Dealt Cards` when the dealer saw them; then the betting), Flop, Turn
and River with their board cards, and Showdown (`Shows Cards`, `Mucks Cards`). Every `amount`
is the chips that action moved (a raise's amount is what the raiser added, not the total it
raised to), so a reader gets each pot as the sum of the amounts less what came back uncalled
(OHH has no action for that: the top bet of a street above the next highest is returned).
Pots list `player_wins` with the shares. Written to specification 1.4.6: `flags` arrays,
`Observed` when the file is the table's view (no hero), `hero_player_id` with `--hero`; bounty
fields (`player_bounty`, `tournament_bounties`, the `Bounty` flag) only in a tournament with
bounties, the bounty counted once (`buyin_amount` is the prize-pool part, `fee_amount` the
house's, `bounty_fee_amount` the bounty, 0 without bounties). What the specification has no field
for is in the one extension object `handlog`: the log's coordinates, the house rules and chip
unit (which `handlog import` reads back), chips carried into the pot that are nobody's
(`dead_money`), the odd chips, which hole cards the file holds (`cards`: shown, hero or all),
the notes, and who finished the tournament in the hand (`places`: player id, place, prize),
which PokerStars text writes as its place lines and `handlog import` reads back, and the hands
ruled dead in the betting (`killed`: player id, cause, reason, rules; their folds) and those of
them killed out of turn (`killed_out_of_turn`), which it records as those rulings. An imported
hand's coordinates (and an imported tournament's number and start) are those its file gave.
tests/fixtures/ohh-1.4.6.schema.json is the schema the tests hold it to.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TextIO

from handlog.engine.events import (
    BetMade,
    BoardDealt,
    CardsMucked,
    CardsShown,
    ChipsPosted,
    HandKilled,
    PlayerCalled,
    PlayerChecked,
    PlayerFolded,
    RaiseMade,
)
from handlog.engine.tournament_events import TournamentCreated
from handlog.engine.tournament_state import TournamentState
from handlog.replay.export_hands import ExportOptions, HandsExport, RecordedHand, played_at
from handlog.replay.export_pokerstars import (
    Elimination,
    bounty_winners,
    busted,
    finished,
    hand_number,
)
from handlog.replay.export_pokerstars import tournament_info as stars_tournament_info

SPEC_VERSION = "1.4.6"
_POSTS = {"ante": "Post Ante", "small_blind": "Post SB", "big_blind": "Post BB",
          "straddle": "Straddle"}
_POST_ORDER = {"ante": 0, "small_blind": 1, "big_blind": 2, "straddle": 3}
_ROUNDS = ("Preflop", "Flop", "Turn", "River")


def _utc(moment: datetime | None) -> str:
    """ISO 8601 in UTC, as the specification asks (`2019-03-28T08:16:05Z`)."""
    if moment is None:
        return ""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def tournament_info(state: TournamentState | None, created: datetime | None,
                    tables: int, number: int = 0) -> dict[str, Any]:
    """OHH's `tournament_info` from the tournament's events."""
    if state is None:
        return {}
    structure = state.structure
    money = structure.money
    minutes = structure.levels[0].minutes if structure.levels else 0
    # The entry is counted once: prize pool + bounty + the house's fee = the buy-in.
    pool = money.prize_pool_per_entry or max(money.buy_in - money.bounty, 0)
    info: dict[str, Any] = {
        "name": structure.name,
        "start_date_utc": _utc(created),
        "type": "MTT" if tables > 1 else "STT",
        "buyin_amount": pool / 100,
        "currency": money.currency,
        "fee_amount": max(money.buy_in - pool - money.bounty, 0) / 100,
        # Always written, 0 without bounties: the specification lists it among
        # tournament_info's fields and its own non-bounty example gives 0.00, and typed
        # readers take it as a plain number.
        "bounty_fee_amount": money.bounty / 100,
    }
    info.update({
        # The PokerStars export's number (from the tournament's first event id): unique.
        "tournament_number": str(number) if number else state.tournament,
        "flags": ["Bounty"] if money.bounty else [],
        "initial_stack": structure.starting_stack,
        # The specification's own example gives a 10-minute level as 10.
        "speed": {"type": "Normal", "round_time": minutes},
    })
    return info


@dataclass(frozen=True)
class OhhTournament:
    """What an OHH hand says of its tournament: `tournament_info`, and with bounties the
    bounty (cents) and who eliminated whom in which hand."""

    info: Mapping[str, Any]
    bounty: int = 0
    eliminations: Mapping[tuple[str, int], list[Elimination]] = field(default_factory=dict)
    winner: str = ""
    prizes: Mapping[str, int] = field(default_factory=dict)  # cents by player


def ohh_hand(hand: RecordedHand, tournament: OhhTournament | Mapping[str, Any] | None = None,
             options: ExportOptions | None = None) -> dict[str, Any]:
    """One complete hand as an OHH object (without the outer `{"ohh": ...}`)."""
    options = options or ExportOptions()
    if tournament is not None and not isinstance(tournament, OhhTournament):
        tournament = OhhTournament(tournament)
    bounty = tournament.bounty if tournament else 0
    started = hand.started
    by_seat = sorted(range(hand.size), key=lambda i: started.seats[i])
    ids = {position: k for k, position in enumerate(by_seat)}
    players: list[dict[str, Any]] = []
    for i in by_seat:
        player: dict[str, Any] = {"name": hand.names[i], "id": ids[i]}
        if bounty:
            player["player_bounty"] = bounty / 100
        player.update({"starting_stack": started.stacks[i], "seat": started.seats[i]})
        if i in started.absent:
            player["is_sitting_out"] = True
        players.append(player)
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
    hero = hand.hero_position(options.hero)
    seen = hand.seen_hole_cards(options)
    for i in by_seat:
        if seen[i] and (options.all_cards or i == hero):
            add(preflop, i, "Dealt Cards", cards=seen[i])
    for step in hand.steps_in_turn():
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
            rounds.append({"id": street, "street": _ROUNDS[min(street, 3)],
                           "cards": list(event.cards), "actions": []})
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
        "site_name": "handlog (live)",
        "network_name": "handlog",
        "internal_version": SPEC_VERSION,
        "tournament": bool(hand.tournament),
    }
    if tournament:
        body["tournament_info"] = dict(tournament.info)
    body.update({
        "game_number": str(hand_number(hand)),
        "start_date_utc": _utc(hand.recorded_at),
        "table_name": f"{hand.tournament} {hand.table}".strip(),
        "game_type": "Holdem",
        "bet_limit": {"bet_type": "NL", "bet_cap": 0},
        "table_size": hand.seat_count or hand.size,
        "currency": "",
        "dealer_seat": started.button_seat,
        "small_blind_amount": hand.small_blind,
        "big_blind_amount": hand.big_blind,
        "ante_amount": hand.ante,
    })
    if hero is not None:
        body["hero_player_id"] = ids[hero]
        body["flags"] = []
    else:
        body["flags"] = ["Observed"]  # the table's view: no player was followed
    body.update({"players": players, "rounds": rounds, "pots": pots})
    if tournament and bounty:
        bounties = [{"player_id": ids[winner], "bounty_won": cents / 100,
                     "defeated_player_id": ids[hand.players.index(e.player)]}
                    for e in busted(hand, tournament.eliminations)
                    for winner, cents in bounty_winners(hand, e, bounty)]
        if bounties:
            body["tournament_bounties"] = bounties
    stream, first, last = hand.coordinates()
    body["handlog"] = {
        "stream": stream, "tournament": hand.tournament, "hand": hand.number,
        "versions": [first, last],
        "level": started.level, "rules": started.profile, "chip_unit": started.chip_unit,
        "dead_money": started.dead_money, "cards": options.cards,
        "odd_chips": [{"pot": a.pot, "player_ids": [ids[w] for w in a.odd_chips]}
                      for a in hand.awards if a.odd_chips],
        "notes": hand.notes(),
    }
    places = [{"player_id": ids[hand.players.index(player)], "place": place,
               "prize": prize / 100}
              for player, place, prize in finished(hand, tournament.eliminations,
                                                   tournament.winner, tournament.prizes)
              ] if tournament else []
    if places:
        body["handlog"]["places"] = places
    rulings = [{"player_id": ids[s.event.player], "cause": s.event.cause,
                "reason": s.event.reason, "rules": list(s.event.rules)}
               for s in hand.steps if isinstance(s.event, HandKilled) and s.in_betting
               and s.event.player not in started.absent]  # (TDA 30: `is_sitting_out`)
    if rulings:
        body["handlog"]["killed"] = rulings  # their folds are hands ruled dead
    moved = hand.out_of_turn_kills()
    killed = sorted({ids[s.event.player] for s in hand.steps if s.version in moved})
    if killed:
        # Their folds are written where the action reached them; the live table skipped them.
        body["handlog"]["killed_out_of_turn"] = killed
    return body


def export_ohh(hands: Iterable[RecordedHand],
               tournaments: Mapping[str, OhhTournament | Mapping[str, Any]] | None = None,
               options: ExportOptions | None = None, out: TextIO | None = None
               ) -> tuple[str, int, list[str]]:
    """The OHH text (objects separated by a blank line), how many, and a note for every hand
    left out. With `out`, each object is written there as it is made (and "" returned)."""
    parts: list[str] = []
    notes: list[str] = []
    count = 0
    for hand in hands:
        if not hand.exportable:
            notes.append(f"{hand.label()} not exported: the hand is {hand.status}"
                         + (f": {hand.problem}" if hand.problem else ""))
            continue
        info = (tournaments or {}).get(hand.tournament)
        text = json.dumps({"ohh": ohh_hand(hand, info, options)}, indent=2, ensure_ascii=False)
        if out is not None:
            out.write(("\n\n" if count else "") + text)
        else:
            parts.append(text)
        count += 1
    if out is not None:
        out.write("\n" if count else "")
        return "", count, notes
    return "\n\n".join(parts) + ("\n" if parts else ""), len(parts), notes


def write_ohh(export: HandsExport, options: ExportOptions | None = None,
              out: TextIO | None = None) -> tuple[str, int, list[str]]:
    """The OHH export of the hands `export` holds."""
    infos: dict[str, OhhTournament] = {}
    for name, record in export.tournaments.items():
        created = record.stored[0].recorded_at if record.stored else None
        tables = len({t for e in (record.state.entrants if record.state else ())
                      for t in (e.table, e.out_table) if t})
        first = str(record.stored[0].event_id) if record.stored else name
        stars = stars_tournament_info(record.state, first)
        number = stars.number
        opening = record.stored[0].decode() if record.stored else None
        if isinstance(opening, TournamentCreated):  # (a rebuilt one: what its files said)
            number = int(opening.number) if opening.number.isdigit() else number
            created = played_at(opening.started_at) or created
        infos[name] = OhhTournament(tournament_info(record.state, created, tables, number),
                                    stars.bounty, stars.places, stars.winner, stars.prizes)
    return export_ohh(export.each_hand(), infos, options, out)
