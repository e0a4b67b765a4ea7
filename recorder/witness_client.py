"""The room's side of witnessing: each checkpoint the room signs is posted to every witness
(`handlog serve --witness URL=KEYFILE`) from a thread of its own, so a tap never waits for a
witness; a witness that is down is retried (1 s, doubling up to a minute) with the newest
checkpoint. The cosignatures are stored in the database beside their checkpoint, the witnesses'
answers to one checkpoint in one write (CosignatureWriter). Each cosigned checkpoint (the
room's note with the witness's cosignature under it) is also kept in
`<folder>/<witness>/<size>.checkpoint`, for `handlog log verify --checkpoint ... --witness-key
... --min-witnesses N` and the archive."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import click

from handlog.recorder.witness import cosigned, make_request
from handlog.schema.checkpoint import CheckpointError, StoredCheckpoint, record_cosignatures
from handlog.schema.cosignature import WitnessKey, parse_witness_key, verify_cosignatures
from handlog.schema.errors import HandlogError
from handlog.schema.proof import ProofError, consistency_path
from handlog.schema.store import RIDE_SECONDS, EventStore

TIMEOUT_SECONDS = 10.0
MAX_BACKOFF_SECONDS = 60.0
LINGER_SECONDS = 0.05


@dataclass
class WitnessStatus:
    witness: str
    cosigned_size: int = 0
    pending_size: int | None = None
    error: str = ""


class CosignatureWriter:
    """The witnesses' cosignatures into the database, those that come back together in one
    transaction: each checkpoint is posted to every witness at once, so the first answer
    waits a moment (LINGER_SECONDS at most) for the others' to come, and the taps share
    SQLite's writer with one commit a checkpoint rather than one a witness."""

    def __init__(self, store: EventStore, witnesses: int = 1) -> None:
        self.store = store
        self.witnesses = witnesses
        self._wake = threading.Condition()
        self._queued: list[_Cosigned] = []
        self._writing = False

    def keep(self, number: int, witness: str, line: str, cosigned_at: datetime) -> None:
        """Stored once this returns (with what came meanwhile); raises what the write
        raised."""
        row = _Cosigned((number, witness, line, cosigned_at))
        with self._wake:
            self._queued.append(row)
            self._wake.notify_all()
            while self._writing and not row.done:
                self._wake.wait()
            if not row.done:  # this thread writes what is queued
                self._writing = True
                self._wake.wait_for(lambda: len(self._queued) >= self.witnesses,
                                    LINGER_SECONDS)
                batch, self._queued = self._queued, []
        if row.done:
            if row.error is not None:
                raise row.error
            return
        error: Exception | None = None
        try:
            record_cosignatures(self.store, [r.values for r in batch], RIDE_SECONDS)
        except Exception as exc:  # noqa: BLE001 - each waiting client's answer
            error = exc
        with self._wake:
            for written in batch:
                written.done, written.error = True, error
            self._writing = False
            self._wake.notify_all()
        if error is not None:
            raise error


@dataclass
class _Cosigned:
    values: tuple[int, str, str, datetime]
    done: bool = False
    error: Exception | None = None


