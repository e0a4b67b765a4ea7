"""What the API answers besides 200, as the OpenAPI spec states it: the error bodies (typed
models) and, per route, every status it may answer. A route's `responses=` comes from here, so
the spec and the code are read side by side; tests/test_openapi_fuzz.py holds them to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema
from starlette.routing import BaseRoute, Route


class ErrorBody(BaseModel):
    """Why a request was refused: the rule or check that refused it, in words, and what is
    allowed instead. Some answers add fields (the table as it is now, the problems found)."""

    model_config = ConfigDict(extra="allow")
    rule: str = Field(description='the rule or check, kebab-case: the id of a document\'s rule '
                      '("tda-43") or a code ("auth", "request", "stale-version")')
    rule_words: str = Field(default="", description="the rule or check in words, for people "
                            '("TDA 43", "stale version")')
    message: str
    legal: list[str] = Field(default_factory=list, description="what is allowed instead")


class StaleVersion(ErrorBody):
    """409: someone recorded first (`stale-version`), or the event id was used for another
    command (`event-id`)."""

    expected: int | None = None
    actual: int | None = None


_WHY: dict[int, tuple[str, type[ErrorBody]]] = {
    400: ("the request does not fit the API: a field, a path parameter", ErrorBody),
    401: ("no session, or it ended (signed out, revoked, idle, expired)", ErrorBody),
    403: ("this role may not, or the CSRF header is missing or wrong", ErrorBody),
    404: ("no such table, tournament or session", ErrorBody),
    409: ("someone recorded first, or the event id was used for another command",
          StaleVersion),
    413: ("the request body is too large", ErrorBody),
    422: ("the rules (or the field checks) do not allow it", ErrorBody),
    429: ("too many wrong PINs, or too many open event streams: see Retry-After", ErrorBody),
    503: ("the database did not answer or could not write just now (a restart, a full disk): "
          "nothing was recorded; send the same request again after Retry-After", ErrorBody),
}


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route that may also answer `statuses` (and 503: every route
    reads or writes the database)."""
    return {status: {"model": _WHY[status][1], "description": _WHY[status][0]}
            for status in (*statuses, 503)}


def event_stream_answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
                  "description": "server-sent `state` events"}} | answers(*statuses)


def link(method: str, path: str, parameters: dict[str, str],
         body: dict[str, str] | None = None, why: str = "") -> dict[str, Any]:
    """An OpenAPI link: what a 200 answer gives to the route at `method path` (the path's
    parameters and fields of its body, as runtime expressions)."""
    pointer = path.replace("~", "~0").replace("/", "~1")
    found: dict[str, Any] = {"operationRef": f"#/paths/{pointer}/{method}",
                             "parameters": parameters, "description": why}
    if body:
        found["requestBody"] = body
    return found


def linked(responses: dict[int | str, dict[str, Any]], **links: dict[str, Any]
           ) -> dict[int | str, dict[str, Any]]:
    """`responses` whose 200 answer states `links` (stateful clients follow them)."""
    return {200: {"description": "Successful Response", "links": links}} | responses


COMMANDS = "/api/tables/{stream}/commands"
TABLE = "/api/tables/{stream}"
TOURNAMENT_COMMANDS = "/api/tournaments/{tournament}/commands"
NEXT_COMMAND = link("post", COMMANDS, {"path.stream": "$request.path.stream"},
                    {"expected_version": "$response.body#/version"},
                    "the next command at this table, on the version it answered")
READ_AGAIN = link("get", TABLE, {"path.stream": "$request.path.stream"}, why="the table now")
PAIR_AT = link("post", "/api/tables/{stream}/pairing", {"path.stream": "$request.path.stream"},
               why="a dealer tablet for this table")

