"""Several `handlog serve` processes on one PostgreSQL database: a screen on one process sees a
table recorded through another (LISTEN/NOTIFY), and both record at the same tables."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from handlog.recorder.auth import Auth
from handlog.recorder.cli_serve import free_port

SECRET = "0123456789abcdef" * 4


@contextmanager
def handlog_serve(db_url: str, *extra: str) -> Iterator[str]:
    """A `handlog serve` process; yields its base URL once it answers."""
    port = free_port()
    env = dict(os.environ, HANDLOG_SECRET=SECRET)
    process = subprocess.Popen(
        [sys.executable, "-m", "handlog.recorder.cli", "serve", "--db", db_url, "--port", str(port),
         *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        with httpx.Client(base_url=base, timeout=5) as http:
            while True:
                if process.poll() is not None:
                    raise AssertionError(f"handlog serve ended: {process.stderr.read()}")  # type: ignore[union-attr]
                try:
                    if http.get("/api/session").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "handlog serve did not answer"
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)


def _dealer(http: httpx.Client, stream: str) -> dict[str, str]:
    login = http.post("/api/session", json={"role": "dealer", "table": stream,
                                            "pin": Auth(secret=SECRET.encode()).table_pin(stream)})
    assert login.status_code == 200, login.text
    return {"X-CSRF-Token": login.json()["csrf"]}


def _states(response: httpx.Response, into: list[dict[str, Any]], count: int) -> None:
    event = ""
    for line in response.iter_lines():
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "state":
            into.append(json.loads(line[5:]))
            if len(into) >= count:
                return


def test_a_screen_on_one_server_sees_a_table_recorded_by_another(pg_url: str) -> None:
    """Server B records a hand start; the viewer following that table on server A hears of it
    (pushed across processes by PostgreSQL's NOTIFY, no poller on PostgreSQL)."""
    with handlog_serve(pg_url) as server_a, handlog_serve(pg_url, "--no-demo") as server_b, \
            httpx.Client(base_url=server_a, timeout=30) as viewer, \
            httpx.Client(base_url=server_b, timeout=30) as dealer:
        viewer.post("/api/session", json={"role": "viewer"})
        stream = viewer.get("/api/tables").json()[0]["stream"]
        headers = _dealer(dealer, stream)
        states: list[dict[str, Any]] = []
        with viewer.stream("GET", f"/api/tables/{stream}/events") as response:
            reader = threading.Thread(target=_states, args=(response, states, 2), daemon=True)
            reader.start()
            deadline = time.monotonic() + 20
            while not states and time.monotonic() < deadline:
                time.sleep(0.02)
            assert states, "no first state"
            version = states[0]["version"]
            sent = time.monotonic()
            answer = dealer.post(f"/api/tables/{stream}/commands", headers=headers, json={
                "event_id": str(uuid.uuid4()), "expected_version": version,
                "command": {"type": "start_hand"}})
            assert answer.status_code == 200, answer.text
            reader.join(timeout=20)
            heard = time.monotonic() - sent
        assert len(states) == 2, states
        assert states[1]["version"] == answer.json()["version"] > version
        assert states[1]["hand_in_progress"]
        # Within the 20 s wait above; a poll would not be there at all (none runs on PostgreSQL).
        assert heard < 20
        # Server A records the next entry on the version it heard of: its cache caught up.
        headers_a = _dealer(viewer, stream)
        view = viewer.get(f"/api/tables/{stream}").json()
        assert view["version"] == states[1]["version"]
        player = view["hand"]["to_act"]
        assert player is not None
        step = viewer.post(f"/api/tables/{stream}/commands", headers=headers_a, json={
            "event_id": str(uuid.uuid4()), "expected_version": view["version"],
            "command": {"type": "fold", "player": player}})
        assert step.status_code == 200, step.text
        assert step.json()["version"] == view["version"] + 1


@pytest.mark.parametrize("workers", [2])
def test_serve_with_workers_answers_on_one_port(pg_url: str, workers: int) -> None:
    """`handlog serve --workers 2` runs two processes on one port, both serving the tables."""
    with handlog_serve(pg_url, "--workers", str(workers)) as base, \
            httpx.Client(base_url=base, timeout=30) as http:
        http.post("/api/session", json={"role": "viewer"})
        tables = http.get("/api/tables")
        assert tables.status_code == 200 and tables.json()
