"""The report as a record: each hand's actions in order, its corrections and rulings inline,
an award by ruling beside the engine's proposal, inline SVG charts from the report's own
numbers, and a report of many hands paged by table."""

from __future__ import annotations

import html
import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from test_hands import PLAYERS, STREAM, play_short_all_in_hand
from web_support import Client, make_app, make_recorder, open_table

from handlog.replay import report_html as report_module
from handlog.replay.report import AuditReport, build_report


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: Any) -> AuditReport:
    """Hand 1: the short all-in hand (Ann's aces win the main pot, Bob's kings the side pot).
    Hand 2: a mis-keyed call is voided by the director; at the showdown he awards the pot to
    Dee by a ruling where the engine proposes Cy's aces."""
    tmp = tmp_path_factory.mktemp("record")
    recorder = make_recorder(tmp)
    open_table(recorder, STREAM, PLAYERS)
    app, auth = make_app(recorder)
    with Client(app, auth) as director:
        assert director.login("director").status_code == 200
        play_short_all_in_hand(director)
        # Hand 2, button on Bob: 0 Cy (small blind), 1 Dee (big blind), 2 Ann, 3 Bob.
        director.ok(STREAM, {"type": "start_hand"})
        keyed = director.ok(STREAM, {"type": "check_call", "player": 2})["version"]
        director.ok(STREAM, {"type": "void_events", "versions": [keyed],
                             "reason": "called in error: he folded", "rule": "tda-1"})
        director.ok(STREAM, {"type": "fold", "player": 2})
        for position in (3, 0, 1):
            director.ok(STREAM, {"type": "check_call", "player": position})
        for board in ("2c7d9h", "Td", "3s"):
            director.ok(STREAM, {"type": "deal_board", "cards": board})
            for position in (0, 1, 3):
                director.ok(STREAM, {"type": "check_call", "player": position})
        director.ok(STREAM, {"type": "show_cards", "player": 0, "cards": "AhAd"})
        director.ok(STREAM, {"type": "show_cards", "player": 1, "cards": "KcKd"})
        director.ok(STREAM, {"type": "muck_cards", "player": 3})
        # The engine would give the pot to Cy's aces; the director rules it Dee's.
        body = director.send(STREAM, {"type": "award_pots", "winners": [[1]],
                                      "ruling": "tda-1"})
        assert body.status_code == 200, body.text
    audit = build_report(recorder.store)
    recorder.store.close()
    return audit


def _hands(audit: AuditReport) -> list[dict[str, Any]]:
    return [h for t in audit.data["tables"] for h in t["hands"]]


def test_each_hand_lists_its_actions_in_order_with_names_and_amounts(
        recorded: AuditReport) -> None:
    first = _hands(recorded)[0]
    texts = [a["text"] for a in first["actions"]]
    assert texts[:2] == ["Bob posts small blind 50", "Cy posts big blind 100"]
    assert "Ann raises to 1000 (all-in), not a full raise" in texts
    streets = {a["text"]: a["street"] for a in first["actions"]}
    assert streets["board: Ah Kh 2d"] == "flop" and streets["Bob bets 500"] == "flop"
    assert streets["board: 3c"] == "river"
    versions = [a["version"] for a in first["actions"]]
    assert versions == sorted(versions)
    assert "Qs" not in " ".join(texts)  # Dee's unshown cards: shown cards only by default


def test_corrections_and_rulings_sit_in_the_hand_they_touch(recorded: AuditReport) -> None:
    first, second = _hands(recorded)[:2]
    assert first["corrections"] == []
    [void] = second["corrections"]
    assert void["kind"] == "void" and void["reason"] == "called in error: he folded"
    assert void["actor"] and void["recorded_at"]
    assert any(r["kind"] == "award by ruling" for r in second["rulings"])
    page = recorded.to_html()
    hand_html = page.split(f'id="{STREAM}-v{second["first_version"]}"')[1].split(
        '<div class="hand')[0]
    assert "called in error: he folded" in hand_html and "award by ruling" in hand_html


