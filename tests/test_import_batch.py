"""A batch never stops (issue 27): `handlog import` of a folder where one file is damaged reads
every good hand, lists each hand or file it cannot read with its file, line and reason, gives
per-file and per-hand results with `--json`, and says by its exit status that something
failed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from handlog.recorder.cli import cli
from handlog.replay.import_pokerstars import split_hands
from handlog.schema.store import open_store

SAMPLES = Path("/work/shared/data/hand-histories")
pytestmark = pytest.mark.skipif(not SAMPLES.is_dir(), reason=f"no samples at {SAMPLES}")


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _stars(name: str) -> str:
    return (SAMPLES / "pokerstars" / name).read_bytes().decode("utf-8-sig").replace("\r\n", "\n")


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """The public samples (7 good hands), a PokerStars file of three hands whose second is
    damaged (its table line gone), and an OHH file of three hands whose second is cut short."""
    root = tmp_path / "histories"
    shutil.copytree(SAMPLES, root)
    good = _stars("hhp__uncalled-bet-returned.txt").strip()
    damaged = _stars("hhp__posts-allin.txt").strip().split("\n")
    assert "is the button" in damaged[1]
    del damaged[1]
    (root / "mixed.txt").write_text("\n\n\n".join([good, "\n".join(damaged), good]) + "\n",
                                    encoding="utf-8")
    ohh = (SAMPLES / "ohh" / "ohh-spec-example__holdem-cash-888-split.ohh").read_text(
        encoding="utf-8").strip()
    (root / "cut.ohh").write_text("\n\n".join([ohh, ohh[: len(ohh) // 2], ohh]) + "\n",
                                  encoding="utf-8")
    return root


def test_one_damaged_file_among_good_ones_lists_the_bad_hands_and_imports_the_rest(
        folder: Path) -> None:
    result = run("import", str(folder), "--json")
    assert result.exit_code == 1  # something failed
    report = json.loads(result.stdout)
    errors = [r for r in report["results"] if r["status"] == "error"]
    # Every good hand is read and matched: 7 samples, 2 of the PokerStars file, 2 of the OHH.
    assert report["matched"] == 7 + 2 + 2
    assert report["hands"] == report["matched"] + len(errors)
    by_file = {Path(f["file"]).name: f for f in report["files"]}
    assert by_file["mixed.txt"]["status"] == "failed"
    assert (by_file["mixed.txt"]["matched"], by_file["mixed.txt"]["errors"]) == (2, 1)
    assert (by_file["cut.ohh"]["matched"], by_file["cut.ohh"]["errors"]) == (2, 1)
    assert all(f["status"] == "ok" for name, f in by_file.items()
               if name not in ("mixed.txt", "cut.ohh"))
    assert [Path(f["file"]).name for f in report["skipped_files"]] == ["README.md"]
    assert report["failed_files"] == 2
    # The bad ones: file, line and reason.
    stars = next(r for r in errors if r["file"].endswith("mixed.txt"))
    mixed = (folder / "mixed.txt").read_text(encoding="utf-8").split("\n")
    assert mixed[stars["line"] - 1].startswith("PokerStars Hand #")
    assert stars["line"] > 1 and "button" in stars["reason"]
    assert f"mixed.txt:{stars['line']}" in stars["reason"]
    cut = next(r for r in errors if r["file"].endswith("cut.ohh"))
    assert cut["line"] > 1 and "invalid JSON" in cut["reason"]
    # Each hand read carries the line it starts on.
    assert all(isinstance(r["line"], int) for r in report["results"]
               if not r["file"].endswith(".phh"))


def test_the_readable_summary_names_file_and_line_and_the_failed_files(folder: Path) -> None:
    result = run("import", str(folder))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "matched          11" in result.output
    assert "mixed.txt:" in result.output and "no table line with the button" in result.output
    assert "Files with a hand not imported (2 of " in result.output
    assert "FAILED: 2 in error" in result.output


def test_a_format_forced_on_files_of_another_reads_on(folder: Path) -> None:
    """`--format pokerstars` over a folder with OHH files: each is an error (no PokerStars
    header), not the `split_hands` traceback, and the PokerStars hands are read."""
    assert split_hands('{"ohh": {}}') == []
    result = run("import", str(folder), "--format", "pokerstars", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["matched"] == 4 + 2
    not_stars = [r for r in report["results"] if r["file"].endswith(".ohh")]
    assert not_stars and all(r["status"] == "error" and "no PokerStars hand header"
                             in r["reason"] for r in not_stars)


def test_into_log_records_the_good_hands_of_a_damaged_batch(folder: Path,
                                                            tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'log.db'}"
    result = run("import", str(folder), "--into-log", "--json", "--db", url)
    assert result.exit_code == 1
    into = json.loads(result.stdout)["into_log"]
    assert len(into["recorded"]) == 11
    assert {Path(n["file"]).name for n in into["not_recorded"]} == {"mixed.txt", "cut.ohh"}
    with open_store(url) as store:
        assert len(store.streams()) == 7 + 2
