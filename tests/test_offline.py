"""What the pages need offline, server side: the service worker at /sw.js (its scope the whole
site, the page files listed, a digest that changes with them), the engine package served as a
zip from the installed package, and the tablet's offline rules (recorder/offline_engine.py,
run by Pyodide in the browser) deciding as the server does."""

from __future__ import annotations

import ast
import io
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from web_support import Client, make_app, make_recorder, open_table

from handlog.recorder import offline, offline_engine


def client(tmp_path: Path) -> Client:
    """The table's dealer (`.viewer`: a viewer of the same server)."""
    recorder = make_recorder(tmp_path)
    open_table(recorder, "table-1")
    app, auth = make_app(recorder)
    c = Client(app, auth).__enter__()
    assert c.login("dealer", "table-1").status_code == 200
    viewer = Client(app, auth).__enter__()
    assert viewer.login("viewer").status_code == 200
    c.viewer = viewer  # type: ignore[attr-defined]
    return c


def test_the_service_worker_keeps_every_page_and_file(tmp_path: Path) -> None:
    c = client(tmp_path)
    answer = c.http.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["service-worker-allowed"] == "/"
    assert answer.headers["content-type"].startswith("text/javascript")
    text = answer.text
    assert "__HANDLOG" not in text
    start = text.index("JSON.parse(") + len("JSON.parse(")
    assets = json.loads(json.loads(text[start:text.index(");", start)]))
    for page in ("table.html", "floor.html", "join.html", "replayer.html", "common.js",
                 "app.css", "lit.js", "dealer/main.js", "dealer/outbox.js", "floor/main.js",
                 "floor/side.js", "join.js", "replayer.js", "asof.js"):
        assert f"/static/{page}" in assets
    assert "/vendor/engine.zip" in assets
    assert ("/vendor/pyodide/pyodide.mjs" in assets) == offline.pyodide_installed()
    for url in assets:  # every listed file is there (the worker's install fails otherwise)
        assert c.http.get(url).status_code == 200, url
    assert c.http.get("/vendor/pyodide/nothing.js").status_code == 404


def test_the_engine_zip_is_the_installed_engine_and_imports_only_the_standard_library(
        tmp_path: Path) -> None:
    c = client(tmp_path)
    data = c.http.get("/vendor/engine.zip").content
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    engine_dir = Path(offline.ENGINE)
    assert sorted(n for n in names if n.startswith("handlog/engine/")) == sorted(
        f"handlog/engine/{p.relative_to(engine_dir).as_posix()}"
        for p in engine_dir.rglob("*.py"))
    assert {"handlog/__init__.py", "handlog/schema/codec.py", "handlog/schema/errors.py",
            "handlog_offline.py", "handlog/recorder/offline_view.py"} <= set(names)
    archive = zipfile.ZipFile(io.BytesIO(data))
    ours = {"handlog.engine", "handlog.schema", "handlog.recorder", "handlog_offline", "handlog"}
    assert {n for n in names if n.startswith("handlog/recorder/")} == {
        "handlog/recorder/__init__.py", "handlog/recorder/offline_view.py"}
    for name in names:
        tree = ast.parse(archive.read(name))
        top_level = set(tree.body)
        for node in ast.walk(tree):
            modules = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                       [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                       else [])
            for module in modules:
                top = ".".join(module.split(".")[:2]) if module.startswith("handlog.") \
                    else module.split(".")[0]
                assert top in ours or top in sys.stdlib_module_names, (name, module)
                if top == "handlog.schema" and node in top_level:  # only the codec and errors
                    assert module in ("handlog.schema.codec", "handlog.schema.errors"), \
                        (name, module)


