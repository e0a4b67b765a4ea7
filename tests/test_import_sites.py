"""Other sites' hand histories, read by pokerkit's parsers and judged by each site's profile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from handlog.engine.site_profiles import SITE_PROFILES
from handlog.recorder.cli import cli
from handlog.replay.import_sites import stacks_after_betting

FIXTURES = Path(__file__).parent / "fixtures" / "hand-histories"


@pytest.mark.parametrize("site", ["fulltilt", "ongame"])
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


def test_an_online_site_lets_a_losing_hand_be_mucked_with_a_player_all_in() -> None:
    """TDA 16 tables every hand once a player is all-in; the sites' profiles do not."""
    assert all(not profile.all_in_hands_tabled for profile in SITE_PROFILES.values())


def test_stacks_after_betting_return_the_unmatched_part_of_a_bet() -> None:
    """A raise to 49 that only 2 matched leaves the raiser 47 back, as the texts count it."""
    assert stacks_after_betting([49, 120], [0, 0], [1, 0.5], ["d dh p1 ????", "d dh p2 ????",
                                                             "p2 cbr 2", "p1 cbr 49",
                                                             "p2 f"]) == [47, 118]
