"""Memory that does not grow with the log: peak resident memory of `handlog replay`, `handlog log
verify`, `handlog report` and `handlog export` on a 700,000-event log, and of `handlog serve`
holding every table of a 100,000-event log, beside a peer in the same run: plain sqlite3
reading and hashing every row of the same file.

    .venv/bin/python benchmarks/memory.py [--events 700000] [--server-events 100000]
        [--runs 1] [--cache DIR] [--skip report,export] [--db postgresql://...]

The logs are real hands (benchmarks/report_size.py's builder: 9-handed tables, every hand
decided by the engine with seeded random legal play, appended in batches straight to the
store), built once and kept in --cache (default: the temporary folder) between runs. Each
command runs as its own process; its peak resident memory is the child's own ru_maxrss
(os.wait4), its time the wall clock. The server is started on the smaller log, every table is
read through the API (so the server folds and holds each one), and its VmHWM/VmRSS are read
from /proc; the peer there is benchmarks/bare_append_server.py on the same store.

With `--db` (a PostgreSQL server's URL) the logs are built in schemas of that database instead
(`bench_memory_<events>_<tables>`, kept between runs like the files; a schema is renamed to
its name only once complete), the commands read them there, and the peer is psycopg reading
every row through a server-side cursor and hashing it.

Targets (issue 17): replay and log verify of 700,000 events under 200 MB; the server after
100,000 events under 300 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import httpx  # noqa: E402
from report_size import build  # noqa: E402

from handlog.recorder.auth import Auth  # noqa: E402
from handlog.recorder.cli_serve import free_port  # noqa: E402

HANDLOG = [sys.executable, "-m", "handlog.recorder.cli"]
EVENTS_PER_HAND = 30  # about 31 in the builder's hands: a little more than asked
SECRET = "bench-memory-secret-0123456789abcdef"

PEER = r"""
import hashlib, sqlite3, sys
connection = sqlite3.connect(sys.argv[1])
digest = hashlib.sha256()
count = 0
for row in connection.execute(
        "SELECT position, stream_id, version, event_id, type, schema_version, payload, "
        "recorded_at, actor, device, prev_hash, hash FROM events ORDER BY position"):
    digest.update(repr(row).encode())
    count += 1
print(count, digest.hexdigest())
"""

PEER_PG = r"""
import hashlib, sys
import psycopg
digest = hashlib.sha256()
count = 0
with psycopg.connect(sys.argv[1]) as connection:
    with connection.cursor(name="peer") as cursor:
        cursor.itersize = 2000
        cursor.execute(
            "SELECT position, stream_id, version, event_id, type, schema_version, payload, "
            "recorded_at, actor, device, prev_hash, hash FROM events ORDER BY position")
        for row in cursor:
            digest.update(repr(row).encode())
            count += 1
