"""The signed log: the room's public key, the latest checkpoint, and a checkpoint taken now."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam

from handlog.recorder.api_spec import (
    LOG_KEY,
    LOG_WITNESSES,
    READ_CHECKPOINT,
    READ_SIGN_OFFS,
    SIGN_OFF,
    TAKE_CHECKPOINT,
)
from handlog.recorder.app_services import Services
from handlog.recorder.auth import AuthError
from handlog.recorder.floor_cards import checkpoint_view, sign_off_view, witness_views
from handlog.recorder.routes.deps import (
    CHANGES,
    SIGNED_IN,
    STREAM_PATTERN,
    Director,
    Reader,
    ServicesDep,
)
from handlog.recorder.routes.models import (
    CheckpointAnswer,
    LogKey,
    SignOffAnswer,
    SignOffsAnswer,
    WitnessesAnswer,
)
from handlog.recorder.tournament_service import tournament_stream
from handlog.schema.checkpoint import (
    CheckpointError,
    StoredCheckpoint,
    latest_checkpoint,
    load_or_create_signing_key,
    record_checkpoint,
)
from handlog.schema.sign_off import sign_off_results, stored_sign_offs

router = APIRouter(tags=["log"])


@router.get("/api/log/key", responses=LOG_KEY, response_model=LogKey, dependencies=SIGNED_IN)
def log_key(session: Reader, services: ServicesDep) -> dict[str, Any]:
    """The room's public key (C2SP verifier key) that checks every checkpoint's signature
    and the log's name (both null when this server signs no checkpoints)."""
    key = services.signing_key
    if key is None:
        return {"key": None, "origin": None}
    return {"key": key.verifier.text(), "origin": key.name}


@router.get("/api/log/checkpoint", responses=READ_CHECKPOINT, response_model=CheckpointAnswer,
            dependencies=SIGNED_IN)
def read_checkpoint(session: Reader, services: ServicesDep) -> dict[str, Any]:
    """The latest signed checkpoint (null when none was taken yet)."""
    return {"checkpoint": checkpoint_view(latest_checkpoint(services.store))}


@router.post("/api/log/checkpoint", responses=TAKE_CHECKPOINT, response_model=CheckpointAnswer,
             dependencies=CHANGES)
def take_checkpoint(session: Director, services: ServicesDep) -> dict[str, Any]:
    """Sign the log's size and root now (the director's); answers with the checkpoint."""
    if services.signing_key is None:
        raise AuthError(404, "this server signs no checkpoints (no signing key)")
    return {"checkpoint": checkpoint_view(_checkpoint_now(services, "on_demand"))}


def _checkpoint_now(services: Services, reason: str) -> StoredCheckpoint:
    """A checkpoint signed now, through the server's checkpointer when it has one (so the
    witnesses are sent it too)."""
    assert services.signing_key is not None
    signer = services.recorder.signer
    return signer.sign(reason) if signer is not None else record_checkpoint(
        services.store, services.signing_key, reason)


@router.post("/api/tournaments/{tournament}/sign-off", responses=SIGN_OFF,
             response_model=SignOffAnswer, dependencies=CHANGES)
def sign_off(tournament: Annotated[str, PathParam(pattern=STREAM_PATTERN)],
             session: Director, services: ServicesDep) -> dict[str, Any]:
    """The director signs off the tournament's results (places, prizes, bounties, the high
    hand, deals, rulings and corrections) as `handlog tournament sign-off` does: on a
    checkpoint signed now, with the director's own key (`serve --director-key`), kept in the
    database. 404 when this server signs nothing or has no such tournament."""
    if services.signing_key is None or services.director_key_file is None:
        raise AuthError(404, "this server signs no sign-offs (no signing key or director's key)")
    try:
        key, _made = load_or_create_signing_key(services.director_key_file,
                                                f"director/{services.signing_key.name}")
        signed, taken = sign_off_results(services.store, key, tournament_stream(tournament),
                                         session.name or "director",
                                         lambda reason: _checkpoint_now(services, reason))
    except CheckpointError as exc:
        raise AuthError(404, str(exc)) from None
    return {"sign_off": sign_off_view(taken.number, signed),
            "director_key": key.verifier.text()}


@router.get("/api/log/sign-offs", responses=READ_SIGN_OFFS, response_model=SignOffsAnswer,
            dependencies=SIGNED_IN)
def sign_offs(session: Reader, services: ServicesDep) -> dict[str, Any]:
    """Every sign-off of results kept in the database, oldest first."""
    return {"sign_offs": [sign_off_view(n, s) for n, s in stored_sign_offs(services.store)]}


@router.get("/api/log/witnesses", responses=LOG_WITNESSES, response_model=WitnessesAnswer,
            dependencies=SIGNED_IN)
def witnesses(session: Reader, services: ServicesDep) -> dict[str, Any]:
    """The witnesses each checkpoint is posted to (`serve --witness`): the size each last
    cosigned, a checkpoint still pending, and why the last attempt failed (a witness down)."""
    return {"witnesses": witness_views(services.witnesses)}
