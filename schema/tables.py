"""The tables of the log. Used only inside schema/: the rest of the code speaks events.

`events` is append-only (database triggers, created by the migration, refuse UPDATE and DELETE);
`streams` holds each stream's head, which every append moves forward in the same transaction.
The Merkle log over every stream (schema/merkle.py): `merkle_leaves` (one per event, in commit
order, each row also holding the hashes of the perfect subtrees that end at its leaf) and
`log_checkpoints` (signed notes, schema/checkpoint.py), with `log_cosignatures` (each witness's
cosignature line beside the checkpoint it cosigns) and `sign_offs` (the director's signed
results, schema/sign_off.py); all are append-only too.
`snapshots` is a cache beside the log, not part of it (schema/snapshots.py): rows are replaced.
Constraint names are explicit so that the migration and these models compare equal.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    ForeignKeyConstraint,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
)
from sqlmodel import Field, SQLModel

STREAM_ID_LENGTH = 200
TYPE_LENGTH = 100
KIND_LENGTH = 50
ACTOR_LENGTH = 200
HASH_LENGTH = 64

# 64-bit positions on PostgreSQL; SQLite needs exactly INTEGER for an autoincrementing rowid.
POSITION_TYPE = BigInteger().with_variant(Integer(), "sqlite")

# The columns an append writes in `events` (all but the position), in the order the store's
# inserts give them.
EVENT_COLUMNS = ("stream_id", "version", "event_id", "type", "schema_version", "payload",
                 "recorded_at", "actor", "device", "prev_hash", "hash")


class StreamRow(SQLModel, table=True):
    __tablename__ = "streams"

    id: str = Field(sa_column=Column("id", String(STREAM_ID_LENGTH), primary_key=True))
    kind: str = Field(sa_column=Column("kind", String(KIND_LENGTH), nullable=False))
    head_version: int = Field(sa_column=Column("head_version", Integer(), nullable=False))
    head_hash: str = Field(sa_column=Column("head_hash", String(HASH_LENGTH), nullable=False))


class EventRow(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("stream_id", "version", name="uq_events_stream_version"),
        UniqueConstraint("event_id", name="uq_events_event_id"),
        ForeignKeyConstraint(["stream_id"], ["streams.id"], name="fk_events_stream_id_streams"),
        {"sqlite_autoincrement": True},
    )

    position: int | None = Field(
        default=None,
        sa_column=Column("position", POSITION_TYPE, primary_key=True, autoincrement=True),
    )
    stream_id: str = Field(sa_column=Column("stream_id", String(STREAM_ID_LENGTH), nullable=False))
    version: int = Field(sa_column=Column("version", Integer(), nullable=False))
    event_id: uuid.UUID = Field(sa_column=Column("event_id", Uuid(), nullable=False))
    type: str = Field(sa_column=Column("type", String(TYPE_LENGTH), nullable=False))
    schema_version: int = Field(sa_column=Column("schema_version", Integer(), nullable=False))
    payload: str = Field(sa_column=Column("payload", Text(), nullable=False))
    recorded_at: datetime = Field(
        sa_column=Column("recorded_at", DateTime(timezone=True), nullable=False)
    )
    actor: str = Field(sa_column=Column("actor", String(ACTOR_LENGTH), nullable=False))
    device: str = Field(sa_column=Column("device", String(ACTOR_LENGTH), nullable=False))
    prev_hash: str = Field(sa_column=Column("prev_hash", String(HASH_LENGTH), nullable=False))
    hash: str = Field(sa_column=Column("hash", String(HASH_LENGTH), nullable=False))


class MerkleLeafRow(SQLModel, table=True):
    __tablename__ = "merkle_leaves"

    leaf_index: int = Field(
        sa_column=Column("leaf_index", POSITION_TYPE, primary_key=True, autoincrement=False)
    )
    position: int = Field(sa_column=Column("position", POSITION_TYPE, nullable=False))
    stream_id: str = Field(sa_column=Column("stream_id", String(STREAM_ID_LENGTH), nullable=False))
    version: int = Field(sa_column=Column("version", Integer(), nullable=False))
    event_id: uuid.UUID = Field(sa_column=Column("event_id", Uuid(), nullable=False))
    # The event's chain hash as appended: lets a verifier tell, after a rewrite that recomputed
    # a whole chain, which events changed and which were only rehashed.
    event_hash: str = Field(sa_column=Column("event_hash", String(HASH_LENGTH), nullable=False))
    leaf_hash: str = Field(sa_column=Column("leaf_hash", String(HASH_LENGTH), nullable=False))
    # The hex hashes of the perfect subtrees ending at this leaf, level 1 upward (as many as
    # the leaf index has trailing one bits): the interior nodes, written with their last leaf.
    nodes: str = Field(sa_column=Column("nodes", Text(), nullable=False))


class CheckpointRow(SQLModel, table=True):
    __tablename__ = "log_checkpoints"
    __table_args__ = ({"sqlite_autoincrement": True},)

    checkpoint_id: int | None = Field(
        default=None,
        sa_column=Column("checkpoint_id", POSITION_TYPE, primary_key=True, autoincrement=True),
    )
    tree_size: int = Field(sa_column=Column("tree_size", BigInteger(), nullable=False))
    root_hash: str = Field(sa_column=Column("root_hash", String(HASH_LENGTH), nullable=False))
    origin: str = Field(sa_column=Column("origin", String(ACTOR_LENGTH), nullable=False))
    note: str = Field(sa_column=Column("note", Text(), nullable=False))
    reason: str = Field(sa_column=Column("reason", String(KIND_LENGTH), nullable=False))
    created_at: datetime = Field(
        sa_column=Column("created_at", DateTime(timezone=True), nullable=False)
    )


class CosignatureRow(SQLModel, table=True):
    """A witness's cosignature (C2SP tlog-cosignature line) of one stored checkpoint."""

    __tablename__ = "log_cosignatures"
    __table_args__ = (
        PrimaryKeyConstraint("checkpoint_id", "witness", name="pk_log_cosignatures"),
        ForeignKeyConstraint(["checkpoint_id"], ["log_checkpoints.checkpoint_id"],
                             name="fk_log_cosignatures_checkpoint"),
    )

    checkpoint_id: int = Field(sa_column=Column("checkpoint_id", POSITION_TYPE, nullable=False))
    witness: str = Field(sa_column=Column("witness", String(ACTOR_LENGTH), nullable=False))
    line: str = Field(sa_column=Column("line", Text(), nullable=False))
    cosigned_at: datetime = Field(
        sa_column=Column("cosigned_at", DateTime(timezone=True), nullable=False)
    )


