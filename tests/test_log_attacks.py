"""An insider with the database attacks the log after a signed checkpoint was posted and
cosigned by two witnesses, on SQLite and PostgreSQL: drops the append-only triggers, rewrites,
truncates, deletes, swaps or inserts events and recomputes every chain hash and stream head so
the chains verify. `handlog log verify --checkpoint FILE --key PUBLIC_KEY --witness-key W1
--witness-key W2 --min-witnesses 2` catches each one and names the stream, version and kind of
the break; a log that only grew since the checkpoint verifies."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from conftest_store import covered, driver_connect

from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.signing import sign_checkpoints
from handlog.recorder.tournament_service import Tournaments
from handlog.recorder.witness import Witness, cosigned, make_request
from handlog.schema.checkpoint import load_or_create_signing_key
from handlog.schema.cosignature import WitnessSigningKey
from handlog.schema.hashing import GENESIS_HASH, chain_hash
from handlog.schema.store import open_store, upgrade_database

DIRECTOR = Actor("director", "director")
WITNESSES = (WitnessSigningKey("league.example/treasurer", bytes(range(1, 33))),
             WitnessSigningKey("players.example/association", bytes(range(2, 34))))


def handlog(*arguments: str) -> Result:
    from handlog.recorder.cli import cli

    return CliRunner().invoke(cli, list(arguments), catch_exceptions=False)


@dataclass
class Room:
    url: str
    tournament: str
    table: str
    checkpoint: Path
    public_key: Path
    signing_key: Path
    size: int


@pytest.fixture
def room(db_url: str, tmp_path: Path) -> Room:
    """A short tournament with a ruling, recorded by a server that signs checkpoints; then the
    director posts a checkpoint (`handlog log checkpoint --out`) and the public key."""
    upgrade_database(db_url)
    key_path = tmp_path / "handlog.signing-key"
    key, _ = load_or_create_signing_key(key_path, "casino.example/poker-room")
    with open_store(db_url) as store:
        recorder = Recorder(store)
        signer = sign_checkpoints(recorder, store, key)
        summary = run_demo(recorder, players=6, tables=1, seed=3, hands=6)
        Tournaments(recorder).ruling(summary.tournament, "tda-1", "chips counted", DIRECTOR)
        signer.close()  # (the ruling's checkpoint signed, then the signer's thread stopped)
        table = next(h.stream_id for h in store.streams() if h.kind == "table")
    checkpoint = tmp_path / "posted.checkpoint"
    result = handlog("log", "checkpoint", "--db", db_url, "--signing-key", str(key_path),
                     "--out", str(checkpoint))
    assert result.exit_code == 0, result.output
    # Two witnesses cosign it (C2SP tlog-witness): the auditor holds the witnessed checkpoint.
    note = checkpoint.read_text()
    for witness in WITNESSES:
        answer = Witness(witness, {key.name: key.verifier},
                         tmp_path / f"{witness.name.split('/')[0]}.state").add_checkpoint(
            make_request(0, [], note))
        assert answer.status == 200, answer.body
        checkpoint.write_text(cosigned(checkpoint.read_text(), answer.body))
        (tmp_path / f"{witness.name.split('/')[0]}.pub").write_text(witness.verifier.text())
    public = tmp_path / "room.pub"
    public.write_text(handlog("log", "key", "--signing-key", str(key_path)).output)
    size = int(checkpoint.read_text().splitlines()[1])
    return Room(db_url, f"tournament-{summary.tournament}", table, checkpoint, public, key_path,
                size)


def verify(room: Room, witnessed: bool = True) -> Result:
    """`log verify` against the checkpoint the two witnesses cosigned, both required (or,
    not `witnessed`, against the room's signature alone)."""
    folder = room.checkpoint.parent
    keys = ["--witness-key", str(folder / "league.example.pub"), "--witness-key",
            str(folder / "players.example.pub"), "--min-witnesses", "2"] if witnessed else []
    return _show(handlog("log", "verify", "--db", room.url, "--checkpoint", str(room.checkpoint),
                   "--key", str(room.public_key), *keys))


def _show(result: Result) -> Result:
    print(result.output)
    return result


def breaks(result: Result) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith("BREAK")]


# --- the insider's tools ------------------------------------------------------------------------


