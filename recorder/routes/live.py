"""What the server-sent event streams share: their response, and whether the session they
were opened with still holds."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import anyio
from fastapi.responses import StreamingResponse

from handlog.recorder.app_services import Services
from handlog.recorder.auth import Session


def still_valid(services: Services, session: Session) -> Callable[[], Awaitable[bool]]:
    """Whether an open event stream's session still holds (revoked, signed out, expired:
    the stream ends, and the page signs in again)."""
    auth = services.auth

    async def holds() -> bool:
        if session.role == "viewer":
            return auth.now() < session.expires  # not stored: the clock decides
        found = await anyio.to_thread.run_sync(auth.session, session.token)
        return found is not None

    return holds


def sse_response(body: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(body, media_type="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no", "Connection": "keep-alive",
    })
