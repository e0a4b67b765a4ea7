"""`handlog log verify` as an auditor meets it: a damaged file of any kind is named by its line
and left as it was, the status says what was (and what was not) authenticated, and two
checkpoints of one size with different roots are named as equivocation, with both."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest_store import new_events

from handlog.schema.checkpoint import SigningKey, record_checkpoint, sign_checkpoint
from handlog.schema.store import open_store, upgrade_database

HEADER = '{"format":"handlog-log","format_version":2,"record":"header"}\n'
ROOM = SigningKey("casino.example/poker-room", bytes(range(32)))


def handlog(*arguments: str) -> Result:
    from handlog.recorder.cli import cli

    return CliRunner().invoke(cli, list(arguments), catch_exceptions=False)


def room_log(url: str, tmp_path: Path, signed: bool = True) -> Path:
    """Two streams, six events, the last checkpoint (if `signed`) covering all of them;
    returns the room's public key file."""
    upgrade_database(url)
    with open_store(url) as store:
        store.append("table-1", 0, new_events(3))
        store.append("tournament", 0, new_events(1), kind="tournament")
        record_checkpoint(store, ROOM, "on_demand")
        store.append("table-1", 3, new_events(2, start=4))
        if signed:
            record_checkpoint(store, ROOM, "on_demand")
    key = tmp_path / "room.pub"
    key.write_text(ROOM.verifier.text() + "\n", encoding="utf-8")
    return key


# --- damaged files -------------------------------------------------------------------------


DAMAGED = {
    "garbage": (bytes(range(128, 256)) * 20, "damaged file at line 1: not UTF-8 text"),
    "non_utf8": (HEADER.encode() + b'{"record":"stream"\xff}\n',
                 "damaged file at line 2: not UTF-8 text (byte 0xff at column 19)"),
    "deeply_nested": (HEADER.encode() + b"[" * 200_000 + b"]" * 200_000 + b"\n",
                      "damaged file at line 2: nested too deeply to be a log record"),
    "nested_payload": (HEADER.encode() + (
        '{"record":"event","position":1,"stream_id":"t","version":1,"event_id":'
        '"00000000-0000-4000-8000-000000000001","type":"x","schema_version":1,"payload":"'
        + "[" * 200_000 + '","recorded_at":"2026-01-01T00:00:00.000000Z","actor":"a",'
        '"device":"d","prev_hash":"0","hash":"0"}\n').encode(),
        "BREAK payload changed at stream 't', version 1"),
    "lone_surrogate": (HEADER.encode() + b'{"record":"stream","stream_id":"\\ud800",'
                       b'"kind":"table","head_version":1,"head_hash":"0"}\n',
                       "damaged file at line 2: stream_id holds '\\ud800', a lone surrogate"),
    "truncated": (HEADER.encode() + b'{"record":"event","position":1,"stream_id":"ta',
                  "damaged file at line 2: not JSON (Unterminated string"),
    "empty": (b"", "the file is empty: this is not a handlog log export"),
    "not_json": (HEADER.encode() + b"{not json}\n", "damaged file at line 2: not JSON"),
}


