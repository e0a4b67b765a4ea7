"""Recorded hands as PokerStars-style tournament hand histories (what trackers import).

The layout follows PokerStars' own files (see data/hand-histories/pokerstars): a header with
the hand and tournament numbers, the buy-in (`$X+$R`, or `$X+$B+$R` with a bounty) and the
level, the time in PokerStars' own form for a client outside ET (`2026/12/07 5:07:57 UTC
[2026/12/07 0:07:57 ET]`: the local time, here UTC since a log knows no room time zone, then
Eastern time in brackets; readers such as the `poker` package take no other), the table line
`Table '<tournament number> <table number>' 9-max Seat #B is the button`, one line per seat
with its stack (no bounty: a handlog bounty is fixed, and PokerStars' client writes a
knockout's seat bounty, `(N in chips, $B bounty)`, only in a progressive knockout), the posts
(antes first, then the blinds), `*** HOLE CARDS ***`,
the actions (`raises X to Y` with Y the street total, `calls X` with the chips added),
`Uncalled bet (X) returned to NAME`, the board lines, `*** SHOW DOWN ***` with the shows, one
`collected X from ...` line per share (`pot`, or `main pot` and `side pot` / `side pot-1`,
`side pot-2`...), `wins the $B bounty for eliminating NAME`, places for players eliminated in
the hand, and the `*** SUMMARY ***` with the total pot and the board.

Numbers trackers key hands by are numeric and unique across events and logs: the tournament
number is derived from the id (a client-made UUID) of the tournament's first event, the hand
number from the id of the hand's hand_started event (a hash of each, so the same log always
gives the same numbers). A table outside any tournament gets PokerStars' play-chip ring-game
header instead.

Whose view: by default the observer's (what the table saw: no `Dealt to` line, other hands
only when shown), which trackers take as an observed table; `hero` writes one player's view
(`Dealt to HERO [..]` when his cards were recorded); `all_cards` (the director's or an
auditor's copy) writes every recorded hand as a `Dealt to` line and says so in a first line.
Names are made safe for the grammar (engine/names.py): no colon, bracket, parenthesis or
control character survives into a line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import TextIO

from handlog.engine.cards import parse_card
from handlog.engine.evaluator import describe, evaluate
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
from handlog.engine.names import name_problem, safe_name
from handlog.engine.tournament_state import TournamentState
from handlog.replay.export_hands import ExportOptions, HandsExport, RecordedHand

_STREET_TITLES = ("Flop", "Turn", "River")
_CURRENCY_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£"}
ALL_CARDS_NOTICE = ("handlog export: every recorded hole card (the director's or an auditor's "
                    "copy), not only the cards shown at the table")


def _eastern() -> tzinfo:
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo("America/New_York")
    except (ImportError, KeyError, OSError, ValueError):  # no time-zone database here
        return timezone(timedelta(hours=-5), "ET")


_ET = _eastern()


def _clock(moment: datetime, zone: str) -> str:
    # PokerStars writes the hour without a leading zero: `2026/12/07 0:07:57`.
    return f"{moment:%Y/%m/%d} {moment.hour}:{moment:%M:%S} {zone}"


def eastern_time(moment: datetime) -> str:
    """Eastern time as PokerStars writes it: `2016/10/06 22:53:35 ET`, `2026/12/07 0:07:57 ET`."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return _clock(aware.astimezone(_ET), "ET")


def pokerstars_time(moment: datetime) -> str:
    """The header's time as PokerStars writes it for a client outside ET: the local time, then
    ET in brackets. A log knows no room time zone, so the local time is UTC, named `UTC`."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return f"{_clock(aware.astimezone(UTC), 'UTC')} [{eastern_time(aware)}]"


def number_from_id(identifier: str, digits: int) -> int:
    """A `digits`-long number derived from an id (the same id gives the same number)."""
    value = int.from_bytes(hashlib.sha256(identifier.encode()).digest()[:8], "big")
    low: int = 10 ** (digits - 1)
    return low + value % (9 * low)


def hand_number(hand: RecordedHand) -> int:
    """The hand's PokerStars number: an imported hand's own (from a PokerStars or OHH file),
    else from its hand_started event id (unique across logs)."""
    if hand.imported_number:
        return int(hand.imported_number[:18])
    return number_from_id(hand.event_id or f"{hand.stream}/{hand.first_version}", 12)


def table_number(table: str) -> int:
    """The table's number in the table line: its own when it is one, else one derived."""
    digits = table.rsplit("-", 1)[-1].strip()
    if digits.isdigit() and 0 < int(digits) < 10_000:
        return int(digits)
    return number_from_id(table, 3)