# 400 and 422 both: a body or parameter that does not fit is refused with one of them.
LOGIN = answers(400, 401, 413, 422, 429)
WHOAMI = answers()
LOGOUT = answers(401, 403)
SESSIONS = linked(answers(401, 403), revoke=link(
    "delete", "/api/sessions/{session_id}",
    {"path.session_id": "$response.body#/sessions/0/id"}, why="sign the first one out"))
DELETE_SESSION = answers(400, 401, 403, 404, 422)
READ = answers(401)
TABLES = linked(READ, read=link("get", TABLE, {"path.stream": "$response.body#/0/stream"},
                                why="the first table"))
FLOOR = linked(READ, command=link(
    "post", TOURNAMENT_COMMANDS, {"path.tournament": "$response.body#/tournaments/0/id"},
    {"expected_version": "$response.body#/tournaments/0/version"},
    "a command for the first tournament, on the version shown"), record=link(
    "post", COMMANDS, {"path.stream": "$response.body#/tables/0/stream"},
    {"expected_version": "$response.body#/tables/0/version"},
    "a command at the first table, on the version shown"))
READ_TABLE = linked(answers(400, 401, 404, 422), record=link(
    "post", COMMANDS, {"path.stream": "$request.path.stream"},
    {"expected_version": "$response.body#/version"}, "a command on the version shown"),
    hands=link("get", "/api/tables/{stream}/hands", {"path.stream": "$request.path.stream"},
               why="its hands"))
SUBMIT = linked(answers(400, 401, 403, 404, 409, 413, 422), next=NEXT_COMMAND,
                read=READ_AGAIN, pair=PAIR_AT)
PAIR = answers(400, 401, 403, 404, 409, 422)
NEW_TOURNAMENT = linked(answers(400, 401, 403, 409, 413, 422), command=link(
    "post", TOURNAMENT_COMMANDS, {"path.tournament": "$request.body#/id"},
    why="the new tournament's first command"))
TOURNAMENT_COMMAND = linked(answers(400, 401, 403, 404, 409, 413, 422), next=link(
    "post", TOURNAMENT_COMMANDS, {"path.tournament": "$request.path.tournament"},
    {"expected_version": "$response.body#/tournament/version"},
    "the next command, on the version it answered"))
DEAL_PREVIEW = answers(400, 401, 403, 409, 422)
TABLE_STREAM = event_stream_answers(400, 401, 404, 422, 429)
FLOOR_STREAM = event_stream_answers(401, 429)
LOG_KEY = answers(401)
READ_CHECKPOINT = answers(401)
LOG_WITNESSES = answers(401)
TAKE_CHECKPOINT = answers(401, 403, 404)
SIGN_OFF = answers(400, 401, 403, 404, 422)
READ_SIGN_OFFS = answers(401)


BODIES: dict[str, type[BaseModel]] = {}
"""Request bodies a route reads itself (after the sign-in), stated in the document."""


def json_body(model: type[BaseModel]) -> dict[str, Any]:
    """The `openapi_extra` of a route that reads `model` from its body itself."""
    BODIES[model.__name__] = model
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{model.__name__}"}}}}}


def with_bodies(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """`app.openapi` with the schemas of the `json_body` models among its components."""
    plain = app.openapi

    _, top = models_json_schema([(m, "validation") for m in BODIES.values()],
                                ref_template="#/components/schemas/{model}")

    def openapi() -> dict[str, Any]:
        document = plain()  # (built once, kept by FastAPI)
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        schemas.update(top.get("$defs", {}))
        return document

    return openapi


def app_routes(app: FastAPI) -> list[BaseRoute]:
    """Every route of `app`, those of its included routers too (as they were declared)."""
    return [context.original_route for context in iter_route_contexts(app.routes)]


def allow_header(app: FastAPI, path: str) -> str:
    """The methods some route of `app` answers at `path` (the `Allow` header of a 405)."""
    methods: set[str] = set()
    for route in app_routes(app):
        if isinstance(route, Route) and route.methods and route.path_regex.match(path):
            methods |= route.methods
    return ", ".join(sorted(methods))
