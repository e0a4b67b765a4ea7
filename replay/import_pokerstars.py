"""PokerStars hand histories (tournament and cash, No-Limit Hold'em) read into PHH hands.

Each hand becomes the same record a PHH file gives (replay/phh.py's `PhhHand`, through
`hand_from_mapping`), so `handlog import` replays it strictly through the engine exactly as
`handlog phh verify` does. What the text says is all that is taken: seats and stacks, the posts
(antes, blinds, a dead small blind), the hero's `Dealt to` cards, every action as written, the
board, shows and mucks; of the tournament, the buy-in of the header and the lines of who
finished in a hand (place, prize, who won his bounty: `replay.phh.TournamentFacts`). The
recorded result the engine is compared with is each player's stack after the hand as the
text gives it: starting stack, less what he put in, plus what came back uncalled and what he
collected (with a cash game's rake given back to a lone winner, since the engine takes none).

Files may be UTF-8 (with or without a BOM) or cp1252, with CRLF or LF line ends, and hold
many hands.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal

from handlog.replay.phh import (
    Finish,
    PhhEntry,
    PhhHand,
    PhhProblem,
    TournamentFacts,
    hand_from_mapping,
)

HAND_START = re.compile(r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #", re.MULTILINE)
_ET_TIME = re.compile(r"(\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) ET\b")  # Eastern time
_HEADER = re.compile(r"^PokerStars .*?(?:Hand|Game) #(?P<number>\d+):\s*(?P<rest>.*)$")
_BLINDS = re.compile(r"\((?P<sb>[$€£]?[\d.,]+)/(?P<bb>[$€£]?[\d.,]+)(?: [A-Z]{3})?\)")
_BUTTON = re.compile(r"Seat #(?P<seat>\d+) is the button")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[$€£]?[\d.,]+) in chips"
                   r"(?P<more>[^)]*)\)(?P<after>.*)$")
_POST = re.compile(r"^(?P<name>.+): posts (?P<kind>the ante|small blind|big blind|"
                   r"small & big blinds|straddle) (?P<amount>[$€£]?[\d.,]+)")
_ACTION = re.compile(r"^(?P<name>.+): (?P<verb>folds|checks|calls|bets|raises)"
                     r"(?: (?P<amount>[$€£]?[\d.,]+))?(?: to (?P<to>[$€£]?[\d.,]+))?"
                     r"(?: and is all-in)?(?: \[[^\]]*\])?\s*$")
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<cards>[^\]]+)\]")
_BOARD = re.compile(r"^\*\*\* (?P<street>FLOP|TURN|RIVER) \*\*\* (?:\[[^\]]*\] )?"
                    r"\[(?P<cards>[^\]]+)\]\s*$")
_SHOWS = re.compile(r"^(?P<name>.+): shows \[(?P<cards>[^\]]+)\]")
_MUCKS = re.compile(r"^(?P<name>.+): mucks hand")
_UNCALLED = re.compile(r"^Uncalled bet \((?P<amount>[$€£]?[\d.,]+)\) returned to (?P<name>.+?)"
                       r"\s*$")
_COLLECTED = re.compile(r"^(?P<name>.+) collected (?P<amount>[$€£]?[\d.,]+) from "
                        r"(?:the )?(?:main |side )?pot")
_TOTAL = re.compile(r"^Total pot (?P<total>[$€£]?[\d.,]+).*\| Rake (?P<rake>[$€£]?[\d.,]+)")
_DEAD_MONEY = re.compile(r"^Dead money (?P<amount>[\d.,]+) carried into the pot")

# One hand's text: ten seats, every street and the summary are 3 KB; a thousand times that is
# damage, not a hand, and is not handed to the line-by-line reader.
MAX_HAND_CHARACTERS = 1024 * 1024

# The buy-in after the tournament's number: `$20.00+$2.00 USD` (to the pool, the fee) or
# `$45.00+$5.00+$0.00 USD` (to the pool, the bounty, the fee); `Freeroll`.
_BUY_IN = re.compile(r"Tournament #\d+, (?:(?P<parts>[$€£]?[\d.,]+(?:\+[$€£]?[\d.,]+){1,2})"
                     r"(?: (?P<currency>[A-Z]{3}))?|Freeroll)\b")
_OUT = re.compile(r"^(?P<name>.+) finished the tournament in (?P<place>\d+)(?:st|nd|rd|th) "
                  r"place(?: and received (?P<prize>[$€£]?[\d.,]+?)\.?)?$")
_WINNER = re.compile(r"^(?P<name>.+) wins the tournament(?: and receives "
                     r"(?P<prize>[$€£]?[\d.,]+))? - congratulations!$")
_BOUNTY = re.compile(r"^(?P<name>.+) wins the [$€£]?[\d.,]+ bounty for eliminating "
                     r"(?P<loser>.+)$")
_LEVEL = re.compile(r" - Level ([IVXLCDM]+)\b")

Number = int | Decimal


def from_roman(text: str) -> int:
    """`XIV` -> 14 (a tournament level as PokerStars writes it)."""
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for letter, following in zip(text, [*text[1:], ""], strict=True):
        value = values[letter]
        total += -value if following and values[following] > value else value
    return total


def decode(raw: bytes) -> str:
    """The text of a hand-history file: UTF-8 (BOM dropped) or else cp1252; LF line ends."""
    if raw.startswith(b"\xef\xbb\xbf"):
        text = raw[3:].decode("utf-8", errors="replace")
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def looks_like_pokerstars(text: str) -> bool:
    return HAND_START.search(text) is not None


def split_hands(text: str) -> list[str]:
    """Each hand's text, in file order (none when the text holds no hand header)."""
    return [block for _line, block in hand_blocks(text)]


