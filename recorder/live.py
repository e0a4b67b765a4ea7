"""Server-sent events: every screen following a table (or the floor) hears of each append.

The recorder calls `Hub.notify` right after an append (from whatever thread recorded). Appends
made by another process (the CLI, a second server) reach the screens too: on PostgreSQL through
LISTEN/NOTIFY (schema/notify.py: every append notifies at commit), on SQLite through a poller
that watches the store's stream heads. Each connection gets a queue of "stream X is at version N"
notices and sends its own role's view of the new state; notices are coalesced, so a slow
screen skips to the latest state instead of falling behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio

from handlog.schema.notify import AppendListener
from handlog.schema.sessions import SessionStore
from handlog.schema.store import EventStore

KEEPALIVE_SECONDS = 15.0
DISCONNECT_CHECK_SECONDS = 1.0
RETRY_MILLISECONDS = 1000


@dataclass(eq=False)
class Subscription:
    """One open event stream: the streams it follows (None: all of them) and its notices."""

    streams: frozenset[str] | None
    queue: asyncio.Queue[tuple[str, int] | None] = field(default_factory=asyncio.Queue)

    def wants(self, stream: str) -> bool:
        return self.streams is None or stream in self.streams


class Hub:
    """Fans "stream at version N" notices out to the open event streams."""

    def __init__(self, store: EventStore, poll_seconds: float = 1.0,
                 observe: Callable[[str, int], None] | None = None,
                 sessions: SessionStore | None = None) -> None:
        """`observe(stream, version)` hears of appends made elsewhere (another process) before
        the screens are told, so that the recorder's cache catches up first. `sessions`: kept
        in memory while the database's notices are heard (PostgreSQL), forgotten when one
        ends anywhere."""
        self._store = store
        self._sessions = sessions
        self._observe = observe
        self._poll_seconds = poll_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subscriptions: set[Subscription] = set()
        self._versions: dict[str, int] = {}
        self._poller: asyncio.Task[None] | None = None
        self._notices: list[tuple[str, int]] = []  # this process's appends, to publish
        self._notices_lock = threading.Lock()
        self._listener: AppendListener | None = None
        self.closed = False
        self.generation = 0
        """Counts the appends heard of: a view built at one generation is current until the
        next (the key of the views shared by every viewer)."""

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        with self._notices_lock:
            self._notices = []  # (a wake-up asked of an earlier loop that ended never came)
        self._versions = {h.stream_id: h.version for h in
                          await anyio.to_thread.run_sync(self._store.streams)}
        if self._store.is_postgresql:
            loop = self._loop

            def heard(stream: str, version: int) -> None:
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    loop.call_soon_threadsafe(self.external, stream, version)

            sessions = self._sessions

            def gap() -> None:
                if sessions is not None:
                    sessions.forget()  # an ending may have been missed
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._poll_once_soon)

            # This process's own appends reach the screens through `notify` already.
            self._listener = AppendListener(
                self._store.raw_url, heard, gap, ignore=self._store.token,
                on_ended=sessions.forget if sessions is not None else None)
            listening = await anyio.to_thread.run_sync(self._listener.start)
            if sessions is not None and listening:
                sessions.caching = True
        elif self._poll_seconds > 0:
            self._poller = asyncio.create_task(self._poll())

    def _poll_once_soon(self) -> None:
        asyncio.ensure_future(self._poll_once())

    async def stop(self) -> None:
        if self._sessions is not None:
            self._sessions.caching = False
            self._sessions.forget()
        self.close()
        if self._listener is not None:
            self._listener.stop()
        if self._poller is not None:
            self._poller.cancel()

    def close(self) -> None:
        """End every open event stream (so that a server can stop without waiting on them)."""
        self.closed = True
        if self._listener is not None:
            self._listener.stop()
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._end_all)

    def _end_all(self) -> None:
        for subscription in self._subscriptions:
            subscription.queue.put_nowait(None)

    def notify(self, stream: str, version: int) -> None:
        """Called from any thread after an append. The notices wait for the event loop in
        order; one wake-up of the loop publishes every notice given before it runs (a group
        commit's taps, recorded at once, cost one wake-up, not one each)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with self._notices_lock:
                self._notices.append((stream, version))
                if len(self._notices) > 1:
                    return  # the wake-up already asked for publishes this one too
            loop.call_soon_threadsafe(self._publish_notices)

    def _publish_notices(self) -> None:
        with self._notices_lock:
            notices, self._notices = self._notices, []
        for stream, version in notices:
            self._publish(stream, version)

    def _publish(self, stream: str, version: int) -> None:
        if version <= self._versions.get(stream, 0):
            return
        self._versions[stream] = version
        self.generation += 1
        for subscription in self._subscriptions:
            if subscription.wants(stream):
                subscription.queue.put_nowait((stream, version))

    async def _poll(self) -> None:
        while not self.closed:
            await asyncio.sleep(self._poll_seconds)
            await self._poll_once()

    async def _poll_once(self) -> None:
        try:
            heads = await anyio.to_thread.run_sync(self._store.streams)
        except Exception:  # noqa: BLE001 - a database hiccup must not end the poller
            return
        for head in heads:
            self.external(head.stream_id, head.version)

    def external(self, stream: str, version: int) -> None:
        """An append seen in the database (by any process): the cache, then the screens."""
        if version <= self._versions.get(stream, 0):
            return
        if self._observe is not None:
            self._observe(stream, version)
        self._publish(stream, version)

    def heard(self) -> int:
        """How many streams the hub has heard of (a new one: the floor lists the streams
        again)."""
        return len(self._versions)

    def subscribe(self, streams: frozenset[str] | None) -> Subscription:
        subscription = Subscription(streams)
        self._subscriptions.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        self._subscriptions.discard(subscription)


def sse(event: str, data: Any, event_id: int | None = None) -> str:
    return sse_text(event, json.dumps(data, separators=(",", ":")), event_id)


def sse_text(event: str, text: str, event_id: int | None = None) -> str:
    """An event-stream frame of JSON text already encoded."""
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append(f"event: {event}")
    lines.extend(f"data: {line}" for line in text.splitlines() or [""])
    return "\n".join(lines) + "\n\n"


async def event_stream(
    hub: Hub,
    subscription: Subscription,
    render: Callable[[], Awaitable[dict[str, Any] | str]],
    is_disconnected: Callable[[], Awaitable[bool]],
    still_valid: Callable[[], Awaitable[bool]] | None = None,
    settle_seconds: float = 0.0,
) -> AsyncIterator[str]:
    """The text/event-stream body: the state now, then the state after every append, while
    `still_valid()` (the session holds). `render` gives the view, or its `sse` frame ready
    made (a view shared by many screens is encoded once). `settle_seconds`: wait that long
    after a notice before rendering (viewers: the table's own screens go first, and a burst of
    taps is one render)."""

    async def holds() -> bool:
        return still_valid is None or await still_valid()

    async def frame() -> str:
        view = await render()
        return view if isinstance(view, str) else sse("state", view, view.get("version"))

    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        yield await frame()
        quiet = 0.0
        while not hub.closed:
            try:
                notice = await asyncio.wait_for(subscription.queue.get(),
                                                timeout=DISCONNECT_CHECK_SECONDS)
            except TimeoutError:
                # A screen that went away frees its place (and its live-view slot) soon.
                if await is_disconnected():
                    return
                quiet += DISCONNECT_CHECK_SECONDS
                if quiet >= KEEPALIVE_SECONDS:
                    quiet = 0.0
                    if not await holds():
                        return
                    yield ": keep-alive\n\n"
                continue
            quiet = 0.0
            if notice is None:
                return
            if settle_seconds:
                await asyncio.sleep(settle_seconds)
            # Coalesce: whatever else arrived meanwhile is covered by one fresh render.
            while not subscription.queue.empty():
                if subscription.queue.get_nowait() is None:
                    return
            if not await holds():
                return
            yield await frame()
    finally:
        hub.unsubscribe(subscription)
