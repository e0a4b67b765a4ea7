"""Other sites' hand histories, read by pokerkit's parsers and judged by each site's profile."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from handlog.engine.profiles import SITE_PROFILES
from handlog.recorder.cli import cli
from handlog.replay.import_hands import read_file
from handlog.replay.import_sites import stacks_after_betting
from handlog.replay.phh import PhhHand
from handlog.replay.phh_verify import verify_entry
from handlog.schema.store import open_store

FIXTURES = Path(__file__).parent / "fixtures" / "hand-histories"


@pytest.mark.parametrize("site", ["fulltilt", "ongame", "ipoker", "partypoker", "winamax",
                                  "ggpoker", "888"])
def test_public_samples_of_another_site_import_and_match(site: str) -> None:
    """Every hand of the site's public samples is detected, read and matched to the text."""
    result = CliRunner().invoke(cli, ["import", "--json", str(FIXTURES / site)])
    report = json.loads(result.stdout)
    assert result.exit_code == 0, report["results"]
    assert report["hands"] == report["matched"] > 0
    assert {f["format"] for f in report["files"]} == {site}


def test_a_rake_the_text_gives_is_not_a_recording_error() -> None:
    """A Full Tilt hand whose pot less the stated rake is what the winner collected matches."""
    text = (FIXTURES / "fulltilt" / "hhsmithy__StreetTests-River.txt").read_text("utf-8-sig")
    assert "| Rake $0.30" in text
    result = CliRunner().invoke(cli, ["import", "--json", str(FIXTURES / "fulltilt")])
    assert json.loads(result.stdout)["mismatched"] == 0


def test_a_shortfall_a_site_states_no_rake_for_is_unverified_with_its_reason(
        tmp_path: Path) -> None:
    """PartyPoker's text gives no rake: a winner paid a cent short is not called matched, nor a
    recording error, but unverified with the reason; the batch goes on."""
    original = FIXTURES / "partypoker" / "hhsmithy__ValidHand.txt"
    text = original.read_text("utf-8-sig")
    short = tmp_path / "short.txt"
    short.write_text(text.replace("wins $1.40 USD", "wins $1.39 USD"), "utf-8")
    assert short.read_text("utf-8") != text
    result = CliRunner().invoke(cli, ["import", "--json", str(short), str(original)])
    report = json.loads(result.stdout)
    statuses = {Path(r["file"]).name: r["status"] for r in report["results"]}
    assert statuses == {"short.txt": "unverified", original.name: "match"}
    assert "states no rake" in report["results"][0]["reason"]


def test_a_site_file_of_another_game_is_not_judged_as_no_limit_holdem(tmp_path: Path) -> None:
    """pokerkit reads every iPoker hand as No-Limit Hold'em; the session's game type says
    otherwise, and the hand is listed as another game."""
    text = (FIXTURES / "ipoker" / "hhsmithy__Seats-6Max.txt").read_text("utf-8-sig")
    limit = tmp_path / "limit.xml"
    limit.write_text(text.replace("<gametype>Holdem NL", "<gametype>Holdem L"), "utf-8")
    result = CliRunner().invoke(cli, ["import", "--json", str(limit)])
    [hand] = json.loads(result.stdout)["results"]
    assert hand["status"] == "unverified"
    assert "not No-Limit Hold'em (Holdem L" in hand["reason"]


def test_an_online_site_lets_a_losing_hand_be_mucked_with_a_player_all_in() -> None:
    """TDA 16 tables every hand once a player is all-in; the sites' profiles do not, but for
    GGPoker's, whose software turns every hand up."""
    assert {name for name, profile in SITE_PROFILES.items()
            if profile.all_in_hands_tabled} == {"ggpoker"}


def test_stacks_after_betting_return_the_unmatched_part_of_a_bet() -> None:
    """A raise to 49 that only 2 matched leaves the raiser 47 back, as the texts count it."""
    assert stacks_after_betting([49, 120], [0, 0], [1, 0.5], ["d dh p1 ????", "d dh p2 ????",
                                                             "p2 cbr 2", "p1 cbr 49",
                                                             "p2 f"]) == [47, 118]