print(count, digest.hexdigest())
"""


def pg_log(server_url: str, events: int, tables: int) -> str:
    """The URL of a schema of `server_url` holding about `events` events (built the first
    time, then kept)."""
    import psycopg
    from sqlalchemy.engine import make_url

    from handlog.schema.database import resolve_url

    server_url = resolve_url(server_url)
    libpq = make_url(server_url).set(drivername="postgresql").render_as_string(
        hide_password=False)
    name = f"bench_memory_{events}_{tables}"

    def url_of(schema: str) -> str:
        return make_url(server_url).update_query_dict(
            {"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)

    with psycopg.connect(libpq, autocommit=True) as connection:
        found = connection.execute(
            "SELECT 1 FROM information_schema.schemata WHERE schema_name = %s",
            (name,)).fetchone()
        if found is None:
            connection.execute(f"DROP SCHEMA IF EXISTS {name}_building CASCADE")
            connection.execute(f"CREATE SCHEMA {name}_building")
            started = time.perf_counter()
            build(url_of(f"{name}_building"), events // EVENTS_PER_HAND, tables, 7)
            connection.execute(f"ALTER SCHEMA {name}_building RENAME TO {name}")
            print(f"built schema {name} in {time.perf_counter() - started:.0f} s", flush=True)
    return url_of(name)


def _libpq(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def log_file(cache: Path, events: int, tables: int) -> Path:
    """The cached log of about `events` events (built the first time)."""
    path = cache / f"memory-{events}-{tables}.db"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".building")
        for stale in cache.glob(partial.name + "*"):
            stale.unlink()
        started = time.perf_counter()
        build(f"sqlite:///{partial}", events // EVENTS_PER_HAND, tables, 7)
        partial.rename(path)
        print(f"built {path} in {time.perf_counter() - started:.0f} s", flush=True)
    return path


def count_events(path: Path | str) -> int:
    if isinstance(path, str):
        import psycopg

        with psycopg.connect(_libpq(path)) as connection:
            row = connection.execute("SELECT count(*) FROM events").fetchone()
            return int(row[0]) if row else 0
    with sqlite3.connect(path) as connection:
        return int(connection.execute("SELECT count(*) FROM events").fetchone()[0])


def table_streams(path: Path | str) -> list[str]:
    query = "SELECT id FROM streams WHERE kind = 'table' ORDER BY id"
    if isinstance(path, str):
        import psycopg

        with psycopg.connect(_libpq(path)) as connection:
            return [r[0] for r in connection.execute(query)]
    with sqlite3.connect(path) as connection:
        return [r[0] for r in connection.execute(query)]


# A child's ru_maxrss counts the memory of the process it was forked from (Linux carries the
# old address space's high-water mark over exec): so each command is started by this small
# launcher, not by the benchmark's own (large) process.
LAUNCHER = r"""
import os, sys, time
started = time.perf_counter()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ)
_pid, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"\nMEASURED {os.waitstatus_to_exitcode(status)} {usage.ru_maxrss} "
                 f"{time.perf_counter() - started}\n")
"""


def measure(args: list[str], code: Path) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one child process; its output is thrown away."""
    env = dict(os.environ, PYTHONPATH=str(code))
    done = subprocess.run([sys.executable, "-S", "-c", LAUNCHER, *args], cwd=code, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          check=False)
    _word, status, peak_kb, seconds = done.stderr.strip().splitlines()[-1].split()
    if int(status) not in (0, 1):
        raise SystemExit(f"{' '.join(args)} exited {status}:\n{done.stderr}")
    return float(seconds), int(peak_kb) / 1024  # kB on Linux


def _status(pid: int) -> dict[str, float]:
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0]) / 1024
    return found


