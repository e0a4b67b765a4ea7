"""The report of a whole event in every format, built in memory that grows with the largest
table, not with the log.

`write_report` is what `handlog report` calls. For a log whose chains and Merkle leaves hold,
it does not read the log whole:

1. the whole-log check streams it (schema/logcheck.py); the small streams (tournaments) are
   read whole;
2. then one table stream at a time is read and folded once: the replay's check of it
   (replay/verify.py's LogReplay) and, from the same events and fold, its hands replayed, its
   corrections and rulings put inline, and the table written out by the format's writer
   (`_Writer`): its pages (HTML, paged by HANDS_PER_PAGE), its part of the one JSON object,
   its CSV rows, its own PDF; of its hands only a small summary is kept (what the index, its
   hand links and the charts read: `_SUMMARY`, players by name and stack);
3. the checks across streams (moves, tournaments, events) and the tournaments' part (ledger,
   places, prizes, from the tables' final states); then the rest: the index page, the JSON
   object around its tables (the verdict comes first in it: the tables go through a file of
   their own), the CSV of corrections and rulings, the index PDF.

A table's pages say the whole log's verdict, and a hand lists the findings across streams that
fall in it: both known only at step 3. The tables are written as if the log were clean (as its
sign-offs say) and nothing across streams fell in them; when that turns out otherwise (a log
with findings), every table is read and written again, with what the replay found.

What is written is byte for byte what replay/report.py's whole build writes
(tests/test_read_streaming.py compares them), except the PDF, which the streamed build splits
into an index and one document per table. JSON and CSV are always streamed; HTML and PDF when
the report has more than PAGED_ABOVE hands (a smaller report is one page or one document).
A log whose chain does not hold (the full check names every break) is built whole, as before.
"""

from __future__ import annotations

import contextlib
import csv
import gc
import json
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Protocol

from handlog.engine.events import HandStarted
from handlog.replay.days_check import event_report, events_of
from handlog.replay.export_hands import (
    LogSnapshot,
    TableHands,
    TournamentRecord,
    read_tournaments,
    table_hands,
    tournament_id,
)
from handlog.replay.fold import OTHER_RULES, Finding, TableFold, fold_table
from handlog.replay.report import (
    AuditReport,
    _attach,
    _checkpoint,
    _corrections,
    _finding,
    _rulings,
    _sign_off,
    _table,
    _tournament,
    build_report,
    csv_paths,
    unsigned_tail,
)
from handlog.replay.report_csv import POT_COLUMNS, log_csv, pot_rows
from handlog.replay.report_html import (
    PAGED_ABOVE,
    render_html,
    table_page_name,
    write_table_pages,
)
from handlog.replay.verify import LogReplay
from handlog.schema.checkpoint import stored_checkpoints
from handlog.schema.logcheck import check_store
from handlog.schema.sign_off import stored_sign_offs
from handlog.schema.store import EventStore, StoredEvent, StreamHead

_SUMMARY = ("stream", "table", "hand", "status", "first_version", "last_version", "position",
            "recorded_at", "level", "small_blind", "big_blind", "ante", "pots_total",
            "balanced", "findings")
"""What is kept of each hand once its table's page is written (the index and the charts)."""
_PLAYER_SUMMARY = ("position", "name", "stack_start", "stack_end")


def write_report(store: EventStore, fmt: str, out: Path, tournament: str | None = None,
                 database: str = "", *, all_cards: bool = False,
                 paged_above: int = PAGED_ABOVE) -> tuple[AuditReport, list[Path]]:
    """Build the report and write it in `fmt` to `out`: (the report's data, files written).

    A streamed report (see the module docstring)'s data holds each hand's summary only."""
    with _few_full_collections():
        return _write_report(store, fmt, out, tournament, database, all_cards, paged_above)


@contextlib.contextmanager
def _few_full_collections() -> Iterator[None]:
    """Python's cycle collector, less often while a report is built. A report holds a table's
    events, hands and their text at once (hundreds of thousands of objects, nearly none in a
    cycle): each full collection walks them all, and at the default thresholds those walks
    took more than half of a report's time (2,500 hands at 2 tables: 94 s against 42 s, 13
    full collections against 1). The replay, holding one hand, makes one."""
    before = gc.get_threshold()
    gc.set_threshold(50_000, 20, 100)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _write_report(store: EventStore, fmt: str, out: Path, tournament: str | None,
                  database: str, all_cards: bool, paged_above: int
                  ) -> tuple[AuditReport, list[Path]]:
    wanted = tournament_id(tournament) if tournament else None
    merkle = check_store(store)
    # (The hand_started events a log holds are as many as the hands it replays or more.)
    if merkle.ok and (fmt in ("json", "csv") or store.count(HandStarted.TYPE) > paged_above):
        streamed = _streamed(store, fmt, out, wanted, database, all_cards, paged_above)
        if streamed is not None:
            return streamed
    audit = build_report(store, tournament, database, all_cards=all_cards)
    if tournament and not audit.data["tables"] and not audit.data["tournaments"]:
        raise NoSuchTournament(tournament)
    return audit, audit.write(fmt, out, paged_above=paged_above)


