"""The structure file loader: the example files load, and every error names the file, the
field and what is allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from handlog.engine.commands import BetRaise
from handlog.engine.errors import RuleViolation
from handlog.engine.hand import HandSetup, decide, legal_actions, start_hand
from handlog.engine.profiles import PROFILES, get_profile
from handlog.engine.structure import (
    AnteCheckpoint,
    ColorUpStep,
    LateEntry,
    payouts_for,
    structure_problems,
)
from handlog.engine.tournament import create_tournament
from handlog.recorder.structure import StructureError, load_structure

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

MINIMAL = """\
name = "Test"
profile = "tda"
starting_stack = 1000
seats_per_table = 9

[[denominations]]
colour = "white"
value = 25

[[denominations]]
colour = "red"
value = 100

[[levels]]
small_blind = 25
big_blind = 50
minutes = 15

[[levels]]
small_blind = 50
big_blind = 100
minutes = 15

[[levels]]
small_blind = 100
big_blind = 200
minutes = 15

[[levels]]
small_blind = 200
big_blind = 400
minutes = 15
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "structure.toml"
    path.write_text(text)
    return path


def errors(tmp_path: Path, text: str) -> str:
    with pytest.raises(StructureError) as info:
        load_structure(write(tmp_path, text))
    message = str(info.value)
    for line in message.splitlines():
        assert line.startswith(f"{tmp_path / 'structure.toml'}: "), line
    return message


@pytest.mark.parametrize("name", ["octobermuck", "bse", "tda-demo"])
def test_example_structures_load_without_problems(name: str) -> None:
    """Every example file loads, has no problems, and can create a tournament."""
    structure = load_structure(EXAMPLES / f"{name}.toml")
    assert structure_problems(structure) == ()
    assert create_tournament("t", structure).structure == structure


def test_octobermuck_structure_is_the_document() -> None:
    """The Octobermuck sheet: 5,000 in red/green/black/white, nine 20-minute rounds, buy-downs
    after rounds 2 and 4 (and 6 without antes), the checkpoint after round 6, $45 to the pool."""
    s = load_structure(EXAMPLES / "octobermuck.toml")
    assert (s.profile, s.starting_stack) == ("octobermuck", 5000)
    assert [(d.colour, d.value, d.count) for d in s.denominations] == [
        ("red", 5, 10), ("green", 25, 10), ("black", 100, 7), ("white", 500, 8)]
    assert [(lv.small_blind, lv.big_blind, lv.ante) for lv in s.levels] == [
        (5, 10, 0), (10, 25, 0), (25, 50, 0), (50, 100, 0), (100, 200, 0), (200, 500, 0),
        (500, 1000, 100), (1000, 2000, 200), (2000, 4000, 400)]
    assert {lv.minutes for lv in s.levels} == {20}
    assert [(b.after_level, b.minutes) for b in s.breaks] == [(3, 10), (6, 40)]
    assert s.color_ups == (ColorUpStep(2, ("red",)), ColorUpStep(4, ("green",)),
                           ColorUpStep(6, ("black",), unless_antes=True))
    assert s.ante_checkpoint == AnteCheckpoint(6, 16)
    assert s.late_entry == LateEntry(3, False)
    assert (s.money.buy_in, s.money.prize_pool_per_entry, s.money.bounty,
            s.money.high_hand_fee) == (5000, 4500, 500, 500)
    assert [b.basis_points for b in s.payouts] == [
        (3000, 2300, 1500, 1300, 1000, 900), (2800, 2100, 1400, 1100, 1000, 900, 800)]
    assert s.chip_unit_at(3, antes_used=False) == 25
    assert s.chip_unit_at(7, antes_used=True) == 100
    assert s.chip_unit_at(7, antes_used=False) == 500
    assert sum(payouts_for(s, 30, 30 * 4500)) == 30 * 4500


def test_bse_structure_carries_the_documents_rules() -> None:
    s = load_structure(EXAMPLES / "bse.toml")
    assert (s.profile, s.starting_stack) == ("bse", 4000)
    assert s.late_entry == LateEntry(4, True)
    assert s.break_after(4) is not None
    assert s.payouts == ()


def test_minimal_structure_loads(tmp_path: Path) -> None:
    s = load_structure(write(tmp_path, MINIMAL))
    assert len(s.levels) == 4 and s.levels[3].number == 4
    assert s.money.payout_rounding == 100


