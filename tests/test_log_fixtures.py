"""Logs recorded by an earlier release (tests/fixtures/logs) import into a fresh database with
their hashes and replay clean with today's code: old event versions are upcast, old sentences
mapped to today's codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from log_fixtures import GOLDEN_LOGS, import_log

from recorder.cli import cli
from schema.store import open_store, upgrade_database


def test_there_are_golden_logs() -> None:
    assert {p.name for p in GOLDEN_LOGS} >= {"demo.jsonl", "octobermuck.jsonl",
                                             "irregularities.jsonl"}


@pytest.mark.parametrize("path", GOLDEN_LOGS, ids=lambda p: p.stem)
def test_old_log_imports_and_replays_clean(path: Path, db_url: str) -> None:
    """`handlog replay` on a log of an earlier release: clean, every hand accounted for."""
    upgrade_database(db_url)
    with open_store(db_url) as store:
        assert import_log(store, path) > 100
    result = CliRunner().invoke(cli, ["replay", "--db", db_url])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("clean")
