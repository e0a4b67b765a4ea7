"""Other sites' hand histories, read by pokerkit's maintained parsers and judged by the text.

pokerkit (uoftcprg/pokerkit, `pokerkit.notation`) ships a parser per site; each turns a hand's
text into a pokerkit `HandHistory` (blinds, stacks, actions: the PHH fields). We take those
fields as they are and add only what the parsers leave out and a verdict needs: what the text
says each player collected and the rake it took, so the recorded result the engine is compared
with is the text's own (the stacks after the betting, plus what the text says came back), never
pokerkit's replay of it.

Which site a file is from is told by its hand header; the site also names the house-rule
profile its hands are judged by (engine/site_profiles.py). A few newer headers differ from the
ones pokerkit's parsers were written for (hands of 2009); `adapt` rewrites only those words.

Read here: Full Tilt, iPoker, Ongame, PartyPoker and Absolute. Winamax, GGPoker and 888 have no
parser in pokerkit (0.7.7): their texts are rewritten line for line into PokerStars' words and
read by the PokerStars reader (replay/import_winamax.py, import_ggpoker.py, import_888.py).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from handlog.replay.import_pokerstars import Number, Unsupported, amount, smallest_chip
from handlog.replay.phh import PhhEntry, PhhProblem, hand_from_mapping

SiteName = Literal["fulltilt", "ipoker", "ongame", "partypoker", "absolute"]


def _same(text: str) -> str:
    return text


def _full_tilt_words(text: str) -> str:
    # Full Tilt's later header writes "NL Hold'em" where pokerkit reads "No Limit Hold'em".
    return text.replace(" - NL Hold'em - ", " - No Limit Hold'em - ", 1)


_ACTION_NUMBER = re.compile(r"^<action\b[^>]*\bno=\"(\d+)\"")


def _xml_lines(text: str) -> str:
    """pokerkit's iPoker patterns read one XML element a line, from the line's start, and the
    actions in document order; iPoker numbers its actions (`no`) and may write them out of
    that order within a round, so each round's actions are put in their numbered order."""
    lines = [line.strip() for line in text.split("\n")]
    slots: list[int] = []
    for index, line in enumerate([*lines, "</round>"]):
        if _ACTION_NUMBER.match(line):
            slots.append(index)
        elif line.startswith("</round>") and slots:
            ordered = sorted((lines[i] for i in slots), key=_action_number)
            for slot, action in zip(slots, ordered, strict=True):
                lines[slot] = action
            slots = []
    return _CARDS.sub(lambda m: m.group(1) + " ".join(
        card if card == "X" else card[0].lower() + card[1:].upper()
        for card in m.group(2).split()) + m.group(3), "\n".join(lines))


def _action_number(line: str) -> int:
    found = _ACTION_NUMBER.match(line)
    return int(found.group(1)) if found else 0


# iPoker writes cards suit first in capitals (`H7 SQ C10`); pokerkit's patterns read them suit
# first in lower case, the rank in capitals (`h7 sQ c10`).
_CARDS = re.compile(r"(<cards\b[^>]*>)([^<]*)(</cards>)")


@dataclass(frozen=True)
class Site:
    """One site's file format: how a hand starts, pokerkit's parser for it, and where the text
    says what each player collected and what rake was taken."""

    name: SiteName
    title: str
    header: re.Pattern[str]  # a hand's first line (MULTILINE)
    parser: str  # the class in pokerkit.notation
    collected: re.Pattern[str]  # group seat or player, group amount; one line each
    rake: re.Pattern[str] | None
    profile: str  # the house-rule profile its hands are judged by
    adapt: Callable[[str], str] = _same
    end: re.Pattern[str] | None = None  # where a hand ends, when not at the next header
    # The text's "collected" counts the unmatched part of the top bet (no "uncalled bet
    # returned" line): PartyPoker's "wins", iPoker's `win`.
    collected_has_uncalled: bool = False
    antes_unread: re.Pattern[str] | None = None  # an ante post pokerkit's parser leaves out
    # The file's game, where a hand does not say it (iPoker's session header): (where it is
    # written, what it says for No-Limit Hold'em).
    game: tuple[re.Pattern[str], re.Pattern[str]] | None = None
    # The summary gives each player's stack after the hand (Ongame): read, not worked out.
    summary_has_stacks: bool = False


