"""Sign in, who am I, sign out, and the director's list of signed-in tablets."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from handlog.recorder.api_spec import DELETE_SESSION, LOGIN, LOGOUT, SESSIONS, WHOAMI
from handlog.recorder.auth import DEVICE_COOKIE, SESSION_COOKIE
from handlog.recorder.cookies import cookie_of, delete_session_cookies, set_session_cookies
from handlog.recorder.limits import MAX_NAME, name_problem
from handlog.recorder.routes.answers import refusal
from handlog.recorder.routes.deps import CHANGES, SIGNED_IN, Director, Reader, ServicesDep
from handlog.recorder.routes.models import (
    LoginRequest,
    Revoked,
    SessionList,
    SessionView,
    SignedOut,
)

router = APIRouter(tags=["session"])


@router.post("/api/session", responses=LOGIN, response_model=SessionView)
def login(body: LoginRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """Join as director (PIN), dealer (table PIN or pairing code) or viewer."""
    client = request.client.host if request.client else "unknown"
    for field, value in (("name", body.name), ("device", body.device)):
        # Who records goes into every event he records, for good: a name, not a payload.
        problem = name_problem(value) if value else None
        if problem:
            return refusal(422, "request", f"{field}: {problem}",
                           [f"1 to {MAX_NAME} printable characters"], field=field)
    # A dealer session is for an open table of this room only: any other name is a wrong
    # guess (401, the same answer as a wrong PIN, so names are not probed), counted in the
    # one bucket every unknown name shares (then 429).
    auth = services.auth
    session = auth.login(client, body.role, pin=body.pin, code=body.code,
                         table=body.table, name=body.name, device=body.device,
                         table_known=services.is_open,
                         known_device=cookie_of(request, DEVICE_COOKIE))
    response = JSONResponse(session.public())
    set_session_cookies(request, response, auth, session)
    return response


@router.get("/api/session", responses=WHOAMI, response_model=SessionView,
            response_model_exclude_unset=True)
def whoami(request: Request, services: ServicesDep) -> dict[str, Any]:
    """The caller's session (role, table, CSRF token), or `{"role": null}`."""
    session = services.auth.session(cookie_of(request, SESSION_COOKIE))
    return session.public() if session else {"role": None}


@router.delete("/api/session", responses=LOGOUT, response_model=SignedOut,
               dependencies=CHANGES)
def logout(request: Request, session: Reader, services: ServicesDep) -> JSONResponse:
    """Sign out: the session ends here and on every server sharing the database."""
    services.auth.logout(session.token)
    response = JSONResponse({"role": None})
    delete_session_cookies(request, response)
    return response


@router.get("/api/sessions", responses=SESSIONS, response_model=SessionList,
            dependencies=SIGNED_IN)
def list_sessions(session: Director, services: ServicesDep) -> dict[str, Any]:
    """The directors' and dealers' sessions signed in now, most recently used first
    (`id` revokes one; `current` is the caller's own)."""
    auth = services.auth
    now = auth.now()
    return {"idle_minutes": int(auth.idle_seconds // 60), "sessions": [
        {"id": s.id, "role": s.role, "table": s.table, "name": s.name,
         "device": s.device, "client": s.client,
         "signed_in_at": s.signed_in_at.isoformat(), "last_seen": s.last_seen.isoformat(),
         "idle_seconds": max(0, int(now - s.last_seen.timestamp())),
         "current": s.id == session.id}
        for s in auth.signed_in()]}


@router.delete("/api/sessions/{session_id}", responses=DELETE_SESSION, response_model=Revoked,
               dependencies=CHANGES)
def revoke_session(
    session_id: Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,64}$")],
    session: Director, services: ServicesDep,
) -> dict[str, Any]:
    """Sign a tablet out (the director): its token is refused from now on, here and on
    every server sharing the database, also after a restart."""
    if not services.auth.revoke(session_id, session.name):
        raise StarletteHTTPException(404, f"no signed-in session {session_id}")
    return {"revoked": session_id}