def decided_offline(view: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(offline_engine.decide_entries(json.dumps(view),
                                                                      json.dumps(entries)))
    return answer


# The facts of a view that the tablet's engine computes (the rest is the stream's: its version,
# the recent events, what the tablet decides with).
STREAM_KEYS = {"stream", "version", "role", "events", "offline_hand", "offline_table"}


def test_the_tablets_engine_decides_as_the_server_does(tmp_path: Path) -> None:
    c = client(tmp_path)
    c.ok("table-1", {"type": "start_hand"})
    view = c.table("table-1")
    ann = view["hand"]["legal"]["player"]
    answer = decided_offline(view, [{"type": "check_call", "player": None}])
    assert answer["ok"] and answer["commands"] == [{"type": "check_call", "player": ann}]
    c.ok("table-1", {"type": "check_call", "player": ann})
    server = c.table("table-1")
    assert answer["view"] == {k: v for k, v in server.items() if k not in STREAM_KEYS}
    refused = decided_offline(view, [{"type": "check_call", "player": None},
                             {"type": "bet_raise", "player": None, "to": 150}])
    assert not refused["ok"] and refused["rule"] == "tda-43" and refused["index"] == 1
    assert refused["rule_words"] == "TDA 43"
    legal = server["hand"]["legal"]
    answer = c.send("table-1", {"type": "bet_raise", "player": legal["player"], "to": 150})
    assert answer.status_code == 422 and answer.json()["rule"] == "tda-43"  # the server agrees


def test_offline_a_whole_hand_to_the_push_and_the_next_hand_are_the_servers_view(
        tmp_path: Path) -> None:
    """From the view the tablet last had, the tablet's engine plays the hand on through the
    board, the shows, the award and its push and starts the next hand (button, blinds): after
    each entry its view of the table is the one the server gives once the entry is recorded."""
    c = client(tmp_path)
    c.ok("table-1", {"type": "start_hand"})
    view = c.table("table-1")
    entries: list[dict[str, Any]] = []

    def both(entry: dict[str, Any]) -> dict[str, Any]:
        entries.append(entry)
        answer = decided_offline(view, entries)
        assert answer["ok"], answer
        c.ok("table-1", answer["commands"][-1])
        server = c.table("table-1")
        assert answer["view"] == {k: v for k, v in server.items() if k not in STREAM_KEYS}
        return server

    for _ in range(3):
        server = both({"type": "check_call", "player": None})  # call, complete, check
    for cards in ("2c7d9h", "Js", "Qd"):
        both({"type": "deal_board", "cards": cards})
        while (server := c.table("table-1"))["hand"]["legal"]:
            both({"type": "check_call", "player": None})
    server = c.table("table-1")
    order = server["hand"]["showdown"]["order"]
    for player, cards in zip(order, ("AsAh", "KsKh", "3c3d"), strict=False):
        server = both({"type": "show_cards", "player": player, "cards": cards})
    assert server["hand"]["showdown"]["proposed"]
    server = both({"type": "award_pots"})
    assert not server["hand_in_progress"] and server["next_hand"]["starts_by_itself"]
    server = both({"type": "start_hand"})
    assert server["hand"]["number"] == 2 and server["hand_in_progress"]
    both({"type": "fold", "player": None})
    both({"type": "bet_raise", "player": None, "to": "max"})
    types = [e["type"] for e in c.table("table-1")["events"]]
    assert "pot_awarded" in types and "hand_started" in types


def test_only_a_tablet_that_sees_hole_cards_gets_the_hand_for_offline(tmp_path: Path) -> None:
    c = client(tmp_path)
    c.ok("table-1", {"type": "start_hand"})
    assert c.table("table-1")["offline_hand"][0][0] == "hand_started"
    viewer = c.viewer.table("table-1")  # type: ignore[attr-defined]
    assert "offline_hand" not in viewer and "offline_table" not in viewer


def test_the_chip_tray_and_an_action_out_of_turn_are_decided_offline_as_the_server_does(
        tmp_path: Path) -> None:
    c = client(tmp_path)
    c.ok("table-1", {"type": "start_hand"})
    view = c.table("table-1")
    ann = view["hand"]["legal"]["player"]
    cy = (ann + 2) % 3
    entries = [{"type": "act_out_of_turn", "player": cy, "action": "fold"},
               {"type": "push_chips", "player": ann, "motions": [[50, 50]]}]
    answer = decided_offline(view, entries)
    assert answer["ok"], answer
    for entry in entries:
        c.ok("table-1", entry)
    server = c.table("table-1")
    assert answer["view"] == {k: v for k, v in server.items() if k not in STREAM_KEYS}
    types = [e["type"] for e in server["events"]]
    assert "acted_out_of_turn" in types and "chips_pushed" in types


def test_serve_says_at_start_when_the_tablets_cannot_check_entries_offline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With only the README's first command (no Pyodide), `handlog serve` says that offline
    the tablets queue entries unchecked; with Pyodide it says nothing of it."""
    monkeypatch.setattr(offline, "PYODIDE", tmp_path / "no-pyodide")
    note = offline.offline_note()
    assert note.startswith("tablets offline: entries are queued as tapped")
    assert "not checked on the tablet" in note and "npm ci --prefix web" in note
    monkeypatch.setattr(offline, "pyodide_installed", lambda: True)
    assert offline.offline_note() == ""
