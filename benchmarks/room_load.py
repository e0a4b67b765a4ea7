"""A room under load: N simulated tablets recording over HTTP into `handlog serve` on
PostgreSQL, against a bare append-only FastAPI server in the same run: plain INSERT and COMMIT
into a table of its own through the driver (benchmarks/bare_append_server.py), with the same
durability and neither handlog's store nor its room-wide lock.

    .venv/bin/python benchmarks/room_load.py [--db postgresql://postgres@127.0.0.1:5432/test]
        [--seconds 20] [--tablets 10,200,1000] [--flush-delay-ms 3]

A slow disk: `--flush-delay-ms MS` starts both servers (handlog's and the bare peer) through
benchmarks/slow_flush.py, which makes PostgreSQL sleep MS milliseconds inside every writing
transaction just before its commit (an injected flush delay, `pg_sleep` sent with the commit:
this machine has no device-mapper for a real delayed device, and the database server is
shared). The locks a transaction holds are held through it as through a slow flush; each bare
tap pays it once, each handlog batch (group commit, schema/store.py) once. 2-5 ms is a busy
room's disk (issue 28). The servers inherit this process's environment: with
`HANDLOG_GROUP_COMMIT=0` handlog appends each tap in a transaction of its own (what group
commit changes), with `HANDLOG_THREADS=N` both servers answer on N threads.

Sets up a fresh schema of the database with 1,000 six-handed tables, starts the servers as
processes (`handlog serve --no-demo`, one and then two processes on one database, and
benchmarks/bare_append_server.py), and runs short phases:

- closed loop (each tablet sends its next entry as soon as the last one is answered), N
  tablets at N tables: actions/s, p50 and p99 per tap; the bare server under the same load;
  handlog with two server processes (tablets split between them);
- while 200 tablets record as fast as they can (a phase of its own, so that the floor's cost
  is not in the throughput ratio: the bare server has no floor): the floor (`GET /api/floor`,
  all 1,000 tables) read every 0.5 s, its latency (and the first read's, when the server has
  not read every table yet);
- 1,000 tablets each tapping every 5 s (a World Series day 1: about 200 actions/s offered),
  on two handlog processes, against the bare server under the same taps: p50 and p99 per tap;
- each phase's server CPU per tap: the server processes' user and system time (from
  /proc/PID/stat) while the clock ran, over the taps answered (not the database's CPU, not
  the load generator's);
- the servers' resident memory at the end;
- `handlog --version` against a bare `python -c pass`, as processes.

At the end each of issue 17's and 28's targets is printed with its peer from the same run: handlog /
bare append throughput at 200 tablets, two processes / one, the floor under load / idle, the
p99 per tap at 1,000 tablets (200 actions/s offered) / the bare server's, the CLI / Python.

The load generator (this process) must not be what is measured, on a machine whose cores it
shares with the servers and the database: each tablet holds one keep-alive HTTP/1.1
connection and speaks it through `Tablet`, a few lines on asyncio streams (httpx's async
client cost about 4 ms of CPU per request, more than the bare server's whole append; this
costs about 0.2 ms), and the bare server's tablets use the same class, think the same (a tap
every 2.5-7.5 s at random, from a random start) and are counted the same.

Each tablet plays whole hands as a dealer enters them: start the hand, then whoever is to act
checks when they can and folds otherwise, then the pot push (7 taps per hand at six players).
Every tap carries a fresh event id and the version the tablet saw, and waits for the answer
(the new table view); a bare tap is one durable INSERT and COMMIT. Prints a table and a JSON
line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import psycopg  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from handlog.engine.table_events import ButtonPlaced, PlayerSeated, TableOpened  # noqa: E402
from handlog.recorder.auth import Auth  # noqa: E402
from handlog.recorder.cli_serve import free_port  # noqa: E402
from handlog.schema.database import resolve_url  # noqa: E402
from handlog.schema.store import NewEvent, open_store, upgrade_database  # noqa: E402

SECRET = "bench-room-load-secret-0123456789abcdef"
TABLES = 1000
LEVEL = {"small_blind": 50, "big_blind": 100}


def percentile(samples: list[float], fraction: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@dataclass
class Phase:
    name: str
    tablets: int
    seconds: float
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    floor: list[float] = field(default_factory=list)
    floor_first: float = 0.0
    ready: int = 0  # tablets that have read their table (the server has it in memory)
    cpu_seconds: float = 0.0  # the servers' CPU (user and system) while the clock ran

    def row(self) -> dict[str, Any]:
        return {
            "phase": self.name, "tablets": self.tablets,
            "actions_per_s": round(len(self.latencies) / self.seconds, 1),
            "p50_ms": round(percentile(self.latencies, 0.5) * 1000, 1),
            "p99_ms": round(percentile(self.latencies, 0.99) * 1000, 1),
            "errors": self.errors, **({"statuses": self.statuses} if self.statuses else {}),
            "server_cpu_ms_per_tap": round(self.cpu_seconds * 1000 / max(1, len(
                self.latencies)), 3),
            **({"floor_first_ms": round(self.floor_first * 1000, 1),
                "floor_p50_ms": round(percentile(self.floor, 0.5) * 1000, 1),
                "floor_max_ms": round(max(self.floor) * 1000, 1),
                "floor_reads": len(self.floor)} if self.floor else {}),
        }


# --- the database -------------------------------------------------------------------------


def fresh_schema(server_url: str) -> tuple[str, str]:
    """A new schema in the database; returns (its name, a URL whose connections use it)."""
    name = f"room_{uuid.uuid4().hex[:12]}"
    libpq = make_url(server_url).set(drivername="postgresql").render_as_string(
        hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {name}")
    url = make_url(server_url).update_query_dict({"options": f"-csearch_path={name}"})
    return name, url.render_as_string(hide_password=False)


def drop_schema(server_url: str, name: str) -> None:
    libpq = make_url(server_url).set(drivername="postgresql").render_as_string(
        hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as connection:
        connection.execute(f"DROP SCHEMA {name} CASCADE")


def seat_tables(url: str, count: int, batch: int = 50) -> list[str]:
    """`count` open six-handed tables, `batch` tables per transaction (append_many)."""
    now = datetime.now(UTC)
    streams = [f"table-r{index}" for index in range(1, count + 1)]
    with open_store(url) as store:
        for start in range(0, count, batch):
            parts = []
            for index in range(start + 1, min(count, start + batch) + 1):
                events: list[Any] = [TableOpened(f"r{index}", 9, "tda")]
                events += [PlayerSeated(seat, f"p{index}-{seat}", 20_000)
                           for seat in range(1, 7)]
                events.append(ButtonPlaced(1, "button_draw"))
                parts.append((f"table-r{index}", 0, [
                    NewEvent.from_domain(e, event_id=uuid.uuid4(), actor="bench",
                                         device="setup", recorded_at=now) for e in events],
                    "table"))
            store.append_many(parts)
    return streams


# --- the servers --------------------------------------------------------------------------


@contextmanager
def process(args: list[str], port: int, ready_path: str) -> Iterator[tuple[str, int]]:
    env = dict(os.environ, HANDLOG_SECRET=SECRET, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        with httpx.Client(base_url=base, timeout=5) as http:
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"{args} ended: {proc.stderr.read() if proc.stderr else ''}")
                try:
                    if http.get(ready_path).status_code < 500:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{args} did not answer")
                time.sleep(0.1)
        yield base, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


# The interpreter each server runs in: with a flush delay, through benchmarks/slow_flush.py.
PYTHON: list[str] = [sys.executable]


def handlog_server(url: str) -> Any:
    port = free_port()
    return process([*PYTHON, "-m", "handlog.recorder.cli", "serve", "--db", url, "--port",
                    str(port), "--no-demo"], port, "/api/session")


def bare_server(url: str) -> Any:
    port = free_port()
    return process([*PYTHON, str(ROOT / "benchmarks" / "bare_append_server.py"),
                    "--db", url, "--port", str(port)], port, "/docs")


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system) the processes `pids` have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / ticks


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# --- a tablet's connection ----------------------------------------------------------------


class Tablet:
    """One keep-alive HTTP/1.1 connection on asyncio streams, as a tablet holds one: a request
    is a few bytes written and a Content-Length body read back. httpx's async client cost
    about 4 ms of CPU per request here (more than the bare server's append), so with it the
    load generator, on the same two cores, was much of what was measured; this costs a tenth
    of that, and the bare server is driven through the same class."""

    def __init__(self, base: str, headers: dict[str, str] | None = None) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)
        self.headers = dict(headers or {})
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str,
                      body: Any = None) -> tuple[int, bytes, list[tuple[str, str]]]:
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                 f"Content-Length: {len(data)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in self.headers.items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode()
        for attempt in (1, 2):
            if self._writer is None:
                self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
            assert self._reader is not None
            try:
                self._writer.write(head + data)
                raw = await self._reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt == 2:
                    raise
                continue  # the server closed an idle connection: once more on a new one
            status_line, *header_lines = raw.decode("latin-1").split("\r\n")
            headers = [(k.strip().lower(), v.strip()) for k, _, v in
                       (line.partition(":") for line in header_lines if line)]
            length = next((int(v) for k, v in headers if k == "content-length"), 0)
            payload = await self._reader.readexactly(length) if length else b""
            if any(k == "connection" and v.lower() == "close" for k, v in headers):
                await self.close()
            return int(status_line.split(" ", 2)[1]), payload, headers
        raise AssertionError("unreachable")

    async def json(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        status, payload, _headers = await self.request(method, path, body)
        return status, json.loads(payload) if payload else None

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._reader = self._writer = None


# --- the tablets --------------------------------------------------------------------------


def next_command(view: dict[str, Any]) -> dict[str, Any]:
    hand = view.get("hand")
    if hand is None or hand["complete"]:
        return {"type": "start_hand", "level": LEVEL}
    legal = hand.get("legal")
    if legal:
        kind = "check_call" if legal["check"] else "fold"
        return {"type": kind, "player": legal["player"]}
    return {"type": "award_pots"}


async def director(base: str) -> dict[str, str]:
    """The director's signed-in headers (session cookie and CSRF token), shared by the
    tablets of one server (as one device would be per table in the room; the cost is the
    same)."""
    client = Tablet(base)
    try:
        status, _body, headers = await client.request("POST", "/api/session", {
            "role": "director", "pin": Auth(secret=SECRET.encode()).director_pin})
    finally:
        await client.close()
    if status != 200:
        raise RuntimeError(f"director sign-in answered {status}")
    cookies = dict(v.split(";", 1)[0].split("=", 1) for k, v in headers if k == "set-cookie")
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
            "X-CSRF-Token": cookies["handlog_csrf"]}


async def handlog_tablet(client: Tablet, stream: str, phase: Phase,
                         started: asyncio.Event, stop: asyncio.Event, think: float) -> None:
    _status, view = await client.json("GET", f"/api/tables/{stream}")
    phase.ready += 1
    await started.wait()
    rng = random.Random(stream)
    if think:
        await asyncio.sleep(rng.random() * think)
    while not stop.is_set():
        command = next_command(view)
        sent = time.perf_counter()
        status, body = await client.json("POST", f"/api/tables/{stream}/commands", {
            "event_id": str(uuid.uuid4()), "expected_version": view["version"],
            "command": command})
        took = time.perf_counter() - sent
        if status == 200 and not stop.is_set():
            phase.latencies.append(took)
        elif status != 200:
            phase.errors += 1
            phase.statuses[status] = phase.statuses.get(status, 0) + 1
        view = body.get("table") or (await client.json("GET", f"/api/tables/{stream}"))[1]
        if think:
            await asyncio.sleep(think * (0.5 + rng.random()))


async def bare_tablet(client: Tablet, stream: str, phase: Phase,
                      started: asyncio.Event, stop: asyncio.Event, think: float) -> None:
    version = 0
    phase.ready += 1
    await started.wait()
    rng = random.Random(stream)
    if think:
        await asyncio.sleep(rng.random() * think)
    while not stop.is_set():
        sent = time.perf_counter()
        status, body = await client.json("POST", f"/append/{stream}", {
            "event_id": str(uuid.uuid4()), "expected_version": version,
            "payload": {"position": version % 6}})
        took = time.perf_counter() - sent
        if status == 200:
            version = body["version"]
            if not stop.is_set():
                phase.latencies.append(took)
        else:
            phase.errors += 1
            phase.statuses[status] = phase.statuses.get(status, 0) + 1
            version = body.get("actual", version)
        if think:
            await asyncio.sleep(think * (0.5 + rng.random()))


async def read_floor(client: Tablet) -> float:
    """One `GET /api/floor`, its seconds (the body read, not parsed: a floor screen's cost
    of parsing is its own, not the server's)."""
    sent = time.perf_counter()
    status, _body, _headers = await client.request("GET", "/api/floor")
    if status != 200:
        raise RuntimeError(f"/api/floor answered {status}")
    return time.perf_counter() - sent


async def floor_reader(client: Tablet, phase: Phase, stop: asyncio.Event) -> None:
    while not stop.is_set():
        phase.floor.append(await read_floor(client))
        await asyncio.sleep(0.5)


async def idle_floor(base: str, reads: int = 5) -> float:
    """The floor's median answer (ms) with nothing recording, every table read once before."""
    client = Tablet(base, await director(base))
    try:
        await read_floor(client)
        samples = [await read_floor(client) for _ in range(reads)]
        return round(percentile(samples, 0.5) * 1000, 1)
    finally:
        await client.close()


async def run_phase(phase: Phase, bases: list[str], streams: list[str], bare: bool,
                    think: float = 0.0, floor: bool = False, pids: Sequence[int] = ()) -> Phase:
    # One connection per tablet, kept alive, as in the room.
    signed = [await director(b) for b in bases] if not bare else [{} for _ in bases]
    clients = [Tablet(bases[i % len(bases)], signed[i % len(bases)])
               for i in range(phase.tablets)]
    started, stop = asyncio.Event(), asyncio.Event()
    tablet = bare_tablet if bare else handlog_tablet
    tasks = [asyncio.create_task(tablet(clients[i], streams[i], phase, started, stop, think))
             for i in range(phase.tablets)]
    deadline = time.monotonic() + 120
    while phase.ready < phase.tablets and time.monotonic() < deadline:
        await asyncio.sleep(0.1)  # every tablet has its table on screen before the clock runs
    await asyncio.sleep(1.0)
    floor_client = Tablet(bases[0], signed[0])
    if floor:
        # The first floor read of a server that has not read every table yet (after a start).
        phase.floor_first = await read_floor(floor_client)
        tasks.append(asyncio.create_task(floor_reader(floor_client, phase, stop)))
    cpu = cpu_seconds(list(pids))
    started.set()
    await asyncio.sleep(phase.seconds)
    stop.set()
    phase.cpu_seconds = cpu_seconds(list(pids)) - cpu
    _done, pending = await asyncio.wait(tasks, timeout=60)
    for task in pending:  # a tap still unanswered: not counted
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in _done:
        if task.exception() is not None:
            phase.errors += 1
            phase.statuses[-1] = phase.statuses.get(-1, 0) + 1  # a connection lost
    for client in [*clients, floor_client]:
        await client.close()
    return phase


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=os.environ.get("HANDLOG_TEST_POSTGRES_URL")
                        or "postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--tablets", default="10,200,1000")
    parser.add_argument("--flush-delay-ms", type=float, default=0.0,
                        help="a slow disk: this many ms slept before every writing commit of "
                             "both servers (benchmarks/slow_flush.py)")
    args = parser.parse_args()
    if args.flush_delay_ms > 0:
        PYTHON[:] = [sys.executable, str(ROOT / "benchmarks" / "slow_flush.py"),
                     str(args.flush_delay_ms)]
        print(f"slow disk: {args.flush_delay_ms} ms injected before every writing commit",
              flush=True)
    counts = [int(n) for n in args.tablets.split(",")]
    server_url = resolve_url(args.db)
    schema, url = fresh_schema(server_url)
    results: list[dict[str, Any]] = []
    memory: dict[str, float] = {}
    startup = startup_times()
    try:
        upgrade_database(url)
        print(f"schema {schema}: seating {TABLES} tables...", flush=True)
        streams = seat_tables(url, max(TABLES, *counts))
        closed = [n for n in counts if n <= 200]
        with ExitStack() as stack:
            bare_base, bare_pid = stack.enter_context(bare_server(url))
            one_base, one_pid = stack.enter_context(handlog_server(url))
            for n in closed:
                for label, bases, bare, pid in (("handlog", [one_base], False, one_pid),
                                                ("bare append", [bare_base], True, bare_pid)):
                    phase = asyncio.run(run_phase(Phase(label, n, args.seconds), bases,
                                                  streams if not bare else
                                                  [f"bare{n}-{i}" for i in range(n)], bare,
                                                  pids=[pid]))
                    results.append(phase.row())
                    print(json.dumps(results[-1]), flush=True)
            # The floor read every 0.5 s while the most tablets record: a phase of its own, so
            # that the floor's cost does not enter the throughput ratio (the bare server has
            # no floor).
            n = max(closed)
            phase = asyncio.run(run_phase(Phase("handlog, floor read every 0.5 s", n,
                                                args.seconds), [one_base], streams, False,
                                          floor=True, pids=[one_pid]))
            results.append(phase.row())
            print(json.dumps(results[-1]), flush=True)
            # The floor's peer: the same server's answer with nothing recording.
            startup["floor_idle_ms"] = asyncio.run(idle_floor(one_base))
            two_base, two_pid = stack.enter_context(handlog_server(url))
            n = max(closed)
            phase = asyncio.run(run_phase(Phase("handlog, 2 processes", n, args.seconds),
                                          [one_base, two_base], streams[n:2 * n], False,
                                          pids=[one_pid, two_pid]))
            results.append(phase.row())
            print(json.dumps(results[-1]), flush=True)
            for n in (c for c in counts if c > 200):
                phase = asyncio.run(run_phase(Phase("handlog, a tap every 5 s", n,
                                                    args.seconds), [one_base, two_base],
                                              streams[:n], False, think=5.0,
                                              pids=[one_pid, two_pid]))
                results.append(phase.row())
                print(json.dumps(results[-1]), flush=True)
                phase = asyncio.run(run_phase(Phase("bare append, a tap every 5 s", n,
                                                    args.seconds), [bare_base],
                                              [f"bare5-{i}" for i in range(n)], True,
                                              think=5.0, pids=[bare_pid]))
                results.append(phase.row())
                print(json.dumps(results[-1]), flush=True)
            memory = {"handlog_1_rss_mb": round(rss_mb(one_pid), 1),
                      "handlog_2_rss_mb": round(rss_mb(two_pid), 1)}
            with open_store(url) as store:
                memory["events_in_log"] = sum(h.version for h in store.streams())
    finally:
        drop_schema(server_url, schema)
    print()
    print(f"{'phase':32} {'tablets':>7} {'actions/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'errors':>6} {'CPU ms/tap':>10}")
    for row in results:
        print(f"{row['phase']:32} {row['tablets']:>7} {row['actions_per_s']:>9} "
              f"{row['p50_ms']:>8} {row['p99_ms']:>8} {row['errors']:>6} "
              f"{row['server_cpu_ms_per_tap']:>10}"
              + (f"   floor p50 {row['floor_p50_ms']} ms, max {row['floor_max_ms']} ms "
                 f"(first read {row['floor_first_ms']} ms)" if "floor_p50_ms" in row else ""))
    ratios = {}
    for n in closed:
        mine = next(r for r in results if r["phase"] == "handlog" and r["tablets"] == n)
        peer = next(r for r in results if r["phase"] == "bare append" and r["tablets"] == n)
        ratios[f"throughput_ratio_{n}"] = round(mine["actions_per_s"] / peer["actions_per_s"], 2)
    print("handlog / bare append throughput:", ratios)
    print("memory:", memory)
    print()
    print("Done-when figures, each beside its peer in this run:")
    for line in done_when(results, closed, counts, startup):
        print("  " + line)
    print(json.dumps({"flush_delay_ms": args.flush_delay_ms, "results": results,
                      "ratios": ratios, "memory": memory,
                      "startup": startup, "median_note": "p50 is the median tap"}))


def done_when(results: list[dict[str, Any]], closed: list[int], counts: list[int],
              startup: dict[str, float]) -> list[str]:
    """Issue 17's targets, each figure with the same run's peer figure."""
    def find(phase: str, tablets: int) -> dict[str, Any] | None:
        return next((r for r in results if r["phase"] == phase and r["tablets"] == tablets),
                    None)

    lines = []
    n = max(closed)
    mine, bare, two = find("handlog", n), find("bare append", n), find(
        "handlog, 2 processes", n)
    if mine and bare:
        lines.append(f"throughput at {n} tablets: handlog {mine['actions_per_s']} vs bare "
                     f"append {bare['actions_per_s']} actions/s = "
                     f"{mine['actions_per_s'] / bare['actions_per_s']:.2f}x (target >= 0.8x)")
        lines.append(f"server CPU per tap at {n} tablets: handlog "
                     f"{mine['server_cpu_ms_per_tap']} ms vs bare append "
                     f"{bare['server_cpu_ms_per_tap']} ms = "
                     f"{mine['server_cpu_ms_per_tap'] / bare['server_cpu_ms_per_tap']:.2f}x "
                     "(target <= 1.3x)")
    if mine and two:
        lines.append(f"two server processes at {n} tablets: {two['actions_per_s']} vs one "
                     f"{mine['actions_per_s']} actions/s = "
                     f"{two['actions_per_s'] / mine['actions_per_s']:.2f}x (target > 1x)")
    floored = find("handlog, floor read every 0.5 s", n)
    if floored and "floor_p50_ms" in floored:
        lines.append(f"floor while {n} tablets record: p50 {floored['floor_p50_ms']} ms, max "
                     f"{floored['floor_max_ms']} ms (target 300 ms); idle (peer) "
                     f"{startup.get('floor_idle_ms', float('nan'))} ms")
    for big in (c for c in counts if c > 200):
        tapped = find("handlog, a tap every 5 s", big)
        peer = find("bare append, a tap every 5 s", big)
        if tapped and peer:
            lines.append(f"{big} tablets, {big / 5:.0f} actions/s offered: handlog p99 "
                         f"{tapped['p99_ms']} ms ({tapped['actions_per_s']} actions/s) vs bare "
                         f"append p99 {peer['p99_ms']} ms ({peer['actions_per_s']} actions/s) "
                         "(target p99 < 250 ms)")
    if "version_s" in startup:
        lines.append(f"`handlog --version`: {startup['version_s'] * 1000:.0f} ms vs bare "
                     f"Python {startup['python_s'] * 1000:.0f} ms (target < 150 ms)")
    return lines


def startup_times(runs: int = 5) -> dict[str, float]:
    """Medians of `handlog --version` and of a bare `python -c pass`, as processes."""
    def took(args: list[str]) -> float:
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run(args, cwd=ROOT, check=True, capture_output=True)
            samples.append(time.perf_counter() - started)
        return sorted(samples)[len(samples) // 2]

    return {"version_s": took([sys.executable, "-m", "handlog.recorder.cli", "--version"]),
            "python_s": took([sys.executable, "-c", "pass"])}


if __name__ == "__main__":
    main()
