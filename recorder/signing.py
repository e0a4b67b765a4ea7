"""Where the room's signing key lives and what its log is called (the checkpoints' origin).

The key file: `--signing-key FILE`, else $HANDLOG_SIGNING_KEY, else `handlog.signing-key` beside
the server's secret (`--secret-file`, else $HANDLOG_SECRET_FILE, else the working folder), so
`handlog serve` and the `handlog log` commands run from the same place find the same key.
`handlog serve` makes it (0600) on its first start, named after the origin: `--origin NAME`,
else $HANDLOG_ORIGIN, else `handlog/<this machine's host name>`; once made, the name in the file
is the origin of every checkpoint, so it never changes with the machine.
"""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import click

from handlog.recorder.service import Recorder
from handlog.schema.checkpoint import SigningKey, load_or_create_signing_key, record_checkpoint
from handlog.schema.store import EventStore

KEY_FILE = "handlog.signing-key"


def signing_key_path(option: Path | None, secret_file: Path | None = None) -> Path:
    if option is not None:
        return option
    if os.environ.get("HANDLOG_SIGNING_KEY"):
        return Path(os.environ["HANDLOG_SIGNING_KEY"])
    secret = secret_file or (Path(os.environ["HANDLOG_SECRET_FILE"])
                             if os.environ.get("HANDLOG_SECRET_FILE") else None)
    return (secret.parent if secret is not None else Path(".")) / KEY_FILE


def default_origin() -> str:
    name = os.environ.get("HANDLOG_ORIGIN") or f"handlog/{socket.gethostname() or 'room'}"
    return re.sub(r"[\s+]", "-", name)


def signing_key(path: Path, origin: str | None = None) -> SigningKey:
    """The key in `path`, made there (and said so on stderr) when there is none."""
    key, created = load_or_create_signing_key(path, origin or default_origin())
    if created:
        click.echo(f"made the signing key {path} for the log {key.name!r} (keep it private; "
                   "`handlog log key` prints the public key to publish)", err=True)
    return key


def sign_checkpoints(recorder: Recorder, store: EventStore, key: SigningKey) -> None:
    """Take a signed checkpoint whenever the recorder records a level, a break, a table closing
    or the end of a tournament."""
    recorder.checkpoint = lambda reason: record_checkpoint(store, key, reason)


signing_key_option = click.option(
    "--signing-key", "signing_key_file", default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help=f"The room's Ed25519 signing key (default: $HANDLOG_SIGNING_KEY, else {KEY_FILE} "
    "beside handlog.secret).",
)
