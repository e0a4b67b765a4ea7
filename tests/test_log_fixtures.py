"""Logs recorded by an earlier release (tests/fixtures/logs) import into a fresh database with
their hashes and replay clean with today's code: old event versions are upcast, old sentences
mapped to today's codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from log_fixtures import GOLDEN_LOGS, import_log

from handlog.engine import words
from handlog.engine.table_events import ButtonPlaced, PlayerSeated
from handlog.engine.tournament_events import SeatsDrawn, TableClosed
from handlog.recorder.cli import cli
from handlog.schema.codec import decode_event
from handlog.schema.store import open_store, upgrade_database


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


def _codes_of(event: object) -> list[tuple[str, str]]:
    """(field, value) of every coded field of an event (and of its nested values)."""
    found = []
    for name in ("consequence", "cause", "procedure"):
        if hasattr(event, name):
            found.append((f"{type(event).__name__}.{name}", getattr(event, name)))
    for adjustment in getattr(event, "adjustments", ()):
        found.append(("ChipAdjustment.reason", adjustment.reason))
    return found


@pytest.mark.parametrize("path", GOLDEN_LOGS, ids=lambda p: p.stem)
def test_old_sentences_all_become_codes_and_identifiers(path: Path) -> None:
    """Decoded with today's upcasters, no event of an old log still holds one of the engine's
    sentences: every consequence, cause, procedure and adjustment reason is a known code and
    every rule an identifier."""
    known = (set(words.CONSEQUENCES) | set(words.MISDEAL_CAUSES) | set(words.KILL_CAUSES)
             | set(words.PROCEDURES) | set(words.REASONS))
    identifier = re.compile(r"[a-z0-9]+(?:[-:_][a-z0-9]+)*(?:, [a-z0-9]+(?:[-:_][a-z0-9]+)*)*")
    seen_rules = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["record"] != "event":
            continue
        event = decode_event(record["type"], record["schema_version"],
                             json.loads(record["payload"]))
        for field, code in _codes_of(event):
            assert code in known, f"{record['type']} v{record['version']}: {field} {code!r}"
        rules = list(getattr(event, "rules", ()))
        rule = getattr(event, "rule", "")
        if isinstance(rule, str) and rule:
            rules.append(rule)
        for cited in rules:
            assert identifier.fullmatch(cited), f"{record['type']}: rule {cited!r}"
            seen_rules.add(cited)
        for name in ("reason",):
            value = getattr(event, name, "")
            if isinstance(event, PlayerSeated | ButtonPlaced | SeatsDrawn | TableClosed):
                assert value in words.REASONS, f"{record['type']}: reason {value!r}"
    assert seen_rules  # the log cites rules at all
