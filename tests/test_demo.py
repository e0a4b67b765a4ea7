"""`handlog demo` plays through a whole event as a director would run it: table breaks down to
the final table (redrawn), a penalty served, bounties and the high-hand jackpot, a deal; it
replays clean and the report's money block has nothing unaccounted. On SQLite and PostgreSQL,
through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from handlog.recorder.cli import cli
from handlog.schema.store import open_store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def demo_and_report(db_url: str, tmp_path: Path, *args: str) -> tuple[dict[str, object],
                                                                     list[str]]:
    runner = CliRunner()
    assert runner.invoke(cli, ["db", "upgrade", "--db", db_url]).exit_code == 0
    played = runner.invoke(cli, ["demo", "--db", db_url, *args])
    assert played.exit_code == 0, played.output
    replayed = runner.invoke(cli, ["replay", "--db", db_url])
    assert replayed.exit_code == 0, replayed.output
    out = tmp_path / "report.json"
    reported = runner.invoke(cli, ["report", "--db", db_url, "--format", "json",
                                   "--out", str(out)])
    assert reported.exit_code == 0, reported.output
    (tournament,) = json.loads(out.read_text())["tournaments"]
    with open_store(db_url) as store:
        types = [f"{e.type}:{e.payload.get('reason', '')}" for e in store.read_all()]
    return tournament, types


def test_octobermuck_demo_with_an_icm_deal_replays_clean_with_nothing_unaccounted(
        db_url: str, tmp_path: Path) -> None:
    """24 players under Octobermuck with --deal icm: a table break, the final table redrawn, a
    penalty served, every bounty and the jackpot paid, the deal followed by the payouts."""
    tournament, types = demo_and_report(
        db_url, tmp_path, "--players", "24", "--tables", "3", "--seed", "3",
        "--structure", str(EXAMPLES / "octobermuck.toml"), "--deal", "icm", "--chip-count",
        "--hand-for-hand")
    for fact in ("stacks_counted:", "stack_corrected:demo: a chip under his cards",
                 "hand_for_hand_started:", "hand_for_hand_ended:"):
        assert fact in types, fact
    money = tournament["money"]
    assert isinstance(money, dict)
    assert money["unaccounted"] == 0
    assert money["bounties_paid"] == money["bounty_pool"] == 24 * 500
    assert money["high_hand_paid"] == money["high_hand_pool"] > 0
    deal = tournament["deal"]
    assert isinstance(deal, dict) and deal["method"] == "icm" and len(deal["shares"]) == 3
    assert all(x["consent"] == x["name"] for x in deal["shares"])
    for fact in ("table_closed:table_broken", "seats_drawn:final_table",
                 "penalty_recorded:", "hand_killed:penalty", "high_hand_awarded:",
                 "deal_recorded:", "prizes_awarded:"):
        assert fact in types, fact


def test_octobermuck_demo_with_a_chip_chop(db_url: str, tmp_path: Path) -> None:
    """On SQLite and PostgreSQL too (the Done-when asks both deals on both backends)."""
    tournament, _types = demo_and_report(
        db_url, tmp_path, "--players", "24", "--tables", "3",
        "--seed", "5", "--structure", str(EXAMPLES / "octobermuck.toml"), "--deal", "chip-chop")
    deal = tournament["deal"]
    money = tournament["money"]
    assert isinstance(deal, dict) and deal["method"] == "chip_chop"
    assert isinstance(money, dict) and money["unaccounted"] == 0


def test_tda_demo_breaks_tables_to_the_final_table_and_serves_a_penalty(
        db_url: str, tmp_path: Path) -> None:
    tournament, types = demo_and_report(db_url, tmp_path, "--players", "20", "--tables", "3",
                                        "--seed", "4", "--chip-count", "--hand-for-hand")
    money = tournament["money"]
    assert isinstance(money, dict) and money["unaccounted"] == 0 and money["prizes_paid"] > 0
    for fact in ("table_closed:table_broken", "seats_drawn:final_table", "hand_killed:penalty",
                 "stacks_counted:", "stack_corrected:demo: a chip under his cards",
                 "stack_adjusted:count_correction", "hand_for_hand_started:",
                 "hand_for_hand_ended:"):
        assert fact in types, fact
    counts = tournament["chip_counts"]
    assert isinstance(counts, dict) and counts["open"] == [] and len(counts["corrections"]) == 1


def test_a_deal_under_rules_without_deals_is_refused_saying_why(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["demo", "--db", f"sqlite:///{tmp_path / 'x.db'}",
                                 "--deal", "icm"])
    assert result.exit_code != 0
    assert "the tda rules allow no deals (deals_allowed is false" in result.output
    assert "Traceback" not in result.output

