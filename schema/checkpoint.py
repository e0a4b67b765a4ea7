"""Signed checkpoints of the Merkle log: C2SP signed notes (c2sp.org/signed-note) whose text is a
C2SP tlog checkpoint (c2sp.org/tlog-checkpoint), signed with Ed25519.

A checkpoint, as printed, posted and handed to an auditor:

    <origin>                     the room's name (the signing key's name)
    <tree size>                  decimal, no leading zeros
    <base64 root hash>           RFC 9162 root of the first <tree size> leaves
                                 (a blank line)
    — <origin> <base64(key ID || Ed25519 signature of the three lines above)>

key ID = SHA-256(name || 0x0A || 0x01 || 32-byte public key)[:4]. The public key is given as a
verifier key, `<name>+<key ID hex>+<base64(0x01 || public key)>` (the form Go's
golang.org/x/mod/sumdb/note reads); the private key file holds
`PRIVATE+KEY+<name>+<key ID hex>+<base64(0x01 || 32-byte seed)>`.

A checkpoint proves what the log held when it was signed: anyone holding it can later ask the
room for a consistency proof (schema/tlog.py) that today's log only grew from it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from handlog.schema.errors import HandlogError
from handlog.schema.merkle import read_head
from handlog.schema.store import EventStore
from handlog.schema.tables import checkpoints_table, cosignatures_table

ED25519 = b"\x01"
DASH = "\u2014"
MAX_SIGNATURES = 16

REASONS = (
    "level_started", "break_started", "table_closed", "tournament_finished",
    "prizes_awarded", "on_demand", "deal_recorded", "high_hand_awarded", "bounty_assigned",
    "ruling_recorded", "penalty_recorded", "event_voided", "event_amended", "stack_corrected",
    "hand_voided", "delay_elapsed", "director_sign_off",
)
"""Why a checkpoint was taken (stored as a code; words are rendered when read)."""


class CheckpointError(HandlogError):
    """A checkpoint or key that cannot be read or does not verify."""


def check_name(name: str) -> str:
    """A key name / origin as the C2SP notes allow: non-empty, no spaces, no '+'."""
    if not name or any(c.isspace() or c == "+" for c in name) or any(
        ord(c) < 0x20 for c in name
    ):
        raise CheckpointError(
            f"origin {name!r} cannot name a log: it must be non-empty, without spaces or '+' "
            "(e.g. casino.example/poker-room)"
        )
    return name


def key_id(name: str, public: bytes) -> bytes:
    return hashlib.sha256(name.encode("utf-8") + b"\n" + ED25519 + public).digest()[:4]


@dataclass(frozen=True)
class VerifierKey:
    name: str
    public: bytes

    @property
    def id(self) -> bytes:
        return key_id(self.name, self.public)

    def text(self) -> str:
        encoded = base64.b64encode(ED25519 + self.public).decode()
        return f"{self.name}+{self.id.hex()}+{encoded}"

    def verify(self, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True)
class SigningKey:
    name: str
    seed: bytes

    def _private(self) -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(self.seed)

    @property
    def verifier(self) -> VerifierKey:
        public = self._private().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return VerifierKey(self.name, public)

    def text(self) -> str:
        encoded = base64.b64encode(ED25519 + self.seed).decode()
        return f"PRIVATE+KEY+{self.name}+{self.verifier.id.hex()}+{encoded}"

    def sign(self, message: bytes) -> bytes:
        return self._private().sign(message)


def parse_verifier(text: str) -> VerifierKey:
    """A verifier key `name+hexid+base64(0x01||key)`; CheckpointError naming what is wrong."""
    parts = text.strip().split("+", 2)  # base64 may hold '+'; names and IDs never do
    if len(parts) != 3:
        raise CheckpointError(
            "a public key is one line `<name>+<8 hex digits>+<base64 key>` "
            "(what `handlog log key` prints)"
        )
    name, hex_id, encoded = parts
    check_name(name)
    raw = decode_b64(encoded, "public key")
    if len(raw) != 33 or raw[:1] != ED25519:
        raise CheckpointError("the public key is not an Ed25519 key (type 0x01, 32 bytes)")
    key = VerifierKey(name, raw[1:])
    if hex_id.lower() != key.id.hex():
        raise CheckpointError(f"the public key's ID {hex_id} does not match its key "
                              f"({key.id.hex()}): the key text was altered")
    return key


def parse_signing_key(text: str) -> SigningKey:
    parts = text.strip().split("+", 4)
    if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"]:
        raise CheckpointError("not a handlog signing key (PRIVATE+KEY+<name>+<id>+<key>)")
    name, hex_id, encoded = parts[2:]
    check_name(name)
    raw = decode_b64(encoded, "signing key")
    if len(raw) != 33 or raw[:1] != ED25519:
        raise CheckpointError("the signing key is not an Ed25519 key (type 0x01, 32 bytes)")
    key = SigningKey(name, raw[1:])
    if hex_id.lower() != key.verifier.id.hex():
        raise CheckpointError("the signing key's ID does not match its key: the file was altered")
    return key


def load_or_create_signing_key(path: Path, origin: str) -> tuple[SigningKey, bool]:
    """The key in `path`, or a new one named `origin` written there (0600); (key, created)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return load_signing_key(path), False
    except OSError as exc:
        raise CheckpointError(f"cannot create the signing key {path}: {exc.strerror}") from None
    key = SigningKey(check_name(origin), Ed25519PrivateKey.generate().private_bytes_raw())
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key.text() + "\n")
    return key, True


