"""The audit report of a whole event: 25,000+ hands. Time and peak memory of every format,
and the size of the pages a browser opens, beside `handlog replay` of the same log in the same
run.

    .venv/bin/python benchmarks/report_size.py [--hands 25000] [--tables 20] [--db FILE]
        [--formats html,json,csv,pdf]

The target (issue 26): each format in at most 3x the replay's time and under 400 MB, growing
with the largest table, not the log; 2,500 hands at 2 tables have the tables of 25,000 hands at
20 (1,250 hands each), so their peak memory is the one 25,000 hands reach.

Builds (once, or reuses `--db`) a log of real hands: 9-handed tables, every hand decided by the
engine with seeded random legal play (calls, raises, folds, boards, showdowns, awards), appended
in batches straight to the store (the recorder's one fsync per tap would take hours). Then, as
separate processes, each timed with its peak resident memory (ru_maxrss of the child):

* the peer: `handlog replay` of the same log (what the report is built on);
* `handlog report --format F` for each format: html (an index page and each table's hands on
  pages of 100), json (one object, written a table at a time), csv (the same), pdf (an index
  document and one per table).

Each is its own process and its peak its own (`os.wait4` gives the usage of that child alone,
where RUSAGE_CHILDREN would give the largest child so far). Prints medians of --runs and the
ratio to the replay.

Figures of 2026-12-07, --hands 25000 --tables 20 --db (a log built beforehand, 1001 s on the
loaded machine, 770k events), one run, compiled engine, rl_accel installed; the 2-core machine
shared with other jobs at load average 9 to 25 throughout (each process had 15-40% of a core),
so the seconds on the clock are mostly waiting and move with the others' load:
  replay (peer)  270.1 s, peak 152 MB
  html           252.6 s, peak 271 MB, 0.94x  (index 79 kB; 260 table pages, 0.43 MB each)
  json           526.1 s, peak 274 MB, 1.95x  (261 MB written)
  csv            472.1 s, peak 271 MB, 1.75x
  pdf            596.9 s, peak 312 MB, 2.21x  (an index document and one per table)
CPU seconds (what the run above did not print yet; sampled from ps as each ran, and a second
`handlog replay` of the same log beside the PDF): replay 100.4 s; csv 123 s (1.23x), pdf 194 s
(1.93x), json at least 127 s.
What changed from the figures of 2026-12-06 (below): each table is read and folded once, by
the replay's check, its pages built from that fold (it was read and folded a second time);
the cycle collector's full passes, which walked each table's objects again and again, run
less often while a report is built (2,500 hands: 94 s against 42 s); the PDF draws each text
at its origin without measuring it, and ReportLab's rl_accel does its text measuring and
number formatting in C (a table's 400 hands: 1.21 s of CPU without, 0.85 s with).
The figures of 2026-12-06, --hands 25000 --tables 20 (build 138 s, 507 MB of log; load
average 2 to 5), one run:
  replay (peer)  35.5 s, peak 164 MB
  html          111.4 s, peak 276 MB, 3.13x  (index 77 kB; 260 table pages, 0.43 MB each)
  json          107.3 s, peak 277 MB, 3.02x  (261 MB written)
  csv           107.9 s, peak 276 MB, 3.04x
  pdf           150.1 s, peak 327 MB, 4.22x
and --hands 2500 --tables 2 (1,250-hand tables, as at 25,000 hands on 20): replay 10.0 s and
108 MB; html 1.72x, json 1.79x, csv 1.50x, pdf 2.46x, 197 to 241 MB. The peak grows from the
2,500 to the 25,000 hands by the replay's own and the summary kept of each hand for the index
and the charts (about 3 kB a hand).
Before (issue 26): html 2.29x and 280 MB at 2,500 hands (one 5.2 MB page per table); at
25,020 hands 411 s against the replay's 76 s, JSON 2,541 MB; the PDF of 2,500 hands not done
in 10 minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from handlog.engine import commands as hc
from handlog.engine.cards import FULL_DECK
from handlog.engine.hand import (
    BETTING,
    BOARD,
    SHOWDOWN,
    begin,
    decide,
    legal_actions,
    showdown_order,
)
from handlog.engine.table import Level, TableState, apply_table, open_table, plan_hand, table_opened
from handlog.engine.table_events import ButtonPlaced, PlayerSeated
from handlog.schema.store import NewEvent, open_store

HANDLOG = Path(sys.executable).with_name("handlog")
LEVEL = Level(50, 100, number=1)
BATCH = 2000


def _play(rng: random.Random, state: TableState, number: int) -> tuple[TableState, list[Any]]:
    """One hand decided by the engine: posts, random legal actions, the board, the award."""
    events: list[Any] = []

    def take(new: list[Any]) -> None:
        nonlocal state
        for event in new:
            state = apply_table(state, event)
            events.append(event)

    take(list(begin(plan_hand(state, LEVEL, number))))
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    while state.hand is not None and not state.hand.is_complete:
        hand = state.hand
        if hand.phase == BETTING:
            legal = legal_actions(hand)
            assert legal is not None
            roll = rng.random()
            if legal.raise_kind and roll < 0.12:
                to = min(legal.max_to, legal.min_to + rng.choice((0, 0, 100, 300)))
                command: Any = hc.BetRaise(legal.player, to)
            elif legal.can_fold and roll < 0.45:
                command = hc.Fold(legal.player)
            else:
                command = hc.CheckCall(legal.player)
        elif hand.phase == BOARD:
            due = 3 if not hand.board else 1
            command = hc.DealBoard(tuple(deck.pop() for _ in range(due)))
        elif hand.phase == SHOWDOWN:
            command = hc.AwardPots()
            waiting = [i for i in showdown_order(hand) if hand.shown[i] is None]
            if waiting:
                command = hc.ShowCards(waiting[0], (deck.pop(), deck.pop()))
        else:
            command = hc.AwardPots()
        take(list(decide(hand, command)))
    return state, events


def build(url: str, hands: int, tables: int, seed: int) -> None:
    store = open_store(url, upgrade=True)
    rng = random.Random(seed)
    clock = datetime(2026, 5, 1, 12, tzinfo=UTC)
    per_table = hands // tables + 1
    for t in range(1, tables + 1):
        stream = f"table-bench-{t}"
        opened = table_opened(str(t), 9, "tda")
        state = open_table(opened)
        pending: list[Any] = [opened]
        for seat in range(1, 10):
            event = PlayerSeated(seat, f"t{t}p{seat}", 1_000_000)
            state = apply_table(state, event)
            pending.append(event)
        pending.append(ButtonPlaced(1))
        state = apply_table(state, pending[-1])
        version = 0
        for number in range(1, per_table + 1):
            state, played = _play(rng, state, number)
            pending.extend(played)
            if len(pending) >= BATCH or number == per_table:
                batch = []
                for event in pending:
                    clock += timedelta(milliseconds=700)
                    batch.append(NewEvent.from_domain(event, event_id=uuid.uuid4(),
                                                      actor="dealer", device="bench",
                                                      recorded_at=clock))
                store.append(stream, version, batch)
                version += len(batch)
                pending = []
    store.close()


def run(args: list[str]) -> tuple[float, int, float]:
    """Seconds, peak resident memory (bytes) and CPU seconds (user and system) of one handlog
    process (its own: wait4 gives the usage of that child alone). On a machine shared with
    other jobs the CPU seconds compare where the seconds on the clock wait their turn."""
    with tempfile.TemporaryFile("w+") as said:
        start = time.perf_counter()
        child = subprocess.Popen([str(HANDLOG), *args], stdout=said, stderr=said)
        _pid, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            said.seek(0)
            raise SystemExit(f"handlog {' '.join(args)} failed:\n{said.read()}")
    return seconds, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=25_000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--formats", default="html,json,csv,pdf",
                        help="comma-separated report formats to time (default: all four)")
    options = parser.parse_args()
    formats = [f for f in options.formats.split(",") if f]
    folder = Path(tempfile.mkdtemp(prefix="handlog-report-"))
    db = options.db or folder / "event.db"
    url = f"sqlite:///{db}"
    if not db.exists():
        started = time.perf_counter()
        build(url, options.hands, options.tables, options.seed)
        print(f"built {options.hands:,}+ hands at {options.tables} tables in "
              f"{time.perf_counter() - started:.0f} s ({db.stat().st_size / 1e6:.0f} MB)")
    replays: list[tuple[float, int, float]] = []
    reports: dict[str, list[tuple[float, int, float]]] = {f: [] for f in formats}
    outs = {f: folder / f"report.{f}" for f in formats}
    for _ in range(options.runs):
        replays.append(run(["replay", "--db", url]))
        for fmt in formats:
            reports[fmt].append(run(["report", "--db", url, "--format", fmt,
                                     "--out", str(outs[fmt])]))
    replay_s = statistics.median(s for s, _m, _c in replays)
    replay_cpu = statistics.median(c for _s, _m, c in replays)
    replay_mb = max(m for _s, m, _c in replays) / 1e6
    print(f"replay (peer):  {replay_s:6.1f} s ({replay_cpu:.1f} s CPU), peak {replay_mb:4.0f} MB")
    for fmt in formats:
        report_s = statistics.median(s for s, _m, _c in reports[fmt])
        report_cpu = statistics.median(c for _s, _m, c in reports[fmt])
        report_mb = max(m for _s, m, _c in reports[fmt]) / 1e6
        size = sum(p.stat().st_size for p in folder.glob(f"report*.{fmt}")) + sum(
            p.stat().st_size for p in (folder / "report-tables").glob(f"*.{fmt}"))
        print(f"report {fmt:5}:  {report_s:6.1f} s ({report_cpu:.1f} s CPU), peak "
              f"{report_mb:4.0f} MB, ratio to replay {report_s / replay_s:.2f}x time, "
              f"{report_cpu / replay_cpu:.2f}x CPU; {size / 1e6:.1f} MB written")
    if "html" in formats:
        pages = list((folder / "report-tables").glob("*.html"))
        print(f"html: index page {outs['html'].stat().st_size / 1e3:.0f} kB; {len(pages)} "
              f"table pages, largest {max((p.stat().st_size for p in pages), default=0) / 1e6:.2f}"
              " MB")
    if options.db is None:
        print(f"(log kept at {db}; pass --db to reuse it)")
    os.environ.pop("HANDLOG_DATABASE_URL", None)


if __name__ == "__main__":
    main()