def serve(args: list[str], port: int, ready: str, code: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, HANDLOG_SECRET=SECRET, PYTHONUNBUFFERED="1", PYTHONPATH=str(code))
    proc = subprocess.Popen(args, cwd=code, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"{args} ended with {proc.returncode}")
            try:
                if http.get(ready).status_code < 500:
                    return proc
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                proc.kill()
                raise SystemExit(f"{args} did not answer")
            time.sleep(0.2)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def server_memory(path: Path | str, code: Path) -> dict[str, float]:
    """handlog serve holding every table of the log (a SQLite file, or a PostgreSQL URL), and
    the bare append server on it."""
    url = path if isinstance(path, str) else f"sqlite:///{path}"
    streams = table_streams(path)
    port = free_port()
    proc = serve([*HANDLOG, "serve", "--db", url, "--port", str(port), "--no-demo"], port,
                 "/api/session", code)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as http:
            login = http.post("/api/session", json={
                "role": "director", "pin": Auth(secret=SECRET.encode()).director_pin})
            login.raise_for_status()
            for stream in streams:
                http.get(f"/api/tables/{stream}").raise_for_status()
            http.get("/api/floor").raise_for_status()
        handlog = _status(proc.pid)
    finally:
        stop(proc)
    port = free_port()
    bare = serve([sys.executable, str(ROOT / "benchmarks" / "bare_append_server.py"), "--db",
                  url, "--port", str(port)], port, "/docs", ROOT)
    try:
        peer = _status(bare.pid)
    finally:
        stop(bare)
    return {"server_rss_mb": handlog["VmRSS"], "server_peak_mb": handlog["VmHWM"],
            "bare_server_rss_mb": peer["VmRSS"], "tables": len(streams)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=700_000)
    parser.add_argument("--server-events", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "handlog-bench-memory")
    parser.add_argument("--code", type=Path, default=ROOT,
                        help="run the handlog commands from this source tree (e.g. an export "
                        "of an older commit, for a before/after)")
    parser.add_argument("--skip", default="", help="comma-separated: replay, verify, report, "
                        "export, server")
    parser.add_argument("--db", default="", help="a PostgreSQL server's URL: build and read "
                        "the logs in schemas there instead of SQLite files")
    options = parser.parse_args()
    skip = set(filter(None, options.skip.split(",")))
    big: Path | str
    if options.db:
        big = url = pg_log(options.db, options.events, options.tables)
        peer = [sys.executable, "-c", PEER_PG, _libpq(url)]
    else:
        big = log_file(options.cache, options.events, options.tables)
        url = f"sqlite:///{big}"
        peer = [sys.executable, "-c", PEER, str(big)]
    events = count_events(big)
    out = Path(tempfile.mkdtemp(prefix="handlog-memory-"))
    commands = {
        "peer": peer,
        "replay": [*HANDLOG, "replay", "--db", url],
        "verify": [*HANDLOG, "log", "verify", "--db", url],
        "replay --json": [*HANDLOG, "replay", "--db", url, "--json"],
        "export": [*HANDLOG, "export", "--db", url, "--format", "phh", "--out",
                   str(out / "hands.phhs")],
        "log export": [*HANDLOG, "log", "export", "--db", url, "--out", str(out / "log.jsonl")],
        "report": [*HANDLOG, "report", "--db", url, "--format", "html", "--out",
                   str(out / "report.html")],
    }
    skipped = {"replay": ("replay", "replay --json"), "verify": ("verify",),
               "export": ("export", "log export"), "report": ("report",)}
    for name in skip:
        for command in skipped.get(name, ()):
            commands.pop(command, None)
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(options.runs):
        for name, args in commands.items():  # alternated: the peer in every round
            results[name].append(measure(args, options.code))
            print(f"  {name}: {results[name][-1][0]:.1f} s, {results[name][-1][1]:.0f} MB",
                  flush=True)
    summary: dict[str, object] = {"events": events}
    peer_mb = statistics.median(m for _s, m in results["peer"])
    where = "PostgreSQL" if isinstance(big, str) else f"{big.stat().st_size / 1e6:.0f} MB file"
    print(f"\n{events:,} events ({where}), median of {options.runs} run(s):")
    print(f"{'command':<16}{'seconds':>9}{'peak MB':>9}{'x peer':>8}")
    for name, runs in results.items():
        seconds = statistics.median(s for s, _m in runs)
        peak = statistics.median(m for _s, m in runs)
        print(f"{name:<16}{seconds:>9.1f}{peak:>9.0f}{peak / peer_mb:>8.1f}")
        summary[name] = {"seconds": round(seconds, 2), "peak_mb": round(peak, 1)}
    report = out / "report.html"
    if report.exists():
        summary["report_first_page_kb"] = round(report.stat().st_size / 1e3, 1)
        print(f"report: first page {report.stat().st_size / 1e3:.0f} kB")
    if "server" not in skip:
        small: Path | str = (pg_log(options.db, options.server_events, options.tables)
                             if options.db else
                             log_file(options.cache, options.server_events, options.tables))
        server = server_memory(small, options.code) | {"events": count_events(small)}
        summary["server"] = server
        print(f"server holding {server['tables']} tables of {server['events']:,} events: "
              f"RSS {server['server_rss_mb']:.0f} MB (peak {server['server_peak_mb']:.0f} MB); "
              f"bare append server on the same store {server['bare_server_rss_mb']:.0f} MB")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
