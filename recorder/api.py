"""The HTTP API (JSON and server-sent events) and the tablet, floor and viewer pages.

Everything goes through `Recorder.submit`, the one path every command takes; the pages use
this API and nothing else. `create_app(recorder)` builds the app; `handlog serve` runs it.

Answers to a command:
- 200 `{recorded, retried, version, events, table}`; a retry with an event id already recorded
  returns the original result with `retried: true` and records nothing;
- 422 `{rule, message, legal, table}` when the rules do not allow it;
- 409 `{rule: "stale version", expected, actual, since, table}` when the table moved on since
  the version the tablet saw (`since`: what was recorded meanwhile);
- floor (tournament) commands take the same optional `event_id` and an optional
  `expected_version` of the tournament's stream, with the same answers (200 with `retried`,
  409 for a stale version or an event id used for another command);
- 401 / 403 / 429 `{rule: "auth", message}` for a missing session, a role that may not, or too
  many wrong PINs (with Retry-After).
"""


import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import anyio
from fastapi import Depends, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from engine.errors import RuleViolation
from engine.events import HandStarted
from engine.table import Level
from recorder.api_hands import hands_router
from recorder.auth import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    Auth,
    AuthError,
    Role,
    Session,
)
from recorder.floor import HandContext, TournamentDesk
from recorder.live import Hub, event_stream
from recorder.service import Actor, Recorder, StartHand, utc_now
from recorder.structure import StructureError, loads_structure
from recorder.tournament_service import tournament_stream
from recorder.views import EventLog, event_rows, notable_rows, table_summary, table_view
from recorder.wire import (
    CommandIn,
    StartHandIn,
    TournamentCommandIn,
    needs_director,
    to_command,
)
from replay.fold import TableFold, level_of
from schema.errors import ConcurrencyConflict, DuplicateEventConflict, HandlogError

STATIC = Path(__file__).resolve().parent / "static"
STREAM_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$"
Stream = Annotated[str, PathParam(pattern=STREAM_PATTERN, description="a table's stream id")]
LevelFor = Callable[[str, TableFold], Level | None]
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


class CommandRequest(BaseModel):
    """A command from a tablet: its own event id (for safe retries) and the version it saw."""

    event_id: uuid.UUID = Field(description="made by the client; a retry reuses it")
    expected_version: int = Field(ge=0, description="the table's version the client last saw")
    command: CommandIn


class TournamentCommandRequest(BaseModel):
    """A director's tournament command (registration, seat draw, levels, moves...), with its
    own event id (for safe retries) and the tournament's version the floor saw."""

    event_id: uuid.UUID | None = Field(
        None, description="made by the client; a retry reuses it (none: a retry records again)")
    expected_version: int | None = Field(
        None, ge=0, description="the tournament stream's version the client last saw "
        "(`version` of the tournament in the floor view); none: record on the version now")
    command: TournamentCommandIn


TOURNAMENT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,60}$"


class NewTournamentRequest(BaseModel):
    """A tournament from a structure file (the text of the TOML a director picked)."""

    id: str = Field(pattern=TOURNAMENT_ID_PATTERN, description="the tournament's id (letters, "
                    "digits, '.', '_', '-'): its streams are tournament-ID and table-ID-N")
    structure: str = Field(max_length=200_000, description="the structure file's TOML text")
    file: str = Field("structure.toml", max_length=200, description="its name, for errors")
    event_id: uuid.UUID | None = Field(None, description="a retry reuses it: created once")


class LoginRequest(BaseModel):
    role: Role
    pin: str = Field("", max_length=32)
    code: str = Field("", max_length=32, description="a one-time pairing code (dealers)")
    table: str | None = Field(None, max_length=200)
    name: str = Field("", max_length=80)
    device: str = Field("", max_length=80, description="the tablet's id (kept in localStorage)")


def last_level(stream: str, fold: TableFold) -> Level | None:
    """The level the table's last hand was played at (when nothing better is known)."""
    for _version, event in reversed(fold.effective):
        if isinstance(event, HandStarted):
            return level_of(event)
    return None


def _error(status: int, rule: str, message: str, legal: list[str] | None = None,
           **extra: Any) -> JSONResponse:
    return JSONResponse({"rule": rule, "message": message, "legal": legal or []} | extra,
                        status_code=status)


