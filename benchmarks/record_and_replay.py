"""Hands recorded per second by the simulation and hands verified per second by replay,
on SQLite and PostgreSQL.

Peers in the same run: recording is compared with bare durable appends of the same events
(what the service adds on top of the store), replay with reading and decoding the same log
without the engine (what verification adds on top of I/O).

    python benchmarks/record_and_replay.py [--players 27] [--tables 3] [--seed 7]
        [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import tempfile
import time
import uuid
from pathlib import Path

from handlog.recorder.demo import run_demo
from handlog.recorder.service import Recorder
from handlog.replay.verify import replay_log
from handlog.schema.store import NewEvent, open_store


def fresh_postgres(url: str) -> str | None:
    """A new schema in the PostgreSQL database (dropped and made again), or None if down."""
    try:
        import psycopg

        plain = url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(plain, autocommit=True, connect_timeout=3) as connection:
            connection.execute("DROP SCHEMA IF EXISTS bench_record CASCADE")
            connection.execute("CREATE SCHEMA bench_record")
    except Exception as error:  # noqa: BLE001 - any failure means: no PostgreSQL here
        print(f"postgresql: skipped ({error})")
        return None
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options=-csearch_path%3Dbench_record"


def measure(name: str, url: str, players: int, tables: int, seed: int) -> None:
    with open_store(url, upgrade=True) as store:
        recorder = Recorder(store)
        started = time.perf_counter()
        summary = run_demo(recorder, players=players, tables=tables, seed=seed)
        record_seconds = time.perf_counter() - started
        heads, events = store.snapshot()

        started = time.perf_counter()
        report = replay_log(store)
        replay_seconds = time.perf_counter() - started
        assert report.clean, report.findings[:3]

        started = time.perf_counter()
        for stored in store.read_all():
            stored.decode()
        read_seconds = time.perf_counter() - started

        # The peer of recording: the same number of single-event durable appends, bare.
        stream = f"bench-{uuid.uuid4()}"
        count = min(len(events), 2000)
        now = recorder.clock()
        started = time.perf_counter()
        for version, stored in enumerate(events[:count]):
            store.append(stream, version, [NewEvent(uuid.uuid4(), stored.type,
                                                    stored.schema_version, stored.payload,
                                                    "bench", "bench", now)], kind="bench")
        append_seconds = time.perf_counter() - started
    per_append = append_seconds / count
    bare_hands = summary.hands / (per_append * len(events))
    recorded = summary.hands / record_seconds
    verified = report.hands / replay_seconds
    read_only = report.hands / read_seconds
    print(f"{name}: {summary.hands} hands, {len(events)} events in {len(heads)} streams")
    print(f"  record: {recorded:8.1f} hands/s through the service; bare appends of the same "
          f"events {bare_hands:8.1f} hands/s; ratio {recorded / bare_hands:.2f}")
    print(f"  replay: {verified:8.1f} hands/s verified; read+decode only {read_only:8.1f} "
          f"hands/s; ratio {verified / read_only:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=27)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--postgres", default="postgresql+psycopg://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        measure("sqlite", str(Path(folder) / "bench.db"), args.players, args.tables, args.seed)
    url = fresh_postgres(args.postgres)
    if url is not None:
        measure("postgresql", url, args.players, args.tables, args.seed)


if __name__ == "__main__":
    main()
