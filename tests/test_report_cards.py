"""The audit report holds only the cards the table saw unless asked for all of them (issue 11):
a report built for anyone but the director shows the board and the hands shown at showdown,
never a hole card dealt face up to the dealer, exposed, mucked or voided; `--all-cards` adds
them, and the file says which it holds."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from web_support import LEVEL, make_recorder, open_table, record

from handlog.engine import commands as hc
from handlog.engine.cards import parse_cards
from handlog.engine.table_commands import StartHand, Undo
from handlog.recorder.cli import cli

STREAM = "table-1"
SHOWN = "JhTh"  # Bob's, shown at showdown
HIDDEN = {"Cy's mucked hand": "QsKs", "Ann's folded hand": "AhAs", "the exposed card": "9h"}


def _cards(cards: str) -> re.Pattern[str]:
    tokens = [cards[i:i + 2] for i in range(0, len(cards), 2)]
    return re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, tokens)) + r")(?![A-Za-z0-9])")


@pytest.fixture(scope="module")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One hand: every hole card dealt face up (one deal keyed twice: the first is voided),
    a card exposed, Ann folds, Bob shows at showdown, Cy mucks."""
    path = tmp_path_factory.mktemp("cards")
    recorder = make_recorder(path)
    open_table(recorder, STREAM)
    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.DealHole(1, parse_cards(HIDDEN["Cy's mucked hand"])))
    record(recorder, STREAM, Undo("keyed on the wrong seat"))
    for position, cards in ((0, SHOWN), (1, HIDDEN["Cy's mucked hand"]),
                            (2, HIDDEN["Ann's folded hand"])):
        record(recorder, STREAM, hc.DealHole(position, parse_cards(cards)))
    record(recorder, STREAM, hc.ExposeCard(2, parse_cards(HIDDEN["the exposed card"])[0], False))
    record(recorder, STREAM, hc.Fold(2))
    record(recorder, STREAM, hc.CheckCall(0))
    record(recorder, STREAM, hc.CheckCall(1))
    for board in ("2c3d4s", "7c", "8d"):
        record(recorder, STREAM, hc.DealBoard(parse_cards(board)))
        record(recorder, STREAM, hc.CheckCall(0))
        record(recorder, STREAM, hc.CheckCall(1))
    record(recorder, STREAM, hc.ShowCards(0, parse_cards(SHOWN)))
    record(recorder, STREAM, hc.MuckCards(1))
    record(recorder, STREAM, hc.AwardPots())
    recorder.store.close()
    return f"sqlite:///{path / 'handlog.db'}"


def _report(db_url: str, out: Path, fmt: str, *extra: str) -> str:
    result = CliRunner().invoke(cli, ["report", "--db", db_url, "--format", fmt,
                                      "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["json", "html"])
def test_a_report_holds_only_the_cards_shown_at_the_table_by_default(
        db_url: str, tmp_path: Path, fmt: str) -> None:
    text = _report(db_url, tmp_path / f"audit.{fmt}", fmt)
    for what, cards in HIDDEN.items():
        assert not _cards(cards).search(text), f"{what} ({cards}) is in the {fmt} report"
    assert _cards(SHOWN).search(text)  # shown at showdown: the table saw it
    assert "2c" in text and "8d" in text  # the board
    if fmt == "json":
        data = json.loads(text)
        assert data["scope"]["cards"] == "shown"
        players = {p["name"]: p["cards"] for p in data["tables"][0]["hands"][0]["players"]}
        assert players == {"Bob": ["Jh", "Th"], "Cy": [], "Ann": []}
    else:
        assert "only those shown at the table" in text


def test_all_cards_adds_every_hole_card_and_says_so(db_url: str, tmp_path: Path) -> None:
    text = _report(db_url, tmp_path / "audit.json", "json", "--all-cards")
    for what, cards in HIDDEN.items():
        assert _cards(cards).search(text), f"{what} ({cards}) missing with --all-cards"
    data: dict[str, Any] = json.loads(text)
    assert data["scope"]["cards"] == "all"
    html = _report(db_url, tmp_path / "audit.html", "html", "--all-cards")
    assert "every hole card the log knows" in html