class WitnessClient:
    def __init__(self, url: str, key: WitnessKey, store: EventStore, folder: Path,
                 writer: CosignatureWriter | None = None) -> None:
        self.url = url.rstrip("/") + ("" if url.rstrip("/").endswith("/add-checkpoint")
                                      else "/add-checkpoint")
        self.key = key
        self.store = store
        self.writer = writer or CosignatureWriter(store)
        self.folder = folder / "".join(c if c.isalnum() or c in ".-" else "_" for c in key.name)
        self.status = WitnessStatus(key.name)
        self._pending: StoredCheckpoint | None = None
        self._wake = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"witness {key.name}",
                                        daemon=True)
        self._thread.start()

    def submit(self, taken: StoredCheckpoint) -> None:
        """Hand the newest checkpoint to the thread (never blocks on the witness)."""
        with self._wake:
            if self._pending is None or taken.checkpoint.size >= self._pending.checkpoint.size:
                self._pending = taken
                self.status.pending_size = taken.checkpoint.size
            self._wake.notify()

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()

    def idle(self, timeout: float) -> bool:
        """Wait until nothing is pending (for tests and a closing server)."""
        with self._wake:
            return self._wake.wait_for(lambda: self._pending is None, timeout)

    def _run(self) -> None:
        backoff = 1.0
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    return
                taken = self._pending
            assert taken is not None
            if self._post(taken):
                backoff = 1.0
                with self._wake:
                    if self._pending is taken:
                        self._pending = None
                        self.status.pending_size = None
                    self._wake.notify_all()
                continue
            with self._wake:  # retry later, or sooner with a newer checkpoint
                self._wake.wait_for(self._newer_than(taken), backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)

    def _newer_than(self, taken: StoredCheckpoint) -> Callable[[], bool]:
        return lambda: self._closed or self._pending is not taken

    def _post(self, taken: StoredCheckpoint) -> bool:
        checkpoint = taken.checkpoint
        for _attempt in range(2):  # a 409 tells the size the witness holds: ask again from it
            old = self.status.cosigned_size
            if old > checkpoint.size:
                self.status.error = (f"the witness cosigned {old} events, more than this "
                                     f"checkpoint's {checkpoint.size}: was the log rolled back?")
                return True  # nothing to retry: the newest checkpoint is smaller
            try:
                proof = consistency_path(self.store, old, checkpoint.size)
            except ProofError as exc:
                self.status.error = str(exc)
                return False
            request = urllib.request.Request(
                self.url, data=make_request(old, proof, checkpoint.text), method="POST",
                headers={"Content-Type": "text/plain; charset=utf-8"})
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
                    body = answer.read().decode("utf-8", "replace")
            except urllib.error.HTTPError as exc:
                text = exc.read().decode("utf-8", "replace").strip()
                if exc.code == 409 and text.isdigit() and int(text) != old:
                    self.status.cosigned_size = int(text)
                    continue
                self.status.error = f"refused ({exc.code}): {text}"
                click.echo(f"witness {self.key.name} refused checkpoint of size "
                           f"{checkpoint.size}: {exc.code} {text}", err=True)
                return exc.code >= 400 and exc.code < 500
            except (OSError, ValueError) as exc:
                self.status.error = f"unreachable: {exc}"
                return False
            text = cosigned(checkpoint, body)
            try:
                found = verify_cosignatures(text, [self.key])
                if not found:
                    self.status.error = "the answer holds no cosignature by this witness's key"
                    return False
                line = next(x for x in text[len(checkpoint.text):].splitlines()
                            if verify_cosignatures(checkpoint.text + x + "\n", [self.key]))
                self.writer.keep(taken.number, self.key.name, line, found[0].time)
            except (CheckpointError, HandlogError) as exc:
                self.status.error = str(exc)
                return False
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / f"{checkpoint.size}.checkpoint").write_text(text, encoding="utf-8")
            self.status.cosigned_size = checkpoint.size
            self.status.error = ""
            return True
        return False


def witness_clients(specs: list[str] | tuple[str, ...], store: EventStore,
                    folder: Path) -> list[WitnessClient]:
    """One client per `URL=KEYFILE`; click.UsageError naming a bad one."""
    clients = []
    writer = CosignatureWriter(store, len(specs))
    for spec in specs:
        url, equals, key_file = spec.rpartition("=")
        if not equals or not url.startswith(("http://", "https://")):
            raise click.UsageError(f"--witness {spec!r}: give URL=KEYFILE, e.g. "
                                   "http://league.example:8011=league.pub")
        try:
            key = parse_witness_key(Path(key_file).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, CheckpointError) as exc:
            raise click.UsageError(f"--witness {spec!r}: {exc}") from None
        clients.append(WitnessClient(url, key, store, folder, writer))
    return clients


def to_witnesses(clients: list[WitnessClient]) -> Callable[[StoredCheckpoint], None] | None:
    """What the checkpointer calls with each checkpoint signed: hand it to every client."""
    if not clients:
        return None

    def submit(taken: StoredCheckpoint) -> None:
        for client in clients:
            client.submit(taken)

    return submit