@dataclass(frozen=True)
class Elimination:
    player: str
    place: int
    bounty_to: str = ""


@dataclass(frozen=True)
class TournamentInfo:
    """What the header says about the tournament."""

    number: int = 0
    name: str = ""
    buy_in: str = "Freeroll"
    places: Mapping[tuple[str, int], list[Elimination]] = field(default_factory=dict)
    winner: str = ""
    prizes: Mapping[str, int] = field(default_factory=dict)
    currency: str = "USD"
    bounty: int = 0  # cents, 0: no bounties


def tournament_info(state: TournamentState | None, first_event_id: str) -> TournamentInfo:
    """The header's facts of a tournament; its number is its id when that is a number (a
    tournament imported from PokerStars keeps it), else derived from `first_event_id`."""
    number = (int(state.tournament[:18]) if state is not None and state.tournament.isdigit()
              else number_from_id(first_event_id, 10))
    if state is None:
        return TournamentInfo(number=number)
    money = state.structure.money
    sign = _CURRENCY_SIGNS.get(money.currency, "")
    if money.buy_in:
        pool = money.prize_pool_per_entry or (money.buy_in - money.bounty)
        fee = max(money.buy_in - pool - money.bounty, 0)
        parts = [pool, money.bounty, fee] if money.bounty else [pool, fee]
        buy_in = "+".join(f"{sign}{cents / 100:.2f}" for cents in parts) + f" {money.currency}"
    else:
        buy_in = "Freeroll"
    places: dict[tuple[str, int], list[Elimination]] = {}
    for entrant in state.entrants:
        if entrant.place and entrant.out_table:
            places.setdefault((entrant.out_table, entrant.out_hand), []).append(
                Elimination(entrant.player, entrant.place, entrant.bounty_to))
    prizes = {a.player: a.amount for a in state.prizes.awards} if state.prizes else {}
    return TournamentInfo(number, state.tournament, buy_in, places, state.winner, prizes,
                          money.currency, money.bounty)


def roman(number: int) -> str:
    if number <= 0:
        return "0"
    out = []
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                           (4, "IV"), (1, "I")):
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
        number % 10, "th")
    return f"{number}{suffix}"


def _cards(cards: Iterable[str]) -> str:
    return "[" + " ".join(cards) + "]"


def _hand_name(hole: tuple[str, ...], board: tuple[str, ...]) -> str:
    cards = hole + board
    if len(cards) < 5:
        return ""
    name = describe(evaluate(tuple(parse_card(c) for c in cards)))
    return name[:1].lower() + name[1:]


def _money(cents: int, currency: str) -> str:
    return f"{_CURRENCY_SIGNS.get(currency, '')}{cents / 100:.2f}"


def pot_names(count: int) -> list[str]:
    """`pot` alone; else `main pot`, then `side pot` (one) or `side pot-1`, `side pot-2`..."""
    if count == 0:
        return []
    if count == 1:
        return ["pot"]
    if count == 2:
        return ["main pot", "side pot"]
    return ["main pot"] + [f"side pot-{k}" for k in range(1, count)]


def grammar_names(names: Sequence[str], players: Sequence[str]) -> tuple[str, ...]:
    """Each position's name made safe for the grammar, unique within the hand (a name that
    cannot be made safe, recorded before registration refused such names, becomes
    `Player <id>`)."""
    out: list[str] = []
    for name, player in zip(names, players, strict=True):
        cleaned = safe_name(name)
        if name_problem(cleaned) is not None:
            cleaned = safe_name(f"Player {player}")
        base, k = cleaned, 2
        while cleaned in out:
            cleaned = f"{base} {k}"
            k += 1
        out.append(cleaned)
    return tuple(out)


