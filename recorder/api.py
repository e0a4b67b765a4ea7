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
- 403 `{rule: "undo", message, legal, table}` when a dealer's undo would reverse a director's
  event (a killed or voided hand, an award by a ruling, an amended entry): a director does it.
- 422 `{rule: "request", message, field, fields}` for a value outside what a field allows (a
  name, a reason, a seat, chips, a profile): nothing is recorded; 400 for a body that is not
  JSON; 413 for a body over 64 KB (256 KB for a structure file).
- Unshown hole cards are in an answer only for a director or that table's dealer
  (`recorder.views.sees_hole_cards`).

The OpenAPI spec (`/openapi.json`) lists every status each route answers with its error model
(a bounded schemathesis run in tests/test_openapi_fuzz.py holds the routes to it); a 405 names
the allowed methods in `Allow`.
"""


import heapq
import json
import os
import threading
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import anyio
import orjson
from fastapi import Depends, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted
from handlog.engine.profiles import render_rule
from handlog.engine.table import Level
from handlog.engine.table_commands import DirectorsCorrection, StartHand
from handlog.recorder.api_asof import asof_router
from handlog.recorder.api_hands import hands_router
from handlog.recorder.api_spec import (
    DELETE_SESSION,
    FLOOR_STREAM,
    LOG_KEY,
    LOGIN,
    LOGOUT,
    NEW_TOURNAMENT,
    PAIR,
    READ,
    READ_CHECKPOINT,
    READ_TABLE,
    SESSIONS,
    SUBMIT,
    TABLE_STREAM,
    TAKE_CHECKPOINT,
    TOURNAMENT_COMMAND,
    WHOAMI,
    allow_header,
)
from handlog.recorder.auth import (
    CSRF_COOKIE,
    CSRF_HEADER,
    DEVICE_COOKIE,
    SESSION_COOKIE,
    Auth,
    AuthError,
    Role,
    Session,
)
from handlog.recorder.cookies import cookie_of, delete_session_cookies, set_session_cookies
from handlog.recorder.floor import HandContext, TournamentDesk
from handlog.recorder.headers import SecurityHeaders
from handlog.recorder.limits import MAX_NAME, BodyLimit, body_limit, name_problem
from handlog.recorder.live import Hub, event_stream, sse_text
from handlog.recorder.live_share import LiveCounter, LiveLimits, SharedViews
from handlog.recorder.offline import add_offline_routes
from handlog.recorder.service import Actor, Recorder, utc_now
from handlog.recorder.structure import StructureError, loads_structure
from handlog.recorder.tournament_service import table_stream, tournament_stream
from handlog.recorder.views import (
    EventLog,
    broken_summary,
    event_rows,
    notable_rows,
    sees_hole_cards,
    table_summary,
    table_view,
)
from handlog.recorder.wire import (
    CommandIn,
    StartHandIn,
    TournamentCommandIn,
    needs_director,
    to_command,
)
from handlog.replay.fold import TableFold, level_of
from handlog.schema.checkpoint import (
    SigningKey,
    StoredCheckpoint,
    latest_checkpoint,
    record_checkpoint,
)
from handlog.schema.errors import ConcurrencyConflict, DuplicateEventConflict, HandlogError
from handlog.schema.store import StoredEvent

STATIC = Path(__file__).resolve().parent / "static"
STREAM_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$"
Stream = Annotated[str, PathParam(pattern=STREAM_PATTERN, description="a table's stream id")]
LevelFor = Callable[[str, TableFold], Level | None]
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


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


class FastJSON(JSONResponse):
    """JSON encoded by orjson (a tap's answer, the table view, is encoded on every tap: the
    standard library's encoder was about a tenth of the server's time per tap)."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


THREADS_ENV_VAR = "HANDLOG_THREADS"


