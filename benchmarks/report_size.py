"""The audit report of a whole event: 25,000+ hands. Time, peak memory, and the size of the
page a browser opens first, beside `handlog replay` of the same log in the same run.

    .venv/bin/python benchmarks/report_size.py [--hands 25000] [--tables 20] [--db FILE]

Builds (once, or reuses `--db`) a log of real hands: 9-handed tables, every hand decided by the
engine with seeded random legal play (calls, raises, folds, boards, showdowns, awards), appended
in batches straight to the store (the recorder's one fsync per tap would take hours). Then, as
separate processes, each timed with its peak resident memory (ru_maxrss of the child):

* `handlog report --format html` (paged: an index page and one page per table);
* the peer: `handlog replay` of the same log (what the report is built on).

Prints medians of --runs, the ratio report/replay, and the size of the index page.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
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
from handlog.engine.events import ButtonPlaced, PlayerSeated
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


def run(args: list[str]) -> tuple[float, int]:
    """Seconds and peak resident memory (bytes) of one handlog process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run([str(HANDLOG), *args], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"handlog {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of the children is the largest of them so far: run the smaller first.
    return seconds, max(peak, before) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=25_000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db", type=Path, default=None)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="handlog-report-"))
    db = options.db or folder / "event.db"
    url = f"sqlite:///{db}"
    if not db.exists():
        started = time.perf_counter()
        build(url, options.hands, options.tables, options.seed)
        print(f"built {options.hands:,}+ hands at {options.tables} tables in "
              f"{time.perf_counter() - started:.0f} s ({db.stat().st_size / 1e6:.0f} MB)")
    replays, reports = [], []
    out = folder / "report.html"
    for _ in range(options.runs):
        replays.append(run(["replay", "--db", url]))
        reports.append(run(["report", "--db", url, "--format", "html", "--out", str(out)]))
    replay_s = statistics.median(s for s, _m in replays)
    report_s = statistics.median(s for s, _m in reports)
    replay_mb = max(m for _s, m in replays) / 1e6
    report_mb = max(m for _s, m in reports) / 1e6
    pages = list((folder / "report-tables").glob("*.html"))
    print(f"replay (peer): {replay_s:.1f} s, peak {replay_mb:.0f} MB")
    print(f"report html:   {report_s:.1f} s, peak {report_mb:.0f} MB "
          f"(ratio to replay {report_s / replay_s:.2f}x time)")
    print(f"index page {out.stat().st_size / 1e3:.0f} kB; {len(pages)} table pages, largest "
          f"{max((p.stat().st_size for p in pages), default=0) / 1e6:.1f} MB")
    if options.db is None:
        print(f"(log kept at {db}; pass --db to reuse it)")
    os.environ.pop("HANDLOG_DATABASE_URL", None)


if __name__ == "__main__":
    main()
