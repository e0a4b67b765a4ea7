"""What an entry may hold before it is appended: names and reasons of a sane length without
control characters, chip amounts below 10^12, request bodies below a size. The pydantic types
here guard the HTTP API (the tournament's commands carry theirs, engine/command_limits.py,
which also holds the checks); the same checks (`check_name`, `check_reason`) guard the recorder's
commands, so the CLI and the API refuse the same entries with the same words, and nothing
reaches the permanent log (or every screen) that a person could not have meant.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Annotated, Any

from pydantic import AfterValidator, Field

# Re-exported: the API's other guards read them from here.
from handlog.engine.command_limits import MAX_NAME as MAX_NAME
from handlog.engine.command_limits import MAX_REASON, MAX_RULE, reason_problem
from handlog.engine.command_limits import name_problem as name_problem
from handlog.engine.errors import RuleViolation
from handlog.engine.table import MAX_CHIPS, MAX_SEATS

MAX_BODY_BYTES = 64 * 1024  # a command's JSON (a structure file may be larger, see below)
MAX_STRUCTURE_BYTES = 256 * 1024  # POST /api/tournaments carries a structure file's text


def check_name(value: str, field: str) -> None:
    """RuleViolation naming `field` when `value` is no name."""
    problem = name_problem(value)
    if problem:
        raise RuleViolation(field, f"{field}: {problem}", (f"1 to {MAX_NAME} printable "
                            "characters",))


def check_reason(value: str, field: str = "reason", required: bool = False) -> None:
    problem = reason_problem(value, required)
    if problem:
        raise RuleViolation(field, f"{field}: {problem}", (f"up to {MAX_REASON} characters",))


def check_chips(value: int, field: str, negative: bool = False) -> None:
    low = -MAX_CHIPS if negative else 0
    if not low <= value <= MAX_CHIPS:
        raise RuleViolation(field, f"{field}: {value} is out of range; allowed: {low} to "
                            f"{MAX_CHIPS:,}", (f"{low} to {MAX_CHIPS}",))


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
