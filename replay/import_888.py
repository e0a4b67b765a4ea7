"""888poker hand histories (No-Limit Hold'em), read by rewriting them into PokerStars' text.

pokerkit has no 888 parser, and 888's text says less than PokerStars': a hand starts
`#Game No : 349444554` / `***** 888poker Hand History for Game 349444554 *****`, the blinds and
game are on the next line (`$0.50/$1 Blinds No Limit Holdem - *** 06 01 2014 10:56:05`), stacks
are `Seat 1: dynamoz6 ( $100 )`, every amount is in brackets and is what the action puts in
(`raises [$2.50]` adds $2.50 to what the player had in on the street), a bet nobody matched is
not said to come back, the summary gives only who showed and what each collected, and no rake.

Each line becomes the PokerStars line that says the same, one line for one line (so every hand
keeps its line number): a raise is written with its total, the unmatched part of the last bet
(`Uncalled bet ... returned`) takes the place of the `** Summary **` line, and
replay/import_pokerstars.py reads the result. A hand whose winners collected less than was put
in is listed as not replayed: 888's text gives no rake, so a rake cannot be told from a
recording error. Hands are judged by the `888` profile (engine/site_profiles.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from handlog.replay.import_pokerstars import Number, amount, read_rewritten, written
from handlog.replay.phh import PhhEntry, PhhProblem

PROFILE_888 = "888"
# `#Game No` then a banner naming the brand (888poker, 888poker Snap Poker, Cassava and the
# other skins of 888's network); PartyPoker's files may start `#Game No` too, with no brand.
HAND_START = re.compile(r"^#Game No : \d+[ \t]*\n\*{5} (?!Hand History)[^\n]*Hand History for "
                        r"Game \d+", re.MULTILINE)
_NUMBER = re.compile(r"^#Game No : (?P<number>\d+)\s*$")
_GAME = re.compile(r"^(?P<sb>[^/]+)/(?P<bb>.+?) Blinds (?P<game>.*?) - "
                   r"\*\*\* (?P<day>\d\d) (?P<month>\d\d) (?P<year>\d{4}) (?P<time>[\d:]+)")
_TABLE = re.compile(r"^(?:Tournament #(?P<tournament>\d+) .*- )?Table #?(?P<name>.+?)"
                    r"(?: (?P<size>\d+) Max)? \(")
_BUTTON = re.compile(r"^Seat (?P<seat>\d+) is the button")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \( (?P<stack>[$€£]?[\d.,]+) \)$")
_CARDS = re.compile(r"\[ ?([^\]]*?) ?\]")
_MONEY = r"\[(?P<amount>[$€£]?[\d.,]+)\]"
_POST = re.compile(r"^posts (?P<kind>small blind|big blind|ante) " + _MONEY + "$")
_DEAD = re.compile(r"^posts dead blind \[")
_BET = re.compile(r"^(?P<verb>calls|bets|raises|is all-In) +" + _MONEY + "$")
_BOARD = re.compile(r"^\*\* Dealing (?P<street>flop|turn|river) \*\* (?P<cards>\[.*\])$")
_COLLECTED = re.compile(r"^collected \[ (?P<amount>[$€£]?[\d.,]+) \]$")


_NEWCOMER = ("a player posts a blind out of its place (a newcomer's post): the engine plays "
             "only the small and the big blind")


class Unreadable(ValueError):
    """A line of an 888 hand this reader cannot read (the hand is listed with it)."""


def looks_like_888(text: str) -> bool:
    return HAND_START.search(text) is not None


def read_888(text: str, source: str) -> Iterator[PhhEntry]:
    """Every hand of an 888poker file, as PokerStars' reader reads its rewritten text."""
    lines = text.split("\n")
    starts = [text.count("\n", 0, m.start()) for m in HAND_START.finditer(text)]
    if not starts:
        yield PhhProblem(source, None, "error", None,
                         f"{source}: no 888poker hand header ('#Game No : ...') in the file", 1)
        return
    rewritten = list(lines)
    read = 0
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        found = _NUMBER.match(lines[start].rstrip())
        number = found.group("number") if found else None
        where = f"{source}:{start + 1} [{number}]"
        try:
            rewritten[start:end] = _hand([line.rstrip() for line in lines[start:end]])
            read += 1
            continue
        except _NotReplayed as why:
            yield PhhProblem(source, number, "unsupported", None, f"{where}: {why}", start + 1)
        except (ValueError, ArithmeticError) as why:  # Unreadable, a number not a number
            yield PhhProblem(source, number, "error", None, f"{where}: {why}", start + 1)
        rewritten[start:end] = [""] * (end - start)
    if not read:
        return
    yield from read_rewritten(rewritten, source, PROFILE_888)


class _NotReplayed(ValueError):
    """A readable hand the engine does not replay (another game, an unstated rake)."""


