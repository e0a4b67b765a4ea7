"""`handlog import --into-log` through the CLI on SQLite and PostgreSQL: the public samples and
handlog's own exports (PHH, PokerStars, OHH of a TDA and an Octobermuck demo) are recorded as
imported table streams, hand by hand with the file, the hand's id and the format as facts;
hands not verified are listed and not recorded; `handlog replay` is clean; `handlog export` of
the log gives the same hands back (every stack), and a file is imported once."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from handlog.engine.table_events import HandImported, PlayerLeft, PlayerSeated
from handlog.recorder.cli import cli
from handlog.replay.hands import table_hands
from handlog.replay.import_log import IntoLog
from handlog.schema.store import open_store

SAMPLES = Path("/work/shared/data/hand-histories")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def histories(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples, and handlog's own exports of two small demo events in all three formats."""
    folder = tmp_path_factory.mktemp("histories")
    if SAMPLES.is_dir():
        for path in SAMPLES.rglob("*"):
            if path.is_file() and path.suffix != ".md":
                (folder / path.name).write_bytes(path.read_bytes())
    for name, extra in (("tda", []), ("oct", ["--structure",
                                                str(EXAMPLES / "octobermuck.toml")])):
        url = f"sqlite:///{folder.parent / (name + '.db')}"
        result = run("demo", "--players", "6", "--tables", "1", "--seed", "5", *extra,
                     "--db", url)
        assert result.exit_code == 0, result.output
        for fmt in ("phh", "pokerstars", "ohh"):
            out = folder / f"own-{name}.{fmt}"
            result = run("export", "--format", fmt, "--all-cards", "--out", str(out),
                         "--db", url)
            assert result.exit_code == 0, result.output
    return folder


def _imported(url: str) -> list[tuple[str, str, str, tuple[int, ...]]]:
    """(file, hand id, format, end stacks) of every hand in the log's imported streams."""
    found: list[tuple[str, str, str, tuple[int, ...]]] = []
    with open_store(url) as store:
        for head in store.streams():
            stored = store.read(head.stream_id)
            marks = [e.decode() for e in stored if e.type == "hand_imported"]
            hands = table_hands(head.stream_id, stored)
            assert len(marks) == len(hands)
            # (a deal declared a misdeal before a hand, PHH `_misdeals`, is marked with the
            # id of the hand re-dealt: the hands are the others)
            found.extend((m.source, m.hand_id, m.format, tuple(h.steps[-1].stacks))
                         for m, h in zip(marks, hands, strict=True) if h.outcome != "misdealt")
    return found


def _findings(output: str) -> set[str]:
    """A replay's findings, without the stream and version they are at."""
    return set(re.findall(r"(?m)^FINDING \S+ v\d+ (.*)$", output))


def _same(a: list[Any], b: list[Any]) -> bool:
    """The same stacks, in chips or in the file's units (dollars of a cash game, in cents)."""
    if len(a) != len(b):
        return False
    return any(all(Decimal(str(x)) * scale == Decimal(str(y)) for x, y in zip(a, b, strict=True))
               for scale in (1, 10, 100, 1000, 10000))