def pokerstars_hand(hand: RecordedHand, info: TournamentInfo | None = None,
                    options: ExportOptions | None = None) -> str:
    """One complete hand as PokerStars text (lines joined with newlines, no trailing one)."""
    info = info or TournamentInfo()
    options = options or ExportOptions()
    started = hand.started
    names = grammar_names(hand.names, hand.players)
    lines: list[str] = []
    when = pokerstars_time(hand.recorded_at) if hand.recorded_at else ""
    blinds = f"({hand.small_blind}/{hand.big_blind})"
    seat_count = hand.seat_count or len(started.seats)
    number = hand_number(hand)
    if hand.tournament:
        lines.append(f"PokerStars Hand #{number}: Tournament #{info.number}, "
                     f"{info.buy_in} Hold'em No Limit - Level {roman(started.level)} {blinds} "
                     f"- {when}".rstrip(" -"))
        lines.append(f"Table '{info.number} {table_number(hand.table)}' {seat_count}-max "
                     f"Seat #{started.button_seat} is the button")
    else:
        # A table outside any tournament: PokerStars' play-chip ring game layout.
        lines.append(f"PokerStars Hand #{number}:  Hold'em No Limit {blinds} - "
                     f"{when}".rstrip(" -"))
        table_name = safe_name(hand.table).replace("'", "") or "handlog"
        lines.append(f"Table '{table_name}' {seat_count}-max (Play Money) Seat "
                     f"#{started.button_seat} is the button")
    by_seat = sorted(range(hand.size), key=lambda i: started.seats[i])
    absent = set(started.absent)
    for i in by_seat:
        away = " is sitting out" if i in absent else ""
        lines.append(f"Seat {started.seats[i]}: {names[i]} ({started.stacks[i]} in chips)"
                     f"{away}")
    posts = [s for s in hand.steps if isinstance(s.event, ChipsPosted)]
    order = {"ante": 0, "small_blind": 1, "big_blind": 2, "straddle": 3}
    for step in sorted(posts, key=lambda s: order.get(s.event.kind, 4)):
        event = step.event
        what = {"ante": "the ante", "small_blind": "small blind", "big_blind": "big blind",
                "straddle": "straddle"}.get(event.kind, event.kind)
        all_in = " and is all-in" if event.all_in else ""
        lines.append(f"{names[event.player]}: posts {what} {event.amount}{all_in}")
    if started.dead_money:
        # Chips in the pot that are nobody's (a color-up's odd chips carried into it): PokerStars
        # has no line of its own for them; this one keeps `Total pot` explained.
        lines.append(f"Dead money {started.dead_money} carried into the pot")
    lines.append("*** HOLE CARDS ***")
    hero = hand.hero_position(options.hero)
    known = hand.seen_hole_cards(options)
    for i in range(hand.size):
        if known[i] and (options.all_cards or i == hero):
            lines.append(f"Dealt to {names[i]} {_cards(known[i])}")
    board: list[str] = []
    shows: list[str] = []
    for step in hand.steps_in_turn():
        event = step.event
        player = step.player
        all_in = " and is all-in" if getattr(event, "all_in", False) else ""
        if isinstance(event, PlayerFolded) or (isinstance(event, HandKilled)
                                               and step.in_betting):
            assert player is not None
            lines.append(f"{names[player]}: folds")
        elif isinstance(event, PlayerChecked):
            lines.append(f"{names[event.player]}: checks")
        elif isinstance(event, PlayerCalled):
            lines.append(f"{names[event.player]}: calls {event.amount}{all_in}")
        elif isinstance(event, BetMade):
            lines.append(f"{names[event.player]}: bets {step.added}{all_in}")
        elif isinstance(event, RaiseMade):
            lines.append(f"{names[event.player]}: raises {event.to - step.facing} to "
                         f"{event.to}{all_in}")
        elif isinstance(event, BoardDealt):
            if board:
                lines.append(f"*** {_STREET_TITLES[len(board) - 2].upper()} *** "
                             f"{_cards(board)} {_cards(event.cards)}")
            else:
                lines.append(f"*** FLOP *** {_cards(event.cards)}")
            board.extend(event.cards)
        elif isinstance(event, CardsShown):
            name = _hand_name(tuple(event.cards), hand.board)
            shows.append(f"{names[event.player]}: shows {_cards(event.cards)}"
                         + (f" ({name})" if name else ""))
        elif isinstance(event, CardsMucked) or isinstance(event, HandKilled):
            assert player is not None
            shows.append(f"{names[player]}: mucks hand")
        for who, chips in step.returned:
            lines.append(f"Uncalled bet ({chips}) returned to {names[who]}")
    if shows:
        lines.append("*** SHOW DOWN ***")
        lines.extend(shows)
    labels = pot_names(len(hand.awards))
    # PokerStars pushes the side pots first, the last one first, then the main pot.
    for award, label in reversed(list(zip(hand.awards, labels, strict=True))):
        for winner, share in zip(award.winners, award.shares, strict=True):
            lines.append(f"{names[winner]} collected {share} from {label}")
    lines.extend(_places(hand, info, names))
    lines.append("*** SUMMARY ***")
    total = hand.pot_total()
    if len(hand.awards) > 1:
        parts = " ".join(f"{label[:1].upper()}{label[1:]} {a.amount}."
                         for a, label in zip(hand.awards, labels, strict=True))
        lines.append(f"Total pot {total} {parts} | Rake 0")
    else:
        lines.append(f"Total pot {total} | Rake 0")
    if hand.board:
        lines.append(f"Board {_cards(hand.board)}")
    lines.extend(_summary_seats(hand, by_seat, names))
    return "\n".join(lines)


