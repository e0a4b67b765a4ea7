"""Witnesses hold the room to its log (C2SP tlog-witness, tlog-cosignature): a room with two
witnesses on SQLite and PostgreSQL, the protocol's answers, the offline witness, a down
witness that delays nothing, and a verifier written here from the C2SP texts alone."""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import struct
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner, Result
from conftest_store import new_events, url_with_search_path
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from handlog.recorder.service import Actor, Recorder
from handlog.recorder.signing import Checkpointer, sign_checkpoints
from handlog.recorder.witness import Witness, make_request, make_server
from handlog.recorder.witness_client import CosignatureWriter, WitnessClient
from handlog.replay.report import build_report
from handlog.schema.checkpoint import (
    SigningKey,
    latest_checkpoint,
    record_checkpoint,
    stored_checkpoints,
)
from handlog.schema.codec import format_utc
from handlog.schema.cosignature import WitnessSigningKey, verify_cosignatures
from handlog.schema.database import create_engine
from handlog.schema.proof import consistency_path
from handlog.schema.store import EventStore, open_store, upgrade_database
from handlog.schema.tables import (
    checkpoints_table,
    cosignatures_table,
    events_table,
    merkle_leaves_table,
    streams_table,
)

ROOM = SigningKey("casino.example/poker-room", bytes(range(32)))
LEAGUE = WitnessSigningKey("league.example/treasurer", bytes(range(1, 33)))
PLAYERS = WitnessSigningKey("players.example/association", bytes(range(2, 34)))


def handlog(*arguments: str) -> Result:
    from handlog.recorder.cli import cli

    return CliRunner().invoke(cli, list(arguments), catch_exceptions=False)


def write_keys(folder: Path) -> dict[str, Path]:
    paths = {"room": folder / "room.pub", "league": folder / "league.pub",
             "players": folder / "players.pub"}
    paths["room"].write_text(ROOM.verifier.text() + "\n")
    paths["league"].write_text(LEAGUE.verifier.text() + "\n")
    paths["players"].write_text(PLAYERS.verifier.text() + "\n")
    return paths


@dataclass
class Running:
    witness: Witness
    url: str


