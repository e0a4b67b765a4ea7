"""The director's sign-off of a tournament's results: a C2SP signed note, signed with the
director's own Ed25519 key (not the room's), naming every result event of the tournament's
stream by its version, type and chain hash, and the checkpoint of the log they rest on.

    handlog-sign-off/v1
    tournament <stream id>
    director <who signed, as the room knows them>
    checkpoint <origin> <tree size> <base64 root>
    handlog-time <UTC time>
    result <version> <type> <event hash>
    ...
                                            (a blank line)
    — <director key name> <base64(key ID || Ed25519 signature)>

Results are the places (eliminations, withdrawals), the prizes and bounties paid, the high
hand, deals, the finish, and every correction or ruling recorded in that stream. Checking it
against a log: each listed event must be there with the same hash (else it changed after the
sign-off), and any result recorded after it is a finding too.
"""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa

from handlog.schema.checkpoint import (
    DASH,
    TIME_EXTENSION,
    Checkpoint,
    CheckpointError,
    SigningKey,
    StoredCheckpoint,
    VerifierKey,
    check_name,
)
from handlog.schema.store import EventStore
from handlog.schema.tables import events_table, sign_offs_table

HEADER = "handlog-sign-off/v1"
RESULT_TYPES = frozenset({
    "player_eliminated", "player_withdrew", "prizes_awarded", "high_hand_awarded",
    "bounty_assigned", "bounty_referred", "deal_recorded", "tournament_finished",
    "ruling_recorded", "penalty_recorded", "event_voided", "event_amended", "stack_corrected",
})


@dataclass(frozen=True)
class Result:
    version: int
    type: str
    hash: str


@dataclass(frozen=True)
class SignOff:
    tournament: str
    director: str
    origin: str
    size: int
    root: bytes
    signed_at: str
    results: tuple[Result, ...]
    signed_by: str | None
    text: str


def results_of(rows: Iterable[tuple[str, int, str, str]], stream: str) -> list[Result]:
    """The result events of `stream` among (stream, version, type, hash) rows."""
    return sorted((Result(version, kind, digest) for s, version, kind, digest in rows
                   if s == stream and kind in RESULT_TYPES), key=lambda r: r.version)


