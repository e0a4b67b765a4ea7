"""`handlog log`: verify the hash chains of the raw log and export it as JSON lines."""

from __future__ import annotations

from pathlib import Path

import click

from recorder.cli_db import db_option, user_errors
from schema.export import VerifyReport, export_store, verify_export, verify_store
from schema.store import open_store


@click.group("log")
def log() -> None:
    """Verify and export the raw event log (append-only, hash-chained)."""


@log.command("verify")
@db_option
@click.argument(
    "file",
    required=False,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
def verify(db_url: str | None, file: Path | None) -> None:
    """Check every hash chain and stream head, in the database or in an export FILE.jsonl.

    With FILE the check runs offline, without any database. Prints `ok: ...` and exits 0, or
    names the first broken event of each broken stream and exits 1.
    """
    if file is not None and db_url is not None:
        raise click.UsageError("give either --db URL or an export FILE, not both")
    with user_errors():
        if file is not None:
            report = verify_export(file)
        else:
            with open_store(db_url) as store:
                report = verify_store(store)
    _print_report(report)
    if not report.ok:
        raise click.exceptions.Exit(1)


@log.command("export")
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The JSON-lines file to write (replaced if it exists).",
)
@db_option
def export(out: Path, db_url: str | None) -> None:
    """Write the whole log, hashes included, as JSON lines that `handlog log verify` checks."""
    with user_errors():
        with open_store(db_url) as store:
            try:
                events, streams = export_store(store, out)
            except OSError as exc:
                raise click.ClickException(f"cannot write {out}: {exc.strerror}") from None
    click.echo(f"exported {events} events in {streams} streams to {out}")


def _print_report(report: VerifyReport) -> None:
    for message in report.messages():
        click.echo(message)
    click.echo(report.summary())
