"""`handlog archive`: one self-contained zip of an event for the record, and its offline check."""

from __future__ import annotations

from pathlib import Path

import click

from handlog.recorder.archive import DEFAULT_RETENTION_YEARS, build_archive, verify_archive
from handlog.recorder.cli_db import db_option, user_errors
from handlog.recorder.signing import DIRECTOR_KEY_FILE, signing_key_option, signing_key_path
from handlog.schema.checkpoint import CheckpointError, load_signing_key, parse_verifier
from handlog.schema.store import open_store


@click.group("archive", invoke_without_command=True)
@db_option
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The zip to write (EVENT.zip).")
@signing_key_option
@click.option("--witness-key", "witness_keys", multiple=True, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A witness's public key to include (repeatable).")
@click.option("--cosigned", "cosigned_dir", default=None, metavar="FOLDER",
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The cosigned checkpoints (default: `cosigned/` beside the signing key, "
              "where `serve --witness` keeps them).")
@click.option("--sign-off", "sign_off", default=None, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The director's sign-off (`handlog tournament sign-off`; default: the "
              "latest kept in the database).")
@click.option("--director-key", "director_key", default=None, metavar="PUBLIC_KEY_FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The director's public key (default: that of handlog.director-key beside "
              "the signing key, the floor page's sign-off key, when there is one).")
@click.option("--retention-years", default=DEFAULT_RETENTION_YEARS, show_default=True,
              type=click.IntRange(1, 100), help="How long the archive is to be kept (stated "
              "in it).")
@click.option("--no-report", is_flag=True, help="Leave out the HTML and PDF report.")
@click.pass_context
def archive(ctx: click.Context, db_url: str | None, out: Path | None,
            signing_key_file: Path | None, witness_keys: tuple[Path, ...],
            cosigned_dir: Path | None, sign_off: Path | None, director_key: Path | None,
            retention_years: int, no_report: bool) -> None:
    """Write one zip of the event for the record (the log with its hashes, checkpoints,
    cosignatures, keys, sign-off, report and how to verify it), or check one offline."""
    if ctx.invoked_subcommand is not None:
        return
    if out is None:
        raise click.UsageError("give --out EVENT.zip (or `handlog archive verify EVENT.zip`)")
    key_path = signing_key_path(signing_key_file)
    folder = cosigned_dir if cosigned_dir is not None else key_path.parent / "cosigned"
    cosigned = sorted(folder.rglob("*.checkpoint")) if folder.is_dir() else []
    director_file = key_path.parent / DIRECTOR_KEY_FILE
    with user_errors():
        room = load_signing_key(key_path).verifier
        director = load_signing_key(director_file).verifier.text() \
            if director_key is None and director_file.exists() else None
        with open_store(db_url) as store:
            written = build_archive(store, out, room, list(witness_keys), cosigned, sign_off,
                                    director_key, retention_years, report=not no_report,
                                    director_public=director)
    click.echo(f"archive of {written.events} events written to {out}: "
               f"{len(written.files)} files, kept {retention_years} years")


@archive.command("verify")
@click.argument("zip_file", metavar="EVENT.zip",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--key", "key_file", default=None, metavar="ROOM_PUBLIC_KEY_FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The room's public key, obtained from the room (not from the archive).")
@click.option("--min-witnesses", default=0, type=click.IntRange(min=0), metavar="N",
              help="Accept the log only as far as a checkpoint cosigned by N witnesses.")
def verify(zip_file: Path, key_file: Path | None, min_witnesses: int) -> None:
    """Check an archive with no database and no network: every file against the manifest,
    then the log, the checkpoints, the cosignatures and the sign-off. Exit status as `handlog
    log verify`."""
    key = None
    if key_file is not None:
        try:
            key = parse_verifier(key_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, CheckpointError) as exc:
            raise click.UsageError(f"{key_file}: {exc}") from None
    checked = verify_archive(zip_file, key, min_witnesses)
    for line in checked.lines:
        click.echo(line)
    if checked.status:
        raise click.exceptions.Exit(checked.status)