def test_pokerstars_cash_in_money_is_judged_by_the_sites_rules() -> None:
    """A PokerStars cash hand in dollars where a loser mucks with a player all-in matches under
    the site's profile; under the TDA (16: all hands tabled) the same hand is illegal."""
    path = FIXTURES / "pokerstars" / "hhsmithy__Limits-Limit5.txt"
    [entry] = read_file(path).entries
    assert isinstance(entry, PhhHand) and entry.rules == "pokerstars"
    assert verify_entry(entry).status == "match"
    under_tda = verify_entry(replace(entry, rules="tda"))
    assert under_tda.status == "illegal"
    assert under_tda.violation is not None and under_tda.violation.rule == "tda-16"


def test_an_uncalled_raise_a_2011_file_does_not_write_comes_back_by_the_total_pot() -> None:
    """The summary's total pot is less than what was put in and no return is written: the top
    bettor's unmatched excess came back, and the hand matches."""
    result = CliRunner().invoke(cli, ["import", "--json", str(
        FIXTURES / "pokerstars" / "hhsmithy__ExtraHands-DateIssue1.txt")])
    assert json.loads(result.stdout)["matched"] == 1


def test_a_capped_game_is_listed_as_not_replayed_with_its_reason() -> None:
    """A cap no-limit game is no game the engine plays: unverified, naming the cap."""
    result = CliRunner().invoke(cli, ["import", "--json", str(
        FIXTURES / "pokerstars" / "hhsmithy__CapNoLimitHoldem.txt")])
    [hand] = json.loads(result.stdout)["results"]
    assert hand["status"] == "unverified"
    assert "capped game ($20 cap)" in hand["reason"]


def test_another_sites_hands_go_into_the_log_under_its_profile_and_replay_clean(
        db_url: str) -> None:
    """`--into-log` records a Full Tilt file's hands as a table under the `fulltilt` profile,
    and `handlog replay` of the log finds nothing wrong (SQLite and PostgreSQL)."""
    url = db_url
    result = CliRunner().invoke(cli, ["import", str(FIXTURES / "fulltilt"), "--into-log",
                                      "--json", "--db", url])
    into = json.loads(result.stdout)["into_log"]
    assert result.exit_code == 0 and into["not_recorded"] == []
    assert len(into["recorded"]) == 2
    replayed = CliRunner().invoke(cli, ["replay", "--db", url])
    assert replayed.exit_code == 0, replayed.stdout
    with open_store(url) as store:
        opened = [e for s in store.streams() if s.kind == "table"
                  for e in store.read(s.stream_id) if e.type == "table_opened"]
    assert {e.payload["profile"] for e in opened} == {"fulltilt"}


def test_a_winamax_game_other_than_no_limit_holdem_cash_is_listed_not_read(
        tmp_path: Path) -> None:
    """Winamax is read through the PokerStars reader for No-Limit Hold'em cash games only; an
    Omaha hand is unverified, naming the game, and nothing else is reported for it."""
    text = (FIXTURES / "winamax" / "hhsmithy__Seats-HeadsUp.txt").read_text("utf-8-sig")
    omaha = tmp_path / "omaha.txt"
    omaha.write_text(text.replace("Holdem no limit", "Omaha pot limit"), "utf-8")
    result = CliRunner().invoke(cli, ["import", "--json", str(omaha)])
    [hand] = json.loads(result.stdout)["results"]
    assert (hand["status"], hand["format"]) == ("unverified", "winamax")
    assert "Omaha pot limit" in hand["reason"]


def test_rules_show_gives_a_site_profile_with_its_citation() -> None:
    """`handlog rules show fulltilt` prints the site's reading of TDA 16 and where it is seen."""
    result = CliRunner().invoke(cli, ["rules", "show", "fulltilt", "--json"])
    assert result.exit_code == 0, result.output
    parameters = {p["name"]: p for p in json.loads(result.stdout)["parameters"]}
    tabled = parameters["all_in_hands_tabled"]
    assert tabled["value"] is False
    assert "AllInHandWithShowdown.txt" in tabled["citation"]
    assert parameters["reopen_percent"]["value"] == 100  # the rest is the TDA's


