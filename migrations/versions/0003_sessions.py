"""Sign-ins kept in the database: the sessions signed in now (with when each was last used) and
the ones ended early (signed out, revoked, idle), so that an ended session stays ended after a
restart and on every server sharing the database.

Revision ID: 0003_sessions
Revises: 0002_merkle_log
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_sessions"
down_revision: str | None = "0002_merkle_log"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "signed_in_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("table_stream", sa.String(200), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("device", sa.String(80), nullable=False),
        sa.Column("client", sa.String(80), nullable=False),
        sa.Column("signed_in_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "revoked_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("by", sa.String(80), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("revoked_sessions")
    op.drop_table("signed_in_sessions")
