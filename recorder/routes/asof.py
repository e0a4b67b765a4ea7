"""Time travel over HTTP: a table, or the whole room, as it stood at a version, a hand's start
or a time. The same code as `handlog table show --at/--hand/--time` and `handlog floor show
--time` (recorder/cli_table.py); read-only, and only what the table saw (no hole cards). The
pages `/view/{stream}?at=`, `/floor?time=` read these routes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

import click
from fastapi import APIRouter, Query
from fastapi import Path as PathParam
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from handlog.recorder.api_spec import answers
from handlog.recorder.cli_table import floor_at, table_at
from handlog.recorder.routes.deps import SIGNED_IN, STREAM_PATTERN, Reader, ServicesDep
from handlog.schema.store import EventStore

MAX_VERSION = 2**62


class LastEvent(BaseModel):
    """The last entry the table had recorded by then."""

    version: int
    type: str
    text: str = Field(description="the entry in words, as the table's log shows it to anyone")
    actor: str
    device: str
    recorded_at: str


class TableAsOf(BaseModel):
    """A table as it stood then: one line per seat (names, stacks, button and blinds with
    why), the hand (pots with totals and who is eligible, the board, who acts and the
    reopening rule), its facts, and what the replay found."""

    stream: str
    as_of: str = Field(description='what was asked: "version 12", "hand #3", or a UTC time')
    version: int = Field(description="the table's version then")
    live_version: int = Field(description="the table's version now")
    lines: list[str]
    facts: dict[str, Any]
    last_event: LastEvent
    findings: list[dict[str, Any]]


class OutPlayer(BaseModel):
    place: int
    name: str
    table: str | None = None
    hand: int | None = None


class TournamentAsOf(BaseModel):
    tournament: str
    stream: str
    level: int
    on_break: bool
    entrants: int
    left: list[str]
    out: list[OutPlayer]
    winner: str
    version: int


class FloorAsOf(BaseModel):
    """The room then: each tournament's level, who was left and who was out (with places),
    and every table open by then."""

    time: str
    tournaments: list[TournamentAsOf]
    tables: list[TableAsOf]


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


router = APIRouter(tags=["time travel"])


def with_live(store: EventStore, view: dict[str, Any], as_of: str) -> dict[str, Any]:
    head = store.head(view["stream"])
    return view | {"as_of": as_of, "live_version": head.version if head else 0}


@router.get("/api/tables/{stream}/as-of", response_model=TableAsOf,
            responses=answers(400, 401, 404), dependencies=SIGNED_IN)
def table_as_of(stream: Annotated[str, PathParam(pattern=STREAM_PATTERN)],
                session: Reader, services: ServicesDep,
                version: Annotated[int | None, Query(ge=1, le=MAX_VERSION)] = None,
                hand: Annotated[int | None, Query(ge=1, le=MAX_VERSION)] = None,
                time: datetime | None = None) -> dict[str, Any]:
    """The table as it stood right after `version`, as hand `hand` started, or at `time`
    (UTC): one of them; none gives the table now."""
    store = services.store
    if sum(x is not None for x in (version, hand, time)) > 1:
        raise StarletteHTTPException(400, "give one of version, hand and time")
    head = store.head(stream)
    if head is None or head.kind != "table":
        raise StarletteHTTPException(404, f"no table {stream}")
    moment = _utc(time) if time is not None else None
    try:
        view = table_at(store, stream, version, hand, moment)
    except click.ClickException as refused:
        raise StarletteHTTPException(404, refused.message) from None
    as_of = (f"version {version}" if version is not None else
             f"hand #{hand}" if hand is not None else
             moment.isoformat() if moment is not None else "now")
    return with_live(store, view, as_of)


@router.get("/api/floor/as-of", response_model=FloorAsOf,
            responses=answers(400, 401, 404), dependencies=SIGNED_IN)
def floor_as_of(time: datetime, session: Reader, services: ServicesDep) -> dict[str, Any]:
    """The room as it stood at `time` (UTC): tournaments and every table open by then."""
    store = services.store
    moment = _utc(time)
    try:
        room = floor_at(store, moment)
    except click.ClickException as refused:
        raise StarletteHTTPException(404, refused.message) from None
    room["tables"] = [with_live(store, view, moment.isoformat()) for view in room["tables"]]
    room["time"] = moment.isoformat()
    return room
