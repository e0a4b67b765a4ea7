"""Open Hand History (OHH) JSON read into PHH hands, for a strict replay through the engine.

A file holds one `{"ohh": {...}}` object or many (one per line, separated by blank lines, or
in a JSON array). Players are put in PHH's positions (first seat left of `dealer_seat` first);
each round's actions become PHH actions: an OHH `amount` is the chips that action moved, so a
bet or raise is written as the street total it reaches. The recorded result is each player's
stack after the hand: starting stack, less what he put in, plus what came back uncalled (the
top bet of a street above the next highest: OHH has no action for it) and what he won (with
the rake he contributed given back: the engine takes none). handlog's own extension object
`handlog` gives the house rules, the chip unit and chips carried into the pot. Of a tournament
(`tournament_info`), the buy-in, the bounty, the levels' minutes and who finished in the hand
(handlog's `places`, with who took each bounty from `tournament_bounties`) are the facts the
imported tournament's stream is rebuilt from, as of a PokerStars file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from handlog.replay.import_pokerstars import Number, Unsupported, cents, written
from handlog.replay.phh import (
    MAX_AMOUNT,
    Finish,
    PhhEntry,
    PhhProblem,
    TournamentFacts,
    hand_from_mapping,
)
from handlog.schema.text_limits import TextRefused, check_text

_POSTS = {"Post Ante", "Post SB", "Post BB", "Straddle", "Post Dead", "Post Extra Blind"}
_IGNORED = {"Sits Down", "Stands Up", "Added Chips"}


def looks_like_ohh(text: str) -> bool:
    head = text.lstrip()[:200]
    return head[:1] in ("{", "[") and '"ohh"' in text[:2000]


def objects(text: str) -> Iterator[Any]:
    """Each JSON value of the text, in order (objects back to back, a line each, or an array
    of them); numbers with a fraction as exact Decimals. Raises json.JSONDecodeError at the
    first stretch that is not JSON."""
    for _line, value in located_objects(text):
        if isinstance(value, json.JSONDecodeError):
            raise value
        yield value


# A top-level value starts at a line's first column (handlog's export and the spec's samples).
_NEXT_OBJECT = re.compile(r"^[{\[]", re.MULTILINE)


def located_objects(text: str) -> Iterator[tuple[int, Any]]:
    """Each JSON value of the text with the line it starts on (an array's items: the array's
    line). A stretch that is not JSON is given as its json.JSONDecodeError, and reading goes
    on at the next line that opens an object or an array in its first column."""
    try:
        check_text(text, "json", "the file")  # (before the parser, which recurses per level)
    except TextRefused as refused:
        yield 1, json.JSONDecodeError(str(refused), text, 0)
        return
    decoder = json.JSONDecoder(parse_float=Decimal)
    position, end = 0, len(text)
    line, counted = 1, 0
    while True:
        while position < end and text[position].isspace():
            position += 1
        if position >= end:
            return
        line += text.count("\n", counted, position)
        counted = position
        try:
            value, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            yield line, error
            # The broken value may have run into the next one: resume at the next line that
            # opens a value after the broken value's own first line.
            resume = _NEXT_OBJECT.search(text, position + 1)
            position = resume.start() if resume else end
            continue
        if isinstance(value, list):
            for item in value:
                yield line, item
        else:
            yield line, value


def _number(value: object, what: str) -> Number:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise ValueError(f"{what}: expected a number, got {value!r}")
    number: Number = value
    if (isinstance(number, Decimal) and not number.is_finite()) or not (
            -MAX_AMOUNT <= number <= MAX_AMOUNT):
        raise ValueError(f"{what}: expected a finite number of at most {MAX_AMOUNT:,}, got "
                         f"{number:.3g}")
    return number


def _has_fractions(values: list[Number]) -> bool:
    return any(isinstance(v, Decimal) and v != v.to_integral_value() for v in values)


def phh_mapping(hand: Mapping[str, Any]) -> dict[str, object]:
    """One OHH hand object as PHH fields."""
    if hand.get("game_type") != "Holdem":
        raise Unsupported(f"game_type {hand.get('game_type')!r} is not Hold'em")
    limit = hand.get("bet_limit") or {}
    if limit.get("bet_type", "NL") != "NL":
        raise Unsupported(f"bet_type {limit.get('bet_type')!r} is not no-limit")
    flags = hand.get("flags") or []
    if isinstance(flags, list) and "Run_It_Twice" in flags:
        raise Unsupported("the board is run twice")
    dealer = int(hand.get("dealer_seat", 0))
    players = sorted(hand.get("players") or [], key=lambda p: (int(p["seat"]) <= dealer,
                                                              int(p["seat"])))
    if len(players) < 2:
        raise ValueError("players: fewer than two players")
    position = {p["id"]: i for i, p in enumerate(players)}
    count = len(players)
    small = _number(hand.get("small_blind_amount", 0), "small_blind_amount")
    big = _number(hand.get("big_blind_amount", 0), "big_blind_amount")
    antes: list[Number] = [0] * count
    blinds: list[Number] = [0] * count
    stacks = [_number(p["starting_stack"], "players.starting_stack") for p in players]
    moved: list[Number] = [0] * count
    won: list[Number] = [0] * count
    cards = ["????"] * count
    dead: Number = 0
    folded: set[int] = set()
    actions: list[str] = []
    for round_ in hand.get("rounds") or []:
        street: list[Number] = [0] * count
        if round_.get("street") in ("Flop", "Turn", "River") and round_.get("cards"):
            actions.append("d db " + "".join(round_["cards"]))
        for action in round_.get("actions") or []:
            kind = action.get("action")
            if kind in _IGNORED:
                continue
            who = position.get(action.get("player_id"))
            if who is None:
                raise ValueError(f"action {action.get('action_number')}: player_id "
                                 f"{action.get('player_id')!r} is not among the players")
            chips = _number(action.get("amount", 0), "actions.amount")
            if kind == "Dealt Cards":
                if action.get("cards"):
                    cards[who] = "".join(action["cards"])
                continue
            if kind in _POSTS:
                moved[who] += chips
                if kind == "Post Ante":
                    antes[who] = chips
                elif kind in ("Post SB", "Post BB"):
                    blinds[who] = small if kind == "Post SB" else big
                    street[who] += chips
                elif kind == "Post Dead":
                    dead += chips
                else:
                    raise Unsupported(f"{kind!r} is posted")
                continue
            p = f"p{who + 1}"
            if kind == "Fold":
                folded.add(who)
                actions.append(f"{p} f")
            elif kind in ("Check", "Call"):
                moved[who] += chips
                street[who] += chips
                actions.append(f"{p} cc")
            elif kind in ("Bet", "Raise"):
                moved[who] += chips
                street[who] += chips
                actions.append(f"{p} cbr {written(street[who])}")
            elif kind == "Shows Cards":
                shown = "".join(action.get("cards") or [])
                actions.append(f"{p} sm {shown}" if shown else f"{p} sm -")
            elif kind == "Mucks Cards":
                if count - len(folded) > 1:  # the last live hand wins unseen: no muck
                    folded.add(who)
                    actions.append(f"{p} sm")
            else:
                raise Unsupported(f"action {kind!r}")
        ranked = sorted(range(count), key=lambda k: street[k], reverse=True)
        if street[ranked[0]] > street[ranked[1]]:
            moved[ranked[0]] -= street[ranked[0]] - street[ranked[1]]  # returned uncalled
    for pot in hand.get("pots") or []:
        wins = pot.get("player_wins") or []
        for win in wins:
            who = position[win["player_id"]]
            won[who] += _number(win.get("win_amount", 0), "pots.player_wins.win_amount")
            won[who] += _number(win.get("contributed_rake", 0), "player_wins.contributed_rake")
        rake = _number(pot.get("rake", 0), "pots.rake")
        if rake and not any("contributed_rake" in w for w in wins):
            if len(wins) != 1:
                raise Unsupported("rake taken from a split pot without contributed_rake")
            won[position[wins[0]["player_id"]]] += rake
    # As the PokerStars reader does (import_pokerstars.phh_mapping): a short all-in ante owed
    # the full ante, and so did a player whose blind took all his chips when every player
    # owed one (more than one paid it, or heads-up the lone ante is not the big blind's or a
    # side pot shows it was not dead money).
    top = max(antes)
    payers = [k for k in range(count) if antes[k]]
    uniform = len(payers) > 1 or (len(payers) == 1 and count == 2 and (
        blinds[payers[0]] != big or len(hand.get("pots") or []) > 1))
    antes = [top if a or (uniform and blinds[k] and moved[k] == stacks[k]) else 0
             for k, a in enumerate(antes)]
    if count == 2:
        antes.reverse()
        blinds.reverse()
    fields: dict[str, object] = {
        "variant": "NT",
        "antes": antes,
        "blinds_or_straddles": blinds,
        "min_bet": big,
        "starting_stacks": stacks,
        "actions": [f"d dh p{i + 1} {c}" for i, c in enumerate(cards)] + actions,
        "players": [str(p.get("name", "")) for p in players],
        "seats": [int(p["seat"]) for p in players],
        "table": str(hand.get("table_name") or ""),
        "finishing_stacks": [s - m + w for s, m, w in zip(stacks, moved, won, strict=True)],
    }
    fields.update(_clock(hand.get("start_date_utc")))
    size = hand.get("table_size")
    if type(size) is int and size >= max(int(p["seat"]) for p in players):
        fields["seat_count"] = size
    if _has_fractions([*stacks, small, big]):
        fields["_chip_unit"] = Decimal("0.01")  # a cash game: the cent is the smallest chip
    extension = hand.get("handlog")
    if isinstance(extension, Mapping):
        if extension.get("rules"):
            fields["_rules"] = extension["rules"]
        if extension.get("chip_unit"):
            fields["_chip_unit"] = extension["chip_unit"]
        if type(extension.get("level")) is int and extension["level"] > 0:
            fields["level"] = extension["level"]
        tournament = extension.get("tournament")
        if isinstance(tournament, str) and tournament:
            # handlog's own export: `table_name` is "<tournament> <table>"; the imported table
            # keeps the two apart, as the log it came from did.
            fields["event"] = tournament
            table = str(fields["table"])
            fields["table"] = table.removeprefix(tournament + " ") or table
        dead += extension.get("dead_money", 0) or 0
        fields.update(_coordinates_and_rulings(extension, position, fields["actions"]))
    info = hand.get("tournament_info")
    if "event" not in fields and isinstance(info, Mapping) and info.get("tournament_number"):
        fields["event"] = str(info["tournament_number"])
    if dead:
        fields["_dead_money"] = dead
    return fields


def _coordinates_and_rulings(extension: Mapping[str, Any], position: Mapping[Any, int],
                             actions: Any) -> dict[str, object]:
    """PHH's user fields of what handlog's extension says beyond the hand: the recording
    log's coordinates (`stream`, `versions`, the notes' versions), the hands ruled dead in
    the betting (`killed`: their folds) and those of them killed out of turn."""
    fields: dict[str, object] = {}
    for key in ("stream", "versions", "notes"):
        if key in extension:
            fields[f"_{key}"] = extension[key]

    def fold(player_id: object, what: str) -> int:
        who = position.get(player_id)
        text = f"p{(who or 0) + 1} f"
        if who is None or text not in actions:
            raise ValueError(f"handlog.{what}: player_id {player_id!r:.20} has no fold")
        return int(actions.index(text))

    killed = extension.get("killed") or []
    if not isinstance(killed, list) or not all(isinstance(k, Mapping) for k in killed):
        raise ValueError(f"handlog.killed: expected an array of objects, got {killed!r:.40}")
    if killed:
        fields["_killed"] = [[fold(k.get("player_id"), "killed"), k.get("cause"),
                              k.get("reason"), k.get("rules")] for k in killed]
    moved = extension.get("killed_out_of_turn") or []
    if not isinstance(moved, list):
        raise ValueError(f"handlog.killed_out_of_turn: expected an array of player ids, got "
                         f"{moved!r:.40}")
    if moved:
        fields["_out_of_turn"] = sorted(fold(k, "killed_out_of_turn") for k in moved)
    return fields


def tournament_facts(hand: Mapping[str, Any]) -> TournamentFacts | None:
    """What an OHH hand says of its tournament (None: no `tournament_info`): the buy-in, the
    tournament's name and levels' minutes, and who finished in the hand (handlog's `places`),
    each eliminated player's bounty to the one player `tournament_bounties` gives it to."""
    info = hand.get("tournament_info")
    if not hand.get("tournament") or not isinstance(info, Mapping):
        return None
    names = {p.get("id"): str(p.get("name", "")) for p in hand.get("players") or []}
    takers: dict[object, list[str]] = {}
    for won in hand.get("tournament_bounties") or []:
        if not isinstance(won, Mapping):
            raise ValueError(f"tournament_bounties: expected an object, got {won!r:.40}")
        takers.setdefault(won.get("defeated_player_id"), []).append(
            names.get(won.get("player_id"), ""))
    extension = hand.get("handlog")
    places = extension.get("places") or [] if isinstance(extension, Mapping) else []
    finishes = []
    for place in places:
        if place.get("player_id") not in names:
            raise ValueError(f"handlog.places: player_id {place.get('player_id')!r:.20} is "
                             "not among the players")
        took = takers.get(place["player_id"], [])
        finishes.append(Finish(names[place["player_id"]], int(place["place"]),
                               cents(_number(place.get("prize", 0), "handlog.places.prize")),
                               took[0] if len(took) == 1 else ""))
    speed = info.get("speed")
    minutes = speed.get("round_time") if isinstance(speed, Mapping) else 0
    small = hand.get("small_blind_amount")
    pool, bounty, fee = (cents(_number(info.get(k, 0), f"tournament_info.{k}"))
                         for k in ("buyin_amount", "bounty_fee_amount", "fee_amount"))
    return TournamentFacts(
        str(info.get("currency") or "USD"), pool, bounty, fee, tuple(finishes),
        small if type(small) is int else 0, str(info.get("name") or ""),
        minutes if type(minutes) is int else 0, str(info.get("tournament_number") or ""),
        str(info.get("start_date_utc") or ""))


def _clock(value: object) -> dict[str, object]:
    """PHH's `year`..`time_zone` fields of OHH's `start_date_utc` (none when it is not a time)."""
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return {}
    if moment.tzinfo is None:
        return {}
    moment = moment.astimezone(UTC)
    return {"year": moment.year, "month": moment.month, "day": moment.day,
            "time": moment.time().replace(tzinfo=None), "time_zone": "UTC"}


def read_ohh(text: str, source: str) -> Iterator[PhhEntry]:
    """Every hand of an OHH file's text, as a PHH hand or the problem that stops it (each
    with the line its object starts on); a stretch that is not JSON is one error with its
    line, and the objects after it are read."""
    for index, (line, value) in enumerate(located_objects(text), start=1):
        if isinstance(value, json.JSONDecodeError):
            yield PhhProblem(source, None, "error", None,
                             f"{source}:{line}: invalid JSON in the value starting here: "
                             f"{value.msg} at line {value.lineno} column {value.colno}",
                             line)
            continue
        body = value.get("ohh") if isinstance(value, Mapping) else None
        label: int | str = index
        where = f"{source}:{line}"
        if not isinstance(body, Mapping):
            yield PhhProblem(source, label, "error", None,
                             f"{where} [{label}]: not an OHH object ({{\"ohh\": {{...}}}})",
                             line)
            continue
        label = str(body.get("game_number") or index)
        try:
            mapping = phh_mapping(body)
            facts = tournament_facts(body)
        except Unsupported as why:
            yield PhhProblem(source, label, "unsupported", None, f"{where} [{label}]: {why}",
                             line)
            continue
        except (ValueError, KeyError, TypeError, IndexError, ArithmeticError) as why:
            yield PhhProblem(source, label, "error", None, f"{where} [{label}]: {why}", line)
            continue
        entry = hand_from_mapping(mapping, source, label, line)
        yield entry if facts is None or isinstance(entry, PhhProblem) else replace(
            entry, tournament=facts)
