"""Witnesses' cosignatures beside the checkpoint they cosign, and the director's sign-offs of
results: evidence, so append-only like the checkpoints (triggers refuse UPDATE and DELETE).

Revision ID: 0006_cosignatures_and_sign_offs
Revises: 0005_snapshots
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_cosignatures_and_sign_offs"
down_revision: str | None = "0005_snapshots"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = "the handlog Merkle log is append-only"
TABLES = ("log_cosignatures", "sign_offs")


def upgrade() -> None:
    position = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
    op.create_table(
        "log_cosignatures",
        sa.Column("checkpoint_id", position, nullable=False),
        sa.Column("witness", sa.String(200), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
        sa.Column("cosigned_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("checkpoint_id", "witness", name="pk_log_cosignatures"),
        sa.ForeignKeyConstraint(["checkpoint_id"], ["log_checkpoints.checkpoint_id"],
                                name="fk_log_cosignatures_checkpoint"),
    )
    op.create_table(
        "sign_offs",
        sa.Column("sign_off_id", position, primary_key=True, autoincrement=True),
        sa.Column("tournament", sa.String(200), nullable=False),
        sa.Column("director", sa.String(200), nullable=False),
        sa.Column("checkpoint_id", position, nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["checkpoint_id"], ["log_checkpoints.checkpoint_id"],
                                name="fk_sign_offs_checkpoint"),
        sqlite_autoincrement=True,
    )
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table in TABLES:
        if sqlite:
            for verb in ("UPDATE", "DELETE"):
                op.execute(f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                           f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: {verb} is not allowed'); "
                           "END")
        else:  # the function migration 0002 made for the Merkle tables
            op.execute(f"CREATE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE ON "
                       f"{table} FOR EACH ROW EXECUTE FUNCTION handlog_merkle_append_only()")
            op.execute(f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                       "FOR EACH STATEMENT EXECUTE FUNCTION handlog_merkle_append_only()")


def downgrade() -> None:
    for table in reversed(TABLES):
        op.drop_table(table)
