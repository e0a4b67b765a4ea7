"""Where the room's signing key lives and what its log is called (the checkpoints' origin).

The key file: `--signing-key FILE`, else $HANDLOG_SIGNING_KEY, else `handlog.signing-key` beside
the server's secret (`--secret-file`, else $HANDLOG_SECRET_FILE, else the working folder), so
`handlog serve` and the `handlog log` commands run from the same place find the same key.
`handlog serve` makes it (0600) on its first start, named after the origin: `--origin NAME`,
else $HANDLOG_ORIGIN, else `handlog/<this machine's host name>`; once made, the name in the file
is the origin of every checkpoint, so it never changes with the machine.
"""

from __future__ import annotations

import atexit
import os
import re
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import click

from handlog.recorder.service import Recorder, weightiest
from handlog.schema.checkpoint import (
    SigningKey,
    StoredCheckpoint,
    latest_checkpoint,
    load_or_create_signing_key,
    record_checkpoint,
)
from handlog.schema.store import RIDE_SECONDS, EventStore

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
DEFAULT_INTERVAL_SECONDS = 1.0


class Checkpointer:
    """Signs the room's checkpoints on a thread of its own, so that a tap never waits for a
    signature: at once after a level, break, table closing, finish, ruling, correction,
    award, deal or payout, and at most `delay` seconds after any other append. "At once" is
    within milliseconds of the answer when no checkpoint was signed in the last `interval`
    seconds, else when that interval ends: the room signs at most one checkpoint an
    interval (as a transparency log publishes one checkpoint an interval), so a room that
    ends hands faster than that does not spend its taps' interpreter on signatures and
    witnesses' round trips. Requests that pile up are covered by one checkpoint, named after
    the weightiest of them. A checkpoint that cannot be signed is tried again within the
    delay. `after` is told of each checkpoint signed (the witnesses are sent it from
    there)."""

    def __init__(self, store: EventStore, key: SigningKey,
                 delay: float = DEFAULT_DELAY_SECONDS,
                 after: Callable[[StoredCheckpoint], object] | None = None,
                 interval: float = DEFAULT_INTERVAL_SECONDS) -> None:
        self.store = store
        self.key = key
        self.delay = delay
        self.interval = min(interval, delay)
        self.after = after
        self._wake = threading.Condition()
        self._reasons: set[str] = set()  # asked for at once, not signed yet
        self._due: float | None = None  # when the delayed one is due (time.monotonic())
        self._last = float("-inf")  # when the thread last signed (time.monotonic())
        self._hurry = False  # flush(): sign what is asked without waiting for the interval
        self._signing = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="checkpoints", daemon=True)
        self._thread.start()
        atexit.register(self.close)  # what was asked at once is signed before the exit

    def soon(self, reason: str) -> None:
        with self._wake:
            self._reasons.add(reason)
            self._wake.notify_all()

    def unsigned(self) -> None:
        if self._due is not None:  # one is due already: a tap's whole cost, with no lock
            return
        with self._wake:
            if self._due is None:
                self._due = time.monotonic() + self.delay
                self._wake.notify_all()

    def sign(self, reason: str, patience: float = 0.0) -> StoredCheckpoint:
        """Sign now (`patience`: how long the write may wait to ride the tables' next batch
        of appends; the signer's own thread waits, a caller answering a request does not)."""
        with self._wake:
            self._due = None  # this one covers what the delay waited for
        taken = record_checkpoint(self.store, self.key, reason, patience=patience)
        if self.after is not None:
            self.after(taken)
        return taken

    def _run(self) -> None:
        while True:
            with self._wake:
                reason = self._next()
                while reason is None:
                    if self._closed and not self._reasons:
                        return
                    self._wake.wait(self._until())
                    reason = self._next()
                self._signing = True
            try:
                if reason != "delay_elapsed" or self._behind():
                    self.sign(reason, RIDE_SECONDS)
                    self._last = time.monotonic()
            except Exception as exc:  # noqa: BLE001 - this thread has no caller to raise to
                click.echo(f"the checkpoint after {reason} could not be signed now (tried "
                           f"again within {self.delay:g} s): {exc}", err=True)
                with self._wake:
                    self._due = time.monotonic() + self.delay
            finally:
                with self._wake:
                    self._signing = False
                    self._wake.notify_all()

    def _until(self) -> float | None:
        """How long the thread may sleep before something is due (the lock held)."""
        times = [t for t in (self._due, self._last + self.interval if self._reasons else None)
                 if t is not None]
        return max(0.0, min(times) - time.monotonic()) if times else None

    def _next(self) -> str | None:
        """What to sign now, taken from what was asked (the lock held)."""
        if self._reasons and (self._closed or self._hurry
                              or time.monotonic() >= self._last + self.interval):
            reason = weightiest(self._reasons)
            self._reasons.clear()
            self._due = None
            self._hurry = False
            return reason
        if self._due is not None and self._due <= time.monotonic():
            self._due = None
            return "delay_elapsed"
        return None

    def _behind(self) -> bool:
        latest = latest_checkpoint(self.store)
        return latest is None or latest.checkpoint.size < self.store.tree_head().size

    def flush(self) -> None:
        """Sign now what is asked or due (a closing server, the end of a demo): once it
        returns, every event appended before it is covered."""
        with self._wake:
            if not self._closed:
                if self._due is not None:
                    self._due = 0.0
                if self._reasons:
                    self._hurry = True
                self._wake.notify_all()
                self._wake.wait_for(lambda: not self._reasons and not self._signing and (
                    self._due is None or self._due > time.monotonic()))
                return
        if self._behind():  # (the thread stopped: signed here)
            self.sign("delay_elapsed")

    def close(self) -> None:
        """Sign what was asked at once (not what only the delay waits for: `flush`), then
        stop the thread."""
        with self._wake:
            self._closed = True
            self._wake.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join()
        atexit.unregister(self.close)


def sign_checkpoints(recorder: Recorder, store: EventStore, key: SigningKey,
                     delay: float = DEFAULT_DELAY_SECONDS,
                     after: Callable[[StoredCheckpoint], object] | None = None,
                     interval: float = DEFAULT_INTERVAL_SECONDS) -> Checkpointer:
    """Take a signed checkpoint at once (at most one an `interval`) whenever the recorder
    records a level, a break, a table closing, the end of a tournament, a ruling, a
    correction, an award, a deal or a payout, and within `delay` seconds of any other
    append."""
    signer = Checkpointer(store, key, delay, after, interval)
    recorder.signer = signer
    return signer


signing_key_option = click.option(
    "--signing-key", "signing_key_file", default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help=f"The room's Ed25519 signing key (default: $HANDLOG_SIGNING_KEY, else {KEY_FILE} "
    "beside handlog.secret).",
)
