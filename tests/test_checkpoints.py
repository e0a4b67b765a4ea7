"""Signed checkpoints as the room meets them: the key `handlog serve` makes, `handlog log key`
and `log checkpoint`, the checkpoints taken by themselves at each level, break, table close and
finish, the floor's button and `GET /api/log/key`, and proofs that do not hold."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from conftest_store import covered, new_events
from web_support import CSRF_HEADER, Client, make_app, make_recorder, open_table

from handlog.recorder.demo import run_demo
from handlog.recorder.service import Recorder
from handlog.recorder.signing import sign_checkpoints, signing_key, signing_key_path
from handlog.schema.checkpoint import (
    CheckpointError,
    load_or_create_signing_key,
    parse_checkpoint,
    stored_checkpoints,
)
from handlog.schema.store import open_store, upgrade_database


def handlog(*arguments: str, env: dict[str, str] | None = None) -> Result:
    from handlog.recorder.cli import cli

    return CliRunner().invoke(cli, list(arguments), env=env, catch_exceptions=False)


def test_the_signing_key_is_made_once_private_and_named_after_the_origin(tmp_path: Path) -> None:
    path = signing_key_path(None, tmp_path / "handlog.secret")
    assert path == tmp_path / "handlog.signing-key"
    key = signing_key(path, "casino.example/room-1")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert key.name == "casino.example/room-1"
    again = signing_key(path, "another-name")
    assert again == key  # made once: the origin stays the key's name


def test_log_key_and_log_checkpoint_print_c2sp_text(sqlite_url: str, tmp_path: Path) -> None:
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        store.append("table-1", 0, new_events(3))
    env = {"HANDLOG_SIGNING_KEY": str(tmp_path / "k"), "HANDLOG_ORIGIN": "room.example/main"}
    vkey = handlog("log", "key", env=env).stdout.strip()
    name, key_id, public = vkey.split("+", 2)
    assert (name, len(key_id), len(public)) == ("room.example/main", 8, 44)
    result = handlog("log", "checkpoint", "--db", sqlite_url, env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.split("\n")
    assert lines[:2] == ["room.example/main", "3"]
    assert len(lines[2]) == 44
    assert re.fullmatch(r"handlog-time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", lines[3])
    assert lines[4] == ""
    assert lines[5].startswith("\u2014 room.example/main ")
    assert result.output.endswith("\n")
    stored = stored_checkpoints(open_store(sqlite_url))
    assert [(c.number, c.reason, c.checkpoint.text) for c in stored] == [
        (1, "on_demand", result.output)]


def test_a_checkpoint_not_signed_by_the_key_breaks_verify(sqlite_url: str,
                                                          tmp_path: Path) -> None:
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        store.append("table-1", 0, new_events(2))
    ours = tmp_path / "ours.cp"
    handlog("log", "checkpoint", "--db", sqlite_url, "--signing-key", str(tmp_path / "a"),
            "--out", str(ours))
    other = tmp_path / "other.pub"
    other.write_text(handlog("log", "key", "--signing-key", str(tmp_path / "b"),
                             env={"HANDLOG_ORIGIN": "elsewhere"}).stdout)
    result = handlog("log", "verify", "--db", sqlite_url, "--checkpoint", str(ours),
                     "--key", str(other))
    assert result.exit_code == 1
    assert "BREAK checkpoint signature invalid 1: the checkpoint is not signed by the key" in (
        result.output)
    forged = tmp_path / "forged.cp"
    forged.write_text(ours.read_text().replace("\n2\n", "\n3\n"))
    mine = tmp_path / "ours.pub"
    mine.write_text(handlog("log", "key", "--signing-key", str(tmp_path / "a")).stdout)
    result = handlog("log", "verify", "--db", sqlite_url, "--checkpoint", str(forged),
                     "--key", str(mine))
    assert result.exit_code == 1
    assert "the signature does not verify" in result.output


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pub"
    bad.write_text("not a key\n")
    result = handlog("log", "verify", "--db", str(tmp_path / "x.db"), "--key", str(bad))
    assert result.exit_code == 2
    assert "a public key is one line" in result.output
    assert handlog("log", "prove", "--db", str(tmp_path / "x.db")).exit_code == 2


def test_a_tampered_inclusion_proof_does_not_hold(sqlite_url: str, tmp_path: Path) -> None:
    upgrade_database(sqlite_url)
    with open_store(sqlite_url) as store:
        stored = store.append("table-1", 0, new_events(4))
    key = str(tmp_path / "k")
    public = tmp_path / "k.pub"
    public.write_text(handlog("log", "key", "--signing-key", key).stdout)
    proof = tmp_path / "p.json"
    assert handlog("log", "prove", "--db", sqlite_url, "--signing-key", key, "--event",
                   str(stored[2].event_id), "--out", str(proof)).exit_code == 0
    assert handlog("log", "verify-proof", str(proof), "--key", str(public)).exit_code == 0
    data = json.loads(proof.read_text())
    data["event"]["payload"] = '{"n":99}'
    proof.write_text(json.dumps(data))
    result = handlog("log", "verify-proof", str(proof), "--key", str(public))
    assert result.exit_code == 1
    assert "the event in the proof was altered" in result.output
    data = json.loads(proof.read_text())
    data["event"]["payload"] = '{"n":3}'
    data["leaf_index"] = 1
    proof.write_text(json.dumps(data))
    result = handlog("log", "verify-proof", str(proof), "--key", str(public))
    assert (result.exit_code, "the inclusion proof does not hold" in result.output) == (1, True)


def test_parse_checkpoint_names_what_is_wrong() -> None:
    for text, message in [
        ("hello\n", "not a signed checkpoint"),
        ("o\n01\nAAAA\n\n\u2014 o AAAAAAA=\n", "is not a decimal number"),
        ("o\n1\nAAAA\n\n\u2014 o AAAAAAA=\n", "not a SHA-256 hash"),
    ]:
        try:
            parse_checkpoint(text)
        except CheckpointError as exc:
            assert message in str(exc)
        else:
            raise AssertionError(f"{text!r} was accepted")


def test_checkpoints_are_signed_at_each_level_break_table_close_and_the_finish(
    tmp_path: Path,
) -> None:
    """A demo tournament played to a winner on a server that signs checkpoints (each at
    once: no interval between two, which would let one checkpoint cover several moments)."""
    recorder = make_recorder(tmp_path)
    key, _ = load_or_create_signing_key(tmp_path / "k", "room")
    signer = sign_checkpoints(recorder, recorder.store, key, interval=0)
    run_demo(recorder, players=12, tables=2, seed=5)
    covered(recorder.store)  # (the finish's is signed on the signer's thread, just after)
    signer.close()
    reasons = {c.reason for c in stored_checkpoints(recorder.store)}
    # The prizes are recorded with the finish (one transaction): its checkpoint holds them.
    assert {"level_started", "break_started", "table_closed", "tournament_finished"} <= reasons
    last = stored_checkpoints(recorder.store)[-1].checkpoint
    assert parse_checkpoint(last.text, key.verifier).size == recorder.store.tree_head().size
    recorder.store.close()


def _director(recorder: Recorder, **options: Any) -> Client:
    app, auth = make_app(recorder, **options)
    client = Client(app, auth)
    client.__enter__()
    assert client.login("director").status_code == 200
    return client


def test_the_floor_api_serves_the_key_and_signs_a_checkpoint_for_the_director(
    tmp_path: Path,
) -> None:
    recorder = make_recorder(tmp_path)
    open_table(recorder, "table-1")
    size = recorder.store.tree_head().size
    key, _ = load_or_create_signing_key(tmp_path / "k", "room.example")
    client = _director(recorder, signing_key=key)
    try:
        assert client.http.get("/api/log/key").json() == {
            "key": key.verifier.text(), "origin": "room.example"}
        assert client.http.get("/api/floor").json()["checkpoint"] is None
        response = client.http.post("/api/log/checkpoint", headers={CSRF_HEADER: client.csrf})
        assert response.status_code == 200, response.text
        taken = response.json()["checkpoint"]
        assert (taken["size"], taken["reason"]) == (size, "on_demand")
        assert parse_checkpoint(taken["text"], key.verifier).size == size
        assert client.http.get("/api/floor").json()["checkpoint"] == taken
        viewer = Client(client.http.app, client.auth)  # type: ignore[arg-type]
        with viewer:
            assert viewer.login("viewer").status_code == 200
            refused = viewer.http.post("/api/log/checkpoint",
                                       headers={CSRF_HEADER: viewer.csrf})
            assert refused.status_code == 403
    finally:
        client.__exit__(None, None, None)
        recorder.store.close()


def test_the_audit_report_prints_the_latest_checkpoint_in_full_with_a_qr_code(
    tmp_path: Path,
) -> None:
    recorder = make_recorder(tmp_path)
    open_table(recorder, "table-1")
    url = recorder.store.url
    recorder.store.close()
    key = tmp_path / "k"
    cp = handlog("log", "checkpoint", "--db", url, "--signing-key", str(key)).stdout
    out = tmp_path / "audit.html"
    result = handlog("report", "--db", url, "--out", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    escaped = cp.replace("+", "+").replace("&", "&amp;").replace("<", "&lt;")
    assert f'<pre class="checkpoint">{escaped}</pre>' in page
    assert '<div class="qr"><svg' in page
    data = handlog("report", "--db", url, "--format", "json", "--out",
                   str(tmp_path / "a.json"))
    assert data.exit_code == 0
    assert json.loads((tmp_path / "a.json").read_text())["checkpoint"]["text"] == cp