def hand_blocks(text: str) -> list[tuple[int, str]]:
    """Each hand's first line (1 for the file's first) and its text, in file order."""
    starts = [m.start() for m in HAND_START.finditer(text)]
    ends = starts[1:] + [len(text)] if starts else []  # no header: no hand, not a zip error
    blocks: list[tuple[int, str]] = []
    line, position = 1, 0
    for start, end in zip(starts, ends, strict=True):
        line += text.count("\n", position, start)
        position = start
        blocks.append((line, text[start:end].strip()))
    return blocks


def amount(text: str) -> Number:
    """`$1,234.50` -> Decimal('1234.50'); `1500` -> 1500."""
    cleaned = text.lstrip("$€£").replace(",", "")
    return Decimal(cleaned) if "." in cleaned else int(cleaned)


def written(value: Number) -> str:
    """A number as a PHH action writes it (`300`, `0.25`)."""
    if isinstance(value, int):
        return str(value)
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


class Unsupported(ValueError):
    """A valid hand this reader does not replay (another game, run it twice...)."""


@dataclass
class _Player:
    seat: int
    name: str
    stack: Number
    sitting_out: bool
    put_in: Number = 0
    street: Number = 0
    returned: Number = 0
    collected: Number = 0
    ante: Number = 0
    blind: Number = 0
    dead: Number = 0
    cards: str = ""
    acted: bool = False


@dataclass
class _Hand:
    number: str
    players: dict[str, _Player] = field(default_factory=dict)
    actions: list[tuple[str, str]] = field(default_factory=list)  # (name or "", text)
    small_blind: Number = 0
    big_blind: Number = 0
    button: int = 0
    seat_count: int = 0
    rake: Number = 0
    dead_money: Number = 0
    tournament: bool = False
    amounts: list[Number] = field(default_factory=list)  # every amount the hand's lines give
    table: str = ""
    side_pots: bool = False  # the summary's total names a side pot
    total: Number | None = None  # the summary's "Total pot", when given
    level: int = 0
    header: str = ""  # the header line's text after the hand number
    finishes: list[tuple[str, int, Number]] = field(default_factory=list)  # name, place, prize
    bounties: list[tuple[str, str]] = field(default_factory=list)  # (winner, eliminated)


