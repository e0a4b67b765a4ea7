"""`handlog db`: create, migrate and inspect the database that holds the log."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from handlog.schema.database import display_url, resolve_url
from handlog.schema.errors import HandlogError, SchemaMissing
from handlog.schema.store import database_revision, upgrade_database

F = TypeVar("F", bound=Callable[..., Any])


def echo_json(value: Any, indent: int | None = 2, chunk: int = 1 << 16) -> None:
    """Print `value` as json.dumps(value, indent=indent) would, and a newline, written as it
    is encoded (about `chunk` characters at a time) instead of built whole first."""
    parts: list[str] = []
    size = 0
    for part in json.JSONEncoder(indent=indent).iterencode(value):
        parts.append(part)
        size += len(part)
        if size >= chunk:
            click.echo("".join(parts), nl=False)
            parts, size = [], 0
    click.echo("".join(parts))


def db_option(function: F) -> F:
    """The `--db URL` option every command that touches the log takes."""
    return click.option(
        "--db",
        "db_url",
        metavar="URL",
        default=None,
        help="Database URL or SQLite file (default: $HANDLOG_DATABASE_URL, else ./handlog.db).",
    )(function)


@contextmanager
def user_errors() -> Iterator[None]:
    """Show a handlog error as one line and exit 1, never as a traceback."""
    try:
        yield
    except HandlogError as exc:
        raise click.ClickException(str(exc)) from None


@click.group("db")
def db() -> None:
    """Create, migrate and inspect the database that holds the log."""


@db.command("upgrade")
@db_option
def upgrade(db_url: str | None) -> None:
    """Create the database (a SQLite file if absent) or migrate it to the current schema.

    Safe to run again: a database already at the head revision is left as it is.
    """
    url = resolve_url(db_url)
    with user_errors():
        revision = upgrade_database(url)
    click.echo(f"database at {display_url(url)} is at revision {revision} (head)")


@db.command("current")
@db_option
def current(db_url: str | None) -> None:
    """Print the database's schema revision and whether it is the head (exit 1 when not)."""
    url = resolve_url(db_url)
    with user_errors():
        revision, head = database_revision(url)
        if revision is None:
            raise SchemaMissing(display_url(url))
    if revision == head:
        click.echo(f"{revision} (head)")
        return
    click.echo(
        f"{revision}: not the head ({head}); run `handlog db upgrade --db {display_url(url)}`"
    )
    raise click.exceptions.Exit(1)