def make_sign_off(key: SigningKey, tournament: str, director: str, checkpoint: Checkpoint,
                  results: list[Result], at: datetime | None = None) -> str:
    check_name(tournament)
    if not director or "\n" in director:
        raise CheckpointError("the director's name is one line")
    moment = (at or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = [HEADER, f"tournament {tournament}", f"director {director}",
             f"checkpoint {checkpoint.origin} {checkpoint.size} "
             f"{base64.b64encode(checkpoint.root).decode()}", f"{TIME_EXTENSION} {moment}"]
    lines += [f"result {r.version} {r.type} {r.hash}" for r in results]
    body = "\n".join(lines) + "\n"
    signature = base64.b64encode(key.verifier.id + key.sign(body.encode())).decode()
    return f"{body}\n{DASH} {key.name} {signature}\n"


def parse_sign_off(text: str, key: VerifierKey | None) -> SignOff:
    """CheckpointError naming what is wrong; with `key` its signature must verify."""
    if "\n\n" not in text or not text.startswith(HEADER + "\n"):
        raise CheckpointError(f"not a sign-off: it starts with {HEADER!r}, then the results, "
                              "a blank line and the director's signature")
    split = text.rindex("\n\n")
    body, signatures = text[:split + 1], text[split + 2:]
    lines = body.split("\n")[:-1]
    try:
        _h, tournament, director, checkpoint, time_line = lines[:5]
        origin, size, root = checkpoint.removeprefix("checkpoint ").split(" ")
        results = []
        for line in lines[5:]:
            word, version, kind, digest = line.split(" ")
            if word != "result":
                raise ValueError(line)
            results.append(Result(int(version), kind, digest))
        parsed = SignOff(tournament.removeprefix("tournament "),
                         director.removeprefix("director "), origin, int(size),
                         base64.b64decode(root, validate=True),
                         time_line.removeprefix(TIME_EXTENSION + " "), tuple(results), None,
                         text)
    except ValueError as exc:
        raise CheckpointError(f"the sign-off cannot be read: {exc}") from None
    if key is None:
        return parsed
    for line in signatures.split("\n"):
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH or parts[1] != key.name:
            continue
        try:
            raw = base64.b64decode(parts[2], validate=True)
        except ValueError:
            continue
        if raw[:4] == key.id and key.verify(body.encode(), raw[4:]):
            return dataclasses.replace(parsed, signed_by=key.text())
    raise CheckpointError(f"the sign-off is not signed by the director's key {key.text()}")


def compare(sign_off: SignOff, now: list[Result]) -> list[str]:
    """What changed in the tournament's results since the sign-off (empty: nothing)."""
    found = []
    by_version = {r.version: r for r in now}
    for signed in sign_off.results:
        current = by_version.get(signed.version)
        if current is None:
            found.append(f"version {signed.version} ({signed.type}) signed off is gone")
        elif current != signed:
            found.append(f"version {signed.version} ({signed.type}) changed after the sign-off "
                         f"(signed hash {signed.hash[:16]}..., now {current.type} "
                         f"{current.hash[:16]}...)")
    signed_versions = {r.version for r in sign_off.results}
    last = max(signed_versions, default=0)
    for result in now:
        if result.version not in signed_versions and result.version > last:
            found.append(f"version {result.version} ({result.type}) was recorded after the "
                         "sign-off")
        elif result.version not in signed_versions:
            found.append(f"version {result.version} ({result.type}) is not among the results "
                         "signed off")
    return found


def result_rows(store: EventStore, stream: str) -> list[tuple[str, int, str, str]]:
    """(stream, version, type, hash) of every event of `stream` in the database."""
    with store.connection() as connection:
        rows = connection.execute(
            sa.select(events_table.c.stream_id, events_table.c.version, events_table.c.type,
                      events_table.c.hash).where(events_table.c.stream_id == stream)
            .order_by(events_table.c.version)).all()
    return [(str(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]


def sign_off_results(store: EventStore, key: SigningKey, stream: str, director: str,
                     take_checkpoint: Callable[[str], StoredCheckpoint]
                     ) -> tuple[SignOff, StoredCheckpoint]:
    """The director signs off the results of tournament `stream` now (`handlog tournament
    sign-off` and the floor page's button alike): a checkpoint is taken (the room's, through
    `take_checkpoint`, so its witnesses are sent it), the sign-off signed with the director's
    `key` resting on it and kept in the database beside it. CheckpointError when the log
    holds no such tournament."""
    rows = result_rows(store, stream)
    if not rows:
        raise CheckpointError(f"no tournament {stream.removeprefix('tournament-')!r} in the log")
    taken = take_checkpoint("director_sign_off")
    text = make_sign_off(key, stream, director, taken.checkpoint, results_of(rows, stream))
    with store.connection(write=True) as connection:
        connection.execute(sa.insert(sign_offs_table), {
            "tournament": stream, "director": director, "checkpoint_id": taken.number,
            "note": text, "created_at": datetime.now(UTC)})
    return parse_sign_off(text, key.verifier), taken


def stored_sign_offs(store: EventStore) -> list[tuple[int, SignOff]]:
    """Every sign-off kept in the database, oldest first, with the number of the checkpoint
    it rests on (as stored: `log verify --sign-off` checks one against the director's key)."""
    with store.connection() as connection:
        rows = connection.execute(sa.select(sign_offs_table.c.checkpoint_id,
                                            sign_offs_table.c.note)
                                  .order_by(sign_offs_table.c.sign_off_id)).all()
    return [(int(number), parse_sign_off(note, None)) for number, note in rows]
