"""The read paths stream the log (issue 17 item 4): `replay`, `log verify` and `log export` read
it through one cursor and fold or hash it as it comes, and give what the whole-log reads gave.
benchmarks/memory.py measures the memory."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from log_fixtures import GOLDEN_LOGS, import_log

import handlog.replay.report_html
import handlog.replay.report_stream as report_stream
import handlog.schema.logcheck
from handlog.engine.errors import RuleViolation
from handlog.engine.events import BetMade, RaiseMade
from handlog.engine.table_commands import AmendAmount, VoidEvents
from handlog.engine.table_events import PlayerSeated
from handlog.recorder.cli import cli
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor, Recorder
from handlog.replay.export_hands import LogSnapshot
from handlog.replay.fold import StreamFolder
from handlog.replay.report import AuditReport, build_report
from handlog.replay.report_stream import write_report
from handlog.replay.verify import ReplayReport, replay_log
from handlog.schema.export import export_lines, export_store
from handlog.schema.logcheck import check_store
from handlog.schema.store import EventStore, NewEvent

DIRECTOR = Actor("td", "director", "floor")


def _same(streamed: ReplayReport, whole: ReplayReport) -> None:
    assert streamed.findings == whole.findings
    assert (streamed.streams, streamed.events, streamed.hands, streamed.in_progress) == (
        whole.streams, whole.events, whole.hands, whole.in_progress)
    assert streamed.tables.keys() == whole.tables.keys()
    for stream, fold in streamed.tables.items():
        other = whole.tables[stream]
        assert (fold.version, fold.state, fold.findings, fold.voided) == (
            other.version, other.state, other.findings, other.voided)
        assert tuple(fold.effective) == tuple(other.effective)


def _corrected_demo(store: EventStore) -> str:
    """A two-table demo with table breaks (moves), and a void and an amend recorded."""
    recorder = Recorder(store)
    run_demo(recorder, players=12, tables=2, seed=3, hands=30)
    stream = next(h.stream_id for h in store.streams() if h.kind == "table")
    fold = recorder.table(stream)
    bets = [(v, e) for v, e in fold.effective if isinstance(e, BetMade | RaiseMade)]
    amended = False
    for (version, bet), delta in ((b, d) for b in reversed(bets) for d in (10, -10, 100)):
        try:
            recorder.submit(stream, AmendAmount(version, bet.to + delta, "miskeyed", "tda-1"),
                            fold.version, uuid.uuid4(), DIRECTOR)
        except RuleViolation:
            continue
        amended = True
        break
    assert amended
    fold = recorder.table(stream)
    recorder.submit(stream, VoidEvents((fold.effective[-1][0],), "keyed twice", "tda-1"),
                    fold.version, uuid.uuid4(), DIRECTOR)
    return stream


@pytest.mark.parametrize("path", GOLDEN_LOGS, ids=lambda p: p.stem)
def test_the_streamed_replay_equals_the_fold_of_each_whole_stream(path: Path,
                                                                  store: EventStore) -> None:
    import_log(store, path)
    whole = replay_log(LogSnapshot.read(store))  # type: ignore[arg-type]
    _same(replay_log(store), whole)
    trimmed = replay_log(store, keep_events=False)
    assert trimmed.findings == whole.findings


def test_the_streamed_replay_applies_voids_and_amends_like_the_whole_fold(
        store: EventStore) -> None:
    stream = _corrected_demo(store)
    streamed = replay_log(store)
    whole = replay_log(LogSnapshot.read(store))  # type: ignore[arg-type]
    _same(streamed, whole)
    assert streamed.tables[stream].voided
    assert any(e.type == "event_amended" for e in store.read(stream))
    moved = [e for f in streamed.tables.values() for _v, e in f.effective
             if getattr(e, "reason", "") == "moved"]
    assert moved, "the demo moves players (their chips are checked across streams)"
    for tournament in {f.state.tournament for f in streamed.tables.values() if f.state}:
        _same(replay_log(store, tournament),
              replay_log(LogSnapshot.read(store), tournament))  # type: ignore[arg-type]


def test_log_verify_streams_a_sound_log_without_the_full_check(
        store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    _corrected_demo(store)
    full = handlog.schema.logcheck._full_check
    whole = full(_unrereadable(store))
    monkeypatch.setattr(handlog.schema.logcheck, "_full_check", _refuse)
    streamed = check_store(store)
    assert streamed.ok and whole.ok
    assert (streamed.events, streamed.streams, streamed.size, streamed.root) == (
        whole.events, whole.streams, whole.size, whole.root)


def test_log_verify_of_a_broken_log_reads_it_again_and_names_the_break(
        store: EventStore, tmp_path: Path) -> None:
    _corrected_demo(store)
    out = tmp_path / "log.jsonl"
    export_store(store, out)
    lines = out.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[5])
    record["payload"] = record["payload"].replace("}", ',"x":1}', 1)
    lines[5] = json.dumps(record)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["log", "verify", str(out)])
    assert result.exit_code == 1
    assert f"payload changed at stream {record['stream_id']!r}, version " \
           f"{record['version']}" in result.output


def test_log_export_streams_the_snapshot_it_always_wrote(store: EventStore,
                                                         tmp_path: Path) -> None:
    _corrected_demo(store)
    out = tmp_path / "log.jsonl"
    heads, events = store.snapshot()
    assert export_store(store, out) == (len(events), len(heads))
    assert out.read_text(encoding="utf-8").splitlines() == list(export_lines(heads, events))


def test_replay_json_is_written_as_json_dumps_would(store: EventStore, db_url: str) -> None:
    _corrected_demo(store)
    result = CliRunner().invoke(cli, ["replay", "--db", db_url, "--json"])
    parsed = json.loads(result.output)
    assert result.exit_code == (0 if parsed["clean"] else 1)
    assert result.output == json.dumps(parsed, indent=2) + "\n"
    assert parsed["events"] == len(store.snapshot()[1])


def _refuse(*_args: object) -> None:
    raise AssertionError("the full check ran on a sound log")


def _unrereadable(store: EventStore) -> handlog.schema.logcheck.LogSource:
    """The database as a source the check cannot read twice (so it checks in full)."""
    captured: list[handlog.schema.logcheck.LogSource] = []
    original = handlog.schema.logcheck.check_log

    def capture(source: handlog.schema.logcheck.LogSource,
                *_a: object) -> handlog.schema.logcheck.LogCheck:
        source = source.reread() if source.reread else source
        events = list(source.events)
        source.events = events
        captured.append(source)
        return handlog.schema.logcheck.LogCheck()

    handlog.schema.logcheck.check_log = capture  # type: ignore[assignment]
    try:
        check_store(store)
    finally:
        handlog.schema.logcheck.check_log = original
    return captured[0]


@pytest.mark.parametrize("tournament", [None, "first"])
@pytest.mark.parametrize("fmt", ["html", "json", "csv"])
def test_the_streamed_report_writes_the_files_the_whole_build_writes(
        store: EventStore, tmp_path: Path, tournament: str | None, fmt: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The report built table by table (replay/report_stream.py) is byte for byte the one
    built whole: the paged HTML's index page and every table page, the one JSON object, both
    CSV files."""
    _corrected_demo(store)
    wanted = None
    if tournament:
        wanted = next(h.stream_id for h in store.streams() if h.kind == "tournament")
    _streamed_is_whole(store, tmp_path, wanted, fmt, monkeypatch)


