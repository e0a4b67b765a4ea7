"""What the routes share (as the FastAPI project template's api/deps.py): the app's services,
who is asking (the session from its cookie, checked against the CSRF header on a change) and
the table a path names. The cookie and the header are the OpenAPI document's security
schemes: a route that depends on them states it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

from fastapi import Depends, Request, Security
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.security import APIKeyCookie, APIKeyHeader
from pydantic import BaseModel, TypeAdapter, ValidationError

from handlog.recorder.api_spec import json_body
from handlog.recorder.app_services import Services
from handlog.recorder.auth import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, AuthError, Session
from handlog.recorder.cookies import cookie_of
from handlog.replay.fold import TableFold

STREAM_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$"
Stream = Annotated[str, PathParam(pattern=STREAM_PATTERN, description="a table's stream id")]
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# The security schemes (the checks themselves are `session_of`'s: their answers are the API's).
session_cookie = APIKeyCookie(name=SESSION_COOKIE, scheme_name="session", auto_error=False,
                              description="the session a sign-in (POST /api/session) sets")
csrf_header = APIKeyHeader(name=CSRF_HEADER, scheme_name="csrf", auto_error=False,
                           description="the session's `csrf`, sent back with every change")
SIGNED_IN = [Security(session_cookie)]
CHANGES = [Security(session_cookie), Security(csrf_header)]


async def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def session_of(services: Services, request: Request) -> Session:
    """The caller's session: 401 without one, 403 for a change without the CSRF header that
    matches it."""
    auth = services.auth
    token = cookie_of(request, SESSION_COOKIE)
    session = auth.session(token)
    if session is None:
        raise AuthError(401, auth.refusal(token))
    if request.method in _UNSAFE and not auth.csrf_ok(
        session, request.headers.get(CSRF_HEADER), cookie_of(request, CSRF_COOKIE)
    ):
        raise AuthError(403, f"missing or wrong {CSRF_HEADER} header: reload the page")
    return session


def signed_in(request: Request, services: ServicesDep) -> Session:
    return session_of(services, request)


def director(session: Annotated[Session, Depends(signed_in)]) -> Session:
    if session.role != "director":
        raise AuthError(403, "only the tournament director may do this")
    return session


def may_record(stream: str, session: Session) -> Session:
    """`session`, when it may record the play of hands at table `stream` (else 403)."""
    if not session.may_record(stream):
        raise AuthError(403, f"a {session.role} may not record at table {stream}"
                        if session.role != "dealer" else
                        f"this tablet is the dealer of table {session.table}, not {stream}")
    return session


Reader = Annotated[Session, Depends(signed_in)]
Director = Annotated[Session, Depends(director)]


def table_of(stream: Stream, services: ServicesDep, _reader: Reader) -> TableFold:
    """The table the path names (404 when there is none), for a signed-in caller."""
    return services.fold_of(stream)


Table = Annotated[TableFold, Depends(table_of)]


Body = TypeVar("Body", bound=BaseModel)


def body_after_sign_in(model: type[Body]) -> Callable[[Request], Awaitable[Body]]:
    """A dependency that reads the body as `model`. Declared after the session's dependency,
    the body is looked at only once the caller may send it (FastAPI itself would parse and
    validate a body parameter first); the route states it with `openapi_extra=json_body`."""
    adapter = TypeAdapter(model)
    json_body(model)

    async def read(request: Request) -> Body:
        try:
            return adapter.validate_json(await request.body())
        except ValidationError as invalid:
            raise RequestValidationError(
                [e | {"loc": ("body", *e["loc"])} for e in invalid.errors()]) from None

    return read
