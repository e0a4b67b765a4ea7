"""`handlog rules list` and `handlog rules show`, used the way a director uses them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_docs_rules import defined_tests
from test_profile_flips import FLIPS

from handlog.engine.profiles import FLIP_TEST, GOVERNS, PROFILES, parameter_names
from handlog.recorder.cli import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["rules", *args])
    return result.exit_code, result.stdout, result.stderr


def test_rules_is_listed_in_the_root_help() -> None:
    """`handlog --help` offers the rules group."""
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert "rules" in result.stdout


def test_list_prints_one_line_per_profile_with_title_and_source() -> None:
    """`rules list`: one line per profile, in order, with its name, title and source."""
    code, out, _ = run("list")
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == list(PROFILES)
    for line, profile in zip(lines, PROFILES.values(), strict=True):
        assert profile.title in line
        assert profile.source in line


@pytest.mark.parametrize("name", list(PROFILES))
def test_show_prints_every_parameter_with_value_meaning_and_citation(name: str) -> None:
    """`rules show NAME` gives every parameter's value, meaning and citation."""
    code, out, _ = run("show", name)
    assert code == 0, out
    profile = PROFILES[name]
    assert out.startswith(f"{name}: {profile.title}\n")
    flat = " ".join(out.split())
    for param, _value, meaning, citation in profile.parameters():
        assert f"\n{param} = " in out
        assert " ".join(meaning.split()) in flat
        assert " ".join(citation.split()) in flat


def test_show_prints_the_value_of_a_parameter() -> None:
    """Values read plainly: numbers, words, true/false and lists."""
    _, out, _ = run("show", "octobermuck")
    assert "\nreopen_percent = 50 " in out
    assert "\ncolor_up = forfeit_to_next_pot " in out
    assert "\ndeals_allowed = true " in out
    assert '\nbutton_redraw_at = ["final_table"] ' in out


def test_show_json_is_the_whole_profile() -> None:
    """`rules show NAME --json`: name, title, source and every parameter as data."""
    code, out, _ = run("show", "bse", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["name"], data["source"]) == ("bse", PROFILES["bse"].source)
    params = {p["name"]: p for p in data["parameters"]}
    assert list(params) == list(parameter_names())
    assert params["min_players_per_table"]["value"] == 5
    assert params["seat_draw_suit_order"]["value"] == ["s", "h", "d", "c"]
    assert params["min_players_per_table"]["scope"] == "table"
    assert "Four players or less cannot play hands" in params["min_players_per_table"]["citation"]
    assert all(p["citation"] and p["meaning"] for p in data["parameters"])


def test_show_unknown_profile_exits_2_and_lists_the_known_names() -> None:
    """An unknown NAME is a usage error (exit 2) naming every known profile."""
    code, out, err = run("show", "casino")
    assert code == 2
    assert out == ""
    assert "unknown house-rule profile 'casino'" in err
    assert "known profiles: tda, bse, octobermuck, chairperson, league" in err


def test_show_unknown_profile_with_json_is_still_a_usage_error() -> None:
    """--json does not turn an unknown NAME into output."""
    code, out, err = run("show", "casino", "--json")
    assert code == 2 and out == "" and "known profiles" in err


def test_show_says_what_each_parameter_governs_and_names_the_test_that_proves_it() -> None:
    """Each parameter: where the engine reads it, and the flip test case proving it decides."""
    _, out, _ = run("show", "tda")
    flat = " ".join(out.split())
    for param in parameter_names():
        assert " ".join(GOVERNS[param].split()) in flat
        assert f"proved by: {FLIP_TEST}[{param}]" in flat
    path, name = FLIP_TEST.split("::")
    assert name in defined_tests(path)
    assert set(FLIPS) == set(parameter_names()) == set(GOVERNS)


def test_show_a_structure_files_room_profile(tmp_path: Path) -> None:
    """`rules show FILE.toml` prints the room profile the structure carries, overrides and all."""
    text = (EXAMPLES / "tda-demo.toml").read_text(encoding="utf-8")
    text = text.replace('profile = "tda"', "", 1) + (
        '\n[profile]\nname = "harbour"\nbase = "league"\n\n[profile.set]\n'
        "preflop_min_raise_multiple = 3\n")
    file = tmp_path / "room.toml"
    file.write_text(text, encoding="utf-8")
    code, out, _ = run("show", str(file))
    assert code == 0
    assert out.startswith("harbour: harbour (on league)")
    assert "\npreflop_min_raise_multiple = 3 " in out
    assert "\nabsent_big_blind_checks = true " in out  # the league base
    assert "room profile harbour: set by the structure file" in " ".join(out.split())