class NoSuchTournament(LookupError):
    """The report was asked for a tournament the log has neither a stream nor a table of
    (nothing is written)."""


def _summary(hand: dict[str, Any]) -> dict[str, Any]:
    kept = {key: hand[key] for key in _SUMMARY}
    kept["players"] = [{key: p[key] for key in _PLAYER_SUMMARY} for p in hand["players"]]
    return kept


class _Writer(Protocol):
    """One format of a streamed report: its start, each table (whole, with its hands), and
    its end (the data with every table's hands summarised); the files written."""

    def table(self, data: dict[str, Any], table: dict[str, Any]) -> list[Path]: ...

    def finish(self, data: dict[str, Any]) -> list[Path]: ...


class _Html:
    def __init__(self, out: Path) -> None:
        self.out = out

    def table(self, data: dict[str, Any], table: dict[str, Any]) -> list[Path]:
        return write_table_pages(data, table, self.out)

    def finish(self, data: dict[str, Any]) -> list[Path]:
        pages = {t["stream"]: table_page_name(self.out, t["stream"]) for t in data["tables"]}
        self.out.write_text(render_html(data, pages), encoding="utf-8")
        return [self.out]


_MARK = "\u0000hands\u0000"
"""Where a table's hands go in its JSON text (no report string holds it)."""
_BEFORE_TABLES = ("title", "scope", "log", "verdict", "tournaments", "events")
_AFTER_TABLES = ("corrections", "rulings", "checkpoint", "checkpoints", "sign_offs")


def _dump(value: Any, depth: int) -> str:
    """`value` as json.dumps(indent=2) writes it `depth` levels down in a bigger object."""
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * depth)


