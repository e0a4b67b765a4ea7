"""`handlog phh verify`, used the way a person uses it: through click and a real process."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import handlog.recorder.cli_phh as cli_phh
from handlog.recorder.cli_phh import phh

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "phh"
# The repository is cloned next to shared/ (here and in CI).
SHARED_PHH = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh"
REPORT_KEYS = {"hands", "matched", "mismatched", "illegal", "unverified", "errors", "seconds",
               "results"}
RESULT_KEYS = {"file", "hand", "status", "finishing_stacks", "recorded_finishing_stacks",
               "reason", "violation"}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(phh, ["verify", *args], prog_name="handlog phh")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_json_report_shape_and_counts() -> None:
    """--json prints one object: the counts, the time and one entry per hand."""
    code, out, _ = run(str(FIXTURES), "--json")
    report = json.loads(out)
    assert set(report) == REPORT_KEYS
    assert (report["hands"], report["matched"], report["mismatched"], report["illegal"],
            report["unverified"], report["errors"]) == (22, 9, 1, 4, 2, 6)
    assert isinstance(report["seconds"], float)
    assert all(set(entry) == RESULT_KEYS for entry in report["results"])
    assert code == 1


def test_json_under_raise_entry() -> None:
    """An illegal hand carries the action index (from 0 in `actions`), action and rule."""
    code, out, _ = run(str(FIXTURES / "flawed" / "under_raise.phh"), "--json")
    (entry,) = json.loads(out)["results"]
    assert entry["status"] == "illegal"
    assert entry["hand"] is None
    assert entry["finishing_stacks"] is None
    assert entry["recorded_finishing_stacks"] == [10200, 9900, 9700]
    violation = entry["violation"]
    assert set(violation) == {"action_index", "action", "rule", "message"}
    assert (violation["action_index"], violation["action"], violation["rule"]) == (
        4, "p1 cbr 400", "tda-43")
    assert code == 1


def test_json_phhs_entries_are_numbered() -> None:
    """Hands of a .phhs carry their table number; a .phh hand has null."""
    _, out, _ = run(str(FIXTURES / "good" / "hands.phhs"), str(FIXTURES / "good" / "stud.phh"),
                    "--json")
    assert [entry["hand"] for entry in json.loads(out)["results"]] == [1, 2, None]


def test_malformed_files_are_named_and_the_run_goes_on() -> None:
    """Each malformed file is an error naming the file and the field; the others still run."""
    code, out, _ = run(str(FIXTURES / "malformed"), "--json")
    results = json.loads(out)["results"]
    assert [r["status"] for r in results] == ["error", "error", "error", "error", "match",
                                              "error", "error"]
    reasons = [r["reason"] for r in results if r["status"] == "error"]
    for reason, field in zip(reasons, ["'antes'", "'actions[3]'", "invalid TOML", "'min_bet'",
                                       "'blinds_or_straddles'", "'actions[3]'"], strict=True):
        assert field in reason
        assert str(FIXTURES / "malformed") in reason
    assert code == 1


def test_exit_zero_when_everything_matches_or_is_unverified() -> None:
    """Matches and unverified hands alone give exit status 0 and an OK line."""
    code, out, _ = run(str(FIXTURES / "good"))
    assert code == 0
    assert "Verified 10 hands from 9 files" in out
    assert out.rstrip().endswith("OK: nothing mismatched, illegal or in error")


@pytest.mark.parametrize("name", ["flawed/under_raise.phh", "flawed/odd_chip_half.phh",
                                  "malformed/bad_toml.phh"])
def test_exit_one_on_illegal_mismatch_or_error(name: str) -> None:
    """Any illegal, mismatched or malformed hand makes the exit status 1."""
    assert run(str(FIXTURES / name))[0] == 1


def test_readable_summary() -> None:
    """Without --json: counts, then each non-matching hand with its rule and reason."""
    code, out, err = run(str(FIXTURES / "flawed"))
    assert code == 1
    assert "  mismatched        1" in out
    assert "  illegal           4" in out
    assert "at action 4 'p1 cbr 400': TDA 43: raise to 400 is too small" in out
    assert "at the end of the record: strict replay" in out
    assert "at the set-up (antes, blinds_or_straddles, starting_stacks): TDA 23: " in out
    assert "record splits the odd chip into half chips (x.5)" in out
    assert out.rstrip().endswith("FAILED: 1 mismatched, 4 illegal")
    assert err == ""


def test_rules_option_sets_the_default_profile() -> None:
    """--rules picks the profile for hands without `_rules`; an unknown one is refused."""
    assert run(str(FIXTURES / "good"), "--rules", "league")[0] == 0
    code, _, err = run(str(FIXTURES / "good"), "--rules", "casino")
    assert code == 2
    assert "'casino' is not one of" in err


def test_missing_path_is_a_usage_error() -> None:
    """A path that does not exist stops before any work, with click's usage error."""
    code, _, err = run(str(FIXTURES / "nowhere"))
    assert code == 2
    assert "does not exist" in err