def _hand(lines: list[str]) -> list[str]:
    """One hand's lines in PokerStars' words, one for one (raises Unreadable, _NotReplayed)."""
    number = _NUMBER.match(lines[0])
    game = next((m for line in lines[1:4] if (m := _GAME.match(line.lstrip("\ufeff")))), None)
    table = next((m for line in lines[1:6] if (m := _TABLE.match(line))), None)
    button = next((m for line in lines[1:7] if (m := _BUTTON.match(line))), None)
    if number is None or game is None or table is None or button is None:
        missing = ("game line ('<small>/<big> Blinds <game> - *** <date>')" if game is None
                   else "table line ('Table <name> <n> Max (...)')" if table is None
                   else "button line ('Seat <n> is the button')")
        raise Unreadable(f"the hand's {missing} is missing")
    if game.group("game") != "No Limit Holdem":
        raise _NotReplayed(f"not No-Limit Hold'em ({game.group('game')})")
    symbol = re.match(r"[$€£]?", game.group("sb")).group(0)  # type: ignore[union-attr]
    when = f"{game.group('year')}/{game.group('month')}/{game.group('day')} {game.group('time')}"
    tournament = f"Tournament #{table.group('tournament')}, " if table.group("tournament") else ""
    size = f" {table.group('size')}-max" if table.group("size") else ""
    out = [f"PokerStars Hand #{number.group('number')}: {tournament}Hold'em No Limit "
           f"({game.group('sb')}/{game.group('bb')}) - {when}",
           f"Table '{table.group('name')}'{size} Seat #{button.group('seat')} is the button"]
    names: list[str] = []
    street: dict[str, Number] = {}
    put_in: dict[str, Number] = {}
    returned: dict[str, Number] = {}
    acted: set[str] = set()  # who called, bet or raised on the street
    posted: list[str] = []
    collected: Number = 0

    def money(value: Number) -> str:
        return f"{symbol}{written(value)}"

    def settle() -> None:
        ranked = sorted(street.items(), key=lambda item: item[1], reverse=True)
        excess = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0) if ranked else 0
        # The unmatched part of a bet comes back; a big blind nobody called is counted in
        # what its poster collected (`collected [ $0.15 ]` for blinds of 0.05 and 0.10).
        if excess > 0 and ranked[0][0] in acted:
            returned[ranked[0][0]] = returned.get(ranked[0][0], 0) + excess
        street.clear()
        acted.clear()

    for line in lines[2:]:
        text = line.lstrip("\ufeff")
        if seat := _SEAT.match(text):
            names.append(seat.group("name"))
            out.append(f"Seat {seat.group('seat')}: {seat.group('name')} "
                       f"({seat.group('stack')} in chips)")
            continue
        if text == "** Dealing down cards **":
            out.append("*** HOLE CARDS ***")
            continue
        if board := _BOARD.match(text):
            settle()
            dealt = " ".join(_cards(board.group("cards")))
            out.append(f"*** {board.group('street').upper()} *** [{dealt}]")
            continue
        if text == "** Summary **":
            settle()
            if len(returned) > 1:
                raise Unreadable(f"unmatched bets came back to {len(returned)} players")
            out.append("".join(f"Uncalled bet ({money(chips)}) returned to {who}"
                               for who, chips in returned.items()))
            continue
        if text.startswith("Dealt to "):
            rest = text[len("Dealt to "):]
            name = next((n for n in sorted(names, key=len, reverse=True)
                         if rest.startswith(n + " ")), None)
            cards = _cards(rest[len(name) + 1:]) if name else []
            out.append(f"Dealt to {name} [{' '.join(cards)}]" if name and cards else "")
            continue
        name = next((n for n in sorted(names, key=len, reverse=True)
                     if text.startswith(n + " ")), None)
        if name is None:
            out.append("")  # the game, table, player count lines; a chat line
            continue
        rest = text[len(name) + 1:]
        if post := _POST.match(rest):
            chips = _amount(post.group("amount"))
            if post.group("kind") == "big blind" and any(
                    line.endswith(" posts big blind") for line in posted):
                raise _NotReplayed(_NEWCOMER)
            posted.append(f"{name} posts {post.group('kind')}")
            put_in[name] = put_in.get(name, 0) + chips
            if post.group("kind") != "ante":
                street[name] = street.get(name, 0) + chips
            kind = "the ante" if post.group("kind") == "ante" else post.group("kind")
            out.append(f"{name}: posts {kind} {money(chips)}")
        elif _DEAD.match(rest):
            raise _NotReplayed(_NEWCOMER)
        elif rest in ("folds", "checks"):
            out.append(f"{name}: {rest}")
        elif bet := _BET.match(rest):
            chips = _amount(bet.group("amount"))
            top = max(street.values(), default=0)
            mine = street.get(name, 0) + chips
            street[name] = mine
            acted.add(name)
            put_in[name] = put_in.get(name, 0) + chips
            if mine <= top:
                out.append(f"{name}: calls {money(chips)}")
            elif top == 0:
                out.append(f"{name}: bets {money(chips)}")
            else:
                out.append(f"{name}: raises {money(mine - top)} to {money(mine)}")
        elif rest.startswith("shows "):
            out.append(f"{name}: shows [{' '.join(_cards(rest))}]")
        elif rest.startswith("mucks"):
            out.append(f"{name}: mucks hand")
        elif won := _COLLECTED.match(rest):
            collected += _amount(won.group("amount"))
            out.append(f"{name} collected {won.group('amount')} from pot")
        elif rest == "did not show his hand":
            out.append("")
        else:
            raise Unreadable(f"a line this reader does not know: {text[:80]!r}")
    if "** Summary **" not in lines:
        raise Unreadable("the hand has no summary ('** Summary **'): it is cut short")
    pot = sum(put_in.values(), Decimal(0)) - sum(returned.values(), Decimal(0))
    if collected < pot:
        raise _NotReplayed(f"the winners collected {written(pot - collected)} less than was "
                           "put in, and 888poker's text states no rake: a rake cannot be told "
                           "from a recording error")
    return out


def _amount(text: str) -> Number:
    try:
        return amount(text)
    except (ValueError, ArithmeticError):
        raise Unreadable(f"{text!r} is not an amount") from None


def _cards(text: str) -> list[str]:
    """`[ 4h, Kc, 3s ]` -> ['4h', 'Kc', '3s']."""
    found = _CARDS.search(text)
    return [card.strip() for card in found.group(1).split(",") if card.strip()] if found else []