def test_a_bad_value_names_the_field_and_the_level(tmp_path: Path) -> None:
    text = MINIMAL.replace("small_blind = 200\nbig_blind = 400",
                           'small_blind = 200\nbig_blind = "400"')
    message = errors(tmp_path, text)
    assert "levels[3].big_blind (level 4): must be a whole number, got '400'" in message


def test_unknown_keys_are_errors_that_list_the_allowed_ones(tmp_path: Path) -> None:
    text = MINIMAL.replace("minutes = 15\n", "minutes = 15\nbig_blnd = 1\n", 1)
    text = 'colour_up = "race"\n' + text
    message = errors(tmp_path, text)
    assert ("levels[0].big_blnd (level 1): unknown key 'big_blnd'; allowed: small_blind, "
            "big_blind, ante, ante_kind, minutes") in message
    assert "colour_up: unknown key 'colour_up'; allowed: name, profile," in message


def test_missing_fields_are_named(tmp_path: Path) -> None:
    message = errors(tmp_path, MINIMAL.replace("starting_stack = 1000\n", "")
                     .replace("minutes = 15\n", "", 1))
    assert "starting_stack: is required" in message
    assert "levels[0].minutes (level 1): is required" in message


def test_blinds_must_be_payable_with_the_chips_in_play(tmp_path: Path) -> None:
    text = MINIMAL + """
[[color_ups]]
after_level = 2
remove = ["white"]
"""
    text = text.replace("small_blind = 100\nbig_blind = 200", "small_blind = 75\nbig_blind = 200")
    message = errors(tmp_path, text)
    assert ("levels[2].small_blind (level 3): 75 cannot be paid with the chips in play at "
            "level 3 (smallest 100)") in message


def test_meaning_errors_name_their_fields(tmp_path: Path) -> None:
    text = MINIMAL.replace("small_blind = 50\nbig_blind = 100", "small_blind = 100\nbig_blind = 50")
    text += """
[[breaks]]
after_level = 9
minutes = 10

[[color_ups]]
after_level = 2
remove = ["blue"]

[late_entry]
last_level = 2
through_break = true

[[payouts]]
min_players = 2
max_players = 10
percents = [60, 30]

[[payouts]]
min_players = 10
max_players = 20
percents = [50, 30, 20]
"""
    message = errors(tmp_path, text)
    assert "levels[1].big_blind (level 2): 50 is less than the small blind 100" in message
    assert "breaks[0].after_level: must be a level from 1 to 4" in message
    assert "color_ups[0].remove[0]: unknown colour 'blue'; allowed: white, red" in message
    assert "late_entry.through_break: there is no break after level 2" in message
    assert ("payouts[0].percents: add up to 90%, not 100%; fix them, or set scale_to_pool = "
            "true") in message
    assert "payouts[1]: players 10-20 overlap payouts[0] (2-10)" in message


def test_money_and_percentages_keep_two_decimals(tmp_path: Path) -> None:
    text = MINIMAL + """
[money]
buy_in = 12.50
prize_pool_per_entry = 10
bounty = 2.5

[[payouts]]
min_players = 2
max_players = 9
percents = [62.5, 37.5]
"""
    s = load_structure(write(tmp_path, text))
    assert (s.money.buy_in, s.money.prize_pool_per_entry, s.money.bounty) == (1250, 1000, 250)
    assert s.payouts[0].basis_points == (6250, 3750)
    message = errors(tmp_path, text.replace("bounty = 2.5", "bounty = 2.555"))
    assert "money.bounty: must be an amount of money with at most two decimals, got 2.555" \
        in message


def test_chip_counts_must_make_the_starting_stack(tmp_path: Path) -> None:
    text = MINIMAL.replace('value = 25\n', 'value = 25\ncount = 4\n')
    text = text.replace('value = 100\n', 'value = 100\ncount = 5\n')
    message = errors(tmp_path, text)
    assert "denominations: the chip counts make 600, not the starting stack of 1000" in message


def test_unknown_profile_lists_the_known_ones(tmp_path: Path) -> None:
    message = errors(tmp_path, MINIMAL.replace('"tda"', '"casino"'))
    assert "profile: unknown profile 'casino'; allowed: tda, bse, octobermuck" in message


def test_ante_needs_an_ante_kind_the_engine_knows(tmp_path: Path) -> None:
    text = MINIMAL.replace("minutes = 15\n", 'minutes = 15\nante = 25\nante_kind = "button"\n', 1)
    message = errors(tmp_path, text)
    assert ("levels[0].ante_kind (level 1): 'button' is not an ante kind; allowed: none, "
            "uniform, big_blind") in message


