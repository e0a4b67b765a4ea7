"""The floor: every table's card, the tournaments, rulings and corrections; and its live
stream (recorder/floor_cards.py builds both)."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from handlog.recorder.api_spec import FLOOR, FLOOR_STREAM
from handlog.recorder.floor_cards import FloorFollower
from handlog.recorder.live import event_stream
from handlog.recorder.routes.deps import SIGNED_IN, Reader, ServicesDep, session_of
from handlog.recorder.routes.live import sse_response, still_valid
from handlog.recorder.routes.models import FloorView

router = APIRouter(tags=["floor"])


@router.get("/api/floor", responses=FLOOR, response_model=FloorView, dependencies=SIGNED_IN)
async def read_floor(request: Request, services: ServicesDep) -> Response:
    """Every table, rulings and corrections; for the director the dealer PINs and codes."""
    # The sign-in check, the build and the encoding on a floor thread, in one trip: the
    # event loop serving the tablets never encodes the floor's hundreds of kilobytes, and
    # a floor read never waits in the queue of taps for a route thread (with 200 tablets
    # recording that queue, not the floor, was most of its time).
    def answer() -> str:
        return services.cards.encoded(session_of(services, request))[0]

    text = await anyio.to_thread.run_sync(answer, limiter=services.floor_threads)
    return Response(text, media_type="application/json")


@router.get("/api/floor/events", tags=["live"], responses=FLOOR_STREAM,
            response_class=StreamingResponse, dependencies=SIGNED_IN)
async def follow_floor(request: Request, session: Reader,
                       services: ServicesDep) -> StreamingResponse:
    """Server-sent events: `state` (the whole floor view) now, then `changes` (what changed:
    FloorFollower) after every append anywhere; a viewer gets `state` each time (one
    view per change, encoded once and shared by every viewer)."""
    slot = services.live.take(request, session)
    follower = FloorFollower(services, session)
    seen: list[int | None] = [None]  # the viewers' frame this viewer was sent last

    def viewer_frames() -> str:
        text, seen[0] = services.viewers.since(session, seen[0])
        return text

    async def render() -> str:
        if session.role == "viewer":  # each frame built once, shared by every viewer
            return await anyio.to_thread.run_sync(viewer_frames,
                                                  limiter=services.floor_threads)
        return await anyio.to_thread.run_sync(follower.frame, limiter=services.floor_threads)

    subscription = services.hub.subscribe(None)
    return sse_response(slot.wrap(event_stream(
        services.hub, subscription, render, request.is_disconnected,
        still_valid=still_valid(services, session),
        settle_seconds=services.live.settle_seconds(session))))
