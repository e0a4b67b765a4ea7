"""The Alembic migrations, on SQLite and PostgreSQL: up from empty, down and up again, and no
difference between the SQLModel tables and the migrated database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from conftest_store import new_events
from sqlmodel import SQLModel

import handlog.schema.tables  # noqa: F401  (the tables on SQLModel.metadata)
from handlog import migrations
from handlog.schema.database import create_engine
from handlog.schema.errors import SchemaMissing
from handlog.schema.store import database_revision, open_store, upgrade_database

HANDLOG_TABLES = {
    "events", "streams", "merkle_leaves", "log_checkpoints",
    "signed_in_sessions", "revoked_sessions", "snapshots",
    "log_cosignatures", "sign_offs",
}


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return set(sa.inspect(connection).get_table_names())
    finally:
        engine.dispose()


def _triggers(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            if connection.dialect.name == "sqlite":
                query = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
            else:
                query = (
                    "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal "
                    "AND tgrelid = to_regclass('events')"
                )
            return {row[0] for row in connection.exec_driver_sql(query)}
    finally:
        engine.dispose()


def test_head_revision_constant_is_alembics_head() -> None:
    """migrations.HEAD_REVISION (read without importing Alembic) is the newest script."""
    assert migrations.HEAD_REVISION == migrations.head_revision()


def test_upgrade_from_empty_reaches_head(db_url: str) -> None:
    """An empty database gets both tables, the triggers and the head revision."""
    assert database_revision(db_url) == (None, migrations.head_revision())
    assert upgrade_database(db_url) == migrations.head_revision()
    assert HANDLOG_TABLES <= _tables(db_url)
    assert len(_triggers(db_url)) >= 2
    assert database_revision(db_url) == (migrations.head_revision(),) * 2


def test_upgrade_is_idempotent_and_keeps_the_log(db_url: str) -> None:
    upgrade_database(db_url)
    with open_store(db_url) as store:
        stored = store.append("table-1", 0, new_events(2))
    upgrade_database(db_url)
    with open_store(db_url) as store:
        assert store.read_all() == stored


def test_downgrade_of_head_then_upgrade_again(db_url: str) -> None:
    """Downgrading the head drops tables and triggers; upgrading again gives a working store."""
    upgrade_database(db_url)
    migrations.downgrade(db_url, "-1")
    assert not {"log_cosignatures", "sign_offs"} & _tables(db_url)  # cosignatures, undone
    assert "snapshots" in _tables(db_url)
    migrations.downgrade(db_url, "-1")
    assert "snapshots" not in _tables(db_url)  # the snapshots' cache, undone
    assert "merkle_leaves" in _tables(db_url)
    migrations.downgrade(db_url, "-1")
    assert {"merkle_nodes", "merkle_head"} <= _tables(db_url)  # the nodes' move, undone
    migrations.downgrade(db_url, "-1")
    assert "signed_in_sessions" not in _tables(db_url)  # the sessions' migration, undone
    migrations.downgrade(db_url, "base")
    assert not HANDLOG_TABLES & _tables(db_url)
    assert _triggers(db_url) == set()
    with pytest.raises(SchemaMissing):
        open_store(db_url)
    upgrade_database(db_url)
    assert len(_triggers(db_url)) >= 2
    with open_store(db_url) as store:
        assert [event.version for event in store.append("t", 0, new_events(2))] == [1, 2]


def test_models_and_migrated_database_do_not_differ(db_url: str) -> None:
    """Autogenerate finds nothing to add, drop or alter: the migration matches schema/tables.py."""
    upgrade_database(db_url)
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            differences = compare_metadata(context, SQLModel.metadata)
    finally:
        engine.dispose()
    assert differences == []


def test_alembic_runs_without_an_ini_in_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Alembic config is built in code from the installed package, whatever the CWD."""
    monkeypatch.chdir(tmp_path)
    assert not (tmp_path / "alembic.ini").exists()
    url = f"sqlite:///{tmp_path / 'elsewhere.db'}"
    upgrade_database(url)
    assert (tmp_path / "elsewhere.db").exists()
    assert Path(migrations.SCRIPT_LOCATION, "env.py").is_file()
    assert migrations.alembic_config(url).get_main_option("script_location") == str(
        migrations.SCRIPT_LOCATION
    )


