"""handlog reads what it writes (issue 27): a PokerStars hand whose pot was split with an odd
chip larger than 1 matches, the smallest chip read from the amounts the text gives; a hand
killed out of turn is in every format, as the fold in turn a reader replays."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from handlog.recorder.cli import cli
from handlog.replay.import_ohh import objects
from handlog.replay.import_pokerstars import smallest_chip

# A 1,500 pot shared by two equal hands at a table whose smallest chip is 100: 800 and 700
# (TDA 20: the odd chip to the first seat left of the button).
ODD_CHIP_SPLIT = """\
PokerStars Hand #131092941401: Tournament #7999081905, $20.00+$0.00 USD Hold'em No Limit - \
Level V (200/400) - 2026/12/02 05:43:43 ET
Table '7999081905 2' 9-max Seat #7 is the button
Seat 1: Bea (900 in chips)
Seat 3: Uma (57700 in chips)
Seat 5: Rex (48600 in chips)
Seat 7: Quin (3100 in chips)
Seat 8: Hal (24700 in chips)
Hal: posts the ante 100
Bea: posts the ante 100
Uma: posts the ante 100
Rex: posts the ante 100
Quin: posts the ante 100
Hal: posts small blind 200
Bea: posts big blind 400
*** HOLE CARDS ***
Dealt to Bea [7s Qc]
Dealt to Rex [Qd 7d]
Uma: folds
Rex: calls 400
Quin: folds
Hal: folds
Bea: checks
*** FLOP *** [Ks 4h 2s]
Bea: checks
Rex: checks
*** TURN *** [Ks 4h 2s] [Jd]
Bea: checks
Rex: checks
*** RIVER *** [Ks 4h 2s Jd] [Js]
Bea: checks
Rex: checks
*** SHOW DOWN ***
Bea: shows [7s Qc] (pair of jacks)
Rex: shows [Qd 7d] (pair of jacks)
Bea collected 800 from pot
Rex collected 700 from pot
*** SUMMARY ***
Total pot 1500 | Rake 0
Board [Ks 4h 2s Jd Js]
"""


def test_tda_20_odd_chip_split_in_the_tables_smallest_chip_matches(tmp_path: Path) -> None:
    path = tmp_path / "odd.txt"
    path.write_text(ODD_CHIP_SPLIT, encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(path), "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 0, report["results"]
    # From p1, the first seat left of the button: Hal, Bea, Uma, Rex, Quin.
    assert report["results"][0]["finishing_stacks"] == [24400, 1200, 57600, 48800, 3000]


def test_the_same_split_in_chips_of_one_is_a_mismatch(tmp_path: Path) -> None:
    """The chip is read from the text, not assumed: with a 25 among the stacks, 800/700 is
    not the split (750 each) and is reported."""
    path = tmp_path / "odd.txt"
    path.write_text(ODD_CHIP_SPLIT.replace("Seat 3: Uma (57700", "Seat 3: Uma (57725"),
                    encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(path), "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["mismatched"] == 1


def test_smallest_chip_is_the_greatest_common_divisor_of_the_amounts() -> None:
    assert smallest_chip([1500, 800, 700, 400]) == 100
    assert smallest_chip([750, 750, 400]) == 50
    assert smallest_chip([5, 7]) == 1
    assert smallest_chip([]) == 1


@pytest.fixture(scope="module")
def penalty_event(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A 9-player demo whose penalty (TDA 71) kills the big blind's hand out of turn."""
    folder = tmp_path_factory.mktemp("penalty")
    url = f"sqlite:///{folder / 'log.db'}"
    result = CliRunner().invoke(cli, ["demo", "--players", "9", "--tables", "1", "--seed", "3",
                                      "--db", url])
    assert result.exit_code == 0, result.output
    return url, folder