def test_an_award_by_ruling_is_printed_beside_the_engines_proposal(
        recorded: AuditReport) -> None:
    second = _hands(recorded)[1]
    [pot] = second["pots"]
    assert pot["ruling"]
    assert [w["name"] for w in pot["winners"]] == ["Dee"]
    [proposed] = second["proposal"]
    assert (proposed["pot"], proposed["winners"]) == (0, ["Cy"])
    assert proposed["hand_name"].startswith("Pair of aces")
    assert "the engine proposed: main pot to" in recorded.to_html()


def test_the_csv_has_the_engines_proposal_beside_each_ruling(recorded: AuditReport,
                                                            tmp_path: Path) -> None:
    """A pot awarded by a ruling has, in its CSV row, what the engine would have awarded; a
    pot the engine awarded leaves the column empty."""
    import csv

    out = tmp_path / "r.csv"
    recorded.write("csv", out)
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    ruled = [r for r in rows if r["ruling"]]
    assert ruled and all(r["engine_proposal"] for r in ruled)
    second = _hands(recorded)[1]
    [row] = [r for r in ruled if int(r["hand"]) == second["hand"]]
    assert row["winners"].endswith(":Dee=" + row["amount"])
    assert row["engine_proposal"].startswith("Cy (Pair of aces")
    assert all(r["engine_proposal"] == "" for r in rows if not r["ruling"])


def test_the_charts_are_inline_svg_drawn_from_the_reports_numbers(
        recorded: AuditReport) -> None:
    page = recorded.to_html()
    assert page.count("<svg") == 3 and "<script" not in page  # no tournament: no eliminations
    biggest = max(p["stack_end"] for h in _hands(recorded) for p in h["players"])
    chips = re.search(r"<desc>(\d+) players over (\d+) hands; the biggest stack was "
                      r"(\w+)'s ([\d,]+) chips", html.unescape(page))
    assert chips is not None
    assert int(chips.group(2)) == len(_hands(recorded))
    assert int(chips.group(4).replace(",", "")) == biggest
    assert page.index('id="verdict"') < page.index('id="charts"') < page.index('id="heads"')