def test_comparison_sees_a_difference(sqlite_url: str) -> None:
    """The no-difference check above can fail: a column the database lacks is reported."""
    upgrade_database(sqlite_url)
    metadata = sa.MetaData()
    sa.Table(
        "streams", metadata,
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("kind", sa.String(50), nullable=False),
        sa.Column("head_version", sa.Integer(), nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True)),
    )
    engine = create_engine(sqlite_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            kinds = [d[0] for d in compare_metadata(context, metadata) if isinstance(d, tuple)]
    finally:
        engine.dispose()
    assert "add_column" in kinds and "remove_table" in kinds


def test_merkle_log_migration_makes_leaves_of_the_events_already_stored(db_url: str) -> None:
    """0002 turns a log written before it into leaves in position order: its root is the RFC
    9162 root of the events' leaves, and appends after it extend that tree."""
    from handlog.schema.hashing import event_leaf
    from handlog.schema.store import EventStore
    from handlog.schema.tlog import mth

    migrations.upgrade(db_url, "0001_events_and_streams")
    with _store_at_0001(db_url) as store:
        store.write_merkle_leaves = False
        store.append("table-1", 0, new_events(3))
        store.append("tournament", 0, new_events(2), kind="tournament")
        assert isinstance(store, EventStore)
    upgrade_database(db_url)
    with open_store(db_url) as store:
        store.append("table-1", 3, new_events(2, start=4))
        events = store.read_all()
        head = store.tree_head()
    leaves = [event_leaf(e.stream_id, e.version, e.hash) for e in events]
    assert (head.size, head.root) == (7, mth(leaves))


def test_nodes_move_into_the_leaf_rows_and_back(db_url: str) -> None:
    """0004 carries a tree written by 0002 (leaves, `merkle_nodes`, `merkle_head`) into the leaf
    rows: same size and root, proofs from the moved nodes hold, appends extend it; downgrading
    rebuilds the old tables with the same head."""
    from handlog.schema.hashing import event_leaf
    from handlog.schema.merkle import StoredTree, read_head
    from handlog.schema.tlog import inclusion_path, mth, tree_inclusion_path

    migrations.upgrade(db_url, "0001_events_and_streams")
    with _store_at_0001(db_url) as store:
        store.write_merkle_leaves = False
        store.append("table-1", 0, new_events(6))
        store.append("tournament", 0, new_events(7), kind="tournament")
    migrations.upgrade(db_url, "0003_sessions")
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            old_head = connection.exec_driver_sql(
                "SELECT tree_size, root_hash, frontier FROM merkle_head").one()
    finally:
        engine.dispose()
    upgrade_database(db_url)
    assert not {"merkle_nodes", "merkle_head"} & _tables(db_url)
    with open_store(db_url) as store:
        assert (store.tree_head().size, store.tree_head().root.hex()) == tuple(old_head[:2])
        store.append("table-1", 6, new_events(4, start=7))
        events = store.read_all()
        leaves = [event_leaf(e.stream_id, e.version, e.hash) for e in events]
        with store.connection() as connection:
            assert read_head(connection).root == mth(leaves)
            tree = StoredTree(connection)
            for index in range(len(leaves)):
                assert tree_inclusion_path(tree, index, len(leaves)) == inclusion_path(
                    index, leaves)
    migrations.downgrade(db_url, "0003_sessions")
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            head = connection.exec_driver_sql(
                "SELECT tree_size, root_hash FROM merkle_head").one()
            nodes = connection.exec_driver_sql("SELECT count(*) FROM merkle_nodes").scalar()
    finally:
        engine.dispose()
    assert (head[0], head[1]) == (17, mth(leaves).hex())
    assert nodes == 17 - bin(17).count("1")


def test_downgrade_of_the_merkle_log_keeps_the_events(db_url: str) -> None:
    upgrade_database(db_url)
    with open_store(db_url) as store:
        store.append("table-1", 0, new_events(2))
    migrations.downgrade(db_url, "0001_events_and_streams")
    assert {"events", "streams"} <= _tables(db_url)
    assert not {"merkle_leaves", "merkle_nodes", "merkle_head", "log_checkpoints"} & _tables(
        db_url
    )


def _store_at_0001(url: str) -> Any:
    from handlog.schema.store import EventStore

    return EventStore(create_engine(url), url)