@pytest.mark.parametrize("fmt", ["phh", "pokerstars", "ohh"])
def test_a_hand_killed_out_of_turn_is_written_where_the_action_reached_him(
        penalty_event: tuple[str, Path], fmt: str) -> None:
    """Every format carries the hand killed out of turn (PHH no longer leaves it out), as the
    fold in turn a reader replays, and every hand reads back matched."""
    url, folder = penalty_event
    out = folder / f"hands.{fmt}"
    exported = CliRunner().invoke(cli, ["export", "--db", url, "--format", fmt,
                                        "--all-cards", "--out", str(out)])
    assert exported.exit_code == 0, exported.output
    assert "killed out of turn" not in exported.output
    result = CliRunner().invoke(cli, ["import", str(out), "--format", fmt, "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 0, [r for r in report["results"] if r["status"] != "match"]
    assert report["matched"] == report["hands"] == 21
    text = out.read_text(encoding="utf-8")
    if fmt == "phh":
        hands = tomllib.loads(text)
        killed = [h for h in hands.values() if "_out_of_turn" in h]
        assert len(killed) == 1
        (index,) = killed[0]["_out_of_turn"]
        assert killed[0]["actions"][index] == "p2 f"  # Bea, the big blind
        assert "Bea's hand killed: penalty (TDA 71)" in killed[0]["_notes"][0]
    elif fmt == "ohh":
        marked = [o["ohh"] for o in objects(text) if "killed_out_of_turn" in o["ohh"]["handlog"]]
        assert len(marked) == 1


def test_the_level_is_read_from_the_pokerstars_header() -> None:
    from handlog.replay.import_pokerstars import from_roman, parse_hand, phh_mapping

    assert [from_roman(r) for r in ("I", "IV", "IX", "XIV", "XL")] == [1, 4, 9, 14, 40]
    assert phh_mapping(parse_hand(ODD_CHIP_SPLIT))["level"] == 5


def test_the_time_is_read_from_either_pokerstars_header_form() -> None:
    """PokerStars writes ET alone (`- 2026/12/02 05:43:43 ET`, the real files of 2008-2016)
    or, for a client outside ET, the local time with ET in brackets (`- 2026/12/02 10:43:43
    UTC [2026/12/02 5:43:43 ET]`, handlog's export): the ET time is read from both."""
    from datetime import time

    from handlog.replay.import_pokerstars import parse_hand, phh_mapping

    bracketed = ODD_CHIP_SPLIT.replace("2026/12/02 05:43:43 ET",
                                       "2026/12/02 10:43:43 UTC [2026/12/02 5:43:43 ET]")
    assert bracketed != ODD_CHIP_SPLIT
    read = [phh_mapping(parse_hand(text)) for text in (ODD_CHIP_SPLIT, bracketed)]
    for fields in read:
        assert (fields["year"], fields["month"], fields["day"], fields["time"],
                fields["time_zone"]) == (2026, 12, 2, time(5, 43, 43), "America/New_York")


def _stars_tournament_hand(buy_in: str, lines: str) -> str:
    return (f"PokerStars Hand #1: Tournament #77, {buy_in} Hold'em No Limit - Level II "
            "(10/20) - 2026/12/06 18:31:28 ET\n"
            "Table '77 1' 9-max Seat #1 is the button\n"
            "Seat 1: Ann (1500 in chips)\nSeat 2: Bob (500 in chips)\n"
            "Ann: posts small blind 10\nBob: posts big blind 20\n*** HOLE CARDS ***\n"
            "Ann: raises 1480 to 1500\nBob: calls 480 and is all-in\n"
            "Uncalled bet (1000) returned to Ann\n*** FLOP *** [2c 3d 4h]\n"
            "*** TURN *** [2c 3d 4h] [9s]\n*** RIVER *** [2c 3d 4h 9s] [Kd]\n"
            "*** SHOW DOWN ***\nAnn: shows [Ah Ad]\nBob: shows [7c 7d]\n"
            f"Ann collected 1000 from pot\n{lines}*** SUMMARY ***\nTotal pot 1000 | Rake 0\n")


@pytest.mark.parametrize(("buy_in", "money"), [
    ("$45.00+$5.00+$0.00 USD", ("USD", 4500, 500, 0)),
    ("$0.98+$0.02 USD", ("USD", 98, 0, 2)),
    ("€10+€1 EUR", ("EUR", 1000, 0, 100)),
    ("Freeroll", ("USD", 0, 0, 0)),
])
def test_the_buy_in_and_the_places_are_read_from_pokerstars_text(
        buy_in: str, money: tuple[str, int, int, int]) -> None:
    from handlog.replay.import_pokerstars import parse_hand, tournament_facts
    from handlog.replay.phh import Finish

    facts = tournament_facts(parse_hand(_stars_tournament_hand(buy_in, (
        "Ann wins the $5.00 bounty for eliminating Bob\n"
        "Bob finished the tournament in 2nd place and received $30.00.\n"
        "Ann wins the tournament and receives $60.00 - congratulations!\n"))))
    assert facts is not None
    assert (facts.currency, facts.pool, facts.bounty, facts.fee) == money
    assert facts.small_blind == 10
    assert facts.finishes == (Finish("Bob", 2, 3000, "Ann"), Finish("Ann", 1, 6000))


def test_a_bounty_shared_names_no_single_winner() -> None:
    from handlog.replay.import_pokerstars import parse_hand, tournament_facts

    facts = tournament_facts(parse_hand(_stars_tournament_hand("$45.00+$5.00+$0.00 USD", (
        "Ann wins the $2.50 bounty for eliminating Bob\n"
        "Cy wins the $2.50 bounty for eliminating Bob\n"
        "Bob finished the tournament in 9th place\n"))))
    assert facts is not None and facts.finishes[0].bounty_to == ""
    assert facts.finishes[0].prize == 0