def parse_hand(block: str) -> _Hand:
    """The facts of one hand's text (raises Unsupported or ValueError)."""
    lines = [line.rstrip() for line in block.split("\n")]
    header = _HEADER.match(lines[0])
    if header is None:
        raise ValueError(f"not a PokerStars hand header: {lines[0][:80]!r}")
    rest = header.group("rest")
    if "Hold'em No Limit" not in rest:
        game = rest.split(" - ")[0].split(",")[-1].strip()
        raise Unsupported(f"not No-Limit Hold'em ({game or 'unknown game'})")
    if cap := re.search(r" - (\S+) Cap - ", rest):
        raise Unsupported(f"a capped game ({cap.group(1)} cap): the engine plays no cap")
    hand = _Hand(header.group("number"), tournament="Tournament #" in rest, header=rest)
    if level := _LEVEL.search(rest):
        hand.level = from_roman(level.group(1))
    blinds = _BLINDS.search(rest)
    if blinds is None:
        raise ValueError("the header gives no blinds (small/big)")
    hand.small_blind, hand.big_blind = amount(blinds.group("sb")), amount(blinds.group("bb"))
    if len(lines) < 2 or (button := _BUTTON.search(lines[1])) is None:
        raise ValueError("no table line with the button seat ('Seat #N is the button')")
    hand.button = int(button.group("seat"))
    size = re.search(r"(\d+)-max", lines[1])
    hand.seat_count = int(size.group(1)) if size else 0
    table_line = re.match(r"^Table '(?P<name>[^']*)'", lines[1])
    hand.table = table_line.group("name") if table_line else ""
    summary = False
    for line in lines[2:]:
        if line.startswith("*** SUMMARY"):
            summary = True
        if _read_place(hand, line):
            continue
        if summary:
            if total := _TOTAL.match(line):
                hand.rake = amount(total.group("rake"))
                hand.total = amount(total.group("total"))
                hand.side_pots = "Side pot" in line
            continue
        if line.startswith("*** FIRST ") or line.startswith("*** SECOND "):
            raise Unsupported("the board is run twice")
        if not hand.actions and (seat := _SEAT.match(line)):
            after = seat.group("after")
            if "out of hand" in after:
                continue
            name = seat.group("name")
            hand.players[name] = _Player(int(seat.group("seat")), name,
                                         amount(seat.group("stack")), "sitting out" in after)
            hand.amounts.append(hand.players[name].stack)
            continue
        _read_line(hand, line)
    return hand


def _read_place(hand: _Hand, line: str) -> bool:
    """A line of who finished the tournament in this hand, or won a bounty, read."""
    if out := _OUT.match(line):
        hand.finishes.append((out.group("name"), int(out.group("place")),
                              amount(out.group("prize") or "0")))
    elif won := _WINNER.match(line):
        hand.finishes.append((won.group("name"), 1, amount(won.group("prize") or "0")))
    elif bounty := _BOUNTY.match(line):
        hand.bounties.append((bounty.group("name"), bounty.group("loser")))
    else:
        return False
    return True


def cents(value: Number) -> int:
    return int(Decimal(value) * 100)


def tournament_facts(hand: _Hand) -> TournamentFacts | None:
    """The buy-in the header gives and the places the hand's lines give (None: not a
    tournament, or a buy-in not in money)."""
    buy_in = _BUY_IN.search(hand.header)
    if buy_in is None:
        return None
    parts = [cents(amount(p)) for p in (buy_in.group("parts") or "0+0").split("+")]
    pool, bounty, fee = (parts[0], 0, parts[1]) if len(parts) == 2 else parts
    finishes = []
    for name, place, prize in hand.finishes:
        takers = [w for w, loser in hand.bounties if loser == name]
        finishes.append(Finish(name, place, cents(prize),
                               takers[0] if len(takers) == 1 else ""))
    small = hand.small_blind if isinstance(hand.small_blind, int) else 0
    return TournamentFacts(buy_in.group("currency") or "USD", pool, bounty, fee,
                           tuple(finishes), small)


def _player(hand: _Hand, name: str, line: str) -> _Player:
    player = hand.players.get(name)
    if player is None:
        raise ValueError(f"{line!r}: {name!r} has no seat in this hand")
    return player


def _read_line(hand: _Hand, line: str) -> None:
    if post := _POST.match(line):
        player = _player(hand, post.group("name"), line)
        kind, chips = post.group("kind"), amount(post.group("amount"))
        hand.amounts.append(chips)
        player.acted = True
        player.put_in += chips
        if kind == "the ante":
            player.ante = chips
        elif kind == "small & big blinds":
            # A dead small blind: it goes in the pot, the big blind is live.
            player.dead = chips - hand.big_blind
            player.blind = hand.big_blind
            player.street += hand.big_blind
        elif kind == "straddle":
            raise Unsupported("a straddle is posted")
        else:
            player.blind = hand.small_blind if kind == "small blind" else hand.big_blind
            player.street += chips
        return
    if dealt := _DEALT.match(line):
        if dealt.group("name") in hand.players:
            hand.players[dealt.group("name")].cards = "".join(dealt.group("cards").split())
        return
    if board := _BOARD.match(line):
        for player in hand.players.values():
            player.street = 0
        hand.actions.append(("", "d db " + "".join(board.group("cards").split())))
        return
    if uncalled := _UNCALLED.match(line):
        player = _player(hand, uncalled.group("name"), line)
        player.returned += amount(uncalled.group("amount"))
        hand.amounts.append(amount(uncalled.group("amount")))
        return
    if collected := _COLLECTED.match(line):
        if collected.group("name") in hand.players:
            hand.players[collected.group("name")].collected += amount(collected.group("amount"))
            hand.amounts.append(amount(collected.group("amount")))
            return
    if shows := _SHOWS.match(line):
        if shows.group("name") in hand.players:
            hand.actions.append((shows.group("name"),
                                 "sm " + "".join(shows.group("cards").split())))
            return
    if mucks := _MUCKS.match(line):
        if mucks.group("name") in hand.players:
            hand.actions.append((mucks.group("name"), "sm"))
            return
    if dead := _DEAD_MONEY.match(line):
        hand.dead_money = amount(dead.group("amount"))
        hand.amounts.append(hand.dead_money)
        return
    if action := _ACTION.match(line):
        name = action.group("name")
        if name not in hand.players:
            return  # a chat line or a name we do not know: not an action of this hand
        player = hand.players[name]
        player.acted = True
        verb = action.group("verb")
        hand.amounts.extend(amount(action.group(k)) for k in ("amount", "to") if action.group(k))
        if verb == "folds":
            hand.actions.append((name, "f"))
        elif verb == "checks":
            hand.actions.append((name, "cc"))
        elif verb == "calls":
            chips = amount(action.group("amount") or "0")
            player.put_in += chips
            player.street += chips
            hand.actions.append((name, "cc"))
        elif verb == "bets":
            chips = amount(action.group("amount") or "0")
            player.put_in += chips
            player.street += chips
            hand.actions.append((name, f"cbr {written(player.street)}"))
        else:
            if action.group("to") is None:
                raise ValueError(f"{line!r}: a raise without 'to'")
            to = amount(action.group("to"))
            player.put_in += to - player.street
            player.street = to
            hand.actions.append((name, f"cbr {written(to)}"))