SITES: tuple[Site, ...] = (
    Site("fulltilt", "Full Tilt Poker",
         re.compile(r"^Full Tilt Poker Game #\d+", re.MULTILINE), "FullTiltPokerParser",
         re.compile(r"^Seat (?P<seat>\d+): .*? collected \(\D?(?P<amount>[\d.,]+)\)"),
         re.compile(r"^Total pot \D?[\d.,]+ \| Rake \D?(?P<rake>[\d.,]+)", re.MULTILINE),
         "fulltilt", _full_tilt_words),
    Site("ipoker", "iPoker network",
         re.compile(r"^[ \t]*<game gamecode=\"", re.MULTILINE), "IPokerNetworkParser",
         re.compile(r"<player\b[^>]*\bseat=\"(?P<seat>\d+)\"[^>]*\bwin=\"\D?(?P<amount>[\d.,]+)\""),
         None, "ipoker", _xml_lines, re.compile(r"</game>"), collected_has_uncalled=True,
         antes_unread=re.compile(r"<action\b[^>]*\btype=\"15\""),
         game=(re.compile(r"<gametype>([^<]*)</gametype>"), re.compile(r"^Holdem NL\b"))),
    Site("ongame", "Ongame network",
         re.compile(r"^\*{5} History for hand \S+ \*{5}", re.MULTILINE), "OngameNetworkParser",
         re.compile(r"^Main pot: .* won by (?P<player>.+?) \(\D?(?P<amount>[\d.,]+)\)$"),
         re.compile(r"^Rake taken: \D?(?P<rake>[\d.,]+)", re.MULTILINE), "ongame",
         summary_has_stacks=True),
    Site("partypoker", "PartyPoker",
         re.compile(r"^(?:Game #\d+ starts\.|\*{5} Hand History for Game \d+ \*{5})",
                    re.MULTILINE), "PartyPokerParser",
         re.compile(r"^(?P<player>.+?) wins \D?(?P<amount>[\d.,]+)"),
         None, "partypoker", collected_has_uncalled=True),
    Site("absolute", "Absolute Poker",
         re.compile(r"^Stage #C?\d+:", re.MULTILINE), "AbsolutePokerParser",
         re.compile(r"^Seat (?P<seat>\d+): .*? collected Total \(\D?(?P<amount>[\d.,]+)\)"),
         re.compile(r"Rake \(\D?(?P<rake>[\d.,]+)\)"), "absolute"),
)
SITE_NAMES: tuple[SiteName, ...] = tuple(site.name for site in SITES)
_BY_NAME = {site.name: site for site in SITES}


def site_for(name: str) -> Site:
    """The site called `name` (KeyError names the ones known)."""
    if name not in _BY_NAME:
        raise KeyError(f"unknown site {name!r}; known: {', '.join(SITE_NAMES)}")
    return _BY_NAME[name]


def detect_site(text: str) -> SiteName | None:
    """The site whose hand header the text holds first, or None."""
    found: list[tuple[int, SiteName]] = []
    for site in SITES:
        match = site.header.search(text)
        if match is not None:
            found.append((match.start(), site.name))
    return min(found)[1] if found else None


def hand_blocks(site: Site, text: str) -> list[tuple[int, str]]:
    """Each hand's first line (1 for the file's first) and its text, in file order."""
    starts = [m.start() for m in site.header.finditer(text)]
    blocks: list[tuple[int, str]] = []
    line, position = 1, 0
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        if site.end is not None and (closing := site.end.search(text, start, end)):
            end = closing.end()
        line += text.count("\n", position, start)
        position = start
        blocks.append((line, text[start:end].strip()))
    return blocks


def read_site(name: SiteName, text: str, source: str) -> Iterator[PhhEntry]:
    """Every hand of a site's file, as a PHH hand or the problem that stops it (each with the
    line its hand starts on)."""
    site = site_for(name)
    blocks = hand_blocks(site, text)
    if not blocks:
        yield PhhProblem(source, None, "error", None,
                         f"{source}: no {site.title} hand header in the file", 1)
        return
    if site.game is not None and (written := site.game[0].search(text)) is not None \
            and site.game[1].search(written.group(1)) is None:
        for line, block in blocks:
            yield PhhProblem(source, _hand_number(block), "unsupported", None,
                             f"{source}:{line}: not No-Limit Hold'em ({written.group(1)})", line)
        return
    from pokerkit import notation  # a large import: only when such a file is read

    parser = getattr(notation, site.parser)()
    for line, block in blocks:
        number = _hand_number(block)
        where = f"{source}:{line} [{number}]"
        try:
            with warnings.catch_warnings():  # pokerkit warns of its own extra fields
                warnings.simplefilter("ignore", UserWarning)
                text = site.adapt(block) + "\n"
                history = parser._parse(text, amount)  # noqa: SLF001
                # The actions as the text gives them, before pokerkit's replayer repairs them.
                written = parser._parse_actions(text, amount, history.players)  # noqa: SLF001
        except ValueError as why:
            if "variant" in str(why):
                yield PhhProblem(source, number, "unsupported", None,
                                 f"{where}: not No-Limit Hold'em (pokerkit's {site.parser} "
                                 "reads no other game of this site)", line)
            else:
                yield PhhProblem(source, number, "error", None,
                                 f"{where}: pokerkit's {site.parser} cannot read it: {why}", line)
            continue
        except Exception as why:  # noqa: BLE001  # one hand never stops the file
            yield PhhProblem(source, number, "error", None,
                             f"{where}: pokerkit's {site.parser} cannot read it: "
                             f"{type(why).__name__}: {why}", line)
            continue
        try:
            mapping = phh_mapping(site, history, block, written)
        except Unsupported as why:
            yield PhhProblem(source, number, "unsupported", None, f"{where}: {why}", line)
            continue
        except (ValueError, ArithmeticError, KeyError, IndexError) as why:
            yield PhhProblem(source, number, "error", None, f"{where}: {why}", line)
            continue
        yield hand_from_mapping(mapping, source, number, line)


