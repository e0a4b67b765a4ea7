"""The tables: every table at a glance, one table for the caller's role, a command recorded at
it (a tablet's tap), its live view, and a pairing code for one more dealer tablet."""

from __future__ import annotations

import re
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route
from starlette.types import Scope

from handlog.engine.errors import RuleViolation
from handlog.engine.table_commands import (
    DirectorsCorrection,
    TableCommand,
    at_level,
    awaits_level,
    needs_director,
)
from handlog.recorder.api_spec import PAIR, READ_TABLE, SUBMIT, TABLE_STREAM, TABLES, json_body
from handlog.recorder.app_services import Services
from handlog.recorder.auth import AuthError
from handlog.recorder.command_json import TAG_OF
from handlog.recorder.live import event_stream
from handlog.recorder.routes.answers import FastJSON, refusal, request_refusal
from handlog.recorder.routes.deps import (
    CHANGES,
    SIGNED_IN,
    STREAM_PATTERN,
    Director,
    Reader,
    ServicesDep,
    Stream,
    Table,
    may_record,
    session_of,
)
from handlog.recorder.routes.live import sse_response, still_valid
from handlog.recorder.routes.models import (
    CommandRequest,
    PairingCode,
    Recorded,
    TableCard,
    TableView,
)
from handlog.recorder.service import Actor
from handlog.recorder.views import event_rows
from handlog.replay.fold import TableFold
from handlog.schema.errors import ConcurrencyConflict, DuplicateEventConflict

router = APIRouter(tags=["tables"])
COMMAND_REQUEST = TypeAdapter(CommandRequest)


@router.get("/api/tables", responses=TABLES, response_model=list[TableCard],
            dependencies=SIGNED_IN)
def list_tables(session: Reader, services: ServicesDep) -> JSONResponse:
    """Every table at a glance."""
    cards = services.cards
    return FastJSON([cards.summary(stream, notable=False)[0]
                     for stream in services.table_streams()])


@router.get("/api/tables/{stream}", responses=READ_TABLE, response_model=TableView,
            dependencies=SIGNED_IN)
def read_table(stream: Stream, session: Reader, table: Table,
               services: ServicesDep) -> JSONResponse:
    """The table for the caller's role: seats, stacks, pots, board, who is to act and the
    legal actions with amounts, showdown order and proposed awards, the last events."""
    return FastJSON(services.view(stream, session, table))


@router.post("/api/tables/{stream}/commands", responses=SUBMIT, response_model=Recorded,
             dependencies=CHANGES, openapi_extra=json_body(CommandRequest))
async def submit(stream: Stream, request: Request) -> JSONResponse:
    """Record one command at the table (see recorder/api.py's docstring for the answers)."""
    # One trip to a worker thread for the whole tap (the sign-in check, the body, the command,
    # the answer and its encoding), not one per dependency as sync dependencies take. The
    # body is read here and validated there, after the sign-in: an anonymous caller learns
    # nothing about what a body may hold.
    raw = await request.body()
    return await anyio.to_thread.run_sync(record_tap, request.app.state.services, stream, raw,
                                          request)


class TapRoute(Route):
    """`POST /api/tables/{stream}/commands` (`submit`) without FastAPI's per-request work:
    the app puts it before every other route (recorder/api.py). The route above is the one
    the OpenAPI document describes and answers everything else: only a POST whose stream
    FastAPI would accept is taken here; a bad stream or another method reaches FastAPI's
    route and gets its answer. Solving that route's parameters and security schemes (which
    check nothing: `session_of` does) and matching it among every route cost more CPU per
    tap than the table view (benchmarks/tap_cpu.py); the answers and their order (the
    sign-in, then the body) are `record_tap`'s either way."""

    STREAM = re.compile(STREAM_PATTERN.removeprefix("^").removesuffix("$"))

    def __init__(self) -> None:
        super().__init__("/api/tables/{stream}/commands", self.tap, methods=["POST"],
                         name="submit_tap", include_in_schema=False)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http" or scope["method"] != "POST":
            return Match.NONE, {}
        match, child = super().matches(scope)
        if match is Match.FULL and self.STREAM.fullmatch(child["path_params"]["stream"]):
            return match, child
        return Match.NONE, {}

    @staticmethod
    async def tap(request: Request) -> JSONResponse:
        return await submit(request.path_params["stream"], request)


