"""`handlog db` and `handlog log`, used the way a user does: through the CLI root (click's runner)
and as a separate process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest_store import driver_connect, new_events

from handlog import migrations
from handlog.schema.store import StoredEvent, open_store, upgrade_database

HEAD = migrations.HEAD_REVISION
NOT_AUTHENTICATED = (
    "NOT AUTHENTICATED: no --key was given, so no signature was checked; anyone can rewrite a "
    "log and sign it again with a key of their own. This says only that the log agrees with "
    "itself."
)
EMPTY_ROOT = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def handlog(*arguments: str, env: dict[str, str] | None = None) -> Result:
    from handlog.recorder.cli import cli

    return CliRunner().invoke(cli, list(arguments), env=env, catch_exceptions=False)


def fill(url: str) -> list[StoredEvent]:
    """Two streams, six events, on a migrated database."""
    upgrade_database(url)
    with open_store(url) as store:
        stored = store.append("table-1", 0, new_events(3))
        stored += store.append("tournament", 0, new_events(1), kind="tournament")
        stored += store.append("table-1", 3, new_events(2, start=4))
    return stored


def assert_no_traceback(result: Result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- handlog db -------------------------------------------------------------------------------


def test_db_upgrade_creates_the_sqlite_file_and_is_idempotent(tmp_path: Path) -> None:
    """`db upgrade` creates a missing SQLite file, and running it again changes nothing."""
    path = tmp_path / "room.db"
    for _ in range(2):
        result = handlog("db", "upgrade", "--db", f"sqlite:///{path}")
        assert result.exit_code == 0, result.output
        assert result.output == f"database at sqlite:///{path} is at revision {HEAD} (head)\n"
    assert path.exists()
    assert handlog("db", "current", "--db", f"sqlite:///{path}").output == f"{HEAD} (head)\n"


def test_db_upgrade_and_current_on_each_backend(db_url: str) -> None:
    assert handlog("db", "upgrade", "--db", db_url).exit_code == 0
    result = handlog("db", "current", "--db", db_url)
    assert (result.exit_code, result.output) == (0, f"{HEAD} (head)\n")


def test_db_current_on_an_empty_database_says_to_upgrade(db_url: str) -> None:
    result = handlog("db", "current", "--db", db_url)
    assert result.exit_code == 1
    assert "has no handlog schema: run `handlog db upgrade --db " in result.output
    assert_no_traceback(result)


def test_a_bare_path_and_the_environment_variable_name_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--db file.db` is a SQLite file; without --db, $HANDLOG_DATABASE_URL, else ./handlog.db."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HANDLOG_DATABASE_URL", raising=False)
    assert handlog("db", "upgrade", "--db", "bare.db").exit_code == 0
    assert (tmp_path / "bare.db").exists()
    env_db = tmp_path / "from-env.db"
    assert handlog("db", "upgrade", env={"HANDLOG_DATABASE_URL": f"sqlite:///{env_db}"}
                   ).exit_code == 0
    assert env_db.exists() and not (tmp_path / "handlog.db").exists()
    assert handlog("db", "upgrade").exit_code == 0
    assert (tmp_path / "handlog.db").exists()


def test_unreachable_postgresql_is_one_line_not_a_traceback() -> None:
    result = handlog("log", "verify", "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert result.exit_code == 1
    assert "cannot open database at postgresql+psycopg://nobody@127.0.0.1:1/none" in result.output
    assert_no_traceback(result)


# --- handlog log verify (database) -------------------------------------------------------------


def test_verify_an_empty_log(db_url: str) -> None:
    upgrade_database(db_url)
    result = handlog("log", "verify", "--db", db_url)
    assert (result.exit_code, result.output) == (
        3, f"tree size 0 root {EMPTY_ROOT}\nok: 0 events in 0 streams verified\n"
        f"{NOT_AUTHENTICATED}\n"
    )


def test_verify_a_good_log(db_url: str) -> None:
    fill(db_url)
    result = handlog("log", "verify", "--db", db_url)
    assert result.exit_code == 3, "no --key: nothing authenticated, its own status"
    assert result.output.splitlines()[-2:] == ["ok: 6 events in 2 streams verified",
                                               NOT_AUTHENTICATED]
    assert re.fullmatch(r"tree size 6 root [0-9a-f]{64}", result.output.splitlines()[0])


def test_verify_without_schema_says_to_upgrade(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'never.db'}"
    result = handlog("log", "verify", "--db", url)
    assert result.exit_code == 1
    assert f"database at {url} has no handlog schema: run `handlog db upgrade --db {url}`" in (
        result.output
    )
    assert_no_traceback(result)
    assert not (tmp_path / "never.db").exists()


def _tamper_in_database(url: str, statement: str) -> None:
    """Run an UPDATE the append-only triggers would refuse, with them switched off (on
    PostgreSQL in the test's own schema, which its URL's search_path selects)."""
    connection = driver_connect(url)
    try:
        if url.startswith("sqlite"):
            connection.execute("DROP TRIGGER events_no_update")
            connection.execute(statement)
        else:
            connection.execute("ALTER TABLE events DISABLE TRIGGER ALL")
            connection.execute(statement)
            connection.execute("ALTER TABLE events ENABLE TRIGGER ALL")
    finally:
        connection.close()


def test_changed_payload_byte_in_the_database_is_named(db_url: str) -> None:
    """One digit changed in a stored payload: verify names the event and exits 1."""
    stored = fill(db_url)
    target = stored[1]
    assert target.payload_json == '{"n":2}'
    _tamper_in_database(
        db_url,
        "UPDATE events SET payload = '{\"n\":7}' WHERE stream_id = 'table-1' AND version = 2",
    )
    result = handlog("log", "verify", "--db", db_url)
    assert result.exit_code == 1
    breaks = [line for line in result.output.splitlines() if line.startswith("BREAK")]
    assert breaks == [
        f"BREAK payload changed at stream 'table-1', version 2, event {target.event_id}: its "
        "hash does not match its content (its type, payload, time, actor or device was changed "
        "after it was recorded)"
    ]
    assert result.output.splitlines()[-1] == "FAILED: 1 break(s) found in 6 events in 2 streams"
    assert_no_traceback(result)


NEW_ID = uuid.UUID("0badc0de-0000-4000-8000-000000000002")


def _sql_literal(url: str, column: str) -> str:
    """The value a forger writes into `column` of one event, in the backend's own storage form
    (SQLite keeps a UUID as 32 hex digits and a time as naive UTC text)."""
    sqlite = url.startswith("sqlite")
    return {
        "actor": "'floor-9'",
        "device": "'laptop-1'",
        "recorded_at": (
            "'2025-03-14 19:31:00.123456'" if sqlite else "'2025-03-14 19:31:00.123456+00'"
        ),
        "event_id": f"'{NEW_ID.hex}'" if sqlite else f"'{NEW_ID}'",
    }[column]


@pytest.mark.parametrize("column", ["actor", "device", "recorded_at", "event_id"])
def test_changed_actor_device_time_or_event_id_in_the_database_is_named(
    db_url: str, column: str
) -> None:
    """Who recorded an event, on which device, when, or under which id: changed in the database,
    `log verify` names that stream, version and event (by the id now stored) and exits 1."""
    stored = fill(db_url)
    target = stored[1]
    assert (target.stream_id, target.version) == ("table-1", 2)
    _tamper_in_database(
        db_url,
        f"UPDATE events SET {column} = {_sql_literal(db_url, column)} "
        "WHERE stream_id = 'table-1' AND version = 2",
    )
    with open_store(db_url) as store:
        (changed,) = store.read("table-1", from_version=2)[:1]
    assert getattr(changed, column) != getattr(target, column)  # the forgery landed
    named = NEW_ID if column == "event_id" else target.event_id
    result = handlog("log", "verify", "--db", db_url)
    assert result.exit_code == 1, result.output
    breaks = [line for line in result.output.splitlines() if line.startswith("BREAK")]
    assert breaks[0] == (
        f"BREAK payload changed at stream 'table-1', version 2, event {named}: its hash does not "
        "match its content (its type, payload, time, actor or device was changed after it was "
        "recorded)"
    )
    if column == "event_id":
        # The event recorded under the old id is gone; another stands in its place.
        assert breaks[1:] == [
            f"BREAK event missing at stream 'table-1', version 2, event {target.event_id}: it "
            "was recorded, and another event now stands in its place",
            f"BREAK event inserted at stream 'table-1', version 2, event {NEW_ID}: it stands "
            f"where event {target.event_id} was recorded",
        ]
    else:
        assert len(breaks) == 1
    assert_no_traceback(result)


def test_changed_head_in_the_database_is_named(db_url: str) -> None:
    fill(db_url)
    connection = driver_connect(db_url)
    try:
        connection.execute("UPDATE streams SET head_version = 4 WHERE id = 'table-1'")
    finally:
        connection.close()
    result = handlog("log", "verify", "--db", db_url)
    assert result.exit_code == 1
    assert ("BREAK event inserted at stream 'table-1', version 5: the log goes on to version 5 "
            "past the stream head (version 4)") in result.output


# --- handlog log export and offline verify -----------------------------------------------------


def test_export_writes_every_column_and_verifies_offline(db_url: str, tmp_path: Path) -> None:
    """The export has every stored column and hash; it verifies with no database at all."""
    stored = fill(db_url)
    out = tmp_path / "log.jsonl"
    result = handlog("log", "export", "--out", str(out), "--db", db_url)
    assert (result.exit_code, result.output) == (0, f"exported 6 events in 2 streams to {out}\n")
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert lines[0] == {"record": "header", "format": "handlog-log", "format_version": 2}
    events = [line for line in lines if line["record"] == "event"]
    assert [line["event_id"] for line in events] == [str(event.event_id) for event in stored]
    assert set(events[0]) == {
        "record", "position", "stream_id", "version", "event_id", "type", "schema_version",
        "payload", "recorded_at", "actor", "device", "prev_hash", "hash",
    }
    assert events[0]["payload"] == '{"n":1}'
    assert events[0]["recorded_at"] == "2025-03-14T19:30:00.123456Z"
    assert [line for line in lines if line["record"] == "stream"][0]["head_version"] == 5

    result = handlog("log", "verify", str(out))
    assert result.exit_code == 3, result.output
    assert result.output.splitlines()[-2] == "ok: 6 events in 2 streams verified"


Tamper = Callable[[list[str]], tuple[list[str], str]]


def _event_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if '"record":"event"' in line]


def change_payload_byte(lines: list[str]) -> tuple[list[str], str]:
    index = _event_lines(lines)[2]
    lines[index] = lines[index].replace('{\\"n\\":3}', '{\\"n\\":8}')
    return lines, "payload changed at stream 'table-1', version 3, event {id}: its hash does not"


def drop_event(lines: list[str]) -> tuple[list[str], str]:
    index = _event_lines(lines)[1]
    del lines[index]
    return lines, "event missing at stream 'table-1', version 2: version 2 missing"


def reorder_events(lines: list[str]) -> tuple[list[str], str]:
    first, second = _event_lines(lines)[0:2]
    lines[first], lines[second] = lines[second], lines[first]
    return lines, ("events swapped at stream 'table-1', version 1, event {id}: versions 1 and 2 "
                   "are in each other's place")


def insert_copied_event(lines: list[str]) -> tuple[list[str], str]:
    index = _event_lines(lines)[1]
    lines.insert(index + 1, lines[index])
    return lines, "event inserted at stream 'table-1', version 2, event {id}: a copy of event id"


def drop_last_event(lines: list[str]) -> tuple[list[str], str]:
    del lines[_event_lines(lines)[-1]]
    return lines, ("event missing at stream 'table-1', version 5: version 5 missing at the end of "
                   "the stream (its head says version 5)")


HASH_MISMATCH = "its hash does not match its content"


CHANGED_2 = "payload changed at stream 'table-1', version 2"


def _edit_field(lines: list[str], field: str, value: str) -> list[str]:
    """Version 2 of table-1 with `field` rewritten, the line kept canonical JSON."""
    index = _event_lines(lines)[1]
    old = f'"{field}":"{json.loads(lines[index])[field]}"'
    assert lines[index].count(old) == 1
    lines[index] = lines[index].replace(old, f'"{field}":"{value}"')
    return lines


def change_actor(lines: list[str]) -> tuple[list[str], str]:
    return _edit_field(lines, "actor", "floor-9"), f"{CHANGED_2}, event {{id}}: {HASH_MISMATCH}"


def change_device(lines: list[str]) -> tuple[list[str], str]:
    return (_edit_field(lines, "device", "laptop-1"),
            f"{CHANGED_2}, event {{id}}: {HASH_MISMATCH}")


def change_recorded_at(lines: list[str]) -> tuple[list[str], str]:
    lines = _edit_field(lines, "recorded_at", "2025-03-14T19:31:00.123456Z")
    return lines, f"{CHANGED_2}, event {{id}}: {HASH_MISMATCH}"


def change_event_id(lines: list[str]) -> tuple[list[str], str]:
    """The event is named by the id the file now holds."""
    return (_edit_field(lines, "event_id", str(NEW_ID)),
            f"{CHANGED_2}, event {NEW_ID}: {HASH_MISMATCH}")


@pytest.mark.parametrize(
    ("tamper", "named_event"),
    [
        (change_payload_byte, 2),
        (drop_event, None),
        (reorder_events, 0),
        (insert_copied_event, 1),
        (drop_last_event, None),
        (change_actor, 1),
        (change_device, 1),
        (change_recorded_at, 1),
        (change_event_id, None),
    ],
    ids=lambda value: getattr(value, "__name__", str(value)),
)
def test_tampered_export_is_named(
    sqlite_url: str, tmp_path: Path, tamper: Tamper, named_event: int | None
) -> None:
    """Each kind of tampering with an export is found, the broken event named, exit 1."""
    stored = [event for event in fill(sqlite_url) if event.stream_id == "table-1"]
    out = tmp_path / "log.jsonl"
    assert handlog("log", "export", "--out", str(out), "--db", sqlite_url).exit_code == 0
    lines, expected = tamper(out.read_text(encoding="utf-8").splitlines())
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if named_event is not None:
        expected = expected.format(id=stored[named_event].event_id)
    result = handlog("log", "verify", str(out))
    assert result.exit_code == 1, result.output
    assert f"BREAK {expected}" in result.output
    assert result.output.splitlines()[-1].startswith("FAILED: 1 break(s)")


def test_a_file_that_is_not_an_export_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"hello": "world"}\n', encoding="utf-8")
    result = handlog("log", "verify", str(path))
    assert result.exit_code == 1
    assert "line 1: this is not a handlog log export" in result.output


def test_verify_takes_a_database_or_a_file_not_both(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text("", encoding="utf-8")
    result = handlog("log", "verify", "--db", "x.db", str(path))
    assert result.exit_code == 2
    assert "either --db URL or an export FILE" in result.output


# --- as a separate process --------------------------------------------------------------------


def run_handlog(
    *arguments: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "handlog.recorder.cli", *arguments],
        capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})},
    )


def test_handlog_as_a_process(db_url: str, tmp_path: Path) -> None:
    """upgrade, export and verify through a real process; a tampered file exits 1 cleanly."""
    upgraded = run_handlog("db", "upgrade", env={"HANDLOG_DATABASE_URL": db_url})
    assert upgraded.returncode == 0, upgraded.stderr
    fill(db_url)
    out = tmp_path / "log.jsonl"
    exported = run_handlog("log", "export", "--out", str(out), "--db", db_url)
    assert exported.returncode == 0, exported.stderr
    verified = run_handlog("log", "verify", str(out))
    assert verified.returncode == 3
    assert verified.stdout.splitlines()[-2] == "ok: 6 events in 2 streams verified"

    out.write_text(out.read_text(encoding="utf-8").replace('{\\"n\\":5}', '{\\"n\\":6}'),
                   encoding="utf-8")
    broken = run_handlog("log", "verify", str(out))
    assert broken.returncode == 1
    assert "BREAK payload changed at stream 'table-1', version 5, event " in broken.stdout
    assert "Traceback" not in broken.stderr


def test_verify_recomputes_the_hash_of_any_text_exactly(db_url: str) -> None:
    """Quotes, backslashes, accents, emoji and control escapes in payloads, actors and devices
    hash as schema/hashing.py hashes them: the log verifies, and one changed byte does not."""
    from conftest_store import new_event

    upgrade_database(db_url)
    odd = 'Zoë "the \\ rock" \u00e9\u2014\U0001f0a1 \t\n</script>'
    with open_store(db_url) as store:
        store.append("table-é", 0, [
            new_event({"note": odd, "n": [1, {"b": odd}]}, actor=odd[:40], device="tab\u00e9"),
            new_event({"a": "\u2028\u2029\x7f"}, event_type="ruling_recorded"),
        ], kind="table")
    result = handlog("log", "verify", "--db", db_url)
    assert result.exit_code == 3, result.output
    _tamper_in_database(db_url, "UPDATE events SET actor = 'x' WHERE version = 1")
    assert handlog("log", "verify", "--db", db_url).exit_code == 1
