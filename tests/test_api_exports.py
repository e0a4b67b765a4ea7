"""The exports and the report over HTTP (issue 27): `GET /api/export?format=...` gives what
`handlog export` writes, to every signed-in session as the table saw it and with every hole card
only to a director or that table's dealer; `GET /api/report?format=json|csv|html` is the
director's."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from web_support import Client, make_app

from handlog.recorder.cli import cli
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Recorder
from handlog.replay.import_ohh import objects
from handlog.schema.store import open_store


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Recorder]:
    """A finished 9-player demo in its own log."""
    folder = tmp_path_factory.mktemp("exports")
    url = f"sqlite:///{folder / 'log.db'}"
    recorder = Recorder(open_store(url, upgrade=True))
    run_demo(recorder, players=9, tables=1, seed=3)
    yield url, recorder
    recorder.store.close()


@pytest.fixture
def clients(event: tuple[str, Recorder]) -> Any:
    app, auth = make_app(event[1])
    made = {role: Client(app, auth) for role in ("director", "viewer", "dealer", "nobody")}
    for client in made.values():
        client.__enter__()
    assert made["director"].login("director").status_code == 200
    assert made["viewer"].login("viewer").status_code == 200
    assert made["dealer"].login("dealer", _table(event[1])).status_code == 200
    yield made
    for client in made.values():
        client.__exit__(None, None, None)


def _table(recorder: Recorder) -> str:
    return next(h.stream_id for h in recorder.store.streams() if h.kind == "table")


def _cli_export(url: str, tmp_path: Path, fmt: str, *options: str) -> str:
    out = tmp_path / f"cli.{fmt}"
    result = CliRunner().invoke(cli, ["export", "--db", url, "--format", fmt, "--out", str(out),
                                      *options])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["pokerstars", "ohh", "phh"])
def test_a_dealer_gets_the_export_as_the_table_saw_it_and_a_viewer_none(
        clients: dict[str, Client], event: tuple[str, Recorder], tmp_path: Path,
        fmt: str) -> None:
    """A dealer's (or the director's) export is the CLI's; a viewer gets 403: an export writes
    a card a player exposed at the table, which the viewer's pages do not show."""
    assert clients["viewer"].http.get("/api/export", params={"format": fmt}).status_code == 403
    answer = clients["dealer"].http.get("/api/export", params={"format": fmt})
    assert answer.status_code == 200, answer.text
    assert answer.text == _cli_export(event[0], tmp_path, fmt)
    assert int(answer.headers["X-Handlog-Hands"]) == 21
    if fmt == "ohh":
        assert len(list(objects(answer.text))) == 21
    if fmt == "pokerstars":
        assert "Dealt to" not in answer.text  # the observer's form: no unshown hole card


def test_every_hole_card_only_for_the_director_or_that_tables_dealer(
        clients: dict[str, Client], event: tuple[str, Recorder], tmp_path: Path) -> None:
    table = _table(event[1])
    everything = _cli_export(event[0], tmp_path, "pokerstars", "--all-cards")
    assert "Dealt to" in everything
    asked = {"format": "pokerstars", "cards": "all"}
    assert clients["viewer"].http.get("/api/export", params=asked).status_code == 403
    assert clients["viewer"].http.get("/api/export", params={
        "format": "pokerstars", "hero": "Bea"}).status_code == 403
    assert clients["dealer"].http.get("/api/export", params=asked).status_code == 403
    answer = clients["dealer"].http.get("/api/export", params={**asked, "table": table})
    assert answer.status_code == 200 and answer.text == everything
    director = clients["director"].http.get("/api/export", params=asked)
    assert director.status_code == 200 and director.text == everything


def test_the_export_refuses_what_it_cannot_give(clients: dict[str, Client]) -> None:
    assert clients["nobody"].http.get("/api/export",
                                      params={"format": "phh"}).status_code == 401
    wrong = clients["dealer"].http.get("/api/export", params={"format": "hh"})
    assert wrong.status_code in (400, 422) and "format" in wrong.text
    missing = clients["dealer"].http.get("/api/export",
                                         params={"format": "phh", "table": "table-none"})
    assert missing.status_code == 404 and "table-none" in missing.text
    missing = clients["dealer"].http.get("/api/export",
                                         params={"format": "phh", "tournament": "none"})
    assert missing.status_code == 404


def test_the_report_is_the_directors_in_json_csv_and_html(clients: dict[str, Client]) -> None:
    for role in ("viewer", "dealer"):
        assert clients[role].http.get("/api/report").status_code == 403
    assert clients["nobody"].http.get("/api/report").status_code == 401
    director = clients["director"].http
    data = director.get("/api/report", params={"format": "json"})
    assert data.status_code == 200 and data.headers["content-type"] == "application/json"
    report = json.loads(data.text)
    assert sum(len(t["hands"]) for t in report["tables"]) >= 21
    assert data.headers["X-Handlog-Clean"] == ("true" if not report["verdict"]["findings"]
                                               else "false")
    rows = list(csv.DictReader(io.StringIO(director.get(
        "/api/report", params={"format": "csv"}).text)))
    assert rows and "hand" in rows[0]
    log_rows = director.get("/api/report", params={"format": "csv", "part": "corrections"})
    assert log_rows.status_code == 200 and log_rows.text.splitlines()[0]
    page = director.get("/api/report", params={"format": "html"})
    assert page.status_code == 200 and page.text.lstrip().lower().startswith("<!doctype html")
    assert director.get("/api/report", params={"tournament": "none"}).status_code == 404
