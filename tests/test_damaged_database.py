"""A damaged SQLite file (cut off, overwritten with garbage, bit-flipped) is named as damaged, and
another application's database refused as "not a handlog database", by `log verify`, `replay`,
`table list` and `db upgrade`: never a traceback, and nothing written to the file."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest_store import new_events

from handlog.schema.store import open_store, upgrade_database

COMMANDS = [
    ("log", "verify"),
    ("replay",),
    ("table", "list"),
    ("db", "upgrade"),
]


def handlog(*arguments: str) -> Result:
    from handlog.recorder.cli import cli

    return CliRunner().invoke(cli, list(arguments), catch_exceptions=False)


def handlog_file(path: Path) -> None:
    """A real handlog database of a few hundred events, checkpointed back into the main file."""
    url = f"sqlite:///{path}"
    upgrade_database(url)
    with open_store(url) as store:
        for n in range(40):
            store.append(f"table-{n % 4}", n // 4 * 10, new_events(10, start=n // 4 * 10 + 1))
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.execute("PRAGMA journal_mode = DELETE")
    connection.close()


def cut_off(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 1000])


def garbage(path: Path) -> None:
    path.write_bytes(hashlib.sha256(b"x").digest() * 4000)


def bit_flipped(path: Path) -> None:
    """Bytes of the last page overwritten in place (the file keeps its size and header)."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    start = len(data) - page
    for offset in range(start, start + 64):
        data[offset] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [cut_off, garbage, bit_flipped],
                         ids=lambda d: d.__name__)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_damaged_file_is_named_as_damaged_and_left_as_it_is(
    tmp_path: Path, damage: Callable[[Path], None], command: tuple[str, ...]
) -> None:
    path = tmp_path / "room.db"
    handlog_file(path)
    damage(path)
    before = path.read_bytes()
    result = handlog(*command, "--db", str(path))
    assert result.exit_code == 1, result.output
    assert f"the database file {path} is damaged: " in result.output
    assert "Traceback" not in result.output
    assert path.read_bytes() == before
    assert not path.with_name("room.db-wal").exists()


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_another_applications_database_is_refused_untouched(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    path = tmp_path / "shop.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    connection.execute("INSERT INTO customers (name) VALUES ('Ann')")
    connection.commit()
    connection.close()
    before = path.read_bytes()
    result = handlog(*command, "--db", str(path))
    assert result.exit_code == 1, result.output
    assert f"not a handlog database: {path} holds the tables of another application " \
           "(customers)" in result.output
    assert path.read_bytes() == before
    tables = sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("customers",)]


def test_a_sound_file_still_opens(tmp_path: Path) -> None:
    path = tmp_path / "room.db"
    handlog_file(path)
    # 3: sound, but not authenticated (no --key given): nothing is called damaged
    assert handlog("log", "verify", "--db", str(path)).exit_code == 3
    assert handlog("db", "upgrade", "--db", str(path)).exit_code == 0


def copy_database(source: Path, folder: Path, suffixes: tuple[str, ...]) -> Path:
    import shutil

    folder.mkdir()
    for suffix in suffixes:
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", folder / f"{source.name}{suffix}")
    return folder / source.name


def test_a_file_killed_in_the_middle_of_a_checkpoint_is_not_called_damaged(tmp_path: Path) -> None:
    """A kill while SQLite copies the write-ahead log back leaves page 1 (with the new page count)
    written before the later pages; the log still holds them and recovery completes the file."""
    path = tmp_path / "room.db"
    url = f"sqlite:///{path}"
    upgrade_database(url)
    reader = sqlite3.connect(path)  # while it is open, closing the store leaves the log
    reader.execute("SELECT count(*) FROM sqlite_master").fetchall()
    with open_store(url) as store:
        for n in range(40):
            store.append(f"table-{n % 4}", n // 4 * 10, new_events(10, start=n // 4 * 10 + 1))
    killed = copy_database(path, tmp_path / "killed", ("", "-wal"))  # as a kill -9 leaves it
    finished = copy_database(path, tmp_path / "finished", ("", "-wal"))
    reader.close()
    connection = sqlite3.connect(finished)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    # The checkpoint had written page 1 (the new page count) and nothing after it.
    page_size = int.from_bytes(finished.read_bytes()[16:18], "big")
    assert killed.stat().st_size < finished.stat().st_size
    assert Path(f"{killed}-wal").stat().st_size > 0
    with open(killed, "r+b") as stream:
        stream.write(finished.read_bytes()[:page_size])

    result = handlog("log", "verify", "--db", str(killed))
    assert result.exit_code == 3 and "damaged" not in result.output, result.output
    with open_store(f"sqlite:///{killed}") as store:
        assert len(list(store.read_all())) == 400