def load_signing_key(path: Path) -> SigningKey:
    try:
        text = Path(path).read_text(encoding="ascii")
    except FileNotFoundError:
        raise CheckpointError(
            f"no signing key at {path}: `handlog serve` makes one on its first start, or give "
            "--signing-key FILE"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"cannot read the signing key {path}: {exc}") from None
    return parse_signing_key(text)


def decode_b64(text: str, what: str) -> bytes:
    """Strict base64 of a key or signature field; CheckpointError naming `what`."""
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise CheckpointError(f"the {what} is not valid base64") from None


# --- the note ---------------------------------------------------------------------------------


TIME_EXTENSION = "handlog-time"
"""The extension line that carries the signing time inside the signed text:
`handlog-time 2026-12-02T11:30:05Z` (C2SP tlog-checkpoint: verifiers that do not know an
extension line skip it; a witness cosigns it with the rest of the body)."""


def checkpoint_body(origin: str, size: int, root: bytes, signed_at: datetime | None = None
                    ) -> str:
    body = f"{origin}\n{size}\n{base64.b64encode(root).decode()}\n"
    if signed_at is not None:
        body += f"{TIME_EXTENSION} {signed_at.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%SZ')}\n"
    return body


def sign_checkpoint(key: SigningKey, size: int, root: bytes,
                    signed_at: datetime | None = None) -> str:
    """The signed note of the tree head (size, root), signed by `key` (origin = its name),
    with the signing time as an extension line when given."""
    body = checkpoint_body(key.name, size, root, signed_at)
    signature = base64.b64encode(key.verifier.id + key.sign(body.encode("utf-8"))).decode()
    return f"{body}\n{DASH} {key.name} {signature}\n"


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    text: str
    signed_by: str | None = None
    """The verifier key that checked the signature (None: the signature was not checked)."""

    @property
    def root_hex(self) -> str:
        return self.root.hex()

    @property
    def signed_at(self) -> datetime | None:
        """The time in the signed text (the `handlog-time` extension line), if any."""
        body = self.text[:self.text.rindex("\n\n") + 1] if "\n\n" in self.text else ""
        for line in body.split("\n")[3:]:
            if line.startswith(TIME_EXTENSION + " "):
                try:
                    return datetime.strptime(line[len(TIME_EXTENSION) + 1:],
                                             "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
                except ValueError:
                    return None
        return None


def parse_checkpoint(text: str, key: VerifierKey | None = None) -> Checkpoint:
    """Read a checkpoint; with `key`, its signature must verify (C2SP: a signature by a known
    key that fails rejects the note; unknown keys' signatures are ignored; at least one known
    key must sign). CheckpointError names what is wrong."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    if any(ord(c) < 0x20 and c != "\n" for c in text):
        raise CheckpointError("a checkpoint holds no control characters other than newlines")
    if not text.endswith("\n") or "\n\n" not in text:
        raise CheckpointError(
            "not a signed checkpoint: expected the note text, a blank line, then signature "
            "lines `— <name> <base64>`"
        )
    split = text.rindex("\n\n")
    body, signatures = text[:split + 1], text[split + 2:]
    lines = body.split("\n")[:-1]
    if len(lines) < 3 or not all(lines[:3]):
        raise CheckpointError("a checkpoint's text is three lines: origin, tree size, root hash")
    origin, size_text, root_text = lines[:3]
    if not size_text.isascii() or not size_text.isdigit() or (
        size_text != "0" and size_text.startswith("0")
    ):
        raise CheckpointError(f"tree size {size_text!r} is not a decimal number")
    root = decode_b64(root_text, "root hash")
    if len(root) != 32:
        raise CheckpointError("the root hash is not a SHA-256 hash (32 bytes)")
    found = []
    for line in signatures.split("\n")[:-1]:
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH or not parts[1]:
            raise CheckpointError(f"not a signature line: {line!r}")
        raw = decode_b64(parts[2], "signature")
        if len(raw) < 5:
            raise CheckpointError("a signature is too short")
        found.append((parts[1], raw[:4], raw[4:]))
    if not found:
        raise CheckpointError("the checkpoint is not signed")
    if len(found) > MAX_SIGNATURES:
        raise CheckpointError(f"more than {MAX_SIGNATURES} signatures")
    signed_by = None
    if key is not None:
        mine = [s for s in found if s[0] == key.name and s[1] == key.id]
        if not mine:
            raise CheckpointError(
                f"the checkpoint is not signed by the key {key.text()} (signed by "
                f"{', '.join(sorted({s[0] for s in found}))})"
            )
        for _name, _id, signature in mine:
            if not key.verify(body.encode("utf-8"), signature):
                raise CheckpointError(
                    "the signature does not verify: the checkpoint was altered or not signed "
                    "by this key"
                )
        signed_by = key.text()
    return Checkpoint(origin, int(size_text), root, text, signed_by)


# --- checkpoints in the database ------------------------------------------------------------


@dataclass(frozen=True)
class StoredCosignature:
    witness: str
    """The witness's name (as its cosignature line names it; checked only against its key)."""
    line: str
    """`— <witness> <base64>`, no newline: C2SP tlog-cosignature, under the checkpoint."""
    cosigned_at: datetime
    """The time inside the cosignature (the witness's clock)."""


@dataclass(frozen=True)
class StoredCheckpoint:
    number: int
    reason: str
    created_at: datetime
    checkpoint: Checkpoint
    cosignatures: tuple[StoredCosignature, ...] = ()

    @property
    def cosigned_text(self) -> str:
        """The room's note with every stored cosignature line under its signature."""
        return self.checkpoint.text + "".join(c.line + "\n" for c in self.cosignatures)


def record_checkpoint(store: EventStore, key: SigningKey, reason: str,
                      now: datetime | None = None, patience: float = 0.0) -> StoredCheckpoint:
    """Sign the log's head now and keep the note in `log_checkpoints` (`patience`: how long
    it may wait for the tables' next batch of appends to ride, EventStore.write_beside_appends;
    the head signed is the log's as that batch commits)."""
    if reason not in REASONS:
        raise ValueError(f"checkpoint reason {reason!r} is not one of {', '.join(REASONS)}")
    moment = (now or datetime.now(UTC)).astimezone(UTC)

    def write(connection: sa.Connection) -> StoredCheckpoint:
        head = read_head(connection)
        text = sign_checkpoint(key, head.size, head.root, moment)
        number = connection.execute(
            sa.insert(checkpoints_table).returning(checkpoints_table.c.checkpoint_id),
            {"tree_size": head.size, "root_hash": head.root.hex(), "origin": key.name,
             "note": text, "reason": reason, "created_at": moment},
        ).scalar_one()
        return StoredCheckpoint(int(number), reason, moment,
                                Checkpoint(key.name, head.size, head.root, text))

    # (in the tables' next batch of appends when they are appending: no flush of its own)
    return store.write_beside_appends(write, patience)


def record_cosignature(store: EventStore, number: int, witness: str, line: str,
                       cosigned_at: datetime) -> bool:
    """Keep a witness's cosignature line beside stored checkpoint `number` (False: that
    witness's cosignature of it was kept already)."""
    return record_cosignatures(store, [(number, witness, line, cosigned_at)]) == 1


def record_cosignatures(store: EventStore, rows: Sequence[tuple[int, str, str, datetime]],
                        patience: float = 0.0) -> int:
    """Keep witnesses' cosignature lines, each (checkpoint number, witness, line, time),
    beside their stored checkpoints in one transaction (in the tables' next batch of appends
    when they are appending); how many were new."""

    def write(connection: sa.Connection) -> int:
        kept = {(int(number), str(witness)) for number, witness in connection.execute(
            sa.select(cosignatures_table.c.checkpoint_id, cosignatures_table.c.witness).where(
                cosignatures_table.c.checkpoint_id.in_({number for number, *_ in rows})))}
        new = {}
        for number, witness, line, cosigned_at in rows:
            if (number, witness) not in kept:
                new[number, witness] = {
                    "checkpoint_id": number, "witness": witness, "line": line.rstrip("\n"),
                    "cosigned_at": cosigned_at.astimezone(UTC)}
        if new:
            connection.execute(sa.insert(cosignatures_table), list(new.values()))
        return len(new)

    return store.write_beside_appends(write, patience)


def _cosignatures(connection: sa.Connection, first: int = 0
                  ) -> dict[int, tuple[StoredCosignature, ...]]:
    rows = connection.execute(
        sa.select(cosignatures_table).where(cosignatures_table.c.checkpoint_id >= first)
        .order_by(cosignatures_table.c.checkpoint_id, cosignatures_table.c.cosigned_at,
                  cosignatures_table.c.witness)).all()
    found: dict[int, list[StoredCosignature]] = {}
    for row in rows:
        found.setdefault(int(row.checkpoint_id), []).append(
            StoredCosignature(row.witness, row.line, _utc(row.cosigned_at)))
    return {number: tuple(lines) for number, lines in found.items()}


def _stored(row: sa.Row[Any], cosignatures: dict[int, tuple[StoredCosignature, ...]]
            ) -> StoredCheckpoint:
    return StoredCheckpoint(
        int(row.checkpoint_id), row.reason, _utc(row.created_at),
        Checkpoint(row.origin, int(row.tree_size), bytes.fromhex(row.root_hash), row.note),
        cosignatures.get(int(row.checkpoint_id), ()),
    )


def stored_checkpoints(store: EventStore) -> list[StoredCheckpoint]:
    """Every checkpoint the room recorded, oldest first, with the witnesses' cosignatures
    kept beside each (as stored: not re-verified)."""
    with store.connection() as connection:
        rows = connection.execute(
            sa.select(checkpoints_table).order_by(checkpoints_table.c.checkpoint_id)
        ).all()
        cosignatures = _cosignatures(connection)
    return [_stored(row, cosignatures) for row in rows]


def latest_checkpoint(store: EventStore) -> StoredCheckpoint | None:
    with store.connection() as connection:
        row = connection.execute(
            sa.select(checkpoints_table).order_by(checkpoints_table.c.checkpoint_id.desc())
            .limit(1)
        ).one_or_none()
        if row is None:
            return None
        return _stored(row, _cosignatures(connection, int(row.checkpoint_id)))


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
