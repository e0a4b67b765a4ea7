"""The pages (HTML files, not in the OpenAPI document): the floor, a table's dealer and viewer
pages, the join page, the room's clock screen; `?at=VERSION`, `?hand=N` or `?time=UTC` on a
table's page shows the table as it stood then, read-only (asof.html; the live page is
table.html)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, RedirectResponse

from handlog.recorder.routes.deps import Stream

STATIC = Path(__file__).resolve().parent.parent / "static"
router = APIRouter(include_in_schema=False)


def page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


def table_page(request: Request) -> FileResponse:
    moment = {"at", "hand", "time"} & set(request.query_params)
    return page("asof.html" if moment else "table.html")


@router.get("/")
def home() -> RedirectResponse:
    return RedirectResponse("/floor")


@router.get("/floor")
def floor_page() -> FileResponse:
    return page("floor.html")


@router.get("/dealer/{stream}")
def dealer_page(stream: Stream, request: Request) -> FileResponse:
    return table_page(request)


@router.get("/view/{stream}")
def viewer_page(stream: Stream, request: Request) -> FileResponse:
    return table_page(request)


@router.get("/view")
def viewer_index() -> FileResponse:
    return page("floor.html")


@router.get("/clock")
def clock_page() -> FileResponse:
    """The room's clock screen, for a TV: no sign-in, no controls (`?t=TOURNAMENT`)."""
    return page("clock.html")


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/join")
def join_page() -> FileResponse:
    return page("join.html")
