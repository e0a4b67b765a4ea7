"""Witness cosignatures of checkpoints: C2SP tlog-cosignature, `cosignature/v1` with Ed25519.

A witness (recorder/witness.py) cosigns a checkpoint of the room's log only after checking
that it extends the last one it cosigned for that origin. The cosignature is one more signed
note line under the checkpoint:

    — <witness name> base64(key ID || 8-byte big-endian POSIX timestamp || Ed25519 signature)

key ID = SHA-256(name || 0x0A || 0x04 || 32-byte public key)[:4], and the signed message is

    cosignature/v1
    time <timestamp>
    <the checkpoint's note body: origin, size, root and any extension lines>

A witness's public key is a verifier key `<name>+<key ID hex>+<base64(0x04 || public key)>`;
its private key file holds `PRIVATE+KEY+<name>+<key ID hex>+<base64(0x04 || seed)>`.
"""

from __future__ import annotations

import base64
import hashlib
import os
import struct
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from handlog.schema.checkpoint import DASH, CheckpointError, check_name, decode_b64

COSIGNATURE_V1 = b"\x04"
MAX_TIMESTAMP = 2**63 - 1


def cosigner_key_id(name: str, public: bytes) -> bytes:
    return hashlib.sha256(name.encode("utf-8") + b"\n" + COSIGNATURE_V1 + public).digest()[:4]


def cosigned_message(body: str, timestamp: int) -> bytes:
    return f"cosignature/v1\ntime {timestamp}\n{body}".encode()


@dataclass(frozen=True)
class WitnessKey:
    """A witness's public key (what an auditor holds to count its cosignatures)."""

    name: str
    public: bytes

    @property
    def id(self) -> bytes:
        return cosigner_key_id(self.name, self.public)

    def text(self) -> str:
        encoded = base64.b64encode(COSIGNATURE_V1 + self.public).decode()
        return f"{self.name}+{self.id.hex()}+{encoded}"

    def verify(self, body: str, timestamp: int, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(
                signature, cosigned_message(body, timestamp))
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True)
class WitnessSigningKey:
    name: str
    seed: bytes

    @property
    def verifier(self) -> WitnessKey:
        public = Ed25519PrivateKey.from_private_bytes(self.seed).public_key().public_bytes(
            Encoding.Raw, PublicFormat.Raw)
        return WitnessKey(self.name, public)

    def text(self) -> str:
        encoded = base64.b64encode(COSIGNATURE_V1 + self.seed).decode()
        return f"PRIVATE+KEY+{self.name}+{self.verifier.id.hex()}+{encoded}"

    def cosign(self, body: str, timestamp: int) -> str:
        """The cosignature line (newline included) of the checkpoint body at `timestamp`."""
        if not 0 <= timestamp <= MAX_TIMESTAMP:
            raise ValueError(f"timestamp {timestamp} is out of range")
        signature = Ed25519PrivateKey.from_private_bytes(self.seed).sign(
            cosigned_message(body, timestamp))
        raw = self.verifier.id + struct.pack(">Q", timestamp) + signature
        return f"{DASH} {self.name} {base64.b64encode(raw).decode()}\n"


def parse_witness_key(text: str) -> WitnessKey:
    """A witness's verifier key `name+hexid+base64(0x04||key)`; CheckpointError if not."""
    parts = text.strip().split("+", 2)
    if len(parts) != 3:
        raise CheckpointError("a witness key is one line `<name>+<8 hex digits>+<base64 key>` "
                              "(what `handlog witness key` prints)")
    name, hex_id, encoded = parts
    check_name(name)
    raw = decode_b64(encoded, "witness key")
    if len(raw) != 33 or raw[:1] != COSIGNATURE_V1:
        raise CheckpointError("not a witness key: a cosignature/v1 key is type 0x04 and 32 "
                              "bytes (a room's checkpoint key is type 0x01)")
    key = WitnessKey(name, raw[1:])
    if hex_id.lower() != key.id.hex():
        raise CheckpointError(f"the witness key's ID {hex_id} does not match its key "
                              f"({key.id.hex()}): the key text was altered")
    return key


def parse_witness_signing_key(text: str) -> WitnessSigningKey:
    parts = text.strip().split("+", 4)
    if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"]:
        raise CheckpointError("not a witness signing key (PRIVATE+KEY+<name>+<id>+<key>)")
    name, hex_id, encoded = parts[2:]
    check_name(name)
    raw = decode_b64(encoded, "witness signing key")
    if len(raw) != 33 or raw[:1] != COSIGNATURE_V1:
        raise CheckpointError("not a witness signing key (type 0x04, 32 bytes)")
    key = WitnessSigningKey(name, raw[1:])
    if hex_id.lower() != key.verifier.id.hex():
        raise CheckpointError("the witness signing key's ID does not match its key")
    return key


def create_witness_key(path: Path, name: str) -> WitnessSigningKey:
    """A new witness key named `name`, written to `path` (0600; an existing file is kept and
    refused)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise CheckpointError(f"{path} exists: a witness keeps its key (remove it first to "
                              "start a new witness)") from None
    except OSError as exc:
        raise CheckpointError(f"cannot create the witness key {path}: {exc.strerror}") from None
    key = WitnessSigningKey(check_name(name), Ed25519PrivateKey.generate().private_bytes_raw())
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key.text() + "\n")
    return key


def load_witness_key(path: Path) -> WitnessSigningKey:
    try:
        return parse_witness_signing_key(Path(path).read_text(encoding="ascii"))
    except FileNotFoundError:
        raise CheckpointError(f"no witness key at {path}: make one with `handlog witness init`") \
            from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"cannot read the witness key {path}: {exc}") from None


@dataclass(frozen=True)
class Cosignature:
    witness: str
    """The witness's verifier key text."""
    timestamp: int

    @property
    def time(self) -> datetime:
        return datetime.fromtimestamp(self.timestamp, UTC)


def note_body(text: str) -> str:
    """The note's signed text (up to and with the newline before the blank line)."""
    if "\n\n" not in text:
        raise CheckpointError("not a signed note: no blank line before the signatures")
    return text[:text.rindex("\n\n") + 1]


def verify_cosignatures(text: str, keys: list[WitnessKey]) -> list[Cosignature]:
    """The valid cosignatures of the note `text` by `keys`, one per witness (lines by other
    keys are ignored, as C2SP asks). A line by a known key that does not verify is an error."""
    body = note_body(text)
    found: dict[str, Cosignature] = {}
    for line in text[len(body) + 1:].split("\n"):
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH:
            continue
        raw = decode_b64(parts[2], "cosignature")
        for key in keys:
            if parts[1] != key.name or raw[:4] != key.id:
                continue
            if len(raw) != 4 + 8 + 64:
                raise CheckpointError(f"the cosignature by {key.name} is not a "
                                      "cosignature/v1 (timestamp and Ed25519 signature)")
            (timestamp,) = struct.unpack(">Q", raw[4:12])
            if timestamp > MAX_TIMESTAMP or not key.verify(body, timestamp, raw[12:]):
                raise CheckpointError(f"the cosignature by {key.name} does not verify: the "
                                      "checkpoint or the cosignature was altered")
            found.setdefault(key.text(), Cosignature(key.text(), timestamp))
    return list(found.values())