def test_a_table_where_an_array_is_expected_is_named(tmp_path: Path) -> None:
    message = errors(tmp_path, MINIMAL + '\n[breaks]\nafter_level = 1\n')
    assert "breaks: must be an array of tables ([[breaks]]), got a table" in message


def test_invalid_toml_and_missing_files_name_the_file(tmp_path: Path) -> None:
    message = errors(tmp_path, MINIMAL + "levels = [\n")
    assert "not valid TOML" in message
    with pytest.raises(StructureError, match="cannot read the file") as info:
        load_structure(tmp_path / "nope.toml")
    assert info.value.file == str(tmp_path / "nope.toml")


def test_structure_error_keeps_each_problem(tmp_path: Path) -> None:
    with pytest.raises(StructureError) as info:
        load_structure(write(tmp_path, MINIMAL.replace("= 9", "= 40")))
    assert info.value.problems == (("seats_per_table", "must be 2 to 12"),)


def test_the_engine_refuses_a_structure_with_problems(tmp_path: Path) -> None:
    """create_tournament checks the same problems the loader reports."""
    from dataclasses import replace

    s = load_structure(write(tmp_path, MINIMAL))
    with pytest.raises(RuleViolation, match="starting_stack") as info:
        create_tournament("t", replace(s, starting_stack=1010))
    assert "starting_stack: 1010 is not a multiple of the smallest chip (25)" in info.value.legal


ROOM = MINIMAL.replace('profile = "tda"\n', "") + """
[profile]
name = "harbour"
base = "tda"

[profile.set]
preflop_min_raise_multiple = 3
new_player_waiting_positions = ["button"]
"""


def test_a_structure_may_carry_its_rooms_own_profile_and_it_governs(tmp_path: Path) -> None:
    """`[profile]` with a name, a base and `[profile.set]` overrides: the room's profile
    travels in the structure (one canonical text) to every hand, which it decides."""
    s = load_structure(write(tmp_path, ROOM))
    profile = get_profile(s.profile)
    assert (profile.name, profile.preflop_min_raise_multiple) == ("harbour", 3)
    assert profile.new_player_waiting_positions == ("button",)
    assert profile.reopen_percent == PROFILES["tda"].reopen_percent  # the rest is the base's
    create_tournament("t", s)
    hand = start_hand(HandSetup((5000,) * 4, (50, 100, 0, 0), (0,) * 4, 100, 25, s.profile))
    la = legal_actions(hand)
    assert la is not None and la.min_to == 300  # TDA would offer a raise to 200
    with pytest.raises(RuleViolation, match="at least 300"):
        decide(hand, BetRaise(2, 200))


def test_a_room_profile_is_checked_field_by_field(tmp_path: Path) -> None:
    """An unknown parameter, a wrong type or a value not allowed is an error naming the field
    and what is allowed; an unknown base lists the known profiles."""
    bad = ROOM.replace('base = "tda"', 'base = "casino"').replace(
        "preflop_min_raise_multiple = 3",
        'preflop_min_raise_multiple = "three"\ncolour_up = "race"\nbutton_rule = "sideways"\n'
        "deals_allowed = 1")
    text = errors(tmp_path, bad)
    assert "profile.base: unknown profile 'casino'; allowed: tda, bse" in text
    assert "profile.set.preflop_min_raise_multiple: must be a whole number" in text
    assert "profile.set.colour_up: unknown parameter 'colour_up'; allowed: reopen_percent" in text
    assert "profile.set.button_rule: 'sideways' is not allowed; allowed: dead_button, " \
           "moving_button" in text
    assert "profile.set.deals_allowed: must be true or false, got 1" in text
    assert "unknown key" not in text
    bad = ROOM.replace('name = "harbour"\n', "").replace("[profile.set]", "[profile.sett]")
    text = errors(tmp_path, bad)
    assert "profile.name: is required" in text
    assert "profile.sett: unknown key 'sett'; allowed: name, base, set" in text


def test_a_chip_worth_nothing_is_named_even_beside_a_color_up(tmp_path: Path) -> None:
    """(Found by the fuzz test: a colour worth 0 left in play after a color-up divided by
    zero instead of being named.)"""
    text = MINIMAL.replace('colour = "red"\nvalue = 100', 'colour = "red"\nvalue = 0') + """
[[color_ups]]
after_level = 2
remove = ["white"]
"""
    message = errors(tmp_path, text)
    assert "denominations[1].value: must be a positive number of chips" in message
    assert "color_ups[0].remove: would leave no chips in play" in message
