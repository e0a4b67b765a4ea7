"""`handlog log verify --checkpoint` on a 100,000-event log: events per second, against the
chain-only check of the same log in the same run.

    .venv/bin/python benchmarks/log_verify.py [--events 100000] [--runs 3] [--postgres URL]

Builds the log once per backend (20 table streams, batches of 500 events, a hand_started every
50 events), signs a checkpoint at 60% of it, then times, median of --runs:

* `log verify --checkpoint`: opening the store (on SQLite: PRAGMA integrity_check) and
  schema/logcheck.check_store: every chain hash and Merkle leaf recomputed from the events, the
  root at the checkpoint's size, the consistency proof, the signature, the stored leaves;
* the peer: schema/export.verify_store, the chain-only check `log verify` made before.

The target is 50,000 events/s or more for the first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from append_latency import postgres_store, reachable

from handlog.schema.checkpoint import SigningKey, record_checkpoint
from handlog.schema.export import verify_store
from handlog.schema.logcheck import GivenCheckpoint, check_store
from handlog.schema.store import EventStore, NewEvent, open_store

STREAMS = 20
BATCH = 500


def build(store: EventStore, events: int) -> None:
    now = datetime.now(UTC)
    heads = {head.stream_id: head.version for head in store.streams()}
    versions = [heads.get(f"table-{n}", 0) for n in range(STREAMS)]
    for batch in range(events // BATCH):
        stream = batch % STREAMS
        new = []
        for k in range(BATCH):
            n = versions[stream] + k
            if n % 50 == 0:
                kind, payload = "hand_started", {"hand_number": n // 50 + 1, "button_seat": 1}
            else:
                kind, payload = "bet_made", {"player": n % 9, "to": 100 * (n % 50 + 1),
                                             "all_in": False}
            new.append(NewEvent(uuid.uuid4(), kind, 1, payload, "dealer-1", "tablet-1", now))
        store.append(f"table-{stream}", versions[stream], new)
        versions[stream] += BATCH


def timed(function: object, runs: int) -> tuple[float, float]:
    """Median wall-clock and CPU seconds of this process (the machine may be shared: the CPU
    time is what the check itself costs; on PostgreSQL the server's work is not in it)."""
    wall, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        function()  # type: ignore[operator]
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return statistics.median(wall), statistics.median(cpu)


def run(url: str, backend: str, events: int, runs: int) -> tuple[str, float, float, float, float]:
    key = SigningKey("bench.example/room", b"\x07" * 32)
    with open_store(url) as store:
        build(store, events * 6 // 10)
        checkpoint = record_checkpoint(store, key, "on_demand").checkpoint.text
        build_rest = events - store.tree_head().size
        if build_rest:
            build(store, build_rest)
        size = store.tree_head().size
    given = [GivenCheckpoint("bench", checkpoint)]

    def full() -> None:
        with open_store(url) as store:
            report = check_store(store, given, key.verifier)
        assert report.ok and report.checkpoints[0].consistent, report.lines()[-5:]

    def chains() -> None:
        with open_store(url) as store:
            assert verify_store(store).ok

    full_wall, full_cpu = timed(full, runs)
    chain_wall, chain_cpu = timed(chains, runs)
    return backend, size / full_wall, size / chain_wall, size / full_cpu, size / chain_cpu


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--postgres", default=os.environ.get("HANDLOG_TEST_POSTGRES_URL"))
    options = parser.parse_args(arguments)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        open_store(url, upgrade=True).close()
        results.append(run(url, "sqlite", options.events, options.runs))
    if options.postgres and reachable(options.postgres) is None:
        with postgres_store(options.postgres) as (store, _settings):
            results.append(run(store._url, "postgresql", options.events, options.runs))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'backend':<11} | events | log verify --checkpoint ev/s (wall / CPU) | "
          "chain-only peer ev/s (wall / CPU) | ratio (wall) | >= 50,000 (wall / CPU)")
    for backend, full, chain, full_cpu, chain_cpu in results:
        print(f"{backend:<11} | {options.events} | {full:,.0f} / {full_cpu:,.0f} | "
              f"{chain:,.0f} / {chain_cpu:,.0f} | {full / chain:.2f} | "
              f"{'yes' if full >= 50_000 else 'NO'} / {'yes' if full_cpu >= 50_000 else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
