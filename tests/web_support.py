"""Shared set-up of the HTTP API and page tests: a recorder on a tmp SQLite file, tables with
known stacks recorded through the Recorder directly, and a TestClient that signs in."""

from __future__ import annotations

import os
import uuid
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

with warnings.catch_warnings():
    # Starlette's TestClient warns that it wants httpx2 (not installed; httpx works).
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from handlog.engine.table import Level
from handlog.engine.table_commands import OpenTable, PlaceButton, SeatPlayer, TableCommand
from handlog.recorder.api import create_app
from handlog.recorder.auth import CSRF_HEADER, Auth
from handlog.recorder.service import SYSTEM, Actor, Recorder
from handlog.replay.fold import TableFold
from handlog.schema.store import open_store

DIRECTOR_PIN = "2468"
LEVEL = Level(50, 100, number=1)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# Three players, one short: an all-in of Ann's makes a side pot between Bob and Cy.
SHORT_STACK_TABLE = [(1, "Ann", 1000), (3, "Bob", 3000), (5, "Cy", 3000)]


def make_recorder(tmp_path: Path) -> Recorder:
    return Recorder(open_store(f"sqlite:///{tmp_path / 'handlog.db'}", upgrade=True))


def record(recorder: Recorder, stream: str, command: TableCommand,
           actor: Actor = SYSTEM) -> int:
    """Record `command` at the table's current version; returns the new version."""
    version = recorder.table(stream).version
    return recorder.submit(stream, command, version, uuid.uuid4(), actor).version


def open_table(recorder: Recorder, stream: str,
               players: Iterable[tuple[int, str, int]] = SHORT_STACK_TABLE,
               button: int = 1, seat_count: int = 9, profile: str = "tda") -> None:
    record(recorder, stream, OpenTable(stream.removeprefix("table-"), seat_count, profile))
    for seat, name, stack in players:
        record(recorder, stream, SeatPlayer(seat, name, stack))
    record(recorder, stream, PlaceButton(button))


def fixed_level(_stream: str, _fold: TableFold) -> Level:
    return LEVEL


def make_app(recorder: Recorder, **options: Any) -> tuple[FastAPI, Auth]:
    auth = options.pop("auth", None) or Auth(director_pin=DIRECTOR_PIN)
    options.setdefault("level_for", fixed_level)
    options.setdefault("poll_seconds", 0.2)
    return create_app(recorder, auth=auth, **options), auth


class Client:
    """A TestClient that signs in as one role and sends commands with fresh event ids."""

    def __init__(self, app: FastAPI, auth: Auth, base_url: str = "http://testserver") -> None:
        self.http = TestClient(app, base_url=base_url)
        self.auth = auth
        self.csrf = ""

    def __enter__(self) -> Client:
        self.http.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.__exit__(*exc)

    def login(self, role: str, table: str | None = None, *, pin: str | None = None,
              device: str = "tablet-test", name: str = "") -> Any:
        if pin is None:
            pin = DIRECTOR_PIN if role == "director" else (
                self.auth.table_pin(table) if role == "dealer" and table else "")
        response = self.http.post("/api/session", json={
            "role": role, "table": table, "pin": pin, "device": device, "name": name})
        if response.status_code == 200:
            self.csrf = response.json()["csrf"]
        return response

    def table(self, stream: str) -> dict[str, Any]:
        response = self.http.get(f"/api/tables/{stream}")
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def send(self, stream: str, command: dict[str, Any], version: int | None = None,
             event_id: str | None = None, csrf: bool = True) -> Any:
        if version is None:
            version = self.table(stream)["version"]
        headers = {CSRF_HEADER: self.csrf} if csrf else {}
        return self.http.post(f"/api/tables/{stream}/commands", headers=headers, json={
            "event_id": event_id or str(uuid.uuid4()), "expected_version": version,
            "command": command})

    def ok(self, stream: str, command: dict[str, Any]) -> dict[str, Any]:
        response = self.send(stream, command)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def to_act(self, stream: str) -> int:
        hand = self.table(stream)["hand"]
        assert hand and hand["legal"], "nobody is to act"
        player: int = hand["legal"]["player"]
        return player


def require_chromium() -> None:
    """Skip (saying why) without Debian's chromium, except in CI where that is a failure."""
    if os.path.exists(CHROMIUM):
        return
    reason = f"{CHROMIUM} is not installed (apt-get install chromium)"
    if os.environ.get("HANDLOG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"HANDLOG_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


def apply_changes(view: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """A tournament command's answer applied to the tournament view it was taken against, as
    the floor page applies it (recorder/static/floor.js applyChanges, mergeRows)."""
    if not delta["base"]:  # the whole view
        return {k: v for k, v in delta.items() if k != "base"}
    assert delta["base"] == view["version"], (delta["base"], view["version"])
    result = view | {k: v for k, v in delta.items() if k not in ("base", "lists")}
    for key, change in delta.get("lists", {}).items():
        changed = {row["player"] for row in change["changed"]}
        rows = [r for r in view[key] if r["player"] not in changed
                and r["player"] not in change["removed"]] + change["changed"]
        result[key] = sorted(rows, key=lambda r: (r.get("table", ""), r.get("seat", 0), r["n"])
                             )[:result.get("list_limit")]
    return result