def create_app(
    recorder: Recorder,
    *,
    auth: Auth | None = None,
    level_for: LevelFor = last_level,
    poll_seconds: float = 1.0,
    clock: Callable[[], datetime] = utc_now,
) -> FastAPI:
    """The API and pages over `recorder`. A tournament's table plays at the tournament's
    stakes; `level_for(stream, fold)` gives the level of a table outside any tournament."""
    auth = auth or Auth()
    store = recorder.store
    desk = TournamentDesk(recorder)
    hub = Hub(store, poll_seconds)
    log = EventLog(store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        unsubscribe = recorder.subscribe(hub.notify)
        try:
            yield
        finally:
            unsubscribe()
            await hub.stop()

    app = FastAPI(
        title="handlog", version="1", lifespan=lifespan, docs_url=None, redoc_url=None,
        description="Record live No-Limit Hold'em tournament hands: table state, legal "
        "actions, commands with idempotent retries, server-sent updates.",
    )
    app.state.auth = auth
    app.state.hub = hub
    app.state.recorder = recorder

    # --- errors as JSON a tablet can show -------------------------------------------------

    @app.exception_handler(AuthError)
    async def _auth_error(_request: Request, exc: AuthError) -> JSONResponse:
        response = _error(exc.status, "auth", exc.message)
        if exc.retry_after:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(RuleViolation)
    async def _rule_error(_request: Request, exc: RuleViolation) -> JSONResponse:
        return _error(422, exc.rule, exc.message, list(exc.legal))

    @app.exception_handler(RequestValidationError)
    async def _request_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
                    for e in exc.errors()]
        return _error(400, "request", "; ".join(problems) or "bad request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, "http", str(exc.detail))

    @app.exception_handler(HandlogError)
    async def _handlog_error(_request: Request, exc: HandlogError) -> JSONResponse:
        return _error(500, "store", str(exc))

    @app.middleware("http")
    async def _headers(request: Request, call_next: Any) -> Any:
        response = await call_next(request)
        response.headers.setdefault("Content-Security-Policy", _CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.url.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    # --- who is asking ----------------------------------------------------------------------

    def session_of(request: Request) -> Session:
        session = auth.session(request.cookies.get(SESSION_COOKIE))
        if session is None:
            raise AuthError(401, "sign in first (director PIN, dealer PIN or pairing code, "
                            "or as a viewer)")
        if request.method in _UNSAFE and not auth.csrf_ok(
            session, request.headers.get(CSRF_HEADER), request.cookies.get(CSRF_COOKIE)
        ):
            raise AuthError(403, f"missing or wrong {CSRF_HEADER} header: reload the page")
        return session

    def director(session: Annotated[Session, Depends(session_of)]) -> Session:
        if session.role != "director":
            raise AuthError(403, "only the tournament director may do this")
        return session

    def recorder_of(stream: Stream,
                    session: Annotated[Session, Depends(session_of)]) -> Session:
        if not session.may_record(stream):
            raise AuthError(403, f"a {session.role} may not record at table {stream}"
                            if session.role != "dealer" else
                            f"this tablet is the dealer of table {session.table}, not {stream}")
        return session

    Reader = Annotated[Session, Depends(session_of)]

    # --- views ----------------------------------------------------------------------------

    def fold_of(stream: str) -> TableFold:
        head = store.head(stream)
        if head is None or head.kind != "table":
            raise StarletteHTTPException(404, f"no table {stream}")
        return recorder.table(stream)

    def context(stream: str, fold: TableFold) -> HandContext:
        return desk.hand_context(fold) or HandContext(level_for(stream, fold))

    def view(stream: str, role: str, fold: TableFold | None = None) -> dict[str, Any]:
        fold = fold or recorder.table(stream)
        return table_view(fold, log.recent(stream, fold.version), role,
                          context(stream, fold).level, desk.names(fold))

    def table_streams() -> list[str]:
        return [h.stream_id for h in store.streams() if h.kind == "table"]

    def floor(session: Session) -> dict[str, Any]:
        tables = []
        corrections: list[dict[str, Any]] = []
        for stream in table_streams():
            fold = recorder.table(stream)
            names = desk.names(fold)
            tables.append(table_summary(fold, context(stream, fold).level, names))
            corrections.extend(notable_rows(fold, log.notable(stream, fold.version), names))
        corrections.sort(key=lambda row: row["at"], reverse=True)
        result: dict[str, Any] = {
            "role": session.role, "tables": tables, "corrections": corrections[:100],
            "tournaments": desk.views(clock()),
            "version": sum(h.version for h in store.streams()),
        }
        if session.role == "director":
            result["dealer_pins"] = {t["stream"]: auth.table_pin(t["stream"]) for t in tables}
            result["pairing_codes"] = [
                {"code": c.code, "table": c.table} for c in auth.pairing_codes()
            ]
        return result

    # --- session ----------------------------------------------------------------------------

    @app.post("/api/session", tags=["session"])
    def login(body: LoginRequest, request: Request) -> JSONResponse:
        """Join as director (PIN), dealer (table PIN or pairing code) or viewer."""
        client = request.client.host if request.client else "unknown"
        session = auth.login(client, body.role, pin=body.pin, code=body.code,
                             table=body.table, name=body.name, device=body.device)
        response = JSONResponse(session.public())
        secure = request.url.scheme == "https"
        response.set_cookie(SESSION_COOKIE, session.token, httponly=True, samesite="strict",
                            secure=secure, path="/")
        response.set_cookie(CSRF_COOKIE, session.csrf, httponly=False, samesite="strict",
                            secure=secure, path="/")
        return response

    @app.get("/api/session", tags=["session"])
    def whoami(request: Request) -> dict[str, Any]:
        """The caller's session (role, table, CSRF token), or `{"role": null}`."""
        session = auth.session(request.cookies.get(SESSION_COOKIE))
        return session.public() if session else {"role": None}

    @app.delete("/api/session", tags=["session"])
    def logout(request: Request, session: Reader) -> JSONResponse:
        auth.logout(session.token)
        response = JSONResponse({"role": None})
        response.delete_cookie(SESSION_COOKIE, path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")
        return response

    # --- tables -----------------------------------------------------------------------------

    @app.get("/api/tables", tags=["tables"])
    def list_tables(session: Reader) -> list[dict[str, Any]]:
        """Every table at a glance."""
        summaries = []
        for stream in table_streams():
            fold = recorder.table(stream)
            summaries.append(table_summary(fold, context(stream, fold).level, desk.names(fold)))
        return summaries

    @app.get("/api/tables/{stream}", tags=["tables"])
    def read_table(stream: Stream, session: Reader) -> dict[str, Any]:
        """The table for the caller's role: seats, stacks, pots, board, who is to act and the
        legal actions with amounts, showdown order and proposed awards, the last events."""
        return view(stream, session.role, fold_of(stream))

    @app.post("/api/tables/{stream}/commands", tags=["tables"])
    def submit(stream: Stream, body: CommandRequest,
               session: Annotated[Session, Depends(recorder_of)]) -> JSONResponse:
        """Record one command at the table (see the module docstring for the answers)."""
        command = body.command
        if needs_director(command) and session.role != "director":
            raise AuthError(403, f"{command.type.replace('_', ' ')} is the director's")
        head = store.head(stream)
        if (head is not None and head.kind != "table") or stream.startswith("tournament-"):
            raise StarletteHTTPException(404, f"{stream} is not a table")
        fold = recorder.table(stream)
        actor = Actor(session.name, session.role, session.device)
        try:
            recorded = recorder.submit(stream, _command(stream, fold, command),
                                       body.expected_version, body.event_id, actor)
        except ConcurrencyConflict as conflict:
            current = recorder.table(stream)
            since = [e for e in log.recent(stream, current.version)
                     if e.version > conflict.expected]
            if len(since) < current.version - conflict.expected:
                since = store.read(stream, conflict.expected + 1)
            return _error(
                409, "stale version", f"the table is at version {conflict.actual}, this "
                f"tablet saw version {conflict.expected}: someone recorded first",
                ["discard this entry", "re-apply it to the table as it is now"],
                expected=conflict.expected, actual=conflict.actual,
                since=event_rows(current, since, session.role == "viewer"),
                table=view(stream, session.role, current),
            )
        except DuplicateEventConflict as duplicate:
            return _error(409, "event id", str(duplicate), ["make a new event id"],
                          table=view(stream, session.role))
        except RuleViolation as violation:
            return _error(422, violation.rule, violation.message, list(violation.legal),
                          table=view(stream, session.role))
        eliminated: list[str] = []
        warning = None
        try:
            # The eliminations' ids derive from the command's: a retry finds them.
            eliminated = desk.settle(recorder.table(stream), actor,
                                     uuid.uuid5(body.event_id, "settle"), recorded.retried)
        except RuleViolation as violation:
            warning = violation.as_dict()
        except (ConcurrencyConflict, DuplicateEventConflict) as conflict:
            warning = {"rule": "settle", "message": str(conflict), "legal": []}
        current = recorder.table(stream)
        return JSONResponse({
            "recorded": True, "retried": recorded.retried, "version": recorded.version,
            "events": event_rows(current, list(recorded.events), False, desk.names(current)),
            "eliminated": eliminated, "warning": warning,
            "table": view(stream, session.role, current),
        })

    def _command(stream: str, fold: TableFold, command: CommandIn) -> Any:
        if not isinstance(command, StartHandIn) or command.level is not None:
            return to_command(command)
        ctx = context(stream, fold)
        if ctx.blocked is not None:
            raise ctx.blocked
        start = to_command(command, ctx.level)
        assert isinstance(start, StartHand)
        return replace(start, final_table=start.final_table or ctx.final_table)

    @app.get("/api/tables/{stream}/events", tags=["live"])
    async def follow_table(stream: Stream, request: Request,
                           session: Reader) -> StreamingResponse:
        """Server-sent events: `state` (the table view for the caller's role) now and after
        every append."""
        await anyio.to_thread.run_sync(fold_of, stream)
        role = session.role

        async def render() -> dict[str, Any]:
            return await anyio.to_thread.run_sync(view, stream, role)

        subscription = hub.subscribe(frozenset({stream}))
        return _sse(event_stream(hub, subscription, render, request.is_disconnected))

    @app.post("/api/tables/{stream}/pairing", tags=["floor"])
    def pair(stream: Stream, session: Annotated[Session, Depends(director)]) -> dict[str, Any]:
        """A one-time code that joins one more tablet to this table as its dealer."""
        fold_of(stream)
        code = auth.new_pairing_code(stream)
        return {"code": code.code, "table": stream}

    # --- floor --------------------------------------------------------------------------------

    @app.post("/api/tournaments", tags=["floor"])
    def new_tournament(body: NewTournamentRequest,
                       session: Annotated[Session, Depends(director)]) -> JSONResponse:
        """Create a tournament from a structure file's text; answers with the floor view.
        422 `{rule: "structure", problems: [{field, message}]}` names every wrong field."""
        try:
            structure = loads_structure(body.structure, body.file)
        except StructureError as error:
            return _error(422, "structure", str(error), ["fix the file and send it again"],
                          problems=[{"field": f, "message": m} for f, m in error.problems])
        actor = Actor(session.name, session.role, session.device)
        try:
            desk.tournaments.create(body.id, structure, actor, event_id=body.event_id)
        except RuleViolation as violation:
            return _error(409, violation.rule, violation.message,
                          ["choose another id"] if "already exists" in violation.message
                          else list(violation.legal))
        return JSONResponse(floor(session))

    @app.post("/api/tournaments/{tournament}/commands", tags=["floor"])
    def tournament_command(
        tournament: Annotated[str, PathParam(pattern=STREAM_PATTERN)],
        body: TournamentCommandRequest,
        session: Annotated[Session, Depends(director)],
    ) -> JSONResponse:
        """The director's tournament commands; answers with the floor view and `retried`
        (true: a retry of a command already recorded under this event id, nothing new
        recorded). 409 `{rule: "stale version", stream, expected, actual}` when the tournament
        (or a table the command records at) moved on; 409 `{rule: "event id"}` when the event
        id was used for a different command."""
        actor = Actor(session.name, session.role, session.device)
        try:
            retried = desk.run(tournament, body.command, actor, body.event_id,
                               body.expected_version)
        except ConcurrencyConflict as conflict:
            if conflict.stream_id == tournament_stream(tournament):
                message = (f"the tournament is at version {conflict.actual}, this floor saw "
                           f"version {conflict.expected}: someone recorded first. Check the "
                           "floor as it is now and send the command again if it still holds.")
                legal = ["check the floor", "send the command again"]
                resend = False
            else:
                message = (f"{conflict.stream_id} moved on while this command was recorded "
                           f"(version {conflict.actual}, not {conflict.expected}): send the "
                           "same command again with the same event id to complete it.")
                legal = ["send the same command again"]
                resend = True
            return _error(409, "stale version", message, legal, stream=conflict.stream_id,
                          expected=conflict.expected, actual=conflict.actual, resend=resend,
                          floor=floor(session))
        except DuplicateEventConflict as duplicate:
            return _error(409, "event id", str(duplicate), ["make a new event id"],
                          floor=floor(session))
        return JSONResponse(floor(session) | {"retried": retried})

    @app.get("/api/floor", tags=["floor"])
    def read_floor(session: Reader) -> dict[str, Any]:
        """Every table, rulings and corrections; for the director the dealer PINs and codes."""
        return floor(session)

    @app.get("/api/floor/events", tags=["live"])
    async def follow_floor(request: Request, session: Reader) -> StreamingResponse:
        """Server-sent events: `state` (the floor view) now and after every append anywhere."""

        async def render() -> dict[str, Any]:
            return await anyio.to_thread.run_sync(floor, session)

        subscription = hub.subscribe(None)
        return _sse(event_stream(hub, subscription, render, request.is_disconnected))

    # --- pages ----------------------------------------------------------------------------

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/floor")

    @app.get("/floor", include_in_schema=False)
    def floor_page() -> FileResponse:
        return page("floor.html")

    @app.get("/dealer/{stream}", include_in_schema=False)
    def dealer_page(stream: Stream) -> FileResponse:
        return page("table.html")

    @app.get("/view/{stream}", include_in_schema=False)
    def viewer_page(stream: Stream) -> FileResponse:
        return page("table.html")

    @app.get("/view", include_in_schema=False)
    def viewer_index() -> FileResponse:
        return page("floor.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/join", include_in_schema=False)
    def join_page() -> FileResponse:
        return page("join.html")

    app.include_router(hands_router(store, session_of))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _sse(body: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(body, media_type="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no", "Connection": "keep-alive",
    })
