"""One Merkle log over every stream: its leaves, the hashes of its perfect subtrees, its head
(size, root and right-edge frontier) and the signed checkpoints taken of it, with triggers that
refuse UPDATE and DELETE on leaves, nodes and checkpoints. Events already stored become leaves
in position order (schema/hashing.py and schema/tlog.py define the hashing).

Revision ID: 0002_merkle_log
Revises: 0001_events_and_streams
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from handlog.schema.tlog import EMPTY_ROOT, frontier_root, leaf_hash, node_hash

revision: str = "0002_merkle_log"
down_revision: str | None = "0001_events_and_streams"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = "the handlog Merkle log is append-only"
PROTECTED = ("merkle_leaves", "merkle_nodes", "log_checkpoints")


def _sqlite_triggers(table: str) -> list[str]:
    return [
        f"""
        CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
        BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: UPDATE is not allowed'); END
        """,
        f"""
        CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
        BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: DELETE is not allowed'); END
        """,
    ]


def _postgresql_triggers(table: str) -> list[str]:
    return [
        f"""
        CREATE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION handlog_merkle_append_only()
        """,
        f"""
        CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
        FOR EACH STATEMENT EXECUTE FUNCTION handlog_merkle_append_only()
        """,
    ]


def upgrade() -> None:
    position = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
    # Every append writes a leaf, perhaps a node and the head in its commit: each table is one
    # b-tree on SQLite (the leaf index is the rowid; nodes are WITHOUT ROWID), so the tree adds
    # as few pages as possible to each fsync.
    op.create_table(
        "merkle_leaves",
        sa.Column("leaf_index", position, primary_key=True, autoincrement=False),
        sa.Column("position", position, nullable=False),
        sa.Column("stream_id", sa.String(200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Uuid(), nullable=False),
        sa.Column("event_hash", sa.String(64), nullable=False),
        sa.Column("leaf_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "merkle_nodes",
        sa.Column("level", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("node_index", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "merkle_head",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("tree_size", sa.BigInteger(), nullable=False),
        sa.Column("root_hash", sa.String(64), nullable=False),
        sa.Column("frontier", sa.Text(), nullable=False),
    )
    op.create_table(
        "log_checkpoints",
        sa.Column("checkpoint_id", position, primary_key=True, autoincrement=True),
        sa.Column("tree_size", sa.BigInteger(), nullable=False),
        sa.Column("root_hash", sa.String(64), nullable=False),
        sa.Column("origin", sa.String(200), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("reason", sa.String(50), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sqlite_autoincrement=True,
    )
    bind = op.get_bind()
    _backfill(bind)
    if bind.dialect.name == "sqlite":
        statements = [s for table in PROTECTED for s in _sqlite_triggers(table)]
    else:
        statements = [
            f"""
            CREATE FUNCTION handlog_merkle_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '{APPEND_ONLY}: % is not allowed', TG_OP;
            END
            $$
            """
        ] + [s for table in PROTECTED for s in _postgresql_triggers(table)]
    for statement in statements:
        op.execute(statement)


def _backfill(bind: sa.engine.Connection) -> None:
    """Every event already stored becomes a leaf, in position order, with the perfect nodes and
    the head as this revision stored them (kept here as they were: the store's own writer has
    since changed, 0004_merkle_nodes_in_leaves)."""
    bind.execute(sa.text(
        "INSERT INTO merkle_head (id, tree_size, root_hash, frontier) "
        "VALUES (1, 0, :root, '')"
    ), {"root": EMPTY_ROOT.hex()})
    rows = bind.execute(sa.text(
        "SELECT position, stream_id, version, event_id, hash FROM events ORDER BY position"
    )).all()
    leaves: list[dict[str, object]] = []
    nodes: list[dict[str, object]] = []
    frontier: list[bytes] = []
    for size, (position, stream_id, version, event_id, chain) in enumerate(rows):
        entry = json.dumps([stream_id, version, chain], separators=(",", ":"),
                           ensure_ascii=False).encode("utf-8")
        leaf = leaf_hash(entry)
        leaves.append({"i": size, "p": position, "s": stream_id, "v": version, "e": event_id,
                       "h": chain, "l": leaf.hex()})
        node, level, counter = leaf, 0, size
        while counter & 1:
            node = node_hash(frontier.pop(), node)
            level += 1
            counter >>= 1
            nodes.append({"l": level, "i": ((size + 1) >> level) - 1, "h": node.hex()})
        frontier.append(node)
    if not rows:
        return
    root = frontier_root(frontier)
    bind.execute(sa.text(
        "INSERT INTO merkle_leaves (leaf_index, position, stream_id, version, event_id, "
        "event_hash, leaf_hash) VALUES (:i, :p, :s, :v, :e, :h, :l)"), leaves)
    if nodes:
        bind.execute(sa.text(
            "INSERT INTO merkle_nodes (level, node_index, hash) VALUES (:l, :i, :h)"), nodes)
    bind.execute(sa.text(
        "UPDATE merkle_head SET tree_size = :n, root_hash = :r, frontier = :f WHERE id = 1"),
        {"n": len(rows), "r": root.hex(), "f": "".join(h.hex() for h in frontier)})


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for table in PROTECTED:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
    else:
        for table in PROTECTED:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_update_delete ON {table}")
        op.execute("DROP FUNCTION IF EXISTS handlog_merkle_append_only()")
    for table in ("log_checkpoints", "merkle_head", "merkle_nodes", "merkle_leaves"):
        op.drop_table(table)
