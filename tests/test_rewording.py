"""Rewording every human-readable text changes no verdict: events hold facts and the words are
rendered when read (engine/words.py). Every text of the table of words, and every citation of
every profile, is replaced by other text; the golden logs of an earlier release still fold to
the same state and replay clean, while what readers show is the new words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from log_fixtures import GOLDEN_LOGS, import_log

from handlog.engine import words
from handlog.engine.profiles import PROFILES
from handlog.recorder.cli import cli
from handlog.replay.report import build_report
from handlog.replay.verify import replay_log
from handlog.schema.store import EventStore, open_store, upgrade_database


def _other(text: str) -> str:
    # Different text of another length, keeping format fields ({category} ...) working.
    fields = "".join(part.split("}")[0].join("{}") for part in text.split("{")[1:])
    return f"reworded-{len(text)}{fields}-x"


def reword_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replace each text of the table of words and each profile citation and title."""
    for name in ("HAND_CATEGORIES", "RANK_NAMES", "RANK_PLURALS"):
        monkeypatch.setattr(words, name, tuple(f"{name.lower()}-{i}"
                                               for i, _ in enumerate(getattr(words, name))))
    monkeypatch.setattr(words, "RULES", {key: (_other(cite), _other(gist) if gist else "")
                                         for key, (cite, gist) in words.RULES.items()})
    for name in ("HAND_PHRASES", "RULE_PATTERNS", "CONSEQUENCES", "MISDEAL_CAUSES",
                 "KILL_CAUSES", "PROCEDURES", "REASONS", "VIOLATIONS", "START_HOLDS"):
        table: dict[str, str] = getattr(words, name)
        monkeypatch.setattr(words, name, {key: _other(text) for key, text in table.items()})
    for profile in PROFILES.values():
        for key, text in list(profile.citations.items()):
            monkeypatch.setitem(profile.citations, key, _other(text))


def _folded(store: EventStore) -> dict[str, Any]:
    report = replay_log(store)
    return {
        "findings": report.findings,
        "tables": {stream: (fold.state, fold.effective) for stream, fold in report.tables.items()},
        "hands": report.hands,
    }


def test_rewording_changes_the_words_readers_show(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replacement really reaches what is rendered (so the test below can fail)."""
    before = (words.hand_name((6, 11, 5)), words.rule_title("tda-35"),
              words.CONSEQUENCES["call_or_fold"])
    reword_everything(monkeypatch)
    after = (words.hand_name((6, 11, 5)), words.rule_title("tda-35"),
             words.CONSEQUENCES["call_or_fold"])
    assert all(a != b for a, b in zip(before, after, strict=True))
    assert words.hand_name((6, 11, 5)).startswith("reworded-")
    assert words.rule_title("octobermuck:color_up").startswith("reworded-")
    assert words.rule_citation("tda-47").startswith("reworded-")


@pytest.mark.parametrize("path", GOLDEN_LOGS, ids=lambda p: p.stem)
def test_golden_log_folds_the_same_and_replays_clean_after_rewording(
        path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand name, rule title, consequence, cause, procedure and reason reworded: the
    same state, no finding, `handlog replay` clean; the report shows the new words."""
    upgrade_database(db_url)
    with open_store(db_url) as store:
        import_log(store, path)
        plain = _folded(store)
        plain_report = build_report(store).data
        reword_everything(monkeypatch)
        reworded = _folded(store)
        reworded_report = build_report(store).data
    assert plain["findings"] == [] and reworded["findings"] == []
    assert reworded == plain
    assert reworded_report["verdict"]["clean"] and plain_report["verdict"]["clean"]
    names = {pot["hand_name"] for table in reworded_report["tables"] for hand in table["hands"]
             for pot in hand["pots"] if pot["hand_name"]}
    assert names and all(name.startswith("reworded-") for name in names)
    result = CliRunner().invoke(cli, ["replay", "--db", db_url])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("clean")
