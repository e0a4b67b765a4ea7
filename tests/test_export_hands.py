"""Standard hand histories of recorded hands: PHH, PokerStars text and Open Hand History.

The checks are made by readers that are not the writer: our strict PHH verifier (the engine,
`handlog phh verify`) and PokerKit's PHH replayer for the PHH export; for PokerStars text a
small tracker-style parser, first proved on the public PokerStars samples, that redoes the pot
arithmetic; for OHH a reader that rebuilds every pot from the actions, proved on the
specification's own examples.
"""

from __future__ import annotations

import collections
import json
import re
import tomllib
import uuid
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from handlog.engine import commands as hc
from handlog.engine.cards import parse_cards
from handlog.engine.events import RaiseMade
from handlog.engine.table import Level
from handlog.engine.table_commands import AmendEvent, OpenTable, PlaceButton, SeatPlayer, StartHand
from handlog.recorder.cli import cli
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.tournament_service import Tournaments
from handlog.replay.export_hands import (
    ExportOptions,
    HandsExport,
    RecordedHand,
    load_hands,
    odd_chip_split,
)
from handlog.replay.export_ohh import write_ohh
from handlog.replay.export_phh import dumps_hand, phh_fields, write_phh
from handlog.replay.export_pokerstars import hand_number, write_pokerstars
from handlog.replay.phh_verify import verify_files
from handlog.schema.store import open_store

SAMPLES = Path("/work/shared/data/hand-histories")
DEALER = Actor("dealer-7", "dealer", "tablet-7")
DIRECTOR = Actor("Tina", "director", "floor-tablet")
CASH = "table-audit-1"


# ---------------------------------------------------------------------------------------------
# The log the tests read: a demo tournament plus a table with the irregular cases


def submit(recorder: Recorder, command: object, actor: Actor = DEALER,
           stream: str = CASH) -> int:
    fold = recorder.table(stream)
    recorded = recorder.submit(stream, command, fold.version, uuid.uuid4(),  # type: ignore[arg-type]
                               actor)
    return recorded.version


def play_irregular_table(recorder: Recorder) -> None:
    """Three players, no tournament. Hand 1: the dealer saw one player's cards, a raise keyed
    wrong and amended by the director, a short all-in (main and side pot), a show and a hand
    mucked unseen (killed by the director).
    Hand 2: voided, then re-dealt (the same number) heads-up: a split pot. Hand 3: cut off
    in progress."""
    submit(recorder, OpenTable("audit", 9, "tda"))
    for seat, stack in zip((1, 2, 3), (1000, 1000, 300), strict=True):
        submit(recorder, SeatPlayer(seat, f"P{seat}", stack))
    submit(recorder, PlaceButton(1))
    # Button P1 (position 2), small blind P2 (position 0), big blind P3 (position 1, short).
    submit(recorder, StartHand(Level(10, 20)))
    submit(recorder, hc.DealHole(0, parse_cards("AsAh")))
    raised = submit(recorder, hc.BetRaise(2, 60))
    submit(recorder, AmendEvent(raised, RaiseMade(2, 100), "the dealer keyed 60; 100 was bet",
                                "TDA 2024 Rule 1"), DIRECTOR)
    submit(recorder, hc.CheckCall(0))
    submit(recorder, hc.BetRaise(1, 300))  # all-in
    submit(recorder, hc.CheckCall(2))
    submit(recorder, hc.CheckCall(0))
    submit(recorder, hc.DealBoard(parse_cards("2c7d9h")))
    submit(recorder, hc.BetRaise(0, 200))  # a side pot between the two who have chips
    submit(recorder, hc.CheckCall(2))
    for cards in ("Js", "3d"):
        submit(recorder, hc.DealBoard(parse_cards(cards)))
        submit(recorder, hc.CheckCall(0))
        submit(recorder, hc.CheckCall(2))
    submit(recorder, hc.ShowCards(0, parse_cards("AsAh")))
    # TDA 16 allows no muck here (P3 is all-in): P1 threw his cards away unseen, and the
    # director ruled his hand dead.
    submit(recorder, hc.KillHand(2, "cards mucked unseen at an all-in showdown", "TDA 16"),
           DIRECTOR)
    submit(recorder, hc.ShowCards(1, parse_cards("QsQh")))
    submit(recorder, hc.AwardPots())
    # Hand 2: a card with a different back turns up: the hand is void, the chips go back.
    submit(recorder, StartHand(Level(10, 20), 0, True))
    submit(recorder, hc.CheckCall(1))
    submit(recorder, hc.VoidHand("a card with a different back"), DIRECTOR)
    # Hand 2 again, re-dealt heads-up: both play the board's straight.
    submit(recorder, StartHand(Level(10, 20), 0, True))
    submit(recorder, hc.CheckCall(1))
    submit(recorder, hc.CheckCall(0))
    submit(recorder, hc.DealBoard(parse_cards("TsJdQc")))
    submit(recorder, hc.CheckCall(0))
    submit(recorder, hc.BetRaise(1, 30))
    submit(recorder, hc.CheckCall(0))
    for card in ("Kh", "Ad"):
        submit(recorder, hc.DealBoard(parse_cards(card)))
        submit(recorder, hc.CheckCall(0))
        submit(recorder, hc.CheckCall(1))
    submit(recorder, hc.ShowCards(1, parse_cards("2c3c")))
    submit(recorder, hc.ShowCards(0, parse_cards("4d5d")))
    submit(recorder, hc.AwardPots())
    # Then a hand cut off after its first action (the tablet died): in progress, not an error.
    submit(recorder, StartHand(Level(10, 20), 0, True))
    submit(recorder, hc.BetRaise(1, 60))


