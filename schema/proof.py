"""Inclusion proofs: one event, the audit path from its leaf to the root of a signed checkpoint,
checkable offline with nothing but the proof and the room's public key.

Proof file (canonical JSON, one object):

    {"format": "handlog-inclusion-proof", "format_version": 1,
     "event": {"stream_id", "version", "event_id", "type", "schema_version", "payload",
               "recorded_at", "actor", "device", "prev_hash", "hash"},   # as hashed (text)
     "leaf_index": i, "tree_size": n,
     "inclusion_path": ["<hex>", ...],                                   # RFC 9162 PATH(i, D[n])
     "checkpoint": "<the signed checkpoint text>"}

Checking it: recompute the event's chain hash from its fields (schema/hashing.py) and its leaf
(schema/hashing.py too), verify the checkpoint's signature, and run RFC 9162 2.1.3.2 with the path
against the checkpoint's root and size.

Consistency proofs: that the log signed in a later checkpoint only grew from an earlier one.

    {"format": "handlog-consistency-proof", "format_version": 1,
     "first_size": m, "second_size": n,
     "consistency_path": ["<hex>", ...],                                 # RFC 9162 PROOF(m, D[n])
     "first_checkpoint": "<signed text of size m>", "checkpoint": "<signed text of size n>"}

checked with RFC 9162 2.1.4.2 and both signatures.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from handlog.schema.checkpoint import (
    CheckpointError,
    SigningKey,
    VerifierKey,
    parse_checkpoint,
    record_checkpoint,
)
from handlog.schema.codec import canonical_json
from handlog.schema.hashing import (
    chain_hash,
    event_id_text,
    event_leaf,
    parse_recorded_at,
    recorded_at_text,
)
from handlog.schema.merkle import StoredTree, read_head
from handlog.schema.store import EventStore
from handlog.schema.tables import checkpoints_table, events_table, merkle_leaves_table
from handlog.schema.tlog import (
    tree_consistency_proof,
    tree_inclusion_path,
    tree_root,
    verify_consistency,
    verify_inclusion,
)

FORMAT = "handlog-inclusion-proof"
CONSISTENCY_FORMAT = "handlog-consistency-proof"
FORMAT_VERSION = 1
_EVENT_FIELDS = ("stream_id", "version", "event_id", "type", "schema_version", "payload",
                 "recorded_at", "actor", "device", "prev_hash", "hash")


class ProofError(CheckpointError):
    """A proof that cannot be made, read or does not hold."""


def make_proof(store: EventStore, event_id: uuid.UUID, key: SigningKey | None = None) -> str:
    """The inclusion proof of one event against the latest checkpoint that covers it (with
    `key`, a new checkpoint is signed when none does yet)."""
    with store.connection() as connection:
        leaf = connection.execute(
            sa.select(merkle_leaves_table.c.leaf_index)
            .where(merkle_leaves_table.c.event_id == event_id)
        ).scalar_one_or_none()
        if leaf is None:
            raise ProofError(f"no event {event_id} in the Merkle log")
        checkpoint = _covering(connection, int(leaf))
    if checkpoint is None:
        if key is None:
            raise ProofError(
                f"no checkpoint covers event {event_id} yet: take one with `handlog log "
                "checkpoint` and prove again")
        record_checkpoint(store, key, "on_demand")
    with store.connection() as connection:
        checkpoint = _covering(connection, int(leaf))
        assert checkpoint is not None
        size, text = checkpoint
        path = tree_inclusion_path(StoredTree(connection), int(leaf), size)
        row = connection.execute(
            sa.select(events_table).where(events_table.c.event_id == event_id)
        ).one()
    event = {
        "stream_id": row.stream_id,
        "version": row.version,
        "event_id": event_id_text(row.event_id),
        "type": row.type,
        "schema_version": row.schema_version,
        "payload": row.payload,
        "recorded_at": recorded_at_text(_utc(row.recorded_at)),
        "actor": row.actor,
        "device": row.device,
        "prev_hash": row.prev_hash,
        "hash": row.hash,
    }
    return canonical_json({
        "format": FORMAT, "format_version": FORMAT_VERSION, "event": event,
        "leaf_index": int(leaf), "tree_size": size,
        "inclusion_path": [node.hex() for node in path], "checkpoint": text,
    }) + "\n"


def _covering(connection: Any, leaf_index: int) -> tuple[int, str] | None:
    row = connection.execute(
        sa.select(checkpoints_table.c.tree_size, checkpoints_table.c.note)
        .where(checkpoints_table.c.tree_size > leaf_index)
        .order_by(checkpoints_table.c.checkpoint_id.desc()).limit(1)
    ).one_or_none()
    return (int(row.tree_size), row.note) if row is not None else None


def _utc(moment: Any) -> Any:
    from datetime import UTC

    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclass(frozen=True)
class ProvenEvent:
    stream_id: str
    version: int
    event_id: str
    leaf_index: int
    tree_size: int
    origin: str


def make_consistency_proof(store: EventStore, first_text: str, key: SigningKey) -> str:
    """That the log, signed now by `key`, extends the checkpoint `first_text` (which must be
    consistent with it: ProofError otherwise)."""
    first = parse_checkpoint(first_text, key.verifier)
    now = record_checkpoint(store, key, "on_demand").checkpoint
    if first.size > now.size:
        raise ProofError(f"the log has {now.size} events, fewer than the {first.size} the "
                         "checkpoint signed")
    with store.connection() as connection:
        tree = StoredTree(connection)
        if read_head(connection).size < now.size:
            raise ProofError("the log changed while proving: prove again")
        if first.size and tree_root(tree, first.size) != first.root:
            raise ProofError(f"the log is not an extension of the checkpoint of size "
                             f"{first.size}: run `handlog log verify --checkpoint`")
        path = tree_consistency_proof(tree, first.size, now.size) if first.size else []
    return canonical_json({
        "format": CONSISTENCY_FORMAT, "format_version": FORMAT_VERSION,
        "first_size": first.size, "second_size": now.size,
        "consistency_path": [node.hex() for node in path],
        "first_checkpoint": first.text, "checkpoint": now.text,
    }) + "\n"


@dataclass(frozen=True)
class ProvenExtension:
    first_size: int
    second_size: int
    origin: str


def check_consistency_proof(proof: dict[str, Any], key: VerifierKey) -> ProvenExtension:
    first = parse_checkpoint(str(proof.get("first_checkpoint", "")), key)
    second = parse_checkpoint(str(proof.get("checkpoint", "")), key)
    path = proof.get("consistency_path")
    if not isinstance(path, list):
        raise ProofError("consistency_path must be a list of hex hashes")
    if (proof.get("first_size"), proof.get("second_size")) != (first.size, second.size):
        raise ProofError("the proof's sizes are not those of its checkpoints")
    try:
        nodes = [bytes.fromhex(node) for node in path]
    except (ValueError, TypeError):
        raise ProofError("the consistency path holds something that is not a hex hash") from None
    if not verify_consistency(first.size, second.size, first.root, second.root, nodes):
        raise ProofError(f"the consistency proof does not hold: the log of {second.size} events "
                         f"is not shown to extend the one of {first.size}")
    return ProvenExtension(first.size, second.size, second.origin)


def check_proof(text: str, key: VerifierKey) -> ProvenEvent | ProvenExtension:
    """Check a proof file's text offline; ProofError says what does not hold."""
    try:
        proof = json.loads(text)
    except ValueError:
        raise ProofError("not a handlog proof (not JSON)") from None
    if isinstance(proof, dict) and proof.get("format") == CONSISTENCY_FORMAT:
        if proof.get("format_version") != FORMAT_VERSION:
            raise ProofError(f"consistency proof format version {proof.get('format_version')!r}"
                             f" is not {FORMAT_VERSION}")
        return check_consistency_proof(proof, key)
    if not isinstance(proof, dict) or proof.get("format") != FORMAT:
        raise ProofError("not a handlog inclusion or consistency proof")
    if proof.get("format_version") != FORMAT_VERSION:
        raise ProofError(f"inclusion proof format version {proof.get('format_version')!r} is "
                         f"not {FORMAT_VERSION}")
    event = proof.get("event")
    if not isinstance(event, dict) or sorted(event) != sorted(_EVENT_FIELDS):
        raise ProofError(f"the proof's event must have exactly {', '.join(_EVENT_FIELDS)}")
    try:
        recomputed = chain_hash(
            event["prev_hash"], event["stream_id"], event["version"],
            event_id=uuid.UUID(event["event_id"]), event_type=event["type"],
            schema_version=event["schema_version"], payload_json=event["payload"],
            recorded_at=parse_recorded_at(event["recorded_at"]), actor=event["actor"],
            device=event["device"],
        )
    except (ValueError, TypeError, AttributeError) as exc:
        raise ProofError(f"the proof's event cannot be hashed: {exc}") from None
    if recomputed != event["hash"]:
        raise ProofError("the event's hash does not match its fields: the event in the proof "
                         "was altered")
    checkpoint = parse_checkpoint(str(proof.get("checkpoint", "")), key)
    index, size, path = proof.get("leaf_index"), proof.get("tree_size"), proof.get(
        "inclusion_path")
    if type(index) is not int or type(size) is not int or not isinstance(path, list):
        raise ProofError("leaf_index and tree_size must be integers, inclusion_path a list")
    if size != checkpoint.size:
        raise ProofError(f"the proof is for a tree of {size} events, the checkpoint signs "
                         f"{checkpoint.size}")
    try:
        nodes = [bytes.fromhex(node) for node in path]
    except (ValueError, TypeError):
        raise ProofError("the inclusion path holds something that is not a hex hash") from None
    leaf = event_leaf(event["stream_id"], event["version"], recomputed)
    if not verify_inclusion(index, size, leaf, nodes, checkpoint.root):
        raise ProofError(
            f"the inclusion proof does not hold: this event is not leaf {index} of the log "
            f"signed at size {size}")
    return ProvenEvent(event["stream_id"], event["version"], event["event_id"], index, size,
                       checkpoint.origin)


def consistency_path(store: EventStore, first: int, second: int) -> list[bytes]:
    """The RFC 9162 consistency proof from size `first` to size `second` of the stored log
    (what a witness asks with a checkpoint of size `second`); ProofError if it cannot be."""
    if not 0 <= first <= second:
        raise ProofError(f"no consistency proof from size {first} to size {second}")
    with store.connection() as connection:
        if read_head(connection).size < second:
            raise ProofError(f"the log has fewer than {second} events: it was rolled back or "
                             "truncated")
        if first == 0 or first == second:
            return []
        return tree_consistency_proof(StoredTree(connection), first, second)
