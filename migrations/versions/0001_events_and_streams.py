"""The append-only event log: streams (heads) and events (hash-chained), with triggers that
refuse UPDATE and DELETE on events.

Revision ID: 0001_events_and_streams
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_events_and_streams"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = "handlog events are append-only"

SQLITE_TRIGGERS = [
    f"""
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: UPDATE is not allowed'); END
    """,
    f"""
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: DELETE is not allowed'); END
    """,
]

POSTGRESQL_TRIGGERS = [
    f"""
    CREATE FUNCTION handlog_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{APPEND_ONLY}: % is not allowed', TG_OP;
    END
    $$
    """,
    """
    CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION handlog_events_append_only()
    """,
    """
    CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION handlog_events_append_only()
    """,
]


def upgrade() -> None:
    op.create_table(
        "streams",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("kind", sa.String(50), nullable=False),
        sa.Column("head_version", sa.Integer(), nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column(
            "position",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("stream_id", sa.String(200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Uuid(), nullable=False),
        sa.Column("type", sa.String(100), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("device", sa.String(200), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("stream_id", "version", name="uq_events_stream_version"),
        sa.UniqueConstraint("event_id", name="uq_events_event_id"),
        sa.ForeignKeyConstraint(
            ["stream_id"], ["streams.id"], name="fk_events_stream_id_streams"
        ),
        sqlite_autoincrement=True,
    )
    dialect = op.get_bind().dialect.name
    for statement in SQLITE_TRIGGERS if dialect == "sqlite" else POSTGRESQL_TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS events_no_delete")
        op.execute("DROP TRIGGER IF EXISTS events_no_update")
    else:
        op.execute("DROP TRIGGER IF EXISTS events_no_truncate ON events")
        op.execute("DROP TRIGGER IF EXISTS events_no_update_delete ON events")
        op.execute("DROP FUNCTION IF EXISTS handlog_events_append_only()")
    op.drop_table("events")
    op.drop_table("streams")