class Insider:
    """Raw SQL on the database with the triggers off, and handlog's own hash function."""

    def __init__(self, url: str) -> None:
        self.sqlite = url.startswith("sqlite")
        self.connection = driver_connect(url)
        if self.sqlite:
            for trigger in ("events_no_update", "events_no_delete"):
                self.connection.execute(f"DROP TRIGGER {trigger}")
        else:
            self.connection.execute("ALTER TABLE events DISABLE TRIGGER ALL")

    def sql(self, statement: str, *parameters: Any) -> list[Any]:
        if not self.sqlite:
            statement = statement.replace("?", "%s")
        cursor = self.connection.execute(statement, parameters)
        return list(cursor.fetchall()) if cursor.description else []

    def close(self) -> None:
        if not self.sqlite:
            self.connection.execute("ALTER TABLE events ENABLE TRIGGER ALL")
        self.connection.close()

    def event(self, stream: str, version: int) -> tuple[Any, ...]:
        (row,) = self.sql("SELECT position, event_id, type, payload FROM events "
                          "WHERE stream_id = ? AND version = ?", stream, version)
        return tuple(row)

    def find(self, stream: str, event_type: str, last: bool = False) -> int:
        rows = self.sql("SELECT version FROM events WHERE stream_id = ? AND type = ? "
                        "ORDER BY version", stream, event_type)
        assert rows, f"no {event_type} in {stream}"
        return int(rows[-1 if last else 0][0])

    def set_payload(self, stream: str, version: int, change: Callable[[str], str]) -> None:
        payload = self.event(stream, version)[3]
        forged = change(payload)
        assert forged != payload, "the forgery must change the payload"
        self.sql("UPDATE events SET payload = ? WHERE stream_id = ? AND version = ?",
                 forged, stream, version)

    def rehash(self, stream: str) -> None:
        """Recompute every hash of the stream and its head, as the chain check wants them."""
        rows = self.sql("SELECT position, version, event_id, type, schema_version, payload, "
                        "recorded_at, actor, device FROM events WHERE stream_id = ? "
                        "ORDER BY version", stream)
        previous = GENESIS_HASH
        for position, version, event_id, kind, schema_version, payload, at, actor, device in rows:
            digest = chain_hash(previous, stream, version, event_id=_uuid(event_id),
                                event_type=kind, schema_version=schema_version,
                                payload_json=payload, recorded_at=_time(at), actor=actor,
                                device=device)
            self.sql("UPDATE events SET prev_hash = ?, hash = ? WHERE position = ?",
                     previous, digest, position)
            previous = digest
        self.sql("UPDATE streams SET head_version = ?, head_hash = ? WHERE id = ?",
                 len(rows), previous, stream)