class SignOffRow(SQLModel, table=True):
    """The director's sign-off of a tournament's results (a signed note), on a checkpoint."""

    __tablename__ = "sign_offs"
    __table_args__ = (
        ForeignKeyConstraint(["checkpoint_id"], ["log_checkpoints.checkpoint_id"],
                             name="fk_sign_offs_checkpoint"),
        {"sqlite_autoincrement": True},
    )

    sign_off_id: int | None = Field(
        default=None,
        sa_column=Column("sign_off_id", POSITION_TYPE, primary_key=True, autoincrement=True),
    )
    tournament: str = Field(sa_column=Column("tournament", String(STREAM_ID_LENGTH),
                                             nullable=False))
    director: str = Field(sa_column=Column("director", String(ACTOR_LENGTH), nullable=False))
    checkpoint_id: int = Field(sa_column=Column("checkpoint_id", POSITION_TYPE, nullable=False))
    note: str = Field(sa_column=Column("note", Text(), nullable=False))
    created_at: datetime = Field(
        sa_column=Column("created_at", DateTime(timezone=True), nullable=False)
    )


def _table(model: type[SQLModel]) -> Table:
    table = model.__table__  # type: ignore[attr-defined]
    assert isinstance(table, Table)
    return table


streams_table = _table(StreamRow)
events_table = _table(EventRow)
merkle_leaves_table = _table(MerkleLeafRow)
checkpoints_table = _table(CheckpointRow)
cosignatures_table = _table(CosignatureRow)
sign_offs_table = _table(SignOffRow)


# --- sign-ins (schema/sessions.py): not part of the log, so rows are updated and deleted ------

SESSION_ID_LENGTH = 64
ROLE_LENGTH = 20
NAME_LENGTH = 80


class SignedInRow(SQLModel, table=True):
    """A director's or dealer's session that is signed in now, and when it was last used."""

    __tablename__ = "signed_in_sessions"

    id: str = Field(sa_column=Column("id", String(SESSION_ID_LENGTH), primary_key=True))
    role: str = Field(sa_column=Column("role", String(ROLE_LENGTH), nullable=False))
    table_stream: str | None = Field(
        default=None, sa_column=Column("table_stream", String(STREAM_ID_LENGTH), nullable=True))
    name: str = Field(sa_column=Column("name", String(NAME_LENGTH), nullable=False))
    device: str = Field(sa_column=Column("device", String(NAME_LENGTH), nullable=False))
    client: str = Field(sa_column=Column("client", String(NAME_LENGTH), nullable=False))
    signed_in_at: datetime = Field(
        sa_column=Column("signed_in_at", DateTime(timezone=True), nullable=False))
    last_seen: datetime = Field(
        sa_column=Column("last_seen", DateTime(timezone=True), nullable=False))
    expires: datetime = Field(
        sa_column=Column("expires", DateTime(timezone=True), nullable=False))


class RevokedRow(SQLModel, table=True):
    """A session ended before its time: signed out, revoked by the director, or idle."""

    __tablename__ = "revoked_sessions"

    id: str = Field(sa_column=Column("id", String(SESSION_ID_LENGTH), primary_key=True))
    revoked_at: datetime = Field(
        sa_column=Column("revoked_at", DateTime(timezone=True), nullable=False))
    reason: str = Field(sa_column=Column("reason", String(ROLE_LENGTH), nullable=False))
    by: str = Field(sa_column=Column("by", String(NAME_LENGTH), nullable=False))
    expires: datetime = Field(
        sa_column=Column("expires", DateTime(timezone=True), nullable=False))


signed_in_table = _table(SignedInRow)
revoked_table = _table(RevokedRow)


# --- snapshots (schema/snapshots.py): a cache of folded states, not evidence -----------------

CODE_LENGTH = 200


class SnapshotRow(SQLModel, table=True):
    """A stream's folded state at `version`, as the code named by `code` wrote it (one per
    stream: a newer one replaces it)."""

    __tablename__ = "snapshots"

    stream_id: str = Field(
        sa_column=Column("stream_id", String(STREAM_ID_LENGTH), primary_key=True))
    code: str = Field(sa_column=Column("code", String(CODE_LENGTH), nullable=False))
    version: int = Field(sa_column=Column("version", Integer(), nullable=False))
    body: str = Field(sa_column=Column("body", Text(), nullable=False))


snapshots_table = _table(SnapshotRow)
