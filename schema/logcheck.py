"""The whole-log check behind `handlog log verify`: every chain and every Merkle leaf recomputed
from the events themselves, the log held to each signed checkpoint, every break listed.

What it trusts: nothing stored but the events' own fields. Each event's chain hash is
recomputed and from it its leaf (schema/hashing.py); the tree of those
leaves, in position order, gives the root at each checkpoint's size, which must equal the
signed root, and an RFC 9162 consistency proof from that size to the whole log, built from the
recomputed tree, is checked with the RFC's algorithm.

A rewrite that recomputed every hash still leaves the events as they were at append in two
places: the signed checkpoints (which only say *that* something changed) and the stored leaf
table, which records each event's id, stream, version and chain hash as appended. Comparing
with it names the events: which changed, which were only rehashed, which are missing, swapped
or inserted. An insider who rewrote the leaf table as well is still caught by the checkpoint,
and the check says between which checkpoints the change lies.

Breaks are facts (a kind code, the stream, version, event id and hand); `Break.__str__` renders
them for people. Reading is streamed: rows come from a raw cursor in position order and no
payload is decoded for hashing (only `hand_started` payloads, for the hand numbers).
"""

from __future__ import annotations

import bisect
import hashlib
import json
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring  # the C encoder json.dumps uses
from typing import Any, NamedTuple

from handlog.schema.checkpoint import Checkpoint, CheckpointError, VerifierKey, parse_checkpoint
from handlog.schema.cosignature import Cosignature, WitnessKey, note_body, verify_cosignatures
from handlog.schema.hashing import GENESIS_HASH, event_leaf
from handlog.schema.merkle import read_head
from handlog.schema.sign_off import Result, SignOff, compare
from handlog.schema.store import EventStore
from handlog.schema.tlog import (
    MemoryTree,
    node_hash,
    tree_consistency_proof,
    tree_root,
    verify_consistency,
)

KINDS = {
    "payload_changed": "payload changed",
    "event_missing": "event missing",
    "events_swapped": "events swapped",
    "events_reordered": "event out of commit order",
    "events_renumbered": "events renumbered",
    "event_inserted": "event inserted",
    "stream_missing": "stream missing",
    "log_truncated": "log truncated",
    "not_an_extension": "not an extension of checkpoint",
    "stream_head_changed": "stream head changed",
    "checkpoint_signature": "checkpoint signature invalid",
    "tree_head_changed": "Merkle head changed",
    "equivocation": "equivocation: two signed logs that cannot both be true",
    "witness_quorum": "too few witnesses",
    "clock_backwards": "signed time runs backwards",
    "sign_off_changed": "results changed after the director's sign-off",
    "sign_off_unanchored": "the sign-off rests on no checkpoint of this log",
}
"""Every kind of break, with the words it is shown with."""

_sha256 = hashlib.sha256


@dataclass(frozen=True)
class Break:
    """One thing found wrong with the log."""

    kind: str
    stream_id: str | None = None
    version: int | None = None
    event_id: str | None = None
    hand: int | None = None
    detail: str = ""
    checkpoint: int | None = None

    def __str__(self) -> str:
        words = KINDS[self.kind]
        if self.checkpoint is not None:
            words += f" {self.checkpoint}"
        where = []
        if self.stream_id is not None:
            where.append(f"stream {self.stream_id!r}")
        if self.version is not None:
            where.append(f"version {self.version}")
        if self.event_id is not None:
            where.append(f"event {self.event_id}")
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        located = f" at {', '.join(where)}" if where else ""
        text = f"BREAK {words}{located}"
        return f"{text}: {self.detail}" if self.detail else text

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "stream_id": self.stream_id, "version": self.version,
                "event_id": self.event_id, "hand": self.hand, "checkpoint": self.checkpoint,
                "detail": self.detail}


@dataclass(frozen=True)
class CheckpointResult:
    number: int
    label: str
    checkpoint: Checkpoint
    consistent: bool
    proof_length: int = 0
    signature: str = "not checked"


@dataclass
class LogCheck:
    """What the check saw and found."""

    events: int = 0
    streams: int = 0
    size: int = 0
    root: bytes = b""
    breaks: list[Break] = field(default_factory=list)
    checkpoints: list[CheckpointResult] = field(default_factory=list)
    file_errors: list[str] = field(default_factory=list)
    key: str | None = None
    """The room's verifier key the checkpoints were checked with (None: none was given)."""
    notes: list[str] = field(default_factory=list)
    """Lines other checks add (the witnesses' cosignatures, the signed times)."""
    min_witnesses: int = 0
    witnessed_size: int = 0
    """Events covered by a checkpoint with at least `min_witnesses` valid cosignatures."""

    @property
    def ok(self) -> bool:
        return not self.breaks and not self.file_errors

    @property
    def signed_size(self) -> int:
        """Events covered by a checkpoint whose signature verified with the key given and
        which the log extends (0 when no key was given)."""
        if self.key is None:
            return 0
        return max((r.checkpoint.size for r in self.checkpoints
                    if r.consistent and r.signature.startswith("ok")), default=0)

    @property
    def authenticated(self) -> bool:
        return self.key is not None and any(
            r.consistent and r.signature.startswith("ok") for r in self.checkpoints)

    @property
    def status(self) -> int:
        """The exit status of `handlog log verify` (docs/guide.md, "For the auditor")."""
        if not self.ok:
            return EXIT_BROKEN
        if not self.authenticated:
            return EXIT_NOT_AUTHENTICATED
        if self.covered_size < self.size:
            return EXIT_UNSIGNED_TAIL
        return EXIT_CLEAN

    @property
    def covered_size(self) -> int:
        """Events covered by a signed checkpoint (and by enough witnesses, when asked)."""
        if self.min_witnesses:
            return min(self.signed_size, self.witnessed_size)
        return self.signed_size

    def lines(self) -> list[str]:
        out = list(self.file_errors)
        out.append(f"tree size {self.size} root {self.root.hex()}")
        for result in self.checkpoints:
            cp = result.checkpoint
            state = (f"consistent (consistency proof of {result.proof_length} hashes verified)"
                     if result.consistent else "NOT consistent")
            out.append(f"checkpoint {result.number} ({result.label}): origin {cp.origin} size "
                       f"{cp.size} root {cp.root.hex()}, signature {result.signature}: {state}")
        out.extend(self.notes)
        out.extend(str(item) for item in self.breaks)
        if self.ok:
            given = " and extends every checkpoint" if self.checkpoints else ""
            out.append(f"ok: {self.events} events in {self.streams} streams verified{given}")
            if self.key is None:
                out.append("NOT AUTHENTICATED: no --key was given, so no signature was checked; "
                           "anyone can rewrite a log and sign it again with a key of their own. "
                           "This says only that the log agrees with itself.")
            elif not self.authenticated:
                out.append(f"NOT AUTHENTICATED: no checkpoint signed by {self.key} covers the "
                           "log")
            elif self.covered_size < self.size:
                what = (f"checkpoint with {self.min_witnesses} witness(es)"
                        if self.min_witnesses else "checkpoint")
                out.append(f"UNSIGNED TAIL: {self.size - self.covered_size} events after the "
                           f"last {what} (size {self.covered_size}) are not covered by a "
                           "signature")
            else:
                witnessed = (f" and cosigned by at least {self.min_witnesses} witness(es)"
                             if self.min_witnesses else "")
                out.append(f"CLEAN: all {self.size} events are covered by a checkpoint signed "
                           f"by {self.key}{witnessed}")
        else:
            count = len(self.breaks) + len(self.file_errors)
            out.append(f"FAILED: {count} break(s) found in {self.events} events in "
                       f"{self.streams} streams")
        return out


