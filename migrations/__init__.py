"""handlog's Alembic environment: the scripts in versions/ and env.py. What the store needs of
them (the head revision, the database's revision, upgrade and downgrade) lives in the store,
schema/revisions.py; this package takes it from there."""

from handlog.schema.revisions import (
    HEAD_REVISION,
    SCRIPT_LOCATION,
    VERSION_TABLE,
    alembic_config,
    current_revision,
    downgrade,
    head_revision,
    is_known_revision,
    upgrade,
)

__all__ = ["HEAD_REVISION", "SCRIPT_LOCATION", "VERSION_TABLE", "alembic_config",
           "current_revision", "downgrade", "head_revision", "is_known_revision", "upgrade"]