def phh_mapping(hand: _Hand) -> dict[str, object]:
    """The hand as PHH fields (positions from the first seat left of the button)."""
    seated = [p for p in hand.players.values() if not p.sitting_out or p.acted]
    seated.sort(key=lambda p: (p.seat <= hand.button, p.seat))
    if len(seated) < 2:
        raise ValueError("fewer than two players are dealt in")
    position = {p.name: i for i, p in enumerate(seated)}
    antes: list[Number] = [p.ante for p in seated]
    top_ante = max(antes)
    # A short all-in ante owed the full ante; so did a player whose blind took all his chips
    # before his ante (a big-blind-first house), when every player owed one: more than one
    # posted it, or, heads-up, the lone ante is not the big blind's (a big-blind ante is his
    # alone) or the text's side pot shows it was not dead money.
    payers = [p for p in seated if p.ante]
    uniform = len(payers) > 1 or (len(payers) == 1 and len(seated) == 2 and (
        payers[0].blind != hand.big_blind or hand.side_pots))
    antes = [top_ante if a or (uniform and p.blind and p.put_in == p.stack) else 0
             for a, p in zip(antes, seated, strict=True)]
    blinds: list[Number] = [p.blind for p in seated]
    if len(seated) == 2:
        antes.reverse()
        blinds.reverse()
    dead = sum((p.dead for p in seated), Decimal(0)) + hand.dead_money
    actions = [f"d dh p{i + 1} {p.cards or '????'}" for i, p in enumerate(seated)]
    live = len(seated)
    out: set[str] = set()  # folded or mucked
    for name, text in hand.actions:
        if not name:
            actions.append(text)
            continue
        if name not in position:
            continue
        if text.startswith("sm") and name in out:
            continue  # a folded hand shown afterwards, for the table's information only
        if text in ("f", "sm"):
            if text == "sm" and live <= 1:
                continue  # the last live hand wins unseen: it is not mucked
            live -= 1
            out.add(name)
        actions.append(f"p{position[name] + 1} {text}")
    _unwritten_uncalled(hand, seated)
    finishing: list[Number] = [p.stack - p.put_in + p.returned + p.collected for p in seated]
    if hand.rake:
        winners = [i for i, p in enumerate(seated) if p.collected]
        if len(winners) != 1:
            raise Unsupported(f"rake of {written(hand.rake)} taken from a pot split "
                              f"{len(winners)} ways: the recorded stacks are net of a share "
                              "the text does not give")
        finishing[winners[0]] += hand.rake
    fields: dict[str, object] = {
        "variant": "NT",
        "ante_trimming_status": bool(top_ante) and len({a for a in antes if a}) == 1
        and sum(1 for a in antes if a) > 1,
        "antes": antes,
        "blinds_or_straddles": blinds,
        "min_bet": hand.big_blind,
        "starting_stacks": [p.stack - p.dead for p in seated],
        "actions": actions,
        "hand": int(hand.number),
        "seats": [p.seat for p in seated],
        "players": [p.name for p in seated],
        "finishing_stacks": finishing,
    }
    if hand.seat_count >= max(p.seat for p in seated):
        fields["seat_count"] = hand.seat_count
    number = re.search(r"Tournament #(\d+)", hand.header)
    if number:
        # The tournament's number is the imported table's tournament; the table line's name
        # is "<tournament number> <table>" (PokerStars' and handlog's): the table is the rest.
        fields["event"] = number.group(1)
        fields["table"] = hand.table.removeprefix(number.group(1) + " ") or hand.table
    elif hand.table:
        fields["table"] = hand.table
    if hand.level:
        fields["level"] = hand.level
    if clock := _ET_TIME.search(hand.header):
        moment = datetime.strptime(clock.group(1), "%Y/%m/%d %H:%M:%S")
        fields.update({"year": moment.year, "month": moment.month, "day": moment.day,
                       "time": moment.time(), "time_zone": "America/New_York"})
    if dead:
        fields["_dead_money"] = int(dead) if dead == int(dead) else dead
    if any(isinstance(p.stack, Decimal) for p in seated) or isinstance(hand.big_blind, Decimal):
        fields["_chip_unit"] = Decimal("0.01")  # a cash game: the cent is the smallest chip
    elif (unit := smallest_chip(hand.amounts)) > 1:
        fields["_chip_unit"] = unit
    return fields


