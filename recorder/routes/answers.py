"""How the API answers: JSON encoded by orjson, and every refusal as an `ErrorBody` (the rule
or check that refused, in words, and what is allowed instead) from the exception handlers."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from handlog.engine.errors import RuleViolation
from handlog.engine.words import render_rule
from handlog.recorder.api_spec import allow_header
from handlog.recorder.auth import AuthError
from handlog.schema.errors import HandlogError, StoreUnavailable


class FastJSON(JSONResponse):
    """JSON encoded by orjson (a tap's answer, the table view, is encoded on every tap: the
    standard library's encoder was about a tenth of the server's time per tap)."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


STORE_RETRY_SECONDS = 2  # a PostgreSQL restart or a failover takes seconds


def refusal(status: int, rule: str, message: str, legal: list[str] | None = None,
            **extra: Any) -> JSONResponse:
    # The rule is an identifier (tda-43); its words travel with it for the screens.
    return JSONResponse({"rule": rule, "rule_words": render_rule(rule), "message": message,
                         "legal": legal or []} | extra, status_code=status)


def field_of(loc: Any) -> str:
    """`("body", "command", "open_table", "profile")` -> "command.profile" (the JSON path
    without the body and the union's tag)."""
    parts = [str(p) for p in tuple(loc)[1:] if not isinstance(p, int)]
    if len(parts) > 2 and parts[0] == "command":
        parts = [parts[0], *parts[2:]]
    return ".".join(parts) or "body"


def request_refusal(errors: list[Any]) -> JSONResponse:
    """422 naming the field for a well-formed body with a value outside what is allowed
    (nothing recorded); 400 for anything else that does not fit (not JSON, a parameter)."""
    problems = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
                for e in errors]
    fields = [field_of(e.get("loc", ())) for e in errors]
    body = [e for e in errors if tuple(e.get("loc", ()))[:1] == ("body",)
            and e.get("type") != "json_invalid"]
    if body and len(body) == len(errors):
        return refusal(422, "request", "; ".join(problems), ["fix the field and send again"],
                       field=fields[0], fields=fields)
    return refusal(400, "request", "; ".join(problems) or "bad request")


def add_error_handlers(app: FastAPI) -> None:
    """Errors as JSON a tablet can show."""

    @app.exception_handler(AuthError)
    async def _auth_error(_request: Request, exc: AuthError) -> JSONResponse:
        response = refusal(exc.status, "auth", exc.message)
        if exc.retry_after:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(RuleViolation)
    async def _rule_error(_request: Request, exc: RuleViolation) -> JSONResponse:
        return refusal(422, exc.rule, exc.message, list(exc.legal))

    @app.exception_handler(RequestValidationError)
    async def _request_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return request_refusal(list(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        response = refusal(exc.status_code, "http", str(exc.detail))
        if exc.status_code == 405:
            response.headers["Allow"] = allow_header(app, request.url.path)
        return response

    @app.exception_handler(StoreUnavailable)
    async def _store_unavailable(_request: Request, exc: StoreUnavailable) -> JSONResponse:
        # Nothing was recorded and the same command (same id) may come again: the tablet's
        # outbox sends it again by itself; a retry that finds it recorded says `retried`.
        response = refusal(503, "store", str(exc), ["send the same request again"])
        response.headers["Retry-After"] = str(STORE_RETRY_SECONDS)
        return response

    @app.exception_handler(HandlogError)
    async def _handlog_error(_request: Request, exc: HandlogError) -> JSONResponse:
        return refusal(500, "store", str(exc))