@pytest.mark.parametrize("fmt", ["html", "json", "csv"])
def test_a_streamed_report_with_findings_across_streams_is_the_whole_builds(
        store: EventStore, tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finding the checks across streams make (known once every table is read) in a hand
    of a table written before it, and a verdict that is not clean: the tables written again,
    the same files as the whole build's."""
    _corrected_demo(store)
    replayed = replay_log(store)
    stream, fold = next((s, f) for s, f in sorted(replayed.tables.items())
                        if f.state and len(f.state.seats) < f.state.seat_count
                        and not f.state.hand_in_progress)
    assert fold.state is not None
    seat = min(set(range(1, fold.state.seat_count + 1)) - {s.seat for s in fold.state.seats})
    forged = PlayerSeated(seat, "nobody", 5000, reason="moved")
    last = store.read(stream, fold.version)[-1]
    store.append(stream, fold.version, [NewEvent.from_domain(
        forged, event_id=uuid.uuid4(), actor="mallory", device="sql-console",
        recorded_at=last.recorded_at)])
    audit, whole = _streamed_is_whole(store, tmp_path, None, fmt, monkeypatch)
    assert not audit.clean
    [finding] = [f for f in audit.findings if f["stream"] == stream]
    assert finding["version"] == fold.version + 1 and "left no table" in finding["message"]
    hands = [h for t in whole.data["tables"] if t["stream"] == stream for h in t["hands"]]
    assert hands[-1]["findings"] == [finding]


def test_the_streamed_report_reads_and_folds_each_table_once(
        store: EventStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay's read and fold of a table are the ones its pages are built from (a clean
    log: moves between tables, nothing found)."""
    run_demo(Recorder(store), players=12, tables=2, seed=3, hands=30)
    tables = [h.stream_id for h in store.streams() if h.kind == "table"]
    reads: list[str] = []
    folds: list[str] = []
    read, folder = EventStore.read, StreamFolder.__init__

    def counted_read(self: EventStore, stream: str, *args: object) -> object:
        reads.append(stream)
        return read(self, stream, *args)  # type: ignore[arg-type]

    def counted_fold(self: StreamFolder, stream: str, *args: object) -> None:
        folds.append(stream)
        folder(self, stream, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(EventStore, "read", counted_read)
    monkeypatch.setattr(StreamFolder, "__init__", counted_fold)
    monkeypatch.setattr(handlog.replay.report_html, "HANDS_PER_PAGE", 7)
    for fmt in ("html", "json"):
        reads.clear()
        folds.clear()
        audit, _files = write_report(store, fmt, tmp_path / f"r.{fmt}", None, "db",
                                     paged_above=0)
        assert audit.clean
        assert sorted(s for s in reads if s in tables) == sorted(tables)
        assert sorted(folds) == sorted(tables)


def _streamed_is_whole(store: EventStore, tmp_path: Path, wanted: str | None, fmt: str,
                       monkeypatch: pytest.MonkeyPatch) -> tuple[AuditReport, AuditReport]:
    # Pages of 7 hands: each table's hands on several pages.
    monkeypatch.setattr(handlog.replay.report_html, "HANDS_PER_PAGE", 7)
    whole_out = tmp_path / "whole" / f"r.{fmt}"
    streamed_out = tmp_path / "streamed" / f"r.{fmt}"
    whole_out.parent.mkdir()
    streamed_out.parent.mkdir()
    whole = build_report(store, wanted, "db", all_cards=False)
    whole_files = whole.write(fmt, whole_out, paged_above=0)
    built = []
    original = report_stream._streamed

    def spy(*args: object) -> object:
        built.append(True)
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(report_stream, "_streamed", spy)
    audit, files = write_report(store, fmt, streamed_out, wanted, "db", paged_above=0)
    assert built, "the report was streamed"
    assert len(files) == len(whole_files) >= (6 if fmt == "html" else 1)
    for mine, theirs in zip(files, whole_files, strict=True):
        assert mine.relative_to(streamed_out.parent) == theirs.relative_to(whole_out.parent)
        assert mine.read_bytes() == theirs.read_bytes(), mine.name
    assert sorted(p.relative_to(streamed_out.parent) for p in streamed_out.parent.rglob("*")
                  if p.is_file()) == sorted(p.relative_to(whole_out.parent)
                                            for p in whole_out.parent.rglob("*") if p.is_file())
    assert audit.clean == whole.clean
    assert [len(t["hands"]) for t in audit.data["tables"]] == [
        len(t["hands"]) for t in whole.data["tables"]]
    return audit, whole


@pytest.mark.parametrize("fmt", ["phh", "pokerstars", "ohh"])
def test_the_streamed_export_writes_the_text_the_whole_export_made(
        store: EventStore, fmt: str) -> None:
    """`handlog export` reads one table at a time and writes each hand as it is made: the
    same text as the export of the whole log held in memory."""
    import io

    from handlog.replay.export_hands import ExportOptions, load_hands, stream_hands
    from handlog.replay.export_ohh import write_ohh
    from handlog.replay.export_phh import write_phh
    from handlog.replay.export_pokerstars import write_pokerstars

    _corrected_demo(store)
    writer = {"phh": write_phh, "pokerstars": write_pokerstars, "ohh": write_ohh}[fmt]
    for options in (ExportOptions(), ExportOptions(hero="nobody", all_cards=True)):
        whole_text, whole_count, whole_notes = writer(load_hands(store), options)
        streamed = stream_hands(store)
        assert all(not t.hands for t in streamed.tables)
        out = io.StringIO()
        text, count, notes = writer(streamed, options, out)
        assert (text, count, notes) == ("", whole_count, whole_notes)
        assert out.getvalue() == whole_text
        assert count > 10


def test_a_streamed_pdf_report_is_an_index_and_a_document_per_table(
        store: EventStore, tmp_path: Path) -> None:
    """Above PAGED_ABOVE hands the PDF is an index document (verdict, contents, tournaments,
    corrections, rulings, the list of the tables' documents) and one document per table with
    its hands, each built alone, so no document grows with the log."""
    import pypdf

    _corrected_demo(store)
    out = tmp_path / "r.pdf"
    audit, files = write_report(store, "pdf", out, None, "db", paged_above=0)
    tables = [t["stream"] for t in audit.data["tables"]]
    assert files == [out, *(tmp_path / "r-tables" / f"{s}.pdf" for s in tables)]
    index = " ".join(p.extract_text() for p in pypdf.PdfReader(str(out)).pages)
    assert "Hands, one document per table" in index and "r-tables/" in index
    assert "Hand 1 at" not in index
    for path, table in zip(files[1:], audit.data["tables"], strict=True):
        pages = [p.extract_text() for p in pypdf.PdfReader(str(path)).pages]
        text = " ".join(" ".join(p.split()) for p in pages)
        assert f"Hand 1 at {table['table']}" in text
        assert f"Hand {table['hands'][-1]['hand']} at {table['table']}" in text
        assert all(f"page {n} of {len(pages)}" in p for n, p in enumerate(pages, 1))
