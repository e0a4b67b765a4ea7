"""handlog's signed checkpoints, inclusion proofs and consistency proofs, checked by a verifier
written here from the texts alone (RFC 9162 section 2.1, C2SP signed-note and tlog-checkpoint),
importing nothing of handlog's Merkle or checkpoint code: only `cryptography` for Ed25519."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

from click.testing import CliRunner, Result
from conftest_store import new_events
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from handlog.schema.store import open_store, upgrade_database

# --- the verifier, from the texts ------------------------------------------------------------


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def rfc_leaf(entry: bytes) -> bytes:
    return sha256(b"\x00" + entry)  # RFC 9162 2.1.1: MTH({d(0)}) = HASH(0x00 || d(0))


def rfc_node(left: bytes, right: bytes) -> bytes:
    return sha256(b"\x01" + left + right)


def rfc_mth(leaves: list[bytes]) -> bytes:
    if not leaves:
        return sha256(b"")
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return rfc_node(rfc_mth(leaves[:k]), rfc_mth(leaves[k:]))


def rfc_verify_inclusion(index: int, size: int, leaf: bytes, path: list[bytes],
                         root: bytes) -> bool:
    """RFC 9162 2.1.3.2, step by step."""
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = rfc_node(p, r)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = rfc_node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def rfc_verify_consistency(first: int, second: int, first_hash: bytes, second_hash: bytes,
                           path: list[bytes]) -> bool:
    """RFC 9162 2.1.4.2, step by step (0 < first < second)."""
    if not path:
        return False
    if first & (first - 1) == 0:
        path = [first_hash, *path]
    fn, sn = first - 1, second - 1
    while fn % 2 == 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr, sr = rfc_node(c, fr), rfc_node(c, sr)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = rfc_node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_hash and sr == second_hash and sn == 0


def c2sp_verifier_key(text: str) -> tuple[str, bytes]:
    """`name+hex key ID+base64(0x01 || key)`: the name and the 32-byte Ed25519 key, with the
    key ID checked (C2SP signed-note: SHA-256(name || 0x0A || 0x01 || key)[:4])."""
    name, key_id, encoded = text.strip().split("+", 2)
    raw = base64.b64decode(encoded)
    assert raw[0] == 0x01 and len(raw) == 33
    assert sha256(name.encode() + b"\n" + raw)[:4].hex() == key_id
    return name, raw[1:]


def c2sp_open_checkpoint(note: str, name: str, public: bytes) -> tuple[str, int, bytes]:
    """The origin, size and root of a signed checkpoint whose signature by `name` verifies."""
    text, signatures = note[: note.rindex("\n\n") + 1], note[note.rindex("\n\n") + 2:]
    key_id = sha256(name.encode() + b"\n\x01" + public)[:4]
    verified = False
    for line in signatures.splitlines():
        dash, signer, encoded = line.split(" ")
        assert dash == "\u2014"
        raw = base64.b64decode(encoded)
        if signer == name and raw[:4] == key_id:
            Ed25519PublicKey.from_public_bytes(public).verify(raw[4:], text.encode())  # raises
            verified = True
    assert verified, "no signature by the room's key"
    origin, size, root = text.splitlines()[:3]
    assert size == str(int(size))
    return origin, int(size), base64.b64decode(root)


# --- handlog, used as the room uses it --------------------------------------------------------


def handlog(*arguments: str) -> Result:
    from handlog.recorder.cli import cli

    result = CliRunner().invoke(cli, list(arguments), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def test_an_outside_verifier_checks_checkpoints_and_both_kinds_of_proof(
    db_url: str, tmp_path: Path
) -> None:
    upgrade_database(db_url)
    key = tmp_path / "room.key"
    with open_store(db_url) as store:
        stored = store.append("table-1", 0, new_events(5))
        stored += store.append("tournament", 0, new_events(2), kind="tournament")
    first = tmp_path / "first.checkpoint"
    handlog("log", "checkpoint", "--db", db_url, "--signing-key", str(key), "--out", str(first))
    with open_store(db_url) as store:
        stored += store.append("table-1", 5, new_events(6, start=6))
    name, public = c2sp_verifier_key(handlog("log", "key", "--signing-key", str(key)).output)

    origin, size, root = c2sp_open_checkpoint(first.read_text(), name, public)
    assert (origin, size) == (name, 7)
    export = tmp_path / "log.jsonl"
    handlog("log", "export", "--db", db_url, "--out", str(export))
    events = [json.loads(line) for line in export.read_text().splitlines()
              if '"record":"event"' in line]
    leaves = [rfc_leaf(json.dumps([e["stream_id"], e["version"], e["hash"]],
                                  separators=(",", ":")).encode()) for e in events]
    assert rfc_mth(leaves[:7]) == root

    proof_file = tmp_path / "inclusion.json"
    target = stored[3]
    handlog("log", "prove", "--db", db_url, "--signing-key", str(key), "--event",
            str(target.event_id), "--out", str(proof_file))
    proof = json.loads(proof_file.read_text())
    _origin, signed_size, signed_root = c2sp_open_checkpoint(proof["checkpoint"], name, public)
    assert signed_size == proof["tree_size"] == 7
    event = proof["event"]
    assert (event["stream_id"], event["version"]) == (target.stream_id, target.version)
    leaf = rfc_leaf(json.dumps([event["stream_id"], event["version"], event["hash"]],
                               separators=(",", ":")).encode())
    path = [bytes.fromhex(node) for node in proof["inclusion_path"]]
    assert rfc_verify_inclusion(proof["leaf_index"], signed_size, leaf, path, signed_root)
    assert not rfc_verify_inclusion(proof["leaf_index"], signed_size, leaves[0], path,
                                    signed_root)

    consistency_file = tmp_path / "consistency.json"
    handlog("log", "prove", "--db", db_url, "--signing-key", str(key), "--checkpoint",
            str(first), "--out", str(consistency_file))
    consistency = json.loads(consistency_file.read_text())
    _o, second_size, second_root = c2sp_open_checkpoint(consistency["checkpoint"], name, public)
    assert second_size == 13 and rfc_mth(leaves) == second_root
    nodes = [bytes.fromhex(node) for node in consistency["consistency_path"]]
    assert rfc_verify_consistency(7, 13, root, second_root, nodes)
    assert not rfc_verify_consistency(7, 13, rfc_mth(leaves[1:8]), second_root, nodes)

    # handlog's own offline check agrees on both files.
    public_file = tmp_path / "room.pub"
    public_file.write_text(handlog("log", "key", "--signing-key", str(key)).output)
    assert "ok: event" in handlog("log", "verify-proof", str(proof_file), "--key",
                                  str(public_file)).output
    assert "extends the one of 7 events" in handlog(
        "log", "verify-proof", str(consistency_file), "--key", str(public_file)).output
