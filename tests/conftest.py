"""Shared pytest fixtures; each concern keeps its fixtures in its own module, imported here."""

from __future__ import annotations

from conftest_store import (  # noqa: F401  (fixtures are found by name)
    db_url,
    pg_url,
    postgres_server_url,
    sqlite_url,
    store,
)