EXIT_CLEAN = 0
EXIT_BROKEN = 1
EXIT_NOT_AUTHENTICATED = 3
EXIT_UNSIGNED_TAIL = 4


# --- the input ---------------------------------------------------------------------------------

RawEvent = tuple[int, str, int, str, str, int, str, "str | None", str, str, str, str]
"""(position, stream_id, version, event_id text, type, schema_version, payload_json,
recorded_at canonical text or None when it has none, actor, device, prev_hash, hash)."""


class StoredLeaf(NamedTuple):
    leaf_index: int
    position: int
    stream_id: str
    version: int
    event_id: str
    event_hash: str
    leaf_hash: str
    """hex, as stored"""


@dataclass(frozen=True)
class GivenCheckpoint:
    label: str
    text: str


@dataclass
class LogSource:
    """Everything the check reads: events (an iterator, in position order) and, from a
    database, the stream heads, the stored leaves, the tree head and the stored checkpoints."""

    events: Iterable[RawEvent]
    heads: dict[str, tuple[int, str]] | None = None
    leaf_hashes: Sequence[tuple[int, str]] | None = None
    """(position, leaf hash hex) of each stored leaf, by leaf index: all a sound log needs."""
    load_leaves: Callable[[], list[StoredLeaf]] | None = None
    """The stored leaves in full, read only when some differ."""
    tree_head: tuple[int, bytes] | None = None
    stored_checkpoints: Sequence[tuple[int, str]] = ()
    errors: list[str] = field(default_factory=list)
    _leaves: list[StoredLeaf] | None = None
    leaf_stream: Iterable[tuple[int, str]] | None = None
    """The same (position, leaf hash hex) pairs as `leaf_hashes`, streamed in leaf order: what
    the streamed check of a sound log compares with (then `leaf_hashes` is never loaded)."""
    reread: Callable[[], LogSource] | None = None
    """The same log read again from its start (the same snapshot): given, the check first
    streams the log keeping per-stream state only, and reads it again to name every break only
    when something does not hold."""

    @property
    def leaves(self) -> list[StoredLeaf] | None:
        if self.leaf_hashes is None or self.load_leaves is None:
            return None
        if self._leaves is None:
            self._leaves = self.load_leaves()
        return self._leaves


# --- the check ---------------------------------------------------------------------------------


@dataclass
class _Stream:
    versions: list[int] = field(default_factory=list)
    indexes: list[int] = field(default_factory=list)
    hands: list[tuple[int, int]] = field(default_factory=list)
    last_recomputed: str = GENESIS_HASH

    def hand(self, version: int | None) -> int | None:
        if version is None or not self.hands:
            return None
        at = bisect.bisect_right(self.hands, (version, float("inf"))) - 1
        return self.hands[at][1] if at >= 0 else None


def check_log(
    source: LogSource,
    checkpoints: Sequence[GivenCheckpoint] = (),
    key: VerifierKey | None = None,
    witness_keys: Sequence[WitnessKey] = (),
    min_witnesses: int = 0,
) -> LogCheck:
    """Recompute everything from `source`, hold it to `checkpoints` (and to the stored ones).

    A source that can be read again (`reread`) is first checked streaming, in memory that
    does not grow with the log but by 32 bytes a leaf (the Merkle tree, for the checkpoints'
    roots) and 8 an event id: per stream only its last version and hash. Only when anything
    there does not hold is it read again and checked in full, which names every break."""
    report: LogCheck | None = None
    if source.reread is not None:
        report = _streamed_check(source, checkpoints, key)
        if report is None:
            source = source.reread()
    if report is None:
        report = _full_check(source, checkpoints, key)
    report.key = key.text() if key is not None else None
    _check_times_and_witnesses(report, list(witness_keys), min_witnesses)
    return report