class _Json:
    """The one JSON object, written as `AuditReport.to_json` writes it, a table at a time: the
    tables into a file of their own, put after the verdict (known once every table is read)
    at the end."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.file: IO[str] = tempfile.TemporaryFile(  # noqa: SIM115 (closed by finish)
            "w+", encoding="utf-8", dir=out.parent)
        self.first = True

    def table(self, data: dict[str, Any], table: dict[str, Any]) -> list[Path]:
        # The table around its hands, then its hands one at a time (no text of a whole table).
        hands = table["hands"]
        around = _dump({**table, "hands": [_MARK] if hands else []}, 2)
        self.file.write(("\n" if self.first else ",\n") + "    ")
        self.first = False
        if not hands:
            self.file.write(around)
            return []
        before, after = around.split(f"{json.dumps(_MARK)}", 1)
        self.file.write(before)
        for k, hand in enumerate(hands):
            self.file.write(("" if k == 0 else ",\n        ") + _dump(hand, 4))
        self.file.write(after)
        return []

    def finish(self, data: dict[str, Any]) -> list[Path]:
        with self.file, self.out.open("w", encoding="utf-8") as out:
            out.write("{\n" + "".join(f"  {json.dumps(key)}: {_dump(data[key], 1)},\n"
                                      for key in _BEFORE_TABLES) + '  "tables": [')
            self.file.seek(0)
            shutil.copyfileobj(self.file, out, 1 << 20)
            out.write("]" if self.first else "\n  ]")
            for key in _AFTER_TABLES:
                out.write(f",\n  {json.dumps(key)}: {_dump(data[key], 1)}")
            out.write("\n}\n")
        return [self.out]


class _Csv:
    """The hand-and-pot rows a table at a time; the corrections file at the end."""

    def __init__(self, out: Path) -> None:
        self.pots, self.log = csv_paths(out)
        self.file: IO[str] = self.pots.open("w", encoding="utf-8", newline="")
        self.writer = csv.writer(self.file, lineterminator="\r\n")
        self.writer.writerow(POT_COLUMNS)

    def table(self, data: dict[str, Any], table: dict[str, Any]) -> list[Path]:
        self.writer.writerows(pot_rows(table))
        return []

    def finish(self, data: dict[str, Any]) -> list[Path]:
        self.file.close()
        self.log.write_text(log_csv(data), encoding="utf-8", newline="")
        return [self.pots, self.log]


class _Pdf:
    """An index document and one document per table (`<stem>-tables/<stream>.pdf`)."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def table(self, data: dict[str, Any], table: dict[str, Any]) -> list[Path]:
        from handlog.replay.report_pdf import render_table_pdf, table_pdf_name

        path = self.out.parent / table_pdf_name(self.out, table["stream"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(render_table_pdf(data, table))
        return [path]

    def finish(self, data: dict[str, Any]) -> list[Path]:
        from handlog.replay.report_pdf import render_pdf, table_pdf_name

        files = {t["stream"]: table_pdf_name(self.out, t["stream"]) for t in data["tables"]}
        self.out.write_bytes(render_pdf(data, files))
        return [self.out]


_WRITERS: dict[str, type[_Html | _Json | _Csv | _Pdf]] = {
    "html": _Html, "json": _Json, "csv": _Csv, "pdf": _Pdf}


class _Tables:
    """Each table's part of the report, built from its stored events and their fold and
    handed to the writer; of its hands only their summaries kept."""

    def __init__(self, fmt: str, out: Path, heads: list[StreamHead],
                 records: dict[str, TournamentRecord], names: dict[str, str],
                 all_cards: bool) -> None:
        self.fmt, self.out, self.heads, self.records = fmt, out, heads, records
        self.names, self.all_cards = names, all_cards
        self.writer: _Html | _Json | _Csv | _Pdf | None = None
        self.written: list[Path] = []
        self.tables: list[dict[str, Any]] = []
        self.corrections: dict[str, list[dict[str, Any]]] = {}
        self.rulings: list[dict[str, Any]] = []

    def add(self, data: dict[str, Any], stream: str, stored: list[StoredEvent],
            fold: TableFold, findings: Sequence[Finding]) -> None:
        owner = fold.state.tournament if fold.state else ""
        record = self.records.get(owner)
        hands = table_hands(fold, stored, record.names() if record else {},
                            record.small_blinds() if record else {})
        one = LogSnapshot(self.heads, stored, {stream: stored})
        table = _table(hands, findings, one, self.all_cards)
        mine = _corrections(one, [stream], self.all_cards, {stream: hands.hands})
        rulings = _rulings(one, [], [hands], self.all_cards, self.names)
        _attach({"tables": [table], "corrections": mine, "rulings": rulings})
        self.writer = self.writer or _WRITERS[self.fmt](self.out)
        self.written.extend(self.writer.table(data, table))
        self.corrections[stream] = mine
        self.rulings.extend(rulings)
        table["hands"] = [_summary(h) for h in table["hands"]]
        self.tables.append(table)


def _streamed(store: EventStore, fmt: str, out: Path, wanted: str | None, database: str,
              all_cards: bool, paged_above: int) -> tuple[AuditReport, list[Path]] | None:
    """The report read a table at a time (None: an HTML or PDF report of no more than
    `paged_above` hands, which is built whole; what was written for it is removed)."""
    heads = store.streams()
    # The small streams whole (tournaments and the rest); the tables one at a time below.
    small: dict[str, list[StoredEvent]] = {}
    with store.reader() as log_reader:
        others = [h.stream_id for h in heads if h.kind != "table" and h.version > 0]
        for event in log_reader.events(streams=others):
            small.setdefault(event.stream_id, []).append(event)
    small_log = LogSnapshot(list(heads), [e for s in sorted(small) for e in small[s]], small)
    tournaments = read_tournaments(small_log, wanted)
    records = {t.tournament: t for t in read_tournaments(small_log)}
    history = stored_checkpoints(store)
    latest = history[-1] if history else None  # (the verdict says what it leaves unsigned)
    # A sign-off compares the results of its tournament's stream (a small stream, read whole).
    sign_offs = [_sign_off(number, signed, small_log)
                 for number, signed in stored_sign_offs(store)
                 if not wanted or signed.tournament == f"tournament-{wanted}"]
    changed = [change for signed in sign_offs for change in signed["changed"]]
    names = {player: name for record in tournaments for player, name in record.names().items()}
    # One read and one fold of each table: the replay's, its pages built from the same fold.
    # They say the whole log's verdict, and a hand lists its findings, of the checks across
    # streams too: both known once every table is in. Each table is written as if the log were
    # clean (as the sign-offs say) and nothing across streams fell on a table; where that turns
    # out otherwise, the tables are read and written again (`again`).
    replay = LogReplay(wanted, keep_events=False)
    for stream in sorted(small):
        if small_log.kind(stream) == "tournament":
            replay.tournament_stream(stream, small[stream])
    table_heads = sorted((h for h in heads if h.kind == "table" and h.version > 0),
                         key=lambda h: h.stream_id)
    said_clean = not changed  # what the tables' pages are written saying
    verdict_on_pages = fmt in ("html", "pdf")
    building = True
    first = _Tables(fmt, out, list(heads), records, names, all_cards)
    page_data: dict[str, Any] = {"scope": {"tournament": wanted}, "verdict": {"clean": said_clean}}
    last_position = max((e.position for e in small_log.events), default=0)
    for head in table_heads:
        stored = store.read(head.stream_id, 1, head.version)
        last_position = max(last_position, stored[-1].position) if stored else last_position
        fold = replay.table(head, stored)
        if fold is None:
            continue
        if verdict_on_pages and said_clean and any(f.kind != OTHER_RULES for f in fold.findings):
            building = False  # the pages say the log is not clean: all written again below
        if building:
            first.add(page_data, head.stream_id, stored, fold, fold.findings)
        del stored, fold
    report = replay.finish()
    table_streams = sorted(report.tables)
    if wanted and not table_streams and not tournaments:
        raise NoSuchTournament(wanted)
    clean = report.clean and not changed
    if fmt in ("html", "pdf") and report.hands <= paged_above:
        for path in first.written:
            path.unlink(missing_ok=True)
        for folder in {path.parent for path in first.written}:
            with contextlib.suppress(OSError):
                folder.rmdir()
        return None
    again = not building or (verdict_on_pages and clean != said_clean) or any(
        f.stream in report.tables for f in replay.across_streams)
    tables = first
    if again:
        if isinstance(first.writer, _Json | _Csv):
            first.writer.file.close()
        page_data["verdict"]["clean"] = clean
        tables = _Tables(fmt, out, list(heads), records, names, all_cards)
        for stream in table_streams:
            stored = store.read(stream, 1, report.tables[stream].version)
            tables.add(page_data, stream, stored, fold_table(stream, stored, verify=False),
                       report.findings)
            del stored
    in_scope = set(table_streams) | {t.stream for t in tournaments}
    if not wanted:
        in_scope |= {h.stream_id for h in heads if h.version > 0}
    # What the log holds, from the heads and each table's last event.
    counts = {s: len(events) for s, events in small.items()}
    counts.update((s, fold.version) for s, fold in report.tables.items())
    # The tournaments' part needs each table's final state only: the replay's.
    finals = [TableHands(s, "", f.state.tournament if f.state else "", 0, "", f)
              for s, f in sorted(report.tables.items())]
    data: dict[str, Any] = {
        "title": "handlog audit report",
        "scope": {"tournament": wanted, "database": database,
                  "cards": "all" if all_cards else "shown"},
        "log": {
            "events": sum(counts.get(s, 0) for s in in_scope),
            "last_position": last_position,
            "streams": [{"stream": h.stream_id, "kind": h.kind, "version": h.version,
                         "hash": h.hash} for h in sorted(heads, key=lambda h: h.stream_id)
                        if h.stream_id in in_scope],
        },
        "verdict": {
            "clean": clean,
            "findings": [_finding(f, all_cards) for f in report.findings],
            "chain": {"ok": True, "problems": []},
            "merkle": {"ok": True, "breaks": []},
            "in_progress": [{"stream": s, "hand": h} for s, h in report.in_progress],
            "replayed": {"streams": report.streams, "events": report.events,
                         "hands": report.hands},
            "tournament_checks": True,
            "unsigned_tail": unsigned_tail(latest, store.tree_head().size),
            "sign_off": changed,
        },
        "tournaments": [_tournament(record, finals, small_log) for record in tournaments],
        "events": [event_report(logs) for logs in events_of(
            record.state for record in tournaments if record.state is not None).values()],
    }
    corrections = tables.corrections
    for stream in sorted(in_scope):
        if stream not in corrections:
            corrections[stream] = _corrections(small_log, [stream], all_cards)
    data["tables"] = tables.tables
    data["corrections"] = [c for s in sorted(corrections) for c in corrections[s]]
    data["rulings"] = _rulings(small_log, tournaments, [], all_cards) + tables.rulings
    data["checkpoint"] = _checkpoint(latest)
    data["checkpoints"] = [_checkpoint(stored) for stored in history]
    data["sign_offs"] = sign_offs
    writer = tables.writer or _WRITERS[fmt](out)
    # The index first among the files written (as the whole build lists them).
    return AuditReport(data), writer.finish(data) + tables.written
