"""The HTTP API's field types and request body limits. A field is checked by the engine's
own rules (engine/limits.py), so the CLI and the API refuse the same entries with the same
words; a body over its size is refused before anything reads it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from handlog.engine.limits import MAX_NAME as MAX_NAME
from handlog.engine.limits import MAX_REASON, MAX_RULE, reason_problem
from handlog.engine.limits import name_problem as name_problem
from handlog.engine.table import MAX_CHIPS, MAX_SEATS

MAX_BODY_BYTES = 64 * 1024  # a command's JSON (a structure file may be larger, see below)
MAX_STRUCTURE_BYTES = 256 * 1024  # POST /api/tournaments carries a structure file's text


def _valid_name(value: str) -> str:
    problem = name_problem(value)
    if problem:
        raise ValueError(problem)
    return value


def _valid_reason(value: str) -> str:
    problem = reason_problem(value)
    if problem:
        raise ValueError(problem)
    return value


Name = Annotated[str, Field(max_length=MAX_NAME, description=f"1 to {MAX_NAME} printable "
                            "characters"), AfterValidator(_valid_name)]
Reason = Annotated[str, Field(max_length=MAX_REASON, description=f"up to {MAX_REASON} "
                              "characters"), AfterValidator(_valid_reason)]
Rule = Annotated[str, Field(max_length=MAX_RULE), AfterValidator(_valid_reason)]
Chips = Annotated[int, Field(ge=0, le=MAX_CHIPS)]
SignedChips = Annotated[int, Field(ge=-MAX_CHIPS, le=MAX_CHIPS)]
Seat = Annotated[int, Field(ge=1, le=MAX_SEATS, description="a seat number; the table says which "
                            "exist (1 to its seat count)")]
Position = Annotated[int, Field(ge=0, le=MAX_SEATS - 1,
                                description="a player's position in the hand")]


# --- request bodies ------------------------------------------------------------------------

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: a request body over the limit gets 413 before anything reads it (the
    declared Content-Length, and the bytes actually sent, are both counted)."""

    def __init__(self, app: ASGIApp, limit: Callable[[str], int]) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit(str(scope.get("path", "")))
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > limit:
                    await _too_large(send, limit)
                    return
        received = 0
        exceeded = False  # the body went over the limit: the app's own answer is replaced
        app_started = False  # the app's response began before that (it goes on unchanged)
        refused = False  # our 413 is sent

        async def counted() -> MutableMapping[str, Any]:
            nonlocal received, exceeded
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    exceeded = True
                    raise BodyTooLarge  # the framework may turn this into its own 400
            return message

        async def watched(message: MutableMapping[str, Any]) -> None:
            nonlocal app_started, refused
            if not exceeded or app_started:
                app_started = app_started or message["type"] == "http.response.start"
                await send(message)
            elif not refused and message["type"] == "http.response.start":
                refused = True
                await _too_large(send, limit)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not app_started and not refused:
                await _too_large(send, limit)


def body_limit(path: str) -> int:
    """The largest request body a path takes."""
    return MAX_STRUCTURE_BYTES if path.rstrip("/") == "/api/tournaments" else MAX_BODY_BYTES


async def _too_large(send: Send, limit: int) -> None:
    import json

    body = json.dumps({"rule": "request", "message": f"the request body is larger than "
                       f"{limit // 1024} KB", "legal": [f"send at most {limit} bytes"],
                       "field": "body"}).encode()
    await send({"type": "http.response.start", "status": 413, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})
