"""The hand histories and the auditor's report over HTTP, for a league site or an auditor's
script: what `handlog export` and `handlog report` write, read from the live log.

Who sees what is what the pages give: every signed-in session reads the hands as the table saw
them (cards shown); every recorded hole card (`cards=all`) or one player's own (`hero=`) only
for a director, or for the dealer of the one table asked for. The report, with every
correction, ruling and penalty, is the director's.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from handlog.recorder.api_spec import answers
from handlog.recorder.auth import AuthError
from handlog.recorder.routes.deps import SIGNED_IN, Director, Reader, ServicesDep
from handlog.recorder.routes.hands import sees_hole_cards
from handlog.replay.export_hands import ExportOptions, stream_hands, tournament_id
from handlog.replay.export_ohh import write_ohh
from handlog.replay.export_phh import write_phh
from handlog.replay.export_pokerstars import write_pokerstars
from handlog.replay.paper import NoPaper, paper_html, paper_pdf, read_paper, style_hash
from handlog.replay.report_stream import NoSuchTournament, write_report

router = APIRouter(tags=["exports"])

ExportFormat = Literal["pokerstars", "ohh", "phh"]
ReportFormat = Literal["json", "csv", "html"]
_WRITERS = {"pokerstars": write_pokerstars, "ohh": write_ohh, "phh": write_phh}
# What each file is: PokerStars text and OHH objects (separated by a blank line, not one JSON
# document) as text; a PHH .phhs file is TOML.
_MEDIA = {"pokerstars": "text/plain; charset=utf-8", "ohh": "text/plain; charset=utf-8",
          "phh": "application/toml; charset=utf-8"}
_SUFFIX = {"pokerstars": "txt", "ohh": "ohh", "phh": "phhs"}
_REPORT_MEDIA = {"json": "application/json", "csv": "text/csv; charset=utf-8",
                 "html": "text/html; charset=utf-8"}
# The HTML report is one page up to this many hands (a bigger one is the CLI's paged folder).
_ONE_PAGE = 1_000_000

_COUNT = {"schema": {"type": "string", "pattern": "^[0-9]+$"}}
EXPORT_ANSWERS: dict[int | str, dict[str, object]] = {
    200: {"description": "the hand histories, as `handlog export` writes them",
          "content": {media.split(";")[0]: {"schema": {"type": "string"}}
                      for media in set(_MEDIA.values())},
          "headers": {"X-Handlog-Hands": {"description": "hands written", **_COUNT},
                      "X-Handlog-Left-Out": {"description": "hands left out (misdealt, "
                                             "voided, unfinished)", **_COUNT}}},
    **answers(400, 401, 403, 404, 422)}
REPORT_ANSWERS: dict[int | str, dict[str, object]] = {
    200: {"description": "the auditor's report, as `handlog report` writes it",
          "content": {media.split(";")[0]: {"schema": {"type": "object"} if "json" in media
                                            else {"type": "string"}}
                      for media in _REPORT_MEDIA.values()},
          "headers": {"X-Handlog-Clean": {"description": "true when the report has no "
                                          "finding", "schema": {"enum": ["true", "false"]}}}},
    **answers(400, 401, 403, 404, 422)}


@router.get("/api/export", dependencies=SIGNED_IN, response_class=Response,
            responses=EXPORT_ANSWERS)
def export(session: Reader, services: ServicesDep,
           format: Annotated[ExportFormat, Query(description="pokerstars, ohh or phh")],
           tournament: Annotated[str | None, Query(max_length=200)] = None,
           table: Annotated[str | None, Query(max_length=200)] = None,
           cards: Annotated[Literal["shown", "all"], Query()] = "shown",
           hero: Annotated[str, Query(max_length=200)] = "") -> Response:
    """The recorded hands of the log, a tournament or a table as standard hand histories
    (complete hands only, as they count after corrections). `cards=all` and `hero` are for a
    director or the dealer of the table asked for. Not for a viewer: an export writes a card a
    player exposed at the table, which the viewer's live pages do not show (a viewer follows
    the room through the feed)."""
    if session.role == "viewer":
        raise AuthError(403, "hand histories are for the director and the dealers: a viewer "
                        "follows the room on the pages and the feed (GET /api/feed)")
    if (cards == "all" or hero) and not (
            session.role == "director" or (table and sees_hole_cards(session, table))):
        raise AuthError(403, "unshown hole cards are for a director or that table's dealer: "
                        "ask without cards=all and hero")
    store = services.store
    hands = stream_hands(store, table, tournament)
    if table and not hands.tables:
        raise StarletteHTTPException(404, f"no table stream {table!r} in the log")
    if tournament and not hands.tables and tournament_id(tournament) not in hands.tournaments:
        raise StarletteHTTPException(404, f"no tournament {tournament!r} in the log")
    out = io.StringIO()
    _text, count, notes = _WRITERS[format](hands, ExportOptions(hero, cards == "all"), out)
    name = f"handlog-{table or tournament or 'log'}.{_SUFFIX[format]}"
    return Response(out.getvalue(), media_type=_MEDIA[format], headers={
        "Content-Disposition": f'inline; filename="{_safe(name)}"',
        "X-Handlog-Hands": str(count), "X-Handlog-Left-Out": str(len(notes))})


@router.get("/api/report", dependencies=SIGNED_IN, response_class=Response,
            responses=REPORT_ANSWERS)
def report(session: Director, services: ServicesDep,
           format: Annotated[ReportFormat, Query(description="json, csv or html")] = "json",
           tournament: Annotated[str | None, Query(max_length=200)] = None,
           part: Annotated[Literal["hands", "corrections"], Query(
               description="csv only: one row per hand and pot, or the findings, "
                           "corrections, rulings and penalties")] = "hands",
           all_cards: bool = False) -> Response:
    """The auditor's report of the log or one tournament (the director's): JSON, CSV or one
    HTML page."""
    with tempfile.TemporaryDirectory(prefix="handlog-report-") as folder:
        target = Path(folder) / f"report.{format}"
        try:
            audit, written = write_report(services.store, format, target, tournament,
                                          all_cards=all_cards, paged_above=_ONE_PAGE)
        except NoSuchTournament:
            raise StarletteHTTPException(404, f"no tournament {tournament!r} in the log") \
                from None
        chosen = written[-1] if format == "csv" and part == "corrections" else written[0]
        body = chosen.read_bytes()
    return Response(body, media_type=_REPORT_MEDIA[format],
                    headers={"X-Handlog-Clean": "true" if audit.clean else "false"})


PaperKind = Literal["seat-cards", "receipts", "vouchers", "bag-sheet"]
PAPER_ANSWERS: dict[int | str, dict[str, object]] = {
    200: {"description": "the paper: a print view (HTML with a print stylesheet) or a PDF",
          "content": {"text/html": {"schema": {"type": "string"}},
                      "application/pdf": {"schema": {"type": "string", "format": "binary"}}}},
    **answers(400, 401, 403, 404, 422)}


@router.get("/api/paper/{kind}", dependencies=SIGNED_IN, response_class=Response,
            responses=PAPER_ANSWERS)
def paper(session: Director, services: ServicesDep, kind: PaperKind,
          tournament: Annotated[str | None, Query(max_length=200)] = None,
          player: Annotated[list[str] | None, Query(max_length=200)] = None,
          format: Annotated[Literal["html", "pdf"], Query()] = "html") -> Response:
    """The room's paper of a tournament (the director's): seat cards, payout receipts,
    chip-count vouchers or the day's bag sheet, as a print view or as the PDF `handlog print`
    writes."""
    try:
        made = read_paper(services.store, tournament, kind, player or ())
    except NoPaper as why:
        raise StarletteHTTPException(404, str(why)) from None
    if format == "pdf":
        return Response(paper_pdf(made), media_type="application/pdf", headers={
            "Content-Disposition": f'inline; filename="{_safe(made.tournament)}-{kind}.pdf"'})
    return Response(paper_html(made), media_type="text/html; charset=utf-8", headers={
        "Content-Security-Policy": f"default-src 'none'; style-src {style_hash()}"})


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name)