def test_a_folder_with_no_hand_history_is_an_error(tmp_path: Path) -> None:
    """A folder without PHH files is an error (exit 2, issue 15), not "Verified 0 hands OK"."""
    (tmp_path / "notes.txt").write_text("nothing here")
    code, out, err = run(str(tmp_path))
    assert code == 2
    assert f"no hand histories found in {tmp_path}" in err
    assert "Verified" not in out


def test_progress_bar_on_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long run in a terminal shows a progress bar on stderr, never on stdout."""
    monkeypatch.setattr(cli_phh, "wants_progress", lambda count, as_json: True)
    code, out, err = run(str(FIXTURES / "good"))
    assert code == 0
    assert "Verifying PHH files" in err
    assert "Verifying" not in out


def test_no_progress_bar_for_json_or_short_runs() -> None:
    """JSON output and short runs stay clean."""
    assert not cli_phh.wants_progress(10_000, as_json=True)
    assert not cli_phh.wants_progress(3, as_json=False)


def test_handlog_root_lists_phh() -> None:
    """`handlog --help` lists the phh group."""
    from handlog.recorder.cli import cli

    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert "phh" in result.stdout


def test_subprocess_json_run() -> None:
    """A real `handlog phh verify --json` process: JSON on stdout and exit status 1."""
    process = subprocess.run(
        [sys.executable, "-c", "from handlog.recorder.cli import main; main()", "phh", "verify",
         str(FIXTURES / "flawed" / "omitted_fold.phh"), "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert process.returncode == 1, process.stderr
    report = json.loads(process.stdout)
    (entry,) = report["results"]
    assert entry["status"] == "illegal"
    assert entry["violation"]["action_index"] == 5
    assert "omits p4's action" in entry["reason"]


@pytest.mark.slow
def test_shared_data_json_run() -> None:
    """The shared PHH data through the CLI: no errors, and every non-match has a reason."""
    if not SHARED_PHH.is_dir():
        pytest.skip(f"the shared PHH data is not at {SHARED_PHH} (clone next to shared/)")
    code, out, _ = run(str(SHARED_PHH), "--json")
    report = json.loads(out)
    assert report["errors"] == 0
    assert report["hands"] == report["matched"] + report["mismatched"] + report["illegal"] \
        + report["unverified"]
    assert all(r["reason"] for r in report["results"] if r["status"] != "match")
    assert code == 1  # the eight half-chip records and the WSOP 2019 record


def test_verify_as_a_process_imports_only_what_it_needs(tmp_path: Path) -> None:
    """Start-up is most of a bar-sized run (issue 28): `phh verify` loads the PHH reader, the
    hand engine and click, and nothing of the tournament, the store, the server or the other
    commands; nor tomllib or zoneinfo for a file in the flat layout every PHH writer prints
    without a time of play."""
    flat = tmp_path / "flat.phh"
    flat.write_text("".join(line for line in (FIXTURES / "good" / "chip_unit.phh").read_text()
                            .splitlines(keepends=True) if not line.startswith("#")))
    probe = ("import sys\nfrom handlog.recorder.cli import cli\n"
             "try:\n"
             f"    cli(['phh', 'verify', {str(flat)!r}],\n"
             "        prog_name='handlog')\n"
             "except SystemExit:\n    pass\n"
             "print('LOADED', sorted(m for m in sys.modules if m.startswith('handlog.') "
             "or m.split('.')[0] in ('sqlalchemy', 'pydantic', 'fastapi', 'uvicorn', "
             "'starlette', 'psycopg', 'cryptography', 'tomllib', 'zoneinfo')))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    loaded = set(eval(result.stdout.split("LOADED ", 1)[1]))  # noqa: S307 - our own print
    needed = {"handlog.recorder.cli", "handlog.recorder.cli_root", "handlog.recorder.cli_phh",
              "handlog.recorder.phh_run", "handlog.replay.phh", "handlog.replay.phh_verify",
              "handlog.engine.hand", "handlog.engine.events"}
    assert needed <= loaded
    allowed = needed | {
        "handlog.engine", "handlog.recorder", "handlog.replay", "handlog.schema",
        "handlog.recorder.commands", "handlog.schema.text_limits", "handlog.engine.values",
        "handlog.engine.profiles", "handlog.engine.site_profiles", "handlog.engine.words",
        "handlog.engine.cards", "handlog.engine.commands", "handlog.engine.errors",
        "handlog.engine.evaluator", *(f"handlog.engine.hand_{part}" for part in (
            "apply", "decide", "memo", "pots", "push", "start", "state"))}
    assert loaded - allowed == set(), "phh verify loads more than it needs"


def imported_by(args: list[str]) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """`handlog ARGS` as a process (the installed script's entry point), and every module it
    imported (from -X importtime)."""
    process = subprocess.run(
        [sys.executable, "-X", "importtime", "-c",
         "from handlog.recorder.cli import main; main()", *args],
        capture_output=True, text=True, timeout=120, check=False)
    modules = {line.rsplit("|", 1)[1].strip() for line in process.stderr.splitlines()
               if line.startswith("import time:") and "|" in line}
    return process, modules


def test_plain_verify_as_a_process_loads_no_click(tmp_path: Path) -> None:
    """`handlog phh verify PATH...` (paths that exist, --json or not) runs without click, which
    costs more start-up than the engine (issue 28), and loads only the reader, the hand engine
    and the report; an option click must parse (`--rules`) goes through click."""
    flat = tmp_path / "flat.phh"
    flat.write_text("".join(line for line in (FIXTURES / "good" / "chip_unit.phh").read_text()
                            .splitlines(keepends=True) if not line.startswith("#")))
    for extra in ([], ["--json"]):
        process, modules = imported_by(["phh", "verify", str(flat), *extra])
        assert process.returncode == 0, process.stderr[-2000:]
        handlog = {m for m in modules if m.startswith("handlog")}
        assert "click" not in modules
        assert {"handlog.recorder.phh_run", "handlog.replay.phh_verify"} <= handlog
        assert handlog - {
            "handlog", "handlog.engine", "handlog.recorder", "handlog.replay", "handlog.schema",
            "handlog.recorder.cli", "handlog.recorder.phh_run", "handlog.replay.phh",
            "handlog.replay.phh_verify", "handlog.schema.text_limits", "handlog.engine.values",
            "handlog.engine.profiles", "handlog.engine.site_profiles", "handlog.engine.words",
            "handlog.engine.cards", "handlog.engine.commands", "handlog.engine.errors",
            "handlog.engine.events", "handlog.engine.evaluator", "handlog.engine.hand",
            *(f"handlog.engine.hand_{part}" for part in (
                "apply", "decide", "memo", "pots", "push", "start", "state"))} == set()
        assert not modules & {"tomllib", "zoneinfo", "sqlalchemy", "uvicorn"}
    process, modules = imported_by(["phh", "verify", "--rules", "bse", str(flat)])
    assert process.returncode == 0, process.stderr[-2000:]
    assert "click" in modules


@pytest.mark.parametrize("args", [
    ["good"], ["flawed", "--json"], ["--json", "malformed"], ["good", "flawed", "malformed"],
    ["no-such-folder"], ["empty"],
], ids=lambda args: " ".join(args))
def test_plain_verify_prints_what_the_click_command_prints(tmp_path: Path,
                                                           args: list[str]) -> None:
    """The plain form, run without click, prints the click command's text and exits with its
    status; what it does not take (a missing path, no PHH file) is click's own answer."""
    (tmp_path / "empty").mkdir()
    paths = [arg if arg.startswith("-") else str(FIXTURES / arg if arg != "empty"
                                                 else tmp_path / arg) for arg in args]
    process = subprocess.run(
        [sys.executable, "-c", "from handlog.recorder.cli import main; main()", "phh",
         "verify", *paths], capture_output=True, text=True, timeout=120, check=False)
    code, out, err = run(*paths)

    def steady(text: str) -> str:  # the time taken is the one thing that differs
        return re.sub(r'in [0-9.]+ s( \([0-9,]+ hands/s\))?|"seconds": [0-9.e-]+', "T", text)

    assert (process.returncode, steady(process.stdout)) == (code, steady(out))
    assert process.stderr == err
