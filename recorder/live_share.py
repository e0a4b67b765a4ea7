"""Viewers cost little: a view that every viewer gets alike is built (and encoded) once per
change and shared, and a client may hold only so many event streams open at once."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable
from dataclasses import dataclass
from typing import Any

import anyio
from starlette.requests import Request

from handlog.recorder.auth import AuthError, Session
from handlog.recorder.live import sse

RETRY_AFTER_SECONDS = 5


class SharedViews:
    """The `sse` frame of a view per key (what it shows and the version it shows it at): the
    first viewer's render builds it in a worker thread, those arriving meanwhile wait for
    the same build, the rest take it as it is. A few recent keys are kept."""

    def __init__(self, keep: int = 64) -> None:
        self._frames: OrderedDict[Hashable, asyncio.Future[str]] = OrderedDict()
        self._keep = keep
        self.builds = 0

    async def frame(self, key: Hashable, build: Callable[[], dict[str, Any]]) -> str:
        future = self._frames.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._frames[key] = future
            while len(self._frames) > self._keep:
                self._frames.popitem(last=False)
            self.builds += 1
            try:
                view = await anyio.to_thread.run_sync(build)
                future.set_result(sse("state", view, view.get("version")))
            except BaseException as error:
                self._frames.pop(key, None)
                future.set_exception(error)
                future.exception()  # retrieved: the waiters (if any) raise it themselves
                raise
        return await asyncio.shield(future)


@dataclass
class LiveLimits:
    """Open event streams at once: per client address for viewers (who need no PIN), per
    session for directors and dealers (behind an untrusted proxy all share one address)."""

    viewer_streams_per_client: int = 6
    streams_per_session: int = 4
    viewer_settle_seconds: float = 0.25
    """Viewers hear of a change this much later than the table's own screens (the dealer's
    answer goes first, a burst of taps is one render), each viewer up to twice that, spread,
    so that hundreds of them are not all sent to at the same instant."""


class _Slot:
    def __init__(self, counts: dict[tuple[str, str], int], key: tuple[str, str]) -> None:
        self._counts = counts
        self._key = key
        self._released = False

    async def wrap(self, body: AsyncIterator[str]) -> AsyncIterator[str]:
        try:
            async for chunk in body:
                yield chunk
        finally:
            self._release()

    def __del__(self) -> None:
        # A response dropped before its body ever started (the client left at once) runs no
        # `finally` above: the place is given back when the slot goes.
        self._release()

    def _release(self) -> None:
        if self._released:
            return
        self._released = True
        left = self._counts.get(self._key, 1) - 1
        if left > 0:
            self._counts[self._key] = left
        else:
            self._counts.pop(self._key, None)


class LiveCounter:
    """Counts the open event streams of each client (all on the event loop's thread)."""

    def __init__(self, limits: LiveLimits) -> None:
        self.limits = limits
        self._counts: dict[tuple[str, str], int] = {}
        self._opened = 0

    def settle_seconds(self, session: Session) -> float:
        """How long this stream waits after a change before it renders (0: a table's own)."""
        if session.role != "viewer":
            return 0.0
        self._opened += 1
        return self.limits.viewer_settle_seconds * (1 + (self._opened % 10) / 10)

    def take(self, request: Request, session: Session) -> _Slot:
        if session.role == "viewer":
            key = ("client", request.client.host if request.client else "unknown")
            cap = self.limits.viewer_streams_per_client
        else:
            key, cap = ("session", session.id), self.limits.streams_per_session
        if self._counts.get(key, 0) >= cap:
            raise AuthError(429, f"too many live views open from this {key[0]} (at most "
                            f"{cap}): close one", RETRY_AFTER_SECONDS)
        self._counts[key] = self._counts.get(key, 0) + 1
        return _Slot(self._counts, key)

    def open_streams(self) -> int:
        return sum(self._counts.values())