@pytest.mark.parametrize("name", sorted(DAMAGED))
def test_a_damaged_file_is_named_by_its_line_exit_1_and_left_unchanged(
        name: str, tmp_path: Path) -> None:
    """Garbage, truncation, deep nesting, bad UTF-8: a named error with the line, exit 1, the
    file byte for byte as it was, and no traceback (RecursionError, UnicodeDecodeError)."""
    content, expected = DAMAGED[name]
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(content)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    result = handlog("log", "verify", str(path))
    assert result.exit_code == 1, result.output
    assert expected in result.output
    assert "Traceback" not in result.output
    assert result.output.splitlines()[-1].startswith("FAILED: ")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_a_truncated_export_of_a_real_log_names_the_cut_line(sqlite_url: str,
                                                             tmp_path: Path) -> None:
    """An export cut off in the middle of an event: that line is named as damaged, and the
    checkpoint it carries says how many events were signed and how many are left."""
    key = room_log(sqlite_url, tmp_path)
    out = tmp_path / "log.jsonl"
    assert handlog("log", "export", "--out", str(out), "--db", sqlite_url).exit_code == 0
    lines = out.read_bytes().split(b"\n")
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(lines[:4]) + b"\n" + lines[4][:40] + b"\n" + b"\n".join(
        line for line in lines if b'"record":"checkpoint"' in line) + b"\n")
    result = handlog("log", "verify", str(cut), "--key", str(key))
    assert result.exit_code == 1, result.output
    assert "damaged file at line 5: not JSON" in result.output
    assert "BREAK log truncated 2: checkpoint 2 signed 6 events; the log has 3" in result.output


# --- the status ----------------------------------------------------------------------------


def test_the_exit_status_says_what_was_authenticated(db_url: str, tmp_path: Path) -> None:
    """0 only when every event is covered by a checkpoint verified with --key; 3 with no key
    (nothing authenticated, said plainly); 4 with an unsigned tail, its length stated."""
    key = room_log(db_url, tmp_path, signed=False)
    plain = handlog("log", "verify", "--db", db_url)
    assert plain.exit_code == 3
    assert plain.output.splitlines()[-1].startswith(
        "NOT AUTHENTICATED: no --key was given, so no signature was checked")
    tail = handlog("log", "verify", "--db", db_url, "--key", str(key))
    assert tail.exit_code == 4, tail.output
    assert tail.output.splitlines()[-1] == (
        "UNSIGNED TAIL: 2 events after the last checkpoint (size 4) are not covered by a "
        "signature")
    with open_store(db_url) as store:
        record_checkpoint(store, ROOM, "on_demand")
    clean = handlog("log", "verify", "--db", db_url, "--key", str(key))
    assert clean.exit_code == 0, clean.output
    assert clean.output.splitlines()[-1] == (
        f"CLEAN: all 6 events are covered by a checkpoint signed by {ROOM.verifier.text()}")


def test_a_key_the_room_did_not_sign_with_authenticates_nothing(sqlite_url: str,
                                                                tmp_path: Path) -> None:
    """A log re-signed with a key the attacker made passes only without --key, and then
    exits 3, not 0; with the room's key it is a signature break."""
    room_log(sqlite_url, tmp_path)
    other = SigningKey("casino.example/poker-room", bytes(32))
    mine = tmp_path / "other.pub"
    mine.write_text(other.verifier.text(), encoding="utf-8")
    result = handlog("log", "verify", "--db", sqlite_url, "--key", str(mine))
    assert result.exit_code == 1
    assert "BREAK checkpoint signature invalid 1" in result.output


# --- equivocation --------------------------------------------------------------------------


def test_two_checkpoints_of_one_size_with_different_roots_are_equivocation(
        db_url: str, tmp_path: Path) -> None:
    """A split view: the room signed size 6 twice with two roots. It is named as equivocation
    with both checkpoints, never as 'not an extension ... events 7 to 6'."""
    key = room_log(db_url, tmp_path)
    shown = tmp_path / "shown-to-the-league.checkpoint"
    shown.write_text(sign_checkpoint(ROOM, 6, hashlib.sha256(b"another log").digest()),
                     encoding="utf-8")
    result = handlog("log", "verify", "--db", db_url, "--key", str(key),
                     "--checkpoint", str(shown))
    assert result.exit_code == 1, result.output
    (line,) = [x for x in result.output.splitlines() if x.startswith("BREAK equivocation")]
    assert f"checkpoint 1 ({shown})" in line
    assert "checkpoint 3 (stored #2)" in line
    assert "both signed for casino.example/poker-room at size 6 with different roots" in line
    assert hashlib.sha256(b"another log").hexdigest() in line
    assert "not an extension" not in result.output