def worker_threads() -> int:
    """Threads that run the routes of one server process: $HANDLOG_THREADS, else 8 (the
    appends themselves run two at a time, schema/database.py writer_slots)."""
    raw = os.environ.get(THREADS_ENV_VAR, "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else 8


def last_level(stream: str, fold: TableFold) -> Level | None:
    """The level the table's last hand was played at (when nothing better is known)."""
    for _version, event in reversed(fold.effective):
        if isinstance(event, HandStarted):
            return level_of(event)
    return None


def _field_of(loc: Any) -> str:
    """`("body", "command", "open_table", "profile")` -> "command.profile" (the JSON path
    without the body and the union's tag)."""
    parts = [str(p) for p in tuple(loc)[1:] if not isinstance(p, int)]
    if len(parts) > 2 and parts[0] == "command":
        parts = [parts[0], *parts[2:]]
    return ".".join(parts) or "body"


def _error(status: int, rule: str, message: str, legal: list[str] | None = None,
           **extra: Any) -> JSONResponse:
    # The rule is an identifier (tda-43); its words travel with it for the screens.
    return JSONResponse({"rule": rule, "rule_words": render_rule(rule), "message": message,
                         "legal": legal or []} | extra, status_code=status)


def create_app(
    recorder: Recorder,
    *,
    auth: Auth | None = None,
    level_for: LevelFor = last_level,
    poll_seconds: float = 1.0,
    clock: Callable[[], datetime] = utc_now,
    signing_key: SigningKey | None = None,
    allowed_hosts: Sequence[str] | None = None,
    live_limits: LiveLimits | None = None,
) -> FastAPI:
    """The API and pages over `recorder`. A tournament's table plays at the tournament's
    stakes; `level_for(stream, fold)` gives the level of a table outside any tournament.
    `allowed_hosts`: the Host headers answered (None: any, for tests); `live_limits`: how many
    event streams a client may hold open."""
    auth = auth or Auth()
    store = recorder.store
    auth.bind(store.session_store())
    live = LiveCounter(live_limits or LiveLimits())
    shared = SharedViews()
    desk = TournamentDesk(recorder)
    hub = Hub(store, poll_seconds, observe=recorder.observe, sessions=auth.sessions)
    log = EventLog(store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Python runs one thread at a time: forty worker threads (anyio's default) only wait
        # for the interpreter, and the one that holds the database's append lock waits with
        # them (recorder/cli_serve.py also shortens the interpreter's switch interval).
        anyio.to_thread.current_default_thread_limiter().total_tokens = worker_threads()
        await hub.start()
        unsubscribe = recorder.subscribe(hub.notify)
        forget = recorder.on_appended(log.add)
        forget_cards = recorder.on_appended(keep_cards)  # (after the log: it reads it)
        try:
            yield
        finally:
            forget_cards()
            forget()
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
    app.add_middleware(BodyLimit, limit=body_limit)  # 413 before a byte too many is read
    app.state.live = live
    app.state.shared_views = shared
    if allowed_hosts is not None:
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))

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
        fields = [_field_of(e.get("loc", ())) for e in exc.errors()]
        body = [e for e in exc.errors() if tuple(e.get("loc", ()))[:1] == ("body",)
                and e.get("type") != "json_invalid"]
        if body and len(body) == len(exc.errors()):
            # A well-formed request with a value outside what is allowed: nothing recorded.
            return _error(422, "request", "; ".join(problems), ["fix the field and send again"],
                          field=fields[0], fields=fields)
        return _error(400, "request", "; ".join(problems) or "bad request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        response = _error(exc.status_code, "http", str(exc.detail))
        if exc.status_code == 405:
            response.headers["Allow"] = allow_header(app, request.url.path)
        return response

    @app.exception_handler(HandlogError)
    async def _handlog_error(_request: Request, exc: HandlogError) -> JSONResponse:
        return _error(500, "store", str(exc))

    # Security headers (recorder/headers.py): a plain ASGI middleware, nothing per SSE chunk.
    app.add_middleware(SecurityHeaders)

    # --- who is asking ----------------------------------------------------------------------

    def session_of(request: Request) -> Session:
        token = cookie_of(request, SESSION_COOKIE)
        session = auth.session(token)
        if session is None:
            raise AuthError(401, auth.refusal(token))
        if request.method in _UNSAFE and not auth.csrf_ok(
            session, request.headers.get(CSRF_HEADER), cookie_of(request, CSRF_COOKIE)
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
        if recorder.is_open_table(stream):
            return recorder.table(stream)
        head = store.head(stream)
        if head is None or head.kind != "table":
            raise StarletteHTTPException(404, f"no table {stream}")
        return recorder.table(stream)

    def context(stream: str, fold: TableFold) -> HandContext:
        return desk.hand_context(fold) or HandContext(level_for(stream, fold))

    def view(stream: str, session: Session, fold: TableFold | None = None) -> dict[str, Any]:
        fold = fold or recorder.table(stream)
        return table_view(fold, log.recent(stream, fold.version), session.role,
                          context(stream, fold).level, desk.names(fold),
                          dealer_of=session.table, due=desk.start_due(fold, clock()))

    def public_for(session: Session, stream: str) -> bool:
        """True when `session` gets only what was shown at table `stream`."""
        return not sees_hole_cards(session.role, stream, session.table)

    def is_open(stream: str) -> bool:
        """A table of this room that is open now: opened (under a profile this release knows)
        and, at a tournament, not broken."""
        head = store.head(stream)
        if head is None or head.kind != "table":
            return False
        state = recorder.table(stream).state
        if state is None:
            return False
        if state.tournament:
            tables = desk.open_tables(state.tournament)
            return tables is None or state.table in tables
        return True

    def table_streams() -> list[str]:
        return [h.stream_id for h in store.streams() if h.kind == "table"]

    # The floor's read model: each table's card (and its JSON text) and notable rows, built
    # once per version of the table and of its tournament (the floor answer does not re-derive
    # or re-encode idle tables).
    floor_rows: dict[str, tuple[tuple[int, Any], dict[str, Any], list[dict[str, Any]]]] = {}
    floor_text: dict[str, tuple[tuple[int, Any], str]] = {}

    def card_text(stream: str, card: dict[str, Any]) -> str:
        """The card's JSON, encoded once per version of the card kept above."""
        cached = floor_rows.get(stream)
        if cached is None or cached[1] is not card:  # a card not kept (a table in trouble)
            return json.dumps(card, separators=(",", ":"))
        kept = floor_text.get(stream)
        if kept is None or kept[0] != cached[0]:
            kept = floor_text[stream] = (cached[0], json.dumps(card, separators=(",", ":")))
        return kept[1]

    def summary(stream: str, notable: bool = True
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """One table's card and its rulings and corrections; a table that cannot be read says
        why on its card and leaves the others alone (one table's problem stays its own)."""
        try:
            fold = recorder.table(stream)
            if fold.state is None and fold.findings:
                # Its opening cannot be applied (recorded by an older release): the card says
                # why, the director can void it.
                return broken_summary(stream, fold.version,
                                      RuleViolation(fold.findings[0].rule,
                                                    fold.findings[0].message)), []
            # The card shows the tournament's stakes and its players' names (which never
            # change): a registration or a clock change elsewhere leaves it as it is.
            key = (fold.version, desk.card_level(fold))
            cached = floor_rows.get(stream)
            if cached is None or cached[0] != key:
                names = desk.names(fold)
                level = (key[1] if fold.state is not None and fold.state.tournament
                         else context(stream, fold).level)
                stored = log.notable(stream, fold.version)
                # (no rulings: the hands' names are not looked up through its history)
                cached = (key, table_summary(fold, level, names),
                          notable_rows(fold, stored, names) if stored else [])
                floor_rows[stream] = cached
            return cached[1], (cached[2] if notable else [])
        except Exception as error:  # noqa: BLE001 - any entry an older release let in
            head = store.head(stream)
            return broken_summary(stream, head.version if head else 0, error), []

    def keep_cards(stored: Sequence[StoredEvent]) -> None:
        """A table's floor card built and encoded as its events are appended (by the thread
        that appended them), once the floor has shown it: a floor read finds it ready. A
        tournament's stakes and names are taken as last kept (no lock waited for here); a
        card they do not match is built at the read."""
        for stream in dict.fromkeys(e.stream_id for e in stored):
            if stream not in floor_rows:
                continue
            try:
                fold = recorder.table(stream)
                state = fold.state
                if state is None:
                    continue
                tournament = state.tournament
                kept = desk.kept(tournament) if tournament else (None, {})
                if kept is None:
                    continue
                key = (fold.version, kept[0])
                if floor_rows[stream][0] == key or (tournament and any(
                        seat.player not in kept[1] for seat in state.seats)):
                    continue  # (a player the names kept do not know yet: built at the read)
                level = kept[0] if tournament else context(stream, fold).level
                notable = log.notable(stream, fold.version)
                card = table_summary(fold, level, kept[1])
                floor_rows[stream] = (key, card, notable_rows(fold, notable, kept[1])
                                      if notable else [])
                floor_text[stream] = (key, json.dumps(card, separators=(",", ":")))
            except Exception:  # noqa: BLE001 - the read builds it, or says what is wrong
                continue

    def floor(session: Session) -> dict[str, Any]:
        result, tables = floor_parts(session)
        result["tables"] = tables
        return result

    def floor_json(session: Session) -> str:
        return floor_encoded(session)[0]

    def floor_encoded(session: Session) -> tuple[str, int]:
        """The floor answer as JSON text, and its version: the tables' cards are joined from
        their cached text (only a card whose table changed is encoded again)."""
        result, tables = floor_parts(session)
        head = json.dumps(result, separators=(",", ":"))
        cards = ",".join(card_text(card["stream"], card) for card in tables)
        return f'{head[:-1]},"tables":[{cards}]}}', int(result["version"])

    # The room's streams as the floor lists them: read from the store when a stream is new
    # (an append at version 1 here, a stream the hub had not heard of) or every few seconds,
    # and their versions from the recorder's heads in memory (no query a floor read).
    known: dict[str, Any] = {"streams": None, "read": 0.0, "heard": -1}

    def new_stream(stored: Sequence[StoredEvent]) -> None:
        if any(e.version == 1 for e in stored):
            known["streams"] = None

    recorder.on_appended(new_stream)

    def floor_heads() -> list[tuple[str, str, int]]:
        """(stream, kind, version) of every stream, by stream id."""
        streams = known["streams"]
        heard = hub.heard()
        if (streams is None or heard != known["heard"]
                or time.monotonic() - known["read"] > HEADS_SECONDS):
            heads = store.streams()
            for head in heads:
                recorder.observe(head.stream_id, head.version)
            streams = known["streams"] = [(h.stream_id, h.kind) for h in heads]
            recorder.preload([h.stream_id for h in heads if h.kind == "table"])  # (heads too)
            known["read"], known["heard"] = time.monotonic(), heard
        return [(stream, kind, recorder.head_version(stream)) for stream, kind in streams]

    def floor_parts(session: Session) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        tables = []
        corrections: list[dict[str, Any]] = []
        heads = floor_heads()
        levels: dict[str, Any] = {}  # each tournament's stakes, as its tables' cards show
        missing: list[str] = []
        for stream, kind, version in heads:
            if kind != "table":
                continue
            kept = floor_rows.get(stream)
            if kept is not None:
                tournament = kept[1].get("tournament") or ""
                if tournament not in levels:
                    try:
                        levels[tournament] = desk.level_of(tournament)
                    except Exception:  # noqa: BLE001 - its cards say why (summary)
                        levels[tournament] = missing  # matches no card's key
                if kept[0] == (version, levels[tournament]):
                    continue  # the card as kept (no fold looked at)
            missing.append(stream)
        recorder.preload(missing)
        rebuild = set(missing)
        for stream, kind, _version in heads:
            if kind == "table":
                kept = floor_rows.get(stream)
                if kept is not None and stream not in rebuild:
                    card, notable = kept[1], kept[2]
                else:
                    card, notable = summary(stream)
                tables.append(card)
                corrections.extend(notable)
        corrections = heapq.nlargest(100, corrections, key=lambda row: row["at"])
        problems: list[dict[str, Any]] = []
        tournaments = [stream.removeprefix("tournament-") for stream, kind, _v in heads
                       if kind == "tournament"]
        result: dict[str, Any] = {
            "role": session.role, "corrections": corrections,
            "tournaments": desk.views(clock(), problems, tournaments), "problems": problems,
            "version": sum(version for _s, _k, version in heads),
        }
        result["checkpoint"] = checkpoint_view(latest_checkpoint(store))
        if session.role == "director":
            result["dealer_pins"] = {t["stream"]: auth.table_pin(t["stream"]) for t in tables}
            result["pairing_codes"] = [
                {"code": c.code, "table": c.table} for c in auth.pairing_codes()
            ]
        return result, tables

    # --- session ----------------------------------------------------------------------------

    @app.post("/api/session", tags=["session"], responses=LOGIN)
    def login(body: LoginRequest, request: Request) -> JSONResponse:
        """Join as director (PIN), dealer (table PIN or pairing code) or viewer."""
        client = request.client.host if request.client else "unknown"
        for field, value in (("name", body.name), ("device", body.device)):
            # Who records goes into every event he records, for good: a name, not a payload.
            problem = name_problem(value) if value else None
            if problem:
                return _error(422, "request", f"{field}: {problem}",
                              [f"1 to {MAX_NAME} printable characters"], field=field)
        # A dealer session is for an open table of this room only: any other name is a wrong
        # guess (401, the same answer as a wrong PIN, so names are not probed), counted in the
        # one bucket every unknown name shares (then 429).
        session = auth.login(client, body.role, pin=body.pin, code=body.code,
                             table=body.table, name=body.name, device=body.device,
                             table_known=is_open,
                             known_device=cookie_of(request, DEVICE_COOKIE))
        response = JSONResponse(session.public())
        set_session_cookies(request, response, auth, session)
        return response

    @app.get("/api/session", tags=["session"], responses=WHOAMI)
    def whoami(request: Request) -> dict[str, Any]:
        """The caller's session (role, table, CSRF token), or `{"role": null}`."""
        session = auth.session(cookie_of(request, SESSION_COOKIE))
        return session.public() if session else {"role": None}

    @app.delete("/api/session", tags=["session"], responses=LOGOUT)
    def logout(request: Request, session: Reader) -> JSONResponse:
        """Sign out: the session ends here and on every server sharing the database."""
        auth.logout(session.token)
        response = JSONResponse({"role": None})
        delete_session_cookies(request, response)
        return response

    @app.get("/api/sessions", tags=["session"], responses=SESSIONS)
    def list_sessions(session: Annotated[Session, Depends(director)]) -> dict[str, Any]:
        """The directors' and dealers' sessions signed in now, most recently used first
        (`id` revokes one; `current` is the caller's own)."""
        now = auth.now()
        return {"idle_minutes": int(auth.idle_seconds // 60), "sessions": [
            {"id": s.id, "role": s.role, "table": s.table, "name": s.name,
             "device": s.device, "client": s.client,
             "signed_in_at": s.signed_in_at.isoformat(), "last_seen": s.last_seen.isoformat(),
             "idle_seconds": max(0, int(now - s.last_seen.timestamp())),
             "current": s.id == session.id}
            for s in auth.signed_in()]}

    @app.delete("/api/sessions/{session_id}", tags=["session"], responses=DELETE_SESSION)
    def revoke_session(
        session_id: Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,64}$")],
        session: Annotated[Session, Depends(director)],
    ) -> dict[str, Any]:
        """Sign a tablet out (the director): its token is refused from now on, here and on
        every server sharing the database, also after a restart."""
        if not auth.revoke(session_id, session.name):
            raise StarletteHTTPException(404, f"no signed-in session {session_id}")
        return {"revoked": session_id}

    # --- tables -----------------------------------------------------------------------------

    @app.get("/api/tables", tags=["tables"], responses=READ)
    def list_tables(session: Reader) -> list[dict[str, Any]]:
        """Every table at a glance."""
        return [summary(stream, notable=False)[0] for stream in table_streams()]

    @app.get("/api/tables/{stream}", tags=["tables"], responses=READ_TABLE)
    def read_table(stream: Stream, session: Reader) -> dict[str, Any]:
        """The table for the caller's role: seats, stacks, pots, board, who is to act and the
        legal actions with amounts, showdown order and proposed awards, the last events."""
        return view(stream, session, fold_of(stream))

    @app.post("/api/tables/{stream}/commands", tags=["tables"], responses=SUBMIT)
    async def submit(stream: Stream, body: CommandRequest, request: Request) -> JSONResponse:
        """Record one command at the table (see the module docstring for the answers)."""
        # One trip to a worker thread for the whole tap (the sign-in check, the command, the
        # answer and its encoding), not one per dependency as sync dependencies take.
        return await anyio.to_thread.run_sync(record_tap, stream, body, request)

    def record_tap(stream: str, body: CommandRequest, request: Request) -> JSONResponse:
        session = recorder_of(stream, session_of(request))
        command = body.command
        if needs_director(command) and session.role != "director":
            raise AuthError(403, f"{command.type.replace('_', ' ')} is the director's")
        if stream.startswith("tournament-"):
            raise StarletteHTTPException(404, f"{stream} is not a table")
        if not recorder.is_open_table(stream):
            head = store.head(stream)
            if head is not None and head.kind != "table":
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
                since=event_rows(current, since, public_for(session, stream),
                                 desk.names(current)),
                table=view(stream, session, current),
            )
        except DuplicateEventConflict as duplicate:
            return _error(409, "event id", str(duplicate), ["make a new event id"],
                          table=view(stream, session))
        except DirectorsCorrection as refused:
            # A director's event ends the dealer's undo: the role may not, whatever he sends.
            return _error(403, refused.rule, refused.message, list(refused.legal),
                          table=view(stream, session))
        except RuleViolation as violation:
            return _error(422, violation.rule, violation.message, list(violation.legal),
                          table=view(stream, session))
        # A hand's end is recorded with its settlement (Recorder.submit): who went out.
        eliminated = [e.payload["player"] for part in recorded.settled for e in part.events
                      if e.type == "player_eliminated"]
        current = recorder.table(stream)
        return FastJSON({
            "recorded": True, "retried": recorded.retried, "version": recorded.version,
            "events": event_rows(current, list(recorded.events), public_for(session, stream),
                                 desk.names(current)),
            "eliminated": eliminated, "warning": recorded.warning,
            "table": view(stream, session, current),
        })

    def _command(stream: str, fold: TableFold, command: CommandIn) -> Any:
        if not isinstance(command, StartHandIn) or command.level is not None:
            return to_command(command)
        ctx = context(stream, fold)
        if ctx.blocked is not None:
            raise ctx.blocked
        start = to_command(command, ctx.level)
        assert isinstance(start, StartHand)
        return replace(start, final_table=start.final_table or ctx.final_table,
                       penalized=ctx.penalized)

    @app.get("/api/tables/{stream}/events", tags=["live"], responses=TABLE_STREAM,
             response_class=StreamingResponse)
    async def follow_table(stream: Stream, request: Request,
                           session: Reader) -> StreamingResponse:
        """Server-sent events: `state` (the table view for the caller's role) now and after
        every append."""
        await anyio.to_thread.run_sync(fold_of, stream)
        slot = live.take(request, session)

        async def render() -> dict[str, Any] | str:
            if session.role == "viewer":  # one view per change, shared by every viewer
                return await shared.frame(("table", stream, hub.generation),
                                          lambda: view(stream, session))
            return await anyio.to_thread.run_sync(view, stream, session)

        subscription = hub.subscribe(frozenset({stream}))
        return _sse(slot.wrap(event_stream(
            hub, subscription, render, request.is_disconnected, still_valid=valid(session),
            settle_seconds=live.settle_seconds(session))))

    @app.post("/api/tables/{stream}/pairing", tags=["floor"], responses=PAIR)
    def pair(stream: Stream, session: Annotated[Session, Depends(director)]) -> dict[str, Any]:
        """A one-time code that joins one more tablet to this table as its dealer."""
        fold_of(stream)
        if not is_open(stream):
            raise StarletteHTTPException(409, f"table {stream} is not open: a dealer joins an "
                                         "open table")
        code = auth.new_pairing_code(stream)
        return {"code": code.code, "table": stream}

    # --- floor --------------------------------------------------------------------------------

    @app.post("/api/tournaments", tags=["floor"], responses=NEW_TOURNAMENT)
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

    @app.post("/api/tournaments/{tournament}/commands", tags=["floor"],
              responses=TOURNAMENT_COMMAND)
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
        tables_before = desk.table_versions(tournament)
        base = desk.tournament_version(tournament)
        desk.view_head(tournament)  # the base the answer's delta is taken against
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
        return JSONResponse(changes(session, tournament, tables_before, base)
                            | {"retried": retried})

    def changes(session: Session, tournament: str, tables_before: dict[str, int],
                base: int) -> dict[str, Any]:
        """What a tournament command changed, not the whole floor: the tournament view's
        fields that differ from the view at version `base` and its player lists row by row
        (FloorDesk.delta: the floor page applies them to that view, or reads the floor when
        it holds another), and the cards of the tables the command recorded at; past
        CARDS_IN_ANSWER of them (a seat draw over 1,000 tables) only their names
        (`tables_changed`: the page reads the floor once)."""
        fields = desk.delta(tournament, base, clock()) or {
            "id": tournament, "version": 0, "base": 0}
        tables_after = desk.table_versions(tournament)
        changed = sorted(s for s in set(tables_before) | set(tables_after)
                         if tables_before.get(s) != tables_after.get(s))
        result: dict[str, Any] = {"tournament": fields}
        if len(changed) > CARDS_IN_ANSWER:
            result |= {"tables": [], "tables_changed": changed}
            return result
        cards = [summary(s, notable=False)[0] for s in changed]
        result["tables"] = cards
        if session.role == "director":
            result["dealer_pins"] = {c["stream"]: auth.table_pin(c["stream"]) for c in cards}
        return result

    # The floor is read on threads of its own: under load it does not queue behind the
    # tablets' commands for one of the worker threads they share.
    floor_threads = anyio.CapacityLimiter(4)

    @app.get("/api/floor", tags=["floor"], responses=READ, response_model=dict[str, Any])
    async def read_floor(request: Request) -> Response:
        """Every table, rulings and corrections; for the director the dealer PINs and codes."""
        # The sign-in check, the build and the encoding on a floor thread, in one trip: the
        # event loop serving the tablets never encodes the floor's hundreds of kilobytes, and
        # a floor read never waits in the queue of taps for a route thread (with 200 tablets
        # recording that queue, not the floor, was most of its time).
        def answer() -> str:
            return floor_json(session_of(request))

        text = await anyio.to_thread.run_sync(answer, limiter=floor_threads)
        return Response(text, media_type="application/json")

    @app.get("/api/floor/events", tags=["live"], responses=FLOOR_STREAM,
             response_class=StreamingResponse)
    async def follow_floor(request: Request, session: Reader) -> StreamingResponse:
        """Server-sent events: `state` (the whole floor view) now, then `changes` (what changed:
        FloorFollower) after every append anywhere; a viewer gets `state` each time (one
        view per change, encoded once and shared by every viewer)."""

        slot = live.take(request, session)
        follower = FloorFollower(session)
        seen: list[int | None] = [None]  # the viewers' frame this viewer was sent last

        def viewer_frames() -> str:
            text, seen[0] = viewers.since(session, seen[0])
            return text

        async def render() -> str:
            if session.role == "viewer":  # each frame built once, shared by every viewer
                return await anyio.to_thread.run_sync(viewer_frames, limiter=floor_threads)
            return await anyio.to_thread.run_sync(follower.frame, limiter=floor_threads)

        subscription = hub.subscribe(None)
        return _sse(slot.wrap(event_stream(
            hub, subscription, render, request.is_disconnected, still_valid=valid(session),
            settle_seconds=live.settle_seconds(session))))

    dealer_pin = auth.table_pin

    class FloorFollower:
        """One live floor: the whole floor first (`state`), then only what changed since the
        frame before (`changes`): the cards of the tables that moved on, each tournament's
        delta against the version this screen holds (TournamentDesk.delta), the rulings and
        corrections when a changed table has any. Nothing is folded or encoded again for a
        table that did not change (the cards are the floor's read model)."""

        def __init__(self, session: Session) -> None:
            self.session = session
            self.tables: dict[str, int] | None = None
            self.tournaments: dict[str, int] = {}

        def frame(self) -> str:
            if self.tables is None:
                result, cards = floor_parts(self.session)
                self.tables = {c["stream"]: c["version"] for c in cards}
                self.tournaments = {t["id"]: t["version"] for t in result["tournaments"]}
                head = json.dumps(result, separators=(",", ":"))
                text = ",".join(card_text(c["stream"], c) for c in cards)
                return sse_text("state", f'{head[:-1]},"tables":[{text}]}}',
                                int(result["version"]))
            heads = floor_heads()
            version = sum(v for _s, _k, v in heads)
            deltas = []
            restaked: set[str] = set()  # tables whose cards show new stakes
            for stream_id, kind, at in heads:
                tournament = stream_id.removeprefix("tournament-")
                if kind != "tournament" or self.tournaments.get(tournament) == at:
                    continue
                delta = desk.delta(tournament, self.tournaments.get(tournament, 0), clock())
                if delta is not None:
                    deltas.append(delta)
                    self.tournaments[tournament] = delta["version"]
                    if {"stakes", "level", "finished"} & set(delta):
                        restaked.update(delta.get("table_streams", {}).values() or (
                            table_stream(tournament, t)
                            for t in desk.open_tables(tournament) or ()))
            changed = [stream_id for stream_id, kind, at in heads if kind == "table"
                       and (self.tables.get(stream_id) != at or stream_id in restaked)]
            recorder.preload(changed)
            cards, notable = [], False
            for stream in changed:
                card, rows = summary(stream)
                cards.append(card)
                self.tables[stream] = card["version"]
                notable = notable or bool(rows)
            body: dict[str, Any] = {"version": version, "tournaments": deltas}
            if notable:
                body["corrections"] = corrections_now()
            if cards:
                body["checkpoint"] = checkpoint_view(latest_checkpoint(store))
            if self.session.role == "director" and cards:
                body["dealer_pins"] = {c["stream"]: dealer_pin(c["stream"]) for c in cards}
            text = json.dumps(body, separators=(",", ":"))
            cards_text = ",".join(card_text(c["stream"], c) for c in cards)
            return sse_text("changes", f'{text[:-1]},"tables":[{cards_text}]}}', version)

    class ViewerFloor:
        """The viewers' live floor, built once for all of them: one follower makes each
        `changes` frame (one per change heard of), every viewer is sent the frames after the
        one it had; a viewer new or further behind than the frames kept gets the whole floor
        (its frame shared too while nothing changed)."""

        KEEP = 64

        def __init__(self) -> None:
            self.lock = threading.Lock()
            self.follower: FloorFollower | None = None
            self.frames: deque[tuple[int, str]] = deque(maxlen=self.KEEP)
            self.state: tuple[int, int, str] | None = None  # (frame number, second, text)
            self.number = 0
            self.generation = -1
            self.builds = 0

        def since(self, session: Session, seen: int | None) -> tuple[str, int]:
            with self.lock:
                second = int(clock().timestamp())  # the whole view carries the clock
                if self.follower is None:
                    self.follower = FloorFollower(session)
                    self.generation = hub.generation
                    self.state = (0, second, self.follower.frame())
                    self.builds += 1
                elif hub.generation != self.generation:
                    self.generation = hub.generation
                    self.number += 1
                    self.frames.append((self.number, self.follower.frame()))
                    self.builds += 1
                if seen is not None and (seen == self.number or (
                        self.frames and self.frames[0][0] <= seen + 1)):
                    return "".join(t for n, t in self.frames if n > seen), self.number
                if self.state is None or self.state[:2] != (self.number, second):
                    text, version = floor_encoded(session)
                    self.state = (self.number, second, sse_text("state", text, version))
                    self.builds += 1
                return self.state[2], self.number

    viewers = ViewerFloor()
    app.state.viewer_floor = viewers

    def corrections_now() -> list[dict[str, Any]]:
        """The floor's rulings and corrections over every table, newest first (its first 100),
        from the cards' read model."""
        rows: list[dict[str, Any]] = []
        for kept in list(floor_rows.values()):
            rows.extend(kept[2])
        return heapq.nlargest(100, rows, key=lambda row: row["at"])

    def valid(session: Session) -> Callable[[], Awaitable[bool]]:
        """Whether an open event stream's session still holds (revoked, signed out, expired:
        the stream ends, and the page signs in again)."""

        async def holds() -> bool:
            if session.role == "viewer":
                return auth.now() < session.expires  # not stored: the clock decides
            found = await anyio.to_thread.run_sync(auth.session, session.token)
            return found is not None

        return holds

    # --- the signed log ---------------------------------------------------------------------

    @app.get("/api/log/key", tags=["log"], responses=LOG_KEY)
    def log_key(session: Reader) -> dict[str, Any]:
        """The room's public key (C2SP verifier key) that checks every checkpoint's signature
        and the log's name (both null when this server signs no checkpoints)."""
        if signing_key is None:
            return {"key": None, "origin": None}
        return {"key": signing_key.verifier.text(), "origin": signing_key.name}

    @app.get("/api/log/checkpoint", tags=["log"], responses=READ_CHECKPOINT)
    def read_checkpoint(session: Reader) -> dict[str, Any]:
        """The latest signed checkpoint (null when none was taken yet)."""
        return {"checkpoint": checkpoint_view(latest_checkpoint(store))}

    @app.post("/api/log/checkpoint", tags=["log"], responses=TAKE_CHECKPOINT)
    def take_checkpoint(session: Annotated[Session, Depends(director)]) -> dict[str, Any]:
        """Sign the log's size and root now (the director's); answers with the checkpoint."""
        if signing_key is None:
            raise AuthError(404, "this server signs no checkpoints (no signing key)")
        taken = record_checkpoint(store, signing_key, "on_demand")
        return {"checkpoint": checkpoint_view(taken)}

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

    # `?at=VERSION`, `?hand=N` or `?time=UTC` on a table's page: the table as it stood then,
    # read-only (asof.html; the live page is table.html).
    def table_page(request: Request) -> FileResponse:
        moment = {"at", "hand", "time"} & set(request.query_params)
        return page("asof.html" if moment else "table.html")

    @app.get("/dealer/{stream}", include_in_schema=False)
    def dealer_page(stream: Stream, request: Request) -> FileResponse:
        return table_page(request)

    @app.get("/view/{stream}", include_in_schema=False)
    def viewer_page(stream: Stream, request: Request) -> FileResponse:
        return table_page(request)

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
    app.include_router(asof_router(store, session_of))
    add_offline_routes(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


HEADS_SECONDS = 2.0
"""The floor reads the store's list of streams again at least this often (a stream made by
another process appears within it even when no notice of it came)."""
CARDS_IN_ANSWER = 50
"""Table cards a tournament command's answer carries at most (else their names only)."""


def checkpoint_view(stored: StoredCheckpoint | None) -> dict[str, Any] | None:
    if stored is None:
        return None
    cp = stored.checkpoint
    return {"number": stored.number, "reason": stored.reason,
            "created_at": stored.created_at.isoformat(), "origin": cp.origin,
            "size": cp.size, "root": cp.root_hex, "text": cp.text}


def _sse(body: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(body, media_type="text/event-stream", headers={
        "Cache-Control": "no-store", "X-Accel-Buffering": "no", "Connection": "keep-alive",
    })
