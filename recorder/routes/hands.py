"""The hands resource: find hands, read one step by step (the replayer page's data), and the
replayer page itself.

Who may see which hole cards: a director sees what the dealer recorded, a table's own dealer
that table's; everyone else only the cards shown at the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from handlog.recorder.api_spec import answers, json_body
from handlog.recorder.auth import AuthError, Session
from handlog.recorder.hand_views import hand_view, registered_names
from handlog.recorder.routes.deps import (
    CHANGES,
    SIGNED_IN,
    STREAM_PATTERN,
    Reader,
    ServicesDep,
    body_after_sign_in,
)
from handlog.recorder.whatif_views import make_change, whatif_view
from handlog.replay.hands import HandFilter, HandRecord, hand_labels, table_hands
from handlog.schema.store import EventStore

STATIC = Path(__file__).resolve().parent.parent / "static"


class HandSummary(BaseModel):
    stream: str
    table: str
    tournament: str
    hand: int
    label: str = Field(description="The hand's own name at its table: its number, or for a "
                       "misdealt or voided hand \"N-misdealt\" / \"N-void\" (its redeal "
                       "keeps N)")
    level: int
    profile: str
    first_version: int
    last_version: int
    started_at: str
    outcome: str
    players: list[dict[str, Any]]
    all_in: list[str]
    showdown: bool
    corrections: list[dict[str, Any]]


class HandList(BaseModel):
    hands: list[HandSummary]
    count: int


class WhatIfRequest(BaseModel):
    """Another ruling at the entry recorded at `at`: one of `award` (the winners' names per
    pot, main pot first), `amount` (the bet or raise was to this) or `drop` (it did not
    happen)."""

    at: int = Field(ge=1)
    award: list[list[str]] | None = None
    amount: int | None = Field(default=None, ge=1, le=10**12)
    drop: bool = False


class WhatIfAnswer(BaseModel):
    stream: str
    change: dict[str, Any]
    complete: bool
    all_fit: bool = Field(description="followed to the end with every later entry decided "
                          "as recorded")
    stopped_at: int | None
    stop_rule: str
    stop_message: str
    unfit: list[dict[str, Any]] = Field(description="later entries the engine decides "
                                        "otherwise than recorded (version, hand, recorded and "
                                        "what-if in words)")
    verdict: str = Field(description="whether every later entry fits, in words")
    players: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    places: list[dict[str, Any]]
    written: bool


class HandDetail(HandSummary):
    button_seat: int
    small_blind_seat: int
    big_blind_seat: int
    blinds: list[int]
    antes: list[int]
    board: list[str]
    steps: list[dict[str, Any]]
    public: bool


def sees_hole_cards(session: Session, stream: str) -> bool:
    """A director, or the dealer of this very table."""
    return session.role == "director" or (session.role == "dealer" and session.table == stream)


router = APIRouter(tags=["hands"])


def names(store: EventStore) -> dict[str, str]:
    found: dict[str, str] = {}
    for head in store.streams():
        if head.kind == "tournament":
            found |= registered_names(store.read(head.stream_id))
    return found


def hands_of(store: EventStore, stream: str) -> list[HandRecord]:
    head = store.head(stream)
    if head is None or head.kind != "table":
        raise StarletteHTTPException(404, f"no table {stream}")
    return table_hands(stream, store.read(stream))


@router.get("/api/hands", response_model=HandList, responses=answers(400, 401),
            dependencies=SIGNED_IN)
def find(session: Reader, services: ServicesDep, player: str | None = None,
         table: str | None = None,
         level: Annotated[int | None, Query(ge=0)] = None,
         hand: Annotated[int | None, Query(ge=1)] = None, all_in: bool = False,
         showdown: bool = False, rulings: bool = False,
         corrections: bool = False) -> dict[str, Any]:
    """Hands by player, table, level, number, all-ins, showdowns, rulings, corrections."""
    store = services.store
    wanted = HandFilter(player=player, table=table, level=level, number=hand,
                        all_in=all_in, showdown=showdown, rulings=rulings,
                        corrections=corrections)
    display = names(store)
    found = []
    for head in store.streams():
        if head.kind != "table" or (table and table != head.stream_id and
                                    not head.stream_id.endswith(table)):
            continue
        records = table_hands(head.stream_id, store.read(head.stream_id))
        for record, label in zip(records, hand_labels(records), strict=True):
            if wanted.keeps(record, display):
                found.append(hand_view(record, display, public=True, with_steps=False,
                                       label=label))
    return {"hands": found, "count": len(found)}


HAND_LABEL = r"^[1-9][0-9]{0,8}(-(misdealt|void)(-[0-9]{1,4})?)?$"


@router.get("/api/tables/{stream}/hands/{number}", response_model=HandDetail,
            responses=answers(400, 401, 404), dependencies=SIGNED_IN)
def read_hand(stream: Annotated[str, PathParam(pattern=STREAM_PATTERN)],
              number: Annotated[str, PathParam(pattern=HAND_LABEL, description=(
                  "The hand's number (the hand played under it), or its label: "
                  "\"2-misdealt\" for the misdealt hand whose redeal is 2"))],
              session: Reader, services: ServicesDep) -> dict[str, Any]:
    """One hand step by step: after each action the seats, chips in front, pots with who
    is eligible, the board, and the rule the engine applied; corrections and rulings."""
    store = services.store
    records = hands_of(store, stream)
    labels = hand_labels(records)
    matches = [(h, label) for h, label in zip(records, labels, strict=True)
               if label == number]
    if not matches and number.isdigit():  # the number alone: the last hand dealt under it
        matches = [(h, label) for h, label in zip(records, labels, strict=True)
                   if h.number == int(number)]
    if not matches:
        raise StarletteHTTPException(404, f"{stream} has no hand #{number}")
    public = not sees_hole_cards(session, stream)
    record, label = matches[-1]
    view = hand_view(record, names(store), public=public, label=label)
    view["public"] = public
    return view


@router.get("/api/tables/{stream}/hands", response_model=HandList,
            responses=answers(400, 401, 404), dependencies=SIGNED_IN)
def table_hand_list(stream: Annotated[str, PathParam(pattern=STREAM_PATTERN)],
                    session: Reader, services: ServicesDep) -> dict[str, Any]:
    """Every hand of one table (the replayer's hand list)."""
    store = services.store
    display = names(store)
    records = hands_of(store, stream)
    found = [hand_view(h, display, public=True, with_steps=False, label=label)
             for h, label in zip(records, hand_labels(records), strict=True)]
    return {"hands": found, "count": len(found)}


def ruling_director(session: Reader) -> Session:
    if session.role != "director":
        raise AuthError(403, "only the tournament director may try another ruling")
    return session


@router.post("/api/tables/{stream}/whatif", response_model=WhatIfAnswer,
             responses=answers(400, 401, 403, 404, 413, 422), dependencies=CHANGES,
             openapi_extra=json_body(WhatIfRequest))
def try_ruling(
    stream: Annotated[str, PathParam(pattern=STREAM_PATTERN)],
    session: Annotated[Session, Depends(ruling_director)],
    body: Annotated[WhatIfRequest, Depends(body_after_sign_in(WhatIfRequest))],
    services: ServicesDep,
) -> dict[str, Any]:
    """What would have followed another ruling: stacks, eliminations, places and prizes
    beside what was recorded (422: the ruling does not fit, rule named). Nothing is written
    to the log. Director only."""
    store = services.store
    if store.head(stream) is None:
        raise StarletteHTTPException(404, f"no table {stream}")
    change, display = make_change(store, stream, body.at, award=body.award,
                                  amount=body.amount, drop=body.drop)
    return whatif_view(store, stream, change, display)


@router.get("/replayer", include_in_schema=False)
def replayer_page() -> FileResponse:
    return FileResponse(STATIC / "replayer.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache"})