def bounty_winners(hand: RecordedHand, out: Elimination, bounty: int
                   ) -> list[tuple[int, int]]:
    """Who collects the bounty of a player eliminated in `hand`, and how many cents each:
    the one the tournament recorded (`bounty_to`), else the winners of the last pot the
    eliminated player was in (the one that took his last chips), split like it."""
    if not bounty or out.player not in hand.players:
        return []
    if out.bounty_to:
        return ([(hand.players.index(out.bounty_to), bounty)]
                if out.bounty_to in hand.players else [])
    loser = hand.players.index(out.player)
    pots = [a for a in hand.awards if loser in a.eligible and loser not in a.winners]
    if not pots:
        return []
    winners = [w for w in pots[-1].winners if w != loser]
    if not winners:
        return []
    share, odd = divmod(bounty, len(winners))
    return [(w, share + (1 if k < odd else 0)) for k, w in enumerate(winners)]


def _places(hand: RecordedHand, info: TournamentInfo, names: Sequence[str]) -> list[str]:
    if not info.places:
        return []
    out = []
    for out_player in busted(hand, info.places):
        for winner, cents in bounty_winners(hand, out_player, info.bounty):
            loser = names[hand.players.index(out_player.player)]
            out.append(f"{names[winner]} wins the {_money(cents, info.currency)} bounty for "
                       f"eliminating {loser}")
    for player, place, prize in finished(hand, info.places, info.winner, info.prizes):
        name = names[hand.players.index(player)]
        if place == 1:
            won = f" and receives {_money(prize, info.currency)}" if prize else ""
            out.append(f"{name} wins the tournament{won} - congratulations!")
        else:
            won = f" and received {_money(prize, info.currency)}." if prize else ""
            out.append(f"{name} finished the tournament in {ordinal(place)} place{won}")
    return out


def busted(hand: RecordedHand, places: Mapping[tuple[str, int], list[Elimination]]
           ) -> list[Elimination]:
    """Who was out in the hand: the lower place first, players sharing one by their seats."""
    seat = dict(zip(hand.players, hand.seats, strict=True))
    return sorted(places.get((hand.table, hand.number), []),
                  key=lambda p: (-p.place, seat.get(p.player, 0)))


def finished(hand: RecordedHand, places: Mapping[tuple[str, int], list[Elimination]],
             winner: str, prizes: Mapping[str, int]) -> list[tuple[str, int, int]]:
    """Who of the hand's players finished the tournament in it: (player, place, prize in
    cents), the lower place first (sharing one: by seat), the winner last when the hand put
    out the second."""
    out_in_hand = busted(hand, places)
    out = [(p.player, p.place, prizes.get(p.player, 0)) for p in out_in_hand
           if p.player in hand.players]
    if winner in hand.players and any(p.place == 2 for p in out_in_hand):
        out.append((winner, 1, prizes.get(winner, 0)))
    return out