@dataclass
class LogUnderTest:
    url: str
    tournament: str
    cash: str = CASH


def build_log(folder: Path) -> LogUnderTest:
    """A finished demo tournament (9 players, seed 3: dealer undos, a misdeal, rulings) with a
    penalty added, and the irregular table above."""
    url = f"sqlite:///{folder / 'audit.db'}"
    with open_store(url, upgrade=True) as store:
        recorder = Recorder(store)
        summary = run_demo(recorder, players=9, tables=1, seed=3, penalty=False)
        Tournaments(recorder).penalty(summary.tournament, "p2", "warning", "TDA 2024 Rule 71",
                                      "slow-rolled at showdown", DIRECTOR)
        play_irregular_table(recorder)
    return LogUnderTest(url, summary.tournament)


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> LogUnderTest:
    return build_log(tmp_path_factory.mktemp("export"))


@pytest.fixture(scope="module")
def hands(log: LogUnderTest) -> HandsExport:
    with open_store(log.url) as store:
        return load_hands(store)


def complete(hands: HandsExport) -> dict[int, RecordedHand]:
    """Exported hands by their hand number in the PokerStars and OHH files."""
    return {hand_number(h): h for h in hands.hands() if h.exportable}


def test_every_complete_hand_is_exported_and_the_rest_noted(hands: HandsExport) -> None:
    """Misdealt and voided hands are left out, each with a note naming it; the others are in."""
    statuses = collections.Counter(h.status for h in hands.hands())
    assert statuses["misdealt"] >= 1 and statuses["voided"] == 1
    assert statuses["in progress"] == 1
    for write in (write_phh, write_pokerstars, write_ohh):
        _text, count, notes = write(hands)
        assert count == statuses["complete"]
        assert len(notes) == statuses["misdealt"] + statuses["voided"] + 1
        assert any("misdealt" in n for n in notes) and any("voided" in n for n in notes)
        assert any("hand 3 " in n and "in progress" in n for n in notes)
    text, _count, _notes = write_phh(hands)
    assert "# table-audit-1 hand 2 " in text and "not exported: the hand is voided" in text


# ---------------------------------------------------------------------------------------------
# PHH