def _hand_number(block: str) -> str:
    found = re.search(r"(?:#|gamecode=\"|History for hand |Game )C?([\w-]+)", block)
    return found.group(1) if found else "?"


def phh_mapping(site: Site, history: Any, block: str,
                written: list[str] | None = None) -> dict[str, object]:
    """The PHH fields of pokerkit's HandHistory, with the text's result as finishing stacks;
    `written` (the text's own actions) keeps out a fold or check pokerkit's replayer put in."""
    players: list[str] = list(history.players)
    seats: list[int] = list(history.seats)
    starting: list[Number] = list(history.starting_stacks)
    antes: list[Number] = list(history.antes)
    blinds: list[Number] = list(history.blinds_or_straddles)
    if any(blind < 0 for blind in blinds):
        # pokerkit writes a blind posted out of its place (a newcomer's big blind) as negative.
        raise Unsupported("a player posts a blind out of its place (a newcomer's post): the "
                          "engine plays only the small and the big blind")
    if site.antes_unread is not None and site.antes_unread.search(block):
        raise Unsupported(f"antes are posted, which pokerkit's {site.parser} does not read")
    actions = _mucks(history.actions, len(players))
    if written is not None:
        actions = _unrepaired(actions, written)
    after_betting = stacks_after_betting(starting, antes, blinds, actions,
                                         return_uncalled=not site.collected_has_uncalled)
    finishing = _finishing(site, history, block, players, seats, starting, after_betting)
    values: list[Number] = [*starting, *blinds, *antes]
    fields: dict[str, object] = {
        "variant": "NT",
        "ante_trimming_status": bool(history.ante_trimming_status),
        "antes": antes,
        "blinds_or_straddles": blinds,
        "min_bet": history.min_bet,
        "starting_stacks": starting,
        "actions": actions,
        "players": players,
        "seats": seats,
        "finishing_stacks": finishing,
        "_rules": site.profile,
    }
    if isinstance(history.hand, int):
        fields["hand"] = history.hand
    if getattr(history, "table", None):
        fields["table"] = str(history.table)
    if getattr(history, "seat_count", None) and history.seat_count >= max(seats):
        fields["seat_count"] = history.seat_count
    if any(isinstance(v, Decimal) for v in values):
        fields["_chip_unit"] = Decimal("0.01")  # a cash game: the cent is the smallest chip
    elif (unit := smallest_chip([*values, *finishing])) > 1:
        fields["_chip_unit"] = unit
    return fields


def stacks_after_betting(starting: list[Number], antes: list[Number], blinds: list[Number],
                         actions: list[str], *, return_uncalled: bool = True) -> list[Number]:
    """Each player's stack once the betting is over, from the PHH fields alone: what he put in
    (antes, blinds, calls to the bet, bets and raises to their total, all capped by his stack),
    less what nobody matched on a street when `return_uncalled` (the top bet's excess over the
    next one comes back, as most sites' texts count it)."""
    count = len(starting)
    if count == 2:  # PHH gives heads-up blinds and antes in reverse
        antes, blinds = antes[::-1], blinds[::-1]
    stacks = list(starting)
    street: list[Number] = [0] * count

    def pay(player: int, chips: Number, *, dead: bool = False) -> None:
        chips = min(chips, stacks[player])
        stacks[player] -= chips
        if not dead:
            street[player] += chips

    def settle() -> None:
        ranked = sorted(range(count), key=lambda i: street[i], reverse=True)
        excess = street[ranked[0]] - street[ranked[1]]
        if excess > 0 and return_uncalled:
            stacks[ranked[0]] += excess
        street[:] = [0] * count

    for player in range(count):
        pay(player, antes[player], dead=True)
        pay(player, blinds[player])
    for action in actions:
        parts = action.split()
        if parts[:2] == ["d", "db"]:
            settle()
        elif len(parts) >= 2 and parts[0].startswith("p") and parts[1] in ("cc", "cbr"):
            player = int(parts[0][1:]) - 1
            target = max(street) if parts[1] == "cc" else amount(parts[2])
            pay(player, target - street[player])
    settle()
    return stacks


