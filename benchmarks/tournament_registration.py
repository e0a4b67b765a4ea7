"""Registration and the seat draw as the field grows (issue 12: about 80 ms per entry at 900
entrants, 2 hours projected for 10,000).

    .venv/bin/python benchmarks/tournament_registration.py [--entrants 10000] [--tables 1000]

Registers `--entrants` players one command at a time through the recorder (SQLite file in a
temporary folder) and reports the median time per registration over the 100 registrations
ending at entrant 100 (the peer) and over the last 100 (at `--entrants`), their ratio, then the
time of one seat draw over `--tables` tables (tables opened, every player seated, a button
drawn at each: one transaction).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from handlog.recorder.demo import DEMO_STRUCTURE
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments
from handlog.schema.store import open_store

DIRECTOR = Actor("director", "director", "benchmark")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=1_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(str(Path(folder) / "bench.db"), upgrade=True)
        t = Tournaments(Recorder(store))
        structure = replace(load_structure(DEMO_STRUCTURE), seats_per_table=10)
        t.create("big", structure, DIRECTOR)
        times: list[float] = []
        for k in range(args.entrants):
            started = time.perf_counter()
            t.register("big", f"Player {k + 1}", DIRECTOR)
            times.append(time.perf_counter() - started)
        early = statistics.median(times[:100])
        late = statistics.median(times[-100:])
        print(f"registration: median {early * 1000:.2f} ms at 100 entrants, "
              f"{late * 1000:.2f} ms at {args.entrants} (ratio {late / early:.2f}); "
              f"{sum(times):.1f} s for all {args.entrants}")
        started = time.perf_counter()
        t.draw_seats("big", args.tables, 1, DIRECTOR)
        draw = time.perf_counter() - started
        print(f"seat draw: {args.entrants} players over {args.tables} tables in {draw:.1f} s "
              "(one transaction)")
        store.close()


if __name__ == "__main__":
    main()
