"""GGPoker hand histories (tournament and cash), read as the PokerStars text they nearly are.

pokerkit has no GGPoker parser. GGPoker writes PokerStars' layout and words but for a few: the
header (`Poker Hand #TM5492660659: Tournament #258197843, $15 Bounty Hunters ... Hold'em No
Limit - Level19(1,750/3,500) - 2026/01/22 03:14:09`, `Poker Hand #RC3892132122: Hold'em No
Limit ($0.02/$0.05) - ...` for cash), and the summary's total, which names each deduction from
the pot (`Total pot $1.8 | Rake $0.08 | Jackpot $0.07 | Bingo $0 | Fortune $0 | Tax $0`): all
of them are taken from the pot before the winner is paid, so together they are PokerStars'
rake. GGPoker's "Cash Drop to Pot : total $0.5" (money the site adds to a pot) is PokerStars'
dead money carried into the pot, and a hand shown twice (GGPoker repeats the shows at the
showdown) is shown once. Each line is rewritten into PokerStars' words, one line for one line
(so every hand keeps its line number), and replay/import_pokerstars.py reads the result. The
hands are judged by the `ggpoker` profile (engine/site_profiles.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from handlog.replay.import_pokerstars import amount, read_rewritten, written
from handlog.replay.phh import PhhEntry, PhhProblem

GGPOKER_PROFILE = "ggpoker"
HAND_START = re.compile(r"^Poker Hand #[A-Z]{2}\d+: ", re.MULTILINE)
_HEADER = re.compile(r"^Poker Hand #(?P<kind>[A-Z]{2})(?P<number>\d+): (?P<rest>.*)$")
_LEVEL = re.compile(r" - Level(?P<level>\d{1,3})\s*\(")
_TOTAL = re.compile(r"^Total pot (?P<total>[$€£]?[\d.,]+)(?P<cuts>(?: \| \w+ [$€£]?[\d.,]+)*)"
                    r"\s*$")
_CUT = re.compile(r" \| (?P<what>\w+) (?P<amount>[$€£]?[\d.,]+)")
_SHOWS = re.compile(r"^[^:]+: shows \[")
_CASH_DROP = re.compile(r"^Cash Drop to Pot : total [$€£]?(?P<amount>[\d.,]+)\s*$")


def looks_like_ggpoker(text: str) -> bool:
    return HAND_START.search(text) is not None


def read_ggpoker(text: str, source: str) -> Iterator[PhhEntry]:
    """Every hand of a GGPoker file, as PokerStars' reader reads its rewritten text."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if HAND_START.match(line)]
    if not starts:
        yield PhhProblem(source, None, "error", None,
                         f"{source}: no GGPoker hand header ('Poker Hand #...') in the file", 1)
        return
    rewritten = list(lines)
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        try:
            rewritten[start:end] = _hand(lines[start:end])
        except (ValueError, ArithmeticError) as why:  # an amount that is no number
            found = _HEADER.match(lines[start].rstrip())
            number = found.group("number") if found else None
            yield PhhProblem(source, number, "error", None,
                             f"{source}:{start + 1} [{number}]: {why}", start + 1)
            rewritten[start:end] = [""] * (end - start)
    yield from read_rewritten(rewritten, source, GGPOKER_PROFILE)


def _hand(lines: list[str]) -> list[str]:
    """One hand's lines in PokerStars' words, one for one."""
    header = _HEADER.match(lines[0].rstrip())
    if header is None:  # not reached: the hand starts at a header
        return lines
    rest = _LEVEL.sub(lambda m: f" - Level {_roman(int(m.group('level')))} (",
                      header.group("rest"), count=1)
    out = [f"PokerStars Hand #{header.group('number')}: {rest}"]
    shown: set[str] = set()
    for raw in lines[1:]:
        line = raw.rstrip()
        if drop := _CASH_DROP.match(line):
            line = f"Dead money {drop.group('amount')} carried into the pot"
        elif _SHOWS.match(line):
            who = line.split(": shows [", 1)[0]
            line = "" if who in shown else line  # the same hand shown again: once
            shown.add(who)
        elif total := _TOTAL.match(line):
            symbol = re.match(r"[$€£]?", total.group("total"))
            try:
                cuts = sum((amount(c.group("amount"))
                            for c in _CUT.finditer(total.group("cuts"))), start=amount("0"))
            except (ValueError, ArithmeticError):
                raise ValueError(f"{line!r}: an amount of the total is no number") from None
            line = (f"Total pot {total.group('total')} | Rake "
                    f"{symbol.group(0) if symbol else ''}{written(cuts)}")
        out.append(line)
    return out


def _roman(number: int) -> str:
    """19 -> `XIX` (a level as PokerStars writes it)."""
    letters = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
               (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    text = ""
    for value, letter in letters:
        while number >= value:
            text += letter
            number -= value
    return text
