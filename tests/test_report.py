"""The auditor's report: built from the replay, in HTML, JSON and CSV, and it shows a forgery."""

from __future__ import annotations

import collections
import csv
import io
import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_export_hands import CASH, DIRECTOR, LogUnderTest, build_log

from handlog.engine import commands as hc
from handlog.engine.cards import parse_cards
from handlog.engine.events import PotAwarded
from handlog.engine.hand import decide
from handlog.engine.table import Level
from handlog.engine.table_commands import OpenTable, PlaceButton, SeatPlayer, StartHand
from handlog.recorder.cli import cli
from handlog.recorder.service import Recorder
from handlog.replay.fold import effective_events
from handlog.replay.report import AuditReport, build_report, csv_paths
from handlog.schema.store import NewEvent, open_store

FORGED = "table-forged-1"


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> LogUnderTest:
    return build_log(tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def report(log: LogUnderTest) -> AuditReport:

    with open_store(log.url) as store:
        return build_report(store)


def chips_put_in(events: list[Any]) -> dict[int, int]:
    """What each position put in, counted straight from the hand's events (independently of
    the report): posts, calls, bets and raises to street totals, less the top street bet
    above the next one, which comes back uncalled."""
    total: collections.Counter[int] = collections.Counter()
    street: collections.Counter[int] = collections.Counter()

    def close_street() -> None:
        ranked = sorted(street.items(), key=lambda kv: kv[1], reverse=True)
        if ranked:
            second = ranked[1][1] if len(ranked) > 1 else 0
            total[ranked[0][0]] -= max(ranked[0][1] - second, 0)
        street.clear()

    for event in events:
        kind = event.TYPE
        if kind == "chips_posted":
            total[event.player] += event.amount
            if event.kind != "ante":
                street[event.player] += event.amount
        elif kind == "player_called":
            total[event.player] += event.amount
            street[event.player] += event.amount
        elif kind in ("bet_made", "raise_made"):
            total[event.player] += event.to - street[event.player]
            street[event.player] = event.to
        elif kind in ("board_dealt", "pot_awarded", "cards_shown", "cards_mucked"):
            close_street()
    close_street()
    return dict(total)


def test_report_lists_every_hand_and_its_pots_hold_what_went_in(
        log: LogUnderTest, report: AuditReport) -> None:
    """Every hand_started in the log is a hand of the report; for each complete hand the pots
    add up to the chips put in (counted here from the raw events) and every stack at the end
    is the stack at the start less what went in plus what was won."""
    assert report.clean, report.findings
    with open_store(log.url) as store:
        heads, stored = store.snapshot()
    by_stream: dict[str, list[Any]] = collections.defaultdict(list)
    for event in stored:
        by_stream[event.stream_id].append(event)
    tables = {t["stream"]: t for t in report.data["tables"]}
    assert set(tables) == {h.stream_id for h in heads if h.kind == "table"}
    compared = 0
    for stream, table in tables.items():
        effective, _voided = effective_events(by_stream[stream])
        starts = [v for v, e in effective if e.TYPE == "hand_started"]
        assert [h["first_version"] for h in table["hands"]] == starts
        for hand in table["hands"]:
            if hand["status"] == "in progress":
                assert hand["balanced"] is None
                assert {"stream": stream, "hand": hand["hand"]} in report.data["verdict"][
                    "in_progress"]
                continue
            assert hand["balanced"] is True, hand["hand"]
            if hand["status"] != "complete":
                assert hand["pots"] == [] and all(p["stack_end"] == p["stack_start"]
                                                  for p in hand["players"])
                continue
            events = [e for v, e in effective
                      if hand["first_version"] <= v <= hand["last_version"]]
            went_in = chips_put_in(events)
            assert sum(p["amount"] for p in hand["pots"]) == sum(went_in.values())
            for player in hand["players"]:
                assert player["put_in"] == went_in.get(player["position"], 0)
                assert player["stack_end"] == (player["stack_start"] - player["put_in"]
                                               + player["won"])
            for pot in hand["pots"]:
                assert sum(w["share"] for w in pot["winners"]) == pot["amount"]
                assert {w["seat"] for w in pot["winners"]} <= {e["seat"]
                                                               for e in pot["eligible"]}
            compared += 1
    assert compared > 60


def test_report_has_the_tournament_its_ledger_places_and_prizes(report: AuditReport) -> None:
    [tournament] = report.data["tournaments"]
    assert tournament["structure"]["name"] == "TDA demo turbo"
    assert tournament["structure"]["profile"] == "tda"
    assert len(tournament["entrants"]) == 9
    ledger = tournament["chip_ledger"]
    assert ledger["starting_chips"] == 9 * 5000
    assert ledger["expected_total"] == ledger["at_tables"] and ledger["balanced"]
    assert ledger["expected_total"] == (ledger["starting_chips"] - ledger["late_deductions"]
                                        + ledger["color_up_change"]
                                        + ledger["carried_to_pots"] - ledger["withdrawn"]
                                        + ledger["corrected"])
    places = [e["place"] for e in tournament["eliminations"]]
    assert places == list(range(9, 1, -1))
    assert all(e["chips_at_start"] > 0 and e["hand"] > 0 for e in tournament["eliminations"])
    winner = tournament["winner"]
    prizes = tournament["prizes"]
    assert prizes["awards"][0]["place"] == 1 and prizes["awards"][0]["name"] == winner["name"]
    assert prizes["paid"] == prizes["pool"]


def test_corrections_and_rulings_appear_with_who(report: AuditReport) -> None:
    corrections = report.data["corrections"]
    undos = [c for c in corrections if c["kind"] == "undo"]
    assert undos and all(c["actor"] == "dealer-1" and c["device"] == "tablet-1"
                         and c["reason"] == "dealer mis-tap" for c in undos)
    assert all(c["affects"][0]["event"] and c["affects"][0]["payload"] for c in undos)
    [amend] = [c for c in corrections if c["kind"] == "amend"]
    assert amend["stream"] == CASH and amend["rule"].startswith("TDA 1: ")  # typed: Rule 1
    assert (amend["actor"], amend["device"]) == (DIRECTOR.name, DIRECTOR.device)
    assert amend["affects"][0]["event"] == "raise_made" and '"to":60' in amend["affects"][0][
        "payload"]
    assert '"to":100' in amend["replacement"]["payload"]
    rulings = report.data["rulings"]
    kinds = collections.Counter(r["kind"] for r in rulings)
    assert kinds["ruling"] >= 1 and kinds["penalty"] == 1 and kinds["misdeal"] >= 1
    assert kinds["hand voided"] == 1 and kinds["chip adjustment"] >= 1
    for ruling in rulings:
        assert ruling["rule"] and ruling["actor"] and ruling["device"] and ruling["recorded_at"]
    [penalty] = [r for r in rulings if r["kind"] == "penalty"]
    assert penalty["by"] == "Tina" and penalty["rule"] == "TDA 71"  # typed: TDA 2024 Rule 71
    assert penalty["player"] == "Bea" and penalty["device"] == DIRECTOR.device
    director = [r for r in rulings if r["kind"] == "ruling"]
    assert all(r["by"] == "director" and r["rule"].startswith("TDA 45: ") and r["affects"]
               for r in director)


def test_corrections_read_in_words_with_seats_and_names(report: AuditReport,
                                                       tmp_path: Path) -> None:
    """"Seat 1 P1: raise to 60 amended to 100 by Tina (...), TDA 1: ...": a treasurer reads
    each correction without the log's payloads or positions; an undo says it is one and cites
    its rule, in the JSON, the HTML page and the CSV."""
    corrections = report.data["corrections"]
    [amend] = [c for c in corrections if c["kind"] == "amend"]
    assert amend["what"] == "Seat 1 P1: raise to 60 amended to 100"
    assert amend["text"].startswith("Seat 1 P1: raise to 60 amended to 100 by Tina (")
    assert amend["text"].endswith(", TDA 1: floor decisions consider the best interest of the "
                                  "game and fairness")
    undos = [c for c in corrections if c["kind"] == "undo"]
    assert undos and all(re.fullmatch(r"Seat \d+ \w+ (checks|folds|calls \d+|raises to \d+"
                                      r"( \(all-in\))?) voided", c["what"]) for c in undos)
    assert all(c["text"].endswith("by dealer-1 (dealer mis-tap), Correction of an entry")
               for c in undos)
    page = report.to_html()
    corrections_table = page.split('id="corrections"')[1].split('id="rulings"')[0]
    assert "Seat 1 P1: raise to 60 amended to 100" in corrections_table
    assert '"to":' not in corrections_table and "{" not in corrections_table
    pots, log = csv_paths(tmp_path / "r.csv")
    report.write("csv", tmp_path / "r.csv")
    rows = list(csv.DictReader(io.StringIO(log.read_text(encoding="utf-8"))))
    assert amend["text"] in [r["text"] for r in rows if r["kind"] == "amend"]
    assert sum(r["kind"] == "undo" for r in rows) == len(undos)


def test_report_formats_on_the_command_line(log: LogUnderTest, report: AuditReport,
                                            tmp_path: Path) -> None:
    """`handlog report` writes each format from the same replay; the HTML page stands alone."""
    runner = CliRunner()
    unsigned = runner.invoke(cli, ["report", "--db", log.url, "--format", "json", "--out",
                                   str(tmp_path / "before.json")])
    assert unsigned.exit_code == 0, unsigned.output
    # Signed now, the whole log is covered and the report may say CLEAN.
    signed = runner.invoke(cli, ["log", "checkpoint", "--db", log.url, "--signing-key",
                                 str(tmp_path / "room.key")])
    assert signed.exit_code == 0, signed.output
    assert re.search(r"no findings, but \d+ events after the last checkpoint are not covered "
                     "by a signature|clean$", unsigned.output.strip())
    outputs = {}
    for fmt in ("json", "html", "csv"):
        out = tmp_path / f"audit.{fmt}"
        result = runner.invoke(cli, ["report", "--db", log.url, "--format", fmt,
                                     "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert result.output.strip().endswith("clean")
        outputs[fmt] = out
    data = json.loads(outputs["json"].read_text(encoding="utf-8"))
    assert data["verdict"]["clean"] and data["verdict"]["tournament_checks"]
    assert data["tables"] == report.data["tables"]
    page = outputs["html"].read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "@media print" in page
    assert not re.search(r"<script|<link|https?://|src=", page)  # nothing fetched
    hands = sum(len(t["hands"]) for t in data["tables"])
    assert page.count('<div class="hand') == hands
    assert "CLEAN" in page and "Chip ledger" in page and "dealer mis-tap" in page
    assert "TDA 71" in page and "Tina (floor-tablet)" in page  # typed: TDA 2024 Rule 71
    pots_file, log_file = csv_paths(outputs["csv"])
    rows = list(csv.DictReader(io.StringIO(pots_file.read_text(encoding="utf-8"))))
    assert len(rows) == sum(max(1, len(h["pots"])) for t in data["tables"] for h in t["hands"])
    assert {r["status"] for r in rows} == {"complete", "misdealt", "voided", "in progress"}
    entries = list(csv.DictReader(io.StringIO(log_file.read_text(encoding="utf-8"))))
    kinds = collections.Counter(e["kind"] for e in entries)
    assert kinds["undo"] >= 1 and kinds["amend"] == 1 and kinds["penalty"] == 1
    assert all(e["actor"] and e["device"] and e["recorded_at"] for e in entries)
    only = runner.invoke(cli, ["report", "--db", log.url, "--tournament", log.tournament,
                               "--format", "json", "--out", str(tmp_path / "one.json")])
    assert only.exit_code == 0, only.output
    one = json.loads((tmp_path / "one.json").read_text(encoding="utf-8"))
    assert [t["stream"] for t in one["tables"]] == [f"table-{log.tournament}-1"]
    assert CASH not in json.dumps(one["corrections"])


# ---------------------------------------------------------------------------------------------
# A forged award


def submit(recorder: Recorder, command: object) -> None:
    fold = recorder.table(FORGED)
    recorder.submit(FORGED, command, fold.version, uuid.uuid4(), DIRECTOR)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def forged(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    """A side-pot hand whose award is appended straight to the store, past the engine:
    the whole main pot to the wrong player."""
    url = f"sqlite:///{tmp_path_factory.mktemp('forged') / 'forged.db'}"
    with open_store(url, upgrade=True) as store:
        recorder = Recorder(store)
        submit(recorder, OpenTable("1", 9, "tda"))
        for seat, stack in zip((1, 2, 3), (1000, 1000, 300), strict=True):
            submit(recorder, SeatPlayer(seat, f"P{seat}", stack))
        submit(recorder, PlaceButton(1))
        submit(recorder, StartHand(Level(10, 20)))
        submit(recorder, hc.BetRaise(2, 100))
        submit(recorder, hc.CheckCall(0))
        submit(recorder, hc.BetRaise(1, 300))
        submit(recorder, hc.CheckCall(2))
        submit(recorder, hc.CheckCall(0))
        submit(recorder, hc.DealBoard(parse_cards("2c7d9h")))
        submit(recorder, hc.BetRaise(0, 200))
        submit(recorder, hc.CheckCall(2))
        for cards in ("Js", "3d"):
            submit(recorder, hc.DealBoard(parse_cards(cards)))
            submit(recorder, hc.CheckCall(0))
            submit(recorder, hc.CheckCall(2))
        for position, cards in ((0, "AsAh"), (2, "KsKh"), (1, "QsQh")):
            submit(recorder, hc.ShowCards(position, parse_cards(cards)))
        fold = recorder.table(FORGED)
        assert fold.state is not None and fold.state.hand is not None
        awards = decide(fold.state.hand, hc.AwardPots())
        first = awards[0]
        assert isinstance(first, PotAwarded)
        wrong = PotAwarded(first.pot, first.amount, first.eligible, (1,), (first.amount,))
        events = [NewEvent.from_domain(e, event_id=uuid.uuid4(), actor="mallory",
                                       device="sql-console", recorded_at=recorder.clock())
                  for e in (wrong, *awards[1:])]
        store.append(FORGED, fold.version, events)
        return url, fold.version + 1


def test_forged_award_is_a_finding_in_every_format(forged: tuple[str, int],
                                                   tmp_path: Path) -> None:
    url, version = forged
    runner = CliRunner()
    files = {}
    for fmt in ("json", "html", "csv"):
        out = tmp_path / f"forged.{fmt}"
        result = runner.invoke(cli, ["report", "--db", url, "--format", fmt, "--out", str(out)])
        assert result.exit_code == 1, result.output
        assert "1 finding(s)" in result.output
        files[fmt] = out
    data = json.loads(files["json"].read_text(encoding="utf-8"))
    assert data["verdict"]["clean"] is False and data["verdict"]["chain"]["ok"]
    [finding] = data["verdict"]["findings"]
    assert (finding["stream"], finding["version"], finding["event"]) == (
        FORGED, version, "pot_awarded")
    assert finding["rule"] == "TDA 20, TDA 21"
    assert "winners=(0,)" in finding["expected"] and "winners=(1,)" in finding["recorded"]
    [hand] = data["tables"][0]["hands"]
    assert hand["findings"] == [finding]
    main = hand["pots"][0]
    assert [w["name"] for w in main["winners"]] == ["P3"] and main["version"] == version
    page = files["html"].read_text(encoding="utf-8")
    assert "1 FINDING:" in page and 'class="hand flagged"' in page
    assert f"<td>{FORGED}</td><td class=n>{version}</td><td>pot_awarded</td>" \
           "<td>TDA 20, TDA 21</td>" in page
    pots_file, log_file = csv_paths(files["csv"])
    rows = list(csv.DictReader(io.StringIO(pots_file.read_text(encoding="utf-8"))))
    assert rows and all(f"v{version} pot_awarded [TDA 20, TDA 21]" in r["findings"] for r in rows)
    entries = list(csv.DictReader(io.StringIO(log_file.read_text(encoding="utf-8"))))
    [row] = [e for e in entries if e["kind"] == "finding"]
    assert (row["stream"], row["version"], row["event"], row["rule"]) == (
        FORGED, str(version), "pot_awarded", "TDA 20, TDA 21")


def test_odd_chip_lines_appear_only_on_hands_with_a_split_pot(report: AuditReport) -> None:
    """Odd chips exist only where a pot is split: the 'odd chips to' column and the odd-chip
    unit line are printed for those hands and no other."""
    html = report.to_html()
    blocks = re.split(r'<div class="hand', html)[1:]
    hands = [h for t in report.data["tables"] for h in t["hands"]] \
        if "tables" in report.data else report.data["hands"]
    assert len(blocks) == len(hands) > 0
    split_hands = 0
    for block, hand in zip(blocks, hands, strict=True):
        split = any(len(p["winners"]) > 1 for p in hand["pots"])
        split_hands += split
        assert ("odd chips to" in block) is split
        assert ("odd chips of a split pot" in block) is split
    assert 0 < split_hands < len(hands)