def _check_times_and_witnesses(report: LogCheck, keys: list[WitnessKey], minimum: int) -> None:
    """Each checkpoint's signed time beside its witnesses' cosignature times; a signed time
    that goes back while the log grows is a finding; with `minimum`, the latest checkpoint
    must carry that many valid cosignatures (one per witness key)."""
    report.min_witnesses = minimum
    cosigned: dict[str, dict[str, Cosignature]] = {}
    for result in report.checkpoints:
        try:
            body = note_body(result.checkpoint.text)
            found = verify_cosignatures(result.checkpoint.text, keys) if keys else []
        except CheckpointError as exc:
            report.breaks.append(Break("checkpoint_signature", checkpoint=result.number,
                                       detail=f"a cosignature: {exc}"))
            continue
        into = cosigned.setdefault(body, {})
        for cosignature in found:
            into.setdefault(cosignature.witness, cosignature)
    trusted = [r for r in report.checkpoints if r.consistent and (
        report.key is None or r.signature.startswith("ok"))]
    shown: set[str] = set()
    for result in sorted(trusted, key=lambda r: r.checkpoint.size):
        body = note_body(result.checkpoint.text)
        if body in shown:
            continue
        shown.add(body)
        at = result.checkpoint.signed_at
        signed = at.strftime("%Y-%m-%dT%H:%M:%SZ") if at else "no signed time"
        witnesses = "; ".join(
            f"cosigned by {c.witness.split('+')[0]} at {c.time.strftime('%Y-%m-%dT%H:%M:%SZ')}"
            for c in cosigned.get(body, {}).values()) or "no valid cosignature"
        report.notes.append(f"checkpoint {result.number} (size {result.checkpoint.size}): "
                            f"signed at {signed}" + (f"; {witnesses}" if keys else ""))
    last: tuple[int, Checkpoint] | None = None
    for result in sorted(trusted, key=lambda r: r.checkpoint.size):
        at = result.checkpoint.signed_at
        if at is None:
            continue
        if last is not None and last[1].signed_at is not None and (
                at < last[1].signed_at and result.checkpoint.size > last[1].size):
            report.breaks.append(Break("clock_backwards", checkpoint=result.number, detail=(
                f"checkpoint {result.number} of size {result.checkpoint.size} was signed at "
                f"{at:%Y-%m-%dT%H:%M:%SZ}, before checkpoint {last[0]} of size "
                f"{last[1].size} ({last[1].signed_at:%Y-%m-%dT%H:%M:%SZ})")))
        last = (result.number, result.checkpoint)
    if not minimum:
        return
    witnessed = [r for r in trusted
                 if len(cosigned.get(note_body(r.checkpoint.text), {})) >= minimum]
    report.witnessed_size = max((r.checkpoint.size for r in witnessed), default=0)
    if not witnessed and report.size:
        best = max((len(cosigned.get(note_body(r.checkpoint.text), {})) for r in trusted),
                   default=0)
        report.breaks.append(Break("witness_quorum", detail=(
            f"no checkpoint of this log carries {minimum} valid cosignature(s) of the witness "
            f"keys given (the most found: {best}): the witnesses did not see this log, or it "
            "is not the log they cosigned")))