def _uuid(value: Any) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def _time(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value.astimezone(UTC)
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def attack(room: Room, deed: Callable[[Insider], Any]) -> Any:
    insider = Insider(room.url)
    try:
        return deed(insider)
    finally:
        insider.close()


def assert_caught(result: Result, kind: str, stream: str, version: int) -> str:
    """Exit 1, a break of `kind` naming `stream` and `version`, and checkpoint 1 broken."""
    assert result.exit_code == 1, result.output
    found = breaks(result)
    named = [line for line in found
             if line.startswith(f"BREAK {kind} at stream {stream!r}, version {version}")]
    assert named, f"no {kind} of {stream} version {version} in:\n{result.output}"
    assert any(line.startswith(("BREAK not an extension of checkpoint 1",
                                "BREAK log truncated")) and "checkpoint 1" in line
               for line in found), result.output
    assert "Traceback" not in result.output
    return named[0]


# --- the attacks ----------------------------------------------------------------------------------


def test_an_untouched_log_verifies_against_its_checkpoint(room: Room) -> None:
    result = verify(room)
    assert result.exit_code == 0, result.output
    assert re.search(r"^tree size \d+ root [0-9a-f]{64}$", result.output, re.M)
    assert f"checkpoint 1 ({room.checkpoint}): origin casino.example/poker-room size " \
        f"{room.size}" in result.output
    assert result.output.splitlines()[-2].endswith("verified and extends every checkpoint")
    assert result.output.splitlines()[-1].startswith(f"CLEAN: all {room.size} events are covered")


def test_a_log_that_only_grew_since_the_checkpoint_verifies(room: Room) -> None:
    key, _ = load_or_create_signing_key(room.signing_key, "unused")
    with open_store(room.url) as store:
        recorder = Recorder(store)
        signer = sign_checkpoints(recorder, store, key)
        tournament = room.tournament.removeprefix("tournament-")
        for n in range(3):
            Tournaments(recorder).ruling(tournament, "tda-2", f"note {n}", DIRECTOR)
        assert store.tree_head().size == room.size + 3
        covered(store)
        signer.close()
    result = verify(room, witnessed=False)
    assert result.exit_code == 0, result.output
    # The witnesses cosigned the first checkpoint only: the three rulings after it are the
    # unsigned tail for an auditor who asks for both witnesses.
    assert verify(room).exit_code == 4
    line = next(x for x in result.output.splitlines() if x.startswith("checkpoint 1 "))
    assert re.search(r"consistent \(consistency proof of [1-9]\d* hashes verified\)", line)


def test_a_consistent_rewrite_of_the_payout_table_is_caught(room: Room) -> None:
    """First place 65% -> 70%: the tournament stream rehashed, its head fixed."""
    def deed(insider: Insider) -> None:
        insider.set_payload(room.tournament, 1,
                            lambda p: p.replace("[6500,3500]", "[7000,3000]"))
        insider.rehash(room.tournament)

    attack(room, deed)
    assert handlog("log", "verify", "--db", room.url).exit_code == 1  # even without checkpoint
    line = assert_caught(verify(room), "payload changed", room.tournament, 1)
    assert "the chain was rehashed to hide it" in line


def test_a_consistent_rewrite_of_a_ruling_is_caught(room: Room) -> None:
    def deed(insider: Insider) -> int:
        version = insider.find(room.tournament, "ruling_recorded")
        insider.set_payload(room.tournament, version, lambda p: json.dumps(
            {**json.loads(p), "by": "someone-else"}, separators=(",", ":"), sort_keys=True))
        insider.rehash(room.tournament)
        return version

    version = attack(room, deed)
    assert_caught(verify(room), "payload changed", room.tournament, version)


def test_a_consistent_rewrite_of_a_pot_award_is_caught(room: Room) -> None:
    def deed(insider: Insider) -> int:
        version = insider.find(room.table, "pot_awarded")

        def forge(payload: str) -> str:
            award = json.loads(payload)
            award["shares"] = [share + 100 for share in award["shares"]]
            return json.dumps(award, separators=(",", ":"), sort_keys=True, ensure_ascii=False)

        insider.set_payload(room.table, version, forge)
        insider.rehash(room.table)
        return version

    version = attack(room, deed)
    line = assert_caught(verify(room), "payload changed", room.table, version)
    assert re.search(r", hand \d+:", line), "the break names the hand it belongs to"


def test_the_log_truncated_with_its_heads_fixed_is_caught(room: Room) -> None:
    """The last three events deleted, every stream head moved back to match."""
    def deed(insider: Insider) -> tuple[str, int]:
        rows = insider.sql("SELECT position, stream_id, version FROM events "
                           "ORDER BY position DESC LIMIT 3")
        for position, _stream, _version in rows:
            insider.sql("DELETE FROM events WHERE position = ?", position)
        for stream in {row[1] for row in rows}:
            insider.rehash(stream)
        first = rows[-1]
        return str(first[1]), int(first[2])

    stream, version = attack(room, deed)
    assert_caught(verify(room), "log truncated", stream, version)


def test_a_deleted_table_stream_is_caught(room: Room) -> None:
    def deed(insider: Insider) -> None:
        insider.sql("DELETE FROM events WHERE stream_id = ?", room.table)
        insider.sql("DELETE FROM streams WHERE id = ?", room.table)

    attack(room, deed)
    assert_caught(verify(room), "stream missing", room.table, 1)


def test_two_swapped_events_are_reported_as_swapped(room: Room) -> None:
    """Two consecutive events of a table exchange places (everything but version and
    position), the chain rehashed: reported as swapped, not as a missing version."""
    def deed(insider: Insider) -> int:
        version = insider.find(room.table, "player_folded")
        first, second = insider.event(room.table, version), insider.event(room.table,
                                                                           version + 1)
        columns = "event_id = ?, type = ?, payload = ?"
        temporary = uuid.uuid4().hex if insider.sqlite else str(uuid.uuid4())
        insider.sql("UPDATE events SET event_id = ? WHERE position = ?", temporary, first[0])
        insider.sql(f"UPDATE events SET {columns} WHERE position = ?", *first[1:], second[0])
        insider.sql(f"UPDATE events SET {columns} WHERE position = ?", *second[1:], first[0])
        insider.rehash(room.table)
        return version

    version = attack(room, deed)
    result = verify(room)
    line = assert_caught(result, "events swapped", room.table, version)
    assert f"version {version}" in line and f"version {version + 1}" in line
    assert not [x for x in breaks(result) if x.startswith("BREAK event missing")]


def test_an_inserted_event_is_caught(room: Room) -> None:
    """A forged ruling slipped in as version 2 of the tournament: later versions renumbered,
    the chain rehashed."""
    def deed(insider: Insider) -> None:
        stream = room.tournament
        (last,) = insider.sql("SELECT max(version) FROM streams s JOIN events e ON "
                              "e.stream_id = s.id WHERE s.id = ?", stream)
        for version in range(int(last[0]), 1, -1):
            insider.sql("UPDATE events SET version = ? WHERE stream_id = ? AND version = ?",
                        version + 1, stream, version)
        template = insider.sql("SELECT recorded_at, actor, device FROM events WHERE "
                               "stream_id = ? AND version = 1", stream)[0]
        event_id = uuid.uuid4().hex if insider.sqlite else str(uuid.uuid4())
        insider.sql("INSERT INTO events (stream_id, version, event_id, type, schema_version, "
                    "payload, recorded_at, actor, device, prev_hash, hash) VALUES "
                    "(?, 2, ?, 'ruling_recorded', 1, ?, ?, ?, ?, '', '')",
                    stream, event_id, '{"by":"director","rule":"tda-1","stream":"",'
                    '"text":"prize pool changed","version":0}', *template)
        insider.rehash(stream)

    attack(room, deed)
    result = verify(room)
    assert_caught(result, "event inserted", room.tournament, 2)


def test_a_rewrite_of_the_merkle_tables_too_is_still_caught_by_the_checkpoint(
    room: Room,
) -> None:
    """The insider also rewrites every leaf and interior node: the checkpoint alone still
    says the log is not an extension of it, and where the change can lie."""
    def deed(insider: Insider) -> None:
        insider.set_payload(room.tournament, 1,
                            lambda p: p.replace("[6500,3500]", "[7000,3000]"))
        insider.rehash(room.tournament)
        if insider.sqlite:
            insider.sql("DROP TRIGGER merkle_leaves_no_delete")
        else:
            insider.sql("ALTER TABLE merkle_leaves DISABLE TRIGGER ALL")
        insider.sql("DELETE FROM merkle_leaves")

    attack(room, deed)
    # Re-add every leaf with the store's own code, from the forged events.
    from handlog.schema.database import create_engine
    from handlog.schema.merkle import append_leaves

    engine = create_engine(room.url)
    with engine.begin() as connection:
        rows = connection.exec_driver_sql(
            "SELECT position, stream_id, version, event_id, hash FROM events ORDER BY position"
        ).all()
        append_leaves(connection, [tuple(row) for row in rows])
    engine.dispose()
    result = verify(room)
    assert result.exit_code == 1, result.output
    (line,) = [x for x in breaks(result) if x.startswith("BREAK not an extension of checkpoint 1")]
    assert "the stored leaves were rewritten too, the change lies among events" in line


def test_an_export_is_checked_against_the_checkpoint_offline(room: Room, tmp_path: Path) -> None:
    """The JSON-lines export carries all an auditor needs: it verifies against the posted
    checkpoint with no database, and a rewrite exported afterwards does not."""
    clean = tmp_path / "clean.jsonl"
    assert handlog("log", "export", "--db", room.url, "--out", str(clean)).exit_code == 0
    result = handlog("log", "verify", str(clean), "--checkpoint", str(room.checkpoint),
                     "--key", str(room.public_key))
    assert result.exit_code == 0, result.output
    assert "consistent (consistency proof of" in result.output

    def deed(insider: Insider) -> None:
        insider.set_payload(room.tournament, 1,
                            lambda p: p.replace("[6500,3500]", "[7000,3000]"))
        insider.rehash(room.tournament)

    attack(room, deed)
    forged = tmp_path / "forged.jsonl"
    assert handlog("log", "export", "--db", room.url, "--out", str(forged)).exit_code == 0
    result = handlog("log", "verify", str(forged), "--checkpoint", str(room.checkpoint),
                     "--key", str(room.public_key))
    assert result.exit_code == 1
    assert "BREAK not an extension of checkpoint 1: the root of the first" in result.output


def test_replay_and_the_audit_report_no_longer_call_a_rehashed_rewrite_clean(
    room: Room, tmp_path: Path
) -> None:
    def deed(insider: Insider) -> None:
        insider.set_payload(room.tournament, 1,
                            lambda p: p.replace("[6500,3500]", "[7000,3000]"))
        insider.rehash(room.tournament)

    attack(room, deed)
    replayed = handlog("replay", "--db", room.url)
    assert replayed.exit_code == 1
    assert f"BREAK payload changed at stream {room.tournament!r}, version 1" in replayed.output
    out = tmp_path / "audit.html"
    reported = handlog("report", "--db", room.url, "--out", str(out))
    assert reported.exit_code == 1
    page = out.read_text(encoding="utf-8")
    assert "CLEAN" not in page
    assert "Merkle log and checkpoints: <span class=\"bad\">broken</span>" in page
