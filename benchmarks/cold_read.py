"""A restarted server's first read of a long table and of the floor, from the tables' stored
snapshots and without them, against the warm read (the table already in memory), same run.

    .venv/bin/python benchmarks/cold_read.py [--hands 500] [--tables 1000] [--floor-hands 8]
        [--samples 5] [--postgres postgresql://postgres@127.0.0.1:5432/test] [--keep FILE]

Builds, in a SQLite file (and a fresh PostgreSQL schema with --postgres), a six-handed table of
`--hands` hands played through the recorder (a seeded mix of folds, calls, checks, raises,
boards, shows and pushes, as benchmarks/corrections.py plays them) and a floor of `--tables`
tables, each a copy of the first `--floor-hands` hands of that table. One process reads
everything once with snapshots on (as a server that ran before the restart has written them).
Then each sample is a new process: it opens the store, times the first read (cold) and the
read after it (warm) of the long table (`Recorder.table` and the last entries its tablet lists,
`EventLog.recent`) or of the floor (`preload` of every
table, then each one's fold, as GET /api/floor reads them), with snapshots off (every table
folded from its first event) or on. Prints the medians (ms), cold / warm, and off / on.
The floor's tables end between hands (as most tables are, idle, at a restart): with
snapshots on, each is read back from its latest state alone.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from corrections import next_command  # noqa: E402

from handlog.engine import table_commands  # noqa: E402
from handlog.engine.events import HandStarted  # noqa: E402
from handlog.engine.table import Level  # noqa: E402
from handlog.recorder.service import Actor, Recorder  # noqa: E402
from handlog.recorder.views import EventLog  # noqa: E402
from handlog.replay.repository import SNAPSHOT_EVERY  # noqa: E402
from handlog.schema.store import NewEvent, open_store  # noqa: E402

LONG = "table-long"
DEALER = Actor("dealer", "dealer", "tablet")


def build(url: str, hands: int, tables: int, floor_hands: int) -> None:
    with open_store(url, upgrade=True) as store:
        recorder = Recorder(store)

        def send(command: Any) -> None:
            recorder.submit(LONG, command, recorder.table(LONG).version, uuid.uuid4(), DEALER)

        send(table_commands.OpenTable("long", 9, "tda"))
        for seat in range(1, 7):
            send(table_commands.SeatPlayer(seat, f"P{seat}", 10_000_000))
        send(table_commands.PlaceButton(1))
        rng = random.Random(hands)
        for _ in range(hands):
            send(table_commands.StartHand(Level(50, 100)))
            while (state := recorder.table(LONG).state) is not None and state.hand_in_progress:
                assert state.hand is not None
                send(next_command(state.hand, rng))
        events = [e.decode() for e in store.read(LONG)]
        starts = [k for k, e in enumerate(events) if isinstance(e, HandStarted)]
        copied = events[:starts[floor_hands]] if floor_hands < len(starts) else events
        now = datetime.now(UTC)
        for start in range(0, tables, 20):
            store.append_many([(f"table-floor-{k}", 0, [
                NewEvent.from_domain(e, event_id=uuid.uuid4(), actor="bench", device="setup",
                                     recorded_at=now) for e in copied], "table")
                for k in range(start, min(tables, start + 20))])


def child(url: str, what: str, every: int) -> None:
    """One restarted server's first and second read (prints JSON)."""
    started = time.perf_counter()
    store = open_store(url)
    recorder = Recorder(store, snapshot_every=every)
    log = EventLog(store)
    opened = time.perf_counter()

    def read() -> None:
        if what == "table":  # the table and the entries its tablet lists
            log.recent(LONG, recorder.table(LONG).version)
        else:
            streams = [h.stream_id for h in store.streams() if h.kind == "table"
                       and h.stream_id != LONG]
            recorder.preload(streams)
            for stream in streams:
                recorder.table(stream)

    times = []
    for _ in range(2):
        began = time.perf_counter()
        read()
        times.append((time.perf_counter() - began) * 1000)
    print(json.dumps({"cold": times[0], "warm": times[1], "open": (opened - started) * 1000,
                      "events_read": recorder.tables.events_read}))


def sample(url: str, what: str, every: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--child", what, "--db", url,
                          "--every", str(every)], capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def measure(name: str, url: str, samples: int) -> None:
    sample(url, "floor", SNAPSHOT_EVERY)  # a server before the restart: snapshots written
    sample(url, "table", SNAPSHOT_EVERY)
    print(f"\n{name}: medians of {samples} new processes (ms)")
    print(f"{'read':<8}{'snapshots':>10}{'cold':>10}{'warm':>10}{'cold/warm':>11}"
          f"{'events read':>13}")
    cold: dict[tuple[str, int], float] = {}
    warm: dict[tuple[str, int], float] = {}
    for what in ("table", "floor"):
        for every in (0, SNAPSHOT_EVERY):
            runs = [sample(url, what, every) for _ in range(samples)]
            c = statistics.median(r["cold"] for r in runs)
            w = statistics.median(r["warm"] for r in runs)
            cold[what, every], warm[what, every] = c, w
            print(f"{what:<8}{'on' if every else 'off':>10}{c:>10.1f}{w:>10.3f}"
                  f"{c / w:>11.0f}{int(runs[0]['events_read']):>13}")
    for what, target in (("table", 50), ("floor", 300)):
        off, on = cold[what, 0], cold[what, SNAPSHOT_EVERY]
        print(f"first read of the {what}: {off:.0f} ms without snapshots, {on:.0f} ms with "
              f"them ({off / on:.1f}x; {on / warm[what, SNAPSHOT_EVERY]:.0f}x the warm read "
              f"of {warm[what, SNAPSHOT_EVERY]:.1f} ms); target <= {target} ms: "
              f"{'met' if on <= target else 'NOT met'}")


def fresh_postgres(url: str) -> str:
    """A new schema of the PostgreSQL database for this benchmark (dropped and made again)."""
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True, connect_timeout=3) as connection:
        connection.execute("DROP SCHEMA IF EXISTS bench_cold_read CASCADE")
        connection.execute("CREATE SCHEMA bench_cold_read")
    if not url.startswith("postgresql+psycopg://"):
        url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options=-csearch_path%3Dbench_cold_read"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--floor-hands", type=int, default=8)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--postgres", default=None)
    parser.add_argument("--keep", type=Path, default=None,
                        help="a SQLite file to build once and read again on the next runs")
    parser.add_argument("--child", choices=("table", "floor"), help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--every", type=int, default=SNAPSHOT_EVERY, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.db, args.child, args.every)
        return
    path = args.keep or Path(tempfile.mkdtemp()) / "cold.db"
    url = f"sqlite:///{path}"
    began = time.perf_counter()
    if path.exists():
        print(f"reading {path} as built before")
    else:
        build(url, args.hands, args.tables, args.floor_hands)
        print(f"built in {time.perf_counter() - began:.0f} s: {args.hands} hands, "
              f"{args.tables} tables of {args.floor_hands} hands")
    measure("SQLite", url, args.samples)
    if args.postgres:
        pg = fresh_postgres(args.postgres)
        build(pg, args.hands, args.tables, args.floor_hands)
        measure("PostgreSQL", pg, args.samples)


if __name__ == "__main__":
    main()
