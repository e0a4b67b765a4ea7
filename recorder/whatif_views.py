"""What-if as a person reads it: the change asked for, then recorded and what-if side by side
(stacks, eliminations, places and prizes), and where the what-if had to stop. Shared by
`handlog whatif` and the replayer page (POST /api/tables/{stream}/whatif)."""

from __future__ import annotations

from typing import Any

from handlog.engine.errors import RuleViolation
from handlog.engine.table_events import TableOpened
from handlog.engine.words import action_text
from handlog.recorder.hand_views import registered_names
from handlog.recorder.tournament_service import tournament_stream
from handlog.replay.hands import table_hands
from handlog.replay.whatif import Change, Place, WhatIf, tournament_outcome, what_if
from handlog.schema.store import EventStore


def _positions(hand_players: tuple[str, ...], names: dict[str, str],
               wanted: list[str]) -> tuple[int, ...]:
    found = []
    for who in wanted:
        key = who.strip().casefold()
        matches = [p for p, player in enumerate(hand_players)
                   if key in (player.casefold(), names.get(player, "").casefold())]
        if not matches:
            known = ", ".join(names.get(p, p) for p in hand_players)
            raise RuleViolation("whatif", f"{who!r} did not play this hand", (known,))
        found.append(matches[0])
    return tuple(found)


def make_change(store: EventStore, stream: str, at: int, *, award: list[list[str]] | None,
                amount: int | None, drop: bool) -> tuple[Change, dict[str, str]]:
    """The engine's Change from what a director typed (names of winners per pot)."""
    stored = store.read(stream)
    names = _names(store, stored)
    chosen = [x for x in (award, amount, drop) if x]
    if len(chosen) != 1:
        raise RuleViolation("whatif", "say one other ruling: award the pots otherwise, "
                            "another amount, or drop the entry",
                            ("--award NAMES (per pot)", "--amount N", "--drop"))
    if drop:
        return Change("drop", at), names
    if amount is not None:
        return Change("amount", at, amount=amount), names
    assert award is not None
    hand = next((h for h in table_hands(stream, stored)
                 if h.first_version <= at <= h.last_version), None)
    if hand is None:
        raise RuleViolation("whatif", f"version {at} is in no hand of {stream}")
    winners = tuple(_positions(hand.players, names, pot) for pot in award)
    return Change("award", at, winners=winners), names


def _names(store: EventStore, stored: list[Any]) -> dict[str, str]:
    for item in stored[:1]:
        event = item.decode()
        if isinstance(event, TableOpened) and event.tournament:
            return registered_names(store.read(tournament_stream(event.tournament)))
    return {}


def whatif_view(store: EventStore, stream: str, change: Change,
                names: dict[str, str]) -> dict[str, Any]:
    """The what-if of `change` at `stream`, recorded beside it; nothing is written."""
    stored = store.read(stream)
    result = what_if(stream, stored, change)
    tournament_places: list[dict[str, Any]] = []
    first = stored[0].decode() if stored else None
    if isinstance(first, TableOpened) and first.tournament:
        tournament = store.read(tournament_stream(first.tournament))
        for place in tournament_outcome(tournament, result):
            tournament_places.append({
                "player": names.get(place.player, place.player),
                "recorded_place": place.recorded_place, "recorded_prize": place.recorded_prize,
                "whatif_place": place.whatif_place, "whatif_prize": place.whatif_prize,
                "whatif_stack": place.whatif_stack, "at_this_table": place.at_this_table,
                "whatif_text": _place_text(place),
            })
    players = sorted(set(result.recorded_stacks) | set(result.whatif_stacks)
                     | set(result.recorded_out) | set(result.whatif_out))
    return {
        "stream": stream,
        "change": {"kind": change.kind, "version": change.version,
                   "winners": [list(w) for w in change.winners], "amount": change.amount},
        "complete": result.complete,
        "all_fit": result.all_fit,
        "stopped_at": result.stopped_at, "stop_rule": result.stop_rule,
        "stop_message": result.stop_message,
        "unfit": _unfit_view(result, names),
        "verdict": _verdict(result),
        "players": [{
            "player": names.get(p, p),
            "recorded_stack": result.recorded_stacks.get(p, 0),
            "whatif_stack": result.whatif_stacks.get(p, 0),
            "recorded_out_in_hand": result.recorded_out.get(p),
            "whatif_out_in_hand": result.whatif_out.get(p),
        } for p in players],
        "hands": [{"hand": h.number,
                   "recorded": dict(zip((names.get(p, p) for p in h.players),
                                        h.recorded_end, strict=True)) if h.recorded_end
                   else None,
                   "whatif": dict(zip((names.get(p, p) for p in h.players), h.whatif_end,
                                      strict=True)) if h.whatif_end else None}
                  for h in result.hands if h.recorded_end != h.whatif_end],
        "places": tournament_places,
        "written": False,
    }


def _place_text(place: Place) -> str:
    """The what-if's place in words: the place and prize, or why there is none yet."""
    if place.whatif_place:
        return f"{place.whatif_place} ({place.whatif_prize / 100:,.2f})"
    if not place.at_this_table:
        return "playing at another table (as recorded)"
    if place.whatif_stack is None:
        return "left this table (as recorded)"
    return f"open, {place.whatif_stack:,} chips"


def _unfit_view(result: WhatIf, names: dict[str, str]) -> list[dict[str, Any]]:
    def who(players: tuple[str, ...]) -> Any:
        return lambda position: names.get(players[position], players[position])

    return [{"version": u.version, "hand": u.hand_number,
             "recorded": action_text(u.recorded, who(u.players), True),
             "whatif": action_text(u.whatif, who(u.players), True)} for u in result.unfit]


def _verdict(result: WhatIf) -> str:
    """Whether the what-if could follow every later entry, in words."""
    if result.all_fit:
        return "every later entry still fits: followed to the end of the table's log"
    unfit = (f"{len(result.unfit)} later entr{'y' if len(result.unfit) == 1 else 'ies'} "
             "decided otherwise than recorded (listed below)")
    if result.complete:
        return f"followed to the end of the table's log, but {unfit}: from there the players " \
               "would have faced other bets"
    text = (f"followed up to #{result.stopped_at}, where the recorded entry no longer fits: "
            f"{result.stop_message} [{result.stop_rule}]; from there the players would have "
            "played differently")
    return f"{text}; before it, {unfit}" if result.unfit else text


def whatif_lines(view: dict[str, Any]) -> list[str]:
    change = view["change"]
    lines = [f"what if at {view['stream']} #{change['version']}: {change['kind']}"
             + (f" {change['amount']:,}" if change["kind"] == "amount" else "")
             + " (nothing is written to the log)", view["verdict"]]
    for u in view["unfit"]:
        lines.append(f"  #{u['version']} (hand {u['hand']}): recorded {u['recorded']}; "
                     f"in the what-if {u['whatif']}")
    lines.append(f"{'player':<16} {'recorded':>12} {'what-if':>12}   out (recorded / what-if)")
    for p in view["players"]:
        out = f"{p['recorded_out_in_hand'] or '-'} / {p['whatif_out_in_hand'] or '-'}"
        lines.append(f"{p['player']:<16} {p['recorded_stack']:>12,} {p['whatif_stack']:>12,}"
                     f"   hand {out}")
    if view["places"]:
        lines.append(f"{'place':<16} {'recorded':>12} {'what-if':>12}")
        for p in view["places"]:
            then = f"{p['recorded_place'] or '-'} ({p['recorded_prize'] / 100:,.2f})"
            lines.append(f"{p['player']:<16} {then:>12} {p['whatif_text']:>12}")
    return lines