@pytest.fixture
def witnesses(tmp_path: Path) -> Iterator[list[Running]]:
    """Two witnesses, each on its own HTTP port and state file, following the room."""
    running, servers = [], []
    for key in (LEAGUE, PLAYERS):
        witness = Witness(key, {ROOM.name: ROOM.verifier},
                          tmp_path / f"{key.name.split('/')[0]}.state.json")
        server = make_server(witness, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        running.append(Running(witness, f"http://127.0.0.1:{server.server_address[1]}"))
    yield running
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def second_url(db_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """Another empty database on the same backend as `db_url` (a file, or a schema)."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'second.db'}"
        return
    server = request.getfixturevalue("postgres_server_url")
    schema = f"t_{uuid.uuid4().hex}"
    admin = sa.create_engine(server)
    try:
        with admin.begin() as connection:
            connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        yield url_with_search_path(server, schema)
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.dispose()


LOG_TABLES = (streams_table, events_table, merkle_leaves_table, checkpoints_table,
              cosignatures_table)


def copy_database(source: str, target: str) -> None:
    """A backup of the log taken now: every row of the log's tables, as they are, into a
    freshly migrated `target` (PostgreSQL's sequences moved past the copied rows)."""
    upgrade_database(target)
    read, write = create_engine(source), create_engine(target)
    try:
        with read.connect() as origin, write.begin() as copy:
            for table in LOG_TABLES:
                rows = [dict(row._mapping) for row in origin.execute(sa.select(table))]
                if rows:
                    copy.execute(sa.insert(table), rows)
            if copy.dialect.name == "postgresql":
                for table, column in (("events", "position"),
                                      ("log_checkpoints", "checkpoint_id")):
                    copy.exec_driver_sql(
                        f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                        f"(SELECT max({column}) FROM {table}))")
    finally:
        read.dispose()
        write.dispose()


def room_with(store: EventStore, witnesses: list[Running], folder: Path
              ) -> tuple[Checkpointer, list[WitnessClient]]:
    writer = CosignatureWriter(store, len(witnesses))  # as `serve --witness` shares one
    clients = [WitnessClient(w.url, w.witness.key.verifier, store, folder, writer)
               for w in witnesses]
    signer = Checkpointer(store, ROOM, delay=60,
                          after=lambda taken: [c.submit(taken) for c in clients])
    return signer, clients


def settle(clients: list[WitnessClient]) -> None:
    for client in clients:
        assert client.idle(30), client.status


def cosigned_files(folder: Path) -> list[str]:
    args = []
    for path in sorted(folder.rglob("*.checkpoint")):
        args += ["--checkpoint", str(path)]
    return args


# --- the room with two witnesses ------------------------------------------------------------


def test_a_witnessed_log_is_clean_with_two_witnesses(db_url: str, tmp_path: Path,
                                                     witnesses: list[Running]) -> None:
    """Every checkpoint is cosigned by both and the cosignatures are stored in the database
    beside their checkpoint: `--min-witnesses 2` accepts the log from the database alone (and
    from its export, offline), showing each witness's cosignature time beside the signed
    time."""
    keys = write_keys(tmp_path)
    upgrade_database(db_url)
    with open_store(db_url) as store:
        signer, clients = room_with(store, witnesses, tmp_path / "cosigned")
        store.append("table-1", 0, new_events(3))
        signer.sign("on_demand")
        store.append("table-1", 3, new_events(2, start=4))
        signer.sign("on_demand")
        settle(clients)
        assert [c.status.cosigned_size for c in clients] == [5, 5]
        kept = stored_checkpoints(store)
        assert [sorted(c.witness for c in k.cosignatures) for k in kept] == [
            sorted([LEAGUE.name, PLAYERS.name])] * 2
        assert len(verify_cosignatures(kept[-1].cosigned_text,
                                       [LEAGUE.verifier, PLAYERS.verifier])) == 2
    witness_keys = ["--key", str(keys["room"]), "--witness-key", str(keys["league"]),
                    "--witness-key", str(keys["players"]), "--min-witnesses", "2"]
    exported = tmp_path / "log.jsonl"
    assert handlog("log", "export", "--db", db_url, "--out", str(exported)).exit_code == 0
    for source in (["--db", db_url], [str(exported)]):
        result = handlog("log", "verify", *source, *witness_keys)
        assert result.exit_code == 0, result.output
        assert "cosigned by league.example/treasurer at " in result.output
        assert "cosigned by players.example/association at " in result.output
        assert result.output.splitlines()[-1].endswith("and cosigned by at least 2 witness(es)")


def test_a_stored_cosignature_is_append_only(db_url: str) -> None:
    """The cosignatures (and the sign-offs) are evidence: the database refuses to change or
    delete their rows, as it does the checkpoints'; a second copy of one is not kept."""
    from datetime import UTC, datetime

    from conftest_store import driver_connect

    from handlog.schema.checkpoint import record_cosignature
    from handlog.schema.sign_off import sign_off_results

    upgrade_database(db_url)
    with open_store(db_url) as store:
        store.append("table-1", 0, new_events(2))
        taken = record_checkpoint(store, ROOM, "on_demand")
        line = LEAGUE.cosign(taken.checkpoint.text[:taken.checkpoint.text.rindex("\n\n") + 1],
                             1_700_000_000)
        at = datetime.fromtimestamp(1_700_000_000, UTC)
        assert record_cosignature(store, taken.number, LEAGUE.name, line, at)
        assert not record_cosignature(store, taken.number, LEAGUE.name, line, at)
        (kept,) = stored_checkpoints(store)
        assert [(c.witness, c.cosigned_at) for c in kept.cosignatures] == [(LEAGUE.name, at)]
        sign_off_results(store, SigningKey("director/room", bytes(range(3, 35))), "table-1",
                         "Ann Lee", lambda reason: record_checkpoint(store, ROOM, reason))
    connection = driver_connect(db_url)
    try:
        for statement in ("UPDATE log_cosignatures SET line = 'x'",
                          "DELETE FROM log_cosignatures", "UPDATE sign_offs SET note = 'x'",
                          "DELETE FROM sign_offs"):
            with pytest.raises(Exception, match="append-only"):
                connection.execute(statement)
    finally:
        connection.close()


def test_the_report_shows_each_checkpoint_s_signed_time_beside_each_cosignature(
        db_url: str, tmp_path: Path, witnesses: list[Running]) -> None:
    """A demo recorded by a room that signs as `serve` does, with two witnesses: the
    report (JSON and HTML) lists every checkpoint with the time inside its signed text and
    each witness's cosignature time, from the database."""
    from handlog.recorder.demo import run_demo

    upgrade_database(db_url)
    with open_store(db_url) as store:
        recorder = Recorder(store)
        clients = [WitnessClient(w.url, w.witness.key.verifier, store, tmp_path)
                   for w in witnesses]
        signer = sign_checkpoints(recorder, store, ROOM, 3600,
                                  after=lambda taken: [c.submit(taken) for c in clients])
        run_demo(recorder, players=6, tables=1, seed=3, hands=3)
        signer.flush()
        settle(clients)
        kept = stored_checkpoints(store)
        report = build_report(store)
        for client in clients:
            client.close()
    shown = report.data["checkpoints"]
    assert len(shown) == len(kept) >= 2
    for checkpoint, stored in zip(shown, kept, strict=True):
        assert stored.checkpoint.signed_at is not None
        assert checkpoint["signed_at"] == format_utc(stored.checkpoint.signed_at)
        assert {c["cosigned_at"] for c in checkpoint["cosignatures"]} == {
            format_utc(c.cosigned_at) for c in stored.cosignatures}
    last = shown[-1]
    assert sorted(c["witness"] for c in last["cosignatures"]) == sorted(
        [LEAGUE.name, PLAYERS.name])
    page = report.to_html()
    assert "Cosigned at (witness)" in page
    assert f"<td>{last['signed_at']}</td>" in page
    for cosignature in last["cosignatures"]:
        assert f"{cosignature['witness']} at {cosignature['cosigned_at']}" in page


def test_a_consistent_rewrite_signed_with_the_room_key_is_refused_by_the_witnesses(
        db_url: str, second_url: str, tmp_path: Path, witnesses: list[Running]) -> None:
    """The operator rewrites the whole log (another database, every hash recomputed) and
    signs it with the room's own key: the witnesses refuse it, and an auditor holding no
    earlier checkpoint still fails it with --min-witnesses 1."""
    keys = write_keys(tmp_path)
    upgrade_database(db_url)
    with open_store(db_url) as store:
        signer, clients = room_with(store, witnesses, tmp_path / "cosigned")
        store.append("table-1", 0, new_events(4))
        signer.sign("on_demand")
        settle(clients)
    rewritten = second_url  # another database on the same backend
    upgrade_database(rewritten)
    with open_store(rewritten) as store:
        signer, clients = room_with(store, witnesses, tmp_path / "cosigned-rewrite")
        store.append("table-1", 0, new_events(4, start=10))  # other payloads, same size
        store.append("table-1", 4, new_events(1, start=20))
        signer.sign("on_demand")
        settle(clients)
        assert all(c.status.error.startswith("refused (422)") for c in clients), \
            [c.status for c in clients]
    evidence = list((tmp_path).glob("*.state.json.evidence/*.json"))
    assert len(evidence) == 2
    kept = json.loads(evidence[0].read_text())
    assert kept["kind"] == "not_an_extension" and "\n4\n" in kept["cosigned"]
    result = handlog("log", "verify", "--db", rewritten, "--key", str(keys["room"]),
                     "--witness-key", str(keys["league"]), "--min-witnesses", "1")
    assert result.exit_code == 1, result.output
    assert "BREAK too few witnesses: no checkpoint of this log carries 1 valid " \
        "cosignature(s)" in result.output
    # The witness's evidence (the checkpoint it cosigned, the one it refused): two logs the
    # room signed that cannot both be true, the rewrite among them, named as equivocation.
    named = handlog("log", "verify", "--db", rewritten, "--key", str(keys["room"]),
                    "--checkpoint", str(evidence[0]))
    assert named.exit_code == 1, named.output
    (line,) = [x for x in named.output.splitlines() if x.startswith("BREAK equivocation")]
    assert "cosigned by the witness) of size 4 and checkpoint 2" in line
    assert "refused by the witness) of size 5" in line
    assert "the room signed two different logs" in line
    assert not [x for x in named.output.splitlines() if x.startswith("BREAK not an extension")]


def test_a_split_view_at_one_size_is_refused_and_named_equivocation(
        db_url: str, tmp_path: Path, witnesses: list[Running]) -> None:
    """Same size, another root, signed by the room: the witness answers 409 and keeps the
    pair; given both checkpoints, `log verify` names equivocation."""
    keys = write_keys(tmp_path)
    upgrade_database(db_url)
    with open_store(db_url) as store:
        store.append("table-1", 0, new_events(3))
        first = record_checkpoint(store, ROOM, "on_demand").checkpoint
    witness = witnesses[0].witness
    assert witness.add_checkpoint(make_request(0, [], first.text)).status == 200
    from handlog.schema.checkpoint import sign_checkpoint

    other = sign_checkpoint(ROOM, 3, hashlib.sha256(b"the league's copy").digest())
    answer = witness.add_checkpoint(make_request(3, [], other))
    assert (answer.status, answer.body, answer.content_type) == (409, "3\n", "text/x.tlog.size")
    (kept,) = witness.evidence.glob("*.json")
    assert json.loads(kept.read_text())["kind"] == "equivocation"
    shown = tmp_path / "other.checkpoint"
    shown.write_text(other)
    result = handlog("log", "verify", "--db", db_url, "--key", str(keys["room"]),
                     "--checkpoint", str(shown))
    assert result.exit_code == 1
    assert "BREAK equivocation: two signed logs that cannot both be true" in result.output


def test_a_rollback_to_an_older_copy_is_caught_against_the_witnesses(
        db_url: str, second_url: str, tmp_path: Path, witnesses: list[Running]) -> None:
    """A backup of the database is taken, the room records on, then runs on the backup:
    the witnesses hold a larger size, the room's client says so, and the cosigned checkpoint
    they hold shows the log truncated."""
    keys = write_keys(tmp_path)
    upgrade_database(db_url)
    with open_store(db_url) as store:
        signer, clients = room_with(store, witnesses, tmp_path / "cosigned")
        store.append("table-1", 0, new_events(3))
        signer.sign("on_demand")
        settle(clients)
    copy_database(db_url, second_url)  # the older copy
    with open_store(db_url) as store:
        signer, clients = room_with(store, witnesses, tmp_path / "cosigned")
        store.append("table-1", 3, new_events(3, start=4))
        signer.sign("on_demand")
        settle(clients)
    older = second_url  # the database put back to the older copy
    with open_store(older) as store:
        signer, clients = room_with(store, witnesses, tmp_path / "cosigned-after")
        store.append("table-1", 3, new_events(1, start=30))
        signer.sign("on_demand")
        settle(clients)
        assert all("was the log rolled back?" in c.status.error for c in clients)
    result = handlog("log", "verify", "--db", older, "--key", str(keys["room"]),
                     "--checkpoint", str(tmp_path / "cosigned" / "league.example_treasurer" /
                                         "6.checkpoint"))
    assert result.exit_code == 1
    assert "BREAK not an extension of checkpoint 1" in result.output or \
        "BREAK log truncated 1" in result.output, result.output


def test_a_witness_that_is_down_delays_nothing_and_is_retried(db_url: str,
                                                             tmp_path: Path) -> None:
    """Two witnesses down: one refuses connections, one accepts and never answers (the
    client's timeout is 10 s). A ruling (signed at once, posted to both) is answered as soon
    as it is recorded; each client keeps the checkpoint pending and says why."""
    from handlog.recorder.demo import run_demo
    from handlog.recorder.tournament_service import Tournaments
    from handlog.recorder.witness_client import TIMEOUT_SECONDS

    hanging = socket.socket()
    hanging.bind(("127.0.0.1", 0))
    hanging.listen(8)  # accepted by the kernel, never read: the post waits for its timeout
    upgrade_database(db_url)
    with open_store(db_url) as store:
        refused = WitnessClient("http://127.0.0.1:9", LEAGUE.verifier, store, tmp_path)
        silent = WitnessClient(f"http://127.0.0.1:{hanging.getsockname()[1]}",
                               PLAYERS.verifier, store, tmp_path)
        recorder = Recorder(store)
        summary = run_demo(recorder, players=6, tables=1, seed=3, hands=2)
        signer = sign_checkpoints(recorder, store, ROOM, 3600, after=lambda taken: [
            refused.submit(taken), silent.submit(taken)])
        started = time.monotonic()
        Tournaments(recorder).ruling(summary.tournament, "tda-1", "chips counted",
                                     Actor("director", "director"))
        elapsed = time.monotonic() - started
        signer.flush()  # signed at once on the signer's thread, and handed to the witnesses
        size = store.tree_head().size
        latest = latest_checkpoint(store)
        assert latest is not None and latest.checkpoint.size == size
        assert not silent.idle(0.5)
        assert (refused.status.pending_size, silent.status.pending_size) == (size, size)
        deadline = time.monotonic() + 3 * TIMEOUT_SECONDS
        while not (refused.status.error and silent.status.error) and \
                time.monotonic() < deadline:
            silent.idle(0.1)
        assert refused.status.error.startswith("unreachable")
        assert silent.status.error.startswith("unreachable") and "timed out" in \
            silent.status.error
        assert silent.status.pending_size == size  # kept, to be retried
        signer.close()
        refused.close()
        silent.close()
    hanging.close()
    assert elapsed < TIMEOUT_SECONDS / 2, f"the ruling waited {elapsed:.1f} s for a witness"


# --- the protocol ---------------------------------------------------------------------------


def test_the_witness_answers_as_c2sp_tlog_witness_says(sqlite_url: str, tmp_path: Path) -> None:
    upgrade_database(sqlite_url)
    witness = Witness(LEAGUE, {ROOM.name: ROOM.verifier}, tmp_path / "state.json")
    with open_store(sqlite_url) as store:
        store.append("table-1", 0, new_events(3))
        three = record_checkpoint(store, ROOM, "on_demand").checkpoint
        store.append("table-1", 3, new_events(4, start=4))
        seven = record_checkpoint(store, ROOM, "on_demand").checkpoint
        proof = consistency_path(store, 3, 7)
    stranger = SigningKey("other.example/room", bytes(32))
    from handlog.schema.checkpoint import sign_checkpoint

    assert witness.add_checkpoint(make_request(0, [], sign_checkpoint(
        stranger, 3, three.root))).status == 404
    forged = SigningKey(ROOM.name, bytes(32))
    assert witness.add_checkpoint(make_request(0, [], sign_checkpoint(
        forged, 3, three.root))).status == 403
    assert witness.add_checkpoint(b"old 01\n\n" + three.text.encode()).status == 400
    assert witness.add_checkpoint(make_request(9, [], three.text)).status == 400
    assert witness.add_checkpoint(make_request(0, [], three.text)).status == 200
    conflict = witness.add_checkpoint(make_request(0, [], seven.text))
    assert (conflict.status, conflict.body) == (409, "3\n")
    bad = witness.add_checkpoint(make_request(3, [b"\0" * 32] * len(proof), seven.text))
    assert bad.status == 422
    good = witness.add_checkpoint(make_request(3, proof, seven.text))
    assert good.status == 200 and good.body.startswith("\u2014 league.example/treasurer ")
    assert json.loads(witness.state_path.read_text())[ROOM.name]["size"] == 7


def test_the_offline_witness_cosigns_a_request_file(sqlite_url: str, tmp_path: Path) -> None:
    """`log witness-request` -> `witness cosign` -> `log verify --min-witnesses 1`."""
    keys = write_keys(tmp_path)
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        store.append("table-1", 0, new_events(3))
        record_checkpoint(store, ROOM, "on_demand")
    wkey = tmp_path / "w.key"
    made = handlog("witness", "init", "--name", "league.example/books", "--key", str(wkey))
    assert made.exit_code == 0, made.output
    wpub = tmp_path / "w.pub"
    wpub.write_text(made.output)
    request = tmp_path / "request"
    assert handlog("log", "witness-request", "--db", sqlite_url, "--out",
                   str(request)).exit_code == 0
    out = tmp_path / "cosigned.checkpoint"
    state = tmp_path / "w.state"
    result = handlog("witness", "cosign", "--key", str(wkey), "--state", str(state), "--log",
                     str(keys["room"]), str(request), "--out", str(out))
    assert result.exit_code == 0, result.output
    again = handlog("witness", "cosign", "--key", str(wkey), "--state", str(state), "--log",
                    str(keys["room"]), str(request), "--out", str(tmp_path / "x"))
    assert again.exit_code == 1 and again.output.startswith("REFUSED (409")
    verified = handlog("log", "verify", "--db", sqlite_url, "--key", str(keys["room"]),
                       "--checkpoint", str(out), "--witness-key", str(wpub),
                       "--min-witnesses", "1")
    assert verified.exit_code == 0, verified.output


# --- interoperability: a verifier from the C2SP texts alone ---------------------------------


def _c2sp_verify(note: str, vkey: str, expected_type: int) -> list[tuple[str, bytes]]:
    """signed-note: `<name>+<hex id>+<base64(type || key)>`; the text ends at the last blank
    line; each signature line `— <name> base64(id || sig)`. For type 0x01 the signature is
    over the text; for 0x04 (tlog-cosignature) sig is u64 timestamp || Ed25519 over
    "cosignature/v1\\ntime <t>\\n" || text."""
    name, key_id_hex, encoded = vkey.split("+", 2)
    raw = base64.b64decode(encoded)
    assert raw[0] == expected_type
    public = raw[1:]
    key_id = hashlib.sha256(name.encode() + b"\n" + raw[:1] + public).digest()[:4]
    assert key_id.hex() == key_id_hex
    text, signatures = note.rsplit("\n\n", 1)
    text += "\n"
    verified = []
    for line in signatures.splitlines():
        dash, signer, blob = line.split(" ")
        assert dash == "\u2014"
        sig = base64.b64decode(blob)
        if signer != name or sig[:4] != key_id:
            continue
        if expected_type == 1:
            Ed25519PublicKey.from_public_bytes(public).verify(sig[4:], text.encode())
            verified.append((signer, b""))
        else:
            (timestamp,) = struct.unpack(">Q", sig[4:12])
            message = f"cosignature/v1\ntime {timestamp}\n".encode() + text.encode()
            Ed25519PublicKey.from_public_bytes(public).verify(sig[12:], message)
            verified.append((signer, sig[4:12]))
    return verified


def test_a_checkpoint_and_cosignature_verify_with_a_verifier_from_the_c2sp_texts(
        sqlite_url: str, tmp_path: Path) -> None:
    upgrade_database(sqlite_url)
    witness = Witness(LEAGUE, {ROOM.name: ROOM.verifier}, tmp_path / "state.json",
                      clock=lambda: 1_700_000_000.0)
    with open_store(sqlite_url) as store:
        store.append("table-1", 0, new_events(5))
        record_checkpoint(store, ROOM, "on_demand")
        latest = latest_checkpoint(store)
    assert latest is not None
    answer = witness.add_checkpoint(make_request(0, [], latest.checkpoint.text))
    note = latest.checkpoint.text + answer.body
    lines = note.split("\n")
    # tlog-checkpoint: origin, decimal size, base64 root; extension lines; blank line.
    assert lines[0] == ROOM.name and lines[1] == "5"
    assert len(base64.b64decode(lines[2])) == 32
    assert lines[3].startswith("handlog-time ") and lines[4] == ""
    assert _c2sp_verify(note, ROOM.verifier.text(), 1) == [(ROOM.name, b"")]
    ((signer, stamp),) = _c2sp_verify(note, LEAGUE.verifier.text(), 4)
    assert signer == LEAGUE.name and struct.unpack(">Q", stamp) == (1_700_000_000,)


def test_a_witness_s_evidence_file_names_the_equivocation(sqlite_url: str, tmp_path: Path,
                                                          witnesses: list[Running]) -> None:
    """The pair a witness kept when it refused a split view is given to `log verify` as it
    is: both checkpoints are checked, and the room's two roots named as equivocation."""
    from handlog.schema.checkpoint import sign_checkpoint

    keys = write_keys(tmp_path)
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        store.append("table-1", 0, new_events(3))
        first = record_checkpoint(store, ROOM, "on_demand").checkpoint
    witness = witnesses[1].witness
    assert witness.add_checkpoint(make_request(0, [], first.text)).status == 200
    other = sign_checkpoint(ROOM, 3, hashlib.sha256(b"the players' copy").digest())
    assert witness.add_checkpoint(make_request(3, [], other)).status == 409
    (evidence,) = witness.evidence.glob("*.json")
    result = handlog("log", "verify", "--db", sqlite_url, "--key", str(keys["room"]),
                     "--checkpoint", str(evidence))
    assert result.exit_code == 1, result.output
    (line,) = [x for x in result.output.splitlines() if x.startswith("BREAK equivocation")]
    assert "cosigned by the witness" in line and "refused by the witness" in line


def test_the_floor_api_shows_each_witness_and_the_director_s_checkpoint_reaches_them(
        tmp_path: Path, witnesses: list[Running]) -> None:
    """`GET /api/log/witnesses`: the size each cosigned, what is pending and why a witness
    that is down failed; the director's *Sign a checkpoint now* is posted to the witnesses."""
    from web_support import CSRF_HEADER, Client, make_app, make_recorder, open_table

    recorder = make_recorder(tmp_path)
    open_table(recorder, "table-1")
    store = recorder.store
    up = WitnessClient(witnesses[0].url, LEAGUE.verifier, store, tmp_path / "cosigned")
    down = WitnessClient("http://127.0.0.1:9", PLAYERS.verifier, store, tmp_path / "cosigned")
    signer = sign_checkpoints(recorder, store, ROOM, 3600, after=lambda taken: [
        up.submit(taken), down.submit(taken)])
    app, auth = make_app(recorder, signing_key=ROOM, witnesses=[up, down])
    client = Client(app, auth)
    client.__enter__()
    try:
        assert client.login("director").status_code == 200
        taken = client.http.post("/api/log/checkpoint", headers={CSRF_HEADER: client.csrf})
        assert taken.status_code == 200, taken.text
        size = taken.json()["checkpoint"]["size"]
        assert up.idle(30)
        deadline = time.monotonic() + 20
        while not down.status.error and time.monotonic() < deadline:
            down.idle(0.1)
        shown = client.http.get("/api/log/witnesses").json()["witnesses"]
        assert shown[0] == {"witness": LEAGUE.name, "cosigned_size": size,
                            "pending_size": None, "error": ""}
        assert shown[1]["witness"] == PLAYERS.name and shown[1]["pending_size"] == size
        assert shown[1]["error"].startswith("unreachable")
    finally:
        signer.close()
        down.close()
        up.close()
        client.__exit__(None, None, None)
        store.close()


def test_handlog_witness_serve_as_a_process_answers_add_checkpoint(sqlite_url: str,
                                                                   tmp_path: Path) -> None:
    """`handlog witness init` then `handlog witness serve --port 0` in its own process: a
    room's checkpoint posted to the URL it prints is cosigned, and the state file written."""
    import os
    import subprocess
    import sys
    import urllib.request

    keys = write_keys(tmp_path)
    wkey = tmp_path / "w.key"
    assert handlog("witness", "init", "--name", "league.example/w", "--key",
                   str(wkey)).exit_code == 0
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        store.append("table-1", 0, new_events(2))
        taken = record_checkpoint(store, ROOM, "on_demand")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    process = subprocess.Popen(
        [sys.executable, "-m", "handlog.recorder.cli", "witness", "serve", "--key", str(wkey),
         "--state", str(tmp_path / "state.json"), "--log", str(keys["room"]), "--port", "0"],
        stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("witness listening on http://127.0.0.1:"), line
        url = line.split()[-1]
        request = urllib.request.Request(url, data=make_request(0, [], taken.checkpoint.text),
                                         method="POST")
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200
            assert answer.read().decode().startswith("\u2014 league.example/w ")
        assert json.loads((tmp_path / "state.json").read_text())[ROOM.name]["size"] == 2
    finally:
        process.terminate()
        process.wait(timeout=30)