class CompactTree:
    """MemoryTree's perfect subtrees in one bytearray per level (32 bytes a node, no object
    per node): the same roots and proofs in about a fifth of the memory."""

    def __init__(self) -> None:
        self.levels: list[bytearray] = [bytearray()]

    @property
    def size(self) -> int:
        return len(self.levels[0]) // 32

    def append(self, leaf: bytes) -> None:
        levels = self.levels
        row = levels[0]
        row += leaf
        level = 0
        while not (len(row) // 32) & 1:
            parent = node_hash(bytes(row[-64:-32]), bytes(row[-32:]))
            level += 1
            if level == len(levels):
                levels.append(bytearray())
            row = levels[level]
            row += parent

    def subtree(self, level: int, index: int) -> bytes:
        return bytes(self.levels[level][index * 32:index * 32 + 32])

    def root(self, size: int | None = None) -> bytes:
        return tree_root(self, self.size if size is None else size)



def _streamed_check(source: LogSource, checkpoints: Sequence[GivenCheckpoint],
                    key: VerifierKey | None) -> LogCheck | None:
    """The check of a sound log, streamed; None as soon as anything does not hold (or may
    not: two event ids alike in their first 64 bits), for the full check to name it."""
    report = LogCheck()
    tree = CompactTree()
    last: dict[str, tuple[int, str]] = {}  # stream -> (version, hash) of its last event
    ids = [array("Q") for _ in range(256)]  # by the id's first byte: sorted one at a time
    sha256, enc = _sha256, encode_basestring
    append_leaf = tree.append
    leaves = iter(source.leaf_stream) if source.leaf_stream is not None else None
    count = 0
    for row in source.events:
        (position, stream_id, version, event_id, event_type, schema_version, payload_json,
         recorded_at, actor, device, prev_hash, stored) = row
        if recorded_at is None or type(version) is not int or type(schema_version) is not int:
            return None
        before = last.get(stream_id)
        if before is None:
            if version != 1 or prev_hash != GENESIS_HASH:
                return None
        elif version != before[0] + 1 or prev_hash != before[1]:
            return None
        tail = (f",{enc(stream_id)},{version},{enc(event_id)},{enc(event_type)},"
                f"{schema_version},{enc(payload_json)},{enc(recorded_at)},{enc(actor)},"
                f"{enc(device)}]")
        if sha256(f"[{enc(prev_hash)}{tail}".encode()).hexdigest() != stored:
            return None
        last[stream_id] = (version, stored)
        leaf_digest = event_leaf(stream_id, version, stored)
        append_leaf(leaf_digest)
        if leaves is not None:
            stored_leaf = next(leaves, None)
            if stored_leaf is None or stored_leaf[0] != position or (
                    stored_leaf[1] != leaf_digest.hex()):
                return None
        try:
            ids[int(event_id[:2], 16)].append(int(event_id[:8] + event_id[9:13] +
                                                  event_id[14:18], 16))
        except (ValueError, IndexError):
            return None
        count += 1
    if source.errors or (leaves is not None and next(leaves, None) is not None):
        return None
    for bucket in ids:
        alike = sorted(bucket)
        if any(alike[k] == alike[k + 1] for k in range(len(alike) - 1)):
            return None
    del ids
    heads = source.heads
    if heads is not None:
        if set(heads) - set(last) and any(heads[s][0] > 0 for s in set(heads) - set(last)):
            return None
        if any(heads.get(s) != head for s, head in last.items()):
            return None
    report.events = count
    report.size = tree.size
    report.root = tree.root()
    report.streams = len(set(last) | set(heads or ()))
    found = _Breaks({})
    for text in [g.text for g in checkpoints] + [t for _n, t in source.stored_checkpoints]:
        try:
            size = parse_checkpoint(text).size
        except CheckpointError:
            continue  # a file error (or a signature break): the full check says which
        if size > tree.size or (size and tree.root(size) != parse_checkpoint(text).root):
            return None
    _check_checkpoints(report, found, source, checkpoints, key, tree, {})
    if source.tree_head is not None and source.tree_head != (tree.size, report.root):
        return None
    if found.items:
        return None
    report.file_errors = list(source.errors) + report.file_errors
    return report


def _full_check(
    source: LogSource,
    checkpoints: Sequence[GivenCheckpoint] = (),
    key: VerifierKey | None = None,
) -> LogCheck:
    """The check that names every break (holding every event's hashes and ids)."""
    report = LogCheck()
    tree = MemoryTree()
    streams: dict[str, _Stream] = {}
    # Per event, by its index in position order.
    positions: list[int] = []
    stream_of: list[str] = []
    version_of: list[int] = []
    id_of: list[str] = []
    stored_hash: list[str] = []
    prev_of: list[str] = []
    content_ok: list[bool] = []
    ids: dict[str, int] = {}
    sha256, enc = _sha256, encode_basestring
    append_leaf = tree.append
    leaf_hashes = source.leaf_hashes
    stored_count = len(leaf_hashes) if leaf_hashes is not None else 0
    mismatched: list[int] = []
    tails: dict[int, str] = {}

    for row in source.events:
        (position, stream_id, version, event_id, event_type, schema_version, payload_json,
         recorded_at, actor, device, prev_hash, stored) = row
        stream = streams.get(stream_id)
        if stream is None:
            stream = streams[stream_id] = _Stream()
        index = len(positions)
        if recorded_at is None or type(version) is not int or type(schema_version) is not int:
            tail = ""
            own = recomputed = "unhashable"
        else:
            # canonical_json([prev, stream, version, id, type, schema version, payload, time,
            # actor, device]) written out: the C string encoder json.dumps itself uses.
            tail = (f",{enc(stream_id)},{version},{enc(event_id)},{enc(event_type)},"
                    f"{schema_version},{enc(payload_json)},{enc(recorded_at)},{enc(actor)},"
                    f"{enc(device)}]")
            own = sha256(f"[{enc(prev_hash)}{tail}".encode()).hexdigest()
            recomputed = own if prev_hash == stream.last_recomputed else sha256(
                f'["{stream.last_recomputed}"{tail}'.encode()).hexdigest()
        stream.last_recomputed = recomputed
        leaf_digest = event_leaf(stream_id, version, recomputed) if type(
            version) is int else b""
        append_leaf(leaf_digest)
        positions.append(position)
        stream_of.append(stream_id)
        version_of.append(version)
        id_of.append(event_id)
        stored_hash.append(stored)
        prev_of.append(prev_hash)
        content_ok.append(own == stored)
        ids.setdefault(event_id, index)
        stream.versions.append(version)
        stream.indexes.append(index)
        if event_type == "hand_started":
            number = _hand_number(payload_json)
            if number is not None:
                stream.hands.append((version, number))
        if leaf_hashes is not None:
            stored_leaf = leaf_hashes[index] if index < stored_count else None
            if stored_leaf is None or stored_leaf[0] != position or (
                    stored_leaf[1] != leaf_digest.hex()):
                mismatched.append(index)
                tails[index] = tail

    for stream in streams.values():
        stream.hands.sort()
    report.events = len(positions)
    report.size = tree.size
    report.root = tree.root()
    heads = source.heads
    report.streams = len(set(streams) | set(heads or ()))

    found = _Breaks(streams)
    for stream_id, stream in sorted(streams.items()):
        _check_stream(found, stream_id, stream, version_of, id_of, stored_hash, prev_of,
                      content_ok, ids, heads)
    if heads is not None:
        for stream_id, (head_version, _hash) in sorted(heads.items()):
            if stream_id not in streams and head_version > 0:
                found.add("stream_missing", stream_id, 1, detail=(
                    f"the stream head says version {head_version} but the log has no event of "
                    "this stream"))
    if leaf_hashes is not None and (mismatched or stored_count != len(positions)):
        leaves = source.leaves
        assert leaves is not None
        rewritten = _rewritten(leaves, mismatched, tails, positions, stream_of, version_of,
                               id_of)
        _compare_leaves(found, leaves, positions, stream_of, version_of, id_of, ids,
                        mismatched, rewritten)

    _check_checkpoints(report, found, source, checkpoints, key, tree, ids)
    if source.tree_head is not None and not found.items:
        size, root = source.tree_head
        if (size, root) != (tree.size, report.root):
            found.add("tree_head_changed", detail=(
                f"the stored Merkle head says size {size} root {root.hex()}, the events give "
                f"size {tree.size} root {report.root.hex()}"))
    report.breaks = found.items
    report.file_errors = list(source.errors) + report.file_errors
    return report


def _hand_number(payload_json: str) -> int | None:
    try:
        number = json.loads(payload_json).get("hand_number")
    except (ValueError, AttributeError, RecursionError):
        return None
    return number if type(number) is int else None


class _Breaks:
    """The breaks found, each (kind, stream, version) once, in the order found."""

    def __init__(self, streams: dict[str, _Stream]) -> None:
        self.items: list[Break] = []
        self._seen: set[tuple[str, str | None, int | None, int | None]] = set()
        self._streams = streams

    def add(self, kind: str, stream_id: str | None = None, version: int | None = None,
            event_id: str | None = None, detail: str = "", checkpoint: int | None = None,
            hand_version: int | None = None) -> None:
        key = (kind, stream_id, version, checkpoint)
        if key in self._seen:
            return
        self._seen.add(key)
        stream = self._streams.get(stream_id) if stream_id is not None else None
        hand = stream.hand(version if hand_version is None else hand_version) if stream else None
        self.items.append(Break(kind, stream_id, version, event_id, hand, detail, checkpoint))


def _check_stream(found: _Breaks, stream_id: str, stream: _Stream, version_of: list[int],
                  id_of: list[str], stored_hash: list[str], prev_of: list[str],
                  content_ok: list[bool], ids: dict[str, int],
                  heads: dict[str, tuple[int, str]] | None) -> None:
    """The stream's own chain, as stored: content, order, gaps, copies, links and head."""
    seq = stream.versions
    indexes = stream.indexes
    for index in indexes:
        if ids[id_of[index]] != index:
            first = ids[id_of[index]]
            found.add("event_inserted", stream_id, version_of[index], id_of[index], (
                f"a copy of event id already recorded as version {version_of[first]}"))
        elif not content_ok[index]:
            found.add("payload_changed", stream_id, version_of[index], id_of[index], (
                "its hash does not match its content (its type, payload, time, actor or device "
                "was changed after it was recorded)"))
    if seq[0] == 1 and seq[-1] == len(seq) and all(
            seq[k] + 1 == seq[k + 1] for k in range(len(seq) - 1)):
        _check_links(found, stream_id, list(zip(seq, indexes, strict=True)), id_of,
                     stored_hash, prev_of, content_ok, heads)
        return
    # Order: versions out of position order, as swaps (two events exchanged) or single moves.
    ordered = sorted(range(len(seq)), key=lambda k: (seq[k], k))
    rank = [0] * len(seq)
    for r, k in enumerate(ordered):
        rank[k] = r
    swapped: set[int] = set()
    for k in range(len(seq)):
        other = rank[k]
        if other > k and rank[other] == k and seq[k] != seq[other]:
            swapped.update((k, other))
            low, high = sorted((seq[k], seq[other]))
            named = indexes[k] if seq[k] == low else indexes[other]
            found.add("events_swapped", stream_id, low, id_of[named], (
                f"versions {low} and {high} are in each other's place in commit order"))
    first_of: dict[int, int] = {}
    for k, version in enumerate(seq):
        first_of.setdefault(version, k)
    # Copies of a version are reported as inserted below, not as out of order.
    remaining = [k for k in range(len(seq)) if k not in swapped and first_of[seq[k]] == k]
    for k in _out_of_order(remaining, seq):
        found.add("events_reordered", stream_id, seq[k], id_of[indexes[k]],
                  "it is stored out of commit order (after events of later versions)")
    # Gaps and copies of a version.
    present = set(seq)
    last = max(seq)
    for start, end in _ranges(v for v in range(1, last + 1) if v not in present):
        found.add("event_missing", stream_id, start, detail=_versions(start, end) + " missing")
    seen_versions: set[int] = set()
    for k, version in enumerate(seq):
        if version in seen_versions:
            found.add("event_inserted", stream_id, version, id_of[indexes[k]],
                      f"a second event with version {version}")
        seen_versions.add(version)
    # Links, in version order: each event must point at the hash of the one before it.
    by_version: dict[int, int] = {}
    for k in ordered:
        by_version.setdefault(seq[k], indexes[k])
    _check_links(found, stream_id, list(by_version.items()), id_of, stored_hash, prev_of,
                 content_ok, heads)


def _check_links(found: _Breaks, stream_id: str, by_version: list[tuple[int, int]],
                 id_of: list[str], stored_hash: list[str], prev_of: list[str],
                 content_ok: list[bool], heads: dict[str, tuple[int, str]] | None) -> None:
    """Each event points at the hash of the version before it; the head at the last."""
    index_of = dict(by_version)
    for version, index in by_version:
        before = index_of.get(version - 1)
        if before is None or prev_of[index] == stored_hash[before]:
            continue
        if content_ok[before] and content_ok[index]:
            found.add("payload_changed", stream_id, version - 1, id_of[before], (
                f"its hash was recomputed but version {version} still links to the hash it "
                "had when it was recorded"))
    last = max(index_of)
    head = heads.get(stream_id) if heads is not None else None
    if head is not None:
        head_version, head_hash = head
        if head_version > last:
            found.add("event_missing", stream_id, last + 1, detail=(
                f"{_versions(last + 1, head_version)} missing at the end of the stream (its "
                f"head says version {head_version})"))
        elif head_version < last:
            found.add("event_inserted", stream_id, head_version + 1, detail=(
                f"the log goes on to version {last} past the stream head (version "
                f"{head_version})"))
        elif head_hash != stored_hash[index_of[last]]:
            found.add("stream_head_changed", stream_id, last, detail=(
                "the stream head's hash is not the hash of its last event"))
    elif heads is not None:
        found.add("stream_head_changed", stream_id, last, detail=(
            "the stream has events but no stream head"))


def _out_of_order(indices: list[int], seq: list[int]) -> list[int]:
    """The indices outside one longest increasing run of versions (O(n log n))."""
    if not indices:
        return []
    tails: list[int] = []
    tail_at: list[int] = []
    parent = [-1] * len(indices)
    for j, k in enumerate(indices):
        value = seq[k]
        at = bisect.bisect_left(tails, value)
        if at == len(tails):
            tails.append(value)
            tail_at.append(j)
        else:
            tails[at] = value
            tail_at[at] = j
        parent[j] = tail_at[at - 1] if at else -1
    keep: set[int] = set()
    j = tail_at[-1]
    while j >= 0:
        keep.add(j)
        j = parent[j]
    return [k for j, k in enumerate(indices) if j not in keep]


def _ranges(values: Iterable[int]) -> Iterator[tuple[int, int]]:
    start = end = None
    for value in values:
        if start is None:
            start = end = value
        elif value == end + 1:  # type: ignore[operator]
            end = value
        else:
            yield start, end  # type: ignore[misc]
            start = end = value
    if start is not None:
        yield start, end  # type: ignore[misc]


def _versions(start: int, end: int) -> str:
    return f"version {start}" if start == end else f"versions {start} to {end}"


def _rewritten(leaves: Sequence[StoredLeaf], mismatched: list[int], tails: dict[int, str],
               positions: list[int], stream_of: list[str], version_of: list[int],
               id_of: list[str]) -> dict[int, bool]:
    """Of the events whose leaf differs but which are still where they were appended: did
    their own content change, or only the hashes before them? Chained to the hash its
    predecessor had at append, unchanged content gives the hash it had at append."""
    by_position = {leaf.position: leaf for leaf in leaves}
    appended = {(leaf.stream_id, leaf.version): leaf.event_hash for leaf in leaves}
    rewritten: dict[int, bool] = {}
    for index in mismatched:
        leaf = by_position.get(positions[index])
        version = version_of[index]
        if leaf is None or (leaf.event_id, leaf.stream_id, leaf.version) != (
                id_of[index], stream_of[index], version):
            continue
        before = GENESIS_HASH if version == 1 else appended.get((stream_of[index], version - 1))
        tail = tails[index]
        rewritten[index] = not tail or before is None or _sha256(
            f'["{before}"{tail}'.encode()).hexdigest() != leaf.event_hash
    return rewritten


def _compare_leaves(found: _Breaks, leaves: Sequence[StoredLeaf], positions: list[int],
                    stream_of: list[str], version_of: list[int], id_of: list[str],
                    ids: dict[str, int], mismatched: list[int],
                    rewritten: dict[int, bool]) -> None:
    """The events against the leaves recorded when they were appended (`mismatched`: the
    events whose leaf differs, found while reading; `rewritten`: of those still at their place,
    whether their own content changed)."""
    if not mismatched and len(leaves) == len(positions):
        return
    by_position = {leaf.position: leaf for leaf in leaves}
    leaf_of_id = {leaf.event_id: leaf for leaf in leaves}
    event_at = {position: index for index, position in enumerate(positions)}
    renumbered: dict[str, list[tuple[StoredLeaf, int]]] = {}
    for index in mismatched:
        position = positions[index]
        stream_id, version, event_id = stream_of[index], version_of[index], id_of[index]
        leaf = by_position.get(position)
        if leaf is None:
            earlier = leaf_of_id.get(event_id)
            detail = ("it has no leaf in the Merkle log: it was written around the store"
                      if earlier is None else
                      f"it was recorded at position {earlier.position} and moved")
            found.add("event_inserted", stream_id, version, event_id, detail)
            continue
        if leaf.event_id == event_id:
            if (leaf.stream_id, leaf.version) != (stream_id, version):
                renumbered.setdefault(leaf.stream_id, []).append((leaf, version))
            elif rewritten.get(index, True):
                found.add("payload_changed", stream_id, version, event_id, (
                    "its content differs from what was recorded at append (the stored leaf), "
                    "and the chain was rehashed to hide it"))
            continue
        mine = leaf_of_id.get(event_id)
        theirs = event_at.get(mine.position) if mine is not None else None
        if mine is not None and theirs is not None and id_of[theirs] == leaf.event_id:
            low = min(leaf.version, mine.version)
            found.add("events_swapped", leaf.stream_id, low, leaf.event_id, (
                f"version {leaf.version} (event {leaf.event_id}) and version {mine.version} "
                f"(event {mine.event_id}) of {leaf.stream_id!r} are in each other's place"))
            continue
        if leaf.event_id not in ids:
            found.add("event_missing", leaf.stream_id, leaf.version, leaf.event_id,
                      "it was recorded, and another event now stands in its place")
        found.add("event_inserted", stream_id, version, event_id,
                  f"it stands where event {leaf.event_id} was recorded")
    for stream_id, moved in renumbered.items():
        first, now = moved[0]
        last, last_now = moved[-1]
        found.add("events_renumbered", stream_id, first.version, first.event_id, (
            f"{len(moved)} event(s) recorded as {_versions(first.version, last.version)} are "
            f"now {_versions(now, last_now)}: an event was inserted or removed before them"))
    missing = [leaf for leaf in leaves if leaf.event_id not in ids
               and leaf.position not in event_at]
    if not missing:
        return
    present_streams = set(stream_of)
    last_present = max((leaf.leaf_index for leaf in leaves if leaf.event_id in ids), default=-1)
    tail = [leaf for leaf in missing if leaf.leaf_index > last_present]
    gone: dict[str, list[StoredLeaf]] = {}
    for leaf in missing:
        if leaf.stream_id not in present_streams:
            gone.setdefault(leaf.stream_id, []).append(leaf)
    for stream_id, its in gone.items():
        found.add("stream_missing", stream_id, its[0].version, its[0].event_id, (
            f"all {len(its)} event(s) of the stream were recorded (leaves "
            f"{its[0].leaf_index} to {its[-1].leaf_index}) and none is in the log"))
    if tail and len(tail) == len(leaves) - last_present - 1:
        first = tail[0]
        found.add("log_truncated", first.stream_id, first.version, first.event_id, (
            f"the log ends after {last_present + 1} of the {len(leaves)} events recorded: "
            f"the last {len(tail)} are gone"))
    cut = {leaf.leaf_index for leaf in tail}
    for leaf in missing:
        if leaf.stream_id in gone or leaf.leaf_index in cut:
            continue
        found.add("event_missing", leaf.stream_id, leaf.version, leaf.event_id,
                  f"it was recorded at position {leaf.position} and is not in the log")


def _check_checkpoints(report: LogCheck, found: _Breaks, source: LogSource,
                       given: Sequence[GivenCheckpoint], key: VerifierKey | None,
                       tree: MemoryTree | CompactTree, event_ids: dict[str, int]) -> None:
    candidates = [(g.label, g.text) for g in given]
    texts = {g.text for g in given}
    candidates += [(f"stored #{number}", text) for number, text in source.stored_checkpoints
                   if text not in texts]
    present = set(event_ids)
    matched_sizes = [0]
    twins = _equivocations(found, candidates, key, tree)
    for number, (label, text) in enumerate(candidates, start=1):
        signature = "not checked"
        try:
            checkpoint = parse_checkpoint(text, key)
            if key is not None:
                signature = f"ok ({key.name})"
        except CheckpointError as exc:
            try:
                checkpoint = parse_checkpoint(text)
            except CheckpointError:
                report.file_errors.append(f"checkpoint {number} ({label}): {exc}")
                continue
            signature = "INVALID"
            found.add("checkpoint_signature", checkpoint=number, detail=str(exc))
        size = checkpoint.size
        if size > tree.size:
            # Fewer events than signed: cut off at the end (truncated), or lost from within
            # (a deleted stream or event), as far as the stored leaves tell.
            stored_leaves = source.leaves
            first = next((leaf for leaf in stored_leaves or () if leaf.event_id not in present),
                         None)
            if first is None and stored_leaves is not None and len(stored_leaves) > tree.size:
                first = stored_leaves[tree.size]
            cut = first is None or first.leaf_index >= tree.size
            found.add("log_truncated" if cut else "not_an_extension",
                      first.stream_id if first else None, first.version if first else None,
                      first.event_id if first else None, checkpoint=number, detail=(
                          f"checkpoint {number} signed {size} events; the log has "
                          f"{tree.size}" + ("" if cut or first is None else
                                            f": the first event lost is leaf {first.leaf_index}")))
            report.checkpoints.append(CheckpointResult(number, label, checkpoint, False, 0,
                                                       signature))
            continue
        if tree.root(size) != checkpoint.root:
            assert isinstance(tree, MemoryTree)  # the streamed check stops before this
            if number not in twins:  # else the equivocation says it
                _not_an_extension(found, number, checkpoint, tree, source,
                                  max(s for s in matched_sizes if s <= size))
            report.checkpoints.append(CheckpointResult(number, label, checkpoint, False, 0,
                                                       signature))
            continue
        proof = tree_consistency_proof(tree, size, tree.size) if size else []
        consistent = verify_consistency(size, tree.size, checkpoint.root, tree.root(), proof)
        matched_sizes.append(size)
        report.checkpoints.append(CheckpointResult(number, label, checkpoint, consistent,
                                                   len(proof), signature))


def _equivocations(found: _Breaks, candidates: Sequence[tuple[str, str]],
                   key: VerifierKey | None, tree: MemoryTree | CompactTree) -> set[int]:
    """Two checkpoints of one origin that cannot both be true, both signed: one size with two
    roots (a split view), or a smaller one that a larger one matching this log does not
    extend (a rewrite signed again). With a key, only checkpoints whose signature verifies
    count. Returns the numbers of those named here (no "not an extension" for them)."""
    seen: dict[tuple[str, int], list[tuple[int, str, Checkpoint]]] = {}
    for number, (label, text) in enumerate(candidates, start=1):
        try:
            checkpoint = parse_checkpoint(text, key)
        except CheckpointError:
            continue
        seen.setdefault((checkpoint.origin, checkpoint.size), []).append(
            (number, label, checkpoint))
    twins: set[int] = set()
    for (origin, size), group in seen.items():
        roots = {cp.root for _n, _l, cp in group}
        if len(roots) < 2:
            continue
        first = group[0]
        other = next(item for item in group if item[2].root != first[2].root)
        checked = f"signed by {key.text()}" if key is not None else "signatures not checked"
        found.add("equivocation", checkpoint=other[0], detail=(
            f"checkpoint {first[0]} ({first[1]}) and checkpoint {other[0]} ({other[1]}) are both "
            f"signed for {origin} at size {size} with different roots {first[2].root.hex()} and "
            f"{other[2].root.hex()} ({checked}): the room signed two different logs"))
        if size <= tree.size and tree.root(size) in roots:
            twins.update(n for n, _l, cp in group if cp.root != tree.root(size))
    # A failed consistency between two signed checkpoints of different sizes: the larger one
    # is this log (its root is this log's root at its size), and this log does not hold the
    # smaller one's root at that size; so no one log has both (a rewrite signed again).
    signed = [item for group in seen.values() for item in group]
    holds = sorted((item for item in signed if item[2].size <= tree.size
                    and tree.root(item[2].size) == item[2].root), key=lambda i: i[2].size)
    for number, label, checkpoint in signed:
        if number in twins or checkpoint.size > tree.size or (
                tree.root(checkpoint.size) == checkpoint.root):
            continue
        larger = next((item for item in holds if item[2].size > checkpoint.size
                       and item[2].origin == checkpoint.origin), None)
        if larger is None:
            continue
        checked = f"signed by {key.text()}" if key is not None else "signatures not checked"
        found.add("equivocation", checkpoint=number, detail=(
            f"checkpoint {number} ({label}) of size {checkpoint.size} and checkpoint "
            f"{larger[0]} ({larger[1]}) of size {larger[2].size} are both signed for "
            f"{checkpoint.origin} ({checked}), and the log of checkpoint {larger[0]} (this log) "
            f"does not extend checkpoint {number}: its root at size {checkpoint.size} is "
            f"{tree.root(checkpoint.size).hex()}, not {checkpoint.root.hex()}; the room signed "
            "two different logs"))
        twins.add(number)
    return twins


def _not_an_extension(found: _Breaks, number: int, checkpoint: Checkpoint, tree: MemoryTree,
                      source: LogSource, matched: int) -> None:
    size = checkpoint.size
    stored = None
    if source.leaves is not None:
        stored = MemoryTree()
        for leaf in source.leaves[:size]:
            stored.append(bytes.fromhex(leaf.leaf_hash))
    recomputed = tree.levels[0]
    if stored is not None and stored.size >= size and stored.root(size) == checkpoint.root:
        stored_leaves = source.leaves
        assert stored_leaves is not None
        first = next(i for i in range(size)
                     if recomputed[i].hex() != stored_leaves[i].leaf_hash)
        leaf = stored_leaves[first]
        found.add("not_an_extension", leaf.stream_id, leaf.version, leaf.event_id,
                  checkpoint=number, detail=(
                      f"the root of the first {size} events is not the signed root; the first "
                      f"event that differs from what was signed is leaf {first}"))
        return
    why = ("the stored leaves were rewritten too" if source.leaves is not None else
           "without the leaves recorded at append (an export holds none)")
    found.add("not_an_extension", checkpoint=number, detail=(
        f"the root of the first {size} events is not the signed root; {why}, the change lies "
        f"among events {matched + 1} to {size} of the log"))


# --- reading a database ------------------------------------------------------------------------

# The hashed text of the event id and the time is made by the database (C, not Python): the
# canonical forms of schema/hashing.py. A stored value in any other form comes out differently
# (or NULL: not hashable) and so fails its hash, as it should.
_EVENTS_SQL = {
    "sqlite": (
        "SELECT position, stream_id, version, CASE WHEN length(event_id) = 32 THEN "
        "lower(substr(event_id, 1, 8) || '-' || substr(event_id, 9, 4) || '-' || "
        "substr(event_id, 13, 4) || '-' || substr(event_id, 17, 4) || '-' || "
        "substr(event_id, 21)) ELSE event_id END, type, schema_version, payload, "
        "CASE WHEN length(recorded_at) = 26 AND substr(recorded_at, 11, 1) = ' ' THEN "
        "substr(recorded_at, 1, 10) || 'T' || substr(recorded_at, 12) || 'Z' END, "
        "actor, device, prev_hash, hash FROM events ORDER BY position"
    ),
    "postgresql": (
        "SELECT position, stream_id, version, event_id::text, type, schema_version, payload, "
        "to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
        "actor, device, prev_hash, hash FROM events ORDER BY position"
    ),
}


_LEAVES_SQL = {
    "sqlite": (
        "SELECT leaf_index, position, stream_id, version, lower(substr(event_id, 1, 8) || '-' "
        "|| substr(event_id, 9, 4) || '-' || substr(event_id, 13, 4) || '-' || "
        "substr(event_id, 17, 4) || '-' || substr(event_id, 21)), event_hash, leaf_hash "
        "FROM merkle_leaves ORDER BY leaf_index"
    ),
    "postgresql": (
        "SELECT leaf_index, position, stream_id, version, event_id::text, event_hash, "
        "leaf_hash FROM merkle_leaves ORDER BY leaf_index"
    ),
}


def check_store(store: EventStore, checkpoints: Sequence[GivenCheckpoint] = (),
                key: VerifierKey | None = None, witness_keys: Sequence[WitnessKey] = (),
                min_witnesses: int = 0) -> LogCheck:
    """`check_log` of the database, read in one snapshot through the driver's own cursors
    (events and leaves streamed; on PostgreSQL server-side cursors)."""
    with store.connection() as connection:
        raw = connection.connection
        postgresql = connection.dialect.name == "postgresql"
        dialect = connection.dialect.name
        cursors: list[Any] = []

        def rows(sql: str) -> list[Any]:
            cursor = raw.cursor()
            try:
                cursor.execute(sql)
                return list(cursor.fetchall())
            finally:
                cursor.close()

        def streamed(sql: str) -> Iterator[Any]:
            name = f"handlog_log_check_{len(cursors)}"
            cursor = raw.cursor(name=name) if postgresql else raw.cursor()
            cursors.append(cursor)
            cursor.execute(sql)
            return _batches(cursor)

        heads = {str(r[0]): (int(r[1]), str(r[2]))
                 for r in rows("SELECT id, head_version, head_hash FROM streams")}
        try:
            # The head the stored interior nodes give (what proofs are made from).
            head = read_head(connection)
            tree_head: tuple[int, bytes] | None = (head.size, head.root)
        except ValueError:
            tree_head = None  # a leaf row is missing or damaged: the leaves' check names it
        # Each stored checkpoint with the witnesses' cosignature lines kept beside it.
        lines: dict[int, str] = {}
        for number, line in rows("SELECT checkpoint_id, line FROM log_cosignatures "
                                 "ORDER BY checkpoint_id, cosigned_at, witness"):
            lines[int(number)] = lines.get(int(number), "") + str(line) + "\n"
        stored_checkpoints = [(int(r[0]), str(r[1]) + lines.get(int(r[0]), "")) for r in rows(
            "SELECT checkpoint_id, note FROM log_checkpoints ORDER BY checkpoint_id")]
        leaves_sql = "SELECT position, leaf_hash FROM merkle_leaves ORDER BY leaf_index"

        def load_leaves() -> list[StoredLeaf]:
            return [StoredLeaf(*r) for r in rows(_LEAVES_SQL[dialect])]

        def source(quick: bool) -> LogSource:
            return LogSource(
                events=streamed(_EVENTS_SQL[dialect]),
                heads=heads,
                leaf_hashes=None if quick else rows(leaves_sql),
                load_leaves=load_leaves,
                tree_head=tree_head,
                stored_checkpoints=stored_checkpoints,
                leaf_stream=streamed(leaves_sql) if quick else None,
                reread=(lambda: source(False)) if quick else None,
            )

        try:
            return check_log(source(True), checkpoints, key, witness_keys, min_witnesses)
        finally:
            for cursor in cursors:
                cursor.close()


def _batches(cursor: Any) -> Iterator[RawEvent]:
    while True:
        batch = cursor.fetchmany(5000)
        if not batch:
            return
        yield from batch


def hold_to_sign_off(report: LogCheck, sign_off: SignOff, now: list[Result]) -> None:
    """The director's sign-off against the log: it must rest on a checkpoint the log extends,
    and the tournament's results must be those signed off."""
    anchored = next((r for r in report.checkpoints if r.consistent and
                     (r.checkpoint.origin, r.checkpoint.size, r.checkpoint.root) ==
                     (sign_off.origin, sign_off.size, sign_off.root)), None)
    if anchored is None:
        report.breaks.append(Break("sign_off_unanchored", detail=(
            f"the sign-off of {sign_off.tournament} names checkpoint {sign_off.origin} size "
            f"{sign_off.size} root {sign_off.root.hex()}, which is not a checkpoint this log "
            "extends")))
    for change in compare(sign_off, now):
        version = int(change.split(" ")[1])
        report.breaks.append(Break("sign_off_changed", stream_id=sign_off.tournament,
                                   version=version, detail=change))
    state = "signature ok" if sign_off.signed_by else "signature not checked"
    report.notes.append(
        f"sign-off of {sign_off.tournament} by {sign_off.director} at {sign_off.signed_at} "
        f"({state}): {len(sign_off.results)} results, resting on checkpoint of size "
        f"{sign_off.size}" + (f" ({anchored.label})" if anchored else ""))
