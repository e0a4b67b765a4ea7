"""The database's schema revision as the store needs it: the revision this release writes
(`HEAD_REVISION`), the one a database is at, and running handlog's Alembic scripts
(migrations/versions) from code without an alembic.ini in the working folder. `migrations/env.py`
connects through `schema.database.create_engine`, so migrations get the same SQLite pragmas as the
store.

Alembic is imported only when migrating or when a database is not at `HEAD_REVISION`: opening a
store at the head reads the `alembic_version` table with one query and stays quick to start.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

# The Alembic scripts: the `migrations` package beside `schema` (in the repository and in an
# installed wheel alike); found by path, so the store never imports it.
SCRIPT_LOCATION = Path(__file__).resolve().parent.parent / "migrations"

HEAD_REVISION = "0006_cosignatures_and_sign_offs"
"""The newest revision in migrations/versions/ (a test checks it against Alembic's own view)."""

VERSION_TABLE = "alembic_version"


def alembic_config(url: str, connection: Connection | None = None) -> Config:
    """An Alembic Config for `url` (or an open connection), independent of the working folder."""
    from alembic.config import Config

    config = Config()
    # configparser interpolates "%"; the path is the only value stored as an option.
    config.set_main_option("script_location", str(SCRIPT_LOCATION).replace("%", "%%"))
    config.attributes["url"] = url
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@cache
def _script() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(""))


def head_revision() -> str:
    """The revision the migration scripts end at, as Alembic computes it."""
    head = _script().get_current_head()
    if head is None:
        raise RuntimeError("handlog's migrations have no head revision")
    return head


def is_known_revision(revision: str) -> bool:
    from alembic.util.exc import CommandError

    try:
        return _script().get_revision(revision) is not None
    except CommandError:
        return False


def current_revision(connection: Connection) -> str | None:
    """The revision the database was migrated to (None when it has no handlog schema)."""
    if not sa.inspect(connection).has_table(VERSION_TABLE):
        return None
    rows = connection.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
    if len(rows) != 1:
        return None if not rows else ",".join(sorted(str(row[0]) for row in rows))
    return str(rows[0][0])


def upgrade(url: str, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    from alembic import command

    command.downgrade(alembic_config(url), revision)
