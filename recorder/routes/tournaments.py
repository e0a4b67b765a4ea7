"""The tournaments: a new one from a structure file, and the director's tournament commands
(registration, seat draw, levels, moves...), answered with what they changed."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

from handlog.engine.errors import RuleViolation
from handlog.recorder.api_spec import (
    DEAL_PREVIEW,
    NEW_TOURNAMENT,
    TOURNAMENT_COMMAND,
    json_body,
)
from handlog.recorder.app_services import Services
from handlog.recorder.auth import Session
from handlog.recorder.routes.answers import refusal
from handlog.recorder.routes.deps import (
    CHANGES,
    SIGNED_IN,
    STREAM_PATTERN,
    Director,
    ServicesDep,
    body_after_sign_in,
)
from handlog.recorder.routes.models import (
    DealPreviewView,
    FloorView,
    NewTournamentRequest,
    TournamentChanges,
    TournamentCommandRequest,
)
from handlog.recorder.service import Actor
from handlog.recorder.structure import StructureError, loads_structure
from handlog.recorder.tournament_service import tournament_stream
from handlog.schema.errors import ConcurrencyConflict, DuplicateEventConflict

router = APIRouter(tags=["floor"])
CARDS_IN_ANSWER = 50
"""Table cards a tournament command's answer carries at most (else their names only)."""


@router.post("/api/tournaments", responses=NEW_TOURNAMENT, response_model=FloorView,
             dependencies=CHANGES, openapi_extra=json_body(NewTournamentRequest))
def new_tournament(
    session: Director,
    body: Annotated[NewTournamentRequest, Depends(body_after_sign_in(NewTournamentRequest))],
    services: ServicesDep,
) -> JSONResponse:
    """Create a tournament from a structure file's text; answers with the floor view.
    422 `{rule: "structure", problems: [{field, message}]}` names every wrong field."""
    try:
        structure = loads_structure(body.structure, body.file)
    except StructureError as error:
        return refusal(422, "structure", str(error), ["fix the file and send it again"],
                       problems=[{"field": f, "message": m} for f, m in error.problems])
    actor = Actor(session.name, session.role, session.device)
    try:
        services.desk.tournaments.create(body.id, structure, actor, event_id=body.event_id)
    except RuleViolation as violation:
        return refusal(409, violation.rule, violation.message,
                       ["choose another id"] if "already exists" in violation.message
                       else list(violation.legal))
    return JSONResponse(services.cards.floor(session))


@router.post("/api/tournaments/{tournament}/commands", responses=TOURNAMENT_COMMAND,
             response_model=TournamentChanges, dependencies=CHANGES,
             openapi_extra=json_body(TournamentCommandRequest))
def tournament_command(
    tournament: Annotated[str, PathParam(pattern=STREAM_PATTERN)],
    session: Director,
    body: Annotated[TournamentCommandRequest,
                    Depends(body_after_sign_in(TournamentCommandRequest))],
    services: ServicesDep,
) -> JSONResponse:
    """The director's tournament commands; answers with the floor view and `retried`
    (true: a retry of a command already recorded under this event id, nothing new
    recorded). 409 `{rule: "stale-version", stream, expected, actual}` when the tournament
    (or a table the command records at) moved on; 409 `{rule: "event-id"}` when the event
    id was used for a different command."""
    desk = services.desk
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
        return refusal(409, "stale-version", message, legal, stream=conflict.stream_id,
                       expected=conflict.expected, actual=conflict.actual, resend=resend,
                       floor=services.cards.floor(session))
    except DuplicateEventConflict as duplicate:
        return refusal(409, "event-id", str(duplicate), ["make a new event id"],
                       floor=services.cards.floor(session))
    return JSONResponse(changes(services, session, tournament, tables_before, base)
                        | {"retried": retried})


@router.get("/api/tournaments/{tournament}/deal", responses=DEAL_PREVIEW,
            response_model=DealPreviewView, dependencies=SIGNED_IN)
def deal_preview(
    tournament: Annotated[str, PathParam(pattern=STREAM_PATTERN)],
    _session: Director,
    services: ServicesDep,
    kept: Annotated[int, Query(ge=0, le=10**12, description="cents left to play for")] = 0,
) -> JSONResponse:
    """Every deal method's amounts for the players left at the final table now (ICM, chip
    chop, chip chop with the last prize guaranteed), `kept` cents left to play for: the
    director reads them out before each consent. 409 with the rule when no deal can be made
    now (the house rules refuse deals, not yet the final table, a hand on)."""
    desk = services.desk
    try:
        preview = desk.tournaments.deal_preview(tournament, kept)
        state = desk.tournaments.state(tournament)
    except RuleViolation as violation:
        return refusal(409, violation.rule, violation.message, list(violation.legal))
    names = {e.player: e.name for e in state.entrants}
    return JSONResponse({
        "players": [{"player": p, "name": names.get(p, p), "stack": stack}
                    for p, stack in zip(preview.players, preview.stacks, strict=True)],
        "prizes": list(preview.prizes), "kept": preview.kept,
        "currency": state.structure.money.currency,
        "offers": [{"method": o.method, "amounts": list(o.amounts), "refused": o.refused,
                    "rule": o.rule} for o in preview.offers]})


def changes(services: Services, session: Session, tournament: str,
            tables_before: dict[str, int], base: int) -> dict[str, Any]:
    """What a tournament command changed, not the whole floor: the tournament view's
    fields that differ from the view at version `base` and its player lists row by row
    (FloorDesk.delta: the floor page applies them to that view, or reads the floor when
    it holds another), and the cards of the tables the command recorded at; past
    CARDS_IN_ANSWER of them (a seat draw over 1,000 tables) only their names
    (`tables_changed`: the page reads the floor once)."""
    desk = services.desk
    fields = desk.delta(tournament, base, services.clock()) or {
        "id": tournament, "version": 0, "base": 0}
    tables_after = desk.table_versions(tournament)
    changed = sorted(s for s in set(tables_before) | set(tables_after)
                     if tables_before.get(s) != tables_after.get(s))
    result: dict[str, Any] = {"tournament": fields}
    if len(changed) > CARDS_IN_ANSWER:
        result |= {"tables": [], "tables_changed": changed}
        return result
    cards = [services.cards.summary(s, notable=False)[0] for s in changed]
    result["tables"] = cards
    if session.role == "director":
        result["dealer_pins"] = {c["stream"]: services.auth.table_pin(c["stream"])
                                 for c in cards}
    return result
