"""The signed log: the room's public key, the latest checkpoint, and a checkpoint taken now."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from handlog.recorder.api_spec import LOG_KEY, LOG_WITNESSES, READ_CHECKPOINT, TAKE_CHECKPOINT
from handlog.recorder.auth import AuthError
from handlog.recorder.floor_cards import checkpoint_view
from handlog.recorder.routes.deps import CHANGES, SIGNED_IN, Director, Reader, ServicesDep
from handlog.recorder.routes.models import CheckpointAnswer, LogKey, WitnessesAnswer
from handlog.schema.checkpoint import StoredCheckpoint, latest_checkpoint, record_checkpoint

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
    # Through the server's checkpointer when it has one, so the witnesses are sent it too.
    signed = services.recorder.checkpoint("on_demand") if services.recorder.checkpoint else None
    taken = signed if isinstance(signed, StoredCheckpoint) else record_checkpoint(
        services.store, services.signing_key, "on_demand")
    return {"checkpoint": checkpoint_view(taken)}


@router.get("/api/log/witnesses", responses=LOG_WITNESSES, response_model=WitnessesAnswer,
            dependencies=SIGNED_IN)
def witnesses(session: Reader, services: ServicesDep) -> dict[str, Any]:
    """The witnesses each checkpoint is posted to (`serve --witness`): the size each last
    cosigned, a checkpoint still pending, and why the last attempt failed (a witness down)."""
    return {"witnesses": [
        {"witness": c.status.witness, "cosigned_size": c.status.cosigned_size,
         "pending_size": c.status.pending_size, "error": c.status.error}
        for c in services.witnesses]}
