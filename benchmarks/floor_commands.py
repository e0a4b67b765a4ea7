"""The floor's tournament commands through the HTTP API as the field grows (issue 12, item 8:
each command answers with what it changed, not the whole floor; registration and seat draws
cost the same at 10,000 entrants and 1,000 tables as at 20).

    .venv/bin/python benchmarks/floor_commands.py [--entrants 10000] [--tables 1000]

One app over a SQLite file in a temporary folder, the director signed in (Starlette's
TestClient: the whole HTTP stack, no network). Registers `--entrants` players one POST at a
time, each with its event id and the version the floor saw, and reports the median time per
registration (answer included) and the answer's size over the 100 registrations ending at
entrant 100 (the peer) and over the last 100, with the ratio. Then the seat draw: the same per
table for `--peer-tables` tables (a second tournament of that many full tables) and for
`--tables` tables, with the ratio of the time per table.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from handlog.recorder.api import create_app
from handlog.recorder.auth import Auth
from handlog.recorder.demo import DEMO_STRUCTURE
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments
from handlog.schema.store import open_store

DIRECTOR = Actor("director", "director", "benchmark")
PIN = "4321"
SEATS = 10


class Floor:
    def __init__(self, http: TestClient, csrf: str) -> None:
        self.http = http
        self.csrf = csrf
        self.versions: dict[str, int] = {}

    def command(self, tournament: str, command: dict[str, Any]) -> tuple[float, int]:
        """(seconds, answer bytes) of one command sent as the floor page sends it."""
        body = {"event_id": str(uuid.uuid4()), "command": command,
                "expected_version": self.versions.get(tournament)}
        started = time.perf_counter()
        answer = self.http.post(f"/api/tournaments/{tournament}/commands", json=body,
                                headers={"X-CSRF-Token": self.csrf})
        took = time.perf_counter() - started
        if answer.status_code != 200:
            raise SystemExit(f"refused: {answer.text}")
        self.versions[tournament] = answer.json()["tournament"]["version"]
        return took, len(answer.content)


def register(floor: Floor, tournament: str, count: int) -> list[tuple[float, int]]:
    return [floor.command(tournament, {"type": "register", "name": f"Player {k + 1}"})
            for k in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=1_000)
    parser.add_argument("--peer-tables", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(str(Path(folder) / "bench.db"), upgrade=True)
        recorder = Recorder(store)
        t = Tournaments(recorder)
        structure = replace(load_structure(DEMO_STRUCTURE), seats_per_table=SEATS)
        t.create("big", structure, DIRECTOR)
        t.create("peer", structure, DIRECTOR)
        app = create_app(recorder, auth=Auth(director_pin=PIN), level_for=lambda _s, _f: None)
        with TestClient(app) as http:
            login = http.post("/api/session", json={"role": "director", "pin": PIN})
            floor = Floor(http, login.json()["csrf"])
            floor.versions = {"big": t.version("big"), "peer": t.version("peer")}
            regs = register(floor, "big", args.entrants)
            early, late = regs[:100], regs[-100:]
            e_ms = statistics.median(x[0] for x in early) * 1000
            l_ms = statistics.median(x[0] for x in late) * 1000
            e_kb = statistics.median(x[1] for x in early) / 1000
            l_kb = statistics.median(x[1] for x in late) / 1000
            print(f"registration (HTTP, answer included): median {e_ms:.2f} ms, {e_kb:.1f} kB "
                  f"at 100 entrants; {l_ms:.2f} ms, {l_kb:.1f} kB at {args.entrants} "
                  f"(time ratio {l_ms / e_ms:.2f}, size ratio {l_kb / e_kb:.2f})")
            register(floor, "peer", args.peer_tables * SEATS)
            peer_s, peer_bytes = floor.command("peer", {"type": "draw_seats",
                                                        "tables": args.peer_tables, "seed": 1})
            big_s, big_bytes = floor.command("big", {"type": "draw_seats",
                                                     "tables": args.tables, "seed": 1})
            peer_per = peer_s / args.peer_tables * 1000
            big_per = big_s / args.tables * 1000
            print(f"seat draw (HTTP, one transaction): {args.peer_tables} tables in "
                  f"{peer_s:.2f} s ({peer_per:.1f} ms a table, answer {peer_bytes / 1000:.0f} "
                  f"kB); {args.tables} tables in {big_s:.2f} s ({big_per:.1f} ms a table, "
                  f"answer {big_bytes / 1000:.0f} kB); time per table ratio "
                  f"{big_per / peer_per:.2f}")
        store.close()


if __name__ == "__main__":
    main()