def test_phh_export_re_verifies_with_handlog_phh_verify(log: LogUnderTest, hands: HandsExport,
                                                        tmp_path: Path) -> None:
    """`handlog phh verify` replays every exported hand strictly and matches its
    finishing_stacks, with the house rules and chip unit taken from `_rules`/`_chip_unit`."""
    out = tmp_path / "hands.phhs"
    result = CliRunner().invoke(cli, ["export", "--db", log.url, "--format", "phh",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "not exported" in result.output  # the notes (standard error is mixed in here)
    report = verify_files([out])
    expected = len(complete(hands))
    assert len(report.results) == expected > 60
    assert report.counts["match"] == expected, [r for r in report.results
                                                if r.status != "match"][:3]
    # P1's hand, mucked unseen at an all-in showdown and ruled dead, is a `pN sm` named in
    # `_dead_hands` (TDA 16 refuses a plain muck there).
    assert "_dead_hands = [" in out.read_text()
    verified = CliRunner().invoke(cli, ["phh", "verify", str(out)])
    assert verified.exit_code == 0, verified.output
    assert re.search(rf"matched\s+{expected}\b", verified.output)


def test_phh_fields_follow_the_specification(hands: HandsExport) -> None:
    """Heads-up blinds reversed, street-total raises, unknown hole cards, shows and mucks,
    user fields for the house rules and chip unit."""
    cash = [h for h in hands.hands() if h.stream == CASH and h.exportable]
    first, heads_up = (phh_fields(h) for h in cash)
    assert first["blinds_or_straddles"] == [10, 20, 0]
    # What the table saw: P2's cards were shown, P3's never were (killed unseen).
    assert first["actions"][:3] == ["d dh p1 AsAh", "d dh p2 QsQh", "d dh p3 ????"]
    assert first["_cards"] == "shown"
    assert "p3 cbr 100" in first["actions"]  # the amended raise, as it counts now
    assert "p3 cbr 60" not in first["actions"]
    assert first["actions"][-3:] == ["p1 sm AsAh", "p3 sm", "p2 sm QsQh"]
    assert first["_rules"] == "tda" and first["_chip_unit"] == 1
    assert first["players"] == ["P2", "P3", "P1"] and first["seats"] == [2, 3, 1]
    # Heads-up: p1 is the big blind, and PHH reverse-assigns the blinds.
    assert heads_up["blinds_or_straddles"] == [10, 20]
    assert sorted(heads_up["starting_stacks"]) == [500, 1800]
    assert heads_up["finishing_stacks"] == heads_up["starting_stacks"]  # the split pot
    text, _count, _notes = write_phh(hands)
    document = tomllib.loads(text)
    assert all(table["variant"] == "NT" for table in document.values())


def _pokerkit_check(fields: dict[str, Any], text: str, hand: RecordedHand) -> str:
    """'' when PokerKit replays `text` to the same finishing stacks without inserting anything
    that moves chips or changes who is in the hand, else what differs."""
    pokerkit = pytest.importorskip("pokerkit")
    state = list(pokerkit.HandHistory.loads(text))[-1]
    if list(state.stacks) != fields["finishing_stacks"]:
        return f"stacks {list(state.stacks)} != {fields['finishing_stacks']}"
    operations = collections.Counter(type(o).__name__ for o in state.operations)
    codes = collections.Counter(a.split()[1] for a in fields["actions"])
    for operation, code in (("Folding", "f"), ("CompletionBettingOrRaisingTo", "cbr"),
                            ("HoleCardsShowingOrMucking", "sm"), ("BoardDealing", "db"),
                            ("HoleDealing", "dh")):
        if operations[operation] != codes[code]:
            return f"PokerKit inserted {operation} ({operations[operation]} for {codes[code]})"
    # Checks PokerKit adds (it gives a player facing no bet an action we skip) move no chips.
    called = sum(o.amount for o in state.operations if type(o).__name__ == "CheckingOrCalling")
    ours = sum(s.event.amount for s in hand.steps if type(s.event).__name__ == "PlayerCalled")
    if called != ours:
        return f"PokerKit's calls moved {called}, ours {ours}"
    return ""


def test_phh_export_replays_in_pokerkit_to_the_same_stacks(hands: HandsExport) -> None:
    """PokerKit (an independent engine) reads each exported hand and ends with our finishing
    stacks, for every hand where its rules are ours: no pot split with an odd chip (it splits
    in 1s, we in the smallest chip in play) and no forced bet posted all-in short (it posts
    antes before blinds and lets the next player call a short big blind)."""
    compared = 0
    differences = []
    agreeing = [h for h in complete(hands).values()
                if not odd_chip_split(h) and not h.short_forced_bet()]
    for hand in agreeing:
        fields = phh_fields(hand)
        text = dumps_hand(fields)
        problem = _pokerkit_check(fields, text, hand)
        compared += 1
        if problem:
            differences.append((hand.label(), problem))
    assert differences == []
    assert compared >= 0.9 * len(complete(hands)) and compared > 60


# ---------------------------------------------------------------------------------------------
# PokerStars text: a tracker-style reader, proved on PokerStars' own files first


_HEADER = re.compile(r"PokerStars (?:Hand|Game) #(\d+): +(?:Tournament #(\d+), .*)?Hold'em No "
                     r"Limit (?:- Level ([IVXLCDM]+) )?\((\d+)/(\d+)\) - ")
_SEAT = re.compile(r"Seat (\d+): (.+) \((\d+) in chips(?:, .*)?\)(?: is sitting out)?$")
_POST = re.compile(r"(.+): posts (the ante|small blind|big blind|straddle) (\d+)"
                   r"( and is all-in)?$")
_ACTION = re.compile(r"(.+): (folds|checks|calls|bets|raises)(?: (\d+))?(?: to (\d+))?"
                     r"( and is all-in)?$")
_UNCALLED = re.compile(r"Uncalled bet \((\d+)\) returned to (.+)$")
_COLLECTED = re.compile(r"(.+) collected (\d+) from (pot|main pot|side pot(?:-\d+)?)$")
_TOTAL = re.compile(r"Total pot (\d+)((?: (?:Main|Side) pot(?:-\d+)? \d+\.)*) \| Rake (\d+)")
_STREET = re.compile(r"\*\*\* (FLOP|TURN|RIVER) \*\*\*")


@dataclass
class ParsedHand:
    number: int
    tournament: int | None
    level: str | None
    blinds: tuple[int, int]
    stacks: dict[str, int]
    put_in: dict[str, int]
    collected: dict[str, int]
    pots: dict[str, int]
    total: int
    listed_pots: list[int]


def parse_pokerstars(text: str) -> list[ParsedHand]:
    """Hands as a tracker reads them, keeping only what the pot arithmetic needs."""
    hands = []
    for block in re.split(r"\n\s*\n\s*\n+", text.replace("\r\n", "\n").lstrip("\ufeff")):
        lines = [line.rstrip() for line in block.strip().split("\n")]
        if not lines or not lines[0]:
            continue
        header = _HEADER.match(lines[0])
        assert header, lines[0]
        stacks: dict[str, int] = {}
        put_in: collections.Counter[str] = collections.Counter()
        street: collections.Counter[str] = collections.Counter()
        collected: collections.Counter[str] = collections.Counter()
        pots: collections.Counter[str] = collections.Counter()
        total = -1
        listed: list[int] = []
        summary = False
        for line in lines[2:]:
            if line.startswith("*** SUMMARY"):
                summary = True
            if summary:
                match = _TOTAL.match(line)
                if match:
                    total = int(match.group(1))
                    listed = [int(x) for x in re.findall(r"(\d+)\.", match.group(2))]
                continue
            if (match := _SEAT.match(line)) and not put_in:
                stacks[match.group(2)] = int(match.group(3))
            elif match := _POST.match(line):
                name, kind, amount = match.group(1), match.group(2), int(match.group(3))
                put_in[name] += amount
                if kind != "the ante":
                    street[name] += amount
            elif _STREET.match(line):
                street.clear()
            elif match := _UNCALLED.match(line):
                put_in[match.group(2)] -= int(match.group(1))
            elif match := _COLLECTED.match(line):
                collected[match.group(1)] += int(match.group(2))
                pots[match.group(3)] += int(match.group(2))
            elif match := _ACTION.match(line):
                name, verb = match.group(1), match.group(2)
                if verb in ("calls", "bets"):
                    amount = int(match.group(3))
                    put_in[name] += amount
                    street[name] += amount
                elif verb == "raises":
                    to = int(match.group(4))
                    assert to - int(match.group(3)) == max(street.values(), default=0), line
                    put_in[name] += to - street[name]
                    street[name] = to
        tournament = int(header.group(2)) if header.group(2) else None
        hands.append(ParsedHand(int(header.group(1)), tournament, header.group(3),
                                (int(header.group(4)), int(header.group(5))), stacks,
                                dict(put_in), dict(collected), dict(pots), total, listed))
    return hands


def check_pot_arithmetic(hand: ParsedHand) -> None:
    """What trackers check: the collected chips are the total pot, which is what went in."""
    assert hand.total >= 0, f"hand {hand.number}: no Total pot line"
    assert sum(hand.collected.values()) == hand.total, hand
    assert sum(hand.put_in.values()) == hand.total, hand
    if hand.listed_pots:
        assert sum(hand.listed_pots) == hand.total, hand
    assert set(hand.put_in) <= set(hand.stacks), hand
    for name, chips in hand.put_in.items():
        assert 0 <= chips <= hand.stacks[name], (name, hand)


@pytest.mark.parametrize("sample", sorted((SAMPLES / "pokerstars").glob("*.txt")),
                         ids=lambda p: p.name)
def test_the_pokerstars_reader_agrees_with_pokerstars_samples(sample: Path) -> None:
    """The reader the next test uses gets every real PokerStars sample's pot right."""
    if not sample.exists():
        pytest.skip("samples not available")
    raw = sample.read_bytes()
    text = raw.decode("utf-8-sig") if raw.startswith(b"\xef\xbb\xbf") else raw.decode("cp1252")
    parsed = parse_pokerstars(text)
    assert parsed
    for hand in parsed:
        check_pot_arithmetic(hand)


def test_pokerstars_export_pot_arithmetic_adds_up(log: LogUnderTest, hands: HandsExport,
                                                  tmp_path: Path) -> None:
    """Per hand: collected = total pot = what went in; each player's stack change is what he
    collected less what he put in, which is the engine's finishing stack."""
    out = tmp_path / "hands.txt"
    result = CliRunner().invoke(cli, ["export", "--db", log.url, "--format", "pokerstars",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    parsed = parse_pokerstars(text)
    by_number = complete(hands)
    assert sorted(h.number for h in parsed) == sorted(by_number)
    side_pots = 0
    for hand in parsed:
        check_pot_arithmetic(hand)
        recorded = by_number[hand.number]
        assert hand.blinds == (recorded.small_blind, recorded.big_blind)
        finishing = dict(zip(recorded.names, recorded.stacks_end, strict=True))
        for name, stack in hand.stacks.items():
            change = hand.collected.get(name, 0) - hand.put_in.get(name, 0)
            assert stack + change == finishing[name], (hand.number, name)
        side_pots += len(hand.listed_pots) > 1
    assert side_pots >= 1
    assert "Uncalled bet (" in text and "*** SHOW DOWN ***" in text
    assert "(0/" not in text  # a dead small blind still shows the level's small blind
    assert "finished the tournament in 2nd place" in text
    assert "wins the tournament" in text


def test_pokerstars_hand_layout(hands: HandsExport) -> None:
    """The first irregular-table hand, line by line where trackers look."""
    text, _count, _notes = write_pokerstars(hands)
    block = next(b for b in text.split("\n\n\n") if "Table 'audit'" in b)
    lines = block.split("\n")
    assert re.match(r"PokerStars Hand #\d{12}:  Hold'em No Limit \(10/20\) - "
                    r"\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d UTC "
                    r"\[\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d ET\]$", lines[0])
    assert lines[1] == "Table 'audit' 9-max (Play Money) Seat #1 is the button"
    assert lines[2:5] == ["Seat 1: P1 (1000 in chips)", "Seat 2: P2 (1000 in chips)",
                          "Seat 3: P3 (300 in chips)"]
    assert lines[5:8] == ["P2: posts small blind 10", "P3: posts big blind 20",
                          "*** HOLE CARDS ***"]
    assert not any(line.startswith("Dealt to") for line in lines)  # the observer's view
    assert "P1: raises 80 to 100" in lines
    assert "P3: raises 200 to 300 and is all-in" in lines
    assert "*** RIVER *** [2c 7d 9h Js] [3d]" in lines
    assert "P3: shows [Qs Qh] (pair of queens)" in lines and "P1: mucks hand" in lines
    assert "P2: bets 200" in lines and "P1: calls 200" in lines
    assert lines.index("P2 collected 400 from side pot") < lines.index(
        "P2 collected 900 from main pot")
    assert "Total pot 1300 Main pot 900. Side pot 400. | Rake 0" in lines
    assert "Seat 1: P1 (button) mucked" in lines


# ---------------------------------------------------------------------------------------------
# Open Hand History: a reader that rebuilds the pots from the actions


def ohh_objects(text: str) -> list[dict[str, Any]]:
    objects = [json.loads(chunk, parse_float=Decimal) for chunk in text.split("\n\n")
               if chunk.strip()]
    assert all(set(o) == {"ohh"} for o in objects)
    return [o["ohh"] for o in objects]


def ohh_pot_check(hand: dict[str, Any]) -> dict[int, Decimal]:
    """The chips in play as an OHH reader sees them: every action's amount, less the top
    street bet above the next one (returned uncalled); equal to the pots and to what they
    pay out. Returns each player's net result."""
    moved: dict[int, Decimal] = collections.defaultdict(Decimal)
    for round_ in hand["rounds"]:
        street: dict[int, Decimal] = collections.defaultdict(Decimal)
        for action in round_["actions"]:
            amount = Decimal(action["amount"])
            moved[action["player_id"]] += amount
            if action["action"] != "Post Ante":
                street[action["player_id"]] += amount
        if len(street) >= 1:
            ranked = sorted(street.items(), key=lambda kv: kv[1], reverse=True)
            second = ranked[1][1] if len(ranked) > 1 else Decimal(0)
            if ranked[0][1] > second:
                moved[ranked[0][0]] -= ranked[0][1] - second
    pots = sum((Decimal(p["amount"]) for p in hand["pots"]), Decimal(0))
    wins = sum((Decimal(w["win_amount"]) + Decimal(w.get("contributed_rake", 0))
                for p in hand["pots"] for w in p["player_wins"]), Decimal(0))
    rake = sum((Decimal(p.get("rake", 0)) for p in hand["pots"]), Decimal(0))
    assert sum(moved.values(), Decimal(0)) in (pots, pots + rake), hand.get("game_number")
    assert wins in (pots, pots + rake) or wins + rake == pots, hand.get("game_number")
    net = {k: -v for k, v in moved.items()}
    for pot in hand["pots"]:
        for win in pot["player_wins"]:
            net[win["player_id"]] = net.get(win["player_id"], Decimal(0)) + Decimal(
                win["win_amount"])
    return net


@pytest.mark.parametrize("sample", sorted((SAMPLES / "ohh").glob("*.ohh")),
                         ids=lambda p: p.name)
def test_the_ohh_reader_agrees_with_the_specification_examples(sample: Path) -> None:
    for hand in ohh_objects(sample.read_text(encoding="utf-8")):
        ohh_pot_check(hand)


def test_ohh_export_parses_and_every_pot_adds_up(log: LogUnderTest, hands: HandsExport,
                                                 tmp_path: Path) -> None:
    """Every object is JSON; per hand the action amounts (less uncalled chips) make the pots,
    and starting stack + net result is the engine's finishing stack."""
    out = tmp_path / "hands.ohh"
    result = CliRunner().invoke(cli, ["export", "--db", log.url, "--format", "ohh",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    objects = ohh_objects(out.read_text(encoding="utf-8"))
    by_number = complete(hands)
    assert sorted(int(o["game_number"]) for o in objects) == sorted(by_number)
    actions = set()
    for hand in objects:
        assert hand["spec_version"] and hand["tournament"] in (True, False)
        net = ohh_pot_check(hand)
        recorded = by_number[int(hand["game_number"])]
        finishing = dict(zip(recorded.seats, recorded.stacks_end, strict=True))
        for player in hand["players"]:
            assert player["starting_stack"] + net.get(player["id"], 0) == \
                finishing[player["seat"]]
        actions |= {a["action"] for r in hand["rounds"] for a in r["actions"]}
    assert {"Post SB", "Post BB", "Post Ante", "Fold", "Check", "Call", "Bet", "Raise",
            "Shows Cards", "Mucks Cards"} <= actions
    assert "Dealt Cards" not in actions  # the table's view: cards only as shown


def test_ohh_amounts_are_the_chips_moved(hands: HandsExport) -> None:
    text, _count, _notes = write_ohh(hands, ExportOptions(hero="P2"))
    hand = next(o for o in ohh_objects(text) if o["table_name"] == "audit")
    assert hand["tournament"] is False and "tournament_info" not in hand
    preflop = hand["rounds"][0]["actions"]
    by_id = {p["id"]: p["name"] for p in hand["players"]}
    described = [(by_id[a["player_id"]], a["action"], a["amount"]) for a in preflop]
    assert described == [("P2", "Post SB", 10), ("P3", "Post BB", 20),
                         ("P2", "Dealt Cards", 0), ("P1", "Raise", 100), ("P2", "Call", 90),
                         ("P3", "Raise", 280), ("P1", "Call", 200), ("P2", "Call", 200)]
    assert [p["amount"] for p in hand["pots"]] == [900, 400]


def test_export_of_one_table_and_to_standard_output(log: LogUnderTest) -> None:
    result = CliRunner().invoke(cli, ["export", "--db", log.url, "--format", "phh",
                                      "--table", CASH, "--out", "-"])
    assert result.exit_code == 0, result.output
    assert "[1]\n" in result.output and "[2]\n" in result.output
    assert "[3]\n" not in result.output
    missing = CliRunner().invoke(cli, ["export", "--db", log.url, "--format", "ohh",
                                       "--table", "table-nope", "--out", "-"])
    assert missing.exit_code != 0 and "no table stream" in missing.output
