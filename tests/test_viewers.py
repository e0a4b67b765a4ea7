"""Viewers cost little: the public view is built once per change and shared by every viewer,
a client may hold only so many live streams open, and a stream ends with its session (a
viewer's expired, a dealer's revoked). The latency figure is benchmarks/tablet_latency.py
--viewers 200 (docs/guide.md)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import make_app, make_recorder, open_table, record

from handlog.engine.table_commands import AdjustStack
from handlog.recorder.auth import Auth
from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.live_share import LiveLimits
from handlog.recorder.service import Recorder

STREAM = "table-1"
NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def recorder(tmp_path: Path) -> Iterator[Recorder]:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    yield recorder
    recorder.store.close()


def _until(condition: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.02)


class Follower:
    """A screen following an event stream on a socket of its own (read in a thread); keeps
    each frame. Closing the socket is the screen going away."""

    def __init__(self, base: str, path: str, login: dict[str, Any]) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.answer = self.http.post("/api/session", json=login)
        cookies = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        host, port = base.removeprefix("http://").split(":")
        self.socket = socket.create_connection((host, int(port)), timeout=30)
        self.socket.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nCookie: {cookies}"
                            "\r\n\r\n".encode())
        self.frames: list[str] = []
        self.status = 0
        self.ended = threading.Event()
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    return
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    text = line.decode().strip()
                    if text.startswith("HTTP/1.1 "):
                        self.status = int(text.split()[1])
                    elif text.startswith("data:"):
                        self.frames.append(text)
                    elif text == "0" and self.status:
                        return  # the last chunk: the server ended the stream
        except OSError:
            pass
        finally:
            self.ended.set()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()
        self.http.close()


def _adjust(recorder: Recorder, amount: int) -> None:
    record(recorder, STREAM, AdjustStack(1, amount, "count", "TDA 1"))


def test_the_public_view_is_built_once_per_change_and_shared_by_every_viewer(
        recorder: Recorder) -> None:
    """Twelve viewers follow the floor through three changes: four builds in all (the first
    view and one per change), and every viewer got the same bytes."""
    app, _auth = make_app(recorder, clock=lambda: NOON,
                          live_limits=LiveLimits(viewer_streams_per_client=12))
    with serve_in_thread(app) as base:
        viewers = [Follower(base, "/api/floor/events", {"role": "viewer"}) for _ in range(12)]
        try:
            _until(lambda: all(len(v.frames) == 1 for v in viewers), "first views")
            for step in range(1, 4):
                _adjust(recorder, step)
                _until(lambda step=step: all(len(v.frames) == 1 + step for v in viewers),
                       f"change {step} reached every viewer")
            assert app.state.viewer_floor.builds == 4
            assert len({tuple(v.frames) for v in viewers}) == 1
        finally:
            for viewer in viewers:
                viewer.close()


def test_live_streams_are_capped_per_client(recorder: Recorder) -> None:
    """Past the cap a client's next stream gets 429 with Retry-After; closing one frees a
    place. Each client counts apart (a director's own session has its own cap)."""
    app, auth = make_app(recorder, live_limits=LiveLimits(viewer_streams_per_client=2,
                                                          streams_per_session=1))
    with serve_in_thread(app) as base:
        first, second = (Follower(base, "/api/floor/events", {"role": "viewer"})
                         for _ in range(2))
        _until(lambda: first.frames and second.frames, "two streams open")
        with httpx.Client(base_url=base, timeout=10) as third:
            third.post("/api/session", json={"role": "viewer"})
            refused = third.get(f"/api/tables/{STREAM}/events")
            assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
            director = Follower(base, "/api/floor/events",
                                {"role": "director", "pin": auth.director_pin})
            _until(lambda: director.frames, "the director's stream, apart from the viewers'")
            assert director.http.get("/api/floor/events").status_code == 429  # one a session
            first.close()
            _until(lambda: app.state.live.open_streams() == 2, "the closed stream let go")
            with third.stream("GET", "/api/floor/events") as again:
                assert again.status_code == 200
        second.close()
        director.close()


def test_a_viewers_stream_ends_when_his_session_expires(recorder: Recorder) -> None:
    clock = [1_000_000.0]
    auth = Auth(clock=lambda: clock[0], viewer_seconds=60)
    app, _ = make_app(recorder, auth=auth)
    with serve_in_thread(app) as base:
        viewer = Follower(base, f"/api/tables/{STREAM}/events", {"role": "viewer"})
        _until(lambda: viewer.frames, "the first view")
        clock[0] += 61
        _adjust(recorder, 5)
        assert viewer.ended.wait(20), "the stream went on after the session expired"
        assert len(viewer.frames) == 1
        viewer.close()


def test_a_revoked_dealers_stream_ends(recorder: Recorder) -> None:
    app, auth = make_app(recorder)
    with serve_in_thread(app) as base:
        dealer = Follower(base, f"/api/tables/{STREAM}/events",
                          {"role": "dealer", "table": STREAM, "pin": auth.table_pin(STREAM)})
        _until(lambda: dealer.frames, "the first view")
        session = next(s for s in auth.signed_in() if s.role == "dealer")
        assert auth.revoke(session.id, "director")
        _adjust(recorder, 5)
        assert dealer.ended.wait(20), "a revoked tablet kept its live view"
        assert len(dealer.frames) == 1
        dealer.close()


def test_a_stream_dropped_before_it_started_gives_its_place_back() -> None:
    """A client that leaves before the body's first byte runs no `finally`: the place comes
    back all the same, so a client is never stuck at the cap."""
    import gc
    from types import SimpleNamespace

    from handlog.recorder.live_share import LiveCounter

    counter = LiveCounter(LiveLimits(viewer_streams_per_client=1))
    request: Any = SimpleNamespace(client=SimpleNamespace(host="10.0.0.1"))
    viewer: Any = SimpleNamespace(role="viewer", id="v")
    slot = counter.take(request, viewer)
    body = slot.wrap(_never())
    assert counter.open_streams() == 1
    del slot, body
    gc.collect()
    assert counter.open_streams() == 0
    counter.take(request, viewer)  # not refused


async def _never() -> Any:
    yield "never read"
