"""House-rule profiles: every parameter is explained and cited, and the seeds differ on purpose."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from engine.profiles import (
    BSE,
    CHAIRPERSON,
    LEAGUE,
    OCTOBERMUCK,
    PROFILES,
    TDA,
    Profile,
    get_profile,
    parameter_docs,
    parameter_names,
    parameter_scopes,
)

# The seed documents live beside the repository (shared/seeds/), not in it.
OUTSIDE = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("profile", PROFILES.values(), ids=list(PROFILES))
def test_every_parameter_of_every_profile_has_a_citation(profile: Profile) -> None:
    """Each parameter of each profile cites the sentence or TDA rule it comes from."""
    names = parameter_names()
    assert names, "no parameters found"
    for name, _value, meaning, citation in profile.parameters():
        assert citation.strip(), f"{profile.name}.{name} has no citation"
        assert meaning.strip(), f"{name} has no meaning"
    assert set(profile.citations) == set(names), "citations for unknown parameters"


def test_parameters_are_every_field_but_the_identity() -> None:
    """parameters() lists every dataclass field except name, title, source and citations."""
    expected = [f.name for f in fields(Profile)
                if f.name not in ("name", "title", "source", "citations")]
    assert list(parameter_names()) == expected
    assert [p[0] for p in TDA.parameters()] == expected
    assert set(parameter_docs()) == set(expected)
    assert set(parameter_scopes().values()) <= {"hand", "table", "tournament"}


def test_tda_citations_name_a_tda_rule() -> None:
    """Every baseline citation names TDA 2024 (a rule number, an RP, or says it is silent)."""
    for name, citation in TDA.citations.items():
        assert citation.startswith("TDA 2024"), name


def test_tda_clock_is_25_seconds_and_a_5_second_countdown() -> None:
    """TDA 2024 Rule 29: up to 25 seconds plus a 5 second countdown."""
    assert (TDA.clock_seconds, TDA.clock_countdown_seconds) == (25, 5)
    assert "Rule 29" in TDA.citations["clock_seconds"]


def test_seed_citations_quote_their_document() -> None:
    """A seed profile's quoted sentences (in single quotes) really appear in its document."""
    checked = 0
    for profile in (BSE, OCTOBERMUCK, CHAIRPERSON, LEAGUE):
        path = OUTSIDE / profile.source
        if not path.exists():
            pytest.skip(f"{path} not found (the seeds live outside the repository)")
        text = _normalise(path.read_text(encoding="utf-8"))
        for name, citation in profile.citations.items():
            if "does not say; TDA baseline" in citation:
                continue
            for quote in re.findall(r"'(.+?)'(?=[\s,.;:()]|$)", citation):
                for piece in quote.split(" ... "):
                    piece = _normalise(piece.strip(" .")).rstrip(".")
                    if len(piece) < 4:
                        continue
                    assert piece in text, f"{profile.name}.{name}: {piece!r} not in source"
                    checked += 1
    assert checked > 50


def _normalise(text: str) -> str:
    """Quotes, dashes and spacing as typed in the citations (ASCII, single spaces)."""
    for fancy, plain in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"'),
                         ("\u2013", "-"), ("\u2014", "-")):
        text = text.replace(fancy, plain)
    return " ".join(text.split())


def test_seed_profiles_inherit_the_baseline_and_say_so() -> None:
    """Where a seed document is silent its citation says so and repeats the TDA citation."""
    assert OCTOBERMUCK.clock_seconds == TDA.clock_seconds
    assert OCTOBERMUCK.citations["clock_seconds"] == (
        "Octobermuck does not say; TDA baseline: " + TDA.citations["clock_seconds"])


def test_profiles_differ_where_the_documents_do() -> None:
    """The distinctive rules of each seed document are set in its profile."""
    assert OCTOBERMUCK.reopen_percent == 50
    assert BSE.min_players_per_table == 5
    assert BSE.late_entry_penalty_big_blinds == 5
    assert BSE.seat_draw_suit_order == ("s", "h", "d", "c")
    assert BSE.exposed_deal_card == "replace_as_burn"
    assert BSE.photo_finish == "start_stack_order_ties_higher"
    assert CHAIRPERSON.button_rule == "moving_button"
    assert CHAIRPERSON.misdeal_limit == "two_players_acted"
    assert LEAGUE.odd_chip_all_in_first and LEAGUE.exposed_both_call_or_fold
    assert LEAGUE.absent_big_blind_checks
    assert LEAGUE.exposed_deal_card == "misdeal"
    assert OCTOBERMUCK.ante_checkpoint_level == 6
    assert OCTOBERMUCK.ante_checkpoint_min_players == 16
    assert OCTOBERMUCK.color_up == "forfeit_to_next_pot"
    assert OCTOBERMUCK.starting_stack == 5000 and BSE.starting_stack == 4000


def test_octobermuck_chips_and_structure_add_up() -> None:
    """The starting chips (10 red, 10 green, 7 black, the rest white) make 5,000."""
    red, green, black, white = OCTOBERMUCK.chip_denominations
    assert 10 * red + 10 * green + 7 * black + 8 * white == OCTOBERMUCK.starting_stack
    assert len(OCTOBERMUCK.blind_structure) == 9
    assert all(sb < bb for sb, bb, _ in OCTOBERMUCK.blind_structure)
    removed = [d for _, d in OCTOBERMUCK.color_up_schedule]
    assert removed == [red, green, black]


def test_octobermuck_payout_rows_as_printed() -> None:
    """The payout rows are kept as printed: 6 places for 24-27, 7 (adding to 101%) for 28-32."""
    rows = {(lo, hi): pct for lo, hi, pct in OCTOBERMUCK.payout_table}
    assert sum(rows[(24, 27)]) == 100
    assert len(rows[(28, 32)]) == 7 and sum(rows[(28, 32)]) == 101
    assert "101%" in OCTOBERMUCK.citations["payout_table"]


def test_profiles_are_frozen_and_hashable() -> None:
    """A profile is a value: frozen, hashable, equal when its parameters are."""
    assert hash(BSE) == hash(get_profile("bse"))
    with pytest.raises(AttributeError):
        BSE.reopen_percent = 50  # type: ignore[misc]


def test_unknown_profile_lists_the_known_ones() -> None:
    """get_profile's error names every known profile."""
    with pytest.raises(KeyError, match="tda, bse, octobermuck, chairperson, league"):
        get_profile("casino")
