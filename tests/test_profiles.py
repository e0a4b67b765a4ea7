"""House-rule profiles: every parameter is explained and cited, and the seeds differ on purpose."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from handlog.engine.profiles import (
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
from handlog.recorder.structure import load_structure

# The seed documents live beside the repository (shared/seeds/), not in it.
OUTSIDE = Path(__file__).resolve().parents[2]
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


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
    """parameters() lists every dataclass field except the identity, citations and rule ids."""
    expected = [f.name for f in fields(Profile)
                if f.name not in ("name", "title", "source", "citations", "short", "rule_ids")]
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
    assert BSE.dead_hand_forfeits_chips_in_action and BSE.bubble_busts_share is False
    assert CHAIRPERSON.button_rule == "moving_button"
    assert CHAIRPERSON.misdeal_limit == "two_players_acted"
    assert LEAGUE.odd_chip_all_in_first and LEAGUE.exposed_both_call_or_fold
    assert LEAGUE.absent_big_blind_checks
    assert LEAGUE.exposed_deal_card == "misdeal"
    assert OCTOBERMUCK.color_up == "forfeit_to_next_pot"
    assert OCTOBERMUCK.balance_mover == "high_card_draw"


# The event's own numbers (chips, levels, breaks, antes, color-ups, payouts) are the structure
# file's, not house rules: examples/octobermuck.toml carries the document's, with its quotes.

def test_octobermuck_chips_and_structure_add_up() -> None:
    """The starting chips (10 red, 10 green, 7 black, the rest white) make 5,000; nine
    levels; red, green and black bought down in turn; antes decided after round 6."""
    structure = load_structure(EXAMPLES / "octobermuck.toml")
    red, green, black, white = structure.denominations
    assert (red.value, green.value, black.value, white.value) == (5, 25, 100, 500)
    assert sum(d.value * d.count for d in structure.denominations) == 5000
    assert structure.starting_stack == 5000 and len(structure.levels) == 9
    assert [step.remove for step in structure.color_ups] == [
        (red.colour,), (green.colour,), (black.colour,)]
    assert structure.ante_checkpoint is not None
    assert (structure.ante_checkpoint.after_level,
            structure.ante_checkpoint.players_at_least) == (6, 16)


def test_octobermuck_payout_rows_as_printed() -> None:
    """The payout rows are kept as printed: 6 places for 24-27, 7 (adding to 101%) for 28-32."""
    structure = load_structure(EXAMPLES / "octobermuck.toml")
    rows = {(b.min_players, b.max_players): b for b in structure.payouts}
    assert sum(rows[(24, 27)].basis_points) == 10_000
    assert len(rows[(28, 32)].basis_points) == 7
    assert sum(rows[(28, 32)].basis_points) == 10_100 and rows[(28, 32)].scale_to_pool


def test_profiles_are_frozen_and_hashable() -> None:
    """A profile is a value: frozen, hashable, equal when its parameters are."""
    assert hash(BSE) == hash(get_profile("bse"))
    with pytest.raises(AttributeError):
        BSE.reopen_percent = 50  # type: ignore[misc]


def test_unknown_profile_lists_the_known_ones() -> None:
    """get_profile's error names every known profile."""
    with pytest.raises(KeyError, match="tda, bse, octobermuck, chairperson, league"):
        get_profile("casino")