def test_an_action_the_text_omits_is_not_filled_in_by_pokerkits_replayer(
        tmp_path: Path) -> None:
    """pokerkit's replayer puts in a check the text does not give; handlog's replay is strict,
    so the Full Tilt hand with a check left out is illegal at the next card, not matched."""
    text = (FIXTURES / "fulltilt" / "hhsmithy__StreetTests-River.txt").read_text("utf-8-sig")
    missing = tmp_path / "missing.txt"
    missing.write_text(text.replace("WithoutOxygen checks\n", "", 1), "utf-8")
    assert missing.read_text("utf-8").count("checks") == text.count("checks") - 1
    result = CliRunner().invoke(cli, ["import", "--json", str(missing)])
    [hand] = json.loads(result.stdout)["results"]
    assert hand["status"] == "illegal"
    assert hand["violation"]["action"] == "d db Jc"
    assert result.exit_code == 1


def test_ipoker_cards_written_suit_first_are_read_and_an_unstated_rake_is_named() -> None:
    """iPoker writes `H7 SQ C3`; pokerkit's patterns read `h7 sQ c3`. The hand is read to its
    end, and the cents the winner was paid short (no rake in iPoker's text) are the reason it
    is unverified, not a parser error."""
    result = CliRunner().invoke(cli, ["import", "--json", str(
        FIXTURES / "unbalanced" / "ipoker__hhsmithy__StreetTests-Flop.txt")])
    [hand] = json.loads(result.stdout)["results"]
    assert hand["status"] == "unverified"
    assert "collected 0.02 less than was put in" in hand["reason"]


def test_a_damaged_ggpoker_and_888_file_in_a_batch_are_listed_and_the_rest_imported(
        tmp_path: Path) -> None:
    """One GGPoker hand without its table line and one 888 hand without its table line are
    each an error naming file, line and reason; every other hand of the batch is matched."""
    gg = (FIXTURES / "ggpoker" / "layorx__RushAndCash9515431.txt").read_text("utf-8-sig")
    gg_lines = gg.split("\n")
    second = [i for i, line in enumerate(gg_lines) if line.startswith("Poker Hand #")][1]
    assert gg_lines[second + 1].startswith("Table '")
    del gg_lines[second + 1]
    (tmp_path / "gg-damaged.txt").write_text("\n".join(gg_lines), "utf-8")
    eight = (FIXTURES / "888" / "hhsmithy__Tables-Table1.txt").read_text("utf-8-sig")
    good_888 = (FIXTURES / "888" / "hhsmithy__StreetTests-Preflop.txt").read_text("utf-8-sig")
    damaged_888 = "\n".join(line for line in eight.split("\n")
                            if not line.startswith("Table "))
    assert damaged_888 != eight
    (tmp_path / "888-damaged.txt").write_text(good_888 + "\n\n" + damaged_888, "utf-8")
    shutil.copytree(FIXTURES / "888", tmp_path / "888")
    result = CliRunner().invoke(cli, ["import", "--json", str(tmp_path)])
    report = json.loads(result.stdout)
    assert result.exit_code == 1
    errors = [r for r in report["results"] if r["status"] == "error"]
    assert [(Path(r["file"]).name, r["line"]) for r in errors] == [
        ("888-damaged.txt", good_888.count("\n") + 3), ("gg-damaged.txt", second + 1)]
    assert "table line" in errors[0]["reason"]
    assert "table line" in errors[1]["reason"]
    # 6 888 samples, the good 888 hand and 13 of the 14 GGPoker hands
    assert report["matched"] == report["hands"] - 2 == 6 + 1 + 13