def _summary_seats(hand: RecordedHand, by_seat: list[int], names: Sequence[str]) -> list[str]:
    folded = hand.folded_on()
    shown = hand.shown()
    mucked = hand.mucked() | {s.event.player for s in hand.steps
                              if isinstance(s.event, HandKilled) and not s.in_betting}
    won = hand.won()
    voluntary = hand.voluntary()
    out = []
    for i in by_seat:
        role = hand.role(i)
        tags = "".join(f" ({r})" for r in role.split(", ")) if role else ""
        text = f"Seat {hand.seats[i]}: {names[i]}{tags}"
        if i in folded:
            street = folded[i]
            if street == 0:
                text += " folded before Flop" + ("" if i in voluntary else " (didn't bet)")
            else:
                text += f" folded on the {_STREET_TITLES[street - 1]}"
        elif i in shown:
            name = _hand_name(shown[i], hand.board)
            with_name = f" with {name}" if name else ""
            if won[i]:
                text += f" showed {_cards(shown[i])} and won ({won[i]}){with_name}"
            else:
                text += f" showed {_cards(shown[i])} and lost{with_name}"
        elif i in mucked:
            text += " mucked"
        elif won[i]:
            text += f" collected ({won[i]})"
        out.append(text)
    return out


def export_pokerstars(hands: Iterable[RecordedHand],
                      infos: Mapping[str, TournamentInfo] | None = None,
                      options: ExportOptions | None = None, out: TextIO | None = None
                      ) -> tuple[str, int, list[str]]:
    """The text of every complete hand (three blank lines between hands, as PokerStars
    writes them), how many, and a note for every hand left out. With `out`, each hand is
    written there as it is made (and "" returned)."""
    options = options or ExportOptions()
    parts: list[str] = []
    notes: list[str] = []
    count = 0
    hero_plays = False
    for hand in hands:
        if not hand.exportable:
            notes.append(f"{hand.label()} not exported: the hand is {hand.status}"
                         + (f": {hand.problem}" if hand.problem else ""))
            continue
        text = pokerstars_hand(hand, (infos or {}).get(hand.tournament), options)
        hero_plays = hero_plays or bool(options.hero) and hand.hero_position(
            options.hero) is not None
        if out is not None:
            if not count and options.all_cards:
                out.write(ALL_CARDS_NOTICE + "\n\n\n")
            out.write(("\n\n\n" if count else "") + text)
        else:
            parts.append(text)
        count += 1
    if options.hero and count and not hero_plays:
        notes.append(f"--hero {options.hero!r} plays in none of the exported hands: "
                     "written as the observer's view")
    if out is not None:
        out.write("\n" if count else "")
        return "", count, notes
    text = "\n\n\n".join(parts) + ("\n" if parts else "")
    if options.all_cards and parts:
        text = ALL_CARDS_NOTICE + "\n\n\n" + text
    return text, len(parts), notes


def write_pokerstars(export: HandsExport, options: ExportOptions | None = None,
                     out: TextIO | None = None) -> tuple[str, int, list[str]]:
    """The PokerStars export of the hands `export` holds."""
    infos: dict[str, TournamentInfo] = {}
    for table in export.tables:
        record = export.tournaments.get(table.tournament)
        if record is not None and record.stored:
            infos[table.tournament] = tournament_info(record.state,
                                                      str(record.stored[0].event_id))
        elif table.tournament not in infos and table.tournament.isdigit():
            # No tournament stream (an imported table): its tournament's number as read.
            infos[table.tournament] = TournamentInfo(number=int(table.tournament[:18]))
        elif table.tournament not in infos:
            first = export.log.by_stream.get(table.stream, [])
            infos[table.tournament] = tournament_info(
                None, str(first[0].event_id) if first else table.stream)
    return export_pokerstars(export.each_hand(), infos, options, out)