def test_import_into_log_records_the_verified_hands_and_gives_them_back(
        histories: Path, db_url: str, tmp_path: Path) -> None:
    result = run("import", str(histories), "--into-log", "--json", "--db", db_url)
    report = json.loads(result.output)
    into = report["into_log"]
    by_hand = {(r["file"], "" if r["hand"] is None else str(r["hand"])): r
               for r in report["results"]}
    recorded = {(r["file"], r["hand"]): r for r in into["recorded"]}
    left_out = {(n["file"], n["hand"]): n for n in into["not_recorded"]}
    # Every hand is recorded or listed with its reason; only verified hands are recorded.
    assert set(recorded) | set(left_out) == set(by_hand)
    assert not set(recorded) & set(left_out)
    assert all(by_hand[key]["status"] == "match" for key in recorded)
    assert all(n["reason"] for n in left_out.values())
    assert all(key in left_out for key, r in by_hand.items() if r["status"] != "match")
    # The samples all match and are all recorded; most of handlog's own hands too.
    samples = [key for key in by_hand if "own-" not in key[0]]
    assert samples and all(key in recorded for key in samples)
    assert len(recorded) > 0.9 * len(by_hand)
    assert result.exit_code == (0 if report["illegal"] + report["mismatched"]
                                + report["errors"] == 0 else 1)
    # The facts of each hand: its file, its id there, its format; its stacks the file's.
    facts = _imported(db_url)
    assert sorted((f, h) for f, h, _k, _s in facts) == sorted(recorded)
    for file, hand, fmt, stacks in facts:
        assert fmt == recorded[(file, hand)]["format"]
        assert _same(by_hand[(file, hand)]["finishing_stacks"], list(stacks))
    # Replayed like recorded hands: what the replay finds is what it finds in the recorded
    # events the own files were exported from (the tournaments are rebuilt: the demo's
    # Octobermuck of 6 is over without a prize paid, both times), nothing else.
    replayed = run("replay", "--db", db_url)
    recorded_findings = {f for name in ("tda", "oct") for f in _findings(run(
        "replay", "--db", f"sqlite:///{histories.parent / (name + '.db')}").output)}
    assert _findings(replayed.output) == recorded_findings, replayed.output
    # Exported and read back: the same hands, stack for stack, in the log's order.
    for fmt in ("phh", "pokerstars", "ohh"):
        out = tmp_path / f"back.{fmt}"
        exported = run("export", "--format", fmt, "--all-cards", "--out", str(out),
                       "--db", db_url)
        assert exported.exit_code == 0, exported.output
        back = json.loads(run("import", str(out), "--format", fmt, "--json").output)
        assert back["matched"] == len(facts), (fmt, back["results"][:3])
        assert [tuple(r["finishing_stacks"]) for r in back["results"]] == \
            [stacks for _f, _h, _k, stacks in facts]
    # A file is imported once.
    again = run("import", str(histories), "--into-log", "--db", db_url)
    assert again.exit_code == 1 and "already in the log" in again.output


def test_a_hand_not_verified_is_listed_and_not_recorded(tmp_path: Path) -> None:
    """A PHH hand whose recorded finishing stacks the engine does not reach."""
    phh = tmp_path / "wrong.phh"
    phh.write_text('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\n'
                   "min_bet = 100\nstarting_stacks = [1000, 1000]\n"
                   'actions = ["d dh p1 AsAd", "d dh p2 KsKd", "p2 f"]\n'
                   "finishing_stacks = [1000, 1000]\n", encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'log.db'}"
    result = run("import", str(phh), "--into-log", "--db", url)
    assert result.exit_code == 1
    assert "Recorded 0 verified hand(s) in the log: none" in result.output
    assert f"{phh}: mismatch: " in result.output
    with open_store(url, upgrade=True) as store:
        assert store.streams() == []


def test_moves_whose_order_the_hands_cannot_settle_never_leave_a_hand_out() -> None:
    """`IntoLog.writes` orders the streams' blocks by the hands' times and each move's leaving
    before its arrival; when the moves wait on each other (hands of one second whose order the
    chips do not settle), the blocks left are still written, in the hands' order."""
    def block(table: str, leaving: str, arriving: str) -> list[Any]:
        return [HandImported(table, "1", "ohh", "2026-12-07T02:58:40Z"),
                PlayerLeft(1, leaving, 100, "moved"),
                PlayerSeated(2, arriving, 100, reason="moved")]

    into = IntoLog(streams={"a": block("a", "Ann", "Bob"), "b": block("b", "Bob", "Ann")})
    a, b = into.streams["a"], into.streams["b"]
    into._moved = [(a[1], b[2]), (b[1], a[2])]  # Ann a -> b and Bob b -> a: each waits
    written = [e for write in into.writes() for _s, (_start, events) in write.items()
               for e in events]
    assert sorted(map(id, written)) == sorted(map(id, a + b))
