"""Snapshots of folded streams: a cache beside the log (a restarted server folds a table from
its last snapshot, not from its first event). Not evidence: rows are replaced, and a snapshot
that is missing, damaged or written by other code is ignored.

Revision ID: 0005_snapshots
Revises: 0004_merkle_nodes_in_leaves
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_snapshots"
down_revision: str | None = "0004_merkle_nodes_in_leaves"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("stream_id", sa.String(200), primary_key=True),
        sa.Column("code", sa.String(200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