def record_tap(services: Services, stream: str, raw: bytes, request: Request) -> JSONResponse:
    recorder, store, desk, log = services.recorder, services.store, services.desk, services.log
    view, public_for = services.view, services.public_for
    session = may_record(stream, session_of(services, request))
    unknown_card: RuleViolation | None = None
    try:
        body: CommandRequest | None = COMMAND_REQUEST.validate_json(raw)
    except ValidationError as invalid:
        return request_refusal([e | {"loc": ("body", *e["loc"])} for e in invalid.errors()])
    except RuleViolation as violation:  # an unknown card: the engine's refusal (below)
        body, unknown_card = None, violation
    if body is not None and needs_director(body.command) and session.role != "director":
        tag = TAG_OF[type(body.command)]
        raise AuthError(403, f"{tag.replace('_', ' ')} is the director's")
    if stream.startswith("tournament-"):
        raise StarletteHTTPException(404, f"{stream} is not a table")
    if not recorder.is_open_table(stream):
        head = store.head(stream)
        if head is not None and head.kind != "table":
            raise StarletteHTTPException(404, f"{stream} is not a table")
    fold = recorder.table(stream)
    actor = Actor(session.name, session.role, session.device)
    try:
        if unknown_card is not None:
            raise unknown_card
        assert body is not None
        recorded = recorder.submit(stream, _command(services, stream, fold, body.command),
                                   body.expected_version, body.event_id, actor)
    except ConcurrencyConflict as conflict:
        current = recorder.table(stream)
        since = [e for e in log.recent(stream, current.version)
                 if e.version > conflict.expected]
        if len(since) < current.version - conflict.expected:
            since = store.read(stream, conflict.expected + 1)
        return refusal(
            409, "stale-version", f"the table is at version {conflict.actual}, this "
            f"tablet saw version {conflict.expected}: someone recorded first",
            ["discard this entry", "re-apply it to the table as it is now"],
            expected=conflict.expected, actual=conflict.actual,
            since=event_rows(current, since, public_for(session, stream),
                             desk.names(current)),
            table=view(stream, session, current),
        )
    except DuplicateEventConflict as duplicate:
        return refusal(409, "event-id", str(duplicate), ["make a new event id"],
                       table=view(stream, session))
    except DirectorsCorrection as refused:
        # A director's event ends the dealer's undo: the role may not, whatever he sends.
        return refusal(403, refused.rule, refused.message, list(refused.legal),
                       table=view(stream, session))
    except RuleViolation as violation:
        return refusal(422, violation.rule, violation.message, list(violation.legal),
                       table=view(stream, session))
    # A hand's end is recorded with its settlement (Recorder.submit): who went out.
    eliminated = [e.payload["player"] for part in recorded.settled for e in part.events
                  if e.type == "player_eliminated"]
    current = recorder.table(stream)
    table = view(stream, session, current)
    # The command's events are the table's last ones, whose rows the view just made for the
    # same reader from the same fold: taken from it, not made again (an event's row is the
    # same in any list of them, views.event_rows).
    shown = {row["version"]: row for row in table["events"]}
    rows = [shown.get(e.version) for e in reversed(recorded.events)]
    return FastJSON({
        "recorded": True, "retried": recorded.retried, "version": recorded.version,
        "events": rows if None not in rows else event_rows(
            current, list(recorded.events), public_for(session, stream),
            desk.names(current)),
        "eliminated": eliminated, "warning": recorded.warning,
        "table": table,
    })


def _command(services: Services, stream: str, fold: TableFold,
             command: TableCommand) -> TableCommand:
    """A start_hand sent without a level plays at the tournament's (or the table's) level, at
    the final table when the tournament is at it, with the players serving a penalty."""
    if not awaits_level(command):
        return command
    ctx = services.context(stream, fold)
    if ctx.blocked is not None:
        raise ctx.blocked
    return at_level(command, ctx.level, ctx.final_table, ctx.penalized)


@router.get("/api/tables/{stream}/events", tags=["live"], responses=TABLE_STREAM,
            response_class=StreamingResponse, dependencies=SIGNED_IN)
async def follow_table(stream: Stream, request: Request, session: Reader,
                       services: ServicesDep) -> StreamingResponse:
    """Server-sent events: `state` (the table view for the caller's role) now and after
    every append."""
    await anyio.to_thread.run_sync(services.fold_of, stream)
    slot = services.live.take(request, session)
    hub = services.hub

    async def render() -> dict[str, Any] | str:
        if session.role == "viewer":  # one view per change, shared by every viewer
            return await services.shared.frame(("table", stream, hub.generation),
                                               lambda: services.view(stream, session))
        return await anyio.to_thread.run_sync(services.view, stream, session)

    subscription = hub.subscribe(frozenset({stream}))
    return sse_response(slot.wrap(event_stream(
        hub, subscription, render, request.is_disconnected,
        still_valid=still_valid(services, session),
        settle_seconds=services.live.settle_seconds(session))))


@router.post("/api/tables/{stream}/pairing", tags=["floor"], responses=PAIR,
             response_model=PairingCode, dependencies=CHANGES)
def pair(stream: Stream, session: Director, services: ServicesDep) -> dict[str, Any]:
    """A one-time code that joins one more tablet to this table as its dealer."""
    services.fold_of(stream)
    if not services.is_open(stream):
        raise StarletteHTTPException(409, f"table {stream} is not open: a dealer joins an "
                                     "open table")
    code = services.auth.new_pairing_code(stream)
    return {"code": code.code, "table": stream}
