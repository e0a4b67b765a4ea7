"""Alembic's entry point: migrate the database given by the Config (see migrations/__init__.py).

The URL comes from `config.attributes["url"]` (set by `migrations.alembic_config`) or, for a
hand-written alembic.ini, from `sqlalchemy.url`; an open connection may be passed instead in
`config.attributes["connection"]`.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import handlog.schema.tables  # noqa: F401  (registers the tables on SQLModel.metadata)
from handlog.schema.database import WRITE_OPTIONS, create_engine, resolve_url, translate_errors

config = context.config
target_metadata = SQLModel.metadata


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        # SQLite cannot ALTER most things in place; batch mode copies the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run_migrations(connection)
        return
    url = resolve_url(config.attributes.get("url") or config.get_main_option("sqlalchemy.url"))
    engine = create_engine(url)
    try:
        with translate_errors(url, "migrate"), engine.connect() as connection:
            run_migrations(connection.execution_options(**WRITE_OPTIONS))
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("handlog migrations run against a database, not in --sql mode")
run_online()
