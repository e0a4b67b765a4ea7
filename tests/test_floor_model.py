"""The floor's read model: each table's summary is built once per version of the table (and of
its tournament), not again for every floor request; it still shows every new entry."""

from __future__ import annotations

from typing import Any

import pytest
from web_support import Client, make_app, make_recorder

import handlog.recorder.floor_cards
from handlog.recorder.floor import setup_demo


def test_the_floor_rebuilds_only_the_tables_that_changed(tmp_path: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Two floor reads with nothing recorded between them derive no table twice; after an
    entry at one table, only that table is derived again (once), and the floor shows it."""
    recorder_ = make_recorder(tmp_path)
    setup_demo(recorder_)
    built: list[str] = []
    summary = handlog.recorder.floor_cards.table_summary

    def counted(fold: Any, *args: Any, **kwargs: Any) -> Any:
        built.append(fold.stream)
        return summary(fold, *args, **kwargs)

    monkeypatch.setattr(handlog.recorder.floor_cards, "table_summary", counted)
    app, auth = make_app(recorder_)
    with Client(app, auth) as client:
        client.login("director")
        first = client.http.get("/api/floor").json()
        streams = [t["stream"] for t in first["tables"]]
        assert len(streams) > 1 and sorted(built) == sorted(streams)
        built.clear()
        again = client.http.get("/api/floor").json()
        assert built == [] and again["tables"] == first["tables"]
        built.clear()
        answer = client.ok(streams[0], {"type": "start_hand"})
        after = client.http.get("/api/floor").json()
        assert built == [streams[0]]  # once: as the entry was appended, or at the read
        changed = next(t for t in after["tables"] if t["stream"] == streams[0])
        assert changed["version"] == answer["version"]
        assert after["version"] > first["version"]


def test_the_first_floor_read_loads_the_tables_in_one_query(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a restart the floor reads its tables' streams together, not one query each."""
    from handlog.recorder.service import Recorder

    setup_demo(make_recorder(tmp_path))
    fresh = make_recorder(tmp_path)  # a server started again on the same file
    assert isinstance(fresh, Recorder)
    reads: list[str] = []
    many: list[int] = []
    store = fresh.store
    read, read_streams = store.read, store.read_streams
    monkeypatch.setattr(store, "read", lambda stream, *a: reads.append(stream) or read(stream, *a))
    monkeypatch.setattr(store, "read_streams",
                        lambda streams, *a: many.append(len(streams)) or read_streams(streams, *a))
    app, auth = make_app(fresh)
    with Client(app, auth) as client:
        client.login("director")
        floor = client.http.get("/api/floor").json()
    tables = [t["stream"] for t in floor["tables"]]
    assert len(tables) > 1 and many == [len(tables)]
    assert not set(reads) & set(tables)
