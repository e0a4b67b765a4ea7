"""The Merkle log's interior nodes move into the leaf rows: each row of `merkle_leaves` holds,
in `nodes`, the hashes of the perfect subtrees that end at its leaf, so an append writes one
row per event and nothing else (no `merkle_nodes` insert, no `merkle_head` update: the size
and frontier are read from the leaf rows by key). The stored nodes are carried over as they are.

Revision ID: 0004_merkle_nodes_in_leaves
Revises: 0003_sessions
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from handlog.schema.tlog import frontier_root

revision: str = "0004_merkle_nodes_in_leaves"
down_revision: str | None = "0003_sessions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = "the handlog Merkle log is append-only"
_BATCH = 10_000


def _update_trigger(sqlite: bool, create: bool) -> str:
    if sqlite:
        if not create:
            return "DROP TRIGGER IF EXISTS merkle_leaves_no_update"
        return ("CREATE TRIGGER merkle_leaves_no_update BEFORE UPDATE ON merkle_leaves "
                f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: UPDATE is not allowed'); END")
    if not create:
        return "DROP TRIGGER IF EXISTS merkle_leaves_no_update_delete ON merkle_leaves"
    return ("CREATE TRIGGER merkle_leaves_no_update_delete BEFORE UPDATE OR DELETE ON "
            "merkle_leaves FOR EACH ROW EXECUTE FUNCTION handlog_merkle_append_only()")


def upgrade() -> None:
    bind = op.get_bind()
    sqlite = bind.dialect.name == "sqlite"
    op.add_column("merkle_leaves",
                  sa.Column("nodes", sa.Text(), nullable=False, server_default=""))
    by_row: dict[int, dict[int, str]] = {}
    for level, index, value in bind.execute(sa.text(
            "SELECT level, node_index, hash FROM merkle_nodes")):
        by_row.setdefault(((int(index) + 1) << int(level)) - 1, {})[int(level)] = value
    updates = [{"i": row, "n": "".join(levels[level] for level in sorted(levels))}
               for row, levels in by_row.items()]
    op.execute(_update_trigger(sqlite, create=False))
    for start in range(0, len(updates), _BATCH):
        bind.execute(sa.text("UPDATE merkle_leaves SET nodes = :n WHERE leaf_index = :i"),
                     updates[start:start + _BATCH])
    op.execute(_update_trigger(sqlite, create=True))
    _drop_old_tables(sqlite)


def _drop_old_tables(sqlite: bool) -> None:
    if sqlite:
        for trigger in ("merkle_nodes_no_update", "merkle_nodes_no_delete"):
            op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    else:
        op.execute("DROP TRIGGER IF EXISTS merkle_nodes_no_truncate ON merkle_nodes")
        op.execute("DROP TRIGGER IF EXISTS merkle_nodes_no_update_delete ON merkle_nodes")
    op.drop_table("merkle_nodes")
    op.drop_table("merkle_head")


def downgrade() -> None:
    bind = op.get_bind()
    sqlite = bind.dialect.name == "sqlite"
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
    nodes: list[dict[str, object]] = []
    frontier: list[tuple[int, str]] = []  # (level, hash hex), largest first
    size = 0
    for index, leaf_hash, text in bind.execute(sa.text(
            "SELECT leaf_index, leaf_hash, nodes FROM merkle_leaves ORDER BY leaf_index")):
        index = int(index)
        levels = [text[i:i + 64] for i in range(0, len(text), 64)]
        for level, value in enumerate(levels, start=1):
            nodes.append({"l": level, "i": ((index + 1) >> level) - 1, "h": value})
        while frontier and frontier[-1][0] < len(levels):
            frontier.pop()
        frontier.append((len(levels), levels[-1] if levels else leaf_hash))
        size = index + 1
    for start in range(0, len(nodes), _BATCH):
        bind.execute(sa.text(
            "INSERT INTO merkle_nodes (level, node_index, hash) VALUES (:l, :i, :h)"),
            nodes[start:start + _BATCH])
    hashes = [bytes.fromhex(value) for _level, value in frontier]
    root = frontier_root(hashes)
    bind.execute(sa.text(
        "INSERT INTO merkle_head (id, tree_size, root_hash, frontier) VALUES (1, :n, :r, :f)"),
        {"n": size, "r": root.hex(), "f": "".join(value for _level, value in frontier)})
    if sqlite:
        op.execute("CREATE TRIGGER merkle_nodes_no_update BEFORE UPDATE ON merkle_nodes "
                   f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: UPDATE is not allowed'); END")
        op.execute("CREATE TRIGGER merkle_nodes_no_delete BEFORE DELETE ON merkle_nodes "
                   f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}: DELETE is not allowed'); END")
        op.execute("ALTER TABLE merkle_leaves DROP COLUMN nodes")
    else:
        op.execute("CREATE TRIGGER merkle_nodes_no_update_delete BEFORE UPDATE OR DELETE ON "
                   "merkle_nodes FOR EACH ROW EXECUTE FUNCTION handlog_merkle_append_only()")
        op.execute("CREATE TRIGGER merkle_nodes_no_truncate BEFORE TRUNCATE ON merkle_nodes "
                   "FOR EACH STATEMENT EXECUTE FUNCTION handlog_merkle_append_only()")
        op.drop_column("merkle_leaves", "nodes")