def test_an_888_hand_whose_winner_collected_less_than_the_pot_names_the_unstated_rake() -> None:
    """888's text gives no rake: a winner paid short of the pot is not matched, nor called a
    recording error, but listed as not replayed with the reason."""
    result = CliRunner().invoke(cli, ["import", "--json", str(
        FIXTURES / "unbalanced" / "888__hhsmithy__PlayerTests-WithShowdown.txt")])
    [hand] = json.loads(result.stdout)["results"]
    assert (hand["status"], hand["format"]) == ("unverified", "888")
    assert "collected 0.6 less than was put in, and 888poker's text states no rake" \
        in hand["reason"]


def test_an_888_newcomers_blind_is_listed_not_replayed(tmp_path: Path) -> None:
    """A second big blind posted by a newcomer is no blind the engine plays: unverified."""
    text = (FIXTURES / "888" / "hhsmithy__Tables-Table1.txt").read_text("utf-8-sig")
    newcomer = tmp_path / "newcomer.txt"
    newcomer.write_text(text.replace("Raiseman13 posts big blind [$0.10]\n",
                                     "Raiseman13 posts big blind [$0.10]\n"
                                     "joeferkenny posts big blind [$0.10]\n"), "utf-8")
    assert newcomer.read_text("utf-8") != text
    result = CliRunner().invoke(cli, ["import", "--json", str(newcomer)])
    [hand] = json.loads(result.stdout)["results"]
    assert hand["status"] == "unverified"
    assert "newcomer's post" in hand["reason"]


def test_ggpokers_jackpot_is_taken_from_the_pot_like_the_rake(tmp_path: Path) -> None:
    """GGPoker's summary names each cut of the pot (`Rake $0.08 | Jackpot $0.07`): both come
    out before the winner is paid, and the hand matches; without the jackpot it does not."""
    path = FIXTURES / "ggpoker" / "layorx__RushAndCash15467382.txt"
    text = path.read_text("utf-8")
    cut = "| Rake $0.08 | Jackpot $0.07 |"
    assert text.count(cut) == 1
    [hand] = [e for e in read_file(path).entries
              if isinstance(e, PhhHand) and e.hand == "3892131744"]
    assert verify_entry(hand).status == "match"
    unpaid = tmp_path / "unpaid.txt"
    unpaid.write_text(text.replace(cut, "| Rake $0.08 | Jackpot $0 |"), "utf-8")
    [changed] = [e for e in read_file(unpaid).entries
                 if isinstance(e, PhhHand) and e.hand == "3892131744"]
    assert verify_entry(changed).status == "mismatch"


def test_ggpokers_cash_drop_is_dead_money_and_a_hand_shown_twice_is_shown_once(
        tmp_path: Path) -> None:
    """`Cash Drop to Pot : total $0.2` is money the site adds to the pot: the hand matches
    with it and not without it. GGPoker repeats the shows at the showdown: the hand that
    does matches (one show each), where a second show is `illegal` to the engine."""
    path = FIXTURES / "ggpoker" / "layorx__RushAndCash9515431.txt"
    text = path.read_text("utf-8")
    assert text.count("Cash Drop to Pot : total $0.2") == 1
    statuses = [verify_entry(e).status for e in read_file(path).entries
                if isinstance(e, PhhHand)]
    assert statuses == ["match"] * 14
    dropless = tmp_path / "dropless.txt"
    dropless.write_text(text.replace("Cash Drop to Pot : total $0.2", ""), "utf-8")
    assert "mismatch" in [verify_entry(e).status for e in read_file(dropless).entries
                          if isinstance(e, PhhHand)]
    twice = FIXTURES / "ggpoker" / "layorx__RushAndCash10604643-hand-RC3793505324.txt"
    assert twice.read_text("utf-8").count("Hero: shows [Ts 3s]") == 2
    [hand] = read_file(twice).entries
    assert isinstance(hand, PhhHand) and verify_entry(hand).status == "match"
    assert [a.text for a in hand.actions if a.code == "sm"] == ["p1 sm AsTh", "p2 sm Ts3s"]
