"""The live feed: the room's facts as they are recorded, for a league site or a broadcast
overlay (`GET /api/feed`, server-sent events), versioned.

Each message is one fact of the log, in commit order, as the log holds it (the event's type,
its stream and version, its global position, when it was recorded, and its payload: codes,
numbers, seat positions, rule ids; never sentences). Its SSE `id` is the position, so a client
that reconnects with `Last-Event-ID` (or `?from=`) misses nothing. The one thing held back is
a player's hole cards before they are shown: a `hole_cards_dealt` fact (and a correction that
replaces one) goes out at once with its cards withheld, and its cards follow as a
`hole_cards_released` message once the delay the director set has passed since the deal, or
never (the default). The director sets it with `PUT /api/feed/settings`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from handlog.recorder.api_spec import answers, event_stream_answers, json_body
from handlog.recorder.routes.deps import (
    CHANGES,
    SIGNED_IN,
    Director,
    Reader,
    ServicesDep,
    body_after_sign_in,
)
from handlog.recorder.routes.live import sse_response, still_valid
from handlog.schema.store import EventStore, StoredEvent

FEED_VERSION = 1
HOLE_CARDS = "hole_cards_dealt"
AMENDED = "event_amended"
BATCH = 500
KEEP_ALIVE_SECONDS = 15.0

router = APIRouter(tags=["feed"])


class FeedSettings(BaseModel):
    """When hole cards reach the feed: `hole_cards_after_seconds` after the deal, or never
    (null)."""

    hole_cards_after_seconds: int | None = Field(default=None, ge=0, le=7 * 24 * 3600)


@dataclass
class _Withheld:
    """Hole cards the feed owes its followers once the delay has passed."""

    position: int
    stream: str
    player: int
    cards: list[str]
    dealt_at: datetime


@dataclass
class FeedState:
    """This server's feed setting (kept by the process; a restart starts at never)."""

    settings: FeedSettings = field(default_factory=FeedSettings)


def feed_state(request: Request) -> FeedState:
    state = getattr(request.app.state, "feed", None)
    if state is None:
        state = request.app.state.feed = FeedState()
    return state


@router.get("/api/feed/settings", response_model=FeedSettings, responses=answers(401),
            dependencies=SIGNED_IN)
def read_settings(session: Reader, request: Request) -> FeedSettings:
    """When hole cards reach the feed (null: never)."""
    return feed_state(request).settings


@router.put("/api/feed/settings", response_model=FeedSettings,
            responses=answers(400, 401, 403, 413, 422), dependencies=CHANGES,
            openapi_extra=json_body(FeedSettings))
def write_settings(
    session: Director, request: Request,
    settings: Annotated[FeedSettings, Depends(body_after_sign_in(FeedSettings))],
) -> FeedSettings:
    """Set when hole cards reach the feed (the director's): seconds after the deal, or null
    for never."""
    feed_state(request).settings = settings
    return settings


@router.get("/api/feed", tags=["live"], responses=event_stream_answers(400, 401, 422, 429),
            response_class=StreamingResponse, dependencies=SIGNED_IN)
async def follow(session: Reader, services: ServicesDep, request: Request,
                 start: Annotated[int, Query(alias="from", ge=1, le=2**62,
                                             description="the first position to send")] = 1,
                 last_event_id: Annotated[str | None, Header(max_length=20)] = None,
                 ) -> StreamingResponse:
    """Every fact of the log from `from` (or after `Last-Event-ID`) as server-sent events,
    then each new one as it is recorded; hole cards withheld until the director's delay."""
    if last_event_id and last_event_id.isdigit():
        start = int(last_event_id) + 1
    slot = services.live.take(request, session)  # the open streams a client may hold
    holds = still_valid(services, session)
    state = feed_state(request)
    store = services.store
    poll = max(services.poll_seconds, 0.05)

    async def messages() -> AsyncIterator[str]:
        cursor = start
        owed: list[_Withheld] = []
        quiet = 0.0
        while True:
            events = await anyio.to_thread.run_sync(_read, store, cursor)
            for stored in events:
                message, withheld = fact(stored)
                if withheld is not None:
                    owed.append(withheld)
                yield sse(stored.position, "fact", message)
                cursor = stored.position + 1
            delay = state.settings.hole_cards_after_seconds
            if owed and delay is not None:
                now = datetime.now(UTC)
                due = [w for w in owed if w.dealt_at + timedelta(seconds=delay) <= now]
                for item in due:
                    owed.remove(item)
                    yield sse(None, "hole_cards_released", released(item))
            if events:
                quiet = 0.0
                continue
            if await request.is_disconnected() or not await holds():
                return
            quiet += poll
            if quiet >= KEEP_ALIVE_SECONDS:
                quiet = 0.0
                yield ": keep-alive\n\n"
            await anyio.sleep(poll)

    return sse_response(slot.wrap(messages()))


def _read(store: EventStore, cursor: int) -> list[StoredEvent]:
    return store.read_all(cursor, limit=BATCH)


def fact(stored: StoredEvent) -> tuple[dict[str, Any], _Withheld | None]:
    """One stored event as the feed's message, and the hole cards it withholds (if any)."""
    payload: dict[str, Any] = dict(stored.payload)
    withheld: _Withheld | None = None
    if stored.type == HOLE_CARDS and payload.get("cards"):
        withheld = _Withheld(stored.position, stored.stream_id, int(payload["player"]),
                             list(payload["cards"]), _utc(stored.recorded_at))
        payload["cards"] = []
        payload["cards_withheld"] = True
    elif stored.type == AMENDED and payload.get("replacement_type") == HOLE_CARDS:
        replaced = json.loads(payload.get("replacement_payload") or "{}")
        if replaced.get("cards"):
            withheld = _Withheld(stored.position, stored.stream_id,
                                 int(replaced.get("player", -1)), list(replaced["cards"]),
                                 _utc(stored.recorded_at))
            payload["replacement_payload"] = json.dumps({**replaced, "cards": []})
            payload["cards_withheld"] = True
    return {
        "feed": FEED_VERSION, "position": stored.position, "stream": stored.stream_id,
        "version": stored.version, "type": stored.type,
        "schema_version": stored.schema_version,
        "recorded_at": _utc(stored.recorded_at).isoformat().replace("+00:00", "Z"),
        "fact": payload,
    }, withheld


def released(item: _Withheld) -> dict[str, Any]:
    return {"feed": FEED_VERSION, "type": "hole_cards_released", "position": item.position,
            "stream": item.stream, "player": item.player, "cards": item.cards}


def sse(position: int | None, event: str, data: dict[str, Any]) -> str:
    head = f"id: {position}\n" if position is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