def test_a_report_of_many_hands_has_a_page_per_table(recorded: AuditReport, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("handlog.replay.report.PAGED_ABOVE", 1)
    out = tmp_path / "event.html"
    written = recorded.write("html", out)
    table_page = tmp_path / "event-tables" / f"{STREAM}.html"
    assert written == [out, table_page]
    index = out.read_text(encoding="utf-8")
    assert '<div class="hand' not in index
    assert f'href="event-tables/{STREAM}.html#{STREAM}-v' in index
    page = table_page.read_text(encoding="utf-8")
    assert page.count('<div class="hand') == len(_hands(recorded))
    assert 'href="../event.html"' in page


def finding(stream: str, version: int) -> dict[str, Any]:
    return {"stream": stream, "version": version, "event": "pot_awarded", "rule": "tda-1",
            "message": "a copy's finding", "expected": "", "recorded": ""}


def event_of(audit: AuditReport, tables: int = 20, per_table: int = 1250,
             per_level: int = 100) -> dict[str, Any]:
    """The report's data with its hands copied out to `tables` x `per_table` hands (a level
    every `per_level` hands, a finding on every 500th): an event's size, for the index."""
    data = dict(audit.data)
    hands = _hands(audit)
    copies = []
    for k in range(tables):
        table = dict(audit.data["tables"][0], stream=f"table-big-{k}", table=str(k + 1))
        stream = table["stream"]
        table["hands"] = [dict(hands[i % len(hands)], stream=stream, hand=i + 1,
                               first_version=i * 40 + 1, level=1 + i // per_level,
                               findings=[finding(stream, i * 40 + 1)] if i % 500 == 499 else [])
                          for i in range(per_table)]
        copies.append(table)
    data["tables"] = copies
    return data


def test_the_index_of_a_paged_report_stays_small_and_links_each_level(
        recorded: AuditReport) -> None:
    """25,000 hands on 20 tables: the index links every table's levels (their first hand, on
    the table's page that holds it) and the hands with findings, not every hand; each table's
    pages list their own hands, 100 a page, and every link of the index lands on a hand
    there."""
    data = event_of(recorded)
    pages = {t["stream"]: report_module.table_page_name(Path("event.html"), t["stream"])
             for t in data["tables"]}
    index = report_module.render_html(data, pages)
    assert len(index.encode()) < 200_000
    for table in data["tables"]:
        base = pages[table["stream"]]
        stem = re.escape(base.removesuffix(".html"))
        links = re.findall(rf'href="({stem}(?:-\d+)?\.html)#([^"]+)"', index)
        hands = table["hands"]
        firsts = [i for i in range(len(hands)) if i % 100 == 0]
        bad = [i for i, h in enumerate(hands) if h["findings"]]
        assert links[0] == (base, table["stream"])  # the table's own heading
        assert links[1:] == [(report_module.page_file(base, i // 100 + 1),
                              f'{hands[i]["stream"]}-v{hands[i]["first_version"]}')
                             for i in firsts + bad]
        assert "level 13</a> <span class=\"muted\">#1201&ndash;#1250 (50)" in index
    table = data["tables"][0]
    for number, held in ((1, table["hands"][:100]), (13, table["hands"][1200:])):
        page = report_module.render_table_page(data, table, "../event.html", number,
                                               "table-big-0.html")
        anchors = set(re.findall(r'id="([^"]+)"', page))
        assert {f'{h["stream"]}-v{h["first_version"]}' for h in held} <= anchors
        assert page.count('<div class="hand') == len(held)
        assert f"page {number} of 13" in page
        assert 'href="table-big-0-2.html"' in page  # the pager links every page


def _svgs(page: str) -> dict[str, Any]:
    """The report's charts read back: each SVG parsed, by its title."""
    from xml.etree import ElementTree

    found = {}
    for svg in re.findall(r"<svg .*?</svg>", page, flags=re.S):
        root = ElementTree.fromstring(svg.replace("<svg ", f'<svg xmlns="{SVG}" ', 1))
        found[root.findtext(f"{{{SVG}}}title")] = root
    return found


SVG = "http://www.w3.org/2000/svg"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: Any) -> AuditReport:
    """A finished demo tournament (eliminations, prizes, corrections, rulings) and an irregular
    table."""
    from test_export_hands import build_log

    from handlog.schema.store import open_store

    log = build_log(tmp_path_factory.mktemp("finished"))
    with open_store(log.url) as store:
        return build_report(store)


def test_the_charts_read_back_match_the_log(finished: AuditReport) -> None:
    """A finished tournament: each stack line drawn is a player still in and ends at his final
    stack, their end labels do not overlap; the players out per level sum to the entrants but
    the winner, level by level as the log has them; the prize bars are the awards."""
    audit = finished
    charts = _svgs(audit.to_html())
    hands = sorted(_hands(audit), key=lambda h: (h["recorded_at"], h["position"]))
    final: dict[str, int] = {}
    for h in hands:
        for p in h["players"]:
            final[p["name"]] = p["stack_end"]
    chips = charts["Chips of the players still in, hand by hand"]
    drawn = {}
    for line in chips.iter(f"{{{SVG}}}polyline"):
        name, stack, _ = re.fullmatch(r"(.+): ([\d,]+) chips after hand (\d+)",
                                      line.findtext(f"{{{SVG}}}title") or "").groups()
        drawn[name] = int(stack.replace(",", ""))
    assert drawn and drawn == {n: v for n, v in final.items() if v > 0}
    ys = sorted(float(t.get("y", 0)) for t in chips.iter(f"{{{SVG}}}text")
                if t.get("class") == "end-label")
    assert len(ys) == len(drawn) and all(b - a >= 9.9 for a, b in itertools.pairwise(ys))
    [tournament] = [t for t in audit.data["tournaments"] if t.get("eliminations")]
    out = charts["Players out by level"]
    bars = {int(r.get("data-level", 0)): int(r.get("data-out", 0))
            for r in out.iter(f"{{{SVG}}}rect")}
    assert sum(bars.values()) == len(tournament["entrants"]) - 1
    level = {(h["table"], h["hand"]): h["level"] for h in hands}
    expected: dict[int, int] = {}
    for e in tournament["eliminations"]:
        if e["kind"] == "eliminated":
            lv = level[(e["table"], e["hand"])]
            expected[lv] = expected.get(lv, 0) + 1
    assert all(bars[lv] >= n for lv, n in expected.items())
    assert len(set(bars.values())) > 1  # not a straight line: levels differ
    prizes = charts["Prize pool by place"]
    assert [(int(r.get("data-place", 0)), int(r.get("data-amount", 0)))
            for r in prizes.iter(f"{{{SVG}}}rect")] == sorted(
        (a["place"], a["amount"]) for a in tournament["prizes"]["awards"])


def test_the_pdf_names_every_column_quotes_each_rule_once_and_wastes_no_page(
        finished: AuditReport, tmp_path: Path) -> None:
    """Read back: the hands' player tables have no empty header; the corrections and rulings
    tables cite rules by name, each rule's words printed once under them ("Rules cited"); no
    page is left nearly empty before the last; the charts are drawn."""
    import pypdf

    out = tmp_path / "audit.pdf"
    finished.write("pdf", out)
    pages = [" ".join(p.extract_text().split()) for p in pypdf.PdfReader(str(out)).pages]
    text = " ".join(pages)
    hands = len(_hands(finished))
    assert text.count("seat player role start put in won end cards") == hands
    tables = text[text.index("Corrections stream version kind"):text.index("Rules cited")]
    start = text.index("Rules cited")
    cited = text[start:text.index("Hands at table", start)]
    quote = "floor decisions consider the best interest of the game and fairness"
    assert quote not in tables and "TDA 1 " in tables
    assert cited.count(f"TDA 1: {quote}") == 1
    header = "handlog audit report replayed through the engine"
    assert all(len(p.replace(header, "")) > 300 for p in pages[:-1])
    assert "Players out by level" in text and "Prize pool by place" in text


def test_report_format_pdf_has_the_verdict_contents_hands_and_page_numbers(
        recorded: AuditReport, tmp_path: Path) -> None:
    """`handlog report --format pdf`: the verdict on page 1, a table of contents with page
    numbers, every hand with its actions, "page N of M" on every page."""
    import pypdf

    out = tmp_path / "audit.pdf"
    assert recorded.write("pdf", out) == [out]
    reader = pypdf.PdfReader(str(out))
    pages = [page.extract_text() for page in reader.pages]
    assert pages[0].startswith("handlog audit report")
    # No checkpoint was signed in this log: no findings, but not CLEAN.
    assert "NO FINDINGS, NOT ALL SIGNED: every event replays through the engine" in pages[0]
    assert "Contents" in pages[0] and "Hands at table 1" in pages[0]
    assert all(f"page {n} of {len(pages)}" in text for n, text in enumerate(pages, 1))
    text = " ".join(" ".join(p.split()) for p in pages)
    assert "Hand 1 at 1" in text and "Hand 2 at 1" in text
    assert "Ann raises to 1000 (all-in), not a full raise" in text
    assert "The engine proposed: main pot to Cy" in text
    assert "called in error: he folded" in text


def test_handlog_report_format_pdf_on_the_command_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from handlog.recorder.cli import cli

    url = f"sqlite:///{tmp_path / 'handlog.db'}"
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, PLAYERS)
    app, auth = make_app(recorder)
    with Client(app, auth) as director:
        assert director.login("director").status_code == 200
        play_short_all_in_hand(director)
    recorder.store.close()
    result = CliRunner().invoke(cli, ["report", "--db", url, "--format", "pdf",
                                      "--out", str(tmp_path / "r.pdf")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF-")
