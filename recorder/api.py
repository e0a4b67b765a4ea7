"""The HTTP API (JSON and server-sent events) and the tablet, floor and viewer pages.

Everything goes through `Recorder.submit`, the one path every command takes; the pages use
this API and nothing else. `create_app(recorder)` builds the app (wiring only: the services,
recorder/app_services.py; a router per resource, recorder/routes/; the error answers,
recorder/routes/answers.py); `handlog serve` runs it.

Answers to a command:
- 200 `{recorded, retried, version, events, table}`; a retry with an event id already recorded
  returns the original result with `retried: true` and records nothing;
- 422 `{rule, message, legal, table}` when the rules do not allow it;
- 409 `{rule: "stale-version", expected, actual, since, table}` when the table moved on since
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

The OpenAPI spec (`/openapi.json`) types every answer and lists every status each route answers
with its error model, and the session cookie and CSRF header as security schemes (bounded
schemathesis runs in tests/test_openapi_fuzz.py hold the routes to it); a caller is signed in
before a body is looked at (401 / 403 first); a 405 names the allowed methods in `Allow`.
"""

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from handlog.recorder import offline
from handlog.recorder.api_spec import with_bodies
from handlog.recorder.app_services import LevelFor, Services, last_level
from handlog.recorder.auth import Auth
from handlog.recorder.headers import SecurityHeaders
from handlog.recorder.limits import BodyLimit, body_limit
from handlog.recorder.live_share import LiveLimits
from handlog.recorder.routes import (
    asof,
    exports,
    feed,
    floor,
    hands,
    log,
    pages,
    sessions,
    tables,
    tournaments,
)
from handlog.recorder.routes.answers import add_error_handlers
from handlog.recorder.service import Recorder, utc_now
from handlog.recorder.witness_client import WitnessClient
from handlog.schema.checkpoint import SigningKey

STATIC = Path(__file__).resolve().parent / "static"
ROUTERS = (sessions.router, tables.router, floor.router, tournaments.router, log.router,
           hands.router, asof.router, pages.router, offline.router, exports.router,
           feed.router)


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
    witnesses: Sequence[WitnessClient] = (),
    director_key_file: Path | None = None,
) -> FastAPI:
    """The API and pages over `recorder`. A tournament's table plays at the tournament's
    stakes; `level_for(stream, fold)` gives the level of a table outside any tournament.
    `allowed_hosts`: the Host headers answered (None: any, for tests); `live_limits`: how many
    event streams a client may hold open; `director_key_file`: the key the director's
    sign-off on the floor page is signed with (made there on first use)."""
    services = Services(recorder, auth or Auth(), clock, level_for, signing_key, poll_seconds,
                        live_limits or LiveLimits(), witnesses, director_key_file)
    app = FastAPI(
        title="handlog", version="1", lifespan=services.lifespan, docs_url=None,
        redoc_url=None, description="Record live No-Limit Hold'em tournament hands: table "
        "state, legal actions, commands with idempotent retries, server-sent updates.",
    )
    app.state.services = services
    app.state.live, app.state.viewer_floor = services.live, services.viewers
    app.add_middleware(BodyLimit, limit=body_limit)  # 413 before a byte too many is read
    if allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    add_error_handlers(app)
    # Security headers (recorder/headers.py): a plain ASGI middleware, nothing per SSE chunk.
    app.add_middleware(SecurityHeaders)
    for router in ROUTERS:
        app.include_router(router)
    app.router.routes.insert(0, tables.TapRoute())  # a tap without FastAPI's per-request work
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.openapi = with_bodies(app)  # type: ignore[method-assign]
    return app
