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
import threading
from collections.abc import Callable
from pathlib import Path

import click

from handlog.recorder.service import Recorder
from handlog.schema.checkpoint import (
    SigningKey,
    StoredCheckpoint,
    latest_checkpoint,
    load_or_create_signing_key,
    record_checkpoint,
)
from handlog.schema.store import EventStore

KEY_FILE = "handlog.signing-key"
DIRECTOR_KEY_FILE = "handlog.director-key"


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


DEFAULT_DELAY_SECONDS = 60.0


class Checkpointer:
    """Signs a checkpoint at once after a level, break, table closing, finish, ruling,
    correction, award, deal or payout, and at most `delay` seconds after any other append
    (one timer at a time, on its own thread: a tap never waits for it). `after` is told of
    each checkpoint signed (the witnesses are sent it from there)."""

    def __init__(self, store: EventStore, key: SigningKey,
                 delay: float = DEFAULT_DELAY_SECONDS,
                 after: Callable[[StoredCheckpoint], object] | None = None) -> None:
        self.store = store
        self.key = key
        self.delay = delay
        self.after = after
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def sign(self, reason: str) -> StoredCheckpoint:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        taken = record_checkpoint(self.store, self.key, reason)
        if self.after is not None:
            self.after(taken)
        return taken

    def unsigned(self) -> None:
        with self._lock:
            if self._timer is not None:
                return
            self._timer = threading.Timer(self.delay, self._elapsed)
            self._timer.daemon = True
            self._timer.start()

    def _elapsed(self) -> None:
        with self._lock:
            self._timer = None
        try:
            head = self.store.tree_head()
            latest = latest_checkpoint(self.store)
            if latest is None or latest.checkpoint.size < head.size:
                self.sign("delay_elapsed")
        except Exception as exc:  # noqa: BLE001 - a timer thread has no caller to raise to
            click.echo(f"the delayed checkpoint could not be signed: {exc}", err=True)

    def flush(self) -> None:
        """Sign now what the timer would sign (a closing server, the end of a demo)."""
        with self._lock:
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
            self._elapsed()

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


def sign_checkpoints(recorder: Recorder, store: EventStore, key: SigningKey,
                     delay: float = DEFAULT_DELAY_SECONDS,
                     after: Callable[[StoredCheckpoint], object] | None = None) -> Checkpointer:
    """Take a signed checkpoint at once whenever the recorder records a level, a break, a
    table closing, the end of a tournament, a ruling, a correction, an award, a deal or a
    payout, and within `delay` seconds of any other append."""
    signer = Checkpointer(store, key, delay, after)
    recorder.checkpoint = signer.sign
    recorder.unsigned = signer.unsigned
    return signer


signing_key_option = click.option(
    "--signing-key", "signing_key_file", default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help=f"The room's Ed25519 signing key (default: $HANDLOG_SIGNING_KEY, else {KEY_FILE} "
    "beside handlog.secret).",
)