def _unrepaired(actions: list[str], written: list[str]) -> list[str]:
    """pokerkit's actions without the folds and checks its replayer inserted where the text
    gives none: the replay here is strict, so a missing action is the engine's to report."""
    betting = [a for a in written if _is_bet(a)]
    kept: list[str] = []
    index = 0
    for action in actions:
        if _is_bet(action):
            if index < len(betting) and betting[index] == action:
                index += 1
            elif action.split()[1] in ("f", "cc"):
                continue  # put in by pokerkit, not in the text
        kept.append(action)
    return kept if index == len(betting) else actions


def _is_bet(action: str) -> bool:
    parts = action.split()
    return len(parts) >= 2 and parts[0].startswith("p") and parts[1] in ("f", "cc", "cbr")


def _mucks(actions: list[str], count: int) -> list[str]:
    """pokerkit's actions, with a hand it "shows" as unknown cards (`sm ????`, what the text
    mucks or does not show) written as mucked, except the last live hand's, which wins
    unseen (TDA 17-B: it is not mucked)."""
    live = set(range(count))
    kept: list[str] = []
    for raw in actions:
        action = raw.split(" #", 1)[0].strip()
        parts = action.split()
        if len(parts) >= 2 and parts[0].startswith("p") and parts[1] in ("f", "sm"):
            player = int(parts[0][1:]) - 1
            if action.endswith(" sm ????"):
                if len(live) <= 1:
                    continue
                action = action[:-5]
            if parts[1] == "f" or action.endswith(" sm"):
                live.discard(player)
        kept.append(action)
    return kept


def _finishing(site: Site, history: Any, block: str, players: list[str], seats: list[int],
               starting: list[Number], after_betting: list[Number]) -> list[Number]:
    """Each player's stack after the hand by the text: what the betting left him plus what the
    text says he collected, with the rake the text gives back to a lone winner (the engine
    takes none). Ongame's summary gives the stacks themselves."""
    if site.summary_has_stacks and getattr(history, "finishing_stacks", None):
        text_stacks: list[Number] = list(history.finishing_stacks)
        won = [f - a for f, a in zip(text_stacks, after_betting, strict=True)]
        return _rake_back(site, block, text_stacks, won, starting, after_betting)
    collected: list[Number] = [0] * len(players)
    by_seat = {seat: index for index, seat in enumerate(seats)}
    by_name = {name: index for index, name in enumerate(players)}
    for line in site.adapt(block).split("\n"):
        match = site.collected.search(line.rstrip())
        if match is None:
            continue
        groups = match.groupdict()
        index = (by_seat.get(int(groups["seat"])) if groups.get("seat")
                 else by_name.get(groups.get("player") or ""))
        if index is not None:
            collected[index] += amount(match.group("amount"))
    stacks = [a + c for a, c in zip(after_betting, collected, strict=True)]
    return _rake_back(site, block, stacks, collected, starting, after_betting)


def _rake_back(site: Site, block: str, stacks: list[Number], won: list[Number],
               starting: list[Number], after_betting: list[Number]) -> list[Number]:
    put_in = sum((s - a for s, a in zip(starting, after_betting, strict=True)), Decimal(0))
    rake = put_in - sum(won, Decimal(0))
    if not rake:
        return stacks
    if site.rake is None and rake > 0:
        raise Unsupported(f"the winners collected {rake} less than was put in, and "
                          f"{site.title}'s text states no rake: a rake cannot be told from a "
                          "recording error")
    given = site.rake.search(block) if site.rake is not None else None
    if given is None or amount(given.group("rake")) != rake:
        return stacks  # the text does not balance by itself: the verdict says by how much
    winners = [i for i, w in enumerate(won) if w > 0]
    if len(winners) != 1:
        raise Unsupported(f"rake of {rake} taken from a pot split {len(winners)} ways: the "
                          "text gives each share net of a rake it does not divide")
    stacks = list(stacks)
    stacks[winners[0]] += rake
    return stacks