def _unwritten_uncalled(hand: _Hand, seated: list[_Player]) -> None:
    """Older PokerStars files (2011) write no "Uncalled bet ... returned" line: when the
    summary's total pot is less than what was put in and no return is written, the difference
    went back to the top bettor, as far as his bet was not matched."""
    if hand.total is None or any(p.returned for p in seated) or len(seated) < 2:
        return
    excess = sum((p.put_in for p in seated), Decimal(0)) + hand.dead_money - hand.total
    ranked = sorted(seated, key=lambda p: p.put_in, reverse=True)
    if 0 < excess <= ranked[0].put_in - ranked[1].put_in:
        ranked[0].returned = excess


def smallest_chip(amounts: list[Number]) -> int:
    """The smallest chip a hand's text shows in play: the greatest common divisor of every
    amount it gives, stacks and shares included (1 when a fraction is among them).

    The text cannot say which chips were on the table, but it shows the smallest that moved:
    a pot of 1,500 shared 800 and 700 was split in 100s, one shared 750 and 750 in 50s or
    less, and a replay that splits in that chip gives the shares the text records.
    """
    unit = 0
    for value in amounts:
        if not isinstance(value, int):
            return 1
        unit = math.gcd(unit, value)
        if unit == 1:
            return 1
    return unit or 1


def read_rewritten(lines: list[str], source: str, profile: str) -> Iterator[PhhEntry]:
    """Another site's file rewritten line for line into PokerStars' words (Winamax, GGPoker,
    888: every hand keeps its line number), read as PokerStars text; a hand that names no house
    rules is judged by the site's `profile`."""
    for entry in read_pokerstars("\n".join(lines), source):
        if isinstance(entry, PhhHand) and entry.rules is None:
            entry = replace(entry, rules=profile)
        yield entry


def read_pokerstars(text: str, source: str) -> Iterator[PhhEntry]:
    """Every hand of a PokerStars file's text, as a PHH hand or the problem that stops it
    (each with the line its hand starts on)."""
    blocks = hand_blocks(text)
    if not blocks:
        yield PhhProblem(source, None, "error", None,
                         f"{source}: no PokerStars hand header ('PokerStars Hand #...') in the "
                         "file", 1)
        return
    for line, block in blocks:
        number_match = re.match(r"^PokerStars .*?#(\d+)", block)
        number = number_match.group(1) if number_match else "?"
        if len(block) > MAX_HAND_CHARACTERS:
            yield PhhProblem(source, number, "error", None,
                             f"{source}:{line} [{number}]: the hand is {len(block):,} "
                             f"characters long (at most {MAX_HAND_CHARACTERS:,} are read)", line)
            continue
        try:
            parsed = parse_hand(block)
            mapping = phh_mapping(parsed)
        except Unsupported as why:
            yield PhhProblem(source, number, "unsupported", None,
                             f"{source}:{line} [{number}]: {why}", line)
            continue
        except (ValueError, ArithmeticError, KeyError, IndexError) as why:
            yield PhhProblem(source, number, "error", None,
                             f"{source}:{line} [{number}]: {why}", line)
            continue
        entry = hand_from_mapping(mapping, source, number, line)
        facts = tournament_facts(parsed) if parsed.tournament else None
        yield entry if facts is None or isinstance(entry, PhhProblem) else replace(
            entry, tournament=facts)
