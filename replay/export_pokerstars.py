"""Recorded hands as PokerStars-style tournament hand histories (what trackers import).

The layout follows PokerStars' own files (see data/hand-histories/pokerstars): a header with
the hand and tournament numbers and the level, the table line with the button seat, one line
per seat with its stack, the posts (antes first, then the blinds), `*** HOLE CARDS ***`, the
actions (`raises X to Y` with Y the street total, `calls X` with the chips added), `Uncalled bet
(X) returned to NAME`, the board lines, `*** SHOW DOWN ***` with the shows, one `collected X
from ...` line per share (`pot`, or `main pot` and `side pot` / `side pot-1`, `side pot-2`...),
places for players eliminated in the hand, and the `*** SUMMARY ***` with the total pot and
the board.

Numbers trackers need are numeric: the hand number is the hand_started event's position in
the log (unique), the tournament number the position of the tournament's first event (the
tournament's own id is in the table name); a table outside any tournament gets PokerStars'
play-chip ring-game header instead. Times are UTC. Hole cards the dealer never saw are
simply not written; there is no hero (a live table has none), so there is no `Dealt to` line
unless the dealer recorded a player's cards face up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.cards import parse_card
from engine.evaluator import describe, evaluate
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

_STREET_TITLES = ("Flop", "Turn", "River")
_CURRENCY_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£"}


@dataclass(frozen=True)
class TournamentInfo:
    """What the header says about the tournament."""

    number: int = 0
    name: str = ""
    buy_in: str = "Freeroll"
    places: Mapping[tuple[str, int], list[tuple[str, int, int]]] | None = None
    winner: str = ""
    prizes: Mapping[str, int] | None = None
    currency: str = "USD"


def tournament_info(state: TournamentState | None, first_position: int) -> TournamentInfo:
    if state is None:
        return TournamentInfo(number=first_position)
    money = state.structure.money
    sign = _CURRENCY_SIGNS.get(money.currency, "")
    if money.buy_in:
        pool = money.prize_pool_per_entry or money.buy_in
        fee = money.buy_in - pool
        buy_in = f"{sign}{pool / 100:.2f}+{sign}{fee / 100:.2f} {money.currency}"
    else:
        buy_in = "Freeroll"
    places: dict[tuple[str, int], list[tuple[str, int, int]]] = {}
    for entrant in state.entrants:
        if entrant.place and entrant.out_table:
            places.setdefault((entrant.out_table, entrant.out_hand), []).append(
                (entrant.player, entrant.place, entrant.chips_at_start))
    prizes = {a.player: a.amount for a in state.prizes.awards} if state.prizes else {}
    return TournamentInfo(first_position, state.tournament, buy_in, places, state.winner,
                          prizes, money.currency)


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
    if count == 1:
        return ["pot"]
    if count == 2:
        return ["main pot", "side pot"]
    return ["main pot"] + [f"side pot-{k}" for k in range(1, count)]


def pokerstars_hand(hand: RecordedHand, info: TournamentInfo | None = None) -> str:
    """One complete hand as PokerStars text (lines joined with newlines, no trailing one)."""
    info = info or TournamentInfo()
    started = hand.started
    names = hand.names
    lines: list[str] = []
    when = hand.recorded_at.strftime("%Y/%m/%d %H:%M:%S UTC") if hand.recorded_at else ""
    blinds = f"({hand.small_blind}/{hand.big_blind})"
    seat_count = hand.seat_count or len(started.seats)
    if hand.tournament:
        lines.append(f"PokerStars Hand #{hand.position}: Tournament #{info.number}, "
                     f"{info.buy_in} Hold'em No Limit - Level {roman(started.level)} {blinds} "
                     f"- {when}".rstrip())
        table_name = f"{info.name or hand.tournament} {hand.table}"
        lines.append(f"Table '{table_name}' {seat_count}-max Seat #{started.button_seat} is "
                     "the button")
    else:
        # A table outside any tournament: PokerStars' play-chip ring game layout.
        lines.append(f"PokerStars Hand #{hand.position}:  Hold'em No Limit {blinds} - "
                     f"{when}".rstrip())
        lines.append(f"Table '{hand.stream} {hand.table}' {seat_count}-max (Play Money) Seat "
                     f"#{started.button_seat} is the button")
    by_seat = sorted(range(hand.size), key=lambda i: started.seats[i])
    for i in by_seat:
        lines.append(f"Seat {started.seats[i]}: {names[i]} ({started.stacks[i]} in chips)")
    posts = [s for s in hand.steps if isinstance(s.event, ChipsPosted)]
    order = {"ante": 0, "small_blind": 1, "big_blind": 2, "straddle": 3}
    for step in sorted(posts, key=lambda s: order.get(s.event.kind, 4)):
        event = step.event
        what = {"ante": "the ante", "small_blind": "small blind", "big_blind": "big blind",
                "straddle": "straddle"}.get(event.kind, event.kind)
        all_in = " and is all-in" if event.all_in else ""
        lines.append(f"{names[event.player]}: posts {what} {event.amount}{all_in}")
    lines.append("*** HOLE CARDS ***")
    for step in hand.steps:
        if isinstance(step.event, HoleCardsDealt) and step.event.cards:
            lines.append(f"Dealt to {names[step.event.player]} {_cards(step.event.cards)}")
    board: list[str] = []
    shows: list[str] = []
    for step in hand.steps:
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
    lines.extend(_places(hand, info))
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
    lines.extend(_summary_seats(hand, by_seat))
    return "\n".join(lines)


def _places(hand: RecordedHand, info: TournamentInfo) -> list[str]:
    if not info.places:
        return []
    out = []
    busted = info.places.get((hand.table, hand.number), [])
    for player, place, _chips in sorted(busted, key=lambda p: -p[1]):
        if player not in hand.players:
            continue
        name = hand.names[hand.players.index(player)]
        prize = (info.prizes or {}).get(player, 0)
        won = f" and received {_money(prize, info.currency)}." if prize else ""
        out.append(f"{name} finished the tournament in {ordinal(place)} place{won}")
    if info.winner in hand.players and any(place == 2 for _p, place, _c in busted):
        name = hand.names[hand.players.index(info.winner)]
        prize = (info.prizes or {}).get(info.winner, 0)
        won = f" and receives {_money(prize, info.currency)}" if prize else ""
        out.append(f"{name} wins the tournament{won} - congratulations!")
    return out


def _summary_seats(hand: RecordedHand, by_seat: list[int]) -> list[str]:
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
        text = f"Seat {hand.seats[i]}: {hand.names[i]}{tags}"
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
                      infos: Mapping[str, TournamentInfo] | None = None
                      ) -> tuple[str, int, list[str]]:
    """The text of every complete hand (three blank lines between hands, as PokerStars
    writes them), how many, and a note for every hand left out."""
    parts: list[str] = []
    notes: list[str] = []
    for hand in hands:
        if not hand.exportable:
            notes.append(f"{hand.label()} not exported: the hand is {hand.status}"
                         + (f": {hand.problem}" if hand.problem else ""))
            continue
        parts.append(pokerstars_hand(hand, (infos or {}).get(hand.tournament)))
    text = "\n\n\n".join(parts) + ("\n" if parts else "")
    return text, len(parts), notes


def write_pokerstars(export: HandsExport) -> tuple[str, int, list[str]]:
    """The PokerStars export of the hands `export` holds."""
    infos: dict[str, TournamentInfo] = {}
    for table in export.tables:
        record = export.tournaments.get(table.tournament)
        if record is not None and record.stored:
            infos[table.tournament] = tournament_info(record.state, record.stored[0].position)
        elif table.tournament not in infos:
            first = export.log.by_stream.get(table.stream, [])
            infos[table.tournament] = tournament_info(None, first[0].position if first else 0)
    return export_pokerstars(export.hands(), infos)
