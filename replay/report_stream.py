"""The paged HTML report of a whole event, built in memory that does not grow with the log.

`write_report` is what `handlog report` calls. For a paged HTML report (more than PAGED_ABOVE
hands) of a log whose chains and Merkle leaves hold, it does not read the log whole:

1. the whole-log check and the replay stream it (schema/logcheck.py, replay/verify.py): the
   verdict, every finding, each table's final state;
2. then one table stream at a time is read, its hands replayed, its corrections and rulings
   put inline, and its page written; of its hands only a small summary is kept (what the
   index, its hand links and the charts read: `_SUMMARY`, players by name and stack);
3. the index page is written last, from those summaries and the tournaments (small streams,
   read whole).

The pages are the very ones replay/report.py's whole build writes (tests/test_read_streaming.py
compares them byte for byte). Any other format, a report of fewer hands, or a log whose chain
does not hold (the full check names every break) is built whole, as before.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from handlog.replay.export_hands import (
    LogSnapshot,
    TableHands,
    read_tournaments,
    table_hands,
    tournament_id,
)
from handlog.replay.fold import fold_table
from handlog.replay.report import (
    AuditReport,
    _attach,
    _checkpoint,
    _corrections,
    _finding,
    _rulings,
    _table,
    _tournament,
    build_report,
    unsigned_tail,
)
from handlog.replay.report_html import PAGED_ABOVE, render_html, render_table_page, table_page_name
from handlog.replay.verify import replay_log
from handlog.schema.checkpoint import latest_checkpoint
from handlog.schema.logcheck import check_store
from handlog.schema.store import EventStore, StoredEvent

_SUMMARY = ("stream", "table", "hand", "status", "first_version", "last_version", "position",
            "recorded_at", "level", "small_blind", "big_blind", "ante", "pots_total",
            "balanced", "findings")
"""What is kept of each hand once its table's page is written (the index and the charts)."""
_PLAYER_SUMMARY = ("position", "name", "stack_start", "stack_end")


def write_report(store: EventStore, fmt: str, out: Path, tournament: str | None = None,
                 database: str = "", *, all_cards: bool = False,
                 paged_above: int = PAGED_ABOVE) -> tuple[AuditReport, list[Path]]:
    """Build the report and write it in `fmt` to `out`: (the report's data, files written).

    A paged HTML report is streamed (see the module docstring); its data then holds each
    hand's summary only."""
    if fmt == "html":
        wanted = tournament_id(tournament) if tournament else None
        merkle = check_store(store)
        if merkle.ok:
            replay = replay_log(store, wanted, keep_events=False)
            if replay.hands > paged_above:
                return _streamed_html(store, out, wanted, database, all_cards, replay)
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


def _streamed_html(store: EventStore, out: Path, wanted: str | None, database: str,
                   all_cards: bool, replay: Any) -> tuple[AuditReport, list[Path]]:
    heads = store.streams()
    kinds = {h.stream_id: h.kind for h in heads}
    # The small streams whole (tournaments and the rest); the tables one at a time below, each
    # up to the version the replay folded.
    small: dict[str, list[StoredEvent]] = {}
    with store.reader() as log_reader:
        others = [h.stream_id for h in heads if h.kind != "table" and h.version > 0]
        for event in log_reader.events(streams=others):
            small.setdefault(event.stream_id, []).append(event)
    small_log = LogSnapshot(list(heads), [e for s in sorted(small) for e in small[s]], small)
    tournaments = read_tournaments(small_log, wanted)
    records = {t.tournament: t for t in read_tournaments(small_log)}
    table_streams = sorted(s for s in replay.tables if kinds.get(s) == "table")
    in_scope = set(table_streams) | {t.stream for t in tournaments}
    if not wanted:
        in_scope |= {h.stream_id for h in heads if h.version > 0}
    clean = replay.clean
    data: dict[str, Any] = {
        "title": "handlog audit report",
        "scope": {"tournament": wanted, "database": database,
                  "cards": "all" if all_cards else "shown"},
        "verdict": {
            "clean": clean,
            "findings": [_finding(f, all_cards) for f in replay.findings],
            "chain": {"ok": True, "problems": []},
            "merkle": {"ok": True, "breaks": []},
            "in_progress": [{"stream": s, "hand": h} for s, h in replay.in_progress],
            "replayed": {"streams": replay.streams, "events": replay.events,
                         "hands": replay.hands},
            "tournament_checks": True,
        },
    }
    counts = {s: len(events) for s, events in small.items()}
    last_position = max((e.position for e in small_log.events), default=0)
    pages = {s: table_page_name(out, s) for s in table_streams}
    written: list[Path] = [out]
    tables: list[dict[str, Any]] = []
    folded: list[TableHands] = []
    corrections: dict[str, list[dict[str, Any]]] = {}
    table_rulings: list[dict[str, Any]] = []
    for stream in table_streams:
        stored = store.read(stream, 1, replay.tables[stream].version)
        counts[stream] = len(stored)
        if stored:
            last_position = max(last_position, stored[-1].position)
        fold = fold_table(stream, stored, verify=False)
        owner = fold.state.tournament if fold.state else ""
        record = records.get(owner)
        hands = table_hands(fold, stored, record.names() if record else {},
                            record.small_blinds() if record else {})
        one = LogSnapshot(list(heads), stored, {stream: stored})
        table = _table(hands, replay.findings, one, all_cards)
        mine = _corrections(one, [stream], all_cards)
        rulings = _rulings(one, [], [hands], all_cards)
        _attach({"tables": [table], "corrections": mine, "rulings": rulings})
        page = out.parent / pages[stream]
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(render_table_page(data, table, f"../{out.name}"), encoding="utf-8")
        written.append(page)
        corrections[stream] = mine
        table_rulings.extend(rulings)
        table["hands"] = [_summary(h) for h in table["hands"]]
        tables.append(table)
        folded.append(replace(hands, fold=replace(fold, effective=()), hands=[]))
    # The streams of no table in scope count in the last position (as the whole build's
    # snapshot does).
    for head in heads:
        if head.kind == "table" and head.stream_id not in replay.tables and head.version:
            last = store.read(head.stream_id, head.version, head.version)
            if last:
                last_position = max(last_position, last[0].position)
    for stream in sorted(in_scope):
        if stream not in corrections:
            corrections[stream] = _corrections(small_log, [stream], all_cards)
    data["log"] = {
        "events": sum(counts.get(s, 0) for s in in_scope),
        "last_position": last_position,
        "streams": [{"stream": h.stream_id, "kind": h.kind, "version": h.version,
                     "hash": h.hash} for h in sorted(heads, key=lambda h: h.stream_id)
                    if h.stream_id in in_scope],
    }
    data["tournaments"] = [_tournament(record, folded, small_log) for record in tournaments]
    data["tables"] = tables
    data["corrections"] = [c for s in sorted(corrections) for c in corrections[s]]
    data["rulings"] = _rulings(small_log, tournaments, [], all_cards) + table_rulings
    latest = latest_checkpoint(store)
    data["checkpoint"] = _checkpoint(latest)
    data["verdict"]["unsigned_tail"] = unsigned_tail(latest, store.tree_head().size)
    out.write_text(render_html(data, pages), encoding="utf-8")
    return AuditReport(data), written
