"""Winamax cash-game hand histories, read as the PokerStars text they nearly are.

pokerkit has no Winamax parser. Winamax writes PokerStars' layout with other words: the header
(`Winamax Poker - CashGame - HandId: #5343878-96-1383820687 - Holdem no limit (0.25€/0.50€)`),
amounts with the currency after them (`2.50€`), no colon after a player's name in his actions,
`*** PRE-FLOP ***` for the hole cards, and a summary whose total pot is net of the rake. Each
line is rewritten into PokerStars' words, one line for one line (so every hand keeps its line
number), and replay/import_pokerstars.py reads the result; nothing else is guessed. The hands
are judged by the `winamax` profile (engine/site_profiles.py).

Only cash games are read: a Winamax tournament hand is listed as not replayed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from handlog.replay.import_pokerstars import amount, read_rewritten, written
from handlog.replay.phh import PhhEntry, PhhProblem

WINAMAX_PROFILE = "winamax"
HAND_START = re.compile(r"^Winamax Poker - ", re.MULTILINE)
_HEADER = re.compile(r"^Winamax Poker - (?P<kind>.*?) - HandId: #(?P<id>[\d-]+) - "
                     r"(?P<game>.*?) \((?P<blinds>[^)]*)\) - (?P<when>.*)$")
_MONEY = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)([€$£])")
_TABLE = re.compile(r"^Table: (?P<name>'[^']*') (?P<size>\d+-max) \([^)]*\) (?P<rest>Seat #.*)$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[€$£][\d.,]+)\)(?P<after>.*)$")
_TOTAL = re.compile(r"^Total pot (?P<total>[€$£]?[\d.,]+) \| (?:Rake (?P<rake>[€$£]?[\d.,]+)|"
                    r"No rake)")
_VERBS = ("posts ", "folds", "checks", "calls ", "bets ", "raises ", "shows ", "mucks")


def looks_like_winamax(text: str) -> bool:
    return HAND_START.search(text) is not None


def read_winamax(text: str, source: str) -> Iterator[PhhEntry]:
    """Every hand of a Winamax file, as PokerStars' reader reads its rewritten text."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("Winamax Poker - ")]
    if not starts:
        yield PhhProblem(source, None, "error", None,
                         f"{source}: no Winamax hand header ('Winamax Poker - ...') in the file",
                         1)
        return
    rewritten = list(lines)
    read = 0
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        header = _HEADER.match(lines[start].strip())
        if header is None or header.group("kind") != "CashGame" \
                or header.group("game").lower() != "holdem no limit":
            what = header.group("kind") + ", " + header.group("game") if header else "unknown"
            yield PhhProblem(source, header.group("id") if header else None, "unsupported",
                             None, f"{source}:{start + 1}: not a No-Limit Hold'em cash game "
                             f"({what}): only Winamax cash games are read", start + 1)
            for k in range(start, end):
                rewritten[k] = ""
            continue
        rewritten[start:end] = _hand(lines[start:end], header)
        read += 1
    if not read:
        return
    yield from read_rewritten(rewritten, source, WINAMAX_PROFILE)


def _hand(lines: list[str], header: re.Match[str]) -> list[str]:
    """One hand's lines in PokerStars' words, one for one."""
    number = "".join(header.group("id").split("-"))
    if int(number) >= 1 << 63:  # a hand number must fit PHH's integer
        number = "".join(header.group("id").split("-")[1:])
    out = [f"PokerStars Hand #{number}:  Hold'em No Limit ({_money(header.group('blinds'))}) "
           f"- {header.group('when')}"]
    names: list[str] = []
    for raw in lines[1:]:
        line = _money(raw.rstrip())
        if table := _TABLE.match(line):
            line = f"Table {table.group('name')} {table.group('size')} {table.group('rest')}"
        elif seat := _SEAT.match(line):
            names.append(seat.group("name"))
            # A seat with no chips is not dealt in: PokerStars writes it sitting out.
            away = " is sitting out" if amount(seat.group("stack")) == 0 else ""
            line = (f"Seat {seat.group('seat')}: {seat.group('name')} ({seat.group('stack')} in "
                    f"chips){seat.group('after')}{away}")
        elif line.startswith("*** PRE-FLOP ***"):
            line = "*** HOLE CARDS ***"
        elif total := _TOTAL.match(line):
            rake = amount(total.group("rake") or "0")
            pot = amount(total.group("total")) + rake  # PokerStars' total includes the rake
            line = f"Total pot {_symbol(line)}{written(pot)} | Rake {_symbol(line)}{written(rake)}"
        else:
            line = _with_colon(line, names)
        out.append(line)
    return out


def _money(line: str) -> str:
    """`2.50€` -> `€2.50` (PokerStars writes the currency first)."""
    return _MONEY.sub(lambda m: m.group(2) + m.group(1), line)


def _symbol(line: str) -> str:
    found = re.search(r"[€$£]", line)
    return found.group(0) if found else ""


def _with_colon(line: str, names: list[str]) -> str:
    """`nico86190 calls €20.35` -> `nico86190: calls €20.35` (the longest seated name first)."""
    for name in sorted(names, key=len, reverse=True):
        if line.startswith(name + " ") and line[len(name) + 1:].startswith(_VERBS):
            rest = line[len(name) + 1:]
            if rest.startswith("mucks"):
                rest = "mucks hand"
            return f"{name}: {rest}"
    return line

